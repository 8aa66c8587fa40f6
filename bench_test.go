package main

import (
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkExecRoundTrip times terminal_exec of `echo hi` through the real
// binary over stdio, against spawning `bash -c 'echo hi'` directly in the same
// run. It reports p50 and p95 of each and their ratio.
//
//	go test -run '^$' -bench ExecRoundTrip -benchtime 300x .
func BenchmarkExecRoundTrip(b *testing.B) {
	state := b.TempDir()
	cmd := exec.Command(tendBin, "mcp", "-state-dir", state)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(b.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	args := &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "echo hi"}}
	var tend, raw []time.Duration
	for b.Loop() {
		t0 := time.Now()
		res, err := cs.CallTool(b.Context(), args)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
		tend = append(tend, time.Since(t0))
		t0 = time.Now()
		if out, err := exec.Command("bash", "-c", "echo hi").Output(); err != nil || string(out) != "hi\n" {
			b.Fatalf("bash: %v %q", err, out)
		}
		raw = append(raw, time.Since(t0))
	}
	p := func(d []time.Duration, q float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[int(q*float64(len(s)-1))].Microseconds())
	}
	b.ReportMetric(p(tend, .5), "tend-p50-µs")
	b.ReportMetric(p(tend, .95), "tend-p95-µs")
	b.ReportMetric(p(raw, .5), "bash-p50-µs")
	b.ReportMetric(p(raw, .95), "bash-p95-µs")
	b.ReportMetric(p(tend, .5)/p(raw, .5), "p50-ratio")
	b.ReportMetric(p(tend, .95)/p(raw, .95), "p95-ratio")
}
