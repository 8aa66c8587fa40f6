package search

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// BenchmarkSearch compares the Go walk with ripgrep on the Go module cache:
//
//	go test -bench Search -run '^$' ./search
//
// Each engine runs the whole of Grep, with the result cap lifted so that both
// search everything. TEND_SEARCH_BENCH_DIR names another tree to search (e.g.
// $(go env GOROOT)).
func BenchmarkSearch(b *testing.B) {
	dir := os.Getenv("TEND_SEARCH_BENCH_DIR")
	if dir == "" {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if dir = strings.TrimSpace(string(out)); err != nil || dir == "" {
			b.Skip("no GOMODCACHE")
		}
	}
	rg, rgErr := exec.LookPath("rg")
	for _, bc := range []struct {
		name string
		opts GrepOptions
	}{
		{"literal", GrepOptions{Pattern: "func New"}},
		{"regexp", GrepOptions{Pattern: `^func \(\w+ \*?[A-Z]\w*\) Close\(\) error`}},
		{"ignore_case", GrepOptions{Pattern: "func new", IgnoreCase: true}},
		{"context", GrepOptions{Pattern: "func New", Context: 3, TypeFilter: "go"}},
	} {
		bc.opts.Path = dir
		for _, engine := range []string{"go", "rg"} {
			b.Run(bc.name+"/"+engine, func(b *testing.B) {
				o := bc.opts
				o.Config = Config{MaxMatches: 1 << 30, MaxOutput: 1 << 30, NoRG: true}
				if engine == "rg" {
					if rgErr != nil {
						b.Skip("rg is not on PATH")
					}
					o.Config.RG, o.Config.NoRG = rg, false
				}
				matches := 0
				for b.Loop() {
					res, err := Grep(b.Context(), o)
					if err != nil {
						b.Fatal(err)
					}
					if res.Engine != engine || res.Truncated {
						b.Fatalf("engine %s, truncated %v: %s", res.Engine, res.Truncated, res.Note)
					}
					matches = len(res.Matches)
				}
				b.ReportMetric(float64(matches), "matches")
			})
		}
	}
}
