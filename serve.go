package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"tend/engine"
	"tend/mcpserver"
)

// DefaultPort is the HTTP port of tend and tend serve (DESIGN §1).
const DefaultPort = 7878

// serveOptions configure [startServers]; the last fields are tend serve's
// flags only.
type serveOptions struct {
	stateDir string       // the discovery file and the socket live here; must be ours and 0700
	port     int          // HTTP port on 127.0.0.1; 0 picks a free one
	logger   *slog.Logger // nil: discard

	config   string        // tend serve: config file
	grace    time.Duration // tend serve: TERM → KILL for each job
	maxJobs  int           // tend serve: running jobs at once
	logLevel string        // tend serve: debug, info, warn or error
}

// servers are the MCP transports of a serving tend (the TUI or tend serve)
// over one engine: Streamable HTTP on 127.0.0.1 and the unix socket, both
// advertised in the discovery file.
type servers struct {
	URL    string // http://127.0.0.1:<port>/mcp
	Token  string // the bearer token HTTP clients send
	Socket string // the unix socket `tend mcp` bridges to

	stateDir string
	http     *http.Server
	stop     context.CancelFunc // ends ServeSocket
	sockDone chan struct{}
	once     sync.Once
}

// errLive says another tend already serves a state dir.
var errLive = errors.New("another tend is serving this state dir")

// startServers serves srv (and so its engine) over Streamable HTTP on 127.0.0.1:o.port
// (bearer token, Origin and Host checks) and over the unix socket
// <state dir>/tend.sock (0600 in a 0700 dir, peers of our uid only), and
// writes <state dir>/tend.json (0600: url, token, socket, pid). It refuses
// when the state dir is not ours or not 0700, or when a live tend already
// serves it (a stale discovery file is replaced). Serving stops when ctx
// ends or Close is called; the engine, and its jobs, are the caller's: close
// it after Close.
func startServers(ctx context.Context, srv *mcpserver.Server, o serveOptions) (*servers, error) {
	logger := o.logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(o.stateDir, 0o700); err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	if err := mcpserver.CheckPrivateDir(o.stateDir); err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	if d, c, err := findLive(o.stateDir); err != nil {
		logger.Warn("unreadable discovery file: replacing it", "err", err)
	} else if d != nil {
		c.Close()
		return nil, fmt.Errorf("%w: pid %d at %s (socket %s)", errLive, d.Pid, d.URL, d.Socket)
	}
	sockPath := filepath.Join(o.stateDir, socketName)
	sock, err := mcpserver.ListenSocket(sockPath)
	if err != nil {
		return nil, err
	}
	ln, err := mcpserver.ListenLoopback(o.port)
	if err != nil {
		sock.Close()
		if errors.Is(err, syscall.EADDRINUSE) {
			err = fmt.Errorf("%w (another program has the port: try --port 0 for a free one)", err)
		}
		return nil, err
	}
	s := &servers{
		URL:      mcpserver.URL(ln),
		Token:    rand.Text(),
		Socket:   sockPath,
		stateDir: o.stateDir,
		sockDone: make(chan struct{}),
	}
	s.http = &http.Server{
		Handler:           srv.HTTPHandler(mcpserver.HTTPOptions{Token: s.Token}),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelDebug),
	}
	go func() {
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("HTTP server stopped", "err", err)
		}
	}()
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	go func() {
		defer close(s.sockDone)
		if err := srv.ServeSocket(sctx, sock, mcpserver.SocketOptions{Logger: logger}); err != nil {
			logger.Error("socket server stopped", "err", err)
		}
	}()
	if err := writeDiscovery(o.stateDir, &discovery{URL: s.URL, Token: s.Token, Socket: s.Socket, Pid: os.Getpid()}); err != nil {
		s.Close()
		return nil, err
	}
	context.AfterFunc(ctx, func() { s.Close() })
	return s, nil
}

// Close stops serving: it removes the discovery file, closes both listeners
// and every connection, and waits (a little) for socket sessions to end.
// Calls in flight see their connection go, not a cancel: an exec promotes
// to a background job. Jobs keep running until the engine is closed.
func (s *servers) Close() error {
	s.once.Do(func() {
		removeDiscovery(s.stateDir)
		s.stop()
		s.http.Close()
		select {
		case <-s.sockDone:
		case <-time.After(2 * time.Second):
		}
	})
	return nil
}

func serveFlagSet(w io.Writer) (*flag.FlagSet, *serveOptions) {
	o := &serveOptions{}
	fs := flag.NewFlagSet("tend serve", flag.ContinueOnError)
	fs.SetOutput(w)
	fs.StringVar(&o.config, "config", defaultConfigPath(), "config file (approval mode, rules, budgets, port); a missing file is the defaults")
	fs.StringVar(&o.stateDir, "state-dir", defaultStateDir(), "where job logs, the socket and the discovery file tend.json are kept (must be 0700)")
	fs.IntVar(&o.port, "port", DefaultPort, "HTTP port on 127.0.0.1 (0: a free one; default: the config's, else 7878)")
	fs.DurationVar(&o.grace, "grace", engine.DefaultGrace, "how long a killed job gets between SIGTERM and SIGKILL")
	fs.IntVar(&o.maxJobs, "max-jobs", engine.DefaultMaxJobs, "most jobs running at once")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level on stderr: debug, info, warn or error")
	return fs, o
}

const serveUsage = `Usage: tend serve [flags]

Serve tend's tools headless, with no terminal UI: Streamable HTTP on
127.0.0.1 (bearer token) and a unix socket in the state dir, which
` + "`tend mcp`" + ` bridges agents to. Jobs outlive the clients that started them; a
later client lists and reads them. SIGTERM, SIGINT or SIGHUP end every job
tree and remove the discovery file.

Flags:
`

// runServe is `tend serve`: the engine and the MCP server over HTTP and the
// unix socket, headless, until a signal.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs, o := serveFlagSet(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), serveUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tend serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		fmt.Fprintf(stderr, "tend: bad -log-level %q\n", o.logLevel)
		return 2
	}
	o.logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	cfg, err := loadConfig(o.config)
	if err != nil {
		fmt.Fprintf(stderr, "tend serve: %v\n", err)
		return 2
	}
	cfg.fillFlags(fs, &o.grace, &o.maxJobs, &o.port)
	// Refuse before the engine loads anything if the dir is wrong or taken.
	if err := os.MkdirAll(o.stateDir, 0o700); err != nil {
		fmt.Fprintf(stderr, "tend serve: state dir: %v\n", err)
		return 1
	}
	if err := mcpserver.CheckPrivateDir(o.stateDir); err != nil {
		fmt.Fprintf(stderr, "tend serve: state dir: %v\n", err)
		return 1
	}
	if d, c, _ := findLive(o.stateDir); d != nil {
		c.Close()
		fmt.Fprintf(stderr, "tend serve: another tend (pid %d) is serving %s at %s\n", d.Pid, o.stateDir, d.URL)
		return 1
	}
	e, audit, err := openEngine(cfg, o.stateDir, o.grace, o.maxJobs, o.logger, nil) // headless: no person to ask
	if err != nil {
		fmt.Fprintf(stderr, "tend serve: %v\n", err)
		return 1
	}
	defer audit.Close()
	defer e.Close()
	srv := mcpserver.New(e, mcpserver.Options{Version: version})
	followCtx, stopFollow := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { audit.follow(followCtx, srv.Activity()); close(followed) }()
	defer func() { stopFollow(); <-followed }()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	s, err := startServers(ctx, srv, *o)
	if err != nil {
		fmt.Fprintf(stderr, "tend serve: %v\n", err)
		return 1
	}
	stateFlag := ""
	if o.stateDir != defaultStateDir() {
		stateFlag = " --state-dir " + o.stateDir
	}
	fmt.Fprintf(stderr, `tend serve (pid %d): MCP at %s and on %s
Add it to Claude Code over HTTP:
  claude mcp add --transport http tend %s --header "Authorization: Bearer %s"
or over stdio, bridged to this tend:
  claude mcp add tend -- tend mcp%s
The URL and token are also in %s. Stop with Ctrl-C or SIGTERM: every job ends with tend serve.
`, os.Getpid(), s.URL, s.Socket, s.URL, s.Token, stateFlag, discoveryPath(o.stateDir))
	<-ctx.Done()
	o.logger.Info("shutting down: ending every job", "signal", context.Cause(ctx))
	t0 := time.Now()
	s.Close()
	o.logger.Debug("servers closed", "took", time.Since(t0))
	e.Close()
	o.logger.Debug("every job ended", "took", time.Since(t0))
	return 0
}
