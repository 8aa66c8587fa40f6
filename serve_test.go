package main

// End-to-end tests of tend serve and of tend mcp bridging to it, through the
// built binary (tendBin, from TestMain in e2e_test.go).

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/internal/discovery"
	"tend/internal/testkit"
)

// served is a running `tend serve`.
type served struct {
	cmd   *exec.Cmd
	state string
	disc  *discovery.File
	out   *lockedBuf
	done  chan error
}

type lockedBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServe runs `tend serve --port 0` on state and waits for its
// discovery file.
func startServe(t *testing.T, state string) *served {
	t.Helper()
	s := &served{state: state, out: &lockedBuf{}, done: make(chan error, 1)}
	s.cmd = exec.Command(tendBin, "serve", "--port", "0", "--state-dir", state, "--grace", "300ms", "--log-level", "debug", "--config", filepath.Join(state, "config.toml"))
	s.cmd.Stderr = s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() {
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(20 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
		if t.Failed() {
			t.Logf("tend serve stderr:\n%s", s.out.String())
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		d, err := discovery.Read(state)
		if err == nil && d.Pid == s.cmd.Process.Pid {
			s.disc = d
			return s
		}
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("tend serve exited: %v\n%s", err, s.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no discovery file after 20 s:\n%s", s.out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// bridged is `tend mcp --state-dir state` with a go-sdk client on its stdio.
func bridged(t *testing.T, state, name string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	return bridgedIn(t, "", state, name, args...)
}

// bridgedIn is bridged with tend mcp started in dir, as an agent working
// there starts it.
func bridgedIn(t *testing.T, dir, state, name string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(tendBin, append([]string{"mcp", "--state-dir", state, "--grace", "300ms", "--log-level", "info"}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = &testWriter{t: t}
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0"}, nil)
	testkit.CheckResults(t, c)
	cs, err := c.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", name, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// overHTTP is a go-sdk client of d's URL with its token.
func overHTTP(t *testing.T, d *discovery.File, name string) *mcp.ClientSession {
	t.Helper()
	return testkit.ConnectHTTP(t, d.URL, d.Token, name)
}

// jobInfo is a job as terminal_job_manage lists it, as far as the tests
// look.
type jobInfo struct {
	ID          string `json:"job_id"`
	Command     string `json:"command"`
	Status      string `json:"status"`
	Foreground  bool   `json:"foreground"`
	StdoutBytes int64  `json:"stdout_bytes"`
	Origin      struct {
		Client  string `json:"client"`
		Session string `json:"session"`
		Agent   string `json:"agent"`
	} `json:"origin"`
}

func listJobs(t *testing.T, cs *mcp.ClientSession) []jobInfo {
	t.Helper()
	var out struct {
		Jobs []jobInfo `json:"jobs"`
	}
	testkit.CallOK(t, cs, "terminal_job_manage", map[string]any{"action": "list"}, &out)
	return out.Jobs
}

// The discovery file, the socket and the HTTP endpoint of tend serve; a job
// started through the bridge is the HTTP client's to see.
func TestServeBridgeAndHTTP(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	s := startServe(t, state)
	fi, err := os.Stat(discovery.Path(state))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("discovery file: %v, %v", fi, err)
	}
	if !strings.HasPrefix(s.disc.URL, "http://127.0.0.1:") || s.disc.Socket != filepath.Join(state, discovery.SocketName) || len(s.disc.Token) < 26 {
		t.Fatalf("discovery %+v", s.disc)
	}
	// tend serve prints how to connect once the discovery file is written;
	// on failure startServe logs what it printed.
	add := `claude mcp add --transport http tend ` + s.disc.URL + ` --header "Authorization: Bearer ` + s.disc.Token + `"`
	testkit.WaitUntil(t, 10*time.Second, "the claude mcp add line on stderr", func() bool { return strings.Contains(s.out.String(), add) })

	b, _ := bridged(t, state, "bridge-agent")
	if ins := b.InitializeResult().Instructions; strings.Contains(ins, "headless") {
		t.Fatalf("the bridge served headless: %q", ins)
	}
	var env envelope
	testkit.CallOK(t, b, "terminal_exec", map[string]any{"command": "echo through-the-bridge"}, &env)
	if env.Stdout != "through-the-bridge\n" {
		t.Fatalf("envelope %+v", env)
	}
	h := overHTTP(t, s.disc, "http-agent")
	jobs := listJobs(t, h)
	if len(jobs) != 1 || jobs[0].Origin.Client != "bridge-agent" || jobs[0].Command != "echo through-the-bridge" {
		t.Fatalf("HTTP client sees %+v", jobs)
	}
	// And the other way round: an HTTP job is the bridged client's to see.
	testkit.CallOK(t, h, "terminal_exec", map[string]any{"command": "true"}, nil)
	if jobs := listJobs(t, b); len(jobs) != 2 || jobs[1].Origin.Client != "http-agent" {
		t.Fatalf("bridged client sees %+v", jobs)
	}

	// S8: the token is in no job's environment, and in no log or audit line.
	var envOut envelope
	testkit.CallOK(t, h, "terminal_exec", map[string]any{"command": "env; cat /proc/$PPID/environ | tr '\\0' '\\n'"}, &envOut)
	if envOut.Stdout == "" || strings.Contains(envOut.Stdout, s.disc.Token) {
		t.Fatalf("the token is in a job's environment (or env printed nothing): %q", envOut.Stdout)
	}
	filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != discovery.Path(state) {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), s.disc.Token) {
				t.Errorf("the token is in %s", p)
			}
		}
		return nil
	})
	if jobs := listJobs(t, b); len(jobs) != 3 {
		t.Fatalf("jobs %+v", jobs)
	}

	// --headless serves in-process: its own engine, not tend serve's.
	hl, _ := bridged(t, state, "headless-agent", "--headless")
	if ins := hl.InitializeResult().Instructions; !strings.Contains(ins, "headless") {
		t.Fatalf("--headless did not serve headless: %q", ins)
	}
	testkit.CallOK(t, hl, "terminal_exec", map[string]any{"command": "true"}, nil)
	if jobs := listJobs(t, h); len(jobs) != 3 {
		t.Fatalf("the headless job reached tend serve: %+v", jobs)
	}
}

// R4.1: the stdio client dies during a foreground exec and 10 background
// jobs; the jobs run on, the exec promotes, and a new client lists them and
// reads every log from offset 0, byte-exact.
func TestServeClientKilled(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	s := startServe(t, state)
	b, bcmd := bridged(t, state, "doomed-agent")
	const n = 10
	want := startNumbered(t, b, n, 2000, 500)
	execDone := blockedExec(t, b, "the foreground one")
	h := overHTTP(t, s.disc, "watcher")
	var fg jobInfo
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		found := false
		for _, j := range listJobs(t, h) {
			if strings.Contains(j.Command, "the foreground one") && j.StdoutBytes > 0 {
				fg, found = j, true
			}
		}
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the foreground exec did not start")
		}
	}
	if !fg.Foreground {
		t.Fatalf("exec not in the foreground before the kill: %+v", fg)
	}
	rss0 := procKB(t, s.cmd.Process.Pid, "VmRSS")

	bcmd.Process.Kill() // the stdio side dies mid-call
	<-execDone

	// A new client, over the bridge again, finds every job running.
	b2, _ := bridged(t, state, "next-agent")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		jobs := listJobs(t, b2)
		promoted := false
		running := 0
		for _, j := range jobs {
			if j.Status == "running" {
				running++
			}
			if j.ID == fg.ID && !j.Foreground && j.Status == "running" {
				promoted = true
			}
		}
		if promoted && running == n+1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the kill: %d running, exec promoted %v: %+v", running, promoted, jobs)
		}
	}
	readAll(t, b2, want)
	var l logs
	testkit.CallOK(t, b2, "terminal_job_logs", map[string]any{"job_id": string(fg.ID), "stream": "stdout"}, &l)
	if l.Data != "fg-start\n" || l.Status != "running" {
		t.Fatalf("the promoted exec's log: %+v", l)
	}
	rss1 := procKB(t, s.cmd.Process.Pid, "VmRSS")
	// Three more agents come, read everything and are killed: the server
	// must not keep anything of them.
	for i := range 3 {
		c, cmd := bridged(t, state, fmt.Sprint("agent-", i))
		readAll(t, c, want)
		cmd.Process.Kill()
	}
	rss2 := procKB(t, s.cmd.Process.Pid, "VmRSS")
	// A figure, not a bound: RSS follows the GC's pacing over the jobs' 1 MiB
	// rings; mcpserver's TestSocketClientsLeaveNothing bounds live heap and
	// goroutines per client instead.
	t.Logf("tend serve RSS: %d KiB before the kill, %d KiB after a new client read every log (Δ %+d KiB), %d KiB after 3 more clients did and were killed (Δ %+d KiB)",
		rss0, rss1, rss1-rss0, rss2, rss2-rss1)
}

// startNumbered starts n jobs that print numbered lines (first, then step
// more each) and stay running; it returns what each printed by job id.
func startNumbered(t *testing.T, cs *mcp.ClientSession, n, first, step int) map[string]string {
	t.Helper()
	want := map[string]string{}
	for i := range n {
		var st struct {
			JobID string `json:"job_id"`
		}
		lines := first + step*i
		testkit.CallOK(t, cs, "terminal_job_start", map[string]any{"command": fmt.Sprintf("seq 1 %d; sleep 600", lines), "startup_wait_sec": 0}, &st)
		var w strings.Builder
		for k := 1; k <= lines; k++ {
			fmt.Fprintf(&w, "%d\n", k)
		}
		want[st.JobID] = w.String()
	}
	return want
}

// blockedExec calls terminal_exec of a command that prints fg-start and
// runs on in the foreground (no auto-background), tagged with a comment;
// the channel closes when the call returns.
func blockedExec(t *testing.T, cs *mcp.ClientSession, tag string) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{
			"command": "echo fg-start; sleep 600 # " + tag, "auto_background_after_sec": 0, "timeout_sec": 600}})
	}()
	return done
}

// readAll reads each job's stdout from offset 0 and checks it byte-exact.
func readAll(t *testing.T, cs *mcp.ClientSession, want map[string]string) {
	t.Helper()
	for id, w := range want {
		var got strings.Builder
		off := int64(0)
		for deadline := time.Now().Add(10 * time.Second); got.Len() < len(w) && time.Now().Before(deadline); {
			var l logs
			testkit.CallOK(t, cs, "terminal_job_logs", map[string]any{"job_id": id, "stream": "stdout", "since_offset": off}, &l)
			got.WriteString(l.Data)
			off = l.NextOffset
		}
		if got.String() != w {
			t.Fatalf("job %s: read %d bytes, want %d, byte-exact", id, got.Len(), len(w))
		}
	}
}

// SIGTERM to tend serve ends every job tree, even TERM-ignoring setsid
// grandchildren, and removes the discovery file and the socket.
func TestServeSIGTERM(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	s := startServe(t, state)
	b, _ := bridged(t, state, "agent")
	h := overHTTP(t, s.disc, "http-agent")
	mark := rand.Text()
	for i, cs := range []*mcp.ClientSession{b, h, b} {
		testkit.CallOK(t, cs, "terminal_job_start", map[string]any{
			"command":          `trap '' TERM; setsid sh -c 'trap "" TERM HUP; sleep 600' & sleep 600`,
			"env":              map[string]any{"E2E_MARK": mark},
			"name":             fmt.Sprint("tree-", i),
			"startup_wait_sec": 0,
		}, nil)
	}
	waitCount(t, mark, 6)
	start := time.Now()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		s.done <- err
		if err != nil {
			t.Fatalf("tend serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("tend serve did not exit on SIGTERM")
	}
	t.Logf("tend serve exited %v after SIGTERM", time.Since(start).Round(time.Millisecond))
	waitNone(t, mark)
	for _, p := range []string{discovery.Path(state), filepath.Join(state, discovery.SocketName)} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", p, err)
		}
	}
}

// A stale discovery file (dead pid) is replaced by tend serve and ignored by
// tend mcp; a live one makes a second tend serve refuse; a state dir that
// others can enter is refused.
func TestServeDiscoveryRules(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := &discovery.File{URL: "http://127.0.0.1:1/mcp", Token: "old", Socket: filepath.Join(state, discovery.SocketName), Pid: dead.Process.Pid}
	if err := discovery.Write(state, stale); err != nil {
		t.Fatal(err)
	}
	hl, _ := bridged(t, state, "early-agent")
	if ins := hl.InitializeResult().Instructions; !strings.Contains(ins, "headless") {
		t.Fatalf("tend mcp bridged to a dead tend: %q", ins)
	}
	hl.Close()

	s := startServe(t, state)
	if s.disc.Token == "old" {
		t.Fatal("stale discovery file kept")
	}
	out, err := exec.Command(tendBin, "serve", "--port", "0", "--state-dir", state).CombinedOutput()
	if code := exitCode(err); code != 1 || !strings.Contains(string(out), "pid "+strconv.Itoa(s.disc.Pid)) {
		t.Fatalf("second tend serve: exit %d: %s", code, out)
	}
	if d, _ := discovery.Read(state); d == nil || d.Pid != s.disc.Pid {
		t.Fatalf("the refused tend serve touched the discovery file: %+v", d)
	}

	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(tendBin, "serve", "--port", "0", "--state-dir", open).CombinedOutput()
	if code := exitCode(err); code != 1 || !strings.Contains(string(out), "0700") {
		t.Fatalf("tend serve on a 0755 dir: exit %d: %s", code, out)
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// An agent bridged through tend mcp works in its own directory, wherever
// tend was started: a command, a shell and a search without a directory run
// there, and a relative one is taken from there. A client over HTTP, whose
// directory tend cannot know, gets tend's.
func TestBridgedAgentWorksInItsDirectory(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	s := startServe(t, state)
	project, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(project, "sub"), 0o700)
	os.WriteFile(filepath.Join(project, "sub", "marker.txt"), []byte("found me\n"), 0o600)
	cs, _ := bridgedIn(t, project, state, "agent-in-project")
	var env envelope
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "pwd"}, &env)
	if env.Stdout != project+"\n" {
		t.Fatalf("pwd without a cwd: %q, want %q", env.Stdout, project)
	}
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "pwd", "cwd": "sub"}, &env)
	if env.Stdout != filepath.Join(project, "sub")+"\n" {
		t.Fatalf("pwd in a relative cwd: %q", env.Stdout)
	}
	var open struct {
		SessionID string `json:"session_id"`
	}
	testkit.CallOK(t, cs, "terminal_pty_open", map[string]any{}, &open)
	var run struct {
		Output string `json:"output"`
	}
	testkit.CallOK(t, cs, "terminal_pty_run", map[string]any{"session_id": open.SessionID, "command": "pwd"}, &run)
	if run.Output != project+"\n" {
		t.Fatalf("a shell's pwd: %q", run.Output)
	}
	var glob struct {
		Paths []string `json:"paths"`
	}
	testkit.CallOK(t, cs, "terminal_glob", map[string]any{"pattern": "*.txt"}, &glob)
	if len(glob.Paths) != 1 || glob.Paths[0] != "sub/marker.txt" {
		t.Fatalf("glob without a path: %v", glob.Paths)
	}
	var rg struct {
		Matches []struct {
			Path string `json:"path"`
		} `json:"matches"`
	}
	testkit.CallOK(t, cs, "terminal_rg", map[string]any{"pattern": "found me", "path": "sub"}, &rg)
	if len(rg.Matches) != 1 || rg.Matches[0].Path != "marker.txt" {
		t.Fatalf("rg in a relative path: %+v", rg.Matches)
	}
	h := overHTTP(t, s.disc, "http-agent")
	testkit.CallOK(t, h, "terminal_exec", map[string]any{"command": "pwd"}, &env)
	if wd, _ := os.Getwd(); env.Stdout != wd+"\n" { // tend serve runs in the test's directory
		t.Fatalf("pwd over HTTP: %q, want tend's %q", env.Stdout, wd)
	}
}

// S9: a process of another uid cannot connect to the socket at all (the
// directory is 0700). Needs root, to run the client as nobody, and python3.
func TestSocketRefusesOtherUID(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as uid 65534")
	}
	// A system python3 (a shim under /root would not run as nobody).
	py := ""
	for _, p := range []string{"/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"} {
		if _, err := os.Stat(p); err == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Skip("needs a system python3 for a unix-socket client")
	}
	s := startServe(t, testkit.PrivateDir(t))
	// The client must reach python3 and the socket path's parents: t.TempDir
	// is 0700, so open the parents but not the state dir itself.
	for p := filepath.Dir(s.state); p != "/" && p != os.TempDir(); p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(py, "-c", "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ntry:\n s.connect(sys.argv[1]); print('CONNECTED')\nexcept OSError as e:\n print('refused', e)", s.disc.Socket)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/"}
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "refused") {
		t.Skipf("python3 as uid 65534 did not run: %v: %s", err, out)
	}
	if !strings.Contains(string(out), "refused") || strings.Contains(string(out), "CONNECTED") {
		t.Fatalf("uid 65534: %s", out)
	}
	t.Logf("uid 65534: %s", strings.TrimSpace(string(out)))
}

// A bridged tend mcp outlives the tend it bridges to: when tend quits,
// calls are refused with a sentence saying why, and when a tend is back the
// same process carries the agent's session to it (its initialize replayed:
// the new tend knows the agent by name), saying on stderr what happened.
func TestBridgeSurvivesRestart(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	first := startServe(t, state)
	stderr := &lockedBuf{}
	cmd := exec.Command(tendBin, "mcp", "--state-dir", state, "--log-level", "info")
	cmd.Stderr = stderr
	cl := mcp.NewClient(&mcp.Implementation{Name: "restart-agent", Version: "1.0"}, nil)
	cs, err := cl.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	defer func() {
		if t.Failed() {
			t.Logf("tend mcp stderr:\n%s", stderr.String())
		}
	}()
	var env envelope
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo before"}, &env)

	first.cmd.Process.Signal(syscall.SIGTERM)
	err = <-first.done
	first.done <- err
	testkit.WaitUntil(t, 10*time.Second, "tend mcp to say its tend went away", func() bool { return strings.Contains(stderr.String(), "went away") })
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "echo while-none"}})
	if err == nil || !strings.Contains(err.Error(), "no tend is running") {
		t.Fatalf("a call with no tend running: %v", err)
	}

	startServe(t, state)
	testkit.WaitUntil(t, 10*time.Second, "tend mcp to reconnect", func() bool { return strings.Contains(stderr.String(), "reconnected") })
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo after"}, &env)
	if env.Stdout != "after\n" {
		t.Fatalf("after the restart: %+v", env)
	}
	if jobs := listJobs(t, cs); len(jobs) == 0 || jobs[len(jobs)-1].Command != "echo after" || jobs[len(jobs)-1].Origin.Client != "restart-agent" {
		t.Fatalf("the new tend's jobs: %+v", jobs)
	}
	if cmd.ProcessState != nil {
		t.Fatalf("tend mcp exited: %v", cmd.ProcessState)
	}
}

// A second tend on a state dir in use refuses, naming the first one and
// what to do, before its engine loads anything (it would take the first
// one's jobs for history).
func TestSecondTendRefuses(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	first := startServe(t, state)
	want := fmt.Sprintf("another tend is serving this state dir: pid %d", first.cmd.Process.Pid)
	out, err := exec.Command(tendBin, "serve", "--port", "0", "--state-dir", state).CombinedOutput()
	if code := exitCode(err); code != 1 || !strings.Contains(string(out), want) || !strings.Contains(string(out), "state dir of its own") {
		t.Fatalf("tend serve: exit %d\n%s", code, out)
	}
	s := startTUI(t, state)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the second tend UI did not exit")
	}
	werr := s.cmd.Wait()
	if code := s.cmd.ProcessState.ExitCode(); code != 1 || !s.wrote(want) {
		s.outMu.Lock()
		defer s.outMu.Unlock()
		t.Fatalf("tend: exit %d (%v; wait: %v)\n%s", code, s.cmd.ProcessState, werr, s.out) // which signal ended it, or why it could not be waited for
	}
	if _, err := os.Stat(filepath.Join(state, "tui.log")); err != nil {
		t.Fatal(err) // it did get that far: the refusal is the state dir's, not the terminal's
	}
}

// Two agents of one kind, bridged from two directories, are two agents to
// people: client name, directory name, and which session it is.
func TestAgentsToldApart(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	startServe(t, state)
	root := t.TempDir()
	var names []string
	for _, dir := range []string{"api", "web"} {
		d := filepath.Join(root, dir)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		cs, _ := bridgedIn(t, d, state, "claude-code")
		testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "true"}, nil)
		jobs := listJobs(t, cs)
		names = append(names, jobs[len(jobs)-1].Origin.Agent)
	}
	if names[0] != "claude-code·api" || names[1] != "claude-code·web#2" {
		t.Fatalf("agents %q", names)
	}
}
