package mcpserver

import (
	"context"
	"fmt"
	"math"
	"time"

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
	MaxOutputKB            int               `json:"max_output_kb,omitempty" jsonschema:"inline output cap per stream in KiB (default 256); beyond it head and tail are shown and the rest is behind output_handle"`
	Limits                 *engine.Limits    `json:"limits,omitempty" jsonschema:"optional resource limits"`
	Description            string            `json:"description,omitempty" jsonschema:"what this command is for, shown to the person watching"`
	PTY                    bool              `json:"pty,omitempty" jsonschema:"run on a pseudo-terminal (120x40): for programs that need a terminal; output is one stream (stdout)"`
}

type jobStartInput struct {
	Command        string            `json:"command" jsonschema:"the command line; it runs with bash -c when it uses shell syntax (never zsh)"`
	Cwd            string            `json:"cwd,omitempty" jsonschema:"working directory (default: the agent's, when it connects through tend mcp; else tend's)"`
	Env            map[string]string `json:"env,omitempty" jsonschema:"extra environment variables"`
	Name           string            `json:"name,omitempty" jsonschema:"a short name for the job"`
	Description    string            `json:"description,omitempty" jsonschema:"what this job is for, shown to the person watching"`
	MergeStderr    bool              `json:"merge_stderr,omitempty" jsonschema:"send stderr into stdout (one stream)"`
	PTY            bool              `json:"pty,omitempty" jsonschema:"run on a pseudo-terminal"`
	Cols           int               `json:"cols,omitempty" jsonschema:"PTY width (default 120)"`
	Rows           int               `json:"rows,omitempty" jsonschema:"PTY height (default 40)"`
	Limits         *engine.Limits    `json:"limits,omitempty" jsonschema:"optional resource limits"`
	TimeoutSec     float64           `json:"timeout_sec,omitempty" jsonschema:"kill the job after this many seconds (default: never)"`
	StartupWaitSec *float64          `json:"startup_wait_sec,omitempty" jsonschema:"wait up to this many seconds for early output or an early exit (default 1)"`
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
	mcp.AddTool(s.Server, &mcp.Tool{
		Name: "terminal_exec",
		Description: "Run a shell command and return its exit code and output. " +
			"If it is still running after auto_background_after_sec it becomes a background job: the result has auto_backgrounded=true and job_id, nothing is lost, and terminal_job_logs reads on. " +
			"semantic_status is ok, error, signal or denied (grep/diff/test exiting 1 is ok). warning flags destructive commands.",
	}, s.exec)
	mcp.AddTool(s.Server, &mcp.Tool{
		Name: "terminal_job_start",
		Description: "Start a long-running command (server, watcher, build) as a background job and return its job_id at once, " +
			"with early output or its exit if it died within startup_wait_sec. Read it with terminal_job_logs; stop it with terminal_job_manage.",
	}, s.jobStart)
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

func (s *Server) exec(ctx context.Context, req *mcp.CallToolRequest, in execInput) (*mcp.CallToolResult, *engine.Envelope, error) {
	timeout, err := seconds(orDefault(in.TimeoutSec, 60))
	if err != nil {
		return fail[*engine.Envelope](fmt.Errorf("timeout_sec: %w", err))
	}
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	budget, err := seconds(orDefault(in.AutoBackgroundAfterSec, 30))
	if err != nil {
		return fail[*engine.Envelope](fmt.Errorf("auto_background_after_sec: %w", err))
	}
	maxKB := in.MaxOutputKB
	switch {
	case maxKB == 0:
		maxKB = 256
	case maxKB < 0 || maxKB > 16<<10:
		return fail[*engine.Envelope](fmt.Errorf("max_output_kb must be between 1 and 16384, not %d", maxKB))
	}
	spec := engine.Spec{
		Command: in.Command, Cwd: s.dir(req, in.Cwd), Env: in.Env, Description: in.Description,
		Timeout: timeout, Origin: s.origin(req), PTY: in.PTY,
	}
	if in.Limits != nil {
		spec.Limits = *in.Limits
	}
	if in.Stdin != nil {
		spec.Stdin = []byte(*in.Stdin)
	}
	defer s.keepAlive(ctx, req, "terminal_exec")()
	env, err := s.e.Exec(ctx, spec, budget, maxKB<<10)
	if err != nil {
		return fail[*engine.Envelope](err)
	}
	return ok(env)
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
	spec := engine.Spec{
		Command: in.Command, Cwd: s.dir(req, in.Cwd), Env: in.Env, Name: in.Name, Description: in.Description,
		MergeStderr: in.MergeStderr, Timeout: timeout, Interactive: true, Origin: s.origin(req),
		PTY: in.PTY, Cols: in.Cols, Rows: in.Rows,
	}
	if in.Limits != nil {
		spec.Limits = *in.Limits
	}
	defer s.keepAlive(ctx, req, "terminal_job_start")()
	j, err := s.e.Start(ctx, spec)
	if err != nil {
		return fail[jobStartOutput](err)
	}
	if wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, wait)
		_ = j.Wait(wctx)
		cancel()
	}
	info := j.Info()
	c, _ := j.Read(engine.Merged, 0, 16<<10)
	text, _ := engine.ValidText(c.Data)
	return ok(jobStartOutput{
		JobID: j.ID, Pid: info.Pid, Name: info.Name, StartedAt: info.StartedAt, Status: info.Status,
		ExitCode: info.ExitCode, Output: text, NextOffset: c.Next, Warning: info.Warning,
	})
}
