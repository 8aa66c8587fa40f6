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
	"syscall"

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

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &common{}
	c.register(fs, "info", "on stderr")
	port := fs.Int("port", app.DefaultPort, "HTTP port on 127.0.0.1 (0: a free one; default: the config's, else 7878)")
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

// printServing tells the person how to connect an agent.
func printServing(w io.Writer, ep app.Endpoints, stateDir string) {
	stateFlag := ""
	if stateDir != config.DefaultStateDir() {
		stateFlag = " --state-dir " + stateDir
	}
	fmt.Fprintf(w, `tend serve (pid %d): MCP at %s and on %s
Add it to Claude Code over HTTP:
  claude mcp add --transport http tend %s --header "Authorization: Bearer %s"
or over stdio, bridged to this tend:
  claude mcp add tend -- tend mcp%s
The URL and token are also in %s. Stop with Ctrl-C or SIGTERM: every job ends with tend serve.
`, os.Getpid(), ep.URL, ep.Socket, ep.URL, ep.Token, stateFlag, discovery.Path(stateDir))
}
