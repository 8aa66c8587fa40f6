package mcpserver

import (
	"context"
	"fmt"
	"regexp"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
)

type ptyOpenInput struct {
	Cwd            string            `json:"cwd,omitempty" jsonschema:"working directory (default: the agent's, when it connects through tend mcp; else tend's)"`
	Env            map[string]string `json:"env,omitempty" jsonschema:"extra environment variables"`
	Cols           int               `json:"cols,omitempty" jsonschema:"terminal width (default 120)"`
	Rows           int               `json:"rows,omitempty" jsonschema:"terminal height (default 40)"`
	IdleTimeoutSec *float64          `json:"idle_timeout_sec,omitempty" jsonschema:"close the shell after this many seconds unused (default 1800)"`
	Sandbox        string            `json:"sandbox,omitempty" jsonschema:"confine the shell and all it runs: off, workspace (writes only in its working tree and the temp dirs), workspace-offline (the same, and no TCP) or readonly (writes only in the temp dirs); default: the config's, off unless set"`
}

type ptyOpenOutput struct {
	SessionID engine.JobID `json:"session_id"`
	Pid       int          `json:"pid"`
	Shell     string       `json:"shell"`
}

type ptyRunInput struct {
	SessionID  engine.JobID `json:"session_id" jsonschema:"the shell from terminal_pty_open"`
	Command    string       `json:"command,omitempty" jsonschema:"a command line to run (Enter is added unless raw_send)"`
	Expect     string       `json:"expect,omitempty" jsonschema:"a regular expression (RE2): return as soon as the output matches it, instead of waiting for the prompt (for interactive programs)"`
	RawSend    bool         `json:"raw_send,omitempty" jsonschema:"send command as typed text without Enter and without waiting for the prompt"`
	Keys       []string     `json:"keys,omitempty" jsonschema:"named keys to send after command: ctrl+c, enter, esc, tab, up, down, left, right, pgup, pgdn, f1 … f12, alt+x, single characters"`
	ReadOnly   bool         `json:"read_only,omitempty" jsonschema:"send nothing: return what the shell printed since the last read"`
	Screen     bool         `json:"screen,omitempty" jsonschema:"return the rendered terminal screen (as a person sees it) instead of the output stream; for full-screen programs"`
	TimeoutSec *float64     `json:"timeout_sec,omitempty" jsonschema:"longest wait in seconds (default 60); the command keeps running after a timeout"`
}

type ptyRunOutput struct {
	Output        string `json:"output"`
	PromptAfter   bool   `json:"prompt_after"`
	MatchedExpect bool   `json:"matched_expect"`
	ExitCode      *int   `json:"exit_code,omitempty"`
	NextOffset    int64  `json:"next_offset"`
	TimedOut      bool   `json:"timed_out"`
	Note          string `json:"note,omitempty"`
	// With screen: the rendered terminal.
	Screen string  `json:"screen,omitempty"`
	Cursor *cursor `json:"cursor,omitempty"`
	Cols   int     `json:"cols,omitempty"`
	Rows   int     `json:"rows,omitempty"`
	Title  string  `json:"title,omitempty"`
}

type cursor struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type ptyCloseInput struct {
	SessionID engine.JobID `json:"session_id" jsonschema:"the shell to close"`
	Force     bool         `json:"force,omitempty" jsonschema:"kill it (and everything it runs) instead of sending exit"`
}

type ptyCloseOutput struct {
	ExitCode      int    `json:"exit_code"`
	FinalOutput   string `json:"final_output"`
	AlreadyClosed bool   `json:"already_closed"`
}

func (s *Server) addPTYTools() {
	addTool(s.Server, &mcp.Tool{
		Name:        "terminal_pty_open",
		Description: "Open a persistent bash shell on a terminal. State (cwd, variables, functions) persists across terminal_pty_run calls. Returns session_id.",
	}, s.ptyOpen)
	addTool(s.Server, &mcp.Tool{
		Name: "terminal_pty_run",
		Description: "Run a command in a persistent shell and return its output and exit_code when the prompt comes back (or when expect matches, or at the timeout: the command keeps running; interrupt it with keys [\"ctrl+c\"]). " +
			"Reads are cursor-based: read_only returns only what is new. screen=true returns the rendered screen (for vim, less, htop, test runners' UIs).",
	}, s.ptyRun)
	addTool(s.Server, &mcp.Tool{
		Name:        "terminal_pty_close",
		Description: "Close a persistent shell (exit, or with force kill its whole tree) and return its exit code and unread output.",
	}, s.ptyClose)
}

func (s *Server) ptyOpen(ctx context.Context, req *mcp.CallToolRequest, in ptyOpenInput) (*mcp.CallToolResult, ptyOpenOutput, error) {
	idle, err := seconds(orDefault(in.IdleTimeoutSec, 1800))
	if err != nil {
		return fail[ptyOpenOutput](fmt.Errorf("idle_timeout_sec: %w", err))
	}
	mode, err := s.confinement(in.Sandbox)
	if err != nil {
		return fail[ptyOpenOutput](err)
	}
	sh, err := s.e.OpenShell(ctx, engine.ShellSpec{Cwd: s.dir(req, in.Cwd), Env: in.Env, Cols: in.Cols, Rows: in.Rows, Idle: idle, Origin: s.origin(ctx, req), Sandbox: mode})
	if err != nil {
		return fail[ptyOpenOutput](err)
	}
	return ok(ptyOpenOutput{SessionID: sh.Job.ID, Pid: sh.Job.Info().Pid, Shell: "bash --norc --noprofile"})
}

func (s *Server) ptyRun(ctx context.Context, req *mcp.CallToolRequest, in ptyRunInput) (*mcp.CallToolResult, ptyRunOutput, error) {
	timeout, err := seconds(orDefault(in.TimeoutSec, 60))
	if err != nil {
		return fail[ptyRunOutput](fmt.Errorf("timeout_sec: %w", err))
	}
	r := engine.RunSpec{Command: in.Command, RawSend: in.RawSend, Keys: in.Keys, ReadOnly: in.ReadOnly, Timeout: timeout}
	if in.Expect != "" {
		if r.Expect, err = regexp.Compile(in.Expect); err != nil {
			return fail[ptyRunOutput](fmt.Errorf("expect is not a valid regular expression: %w", err))
		}
	}
	if in.Screen && in.Command == "" && len(in.Keys) == 0 {
		r.ReadOnly = true
	}
	sh, err := s.e.Shell(in.SessionID)
	if err != nil {
		return fail[ptyRunOutput](err)
	}
	defer s.keepAlive(ctx, req, "terminal_pty_run")()
	res, err := sh.Run(ctx, r)
	if err != nil {
		return fail[ptyRunOutput](err)
	}
	out := ptyRunOutput{
		Output: res.Output, PromptAfter: res.PromptAfter, MatchedExpect: res.MatchedExpect,
		ExitCode: res.ExitCode, NextOffset: res.NextOffset, TimedOut: res.TimedOut, Note: res.Note,
	}
	if in.Screen {
		snap, err := sh.Job.Screen()
		if err != nil {
			return fail[ptyRunOutput](err)
		}
		out.Output = ""
		out.Screen, out.Cols, out.Rows, out.Title = snap.Text(), snap.Cols, snap.Rows, snap.Title
		out.Cursor = &cursor{X: snap.Cursor.X, Y: snap.Cursor.Y}
	}
	return ok(out)
}

func (s *Server) ptyClose(_ context.Context, _ *mcp.CallToolRequest, in ptyCloseInput) (*mcp.CallToolResult, ptyCloseOutput, error) {
	sh, err := s.e.Shell(in.SessionID)
	if err != nil {
		if j, jerr := s.e.Job(in.SessionID); jerr == nil && j.IsPTY() && j.Done() {
			_, code, _ := j.Exit()
			return ok(ptyCloseOutput{ExitCode: code, AlreadyClosed: true})
		}
		return fail[ptyCloseOutput](err)
	}
	code, final, already := sh.Close(in.Force)
	return ok(ptyCloseOutput{ExitCode: code, FinalOutput: final, AlreadyClosed: already})
}
