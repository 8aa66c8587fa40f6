package mcpserver

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/internal/testkit"
	"tend/search"
)

// searchSession serves the search tools with c over an in-memory transport.
func searchSession(t *testing.T, c search.Config) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "tend-search-test", Version: "test"}, nil)
	addSearchToolsWith(s, func(_ *mcp.CallToolRequest, p string) string { return p }, c)
	return testkit.Connect(t, s, "search-test-client", nil)
}

func TestSearchToolList(t *testing.T) {
	t.Parallel()
	cs := searchSession(t, search.Config{})
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

// TestSearchTools makes one call to each tool and checks the whole result as
// the client sees it.
func TestSearchTools(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, body := range map[string]string{"a.go": "package a\n\nfunc Alpha() {}\n", "sub/b.go": "package b\n"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	engine := "go"
	if _, err := exec.LookPath("rg"); err == nil {
		engine = "rg"
	}
	cs := searchSession(t, search.Config{})

	var rg rgOutput
	testkit.CallOK(t, cs, "terminal_rg", map[string]any{"pattern": "Alpha", "path": root, "context": 1}, &rg)
	want := rgOutput{Matches: []rgMatch{{Path: "a.go", Line: 3, Text: "func Alpha() {}", Before: []string{""}}}, Total: 1, Engine: engine}
	if !reflect.DeepEqual(rg, want) {
		t.Errorf("terminal_rg:\n got %+v\nwant %+v", rg, want)
	}
	var glob globOutput
	testkit.CallOK(t, cs, "terminal_glob", map[string]any{"pattern": "*.go", "path": root}, &glob)
	if want := (globOutput{Paths: []string{"a.go", "sub/b.go"}, Count: 2}); !reflect.DeepEqual(glob, want) {
		t.Errorf("terminal_glob:\n got %+v\nwant %+v", glob, want)
	}

	// nothing found is an empty list, not null
	for tool, args := range map[string]map[string]any{
		"terminal_rg":   {"pattern": "nowhere", "path": root},
		"terminal_glob": {"pattern": "*.rs", "path": root},
	} {
		var data json.RawMessage
		testkit.CallOK(t, cs, tool, args, &data)
		if !strings.Contains(string(data), `":[]`) {
			t.Errorf("%s with nothing found: %s", tool, data)
		}
	}
}

// TestSearchToolError checks that an error from search is a tool error
// carrying search's sentence.
func TestSearchToolError(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	cs := searchSession(t, search.Config{})
	_, grepErr := search.Grep(t.Context(), search.GrepOptions{Pattern: "(foo", Path: root})
	_, globErr := search.Glob(t.Context(), search.GlobOptions{Pattern: "../*.go", Path: root})
	for _, tc := range []struct {
		tool string
		args map[string]any
		err  error
	}{
		{"terminal_rg", map[string]any{"pattern": "(foo", "path": root}, grepErr},
		{"terminal_glob", map[string]any{"pattern": "../*.go", "path": root}, globErr},
	} {
		if tc.err == nil {
			t.Fatalf("%s %v: search gave no error", tc.tool, tc.args)
		}
		if res := testkit.Call(t, cs, tc.tool, tc.args, nil); !res.IsError || testkit.Text(res) != tc.err.Error() {
			t.Errorf("%s %v: tool error %v %q, want %q", tc.tool, tc.args, res.IsError, testkit.Text(res), tc.err)
		}
	}
}
