package ui

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// terminal draws the UI's frames on the person's terminal when they change,
// and only then. Bubble Tea's own renderer looks for a new frame fps times
// a second whether or not anything changed, and each look wakes the process
// (about 80 µs of CPU here: half a percent of a core at 60 fps for a UI
// doing nothing). The program runs without its renderer; the model's View
// hands each frame to [terminal.show], and a goroutine draws it at once, or,
// while frames keep coming, at most fps times a second.
//
// It owns the terminal's modes, as the renderer did: raw input, the
// alternate screen, mouse and bracketed-paste reporting, the keyboard
// protocol, the window title and colours, and the cursor. Frames are
// diffed cell by cell against the last (ultraviolet's renderer, the one
// Bubble Tea's uses).
type terminal struct {
	in, out *os.File
	frame   time.Duration // the shortest time between two frames
	kick    chan struct{} // a new view waits
	done    chan struct{}
	closing sync.Once

	mu       sync.Mutex // guards what follows, and writes to out
	next     tea.View   // the newest view
	drawn    *tea.View  // the view on the terminal; nil: none yet (or all is to be drawn again)
	modes    bool       // the UI's modes are set: the alternate screen, mouse, keyboard
	set      modeState  // with modes: the title, mouse mode and colours the terminal has from us
	paused   bool       // a program of the person's has the terminal
	width    int
	height   int
	profile  colorprofile.Profile
	r        *uv.TerminalRenderer
	cells    uv.ScreenBuffer
	pending  bytes.Buffer // what r wrote, written to out in one go
	rawState *term.State
}

// modeState is what of a view draw sets on the terminal besides its cells.
type modeState struct {
	title  string
	mouse  tea.MouseMode
	fg, bg color.Color // nil: the terminal's own, untouched
}

// openTerminal puts in in raw mode and prepares to draw on out at most fps
// frames a second; [terminal.close] gives both back as they were.
func openTerminal(in, out *os.File, fps int) (*terminal, error) {
	st, err := term.MakeRaw(in.Fd())
	if err != nil {
		return nil, fmt.Errorf("raw mode: %w", err)
	}
	w, h, err := term.GetSize(out.Fd())
	if err != nil {
		term.Restore(in.Fd(), st)
		return nil, fmt.Errorf("terminal size: %w", err)
	}
	t := &terminal{
		in: in, out: out, frame: time.Second / time.Duration(max(fps, 1)),
		kick: make(chan struct{}, 1), done: make(chan struct{}),
		width: w, height: h, rawState: st,
		profile: colorprofile.Detect(out, os.Environ()),
	}
	t.reset()
	return t, nil
}

// reset starts a renderer that knows nothing of the screen: the next frame
// is drawn whole, with every mode set again.
func (t *terminal) reset() {
	t.pending.Reset()
	t.r = uv.NewTerminalRenderer(&t.pending, os.Environ())
	t.r.SetColorProfile(t.profile)
	t.r.SetTabStops(-1)
	t.r.SetScrollOptim(true)
	t.cells = uv.NewScreenBuffer(t.width, t.height)
	t.drawn = nil
}

// size is the terminal's size when it was opened or last resized.
func (t *terminal) size() (int, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.width, t.height
}

// run draws frames until close, and tells send of each new size of the
// terminal.
func (t *terminal) run(send func(tea.Msg)) {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	var wait <-chan time.Time // the pause after a frame; nil: none
	for {
		select {
		case <-t.done:
			return
		case <-winch:
			if w, h, err := term.GetSize(t.out.Fd()); err == nil {
				t.resize(w, h)
				send(tea.WindowSizeMsg{Width: w, Height: h})
			}
		case <-t.kick:
			if wait != nil {
				continue // drawn when the pause ends
			}
			if t.draw() {
				wait = time.After(t.frame)
			}
		case <-wait:
			wait = nil
			t.mu.Lock()
			again := t.drawn == nil || !sameView(t.drawn, &t.next)
			t.mu.Unlock()
			if again && t.draw() {
				wait = time.After(t.frame)
			}
		}
	}
}

// show takes the model's newest view; it is drawn soon if it differs from
// the one on the terminal.
func (t *terminal) show(v tea.View) {
	t.mu.Lock()
	t.next = v
	changed := t.drawn == nil || !sameView(t.drawn, &v)
	t.mu.Unlock()
	if changed {
		t.poke()
	}
}

func (t *terminal) poke() {
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

// resize draws the next frame whole, at the new size.
func (t *terminal) resize(w, h int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.width, t.height = w, h
	t.r.Resize(w, h)
	t.r.Erase()
	t.cells.Resize(w, h)
	t.drawn = nil
}

// setProfile is the colour profile the frames are drawn in.
func (t *terminal) setProfile(p colorprofile.Profile) {
	t.mu.Lock()
	t.profile = p
	t.r.SetColorProfile(p)
	t.mu.Unlock()
}

// write sends seq to the terminal now (a query, the clipboard, a
// notification), between frames.
func (t *terminal) write(seq string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.paused {
		io.WriteString(t.out, seq)
	}
}

// draw writes what changed since the last frame, in one write; false
// when the terminal is not the UI's to draw on.
func (t *terminal) draw() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paused {
		return false
	}
	v := t.next
	r := t.r
	if !t.modes { // the first frame, or the first after a pause
		r.EnterAltScreen()
		r.WriteString(ansi.SetModeBracketedPaste + ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(1))
		r.WriteString(mouseModes(v.MouseMode) + ansi.SetWindowTitle(v.WindowTitle))
		t.modes, t.set = true, modeState{title: v.WindowTitle, mouse: v.MouseMode}
	}
	if t.set.mouse != v.MouseMode {
		r.WriteString(mouseModes(v.MouseMode))
		t.set.mouse = v.MouseMode
	}
	if t.set.title != v.WindowTitle {
		r.WriteString(ansi.SetWindowTitle(v.WindowTitle))
		t.set.title = v.WindowTitle
	}
	// The terminal's own colours are left alone unless the view sets
	// them (a theme with a background of its own), and given back after.
	if !sameColor(t.set.fg, v.ForegroundColor) {
		r.WriteString(setColor(v.ForegroundColor, ansi.SetForegroundColor, ansi.ResetForegroundColor))
		t.set.fg = v.ForegroundColor
	}
	if !sameColor(t.set.bg, v.BackgroundColor) {
		r.WriteString(setColor(v.BackgroundColor, ansi.SetBackgroundColor, ansi.ResetBackgroundColor))
		t.set.bg = v.BackgroundColor
	}
	t.cells.Clear()
	uv.NewStyledString(v.Content).Draw(t.cells, t.cells.Bounds())
	r.Render(t.cells.RenderBuffer)
	if v.Cursor != nil {
		r.MoveTo(v.Cursor.X, v.Cursor.Y) // after Render, which moves it
	}
	r.Flush()
	// The frame is one synchronized update (mode 2026: terminals that
	// know it show it whole, the rest ignore the mode), with the cursor
	// hidden while it is drawn and shown after it where the view puts it.
	var frame bytes.Buffer
	frame.WriteString(ansi.SetModeSynchronizedOutput + ansi.ResetModeTextCursorEnable)
	frame.Write(t.pending.Bytes())
	if v.Cursor != nil {
		frame.WriteString(ansi.SetModeTextCursorEnable)
	}
	frame.WriteString(ansi.ResetModeSynchronizedOutput)
	t.pending.Reset()
	t.out.Write(frame.Bytes())
	t.drawn = &v
	return true
}

// pause gives the terminal back as it was before the UI (for a pager or
// an editor); resume takes it again and redraws the whole frame.
func (t *terminal) pause() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paused {
		return
	}
	t.restoreModes()
	term.Restore(t.in.Fd(), t.rawState)
	t.paused = true
}

func (t *terminal) resume() {
	t.mu.Lock()
	if st, err := term.MakeRaw(t.in.Fd()); err == nil {
		t.rawState = st
	}
	if w, h, err := term.GetSize(t.out.Fd()); err == nil {
		t.width, t.height = w, h
	}
	t.paused = false
	t.reset()
	t.mu.Unlock()
	t.poke()
}

// restoreModes undoes what draw set, and leaves the alternate screen.
func (t *terminal) restoreModes() {
	if !t.modes {
		return
	}
	var b bytes.Buffer
	b.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
	b.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	b.WriteString(ansi.ResetModeBracketedPaste + ansi.SetWindowTitle(""))
	if t.set.fg != nil {
		b.WriteString(ansi.ResetForegroundColor)
	}
	if t.set.bg != nil {
		b.WriteString(ansi.ResetBackgroundColor)
	}
	b.WriteString(ansi.ResetModeAltScreenSaveCursor + ansi.SetModeTextCursorEnable)
	t.out.Write(b.Bytes())
	t.modes, t.set, t.drawn = false, modeState{}, nil
}

// close stops drawing and gives the terminal back as it was; it may be
// called more than once.
func (t *terminal) close() {
	t.closing.Do(func() { close(t.done) })
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.paused {
		t.restoreModes()
		term.Restore(t.in.Fd(), t.rawState)
		t.paused = true
	}
}

// exec runs c with the terminal given back to the person, as
// tea.ExecProcess does, for [tea.Exec].
func (t *terminal) exec(c *exec.Cmd) tea.ExecCommand { return &pausedCmd{c, t} }

type pausedCmd struct {
	*exec.Cmd
	t *terminal
}

func (c *pausedCmd) Run() error {
	c.t.pause()
	defer c.t.resume()
	return c.Cmd.Run()
}

// The program's streams, unless c has its own.
func (c *pausedCmd) SetStdin(r io.Reader) {
	if c.Stdin == nil {
		c.Stdin = r
	}
}

func (c *pausedCmd) SetStdout(w io.Writer) {
	if c.Stdout == nil {
		c.Stdout = w
	}
}

func (c *pausedCmd) SetStderr(w io.Writer) {
	if c.Stderr == nil {
		c.Stderr = w
	}
}

func mouseModes(m tea.MouseMode) string {
	off := ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr
	switch m {
	case tea.MouseModeCellMotion:
		return off + ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr
	case tea.MouseModeAllMotion:
		return off + ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr
	}
	return off
}

func setColor(c color.Color, set func(string) string, reset string) string {
	if c == nil {
		return reset
	}
	r, g, b, _ := c.RGBA()
	return set(fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8))
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// sameView reports whether drawing b over a would change nothing.
func sameView(a, b *tea.View) bool {
	cursorSame := (a.Cursor == nil) == (b.Cursor == nil) &&
		(a.Cursor == nil || a.Cursor.Position == b.Cursor.Position)
	return a.Content == b.Content && cursorSame && a.MouseMode == b.MouseMode &&
		a.WindowTitle == b.WindowTitle &&
		sameColor(a.ForegroundColor, b.ForegroundColor) && sameColor(a.BackgroundColor, b.BackgroundColor)
}
