package ui

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
	"tend/vterm"
)

// Zoomed, the pane's border says so, and how to get the list back.
func TestZoomIsShown(t *testing.T) {
	t.Parallel()
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark")
	if strings.Contains(plain(h), "zoomed") {
		t.Fatal("zoomed before z")
	}
	h.press("z")
	if h.m.listWidth() != 0 {
		t.Fatal("z did not zoom")
	}
	lines := strings.Split(plain(h), "\n")
	bottom := lines[h.m.mainHeight()-1]
	if !strings.Contains(bottom, "zoomed · z shows the list") {
		t.Errorf("the pane's bottom border does not say it is zoomed: %q", bottom)
	}
	h.press("enter") // attached, z is the job's: the border says only that it is zoomed
	wantIn(t, plain(h), "zoomed · attached · ctrl+b detaches")
	h.press("ctrl+b", "z")
	if strings.Contains(plain(h), "zoomed") {
		t.Errorf("still says zoomed after z:\n%s", plain(h))
	}
}

// A key that acts on a running job, pressed on one that has ended, says
// so instead of doing nothing; so do d and R on a running job, and b on a
// job no agent waits on.
func TestJobKeysSayWhyTheyDoNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		job  engine.JobID
		key  string
		want string
	}{
		{"2", "x", "job 2 has ended (exit 2); R restarts it"},
		{"2", "K", "job 2 has ended (exit 2); R restarts it"},
		{"3", "enter", "job 3 has ended (exit 0); R restarts it"},
		{"3", "b", "job 3 has ended (exit 0); R restarts it"},
		{"8", "d", "job 8 is still running; x kills it"},
		{"8", "R", "job 8 is still running; x kills it"},
		{"7", "b", "no agent is waiting on job 7: b only lets an agent's waiting call return"},
	} {
		b, jobs := fixture(t)
		h := newHarness(t, b, nil, "dark")
		h.selectJob(tc.job)
		h.press(tc.key)
		wantIn(t, plain(h), tc.want)
		if h.m.mode != modeNone || h.m.focus != focusList {
			t.Errorf("%s on job %s: mode %v, focus %v", tc.key, tc.job, h.m.mode, h.m.focus)
		}
		for _, j := range jobs {
			if j.killed || j.backgrounded || len(j.signals) > 0 {
				t.Errorf("%s on job %s acted on job %s", tc.key, tc.job, j.info.ID)
			}
		}
		if len(b.started) > 0 || len(b.removed) > 0 {
			t.Errorf("%s on job %s started %v, removed %v", tc.key, tc.job, b.started, b.removed)
		}
	}
}

// The theme key's choice is handed to SaveTheme, off the Update goroutine,
// for the next start; the status line says whether it was kept.
func TestThemeKeyIsSaved(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var saved []string
	var fail error
	b, _ := fixture(t)
	h := newHarness(t, b, nil, "dark", func(o *Options) {
		o.SaveTheme = func(name string) error {
			mu.Lock()
			defer mu.Unlock()
			saved = append(saved, name)
			return fail
		}
	})
	h.press("t")
	wantIn(t, plain(h), "theme light, kept for the next start")
	if got := h.m.c.Styles.Palette.Name; got != "light" {
		t.Fatalf("theme %q after t, want light", got)
	}
	h.press("t")
	if !slices.Equal(saved, []string{"light", "dark"}) {
		t.Fatalf("saved %q, want light then dark", saved)
	}
	fail = errors.New("config /x: read-only file system")
	h.press("t")
	wantIn(t, plain(h), "theme light, but it is not kept for the next start: config /x: read-only file system")

	// Quick presses: their commands may run in any order, but the last
	// write is the last choice.
	saved = nil
	fail = nil
	var cmds []tea.Cmd
	for range 3 {
		_, cmd := h.m.Update(keyMsg("t"))
		cmds = append(cmds, cmd)
	}
	for i := len(cmds) - 1; i >= 0; i-- {
		h.run(cmds[i])
	}
	if got := saved[len(saved)-1]; got != h.m.c.Styles.Palette.Name {
		t.Errorf("last saved %q, but the theme shown is %q", got, h.m.c.Styles.Palette.Name)
	}
}

// fullScreenJob adds a running PTY job whose screen is what setup wrote.
func fullScreenJob(b *fakeBackend, setup string) *fakeJob {
	term := vterm.New(60, 10)
	_, _ = term.Write([]byte(setup))
	return b.add(&fakeJob{info: engine.Info{ID: "20", Command: "less README.md", Cwd: "/srv/app", PTY: true,
		Origin: engine.PersonOrigin(), Status: engine.Running, StartedAt: now}, term: term})
}

// The wheel over a PTY job showing a full-screen program sends it arrow
// keys, three a notch, in its cursor mode (as tmux's alternate-scroll
// does); to one that asked for mouse reports, wheel reports; over a plain
// screen it scrolls tend's own scrollback of the job.
func TestWheelOverFullScreenProgram(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		screen string
		want   []string // what the job gets from one notch down and one up
	}{
		{"alternate screen", "\x1b[?1049hpage 1", []string{"\x1b[B\x1b[B\x1b[B", "\x1b[A\x1b[A\x1b[A"}},
		{"alternate screen, application cursor keys", "\x1b[?1049h\x1b[?1hpage 1", []string{"\x1bOB\x1bOB\x1bOB", "\x1bOA\x1bOA\x1bOA"}},
		{"mouse reports", "\x1b[?1049h\x1b[?1000h\x1b[?1006hpage 1", nil}, // the cell depends on the layout: checked below
		{"plain screen", "$ ls\r\na b c\r\n$ ", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, _ := fixture(t)
			j := fullScreenJob(b, tc.screen)
			h := newHarness(t, b, nil, "dark")
			h.selectJob("20")
			x, y := h.m.listWidth()+1+4, 3+2 // cell (4, 2) of the job's screen
			h.send(tea.MouseWheelMsg{X: x, Y: y, Button: tea.MouseWheelDown})
			h.send(tea.MouseWheelMsg{X: x, Y: y, Button: tea.MouseWheelUp})
			j.mu.Lock()
			got := slices.Clone(j.inputs)
			j.mu.Unlock()
			switch tc.name {
			case "mouse reports":
				if want := []string{"\x1b[<65;5;3M", "\x1b[<64;5;3M"}; !slices.Equal(got, want) {
					t.Errorf("the job got %q, want %q", got, want)
				}
			case "plain screen":
				if len(got) > 0 {
					t.Errorf("the job got %q from the wheel over its plain screen", got)
				}
				h.send(tea.MouseWheelMsg{X: x, Y: y, Button: tea.MouseWheelUp})
				if !h.m.pane.scrolledBack() {
					t.Error("the wheel did not scroll tend's scrollback of the job")
				}
			default:
				if !slices.Equal(got, tc.want) {
					t.Errorf("the job got %q, want %q", got, tc.want)
				}
				if h.m.pane.scrolledBack() {
					t.Error("tend's scrollback scrolled too")
				}
			}
		})
	}
}

// However narrow the screen, the help bar keeps "? help" and "q quit":
// other hints are dropped first.
func TestHelpBarKeepsHelpAndQuit(t *testing.T) {
	t.Parallel()
	for _, w := range []int{34, 40, 60, 80, 100, 120, 160} {
		for _, view := range []string{"job", "approval"} {
			var h *harness
			if view == "approval" {
				h, _, _ = approvalHarness(t, "dark", pushRequest())
				h.press("up") // the pending approval, at the top of the list
			} else {
				b, _ := fixture(t)
				h = newHarness(t, b, nil, "dark")
			}
			h.send(tea.WindowSizeMsg{Width: w, Height: 20})
			lines := strings.Split(plain(h), "\n")
			bar := lines[len(lines)-1]
			if !strings.Contains(bar, "? help") || !strings.Contains(bar, "q quit") || strings.Contains(bar, "…") {
				t.Errorf("%d wide, %s selected: the help bar is %q", w, view, bar)
			}
		}
	}
}
