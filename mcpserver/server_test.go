package mcpserver

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
)

// connect serves a fresh engine to an in-memory go-sdk client.
func connect(t *testing.T, opts Options, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	e, err := engine.New(engine.Config{StateDir: t.TempDir(), Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	st, ct := mcp.NewInMemoryTransports()
	srv := New(e, opts)
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "9"}, copts).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// A call that asked for progress hears every so often that it still runs.
func TestProgressWhileRunning(t *testing.T) {
	t.Parallel()
	var got atomic.Int32
	cs := connect(t, Options{ProgressEvery: 50 * time.Millisecond}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			if r.Params.ProgressToken == "tok-1" {
				got.Add(1)
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
	got.Store(0)
	cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "sleep 0.3"}})
	if got.Load() != 0 {
		t.Fatalf("%d notifications without a progress token", got.Load())
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
	e, err := engine.New(engine.Config{StateDir: t.TempDir(), Grace: 200 * time.Millisecond, Gate: gate})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(e, Options{ProgressEvery: 20 * time.Millisecond}).Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "9"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			select {
			case heard <- struct{}{}:
			default:
			}
		},
	}).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
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

// Every job records who started it.
func TestOrigin(t *testing.T) {
	t.Parallel()
	cs := connect(t, Options{}, nil)
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "true"}}); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_job_manage", Arguments: map[string]any{"action": "list"}})
	if err != nil {
		t.Fatal(err)
	}
	jobs := res.StructuredContent.(map[string]any)["jobs"].([]any)
	o := jobs[0].(map[string]any)["origin"].(map[string]any)
	if o["client"] != "test-agent" || o["version"] != "9" || o["tool"] != "terminal_exec" || o["session"] == "" {
		t.Fatalf("origin %v", o)
	}
}

// BenchmarkExecInProcess is terminal_exec of echo hi through the MCP layer
// in process (no stdio): the server's share of a round trip.
//
//	go test -run '^$' -bench ExecInProcess ./mcpserver
func BenchmarkExecInProcess(b *testing.B) {
	e, err := engine.New(engine.Config{StateDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(e, Options{}).Connect(b.Context(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(b.Context(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	args := &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "echo hi"}}
	for b.Loop() {
		if res, err := cs.CallTool(b.Context(), args); err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
