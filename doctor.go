package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"tend/engine"
	"tend/internal/app"
	"tend/internal/discovery"
	"tend/sandbox"
)

// runDoctor is `tend doctor`: what this machine and config give tend, and
// what to do about what is missing.
func runDoctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &common{}
	c.registerPaths(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tend doctor [--config FILE] [--state-dir DIR]\n\nSays how this machine holds jobs (a cgroup each, or not, and why) and whether\nthe state dir is usable; exits 1 when something tend needs is missing.")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, stdout); !ok {
		return code
	}
	if !c.loadConfig(fs, nil, stderr) {
		return 2
	}
	fmt.Fprintln(stdout, "tend", version)
	cfg := c.configPath
	if c.cfg.Path == "" {
		cfg += " (none: the defaults)"
	}
	fmt.Fprintln(stdout, "config:     ", cfg)
	held, err := engine.ProbeContainment(engine.Containment(c.cfg.Jobs.Containment))
	if err != nil {
		fmt.Fprintln(stdout, "containment: none:", err)
		return 1
	}
	fmt.Fprintln(stdout, "containment:", held)
	if !strings.HasPrefix(held, "cgroup") {
		fmt.Fprintln(stdout, `             A process that leaves its job's session and environment still ends with
             the job, but if tend itself is killed (kill -9, a crash) such processes can
             outlive it: each job's first process dies with tend, and the next tend on the
             state dir ends what it can still find. With a cgroup per job nothing outlives
             tend. Run it where it may make cgroups: as root, or in a systemd scope with
             delegation: systemd-run --user --scope -p Delegate=yes tend`)
	}
	if abi, err := sandbox.ABI(); err != nil {
		fallback := "a call that asks for a sandbox fails (jobs.sandbox_fallback = refuse)"
		if c.cfg.Jobs.SandboxFallback == "unconfined" {
			fallback = "a call that asks for a sandbox runs unconfined, with a warning (jobs.sandbox_fallback = unconfined)"
		}
		fmt.Fprintf(stdout, "sandbox:     none: %v; %s; held commands are asked about\n", err, fallback)
	} else {
		offline := "workspace-offline too"
		if abi < 4 {
			offline = "not workspace-offline (TCP rules need ABI 4)"
		}
		fmt.Fprintf(stdout, "sandbox:     Landlock ABI %d: workspace and readonly, %s; %s\n", abi, offline, jobsSandbox(c.cfg.Jobs.Sandbox))
		if m := c.cfg.Approval.Sandbox; m != "" && m != string(sandbox.Off) {
			fmt.Fprintf(stdout, "             a command held only for writes outside its tree runs %s instead of asking (approval.sandbox)\n", m)
		}
	}
	if err := sandbox.Filters(); err != nil {
		fmt.Fprintf(stdout, "terminal:    %v: a command in an agent's PTY job could type into its own terminal\n", err)
	} else {
		fmt.Fprintln(stdout, "terminal:    seccomp: a command in an agent's PTY job cannot type into its terminal (TIOCSTI, TIOCLINUX refused)")
	}
	switch err := app.Available(c.stateDir); {
	case err == nil:
		fmt.Fprintln(stdout, "state dir:  ", c.stateDir, "(ours, 0700; no tend serves it)")
	case errors.Is(err, app.ErrLive):
		if d, err := discovery.Read(c.stateDir); err == nil {
			fmt.Fprintf(stdout, "state dir:   %s (served by tend pid %d at %s)\n", c.stateDir, d.Pid, d.URL)
		} else {
			fmt.Fprintf(stdout, "state dir:   %s (served by a tend that has just ended: %v)\n", c.stateDir, err)
		}
	default:
		fmt.Fprintln(stdout, "state dir:  ", err)
		return 1
	}
	if _, err := os.Stat("/proc/self/task"); err != nil {
		fmt.Fprintln(stdout, "/proc:       not readable: tend cannot find the processes of a job")
		return 1
	}
	return 0
}

// jobsSandbox says what the config makes of an agent's command.
func jobsSandbox(mode string) string {
	if mode == "" || mode == string(sandbox.Off) {
		return "agents' commands run unconfined unless they ask (jobs.sandbox = off)"
	}
	return "agents' commands run " + mode + " unless they ask otherwise (jobs.sandbox)"
}
