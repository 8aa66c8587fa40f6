package search

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp/syntax"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testFiles is the scratch tree of the tests: ignore files at several
// depths, hidden and binary files, dependency directories.
var testFiles = map[string]string{
	".gitignore":                "*.log\nbuild/\n/only-root.txt\n!keep.log\nsecret*\ndocs/**/gen.go\n# a comment\n\n",
	"a.go":                      "package a\n\nfunc Alpha() {}\n// TODO: one\n",
	"keep.log":                  "TODO keep (re-included by !keep.log)\n",
	"debug.log":                 "TODO debug (ignored)\n",
	"only-root.txt":             "TODO root (ignored: anchored)\n",
	"secret.env":                "TODO secret (ignored)\n",
	"build/x.go":                "TODO build dir (ignored: dir-only)\n",
	"docs/gen.go":               "TODO docs gen (ignored: **)\n",
	"docs/a/b/gen.go":           "TODO docs deep gen (ignored: **)\n",
	"docs/a/b/guide.md":         "TODO guide\n",
	"sub/only-root.txt":         "TODO sub root (kept: the anchored line is the root's)\n",
	"sub/build":                 "TODO a file named build (kept: the line is dir-only)\n",
	"sub/.gitignore":            "*.txt\n!important.txt\n!only-root.txt\n",
	"sub/notes.txt":             "TODO notes (ignored by sub/.gitignore)\n",
	"sub/important.txt":         "TODO important (re-included)\n",
	"sub/deep/x.md":             "TODO deep\n",
	"sub/deep/.ignore":          "y.md\n",
	"sub/deep/y.md":             "TODO y (ignored by .ignore)\n",
	".hidden.go":                "TODO hidden file\n",
	".config/x.txt":             "TODO hidden dir\n",
	"node_modules/pkg/index.js": "TODO node_modules\n",
	"target/out.rs":             "TODO target\n",
	"web/app.ts":                "const x = 1 // TODO ts\n",
	"web/app.test.js":           "// TODO js\n",
	"bin.dat":                   "TODO before\x00binary\n",
	"crlf.txt":                  "TODO crlf\r\nnext\r\n",
	"badutf8.txt":               "TODO \xff\xfe bad\n",
	"bom16.txt":                 "\xff\xfeT\x00O\x00D\x00O\x00 \x00u\x00t\x00f\x001\x006\x00\n\x00",
	"long.txt":                  "TODO " + strings.Repeat("a", 2000) + "\n",
	"ctx/c.txt":                 "l1\nl2\nMARK 3\nl4\nMARK 5\nl6\nl7\nl8\nMARK 9\n",
	"ctx/edge.txt":              "MARK first\nl2\nMARK last",
	".git/HEAD":                 "TODO inside .git\n",
	"Makefile":                  "# TODO make\n",
}

func testTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range testFiles {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// grep runs Grep, failing the test on an error.
func grep(t *testing.T, o GrepOptions) GrepResult {
	t.Helper()
	res, err := Grep(t.Context(), o)
	if err != nil {
		t.Fatalf("Grep %+v: %v", o, err)
	}
	return res
}

// engines are the two engines as configurations; the rg one is nil when rg
// is not installed.
func engines(t *testing.T) map[string]*Config {
	t.Helper()
	es := map[string]*Config{"go": {NoRG: true}, "rg": nil}
	if p, err := exec.LookPath("rg"); err == nil {
		es["rg"] = &Config{RG: p}
	}
	return es
}

func skipNoRG(t *testing.T, c *Config) {
	t.Helper()
	if c == nil {
		t.Skip("rg (ripgrep) is not on PATH, so only the Go engine is tested: install it (apt-get install ripgrep) to test the rg engine too")
	}
}

// matchPaths lists the files with matches, in the order of res.
func matchPaths(res GrepResult) []string {
	var ps []string
	for _, m := range res.Matches {
		if len(ps) == 0 || ps[len(ps)-1] != m.Path {
			ps = append(ps, m.Path)
		}
	}
	return ps
}

// sameMatches says whether a and b hold the same matches (none being none,
// nil or not).
func sameMatches(a, b []Match) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}

// TestRules checks what each engine searches on the scratch tree.
func TestRules(t *testing.T) {
	t.Parallel()
	root := testTree(t)
	for name, c := range engines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			for _, tc := range []struct {
				name string
				opts GrepOptions
				want []string // the files with matches
			}{
				{"default", GrepOptions{}, []string{
					"Makefile", "a.go", "bom16.txt", "crlf.txt", "badutf8.txt", "docs/a/b/guide.md", "keep.log", "long.txt",
					"sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt", "web/app.test.js", "web/app.ts",
				}},
				{"hidden", GrepOptions{Hidden: true}, []string{
					".config/x.txt", ".hidden.go", "Makefile", "a.go", "bom16.txt", "crlf.txt", "badutf8.txt", "docs/a/b/guide.md", "keep.log", "long.txt",
					"sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt", "web/app.test.js", "web/app.ts",
				}},
				{"no_ignore", GrepOptions{NoIgnore: true}, []string{
					"Makefile", "a.go", "bom16.txt", "build/x.go", "crlf.txt", "badutf8.txt", "debug.log", "docs/a/b/gen.go", "docs/a/b/guide.md", "docs/gen.go",
					"keep.log", "long.txt", "node_modules/pkg/index.js", "only-root.txt", "secret.env",
					"sub/build", "sub/deep/x.md", "sub/deep/y.md", "sub/important.txt", "sub/notes.txt", "sub/only-root.txt",
					"target/out.rs", "web/app.test.js", "web/app.ts",
				}},
				{"glob beats gitignore, not dirs", GrepOptions{Glob: "*.go", Hidden: true}, []string{".hidden.go", "a.go", "docs/a/b/gen.go", "docs/gen.go"}},
				{"glob beats gitignore", GrepOptions{Glob: "*.log"}, []string{"debug.log", "keep.log"}},
				{"glob exclude", GrepOptions{Glob: "!*.{txt,md,log}"}, []string{
					"Makefile", "a.go", "sub/build", "web/app.test.js", "web/app.ts",
				}},
				{"glob anchored", GrepOptions{Glob: "sub/**"}, []string{"sub/build", "sub/deep/x.md", "sub/deep/y.md", "sub/important.txt", "sub/notes.txt", "sub/only-root.txt"}},
				{"type", GrepOptions{TypeFilter: "go"}, []string{"a.go"}},
				{"types", GrepOptions{TypeFilter: "ts, javascript,make"}, []string{"Makefile", "web/app.test.js", "web/app.ts"}},
				{"max_depth", GrepOptions{MaxDepth: 1}, []string{"Makefile", "a.go", "bom16.txt", "crlf.txt", "badutf8.txt", "keep.log", "long.txt"}},
				{"subdir", GrepOptions{Path: "sub"}, []string{"build", "deep/x.md", "important.txt", "only-root.txt"}},
				{"file", GrepOptions{Path: "debug.log"}, []string{"debug.log"}},
				{"binary file given", GrepOptions{Path: "bin.dat"}, []string{"bin.dat"}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					o := tc.opts
					o.Pattern, o.Path, o.Config = "TODO", filepath.Join(root, o.Path), *c
					out := grep(t, o)
					if out.Engine != name {
						t.Errorf("engine = %q, want %q", out.Engine, name)
					}
					got := slices.Clone(matchPaths(out))
					want := slices.Clone(tc.want)
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Errorf("files with matches:\n got %q\nwant %q", got, want)
					}
					if out.Truncated {
						t.Errorf("%d matches, truncated", len(out.Matches))
					}
				})
			}
		})
	}
}

// TestLines checks the matches themselves: line numbers, text, context,
// max_count, anchors, long and odd lines.
func TestLines(t *testing.T) {
	t.Parallel()
	root := testTree(t)
	for name, c := range engines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			for _, tc := range []struct {
				name string
				opts GrepOptions
				want []Match
			}{
				{"context", GrepOptions{Pattern: "MARK", Path: "ctx/c.txt", Context: 2}, []Match{
					{Path: "c.txt", Line: 3, Text: "MARK 3", Before: []string{"l1", "l2"}, After: []string{"l4", "MARK 5"}},
					{Path: "c.txt", Line: 5, Text: "MARK 5", Before: []string{"MARK 3", "l4"}, After: []string{"l6", "l7"}},
					{Path: "c.txt", Line: 9, Text: "MARK 9", Before: []string{"l7", "l8"}},
				}},
				{"context at the edges", GrepOptions{Pattern: "MARK", Path: "ctx/edge.txt", Context: 3}, []Match{
					{Path: "edge.txt", Line: 1, Text: "MARK first", After: []string{"l2", "MARK last"}},
					{Path: "edge.txt", Line: 3, Text: "MARK last", Before: []string{"MARK first", "l2"}},
				}},
				{"max_count with context", GrepOptions{Pattern: "MARK", Path: "ctx", Context: 2, MaxCount: 1}, []Match{
					{Path: "c.txt", Line: 3, Text: "MARK 3", Before: []string{"l1", "l2"}, After: []string{"l4", "MARK 5"}},
					{Path: "edge.txt", Line: 1, Text: "MARK first", After: []string{"l2", "MARK last"}},
				}},
				{"anchors", GrepOptions{Pattern: `^MARK \d$`, Path: "ctx"}, []Match{
					{Path: "c.txt", Line: 3, Text: "MARK 3"}, {Path: "c.txt", Line: 5, Text: "MARK 5"}, {Path: "c.txt", Line: 9, Text: "MARK 9"},
				}},
				{"text anchors are line anchors", GrepOptions{Pattern: `\Al\d\z`, Path: "ctx/c.txt", MaxCount: 2}, []Match{
					{Path: "c.txt", Line: 1, Text: "l1"}, {Path: "c.txt", Line: 2, Text: "l2"},
				}},
				{"classes stay within a line", GrepOptions{Pattern: `l8\s*M|[^x]{4}MARK|(?s)l2.M`, Path: "ctx/c.txt"}, nil},
				{"ignore_case", GrepOptions{Pattern: "mark LAST", Path: "ctx", IgnoreCase: true}, []Match{
					{Path: "edge.txt", Line: 3, Text: "MARK last"},
				}},
				{"empty matches every line", GrepOptions{Pattern: "x*", Path: "ctx/edge.txt"}, []Match{
					{Path: "edge.txt", Line: 1, Text: "MARK first"}, {Path: "edge.txt", Line: 2, Text: "l2"}, {Path: "edge.txt", Line: 3, Text: "MARK last"},
				}},
				{"crlf", GrepOptions{Pattern: "crlf", Path: "crlf.txt"}, []Match{{Path: "crlf.txt", Line: 1, Text: "TODO crlf"}}},
				{"invalid utf-8", GrepOptions{Pattern: "bad", Path: "badutf8.txt"}, []Match{{Path: "badutf8.txt", Line: 1, Text: "TODO \uFFFD bad"}}},
				{"utf-16 with a BOM", GrepOptions{Pattern: "utf16", Path: "bom16.txt"}, []Match{{Path: "bom16.txt", Line: 1, Text: "TODO utf16"}}},
				{"long line", GrepOptions{Pattern: "TODO", Path: "long.txt"}, []Match{
					{Path: "long.txt", Line: 1, Text: "TODO " + strings.Repeat("a", 495) + " …[1505 more bytes]"},
				}},
				{"binary file given", GrepOptions{Pattern: "before", Path: "bin.dat"}, []Match{{Path: "bin.dat", Line: 1, Text: "TODO before\x00binary"}}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					o := tc.opts
					o.Path, o.Config = filepath.Join(root, o.Path), *c
					out := grep(t, o)
					if !sameMatches(out.Matches, tc.want) {
						t.Errorf("matches:\n got %+v\nwant %+v", out.Matches, tc.want)
					}
				})
			}
		})
	}
}

// TestEnginesAgree runs the same searches through both engines and wants the
// same results, on the scratch tree and on a real one.
func TestEnginesAgree(t *testing.T) {
	t.Parallel()
	es := engines(t)
	skipNoRG(t, es["rg"])
	root := testTree(t)
	// a git work tree: .git/info/exclude, and a .gitignore above it that must not apply
	for name, body := range map[string]string{
		"repo/.git/info/exclude": "*.tmp\n",
		"repo/a.tmp":             "TODO excluded\n",
		"repo/b.go":              "TODO in repo\n",
		"repo/x.log":             "TODO a log: the .gitignore above the repo does not apply\n",
		"repo/.rgignore":         "!x.log\nb.go\n",
		"repo/c.go":              "TODO c\n",
		"uni/ko.txt":             "xxx의 TODO\nxxx. a.b\n숫자 ٣٤ é\nnaïve café\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	modcache := ""
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		modcache = strings.TrimSpace(string(out))
	}
	calls := []GrepOptions{
		{Pattern: "TODO"},
		{Pattern: "TODO", Hidden: true, NoIgnore: true},
		{Pattern: "todo|mark", IgnoreCase: true, Context: 1},
		{Pattern: `\bTO.O\b`, Glob: "**/*.{go,md}"},
		{Pattern: "TODO", Path: "repo"},
		{Pattern: "TODO", Path: "sub", Glob: "!deep/"},
		{Pattern: "MARK", Context: 4, MaxCount: 2},
		{Pattern: "(?i)^[a-z]+ \\d$", MaxDepth: 2},
		{Pattern: `\bxxx\b|\w\s\d|[^\w\s]{2}|caf\W|\Qa.b\E`, Path: "uni"},
		{Pattern: `(?i)NAÏVE|\S+ \D+ é`, Path: "uni"},
	}
	for i := range calls {
		calls[i].Path = filepath.Join(root, calls[i].Path)
	}
	if modcache != "" && !testing.Short() {
		calls = append(calls,
			GrepOptions{Pattern: "func New", Path: modcache},
			GrepOptions{Pattern: `^func \(\w+ \*?[A-Z]\w*\) Close\(\) error`, Path: modcache, Context: 1},
			GrepOptions{Pattern: "Copyright", Path: modcache, TypeFilter: "go,md,yaml", MaxCount: 1},
		)
	}
	// no caps: which matches a capped rg keeps depends on its threads
	for _, c := range es {
		c.MaxMatches, c.MaxOutput = 1<<20, 1<<30
	}
	for _, o := range calls {
		var g, r GrepResult
		for try := 0; try < 2; try++ { // the module cache may change meanwhile (go get elsewhere)
			o.Config = *es["go"]
			g = grep(t, o)
			o.Config = *es["rg"]
			r = grep(t, o)
			if reflect.DeepEqual(g.Matches, r.Matches) {
				break
			}
		}
		if g.Engine != "go" || r.Engine != "rg" {
			t.Fatalf("engines %q and %q", g.Engine, r.Engine)
		}
		if len(r.Matches) == 0 || r.Truncated {
			t.Errorf("%+v: %d matches from rg, truncated %v: a poor comparison", o, len(r.Matches), r.Truncated)
		}
		if !reflect.DeepEqual(g.Matches, r.Matches) || g.Truncated != r.Truncated {
			t.Errorf("%+v: the engines differ:\n go (%d matches): %v\n rg (%d matches): %v", o, len(g.Matches), missing(g.Matches, r.Matches), len(r.Matches), missing(r.Matches, g.Matches))
		}
	}
}

// missing lists the first few matches of a that b lacks.
func missing(a, b []Match) []Match {
	var out []Match
	for _, m := range a {
		if !slices.ContainsFunc(b, func(n Match) bool { return reflect.DeepEqual(m, n) }) {
			out = append(out, m)
			if len(out) == 5 {
				break
			}
		}
	}
	return out
}

func TestErrors(t *testing.T) {
	t.Parallel()
	root := testTree(t)
	for name, c := range engines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			for _, tc := range []struct {
				opts GrepOptions
				want string
			}{
				{GrepOptions{Pattern: "(foo", Path: root}, "missing closing )"},
				{GrepOptions{Pattern: "a[z-a]", Path: root}, "invalid character class range"},
				{GrepOptions{Pattern: `foo\nbar`, Path: root}, "line break"},
				{GrepOptions{Pattern: "", Path: root}, "pattern is empty"},
				{GrepOptions{Pattern: "x", Path: filepath.Join(root, "nope")}, "does not exist"},
				{GrepOptions{Pattern: "x", Path: root, TypeFilter: "cobol"}, `unknown type "cobol"`},
				{GrepOptions{Pattern: "x", Path: root, Glob: "[a"}, "glob"},
				{GrepOptions{Pattern: "x", Path: root, Context: 99}, "context"},
			} {
				o := tc.opts
				o.Config = *c
				if _, err := Grep(t.Context(), o); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%+v: error %v, want one saying %q", tc.opts, err, tc.want)
				}
			}
		})
	}
}

func TestCap(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte(strings.Repeat("hit\n", 4)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range engines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			o := GrepOptions{Pattern: "hit", Path: root, Config: *c}
			o.Config.MaxMatches = 5
			out := grep(t, o)
			if len(out.Matches) != 5 || !out.Truncated || !strings.Contains(out.Note, "stopped at 5 matches") {
				t.Errorf("got %d matches, truncated %v, note %q; want 5, true and a note", len(out.Matches), out.Truncated, out.Note)
			}
			// exactly the cap is not truncated
			o.Config.MaxMatches = 12
			out = grep(t, o)
			if len(out.Matches) != 12 || out.Truncated || out.Note != "" {
				t.Errorf("at the cap: %d matches, truncated %v, note %q", len(out.Matches), out.Truncated, out.Note)
			}
			// the output size cap
			o.Config.MaxOutput = 100
			out = grep(t, o)
			if len(out.Matches) == 0 || len(out.Matches) >= 12 || !out.Truncated || !strings.Contains(out.Note, "output cut") {
				t.Errorf("output cap: %d matches, truncated %v, note %q", len(out.Matches), out.Truncated, out.Note)
			}
		})
	}
}

// slowRG writes a stand-in for rg that prints one file's results and then
// hangs. started is closed once it runs and gone once it has ended: it holds
// a FIFO open for writing, whose reader here sees the end of the file when
// the last writer (the stand-in) exits.
func slowRG(t *testing.T) (bin string, started, gone <-chan struct{}) {
	t.Helper()
	dir := t.TempDir()
	bin, fifo := filepath.Join(dir, "rg"), filepath.Join(dir, "alive")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	script := `#!/bin/sh
exec 3>` + fifo + `
printf '%s\n' '{"type":"begin","data":{"path":{"text":"./a.txt"}}}'
printf '%s\n' '{"type":"match","data":{"path":{"text":"./a.txt"},"lines":{"text":"hit\n"},"line_number":1}}'
printf '%s\n' '{"type":"end","data":{"path":{"text":"./a.txt"}}}'
exec sleep 30
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s, g := make(chan struct{}), make(chan struct{})
	go func() {
		f, err := os.Open(fifo) // returns once the stand-in opens it
		if err != nil {
			return
		}
		defer f.Close()
		close(s)
		_, _ = io.Copy(io.Discard, f)
		close(g)
	}()
	t.Cleanup(func() { // a stand-in that never ran: free the reader
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	return bin, s, g
}

// waitGone fails the test unless the stand-in rg ends soon.
func waitGone(t *testing.T, gone <-chan struct{}) {
	t.Helper()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the rg process is still running")
	}
}

func TestTimeLimit(t *testing.T) {
	t.Parallel()
	root := testTree(t)
	t.Run("rg", func(t *testing.T) {
		t.Parallel()
		bin, _, gone := slowRG(t)
		out := grep(t, GrepOptions{Pattern: "hit", Path: root, Config: Config{RG: bin, TimeLimit: 300 * time.Millisecond}})
		if out.Engine != "rg" || !out.Truncated || !strings.Contains(out.Note, "time limit of 300ms") || len(out.Matches) != 1 {
			t.Errorf("got engine %s, %d matches, truncated %v, note %q; want the one match before the limit, truncated, a note", out.Engine, len(out.Matches), out.Truncated, out.Note)
		}
		waitGone(t, gone)
	})
	t.Run("go", func(t *testing.T) {
		t.Parallel()
		c := Config{NoRG: true, TimeLimit: time.Nanosecond}
		out := grep(t, GrepOptions{Pattern: "TODO", Path: root, Config: c})
		if !out.Truncated || !strings.Contains(out.Note, "time limit") {
			t.Errorf("grep: truncated %v, note %q; want the time limit said", out.Truncated, out.Note)
		}
		g, err := Glob(t.Context(), GlobOptions{Pattern: "*.go", Path: root, Config: c})
		if err != nil {
			t.Fatal(err)
		}
		if !g.Truncated || !strings.Contains(g.Note, "time limit") {
			t.Errorf("glob: truncated %v, note %q; want the time limit said", g.Truncated, g.Note)
		}
	})
}

// TestCancel checks that a cancelled call ends rg.
func TestCancel(t *testing.T) {
	t.Parallel()
	bin, started, gone := slowRG(t)
	ctx, cancel := context.WithCancel(t.Context())
	go func() { // cancel once rg is running
		<-started
		cancel()
	}()
	_, err := Grep(ctx, GrepOptions{Pattern: "hit", Path: t.TempDir(), Config: Config{RG: bin}})
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("err = %v, want the cancel", err)
	}
	waitGone(t, gone)
}

// TestRGMissing checks the fallback when the rg given cannot run.
func TestRGMissing(t *testing.T) {
	t.Parallel()
	root := testTree(t)
	out := grep(t, GrepOptions{Pattern: "Alpha", Path: root, Config: Config{RG: filepath.Join(t.TempDir(), "no-such-rg")}})
	if out.Engine != "go" || len(out.Matches) != 1 || !strings.Contains(out.Note, "rg could not start") {
		t.Errorf("engine %q, %d matches, note %q; want the Go walk, one match, and a note", out.Engine, len(out.Matches), out.Note)
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	root := testTree(t)
	for _, tc := range []struct {
		opts GlobOptions
		want []string
	}{
		{GlobOptions{Pattern: "*.go"}, []string{"a.go"}},
		{GlobOptions{Pattern: "**/*.go", IncludeIgnored: true}, []string{"a.go", "build/x.go", "docs/a/b/gen.go", "docs/gen.go"}},
		{GlobOptions{Pattern: "*.md"}, []string{"docs/a/b/guide.md", "sub/deep/x.md"}},
		{GlobOptions{Pattern: "sub/*"}, []string{"sub/build", "sub/important.txt", "sub/only-root.txt"}},
		{GlobOptions{Pattern: "sub/**"}, []string{"sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt"}},
		{GlobOptions{Pattern: "sub/"}, []string{"sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt"}},
		{GlobOptions{Pattern: "/sub/deep/*.md", IncludeIgnored: true}, []string{"sub/deep/x.md", "sub/deep/y.md"}},
		{GlobOptions{Pattern: "app"}, []string{"web/app.test.js", "web/app.ts"}},
		{GlobOptions{Pattern: "Makefile"}, []string{"Makefile"}},
		{GlobOptions{Pattern: "web/*.{ts,js}"}, []string{"web/app.test.js", "web/app.ts"}},
		{GlobOptions{Pattern: "*"}, []string{
			"Makefile", "a.go", "badutf8.txt", "bin.dat", "bom16.txt", "crlf.txt", "ctx/c.txt", "ctx/edge.txt", "docs/a/b/guide.md",
			"keep.log", "long.txt", "sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt", "web/app.test.js", "web/app.ts",
		}},
		{GlobOptions{Pattern: "**/.*"}, []string{".gitignore", ".hidden.go", "sub/.gitignore", "sub/deep/.ignore"}},
		{GlobOptions{Pattern: ".config/**"}, []string{".config/x.txt"}},
		{GlobOptions{Pattern: "**/index.js"}, nil},
		{GlobOptions{Pattern: "**/index.js", IncludeIgnored: true}, []string{"node_modules/pkg/index.js"}},
		{GlobOptions{Pattern: "HEAD", IncludeIgnored: true}, nil},
		{GlobOptions{Pattern: "*.txt", Path: "sub"}, []string{"important.txt", "only-root.txt"}},
		{GlobOptions{Pattern: filepath.Join(root, "ctx", "*.txt")}, []string{"ctx/c.txt", "ctx/edge.txt"}},
		{GlobOptions{Pattern: "*", MaxResults: 3}, []string{"Makefile", "a.go", "badutf8.txt"}},
	} {
		o := tc.opts
		o.Path = filepath.Join(root, o.Path)
		out, err := Glob(t.Context(), o)
		if err != nil {
			t.Errorf("%+v: %v", o, err)
			continue
		}
		if !slices.Equal(out.Paths, tc.want) {
			t.Errorf("%v:\n got %q\nwant %q", o.Pattern, out.Paths, tc.want)
		}
		if o.MaxResults > 0 != out.Truncated {
			t.Errorf("%v: truncated %v", o.Pattern, out.Truncated)
		}
	}
	for _, tc := range []struct {
		opts GlobOptions
		want string
	}{
		{GlobOptions{Pattern: "", Path: root}, "pattern is empty"},
		{GlobOptions{Pattern: "{a,b", Path: root}, "unclosed {"},
		{GlobOptions{Pattern: "/etc/*", Path: root}, "outside path"},
		{GlobOptions{Pattern: "../*.go", Path: root}, "goes up"},
		{GlobOptions{Pattern: "*", Path: filepath.Join(root, "a.go")}, "is a file"},
		{GlobOptions{Pattern: "*", Path: root, MaxResults: -1}, "max_results"},
	} {
		if _, err := Glob(t.Context(), tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one saying %q", tc.opts, err, tc.want)
		}
	}
}

func TestIgnoreRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line  string
		path  string
		isDir bool
		want  verdict
	}{
		{"*.log", "a.log", false, ignore},
		{"*.log", "x/y/a.log", false, ignore},
		{"*.log", "a.log.txt", false, none},
		{"!*.log", "x/a.log", false, whitelist},
		{"/a.log", "a.log", false, ignore},
		{"/a.log", "x/a.log", false, none},
		{"x/a.log", "x/a.log", false, ignore},
		{"x/a.log", "y/x/a.log", false, none},
		{"build/", "build", true, ignore},
		{"build/", "build", false, none},
		{"build/", "src/build", true, ignore},
		{"**/build", "a/b/build", false, ignore},
		{"a/**/b", "a/b", false, ignore},
		{"a/**/b", "a/x/y/b", false, ignore},
		{"a/**/b", "ab", false, none},
		{"a/**", "a/x/y", false, ignore},
		{"a/**", "a", true, none},
		{"doc/*.txt", "doc/x.txt", false, ignore},
		{"doc/*.txt", "doc/sub/x.txt", false, none},
		{"*.[ch]", "x.c", false, ignore},
		{"*.[!ch]", "x.c", false, none},
		{"*.[!ch]", "x.d", false, ignore},
		{"fo?.txt", "foo.txt", false, ignore},
		{"fo?.txt", "fo/.txt", false, none},
		{"*.{js,ts}", "a/b.ts", false, ignore},
		{`\#hash`, "#hash", false, ignore},
		{`\!bang`, "!bang", false, ignore},
		{"trailing   ", "trailing", false, ignore},
		{`space\ `, "space ", false, ignore},
		{"foo**bar", "fooxbar", false, ignore},
		{"[a-c]x", "bx", false, ignore},
		{"[]]x", "]x", false, ignore},
	} {
		r, ok, err := parseRule(tc.line)
		if err != nil || !ok {
			t.Errorf("%q: ok %v, err %v", tc.line, ok, err)
			continue
		}
		if got := (rules{r}).match(tc.path, tc.isDir); got != tc.want {
			t.Errorf("%q on %q (dir %v) = %v, want %v", tc.line, tc.path, tc.isDir, got, tc.want)
		}
	}
	for _, line := range []string{"", "   ", "# comment", "/"} {
		if _, ok, _ := parseRule(line); ok {
			t.Errorf("%q is a rule", line)
		}
	}
}

func TestExpandBraces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"a", []string{"a"}},
		{"*.{go,md}", []string{"*.go", "*.md"}},
		{"{a,b}/{c,d}", []string{"a/c", "a/d", "b/c", "b/d"}},
		{"x{a,{b,c}}y", []string{"xay", "xby", "xcy"}},
		{`\{a,b}`, []string{`\{a,b}`}},
		{"[{]a", []string{"[{]a"}},
	} {
		got, err := expandBraces(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := expandBraces(strings.Repeat("{a,b,c}", 6)); err == nil {
		t.Error("729 alternatives: no error")
	}
}

func TestBeforeBinary(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x", 99) + "\n" // 100 bytes
	block := strings.Repeat(line, binaryWindow/100)
	for _, tc := range []struct {
		name string
		data string
		want int
	}{
		{"text", "a\nb\n", 4},
		{"NUL in the first block", "a\nb\x00\n", 0},
		{"NUL in the second block", block + line + "\x00", len(block)},
		{"NUL in the third read", block + block + block + "\x00", 2 * len(block)},
		{"a long line", strings.Repeat("y", 100<<10) + "\n\x00", 0},
	} {
		if got := len(beforeBinary([]byte(tc.data))); got != tc.want {
			t.Errorf("%s: searched %d bytes, want %d", tc.name, got, tc.want)
		}
	}
}

func TestPathCompare(t *testing.T) {
	t.Parallel()
	ps := []string{"a.txt", "a/b", "a", "a/b/c", "a-b", "ab", "B"}
	slices.SortFunc(ps, pathCompare)
	want := []string{"B", "a", "a/b", "a/b/c", "a-b", "a.txt", "ab"}
	if !slices.Equal(ps, want) {
		t.Errorf("got %q, want %q", ps, want)
	}
}

func TestLiteral(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern    string
		ignoreCase bool
		want       string // the literals, fold ones in upper case
	}{
		{"func New", false, "func New"},
		{`^func \(\w+ \*?[A-Z]\w*\) Close\(\) error`, false, ") Close() error"},
		{"(foo)+barx", false, "barx"},
		{"x?abc", false, "abc"},
		{"TODO|FIXME", false, "TODO FIXME"},
		{"a+|b", false, "a b"},
		{"foo|.*", false, ""},
		{"a|b|c|d|e|f|g|h|i", false, ""},
		{"[ab]cd(ef|gh)", false, "cd"},
		{"[ab]c(ef|gh)", false, "ef gh"},
		{"func New", true, "FUNC NEW"},
		{"Close", true, "CLO"},    // s folds to long s
		{"Kelvin", true, "ELVIN"}, // K folds to the Kelvin sign
		{"a(?i:bcd)", false, "BCD"},
		{"ĳxy", true, "XY"},
		{"12", true, "12"},
	} {
		flags := syntax.Perl
		if tc.ignoreCase {
			flags |= syntax.FoldCase
		}
		re, err := syntax.Parse(tc.pattern, flags)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range required(re) {
			if l.fold {
				got = append(got, strings.ToUpper(string(l.b)))
			} else {
				got = append(got, string(l.b))
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q (ignore case %v): literals %q, want %q", tc.pattern, tc.ignoreCase, got, tc.want)
		}
	}
	var f finder
	data := []byte("x FUNC NEW then TODO and func new, Fixme")
	f.reset([]literal{{b: []byte("func new"), fold: true}, {b: []byte("TODO")}}, data)
	var at []int
	for from := 0; ; {
		i := f.find(from)
		if i < 0 {
			break
		}
		at, from = append(at, i), i+1
	}
	if want := []int{2, 16, 25}; !slices.Equal(at, want) {
		t.Errorf("found at %v, want %v", at, want)
	}
	src := []byte("Hello, WORLD! @[`{ ÀÉ 0123456789 AZaz")
	dst := make([]byte, len(src))
	lowerASCII(dst, src)
	if got, want := string(dst), "hello, world! @[`{ ÀÉ 0123456789 azaz"; got != want {
		t.Errorf("lower: %q, want %q", got, want)
	}
}

func TestRGPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`foo`, `foo`},
		{`\bfoo\b`, `(?-u:\b)foo(?-u:\b)`},
		{`\w+\s\d\W\S\D\B`, `(?-u:\w)+(?-u:\s)(?-u:\d)(?-u:\W)(?-u:\S)(?-u:\D)(?-u:\B)`},
		{`[\w.-]+@[^\s\d]`, `[0-9A-Za-z_.-]+@[^\t\n\x0C\r\x200-9]`},
		{`[\W]`, `[[:^word:]]`},
		{`[[:alpha:]\d]x\w`, `[[:alpha:]0-9]x(?-u:\w)`},
		{`[]\w]`, `[]0-9A-Za-z_]`},
		{`\\w \.\[\w`, `\\w \.\[(?-u:\w)`},
		{`\Qa.b\E+c`, `a\.b+c`},
		{`\Q(x`, `\(x`},
		{`\pL\p{Greek}\x{41}`, `\pL\p{Greek}\x{41}`},
	} {
		if got := rgPattern(tc.in); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestFileSize(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, body := range map[string]string{"small.txt": "hit\n", "big.txt": strings.Repeat("hit\n", 25)} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range engines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			cfg := *c
			cfg.MaxFileSize = 50
			out := grep(t, GrepOptions{Pattern: "hit", Path: root, Config: cfg})
			if got := matchPaths(out); !slices.Equal(got, []string{"small.txt"}) {
				t.Errorf("files searched: %q, want only small.txt (big.txt is over the limit)", got)
			}
			big, err := Grep(t.Context(), GrepOptions{Pattern: "hit", Path: filepath.Join(root, "big.txt"), Config: cfg})
			switch name {
			case "rg": // rg searches a file it is given whatever its size
				if err != nil || len(big.Matches) != 25 {
					t.Errorf("big.txt given: error %v, %d matches", err, len(big.Matches))
				}
			case "go":
				if err == nil || !strings.Contains(err.Error(), "terminal_exec with grep") {
					t.Errorf("big.txt given: error %v, want one pointing to grep", err)
				}
			}
		})
	}
}
