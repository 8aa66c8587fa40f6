package ui

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"tend/themes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"tend/engine"
	"tend/keymap"
	"tend/sandbox"
	"tend/vterm"
)

func plain(h *harness) string { return ansi.Strip(h.view()) }

func wantIn(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("view lacks %q:\n%s", sub, s)
		}
	}
}

func activityFixture() *fakeActivity {
	return &fakeActivity{calls: []Call{
		{Seq: 1, Time: now.Add(-time.Minute), Client: "claude-code 2.1", Tool: "terminal_exec", Args: `{"command":"go test ./..."}`, Result: "job_id=8 auto_backgrounded=true", Duration: 30 * time.Second},
		{Seq: 2, Time: now.Add(-30 * time.Second), Client: "claude-code 2.1", Tool: "terminal_job_logs", Args: `{"job_id":"99"}`, Result: `no such job: "99"`, IsError: true, Duration: 900 * time.Microsecond},
		{Seq: 3, Time: now.Add(-5 * time.Second), Client: "codex 0.9", Tool: "terminal_pty_open", Args: `{"cols":120}`, Result: "session_id=7", Duration: 45 * time.Millisecond},
	}}
}

// The layout golden: the job list (running first, then finished), the
// selected pipe job's output with stderr apart, the status and help bars.
func TestGoldenLayout(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, activityFixture(), "dark")
	golden.RequireEqual(t, plain(h))
}

// The same view in colour, once per theme: stderr lines, glyphs and the
// selection are told apart by colour.
func TestGoldenColours(t *testing.T) {
	t.Parallel()
	for _, theme := range []string{"dark", "light"} {
		t.Run(theme, func(t *testing.T) {
			t.Parallel()
			b, _ := fixture(t)
			h := newHarness(t, b, activityFixture(), theme)
			golden.RequireEqual(t, h.view())
		})
	}
}

func TestGoldenPTYScreen(t *testing.T) {
	t.Parallel()
	for _, theme := range []string{"dark", "light"} {
		t.Run(theme, func(t *testing.T) {
			t.Parallel()
			b, jobs := fixture(t)
			h := newHarness(t, b, nil, theme)
			h.press("down") // from the pipe job (8) to the shell (7)
			if h.m.selected != "7" {
				t.Fatalf("selected %q, want 7", h.m.selected)
			}
			v := plain(h)
			wantIn(t, v, "$ make test", "ok  tend/engine", "FAIL tend/ui", "pty 60×10", "codex 0.9 · terminal_pty_open")
			// The job is resized to the pane.
			if got := jobs["pty"].resized; got != [2]int{h.m.pane.w, h.m.pane.h} {
				t.Errorf("PTY resized to %v, want the pane's %dx%d", got, h.m.pane.w, h.m.pane.h)
			}
			golden.RequireEqual(t, h.view())
		})
	}
}

func TestGoldenHelp(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.press("?")
	golden.RequireEqual(t, plain(h))
	h.press("x") // any key closes the help, and does nothing else
	if h.m.mode != modeNone || strings.Contains(plain(h), "Kill job") {
		t.Fatalf("help did not close cleanly: mode %v", h.m.mode)
	}
}

func TestGoldenActivity(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, activityFixture(), "dark")
	h.press("tab")
	golden.RequireEqual(t, plain(h))
	h.press("up")
	wantIn(t, plain(h), `result no such job: "99"`)
	h.press("tab") // Jobs → Activity → Approvals → Jobs
	wantIn(t, plain(h), "Nothing waits for approval")
	h.press("tab")
	wantIn(t, plain(h), "Jobs 2 running · 2 done")
}

func TestListOrderRunningFirst(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	if got, want := h.m.order, []engine.JobID{"8", "7", "3", "2"}; !slices.Equal(got, want) {
		// Running first, then finished; newest first in each.
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestKillAsksFirst(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	h.press("x")
	wantIn(t, plain(h), "Kill job 8 (run the tests) and its whole process tree? y/n")
	h.press("n")
	if jobs["pipe"].killed {
		t.Fatal("n killed the job")
	}
	if strings.Contains(plain(h), "Kill job") {
		t.Fatal("the question stayed after n")
	}
	h.press("x", "enter") // a stray enter does not confirm
	if jobs["pipe"].killed {
		t.Fatal("enter killed the job")
	}
	h.press("esc", "x", "y")
	if !jobs["pipe"].killed {
		t.Fatal("y did not kill the job")
	}
	wantIn(t, plain(h), "job 8 killed")
	if !slices.Equal(h.actions, []string{"kill 8"}) {
		t.Errorf("audited actions = %q, want [kill 8]", h.actions)
	}
}

// Keys from the config file replace the defaults, in the help and in what
// the questions say, and the default key no longer acts.
func TestConfiguredKeys(t *testing.T) {
	t.Parallel()
	km := keymap.Default()
	if err := km.Override(map[string]map[string][]string{"jobs": {"kill": {"X"}}, "confirm": {"yes": {"o"}}}); err != nil {
		t.Fatal(err)
	}
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark", func(o *Options) { o.Keys = &km })
	h.selectJob("8")
	h.press("x")
	if h.m.mode != modeNone {
		t.Fatal("the default kill key still asks")
	}
	h.press("X")
	wantIn(t, plain(h), "Kill job 8 (run the tests) and its whole process tree? o/n")
	h.press("y")
	if jobs["pipe"].killed {
		t.Fatal("the default yes key still kills")
	}
	h.press("X", "o")
	if !jobs["pipe"].killed {
		t.Fatal("the configured yes key did not kill")
	}
	h.press("?")
	wantIn(t, plain(h), "X       kill")
}

func TestKillIsOffForFinishedJobs(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("3")
	h.press("x")
	if h.m.mode != modeNone {
		t.Fatalf("x on a finished job opened mode %v", h.m.mode)
	}
}

func TestBackgroundAForegroundExec(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	wantIn(t, plain(h), "an agent is waiting on it: b backgrounds it", "b background")
	h.press("b")
	if !jobs["pipe"].backgrounded {
		t.Fatal("b did not background the job")
	}
	wantIn(t, plain(h), "job 8 backgrounded")
	// Not for a job nobody waits on.
	h.selectJob("7")
	h.press("b")
	if jobs["pty"].backgrounded {
		t.Fatal("b backgrounded a job no agent waits on")
	}
}

func TestAttachSendsKeysAndCtrlBDetaches(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("7")
	h.press("enter")
	if h.m.focus != focusTerm {
		t.Fatal("enter did not attach")
	}
	wantIn(t, plain(h), "attached · ctrl+b detaches")
	h.typeText("ls")
	h.press("enter", "ctrl+c", "q", "x") // q and x are the job's too while attached
	if got, want := jobs["pty"].inputs, []string{"l", "s", "\r", "\x03", "q", "x"}; !slices.Equal(got, want) {
		t.Errorf("inputs = %q, want %q", got, want)
	}
	if h.quit || h.m.mode != modeNone {
		t.Fatal("a key meant for the job acted on the UI")
	}
	if h.m.View().Cursor == nil {
		t.Error("no cursor shown in the attached terminal")
	}
	h.press("ctrl+b")
	if h.m.focus != focusList {
		t.Fatal("ctrl+b did not detach")
	}
	if n := len(jobs["pty"].inputs); n != 6 {
		t.Errorf("ctrl+b reached the job (%d inputs)", n)
	}
	// Detached, q asks before quitting: jobs are running.
	h.press("q")
	wantIn(t, plain(h), "2 jobs are still running. Quit tend and end them all? y/n")
	h.press("y")
	if !h.quit {
		t.Fatal("y did not quit")
	}
}

func TestAttachToAPipeJobSendsLines(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	h.press("enter")
	h.typeText("yes")
	wantIn(t, plain(h), "stdin> yes")
	h.press("enter", "ctrl+c")
	if got := jobs["pipe"].inputs; !slices.Equal(got, []string{"yes\n"}) {
		t.Errorf("inputs = %q", got)
	}
	if got := jobs["pipe"].signals; !slices.Equal(got, []syscall.Signal{syscall.SIGINT}) {
		t.Errorf("signals = %v, want [SIGINT]", got)
	}
}

func TestSignalPicker(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	h.press("K")
	wantIn(t, plain(h), "Send a signal to job 8's process group:", "▸ SIGINT")
	h.press("down", "enter")
	if got := jobs["pipe"].signals; !slices.Equal(got, []syscall.Signal{syscall.SIGTERM}) {
		t.Errorf("signals = %v, want [SIGTERM]", got)
	}
	wantIn(t, plain(h), "sent SIGTERM to job 8")
}

func TestFilter(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.press("f")
	h.typeText("npm")
	if got := h.m.order; !slices.Equal(got, []engine.JobID{"2"}) {
		t.Fatalf("filtered order = %v, want [2]", got)
	}
	if h.m.selected != "2" {
		t.Errorf("selected %q, want the only match", h.m.selected)
	}
	h.press("enter")
	wantIn(t, plain(h), "f:npm")
	h.press("f", "esc")
	if len(h.m.order) != 4 || h.m.filter != "" {
		t.Errorf("esc did not clear the filter: %v %q", h.m.order, h.m.filter)
	}
}

func TestSearchOutput(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	h.press("/")
	h.typeText("run")
	h.press("enter")
	p := &h.m.pane
	if !slices.Equal(p.matches, []int{0, 3}) {
		t.Fatalf("matches = %v, want [0 3]", p.matches)
	}
	if p.matches[p.match] != 3 {
		t.Errorf("the newest match should be current, got line %d", p.matches[p.match])
	}
	wantIn(t, plain(h), "/run 1/2")
	h.press("n")
	if p.matches[p.match] != 0 {
		t.Errorf("n went to line %d, want the older match 0", p.matches[p.match])
	}
	h.press("N")
	if p.matches[p.match] != 3 {
		t.Errorf("N went to line %d, want 3", p.matches[p.match])
	}
}

func TestStderrLinesAreTold(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	var errs []string
	for _, l := range h.m.pane.out.lines {
		for _, part := range l.parts {
			if part.stderr {
				errs = append(errs, part.text)
			}
		}
	}
	if want := []string{"warning: deprecated flag", "panic: boom"}; !slices.Equal(errs, want) {
		t.Errorf("stderr lines = %q, want %q", errs, want)
	}
}

func TestCopyModeCopiesViaOSC52(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	h.press("v")
	if !h.m.pane.copying {
		t.Fatal("v did not enter copy mode")
	}
	h.press(" ", "up", "up") // from the cursor on the last line, select two more up
	if got, want := h.m.pane.selection(), "warning: deprecated flag\n=== RUN   TestB\npanic: boom"; got != want {
		t.Errorf("selection = %q, want %q", got, want)
	}
	h.press("y")
	wantIn(t, plain(h), "copied 3 line(s) to the clipboard")
	if h.m.mode != modeNone {
		t.Error("y did not leave copy mode")
	}
}

func TestCommandAndShellStartHumanJobs(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.press(":")
	h.typeText("make build")
	h.press("enter")
	h.press("s")
	if len(b.started) != 2 {
		t.Fatalf("started %d jobs, want 2", len(b.started))
	}
	for i, want := range []string{"make build", "bash"} {
		s := b.started[i]
		if s.Command != want || s.Origin != engine.PersonOrigin() || !s.PTY || s.Cwd != "/srv/app" {
			t.Errorf("job %d: %+v", i, s)
		}
	}
	if h.m.selected != "102" || h.m.focus != focusTerm {
		t.Errorf("the new shell should be selected and attached: %q %v", h.m.selected, h.m.focus)
	}
}

func TestEventsUpdateTheList(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	in := engine.Info{ID: "9", Command: "sleep 5", Status: engine.Running, StartedAt: now, Origin: engine.PersonOrigin()}
	h.send(engineEventMsg{engine.Event{Kind: engine.JobStarted, Job: "9", Info: in}})
	wantIn(t, plain(h), "sleep 5", "Jobs 3 running · 2 done")
	in.Status, in.ExitCode = engine.Killed, code(143)
	h.send(engineEventMsg{engine.Event{Kind: engine.JobExited, Job: "9", Info: in}})
	wantIn(t, plain(h), "Jobs 2 running · 3 done")
	h.send(engineEventMsg{engine.Event{Kind: engine.JobRemoved, Job: "9", Info: in}})
	if strings.Contains(plain(h), "sleep 5") {
		t.Error("a removed job is still listed")
	}
}

// The runtime clock ticks only when a shown runtime or usage changes: each
// second of the clock for young jobs (all of them at once), each two
// seconds for older ones (their usage), never with nothing running. now is
// on a whole second.
func TestRuntimeTickOnlyWhileSomethingChanges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ages []time.Duration
		want time.Duration // 0: no tick
	}{
		{"nothing running", nil, 0},
		{"young job", []time.Duration{4*time.Second + 300*time.Millisecond}, time.Second},
		{"young jobs of every phase tick together", []time.Duration{300 * time.Millisecond, 2*time.Second + 600*time.Millisecond, 5*time.Second + 900*time.Millisecond}, time.Second},
		{"old job", []time.Duration{3*time.Minute + 10*time.Second}, usageEvery},
		{"old job, started mid-second", []time.Duration{3*time.Minute + 10*time.Second + 400*time.Millisecond}, time.Second},
		{"earliest wins", []time.Duration{3*time.Minute + 59*time.Second + 500*time.Millisecond, 10*time.Second + 900*time.Millisecond}, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := newFakeBackend()
			for i, age := range tc.ages {
				b.add(&fakeJob{info: engine.Info{ID: engine.JobID(rune('1' + i)), Status: engine.Running, StartedAt: now.Add(-age)}})
			}
			b.add(&fakeJob{info: engine.Info{ID: "9", Status: engine.Exited, ExitCode: code(0), StartedAt: now.Add(-time.Hour)}})
			h := newHarness(t, b, nil, "dark")
			var got time.Duration
			if len(h.ticks) > 0 {
				got = h.ticks[0]
			}
			for _, d := range h.ticks {
				if d != got && d != 6*time.Second { // status messages clear after 6 s
					t.Errorf("ticks = %v", h.ticks)
				}
			}
			if got != tc.want {
				t.Errorf("first tick in %v, want %v", got, tc.want)
			}
		})
	}
}

// A tick draws the frame again only when something it shows changed: a
// runtime, what a running job uses, or its state. An idle UI with jobs
// running does no more.
func TestTickRedrawsOnlyWhenSomethingShownChanged(t *testing.T) {
	t.Parallel()
	b := newFakeBackend()
	j := &fakeJob{info: engine.Info{ID: "1", Command: "sleep 600", Status: engine.Running, StartedAt: now.Add(-10 * time.Second)}}
	b.add(j)
	clock := now
	h := newHarness(t, b, nil, "dark", func(o *Options) { o.Now = func() time.Time { return clock } })
	const mark = "(not drawn since)"
	tick := func() bool {
		t.Helper()
		h.m.frame = mark
		h.send(runtimeTickMsg{h.m.tickID}) // it looks at the running jobs too
		return h.m.frame != mark
	}
	tick() // the first look finds their usage
	j.mu.Lock()
	j.info.RuntimeMs += 1500 // the engine's count moves on; what is shown does not
	j.mu.Unlock()
	if tick() {
		t.Error("a tick that changed nothing shown drew the frame")
	}
	clock = clock.Add(time.Second)
	if !tick() || !strings.Contains(plain(h), "11s") {
		t.Errorf("a tick a second later did not draw the new runtime:\n%s", plain(h))
	}
	j.mu.Lock()
	j.usage = engine.Usage{CPUPercent: 42, Memory: 3 << 20, Processes: 1}
	j.mu.Unlock()
	if !tick() || !strings.Contains(plain(h), "42%") {
		t.Errorf("a tick after the job's usage changed did not draw it:\n%s", plain(h))
	}
	j.mu.Lock()
	j.info.WaitingForInput = true
	j.mu.Unlock()
	if !tick() {
		t.Error("a tick after the job's state changed did not draw it")
	}
	if tick() {
		t.Error("a second tick with nothing changed drew the frame")
	}
}

// A person's new job can be selected before its first event arrives; once
// the event says it is a PTY job, its screen is shown.
func TestNewJobSelectedBeforeItsEvent(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	term := vterm.New(20, 5)
	_, _ = term.Write([]byte("top-like screen"))
	in := engine.Info{ID: "50", Command: "top", Status: engine.Running, PTY: true, StartedAt: now, Origin: engine.PersonOrigin()}
	b.add(&fakeJob{info: in, term: term})
	h.send(jobStartedMsg{info: in, attach: true})
	if !h.m.pane.pty || h.m.pane.snap == nil {
		t.Fatalf("the pane is not showing the PTY job's screen: pty=%v snap=%v", h.m.pane.pty, h.m.pane.snap != nil)
	}
	wantIn(t, plain(h), "top-like screen")
	// Keys typed before its event go to the job's terminal.
	h.press("a")
	h.send(engineEventMsg{engine.Event{Kind: engine.JobStarted, Job: "50", Info: in}})
	h.press("b")
	j, _ := b.Job("50")
	if got := j.(*fakeJob).inputs; !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("the job got %q, want the keys a and b", got)
	}
}

// Output of other jobs does not make the UI re-read a finished job it has
// shown whole; a running one is read on each frame.
func TestFinishedJobIsNotReread(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("3")
	wantIn(t, plain(h), "removed", "end of output")
	before := jobs["done"].reads
	h.send(screenDirtyMsg{})
	h.send(screenDirtyMsg{})
	if got := jobs["done"].reads; got != before {
		t.Errorf("a finished job was read %d more times", got-before)
	}
	h.selectJob("8")
	before = jobs["pipe"].reads
	h.send(screenDirtyMsg{})
	if jobs["pipe"].reads == before {
		t.Error("a running job was not read on a dirty frame")
	}
}

// The wheel moves the selection over the list and scrolls the output over
// the pane; the filter drops mouse motion and lets a wheel event through.
func TestMouseWheel(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	var long strings.Builder
	for i := range 100 {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	jobs["pipe"].merged, jobs["pipe"].spans = []byte(long.String()), nil
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	wantIn(t, plain(h), "line 99")
	h.send(tea.MouseWheelMsg{X: 1, Y: 3, Button: tea.MouseWheelDown})
	if h.m.selected != "7" {
		t.Fatalf("wheel down over the list selected %q, want the next job (7)", h.m.selected)
	}
	h.send(tea.MouseWheelMsg{X: 1, Y: 3, Button: tea.MouseWheelUp})
	if h.m.selected != "8" {
		t.Fatalf("wheel up over the list selected %q, want 8 again", h.m.selected)
	}
	x := h.m.listWidth() + 5
	h.send(tea.MouseWheelMsg{X: x, Y: 5, Button: tea.MouseWheelUp})
	if h.m.pane.scroll != 3 {
		t.Fatalf("wheel up over the pane scrolled %d lines, want 3", h.m.pane.scroll)
	}
	if strings.Contains(plain(h), "line 99") {
		t.Fatal("the newest line is still shown after scrolling up")
	}
	h.send(tea.MouseWheelMsg{X: x, Y: 5, Button: tea.MouseWheelDown})
	if h.m.pane.scroll != 0 {
		t.Fatalf("wheel down did not come back to the live bottom: %d", h.m.pane.scroll)
	}
	wantIn(t, plain(h), "line 99")

	f := NewFilter()
	if f(h.m, tea.MouseMotionMsg{X: 3, Y: 3}) != nil {
		t.Error("the filter let mouse motion through")
	}
	if f(h.m, tea.MouseWheelMsg{Button: tea.MouseWheelUp}) == nil {
		t.Error("the filter dropped the first wheel event")
	}
}

// Filtering the list down to a job that was not selected selects it and
// shows its output (the pane used to stay blank: the fetch was dropped).
func TestFilterShowsTheJobsOutput(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	if h.m.selected != "8" {
		t.Fatalf("selected %q at start, want 8", h.m.selected)
	}
	h.press("f")
	h.typeText("rm -rf")
	if h.m.selected != "3" {
		t.Fatalf("the filter selected %q, want 3", h.m.selected)
	}
	wantIn(t, plain(h), "$ rm -rf build", "removed")
	h.press("esc") // clearing the filter keeps the selection, and its output
	wantIn(t, plain(h), "run the tests", "removed")
}

// A search asked for while a PTY job's scrollback is still loading (after
// a page up) is done once it arrives: the person's last request wins.
func TestSearchWhileScrollbackLoads(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.press("down")                       // the shell (7), a PTY job
	_, held := h.m.Update(keyMsg("pgup")) // its scrollback is loading: hold the result back
	if held == nil {
		t.Fatal("page up on a PTY job did not ask for its scrollback")
	}
	h.press("/")
	h.typeText("make")
	h.press("enter")
	h.run(held)
	p := &h.m.pane
	if p.search != "make" || len(p.matches) != 1 || p.plainLine(p.matches[0]) != "$ make test" {
		t.Fatalf("search %q matched %v, want the line \"$ make test\"", p.search, p.matches)
	}
	wantIn(t, plain(h), "/make 1/1")
}

// What is typed into an attached job reaches it in the order it was typed,
// whichever of the commands that carry it runs first: ctrl+c never
// overtakes the line before it.
func TestInputKeepsItsOrder(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	h.press("enter")
	h.typeText("yes")
	var cmds []tea.Cmd
	for _, k := range []string{"enter", "ctrl+c"} {
		_, cmd := h.m.Update(keyMsg(k))
		cmds = append(cmds, cmd)
	}
	for i := len(cmds) - 1; i >= 0; i-- { // the later command first
		h.run(cmds[i])
	}
	if got, want := jobs["pipe"].order, []string{"in:yes\n", "sig:SIGINT"}; !slices.Equal(got, want) {
		t.Fatalf("the job got %q, want %q", got, want)
	}
}

// The status bar says how jobs are held, and the help says it whole.
func TestContainmentShown(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark", func(o *Options) { o.Containment = "subreaper: jobs are found by session, marker and adoption" })
	wantIn(t, plain(h), "· subreaper · dark")
	h.press("?")
	wantIn(t, plain(h), "Jobs are held by subreaper: jobs are found by session")
}

// What a running job uses shows in the list (CPU where a finished job's
// exit code is, memory beside it when there is room) and in its pane, from
// the tick on; a finished job shows none.
func TestUsageShown(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	jobs["pipe"].usage = engine.Usage{CPUPercent: 87.4, Memory: 35 << 20, Processes: 3}
	jobs["done"].usage = engine.Usage{CPUPercent: 55, Memory: 9 << 20}
	h := newHarness(t, b, nil, "dark")
	h.send(tea.WindowSizeMsg{Width: 180, Height: 30})
	if v := plain(h); strings.Contains(v, "87%") {
		t.Fatalf("usage shown before it was read:\n%s", v)
	}
	h.run(h.m.refreshInfos())
	v := plain(h)
	wantIn(t, v, "mem  cpu  time status", " 35M  87%   42s running", "87% cpu · 35 MiB in 3 processes")
	if strings.Contains(v, "55%") || strings.Contains(v, "9M") {
		t.Errorf("a finished job shows usage:\n%s", v)
	}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 30}) // a narrower list: the command first
	wantIn(t, plain(h), "claude-code   42s running", "87% cpu · 35 MiB in 3 pr")
	if l := strings.Join(listLines(h), "\n"); strings.Contains(l, "35M") || strings.Contains(l, "87%") {
		t.Errorf("usage shown in a list too narrow for it:\n%s", plain(h))
	}
}

// A size in the list takes at most four cells and is never shown as zero
// when it is not.
func TestShortBytes(t *testing.T) {
	t.Parallel()
	const k, m, g = 1 << 10, 1 << 20, 1 << 30
	for n, want := range map[int64]string{
		0: "0K", 512 * k: "512K", 999*k + 1000: "999K", 1000 * k: "1M", 1023 * k: "1M",
		35 * m: "35M", 999 * m: "999M", 1000 * m: "1.0G", 1200 * m: "1.2G",
		10*g - m: "10G", 10 * g: "10G", 999 * g: "999G",
	} {
		if got := shortBytes(n); got != want || len(got) > 4 {
			t.Errorf("shortBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// The Activity view shows a call from when it starts: waiting for the
// person's approval while the agent's session has a request pending, then
// how it ended in its place; a filter shows one agent's calls, and the
// call's job is one key away.
func TestActivityCallsInFlight(t *testing.T) {
	t.Parallel()
	st := themes.New(themes.Dark(), themes.Options{})
	pending := map[string]bool{"s1": true}
	src := &fakeActivity{calls: []Call{{Seq: 1, Rev: 1, Time: now, Agent: "claude-code·api", Client: "claude-code 2.1", Session: "s1", Tool: "terminal_exec", Args: `{"command":"git push -f"}`, Running: true}}}
	var a activity
	a.init(src, func(s string) bool { return pending[s] })
	if view := strings.Join(a.render(st, 120, 20), "\n"); !strings.Contains(view, "waiting for approval") || !strings.Contains(view, "claude-code·api") {
		t.Fatalf("a held call:\n%s", view)
	}
	delete(pending, "s1")
	src.calls[0].Running, src.calls[0].Status, src.calls[0].Rev, src.calls[0].Result = false, "denied", 2, "semantic_status=denied"
	src.calls = append(src.calls, Call{Seq: 2, Rev: 3, Time: now, Agent: "codex·web", Client: "codex 0.9", Tool: "terminal_exec", Status: "ok", Job: "7", Detail: "approval: approve by human\nok"})
	a.pull()
	view := strings.Join(a.render(st, 120, 20), "\n")
	if a.len() != 2 || strings.Contains(view, "waiting") || !strings.Contains(view, "⊘") || !strings.Contains(view, "approval: approve by you") {
		t.Fatalf("after it ended (%d calls):\n%s", a.len(), view)
	}
	if a.job() != "7" {
		t.Fatalf("the selected call's job: %q", a.job())
	}
	a.toggleAgent()
	if a.len() != 1 || a.calls[0].Agent != "codex·web" {
		t.Fatalf("filtered to %+v", a.calls)
	}
	a.toggleAgent()
	if a.len() != 2 {
		t.Fatalf("unfiltered: %d calls", a.len())
	}
}

// d asks before it removes a finished job and its logs, and refuses a
// running one; D removes every finished job, also after asking; R runs a
// finished job again, as the person's, where it ran.
func TestRemoveClearRestart(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	h.press("d", "R") // not on a running job
	if h.m.mode != modeNone || len(b.started) != 0 {
		t.Fatalf("d or R acted on a running job: mode %v, started %v", h.m.mode, b.started)
	}
	h.selectJob("3")
	h.press("d")
	wantIn(t, plain(h), "Remove job 3 (rm -rf build) and its logs? y/n")
	h.press("n")
	if len(b.removed) != 0 {
		t.Fatalf("n removed %v", b.removed)
	}
	h.press("d", "y")
	if !slices.Equal(b.removed, []engine.JobID{"3"}) {
		t.Fatalf("removed %v", b.removed)
	}
	b.removed = nil
	h.press("D")
	wantIn(t, plain(h), "Remove every finished job (2) and their logs? y/n")
	h.press("y")
	if !slices.Equal(b.removed, []engine.JobID{"2", "3"}) {
		t.Fatalf("D removed %v", b.removed)
	}
	h.selectJob("2")
	h.press("R")
	if len(b.started) != 1 || b.started[0].Command != "npm run lint" || b.started[0].Cwd != "/srv/app" || !b.started[0].Origin.IsPerson() || !strings.Contains(b.started[0].Description, "was job 2") {
		t.Fatalf("R started %+v", b.started)
	}
	if !slices.Equal(h.actions, []string{"remove 3", "remove 2", "remove 3", "restart 101"}) {
		t.Errorf("audited %q", h.actions)
	}
}

// R on a job that ran in a sandbox instead of asking says so in its
// header, and asks before running it again unconfined, as the person's.
func TestRerunSandboxedAsks(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	b.add(&fakeJob{info: engine.Info{
		ID: "12", Command: "rm -rf ~/x", Cwd: "/srv/app", Origin: engine.Origin{Client: "claude-code", Tool: "terminal_exec"}, Pid: 5000,
		Status: engine.Exited, ExitCode: code(1), StartedAt: now.Add(-time.Minute), Sandbox: sandbox.Workspace,
		Approval: &engine.Approval{Decision: "sandboxed", By: "the workspace sandbox"},
	}})
	h := newHarness(t, b, nil, "dark")
	h.selectJob("12")
	wantIn(t, plain(h), "sandbox workspace instead of asking: R runs it unconfined")
	h.press("R")
	wantIn(t, plain(h), "Job 12 ran in the workspace sandbox. Run rm -rf ~/x again unconfined, as yours? y/n")
	h.press("n")
	if len(b.started) != 0 {
		t.Fatalf("n started %+v", b.started)
	}
	h.press("R", "y")
	if len(b.started) != 1 || b.started[0].Command != "rm -rf ~/x" || b.started[0].Sandbox != "" || !b.started[0].Origin.IsPerson() {
		t.Fatalf("R, y started %+v", b.started)
	}
}
