package app

import (
	"context"
	"errors"
	"os"
	"strings"

	"tend/engine"
	"tend/internal/audit"
	"tend/policy"
)

// gate decides before each command runs, with tend's policy: a deny rule
// refuses it at once; a held command waits for a person when one is
// watching (approvals set), and otherwise gets the fallback.
type gate struct {
	policy    policy.Policy
	approvals *policy.Approvals // nil: no person is watching (headless)
	denyAlone bool              // headless fallback: deny held commands instead of running them with a warning
	audit     *audit.Log        // records each decision; nil records nothing
}

func (g *gate) check(ctx context.Context, r engine.GateRequest) engine.Verdict {
	home, _ := os.UserHomeDir()
	v := g.policy.Check(r.Command, policy.Env{Cwd: r.Cwd, Home: home})
	var out engine.Verdict
	if v.Class.Held() {
		out.Warning = v.Class.String() + ": " + strings.Join(v.Reasons, "; ")
	}
	if r.Origin.IsPerson() {
		// The person at the TUI is the approver: what they run themselves
		// is neither held nor refused by rules written for agents. It
		// still carries the warning. Only tend's own code can give a job
		// the person's origin: an MCP client that calls itself "human" is
		// still a client.
		return out
	}
	switch v.Decision {
	case policy.Allow:
		return out
	case policy.Deny:
		out.Deny = "a deny rule matches (" + v.Rule + ")"
		return out
	}
	// Ask.
	switch {
	case g.approvals == nil && g.denyAlone:
		out.Deny = "no person is watching to approve it (" + out.Warning + ")"
		return out
	case g.approvals == nil:
		return out // the headless fallback: run it, with the warning
	case g.approvals.Allowed(v):
		out.Approval = &engine.Approval{Required: false, Decision: "allow", By: "a prefix the person allowed for this session"}
		return out
	}
	var held [][]string
	for _, i := range v.Held {
		held = append(held, v.Commands[i].Argv)
	}
	ans, err := g.approvals.Ask(ctx, policy.Request{
		Command: r.Command, Cwd: r.Cwd, Client: r.Origin.String(), Class: v.Class, Reasons: v.Reasons, Held: held,
	})
	out.Approval = &engine.Approval{Required: true, Decision: "deny", By: ans.By, Reason: ans.Reason, WaitedMs: ans.Waited.Milliseconds()}
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		out.Deny = "the call ended while waiting for a person's approval"
		out.Approval.Decision, out.Approval.By = "withdrawn", r.Origin.String()
	case err != nil:
		out.Deny = err.Error()
	case !ans.Approve:
		out.Deny = "a person denied it"
		if ans.Reason != "" {
			out.Deny += ": " + ans.Reason
		}
	default:
		out.Approval.Decision = "allow"
		out.Command = ans.Command
	}
	g.audit.Write(audit.Record{
		Kind: audit.KindApproval, Client: r.Origin.String(), Session: r.Origin.Session, Command: r.Command, Cwd: r.Cwd,
		Decision: out.Approval.Decision, By: out.Approval.By, Reason: out.Approval.Reason, DurationMs: out.Approval.WaitedMs,
	})
	return out
}
