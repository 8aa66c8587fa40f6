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
// ≤ 5 ms for commands ≤ 4 KiB, ≤ 50 ms for 64 KiB) and logs it with -v.
// It only reports: wall-clock figures on a shared machine (other test
// binaries, a fuzzer, -race) are not a pass/fail signal; the 50 ms budget
// inside Classify is the enforced bound. Skipped under -short.
//
//	go test -run TestLatency -v ./policy
func TestLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("latency measurement")
	}
	rows := loadCorpus(t)
	rounds, bigRounds := 20, 10
	if raceEnabled {
		rounds, bigRounds = 3, 2 // only the shape matters under -race
	}
	var lat []time.Duration
	for range rounds {
		for _, r := range rows {
			start := time.Now()
			Classify(r.cmd, testEnv)
			lat = append(lat, time.Since(start))
		}
	}
	slices.Sort(lat)
	var big, mid []time.Duration
	for range bigRounds {
		start := time.Now()
		Classify(benchCommands["64KiB"], testEnv)
		big = append(big, time.Since(start))
		start = time.Now()
		Classify(benchCommands["4KiB"], testEnv)
		mid = append(mid, time.Since(start))
	}
	slices.Sort(big)
	slices.Sort(mid)
	t.Logf("corpus: %d classifications, p50 %v, p99 %v, max %v (race %v)", len(lat), lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1], raceEnabled)
	t.Logf("4 KiB: median %v, max %v; 64 KiB: median %v, max %v", mid[len(mid)/2], mid[len(mid)-1], big[len(big)/2], big[len(big)-1])
}
