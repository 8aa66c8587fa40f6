package mcpserver

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
)

type logsInput struct {
	JobID          engine.JobID `json:"job_id" jsonschema:"the job to read"`
	Stream         string       `json:"stream,omitempty" jsonschema:"stdout, stderr or merged (default merged: both, in arrival order)"`
	SinceOffset    int64        `json:"since_offset,omitempty" jsonschema:"byte offset to read from (default 0); pass the last next_offset to read on"`
	MaxBytes       int          `json:"max_bytes,omitempty" jsonschema:"most bytes to return (default 64000, at most 1048576)"`
	Tail           bool         `json:"tail,omitempty" jsonschema:"return the last max_bytes instead of reading from since_offset"`
	WaitUntilExit  bool         `json:"wait_until_exit,omitempty" jsonschema:"wait until the job exits (up to wait_timeout_sec)"`
	WaitFor        string       `json:"wait_for,omitempty" jsonschema:"a regular expression (RE2): wait until output after since_offset matches it (up to wait_timeout_sec)"`
	WaitTimeoutSec *float64     `json:"wait_timeout_sec,omitempty" jsonschema:"longest wait in seconds (default 30)"`
}

type logsOutput struct {
	Data                  string `json:"data"`
	Offset                int64  `json:"offset"`
	NextOffset            int64  `json:"next_offset"`
	TruncatedBytesDropped int64  `json:"truncated_bytes_dropped"`
	EOF                   bool   `json:"eof"`
	Status                string `json:"status"`
	ExitCode              *int   `json:"exit_code,omitempty"`
	RuntimeMs             int64  `json:"runtime_ms"`
	WaitingForInput       bool   `json:"waiting_for_input"`
	Matched               bool   `json:"matched"`
	TimedOut              bool   `json:"wait_timed_out,omitempty"`
	Note                  string `json:"note,omitempty"`
	LostBytes             int64  `json:"lost_bytes,omitempty"`
	LostReason            string `json:"lost_reason,omitempty"`
}

type manageInput struct {
	Action string       `json:"action" jsonschema:"list, signal_term, signal_kill, signal_int, signal_hup, signal_usr1, signal_usr2, kill (TERM, grace, KILL to the whole tree), stdin, close_stdin, resize or remove"`
	JobID  engine.JobID `json:"job_id,omitempty" jsonschema:"the job (every action but list)"`
	Data   string       `json:"data,omitempty" jsonschema:"text for action stdin (include the newline if the program reads lines)"`
	Cols   int          `json:"cols,omitempty" jsonschema:"width for resize"`
	Rows   int          `json:"rows,omitempty" jsonschema:"height for resize"`
	// list only
	Status string `json:"status,omitempty" jsonschema:"for list: running, finished, or all (default all)"`
	Limit  *int   `json:"limit,omitempty" jsonschema:"for list: how many jobs at most (default 30; 0 lists every job); the oldest finished ones are left out first, a running one never"`
}

type manageOutput struct {
	Jobs []jobInfo `json:"jobs,omitempty"`
	// Omitted is how many jobs list left out by its limit (older finished ones).
	Omitted       int          `json:"omitted,omitempty"`
	JobID         engine.JobID `json:"job_id,omitempty"`
	Status        string       `json:"status,omitempty"`
	ExitCode      *int         `json:"exit_code,omitempty"`
	Signal        string       `json:"signal,omitempty"`
	BytesAccepted *int         `json:"bytes_accepted,omitempty"`
	Message       string       `json:"message,omitempty"`
}

// jobInfo is [engine.Info] on the wire: a job as terminal_job_manage lists it.
type jobInfo struct {
	ID              engine.JobID `json:"job_id"`
	Name            string       `json:"name,omitempty"`
	Command         string       `json:"command"`
	Description     string       `json:"description,omitempty"`
	Cwd             string       `json:"cwd"`
	Origin          originInfo   `json:"origin"`
	Pid             int          `json:"pid"`
	Status          string       `json:"status"`
	ExitCode        *int         `json:"exit_code,omitempty"`
	Signal          string       `json:"signal,omitempty"`
	StartedAt       time.Time    `json:"started_at"`
	RuntimeMs       int64        `json:"runtime_ms"`
	StdoutBytes     int64        `json:"stdout_bytes"`
	StderrBytes     int64        `json:"stderr_bytes"`
	PTY             bool         `json:"pty,omitempty"`
	Sandbox         string       `json:"sandbox,omitempty" jsonschema:"how the command is confined (workspace, workspace-offline, readonly); absent: not"`
	WaitingForInput bool         `json:"waiting_for_input,omitempty"`
	Foreground      bool         `json:"foreground,omitempty"`
	Warning         string       `json:"warning,omitempty"`
	Note            string       `json:"note,omitempty"`
	LostBytes       int64        `json:"lost_bytes,omitempty"`
	LostReason      string       `json:"lost_reason,omitempty"`
	// What a running job's processes use now (in list).
	CPUPercent  *float64 `json:"cpu_percent,omitempty"`
	MemoryBytes int64    `json:"memory_bytes,omitempty"`
	Processes   int      `json:"processes,omitempty"`
}

// originInfo is [engine.Origin] on the wire.
type originInfo struct {
	Client  string `json:"client"`
	Version string `json:"version,omitempty"`
	Session string `json:"session,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Agent   string `json:"agent,omitempty" jsonschema:"the agent as people see it: client, directory, session number"`
}

func jobInfoOf(in engine.Info) jobInfo {
	o := in.Origin
	return jobInfo{
		ID: in.ID, Name: in.Name, Command: in.Command, Description: in.Description, Cwd: in.Cwd,
		Origin: originInfo{o.Client, o.Version, o.Session, o.Tool, o.Agent}, Pid: in.Pid, Status: in.Status.String(),
		ExitCode: in.ExitCode, Signal: in.Signal, StartedAt: in.StartedAt, RuntimeMs: in.RuntimeMs,
		StdoutBytes: in.StdoutBytes, StderrBytes: in.StderrBytes, PTY: in.PTY, Sandbox: string(in.Sandbox),
		WaitingForInput: in.WaitingForInput, Foreground: in.Foreground, Warning: in.Warning, Note: in.Note,
		LostBytes: in.Lost, LostReason: in.LostWhy,
	}
}

type outputGetInput struct {
	OutputHandle string `json:"output_handle" jsonschema:"the output_handle from terminal_exec"`
	Stream       string `json:"stream,omitempty" jsonschema:"stdout, stderr or merged (default merged)"`
	SinceOffset  int64  `json:"since_offset,omitempty" jsonschema:"byte offset to read from (default 0)"`
	MaxKB        int    `json:"max_kb,omitempty" jsonschema:"most KiB to return (default 64, at most 1024)"`
}

type outputGetOutput struct {
	Data       string `json:"data"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"next_offset"`
	EOF        bool   `json:"eof"`
	Expired    bool   `json:"expired"`
	Note       string `json:"note,omitempty"`
}

func (s *Server) addJobTools() {
	addTool(s.Server, &mcp.Tool{
		Name: "terminal_job_logs",
		Description: "Read a job's output by byte offset (every byte it printed stays readable), optionally waiting until it exits or until new output matches wait_for. " +
			"Continue from next_offset. Reports status, exit_code, and waiting_for_input when the job seems to wait on a prompt.",
	}, s.logs)
	addTool(s.Server, &mcp.Tool{
		Name:        "terminal_job_manage",
		Description: "List jobs (every client's and the person's, with origin), signal or kill a job (kill ends its whole process tree), write to or close its stdin, resize a PTY job, or remove a finished job and its logs.",
	}, s.manage)
	addTool(s.Server, &mcp.Tool{
		Name:        "terminal_output_get",
		Description: "Page through the whole output behind an output_handle from terminal_exec (handles last 5 minutes; a job's logs stay readable with terminal_job_logs).",
	}, s.outputGet)
}

func (s *Server) logs(ctx context.Context, _ *mcp.CallToolRequest, in logsInput) (*mcp.CallToolResult, logsOutput, error) {
	limit, capped, err := replySize("max_bytes", in.MaxBytes, 1, 64000, maxReply)
	if err != nil {
		return fail[logsOutput](err)
	}
	if in.SinceOffset < 0 {
		return fail[logsOutput](fmt.Errorf("since_offset must not be negative"))
	}
	var re *regexp.Regexp
	if in.WaitFor != "" {
		if re, err = regexp.Compile(in.WaitFor); err != nil {
			return fail[logsOutput](fmt.Errorf("wait_for is not a valid regular expression: %w", err))
		}
	}
	stream, err := engine.ParseStream(in.Stream)
	if err != nil {
		return fail[logsOutput](fmt.Errorf("stream: %w", err))
	}
	j, err := s.e.Job(in.JobID)
	if err != nil {
		return fail[logsOutput](err)
	}
	if _, err := j.Len(stream); err != nil {
		return fail[logsOutput](err)
	}
	wait, err := seconds(orDefault(in.WaitTimeoutSec, 30))
	if err != nil {
		return fail[logsOutput](fmt.Errorf("wait_timeout_sec: %w", err))
	}
	var out logsOutput
	if in.WaitUntilExit || re != nil {
		wctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		if re != nil {
			out.Matched, err = waitFor(wctx, j, stream, in.SinceOffset, re)
		}
		if err == nil && in.WaitUntilExit {
			err = j.Wait(wctx)
		}
		out.TimedOut = err != nil && ctx.Err() == nil
	}
	from := in.SinceOffset
	if in.Tail {
		end, _ := j.Len(stream)
		from = max(end-int64(limit), in.SinceOffset)
	}
	c, _ := j.Read(stream, from, limit)
	info := j.Info()
	text, bad := engine.ValidText(c.Data)
	out.Data, out.Offset, out.NextOffset, out.TruncatedBytesDropped, out.EOF = text, c.Offset, c.Next, c.Dropped, c.EOF
	out.Status, out.ExitCode, out.RuntimeMs, out.WaitingForInput = info.Status.String(), info.ExitCode, info.RuntimeMs, info.WaitingForInput
	out.LostBytes, out.LostReason = info.Lost, info.LostWhy
	out.Note = joinNotes(c.Note, capped)
	if bad {
		out.Note = joinNotes(out.Note, "the output is not valid UTF-8 here: invalid bytes are shown as U+FFFD (offsets count raw bytes)")
	}
	return ok(out)
}

// maxReply is the most output one reply carries. A megabyte is already more
// than an agent's context takes in, and each reply is copied several times
// on its way out (the SDK checks it against the output schema, repeats it as
// text for older clients and frames it), so a bigger page would cost tend
// tens of megabytes for nothing. Asking for more is not an error: the reply
// says so and carries on from next_offset.
const maxReply = 1 << 20

// replySize is how many bytes a reply may carry when the agent asked for
// asked units of unit bytes (0: def bytes), at most most bytes, and a note
// when that was capped.
func replySize(name string, asked, unit, def, most int) (int, string, error) {
	switch {
	case asked == 0:
		return def, "", nil
	case asked < 0:
		return 0, "", fmt.Errorf("%s must be positive, not %d", name, asked)
	case asked > most/unit:
		return most, fmt.Sprintf("%s is capped at %d: one reply carries at most 1 MiB of output", name, most/unit), nil
	}
	return asked * unit, "", nil
}

// joinNotes joins the notes that are not empty with "; ".
func joinNotes(notes ...string) string {
	return strings.Join(slices.DeleteFunc(notes, func(n string) bool { return n == "" }), "; ")
}

// waitFor waits until the output after off matches re. It scans each byte
// once, keeping an overlap so a match across two writes is still found.
func waitFor(ctx context.Context, j *engine.Job, stream engine.Stream, off int64, re *regexp.Regexp) (bool, error) {
	const overlap = 4 << 10
	var carry []byte
	matched := false
	err := j.Follow(ctx, stream, off, 1<<20, func(c engine.Chunk) bool {
		buf := append(carry, c.Data...)
		if matched = re.Match(buf); matched {
			return false
		}
		carry = append([]byte(nil), buf[max(0, len(buf)-overlap):]...)
		return true
	})
	return matched, err
}

// defaultListLimit is how many of the most recent jobs list gives unless
// asked for more: an agent's context is not filled with a long history
// (200 jobs are about 130 KB) it did not ask for.
const defaultListLimit = 30

// list lists the jobs of the status asked for in start order, at most
// limit of them: the oldest finished ones are left out first, a running one
// never. A running job says what it uses now.
func (s *Server) list(in manageInput) (*mcp.CallToolResult, manageOutput, error) {
	want := func(engine.Info) bool { return true }
	switch in.Status {
	case "", "all":
	case "running":
		want = func(i engine.Info) bool { return i.Status == engine.Running }
	case "finished":
		want = func(i engine.Info) bool { return i.Status != engine.Running }
	default:
		return fail[manageOutput](fmt.Errorf("status %q: use running, finished or all", in.Status))
	}
	limit := defaultListLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	if limit < 0 {
		return fail[manageOutput](fmt.Errorf("limit %d: use 0 for every job, or a number of jobs", limit))
	}
	infos := slices.DeleteFunc(s.e.List(), func(i engine.Info) bool { return !want(i) })
	var out manageOutput
	if limit > 0 && len(infos) > limit {
		recent := len(infos) - limit
		infos = slices.DeleteFunc(infos, func(i engine.Info) bool {
			if recent > 0 && i.Status != engine.Running {
				recent--
				out.Omitted++
				return true
			}
			return false
		})
	}
	out.Jobs = make([]jobInfo, len(infos))
	for i, in := range infos {
		out.Jobs[i] = jobInfoOf(in)
		if j, err := s.e.Job(in.ID); err == nil && in.Status == engine.Running {
			if u, ok := j.Usage(); ok {
				cpu := math.Round(u.CPUPercent*10) / 10
				out.Jobs[i].CPUPercent, out.Jobs[i].MemoryBytes, out.Jobs[i].Processes = &cpu, u.Memory, u.Processes
			}
		}
	}
	if out.Omitted > 0 {
		out.Message = fmt.Sprintf("%d older finished jobs are not listed: pass limit=0 to list every job", out.Omitted)
	}
	return ok(out)
}

// signalActions are the signal actions of terminal_job_manage:
// signal_<name> sends the signal of that name.
var signalActions = []string{"signal_term", "signal_kill", "signal_int", "signal_hup", "signal_usr1", "signal_usr2"}

func (s *Server) manage(ctx context.Context, req *mcp.CallToolRequest, in manageInput) (*mcp.CallToolResult, manageOutput, error) {
	if in.Action == "list" {
		return s.list(in)
	}
	if !slices.Contains(signalActions, in.Action) && !validAction(in.Action) {
		return fail[manageOutput](fmt.Errorf("unknown action %q: use list, signal_term, signal_kill, signal_int, signal_hup, signal_usr1, signal_usr2, kill, stdin, close_stdin, resize or remove", in.Action))
	}
	if in.JobID == "" {
		return fail[manageOutput](fmt.Errorf("action %s needs job_id", in.Action))
	}
	j, err := s.e.Job(in.JobID)
	if err != nil {
		return fail[manageOutput](err)
	}
	out := manageOutput{JobID: j.ID}
	switch in.Action {
	case "kill":
		j.Kill("killed by " + s.origin(ctx, req).String())
	case "stdin":
		n, err := j.Input([]byte(in.Data))
		if n == 0 && err != nil {
			return fail[manageOutput](err)
		}
		out.BytesAccepted = &n
		if err != nil {
			out.Message = err.Error()
		}
	case "close_stdin":
		if err := j.CloseInput(); err != nil {
			return fail[manageOutput](err)
		}
	case "resize":
		if err := j.Resize(in.Cols, in.Rows); err != nil {
			return fail[manageOutput](err)
		}
	case "remove":
		if err := s.e.Remove(j.ID); err != nil {
			return fail[manageOutput](err)
		}
		out.Message = "removed"
		return ok(out)
	default:
		name := strings.TrimPrefix(in.Action, "signal_")
		sig, err := engine.ParseSignal(name)
		if err == nil {
			err = j.Signal(sig)
		}
		if err != nil {
			return fail[manageOutput](err)
		}
		out.Signal = name
	}
	info := j.Info()
	out.Status, out.ExitCode = info.Status.String(), info.ExitCode
	if info.Signal != "" {
		out.Signal = info.Signal
	}
	return ok(out)
}

func validAction(a string) bool {
	switch a {
	case "kill", "stdin", "close_stdin", "resize", "remove":
		return true
	}
	return false
}

func (s *Server) outputGet(_ context.Context, _ *mcp.CallToolRequest, in outputGetInput) (*mcp.CallToolResult, outputGetOutput, error) {
	id, err := s.handles.job(in.OutputHandle)
	var j *engine.Job
	if err == nil {
		j, err = s.e.Job(id)
	}
	if err != nil { // unknown, past its time, or its job was removed
		return ok(outputGetOutput{Expired: true, Note: errHandleExpired.Error()})
	}
	stream, err := engine.ParseStream(in.Stream)
	if err != nil {
		return fail[outputGetOutput](fmt.Errorf("stream: %w", err))
	}
	limit, capped, err := replySize("max_kb", in.MaxKB, 1<<10, 64<<10, maxReply)
	if err != nil {
		return fail[outputGetOutput](err)
	}
	c, err := j.Read(stream, in.SinceOffset, limit)
	if err != nil {
		return fail[outputGetOutput](err)
	}
	text, bad := engine.ValidText(c.Data)
	out := outputGetOutput{Data: text, Offset: c.Offset, NextOffset: c.Next, EOF: c.EOF, Note: joinNotes(c.Note, capped)}
	if bad {
		out.Note = joinNotes(out.Note, "invalid UTF-8 is shown as U+FFFD (offsets count raw bytes)")
	}
	return ok(out)
}
