package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"tend/internal/config"
	"tend/internal/control"
	"tend/policy"
)

// claudeInput is what Claude Code writes on a PreToolUse hook's stdin
// (the fields tend reads; the rest is kept as it came).
type claudeInput struct {
	SessionID string                     `json:"session_id"`
	Cwd       string                     `json:"cwd"`
	Event     string                     `json:"hook_event_name"`
	ToolName  string                     `json:"tool_name"`
	ToolInput map[string]json.RawMessage `json:"tool_input"`
}

// claudeOutput is a PreToolUse hook's decision.
type claudeOutput struct {
	HookSpecificOutput struct {
		HookEventName            string                     `json:"hookEventName"`
		PermissionDecision       string                     `json:"permissionDecision"`
		PermissionDecisionReason string                     `json:"permissionDecisionReason,omitempty"`
		UpdatedInput             map[string]json.RawMessage `json:"updatedInput,omitempty"`
	} `json:"hookSpecificOutput"`
}

// runHook is tend hook AGENT: the agent's own shell asks tend before each
// command.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.registerPaths(fs)
	route := fs.Bool("route", false, "rewrite each allowed command to run through tend run, as a job the person sees (default: the config's [hook] route)")
	fallback := fs.String("fallback", "", "with no tend running, the answer for a command tend's policy holds: ask, deny or none (default: the config's [hook] fallback, else ask)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: tend hook claude|codex [flags]

Claude Code's PreToolUse hook for its Bash tool (tend setup claude adds it).
It reads the hook's JSON on stdin and prints a decision: every command is
classified with tend's policy and rules; one that is held waits in the
running tend's approval queue, and the person's answer is the decision (a
denial's reason reaches the model). A command tend lets through is allowed.
With no tend running, a held command gets the fallback: "ask" (Claude
Code's own prompt), "deny", or "none" (no opinion); the rest no opinion.
With --route, an allowed command is rewritten to run through tend run: it
becomes a job the person watches and can kill, and its output and exit
status are those of the command.

tend hook codex is the same for Codex's PreToolUse hook on Bash, within
what Codex takes: a denial, or an allow that rewrites the command (edited
by the person, or routed); where Claude Code would get "ask" or a plain
allow, Codex gets no opinion and its own approval decides.

Flags:
`)
		fs.PrintDefaults()
	}
	agent, code, ok := parseOperand(fs, args, stdout)
	if !ok {
		return code
	}
	client := map[string]string{"claude": "claude-code", "codex": "codex"}[agent]
	switch agent {
	case "claude", "codex":
	case "claude-wake":
		return wake(c.stateDir, stdin, stderr)
	default:
		fmt.Fprintln(stderr, "tend hook: say which agent: tend hook claude, or tend hook codex (for the others, see the README)")
		return 2
	}
	cfg, err := config.Load(c.configPath)
	if err != nil {
		fmt.Fprintf(stderr, "tend hook: %v\n", err)
		return 1
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["route"] {
		*route = cfg.Hook.Route
	}
	if !set["fallback"] {
		*fallback = cfg.Hook.Fallback
	}
	switch *fallback {
	case "":
		*fallback = "ask"
	case "ask", "deny", "none":
	default:
		fmt.Fprintf(stderr, "tend hook: -fallback %q: say ask, deny or none\n", *fallback)
		return 2
	}

	var in claudeInput
	if err := json.NewDecoder(io.LimitReader(stdin, 16<<20)).Decode(&in); err != nil {
		fmt.Fprintf(stderr, "tend hook: the hook's input is not JSON: %v\n", err)
		return 1
	}
	var command string
	if in.ToolName != "Bash" || json.Unmarshal(in.ToolInput["command"], &command) != nil {
		return 0 // not a shell command: no opinion
	}
	if in.Cwd == "" {
		in.Cwd, _ = os.Getwd()
	}

	decision, reason, run := askTend(c.stateDir, control.CheckParams{
		Command: command, Cwd: in.Cwd, Route: *route,
		Origin: control.Origin{Client: client, Session: in.SessionID, Tool: "Bash"},
	}, stderr)
	if decision == "" { // no tend: tend's policy here, and the fallback
		decision, reason = fallbackFor(cfg, command, in.Cwd, *fallback)
		run = ""
	}
	rewrite := decision == control.Allow && (run != command || *route)
	if agent == "codex" && (decision == control.Ask || decision == control.Allow && !rewrite) {
		// Codex's hooks take neither "ask" nor an "allow" that changes
		// nothing (either fails the hook and the command runs): no
		// opinion, and Codex's own approval decides.
		decision = ""
	}
	if decision == "" {
		return 0
	}
	var out claudeOutput
	out.HookSpecificOutput.HookEventName = "PreToolUse"
	out.HookSpecificOutput.PermissionDecision = decision
	out.HookSpecificOutput.PermissionDecisionReason = reason
	if rewrite {
		if *route {
			run = routed(c.stateDir, client, in.SessionID, run)
		}
		updated := maps.Clone(in.ToolInput)
		updated["command"], _ = json.Marshal(run)
		out.HookSpecificOutput.UpdatedInput = updated
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

// askTend asks the tend serving stateDir, waiting for the person when the
// command is held. It returns the decision, its reason and the command to
// run (the person may have edited it); an empty decision when no tend
// answers.
func askTend(stateDir string, p control.CheckParams, stderr io.Writer) (decision, reason, run string) {
	c, err := control.Dial(stateDir)
	if err != nil {
		if !errors.Is(err, control.ErrNoTend) {
			fmt.Fprintf(stderr, "tend hook: %v\n", err)
		}
		return "", "", ""
	}
	defer c.Close()
	// The agent giving up on the hook (its timeout) withdraws the request.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	res, err := c.Check(ctx, p)
	if err != nil {
		fmt.Fprintf(stderr, "tend hook: %v\n", err)
		return "", "", ""
	}
	run = p.Command
	if res.Command != "" {
		run = res.Command
	}
	reason = res.Reason
	if reason == "" {
		reason = "tend: " + res.Class
		if res.By != "" {
			reason += ", approved by " + res.By
		}
	}
	return res.Decision, reason, run
}

// fallbackFor is the answer with no tend running: tend's policy, with the
// config's rules, still classifies the command; a held one gets fallback.
func fallbackFor(cfg config.Config, command, cwd, fallback string) (decision, reason string) {
	p, err := cfg.Policy()
	if err != nil {
		return "", ""
	}
	home, _ := os.UserHomeDir()
	v := p.Check(command, policy.Env{Cwd: cwd, Home: home})
	why := "tend is not running; its policy holds this command (" + v.Class.String() + ": " + strings.Join(v.Reasons, "; ") + ")"
	switch {
	case v.Decision == policy.Deny:
		return control.Deny, "tend: a deny rule matches (" + v.Rule + ")"
	case v.Decision != policy.Ask || fallback == "none":
		return "", ""
	case fallback == "deny":
		return control.Deny, why
	}
	return control.Ask, why
}

// routed is command rewritten to run through tend run: a job of the tend
// serving stateDir, failing rather than running unsupervised if that tend
// has gone by then.
func routed(stateDir, client, session, command string) string {
	self, err := os.Executable()
	if err != nil {
		self = "tend"
	}
	return shellJoin([]string{self, "run", "-require", "-state-dir", stateDir, "-as", client, "-session", session, "--", command})
}

// wake is Claude Code's asyncRewake hook after terminal_job_start (or an
// exec that went to the background): it waits for the job to end and
// exits 2 with a summary, which wakes Claude even when it is idle. A call
// that started no job, or a job tend no longer has, wakes nothing.
func wake(stateDir string, stdin io.Reader, stderr io.Writer) int {
	var in struct {
		ToolResponse json.RawMessage `json:"tool_response"`
	}
	if err := json.NewDecoder(io.LimitReader(stdin, 16<<20)).Decode(&in); err != nil {
		fmt.Fprintf(stderr, "tend hook claude-wake: the hook's input is not JSON: %v\n", err)
		return 1
	}
	job := findJob(in.ToolResponse, 0)
	if job == "" {
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	res, err := waitFor(ctx, stateDir, control.WaitParams{Job: job, Lines: 10})
	if err != nil {
		return 0
	}
	fmt.Fprintln(stderr, summary(job, res))
	return 2
}

// findJob digs the job id out of an MCP tool's response as Claude Code
// hands it to a hook (its shape is not documented): a "job_id" field of a
// background job, in the response or in the JSON text of its content.
func findJob(raw json.RawMessage, depth int) string {
	if depth > 8 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case map[string]any:
		if id, ok := v["job_id"].(string); ok && id != "" {
			if done, _ := v["status"].(string); done == "" || done == "running" {
				return id
			}
			return ""
		}
		for _, x := range v {
			b, _ := json.Marshal(x)
			if id := findJob(b, depth+1); id != "" {
				return id
			}
		}
	case []any:
		for _, x := range v {
			b, _ := json.Marshal(x)
			if id := findJob(b, depth+1); id != "" {
				return id
			}
		}
	case string:
		if strings.Contains(v, "job_id") {
			return findJob(json.RawMessage(v), depth+1)
		}
	}
	return ""
}
