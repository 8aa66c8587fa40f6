package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// searchTestFiles is the scratch tree of the search tests: ignore files at
// several depths, hidden and binary files, dependency directories.
var searchTestFiles = map[string]string{
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

func searchTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range searchTestFiles {
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

func searchSession(t *testing.T, c searchConfig) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "tend-search-test", Version: "test"}, nil)
	addSearchToolsWith(s, c)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cl := mcp.NewClient(&mcp.Implementation{Name: "search-test-client", Version: "test"}, nil)
	cs, err := cl.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// searchCall calls a tool and decodes its structured result into out; it
// returns the tool error's text, or "".
func searchCall(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	if res.IsError {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s: decode %s: %v", tool, data, err)
	}
	return ""
}

func searchRG(t *testing.T, cs *mcp.ClientSession, args map[string]any) rgOutput {
	t.Helper()
	var out rgOutput
	if msg := searchCall(t, cs, "terminal_rg", args, &out); msg != "" {
		t.Fatalf("terminal_rg %v: tool error: %s", args, msg)
	}
	return out
}

// searchEngines are the two engines as configurations; the rg one is nil
// when rg is not installed.
func searchEngines(t *testing.T) map[string]*searchConfig {
	t.Helper()
	goCfg := defaultSearchConfig()
	goCfg.rg = searchNoRG
	engines := map[string]*searchConfig{"go": &goCfg, "rg": nil}
	if p, err := exec.LookPath("rg"); err == nil {
		rgCfg := defaultSearchConfig()
		rgCfg.rg = p
		engines["rg"] = &rgCfg
	}
	return engines
}

func skipNoRG(t *testing.T, c *searchConfig) {
	t.Helper()
	if c == nil {
		t.Skip("rg (ripgrep) is not on PATH, so only the Go engine is tested: install it (apt-get install ripgrep) to test the rg engine too")
	}
}

func searchPaths(out rgOutput) []string {
	var ps []string
	for _, m := range out.Matches {
		if len(ps) == 0 || ps[len(ps)-1] != m.Path {
			ps = append(ps, m.Path)
		}
	}
	return ps
}

// TestSearchRules checks what each engine searches on the scratch tree.
func TestSearchRules(t *testing.T) {
	t.Parallel()
	root := searchTree(t)
	for name, c := range searchEngines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			cs := searchSession(t, *c)
			for _, tc := range []struct {
				name string
				args map[string]any
				want []string // the files with matches
			}{
				{"default", map[string]any{}, []string{
					"Makefile", "a.go", "bom16.txt", "crlf.txt", "badutf8.txt", "docs/a/b/guide.md", "keep.log", "long.txt",
					"sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt", "web/app.test.js", "web/app.ts",
				}},
				{"hidden", map[string]any{"hidden": true}, []string{
					".config/x.txt", ".hidden.go", "Makefile", "a.go", "bom16.txt", "crlf.txt", "badutf8.txt", "docs/a/b/guide.md", "keep.log", "long.txt",
					"sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt", "web/app.test.js", "web/app.ts",
				}},
				{"no_ignore", map[string]any{"no_ignore": true}, []string{
					"Makefile", "a.go", "bom16.txt", "build/x.go", "crlf.txt", "badutf8.txt", "debug.log", "docs/a/b/gen.go", "docs/a/b/guide.md", "docs/gen.go",
					"keep.log", "long.txt", "node_modules/pkg/index.js", "only-root.txt", "secret.env",
					"sub/build", "sub/deep/x.md", "sub/deep/y.md", "sub/important.txt", "sub/notes.txt", "sub/only-root.txt",
					"target/out.rs", "web/app.test.js", "web/app.ts",
				}},
				{"glob beats gitignore, not dirs", map[string]any{"glob": "*.go", "hidden": true}, []string{".hidden.go", "a.go", "docs/a/b/gen.go", "docs/gen.go"}},
				{"glob beats gitignore", map[string]any{"glob": "*.log"}, []string{"debug.log", "keep.log"}},
				{"glob exclude", map[string]any{"glob": "!*.{txt,md,log}"}, []string{
					"Makefile", "a.go", "sub/build", "web/app.test.js", "web/app.ts",
				}},
				{"glob anchored", map[string]any{"glob": "sub/**"}, []string{"sub/build", "sub/deep/x.md", "sub/deep/y.md", "sub/important.txt", "sub/notes.txt", "sub/only-root.txt"}},
				{"type", map[string]any{"type_filter": "go"}, []string{"a.go"}},
				{"types", map[string]any{"type_filter": "ts, javascript,make"}, []string{"Makefile", "web/app.test.js", "web/app.ts"}},
				{"max_depth", map[string]any{"max_depth": 1}, []string{"Makefile", "a.go", "bom16.txt", "crlf.txt", "badutf8.txt", "keep.log", "long.txt"}},
				{"subdir", map[string]any{"path": "sub"}, []string{"build", "deep/x.md", "important.txt", "only-root.txt"}},
				{"file", map[string]any{"path": "debug.log"}, []string{"debug.log"}},
				{"binary file given", map[string]any{"path": "bin.dat"}, []string{"bin.dat"}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					args := map[string]any{"pattern": "TODO"}
					for k, v := range tc.args {
						args[k] = v
					}
					if p, ok := args["path"].(string); ok {
						args["path"] = filepath.Join(root, p)
					} else {
						args["path"] = root
					}
					out := searchRG(t, cs, args)
					if out.Engine != name {
						t.Errorf("engine = %q, want %q", out.Engine, name)
					}
					got := slices.Clone(searchPaths(out))
					want := slices.Clone(tc.want)
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Errorf("files with matches:\n got %q\nwant %q", got, want)
					}
					if out.Total != len(out.Matches) || out.Truncated {
						t.Errorf("total %d for %d matches, truncated %v", out.Total, len(out.Matches), out.Truncated)
					}
				})
			}
		})
	}
}

// TestSearchLines checks the matches themselves: line numbers, text,
// context, max_count, anchors, long and odd lines.
func TestSearchLines(t *testing.T) {
	t.Parallel()
	root := searchTree(t)
	for name, c := range searchEngines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			cs := searchSession(t, *c)
			for _, tc := range []struct {
				name string
				args map[string]any
				want []rgMatch
			}{
				{"context", map[string]any{"pattern": "MARK", "path": "ctx/c.txt", "context": 2}, []rgMatch{
					{Path: "c.txt", Line: 3, Text: "MARK 3", Before: []string{"l1", "l2"}, After: []string{"l4", "MARK 5"}},
					{Path: "c.txt", Line: 5, Text: "MARK 5", Before: []string{"MARK 3", "l4"}, After: []string{"l6", "l7"}},
					{Path: "c.txt", Line: 9, Text: "MARK 9", Before: []string{"l7", "l8"}},
				}},
				{"context at the edges", map[string]any{"pattern": "MARK", "path": "ctx/edge.txt", "context": 3}, []rgMatch{
					{Path: "edge.txt", Line: 1, Text: "MARK first", After: []string{"l2", "MARK last"}},
					{Path: "edge.txt", Line: 3, Text: "MARK last", Before: []string{"MARK first", "l2"}},
				}},
				{"max_count with context", map[string]any{"pattern": "MARK", "path": "ctx", "context": 2, "max_count": 1}, []rgMatch{
					{Path: "c.txt", Line: 3, Text: "MARK 3", Before: []string{"l1", "l2"}, After: []string{"l4", "MARK 5"}},
					{Path: "edge.txt", Line: 1, Text: "MARK first", After: []string{"l2", "MARK last"}},
				}},
				{"anchors", map[string]any{"pattern": `^MARK \d$`, "path": "ctx"}, []rgMatch{
					{Path: "c.txt", Line: 3, Text: "MARK 3"}, {Path: "c.txt", Line: 5, Text: "MARK 5"}, {Path: "c.txt", Line: 9, Text: "MARK 9"},
				}},
				{"text anchors are line anchors", map[string]any{"pattern": `\Al\d\z`, "path": "ctx/c.txt", "max_count": 2}, []rgMatch{
					{Path: "c.txt", Line: 1, Text: "l1"}, {Path: "c.txt", Line: 2, Text: "l2"},
				}},
				{"classes stay within a line", map[string]any{"pattern": `l8\s*M|[^x]{4}MARK|(?s)l2.M`, "path": "ctx/c.txt"}, nil},
				{"ignore_case", map[string]any{"pattern": "mark LAST", "path": "ctx", "ignore_case": true}, []rgMatch{
					{Path: "edge.txt", Line: 3, Text: "MARK last"},
				}},
				{"empty matches every line", map[string]any{"pattern": "x*", "path": "ctx/edge.txt"}, []rgMatch{
					{Path: "edge.txt", Line: 1, Text: "MARK first"}, {Path: "edge.txt", Line: 2, Text: "l2"}, {Path: "edge.txt", Line: 3, Text: "MARK last"},
				}},
				{"crlf", map[string]any{"pattern": "crlf", "path": "crlf.txt"}, []rgMatch{{Path: "crlf.txt", Line: 1, Text: "TODO crlf"}}},
				{"invalid utf-8", map[string]any{"pattern": "bad", "path": "badutf8.txt"}, []rgMatch{{Path: "badutf8.txt", Line: 1, Text: "TODO \uFFFD bad"}}},
				{"utf-16 with a BOM", map[string]any{"pattern": "utf16", "path": "bom16.txt"}, []rgMatch{{Path: "bom16.txt", Line: 1, Text: "TODO utf16"}}},
				{"long line", map[string]any{"pattern": "TODO", "path": "long.txt"}, []rgMatch{
					{Path: "long.txt", Line: 1, Text: "TODO " + strings.Repeat("a", 495) + " …[1505 more bytes]"},
				}},
				{"binary file given", map[string]any{"pattern": "before", "path": "bin.dat"}, []rgMatch{{Path: "bin.dat", Line: 1, Text: "TODO before\x00binary"}}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					tc.args["path"] = filepath.Join(root, tc.args["path"].(string))
					out := searchRG(t, cs, tc.args)
					if tc.want == nil {
						tc.want = []rgMatch{}
					}
					if !reflect.DeepEqual(out.Matches, tc.want) {
						t.Errorf("matches:\n got %+v\nwant %+v", out.Matches, tc.want)
					}
				})
			}
		})
	}
}

// TestSearchEnginesAgree runs the same searches through both engines and
// wants the same results, on the scratch tree and on a real one.
func TestSearchEnginesAgree(t *testing.T) {
	t.Parallel()
	engines := searchEngines(t)
	skipNoRG(t, engines["rg"])
	root := searchTree(t)
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
	type call = map[string]any
	calls := []call{
		{"pattern": "TODO"},
		{"pattern": "TODO", "hidden": true, "no_ignore": true},
		{"pattern": "todo|mark", "ignore_case": true, "context": 1},
		{"pattern": `\bTO.O\b`, "glob": "**/*.{go,md}"},
		{"pattern": "TODO", "path": "repo"},
		{"pattern": "TODO", "path": "sub", "glob": "!deep/"},
		{"pattern": "MARK", "context": 4, "max_count": 2},
		{"pattern": "(?i)^[a-z]+ \\d$", "max_depth": 2},
		{"pattern": `\bxxx\b|\w\s\d|[^\w\s]{2}|caf\W|\Qa.b\E`, "path": "uni"},
		{"pattern": `(?i)NAÏVE|\S+ \D+ é`, "path": "uni"},
	}
	for i := range calls {
		if calls[i]["path"] == nil {
			calls[i]["path"] = root
		} else {
			calls[i]["path"] = filepath.Join(root, calls[i]["path"].(string))
		}
	}
	if modcache != "" && !testing.Short() {
		calls = append(calls,
			call{"pattern": "func New", "path": modcache},
			call{"pattern": `^func \(\w+ \*?[A-Z]\w*\) Close\(\) error`, "path": modcache, "context": 1},
			call{"pattern": "Copyright", "path": modcache, "type_filter": "go,md,yaml", "max_count": 1},
		)
	}
	// no caps: which matches a capped rg keeps depends on its threads
	for _, c := range engines {
		c.maxMatches, c.maxOutput = 1<<20, 1<<30
	}
	goCS, rgCS := searchSession(t, *engines["go"]), searchSession(t, *engines["rg"])
	for _, args := range calls {
		var g, r rgOutput
		for try := 0; try < 2; try++ { // the module cache may change meanwhile (go get elsewhere)
			g, r = searchRG(t, goCS, args), searchRG(t, rgCS, args)
			if reflect.DeepEqual(g.Matches, r.Matches) {
				break
			}
		}
		if g.Engine != "go" || r.Engine != "rg" {
			t.Fatalf("engines %q and %q", g.Engine, r.Engine)
		}
		if len(r.Matches) == 0 || r.Truncated {
			t.Errorf("%v: %d matches from rg, truncated %v: a poor comparison", args, len(r.Matches), r.Truncated)
		}
		if !reflect.DeepEqual(g.Matches, r.Matches) || g.Truncated != r.Truncated {
			t.Errorf("%v: the engines differ:\n go (%d matches): %v\n rg (%d matches): %v", args, len(g.Matches), searchDiff(g.Matches, r.Matches), len(r.Matches), searchDiff(r.Matches, g.Matches))
		}
	}
}

// searchDiff lists the first few matches of a that b lacks.
func searchDiff(a, b []rgMatch) []rgMatch {
	var out []rgMatch
	for _, m := range a {
		if !slices.ContainsFunc(b, func(n rgMatch) bool { return reflect.DeepEqual(m, n) }) {
			out = append(out, m)
			if len(out) == 5 {
				break
			}
		}
	}
	return out
}

func TestSearchErrors(t *testing.T) {
	t.Parallel()
	root := searchTree(t)
	for name, c := range searchEngines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			cs := searchSession(t, *c)
			for _, tc := range []struct {
				args map[string]any
				want string
			}{
				{map[string]any{"pattern": "(foo", "path": root}, "missing closing )"},
				{map[string]any{"pattern": "a[z-a]", "path": root}, "invalid character class range"},
				{map[string]any{"pattern": `foo\nbar`, "path": root}, "line break"},
				{map[string]any{"pattern": "", "path": root}, "pattern is empty"},
				{map[string]any{"pattern": "x", "path": filepath.Join(root, "nope")}, "does not exist"},
				{map[string]any{"pattern": "x", "path": root, "type_filter": "cobol"}, `unknown type "cobol"`},
				{map[string]any{"pattern": "x", "path": root, "glob": "[a"}, "glob"},
				{map[string]any{"pattern": "x", "path": root, "context": 99}, "context"},
			} {
				var out rgOutput
				msg := searchCall(t, cs, "terminal_rg", tc.args, &out)
				if !strings.Contains(msg, tc.want) {
					t.Errorf("%v: tool error %q, want one saying %q", tc.args, msg, tc.want)
				}
			}
		})
	}
}

func TestSearchCap(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte(strings.Repeat("hit\n", 4)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range searchEngines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			cfg := *c
			cfg.maxMatches = 5
			cs := searchSession(t, cfg)
			out := searchRG(t, cs, map[string]any{"pattern": "hit", "path": root})
			if len(out.Matches) != 5 || out.Total != 5 || !out.Truncated || !strings.Contains(out.Note, "stopped at 5 matches") {
				t.Errorf("got %d matches, total %d, truncated %v, note %q; want 5, 5, true and a note", len(out.Matches), out.Total, out.Truncated, out.Note)
			}
			// exactly the cap is not truncated
			cfg.maxMatches = 12
			out = searchRG(t, searchSession(t, cfg), map[string]any{"pattern": "hit", "path": root})
			if len(out.Matches) != 12 || out.Truncated || out.Note != "" {
				t.Errorf("at the cap: %d matches, truncated %v, note %q", len(out.Matches), out.Truncated, out.Note)
			}
			// the output size cap
			cfg.maxOutput = 100
			out = searchRG(t, searchSession(t, cfg), map[string]any{"pattern": "hit", "path": root})
			if len(out.Matches) == 0 || len(out.Matches) >= 12 || !out.Truncated || !strings.Contains(out.Note, "output cut") {
				t.Errorf("output cap: %d matches, truncated %v, note %q", len(out.Matches), out.Truncated, out.Note)
			}
		})
	}
}

// searchSlowRG writes a stand-in for rg that prints one file's results and
// then hangs, noting its pid.
func searchSlowRG(t *testing.T) (bin, pidFile string) {
	t.Helper()
	dir := t.TempDir()
	bin, pidFile = filepath.Join(dir, "rg"), filepath.Join(dir, "pid")
	script := `#!/bin/sh
echo $$ > ` + pidFile + `
printf '%s\n' '{"type":"begin","data":{"path":{"text":"./a.txt"}}}'
printf '%s\n' '{"type":"match","data":{"path":{"text":"./a.txt"},"lines":{"text":"hit\n"},"line_number":1}}'
printf '%s\n' '{"type":"end","data":{"path":{"text":"./a.txt"}}}'
exec sleep 30
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, pidFile
}

// searchGone waits until the process in pidFile has ended.
func searchGone(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(data))
	deadline := time.Now().Add(5 * time.Second)
	for {
		st, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(st), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the rg process %s is still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSearchTimeLimit(t *testing.T) {
	t.Parallel()
	root := searchTree(t)
	t.Run("rg", func(t *testing.T) {
		t.Parallel()
		bin, pidFile := searchSlowRG(t)
		cfg := defaultSearchConfig()
		cfg.rg, cfg.timeLimit = bin, 300*time.Millisecond
		out := searchRG(t, searchSession(t, cfg), map[string]any{"pattern": "hit", "path": root})
		if out.Engine != "rg" || !out.Truncated || !strings.Contains(out.Note, "time limit of 300ms") || len(out.Matches) != 1 {
			t.Errorf("got engine %s, %d matches, truncated %v, note %q; want the one match before the limit, truncated, a note", out.Engine, len(out.Matches), out.Truncated, out.Note)
		}
		searchGone(t, pidFile)
	})
	t.Run("go", func(t *testing.T) {
		t.Parallel()
		cfg := defaultSearchConfig()
		cfg.rg, cfg.timeLimit = searchNoRG, time.Nanosecond
		cs := searchSession(t, cfg)
		out := searchRG(t, cs, map[string]any{"pattern": "TODO", "path": root})
		if !out.Truncated || !strings.Contains(out.Note, "time limit") {
			t.Errorf("rg: truncated %v, note %q; want the time limit said", out.Truncated, out.Note)
		}
		var g globOutput
		if msg := searchCall(t, cs, "terminal_glob", map[string]any{"pattern": "*.go", "path": root}, &g); msg != "" {
			t.Fatal(msg)
		}
		if !g.Truncated || !strings.Contains(g.Note, "time limit") {
			t.Errorf("glob: truncated %v, note %q; want the time limit said", g.Truncated, g.Note)
		}
	})
}

// TestSearchCancel checks that a cancelled call ends rg.
func TestSearchCancel(t *testing.T) {
	t.Parallel()
	bin, pidFile := searchSlowRG(t)
	cfg := defaultSearchConfig()
	cfg.rg = bin
	q, err := cfg.prepare(rgInput{Pattern: "hit", Path: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() { // cancel once rg is running
		for {
			if _, err := os.Stat(pidFile); err == nil {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	_, err = cfg.runRG(ctx, bin, q)
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("err = %v, want the cancel", err)
	}
	searchGone(t, pidFile)

	// the same through MCP: the client's cancel reaches the handler
	bin, pidFile = searchSlowRG(t)
	cfg.rg = bin
	cs := searchSession(t, cfg)
	ctx, cancel = context.WithCancel(t.Context())
	go func() {
		for {
			if _, err := os.Stat(pidFile); err == nil {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "terminal_rg", Arguments: map[string]any{"pattern": "hit", "path": t.TempDir()}})
	if err == nil {
		t.Error("a cancelled call returned no error")
	}
	searchGone(t, pidFile)
}

// TestSearchRGMissing checks the fallback when the rg given cannot run.
func TestSearchRGMissing(t *testing.T) {
	t.Parallel()
	root := searchTree(t)
	cfg := defaultSearchConfig()
	cfg.rg = filepath.Join(t.TempDir(), "no-such-rg")
	out := searchRG(t, searchSession(t, cfg), map[string]any{"pattern": "Alpha", "path": root})
	if out.Engine != "go" || len(out.Matches) != 1 || !strings.Contains(out.Note, "rg could not start") {
		t.Errorf("engine %q, %d matches, note %q; want the Go walk, one match, and a note", out.Engine, len(out.Matches), out.Note)
	}
}

func TestSearchGlob(t *testing.T) {
	t.Parallel()
	root := searchTree(t)
	cs := searchSession(t, defaultSearchConfig())
	for _, tc := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"pattern": "*.go"}, []string{"a.go"}},
		{map[string]any{"pattern": "**/*.go", "include_ignored": true}, []string{"a.go", "build/x.go", "docs/a/b/gen.go", "docs/gen.go"}},
		{map[string]any{"pattern": "*.md"}, []string{"docs/a/b/guide.md", "sub/deep/x.md"}},
		{map[string]any{"pattern": "sub/*"}, []string{"sub/build", "sub/important.txt", "sub/only-root.txt"}},
		{map[string]any{"pattern": "sub/**"}, []string{"sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt"}},
		{map[string]any{"pattern": "sub/"}, []string{"sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt"}},
		{map[string]any{"pattern": "/sub/deep/*.md", "include_ignored": true}, []string{"sub/deep/x.md", "sub/deep/y.md"}},
		{map[string]any{"pattern": "app"}, []string{"web/app.test.js", "web/app.ts"}},
		{map[string]any{"pattern": "Makefile"}, []string{"Makefile"}},
		{map[string]any{"pattern": "web/*.{ts,js}"}, []string{"web/app.test.js", "web/app.ts"}},
		{map[string]any{"pattern": "*"}, []string{
			"Makefile", "a.go", "badutf8.txt", "bin.dat", "bom16.txt", "crlf.txt", "ctx/c.txt", "ctx/edge.txt", "docs/a/b/guide.md",
			"keep.log", "long.txt", "sub/build", "sub/deep/x.md", "sub/important.txt", "sub/only-root.txt", "web/app.test.js", "web/app.ts",
		}},
		{map[string]any{"pattern": "**/.*"}, []string{".gitignore", ".hidden.go", "sub/.gitignore", "sub/deep/.ignore"}},
		{map[string]any{"pattern": ".config/**"}, []string{".config/x.txt"}},
		{map[string]any{"pattern": "**/index.js"}, nil},
		{map[string]any{"pattern": "**/index.js", "include_ignored": true}, []string{"node_modules/pkg/index.js"}},
		{map[string]any{"pattern": "HEAD", "include_ignored": true}, nil},
		{map[string]any{"pattern": "*.txt", "path": "sub"}, []string{"important.txt", "only-root.txt"}},
		{map[string]any{"pattern": filepath.Join(root, "ctx", "*.txt")}, []string{"ctx/c.txt", "ctx/edge.txt"}},
		{map[string]any{"pattern": "*", "max_results": 3}, []string{"Makefile", "a.go", "badutf8.txt"}},
	} {
		if p, ok := tc.args["path"].(string); ok {
			tc.args["path"] = filepath.Join(root, p)
		} else {
			tc.args["path"] = root
		}
		var out globOutput
		if msg := searchCall(t, cs, "terminal_glob", tc.args, &out); msg != "" {
			t.Errorf("%v: tool error %s", tc.args, msg)
			continue
		}
		if tc.want == nil {
			tc.want = []string{}
		}
		if !slices.Equal(out.Paths, tc.want) || out.Count != len(out.Paths) {
			t.Errorf("%v:\n got %q (count %d)\nwant %q", tc.args["pattern"], out.Paths, out.Count, tc.want)
		}
		if max, _ := tc.args["max_results"].(int); max > 0 != out.Truncated {
			t.Errorf("%v: truncated %v", tc.args["pattern"], out.Truncated)
		}
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"pattern": "", "path": root}, "pattern is empty"},
		{map[string]any{"pattern": "{a,b", "path": root}, "unclosed {"},
		{map[string]any{"pattern": "/etc/*", "path": root}, "outside path"},
		{map[string]any{"pattern": "../*.go", "path": root}, "goes up"},
		{map[string]any{"pattern": "*", "path": filepath.Join(root, "a.go")}, "is a file"},
		{map[string]any{"pattern": "*", "path": root, "max_results": -1}, "max_results"},
	} {
		var out globOutput
		if msg := searchCall(t, cs, "terminal_glob", tc.args, &out); !strings.Contains(msg, tc.want) {
			t.Errorf("%v: tool error %q, want one saying %q", tc.args, msg, tc.want)
		}
	}
}

func TestSearchToolList(t *testing.T) {
	t.Parallel()
	cs := searchSession(t, defaultSearchConfig())
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		data, err := json.Marshal(tool)
		if err != nil {
			t.Fatal(err)
		}
		if len(tool.Description) > 2048 || len(data) > 8192 {
			t.Errorf("%s: description %d bytes, whole tool %d bytes", tool.Name, len(tool.Description), len(data))
		}
		if !strings.Contains(string(data), `"required":["pattern"]`) {
			t.Errorf("%s: pattern is not required: %s", tool.Name, data)
		}
	}
	if !slices.Equal(names, []string{"terminal_glob", "terminal_rg"}) {
		t.Errorf("tools %q", names)
	}
}

func TestSearchIgnoreRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line  string
		path  string
		isDir bool
		want  searchVerdict
	}{
		{"*.log", "a.log", false, searchIgnore},
		{"*.log", "x/y/a.log", false, searchIgnore},
		{"*.log", "a.log.txt", false, searchNone},
		{"!*.log", "x/a.log", false, searchWhitelist},
		{"/a.log", "a.log", false, searchIgnore},
		{"/a.log", "x/a.log", false, searchNone},
		{"x/a.log", "x/a.log", false, searchIgnore},
		{"x/a.log", "y/x/a.log", false, searchNone},
		{"build/", "build", true, searchIgnore},
		{"build/", "build", false, searchNone},
		{"build/", "src/build", true, searchIgnore},
		{"**/build", "a/b/build", false, searchIgnore},
		{"a/**/b", "a/b", false, searchIgnore},
		{"a/**/b", "a/x/y/b", false, searchIgnore},
		{"a/**/b", "ab", false, searchNone},
		{"a/**", "a/x/y", false, searchIgnore},
		{"a/**", "a", true, searchNone},
		{"doc/*.txt", "doc/x.txt", false, searchIgnore},
		{"doc/*.txt", "doc/sub/x.txt", false, searchNone},
		{"*.[ch]", "x.c", false, searchIgnore},
		{"*.[!ch]", "x.c", false, searchNone},
		{"*.[!ch]", "x.d", false, searchIgnore},
		{"fo?.txt", "foo.txt", false, searchIgnore},
		{"fo?.txt", "fo/.txt", false, searchNone},
		{"*.{js,ts}", "a/b.ts", false, searchIgnore},
		{`\#hash`, "#hash", false, searchIgnore},
		{`\!bang`, "!bang", false, searchIgnore},
		{"trailing   ", "trailing", false, searchIgnore},
		{`space\ `, "space ", false, searchIgnore},
		{"foo**bar", "fooxbar", false, searchIgnore},
		{"[a-c]x", "bx", false, searchIgnore},
		{"[]]x", "]x", false, searchIgnore},
	} {
		r, ok, err := searchParseRule(tc.line)
		if err != nil || !ok {
			t.Errorf("%q: ok %v, err %v", tc.line, ok, err)
			continue
		}
		if got := (searchRules{r}).match(tc.path, tc.isDir); got != tc.want {
			t.Errorf("%q on %q (dir %v) = %v, want %v", tc.line, tc.path, tc.isDir, got, tc.want)
		}
	}
	for _, line := range []string{"", "   ", "# comment", "/"} {
		if _, ok, _ := searchParseRule(line); ok {
			t.Errorf("%q is a rule", line)
		}
	}
}

func TestSearchExpandBraces(t *testing.T) {
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
		got, err := searchExpandBraces(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := searchExpandBraces(strings.Repeat("{a,b,c}", 6)); err == nil {
		t.Error("729 alternatives: no error")
	}
}

func TestSearchBeforeBinary(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x", 99) + "\n" // 100 bytes
	block := strings.Repeat(line, searchBinaryWindow/100)
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
		if got := len(searchBeforeBinary([]byte(tc.data))); got != tc.want {
			t.Errorf("%s: searched %d bytes, want %d", tc.name, got, tc.want)
		}
	}
}

func TestSearchPathCompare(t *testing.T) {
	t.Parallel()
	ps := []string{"a.txt", "a/b", "a", "a/b/c", "a-b", "ab", "B"}
	slices.SortFunc(ps, searchPathCompare)
	want := []string{"B", "a", "a/b", "a/b/c", "a-b", "a.txt", "ab"}
	if !slices.Equal(ps, want) {
		t.Errorf("got %q, want %q", ps, want)
	}
}

func TestSearchLiteral(t *testing.T) {
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
		for _, l := range searchRequired(re) {
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
	var f searchFinder
	data := []byte("x FUNC NEW then TODO and func new, Fixme")
	f.reset([]searchLiteral{{b: []byte("func new"), fold: true}, {b: []byte("TODO")}}, data)
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
	searchLowerASCII(dst, src)
	if got, want := string(dst), "hello, world! @[`{ ÀÉ 0123456789 azaz"; got != want {
		t.Errorf("lower: %q, want %q", got, want)
	}
}

func TestSearchRGPattern(t *testing.T) {
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
		if got := searchRGPattern(tc.in); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestSearchFileSize(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, body := range map[string]string{"small.txt": "hit\n", "big.txt": strings.Repeat("hit\n", 25)} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range searchEngines(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipNoRG(t, c)
			cfg := *c
			cfg.maxFileSize = 50
			cs := searchSession(t, cfg)
			out := searchRG(t, cs, map[string]any{"pattern": "hit", "path": root})
			if got := searchPaths(out); !slices.Equal(got, []string{"small.txt"}) {
				t.Errorf("files searched: %q, want only small.txt (big.txt is over the limit)", got)
			}
			var big rgOutput
			msg := searchCall(t, cs, "terminal_rg", map[string]any{"pattern": "hit", "path": filepath.Join(root, "big.txt")}, &big)
			switch name {
			case "rg": // rg searches a file it is given whatever its size
				if msg != "" || len(big.Matches) != 25 {
					t.Errorf("big.txt given: error %q, %d matches", msg, len(big.Matches))
				}
			case "go":
				if !strings.Contains(msg, "terminal_exec with grep") {
					t.Errorf("big.txt given: error %q, want one pointing to grep", msg)
				}
			}
		})
	}
}
