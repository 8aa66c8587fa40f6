package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
)

func TestActivityRecordsEveryToolCall(t *testing.T) {
	t.Parallel()
	e, err := engine.New(engine.Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	s := New(e, Options{Version: "test"})
	a := s.Activity()
	if a == nil {
		t.Fatal("New installed no activity recorder")
	}
	bell, stop := a.Watch()
	defer stop()

	st, ct := mcp.NewInMemoryTransports()
	ctx := t.Context()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	c := mcp.NewClient(&mcp.Implementation{Name: "probe", Version: "1.2"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "echo hi", "description": strings.Repeat("x", 1000)}}); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "terminal_job_logs", Arguments: map[string]any{"job_id": "nope"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Fatal("a bad job id should be a tool error")
	}
	<-bell

	calls := a.Since(0)
	if len(calls) != 2 {
		t.Fatalf("recorded %d calls, want 2: %+v", len(calls), calls)
	}
	exec, bad := calls[0], calls[1]
	if exec.Tool != "terminal_exec" || exec.Client != "probe 1.2" || exec.IsError {
		t.Errorf("exec call = %+v", exec)
	}
	if !strings.Contains(exec.Result, "exit_code=0") || !strings.Contains(exec.Result, "stdout=3B") {
		t.Errorf("exec summary = %q", exec.Result)
	}
	if len(exec.Args) > maxArgs+len("…") || !strings.HasSuffix(exec.Args, "…") {
		t.Errorf("arguments not cut: %d bytes", len(exec.Args))
	}
	if !bad.IsError || !strings.Contains(bad.Result, "nope") {
		t.Errorf("error call = %+v", bad)
	}
	if got := a.Since(exec.Seq); len(got) != 1 || got[0].Seq != bad.Seq {
		t.Errorf("Since(%d) = %+v", exec.Seq, got)
	}
	if cl := a.Clients(); len(cl) != 1 || cl[0].Name != "probe 1.2" {
		t.Errorf("clients = %+v", cl)
	}
}
