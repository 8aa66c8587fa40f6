package mcpserver

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// BenchmarkSearch compares the Go walk with ripgrep on the Go module cache:
//
//	go test -bench Search -run '^$' ./mcpserver
//
// Each engine runs the whole terminal_rg handler (no MCP transport), with the
// result cap lifted so that both search everything. TEND_SEARCH_BENCH_DIR
// names another tree to search (e.g. $(go env GOROOT)).
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
		in   rgInput
	}{
		{"literal", rgInput{Pattern: "func New"}},
		{"regexp", rgInput{Pattern: `^func \(\w+ \*?[A-Z]\w*\) Close\(\) error`}},
		{"ignore_case", rgInput{Pattern: "func new", IgnoreCase: true}},
		{"context", rgInput{Pattern: "func New", Context: 3, TypeFilter: "go"}},
	} {
		bc.in.Path = dir
		for _, engine := range []string{"go", "rg"} {
			b.Run(bc.name+"/"+engine, func(b *testing.B) {
				c := defaultSearchConfig()
				c.maxMatches, c.maxOutput = 1<<30, 1<<30
				c.rg = searchNoRG
				if engine == "rg" {
					if rgErr != nil {
						b.Skip("rg is not on PATH")
					}
					c.rg = rg
				}
				matches := 0
				for b.Loop() {
					_, res, err := c.rgTool(b.Context(), nil, bc.in)
					if err != nil {
						b.Fatal(err)
					}
					if res.Engine != engine || res.Truncated {
						b.Fatalf("engine %s, truncated %v: %s", res.Engine, res.Truncated, res.Note)
					}
					matches = res.Total
				}
				b.ReportMetric(float64(matches), "matches")
			})
		}
	}
}
