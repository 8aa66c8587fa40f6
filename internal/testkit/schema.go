package testkit

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CheckResults makes client check every structured result of a tool call
// against the output schema its tool declares, failing t where one does
// not conform. tend encodes its results itself rather than have the SDK
// check them on every call, so this is where they are checked.
func CheckResults(t testing.TB, client *mcp.Client) {
	var (
		mu      sync.Mutex
		schemas map[string]*jsonschema.Resolved
	)
	load := func(ctx context.Context, cs *mcp.ClientSession) (map[string]*jsonschema.Resolved, error) {
		mu.Lock()
		defer mu.Unlock()
		if schemas != nil {
			return schemas, nil
		}
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			return nil, err
		}
		m := map[string]*jsonschema.Resolved{}
		for _, tool := range res.Tools {
			if tool.OutputSchema == nil {
				continue
			}
			b, _ := json.Marshal(tool.OutputSchema)
			var s jsonschema.Schema
			if err := json.Unmarshal(b, &s); err != nil {
				return nil, fmt.Errorf("%s's output schema: %w", tool.Name, err)
			}
			r, err := s.Resolve(nil)
			if err != nil {
				return nil, fmt.Errorf("%s's output schema: %w", tool.Name, err)
			}
			m[tool.Name] = r
		}
		schemas = m
		return m, nil
	}
	client.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			params, isCall := req.GetParams().(*mcp.CallToolParams)
			cs, isClient := req.GetSession().(*mcp.ClientSession)
			out, isResult := res.(*mcp.CallToolResult)
			if err != nil || !isCall || !isClient || !isResult || out.IsError || out.StructuredContent == nil {
				return res, err
			}
			m, lerr := load(ctx, cs)
			if lerr != nil {
				t.Errorf("tools/list for the output schemas: %v", lerr)
				return res, err
			}
			s, ok := m[params.Name]
			if !ok {
				t.Errorf("%s returned structured content but declares no output schema", params.Name)
				return res, err
			}
			b, _ := json.Marshal(out.StructuredContent)
			var v any
			if jerr := json.Unmarshal(b, &v); jerr != nil {
				t.Errorf("%s: structured content is not JSON: %v", params.Name, jerr)
			} else if verr := s.Validate(v); verr != nil {
				t.Errorf("%s: result does not conform to its output schema: %v\n%s", params.Name, verr, b)
			}
			return res, err
		}
	})
}
