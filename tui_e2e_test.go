package main

// End-to-end tests of the terminal UI: the real binary runs on a PTY, its
// screen is read through tend's own emulator, and keys are typed into it, as
// a person in a terminal would.

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/internal/testkit"
	"tend/vterm"
)

// screen is a tend TUI running on a PTY of its own.
type screen struct {
	t    testing.TB
	cmd  *exec.Cmd
	ptmx *os.File
	term *vterm.Term
	mu   sync.Mutex // serialises writes to the PTY (keys and terminal replies)
	done chan struct{}

	outMu sync.Mutex
	out   []byte // every byte tend wrote to its terminal
}

// Write records what tend wrote to its terminal and feeds the emulator.
func (s *screen) Write(b []byte) (int, error) {
	s.outMu.Lock()
	s.out = append(s.out, b...)
	s.outMu.Unlock()
	return s.term.Write(b)
}

// wrote reports whether tend has written seq to its terminal.
func (s *screen) wrote(seq string) bool {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	return bytes.Contains(s.out, []byte(seq))
}

func startTUI(t *testing.T, state string, args ...string) *screen {
	t.Helper()
	return startTUIEnv(t, state, nil, args...)
}

// startTUIEnv is startTUI with more environment variables.
func startTUIEnv(t *testing.T, state string, env []string, args ...string) *screen {
	t.Helper()
	// --port 0: tests run side by side (args may say otherwise: the last wins).
	return startScreen(t, env, append([]string{"ui", "--state-dir", state, "--grace", "300ms", "--port", "0"}, args...)...)
}

// startScreen runs tend with args on a PTY of its own (160×45).
func startScreen(t testing.TB, env []string, args ...string) *screen {
	t.Helper()
	cmd := exec.Command(tendBin, args...)
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor"), env...)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 160, Rows: 45})
	if err != nil {
		t.Fatal(err)
	}
	s := &screen{t: t, cmd: cmd, ptmx: ptmx, done: make(chan struct{})}
	s.term = vterm.New(160, 45, vterm.WithReplies(func(b []byte) { s.write(b) }))
	go func() {
		io.Copy(s, ptmx) // ends with EIO when tend exits
		close(s.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		cmd.Wait()
		ptmx.Close()
	})
	return s
}

func (s *screen) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ptmx.Write(b)
}

// keys types text; names in angle brackets are keys: "<enter>", "<ctrl+b>".
func (s *screen) keys(in ...string) {
	s.t.Helper()
	for _, k := range in {
		if strings.HasPrefix(k, "<") && strings.HasSuffix(k, ">") {
			key, err := vterm.ParseKey(k[1 : len(k)-1])
			if err != nil {
				s.t.Fatal(err)
			}
			s.write(vterm.EncodeKey(key, vterm.Modes{}))
			continue
		}
		s.write([]byte(k))
	}
}

// waitFor polls the screen until it shows want, and returns it.
func (s *screen) waitFor(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		text := s.term.Snapshot().Text()
		if strings.Contains(text, want) {
			return text
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q; it shows:\n%s", want, text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// attach presses enter on the selected job and waits until it is attached.
func (s *screen) attach() {
	s.t.Helper()
	s.keys("<enter>")
	s.waitFor("ctrl+b detaches")
}

// waitGone polls the screen until it no longer shows what.
func (s *screen) waitGone(what string) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for strings.Contains(s.term.Snapshot().Text(), what) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen still shows %q:\n%s", what, s.term.Snapshot().Text())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A person runs a command from the UI, sees its output, answers its prompt
// by typing into it, and kills another job by keys: its whole tree is gone.
func TestTUIPersonRunsAnswersAndKills(t *testing.T) {
	t.Parallel()
	s := startTUI(t, t.TempDir())
	s.waitFor("Jobs")

	s.keys(":", `read -p "your name? " n; echo "hello $n"`, "<enter>")
	// The pane's title, not the prompt: "your name?" is on screen as soon as
	// the command is typed, before enter starts the job.
	s.waitFor(`#1 $ read -p "your name? "`)
	s.waitFor("││your name?") // the job's own output, at the left of its pane
	s.attach()
	s.keys("bob", "<enter>")
	s.waitFor("hello bob")
	s.keys("<ctrl+b>") // detach
	s.waitGone("ctrl+b detaches")

	mark := rand.Text()
	s.keys(":", "E2E_MARK="+mark+" bash -c 'trap \"\" TERM; sleep 600 & sleep 600'", "<enter>")
	waitCount(t, mark, 2)
	// The processes can exist before the UI has selected their job: wait
	// for its pane, or x goes to the job selected before (seen once under
	// load).
	s.waitFor("$ E2E_MARK=" + mark)
	s.keys("x")
	s.waitFor("y/n")
	s.keys("y")
	waitNone(t, mark)
}

// Closing the terminal (SIGHUP to tend) ends every job tree.
func TestTUIHangupEndsJobs(t *testing.T) {
	t.Parallel()
	s := startTUI(t, t.TempDir())
	s.waitFor("Jobs")
	mark := rand.Text()
	s.keys(":", "E2E_MARK="+mark+" setsid bash -c 'trap \"\" TERM HUP; sleep 600' & E2E_MARK="+mark+" sleep 600", "<enter>")
	waitCount(t, mark, 2)
	// Close the terminal, as when its window is closed: the kernel hangs
	// up tend's terminal (SIGHUP to tend, its session's leader).
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	s.ptmx.Close()
	select {
	case <-exited:
	case <-time.After(15 * time.Second):
		t.Fatal("tend did not exit when its terminal closed")
	}
	waitNone(t, mark)
}

// agent is an MCP client connected through `tend mcp --state-dir state`,
// which bridges it to the tend serving that state dir (the TUI).
// agentName is how the UI names agent's agent: its client name and the
// directory its tend mcp runs in (the test's).
func agentName(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return "e2e-agent·" + filepath.Base(wd)
}

func agent(t *testing.T, state string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(tendBin, "mcp", "--state-dir", state, "--log-level", "info")
	cmd.Stderr = &testWriter{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-agent", Version: "1.2.3"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// execResult is what terminal_exec returns, as far as approval goes.
type execResult struct {
	SemanticStatus  string `json:"semantic_status"`
	SemanticMessage string `json:"semantic_message"`
	ExitCode        *int   `json:"exit_code"`
	Approval        *struct {
		Required bool   `json:"required"`
		Decision string `json:"decision"`
		By       string `json:"by"`
		Reason   string `json:"reason"`
	} `json:"approval"`
}

// execAsync calls terminal_exec as the agent; the result arrives on the
// channel once the call returns.
func execAsync(t *testing.T, cs *mcp.ClientSession, command, cwd string) <-chan execResult {
	t.Helper()
	ch := make(chan execResult, 1)
	go func() {
		var r execResult
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": command, "cwd": cwd}})
		if err != nil {
			r.SemanticMessage = "call failed: " + err.Error()
		} else if b, err := json.Marshal(res.StructuredContent); err == nil {
			json.Unmarshal(b, &r)
		}
		ch <- r
	}()
	return ch
}

// settled waits for what a call, a hook or a command run in the
// background sends back once it returns.
func settled[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("the call never returned")
	}
	panic("unreachable")
}

// pending fails if the call has returned.
func pending(t *testing.T, ch <-chan execResult, after string) {
	t.Helper()
	select {
	case r := <-ch:
		t.Fatalf("after %s the call returned: %+v", after, r)
	default:
	}
}

// barrier makes sure the UI has handled every key sent before it: it opens
// the help (keys are handled in order) and closes it again with esc.
func (s *screen) barrier() {
	s.t.Helper()
	s.keys("?")
	s.waitFor("any key closes the help")
	s.keys("<esc>")
	s.waitGone("any key closes the help")
}

// An agent's force push waits for the person at the TUI (RELIABILITY
// S5): the screen shows it; a stray enter, a paste of "y" and
// other keys settle nothing; n denies it and the remote stays; y lets the
// next one land; r sends the typed reason to the agent. The agent reaches
// the TUI through `tend mcp`, bridged over the TUI's socket.
func TestTUIApprovals(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	repo, git := testkit.ScratchRepo(t)
	before := git("rev-parse", "origin/main")
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[approval]\ntimeout = \"5m\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startTUI(t, state, "--config", cfg)
	s.waitFor("MCP http://127.0.0.1:")
	cs := agent(t, state)
	const push = "git push --force origin HEAD:main"

	// The request shows at once, wherever the person is: here, the job list.
	call := execAsync(t, cs, push, repo)
	s.waitFor(agentName(t) + " asks to run git push --force")
	s.waitFor("⚠ 1 to approve")
	s.keys("<tab>", "<tab>") // Jobs → Activity → Approvals
	text := s.waitFor("$ " + push)
	for _, want := range []string{"asks to run a destructive command", "why  git push --force", "cwd  "} {
		if !strings.Contains(text, want) {
			t.Errorf("the Approvals view lacks %q:\n%s", want, text)
		}
	}
	// Nothing but the approval keys settles it.
	s.keys("<enter>", "<enter>", " ", "Y", "x")
	s.write([]byte("\x1b[200~y\r\x1b[201~")) // a bracketed paste of "y⏎"
	s.barrier()
	pending(t, call, "enter, a paste and other keys")
	if got := git("ls-remote", "origin", "main"); !strings.HasPrefix(got, before) {
		t.Fatalf("the remote moved before any decision: %s", got)
	}

	// n denies: the agent is told, the remote stays.
	s.keys("n")
	r := settled(t, call)
	if r.SemanticStatus != "denied" || r.Approval == nil || r.Approval.Decision != "deny" || r.Approval.By != "person" {
		t.Fatalf("after n: %+v", r)
	}
	if got := git("ls-remote", "origin", "main"); !strings.HasPrefix(got, before) {
		t.Fatalf("the remote moved after a denial: %s", got)
	}
	s.waitFor("Nothing waits for approval")

	// y approves: the push lands.
	call = execAsync(t, cs, push, repo)
	s.waitFor("$ " + push)
	s.keys("y")
	r = settled(t, call)
	if r.SemanticStatus != "ok" || r.ExitCode == nil || *r.ExitCode != 0 || r.Approval == nil || r.Approval.Decision != "allow" {
		t.Fatalf("after y: %+v", r)
	}
	if got := git("ls-remote", "origin", "main"); strings.HasPrefix(got, before) {
		t.Fatalf("the approved push did not land: %s", got)
	}
	s.waitFor("Nothing waits for approval")

	// r denies with the reason the person types.
	call = execAsync(t, cs, push, repo)
	s.waitFor("$ " + push)
	s.keys("r")
	s.waitFor("reason for the agent")
	s.keys("push to a branch instead", "<enter>")
	r = settled(t, call)
	if r.SemanticStatus != "denied" || !strings.Contains(r.SemanticMessage, "push to a branch instead") || r.Approval == nil || r.Approval.Reason != "push to a branch instead" {
		t.Fatalf("after r: %+v", r)
	}

	// What the person runs themselves is not held.
	s.keys("<tab>") // back to Jobs
	s.keys(":", "git -C "+repo+" push --force origin HEAD:refs/heads/mine", "<enter>")
	s.waitFor("by you")
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(git("ls-remote", "origin"), "refs/heads/mine") {
		if time.Now().After(deadline) {
			t.Fatalf("the person's own push never ran:\n%s", s.term.Snapshot().Text())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Every decision is in the audit log.
	b, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if n := strings.Count(string(b), `"kind":"approval"`); n != 3 {
		t.Errorf("%d approval records:\n%s", n, b)
	}
}

// The agent's first act is a force push, with nothing on the screen yet:
// the request is selected at once, with its countdown, and announced by
// the bell and a desktop notification. A stray enter settles nothing, y
// lands it. The next one comes while the person is busy: A shows it and n
// denies it.
func TestTUIFirstApprovalIsSelected(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	repo, git := testkit.ScratchRepo(t)
	before := git("rev-parse", "origin/main")
	s := startTUI(t, state)
	s.waitFor("MCP http://127.0.0.1:")
	cs := agent(t, state)
	const push = "git push --force origin HEAD:main"

	call := execAsync(t, cs, push, repo)
	// A frame may be half drawn when the screen is read: wait for each part.
	for _, want := range []string{"Approval #1", "denied automatically in ", " if no one answers", "$ " + push, "y approves, n denies"} {
		s.waitFor(want)
	}
	if !s.wrote("\a") || !s.wrote("\x1b]9;tend: "+agentName(t)+" asks to run a destructive command: "+push) || !s.wrote("\x1b]777;notify;") {
		t.Errorf("no bell or notification written")
	}
	s.keys("<enter>")
	s.barrier()
	pending(t, call, "a stray enter")
	s.keys("y")
	if r := settled(t, call); r.SemanticStatus != "ok" || r.Approval == nil || r.Approval.Decision != "allow" {
		t.Fatalf("after y: %+v", r)
	}
	if got := git("ls-remote", "origin", "main"); strings.HasPrefix(got, before) {
		t.Fatalf("the approved push did not land: %s", got)
	}

	s.keys("<tab>") // busy elsewhere: the Activity view
	s.waitFor("Activity · ")
	call = execAsync(t, cs, push, repo)
	s.waitFor("A shows it")
	s.keys("A")
	s.waitFor("Approval #2")
	s.keys("n")
	if r := settled(t, call); r.SemanticStatus != "denied" || r.Approval == nil || r.Approval.By != "person" {
		t.Fatalf("after A, n: %+v", r)
	}
}

// No answer within the configured timeout is a denial, and the request
// leaves the screen.
func TestTUIApprovalTimeout(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	repo, git := testkit.ScratchRepo(t)
	before := git("rev-parse", "origin/main")
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[approval]\ntimeout = \"2s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startTUI(t, state, "--config", cfg)
	s.waitFor("MCP http://127.0.0.1:")
	cs := agent(t, state)
	call := execAsync(t, cs, "git push --force origin HEAD:main", repo)
	s.waitFor("⚠ 1 to approve")
	r := settled(t, call)
	if r.SemanticStatus != "denied" || r.Approval == nil || r.Approval.By != "timeout" || !strings.Contains(r.SemanticMessage, "no one answered within 2s") {
		t.Fatalf("after the timeout: %+v", r)
	}
	if got := git("ls-remote", "origin", "main"); !strings.HasPrefix(got, before) {
		t.Fatalf("the remote moved after a timeout: %s", got)
	}
	s.waitGone("to approve")
}

// An agent connected through `tend mcp` starts a job and it appears on the
// person's screen with the agent's name; a second agent lists it; the person
// backgrounds an exec the agent is blocked on, and the agent's call returns
// at once with the job id, the job still running.
func TestTUIAgentJobsAndBackground(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	s := startTUI(t, state)
	s.waitFor("Jobs")
	s.waitGone("MCP not served")
	first := agent(t, state)
	mark := rand.Text()
	var started struct {
		JobID string `json:"job_id"`
	}
	res, err := first.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_job_start", Arguments: map[string]any{
		"command": "echo agent-" + mark + "; sleep 600", "description": "the agent's server", "startup_wait_sec": 0,
	}})
	if err != nil || res.IsError {
		t.Fatalf("job start: %v %v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &started)
	s.waitFor("the agent's server")
	s.waitFor("e2e-agent")

	second := agent(t, state)
	res, err = second.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_job_manage", Arguments: map[string]any{"action": "list"}})
	if err != nil || !strings.Contains(fmt.Sprint(res.StructuredContent), "agent-"+mark) {
		t.Fatalf("the second agent does not see the first one's job: %v %v", err, res)
	}

	// A foreground exec the agent is blocked on (no auto-background).
	done := make(chan map[string]any, 1)
	go func() {
		res, err := first.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{
			"command": "echo blocking-" + mark + "; sleep 600", "auto_background_after_sec": 0, "timeout_sec": 600,
		}})
		if err != nil {
			done <- map[string]any{"error": err.Error()}
			return
		}
		done <- res.StructuredContent.(map[string]any)
	}()
	s.waitFor("▶") // an agent is blocked on a job
	s.keys("k")    // select it (newest first, above the agent's server)
	s.waitFor("$ echo blocking-" + mark)
	select {
	case r := <-done:
		t.Fatalf("the exec returned before the person backgrounded it: %v", r)
	default:
	}
	s.keys("b")
	var r map[string]any
	select {
	case r = <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("b did not return the agent's call")
	}
	if r["auto_backgrounded"] != true || r["job_id"] == "" || r["job_id"] == nil {
		t.Fatalf("the agent's call returned %v", r)
	}
}

// Jobs of an earlier tend show as history on the next start, their output
// readable in the pane.
func TestTUIHistory(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "")
	mark := rand.Text()[:12]
	var env envelope
	srv.call(t, "terminal_exec", map[string]any{"command": "echo remembered-" + mark, "description": "earlier " + mark}, &env)
	if env.Stdout != "remembered-"+mark+"\n" {
		t.Fatalf("exec: %+v", env)
	}
	srv.cs.Close() // that tend mcp exits
	s := startTUI(t, srv.state)
	s.waitFor("earlier " + mark)
	s.waitFor("remembered-" + mark)
}

// R4.1 with a person watching: an agent killed in the middle of a call
// leaves its jobs running on the person's screen, its foreground exec
// becomes a background job, and the next agent reads every log byte-exact.
func TestTUIAgentKilledMidCall(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	s := startTUI(t, state)
	s.waitFor("Jobs")
	s.waitGone("MCP not served")
	doomed, dcmd := bridged(t, state, "doomed-agent")
	want := startNumbered(t, doomed, 3, 3000, 1000)
	execDone := blockedExec(t, doomed, "the doomed call")
	watcher, _ := bridged(t, state, "watcher")
	var fg jobInfo
	waitUntil(t, "the foreground exec to print", func() bool {
		for _, j := range listJobs(t, watcher) {
			if strings.Contains(j.Command, "the doomed call") && j.StdoutBytes > 0 {
				fg = j
				return true
			}
		}
		return false
	})
	if !fg.Foreground {
		t.Fatalf("the exec is not in the foreground before the kill: %+v", fg)
	}
	s.waitFor("4 running")

	dcmd.Process.Kill() // the agent's side dies mid-call
	<-execDone

	next, _ := bridged(t, state, "next-agent")
	waitUntil(t, "the exec to go on in the background", func() bool {
		running, promoted := 0, false
		for _, j := range listJobs(t, next) {
			if j.Status == "running" {
				running++
				promoted = promoted || j.ID == fg.ID && !j.Foreground
			}
		}
		return running == 4 && promoted
	})
	s.waitFor("4 running")
	readAll(t, next, want)
	var l logs
	testkit.CallOK(t, next, "terminal_job_logs", map[string]any{"job_id": string(fg.ID), "stream": "stdout"}, &l)
	if l.Data != "fg-start\n" || l.Status != "running" {
		t.Fatalf("the exec's log after its agent died: %+v", l)
	}
}

// o hands the selected job's whole log, far more than the pane holds, to
// the person's pager; when it ends, the UI is back, drawn whole and taking
// keys.
func TestTUIPagerGetsTheWholeLog(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	out := filepath.Join(t.TempDir(), "paged")
	s := startTUIEnv(t, state, []string{"PAGER=cat > " + out})
	s.waitFor("MCP http://127.0.0.1:")
	cs := agent(t, state)
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "seq 1 300000", "max_output_kb": 1}, nil)
	s.waitFor("seq 1 300000")
	s.keys("o")
	want := numbers(300000)
	testkit.WaitUntil(t, 20*time.Second, "the pager to get the whole log", func() bool {
		got, _ := os.ReadFile(out)
		return len(got) == len(want)
	})
	if got, _ := os.ReadFile(out); string(got) != want {
		t.Fatalf("the pager got %d bytes, not seq's %d", len(got), len(want))
	}
	s.waitFor("seq 1 300000")    // the pager left the main screen showing
	s.keys(":", "echo $((6*7))") // no enter: each key reaches the UI as typed
	s.waitFor("run: echo $((6*7))")
	s.keys("<enter>")
	s.waitFor("42")
}

// numbers is what seq 1 n prints.
func numbers(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return b.String()
}
