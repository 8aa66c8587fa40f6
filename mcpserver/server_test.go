package mcpserver

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/internal/testkit"
)

// newEngine is an engine over c (a scratch state dir and a short kill grace
// unless c says otherwise), closed with the test.
func newEngine(t testing.TB, c engine.Config) *engine.Engine {
	t.Helper()
	if c.StateDir == "" {
		c.StateDir = t.TempDir()
	}
	if c.Grace == 0 {
		c.Grace = 300 * time.Millisecond
	}
	e, err := engine.New(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

// connect serves a fresh engine to an in-memory go-sdk client named
// test-agent.
func connect(t *testing.T, opts Options, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return testkit.Connect(t, New(newEngine(t, engine.Config{}), opts).Server, "test-agent", copts)
}

// A call that asked for progress hears every so often that it still runs.
func TestProgressWhileRunning(t *testing.T) {
	t.Parallel()
	// The client runs notification handlers after the replies that follow
	// them may have come back: count each call's notifications apart.
	var got, other atomic.Int32
	cs := connect(t, Options{ProgressEvery: 50 * time.Millisecond}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			if r.Params.ProgressToken == "tok-1" {
				got.Add(1)
			} else {
				other.Add(1)
			}
		},
	})
	params := &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "sleep 0.5"}}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(t.Context(), params)
	if err != nil || res.IsError {
		t.Fatalf("%v %v", err, res)
	}
	if got.Load() < 3 {
		t.Fatalf("%d progress notifications in 0.5 s at 50 ms", got.Load())
	}
	// Without a token, none.
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "sleep 0.3"}, nil)
	if other.Load() != 0 {
		t.Fatalf("%d notifications without a progress token", other.Load())
	}
}

// A call held for a person's approval hears that it still waits, in
// terminal_exec and in terminal_pty_run: the gate here lets a command go
// only once the client has had three progress notifications for it.
func TestProgressWhileHeld(t *testing.T) {
	t.Parallel()
	heard := make(chan struct{}, 100)
	var gate engine.Gate = func(ctx context.Context, r engine.GateRequest) engine.Verdict {
		if !strings.Contains(r.Command, "held") {
			return engine.Verdict{}
		}
		for range 3 {
			select {
			case <-heard:
			case <-time.After(10 * time.Second):
				return engine.Verdict{Deny: "no progress notification while held"}
			}
		}
		return engine.Verdict{}
	}
	srv := New(newEngine(t, engine.Config{Gate: gate}), Options{ProgressEvery: 20 * time.Millisecond})
	cs := testkit.Connect(t, srv.Server, "test-agent", &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			select {
			case heard <- struct{}{}:
			default:
			}
		},
	})
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		params := &mcp.CallToolParams{Name: tool, Arguments: args}
		params.SetProgressToken(tool)
		res, err := cs.CallTool(t.Context(), params)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", tool, err, res)
		}
		return res.StructuredContent.(map[string]any)
	}
	if out := call("terminal_exec", map[string]any{"command": "echo held"}); out["stdout"] != "held\n" {
		t.Fatalf("terminal_exec: %v", out)
	}
	id := call("terminal_pty_open", map[string]any{})["session_id"]
	if out := call("terminal_pty_run", map[string]any{"session_id": id, "command": "echo held"}); out["output"] != "held\n" {
		t.Fatalf("terminal_pty_run: %v", out)
	}
}

// Every job records who started it, and a running one what it uses.
func TestOrigin(t *testing.T) {
	t.Parallel()
	cs := connect(t, Options{}, nil)
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "true"}, nil)
	testkit.CallOK(t, cs, "terminal_job_start", map[string]any{"command": "sleep 600 & sleep 600 & wait"}, nil)
	var list struct {
		Jobs []jobInfo `json:"jobs"`
	}
	testkit.WaitUntil(t, 10*time.Second, "the job's three processes", func() bool {
		testkit.CallOK(t, cs, "terminal_job_manage", map[string]any{"action": "list"}, &list)
		return len(list.Jobs) == 2 && list.Jobs[1].Processes == 3
	})
	if o := list.Jobs[0].Origin; o.Client != "test-agent" || o.Version != "9" || o.Tool != "terminal_exec" || o.Session == "" {
		t.Fatalf("origin %+v", o)
	}
	// A running job says what it uses; a finished one does not.
	done, running := list.Jobs[0], list.Jobs[1]
	if done.CPUPercent != nil || done.Processes != 0 {
		t.Errorf("finished job with usage: %+v", done)
	}
	if running.CPUPercent == nil || running.MemoryBytes <= 0 {
		t.Errorf("running job's usage: cpu %v memory %d", running.CPUPercent, running.MemoryBytes)
	}
}

// BenchmarkExecInProcess is terminal_exec of echo hi through the MCP layer
// in process (no stdio): the server's share of a round trip.
//
//	go test -run '^$' -bench ExecInProcess ./mcpserver
func BenchmarkExecInProcess(b *testing.B) {
	cs := testkit.Connect(b, New(newEngine(b, engine.Config{}), Options{}).Server, "bench", nil)
	args := &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "echo hi"}}
	for b.Loop() {
		if res, err := cs.CallTool(b.Context(), args); err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// Every tool's schemas are portable: one type per property, no type arrays
// (["null", T]), which stricter clients refuse; and a result whose
// optional fields are unset still validates.
func TestPortableSchemas(t *testing.T) {
	t.Parallel()
	cs := connect(t, Options{}, nil)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) < 10 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	typeArray := regexp.MustCompile(`"type":\[`)
	for _, tool := range res.Tools {
		data, _ := json.Marshal(tool)
		if typeArray.Match(data) {
			t.Errorf("%s has a type array: %s", tool.Name, data)
		}
		for _, schema := range []any{tool.InputSchema, tool.OutputSchema} {
			var sch struct {
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
			}
			b, _ := json.Marshal(schema)
			json.Unmarshal(b, &sch)
			for name, p := range sch.Properties {
				if p.Type == "" {
					t.Errorf("%s: property %s has no type", tool.Name, name)
				}
			}
		}
	}
	// A job still running has no exit_code, and the result validates.
	var out struct {
		ExitCode *int   `json:"exit_code"`
		JobID    string `json:"job_id"`
	}
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "sleep 5", "auto_background_after_sec": 0.01}, &out)
	if out.JobID == "" || out.ExitCode != nil {
		t.Fatalf("%+v", out)
	}
}

// terminal_job_start answers at the first of the job's first output, its
// exit and its window: a job that prints at once is not held for a window
// of 600 s (the call's own deadline is 30 s), nor is one that exits quietly.
func TestJobStartReturnsAtFirstOutputOrExit(t *testing.T) {
	t.Parallel()
	cs := connect(t, Options{}, nil)
	start := func(command string, window float64) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "terminal_job_start", Arguments: map[string]any{"command": command, "startup_wait_sec": window}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", command, err, res)
		}
		return res.StructuredContent.(map[string]any)
	}
	if out := start("echo up; sleep 600", 600); out["status"] != "running" || out["output"] != "up\n" {
		t.Fatalf("a job that prints at once: %v", out)
	}
	if out := start("sleep 0.1; exit 4", 600); out["status"] != "exited" || out["exit_code"] != 4.0 {
		t.Fatalf("a job that exits quietly: %v", out)
	}
	// Nothing printed and still running: the whole window is watched.
	if out := start("sleep 600", 0.2); out["status"] != "running" || out["output"] != nil {
		t.Fatalf("a quiet job: %v", out)
	}
}

// BenchmarkListInProcess is terminal_job_manage list with 200 finished jobs
// retained, through the MCP layer in process: the server's share of a list.
//
//	go test -run '^$' -bench ListInProcess -benchmem ./mcpserver
func BenchmarkListInProcess(b *testing.B) {
	cs := testkit.Connect(b, New(newEngine(b, engine.Config{}), Options{}).Server, "bench", nil)
	for range engine.DefaultRetention {
		testkit.CallOK(b, cs, "terminal_exec", map[string]any{"command": "true"}, nil)
	}
	args := &mcp.CallToolParams{Name: "terminal_job_manage", Arguments: map[string]any{"action": "list", "limit": 0}}
	for b.Loop() {
		if res, err := cs.CallTool(b.Context(), args); err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// list gives the most recent jobs, 30 unless asked, never leaving out a
// running one, and says how many it left out; status filters.
func TestListLimitAndStatus(t *testing.T) {
	t.Parallel()
	cs := connect(t, Options{}, nil)
	testkit.CallOK(t, cs, "terminal_job_start", map[string]any{"command": "sleep 600", "startup_wait_sec": 0}, nil)
	for range 40 {
		testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "true"}, nil)
	}
	testkit.CallOK(t, cs, "terminal_job_start", map[string]any{"command": "sleep 600", "startup_wait_sec": 0}, nil)
	type listed struct {
		Jobs []struct {
			ID     string `json:"job_id"`
			Status string `json:"status"`
		} `json:"jobs"`
		Omitted int    `json:"omitted"`
		Message string `json:"message"`
	}
	list := func(args map[string]any) (l listed) {
		t.Helper()
		args["action"] = "list"
		testkit.CallOK(t, cs, "terminal_job_manage", args, &l)
		return l
	}
	count := func(l listed, status string) (n int) {
		for _, j := range l.Jobs {
			if j.Status == status {
				n++
			}
		}
		return n
	}
	l := list(map[string]any{})
	if len(l.Jobs) != 30 || count(l, "running") != 2 || l.Omitted != 12 || l.Jobs[0].ID != "1" || l.Jobs[29].ID != "42" || !strings.Contains(l.Message, "limit=0") {
		t.Fatalf("default list: %d jobs, %d running, %d omitted, first %s, %q", len(l.Jobs), count(l, "running"), l.Omitted, l.Jobs[0].ID, l.Message)
	}
	if l := list(map[string]any{"limit": 0}); len(l.Jobs) != 42 || l.Omitted != 0 || l.Message != "" {
		t.Fatalf("limit 0: %d jobs, %d omitted, %q", len(l.Jobs), l.Omitted, l.Message)
	}
	if l := list(map[string]any{"status": "running", "limit": 1}); len(l.Jobs) != 2 || count(l, "running") != 2 {
		t.Fatalf("running: %+v", l)
	}
	if l := list(map[string]any{"status": "finished", "limit": 5}); len(l.Jobs) != 5 || count(l, "exited") != 5 || l.Omitted != 35 || l.Jobs[4].ID != "41" {
		t.Fatalf("finished, 5: %+v", l)
	}
	for _, bad := range []map[string]any{{"status": "done"}, {"limit": -1}} {
		bad["action"] = "list"
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_job_manage", Arguments: bad})
		if err != nil || !res.IsError {
			t.Fatalf("%v: %v %v", bad, err, res)
		}
	}
}
