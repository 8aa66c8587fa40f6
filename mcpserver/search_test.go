package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/search"
)

// searchSession serves the search tools with c over an in-memory transport.
func searchSession(t *testing.T, c search.Config) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "tend-search-test", Version: "test"}, nil)
	addSearchToolsWith(s, func(_ *mcp.CallToolRequest, p string) string { return p }, c)
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
	if msg := searchCall(t, cs, "terminal_rg", map[string]any{"pattern": "Alpha", "path": root, "context": 1}, &rg); msg != "" {
		t.Fatalf("terminal_rg: tool error %s", msg)
	}
	want := rgOutput{Matches: []rgMatch{{Path: "a.go", Line: 3, Text: "func Alpha() {}", Before: []string{""}}}, Total: 1, Engine: engine}
	if !reflect.DeepEqual(rg, want) {
		t.Errorf("terminal_rg:\n got %+v\nwant %+v", rg, want)
	}
	var glob globOutput
	if msg := searchCall(t, cs, "terminal_glob", map[string]any{"pattern": "*.go", "path": root}, &glob); msg != "" {
		t.Fatalf("terminal_glob: tool error %s", msg)
	}
	if want := (globOutput{Paths: []string{"a.go", "sub/b.go"}, Count: 2}); !reflect.DeepEqual(glob, want) {
		t.Errorf("terminal_glob:\n got %+v\nwant %+v", glob, want)
	}

	// nothing found is an empty list, not null
	for tool, args := range map[string]map[string]any{
		"terminal_rg":   {"pattern": "nowhere", "path": root},
		"terminal_glob": {"pattern": "*.rs", "path": root},
	} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
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
		var out any
		if msg := searchCall(t, cs, tc.tool, tc.args, &out); msg != tc.err.Error() {
			t.Errorf("%s %v: tool error %q, want %q", tc.tool, tc.args, msg, tc.err)
		}
	}
}
