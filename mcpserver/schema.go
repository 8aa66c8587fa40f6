package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTool adds a tool whose input and output schemas are portable: no
// type arrays. The schema library gives every pointer and slice the type
// ["null", T]; stricter clients (and the MCP Inspector's --strict) refuse
// type arrays, and some an untyped property too. So every field has its
// one type: a pointer field is omitempty (absent, never null), and a slice
// is sent as [] when empty.
//
// The result is encoded once, here: the SDK would otherwise encode it,
// decode it again to check it against the output schema (a schema made
// from the very type that was encoded), and encode it a second time; for a
// list of 200 jobs that was most of the call's cost. The tests check every
// result against its tool's schema instead (testkit.Connect).
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	t.InputSchema = portable[In]()
	t.OutputSchema = portable[Out]()
	mcp.AddTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, out, err := h(ctx, req, in)
		if err != nil || res != nil && (res.IsError || res.InputRequests != nil) {
			return res, nil, err
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, nil, fmt.Errorf("encoding the result: %w", err)
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		res.StructuredContent = json.RawMessage(b)
		if res.Content == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}} // for clients that read only text
		}
		return res, nil, nil
	})
}

func portable[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("mcpserver: schema: " + err.Error())
	}
	noNull(s)
	return s
}

// noNull removes "null" from the types of s and of the schemas within.
func noNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if slices.Contains(s.Types, "null") {
		rest := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(rest) == 1 {
			s.Type, s.Types = rest[0], nil
		} else {
			s.Types = rest
		}
	}
	for _, p := range s.Properties {
		noNull(p)
	}
	noNull(s.Items)
	noNull(s.AdditionalProperties)
	for _, l := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, c := range l {
			noNull(c)
		}
	}
}
