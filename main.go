// Command tend supervises the shell work of AI coding agents: it runs their
// commands as jobs a person can watch, and serves them as MCP tools.
//
// main only reads the command line and hands it to the command: tend (the
// terminal UI, tui.go), tend serve (serve.go), tend mcp (mcp.go), tend
// check (check.go), tend replay (replay.go) and tend doctor (doctor.go).
// What they run is wired in the internal/app package.
package main

import (
	"fmt"
	"io"
	"os"

	"tend/sandbox"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

const usage = `tend — supervise the shell work of AI coding agents

Usage:
  tend [flags]           the terminal UI: watch, type into, background, kill and approve
                         every job; serves MCP over HTTP and a unix socket (tend ui -help)
  tend mcp [flags]       serve tend's tools over stdio (what an agent's MCP config runs)
  tend serve [flags]     serve them headless over HTTP on 127.0.0.1 and a unix socket
                         (tend serve -help lists its flags; --stop ends it, --stdio bridges to it)
  tend attach [TARGET…]  the terminal UI over running engines: this machine's tend serve,
                         unix://PATH, ssh://[user@]host[:port]; quitting leaves their jobs
                         running (tend attach -help)
  tend run [flags] [--] CMD
                         run CMD as a job of the running tend, its output and exit status here
                         (tend run -help)
  tend wait [flags] JOB  wait for a job to end, or print a line (-for RE); exit status says how
  tend setup claude      add tend's MCP server and hooks to Claude Code (codex, gemini, cursor:
                         print what to add)
  tend hook claude       Claude Code's PreToolUse hook for its Bash tool (tend setup adds it)
  tend check [--json | --explain] -- CMD
                         classify a command with tend's policy without running it;
                         --explain shows each simple command found and what decided
  tend replay [--cols N --rows M] [--json] [FILE]
                         render a raw terminal stream (a PTY job's log) and print the final screen
  tend doctor            how this machine holds jobs (a cgroup each, or not, and why), the state dir
  tend version           print the version
  tend help              this text

Add it to Claude Code (the MCP server and the hooks on its own shell):
  tend setup claude

tend mcp finds a running tend (the terminal UI or tend serve) through the
discovery file tend.json in its state dir and bridges the agent to it, so the
agent's jobs appear there and outlive the agent. With none running (or with
-headless) it serves the tools itself: the jobs then end when the agent
disconnects (stdin closes) or tend mcp is signalled.

Flags of tend mcp:
`

func main() {
	stop := profile(os.Stderr)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command args name and returns its exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || len(args[0]) > 1 && args[0][0] == '-' && !isHelpOrVersion(args[0]) {
		return runTUI(args, stdout, stderr)
	}
	switch args[0] {
	case sandbox.Arg: // the first process of a confined job (see package sandbox)
		err := sandbox.Main(args[1:])
		fmt.Fprintln(stderr, "tend:", err)
		return 126
	case "mcp":
		return runMCP(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdin, stdout, stderr)
	case "attach":
		return runAttach(args[1:], stdout, stderr)
	case "ui":
		return runTUI(args[1:], stdout, stderr)
	case "replay":
		return runReplay(args[1:], stdin, stdout, stderr)
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "run":
		return runRun(args[1:], stdin, stdout, stderr)
	case "hook":
		return runHook(args[1:], stdin, stdout, stderr)
	case "wait":
		return runWait(args[1:], stdout, stderr)
	case "setup":
		return runSetup(args[1:], stdout, stderr)
	case "doctor":
		return runDoctor(args[1:], stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "tend", version)
		return 0
	case "help", "--help", "-h", "-help":
		fmt.Fprint(stdout, usage)
		fs, _, _ := mcpFlags(stdout)
		fs.PrintDefaults()
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
