package mcpserver

import (
	"strings"
	"testing"

	"tend/engine"
	"tend/internal/testkit"
)

func TestActivityRecordsEveryToolCall(t *testing.T) {
	t.Parallel()
	s := New(newEngine(t, engine.Config{}), Options{Version: "test"})
	a := s.Activity()
	if a == nil {
		t.Fatal("New installed no activity recorder")
	}
	bell, stop := a.Watch()
	defer stop()

	cs := testkit.Connect(t, s.Server, "probe", nil)
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo hi", "description": strings.Repeat("x", 1000)}, nil)
	if res := testkit.Call(t, cs, "terminal_job_logs", map[string]any{"job_id": "nope"}, nil); !res.IsError {
		t.Fatal("a bad job id should be a tool error")
	}
	<-bell

	calls := a.Since(0)
	if len(calls) != 2 {
		t.Fatalf("recorded %d calls, want 2: %+v", len(calls), calls)
	}
	exec, bad := calls[0], calls[1]
	if exec.Tool != "terminal_exec" || exec.Client != "probe 9" || exec.IsError {
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
	if cl := a.Clients(); len(cl) != 1 || cl[0].Name != "probe 9" {
		t.Errorf("clients = %+v", cl)
	}
}
