package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	return agentHook(t, "claude", state, command, cwd, flags...)
}

// agentHook is tend hook AGENT with a PreToolUse input for Bash (Codex's
// is Claude Code's, with fewer fields).
func agentHook(t *testing.T, agent, state, command, cwd string, flags ...string) <-chan hookDecision {
	t.Helper()
	in, _ := json.Marshal(map[string]any{
		"session_id": "sess-1", "transcript_path": "/dev/null", "cwd": cwd, "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1",
		"tool_input": map[string]any{"command": command, "description": "a test", "timeout": 120000, "run_in_background": false},
	})
	cmd := exec.Command(tendBin, append([]string{"hook", agent, "--state-dir", state}, flags...)...)
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
	d := settled(t, ch)
	if o := d.HookSpecificOutput; o.HookEventName != "PreToolUse" || o.PermissionDecision != "deny" || !strings.Contains(o.PermissionDecisionReason, "push a branch instead") {
		t.Fatalf("after r: %+v", o)
	}
	if got := git("ls-remote", "origin", "main"); !strings.HasPrefix(got, before) {
		t.Fatalf("the remote moved: %s", got)
	}

	if o := settled(t, hookCall(t, state, "ls -la", repo)).HookSpecificOutput; o.PermissionDecision != "allow" || o.UpdatedInput != nil {
		t.Fatalf("ls: %+v", o)
	}

	// Routed: the rewritten command is a tend job; run as Claude Code
	// would (bash -c), its output and exit status are the command's.
	o := settled(t, hookCall(t, state, "echo out; echo err >&2; exit 3", repo, "--route")).HookSpecificOutput
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

	// Codex: a held command waits for the person too; what Codex's hooks
	// cannot take (ask, a plain allow) is no opinion.
	ch = agentHook(t, "codex", state, push, repo)
	s.waitFor("⚠ ask git push --force")
	s.keys("A") // keys were pressed just now: it is not selected by itself
	s.waitFor("codex Bash tool asks to run a destructive command")
	s.keys("n")
	if o := settled(t, ch).HookSpecificOutput; o.PermissionDecision != "deny" {
		t.Fatalf("codex, n: %+v", o)
	}
	if o := settled(t, agentHook(t, "codex", state, "ls", repo)).HookSpecificOutput; o.PermissionDecision != "" {
		t.Fatalf("codex, ls: %+v", o)
	}

	// No tend serving that state dir: the fallback for what the policy
	// holds, no opinion on the rest.
	none := testkit.PrivateDir(t)
	if o := settled(t, hookCall(t, none, push, repo)).HookSpecificOutput; o.PermissionDecision != "ask" || !strings.Contains(o.PermissionDecisionReason, "tend is not running") {
		t.Fatalf("no tend, push: %+v", o)
	}
	if o := settled(t, hookCall(t, none, push, repo, "--fallback", "deny")).HookSpecificOutput; o.PermissionDecision != "deny" {
		t.Fatalf("no tend, push, deny: %+v", o)
	}
	if o := settled(t, hookCall(t, none, "ls", repo)).HookSpecificOutput; o.PermissionDecision != "" {
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

	// An interpreter reading the caller's piped stdin runs code tend
	// cannot see: it waits for the person, and n denies it (exit 126).
	cmd = exec.Command(tendBin, "run", "--state-dir", state, "--", "bash")
	cmd.Stdin = strings.NewReader("echo from-stdin\n")
	var denied bytes.Buffer
	cmd.Stderr = &denied
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.waitFor("bash runs commands read from a pipe")
	s.keys("n")
	if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 126 || !strings.Contains(denied.String(), "denied") {
		t.Fatalf("piped bash after n: %v, %q", err, denied.String())
	}

	// SIGINT while it waits for the person withdraws it: tend run ends
	// (130) and the request says so.
	cmd = exec.Command(tendBin, "run", "--state-dir", state, "-n", "--", "git push --force origin HEAD:main")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.waitFor("ask git push --force")
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("SIGINT while held: %v", err)
	}
	s.waitFor("was withdrawn by its agent")

	// A signal reaches a job that does not read the stdin it is sent.
	mark = testkit.NewMark()
	cmd = exec.Command(tendBin, "run", "--state-dir", state, "--", "sleep "+mark)
	cmd.Stdin = io.LimitReader(zeros{}, 64<<20)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	testkit.WaitUntil(t, 10*time.Second, "the job to start", func() bool { return testkit.CountMarked(mark) == 2 })
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("SIGINT behind stdin: %v", err)
	}

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

// tend wait: a job's end (0 for status 0, 1 otherwise), a line it prints
// (-for), a timeout (124) and no such job (125); the wake-up hook exits 2
// with the summary once the job an agent started in the background ends.
func TestWaitAndWake(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	startServe(t, state)
	cs, _ := bridged(t, state, "waiter")
	start := func(command string) string {
		t.Helper()
		var out struct {
			JobID string `json:"job_id"`
		}
		testkit.CallOK(t, cs, "terminal_job_start", map[string]any{"command": command}, &out)
		return out.JobID
	}
	wait := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(tendBin, append([]string{"wait", "--state-dir", state}, args...)...)
		cmd.Stderr = &testWriter{t: t}
		out, err := cmd.Output()
		return string(out), exitCode(err)
	}
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	job := start("echo ready; read x < " + fifo + "; echo bye; exit 3")
	if out, code := wait(job, "--for", "^rea.y$"); code != 0 || !strings.Contains(out, `printed "ready"; it is running`) {
		t.Fatalf("--for: %d %q", code, out)
	}
	if _, code := wait(job, "--timeout", "50ms"); code != 124 {
		t.Fatalf("--timeout: %d", code)
	}
	if _, code := wait(job, "--for", "(unclosed"); code != 2 {
		t.Fatalf("a bad -for: %d", code)
	}
	// A line still being written is not matched before it ends.
	half := start(`printf 'listening on :80'; sleep 0.3; printf '80\n'; sleep 5`)
	if out, code := wait(half, "--for", ":[0-9]+$"); code != 0 || !strings.Contains(out, `printed ":8080"`) {
		t.Fatalf("--for a whole line: %d %q", code, out)
	}

	// The wake-up hook, fed what Claude Code gives a PostToolUse hook.
	in, _ := json.Marshal(map[string]any{
		"session_id": "sess-1", "hook_event_name": "PostToolUse", "tool_name": "mcp__tend__terminal_job_start",
		"tool_input":    map[string]any{"command": "…"},
		"tool_response": []any{map[string]any{"type": "text", "text": `{"job_id":"` + job + `","status":"running"}`}},
	})
	hook := exec.Command(tendBin, "hook", "claude-wake", "--state-dir", state)
	hook.Stdin = bytes.NewReader(in)
	var hookErr bytes.Buffer
	hook.Stderr = &hookErr
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(hook.Wait()); code != 2 || !strings.Contains(hookErr.String(), "exited with code 3") || !strings.Contains(hookErr.String(), "bye") {
		t.Fatalf("wake: exit %d, %q", code, hookErr.String())
	}
	if out, code := wait(job); code != 1 || !strings.Contains(out, "exited with code 3") {
		t.Fatalf("after the end: %d %q", code, out)
	}
	if out, code := wait(start("true")); code != 0 || !strings.Contains(out, "exited with code 0") {
		t.Fatalf("true: %d %q", code, out)
	}
	if _, code := wait("9999"); code != 125 {
		t.Fatalf("no such job: %d", code)
	}
}

// tend setup claude on an empty home and on one with settings of its own:
// tend's server and hooks are added, what was there is kept (and backed
// up), and a second run changes nothing.
func TestSetupClaude(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	setup := func() string {
		t.Helper()
		cmd := exec.Command(tendBin, "setup", "claude")
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("setup: %v\n%s", err, out)
		}
		return string(out)
	}
	own := `{"numStartups": 12345678901234567890, "mcpServers": {"other": {"command": "x"}}}`
	os.WriteFile(filepath.Join(home, ".claude.json"), []byte(own), 0o600)
	settings := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o700)
	os.WriteFile(settings, []byte(`{"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter"}]}]}}`), 0o600)

	out := setup()
	for _, want := range []string{"added mcpServers.tend", `added the PreToolUse hook`, `added the PostToolUse hook`} {
		if !strings.Contains(out, want) {
			t.Errorf("setup said:\n%s\nlacking %q", out, want)
		}
	}
	var cfg struct {
		NumStartups json.Number `json:"numStartups"`
		MCPServers  map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	b, _ := os.ReadFile(filepath.Join(home, ".claude.json"))
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&cfg); err != nil || cfg.NumStartups != "12345678901234567890" || cfg.MCPServers["other"].Command != "x" ||
		cfg.MCPServers["tend"].Command != tendBin || strings.Join(cfg.MCPServers["tend"].Args, " ") != "mcp" {
		t.Fatalf("~/.claude.json: %s (%v)", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".claude.json.tend-backup")); string(b) != own {
		t.Errorf("backup %q", b)
	}
	b, _ = os.ReadFile(settings)
	for _, want := range []string{`"model": "opus"`, `"my-linter"`, tendBin + ` hook claude"`, `"asyncRewake": true`, `"matcher": "mcp__tend__terminal_job_start|mcp__tend__terminal_exec"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("settings lack %s:\n%s", want, b)
		}
	}
	before, _ := os.ReadFile(settings)
	if out := setup(); strings.Count(out, "already set up") != 2 {
		t.Errorf("second run:\n%s", out)
	}
	if after, _ := os.ReadFile(settings); !bytes.Equal(before, after) {
		t.Errorf("the second run changed the settings")
	}

	// A tend under another name, in a path with a space, still knows its
	// own hooks from the person's: it replaces tend's, keeps theirs.
	dev := filepath.Join(t.TempDir(), "my tools", "tend-dev")
	os.MkdirAll(filepath.Dir(dev), 0o700)
	if b, err := os.ReadFile(tendBin); err != nil || os.WriteFile(dev, b, 0o700) != nil {
		t.Fatal(err)
	}
	for range 2 {
		cmd := exec.Command(dev, "setup", "claude")
		cmd.Env = append(os.Environ(), "HOME="+home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("setup as tend-dev: %v\n%s", err, out)
		}
	}
	b, _ = os.ReadFile(settings)
	if !strings.Contains(string(b), `"my-linter"`) || strings.Count(string(b), "hook claude\"") != 1 || !strings.Contains(string(b), "tend-dev") {
		t.Errorf("settings after tend-dev's setup:\n%s", b)
	}
}

// With no person watching, a held command is put to the agent's own user
// through the client's elicitation, over the 2026-07-28 protocol and the
// older one: accept runs it, decline denies it, and the audit log says the
// answer came through that client. A client without elicitation gets the
// headless fallback.
func TestHeadlessElicitation(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"", "2025-06-18"} {
		t.Run("protocol "+cmp.Or(version, "latest"), func(t *testing.T) {
			t.Parallel()
			state := testkit.PrivateDir(t)
			repo, git := testkit.ScratchRepo(t)
			var asked []string
			var mu sync.Mutex
			answer := "approve"
			client := mcp.NewClient(&mcp.Implementation{Name: "asker", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					mu.Lock()
					defer mu.Unlock()
					asked = append(asked, r.Params.Message)
					if answer == "decline" {
						return &mcp.ElicitResult{Action: "decline"}, nil
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": answer, "reason": "not today"}}, nil
				},
			})
			cmd := exec.Command(tendBin, "mcp", "-state-dir", state, "-grace", "300ms")
			cmd.Stderr = &testWriter{t: t}
			var opts *mcp.ClientSessionOptions
			if version != "" {
				opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
			}
			cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			const push = "git push --force origin HEAD:main"
			before := git("rev-parse", "origin/main")

			for _, step := range []struct{ answer, status, decision string }{
				{"deny", "denied", "deny"}, {"decline", "denied", "deny"}, {"approve", "ok", "allow"},
			} {
				mu.Lock()
				answer = step.answer
				mu.Unlock()
				r := settled(t, execAsync(t, cs, push, repo))
				if r.SemanticStatus != step.status || r.Approval == nil || r.Approval.Decision != step.decision || !strings.Contains(r.Approval.By, "asker 1's elicitation") {
					t.Fatalf("%s: %+v", step.answer, r)
				}
				if moved := !strings.HasPrefix(git("ls-remote", "origin", "main"), before); moved != (step.decision == "allow") {
					t.Fatalf("%s: the remote moved: %v", step.answer, moved)
				}
			}
			mu.Lock()
			if len(asked) != 3 || !strings.Contains(asked[0], push) {
				t.Errorf("asked %q", asked)
			}
			mu.Unlock()
			b, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
			if n := strings.Count(string(b), `"by":"the user, through asker 1's elicitation"`); n != 3 {
				t.Errorf("%d audit records of the answers:\n%s", n, b)
			}
		})
	}
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
