package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"tend/engine"
	"tend/policy"
)

// fakeApprovals is an approval queue that records every decision. Like the
// real one, a decided request stays pending until the waiting call lets go
// of it (finish).
type fakeApprovals struct {
	mu        sync.Mutex
	reqs      []policy.Request
	decisions []decision
	refuse    error // Decide's error, when set
	changed   chan struct{}
	outcomes  map[int]policy.Outcome
}

type decision struct {
	id  int
	ans policy.Answer
}

func newFakeApprovals(reqs ...policy.Request) *fakeApprovals {
	return &fakeApprovals{reqs: reqs, changed: make(chan struct{}, 1)}
}

func (f *fakeApprovals) Pending() []policy.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.reqs)
}

func (f *fakeApprovals) Decide(id int, ans policy.Answer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse != nil {
		return f.refuse
	}
	if !slices.ContainsFunc(f.reqs, func(r policy.Request) bool { return r.ID == id }) {
		return policy.ErrNoRequest
	}
	if slices.ContainsFunc(f.decisions, func(d decision) bool { return d.id == id }) {
		return policy.ErrNoRequest // the real queue takes one decision
	}
	f.decisions = append(f.decisions, decision{id, ans})
	return nil
}

func (f *fakeApprovals) Changed() <-chan struct{} { return f.changed }

func (f *fakeApprovals) Outcome(id int) policy.Outcome {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.outcomes[id]
}

func (f *fakeApprovals) add(r policy.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, r)
}

// finish drops request id, as the real queue does once its call returns.
func (f *fakeApprovals) finish(id int) { f.end(id, policy.Decided) }

// end drops request id, ended as how.
func (f *fakeApprovals) end(id int, how policy.Outcome) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = slices.DeleteFunc(f.reqs, func(r policy.Request) bool { return r.ID == id })
	if f.outcomes == nil {
		f.outcomes = map[int]policy.Outcome{}
	}
	f.outcomes[id] = how
}

func (f *fakeApprovals) got() []decision {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.decisions)
}

const pushCmd = "git push --force origin HEAD:main"

func pushRequest() policy.Request {
	return policy.Request{
		ID: 3, Command: pushCmd, Cwd: "/srv/app", Client: "claude-code 2.1", Class: policy.Destructive,
		Reasons: []string{"git push --force rewrites the remote branch's history"}, Asked: now.Add(-12 * time.Second),
		Deadline: now.Add(10*time.Minute - 12*time.Second), Held: [][]string{{"git", "push", "--force", "origin", "HEAD:main"}},
	}
}

func approvalHarness(t *testing.T, theme string, reqs ...policy.Request) (*harness, *fakeApprovals, map[string]*fakeJob) {
	t.Helper()
	b, jobs := fixture(t)
	f := newFakeApprovals(reqs...)
	h := newHarness(t, b, activityFixture(), theme, func(o *Options) { o.Approvals = f })
	return h, f, jobs
}

// toView switches with tab until view v shows.
func (h *harness) toView(v viewKind) {
	h.t.Helper()
	for range 3 {
		if h.m.view == v {
			return
		}
		h.press("tab")
	}
	h.t.Fatalf("tab never reached view %v", v)
}

// A pending request in the Approvals view, once per theme: who asks, how
// long it has waited, the class, cwd, reasons and the whole command.
func TestGoldenApprovals(t *testing.T) {
	t.Parallel()
	for _, theme := range []string{"dark", "light"} {
		t.Run(theme, func(t *testing.T) {
			t.Parallel()
			second := policy.Request{ID: 4, Command: "rm -rf ~/old-builds", Cwd: "/srv/app", Client: "codex 0.9", Class: policy.Destructive,
				Reasons: []string{"rm -r of a path outside the working directory"}, Asked: now.Add(-3 * time.Second)}
			h, _, _ := approvalHarness(t, theme, pushRequest(), second)
			h.toView(approvalsView)
			v := plain(h)
			wantIn(t, v, "Approvals · 2 waiting", "claude-code 2.1 asks to run a destructive command", "waiting 12s", "cwd  /srv/app",
				"why  git push --force rewrites", "$ "+pushCmd, "y approve once • n deny • r deny with reason • e edit+approve • a allow prefix • tab next view • ? help • q quit", "⚠ 2 to approve")
			golden.RequireEqual(t, h.view())
		})
	}
}

// The pending request is first in the job list, highlighted; selected
// there, the pane shows it and its keys.
func TestGoldenApprovalInTheJobList(t *testing.T) {
	t.Parallel()
	h, _, _ := approvalHarness(t, "dark", pushRequest())
	v := plain(h)
	wantIn(t, v, "Jobs ⚠ 1 to approve ·", "⚠ ask git push --force")
	list := strings.Split(v, "\n")
	if !strings.Contains(list[1], "# command") || !strings.Contains(list[2], "⚠ ask git push") {
		t.Errorf("the approval is not the list's first row, under its header:\n%s", v)
	}
	// The list's selection starts on a job: an arrival does not move it.
	if h.m.listAppr {
		t.Fatal("the selection jumped to the approval")
	}
	h.press("up")
	if !h.m.listAppr || !h.m.onApproval() {
		t.Fatal("up from the first job did not select the approval")
	}
	golden.RequireEqual(t, plain(h))
	h.press("down")
	if h.m.listAppr || h.m.selected != "8" {
		t.Errorf("down did not go back to job 8: listAppr=%v selected=%q", h.m.listAppr, h.m.selected)
	}
}

// Each approval key sends the right decision, from the Approvals view and
// from the job list; the request then leaves the view at once.
func TestApprovalKeysDecide(t *testing.T) {
	t.Parallel()
	typed := func(s string) []string {
		var out []string
		for _, r := range s {
			out = append(out, string(r))
		}
		return out
	}
	keys := func(k ...any) []string {
		var out []string
		for _, x := range k {
			switch x := x.(type) {
			case string:
				out = append(out, x)
			case []string:
				out = append(out, x...)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		keys []string
		want policy.Answer
	}{
		{"y approves once", keys("y"), policy.Answer{Approve: true, By: "person"}},
		{"n denies", keys("n"), policy.Answer{By: "person"}},
		{"r denies with the typed reason", keys("r", typed("use a branch"), "enter"), policy.Answer{Reason: "use a branch", By: "person"}},
		{"e approves the edit", keys("e", "backspace", "backspace", "backspace", "backspace", typed("dev"), "enter"),
			policy.Answer{Approve: true, Command: "git push --force origin HEAD:dev", By: "person"}},
		{"e unchanged approves once", keys("e", "enter"), policy.Answer{Approve: true, By: "person"}},
		{"a allows the first two words", keys("a", "enter"), policy.Answer{Approve: true, AllowPrefix: "git push", By: "person"}},
		{"a allows an edited prefix", keys("a", "ctrl+w", typed("push --force"), "enter"), policy.Answer{Approve: true, AllowPrefix: "git push --force", By: "person"}},
	} {
		for _, where := range []string{"view", "list"} {
			t.Run(tc.name+" in the "+where, func(t *testing.T) {
				t.Parallel()
				h, f, _ := approvalHarness(t, "dark", pushRequest())
				if where == "view" {
					h.toView(approvalsView)
				} else {
					h.press("up")
				}
				h.press(tc.keys...)
				got := f.got()
				if len(got) != 1 || got[0].id != 3 || got[0].ans != tc.want {
					t.Fatalf("decisions = %+v, want one on #3: %+v", got, tc.want)
				}
				v := plain(h)
				if strings.Contains(v, "HEAD:main") && !strings.Contains(v, "#3: git push") {
					t.Errorf("the decided request is still shown:\n%s", v)
				}
				if h.m.listAppr || h.m.mode != modeNone {
					t.Errorf("after the decision: listAppr=%v mode=%v", h.m.listAppr, h.m.mode)
				}
				// The queue lets go of it: it stays gone, and no second
				// decision is sent.
				f.finish(3)
				h.send(approvalsDirtyMsg{})
				h.press("y", "n")
				if n := len(f.got()); n != 1 {
					t.Errorf("%d decisions after the request ended", n)
				}
			})
		}
	}
}

// RELIABILITY S5: nothing but the approval keys settles a request: not
// enter, not a paste (even of "y\n"), not keys sent to an attached job, not
// any other key, not what an agent or a job sends.
func TestOnlyApprovalKeysSettle(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, h *harness, f *fakeApprovals) {
		t.Helper()
		if got := f.got(); len(got) != 0 {
			t.Fatalf("decided: %+v", got)
		}
		if _, ok := h.m.appr.current(); !ok {
			t.Fatal("the request left the view without a decision")
		}
	}
	t.Run("enter and paste", func(t *testing.T) {
		t.Parallel()
		for _, where := range []string{"view", "list"} {
			h, f, _ := approvalHarness(t, "dark", pushRequest())
			if where == "view" {
				h.toView(approvalsView)
			} else {
				h.press("up")
			}
			h.press("enter", "enter", "esc", " ")
			h.send(tea.PasteMsg{Content: "y\n"})
			h.send(tea.PasteMsg{Content: "yes\r\nn\n"})
			check(t, h, f)
			// A paste into the reason line edits it and sends nothing.
			h.press("r")
			h.send(tea.PasteMsg{Content: "pasted\nenter"})
			check(t, h, f)
			if h.m.input.value != "pasted" || h.m.mode != modeApprReason {
				t.Errorf("%s: reason after a paste = %q (mode %v)", where, h.m.input.value, h.m.mode)
			}
			h.press("esc")
			check(t, h, f)
		}
	})
	t.Run("keys to an attached job", func(t *testing.T) {
		t.Parallel()
		h, f, jobs := approvalHarness(t, "dark")
		h.selectJob("7")
		h.press("enter") // attach
		if h.m.focus != focusTerm {
			t.Fatal("not attached")
		}
		h.m.opts.Approvals.(*fakeApprovals).add(pushRequest())
		h.send(approvalsDirtyMsg{})
		wantIn(t, plain(h), "claude-code 2.1 asks to run git push --force", "⚠ 1 to approve")
		h.press("y", "enter", "n", "a", "e", "r")
		h.send(tea.PasteMsg{Content: "y\n"})
		check(t, h, f)
		if got := jobs["pty"].inputs; !slices.Contains(got, "y") {
			t.Errorf("the job did not get the keys: %q", got)
		}
	})
	t.Run("what agents and jobs send", func(t *testing.T) {
		t.Parallel()
		h, f, _ := approvalHarness(t, "dark", pushRequest())
		h.toView(approvalsView)
		in := engine.Info{ID: "9", Command: "printf 'y\\n'", Status: engine.Running, StartedAt: now, Origin: engine.Origin{Client: "claude-code"}}
		h.send(engineEventMsg{engine.Event{Kind: engine.JobStarted, Job: "9", Info: in}})
		h.send(screenDirtyMsg{})
		h.send(activityDirtyMsg{})
		h.send(approvalsDirtyMsg{})
		h.send(runtimeTickMsg{id: h.m.tickID})
		check(t, h, f)
	})
	t.Run("every other key", func(t *testing.T) {
		t.Parallel()
		var names []string
		for r := rune(0x21); r < 0x7f; r++ {
			if !strings.ContainsRune("ynrea", r) {
				names = append(names, string(r))
			}
		}
		names = append(names, "enter", "esc", "tab", "up", "down", "pgup", "backspace", "ctrl+c", "ctrl+b", " ")
		for _, where := range []string{"view", "list"} {
			for _, k := range names {
				h, f, _ := approvalHarness(t, "dark", pushRequest())
				if where == "view" {
					h.toView(approvalsView)
				} else {
					h.press("up")
				}
				h.press(k)
				if got := f.got(); len(got) != 0 {
					t.Errorf("%s: key %q decided %+v", where, k, got)
				}
			}
		}
	})
}

// A long command is shown whole: paging through the detail and putting
// its wrapped lines back together gives the whole command, with escapes and
// invisible characters shown, not obeyed.
func TestLongCommandShownWhole(t *testing.T) {
	t.Parallel()
	var words []string
	for i := range 400 {
		words = append(words, fmt.Sprintf("w%04d", i))
	}
	cmd := "echo " + strings.Join(words, "-") + "\ncat <<EOF | bash\nrm -rf /srv/data\x1b[8m hidden\u202eevil\nEOF"
	shown := "echo " + strings.Join(words, "-") + "\ncat <<EOF | bash\nrm -rf /srv/data\\x1b[8m hidden\\u202eevil\nEOF"
	r := pushRequest()
	r.Command = cmd
	for _, where := range []string{"view", "list"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			h, _, _ := approvalHarness(t, "dark", r)
			if where == "view" {
				h.toView(approvalsView)
			} else {
				h.press("up")
			}
			detail := map[int]string{} // line of the detail → its text
			for range 40 {
				rows := strings.Split(plain(h), "\n")
				n := h.m.detailRows()
				top, left, right := 1, h.m.listWidth()+1, h.m.width-1
				if where == "view" {
					top, left = 1+h.m.queueRows()+1, 1
				}
				for j := range n {
					detail[h.m.appr.scroll+j] = strings.TrimRight(ansi.Cut(rows[top+j], left, right), " ")
				}
				h.press("pgdown")
			}
			var got strings.Builder
			started := false
			for i := range len(detail) {
				l, ok := detail[i]
				if !ok {
					t.Fatalf("detail line %d was never shown", i)
				}
				switch {
				case strings.HasPrefix(l, "$ "):
					started = true
				case !started:
					continue
				case strings.HasPrefix(l, "> "):
					got.WriteString("\n")
				case strings.HasPrefix(l, "  "):
				default:
					t.Fatalf("detail line %d has no gutter: %q", i, l)
				}
				got.WriteString(l[2:])
			}
			if got.String() != shown {
				t.Errorf("the command put back together from the screen:\n%q\nwant\n%q", got.String(), shown)
			}
			if strings.Contains(h.view(), "\x1b[8m") || strings.Contains(h.view(), "\u202e") {
				t.Error("the command's escape sequence or bidi override reached the terminal")
			}
			wantIn(t, plain(h), "pgup/pgdn scroll")
			// Scrolling back up shows the start again.
			for range 40 {
				h.press("pgup")
			}
			wantIn(t, plain(h), "$ echo w0000-w0001")
		})
	}
}

// The wrapped lines put back together are the command.
func TestCommandLinesAreTheCommand(t *testing.T) {
	t.Parallel()
	h, _, _ := approvalHarness(t, "dark")
	cmd := strings.Repeat("abcdefghij", 37) + "\n" + strings.Repeat("0123456789", 11)
	lines := commandLines(h.m.c.Styles, cmd, 33, nil)
	var got strings.Builder
	for i, l := range lines {
		l = ansi.Strip(l)
		if w := ansi.StringWidth(l); w > 33 {
			t.Errorf("line %d is %d wide", i, w)
		}
		switch {
		case strings.HasPrefix(l, "$ ") && i == 0:
		case strings.HasPrefix(l, "> "):
			got.WriteString("\n")
		case strings.HasPrefix(l, "  "):
		default:
			t.Fatalf("line %d has no gutter: %q", i, l)
		}
		got.WriteString(l[2:])
	}
	if got.String() != cmd {
		t.Errorf("lines put together:\n%q\nwant\n%q", got.String(), cmd)
	}
}

// A request that arrives while another view is shown is announced, and
// counted in the status bar and the job list.
func TestNewApprovalIsAnnounced(t *testing.T) {
	t.Parallel()
	h, f, _ := approvalHarness(t, "dark")
	h.toView(activityView)
	f.add(pushRequest())
	h.send(approvalsDirtyMsg{})
	v := plain(h)
	wantIn(t, v, "⚠ claude-code 2.1 asks to run git push --force origin HEAD:main · A shows it", "⚠ 1 to approve")
	if got := h.m.View().WindowTitle; got != "tend · 1 to approve" {
		t.Errorf("window title %q", got)
	}
	h.press("tab")
	wantIn(t, plain(h), "$ "+pushCmd)
	// Its wait is a running clock: a tick is armed.
	if len(h.ticks) == 0 {
		t.Error("no tick armed for the waiting time")
	}
}

// A request that ends (timeout, the agent gave up) while its reason is
// being typed closes the line; nothing is sent.
func TestRequestEndsWhileTyping(t *testing.T) {
	t.Parallel()
	h, f, _ := approvalHarness(t, "dark", pushRequest())
	h.toView(approvalsView)
	h.press("r")
	h.typeText("too late")
	f.end(3, policy.Withdrawn)
	h.send(approvalsDirtyMsg{})
	if h.m.mode != modeNone {
		t.Fatalf("mode %v after the request ended", h.m.mode)
	}
	wantIn(t, plain(h), "request #3 from claude-code 2.1 was withdrawn by its agent", "Nothing waits for approval")
	h.press("enter")
	if got := f.got(); len(got) != 0 {
		t.Fatalf("decided: %+v", got)
	}
}

// A decision the queue refuses (a prefix it cannot parse) leaves the
// request pending and on screen.
func TestRefusedDecisionShowsTheRequestAgain(t *testing.T) {
	t.Parallel()
	h, f, _ := approvalHarness(t, "dark", pushRequest())
	h.toView(approvalsView)
	f.refuse = fmt.Errorf("bad rule")
	h.press("y")
	wantIn(t, plain(h), "bad rule", "$ "+pushCmd)
	f.refuse = nil
	h.press("y")
	if got := f.got(); len(got) != 1 || !got[0].ans.Approve {
		t.Fatalf("decisions %+v", got)
	}
}

// When the request shown is replaced by another one (the one before was
// answered, or ended), the next answer key does not answer the new one: a
// double press of y approves one request, not two.
func TestReplacedRequestIsNotAnsweredByTheSameKeys(t *testing.T) {
	t.Parallel()
	second := policy.Request{ID: 4, Command: "rm -rf ~/old-builds", Cwd: "/srv/app", Client: "codex 0.9", Class: policy.Destructive, Asked: now}
	for _, where := range []string{"view", "list"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			h, f, _ := approvalHarness(t, "dark", pushRequest(), second)
			if where == "view" {
				h.toView(approvalsView)
			} else {
				h.press("up", "up")
			}
			if r, _ := h.m.appr.current(); r.ID != 3 {
				t.Fatalf("showing #%d, want the oldest, #3", r.ID)
			}
			h.press("y", "y")
			if got := f.got(); len(got) != 1 || got[0].id != 3 {
				t.Fatalf("a double y decided %+v", got)
			}
			wantIn(t, plain(h), "now showing request #4 from codex 0.9: read it, then answer", "$ rm -rf ~/old-builds")
			h.press("n")
			if got := f.got(); len(got) != 2 || got[1].id != 4 || got[1].ans.Approve {
				t.Fatalf("decisions %+v", got)
			}
		})
	}
	// The same when the shown request ends on its own.
	h, f, _ := approvalHarness(t, "dark", pushRequest(), second)
	h.toView(approvalsView)
	f.finish(3)
	h.send(approvalsDirtyMsg{})
	h.press("y")
	if got := f.got(); len(got) != 0 {
		t.Fatalf("y right after the shown request ended decided %+v", got)
	}
	h.press("y")
	if got := f.got(); len(got) != 1 || got[0].id != 4 {
		t.Fatalf("decisions %+v", got)
	}
}

// The first request, with nothing selected or the list idle, is selected
// at once: y approves it, n denies it, enter does neither. The terminal's
// bell and a desktop notification announce it.
func TestFirstRequestIsSelected(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key     string
		approve bool
	}{{"y", true}, {"n", false}} {
		t.Run(tc.key, func(t *testing.T) {
			t.Parallel()
			h, f, _ := approvalHarness(t, "dark")
			f.add(pushRequest())
			h.send(approvalsDirtyMsg{})
			if !h.m.listAppr || h.m.appr.cur != 3 {
				t.Fatalf("request not selected: listAppr %v, cur %d", h.m.listAppr, h.m.appr.cur)
			}
			wantIn(t, plain(h), "· y approves, n denies", "Approval #3", "denied automatically in 9:48 if no one answers")
			if len(h.raw) != 1 || !strings.HasPrefix(h.raw[0], "\a\x1b]9;tend: claude-code 2.1 asks to run a destructive command: "+pushCmd+"\x07") ||
				!strings.Contains(h.raw[0], "\x1b]777;notify;tend: claude-code 2.1 asks to run a destructive command;"+pushCmd+"\x07") {
				t.Fatalf("notification %q", h.raw)
			}
			h.press("enter")
			if got := f.got(); len(got) != 0 {
				t.Fatalf("enter decided: %+v", got)
			}
			h.press(tc.key)
			if got := f.got(); len(got) != 1 || got[0].id != 3 || got[0].ans.Approve != tc.approve {
				t.Fatalf("decisions %+v", got)
			}
		})
	}
}

// While the person works in the job list, a new request does not take the
// selection (a key meant for a job must not answer it); A selects the
// oldest request from any view, and then y answers it.
func TestBusyListKeepsItsSelection(t *testing.T) {
	t.Parallel()
	h, f, _ := approvalHarness(t, "dark")
	h.press("j")
	sel := h.m.selected
	f.add(pushRequest())
	h.send(approvalsDirtyMsg{})
	if h.m.listAppr || h.m.selected != sel {
		t.Fatalf("selection moved: listAppr %v, selected %s (was %s)", h.m.listAppr, h.m.selected, sel)
	}
	wantIn(t, plain(h), "A shows it")
	h.press("n")
	if got := f.got(); len(got) != 0 {
		t.Fatalf("n meant for the job list decided: %+v", got)
	}
	h.toView(activityView)
	h.press("A")
	if h.m.view != jobsView || !h.m.listAppr || h.m.appr.cur != 3 {
		t.Fatalf("A: view %v listAppr %v cur %d", h.m.view, h.m.listAppr, h.m.appr.cur)
	}
	h.press("y")
	if got := f.got(); len(got) != 1 || !got[0].ans.Approve {
		t.Fatalf("decisions %+v", got)
	}
	// Idle again: the next request is selected.
	h.m.lastKey = now.Add(-idleAfter)
	second := pushRequest()
	second.ID = 4
	f.finish(3)
	f.add(second)
	h.send(approvalsDirtyMsg{})
	if !h.m.listAppr || h.m.appr.cur != 4 {
		t.Fatalf("idle list: request 4 not selected (listAppr %v, cur %d)", h.m.listAppr, h.m.appr.cur)
	}
}

// A request that times out is said to have been denied by the clock.
func TestTimedOutRequestIsSaid(t *testing.T) {
	t.Parallel()
	h, f, _ := approvalHarness(t, "dark", pushRequest())
	f.end(3, policy.TimedOut)
	h.send(approvalsDirtyMsg{})
	wantIn(t, plain(h), "request #3 from claude-code 2.1 timed out and was denied")
}

// The held simple command is marked in a long command line; a notification
// carries no control character of the command.
func TestDangerSpansAndNotification(t *testing.T) {
	t.Parallel()
	cmd := "make build && git push --force origin main; echo done"
	got := dangerSpans(cmd, [][]string{{"git", "push", "--force", "origin", "main"}, {"rm", "-rf", "/root"}})
	if len(got) != 1 || cmd[got[0][0]:got[0][1]] != "git push --force origin main" {
		t.Fatalf("spans %v", got)
	}
	if got := dangerSpans("git status; legit push", [][]string{{"git", "push"}}); len(got) != 1 || got[0] != [2]int{0, 22} {
		t.Fatalf("a word inside another word: %v", got)
	}
	n := notification("t", "rm -rf x\x1b]0;evil\x07\n", true)
	if strings.Contains(n, "\x07\n") || strings.Count(n, "\x07") != 3 || !strings.HasPrefix(n, "\a\x1bPtmux;\x1b\x1b]9;") {
		t.Fatalf("notification %q", n)
	}
}

// A job of an agent that starts waiting for input is announced once, as a
// request is; the person's own jobs are not.
func TestJobWaitingForInputIsAnnounced(t *testing.T) {
	t.Parallel()
	h, _, _ := approvalHarness(t, "dark")
	var agents, own engine.Info
	for _, in := range h.m.jobs {
		if in.Status != engine.Running {
			continue
		}
		if in.Origin.IsPerson() {
			own = in
		} else {
			agents = in
		}
	}
	if agents.ID == "" {
		t.Fatal("the fixture has no running job of an agent")
	}
	agents.WaitingForInput = true
	infos := []engine.Info{agents}
	if own.ID != "" {
		own.WaitingForInput = true
		infos = append(infos, own)
	}
	h.send(infosMsg{infos: infos})
	h.send(infosMsg{infos: infos}) // still waiting: no second bell
	if len(h.raw) != 1 || !strings.Contains(h.raw[0], "tend: job "+string(agents.ID)+" waits for input") {
		t.Fatalf("notifications %q", h.raw)
	}
}

// e on a multi-line command opens the person's editor; what they save
// there, changed, is approved as edited; unchanged or empty, nothing is.
func TestEditInEditor(t *testing.T) {
	// Not parallel: the file the model writes for the editor, never opened
	// here, goes to a temp dir of this test's own.
	t.Setenv("TMPDIR", t.TempDir())
	multi := pushRequest()
	multi.Command = "git fetch\ngit push --force origin HEAD:main"
	for _, tc := range []struct {
		saved   string
		approve bool
	}{{"git fetch\ngit push origin HEAD:topic\n", true}, {multi.Command + "\n", false}, {"\n", false}} {
		h, f, _ := approvalHarness(t, "dark", multi)
		h.toView(approvalsView)
		cmd := h.m.handleApprovalKey(keyMsg("e"))
		if cmd == nil || h.m.mode == modeApprEdit {
			t.Fatalf("e on a multi-line command: mode %v, no editor", h.m.mode)
		}
		file := filepath.Join(t.TempDir(), "cmd.sh")
		os.WriteFile(file, []byte(tc.saved), 0o600)
		h.send(editedMsg{id: 3, file: file})
		got := f.got()
		switch {
		case tc.approve && (len(got) != 1 || got[0].ans.Command != "git fetch\ngit push origin HEAD:topic"):
			t.Errorf("saved %q: decisions %+v", tc.saved, got)
		case !tc.approve && len(got) != 0:
			t.Errorf("saved %q: decided %+v", tc.saved, got)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("the temp file was left behind")
		}
	}
}

// A second y, meant for the request just answered, never answers the next
// one: a request that arrives right after a key press is not selected.
func TestDoubleYAnswersOnlyTheFirst(t *testing.T) {
	t.Parallel()
	h, f, _ := approvalHarness(t, "dark")
	f.add(pushRequest())
	h.send(approvalsDirtyMsg{})
	h.press("y")
	next := pushRequest()
	next.ID = 4
	f.finish(3)
	f.add(next)
	h.send(approvalsDirtyMsg{})
	h.press("y")
	if got := f.got(); len(got) != 1 || got[0].id != 3 {
		t.Fatalf("decisions %+v", got)
	}
}

// fakeLinks are tend attach's connections, fixed.
type fakeLinks []Link

func (f fakeLinks) Watch() (<-chan struct{}, func()) { return nil, func() {} }
func (f fakeLinks) Links() []Link                    { return f }

// A host lost is said once on the status bar (with why, on the left), and
// the requests waiting from it are said to have the link down: an answer
// cannot reach them.
func TestStatusBarLostHost(t *testing.T) {
	t.Parallel()
	near, far := pushRequest(), pushRequest()
	near.ID, near.Host = 1, "local"
	far.ID, far.Host = 2, "build"
	b, _ := fixture(t)
	links := fakeLinks{{Host: "local", Up: true}, {Host: "build", Note: "lost: ssh: connection reset; reconnecting"}}
	h := newHarness(t, b, activityFixture(), "dark", func(o *Options) {
		o.Approvals, o.Attached, o.Links = newFakeApprovals(near, far), "tend serve --stop", links
	})
	h.send(tea.WindowSizeMsg{Width: 200, Height: 24})
	var bar string
	for l := range strings.Lines(plain(h)) {
		if strings.Contains(l, "to approve,") || strings.Contains(l, "tend attach") {
			bar += l
		}
	}
	wantIn(t, bar, "build lost: ssh: connection reset; reconnecting", "⚠ 2 to approve, 1 with the link down")
	if n := strings.Count(bar, "build lost"); n != 1 {
		t.Errorf("the status bar says the host is lost %d times:\n%s", n, bar)
	}
}
