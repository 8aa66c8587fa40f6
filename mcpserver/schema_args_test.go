package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/internal/testkit"
)

// A tool's arguments reach its handler as the SDK's typed tools would hand
// them on, and those it would refuse are refused with its words: the same
// calls to a tool added by addTool and to one added by mcp.AddTool, with
// the same input schema, give the same results.
func TestArgumentsAsTheSDKReadsThem(t *testing.T) {
	echo := func(_ context.Context, _ *mcp.CallToolRequest, in execInput) (*mcp.CallToolResult, execInput, error) {
		return nil, in, nil
	}
	ours := mcp.NewServer(&mcp.Implementation{Name: "s"}, nil)
	addTool(ours, &mcp.Tool{Name: "t"}, echo)
	sdks := mcp.NewServer(&mcp.Implementation{Name: "s"}, nil)
	mcp.AddTool(sdks, &mcp.Tool{Name: "t", InputSchema: portable[execInput](), OutputSchema: portable[execInput]()}, echo)
	a := testkit.Connect(t, ours, "a", nil)
	b := testkit.Connect(t, sdks, "b", nil)
	for _, args := range []string{
		`{"command":"echo hi"}`,
		`{"command":"echo hi","cwd":"/tmp","env":{"A":"1"},"timeout_sec":2.5,"auto_background_after_sec":0,"max_output_kb":3,"merge_stderr":true}`,
		`{"command":"echo hi","Command":"rm -rf ~"}`,
		`{"Command":"rm -rf ~"}`,
		`{"command":"a","command":"b"}`,
		`{}`,
		`null`,
		`{"command":5}`,
		`{"command":"x","env":{"A":1}}`,
		`{"command":"x","timeout_sec":"5"}`,
		`{"command":"x","unknown":true}`,
		`{"command":"x","sandbox":"nope"}`,
		`{"command":"x","limits":{"memory_mb":"a lot"}}`,
		`{"command":"x","max_output_kb":1.5}`,
	} {
		call := func(cs *mcp.ClientSession) string {
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t", Arguments: json.RawMessage(args)})
			if err != nil {
				return "error: " + err.Error()
			}
			if res.IsError {
				return "refused: " + testkit.Text(res)
			}
			b, _ := json.Marshal(res.StructuredContent) // as a map: its members sorted
			return string(b)
		}
		if got, want := call(a), call(b); got != want {
			t.Errorf("arguments %s:\n got %s\nwant %s", args, got, want)
		}
	}
	// Arguments that are no object: refused by both, in their decoders'
	// words (the standard library names the JSON type, the SDK's decoder
	// quotes the JSON).
	for _, cs := range []*mcp.ClientSession{a, b} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "t", Arguments: json.RawMessage(`[1]`)})
		if err != nil || !res.IsError || !strings.HasPrefix(testkit.Text(res), `validating "arguments": unmarshaling arguments: json: cannot unmarshal`) {
			t.Errorf("arguments [1]: %v %s", err, testkit.Text(res))
		}
	}
}

// Arguments read without the schema library (plainly of the schema's
// shape) are read as it would read them: no error, the same In.
func FuzzArgumentsPlain(f *testing.F) {
	for _, args := range []string{
		`{"command":"echo hi"}`,
		`{"command":"echo hi","cwd":"/tmp","env":{"A":"1","B":"\u00e9"},"timeout_sec":2.5,"auto_background_after_sec":0,"max_output_kb":3,"merge_stderr":true,"pty":false}`,
		`{"command":"x","limits":{"cpu_sec":1,"rss_mb":-0,"fsize_mb":99999999999999999999}}`,
		`{"command":"x","limits":{"cpu_sec":1.0}}`,
		`{"command":"x","max_output_kb":1e2}`,
		`{"command":"x","timeout_sec":1e400}`,
		`{"command":5,"command":"x"}`,
		`{"command":"x","command":5}`,
		`{"command":"a\ud800b","stdin":"\\"}`,
		`{"command":"x","env":null}`,
		`{"command":"x","cwd":null}`,
		`{"Command":"x"}`,
		`{"command":"x","env":{"A":1}}`,
		` {"command" : "x" } `,
		`{}`,
		`null`,
		`[1]`,
		`{"command":"x"`,
	} {
		f.Add([]byte(args))
	}
	in := portable[execInput]()
	resolved, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		f.Fatal(err)
	}
	sh := shapeOf(in)
	if sh == nil {
		f.Fatal("terminal_exec's input schema has no shape: every call goes through the schema library")
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !sh.plain(raw) {
			return
		}
		var fast execInput
		if json.Unmarshal(raw, &fast) != nil {
			return // it goes through the schema library too
		}
		slow, err := checked[execInput](raw, resolved)
		if err != nil {
			t.Fatalf("%s: read plainly as %+v, the schema library refuses it: %v", raw, fast, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%s: read plainly as %+v, through the schema library as %+v", raw, fast, slow)
		}
	})
}

// Which tools' arguments are read without the schema library when plain:
// those whose schemas are only a shape.
func TestShapes(t *testing.T) {
	t.Parallel()
	s := New(newEngine(t, engine.Config{}), Options{})
	cs := testkit.Connect(t, s.Server, "t", nil)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var shaped []string
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var sch jsonschema.Schema
		if err := json.Unmarshal(b, &sch); err != nil {
			t.Fatal(err)
		}
		if shapeOf(&sch) != nil {
			shaped = append(shaped, tool.Name)
		}
	}
	if !slices.Contains(shaped, "terminal_exec") {
		t.Errorf("tools read without the schema library: %v; terminal_exec is not one", shaped)
	}
	t.Logf("tools read without the schema library when plain: %v", shaped)
}
