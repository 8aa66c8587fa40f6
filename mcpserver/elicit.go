package mcpserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
)

// approvalInput is the id of the one question tend asks a client.
const approvalInput = "approval"

// askUser asks the agent's own user, through the client's elicitation,
// about a command that would wait for a person when none watches tend:
// only when Options.WouldAsk says so and the client declared elicitation.
// On the first pass it returns the question (an input-required result,
// which the SDK also turns into an elicitation/create for clients of the
// older protocol); on the second it checks that the answer is to that very
// question and puts it in spec.Answered, for the gate to apply and record.
func (s *Server) askUser(req *mcp.CallToolRequest, spec *engine.Spec) (*mcp.CallToolResult, error) {
	if s.wouldAsk == nil {
		return nil, nil
	}
	if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
		return nil, nil
	}
	reasons, ask := s.wouldAsk(spec.Command, spec.Cwd, spec.Origin)
	if !ask {
		return nil, nil
	}
	state := s.questionState(spec)
	resp, answered := req.Params.InputResponses[approvalInput]
	if !answered {
		msg := fmt.Sprintf("tend: %s asks to run\n\n%s\n\nin %s\n\nwhy it needs you: %s", spec.Origin, spec.Command, spec.Cwd, strings.Join(reasons, "; "))
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{approvalInput: &mcp.ElicitParams{
				Mode: "form", Message: msg,
				RequestedSchema: map[string]any{
					"type": "object",
					"properties": map[string]any{
						"decision": map[string]any{"type": "string", "enum": []string{"approve", "deny"}, "title": "Run it?"},
						"reason":   map[string]any{"type": "string", "title": "Reason for the agent (with a denial)"},
					},
					"required": []string{"decision"},
				},
			}},
			RequestState: state,
		}, nil
	}
	if !hmac.Equal([]byte(req.Params.RequestState), []byte(state)) {
		return nil, errors.New("the answer to tend's question does not match the question asked: ask again without inputResponses")
	}
	r, ok := resp.(*mcp.ElicitResult)
	if !ok {
		return nil, errors.New("the answer to tend's question is not an elicitation result")
	}
	by := "the user, through " + spec.Origin.String() + "'s elicitation"
	a := &engine.Approval{Required: true, Decision: "deny", By: by}
	if r.Action == "accept" && r.Content["decision"] == "approve" {
		a.Decision = "allow"
	} else if reason, _ := r.Content["reason"].(string); reason != "" {
		a.Reason = reason
	} else if r.Action != "accept" {
		a.Reason = "the user chose " + r.Action
	}
	spec.Answered = a
	return nil, nil
}

// questionState binds a question to its command, directory and session,
// signed with a key of this server's, so that an answer cannot be replayed
// for another command.
func (s *Server) questionState(spec *engine.Spec) string {
	m := hmac.New(sha256.New, s.key[:])
	fmt.Fprintf(m, "%s\x00%s\x00%s\x00%s", spec.Command, spec.Cwd, spec.Origin.Session, spec.Origin.Client)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func newKey() (k [32]byte) {
	rand.Read(k[:])
	return k
}
