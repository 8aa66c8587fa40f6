package mcpserver

import (
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTool adds a tool whose input and output schemas are portable: no
// type arrays. The schema library gives every pointer and slice the type
// ["null", T]; stricter clients (and the MCP Inspector's --strict) refuse
// type arrays. An optional field (omitempty) is absent rather than null,
// so it takes T alone; a field always present that may be null keeps no
// type constraint, and its description says when it is null.
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	t.InputSchema = portable[In]()
	t.OutputSchema = portable[Out]()
	mcp.AddTool(srv, t, h)
}

func portable[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("mcpserver: schema: " + err.Error())
	}
	noNull(s, false)
	return s
}

// noNull removes "null" from s's types and those of the schemas within;
// required says s is a property its object always has.
func noNull(s *jsonschema.Schema, required bool) {
	if s == nil {
		return
	}
	if slices.Contains(s.Types, "null") {
		rest := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		switch {
		case required: // present and maybe null: any type
			s.Types = nil
		case len(rest) == 1:
			s.Type, s.Types = rest[0], nil
		default:
			s.Types = rest
		}
	}
	for name, p := range s.Properties {
		noNull(p, slices.Contains(s.Required, name))
	}
	noNull(s.Items, false)
	noNull(s.AdditionalProperties, false)
	for _, l := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, c := range l {
			noNull(c, false)
		}
	}
}
