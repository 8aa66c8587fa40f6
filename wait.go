package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"tend/internal/config"
	"tend/internal/control"
)

// The exit codes of tend wait.
const (
	waitOK        = 0   // the job ended with status 0, or -for matched
	waitFailed    = 1   // the job ended otherwise (an exit code, a signal), or -for never matched
	waitTimeout   = 124 // -timeout passed first (as timeout(1) says it)
	waitNoJob     = 125 // no tend, or no such job
	waitSignalled = 130 // interrupted
)

// runWait is tend wait JOB: block until a job of the running tend ends
// (or prints a line matching -for), and say how it ended.
func runWait(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend wait", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stateDir := fs.String("state-dir", config.DefaultStateDir(), "the state dir of the tend that runs the job")
	pattern := fs.String("for", "", "wait until a line of the job's output matches this regular expression (RE2) instead of for its end")
	timeout := fs.Duration("timeout", 0, "give up after this long (0: never)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: tend wait [flags] JOB

Waits until job JOB of the running tend ends, or with -for until a line of
its output matches, and prints how it stands: command, status, exit code,
runtime, its last lines.

Exit status: 0 it ended with status 0 (or -for matched), 1 it ended
otherwise (or ended before -for matched), 124 -timeout passed, 125 no tend
or no such job, 130 interrupted, 2 bad usage.

Flags:
`)
		fs.PrintDefaults()
	}
	job, code, ok := parseOperand(fs, args, stdout)
	if !ok {
		return code
	}
	if job == "" {
		fmt.Fprintln(stderr, "tend wait: say which job: tend wait JOB")
		return 2
	}
	if _, err := regexp.Compile(*pattern); err != nil {
		fmt.Fprintf(stderr, "tend wait: -for %q: %v\n", *pattern, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	res, err := waitFor(ctx, *stateDir, control.WaitParams{Job: job, For: *pattern})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(stderr, "tend wait: job %s: no end within %s\n", job, *timeout)
		return waitTimeout
	case errors.Is(err, context.Canceled):
		return waitSignalled
	case err != nil:
		fmt.Fprintf(stderr, "tend wait: %v\n", err)
		return waitNoJob
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		fmt.Fprintln(stdout, summary(job, res))
	}
	switch {
	case res.Matched:
		return waitOK
	case *pattern == "" && res.ExitCode != nil && *res.ExitCode == 0:
		return waitOK
	}
	return waitFailed
}

func waitFor(ctx context.Context, stateDir string, p control.WaitParams) (control.WaitResult, error) {
	c, err := control.Dial(stateDir)
	if err != nil {
		return control.WaitResult{}, err
	}
	defer c.Close()
	return c.Wait(ctx, p)
}

// summary is one paragraph on how job stands: what an agent woken by it
// needs to go on.
func summary(job string, r control.WaitResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tend job %s (%s) ", job, r.Command)
	switch {
	case r.Matched:
		fmt.Fprintf(&b, "printed %q; it is %s", r.Match, r.Status)
	case r.Signal != "":
		fmt.Fprintf(&b, "was %s by %s", r.Status, r.Signal)
	case r.ExitCode != nil:
		fmt.Fprintf(&b, "exited with code %d", *r.ExitCode)
	default:
		fmt.Fprintf(&b, "is %s", r.Status)
	}
	fmt.Fprintf(&b, " after %s.", (time.Duration(r.RuntimeMs) * time.Millisecond).Round(100*time.Millisecond))
	if len(r.Tail) > 0 {
		b.WriteString(" Its last lines:\n" + strings.Join(r.Tail, "\n"))
	}
	return b.String()
}
