package ui

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"tend/engine"
)

// TestEndToEnd runs the model in a Bubble Tea program over a real engine:
// a job an agent starts appears, a person starts one with ":" and kills it
// with x, y; q then quits.
func TestEndToEnd(t *testing.T) {
	t.Parallel()
	e, err := engine.New(engine.Config{StateDir: t.TempDir(), Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	be := FromEngine(e)
	m := New(Options{Backend: be, Theme: "dark", Cwd: t.TempDir()})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 30))
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go Pump(ctx, tm.Send, m.Events(), be.Ready(), nil)

	// The output stream is cumulative: wait for text to appear in it.
	var seen bytes.Buffer
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			seen.Write(b)
			return strings.Contains(ansi.Strip(seen.String()), what)
		}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("no jobs yet")

	// An agent's job appears, with its output.
	agent := engine.Origin{Client: "claude-code", Version: "2.1", Tool: "terminal_job_start"}
	if _, err := e.Start(ctx, engine.Spec{Command: "echo from-the-agent; echo oops >&2", Origin: agent}); err != nil {
		t.Fatal(err)
	}
	waitFor("from-the-agent")
	waitFor("claude-code")

	// A person runs a command with ":" …
	tm.Send(keyMsg(":"))
	tm.Type("sleep 30")
	tm.Send(keyMsg("enter"))
	waitFor("$ sleep 30")
	waitFor("1 running")
	// … and kills it: x asks, y kills the whole tree.
	tm.Send(keyMsg("x"))
	waitFor("and its whole process tree? y/n")
	tm.Send(keyMsg("y"))
	waitFor("killed after") // the pane, once it has ended
	waitFor("0 running")
	for _, in := range e.List() {
		if in.Status == engine.Running {
			t.Errorf("job %s still running after the kill", in.ID)
		}
	}
	// Nothing runs: q quits at once.
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	if _, ok := tm.FinalModel(t).(*Model); !ok {
		t.Fatal("the final model is not the UI's")
	}
}
