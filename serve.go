package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"tend/internal/app"
	"tend/internal/config"
	"tend/internal/discovery"
)

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
// liveHint says what to do when another tend serves the state dir: its
// jobs are there, agents reach it already, and a second tend needs a
// directory of its own.
func liveHint(err error, stateDir string) string {
	if !errors.Is(err, app.ErrLive) {
		return ""
	}
	return fmt.Sprintf("Its jobs are there, and agents that run tend mcp --state-dir %s reach it. Watch them in that tend, or stop it first;\nto run a second tend beside it, give this one a state dir of its own (--state-dir).\n", stateDir)
}

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &common{}
	c.register(fs, "info", "on stderr")
	port := fs.Int("port", app.DefaultPort, "HTTP port on 127.0.0.1 (0: a free one; default: the config's, else 7878)")
	stopFlag := fs.Bool("stop", false, "end the tend serving the state dir, and every job of it, and wait until it has")
	stdio := fs.Bool("stdio", false, "bridge stdin and stdout to the tend serving the state dir, starting one (in the background, logging to <state-dir>/serve.log) if none does: what tend attach runs over ssh")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), serveUsage)
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tend serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if !c.parseLevel(stderr) || !c.loadConfig(fs, port, stderr) {
		return 2
	}
	switch {
	case *stopFlag:
		return stopServe(c.stateDir, stderr)
	case *stdio:
		return serveStdio(c.stateDir, slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--stdio" || a == "-stdio" }), stdin, stdout, stderr)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: c.level}))
	// Refuse before the engine loads anything if the dir is wrong or taken.
	if err := app.Available(c.stateDir); err != nil {
		fmt.Fprintf(stderr, "tend serve: %v\n%s", err, liveHint(err, c.stateDir))
		return 1
	}
	a, err := c.open(logger, false, false) // headless: no person to ask
	if err != nil {
		fmt.Fprintf(stderr, "tend serve: %v\n", err)
		return 1
	}
	defer a.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	ep, err := a.Serve(ctx, *port, false)
	if err != nil {
		fmt.Fprintf(stderr, "tend serve: %v\n", err)
		return 1
	}
	printServing(stderr, ep, c.stateDir)
	<-ctx.Done()
	logger.Info("shutting down: ending every job", "signal", context.Cause(ctx))
	return 0
}

// stopServe ends the tend serving stateDir (SIGTERM: it ends every job)
// and waits until it has gone.
func stopServe(stateDir string, stderr io.Writer) int {
	d, conn, err := discovery.FindLive(stateDir)
	if err != nil || d == nil {
		fmt.Fprintf(stderr, "tend serve --stop: no tend serves %s\n", stateDir)
		return 1
	}
	conn.Close()
	if err := syscall.Kill(d.Pid, syscall.SIGTERM); err != nil {
		fmt.Fprintf(stderr, "tend serve --stop: pid %d: %v\n", d.Pid, err)
		return 1
	}
	for {
		// Polled: nothing tells another process of its end. The discovery
		// file goes first, the jobs next, then the process.
		if syscall.Kill(d.Pid, 0) != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	fmt.Fprintf(stderr, "tend serve (pid %d) stopped, and every job of it\n", d.Pid)
	return 0
}

// serveStdio bridges stdin and stdout to the tend serving stateDir,
// byte for byte; with none, it starts one that outlives this bridge (in a
// session of its own, so the ssh that ran the bridge going away ends
// neither it nor its jobs). args are the flags to start it with.
func serveStdio(stateDir string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	d, conn, err := discovery.FindLive(stateDir)
	if err == nil && d == nil {
		if err = spawnServe(stateDir, args); err == nil {
			for deadline := time.Now().Add(10 * time.Second); d == nil && err == nil && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond) // polled: the new tend says nothing when it serves
				d, conn, err = discovery.FindLive(stateDir)
			}
		}
	}
	if err == nil && d == nil {
		err = fmt.Errorf("the tend started for %s did not serve within 10s (see %s)", stateDir, filepath.Join(stateDir, "serve.log"))
	}
	if err != nil {
		fmt.Fprintf(stderr, "tend serve --stdio: %v\n", err)
		return 1
	}
	defer conn.Close()
	go func() {
		io.Copy(conn, stdin)
		conn.CloseWrite() // the server sees the end, and ends the connection
	}()
	io.Copy(stdout, conn)
	return 0
}

// spawnServe starts `tend serve` with args in the background.
func spawnServe(stateDir string, args []string) error {
	if err := app.Available(stateDir); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(stateDir, "serve.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(self, append([]string{"serve"}, args...)...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// printServing tells the person how to connect an agent.
func printServing(w io.Writer, ep app.Endpoints, stateDir string) {
	fmt.Fprintf(w, `tend serve (pid %d): MCP at %s and on %s
Add it to Claude Code over HTTP:
  claude mcp add --transport http tend %s --header "Authorization: Bearer %s"
or over stdio, bridged to this tend:
  claude mcp add tend -- tend mcp%s
The URL and token are also in %s. Watch and approve with tend attach%s.
Stop with Ctrl-C, SIGTERM or tend serve --stop: every job ends with tend serve.
`, os.Getpid(), ep.URL, ep.Socket, ep.URL, ep.Token, stateFlag(stateDir), discovery.Path(stateDir), stateFlag(stateDir))
}

// stateFlag is the --state-dir flag a command needs to reach stateDir.
func stateFlag(stateDir string) string {
	if stateDir != config.DefaultStateDir() {
		return " --state-dir " + stateDir
	}
	return ""
}
