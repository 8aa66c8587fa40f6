package mcpserver

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What tend reads of a request's _meta (who the client is, whether it can
// ask its user) is what the SDK's accessors read, for every form the value
// can come in: as sent on the wire, typed in process, absent, malformed.
func TestRequestMetaAsTheSDKReadsIt(t *testing.T) {
	wire := func(v any) any { // a value as the SDK's decoding of a request leaves it
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	info := &mcp.Implementation{Name: "claude-code", Title: "Claude Code", Version: "2.1.0", WebsiteURL: "https://example.com"}
	caps := map[string]any{"elicitation": map[string]any{"form": map[string]any{}}, "roots": map[string]any{"listChanged": true}, "sampling": map[string]any{}}
	for name, meta := range map[string]mcp.Meta{
		"none":             nil,
		"empty":            {},
		"wire":             {mcp.MetaKeyClientInfo: wire(info), mcp.MetaKeyClientCapabilities: wire(caps)},
		"typed":            {mcp.MetaKeyClientInfo: info},
		"null":             {mcp.MetaKeyClientInfo: nil, mcp.MetaKeyClientCapabilities: nil},
		"no elicitation":   {mcp.MetaKeyClientCapabilities: map[string]any{"sampling": map[string]any{}}},
		"malformed":        {mcp.MetaKeyClientInfo: map[string]any{"name": 5}, mcp.MetaKeyClientCapabilities: "yes"},
		"elicitation null": {mcp.MetaKeyClientCapabilities: map[string]any{"elicitation": nil}},
		"name only":        {mcp.MetaKeyClientInfo: map[string]any{"name": "x"}},
		"every string":     {mcp.MetaKeyClientInfo: map[string]any{"name": "x", "title": "X", "description": "d", "version": "1", "websiteUrl": "u"}},
		"icons":            {mcp.MetaKeyClientInfo: map[string]any{"name": "x", "icons": []any{map[string]any{"src": "s"}}}},
		"unknown member":   {mcp.MetaKeyClientInfo: map[string]any{"name": "x", "os": "linux"}},
		"null member":      {mcp.MetaKeyClientInfo: map[string]any{"name": "x", "version": nil}},
		"invalid UTF-8":    {mcp.MetaKeyClientInfo: map[string]any{"name": "x\xff"}},
		"roots malformed":  {mcp.MetaKeyClientCapabilities: map[string]any{"roots": 5}},
	} {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: meta, Name: "terminal_exec"}}
		if got, want := requestClientInfo(req), req.ClientInfo(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: client info %+v, the SDK reads %+v", name, got, want)
		}
		got, want := requestCapabilities(req), req.ClientCapabilities()
		if (got == nil) != (want == nil) || got != nil && (got.Elicitation == nil) != (want.Elicitation == nil) {
			t.Errorf("%s: capabilities %+v, the SDK reads %+v", name, got, want)
		}
		if got, want := declaresElicitation(req), want != nil && want.Elicitation != nil; got != want {
			t.Errorf("%s: elicitation declared %v, the SDK reads %v", name, got, want)
		}
	}
}
