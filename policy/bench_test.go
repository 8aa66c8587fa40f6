package policy

import (
	"slices"
	"strings"
	"testing"
	"time"
)

var benchCommands = map[string]string{
	"simple":   "git status",
	"compound": "cd build && make -j8 && ./run-tests --verbose 2>&1 | tee log.txt",
	"wrapped":  "sudo env FOO=1 timeout 5 bash -c 'rm -rf build/ && find . -name \"*.o\" -exec rm {} +'",
	"4KiB":     repeatTo("go test ./pkg/... && git add -A && rm -rf build/tmp ; ", 4<<10),
	"64KiB":    repeatTo("go test ./pkg/... && git add -A && rm -rf build/tmp ; ", 64<<10-1),
}

// repeatTo repeats unit up to n bytes, cut at a unit boundary.
func repeatTo(unit string, n int) string {
	return strings.Repeat(unit, n/len(unit))
}

func BenchmarkClassify(b *testing.B) {
	for _, name := range []string{"simple", "compound", "wrapped", "4KiB", "64KiB"} {
		cmd := benchCommands[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(cmd)))
			for b.Loop() {
				if r := Classify(cmd, testEnv); r.Class == Unparseable && !overran(r) {
					b.Fatalf("unparseable: %q", r.Reasons)
				}
			}
		})
	}
}

// TestLatency measures classification latency over the corpus (S4: p99
// ≤ 5 ms for commands ≤ 4 KiB) and the 64 KiB command (≤ 50 ms). It is
// skipped under -short; with -race the figures are only logged, since the
// race detector slows everything by an order of magnitude.
func TestLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("latency measurement")
	}
	rows := loadCorpus(t)
	var lat []time.Duration
	for range 20 {
		for _, r := range rows {
			start := time.Now()
			Classify(r.cmd, testEnv)
			lat = append(lat, time.Since(start))
		}
	}
	slices.Sort(lat)
	p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
	var big []time.Duration
	for range 10 {
		start := time.Now()
		Classify(benchCommands["64KiB"], testEnv)
		big = append(big, time.Since(start))
	}
	slices.Sort(big)
	t.Logf("corpus: %d classifications, p50 %v, p99 %v, max %v; 64 KiB: median %v, max %v",
		len(lat), p50, p99, lat[len(lat)-1], big[len(big)/2], big[len(big)-1])
	if raceEnabled {
		return
	}
	if p99 > 5*time.Millisecond {
		t.Errorf("p99 %v > 5 ms", p99)
	}
	if big[len(big)/2] > 50*time.Millisecond {
		t.Errorf("64 KiB median %v > 50 ms", big[len(big)/2])
	}
}
