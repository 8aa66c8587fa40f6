package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
//
// The arguments are read here too, as the SDK's typed tools read them
// (decoded, the schema's defaults applied, checked against it, then decoded
// into In), with the standard library: the SDK's decoder takes a 32 KiB
// buffer for each of its two reads, on every call. The input schemas allow
// no other members, so the standard library's leniency about the case of a
// member's name never reaches In: a "Command" fails the check.
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	in := portable[In]()
	t.InputSchema = in
	t.OutputSchema = portable[Out]()
	resolved, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic("mcpserver: schema of " + t.Name + ": " + err.Error())
	}
	failed := func(err error) *mcp.CallToolResult {
		var res mcp.CallToolResult
		res.SetError(err)
		return &res
	}
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := arguments[In](req.Params.Arguments, resolved)
		if err != nil {
			return failed(err), nil
		}
		res, out, err := h(ctx, req, args)
		if err != nil {
			if wire, ok := err.(*jsonrpc.Error); ok {
				return nil, wire
			}
			return failed(err), nil
		}
		if res != nil && (res.IsError || res.InputRequests != nil) {
			return res, nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return failed(fmt.Errorf("encoding the result: %w", err)), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		res.StructuredContent = json.RawMessage(b)
		if res.Content == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}} // for clients that read only text
		}
		return res, nil
	})
}

// arguments reads a call's arguments into an In as the SDK's typed tools
// do, with its words for what is wrong.
func arguments[In any](raw json.RawMessage, resolved *jsonschema.Resolved) (In, error) {
	var in In
	m := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return in, fmt.Errorf("validating \"arguments\": unmarshaling arguments: %w", err)
		}
	}
	var v any = m
	if err := resolved.ApplyDefaults(&v); err != nil {
		return in, fmt.Errorf("validating \"arguments\": applying schema defaults:\n%w", err)
	}
	if err := resolved.Validate(&v); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %v", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return in, fmt.Errorf("validating \"arguments\": marshalling with defaults: %v", err)
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return in, err
	}
	return in, nil
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
