package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
)

type execInput struct {
	Command                string            `json:"command" jsonschema:"the command line; it runs with bash -c when it uses shell syntax (never zsh)"`
	Cwd                    string            `json:"cwd,omitempty" jsonschema:"working directory (default: the agent's, when it connects through tend mcp; else tend's)"`
	Env                    map[string]string `json:"env,omitempty" jsonschema:"extra environment variables"`
	TimeoutSec             *float64          `json:"timeout_sec,omitempty" jsonschema:"kill the command after this many seconds (default 60); it keeps applying after the command is backgrounded"`
	AutoBackgroundAfterSec *float64          `json:"auto_background_after_sec,omitempty" jsonschema:"return after this many seconds with the command still running as a background job (default 30); 0 waits until it ends or times out"`
	Stdin                  *string           `json:"stdin,omitempty" jsonschema:"text written to the command's stdin, which is then closed (default: /dev/null)"`
	MaxOutputKB            int               `json:"max_output_kb,omitempty" jsonschema:"inline output cap per stream in KiB (default 256, at most 1024); beyond it head and tail are shown and the rest is behind output_handle"`
	Limits                 *limitsInput      `json:"limits,omitempty" jsonschema:"optional resource limits"`
	Description            string            `json:"description,omitempty" jsonschema:"what this command is for, shown to the person watching"`
	PTY                    bool              `json:"pty,omitempty" jsonschema:"run on a pseudo-terminal (120x40): for programs that need a terminal; output is one stream (stdout)"`
	MergeStderr            bool              `json:"merge_stderr,omitempty" jsonschema:"send stderr into stdout: one stream, in the exact order written (stderr comes back empty)"`
	Sandbox                string            `json:"sandbox,omitempty" jsonschema:"confine the command and all it starts: off, workspace (writes only in its working tree and the temp dirs), workspace-offline (the same, and no TCP) or readonly (writes only in the temp dirs); default: the config's, off unless set"`
}

// limitsInput is [engine.Limits] on the wire.
type limitsInput struct {
	CPUSec  int `json:"cpu_sec,omitempty" jsonschema:"CPU seconds (RLIMIT_CPU)"`
	RSSMB   int `json:"rss_mb,omitempty" jsonschema:"address space in MiB (RLIMIT_AS; Linux does not enforce RSS itself)"`
	FsizeMB int `json:"fsize_mb,omitempty" jsonschema:"largest file the job may write, in MiB (RLIMIT_FSIZE)"`
	Nofile  int `json:"nofile,omitempty" jsonschema:"open files (RLIMIT_NOFILE)"`
}

func (l *limitsInput) engine() engine.Limits {
	if l == nil {
		return engine.Limits{}
	}
	return engine.Limits{CPUSec: l.CPUSec, RSSMB: l.RSSMB, FsizeMB: l.FsizeMB, Nofile: l.Nofile}
}

// execOutput is the result of terminal_exec: the envelope.
type execOutput struct {
	ExitCode             *int            `json:"exit_code,omitempty" jsonschema:"the exit code; absent while the job runs on (auto_backgrounded) and when a signal ended it"`
	Stdout               string          `json:"stdout"`
	Stderr               string          `json:"stderr"`
	StdoutTruncatedBytes int64           `json:"stdout_truncated_bytes"`
	StderrTruncatedBytes int64           `json:"stderr_truncated_bytes"`
	RuntimeMs            int64           `json:"runtime_ms"`
	Pid                  int             `json:"pid"`
	OutputHandle         string          `json:"output_handle,omitempty"`
	TimedOut             bool            `json:"timed_out"`
	SemanticStatus       string          `json:"semantic_status"`
	SemanticMessage      string          `json:"semantic_message,omitempty"`
	Warning              string          `json:"warning,omitempty"`
	AutoBackgrounded     bool            `json:"auto_backgrounded"`
	JobID                engine.JobID    `json:"job_id"`
	Signal               string          `json:"signal,omitempty"`
	Approval             *approvalOutput `json:"approval,omitempty"`
	// OutputLostBytes counts output kept nowhere (a full disk, a failed
	// write, the log cap); the warning says why.
	OutputLostBytes int64 `json:"output_lost_bytes,omitempty"`
	// StdoutNextOffset and StderrNextOffset are set when the exec was
	// backgrounded: reading the job's streams from them gives the rest.
	StdoutNextOffset *int64 `json:"stdout_next_offset,omitempty"`
	StderrNextOffset *int64 `json:"stderr_next_offset,omitempty"`
}

// approvalOutput is [engine.Approval] on the wire.
type approvalOutput struct {
	Required bool   `json:"required"`
	Decision string `json:"decision"`
	By       string `json:"by,omitempty"`
	Reason   string `json:"reason,omitempty"`
	WaitedMs int64  `json:"waited_ms"`
}

func approvalOf(a *engine.Approval) *approvalOutput {
	if a == nil {
		return nil
	}
	return &approvalOutput{Required: a.Required, Decision: a.Decision, By: a.By, Reason: a.Reason, WaitedMs: a.WaitedMs}
}

type jobStartInput struct {
	Command        string            `json:"command" jsonschema:"the command line; it runs with bash -c when it uses shell syntax (never zsh)"`
	Cwd            string            `json:"cwd,omitempty" jsonschema:"working directory (default: the agent's, when it connects through tend mcp; else tend's)"`
	Env            map[string]string `json:"env,omitempty" jsonschema:"extra environment variables"`
	Name           string            `json:"name,omitempty" jsonschema:"a short name for the job"`
	Description    string            `json:"description,omitempty" jsonschema:"what this job is for, shown to the person watching"`
	MergeStderr    bool              `json:"merge_stderr,omitempty" jsonschema:"send stderr into stdout: one stream, in the exact order written"`
	Sandbox        string            `json:"sandbox,omitempty" jsonschema:"confine the command and all it starts: off, workspace (writes only in its working tree and the temp dirs), workspace-offline (the same, and no TCP) or readonly (writes only in the temp dirs); default: the config's, off unless set"`
	PTY            bool              `json:"pty,omitempty" jsonschema:"run on a pseudo-terminal"`
	Cols           int               `json:"cols,omitempty" jsonschema:"PTY width (default 120)"`
	Rows           int               `json:"rows,omitempty" jsonschema:"PTY height (default 40)"`
	Limits         *limitsInput      `json:"limits,omitempty" jsonschema:"optional resource limits"`
	TimeoutSec     float64           `json:"timeout_sec,omitempty" jsonschema:"kill the job after this many seconds (default: never)"`
	StartupWaitSec *float64          `json:"startup_wait_sec,omitempty" jsonschema:"wait up to this many seconds for the first output or an early exit, whichever comes first (default 1)"`
}

type jobStartOutput struct {
	JobID     engine.JobID `json:"job_id"`
	Pid       int          `json:"pid"`
	Name      string       `json:"name,omitempty"`
	StartedAt time.Time    `json:"started_at"`
	Status    string       `json:"status"`
	ExitCode  *int         `json:"exit_code,omitempty"`
	Output    string       `json:"output,omitempty"`
	// NextOffset is where to continue reading the merged output.
	NextOffset int64  `json:"next_offset"`
	Warning    string `json:"warning,omitempty"`
}

func (s *Server) addExecTools() {
	addTool(s.Server, &mcp.Tool{
		Name: "terminal_exec",
		Description: "Run a shell command and return its exit code and output. " +
			"If it is still running after auto_background_after_sec it becomes a background job: the result has auto_backgrounded=true and job_id, nothing is lost, and terminal_job_logs reads on. " +
			"semantic_status is ok, error, signal or denied (grep/diff/test exiting 1 is ok). warning flags destructive commands.",
	}, s.exec)
	addTool(s.Server, &mcp.Tool{
		Name: "terminal_job_start",
		Description: "Start a long-running command (server, watcher, build) as a background job and return its job_id at once, " +
			"as soon as it prints or exits, or after startup_wait_sec if it does neither, with what it printed so far. Read it with terminal_job_logs; stop it with terminal_job_manage.",
	}, s.jobStart)
}

// startupWait waits up to d for the job's first output or its end,
// whichever comes first: a job that prints at once is answered at once,
// and one that prints nothing is watched the whole window, to say whether
// it died at its start.
func startupWait(ctx context.Context, j *engine.Job, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	for {
		changed, end, closed, err := j.Changed(engine.Merged)
		if err != nil || end > 0 || closed {
			return
		}
		select {
		case <-changed:
		case <-j.Ended():
			return
		case <-ctx.Done():
			return
		}
	}
}

func seconds(v float64) (time.Duration, error) {
	if v < 0 || math.IsNaN(v) || v > 7*24*3600 {
		return 0, fmt.Errorf("%v seconds is out of range (0 to 604800)", v)
	}
	return time.Duration(v * float64(time.Second)), nil
}

func orDefault(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

func (s *Server) exec(ctx context.Context, req *mcp.CallToolRequest, in execInput) (*mcp.CallToolResult, *execOutput, error) {
	timeout, err := seconds(orDefault(in.TimeoutSec, 60))
	if err != nil {
		return fail[*execOutput](fmt.Errorf("timeout_sec: %w", err))
	}
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	budget, err := seconds(orDefault(in.AutoBackgroundAfterSec, 30))
	if err != nil {
		return fail[*execOutput](fmt.Errorf("auto_background_after_sec: %w", err))
	}
	maxOutput, capped, err := replySize("max_output_kb", in.MaxOutputKB, 1<<10, 256<<10, maxReply/2) // for each of stdout and stderr
	if err != nil {
		return fail[*execOutput](err)
	}
	mode, err := s.confinement(in.Sandbox)
	if err != nil {
		return fail[*execOutput](err)
	}
	spec := engine.Spec{
		Command: in.Command, Cwd: s.dir(req, in.Cwd), Env: in.Env, Description: in.Description,
		Timeout: timeout, Origin: s.origin(ctx, req), PTY: in.PTY, Limits: in.Limits.engine(), MergeStderr: in.MergeStderr,
		Sandbox: mode,
	}
	if in.Stdin != nil {
		spec.Stdin = []byte(*in.Stdin)
	}
	if q, err := s.askUser(req, &spec); q != nil || err != nil {
		return q, nil, err
	}
	defer s.keepAlive(ctx, req, "terminal_exec")()
	j, backgrounded, err := s.e.Exec(ctx, spec, budget)
	var denied *engine.DeniedError
	if errors.As(err, &denied) {
		return ok(&execOutput{SemanticStatus: semanticDenied, SemanticMessage: denied.Error(), Approval: approvalOf(denied.Approval)})
	}
	if err != nil {
		return fail[*execOutput](err)
	}
	out := s.envelope(j, maxOutput, backgrounded)
	if capped != "" {
		out.Warning = joinNotes(out.Warning, capped)
	}
	return ok(out)
}

// envelope builds the exec result from the job's logs: each stream inline up
// to maxOutput bytes, head and tail with a marker beyond that, and a handle to
// the whole output.
func (s *Server) envelope(j *engine.Job, maxOutput int, backgrounded bool) *execOutput {
	info := j.Info()
	out := &execOutput{
		RuntimeMs: info.RuntimeMs, Pid: info.Pid, JobID: j.ID, Warning: info.Warning,
		AutoBackgrounded: backgrounded, Approval: approvalOf(info.Approval),
	}
	var notes []string
	if info.Note != "" {
		notes = append(notes, info.Note)
	}
	if info.Lost > 0 {
		out.OutputLostBytes = info.Lost
		notes = append(notes, fmt.Sprintf("%d bytes of output were lost: %s", info.Lost, info.LostWhy))
	}
	truncated := false
	for _, st := range []engine.Stream{engine.Stdout, engine.Stderr} {
		end, err := j.Len(st)
		if err != nil {
			continue // stderr merged into stdout, or a terminal's one stream
		}
		text, dropped, bad := inline(j, st, end, maxOutput)
		if bad {
			notes = append(notes, st.String()+" was not valid UTF-8: invalid bytes are shown as U+FFFD")
		}
		truncated = truncated || dropped > 0
		var next *int64
		if backgrounded {
			next = &end
		}
		if st == engine.Stdout {
			out.Stdout, out.StdoutTruncatedBytes, out.StdoutNextOffset = text, dropped, next
		} else {
			out.Stderr, out.StderrTruncatedBytes, out.StderrNextOffset = text, dropped, next
		}
	}
	if truncated {
		out.OutputHandle = s.handles.add(j.ID)
	}
	if backgrounded {
		out.SemanticStatus = semanticOK
		out.SemanticMessage = fmt.Sprintf("still running as job %s: read the rest with terminal_job_logs (job_id %q, since_offset = the next offsets here)", j.ID, j.ID)
	} else {
		out.ExitCode = info.ExitCode
		out.Signal = info.Signal
		out.TimedOut = info.Status == engine.TimedOut
		out.SemanticStatus, out.SemanticMessage = semantic(j.Command, info)
	}
	if len(notes) > 0 {
		if out.Warning != "" {
			notes = append([]string{out.Warning}, notes...)
		}
		out.Warning = joinNotes(notes...)
	}
	return out
}

// inline renders bytes [0, end) of stream st as valid UTF-8 text within
// limit bytes: whole if it fits, else head and tail around a marker line
// saying how many bytes were left out. It returns the text, the bytes left
// out and whether any invalid UTF-8 was replaced.
func inline(j *engine.Job, st engine.Stream, end int64, limit int) (string, int64, bool) {
	read := func(off int64, n int) []byte {
		c, _ := j.Read(st, off, n)
		return c.Data
	}
	if end <= int64(limit) {
		text, bad := engine.ValidText(read(0, int(end)))
		return text, 0, bad
	}
	half := limit / 2
	head := read(0, half)
	tail := read(end-int64(half), half)
	head = head[:cutHead(head)]
	tail = tail[cutTail(tail):]
	left := end - int64(len(head)) - int64(len(tail))
	marker := fmt.Sprintf("\n[… tend: %d bytes left out here; the whole output is behind output_handle, or read job %s with terminal_job_logs …]\n", left, j.ID)
	h, badH := engine.ValidText(head)
	t, badT := engine.ValidText(tail)
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

func (s *Server) jobStart(ctx context.Context, req *mcp.CallToolRequest, in jobStartInput) (*mcp.CallToolResult, jobStartOutput, error) {
	timeout, err := seconds(in.TimeoutSec)
	if err != nil {
		return fail[jobStartOutput](fmt.Errorf("timeout_sec: %w", err))
	}
	wait, err := seconds(orDefault(in.StartupWaitSec, 1))
	if err != nil {
		return fail[jobStartOutput](fmt.Errorf("startup_wait_sec: %w", err))
	}
	mode, err := s.confinement(in.Sandbox)
	if err != nil {
		return fail[jobStartOutput](err)
	}
	spec := engine.Spec{
		Command: in.Command, Cwd: s.dir(req, in.Cwd), Env: in.Env, Name: in.Name, Description: in.Description,
		MergeStderr: in.MergeStderr, Timeout: timeout, Interactive: true, Origin: s.origin(ctx, req),
		PTY: in.PTY, Cols: in.Cols, Rows: in.Rows, Limits: in.Limits.engine(), Sandbox: mode,
	}
	if q, err := s.askUser(req, &spec); q != nil || err != nil {
		return q, jobStartOutput{}, err
	}
	defer s.keepAlive(ctx, req, "terminal_job_start")()
	j, err := s.e.Start(ctx, spec)
	if err != nil {
		return fail[jobStartOutput](err)
	}
	startupWait(ctx, j, wait)
	info := j.Info()
	c, _ := j.Read(engine.Merged, 0, 16<<10)
	text, _ := engine.ValidText(c.Data)
	return ok(jobStartOutput{
		JobID: j.ID, Pid: info.Pid, Name: info.Name, StartedAt: info.StartedAt, Status: info.Status.String(),
		ExitCode: info.ExitCode, Output: text, NextOffset: c.Next, Warning: info.Warning,
	})
}
