package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"tend/internal/testkit"
)

// hookDecision is what tend hook claude printed.
type hookDecision struct {
	HookSpecificOutput struct {
		HookEventName            string            `json:"hookEventName"`
		PermissionDecision       string            `json:"permissionDecision"`
		PermissionDecisionReason string            `json:"permissionDecisionReason"`
		UpdatedInput             map[string]string `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

// hookCall runs tend hook claude with Claude Code's documented PreToolUse
// input for a Bash command; the decision arrives once the hook exits.
func hookCall(t *testing.T, state, command, cwd string, flags ...string) <-chan hookDecision {
	t.Helper()
	in, _ := json.Marshal(map[string]any{
		"session_id": "sess-1", "transcript_path": "/dev/null", "cwd": cwd, "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1",
		"tool_input": map[string]any{"command": command, "description": "a test", "timeout": 120000, "run_in_background": false},
	})
	cmd := exec.Command(tendBin, append([]string{"hook", "claude", "--state-dir", state}, flags...)...)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = &testWriter{t: t}
	ch := make(chan hookDecision, 1)
	go func() {
		var d hookDecision
		out, err := cmd.Output()
		if err != nil {
			d.HookSpecificOutput.PermissionDecisionReason = "hook failed: " + err.Error()
		} else if len(bytes.TrimSpace(out)) > 0 {
			if err := json.Unmarshal(out, &d); err != nil {
				d.HookSpecificOutput.PermissionDecisionReason = "not JSON: " + string(out)
			}
		}
		ch <- d
	}()
	return ch
}

func decided(t *testing.T, ch <-chan hookDecision) hookDecision {
	t.Helper()
	select {
	case d := <-ch:
		return d
	case <-time.After(30 * time.Second):
		t.Fatal("the hook never answered")
	}
	panic("unreachable")
}

// Claude Code's Bash tool asks tend through the hook: a force push waits
// in the TUI and the person's n comes back as a denial with its reason;
// ls is allowed at once; with no tend, the fallback; routed, the command
// runs as a tend job with its own output and exit status.
func TestHookClaude(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	repo, git := testkit.ScratchRepo(t)
	before := git("rev-parse", "origin/main")
	s := startTUI(t, state)
	s.waitFor("MCP http://127.0.0.1:")
	const push = "git push --force origin HEAD:main"

	ch := hookCall(t, state, push, repo)
	s.waitFor("claude-code Bash tool asks to run a destructive command")
	s.keys("r")
	s.waitFor("reason for the agent")
	s.keys("push a branch instead", "<enter>")
	d := decided(t, ch)
	if o := d.HookSpecificOutput; o.HookEventName != "PreToolUse" || o.PermissionDecision != "deny" || !strings.Contains(o.PermissionDecisionReason, "push a branch instead") {
		t.Fatalf("after r: %+v", o)
	}
	if got := git("ls-remote", "origin", "main"); !strings.HasPrefix(got, before) {
		t.Fatalf("the remote moved: %s", got)
	}

	if o := decided(t, hookCall(t, state, "ls -la", repo)).HookSpecificOutput; o.PermissionDecision != "allow" || o.UpdatedInput != nil {
		t.Fatalf("ls: %+v", o)
	}

	// Routed: the rewritten command is a tend job; run as Claude Code
	// would (bash -c), its output and exit status are the command's.
	o := decided(t, hookCall(t, state, "echo out; echo err >&2; exit 3", repo, "--route")).HookSpecificOutput
	if o.PermissionDecision != "allow" || o.UpdatedInput["description"] != "a test" || !strings.Contains(o.UpdatedInput["command"], " run -require ") {
		t.Fatalf("routed: %+v", o)
	}
	cmd := exec.Command("bash", "-c", o.UpdatedInput["command"])
	cmd.Dir = repo
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || stdout.String() != "out\n" || stderr.String() != "err\n" {
		t.Fatalf("routed run: %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
	s.waitFor("echo out; echo err >&2; exit 3")

	// No tend serving that state dir: the fallback for what the policy
	// holds, no opinion on the rest.
	none := testkit.PrivateDir(t)
	if o := decided(t, hookCall(t, none, push, repo)).HookSpecificOutput; o.PermissionDecision != "ask" || !strings.Contains(o.PermissionDecisionReason, "tend is not running") {
		t.Fatalf("no tend, push: %+v", o)
	}
	if o := decided(t, hookCall(t, none, push, repo, "--fallback", "deny")).HookSpecificOutput; o.PermissionDecision != "deny" {
		t.Fatalf("no tend, push, deny: %+v", o)
	}
	if o := decided(t, hookCall(t, none, "ls", repo)).HookSpecificOutput; o.PermissionDecision != "" {
		t.Fatalf("no tend, ls: %+v", o)
	}
}

// tend run with a TUI running: the job shows there, stdout and stderr come
// back on their own streams byte for byte, the exit status is the job's;
// stdin reaches it; SIGINT (a ctrl+c) ends it with 130.
func TestRun(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	s := startTUI(t, state)
	s.waitFor("MCP http://127.0.0.1:")

	run := func(stdin []byte, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(tendBin, append([]string{"run", "--state-dir", state, "--"}, args...)...)
		cmd.Stdin = bytes.NewReader(stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	out, errOut, code := run(nil, "sh", "-c", "echo out; echo err >&2; exit 7")
	if out != "out\n" || errOut != "err\n" || code != 7 {
		t.Fatalf("stdout %q, stderr %q, exit %d", out, errOut, code)
	}
	s.waitFor("sh -c 'echo out; echo err >&2; exit 7'")

	blob := make([]byte, 300<<10)
	for i := range blob {
		blob[i] = byte(i * 7)
	}
	if out, _, code := run(blob, "cat"); out != string(blob) || code != 0 {
		t.Fatalf("cat: %d bytes back of %d, exit %d", len(out), len(blob), code)
	}

	mark := testkit.NewMark()
	cmd := exec.Command(tendBin, "run", "--state-dir", state, "--", "sleep "+mark)
	cmd.Stderr = &testWriter{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Two processes hold the mark: tend run and the job's sleep.
	testkit.WaitUntil(t, 10*time.Second, "the job to start", func() bool { return testkit.CountMarked(mark) == 2 })
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("after SIGINT: %v", err)
	}
	testkit.WaitUntil(t, 10*time.Second, "the job to end", func() bool { return testkit.CountMarked(mark) == 0 })

	// No tend: it says so and runs the command itself; -require refuses.
	none := testkit.PrivateDir(t)
	direct := exec.Command(tendBin, "run", "--state-dir", none, "--", "sh", "-c", "exit 4")
	var stderr bytes.Buffer
	direct.Stderr = &stderr
	if err := direct.Run(); !errors.As(err, &exit) || exit.ExitCode() != 4 || !strings.Contains(stderr.String(), "no tend is running") {
		t.Fatalf("no tend: %v, %q", err, stderr.String())
	}
	if err := exec.Command(tendBin, "run", "-require", "--state-dir", none, "--", "true").Run(); !errors.As(err, &exit) || exit.ExitCode() != 125 {
		t.Fatalf("no tend, -require: %v", err)
	}
}
