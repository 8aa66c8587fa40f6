package mcpserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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
	if !declaresElicitation(req) {
		return nil, nil
	}
	reasons, ask := s.wouldAsk(spec.Command, spec.Cwd, spec.Origin)
	if !ask {
		return nil, nil
	}
	resp, answered := req.Params.InputResponses[approvalInput]
	if !answered {
		msg := fmt.Sprintf("tend: %s asks to run\n\n%s\n\nin %s\n\nwhy it needs you: %s", spec.Origin, spec.Command, spec.Cwd, strings.Join(reasons, "; "))
		if len(spec.Stdin) > 0 {
			msg += fmt.Sprintf("\n\nwith this on its stdin:\n%s", truncated(spec.Stdin, 2000))
		}
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
			RequestState: s.questionState(spec, time.Now().Add(answerWithin)),
		}, nil
	}
	if !s.answerFresh(spec, req.Params.RequestState) {
		return nil, errors.New("the answer to tend's question does not match the question asked, or came too late: call again without inputResponses")
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

// questionState binds a question to the call it is about (tool, command,
// directory, stdin, client) and to a time after which its answer is
// refused, signed with a key of this server's: an answer cannot be
// replayed for another command, nor long after. It has no session: a
// 2026-07-28 call over HTTP has none that lasts.
func (s *Server) questionState(spec *engine.Spec, until time.Time) string {
	exp := strconv.FormatInt(until.Unix(), 10)
	m := hmac.New(sha256.New, s.key[:])
	sum := sha256.Sum256(spec.Stdin)
	fmt.Fprintf(m, "%s\x00%s\x00%s\x00%s\x00%x\x00%s", spec.Origin.Tool, spec.Command, spec.Cwd, spec.Origin.Client, sum, exp)
	return exp + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// answerFresh reports whether state is this server's for spec and its
// time has not passed.
func (s *Server) answerFresh(spec *engine.Spec, state string) bool {
	exp, _, ok := strings.Cut(state, ".")
	sec, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil || time.Now().Unix() > sec {
		return false
	}
	return hmac.Equal([]byte(state), []byte(s.questionState(spec, time.Unix(sec, 0))))
}

// answerWithin is how long the user has to answer a question.
const answerWithin = 15 * time.Minute

func newKey() (k [32]byte) {
	rand.Read(k[:])
	return k
}

// truncated is b as text, cut to n bytes at a rune boundary.
func truncated(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "…"
}
