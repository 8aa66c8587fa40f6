package main

// End-to-end tests of tend attach: the terminal UI as a client of a tend
// serve it does not host, on a PTY as a person would run it.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/internal/supervisor"
	"tend/policy"
	"tend/internal/testkit"
)

// startAttach runs tend attach with args.
func startAttach(t *testing.T, args ...string) *screen {
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
	sup, err := supervisor.Connect(t.Context(), "local", supervisor.DialLocal(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sup.Close()
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

// policyDeny is a person's denial.
var policyDeny = policy.Answer{Approve: false, Reason: "not over MCP", By: "person"}
