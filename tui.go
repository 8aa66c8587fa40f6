package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
	"tend/mcpserver"
	"tend/policy"
	"tend/ui"
)

// runTUI is `tend` with no command: the terminal UI hosting the engine and
// the MCP server. When it ends, every job's tree is ended.
func runTUI(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stateDir := fs.String("state-dir", defaultStateDir(), "where job logs and metadata are kept")
	grace := fs.Duration("grace", engine.DefaultGrace, "how long a killed job gets between SIGTERM and SIGKILL")
	maxJobs := fs.Int("max-jobs", engine.DefaultMaxJobs, "most jobs running at once")
	logLevel := fs.String("log-level", "info", "level of the log written to <state-dir>/tui.log: debug, info, warn or error")
	configPath := fs.String("config", defaultConfigPath(), "config file (approval mode, rules, budgets, theme); a missing file is the defaults")
	theme := fs.String("theme", "", "dark or light (default: the config's, else from the terminal's background)")
	fps := fs.Int("fps", 60, "most frames drawn per second, 1 to 120 (default: the config's, else 60); Bubble Tea's renderer wakes this often even when idle, about 0.2 ms of CPU each time")
	port := fs.Int("port", DefaultPort, "HTTP port of MCP on 127.0.0.1 (0: a free one; default: the config's, else 7878, else a free one)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		fmt.Fprintf(stderr, "tend: %v\n", err)
		return 2
	}
	set := cfg.fillFlags(fs, grace, maxJobs, port)
	keys, _ := cfg.keys() // checked by loadConfig
	if *theme == "" {
		*theme = cfg.Theme
	}
	if !set["fps"] && cfg.FPS > 0 {
		*fps = cfg.FPS
	}
	if *fps < 1 || *fps > 120 {
		fmt.Fprintf(stderr, "tend: -fps must be 1 to 120, not %d\n", *fps)
		return 2
	}
	if *theme != "" && *theme != "dark" && *theme != "light" {
		fmt.Fprintf(stderr, "tend: -theme must be dark or light, not %q\n", *theme)
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "tend: bad -log-level %q\n", *logLevel)
		return 2
	}
	if err := os.MkdirAll(*stateDir, 0o700); err != nil {
		fmt.Fprintf(stderr, "tend: state dir: %v\n", err)
		return 1
	}
	// The terminal belongs to the UI: the log goes to a file.
	logFile, err := os.OpenFile(filepath.Join(*stateDir, "tui.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "tend: log: %v\n", err)
		return 1
	}
	defer logFile.Close()
	logger := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: level}))

	// A person is watching: held commands wait for their answer in the UI
	// (or the config's timeout, a denial), and every decision is audited.
	approvals := policy.NewApprovals()
	e, audit, err := openEngine(cfg, *stateDir, *grace, *maxJobs, logger, approvals)
	if err != nil {
		fmt.Fprintf(stderr, "tend: %v\n", err)
		return 1
	}
	defer audit.Close()
	srv := mcpserver.New(e, mcpserver.Options{Version: version})
	followCtx, stopFollow := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { audit.follow(followCtx, srv.Activity()); close(followed) }()
	defer func() { stopFollow(); <-followed }()

	// SIGTERM, SIGINT and SIGHUP (the terminal went away) end the UI like q does, so
	// the job trees are still ended below.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer stop()

	// MCP over HTTP and the unix socket, advertised in the state dir so
	// that `tend mcp` bridges agents here. Without it the UI still runs,
	// and says why.
	address, notice := "", ""
	servers, err := startServers(ctx, srv, serveOptions{stateDir: *stateDir, port: *port, logger: logger})
	if err != nil && *port != 0 && !set["port"] && !errors.Is(err, errLive) {
		// The default port is taken (another tend?): any free one will do,
		// the discovery file tells `tend mcp` where.
		logger.Warn("MCP port taken: using a free one", "port", *port, "err", err)
		servers, err = startServers(ctx, srv, serveOptions{stateDir: *stateDir, port: 0, logger: logger})
	}
	if err != nil {
		logger.Error("MCP not served", "err", err)
		notice = "MCP not served: " + err.Error()
	} else {
		address = servers.URL
		defer servers.Close()
	}

	err = ui.Run(ctx, ui.Options{
		Backend:   personBackend{ui.FromEngine(e)},
		Activity:  activitySource{srv.Activity()},
		Approvals: approvals,
		Address:   address,
		Notice:    notice,
		Version:   version,
		Theme:     *theme,
		Keys:      &keys,
		OnAction:  audit.person,
	},
		tea.WithOutput(stdout), tea.WithFPS(*fps),
		// tend handles SIGTERM and SIGHUP itself (ctx above). With Bubble
		// Tea's handler on too, a SIGTERM could reach both: the context ends
		// the program while the handler blocks forever sending a QuitMsg
		// nobody reads, and shutdown waits on the handler (bubbletea
		// v2.0.10; seen as a 1-in-3 hang in TestTUIPersonRunsAnswersAndKills).
		tea.WithoutSignalHandler())
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && ctx.Err() == nil {
		logger.Error("ui", "err", err)
		fmt.Fprintf(stderr, "tend: %v\n", err)
	}
	if servers != nil {
		servers.Close() // no new call, and calls waiting for approval end denied
	}
	var ptys []engine.JobID
	running := 0
	for _, in := range e.List() {
		if in.Status == engine.Running.String() {
			running++
			if in.PTY {
				ptys = append(ptys, in.ID)
			}
		}
	}
	if running > 0 {
		fmt.Fprintf(stderr, "tend: ending %d running job(s) and their process trees…\n", running)
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		e.Close()
	}()
	select {
	case <-closed:
	case <-time.After(100 * time.Millisecond):
		// An interactive shell ignores SIGTERM but leaves on SIGHUP: hang
		// up the terminal jobs too, as a closing terminal does.
		for _, id := range ptys {
			if j, err := e.Job(id); err == nil {
				_ = j.Signal(syscall.SIGHUP)
			}
		}
		<-closed
	}
	if err != nil && ctx.Err() == nil && !errors.Is(err, tea.ErrProgramKilled) {
		return 1
	}
	return 0
}

// personBackend is the engine as the person at the TUI uses it: the jobs
// they start (":" and "s") are theirs, and the gate does not hold them for
// their own approval (gate.go, byPerson).
type personBackend struct{ ui.Backend }

func (b personBackend) Start(ctx context.Context, spec engine.Spec) (ui.Job, error) {
	return b.Backend.Start(byPerson(ctx), spec)
}

// activitySource adapts mcpserver's record of tool calls to the UI's.
type activitySource struct{ a *mcpserver.Activity }

func (s activitySource) Watch() (<-chan struct{}, func()) { return s.a.Watch() }

func (s activitySource) Since(seq uint64) []ui.Call {
	calls := s.a.Since(seq)
	out := make([]ui.Call, len(calls))
	for i, c := range calls {
		out[i] = ui.Call{
			Seq: c.Seq, Time: c.Time, Client: c.Client, Tool: c.Tool, Args: c.Args,
			Result: c.Result, IsError: c.IsError, Duration: c.Duration,
		}
	}
	return out
}

func (s activitySource) Clients() []string {
	var out []string
	for _, c := range s.a.Clients() {
		out = append(out, c.Name)
	}
	return out
}
