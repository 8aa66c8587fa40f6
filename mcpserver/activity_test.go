package mcpserver

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
	if got := a.Since(exec.Rev); len(got) != 1 || got[0].Seq != bad.Seq {
		t.Errorf("Since(%d) = %+v", exec.Rev, got)
	}
	if exec.Status != "ok" || exec.Job == "" || exec.Detail != "hi" || bad.Status != "error" {
		t.Errorf("marks: exec %q %q %q, bad %q", exec.Status, exec.Job, exec.Detail, bad.Status)
	}
	if cl := a.Clients(); len(cl) != 1 || cl[0].Name != "probe 9" {
		t.Errorf("clients = %+v", cl)
	}
}

// A call shows while it runs, and again, ended and marked, when it ends;
// calls seeded from an earlier run come first.
func TestActivityShowsCallsInFlight(t *testing.T) {
	t.Parallel()
	s := New(newEngine(t, engine.Config{}), Options{Version: "test"})
	a := s.Activity()
	a.Seed([]Call{{Tool: "terminal_exec", Client: "old", Status: "denied", Running: true}})
	cs := testkit.Connect(t, s.Server, "probe", nil)
	gate := filepath.Join(t.TempDir(), "go")
	done := make(chan struct{})
	go func() {
		defer close(done)
		testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "while [ ! -e " + gate + " ]; do sleep 0.01; done; exit 3"}, nil)
	}()
	var running Call
	testkit.WaitUntil(t, 10*time.Second, "the call in flight", func() bool {
		calls := a.Since(0)
		running = calls[len(calls)-1]
		return len(calls) == 2 && running.Running
	})
	if old := a.Since(0)[0]; !old.Before || old.Running || old.Seq >= running.Seq {
		t.Fatalf("seeded call %+v", old)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	<-done
	got := a.Since(running.Rev)
	if len(got) != 1 || got[0].Seq != running.Seq || got[0].Running || got[0].Status != "error" || !strings.Contains(got[0].Result, "exit_code=3") {
		t.Fatalf("after it ended: %+v", got)
	}
}

func TestCountItems(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]items{
		`[]`: 0, ` [ ] `: 0, `[1]`: 1, `[1, 2,3]`: 3, `[{"a":[1,2],"b":"x,]\"}"},{}]`: 2,
		`[[],[[]],"",""]`: 4, `["\\",","]`: 2, `[ {"k": {"l": [",", "]"]}} ]`: 1,
	} {
		var check []json.RawMessage
		if err := json.Unmarshal([]byte(raw), &check); err != nil || items(len(check)) != want {
			t.Fatalf("bad case %s: %d items, %v", raw, len(check), err)
		}
		if got := countItems(json.RawMessage(raw)); got != want {
			t.Errorf("countItems(%s) = %d, want %d", raw, got, want)
		}
	}
}

// Since finds what changed after a revision without looking at every call:
// it must return exactly what a look at every call would, whatever the
// order of starts and ends, across the drops of old calls and old ends.
func TestActivitySinceMatchesAFullLook(t *testing.T) {
	a := newActivity()
	rng := rand.New(rand.NewPCG(1, 2))
	var running []uint64
	var revs []uint64
	for step := range 3 * activityKeep {
		switch {
		case len(running) > 0 && rng.IntN(2) == 0:
			k := rng.IntN(len(running))
			a.update(running[k], func(c *Call) { c.Running = false })
			running = slices.Delete(running, k, k+1)
		default:
			running = append(running, a.add(Call{Running: true}))
		}
		a.mu.Lock()
		revs = append(revs, a.rev)
		a.mu.Unlock()
		if step%7 != 0 {
			continue
		}
		rev := revs[rng.IntN(len(revs))]
		got := a.Since(rev)
		a.mu.Lock()
		var want []Call
		for _, c := range a.calls {
			if c.Rev > rev {
				want = append(want, c)
			}
		}
		a.mu.Unlock()
		if !slices.EqualFunc(got, want, func(x, y Call) bool { return x.Seq == y.Seq && x.Rev == y.Rev }) {
			t.Fatalf("step %d: Since(%d) gave %d calls, a full look %d", step, rev, len(got), len(want))
		}
	}
}

// A call's result is summarized when the call is first read, not on the
// reply's way; at most maxUnread wait so when nobody reads, and a big one
// is summarized at once.
func TestActivitySummarizesWhenRead(t *testing.T) {
	t.Parallel()
	s := New(newEngine(t, engine.Config{}), Options{Version: "test"})
	a := s.Activity()
	cs := testkit.Connect(t, s.Server, "probe", nil)
	waiting := func() (n int) {
		a.mu.Lock()
		defer a.mu.Unlock()
		for _, c := range a.calls {
			if c.result != nil {
				n++
			}
		}
		return n
	}
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo hi"}, nil)
	if n := waiting(); n != 1 {
		t.Errorf("%d results wait to be summarized after a call, want 1", n)
	}
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "seq 1 20000"}, nil) // 108 KiB: at once
	if n := waiting(); n != 1 {
		t.Errorf("%d results wait to be summarized after a big one, want 1", n)
	}
	for range maxUnread + 5 {
		testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo hi"}, nil)
	}
	if n := waiting(); n != maxUnread {
		t.Errorf("%d results wait to be summarized after %d calls unread, want %d", n, maxUnread+7, maxUnread)
	}
	calls := a.Since(0)
	if len(calls) != maxUnread+7 {
		t.Fatalf("%d calls recorded", len(calls))
	}
	for i, c := range calls {
		want := "stdout=3B"
		if i == 1 {
			want = "stdout=108894B"
		}
		if c.Running || c.Status != "ok" || c.Job == "" || !strings.Contains(c.Result, "exit_code=0") || !strings.Contains(c.Result, want) {
			t.Errorf("call %d: %+v", i, c)
		}
	}
	if n := waiting(); n != 0 {
		t.Errorf("%d results wait to be summarized after all were read", n)
	}
}
