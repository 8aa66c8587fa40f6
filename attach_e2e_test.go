package main

// End-to-end tests of tend attach: the terminal UI as a client of a tend
// serve it does not host, on a PTY as a person would run it.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/internal/supervisor"
	"tend/internal/testkit"
	"tend/policy"
)

// startAttach runs tend attach with args.
func startAttach(t testing.TB, args ...string) *screen {
	t.Helper()
	return startScreen(t, nil, append([]string{"attach"}, args...)...)
}

// exited waits until the attached UI's process has ended.
func (s *screen) exited() {
	s.t.Helper()
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		s.t.Fatalf("tend attach did not end:\n%s", s.term.Snapshot().Text())
	}
}

// runningJobs lists the running jobs' commands as the agent sees them.
func runningJobs(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var out []string
	for _, j := range listJobs(t, cs) {
		if j.Status == "running" {
			out = append(out, j.Command)
		}
	}
	return out
}

// A tend serve with an agent's jobs: tend attach shows them live, types
// into the agent's shell, kills one job, approves a held command; quitting
// it ends nothing; a second attach sees the jobs still running.
func TestAttachDetachAndBack(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	startServe(t, state)
	cs := agent(t, state)
	mark := testkit.NewMark()

	var open struct {
		SessionID string `json:"session_id"`
	}
	testkit.CallOK(t, cs, "terminal_pty_open", map[string]any{"cols": 80, "rows": 24}, &open)
	var victim struct {
		ID string `json:"job_id"`
	}
	testkit.CallOK(t, cs, "terminal_job_start", map[string]any{"command": "sleep " + mark}, &victim)

	s := startAttach(t, "--state-dir", state)
	s.waitFor("sleep " + mark)
	s.waitFor("tend attach · local · q detaches, jobs run on")

	// The shell is the first job: attach to it and type.
	s.keys("<end>")
	s.waitFor("#" + open.SessionID + " $")
	s.attach()
	s.keys("echo typed-$((40+2))", "<enter>")
	s.waitFor("typed-42")
	s.keys("<ctrl+b>", "d")
	s.waitGone("ctrl+b detaches")

	// Kill the sleeper: x, then y to confirm.
	s.keys("<home>")
	s.waitFor("#" + victim.ID + " $ sleep " + mark)
	s.keys("x")
	s.waitFor("Kill")
	s.keys("y")
	testkit.WaitUntil(t, 15*time.Second, "the sleeper to end", func() bool {
		return !slices.Contains(runningJobs(t, cs), "sleep "+mark)
	})
	if n := testkit.CountMarked(mark); n != 0 {
		t.Errorf("%d processes of the killed job are left", n)
	}

	// A held command waits for the person attached, who approves it.
	target := filepath.Join(os.Getenv("HOME"), ".tend-attach-"+mark)
	os.MkdirAll(target, 0o700)
	t.Cleanup(func() { os.RemoveAll(target) })
	call := execAsync(t, cs, "rm -rf "+target, t.TempDir())
	s.waitFor("asks to run rm -rf")
	s.keys("<tab>", "<tab>")
	s.waitFor("$ rm -rf " + target)
	s.keys("y")
	if r := settled(t, call); r.SemanticStatus != "ok" || r.Approval == nil || r.Approval.Decision != "allow" {
		t.Fatalf("after y: %+v", r)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the approved rm did not run: %v", err)
	}
	s.keys("<tab>")

	// q detaches at once: nothing ends.
	s.keys("q")
	s.exited()
	if got := runningJobs(t, cs); len(got) != 1 {
		t.Fatalf("after detaching, running: %q; want the shell", got)
	}

	again := startAttach(t, "--state-dir", state)
	again.waitFor("typed-42")
	again.waitFor("● 1 running")
}

// Nothing an agent sends over MCP reaches a decision: the decision and
// every other supervisor method are not MCP methods, and the tools have no
// decision among them.
func TestMCPCannotDecide(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	srv := startServe(t, state)
	cs := agent(t, state)
	// A supervisor attached: held commands wait for it.
	sup := person(t, state)
	target := filepath.Join(os.Getenv("HOME"), ".tend-attach-"+testkit.NewMark())
	os.MkdirAll(target, 0o700)
	defer os.RemoveAll(target)
	call := execAsync(t, cs, "rm -rf "+target, t.TempDir())
	testkit.WaitUntil(t, 15*time.Second, "the request", func() bool { return len(sup.Pending()) == 1 })
	id := sup.Pending()[0].ID

	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if strings.Contains(tool.Name, "decide") || strings.Contains(tool.Name, "approv") || strings.HasPrefix(tool.Name, "supervisor") {
			t.Errorf("MCP has a tool %q", tool.Name)
		}
	}
	if res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "supervisor/decide", Arguments: map[string]any{"id": id}}); err == nil && !res.IsError {
		t.Errorf("tools/call supervisor/decide succeeded: %+v", res)
	}

	// The same socket, an MCP session: each supervisor method, sent as
	// the session's requests, is unknown.
	conn, err := net.Dial("unix", srv.disc.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	send := func(line string) map[string]any {
		t.Helper()
		fmt.Fprintln(conn, line)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("after %s: %v", line, err)
			}
			var m map[string]any
			json.Unmarshal([]byte(l), &m)
			if m["id"] != nil {
				return m
			}
		}
	}
	init := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sneaky","version":"1"}}}`)
	if init["result"] == nil {
		t.Fatalf("initialize: %v", init)
	}
	fmt.Fprintln(conn, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, method := range []string{"supervisor/decide", "supervisor/hello", "supervisor/subscribe", "supervisor/kill", "supervisor/start", "supervisor/input"} {
		reply := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"id":%d,"answer":{"Approve":true},"version":1,"job":"1"}}`, i+2, method, id))
		if reply["error"] == nil {
			t.Errorf("%s inside an MCP session: %v", method, reply)
		}
	}
	pending(t, call, "the MCP session's attempts")
	if err := sup.Decide(id, policyDeny); err != nil {
		t.Fatal(err)
	}
	if r := settled(t, call); r.SemanticStatus != "denied" {
		t.Errorf("after the supervisor's denial: %+v", r)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the denied rm ran: %v", err)
	}
}

// person is the person's supervisor connection to the tend serving
// state, made as tend attach's over ssh is: through tend serve --stdio,
// tend itself (the engine serves the protocol to no other program).
func person(t *testing.T, state string) *supervisor.Client {
	t.Helper()
	sup, err := supervisor.Connect(t.Context(), "local", supervisor.DialCommand(tendBin, "serve", "--stdio", "--state-dir", state), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sup.Close)
	return sup
}

// heldRm has the agent run rm -rf on a directory of its own, which waits
// for the person attached; it returns the call, the request's id and the
// directory.
func heldRm(t *testing.T, cs *mcp.ClientSession, sup *supervisor.Client) (<-chan execResult, int, string) {
	t.Helper()
	target := filepath.Join(os.Getenv("HOME"), ".tend-attach-"+testkit.NewMark())
	os.MkdirAll(target, 0o700)
	t.Cleanup(func() { os.RemoveAll(target) })
	call := execAsync(t, cs, "rm -rf "+target, t.TempDir())
	testkit.WaitUntil(t, 15*time.Second, "the request", func() bool { return len(sup.Pending()) == 1 })
	return call, sup.Pending()[0].ID, target
}

// supervisorLines are a supervisor/hello and a supervisor/decide
// approving request id, as a client sends them.
func supervisorLines(t *testing.T, id int) (hello, decide string) {
	t.Helper()
	h, _ := json.Marshal(supervisor.Hello{Version: supervisor.Version, Client: "tend attach"})
	d, _ := json.Marshal(supervisor.Decision{ID: id, Answer: policy.Answer{Approve: true, By: "person"}})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"supervisor/hello","params":%s}`, h),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"supervisor/decide","params":%s}`, d)
}

// refusedOnly checks what a supervisor client was answered: the hello
// refused, saying why, and no answer to anything after it.
func refusedOnly(t *testing.T, who, replies string) {
	t.Helper()
	if !strings.Contains(replies, supervisor.ErrRefused.Error()) || strings.Contains(replies, `"result"`) || strings.Contains(replies, `"id":2`) {
		t.Errorf("%s was answered:\n%s\nwant the hello refused and nothing more", who, replies)
	}
}

// denied has the person deny the request and checks the agent's call saw
// the denial and the directory is still there.
func denied(t *testing.T, sup *supervisor.Client, id int, call <-chan execResult, target string) {
	t.Helper()
	pending(t, call, "the refused approval")
	if err := sup.Decide(id, policyDeny); err != nil {
		t.Fatalf("the person's denial: %v", err)
	}
	if r := settled(t, call); r.SemanticStatus != "denied" {
		t.Errorf("after the person's denial: %+v", r)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the denied rm ran: %v", err)
	}
}

// An agent's own job cannot approve the agent's held command: a job that
// reaches the socket and says supervisor/hello and supervisor/decide is
// refused, though it runs tend itself, outside its job's session and
// without its marker; the command waits on for the person, who denies it.
// Under each containment: by the job's cgroup, or by its descent from
// tend.
func TestJobCannotDecide(t *testing.T) {
	t.Parallel()
	for _, containment := range []engine.Containment{engine.ContainSubreaper, engine.ContainCgroup} {
		t.Run(string(containment), func(t *testing.T) {
			t.Parallel()
			if _, err := engine.ProbeContainment(containment); err != nil {
				t.Skipf("no %s containment here: %v", containment, err)
			}
			state := testkit.PrivateDir(t)
			if err := os.WriteFile(filepath.Join(state, "config.toml"), fmt.Appendf(nil, "[jobs]\ncontainment = %q\n", containment), 0o600); err != nil {
				t.Fatal(err)
			}
			startServe(t, state)
			cs := agent(t, state)
			sup := person(t, state)
			call, id, target := heldRm(t, cs, sup)

			hello, decide := supervisorLines(t, id)
			setsid, err := exec.LookPath("setsid")
			if err != nil {
				t.Skip("no setsid here")
			}
			script := fmt.Sprintf("printf '%%s\\n' '%s' '%s' | env -i %s %s serve --stdio --state-dir %s", hello, decide, setsid, tendBin, state)
			var out struct {
				Stdout string `json:"stdout"`
				Stderr string `json:"stderr"`
			}
			testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": script}, &out)
			refusedOnly(t, "the job", out.Stdout+out.Stderr)
			denied(t, sup, id, call, target)
		})
	}
}

// A program that is not tend is refused (here the test itself), though no
// job started it.
func TestOnlyTendSupervises(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	srv := startServe(t, state)
	cs := agent(t, state)
	sup := person(t, state)
	call, id, target := heldRm(t, cs, sup)

	conn, err := net.Dial("unix", srv.disc.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hello, decide := supervisorLines(t, id)
	fmt.Fprintf(conn, "%s\n%s\n", hello, decide)
	conn.(*net.UnixConn).CloseWrite()
	replies, _ := io.ReadAll(conn) // the engine ends the connection after its refusal
	refusedOnly(t, "the test", string(replies))
	denied(t, sup, id, call, target)
}

// policyDeny is a person's denial.
var policyDeny = policy.Answer{Approve: false, Reason: "not over MCP", By: "person"}

// sshd is an OpenSSH server on 127.0.0.1 for this test only: its own host
// key, one user key, a config of its own. ssh is the client command with
// a config that reaches it.
type sshd struct {
	port string
	ssh  string // "ssh -F <config>"
}

func startSSHD(t testing.TB) *sshd {
	t.Helper()
	bin, err := exec.LookPath("sshd")
	if err != nil {
		bin = "/usr/sbin/sshd"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("no sshd here (apt-get install openssh-server; .ci/run does)")
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh client here")
	}
	if os.Geteuid() != 0 {
		t.Skip("sshd needs root here: it changes to the user who logs in")
	}
	os.MkdirAll("/run/sshd", 0o755) // its privilege separation directory
	dir := t.TempDir()
	keygen := func(name string) {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, name)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	keygen("host")
	keygen("user")
	pub, _ := os.ReadFile(filepath.Join(dir, "user.pub"))
	os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cfg := filepath.Join(dir, "sshd_config")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`Port %s
ListenAddress 127.0.0.1
HostKey %s/host
AuthorizedKeysFile %s/authorized_keys
PidFile %s/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
`, port, dir, dir, dir)), 0o600)
	cmd := exec.Command(bin, "-D", "-e", "-f", cfg)
	log := &lockedBuf{}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("sshd:\n%s", log.String())
		}
	})
	client := filepath.Join(dir, "ssh_config")
	os.WriteFile(client, []byte(fmt.Sprintf(`Host *
  IdentityFile %s/user
  IdentitiesOnly yes
  UserKnownHostsFile /dev/null
  StrictHostKeyChecking no
  LogLevel ERROR
`, dir)), 0o600)
	s := &sshd{port: port, ssh: "ssh -F " + client}
	testkit.WaitUntil(t, 10*time.Second, "sshd to listen", func() bool {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return s
}

// sshChild is the pid of the ssh that tend attach (pid) runs.
func sshChild(t *testing.T, pid int) int {
	t.Helper()
	var found int
	testkit.WaitUntil(t, 10*time.Second, "tend attach's ssh", func() bool {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
		for _, task := range tasks {
			b, _ := os.ReadFile(task)
			for _, f := range strings.Fields(string(b)) {
				comm, _ := os.ReadFile("/proc/" + f + "/comm")
				if strings.TrimSpace(string(comm)) == "ssh" {
					found, _ = strconv.Atoi(f)
					return true
				}
			}
		}
		return false
	})
	return found
}

// Two engines with state dirs of their own, one reached over real ssh: one
// list with both hosts; a held command from each answered in one queue; a
// kill on each host leaves nothing of its job. Then the ssh is killed
// while a job there floods: the UI says the host is lost, reconnects, and
// the job's log read over ssh afterwards is byte for byte what it printed.
func TestAttachOverSSH(t *testing.T) {
	t.Parallel()
	d := startSSHD(t)
	local, far := testkit.PrivateDir(t), testkit.PrivateDir(t)
	startServe(t, local)
	remote := fmt.Sprintf("%s serve --stdio --state-dir %s --port 0 --grace 300ms", tendBin, far)
	t.Cleanup(func() { exec.Command(tendBin, "serve", "--stop", "--state-dir", far).Run() })
	s := startAttach(t, "--state-dir", local, "local", "ssh://root@127.0.0.1:"+d.port, "--ssh", d.ssh, "--remote", remote)
	s.waitFor("tend attach · local · 127.0.0.1 · q detaches")
	near, there := agent(t, local), agent(t, far) // the far tend serve was started by the ssh entry

	mark := testkit.NewMark()
	var j1, j2 struct {
		ID string `json:"job_id"`
	}
	testkit.CallOK(t, near, "terminal_job_start", map[string]any{"command": "sleep " + mark}, &j1)
	testkit.CallOK(t, there, "terminal_job_start", map[string]any{"command": "sleep " + mark}, &j2)
	text := s.waitFor("127.0.0.1 sleep " + mark)
	if !strings.Contains(text, "local     sleep "+mark) || !strings.Contains(text, "# host") {
		t.Errorf("the list lacks a host column with both hosts:\n%s", text)
	}

	// A held command from each host, one queue.
	t1 := filepath.Join(os.Getenv("HOME"), ".tend-attach-1-"+mark)
	t2 := filepath.Join(os.Getenv("HOME"), ".tend-attach-2-"+mark)
	for _, p := range []string{t1, t2} {
		os.MkdirAll(p, 0o700)
		t.Cleanup(func() { os.RemoveAll(p) })
	}
	call1 := execAsync(t, near, "rm -rf "+t1, t.TempDir())
	s.waitFor("⚠ 1 to approve")
	call2 := execAsync(t, there, "rm -rf "+t2, t.TempDir())
	s.waitFor("⚠ 2 to approve")
	s.keys("<tab>", "<tab>")
	s.waitFor("on local asks to run a destructive command")
	s.keys("y")
	if r := settled(t, call1); r.SemanticStatus != "ok" {
		t.Fatalf("local approval: %+v", r)
	}
	s.waitFor("on 127.0.0.1 asks to run a destructive command")
	s.keys("y") // the request shown changed: the first key only says so
	s.waitFor("now showing request")
	s.keys("y")
	if r := settled(t, call2); r.SemanticStatus != "ok" {
		t.Fatalf("remote approval: %+v", r)
	}
	for _, p := range []string{t1, t2} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("approved rm of %s did not run", p)
		}
	}
	s.keys("<tab>")

	// A kill on each host.
	for _, host := range []string{"local", "127.0.0.1"} {
		s.keys("f", host+"/", "<enter>")
		s.waitFor(" on " + host + " $ sleep " + mark)
		s.keys("x")
		s.waitFor("Kill")
		s.keys("y")
		s.waitFor("killed")
		s.keys("f", "<ctrl+u>", "<enter>")
	}
	testkit.WaitUntil(t, 15*time.Second, "both sleepers to end", func() bool { return testkit.CountMarked(mark) == 0 })

	// The far host's connection dropped while a job there floods, until
	// the test says stop.
	stop := filepath.Join(t.TempDir(), "stop")
	var flood struct {
		ID string `json:"job_id"`
	}
	testkit.CallOK(t, there, "terminal_job_start", map[string]any{"command": fmt.Sprintf("i=0; while [ ! -e %s ]; do i=$((i+1)); echo $i; done; echo %s", stop, mark)}, &flood)
	s.keys("f", "127.0.0.1/"+flood.ID, "<enter>")
	s.waitFor("#" + flood.ID + " on 127.0.0.1 $ i=0")
	syscall.Kill(sshChild(t, s.cmd.Process.Pid), syscall.SIGKILL)
	s.waitFor("127.0.0.1 lost") // on the left, or on the right while a message is up
	s.waitGone("127.0.0.1 lost")
	os.WriteFile(stop, nil, 0o600)
	s.waitFor(mark) // the pane read on to the end

	c, err := supervisor.Connect(t.Context(), "far", supervisor.DialCommand(append(strings.Fields(d.ssh), "-p", d.port, "root@127.0.0.1", remote)...), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	j, err := c.Job(engine.JobID(flood.ID))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for off := int64(0); ; {
		ch, err := j.Read(engine.Merged, off, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		got.Write(ch.Data)
		off = ch.Next
		if ch.EOF {
			break
		}
	}
	lines := strings.Split(strings.TrimSuffix(got.String(), "\n"), "\n")
	n := 0
	if len(lines) > 1 {
		n, _ = strconv.Atoi(lines[len(lines)-2])
	}
	var want bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintln(&want, i)
	}
	fmt.Fprintln(&want, mark)
	if n < 1000 {
		t.Errorf("the flood printed %d lines: too few to have flooded through the drop", n)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("the flood's log over ssh: %d bytes, want %d byte for byte", got.Len(), want.Len())
	}
}

// BenchmarkAttachKeyToScreen is the time from a key typed into tend attach
// (over ssh to 127.0.0.1, or with no sshd through --via) until the shell's
// echo of it is on tend attach's terminal, while another job of that
// engine floods. It reports the median and the 90th percentile, and as the
// baseline the same 40 keys typed into tend ui, which hosts its engine, in
// the same run.
//
//	go test -run '^$' -bench AttachKeyToScreen -benchtime 200x .
func BenchmarkAttachKeyToScreen(b *testing.B) {
	local := startScreen(b, nil, "ui", "--state-dir", testkit.PrivateDir(b), "--grace", "300ms", "--port", "0")
	local.waitFor("Jobs")
	floodAndShell(local)
	var base []time.Duration
	for i := range 40 {
		base = append(base, echoLatency(local, i))
	}
	local.keys("<ctrl+b>", "q", "y")

	s := startAttach(b, remoteArgs(b)...)
	s.waitFor("q detaches")
	floodAndShell(s)
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		lat = append(lat, echoLatency(s, i))
	}
	ms := func(d []time.Duration, q int) float64 {
		slices.Sort(d)
		return float64(d[len(d)*q/100].Microseconds()) / 1000
	}
	b.ReportMetric(ms(lat, 50), "ms-p50")
	b.ReportMetric(ms(lat, 90), "ms-p90")
	b.ReportMetric(ms(base, 50), "local-ms-p50")
	b.ReportMetric(ms(base, 90), "local-ms-p90")
}

// remoteArgs are tend attach's arguments for an engine of its own: over
// ssh to 127.0.0.1 with TEND_BENCH_SSH=1, else through --via.
func remoteArgs(b *testing.B) []string {
	far := testkit.PrivateDir(b)
	remote := fmt.Sprintf("%s serve --stdio --state-dir %s --port 0 --grace 300ms", tendBin, far)
	b.Cleanup(func() { exec.Command(tendBin, "serve", "--stop", "--state-dir", far).Run() })
	if os.Getenv("TEND_BENCH_SSH") != "" {
		d := startSSHD(b)
		return []string{"--state-dir", testkit.PrivateDir(b), "ssh://root@127.0.0.1:" + d.port, "--ssh", d.ssh, "--remote", remote}
	}
	return []string{"--state-dir", testkit.PrivateDir(b), "--via", remote}
}

// floodAndShell starts a job that floods, then a shell, and types into it.
func floodAndShell(s *screen) {
	s.keys(":", "while :; do echo flood flood flood flood; done", "<enter>")
	s.waitFor("flood flood")
	s.keys("s")
	s.waitFor("$ bash")
	s.attach()
	s.waitFor("# ")
}

// echoLatency types the i-th key into the shell and returns how long its
// echo took to reach the terminal.
func echoLatency(s *screen, i int) time.Duration {
	c := string(rune('a' + i%26))
	s.outMu.Lock()
	before := len(s.out)
	s.outMu.Unlock()
	t0 := time.Now()
	s.keys(c)
	for {
		s.outMu.Lock()
		seen := bytes.Contains(s.out[before:], []byte(c))
		s.outMu.Unlock()
		if seen {
			break
		}
		time.Sleep(200 * time.Microsecond)
	}
	d := time.Since(t0)
	if i%40 == 39 {
		s.keys("<ctrl+u>")
	}
	return d
}

// BenchmarkAttachVisibleFlood times `seq 1 2000000` (14.9 MB) in a PTY job
// shown on tend attach's screen (over ssh to 127.0.0.1 with
// TEND_BENCH_SSH=1, else through --via), against the same in tend ui,
// which hosts its engine, in the same run, both 160×45. It reports each in
// ms, the job's output in MB/s under each, and the bytes per second that
// crossed the connection to tend attach while the job ran (what the remote
// path carries: screens at most 30 times a second, never the stream).
//
//	go test -run '^$' -bench AttachVisibleFlood -benchtime 3x .
func BenchmarkAttachVisibleFlood(b *testing.B) {
	const size = 14888897 // bytes of seq 1 2000000
	dir := b.TempDir()
	local := startScreen(b, nil, "ui", "--state-dir", testkit.PrivateDir(b), "--grace", "300ms", "--port", "0")
	local.waitFor("Jobs")
	s := startAttach(b, remoteArgs(b)...)
	s.waitFor("q detaches")
	var localMS, attachMS, wire float64
	n := 0
	for b.Loop() {
		n++
		f := filepath.Join(dir, fmt.Sprintf("local%d", n))
		local.keys(":", floodScript(f), "<enter>")
		localMS += waitMS(b, f)
		f = filepath.Join(dir, fmt.Sprintf("attach%d", n))
		r0 := readBytes(b, s.cmd.Process.Pid)
		s.keys(":", floodScript(f), "<enter>")
		ms := waitMS(b, f)
		attachMS += ms
		wire += float64(readBytes(b, s.cmd.Process.Pid)-r0) / (ms / 1000)
	}
	b.ReportMetric(localMS/float64(n), "local-ms")
	b.ReportMetric(attachMS/float64(n), "attach-ms")
	b.ReportMetric(size/1e3/(localMS/float64(n)), "local-MB/s")
	b.ReportMetric(size/1e3/(attachMS/float64(n)), "attach-MB/s")
	b.ReportMetric(wire/float64(n), "wire-B/s")
}

// readBytes is how many bytes tend attach (pid) has read from the
// connections to its engines so far: what its children (ssh, or the
// --via command) wrote to it, which /proc/PID/io counts as its rchar less
// what it read from its terminal, small beside them.
func readBytes(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		b.Fatal(err)
	}
	for l := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(l, "rchar: "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	b.Fatal("no rchar in /proc/PID/io")
	return 0
}
