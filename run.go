package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/syntax"

	"tend/internal/config"
	"tend/internal/control"
)

// The exit codes of tend run that are not the command's own.
const (
	exitNoTend = 125 // -require and no tend is running, or tend went away
	exitDenied = 126 // tend's policy or the person refused it
)

// relayed are the signals tend run passes on to its job.
var relayed = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// runRun is tend run: CMD becomes a job of the running tend, which the
// person sees, can kill and may have to approve; its stdout and stderr
// come back here byte for byte, stdin goes to it, and tend run exits with
// its status.
func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stateDir := fs.String("state-dir", config.DefaultStateDir(), "the state dir of the tend to run in")
	as := fs.String("as", "tend run", "who runs it, as the person sees it (an agent's name: claude-code)")
	session := fs.String("session", "", "the agent's session id, for the record")
	require := fs.Bool("require", false, "with no tend running, fail (exit 125) instead of running CMD directly")
	noStdin := fs.Bool("n", false, "give CMD no stdin (as ssh -n): tend run otherwise forwards all of its own, which in a loop reading a file takes the rest of it")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: tend run [flags] [--] CMD [ARG…]

Runs CMD as a job of the running tend (the terminal UI or tend serve): it
shows there, the person can watch and kill it, and tend's policy applies
(a held command waits for the person's approval). Its stdout and stderr
are written here byte for byte, stdin is passed on, SIGINT, SIGTERM,
SIGHUP and SIGQUIT are sent to it, and tend run exits with its status
(128+N when signal N ended it). One argument is a shell command line;
several are one command, quoted as given. With no tend running, it says
so and runs CMD directly (or fails, with -require).

Exit codes of its own: 125 no tend (with -require) or tend went away,
126 denied.

Flags:
`)
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, stdout); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "tend run: say which command to run (tend run -- CMD)")
		return 2
	}
	command := fs.Arg(0)
	if fs.NArg() > 1 {
		command = shellJoin(fs.Args())
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "tend run: %v\n", err)
		return 1
	}
	if *noStdin {
		stdin = nil
	}
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, relayed...)
	defer signal.Stop(sigs)

	c, err := control.Dial(*stateDir)
	if err != nil {
		if *require {
			fmt.Fprintf(stderr, "tend run: %v: not running %q\n", err, command)
			return exitNoTend
		}
		fmt.Fprintf(stderr, "tend run: %v: running it directly, unsupervised\n", err)
		return runDirect(command, fs.NArg() > 1, fs.Args(), stdin, stdout, stderr, sigs)
	}
	defer c.Close()
	res, err := c.Run(control.RunParams{
		Command: command, Cwd: cwd, Env: os.Environ(), Stdin: stdinKind(stdin),
		Origin: control.Origin{Client: *as, Session: *session},
	}, stdin, stdout, stderr, sigs, nil)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "tend run: %v\n", err)
		return exitNoTend
	case res.Status == "denied":
		fmt.Fprintf(stderr, "tend run: denied: %s\n", res.Denied)
		return exitDenied
	case res.Status == "withdrawn":
		fmt.Fprintf(stderr, "tend run: %s before it started: withdrawn\n", res.Signal)
	case res.Lost > 0:
		fmt.Fprintf(stderr, "tend run: %d bytes of the job's output were lost on the way (tend keeps them all in job %s's log)\n", res.Lost, res.Job)
	}
	if res.Note != "" {
		fmt.Fprintf(stderr, "tend run: %s\n", res.Note)
	}
	if res.Signal != "" {
		return 128 + int(unix.SignalNum(res.Signal))
	}
	if res.ExitCode != nil {
		return *res.ExitCode
	}
	return 1
}

// runDirect runs command here, without tend: argv as given when there
// were several arguments, else through bash -c.
func runDirect(command string, isArgv bool, argv []string, stdin io.Reader, stdout, stderr io.Writer, sigs <-chan os.Signal) int {
	cmd := exec.Command("bash", "-c", command)
	if isArgv {
		cmd = exec.Command(argv[0], argv[1:]...)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "tend run: %v\n", err)
		return 127
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	}
	if err != nil {
		return 1
	}
	return 0
}

// shellJoin quotes each word for bash and joins them with spaces.
func shellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		s, err := syntax.Quote(w, syntax.LangBash)
		if err != nil { // a NUL byte: the engine refuses it with a sentence
			s = w
		}
		q[i] = s
	}
	return strings.Join(q, " ")
}

// stdinKind says what stdin is, for the policy: "terminal", "none"
// (/dev/null) or "pipe" (anything else: its content is not seen).
func stdinKind(stdin io.Reader) string {
	if stdin == nil {
		return "none"
	}
	f, ok := stdin.(*os.File)
	if !ok {
		return "pipe"
	}
	if _, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS); err == nil {
		return "terminal"
	}
	var st, null unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) == nil && unix.Stat("/dev/null", &null) == nil && st.Rdev == null.Rdev && st.Mode&unix.S_IFMT == unix.S_IFCHR {
		return "none"
	}
	return "pipe"
}
