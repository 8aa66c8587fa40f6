package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tend/engine"
	"tend/internal/audit"
	"tend/internal/testkit"
	"tend/policy"
)

// run execs spec and returns its job, or the denial that kept it from
// running.
func run(ctx context.Context, t *testing.T, e *engine.Engine, spec engine.Spec) (*engine.Job, *engine.DeniedError) {
	t.Helper()
	j, _, err := e.Exec(ctx, spec, time.Minute)
	var denied *engine.DeniedError
	if errors.As(err, &denied) {
		return nil, denied
	}
	if err != nil {
		t.Fatalf("exec %q: %v", spec.Command, err)
	}
	return j, nil
}

// A held command waits for a person; only a decision on the approval queue
// settles it: deny returns the reason, approve runs it, edit runs the edited
// command, and the timeout denies. Exercised on a real git push --force to a
// local remote.
func TestApprovalFlow(t *testing.T) {
	t.Parallel()
	dir, git := testkit.ScratchRepo(t) // pushed once, then amended: a push now needs --force
	before := git("rev-parse", "origin/main")

	approvals := policy.NewApprovals()
	auditDir := t.TempDir()
	log, err := audit.Open(auditDir)
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{policy: policy.Policy{Mode: policy.ModeDestructive}, approvals: approvals, watched: true, audit: log}
	e, err := engine.New(engine.Config{StateDir: t.TempDir(), Gate: g.check})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	push := engine.Spec{Command: "git push --force origin HEAD:main", Cwd: dir, Origin: engine.Origin{Client: "agent"}}

	decide := func(want string, ans policy.Answer) {
		for {
			if p := approvals.Pending(); len(p) > 0 {
				if !strings.Contains(p[0].Command, want) || len(p[0].Reasons) == 0 {
					t.Errorf("pending request %+v", p[0])
				}
				approvals.Decide(p[0].ID, ans)
				return
			}
			<-approvals.Changed()
		}
	}
	// Deny with a reason: the agent gets denied, the remote is untouched.
	go decide("push --force", policy.Answer{Reason: "not on main", By: "person"})
	if _, denied := run(t.Context(), t, e, push); denied == nil || !strings.Contains(denied.Error(), "not on main") || denied.Approval == nil || denied.Approval.Decision != "deny" {
		t.Fatalf("denied push: %+v", denied)
	}
	if got := git("ls-remote", "origin", "main"); !strings.HasPrefix(got, before) {
		t.Fatalf("the remote moved after a denial: %s", got)
	}
	// Approve: the push lands.
	go decide("push --force", policy.Answer{Approve: true, By: "person"})
	j, denied := run(t.Context(), t, e, push)
	if denied != nil {
		t.Fatalf("approved push denied: %v", denied)
	}
	if in := j.Info(); *in.ExitCode != 0 || in.Approval == nil || in.Approval.Decision != "allow" || !in.Approval.Required {
		t.Fatalf("approved push: %+v", in)
	}
	if got := git("ls-remote", "origin", "main"); strings.HasPrefix(got, before) {
		t.Fatalf("the approved push did not land: %s", got)
	}
	// Edit then approve: the edited command runs.
	go decide("rm -rf", policy.Answer{Approve: true, Command: "echo edited", By: "person"})
	j, denied = run(t.Context(), t, e, engine.Spec{Command: "rm -rf ~/tend-approval-test", Cwd: dir})
	if denied != nil {
		t.Fatalf("edited command denied: %v", denied)
	}
	if c, _ := j.Read(engine.Stdout, 0, 100); string(c.Data) != "edited\n" || j.Command != "echo edited" {
		t.Fatalf("edited command %q printed %q", j.Command, c.Data)
	}
	// Nobody answers: the timeout denies.
	approvals.Timeout = 100 * time.Millisecond
	if _, denied := run(t.Context(), t, e, push); denied == nil || denied.Approval.By != "timeout" {
		t.Fatalf("timed-out approval: %+v", denied)
	}
	// A cancelled call stops waiting and is denied.
	approvals.Timeout = time.Minute
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for len(approvals.Pending()) == 0 {
			<-approvals.Changed()
		}
		cancel()
	}()
	if _, denied := run(ctx, t, e, push); denied == nil {
		t.Fatal("cancelled while waiting: not denied")
	}
	// Every decision is in the audit log, with who made it.
	b, _ := os.ReadFile(filepath.Join(auditDir, "audit.jsonl"))
	got := strings.Count(string(b), `"kind":"approval"`)
	if got != 5 || !strings.Contains(string(b), `"reason":"not on main"`) || !strings.Contains(string(b), `"by":"timeout"`) {
		t.Fatalf("%d approval records:\n%s", got, b)
	}
}

func TestHeadlessGate(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	headless := &gate{policy: policy.Policy{Mode: policy.ModeDestructive}}
	req := engine.GateRequest{Command: "rm -rf /", Cwd: t.TempDir()}
	if v := headless.check(ctx, req); v.Deny != "" || !strings.Contains(v.Warning, "destructive") {
		t.Fatalf("headless fallback: %+v", v)
	}
	strict := &gate{policy: policy.Policy{Mode: policy.ModeDestructive}, denyAlone: true}
	if v := strict.check(ctx, req); v.Deny == "" {
		t.Fatalf("deny fallback: %+v", v)
	}
	rules := &gate{policy: policy.Policy{Mode: policy.ModeOff, Rules: policy.Rules{Deny: []string{"Bash(curl:*)"}}}}
	if v := rules.check(ctx, engine.GateRequest{Command: "true && curl example.invalid", Cwd: t.TempDir()}); v.Deny == "" {
		t.Fatalf("deny rule: %+v", v)
	}
	if v := headless.check(ctx, engine.GateRequest{Command: "ls", Cwd: t.TempDir()}); v != (engine.Verdict{}) {
		t.Fatalf("ls: %+v", v)
	}
}

// What the person at the TUI runs is theirs to approve: it neither waits
// nor is refused. An agent cannot pass for the person: an MCP client named
// "human" still waits.
func TestPersonIsNotAskedAboutTheirOwnCommands(t *testing.T) {
	t.Parallel()
	approvals := policy.NewApprovals()
	approvals.Timeout = 10 * time.Second // a held command here is a failure: do not wait long for it
	g := &gate{policy: policy.Policy{Mode: policy.ModeDestructive, Rules: policy.Rules{Deny: []string{"Bash(curl:*)"}}}, approvals: approvals, watched: true}
	cwd := t.TempDir()
	for _, cmd := range []string{"rm -rf /", "curl example.invalid"} {
		v := g.check(t.Context(), engine.GateRequest{Command: cmd, Cwd: cwd, Origin: engine.PersonOrigin()})
		if v.Deny != "" || v.Approval != nil {
			t.Errorf("the person's %q: %+v", cmd, v)
		}
		if cmd == "rm -rf /" && !strings.Contains(v.Warning, "destructive") {
			t.Errorf("the person's %q lost its warning: %+v", cmd, v)
		}
	}
	if n := len(approvals.Pending()); n != 0 {
		t.Fatalf("%d requests queued for the person's own commands", n)
	}
	for _, tc := range []struct {
		name   string
		origin engine.Origin
	}{
		{"an MCP client named human", engine.Origin{Client: "human", Tool: "terminal_exec", Session: "s1"}},
		{"an MCP client named human with no tool", engine.Origin{Client: "human"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan engine.Verdict, 1)
			go func() { done <- g.check(ctx, engine.GateRequest{Command: "rm -rf /", Cwd: cwd, Origin: tc.origin}) }()
			for len(approvals.Pending()) == 0 {
				<-approvals.Changed()
			}
			cancel()
			if v := <-done; v.Deny == "" || v.Approval == nil || !v.Approval.Required {
				t.Fatalf("not held: %+v", v)
			}
		})
	}
}
