package ui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
)

// BenchmarkRuntimeTick is what a running job's clock costs an idle UI each
// second: a runtime tick with 50 finished and 5 running jobs listed, at
// 160×45, and the frame it leaves.
func BenchmarkRuntimeTick(b *testing.B) {
	t := &testing.T{}
	fb := newFakeBackend()
	for i := range 55 {
		in := engine.Info{ID: engine.JobID(fmt.Sprint(i + 1)), Command: fmt.Sprintf("go test ./pkg%d/...", i), Status: engine.Exited, ExitCode: code(0), StartedAt: now.Add(-time.Hour), RuntimeMs: 1234, Origin: engine.Origin{Client: "claude-code"}}
		if i >= 50 {
			in.Status, in.ExitCode, in.StartedAt = engine.Running, nil, now.Add(-10*time.Second)
		}
		fb.add(&fakeJob{info: in})
	}
	h := newHarness(t, fb, nil, "dark")
	h.send(tea.WindowSizeMsg{Width: 160, Height: 45})
	for b.Loop() {
		h.m.Update(runtimeTickMsg{h.m.tickID})
		_ = h.m.View()
	}
}
