// Command tend supervises the shell work of AI coding agents: it runs their
// commands as jobs a person can watch, and serves them as MCP tools.
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

	"tend/engine"
	"tend/mcpserver"
	"tend/policy"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

const usage = `tend — supervise the shell work of AI coding agents

Usage:
  tend [flags]           the terminal UI: watch, type into, background, kill and approve
                         every job; serves MCP over HTTP and a unix socket (tend ui -help)
  tend mcp [flags]       serve tend's tools over stdio (what an agent's MCP config runs)
  tend serve [flags]     serve them headless over HTTP on 127.0.0.1 and a unix socket
                         (tend serve -help lists its flags)
  tend check [--json] -- CMD
                         classify a command with tend's policy without running it
  tend replay [--cols N --rows M] [--json] [FILE]
                         render a raw terminal stream (a PTY job's log) and print the final screen
  tend version           print the version
  tend help              this text

Add it to Claude Code:
  claude mcp add tend -- tend mcp

tend mcp finds a running tend (the terminal UI or tend serve) through the
discovery file tend.json in its state dir and bridges the agent to it, so the
agent's jobs appear there and outlive the agent. With none running (or with
-headless) it serves the tools itself: the jobs then end when the agent
disconnects (stdin closes) or tend mcp is signalled.

Flags of tend mcp:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || len(args[0]) > 1 && args[0][0] == '-' && !isHelpOrVersion(args[0]) {
		return runTUI(args, stdout, stderr)
	}
	switch args[0] {
	case "mcp":
		return runMCP(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "ui":
		return runTUI(args[1:], stdout, stderr)
	case "replay":
		return runReplay(args[1:], stdin, stdout, stderr)
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "tend", version)
		return 0
	case "help", "--help", "-h", "-help":
		fmt.Fprint(stdout, usage)
		mcpFlags(stdout).PrintDefaults()
		return 0
	default:
		fmt.Fprintf(stderr, "tend: unknown command %q (see tend --help)\n", args[0])
		return 2
	}
}

// isHelpOrVersion reports whether arg is one of the help or version flags
// that are commands of their own.
func isHelpOrVersion(arg string) bool {
	switch arg {
	case "--help", "-h", "-help", "--version", "-v":
		return true
	}
	return false
}

type mcpOptions struct {
	config   string
	stateDir string
	headless bool
	grace    time.Duration
	maxJobs  int
	logLevel string
}

func mcpFlags(w io.Writer) *flag.FlagSet {
	fs, _ := mcpFlagSet(w)
	return fs
}

func mcpFlagSet(w io.Writer) (*flag.FlagSet, *mcpOptions) {
	o := &mcpOptions{}
	fs := flag.NewFlagSet("tend mcp", flag.ContinueOnError)
	fs.SetOutput(w)
	fs.StringVar(&o.config, "config", defaultConfigPath(), "config file (approval mode, rules, budgets); a missing file is the defaults")
	fs.StringVar(&o.stateDir, "state-dir", defaultStateDir(), "where job logs and metadata are kept")
	fs.DurationVar(&o.grace, "grace", engine.DefaultGrace, "how long a killed job gets between SIGTERM and SIGKILL")
	fs.IntVar(&o.maxJobs, "max-jobs", engine.DefaultMaxJobs, "most jobs running at once")
	fs.StringVar(&o.logLevel, "log-level", "warn", "log level on stderr: debug, info, warn or error")
	fs.BoolVar(&o.headless, "headless", false, "serve in-process even when a tend is running (do not bridge to it)")
	return fs, o
}

// defaultStateDir is $XDG_STATE_HOME/tend, or ~/.local/state/tend.
func defaultStateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "tend")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "tend-state")
	}
	return filepath.Join(home, ".local", "state", "tend")
}

// runMCP serves the tools over stdio. If a tend serves the state dir (the
// TUI or tend serve), it bridges stdio to that tend's socket byte for byte,
// so the agent's session, client info and cancels reach it and its jobs live
// there. Otherwise (or with -headless) it serves headless: the engine lives
// as long as the agent's connection, and every job tree ends with it.
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, o := mcpFlagSet(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		fmt.Fprintf(stderr, "tend: bad -log-level %q\n", o.logLevel)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if !o.headless {
		d, conn, err := findLive(o.stateDir)
		if err != nil {
			logger.Warn("discovery file unreadable: serving headless", "err", err)
		}
		if d != nil {
			logger.Info("bridging to a running tend", "pid", d.Pid, "socket", d.Socket)
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
			defer stop()
			if err := mcpserver.Bridge(ctx, conn, stdin, stdout); err != nil {
				logger.Info("bridge ended", "reason", err)
			}
			return 0
		}
	}
	cfg, err := loadConfig(o.config)
	if err != nil {
		fmt.Fprintf(stderr, "tend: %v\n", err)
		return 2
	}
	cfg.fillFlags(fs, &o.grace, &o.maxJobs, nil)
	if err := os.MkdirAll(o.stateDir, 0o700); err != nil {
		fmt.Fprintf(stderr, "tend: state dir: %v\n", err)
		return 1
	}
	e, audit, err := openEngine(cfg, o.stateDir, o.grace, o.maxJobs, logger, nil) // headless: no person to ask
	if err != nil {
		fmt.Fprintf(stderr, "tend: %v\n", err)
		return 1
	}
	defer audit.Close()
	defer e.Close()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	srv := mcpserver.New(e, mcpserver.Options{Version: version, Headless: true})
	followCtx, stopFollow := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { audit.follow(followCtx, srv.Activity()); close(followed) }()
	defer func() { stopFollow(); <-followed }()
	err = srv.Run(ctx, mcpserver.GuardedTransport(stdin, stdout))
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		logger.Info("client disconnected", "reason", err)
	}
	// End every job tree here, while the signals are still ours: a second
	// SIGTERM (a client that waited and signals again) must not kill tend
	// halfway through and orphan the jobs.
	e.Close()
	return 0
}

// openEngine opens the state dir's audit log and an engine over it whose
// gate is the config's policy, every decision audited. approvals is the
// queue a person answers; nil: nobody is watching (the headless fallback).
func openEngine(cfg config, stateDir string, grace time.Duration, maxJobs int, logger *slog.Logger, approvals *policy.Approvals) (*engine.Engine, *auditLog, error) {
	audit, err := openAudit(stateDir)
	if err != nil {
		return nil, nil, err
	}
	g := cfg.gate(approvals)
	g.audit = audit
	e, err := engine.New(engine.Config{
		StateDir: stateDir, Grace: grace, MaxJobs: maxJobs, MaxPTYs: cfg.Jobs.MaxPTYs,
		Logger: logger, Gate: g.check,
	})
	if err != nil {
		audit.Close()
		return nil, nil, err
	}
	return e, audit, nil
}
