package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"

	"tend/internal/discovery"
	"tend/mcpserver"
)

func mcpFlags(w io.Writer) (*flag.FlagSet, *common, *bool) {
	fs := flag.NewFlagSet("tend mcp", flag.ContinueOnError)
	fs.SetOutput(w)
	c := &common{}
	c.register(fs, "warn", "on stderr")
	headless := fs.Bool("headless", false, "serve in-process even when a tend is running (do not bridge to it)")
	return fs, c, headless
}

// runMCP serves the tools over stdio. If a tend serves the state dir (the
// TUI or tend serve), it bridges stdio to that tend's socket byte for byte,
// so the agent's session, client info and cancels reach it and its jobs live
// there. Otherwise (or with -headless) it serves headless: the engine lives
// as long as the agent's connection, and every job tree ends with it.
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	stdin = pollable(stdin)
	fs, c, headless := mcpFlags(stderr)
	if code, ok := parse(fs, args, stdout); !ok {
		return code
	}
	if !c.parseLevel(stderr) {
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: c.level}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	if !*headless && bridgeToLive(ctx, c.stateDir, stdin, stdout, logger) {
		return 0
	}
	if !c.loadConfig(fs, nil, stderr) {
		return 2
	}
	a, err := c.open(logger, false, true) // headless: no person to ask
	if err != nil {
		fmt.Fprintf(stderr, "tend mcp: %v\n", err)
		return 1
	}
	err = a.MCP.Run(ctx, mcpserver.GuardedTransport(stdin, stdout))
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		logger.Info("client disconnected", "reason", err)
	}
	// End every job tree here, while the signals are still ours: a second
	// SIGTERM (a client that waited and signals again) must not kill tend
	// halfway through and orphan the jobs.
	a.Close()
	return 0
}

// pollable returns stdin for reading through the runtime's poller when it
// is a pipe or a socket: a blocking read holds its thread and the
// scheduler's P, and the goroutine it just woke (the SDK's, with the
// request) waits for another thread to take that P, tens of microseconds
// a call; and such a read has a deadline, which lets the session's own
// reader read it (GuardedTransport). A pipe or socket is tend's alone; a
// terminal is shared with the shell that started tend, which non-blocking
// mode would break, so it is left as it is.
func pollable(stdin io.Reader) io.Reader {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin
	}
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO && st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return stdin
	}
	if unix.SetNonblock(int(f.Fd()), true) != nil {
		return stdin
	}
	return os.NewFile(f.Fd(), f.Name())
}

// bridgeToLive bridges stdio to the tend serving stateDir, if one is live, and
// reports whether it did.
func bridgeToLive(ctx context.Context, stateDir string, stdin io.Reader, stdout io.Writer, logger *slog.Logger) bool {
	d, conn, err := discovery.FindLive(stateDir)
	if err != nil {
		logger.Warn("not bridging to the tend serving the state dir: serving headless", "why", err)
	}
	if d == nil {
		if err == nil {
			logger.Info("no running tend serves the state dir: serving headless", "looked for", discovery.Path(stateDir))
		}
		return false
	}
	logger.Info("bridging to a running tend", "pid", d.Pid, "socket", d.Socket)
	dial := func() (net.Conn, int, error) {
		d, c, err := discovery.FindLive(stateDir)
		if d == nil {
			return nil, 0, err
		}
		return c, d.Pid, err
	}
	if err := mcpserver.Bridge(ctx, conn, dial, stdin, stdout, logger); err != nil {
		logger.Info("bridge ended", "reason", err)
	}
	return true
}
