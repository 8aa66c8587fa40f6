package main

// End-to-end tests: they build the tend binary and talk to `tend mcp` over
// stdio with the go-sdk client, as an agent would.

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/internal/testkit"
)

var tendBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tend-e2e-")
	if err != nil {
		panic(err)
	}
	tendBin = filepath.Join(dir, "tend")
	// No tend started by a test reads the config or state of the person
	// running the tests.
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	args := []string{"build", "-o", tendBin}
	if raceEnabled {
		args = append(args, "-race")
	}
	if out, err := exec.Command("go", append(args, ".")...).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build tend: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is a running `tend mcp` with a connected client.
type server struct {
	cmd   *exec.Cmd
	cs    *mcp.ClientSession
	state string
}

func startServer(t *testing.T, version string, args ...string) *server {
	t.Helper()
	return startServerEnv(t, version, nil, args...)
}

// startServerEnv is startServer with env added to tend's environment.
func startServerEnv(t *testing.T, version string, env []string, args ...string) *server {
	t.Helper()
	state := t.TempDir()
	cmd := exec.Command(tendBin, append([]string{"mcp", "-state-dir", state, "-grace", "300ms"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = &testWriter{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-agent", Version: "1.2.3"}, nil)
	testkit.CheckResults(t, client)
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, opts)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	s := &server{cmd: cmd, cs: cs, state: state}
	t.Cleanup(func() { cs.Close() })
	return s
}

type testWriter struct{ t *testing.T }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Logf("tend stderr: %s", strings.TrimSpace(string(p)))
	return len(p), nil
}

// call is [testkit.Call] on the server's client session.
func (s *server) call(t *testing.T, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	return testkit.Call(t, s.cs, tool, args, out)
}

type envelope struct {
	ExitCode             *int   `json:"exit_code"`
	Stdout               string `json:"stdout"`
	Stderr               string `json:"stderr"`
	StdoutTruncatedBytes int64  `json:"stdout_truncated_bytes"`
	OutputHandle         string `json:"output_handle"`
	TimedOut             bool   `json:"timed_out"`
	SemanticStatus       string `json:"semantic_status"`
	SemanticMessage      string `json:"semantic_message"`
	Warning              string `json:"warning"`
	AutoBackgrounded     bool   `json:"auto_backgrounded"`
	JobID                string `json:"job_id"`
	Pid                  int    `json:"pid"`
	StdoutNextOffset     *int64 `json:"stdout_next_offset"`
}

type logs struct {
	Data       string `json:"data"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"next_offset"`
	EOF        bool   `json:"eof"`
	Status     string `json:"status"`
	ExitCode   *int   `json:"exit_code"`
	Matched    bool   `json:"matched"`
}

func TestExecOverStdio(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	dir := t.TempDir()
	home, _ := os.UserHomeDir()
	victim := filepath.Join(home, "tend-e2e-no-such-dir-"+rand.Text()) // outside the cwd and the temp dirs
	tests := []struct {
		name     string
		args     map[string]any
		code     int
		semantic string
		stdout   string
		warn     bool
	}{
		{name: "echo", args: map[string]any{"command": "echo hi"}, code: 0, semantic: "ok", stdout: "hi\n"},
		{name: "grep no match", args: map[string]any{"command": "grep nothing-here /dev/null"}, code: 1, semantic: "ok"},
		{name: "exit 3", args: map[string]any{"command": "exit 3"}, code: 3, semantic: "error"},
		{name: "stdin", args: map[string]any{"command": "tr a-z A-Z", "stdin": "shout\n"}, code: 0, semantic: "ok", stdout: "SHOUT\n"},
		{name: "cwd", args: map[string]any{"command": "pwd", "cwd": dir}, code: 0, semantic: "ok", stdout: dir + "\n"},
		{name: "rm -rf outside", args: map[string]any{"command": "rm -rf " + victim, "cwd": dir}, code: 0, semantic: "ok", warn: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var env envelope
			testkit.CallOK(t, s.cs, "terminal_exec", tc.args, &env)
			if env.ExitCode == nil || *env.ExitCode != tc.code || env.SemanticStatus != tc.semantic {
				t.Fatalf("exit %v %s (%s), want %d %s", env.ExitCode, env.SemanticStatus, env.SemanticMessage, tc.code, tc.semantic)
			}
			if tc.stdout != "" && env.Stdout != tc.stdout {
				t.Fatalf("stdout %q, want %q", env.Stdout, tc.stdout)
			}
			if tc.warn != (env.Warning != "") {
				t.Fatalf("warning %q (want one: %v)", env.Warning, tc.warn)
			}
		})
	}
}

func TestAutoBackgroundThenWait(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	var env envelope
	s.call(t, "terminal_exec", map[string]any{"command": "echo before; sleep 2; echo after", "auto_background_after_sec": 1}, &env)
	if !env.AutoBackgrounded || env.JobID == "" || env.ExitCode != nil {
		t.Fatalf("not backgrounded: %+v", env)
	}
	if env.Stdout != "before\n" {
		t.Fatalf("early stdout %q", env.Stdout)
	}
	var l logs
	s.call(t, "terminal_job_logs", map[string]any{"job_id": env.JobID, "stream": "stdout", "since_offset": *env.StdoutNextOffset, "wait_until_exit": true}, &l)
	if l.Data != "after\n" || l.ExitCode == nil || *l.ExitCode != 0 || !l.EOF || l.Status != "exited" {
		t.Fatalf("logs after wait: %+v", l)
	}
}

func TestForegroundTimeoutKills(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	mark := rand.Text()
	var env envelope
	t0 := time.Now()
	s.call(t, "terminal_exec", map[string]any{"command": "sleep 60", "timeout_sec": 0.5, "auto_background_after_sec": 0, "env": map[string]any{"E2E_MARK": mark}}, &env)
	if !env.TimedOut || env.SemanticStatus != "error" || env.AutoBackgrounded {
		t.Fatalf("%+v", env)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
	waitNone(t, mark)
}

func TestToolErrors(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"terminal_job_logs", map[string]any{"job_id": "4242"}, "no such job"},
		{"terminal_job_manage", map[string]any{"action": "kill", "job_id": "4242"}, "no such job"},
		{"terminal_job_manage", map[string]any{"action": "explode", "job_id": "1"}, "unknown action"},
		{"terminal_exec", map[string]any{"command": "zsh -c true"}, "zsh"},
		{"terminal_exec", map[string]any{"command": "true", "cwd": "/no/such/dir"}, "does not exist"},
		{"terminal_exec", map[string]any{"command": "true", "timeout_sec": -1}, "out of range"},
		{"terminal_job_logs", map[string]any{"job_id": "1", "wait_for": "("}, "regular expression"},
		{"terminal_exec", map[string]any{"command": 42}, "command"},
	} {
		res := s.call(t, tc.tool, tc.args, nil)
		if !res.IsError || !strings.Contains(testkit.Text(res), tc.want) {
			t.Errorf("%s %v: isError %v %q, want an error saying %q", tc.tool, tc.args, res.IsError, testkit.Text(res), tc.want)
		}
	}
}

func TestBinaryOutputIsValidJSON(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	var env envelope
	testkit.CallOK(t, s.cs, "terminal_exec", map[string]any{"command": `printf 'a\000b\377\376c\n'`}, &env)
	if env.Stdout != "a\x00b\uFFFDc\n" || !strings.Contains(env.Warning, "UTF-8") {
		t.Fatalf("stdout %q warning %q", env.Stdout, env.Warning)
	}
}

// Kill ends the whole tree: TERM-trapping shell and children, setsid and
// nohup grandchildren.
func TestKillTreeOverMCP(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	mark := rand.Text()
	var started struct {
		JobID  string `json:"job_id"`
		Output string `json:"output"`
	}
	cmd := `trap '' TERM; setsid sh -c 'trap "" TERM HUP; sleep 600' & nohup sleep 600 >/dev/null 2>&1 & bash -c "trap '' TERM; sleep 600" & echo ready; sleep 600`
	s.call(t, "terminal_job_start", map[string]any{"command": cmd, "env": map[string]any{"E2E_MARK": mark}}, &started)
	var l logs
	s.call(t, "terminal_job_logs", map[string]any{"job_id": started.JobID, "wait_for": "ready"}, &l)
	waitCount(t, mark, 5)
	var out struct {
		Status string `json:"status"`
	}
	s.call(t, "terminal_job_manage", map[string]any{"action": "kill", "job_id": started.JobID}, &out)
	if out.Status != "killed" {
		t.Fatalf("status %q", out.Status)
	}
	waitNone(t, mark)
}

// tend mcp exiting ends every job tree: when stdin closes, and on SIGTERM.
func TestExitEndsJobs(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"stdin closed", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, "")
			mark := rand.Text()
			for range 3 {
				var started struct {
					JobID string `json:"job_id"`
				}
				s.call(t, "terminal_job_start", map[string]any{"command": `trap '' TERM; setsid sh -c 'trap "" TERM HUP; sleep 600' & sleep 600`, "env": map[string]any{"E2E_MARK": mark}, "startup_wait_sec": 0}, &started)
			}
			waitCount(t, mark, 6)
			if how == "SIGTERM" {
				// stdin stays open: the signal alone ends the jobs.
				s.cmd.Process.Signal(syscall.SIGTERM)
				waitNone(t, mark)
			}
			s.cs.Close() // closes stdin, then waits for the process
			waitNone(t, mark)
		})
	}
}

// ~55 MB of output: head and tail inline, the rest behind the handle and in
// the job's logs, byte-exact; the server's memory stays bounded.
func TestBigOutput(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	n := 8_000_000 // seq 1 8000000 prints 62,888,896 bytes
	if raceEnabled {
		n = 2_000_000 // the race detector makes paging 4× slower; 14.9 MB still spans many rings
	}
	var env envelope
	t0 := time.Now()
	s.call(t, "terminal_exec", map[string]any{"command": "seq 1 " + strconv.Itoa(n)}, &env)
	took := time.Since(t0)
	want, err := exec.Command("seq", "1", strconv.Itoa(n)).Output()
	if err != nil {
		t.Fatal(err)
	}
	if env.OutputHandle == "" || env.StdoutTruncatedBytes == 0 {
		t.Fatalf("no handle or truncation: handle %q truncated %d", env.OutputHandle, env.StdoutTruncatedBytes)
	}
	if !strings.HasPrefix(env.Stdout, "1\n2\n3\n") || !strings.HasSuffix(env.Stdout, "\n"+strconv.Itoa(n)+"\n") || !strings.Contains(env.Stdout, "bytes left out") {
		t.Fatalf("inline output is not head, marker, tail: %.80q … %.80q", env.Stdout, env.Stdout[max(0, len(env.Stdout)-80):])
	}
	if got := int64(len(env.Stdout)) - int64(len(markerLine(env.Stdout))) + env.StdoutTruncatedBytes; got != int64(len(want)) {
		t.Errorf("inline %d + left out %d does not add up to %d", len(env.Stdout)-len(markerLine(env.Stdout)), env.StdoutTruncatedBytes, len(want))
	}
	t.Logf("%d bytes in %s; inline %d bytes", len(want), took, len(env.Stdout))

	// Page through everything by handle and by job-log offsets.
	for _, via := range []string{"handle", "logs"} {
		var got []byte
		var off int64
		for {
			var d struct {
				Data       string `json:"data"`
				NextOffset int64  `json:"next_offset"`
				EOF        bool   `json:"eof"`
				Expired    bool   `json:"expired"`
				Note       string `json:"note"`
			}
			if via == "handle" {
				s.call(t, "terminal_output_get", map[string]any{"output_handle": env.OutputHandle, "stream": "stdout", "since_offset": off, "max_kb": 4096}, &d)
			} else {
				s.call(t, "terminal_job_logs", map[string]any{"job_id": env.JobID, "stream": "stdout", "since_offset": off, "max_bytes": 4 << 20}, &d)
			}
			if d.Expired {
				t.Fatal("handle expired")
			}
			if len(d.Data) > 1<<20 || !strings.Contains(d.Note, "capped") {
				t.Fatalf("via %s: asked for 4 MiB, got %d bytes and note %q (a reply carries at most 1 MiB, and says so)", via, len(d.Data), d.Note)
			}
			got = append(got, d.Data...)
			off = d.NextOffset
			if d.EOF {
				break
			}
		}
		if string(got) != string(want) {
			t.Fatalf("via %s: paged %d bytes, want %d identical", via, len(got), len(want))
		}
	}
	rss := procKB(t, s.cmd.Process.Pid, "VmHWM")
	t.Logf("server VmHWM after paging: %d MiB", rss/1024)
	if limit := 100 << 10; rss > limit && !raceEnabled {
		t.Errorf("server peak RSS %d MiB, over 100 MiB", rss/1024)
	}
}

func markerLine(s string) string {
	i := strings.Index(s, "\n[… tend:")
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i+1:], "\n")
	return s[i : i+1+j+1]
}

// procKB is a field of a process's /proc status, in KiB: VmRSS, its
// resident set, or VmHWM, its peak.
func procKB(t testing.TB, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	return 0
}

// R3.3: a cancelled call kills its exec's process group.
func TestCancelKillsExec(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	mark := rand.Text()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "sleep 600", "auto_background_after_sec": 0, "timeout_sec": 600, "env": map[string]any{"E2E_MARK": mark}}})
		done <- err
	}()
	waitCount(t, mark, 1)
	cancel()
	<-done
	waitNone(t, mark)
}

// startRaw runs a `tend mcp` to talk to in raw lines: what is written to
// stdin goes to it, and its replies are read from r. It ends with the test.
func startRaw(t *testing.T) (stdin io.Writer, r *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(tendBin, "mcp", "-state-dir", t.TempDir())
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	return in, bufio.NewReaderSize(out, 1<<20)
}

// The server answers malformed lines and goes on (R4.3): invalid JSON, a
// frame over the limit, and 1000 garbage lines; each protocol revision works.
func TestMalformedLinesAndProtocols(t *testing.T) {
	t.Parallel()
	stdin, r := startRaw(t)
	send := func(line string) {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	recv := func() map[string]any {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("reply is not JSON: %q", line)
		}
		return m
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if m := recv(); m["result"].(map[string]any)["protocolVersion"] != "2024-11-05" {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":`)
	if m := recv(); code(m) != -32700 {
		t.Fatalf("malformed line: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"x":"` + strings.Repeat("a", 5<<20) + `"}}`)
	if m := recv(); code(m) != -32600 {
		t.Fatalf("oversized frame: %v", m)
	}
	for i := range 1000 {
		send(fmt.Sprintf("garbage %d }{", i))
	}
	for range 1000 {
		if m := recv(); code(m) != -32700 {
			t.Fatalf("garbage: %v", m)
		}
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"terminal_exec","arguments":{"command":"echo still here"}}}`)
	m := recv()
	sc, _ := m["result"].(map[string]any)["structuredContent"].(map[string]any)
	if sc["stdout"] != "still here\n" {
		t.Fatalf("after garbage: %v", m)
	}
}

func TestProtocolRevisions(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", ""} {
		t.Run("v"+v, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, v)
			var env envelope
			s.call(t, "terminal_exec", map[string]any{"command": "echo " + v}, &env)
			if env.Stdout != v+"\n" {
				t.Fatalf("stdout %q", env.Stdout)
			}
			tools, err := s.cs.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range tools.Tools {
				if len(tool.Description) > 2048 {
					t.Errorf("%s: description is %d bytes", tool.Name, len(tool.Description))
				}
			}
		})
	}
}

// A raw server/discover with a string id, as Claude Code sends it first.
func TestServerDiscover(t *testing.T) {
	t.Parallel()
	stdin, r := startRaw(t)
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":"d-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`+"\n")
	out, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ID     string `json:"id"`
		Result struct {
			SupportedVersions []string `json:"supportedVersions"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &m); err != nil || m.ID != "d-1" || len(m.Result.SupportedVersions) == 0 || m.Result.SupportedVersions[0] != "2026-07-28" {
		t.Fatalf("discover: %s (%v)", out, err)
	}
}

// marked lists live processes whose environment holds E2E_MARK=mark.
func marked(mark string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil || strings.Contains(string(stat[strings.LastIndexByte(string(stat), ')'):]), ") Z") {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && strings.Contains(string(env), "E2E_MARK="+mark+"\x00") {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitUntil is [testkit.WaitUntil] for up to 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testkit.WaitUntil(t, 10*time.Second, what, cond)
}

func waitCount(t *testing.T, mark string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(marked(mark)) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d marked processes started", len(marked(mark)), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitNone(t *testing.T, mark string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := marked(mark)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes survived: %v", len(left), left)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestPTYOverMCP(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	var env envelope
	s.call(t, "terminal_exec", map[string]any{"command": "test -t 1 && echo on a terminal", "pty": true}, &env)
	if !strings.Contains(env.Stdout, "on a terminal") || *env.ExitCode != 0 {
		t.Fatalf("%+v", env)
	}
	var started struct {
		JobID string `json:"job_id"`
	}
	s.call(t, "terminal_job_start", map[string]any{"command": "read a; stty size", "pty": true, "cols": 50, "rows": 20, "startup_wait_sec": 0}, &started)
	testkit.CallOK(t, s.cs, "terminal_job_manage", map[string]any{"action": "resize", "job_id": started.JobID, "cols": 81, "rows": 23}, nil)
	s.call(t, "terminal_job_manage", map[string]any{"action": "stdin", "job_id": started.JobID, "data": "\n"}, nil)
	var l logs
	s.call(t, "terminal_job_logs", map[string]any{"job_id": started.JobID, "wait_for": "23 81"}, &l)
	if !l.Matched {
		t.Fatalf("resize not seen: %+v", l)
	}
}

// Persistent shells over MCP: state persists, each command reports its exit
// code, a timed-out command is interrupted with ctrl+c, and screen=true shows
// what less shows a person.
func TestShellOverMCP(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	id, run := s.openShell(t, 80, 24)
	run(map[string]any{"command": "GREETING=hello; cd /etc"})
	if out := run(map[string]any{"command": `echo "$GREETING from $(pwd)"`}); out.Output != "hello from /etc\n" || out.ExitCode == nil || *out.ExitCode != 0 {
		t.Fatalf("state: %+v", out)
	}
	if out := run(map[string]any{"command": "grep -q nothing-like-this services"}); out.ExitCode == nil || *out.ExitCode != 1 {
		t.Fatalf("exit code: %+v", out)
	}
	if out := run(map[string]any{"command": "sleep 600", "timeout_sec": 0.3}); !out.TimedOut {
		t.Fatalf("timeout: %+v", out)
	}
	if out := run(map[string]any{"keys": []string{"ctrl+c"}}); out.ExitCode == nil || *out.ExitCode != 130 {
		t.Fatalf("ctrl+c: %+v", out)
	}
	if out := run(map[string]any{"command": "echo still here"}); out.Output != "still here\n" {
		t.Fatalf("after ctrl+c: %+v", out)
	}
	want, _ := exec.Command("sed", "-n", "5p", "/etc/services").Output()
	line5 := strings.TrimRight(string(want), " \n")
	out := run(map[string]any{"command": "less +5 /etc/services", "expect": regexp.QuoteMeta(line5)})
	if !out.Matched {
		t.Fatalf("less did not show line 5: %+v", out)
	}
	// less draws its prompt last: look at the screen until it is there.
	deadline := time.Now().Add(10 * time.Second)
	var lines []string
	for {
		out = run(map[string]any{"read_only": true, "screen": true})
		lines = strings.Split(out.Screen, "\n")
		if len(lines) == 24 && strings.TrimSpace(lines[23]) != "" || time.Now().After(deadline) {
			break
		}
	}
	if out.Rows != 24 || len(lines) != 24 || lines[0] != line5 || !strings.Contains(lines[23], "services") {
		t.Fatalf("less +5 screen (rows %d), want line 5 %q first and the prompt last:\n%s", out.Rows, line5, out.Screen)
	}
	run(map[string]any{"keys": []string{"q"}})
	var closed struct {
		ExitCode      int  `json:"exit_code"`
		AlreadyClosed bool `json:"already_closed"`
	}
	s.call(t, "terminal_pty_close", map[string]any{"session_id": id}, &closed)
	if closed.AlreadyClosed {
		t.Fatal("first close said already closed")
	}
	s.call(t, "terminal_pty_close", map[string]any{"session_id": id}, &closed)
	if !closed.AlreadyClosed {
		t.Fatal("second close did not say already closed")
	}
}

// ptyRun is a terminal_pty_run result.
type ptyRun struct {
	Output   string `json:"output"`
	ExitCode *int   `json:"exit_code"`
	TimedOut bool   `json:"timed_out"`
	Matched  bool   `json:"matched_expect"`
	Screen   string `json:"screen"`
	Rows     int    `json:"rows"`
}

// openShell opens a persistent shell of cols×rows and returns its id and a
// terminal_pty_run on it.
func (s *server) openShell(t *testing.T, cols, rows int) (string, func(args map[string]any) ptyRun) {
	t.Helper()
	return s.open(t, map[string]any{"cols": cols, "rows": rows})
}

// openShellIn opens a persistent shell in cwd, confined as sandbox says.
func (s *server) openShellIn(t *testing.T, cwd, sandbox string) (string, func(args map[string]any) ptyRun) {
	t.Helper()
	return s.open(t, map[string]any{"cwd": cwd, "sandbox": sandbox})
}

func (s *server) open(t *testing.T, args map[string]any) (string, func(args map[string]any) ptyRun) {
	t.Helper()
	var open struct {
		SessionID string `json:"session_id"`
	}
	testkit.CallOK(t, s.cs, "terminal_pty_open", args, &open)
	return open.SessionID, func(args map[string]any) ptyRun {
		t.Helper()
		args["session_id"] = open.SessionID
		var out ptyRun
		testkit.CallOK(t, s.cs, "terminal_pty_run", args, &out)
		return out
	}
}

// Every tool call lands in audit.jsonl with its client and result summary.
func TestAuditLog(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	var env envelope
	s.call(t, "terminal_exec", map[string]any{"command": "echo audited"}, &env)
	s.call(t, "terminal_job_logs", map[string]any{"job_id": "no-such-job"}, nil)
	s.cs.Close() // tend mcp exits, having written what it saw
	b, err := os.ReadFile(filepath.Join(s.state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var calls []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		if r["kind"] == "call" {
			calls = append(calls, r)
		}
	}
	if len(calls) != 2 || calls[0]["client"] != "e2e-agent 1.2.3" || calls[0]["tool"] != "terminal_exec" || !strings.Contains(calls[0]["args"].(string), "echo audited") || calls[1]["is_error"] != true {
		t.Fatalf("audit calls: %v", calls)
	}
}

// A second SIGTERM while tend mcp is ending its jobs must not cut it short.
func TestSecondSigtermDuringShutdown(t *testing.T) {
	t.Parallel()
	s := startServer(t, "", "-grace", "2s")
	mark := rand.Text()
	var started struct {
		JobID string `json:"job_id"`
	}
	told := filepath.Join(t.TempDir(), "told")
	s.call(t, "terminal_job_start", map[string]any{"command": `trap 'echo TERM > ` + told + `' TERM; echo trapped; while :; do sleep 0.1; done`, "env": map[string]any{"E2E_MARK": mark}, "startup_wait_sec": 0}, &started)
	var l logs
	s.call(t, "terminal_job_logs", map[string]any{"job_id": started.JobID, "wait_for": "trapped"}, &l)
	if !l.Matched {
		t.Fatalf("the job never set its trap: %+v", l)
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	// The second signal lands while tend is ending its jobs: the job has
	// had its SIGTERM (and shrugged it off), the 2 s grace is running.
	waitUntil(t, "the job to be told to end", func() bool { _, err := os.Stat(told); return err == nil })
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cs.Close()
	waitNone(t, mark)
}

// What an agent types into a shell passes the same policy as terminal_exec:
// with no person watching and approval.headless = "deny", a force push is
// refused before the shell sees it, as a command or as raw input, and the
// shell goes on; the remote never moves.
func TestShellPolicyOverMCP(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfg, []byte("[approval]\nheadless = \"deny\"\n"), 0o600)
	s := startServer(t, "", "--config", cfg)
	repo, git := testkit.ScratchRepo(t)
	remoteHead := git("rev-parse", "origin/main")
	var open struct {
		SessionID string `json:"session_id"`
	}
	s.call(t, "terminal_pty_open", map[string]any{"cols": 80, "rows": 24, "cwd": repo}, &open)
	for _, args := range []map[string]any{
		{"command": "git push --force origin HEAD:main"},
		{"command": "true && git push -f origin HEAD:main"},
		{"command": "git push origin +HEAD:main\n", "raw_send": true},
	} {
		args["session_id"] = open.SessionID
		res := s.call(t, "terminal_pty_run", args, nil)
		if !res.IsError || !strings.Contains(testkit.Text(res), "denied") {
			t.Fatalf("%v: %v %q", args, res.IsError, testkit.Text(res))
		}
	}
	var run struct {
		Output   string `json:"output"`
		ExitCode *int   `json:"exit_code"`
	}
	s.call(t, "terminal_pty_run", map[string]any{"session_id": open.SessionID, "command": "git log -1 --format=%s"}, &run)
	if run.Output != "rewritten\n" || run.ExitCode == nil || *run.ExitCode != 0 {
		t.Fatalf("after the denials: %+v", run)
	}
	var env envelope
	res := s.call(t, "terminal_exec", map[string]any{"command": "git push --force origin HEAD:main", "cwd": repo}, &env)
	if res.IsError || env.SemanticStatus != "denied" {
		t.Fatalf("terminal_exec of the same push: %v %+v %q", res.IsError, env, testkit.Text(res))
	}
	if got := git("--git-dir", "../remote.git", "rev-parse", "main"); got != remoteHead {
		t.Fatalf("the remote moved: %s, was %s", got, remoteHead)
	}
}
