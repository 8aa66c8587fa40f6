package mcpserver

import (
	"encoding/json"

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
	var ci *mcp.Implementation
	if fromMeta(req, mcp.MetaKeyClientInfo, &ci) {
		return ci
	}
	if p := initializeParams(req); p != nil {
		return p.ClientInfo
	}
	return nil
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
