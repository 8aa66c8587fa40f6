package ui

import (
	"bytes"
	"image/color"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"
)

// ptyTerminal is a terminal drawn on a PTY whose other end the test reads.
type ptyTerminal struct {
	*terminal
	mu  sync.Mutex
	out bytes.Buffer // all it wrote
}

func newPTYTerminal(t *testing.T) *ptyTerminal {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 40, Rows: 6}); err != nil {
		t.Fatal(err)
	}
	term, err := openTerminal(tty, tty, 60)
	if err != nil {
		t.Fatal(err)
	}
	pt := &ptyTerminal{terminal: term}
	read := make(chan struct{})
	go func() {
		defer close(read)
		b := make([]byte, 4096)
		for {
			n, err := ptmx.Read(b)
			pt.mu.Lock()
			pt.out.Write(b[:n])
			pt.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go term.run(func(tea.Msg) {})
	t.Cleanup(func() {
		term.close()
		tty.Close()
		ptmx.Close()
		<-read
	})
	return pt
}

// waitFor waits until the terminal wrote want, and returns what it wrote
// since the last call.
func (pt *ptyTerminal) waitFor(t *testing.T, want string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pt.mu.Lock()
		got := pt.out.String()
		if strings.Contains(got, want) {
			pt.out.Reset()
			pt.mu.Unlock()
			return got
		}
		pt.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never got %q; it got %q", want, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The terminal's own colours are the person's: a view without colours of
// its own leaves them alone, one with them sets them, and closing gives
// them back; each frame is one synchronized update.
func TestTerminalLeavesColoursAlone(t *testing.T) {
	t.Parallel()
	pt := newPTYTerminal(t)
	v := tea.NewView("first frame")
	v.AltScreen, v.WindowTitle = true, "tend"
	pt.show(v)
	got := pt.waitFor(t, "first frame")
	if strings.Contains(got, "\x1b]110") || strings.Contains(got, "\x1b]111") || strings.Contains(got, "\x1b]11;") {
		t.Errorf("a view without colours touched the terminal's: %q", got)
	}
	if begin, end := strings.Index(got, "\x1b[?2026h"), strings.LastIndex(got, "\x1b[?2026l"); begin < 0 || end < strings.Index(got, "first frame") {
		t.Errorf("the frame is not one synchronized update: %q", got)
	}
	v = tea.NewView("second frame")
	v.AltScreen, v.WindowTitle = true, "tend"
	v.BackgroundColor = color.RGBA{R: 0x10, G: 0x20, B: 0x30, A: 0xff}
	pt.show(v)
	if got := pt.waitFor(t, "second frame"); !strings.Contains(got, "\x1b]11;#102030") {
		t.Errorf("a view's background was not set: %q", got)
	}
	pt.close()
	if got := pt.waitFor(t, "\x1b[?1049l"); !strings.Contains(got, "\x1b]111") || strings.Contains(got, "\x1b]110") {
		t.Errorf("closing did not give back the background (and only it): %q", got)
	}
}

// A view like the one drawn is not drawn again: an idle UI writes nothing.
func TestTerminalDrawsOnlyChanges(t *testing.T) {
	t.Parallel()
	pt := newPTYTerminal(t)
	v := tea.NewView("frame one")
	pt.show(v)
	pt.waitFor(t, "frame one")
	for range 50 {
		pt.show(tea.NewView("frame one"))
	}
	pt.show(tea.NewView("frame two"))
	if got := pt.waitFor(t, "two"); strings.Count(got, "\x1b[?25l") != 1 {
		t.Errorf("the same view drawn again, or frames not coalesced: %d frames in %q", strings.Count(got, "\x1b[?25l"), got)
	}
}
