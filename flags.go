package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"tend/engine"
	"tend/internal/app"
	"tend/internal/config"
)

// common are the flags of every command that runs jobs (tend, tend serve,
// tend mcp), and what they load.
type common struct {
	configPath string
	stateDir   string
	logLevel   string
	grace      time.Duration
	maxJobs    int

	cfg   config.Config
	level slog.Level
	set   map[string]bool // the flags given on the command line
}

// register adds the common flags to fs; logs says where the log goes.
func (c *common) register(fs *flag.FlagSet, logDefault, logs string) {
	c.registerPaths(fs)
	fs.DurationVar(&c.grace, "grace", engine.DefaultGrace, "how long a killed job gets between SIGTERM and SIGKILL")
	fs.IntVar(&c.maxJobs, "max-jobs", engine.DefaultMaxJobs, "most jobs running at once")
	fs.StringVar(&c.logLevel, "log-level", logDefault, "level of the log "+logs+": debug, info, warn or error")
}

// registerPaths adds the flags that say where the config and the state
// are.
func (c *common) registerPaths(fs *flag.FlagSet) {
	fs.StringVar(&c.configPath, "config", config.DefaultPath(), "config file (approval mode, rules, budgets); a missing file is the defaults")
	fs.StringVar(&c.stateDir, "state-dir", config.DefaultStateDir(), "where job logs, the audit log, the socket and the discovery file tend.json are kept (must be 0700)")
}

// parseLevel reads -log-level, saying what is wrong on w.
func (c *common) parseLevel(w io.Writer) bool {
	if err := c.level.UnmarshalText([]byte(c.logLevel)); err != nil {
		fmt.Fprintf(w, "tend: bad -log-level %q\n", c.logLevel)
		return false
	}
	return true
}

// loadConfig reads the config file; its grace, max_jobs and port (port may
// be nil) apply where the command line did not say. It says what is wrong
// on w.
func (c *common) loadConfig(fs *flag.FlagSet, port *int, w io.Writer) bool {
	cfg, err := config.Load(c.configPath)
	if err != nil {
		fmt.Fprintf(w, "%s: %v\n", fs.Name(), err)
		return false
	}
	c.cfg = cfg
	c.set = cfg.FillFlags(fs, &c.grace, &c.maxJobs, port)
	return true
}

// open opens the app over the state dir with the loaded config.
func (c *common) open(logger *slog.Logger, watched, headless bool) (*app.App, error) {
	return app.Open(app.Options{
		StateDir: c.stateDir, Config: c.cfg, Grace: c.grace, MaxJobs: c.maxJobs,
		Logger: logger, Version: version, Watched: watched, Headless: headless,
	})
}

// parse parses args into fs: help (-h, -help, --help) is the usage on
// stdout and exit 0, a bad flag exit 2 (the flag package has said why, on
// the flag set's output).
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, ok bool) {
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break // an operand: what follows may be a command's own flags
		}
		if a == "-h" || a == "-help" || a == "--help" || a == "--h" {
			fs.SetOutput(stdout)
			fs.Usage()
			return 0, false
		}
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// parseOperand is [parse] for commands of one operand, which may come
// before, between or after the flags (tend wait JOB -for X); after "--"
// all are operands. It returns the operand, "" unless there is exactly one.
func parseOperand(fs *flag.FlagSet, args []string, stdout io.Writer) (operand string, code int, ok bool) {
	var operands []string
	for {
		if code, ok := parse(fs, args, stdout); !ok {
			return "", code, false
		}
		rest := fs.Args()
		if len(rest) > 0 && len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			operands, rest = append(operands, rest...), nil
		}
		if len(rest) == 0 {
			if len(operands) != 1 {
				return "", 0, true
			}
			return operands[0], 0, true
		}
		operands, args = append(operands, rest[0]), rest[1:]
	}
}
