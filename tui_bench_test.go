package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkTUIKeyLatency times a key press to its effect on the screen (z
// zooms the selected job, hiding the job list, and back) while the selected
// PTY job floods its terminal, through the real binary on a PTY read by
// vterm. It reports p50 and p95 in milliseconds.
//
//	go test -run '^$' -bench TUIKeyLatency -benchtime 40x .
func BenchmarkTUIKeyLatency(b *testing.B) {
	t := &testing.T{}
	s := startTUI(t, b.TempDir())
	s.t = t
	defer func() {
		s.keys("x")
		s.keys("y")
	}()
	s.waitFor("Jobs")
	s.keys(":", `yes "flooding the terminal with a line of text that wraps nowhere"`, "<enter>")
	s.waitFor("flooding the terminal")
	var lat []time.Duration
	zoomed := false
	for b.Loop() {
		t0 := time.Now()
		s.keys("z")
		zoomed = !zoomed
		for {
			listShown := strings.Contains(s.term.Snapshot().Text(), "─ Jobs ")
			if listShown != zoomed {
				break
			}
			if time.Since(t0) > 10*time.Second {
				b.Fatalf("z had no effect in 10 s (zoomed %v)", zoomed)
			}
			time.Sleep(time.Millisecond)
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}
