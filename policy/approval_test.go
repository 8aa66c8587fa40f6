package policy

import (
	"context"
	"errors"
	"testing"
	"time"
)

// waitPending returns the first pending request once there is one.
func waitPending(t *testing.T, a *Approvals) Request {
	t.Helper()
	for {
		if p := a.Pending(); len(p) > 0 {
			return p[0]
		}
		select {
		case <-a.Changed():
		case <-time.After(5 * time.Second):
			t.Fatal("no request became pending")
		}
	}
}

func TestApprovalDecide(t *testing.T) {
	t.Parallel()
	a := NewApprovals()
	got := make(chan Answer, 1)
	go func() {
		ans, _ := a.Ask(t.Context(), Request{Command: "git push --force", Client: "agent 1"})
		got <- ans
	}()
	r := waitPending(t, a)
	if r.Command != "git push --force" || r.ID == 0 {
		t.Fatalf("pending %+v", r)
	}
	if err := a.Decide(r.ID+100, Answer{Approve: true}); !errors.Is(err, ErrNoRequest) {
		t.Fatalf("deciding an unknown request: %v", err)
	}
	if err := a.Decide(r.ID, Answer{Reason: "not today", By: "person"}); err != nil {
		t.Fatal(err)
	}
	if ans := <-got; ans.Approve || ans.Reason != "not today" {
		t.Fatalf("answer %+v", ans)
	}
	if len(a.Pending()) != 0 {
		t.Fatal("a settled request is still pending")
	}
	if err := a.Decide(r.ID, Answer{Approve: true}); !errors.Is(err, ErrNoRequest) {
		t.Fatalf("a request was settled twice: %v", err)
	}
}

func TestApprovalTimeoutDenies(t *testing.T) {
	t.Parallel()
	a := NewApprovals()
	a.Timeout = 50 * time.Millisecond
	ans, err := a.Ask(t.Context(), Request{Command: "rm -rf /"})
	if err != nil || ans.Approve || ans.By != "timeout" {
		t.Fatalf("answer %+v err %v", ans, err)
	}
}

func TestApprovalCancelled(t *testing.T) {
	t.Parallel()
	a := NewApprovals()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := a.Ask(ctx, Request{Command: "rm -rf /"})
		done <- err
	}()
	waitPending(t, a)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if len(a.Pending()) != 0 {
		t.Fatal("a cancelled request is still pending")
	}
}

func TestApprovalAllowPrefix(t *testing.T) {
	t.Parallel()
	a := NewApprovals()
	env := Env{Cwd: t.TempDir(), Home: "/home/u"}
	v := Policy{Mode: ModeDestructive}.Check("git push --force origin main", env)
	if v.Decision != Ask || a.Allowed(v) {
		t.Fatalf("before: %v allowed %v", v.Decision, a.Allowed(v))
	}
	go a.Ask(t.Context(), Request{Command: v.Commands[0].Argv[0]})
	r := waitPending(t, a)
	if err := a.Decide(r.ID, Answer{Approve: true, AllowPrefix: "git push"}); err != nil {
		t.Fatal(err)
	}
	if !a.Allowed(v) {
		t.Fatal("the allowed prefix does not allow the command")
	}
	other := Policy{Mode: ModeDestructive}.Check("rm -rf /", env)
	if a.Allowed(other) {
		t.Fatal("the allowed prefix allows another command")
	}
	// What the modes all and unknown hold is not destructive; the prefix
	// covers it all the same.
	if v := (Policy{Mode: ModeAll}).Check("git push origin main", env); v.Decision != Ask || !a.Allowed(v) {
		t.Fatalf("mode all: %v allowed %v", v.Decision, a.Allowed(v))
	}
	if v := (Policy{Mode: ModeUnknown}).Check("git push origin main:prod", env); v.Decision != Ask || !a.Allowed(v) {
		t.Fatalf("mode unknown: %v allowed %v", v.Decision, a.Allowed(v))
	}
	if v := (Policy{Mode: ModeUnknown}).Check("git push origin main:prod && frob", env); a.Allowed(v) {
		t.Fatal("the allowed prefix allows a command with another held part")
	}
}
