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

	tea "charm.land/bubbletea/v2"

	"tend/internal/app"
	"tend/internal/config"
	"tend/internal/supervisor"
	"tend/ui"
)

// tuiFlags are the flags of the terminal UI.
type tuiFlags struct {
	common
	theme string
	fps   int
	port  int
}

// parseTUI reads the terminal UI's flags and config; ok is false when tend
// should exit with code (the reason is on stderr).
func parseTUI(args []string, stdout, stderr io.Writer) (f *tuiFlags, code int, ok bool) {
	f = &tuiFlags{}
	fs := flag.NewFlagSet("tend", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.register(fs, "info", "written to <state-dir>/tui.log")
	fs.StringVar(&f.theme, "theme", "", "dark or light (default: the config's, else from the terminal's background)")
	fs.IntVar(&f.fps, "fps", 60, "most frames drawn per second while the screen keeps changing, 1 to 120 (default: the config's, else 60); an unchanged screen is not drawn again")
	fs.IntVar(&f.port, "port", app.DefaultPort, "HTTP port of MCP on 127.0.0.1 (0: a free one; default: the config's, else 7878, else a free one)")
	if code, ok := parse(fs, args, stdout); !ok {
		return nil, code, false
	}
	if !f.parseLevel(stderr) || !f.loadConfig(fs, &f.port, stderr) {
		return nil, 2, false
	}
	if f.theme == "" {
		f.theme = f.cfg.Theme
	}
	if !f.set["fps"] && f.cfg.FPS > 0 {
		f.fps = f.cfg.FPS
	}
	switch {
	case f.fps < 1 || f.fps > 120:
		fmt.Fprintf(stderr, "tend: -fps must be 1 to 120, not %d\n", f.fps)
		return nil, 2, false
	case f.theme != "" && f.theme != "dark" && f.theme != "light":
		fmt.Fprintf(stderr, "tend: -theme must be dark or light, not %q\n", f.theme)
		return nil, 2, false
	}
	return f, 0, true
}

// runTUI is `tend` with no command: the terminal UI hosting the engine and
// the MCP server. When it ends, every job's tree is ended.
func runTUI(args []string, stdout, stderr io.Writer) int {
	f, code, ok := parseTUI(args, stdout, stderr)
	if !ok {
		return code
	}
	logFile, logger, code := openUI("tend", "; to serve agents without one, run tend serve", f.stateDir, "tui.log", f.level, stderr)
	if logFile == nil {
		return code
	}
	defer logFile.Close()
	// Two tends on one state dir would each load the other's jobs as
	// history: refuse before the engine loads anything.
	if err := app.Available(f.stateDir); errors.Is(err, app.ErrLive) {
		fmt.Fprintf(stderr, "tend: %v\n%s", err, liveHint(err, f.stateDir))
		return 1
	}
	// A person is watching: held commands wait for their answer in the UI
	// (or the config's timeout, a denial), and every decision is audited.
	a, err := f.open(logger, true, false)
	if err != nil {
		fmt.Fprintf(stderr, "tend: %v\n", err)
		return 1
	}
	// SIGTERM, SIGINT and SIGHUP (the terminal went away) end the UI like q
	// does, so the job trees are still ended below.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer stop()
	err = ui.Run(ctx, f.uiOptions(ctx, a, logger), stdout, f.fps,
		// tend handles SIGTERM and SIGHUP itself (ctx above). With Bubble
		// Tea's handler on too, a SIGTERM could reach both: the context ends
		// the program while the handler blocks forever sending a QuitMsg
		// nobody reads, and shutdown waits on the handler (bubbletea
		// v2.0.10; seen as a 1-in-3 hang in TestTUIPersonRunsAnswersAndKills).
		tea.WithoutSignalHandler())
	failed := err != nil && !errors.Is(err, tea.ErrProgramKilled) && ctx.Err() == nil
	if failed {
		logger.Error("ui", "err", err)
		fmt.Fprintf(stderr, "tend: %v\n", err)
	}
	if n := a.Running(); n > 0 {
		what := fmt.Sprintf("%d running jobs and their process trees", n)
		if n == 1 {
			what = "1 running job and its process tree"
		}
		fmt.Fprintf(stderr, "tend: ending %s…\n", what)
	}
	a.Close()
	if failed {
		return 1
	}
	return 0
}

// uiOptions serves MCP over HTTP and the unix socket, advertised in the
// state dir so that `tend mcp` bridges agents here, and says what the UI
// shows. Without serving the UI still runs, and says why.
func (f *tuiFlags) uiOptions(ctx context.Context, a *app.App, logger *slog.Logger) ui.Options {
	keys, _ := f.cfg.KeyMap() // checked when the config was loaded
	o := ui.Options{
		Backend:   ui.FromEngine(a.Engine),
		Activity:  uiActivity{a.Activity()},
		Approvals: a.Approvals,
		Version:   version,
		Theme:     f.theme,
		SaveTheme: f.saveTheme,
		Keys:      &keys,
		OnAction:  a.Person,
		OnNotify:  a.Notify,
		InTmux:    os.Getenv("TMUX") != "",

		Containment:     a.Engine.Containment(),
		ThemeJobColours: f.cfg.ThemeJobColours(),
	}
	// The default port taken (another tend?): any free one will do, the
	// discovery file tells `tend mcp` where.
	ep, err := a.Serve(ctx, f.port, f.port != 0 && !f.set["port"])
	if err != nil {
		logger.Error("MCP not served", "err", err)
		o.Notice = "MCP not served: " + err.Error()
	}
	o.Address = ep.URL
	return o
}

// saveTheme keeps the theme the person switched to in the config file,
// where the next start reads it (unless -theme says otherwise).
func (f *tuiFlags) saveTheme(name string) error {
	return config.SaveTheme(f.configPath, name)
}

// uiActivity is a record of tool calls (this tend's, or the engines' of
// tend attach) as the UI's Activity view reads it.
type uiActivity struct{ a supervisor.ActivitySource }

func (s uiActivity) Watch() (<-chan struct{}, func()) { return s.a.Watch() }
func (s uiActivity) Clients() []string                { return s.a.Clients() }

func (s uiActivity) Since(rev uint64) []ui.Call {
	calls := s.a.Since(rev)
	out := make([]ui.Call, len(calls))
	for i, c := range calls {
		out[i] = ui.Call{
			Seq: c.Seq, Rev: c.Rev, Time: c.Time, Client: c.Client, Agent: c.Agent, Session: c.Session, Tool: c.Tool,
			Args: c.Args, Running: c.Running, Result: c.Result, IsError: c.IsError, Status: c.Status,
			Job: c.Job, Detail: c.Detail, Duration: c.Duration, Before: c.Before,
		}
	}
	return out
}

// openUI checks that there is a terminal for a UI and opens its log, name in
// stateDir: the terminal belongs to the UI, so the log goes to a file. With
// none, it says why on stderr (prog names the command, hint is added to
// "no terminal") and returns the exit code.
func openUI(prog, hint, stateDir, name string, level slog.Level, stderr io.Writer) (*os.File, *slog.Logger, int) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintf(stderr, "%s: the terminal UI needs a terminal, and there is none here%s\n", prog, hint)
		return nil, nil, 2
	}
	tty.Close()
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		fmt.Fprintf(stderr, "%s: state dir: %v\n", prog, err)
		return nil, nil, 1
	}
	f, err := os.OpenFile(filepath.Join(stateDir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "%s: log: %v\n", prog, err)
		return nil, nil, 1
	}
	return f, slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), 0
}
