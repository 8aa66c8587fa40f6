package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"tend/sandbox"
	"tend/vterm"
)

// Shell defaults.
const (
	DefaultShellIdle = 30 * time.Minute
	DefaultMaxPTYs   = 16
	settle           = 300 * time.Millisecond // quiet time that ends a keys/raw send without a prompt
)

// Sentinel errors of shells.
var (
	// ErrShellBusy says a shell is still running an earlier command.
	ErrShellBusy = errors.New("the shell is still running a command")
	// ErrNothingToSend says a use of a shell had no command and no keys.
	ErrNothingToSend = errors.New("nothing to send: no command and no keys")
)

// Shell is a persistent bash on a terminal. Each command runs through the
// prompt, which carries an invisible marker with the command's exit code, so
// output and exit code are cut exactly; reads are cursor-based: each returns
// only what the shell printed since the last.
type Shell struct {
	Job    *Job
	marker *regexp.Regexp // OSC 7770 with this shell's token and $?

	mu      sync.Mutex // one command at a time
	cursor  int64      // how far reads have returned output
	idle    *time.Timer
	idleFor time.Duration // unused this long, the shell is closed
	typed   string        // raw_send text after the last line end: the start of the line being typed
}

// ShellSpec describes a shell to open.
type ShellSpec struct {
	Cwd        string
	Env        map[string]string
	Cols, Rows int
	Idle       time.Duration // close it after this long unused (default 30 min)
	Origin     Origin
	Sandbox    sandbox.Mode // confines the shell and all it runs ("" or off: not)
}

// OpenShell starts a shell and waits for its first prompt.
func (e *Engine) OpenShell(ctx context.Context, spec ShellSpec) (*Shell, error) {
	token := rand.Text()[:10]
	env := map[string]string{
		// The marker is an OSC sequence, which terminals do not draw; \[ \]
		// tell readline it takes no columns.
		"PS1":      `\[` + "\x1b]7770;" + token + `;$?` + "\a" + `\]$ `,
		"PS2":      "",
		"HISTFILE": "",
	}
	for k, v := range spec.Env {
		env[k] = v
	}
	j, err := e.Start(ctx, Spec{
		Command: "bash --norc --noprofile", Cwd: spec.Cwd, Env: env, PTY: true, Interactive: true,
		Cols: spec.Cols, Rows: spec.Rows, Origin: spec.Origin, Description: "persistent shell", Sandbox: spec.Sandbox,
	})
	if err != nil {
		return nil, err
	}
	sh := &Shell{Job: j, marker: regexp.MustCompile("\x1b\\]7770;" + token + ";(\\d+)\a")}
	res := sh.wait(ctx, 0, nil, 10*time.Second, false)
	if res.ExitCode == nil {
		j.Kill("the shell did not start")
		return nil, fmt.Errorf("the shell printed no prompt within 10 s: %q", res.Output)
	}
	sh.cursor = res.NextOffset
	idle := spec.Idle
	if idle <= 0 {
		idle = DefaultShellIdle
	}
	sh.idleFor = idle
	sh.idle = time.AfterFunc(idle, func() { j.Kill("the shell was idle for " + idle.String()) })
	go func() { <-j.done; sh.idle.Stop() }()
	e.mu.Lock()
	e.shells[j.ID] = sh
	e.mu.Unlock()
	return sh, nil
}

// Shell returns the open shell with the given id.
func (e *Engine) Shell(id JobID) (*Shell, error) {
	e.mu.Lock()
	sh, ok := e.shells[id]
	e.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoShell, id)
	}
	return sh, nil
}

// RunSpec is one use of a shell.
type RunSpec struct {
	Command  string
	RawSend  bool     // send Command as typed bytes, without Enter, and do not wait for the prompt
	Keys     []string // named keys sent after Command: "ctrl+c", "enter", "up" …
	Expect   *regexp.Regexp
	ReadOnly bool // send nothing: return what was printed since the last read
	Timeout  time.Duration
}

// RunResult is what a shell printed for one use.
type RunResult struct {
	Output        string
	PromptAfter   bool // the prompt came back: the command finished
	MatchedExpect bool
	ExitCode      *int // the command's exit code, read from the prompt
	NextOffset    int64
	TimedOut      bool
	Note          string
}

// Run sends a command (or keys, or raw bytes) and waits for the prompt that
// follows it, for expect to match, or for the timeout; the shell goes on in
// every case.
func (sh *Shell) Run(ctx context.Context, r RunSpec) (RunResult, error) {
	if !sh.mu.TryLock() {
		return RunResult{}, ErrShellBusy
	}
	defer sh.mu.Unlock()
	j := sh.Job
	if j.Done() {
		st, code, _ := j.Exit()
		return RunResult{}, fmt.Errorf("shell %s has ended (%s, code %d): open a new one", j.ID, st, code)
	}
	// A shell in use is not idle: the clock starts again when this use ends.
	sh.idle.Stop()
	defer sh.idle.Reset(sh.idleFor)
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	if r.ReadOnly {
		if r.Expect == nil {
			timeout = time.Nanosecond // what is there now, without waiting
		}
		res := sh.wait(ctx, sh.cursor, r.Expect, timeout, false)
		res.TimedOut = res.TimedOut && r.Expect != nil
		sh.cursor = res.NextOffset
		return res, nil
	}
	if r.Command != "" && j.e.cfg.Gate != nil {
		// What is typed into a shell is a command like any other: the same
		// policy holds it, each line of it. A line can be typed
		// over several calls (raw_send without Enter), so what is checked
		// is the line as typed so far, not only this call's part of it.
		for _, line := range typedLines(sh.typed + r.Command) {
			v := j.e.cfg.Gate(ctx, GateRequest{Command: line, Cwd: j.Cwd, Origin: j.Origin})
			if v.Deny != "" {
				return RunResult{}, &DeniedError{Reason: v.Deny, Approval: v.Approval}
			}
			if v.Command != "" {
				return RunResult{}, errors.New("an edited command cannot be typed into a shell: run it again as edited")
			}
		}
	}
	var send []byte
	if r.Command != "" {
		send = append(send, r.Command...)
		if !r.RawSend {
			send = append(send, '\r')
		}
	}
	var modes vterm.Modes
	if len(r.Keys) > 0 { // keys depend on the terminal's modes (application cursor keys …)
		snap, err := j.Screen()
		if err != nil {
			return RunResult{}, err
		}
		modes = snap.Modes
	}
	for _, name := range r.Keys {
		k, err := vterm.ParseKey(name)
		if err != nil {
			return RunResult{}, fmt.Errorf("keys: %w", err)
		}
		send = append(send, vterm.EncodeKey(k, modes)...)
	}
	if len(send) == 0 {
		return RunResult{}, ErrNothingToSend
	}
	// Output already printed but not read belongs to no command: skip it.
	from := j.streams[Stdout].Len()
	if _, err := j.Input(send); err != nil {
		return RunResult{}, err
	}
	if r.RawSend && len(r.Keys) == 0 {
		typed := sh.typed + r.Command
		sh.typed = typed[strings.LastIndexAny(typed, "\r\n")+1:] // a line begun and not yet ended
	} else {
		sh.typed = "" // Enter ended the line, or a key (ctrl+c, enter) took it
	}
	waitPrompt := r.Command != "" && !r.RawSend
	res := sh.wait(ctx, from, r.Expect, timeout, !waitPrompt && r.Expect == nil)
	if waitPrompt && r.Expect == nil {
		res.Output = stripEcho(res.Output, r.Command)
	}
	sh.cursor = res.NextOffset
	return res, nil
}

// wait reads from off until the prompt marker (or expect) appears, the
// output settles (when settleOK), the job ends, or the timeout passes.
func (sh *Shell) wait(ctx context.Context, off int64, expect *regexp.Regexp, timeout time.Duration, settleOK bool) RunResult {
	j := sh.Job
	s := j.streams[Stdout]
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var quiet <-chan time.Time
	res := RunResult{NextOffset: off}
	var buf []byte
	for {
		end, closed, changed := s.state()
		if end > off+int64(len(buf)) {
			c := s.ReadAt(off+int64(len(buf)), int(end-off-int64(len(buf))))
			buf = append(buf, c.Data...)
			if settleOK {
				quiet = time.After(settle)
			}
		}
		if expect != nil && expect.Match(buf) {
			res.MatchedExpect = true
			break
		}
		if m := sh.marker.FindSubmatchIndex(buf); m != nil && expect == nil {
			code, _ := strconv.Atoi(string(buf[m[2]:m[3]]))
			res.ExitCode, res.PromptAfter = &code, true
			// The output is what came before the marker; the prompt after it is not output.
			after := m[1] + promptLen(buf[m[1]:])
			res.Output = cleanOutput(buf[:m[0]])
			res.NextOffset = off + int64(after)
			return res
		}
		if closed {
			res.Note = "the shell has exited"
			break
		}
		select {
		case <-changed:
			continue
		case <-quiet:
		case <-deadline.C:
			res.TimedOut = true
		case <-ctx.Done():
			res.Note = "cancelled"
		}
		break
	}
	res.Output = cleanOutput(buf)
	res.NextOffset = off + int64(len(buf))
	return res
}

// promptLen is the length of the visible prompt ("$ ") after the marker, if
// it has arrived.
func promptLen(b []byte) int {
	if bytes.HasPrefix(b, []byte("$ ")) {
		return 2
	}
	return 0
}

// readline's bracketed-paste switches and bare carriage returns are terminal
// plumbing, not output.
var plumbing = regexp.MustCompile("\x1b\\[\\?2004h|\x1b\\[\\?2004l\r?|\x1b\\]7770;[^\a]*\a")

func cleanOutput(b []byte) string {
	b = plumbing.ReplaceAll(b, nil)
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	s, _ := ValidText(b)
	return s
}

// stripEcho removes the terminal's echo of the command line from the
// start of its output.
func stripEcho(out, cmd string) string {
	echo := cmd + "\n"
	if len(out) >= len(echo) && out[:len(echo)] == echo {
		return out[len(echo):]
	}
	return out
}

// Close ends the shell: exit (or, with force or if exit does not work within
// 2 s, a kill of its whole tree). It returns the output not read yet.
func (sh *Shell) Close(force bool) (code int, final string, already bool) {
	j := sh.Job
	already = j.Done()
	if !already {
		if !force {
			j.Input([]byte("exit\r"))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			j.Wait(ctx)
			cancel()
		}
		if !j.Done() {
			j.Kill("the shell was closed")
		}
	}
	sh.mu.Lock()
	c := j.streams[Stdout].ReadAt(sh.cursor, 1<<20)
	sh.mu.Unlock()
	_, code, _ = j.Exit()
	j.e.mu.Lock()
	delete(j.e.shells, j.ID)
	j.e.mu.Unlock()
	return code, stripEcho(cleanOutput(c.Data), "exit"), already
}

// typedLines splits typed text into lines at Enter (\r) or newline; the
// last may be a line not yet ended.
func typedLines(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == '\r' || r == '\n' })
}
