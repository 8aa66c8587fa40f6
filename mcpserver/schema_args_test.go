package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
