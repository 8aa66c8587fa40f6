package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Envelope is the result of a foreground exec (terminal_exec).
type Envelope struct {
	ExitCode             *int      `json:"exit_code"`
	Stdout               string    `json:"stdout"`
	Stderr               string    `json:"stderr"`
	StdoutTruncatedBytes int64     `json:"stdout_truncated_bytes"`
	StderrTruncatedBytes int64     `json:"stderr_truncated_bytes"`
	RuntimeMs            int64     `json:"runtime_ms"`
	Pid                  int       `json:"pid"`
	OutputHandle         string    `json:"output_handle,omitempty"`
	TimedOut             bool      `json:"timed_out"`
	SemanticStatus       string    `json:"semantic_status"`
	SemanticMessage      string    `json:"semantic_message,omitempty"`
	Warning              string    `json:"warning,omitempty"`
	AutoBackgrounded     bool      `json:"auto_backgrounded"`
	JobID                JobID     `json:"job_id"`
	Signal               string    `json:"signal,omitempty"`
	Approval             *Approval `json:"approval,omitempty"`
	// StdoutNextOffset and StderrNextOffset are set when the exec was
	// backgrounded: reading the job's streams from them gives the rest.
	StdoutNextOffset *int64 `json:"stdout_next_offset,omitempty"`
	StderrNextOffset *int64 `json:"stderr_next_offset,omitempty"`
}

// Approval records a person's decision on a held command.
type Approval struct {
	Required bool   `json:"required"`
	Decision string `json:"decision"`
	By       string `json:"by,omitempty"`
	Reason   string `json:"reason,omitempty"`
	WaitedMs int64  `json:"waited_ms"`
}

// ErrCancelled is returned by [Engine.Exec] when its call was cancelled; the
// job has been killed.
var ErrCancelled = errors.New("cancelled: the command was killed")

// Exec starts spec and waits for it up to budget (0: until it ends or its
// timeout kills it). Past the budget, or when a person backgrounds it, it
// returns with AutoBackgrounded and the job id, the process still running and
// nothing lost. If ctx is cancelled outright (cause [context.Canceled], an MCP
// notifications/cancelled) the job is killed; if ctx ends for another cause (the
// client went away) the job is left running as a background job.
func (e *Engine) Exec(ctx context.Context, spec Spec, budget time.Duration, maxOutput int) (*Envelope, error) {
	spec.Foreground = true
	j, err := e.Start(ctx, spec)
	var denied *DeniedError
	if errors.As(err, &denied) {
		return &Envelope{SemanticStatus: SemanticDenied, SemanticMessage: denied.Error(), Approval: denied.Approval}, nil
	}
	if err != nil {
		return nil, err
	}
	var after <-chan time.Time
	if budget > 0 {
		t := time.NewTimer(budget)
		defer t.Stop()
		after = t.C
	}
	select {
	case <-j.done:
		return j.envelope(maxOutput, false), nil
	case <-after:
	case <-j.bg:
	case <-ctx.Done():
		if context.Cause(ctx) == context.Canceled {
			j.Kill("its call was cancelled")
			return nil, fmt.Errorf("job %s: %w", j.ID, ErrCancelled)
		}
	}
	j.mu.Lock()
	j.foreground = false
	j.mu.Unlock()
	if j.Done() { // it ended while we were deciding: report it whole
		return j.envelope(maxOutput, false), nil
	}
	e.publish(JobChanged, j)
	return j.envelope(maxOutput, true), nil
}

// envelope builds the exec result from the job's logs: each stream inline up
// to maxOutput bytes, head and tail with a marker beyond that, and a handle to
// the whole output.
func (j *Job) envelope(maxOutput int, backgrounded bool) *Envelope {
	info := j.Info()
	st, code, sig := j.Exit()
	j.mu.Lock()
	approval := j.approval
	j.mu.Unlock()
	env := &Envelope{
		RuntimeMs: info.RuntimeMs, Pid: info.Pid, JobID: j.ID, Warning: info.Warning,
		AutoBackgrounded: backgrounded, Approval: approval,
	}
	var notes []string
	if info.Note != "" {
		notes = append(notes, info.Note)
	}
	truncated := false
	for _, name := range []string{Stdout, Stderr} {
		s, err := j.stream(name)
		if err != nil {
			continue // stderr merged into stdout
		}
		end := s.Len()
		text, dropped, bad := inline(s, end, maxOutput, j.ID)
		if bad {
			notes = append(notes, name+" was not valid UTF-8: invalid bytes are shown as U+FFFD")
		}
		truncated = truncated || dropped > 0
		if name == Stdout {
			env.Stdout, env.StdoutTruncatedBytes = text, dropped
			if backgrounded {
				env.StdoutNextOffset = &end
			}
		} else {
			env.Stderr, env.StderrTruncatedBytes = text, dropped
			if backgrounded {
				env.StderrNextOffset = &end
			}
		}
	}
	if truncated {
		env.OutputHandle = j.e.NewHandle(j.ID)
	}
	if backgrounded {
		env.SemanticStatus = SemanticOK
		env.SemanticMessage = fmt.Sprintf("still running as job %s: read the rest with terminal_job_logs (job_id %q, since_offset = the next offsets here)", j.ID, j.ID)
	} else {
		env.ExitCode = &code
		env.Signal = sig
		env.TimedOut = st == TimedOut
		env.SemanticStatus, env.SemanticMessage = semantic(j.Command, st, code, sig)
	}
	if len(notes) > 0 {
		if env.Warning != "" {
			notes = append([]string{env.Warning}, notes...)
		}
		env.Warning = strings.Join(notes, "; ")
	}
	return env
}

// inline renders bytes [0, end) of s as valid UTF-8 text within limit bytes:
// whole if it fits, else head and tail around a marker line saying how many
// bytes were left out. It returns the text, the bytes left out and whether
// any invalid UTF-8 was replaced.
func inline(s source, end int64, limit int, id JobID) (string, int64, bool) {
	if end <= int64(limit) {
		text, bad := ValidText(s.ReadAt(0, int(end)).Data)
		return text, 0, bad
	}
	half := limit / 2
	head := s.ReadAt(0, half).Data
	tail := s.ReadAt(end-int64(half), half).Data
	head = head[:cutHead(head)]
	tail = tail[cutTail(tail):]
	left := end - int64(len(head)) - int64(len(tail))
	marker := fmt.Sprintf("\n[… tend: %d bytes left out here; the whole output is behind output_handle, or read job %s with terminal_job_logs …]\n", left, id)
	h, badH := ValidText(head)
	t, badT := ValidText(tail)
	return h + marker + t, left, badH || badT
}

// cutHead ends a head at the last newline near its end, or at a rune start.
func cutHead(b []byte) int {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 && len(b)-i < 4096 {
		return i + 1
	}
	for i := len(b); i > 0 && i > len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i-1]) {
			if utf8.FullRune(b[i-1:]) {
				return len(b)
			}
			return i - 1
		}
	}
	return len(b)
}

// cutTail starts a tail after the first newline near its start, or at a rune start.
func cutTail(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 && i < 4096 {
		return i + 1
	}
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return 0
}

// ValidText returns b as a string that is valid UTF-8, so it stays valid
// JSON: invalid bytes become U+FFFD, and replaced says whether any did.
func ValidText(b []byte) (text string, replaced bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), true
}
