package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"tend/sandbox"
	"tend/vterm"
)

// JobID names a job; ids are small decimal numbers, unique per state dir.
type JobID string

// Status is where a job is in its life.
type Status int

// The statuses. Only Running is not final. The zero Status is none of
// them: a job looked up where there is none is not running.
const (
	Running  Status = iota + 1
	Exited          // the process exited by itself (any code)
	Signaled        // it died from a signal tend did not send
	Killed          // tend ended it: a person, an agent, a cancel, shutdown
	TimedOut        // its timeout ended it
	Failed          // it could not be started
	Lost            // the engine that ran it died; seen in history
)

func (s Status) String() string {
	switch s {
	case Running:
		return "running"
	case Exited:
		return "exited"
	case Signaled:
		return "signaled"
	case Killed:
		return "killed"
	case TimedOut:
		return "timed_out"
	case Failed:
		return "failed"
	case Lost:
		return "lost"
	default:
		return fmt.Sprintf("Status(%d)", int(s))
	}
}

// Origin says who started a job: an MCP client (its name and version from
// initialize, its session and the tool called), or the person at the TUI.
type Origin struct {
	Client  string
	Version string
	Session string
	Tool    string
	// Agent names the agent for people: its client name, the name of the
	// directory it works in, and which of that client's sessions it is
	// (claude-code·api#2), so that two agents of one kind can be told apart.
	// Empty for the person.
	Agent string
	// person marks the person's own jobs. It is unexported so that only
	// [PersonOrigin] sets it: an MCP client that calls itself "human" is
	// still a client.
	person bool
}

// PersonOrigin is the origin of the jobs a person starts in the TUI.
func PersonOrigin() Origin { return Origin{Client: "human", person: true} }

// IsPerson reports whether o is the person at the TUI.
func (o Origin) IsPerson() bool { return o.person }

// Who is the name to show people: the agent's, else the client's.
func (o Origin) Who() string {
	if o.Agent != "" {
		return o.Agent
	}
	return o.Client
}

func (o Origin) String() string {
	if o.Version != "" {
		return o.Client + " " + o.Version
	}
	return o.Client
}

// Stream names one output stream of a job.
type Stream uint8

// The streams. A pipe job has stdout and stderr, and Merged interleaves them
// in arrival order; a PTY job (or one started with MergeStderr) has one
// stream, which every name but Stderr reads. Terminal names a PTY job's
// one stream, and only that.
const (
	Merged Stream = iota
	Stdout
	Stderr
	Terminal
)

func (s Stream) String() string {
	switch s {
	case Merged:
		return "merged"
	case Stdout:
		return "stdout"
	case Stderr:
		return "stderr"
	case Terminal:
		return "pty"
	}
	return fmt.Sprintf("Stream(%d)", int(s))
}

// ParseStream reads a stream's name: stdout, stderr, merged, or "" for
// merged; "pty" names a PTY job's one stream.
func ParseStream(name string) (Stream, error) {
	switch name {
	case "", "merged":
		return Merged, nil
	case "pty":
		return Terminal, nil
	case "stdout":
		return Stdout, nil
	case "stderr":
		return Stderr, nil
	}
	return 0, fmt.Errorf("no stream %q: say stdout, stderr or merged", name)
}

// Job is one running or finished command.
type Job struct {
	ID          JobID
	Name        string
	Command     string
	Description string
	Cwd         string
	Origin      Origin
	Started     time.Time

	e         *Engine
	dir       string
	retained  bool // counted among the finished jobs retention keeps (Engine.retained; e.mu)
	cmd       *exec.Cmd
	pid       int
	leader    procInfo
	cg        *group            // the job's cgroup; nil without
	reaped    atomic.Bool       // os/exec has waited for the leader
	emptyAt   atomic.Uint64     // the clock tick (as /proc counts) it ended at with nothing left; 0 otherwise
	streams   map[Stream]source // stdout, stderr, merged (an interleave of the two)
	merged    bool              // stderr shares stdout's pipe
	pty       bool              // runs on a pseudo-terminal: one stream, the terminal's
	sandbox   sandbox.Mode      // how its command is confined ("": not)
	shell     bool              // a PTY job of an interactive shell (interactiveShell)
	ptmx      *os.File          // the PTY master while the job runs
	sizeMu    sync.Mutex        // serialises resizes
	term      *vterm.Term       // the rendered screen of a PTY job
	cols      int               // its size at the last resize
	rows      int
	termAt    progress     // how far into the output the screen has caught up
	termOnce  sync.Once    // makes term for PTY jobs from history
	wanted    atomic.Int64 // unix nanos until which the emulator keeps up
	emulating atomic.Bool  // an emulate goroutine runs
	in        *inputQueue
	lastOut   atomic.Int64 // unix nanos of the last output, for waiting-for-input
	timer     *time.Timer
	done      chan struct{}
	bg        chan struct{} // closed when a person backgrounds a waiting exec
	bgOnce    sync.Once

	mu         sync.Mutex // guards the fields below
	status     Status
	exitCode   int
	signal     string
	ended      time.Time
	killReason string
	cpuAt      time.Time     // the last look at its CPU time (Usage)
	cpuSeen    time.Duration // and what it was
	cpuPercent float64
	warning    string
	note       string
	foreground bool      // an exec call is waiting on it
	approval   *Approval // a person's decision that let it run
	lost       int64     // from history: the bytes its engine reported lost
	lostWhy    string

	metaFile *os.File // meta.json, open from the first record to the last
	metaLen  int      // the size of the record in it
}

// Info is a job's state for listing and events.
type Info struct {
	ID              JobID
	Name            string
	Command         string
	Description     string
	Cwd             string
	Origin          Origin
	Pid             int
	Status          Status
	ExitCode        *int   // set once the job has finished
	Signal          string // the signal that ended it, if one did
	StartedAt       time.Time
	RuntimeMs       int64
	StdoutBytes     int64
	StderrBytes     int64
	PTY             bool
	WaitingForInput bool // quiet, with a last line that looks like a prompt
	// Idle says the job is an interactive shell at its own prompt, quiet:
	// nothing runs in it and it waits for a command, not for an answer
	// (WaitingForInput is then false).
	Idle bool
	// Killing says the job is being killed: it was sent SIGTERM (by a
	// person, an agent or its timeout) and has not ended yet.
	Killing    bool
	Foreground bool // an exec call is waiting on it
	Warning    string
	Note       string    // what tend noticed about it (a descendant kept its output open …)
	Approval   *Approval // a person's decision that let it run
	// Sandbox is how the job's command is confined ("": not; see
	// package sandbox).
	Sandbox sandbox.Mode
	// Lost is how many bytes of its output are kept nowhere, and LostWhy
	// says why (a full disk, a failed write, the log cap): never silent.
	Lost    int64
	LostWhy string
	// Host names the machine of a job a supervisor of several engines
	// shows (tend attach); an engine leaves it empty.
	Host string
}

// Info returns a snapshot of the job's state.
func (j *Job) Info() Info {
	j.mu.Lock()
	defer j.mu.Unlock()
	in := Info{
		ID: j.ID, Name: j.Name, Command: j.Command, Description: j.Description, Cwd: j.Cwd,
		Origin: j.Origin, Pid: j.pid, Status: j.status, Signal: j.signal,
		StartedAt: j.Started, Foreground: j.foreground && j.status == Running, PTY: j.pty,
		Warning: j.warning, Note: j.note, Approval: j.approval, Sandbox: j.sandbox,
	}
	end := time.Now()
	if j.status != Running {
		code := j.exitCode
		in.ExitCode = &code
		end = j.ended
	}
	in.RuntimeMs = end.Sub(j.Started).Milliseconds()
	if j.status == Lost {
		in.ExitCode = nil // its engine died: nobody saw how it ended
	}
	if s := j.streams[Stdout]; s != nil {
		in.StdoutBytes = s.Len()
	}
	if s := j.streams[Stderr]; s != nil {
		in.StderrBytes = s.Len()
	}
	var whys []string
	for _, name := range []Stream{Stdout, Stderr} {
		if s, ok := j.streams[name].(*stream); ok {
			if n, why := s.loss(); n > 0 {
				in.Lost += n
				whys = append(whys, name.String()+": "+why)
			}
		}
	}
	in.LostWhy = strings.Join(whys, "; ")
	if j.lost > in.Lost { // history: its log no longer says what failed
		in.Lost, in.LostWhy = j.lost, j.lostWhy
	}
	if j.status == Running {
		in.WaitingForInput, in.Idle = j.waitingLocked()
		in.Killing = j.killReason != ""
	}
	return in
}

// Done reports whether the job has finished.
func (j *Job) Done() bool {
	select {
	case <-j.done:
		return true
	default:
		return false
	}
}

// Ended returns a channel closed when the job has finished.
func (j *Job) Ended() <-chan struct{} { return j.done }

// Wait blocks until the job finishes or ctx ends.
func (j *Job) Wait(ctx context.Context) error {
	select {
	case <-j.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Exit returns the status, exit code and signal name of a job.
func (j *Job) Exit() (Status, int, string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.status, j.exitCode, j.signal
}

// stream returns the stream a read of s is served from: a PTY job, or one
// whose stderr shares stdout's pipe, has one stream, which Merged and
// Stdout both name.
func (j *Job) stream(s Stream) (source, error) {
	if s == Terminal && !j.pty {
		return nil, fmt.Errorf("job %s runs on no terminal: read stdout, stderr or merged", j.ID)
	}
	if j.pty || j.merged {
		if s == Stderr {
			why := "runs on a terminal"
			if !j.pty {
				why = "merges stderr into stdout"
			}
			return nil, fmt.Errorf("job %s %s and has one stream: read stdout or merged", j.ID, why)
		}
		s = Stdout
	}
	src, ok := j.streams[s]
	if !ok {
		return nil, fmt.Errorf("job %s has no stream %s", j.ID, s)
	}
	return src, nil
}

// Read returns up to limit bytes of stream s from offset off. A read of
// Merged says in [Chunk.Spans] which bytes came from stdout and which from
// stderr.
func (j *Job) Read(s Stream, off int64, limit int) (Chunk, error) {
	src, err := j.stream(s)
	if err != nil {
		return Chunk{}, err
	}
	return src.ReadAt(off, limit), nil
}

// Len returns the bytes written so far to stream s.
func (j *Job) Len(s Stream) (int64, error) {
	src, err := j.stream(s)
	if err != nil {
		return 0, err
	}
	return src.Len(), nil
}

// Changed returns a channel closed on the next write to stream s or when it
// ends, and the stream's end and whether it is closed now.
func (j *Job) Changed(s Stream) (<-chan struct{}, int64, bool, error) {
	src, err := j.stream(s)
	if err != nil {
		return nil, 0, false, err
	}
	end, closed, ch := src.state()
	return ch, end, closed, nil
}

// Follow gives fn stream s from offset off on, a piece of up to limit
// bytes at a time as it is written, until fn returns false, the stream
// has ended and every piece was given, or ctx ends (its error). A read
// that can make no progress (what was at off is gone from everywhere)
// ends it as the stream's end would.
func (j *Job) Follow(ctx context.Context, s Stream, off int64, limit int, fn func(Chunk) bool) error {
	for {
		changed, end, closed, err := j.Changed(s)
		if err != nil {
			return err
		}
		for off < end {
			c, err := j.Read(s, off, limit)
			if err != nil {
				return err
			}
			if c.Next <= off {
				if closed {
					return nil
				}
				break
			}
			if !fn(c) {
				return nil
			}
			off = c.Next
		}
		if closed {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Input queues data for the job's stdin. It never blocks: bytes beyond the
// queue's room are refused and the count accepted says so.
func (j *Job) Input(data []byte) (int, error) {
	if j.Done() {
		st, code, _ := j.Exit()
		return 0, fmt.Errorf("job %s %s (code %d): %w", j.ID, st, code, ErrNotRunning)
	}
	if j.in == nil {
		return 0, fmt.Errorf("job %s: %w", j.ID, ErrNoStdin)
	}
	if j.pty {
		if err := j.checkCanonical(data); err != nil {
			return 0, err
		}
	}
	return j.in.Write(data)
}

// CloseInput closes the job's stdin once queued bytes are written; on a
// terminal it sends end-of-file (ctrl+d) instead.
func (j *Job) CloseInput() error {
	if j.in == nil {
		return fmt.Errorf("job %s: %w", j.ID, ErrNoStdin)
	}
	if j.pty {
		_, err := j.in.Write([]byte{4})
		return err
	}
	j.in.Close()
	return nil
}

// Background lets an exec waiting on the job return now with its id.
func (j *Job) Background() error {
	if j.Done() {
		return fmt.Errorf("job %s has already finished", j.ID)
	}
	j.bgOnce.Do(func() { close(j.bg) })
	return nil
}

// Signal sends sig to the job's whole process group.
func (j *Job) Signal(sig syscall.Signal) error {
	if j.Done() || j.reaped.Load() {
		return fmt.Errorf("job %s: %w", j.ID, ErrNotRunning)
	}
	if err := syscall.Kill(-j.pid, sig); err != nil {
		return fmt.Errorf("signal job %s: %w", j.ID, err)
	}
	return nil
}

// waitingLocked reports whether the job, quiet, waits for input: its last
// line looks like a prompt; or is idle: an interactive shell at its own
// prompt, which waits for a command rather than on a question.
func (j *Job) waitingLocked() (waiting, idle bool) {
	last := j.lastOut.Load()
	if last == 0 || time.Since(time.Unix(0, last)) < j.e.cfg.Quiet || j.unread() {
		return false, false
	}
	if j.atOwnPrompt() {
		return false, true
	}
	s := j.streams[Merged]
	if j.merged || s == nil {
		s = j.streams[Stdout]
	}
	end := s.Len()
	c := s.ReadAt(end-256, 256)
	return looksLikePrompt(c.Data), false
}

// closeStreams ends the job's streams, the merged view last.
func (j *Job) closeStreams() {
	for name, s := range j.streams {
		if name != Merged {
			s.Close()
		}
	}
	if m := j.streams[Merged]; m != nil {
		m.Close()
	}
}

// release closes the job's streams; with files it deletes its dir.
func (j *Job) release(files bool) {
	j.closeStreams()
	if files && j.dir != "" {
		os.RemoveAll(j.dir)
	}
}

func (j *Job) setNote(format string, args ...any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	msg := fmt.Sprintf(format, args...)
	if j.note == "" {
		j.note = msg
	} else if !strings.Contains(j.note, msg) {
		j.note += "; " + msg
	}
}

// SandboxedNote says, for a job that ran in a sandbox instead of waiting
// for a person's approval, what that means for the agent that asked (failed:
// whether it ended in failure); "" for any other job.
func (in Info) SandboxedNote(failed bool) string {
	if in.Approval == nil || in.Approval.Decision != "sandboxed" {
		return ""
	}
	held := strings.TrimPrefix(in.Warning, "destructive: ")
	if !failed {
		return fmt.Sprintf("it ran in the %s sandbox instead of waiting for a person's approval (it is held: %s)", in.Sandbox, held)
	}
	return fmt.Sprintf("it ran in the %s sandbox instead of waiting for a person's approval, and failed: what it is held for (%s) is refused there. "+
		"If it must run unconfined, ask the person to run it: in tend, R on job %s runs it again unconfined once they confirm", in.Sandbox, held, in.ID)
}

// Spec describes a job to start.
type Spec struct {
	Command     string
	Cwd         string
	Env         map[string]string
	Stdin       []byte // written to stdin, then closed (with Interactive false)
	Interactive bool   // keep stdin open for later input
	Name        string
	Description string
	MergeStderr bool
	PTY         bool // run on a pseudo-terminal: one stream, stdin is the terminal
	Cols, Rows  int  // the terminal's size (default 120×40)
	// Sandbox confines the command and all it starts ("" or off: not;
	// see package sandbox). It needs Config.Confiner.
	Sandbox    sandbox.Mode
	Limits     Limits
	Timeout    time.Duration // 0: none
	Origin     Origin
	Foreground bool // an exec call waits on it
	// Answered is a decision on this command that the agent's own user
	// gave through its client (MCP elicitation), for the gate to apply
	// when no person watches tend. Only tend's code sets it.
	Answered *Approval
	// StdinForwarded says stdin carries what another program sends at run
	// time (tend run's caller's stdin), which the gate cannot see.
	StdinForwarded bool
}

// Start validates spec, passes it through the gate and starts it as a job in
// its own session, with output going to its logs and rings. A command the
// gate denies is not started: the error wraps [ErrDenied].
func (e *Engine) Start(ctx context.Context, spec Spec) (*Job, error) {
	argv, cwd, verdict, err := e.admit(ctx, &spec)
	if err != nil {
		return nil, err
	}
	release, err := e.reserve(spec.PTY)
	if err != nil {
		return nil, err
	}
	j, err := e.launch(spec, argv, cwd, verdict)
	e.starting.Done() // Close may take its list of jobs now: this one is on it, or is not started
	if err != nil {
		release()
		return nil, err
	}
	return j, nil
}

// admit checks spec and asks the gate whether it may run; a person may
// have edited the command on the way (spec then holds the edit). It
// returns the argv to run, the working directory and the gate's verdict.
func (e *Engine) admit(ctx context.Context, spec *Spec) (argv []string, cwd string, v Verdict, err error) {
	if cwd, err = resolveCwd(spec.Cwd); err != nil {
		return nil, "", v, err
	}
	if argv, err = commandArgv(spec.Command, spec.Limits, cwd, spec.Env); err != nil {
		return nil, "", v, err
	}
	if err := checkStdin(*spec); err != nil {
		return nil, "", v, err
	}
	if err := checkEnv(spec.Env); err != nil {
		return nil, "", v, err
	}
	if e.cfg.Gate == nil {
		return argv, cwd, v, nil
	}
	v = e.cfg.Gate(ctx, GateRequest{Command: spec.Command, Cwd: cwd, Origin: spec.Origin, Description: spec.Description, Answered: spec.Answered,
		Stdin: spec.Stdin, StdinForwarded: spec.StdinForwarded, Confinable: e.cfg.Confiner != "", Sandbox: spec.Sandbox})
	if v.Deny != "" {
		return nil, "", v, &DeniedError{Reason: v.Deny, Approval: v.Approval}
	}
	if v.Sandbox != "" {
		spec.Sandbox = v.Sandbox
	}
	if v.Command != "" && v.Command != spec.Command {
		spec.Command = v.Command
		if argv, err = commandArgv(spec.Command, spec.Limits, cwd, spec.Env); err != nil {
			return nil, "", v, fmt.Errorf("the edited command: %w", err)
		}
	}
	return argv, cwd, v, nil
}

// reserve takes a running job's place (and a terminal's, for a PTY job)
// under the limits; release gives it back if the job does not start.
func (e *Engine) reserve(pty bool) (release func(), err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.closed:
		return nil, ErrClosed
	case e.running >= e.cfg.MaxJobs:
		return nil, fmt.Errorf("%w: %d are running (limit %d); wait for one or kill one", ErrTooMany, e.running, e.cfg.MaxJobs)
	case pty && e.ptys >= e.cfg.MaxPTYs:
		return nil, fmt.Errorf("%w: %d terminal jobs and shells are running (limit %d); close one", ErrTooMany, e.ptys, e.cfg.MaxPTYs)
	}
	e.running++
	if pty {
		e.ptys++
	}
	e.starting.Add(1)
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.running--
		if pty {
			e.ptys--
		}
	}, nil
}

// launch makes the job, starts its process in a session of its own, and
// starts the goroutines that collect its output and wait for it.
func (e *Engine) launch(spec Spec, argv []string, cwd string, verdict Verdict) (*Job, error) {
	sp, err := e.jobDir()
	if err != nil {
		return nil, err
	}
	id := sp.id
	j := &Job{
		ID: id, Name: spec.Name, Command: spec.Command, Description: spec.Description, Cwd: cwd,
		Origin: spec.Origin, e: e, dir: sp.dir, merged: spec.MergeStderr,
		streams: map[Stream]source{}, done: make(chan struct{}), bg: make(chan struct{}),
		foreground: spec.Foreground, status: Running, warning: verdict.Warning, approval: verdict.Approval,
		metaFile: sp.meta,
	}
	shell := interactiveShell(argv)
	if spec.Sandbox != "" && spec.Sandbox != sandbox.Off {
		if err := e.cfg.Enforces(spec.Sandbox); err != nil {
			if !e.cfg.Unconfined {
				j.metaFile.Close() // it never started
				j.release(true)
				return nil, err
			}
			j.note = fmt.Sprintf("%v: it ran unconfined, as jobs.sandbox_fallback says", err)
			spec.Sandbox = sandbox.Off
		} else {
			j.sandbox = spec.Sandbox
		}
	}
	if argv, err = e.confine(spec, cwd, argv); err != nil {
		j.metaFile.Close() // it never started
		j.release(true)
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = cwd
	cmd.Env = jobEnv(id, e.token, spec.Env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var io jobIO
	if spec.PTY {
		io, err = j.ptyIO(cmd, spec)
		j.shell = shell
	} else {
		io, err = j.pipeIO(cmd, spec)
	}
	if err != nil {
		j.metaFile.Close() // it never started
		j.release(true)
		return nil, fmt.Errorf("start job: %w", err)
	}
	if err := j.hold(cmd); err != nil {
		io.close()
		if j.in != nil {
			j.in.Abort()
		}
		j.metaFile.Close() // it never started
		j.release(true)
		return nil, fmt.Errorf("start job: %w", err)
	}
	// The reaper must not take the leader's exit status from os/exec
	// between Start and the leader being known.
	reaper.RLock()
	err = cmd.Start()
	if err == nil {
		j.pid = cmd.Process.Pid
		j.leader, _ = readProc(j.pid)
		j.leader.pid = j.pid
		j.Started = time.Now()
		j.cmd = cmd
		addLeader(j.pid)
		e.register(j)
	}
	reaper.RUnlock()
	closeAll(io.childEnds)
	if fd := cmd.SysProcAttr.CgroupFD; cmd.SysProcAttr.UseCgroupFD {
		unix.Close(fd)
	}
	if err != nil {
		io.close()
		if j.in != nil {
			j.in.Abort()
		}
		if j.cg != nil {
			j.cg.remove()
		}
		j.metaFile.Close() // it never started
		j.release(true)
		return nil, fmt.Errorf("start %q: %w", spec.Command, err)
	}
	// The record with the pid is on disk before anyone hears of the job:
	// should tend die from here on, the next one lists it as lost.
	if err := j.writeFirstMeta(); err != nil {
		e.logger.Warn("a crash of tend now would leave this job to be found by its marker only", "job", j.ID, "why", err)
	}
	if spec.Timeout > 0 {
		j.timer = time.AfterFunc(spec.Timeout, func() { j.Kill("timeout") })
	}
	// Started goes out before the supervisor runs: only it publishes the
	// exit, so no one can see a job end before it began.
	e.publish(JobStarted, j)
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		j.supervise(io)
	}()
	return j, nil
}

// confine returns the argv that runs argv as spec's sandbox says, through
// Config.Confiner. An agent's PTY job goes through it too, with only the
// filter that keeps a command from typing into its own terminal (TIOCSTI);
// a person's is left as it is, since the filter needs no_new_privs, under
// which sudo and other setuid programs cannot raise privileges.
func (e *Engine) confine(spec Spec, cwd string, argv []string) ([]string, error) {
	mode := spec.Sandbox
	if mode == "" {
		mode = sandbox.Off
	}
	switch {
	case e.cfg.Confiner == "" && mode != sandbox.Off:
		return nil, fmt.Errorf("sandbox %s: this tend cannot confine commands (it was not given its own binary)", mode)
	case e.cfg.Confiner == "" || mode == sandbox.Off && (!spec.PTY || spec.Origin.IsPerson()):
		return argv, nil
	}
	return sandbox.Command(e.cfg.Confiner, mode, cwd, e.cfg.Writable, argv), nil
}

// hold sets up how the job's processes are held before it starts: in a
// cgroup of its own, which the process is cloned into, so that nothing it
// does escapes; or, without one, with the leader killed if tend dies
// (PR_SET_PDEATHSIG, sent when the thread that started it exits: the Go
// runtime ends a thread only when a goroutine locked to it exits, which no
// goroutine that starts jobs does). The job's record is written once the
// leader's pid is known, before the start is published: a crash before it
// leaves nothing running (the leader dies with tend, a cgroup is ended by
// its watcher) and nothing told of.
func (j *Job) hold(cmd *exec.Cmd) error {
	if j.e.cg != nil {
		g, fd, err := j.e.cg.newGroup(j.ID)
		if err != nil {
			return err
		}
		j.cg = g
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
	} else {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	}
	j.Started = time.Now()
	return nil
}

// jobIO is a job's side of its stdio: the reader of its output, and the
// child's ends to close once the child has them.
type jobIO struct {
	out       *output
	master    *os.File // a PTY job's master, closed once the output is read
	childEnds []*os.File
}

// close releases both sides, for a job that did not start.
func (io jobIO) close() {
	if io.out != nil {
		io.out.stop()
	}
	if io.master != nil {
		io.master.Close()
	}
	closeAll(io.childEnds)
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// pipeIO gives the job pipes: stdout and stderr (or one for both), and
// stdin when the call has input for it or the job is interactive.
func (j *Job) pipeIO(cmd *exec.Cmd, spec Spec) (io jobIO, err error) {
	var fds []int
	defer func() {
		if err != nil {
			for _, fd := range fds {
				unix.Close(fd)
			}
			io.close()
		}
	}()
	names := []Stream{Stdout, Stderr}
	if spec.MergeStderr {
		names = names[:1]
	}
	for _, n := range names {
		j.streams[n] = newStream(filepath.Join(j.dir, n.String()+".log"), j.e.cfg.LogCap)
		var p [2]int
		if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
			return io, err
		}
		fds = append(fds, p[0])
		w := os.NewFile(uintptr(p[1]), n.String())
		io.childEnds = append(io.childEnds, w)
		// Only our end is non-blocking: the child gets the pipe as a
		// program expects it. A larger pipe lets a fast writer run ahead of
		// us in bigger steps: fewer reads and log writes per byte (best
		// effort).
		if err := unix.SetNonblock(p[0], true); err != nil {
			return io, err
		}
		unix.FcntlInt(uintptr(p[0]), unix.F_SETPIPE_SZ, pipeSize)
		if n == Stdout {
			cmd.Stdout, cmd.Stderr = w, w
		} else {
			cmd.Stderr = w
		}
	}
	if !spec.MergeStderr {
		j.streams[Merged] = newInterleave(filepath.Join(j.dir, mergedName), j.streams[Stdout], j.streams[Stderr])
	}
	io.out, err = j.e.out.watch(j, fds, names)
	fds = nil // the reader owns them, or closed them
	if err != nil {
		return io, err
	}
	if spec.Interactive || spec.Stdin != nil {
		r, w, err := os.Pipe()
		if err != nil {
			return io, err
		}
		cmd.Stdin = r
		io.childEnds = append(io.childEnds, r)
		j.in = newInputQueue(w)
		if spec.Stdin != nil {
			j.in.Write(spec.Stdin) // fits: checkStdin
			if !spec.Interactive {
				j.in.Close()
			}
		}
	} else if null, err := devNull(); err == nil {
		cmd.Stdin = null
	}
	return io, nil
}

// devNull is /dev/null open for reading, the stdin of every job given none:
// os/exec would open it for each job (six system calls, on the way to the
// reply) and close it after the start. It stays open, close-on-exec.
var devNull = sync.OnceValues(func() (*os.File, error) {
	fd, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), os.DevNull), nil
})

// supervise waits for the leader, bounds how long descendants may keep the
// output open, ends whatever of the job is left, and records the exit.
func (j *Job) supervise(io jobIO) {
	waitErr := j.cmd.Wait()
	removeLeader(j.pid)
	j.reaped.Store(true)
	drained := io.out.done
	select {
	case <-drained:
	case <-time.After(j.e.cfg.Drain):
		// A descendant holds the pipe (RELIABILITY V1): end it so the rest of
		// its output arrives, and stop waiting if it cannot be ended (it is
		// not the job's: another process opened the pipe through /proc).
		j.signalTree(syscall.SIGKILL)
		select {
		case <-drained:
			j.setNote("a background process kept the output open after the command exited; it was ended")
		case <-time.After(j.e.cfg.Drain):
			j.setNote("a process outside the job kept its output open after the command exited; what it writes from now on is not kept")
			io.out.stop()
			<-drained
		}
	}
	if io.master != nil {
		io.master.Close()
	}
	if !j.hasLeftovers() {
		j.markEmpty()
	} else {
		j.setNote("background processes outlived the command and were ended")
		j.e.wg.Add(1)
		go func() {
			defer j.e.wg.Done()
			j.e.endTree(j, j.e.cfg.Grace)
		}()
	}
	j.finish(waitErr)
}

// finish records the exit and publishes it.
func (j *Job) finish(waitErr error) {
	if j.timer != nil {
		j.timer.Stop()
	}
	if j.in != nil {
		j.in.Abort()
	}
	j.mu.Lock()
	j.ended = time.Now()
	j.status = Exited
	var ee *exec.ExitError
	switch {
	case waitErr == nil:
		j.exitCode = 0
	case errors.As(waitErr, &ee):
		ws := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			j.signal = SignalName(ws.Signal())
			j.exitCode = 128 + int(ws.Signal())
			j.status = Signaled
		} else {
			j.exitCode = ws.ExitStatus()
		}
	default:
		j.exitCode = -1
		j.status = Failed
		j.note = waitErr.Error()
	}
	switch j.killReason {
	case "":
	case "timeout":
		j.status = TimedOut
	default:
		j.status = Killed
	}
	j.mu.Unlock()
	j.closeStreams()
	// Its record says how it ended before anyone hears it did: from then
	// on Remove, or retention recycling its directory, may come.
	if err := j.writeLastMeta(); err != nil {
		j.e.logger.Warn("the job's exit is not recorded on disk", "job", j.ID, "why", err)
	}
	j.e.mu.Lock() // its place is free before anyone hears it ended
	j.e.running--
	if j.pty {
		j.e.ptys--
	}
	j.e.mu.Unlock()
	close(j.done)
	// Whoever waits for the end (an exec's reply) runs before the
	// bookkeeping below, not after it on this thread.
	runtime.Gosched()
	if j.cg != nil && (j.emptyAt.Load() != 0 || !j.cg.populated()) {
		j.cg.remove()
	}
	j.e.publish(JobExited, j)
	j.e.retain(j)
	j.e.ring()
}
