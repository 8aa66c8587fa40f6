package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tend/engine"
)

// listLines are the job list's lines of the plain view: the left box.
func listLines(h *harness) []string {
	var out []string
	for _, l := range strings.Split(plain(h), "\n") {
		out = append(out, ansi.Cut(l, 0, h.m.listWidth()))
	}
	return out
}

// The list has a header row naming its columns, the status column too; a
// job's status says what it is doing or how it ended, in words.
func TestListHeaders(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.send(tea.WindowSizeMsg{Width: 160, Height: 30})
	l := listLines(h)
	for _, want := range []string{"#", "command", "who", "time", "status"} {
		if !strings.Contains(l[1], want) {
			t.Errorf("the header row %q lacks %q", l[1], want)
		}
	}
	for i, want := range []string{"▶ 8 run the tests", "● 7 persistent shell", "✓ 3 rm -rf build", "✗ 2 npm run lint"} {
		if row := l[2+i]; !strings.Contains(row, want) {
			t.Errorf("row %d is %q, want %q", i, row, want)
		}
	}
	wantIn(t, l[2], "running")
	wantIn(t, l[4], "you", "exit 0")
	wantIn(t, l[5], "claude-code", "exit 2")
	// A click on a row selects that job: the header is not a row.
	h.send(tea.MouseClickMsg{X: 3, Y: 4, Button: tea.MouseLeft})
	if h.m.selected != "3" {
		t.Errorf("a click on the third row selected %q, want 3", h.m.selected)
	}
	h.send(tea.MouseClickMsg{X: 3, Y: 1, Button: tea.MouseLeft})
	if h.m.selected != "3" {
		t.Errorf("a click on the header selected %q", h.m.selected)
	}
}

// The command column takes the width there is: at 160 columns, much more
// of a long command than the 24 cells it once had; narrower, the columns
// right of it go before it is cut to nothing, status last.
func TestListCommandColumnWidth(t *testing.T) {
	t.Parallel()
	long := "make -C services/api integration-test TAGS=postgres,redis VERBOSE=1"
	for _, tc := range []struct {
		w, h     int
		atLeast  int      // cells of the command shown
		columns  []string // in the header
		notShown []string
	}{
		{60, 20, 8, []string{"status"}, []string{"who", "time"}},
		{80, 24, 16, []string{"status"}, []string{"who"}},
		{120, 40, 18, []string{"time", "status"}, []string{"who"}},
		{160, 45, 36, []string{"who", "time", "status"}, []string{"mem", "cpu"}},
		{200, 50, 36, []string{"who", "mem", "cpu", "time", "status"}, nil},
	} {
		b, _ := fixture(t)
		b.add(&fakeJob{info: engine.Info{ID: "9", Command: long, Cwd: "/srv/app", Origin: engine.Origin{Client: "claude-code", Version: "2.1"},
			Status: engine.Running, StartedAt: now.Add(-5 * time.Second)}})
		h := newHarness(t, b, nil, "dark")
		h.send(tea.WindowSizeMsg{Width: tc.w, Height: tc.h})
		l := listLines(h)
		var row string
		for _, r := range l {
			if strings.Contains(r, " 9 make") {
				row = r
			}
		}
		if row == "" {
			t.Fatalf("%dx%d: job 9 is not listed:\n%s", tc.w, tc.h, strings.Join(l, "\n"))
		}
		shown := row[strings.Index(row, "make"):]
		n := 0
		for n < len(shown) && n < len(long) && shown[n] == long[n] {
			n++
		}
		if n < tc.atLeast {
			t.Errorf("%dx%d: %d cells of the command shown, want at least %d: %q", tc.w, tc.h, n, tc.atLeast, row)
		}
		for _, c := range tc.columns {
			if !strings.Contains(l[1], c) {
				t.Errorf("%dx%d: header %q lacks %q", tc.w, tc.h, l[1], c)
			}
		}
		for _, c := range tc.notShown {
			if strings.Contains(l[1], " "+c) {
				t.Errorf("%dx%d: header %q has %q, for which there is no room", tc.w, tc.h, l[1], c)
			}
		}
	}
}

// On a narrow screen the pane, where a job's output is, keeps most of the
// width; every line of the screen is as wide as the screen.
func TestLayoutLeavesThePaneMostOfTheScreen(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{60, 20}, {80, 24}, {120, 40}, {160, 45}} {
		b, _ := fixture(t)
		h := newHarness(t, b, nil, "dark")
		h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lw := h.m.listWidth()
		if pane := size[0] - lw; pane*100 < size[0]*55 {
			t.Errorf("%dx%d: the pane is %d wide and the list %d: want the pane at least 55%%", size[0], size[1], pane, lw)
		}
		lines := strings.Split(h.view(), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, ansi.Strip(l))
			}
		}
	}
}

// A job being killed shows as killing, from the moment the kill is
// confirmed (or the engine says so) until it has ended.
func TestKillingShown(t *testing.T) {
	t.Parallel()
	b, jobs := fixture(t)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("8")
	h.press("x", "y")
	if !jobs["pipe"].killed {
		t.Fatal("y did not kill")
	}
	// The fake's kill returns at once; the job has not ended yet.
	l := listLines(h)
	wantIn(t, l[2], "■ 8 run the tests", "killing")
	wantIn(t, plain(h), "■ killing 42s", "· SIGTERM sent")
	if strings.Contains(l[2], "running") {
		t.Errorf("a job being killed shows as running: %q", l[2])
	}
	in := jobs["pipe"].Info()
	in.Status, in.Signal, in.ExitCode, in.RuntimeMs = engine.Killed, "SIGTERM", code(143), 43000
	h.send(engineEventMsg{engine.Event{Kind: engine.JobExited, Job: "8", Info: in}})
	wantIn(t, plain(h), "killed after 43s · SIGTERM")
	if strings.Contains(plain(h), "killing") {
		t.Errorf("an ended job still shows as killing:\n%s", plain(h))
	}

	// An agent's kill: the engine says the job is being killed.
	jobs["pty"].mu.Lock()
	jobs["pty"].info.Killing = true
	jobs["pty"].mu.Unlock()
	h.run(h.m.refreshInfos())
	h.selectJob("7")
	wantIn(t, plain(h), "killing 3m")
}

// How a job ended is said in plain words, and the person is "you"
// wherever the UI names who started a job.
func TestEndedInPlainWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   engine.Info
		pane string
		list string
	}{
		{engine.Info{Status: engine.TimedOut, Signal: "SIGTERM", ExitCode: code(143), RuntimeMs: 30000}, "timed out after 30s · SIGTERM", "timeout"},
		{engine.Info{Status: engine.Killed, Signal: "SIGKILL", ExitCode: code(137), RuntimeMs: 6000}, "killed after 6s · SIGKILL", "killed"},
		{engine.Info{Status: engine.Killed, ExitCode: code(143), RuntimeMs: 2000}, "killed after 2s · exit 143", "killed"},
		{engine.Info{Status: engine.Signaled, Signal: "SIGSEGV", ExitCode: code(139), RuntimeMs: 1000}, "ended by SIGSEGV after 1s", "sig SEGV"},
		{engine.Info{Status: engine.Exited, ExitCode: code(1), RuntimeMs: 65000}, "exited with code 1 after 1m", "exit 1"},
		{engine.Info{Status: engine.Failed, ExitCode: code(-1)}, "failed to start", "failed"},
		{engine.Info{Status: engine.Lost}, "lost: the tend that ran it stopped", "lost"},
	} {
		b := newFakeBackend()
		in := tc.in
		in.ID, in.Command, in.Cwd, in.Origin, in.StartedAt = "5", "slow-thing --flag", "/srv/app", engine.PersonOrigin(), now.Add(-time.Hour)
		b.add(&fakeJob{info: in})
		h := newHarness(t, b, nil, "dark")
		h.send(tea.WindowSizeMsg{Width: 160, Height: 20})
		v := plain(h)
		wantIn(t, v, tc.pane, "by you")
		wantIn(t, listLines(h)[2], tc.list, " you ")
		for _, bad := range []string{"timed_out", "out by SIG", "killed by SIG", "human", ", code"} {
			if strings.Contains(v, bad) {
				t.Errorf("%s: the view says %q:\n%s", in.Status, bad, v)
			}
		}
	}
}

// An interactive shell at its prompt is idle, not waiting for input, and
// no bell rings for it; a job that waits on a prompt keeps its mark.
func TestIdleShellIsNotMarkedWaiting(t *testing.T) {
	t.Parallel()
	h, _, jobs := approvalHarness(t, "dark")
	h.send(tea.WindowSizeMsg{Width: 160, Height: 30})
	idle := jobs["pty"].Info()
	idle.Idle = true
	h.send(infosMsg{infos: []engine.Info{idle}})
	h.selectJob("7")
	v := plain(h)
	wantIn(t, listLines(h)[3], "○ 7 persistent shell", "idle")
	wantIn(t, v, "idle at its prompt")
	if strings.Contains(v, "waiting for input") || strings.Contains(v, "input?") || len(h.raw) != 0 {
		t.Fatalf("an idle shell is marked as waiting (bells %q):\n%s", h.raw, v)
	}
	asks := idle
	asks.Idle, asks.WaitingForInput = false, true
	h.send(infosMsg{infos: []engine.Info{asks}})
	wantIn(t, listLines(h)[3], "? 7 persistent shell", "input?")
	wantIn(t, plain(h), "waiting for input")
	if len(h.raw) != 1 {
		t.Errorf("bells %q, want one for the prompt", h.raw)
	}
}
