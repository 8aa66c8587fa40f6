// Package app wires tend together: the audit log, the policy gate, the
// engine and the MCP server, and, when tend serves agents (the terminal UI
// and `tend serve`), the HTTP and unix socket listeners and the discovery
// file. Every command that runs jobs opens one [App] and closes it, so all
// of them start and stop the same way. Only package main imports app.
//
// Close shuts down in one fixed order:
//
//  1. stop serving: the discovery file goes, the listeners and every
//     connection close, so no new call arrives; calls in flight see their
//     connection go (an exec becomes a background job, a call waiting for
//     a person's approval ends denied);
//  2. end every job's whole process tree (the engine closes);
//  3. record the last tool calls and close the audit log.
package app

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"tend/engine"
	"tend/internal/audit"
	"tend/internal/config"
	"tend/mcpserver"
	"tend/policy"
	"tend/sandbox"
)

// Options configure [Open].
type Options struct {
	StateDir string        // job logs, the audit log, the socket and the discovery file
	Config   config.Config // approval mode, rules, timeouts, limits
	Grace    time.Duration // TERM → KILL for each job (0: the engine's default)
	MaxJobs  int           // running jobs at once (0: the engine's default)
	Logger   *slog.Logger  // nil: discard
	Version  string        // tend's version, reported to MCP clients
	// Watched says a person answers held commands (the terminal UI).
	// Without one they get the config's headless fallback: run with a
	// warning, or deny.
	Watched bool
	// Headless says the jobs end with the agent's connection (headless
	// tend mcp): the MCP server's instructions tell the agent so.
	Headless bool
}

// headroom is heap the collector counts as live and never scans, and
// whose pages nothing touches (so it takes no memory): with it the heap
// may grow by that much more before the next collection. tend's own heap
// is a few MB, so the collector's goal (twice the live heap) was about
// 10 MB, while the SDK leaves some 200 KB of garbage on every tool call
// (its JSON decoder takes a 32 KiB buffer for each value it reads): a
// collection every dozen calls, each costing about a millisecond of CPU,
// much of it on the core the job itself and the agent need. With it
// collections come several times more seldom; a tend whose heap is large
// (many jobs' output in memory) barely notices it.
var headroom struct {
	once sync.Once
	b    []byte
}

const headroomSize = 16 << 20

func keepHeadroom() {
	headroom.once.Do(func() { headroom.b = make([]byte, headroomSize) })
}

// App is a running tend: its engine, its MCP server and, for a watched
// tend, the queue of commands waiting for a person.
type App struct {
	Engine *engine.Engine
	MCP    *mcpserver.Server
	// Approvals is the queue of held commands a person answers: always
	// for a watched tend, while a supervisor is attached for tend serve.
	Approvals *policy.Approvals

	stateDir string
	logger   *slog.Logger
	audit    *audit.Log
	served   *served  // nil unless Serve succeeded
	notify   []string // the [notify] command
	gate     *gate

	stopFollow context.CancelFunc
	followed   chan struct{} // closed when the audit follower has stopped
}

// Open opens the state dir's audit log, an engine whose gate is the
// config's policy (every decision audited) and an MCP server over it, and
// starts recording every tool call in the audit log.
func Open(o Options) (*App, error) {
	keepHeadroom()
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(o.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	log, err := audit.Open(o.StateDir)
	if err != nil {
		return nil, err
	}
	p, err := o.Config.Policy()
	if err != nil {
		log.Close()
		return nil, err
	}
	g := &gate{policy: p, denyAlone: o.Config.Approval.DenyAlone(), audit: log, approvals: policy.NewApprovals(), watched: o.Watched,
		confine: sandbox.Mode(o.Config.Approval.Sandbox), writable: o.Config.Jobs.Writable}
	if t := o.Config.Approval.Timeout.Duration; t > 0 {
		g.approvals.Timeout = t
	}
	self, _ := os.Executable() // tend confines a job's command by running itself before it
	e, err := engine.New(engine.Config{
		StateDir: o.StateDir, Grace: o.Grace, MaxJobs: o.MaxJobs, MaxPTYs: o.Config.Jobs.MaxPTYs,
		Containment: engine.Containment(o.Config.Jobs.Containment), Logger: logger, Gate: g.check,
		Confiner: self, Writable: o.Config.Jobs.Writable, Unconfined: o.Config.Jobs.SandboxFallback == "unconfined",
	})
	if err != nil {
		log.Close()
		return nil, err
	}
	a := &App{
		Engine:    e,
		Approvals: g.approvals, stateDir: o.StateDir, logger: logger, audit: log,
		notify: o.Config.Notify.Command, gate: g, followed: make(chan struct{}),
	}
	opts := mcpserver.Options{Version: o.Version, Headless: o.Headless, Sandbox: sandbox.Mode(o.Config.Jobs.Sandbox)}
	if !o.Watched {
		opts.WouldAsk = a.WouldAsk // asks nothing while a person is attached
	}
	a.MCP = mcpserver.New(e, opts)
	a.seedActivity()
	ctx, stop := context.WithCancel(context.Background())
	a.stopFollow = stop
	go func() {
		defer close(a.followed)
		a.follow(ctx)
	}()
	return a, nil
}

// seedActivity shows in the Activity view the calls an earlier run of tend
// served, from the audit log: a restart does not empty it.
func (a *App) seedActivity() {
	recs, err := audit.Tail(a.stateDir, audit.KindCall, 1000)
	if err != nil {
		a.logger.Warn("the audit log could not be read: the Activity view starts empty", "why", err)
	}
	calls := make([]mcpserver.Call, len(recs))
	for i, r := range recs {
		calls[i] = mcpserver.Call{
			Time: r.Time, Client: r.Client, Agent: cmp.Or(r.Agent, r.Client), Session: r.Session, Tool: r.Tool, Args: r.Args,
			Result: r.Result, IsError: r.IsError, Status: cmp.Or(r.Status, map[bool]string{false: "ok", true: "error"}[r.IsError]),
			Job: string(r.Job), Duration: time.Duration(r.DurationMs) * time.Millisecond,
		}
	}
	a.MCP.Activity().Seed(calls)
}

// follow records every tool call the MCP server serves until ctx ends,
// and then the calls that ended with it; and every job that ended with
// output lost.
func (a *App) follow(ctx context.Context) {
	act := a.MCP.Activity()
	bell, stop := act.Watch()
	defer stop()
	_, sub := a.Engine.Subscribe()
	defer sub.Close()
	var rev uint64
	record := func() { // each call once, when it has ended
		for _, c := range act.Since(rev) {
			rev = max(rev, c.Rev)
			if c.Running || c.Before {
				continue
			}
			a.audit.Write(audit.Record{
				Time: c.Time, Kind: audit.KindCall, Client: c.Client, Agent: c.Agent, Session: c.Session, Tool: c.Tool,
				Args: c.Args, Result: c.Result, IsError: c.IsError, Status: c.Status, Job: engine.JobID(c.Job),
				DurationMs: c.Duration.Milliseconds(),
			})
		}
	}
	for {
		record()
		select {
		case <-bell:
		case ev := <-sub.C():
			if in := ev.Info; ev.Kind == engine.JobExited && in.Lost > 0 {
				a.audit.Write(audit.Record{
					Kind: audit.KindLoss, Job: in.ID, Command: in.Command, Client: in.Origin.String(),
					Result: fmt.Sprintf("%d bytes of output lost", in.Lost), Reason: in.LostWhy,
				})
			}
		case <-ctx.Done():
			record()
			return
		}
	}
}

// Person records in the audit log what a person did to a job in the
// terminal UI: kill, signal, stdin, background, start, remove.
func (a *App) Person(action string, job engine.JobID, detail string) {
	a.audit.Write(audit.Record{Kind: audit.KindPerson, By: "human", Action: action, Job: job, Reason: detail})
}

// Running counts the jobs still running.
func (a *App) Running() int {
	n := 0
	for _, in := range a.Engine.List() {
		if in.Status == engine.Running {
			n++
		}
	}
	return n
}

// Close shuts tend down in the order the package documentation gives: stop
// serving, end every job's tree, close the audit log. It returns once
// every job has ended.
func (a *App) Close() {
	t0 := time.Now()
	if a.served != nil {
		a.served.close()
		a.logger.Debug("stopped serving", "took", time.Since(t0))
	}
	a.Engine.Close()
	a.logger.Debug("every job ended", "took", time.Since(t0))
	a.stopFollow()
	<-a.followed
	a.audit.Close()
}
