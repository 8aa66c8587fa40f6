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
	clock := now
	h := newHarness(t, fb, nil, "dark", func(o *Options) { o.Now = func() time.Time { return clock } })
	h.send(tea.WindowSizeMsg{Width: 160, Height: 45})
	for i := 0; b.Loop(); i++ {
		clock = now.Add(time.Duration(i%2) * time.Second) // the runtimes shown change
		h.m.Update(runtimeTickMsg{h.m.tickID})
		_ = h.m.View()
	}
}

// BenchmarkOutputLines is what cutting a pipe job's output into printable
// lines costs per MiB: plain text, and ls --color output, whose SGR
// sequences are kept as the lines' renditions.
func BenchmarkOutputLines(b *testing.B) {
	for _, tc := range []struct{ name, line string }{
		{"plain", "=== RUN   TestSomething/with_a_subtest_name\n"},
		{"coloured", "\x1b[0m\x1b[01;34mbin\x1b[0m  \x1b[01;32mrun.sh\x1b[0m  \x1b[38;5;208mlog\x1b[0m  plain.txt\n"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var data []byte
			for len(data) < 1<<20 {
				data = append(data, tc.line...)
			}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var o outputLines
				o.add(data, nil)
			}
		})
	}
}
