package mcpserver

import (
	"bytes"
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
// member's name never reaches In: a "Command" fails the check. Arguments
// plainly of the schema's shape (each member one it names, each value of
// its type: see [shape]) are decoded into In at once, as the check would
// pass them and the schema has no defaults to apply; the rest go through
// the schema library, for its words about what is wrong.
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	in := portable[In]()
	t.InputSchema = in
	t.OutputSchema = portable[Out]()
	resolved, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic("mcpserver: schema of " + t.Name + ": " + err.Error())
	}
	sh := shapeOf(in)
	failed := func(err error) *mcp.CallToolResult {
		var res mcp.CallToolResult
		res.SetError(err)
		return &res
	}
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := arguments[In](req.Params.Arguments, resolved, sh)
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
// do, with its words for what is wrong; sh is the schema's shape, if it
// has one.
func arguments[In any](raw json.RawMessage, resolved *jsonschema.Resolved, sh *shape) (In, error) {
	if sh != nil && sh.plain(raw) {
		var in In
		if json.Unmarshal(raw, &in) == nil {
			return in, nil
		}
	}
	return checked[In](raw, resolved)
}

// checked is [arguments] through the schema library.
func checked[In any](raw json.RawMessage, resolved *jsonschema.Resolved) (In, error) {
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

// shape is what a schema made of type, properties, required and
// additionalProperties (and words: description, title) asks of a value,
// for checking arguments without the schema library, which walks the
// schema and the value by reflection, allocating as it goes, on every
// call: tens of microseconds a call.
type shape struct {
	typ      string            // object, string, number, integer or boolean
	props    map[string]*shape // an object's members, by exact name
	required []string
	extra    *shape // the other members' (additionalProperties); nil: none allowed
}

// shapeOf is s's shape, or nil when s asks for more than a shape says
// (an enum, a bound, a default, a reference …), or allows any other
// member.
func shapeOf(s *jsonschema.Schema) *shape {
	b, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	return shapeOfJSON(v)
}

func shapeOfJSON(v any) *shape {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	sh := &shape{}
	for k, x := range m {
		switch k {
		case "description", "title":
		case "type":
			t, _ := x.(string)
			switch t {
			case "object", "string", "number", "integer", "boolean":
				sh.typ = t
			default:
				return nil
			}
		case "properties":
			props, ok := x.(map[string]any)
			if !ok {
				return nil
			}
			sh.props = map[string]*shape{}
			for name, p := range props {
				if sh.props[name] = shapeOfJSON(p); sh.props[name] == nil {
					return nil
				}
			}
		case "required":
			names, ok := x.([]any)
			if !ok {
				return nil
			}
			for _, n := range names {
				name, ok := n.(string)
				if !ok {
					return nil
				}
				sh.required = append(sh.required, name)
			}
		case "additionalProperties":
			if x == false {
				continue
			}
			if sh.extra = shapeOfJSON(x); sh.extra == nil {
				return nil
			}
		default:
			return nil
		}
	}
	if sh.typ == "" || sh.typ == "object" && m["additionalProperties"] == nil {
		return nil
	}
	if sh.typ != "object" && (sh.props != nil || sh.required != nil || sh.extra != nil) {
		return nil
	}
	return sh
}

// plain reports whether v (valid JSON or not) is plainly of the shape:
// an object with only the members it names (by exact name), the required
// ones among them, each plainly of its shape; a string; a number; an
// integer written without a fraction or an exponent; true or false. What
// is not plain may still be valid (3.0 is an integer): the schema library
// says.
func (sh *shape) plain(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	number := v[0] == '-' || '0' <= v[0] && v[0] <= '9'
	switch sh.typ {
	case "string":
		return v[0] == '"'
	case "boolean":
		return v[0] == 't' || v[0] == 'f'
	case "number":
		return number
	case "integer":
		return number && !bytes.ContainsAny(v, ".eE")
	case "object":
		if v[0] != '{' {
			return false
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil {
			return false
		}
		for k, x := range m {
			p := sh.props[k]
			if p == nil {
				p = sh.extra
			}
			if p == nil || !p.plain(x) {
				return false
			}
		}
		for _, k := range sh.required {
			if _, ok := m[k]; !ok {
				return false
			}
		}
		return true
	}
	return false
}
