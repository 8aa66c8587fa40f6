package mcpserver

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/internal/testkit"
)

// A held command is put to the client's user over every transport and
// revision, HTTP's sessionless 2026-07-28 included; the answer reaches the
// gate. A forged or stale answer is refused.
func TestElicitationOverEveryRevision(t *testing.T) {
	t.Parallel()
	gate := func(_ context.Context, r engine.GateRequest) engine.Verdict {
		if r.Answered == nil || r.Answered.Decision != "allow" {
			return engine.Verdict{Deny: "not approved"}
		}
		return engine.Verdict{Approval: r.Answered}
	}
	e := newEngine(t, engine.Config{Gate: gate})
	s := New(e, Options{WouldAsk: func(command, _ string, _ engine.Origin) ([]string, bool) {
		return []string{"a test"}, strings.HasPrefix(command, "echo held")
	}})
	ln, err := ListenLoopback(0)
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: s.HTTPHandler(HTTPOptions{Token: testToken})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })

	var asked atomic.Int32
	var answer atomic.Value
	copts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": answer.Load().(string)}}, nil
	}}
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		cs := testkit.ConnectHTTPWith(t, URL(ln), testToken, "asker", version, copts)
		for _, a := range []string{"approve", "deny"} {
			answer.Store(a)
			before := asked.Load()
			var out struct {
				Stdout         string `json:"stdout"`
				SemanticStatus string `json:"semantic_status"`
			}
			testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo held"}, &out)
			if asked.Load() != before+1 {
				t.Errorf("%s %s: the user was asked %d times", version, a, asked.Load()-before)
			}
			if want := map[string]string{"approve": "ok", "deny": "denied"}[a]; out.SemanticStatus != want {
				t.Errorf("%s %s: %+v", version, a, out)
			}
		}
	}
	// An answer with a forged state is refused: nothing runs.
	cs := testkit.ConnectHTTPWith(t, URL(ln), testToken, "forger", "", copts)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "echo held"},
		InputResponses: mcp.InputResponseMap{approvalInput: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "approve"}}},
		RequestState:   "9999999999.forged"})
	if err == nil && (!res.IsError || !strings.Contains(testkit.Text(res), "does not match the question")) {
		t.Fatalf("a forged answer was taken: %+v", res)
	}
}
