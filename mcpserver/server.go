package mcpserver

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/sandbox"
)

// Options configure [New].
type Options struct {
	Version  string // tend's version, reported as the server's
	Headless bool   // no person is watching: said in the instructions
	// ProgressEvery is how often a call that asked for progress hears that
	// it is still running, or still waiting for a person (default 5 s).
	ProgressEvery time.Duration
	// WouldAsk, when set, reports whether a command would wait for a
	// person who is not there (held, nobody watching tend), and why: a
	// client that declared elicitation is then asked to put the question
	// to its own user.
	WouldAsk func(command, cwd string, origin engine.Origin) (reasons []string, ask bool)
	// Sandbox is how an agent's command is confined when its call does not
	// say (the config's jobs.sandbox; "": off).
	Sandbox sandbox.Mode
}

// Engine is what the tools need of the engine; *engine.Engine is one.
type Engine interface {
	Exec(ctx context.Context, spec engine.Spec, budget time.Duration) (*engine.Job, bool, error)
	Start(ctx context.Context, spec engine.Spec) (*engine.Job, error)
	Job(id engine.JobID) (*engine.Job, error)
	List() []engine.Info
	Remove(id engine.JobID) error
	OpenShell(ctx context.Context, spec engine.ShellSpec) (*engine.Shell, error)
	Shell(id engine.JobID) (*engine.Shell, error)
}

// Server serves the engine's tools to MCP clients.
type Server struct {
	*mcp.Server
	e             Engine
	wouldAsk      func(command, cwd string, origin engine.Origin) ([]string, bool)
	sandbox       sandbox.Mode // the default
	key           [32]byte     // signs the state of a question put to a client
	progressEvery time.Duration
	activity      *Activity
	handles       handles
	capped        *sessionCap

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]string // session ids for transports that have none (stdio)
	cwds     map[*mcp.ServerSession]string // a bridged agent's working directory (its tend mcp's)
	numbers  map[*mcp.ServerSession]int    // which session of its client name each is (agentName)
	counts   map[string]int                // sessions seen per client name
}

const instructions = `tend runs your shell commands where a person can watch them.
terminal_exec runs a command and waits up to auto_background_after_sec (default 30); a command still running then keeps running as a background job, and the result says auto_backgrounded with its job_id: read the rest with terminal_job_logs (wait_until_exit or wait_for), manage it with terminal_job_manage. Start long-running processes (servers, watchers) with terminal_job_start. Output over max_output_kb is shown as head and tail; the whole output is behind output_handle (terminal_output_get) and every byte stays readable by offset in the job's logs.`

const headlessNote = `
This tend is headless: no person is watching, and the jobs you start end when this connection closes.`

// New makes an MCP server with every tool of tend over e.
func New(e Engine, opts Options) *Server {
	ins := instructions
	if opts.Headless {
		ins += headlessNote
	}
	v := opts.Version
	if v == "" {
		v = "dev"
	}
	s := &Server{
		e:             e,
		wouldAsk:      opts.WouldAsk,
		sandbox:       opts.Sandbox,
		key:           newKey(),
		progressEvery: cmp.Or(opts.ProgressEvery, 5*time.Second),
		sessions:      map[*mcp.ServerSession]string{},
		cwds:          map[*mcp.ServerSession]string{},
		numbers:       map[*mcp.ServerSession]int{},
		counts:        map[string]int{},
		Server: mcp.NewServer(&mcp.Implementation{Name: "tend", Title: "tend", Version: v}, &mcp.ServerOptions{
			Instructions: ins,
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		}),
	}
	s.addExecTools()
	s.addJobTools()
	s.addPTYTools()
	addSearchTools(s.Server, s.dir)
	s.activity = newActivity()
	s.activity.agent, s.activity.session = s.agentName, s.sessionID
	s.capped = &sessionCap{max: MaxSessions, seen: map[*mcp.ServerSession]*sessionUse{}}
	s.AddReceivingMiddleware(s.activity.middleware, s.capped.middleware, undeclared)
	return s
}

// origin says who is calling: the client's name and version from initialize
// (or the request's metadata in the 2026-07-28 protocol), its session and tool.
func (s *Server) origin(ctx context.Context, req *mcp.CallToolRequest) engine.Origin {
	o := engine.Origin{Client: "unknown client", Tool: req.Params.Name}
	if ci := clientInfo(ctx, req); ci != nil && ci.Name != "" {
		o.Client, o.Version = ci.Name, ci.Version
	}
	o.Session = s.sessionID(req.Session)
	o.Agent = s.agentName(req.Session, o.Client)
	return o
}

// agentName is an agent as people see it: its client name, the name of
// the directory its tend mcp runs in (bridged agents), and, from the
// second session of a client name on, which one it is: claude-code·api#2.
func (s *Server) agentName(ss *mcp.ServerSession, client string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := client
	if dir := s.cwds[ss]; dir != "" {
		name += "·" + filepath.Base(dir)
	}
	if ss == nil {
		return name
	}
	n, ok := s.numbers[ss]
	if !ok {
		s.counts[client]++
		n = s.counts[client]
		s.numbers[ss] = n
		go func() { // forget it when the session ends; the count stays
			_ = ss.Wait()
			s.mu.Lock()
			delete(s.numbers, ss)
			s.mu.Unlock()
		}()
	}
	if n > 1 {
		name += fmt.Sprintf("#%d", n)
	}
	return name
}

func (s *Server) sessionID(ss *mcp.ServerSession) string {
	if ss == nil {
		return ""
	}
	if id := ss.ID(); id != "" {
		return id
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.sessions[ss]
	if !ok {
		id = "stdio-" + rand.Text()[:10]
		s.sessions[ss] = id
		go func() { // forget it when the session ends
			_ = ss.Wait()
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
		}()
	}
	return id
}

// ok is a result whose structured content is out.
func ok[T any](out T) (*mcp.CallToolResult, T, error) { return nil, out, nil }

// confinement is the sandbox a call asked for, or the default.
func (s *Server) confinement(asked string) (sandbox.Mode, error) {
	if asked == "" {
		return s.sandbox, nil
	}
	return sandbox.Parse(asked)
}

// fail is a tool error: the client sees isError with the sentence, and what
// to do about it.
func fail[T any](err error) (*mcp.CallToolResult, T, error) {
	var zero T
	return nil, zero, remedy(err)
}

// remedy adds to an engine error what an agent can do about it, in the
// tools' terms: the engine's sentences say what is wrong, and name no tool.
func remedy(err error) error {
	var hint string
	switch {
	case errors.Is(err, engine.ErrNoSuchJob):
		hint = "list jobs with terminal_job_manage action=list"
	case errors.Is(err, engine.ErrNoShell):
		hint = "open one with terminal_pty_open"
	case errors.Is(err, engine.ErrNoStdin):
		hint = "terminal_exec reads /dev/null unless given stdin; start the command with terminal_job_start to write to it later"
	case errors.Is(err, engine.ErrShellBusy):
		hint = `wait for it with read_only, or interrupt it with keys ["ctrl+c"]`
	case errors.Is(err, engine.ErrNothingToSend):
		hint = "give command, keys, or read_only"
	default:
		return err
	}
	return fmt.Errorf("%w (%s)", err, hint)
}

// keepAlive sends a progress notification every progressEvery while a long
// call runs (or waits for a person's approval), when the client asked for
// progress; it stops when stop is called.
func (s *Server) keepAlive(ctx context.Context, req *mcp.CallToolRequest, what string) (stop func()) {
	tok := req.Params.GetProgressToken()
	if tok == nil || req.Session == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(s.progressEvery)
		defer t.Stop()
		start := time.Now()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				msg := fmt.Sprintf("%s: %s so far (waiting for it to finish or for a person's approval)", what, time.Since(start).Round(time.Second))
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(n), Message: msg})
			}
		}
	}()
	return func() { close(done) }
}

// dir resolves a directory an agent gave (a cwd, a search path) against the
// agent's own working directory when tend knows it, as it does for an agent
// bridged by tend mcp over the socket: "" and relative paths then mean what
// they mean to the agent, not what they mean to tend, which may have been
// started anywhere.
func (s *Server) dir(req *mcp.CallToolRequest, p string) string {
	if req == nil || filepath.IsAbs(p) || p == "~" || strings.HasPrefix(p, "~/") {
		return p
	}
	s.mu.Lock()
	base := s.cwds[req.Session]
	s.mu.Unlock()
	if base == "" {
		return p
	}
	return filepath.Join(base, p)
}

// undeclared answers the methods of capabilities tend does not declare
// (prompts, resources, logging, completion) as unknown methods, where the
// SDK would answer them with empty lists: a client learns what is there
// from the capabilities, and nothing else answers.
func undeclared(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		for _, p := range []string{"prompts/", "resources/", "logging/", "completion/"} {
			if strings.HasPrefix(method, p) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q (tend serves tools only)", method)}
			}
		}
		return next(ctx, method, req)
	}
}
