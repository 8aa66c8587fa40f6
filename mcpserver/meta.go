package mcpserver

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// requestClientInfo is req.ClientInfo(), and requestCapabilities
// req.ClientCapabilities(), without the SDK's cost: a client of the
// 2026-07-28 protocol sends both in every request's _meta, and the SDK's
// accessors re-encode the value and decode it with a decoder that takes a
// 32 KiB buffer each time (with the SDK's own reading of each request, the
// garbage that set tend's collector going every few calls). These decode
// it with the standard library; like the SDK's, they fall back to what the
// session's initialize said when the request carries none, or one that
// does not decode.
func requestClientInfo(req *mcp.CallToolRequest) *mcp.Implementation {
	if ci := plainImplementation(req); ci != nil {
		return ci
	}
	var ci *mcp.Implementation
	if fromMeta(req, mcp.MetaKeyClientInfo, &ci) {
		return ci
	}
	if p := initializeParams(req); p != nil {
		return p.ClientInfo
	}
	return nil
}

// plainImplementation is the client info in req's _meta when it is the
// common kind, only strings under the names Implementation gives its
// string fields (as a client sends name and version), read without
// encoding and decoding it; else nil.
func plainImplementation(req *mcp.CallToolRequest) *mcp.Implementation {
	if req == nil || req.Params == nil {
		return nil
	}
	m, ok := req.Params.Meta[mcp.MetaKeyClientInfo].(map[string]any)
	if !ok {
		return nil
	}
	ci := &mcp.Implementation{}
	for k, v := range m {
		s, ok := v.(string)
		if !ok || !utf8.ValidString(s) { // the decoder would make it valid
			return nil
		}
		switch k {
		case "name":
			ci.Name = s
		case "title":
			ci.Title = s
		case "description":
			ci.Description = s
		case "version":
			ci.Version = s
		case "websiteUrl":
			ci.WebsiteURL = s
		default:
			return nil
		}
	}
	return ci
}

// declaresElicitation is requestCapabilities(req).Elicitation != nil,
// without decoding the capabilities when they plainly say no: the
// request's have no elicitation, and neither have the initialize's, which
// would stand in for capabilities that did not decode.
func declaresElicitation(req *mcp.CallToolRequest) bool {
	if req != nil && req.Params != nil {
		if m, ok := req.Params.Meta[mcp.MetaKeyClientCapabilities].(map[string]any); ok && m["elicitation"] == nil {
			if p := initializeParams(req); p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
				return false
			}
		}
	}
	caps := requestCapabilities(req)
	return caps != nil && caps.Elicitation != nil
}

func requestCapabilities(req *mcp.CallToolRequest) *mcp.ClientCapabilities {
	// The _meta form adds a field (roots) to the initialize form, whose
	// other fields it shares: the ones read here.
	var caps *mcp.ClientCapabilities
	if fromMeta(req, mcp.MetaKeyClientCapabilities, &caps) {
		return caps
	}
	if p := initializeParams(req); p != nil {
		return p.Capabilities
	}
	return nil
}

// fromMeta decodes the value under key in req's _meta into *v (a pointer
// to a pointer to the type), reporting whether there was one that decoded.
func fromMeta[T any](req *mcp.CallToolRequest, key string, v **T) bool {
	if req == nil || req.Params == nil {
		return false
	}
	raw, ok := req.Params.Meta[key]
	if !ok || raw == nil {
		return false
	}
	if t, ok := raw.(*T); ok { // set in process, as it is
		*v = t
		return t != nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return false
	}
	*v = new(T)
	return json.Unmarshal(b, *v) == nil
}

func initializeParams(req *mcp.CallToolRequest) *mcp.InitializeParams {
	if req == nil || req.Session == nil {
		return nil
	}
	return req.Session.InitializeParams()
}
