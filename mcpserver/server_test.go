package mcpserver

import (
	"context"
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
