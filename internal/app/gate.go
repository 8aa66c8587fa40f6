package app

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"

	"tend/engine"
	"tend/internal/audit"
	"tend/internal/control"
	"tend/policy"
	"tend/sandbox"
)

// gate decides before each command runs, with tend's policy: a deny rule
// refuses it at once; a held command waits for a person when one is
// watching (approvals set), and otherwise gets the fallback.
type gate struct {
	policy    policy.Policy
	approvals *policy.Approvals // the queue a person answers
	watched   bool              // a person watches always (the terminal UI)
	attached  atomic.Int32      // supervisors attached now (tend attach): a person watches while one is
	denyAlone bool              // headless fallback: deny held commands instead of running them with a warning
	audit     *audit.Log        // records each decision; nil records nothing
	// confine is approval.sandbox: a command held only for writes that
	// sandbox refuses runs in it instead of asking ("" or off: never).
	confine  sandbox.Mode
	writable []string // jobs.writable, which a sandbox lets be written too
}

// asking is the queue of the person watching, nil when none is.
func (g *gate) asking() *policy.Approvals {
	if g.watched || g.attached.Load() > 0 {
		return g.approvals
	}
	return nil
}

func (g *gate) check(ctx context.Context, r engine.GateRequest) engine.Verdict {
	out, _, _ := g.judge(ctx, r, false)
	return out
}

// judge is [gate.check] with the policy's verdict, and unasked set when the
// command is held and no person is watching to be asked (the headless
// fallback decided). With probe, a command a person would be asked about
// is let through unasked: the caller runs it through the gate later.
func (g *gate) judge(ctx context.Context, r engine.GateRequest, probe bool) (out engine.Verdict, v policy.Verdict, unasked bool) {
	home, _ := os.UserHomeDir()
	v = g.policy.Check(r.Command, policy.Env{Cwd: r.Cwd, Home: home, Stdin: r.Stdin, StdinForwarded: r.StdinForwarded})
	if v.Class.Held() {
		out.Warning = v.Class.String() + ": " + strings.Join(v.Reasons, "; ")
	}
	if r.Origin.IsPerson() {
		// The person at the TUI is the approver: what they run themselves
		// is neither held nor refused by rules written for agents. It
		// still carries the warning. Only tend's own code can give a job
		// the person's origin: an MCP client that calls itself "human" is
		// still a client.
		return out, v, false
	}
	switch v.Decision {
	case policy.Allow:
		return out, v, false
	case policy.Deny:
		out.Deny = "a deny rule matches (" + v.Rule + ")"
		return out, v, false
	}
	if mode := g.sandboxFor(r, v); mode != "" {
		out.Sandbox = mode
		out.Approval = &engine.Approval{Decision: "sandboxed", By: "the " + string(mode) + " sandbox"}
		if !probe {
			g.audit.Write(audit.Record{
				Kind: audit.KindApproval, Client: r.Origin.String(), Session: r.Origin.Session, Command: r.Command, Cwd: r.Cwd,
				Decision: out.Approval.Decision, By: out.Approval.By,
			})
		}
		return out, v, false
	}
	// Ask.
	approvals := g.asking()
	switch {
	case approvals == nil && r.Answered != nil && !g.denyAlone:
		// The agent's user answered through their client.
		out.Approval = r.Answered
		if r.Answered.Decision != "allow" {
			out.Deny = "the user denied it through " + r.Origin.String()
			if r.Answered.Reason != "" {
				out.Deny += ": " + r.Answered.Reason
			}
		}
		g.audit.Write(audit.Record{
			Kind: audit.KindApproval, Client: r.Origin.String(), Session: r.Origin.Session, Command: r.Command, Cwd: r.Cwd,
			Decision: r.Answered.Decision, By: r.Answered.By, Reason: r.Answered.Reason, DurationMs: r.Answered.WaitedMs,
		})
		return out, v, false
	case approvals == nil && g.denyAlone:
		out.Deny = "no person is watching to approve it (" + out.Warning + ")"
		return out, v, true
	case approvals == nil:
		return out, v, true // the headless fallback: run it, with the warning
	case approvals.Allowed(v):
		out.Approval = &engine.Approval{Required: false, Decision: "allow", By: "a prefix the person allowed for this session"}
		return out, v, false
	case probe:
		return out, v, false
	}
	var held [][]string
	for _, i := range v.Held {
		held = append(held, v.Commands[i].Argv)
	}
	ans, err := approvals.Ask(ctx, policy.Request{
		Command: r.Command, Cwd: r.Cwd, Client: r.Origin.String(), Agent: r.Origin.Agent, Session: r.Origin.Session,
		Class: v.Class, Reasons: v.Reasons, Held: held,
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
	return out, v, false
}

// sandboxFor returns the sandbox a held command runs in instead of asking,
// or "": with approval.sandbox on, when the command's job can be confined,
// no answer was given for it already (its client's user, a prefix the
// person allowed), it is held only for writing paths, and the sandbox (the
// one its call asked for, or approval.sandbox's) refuses every one of them
// on this kernel. What it was held for then fails; the rest of it runs.
func (g *gate) sandboxFor(r engine.GateRequest, v policy.Verdict) sandbox.Mode {
	mode := r.Sandbox
	if mode == "" || mode == sandbox.Off {
		mode = g.confine
	}
	if g.confine == "" || g.confine == sandbox.Off || !r.Confinable || r.Answered != nil ||
		(g.asking() != nil && g.asking().Allowed(v)) {
		return ""
	}
	paths, ok := v.Confinable()
	if !ok || sandbox.Enforces(mode) != nil {
		return ""
	}
	for _, p := range paths {
		if !sandbox.Refuses(mode, r.Cwd, g.writable, p) {
			return ""
		}
	}
	return mode
}

// Check answers a `tend hook`: may the command an agent's own shell is
// about to run go ahead? A held command waits for the person when one
// watches this tend (with p.Route it is let through: it will run through
// `tend run`, whose gate asks them); with none, the answer is Ask (the
// agent's own prompt) unless the config denies held commands when no one
// watches.
func (a *App) Check(ctx context.Context, p control.CheckParams) control.CheckResult {
	origin := engine.Origin{Client: p.Origin.Client, Session: p.Origin.Session, Tool: p.Origin.Tool}
	if p.Origin.Tool != "" {
		origin.Version = p.Origin.Tool + " tool" // who asks, as the queue shows it: "claude-code Bash tool"
	}
	// A routed command runs as a job of this tend, which can confine it.
	out, v, unasked := a.gate.judge(ctx, engine.GateRequest{Command: p.Command, Cwd: p.Cwd, Origin: origin, Confinable: p.Route}, p.Route)
	res := control.CheckResult{Decision: control.Allow, Class: v.Class.String(), Reasons: v.Reasons, Command: out.Command}
	if out.Approval != nil {
		res.By = out.Approval.By
	}
	switch {
	case out.Deny != "":
		res.Decision, res.Reason = control.Deny, "tend: "+out.Deny
	case unasked:
		res.Decision, res.Reason = control.Ask, "tend: held ("+out.Warning+"), and no person watches tend to approve it"
	}
	return res
}

// WouldAsk reports whether command is held and would run anyway, with a
// warning, because no person watches (the headless fallback "warn"). Then
// an agent's client that can ask its own user (MCP elicitation) is asked
// instead: that can only add a question where nobody would be asked. With
// approval.headless = "deny" the denial stands. reasons say why it is
// held.
func (a *App) WouldAsk(command, cwd string, origin engine.Origin) (reasons []string, ask bool) {
	if a.gate.asking() != nil || a.gate.denyAlone {
		return nil, false
	}
	_, v, unasked := a.gate.judge(context.Background(), engine.GateRequest{Command: command, Cwd: cwd, Origin: origin, Confinable: true}, true)
	return v.Reasons, unasked
}
