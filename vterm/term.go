package vterm

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// MaxSize is the largest width or height Resize and New accept.
const MaxSize = 1000

// DefaultScrollback is the number of scrollback lines kept unless
// [WithScrollback] says otherwise.
const DefaultScrollback = 10000

// Option configures a [Term].
type Option func(*Term)

// WithReplies sets where answers to the application's queries (DA1, DA2,
// DSR, CPR) go, normally the PTY master. w is called from a goroutine of the
// Term's own, in order, never while the emulator is locked, so it may block.
func WithReplies(w func([]byte)) Option { return func(t *Term) { t.replies.w = w } }

// WithScrollback sets how many lines that scroll off the top of the primary
// screen are kept (default [DefaultScrollback]; 0 keeps none).
func WithScrollback(lines int) Option {
	return func(t *Term) { t.sb.max = max(lines, 0) }
}

// Term is a terminal screen fed with the bytes a program writes to its
// terminal. All methods are safe for concurrent use.
type Term struct {
	// mu guards everything the emulator touches: vt and the stream state.
	// Write holds it for a whole chunk; Snapshot only tries it.
	mu sync.Mutex
	vt vt10x.Terminal

	cols, rows int
	pending    []byte // an incomplete UTF-8 sequence held back for the next Write
	seq        uint64
	modes      Modes
	title      string

	sb      scrollback
	replies replyQueue

	// snap is the last snapshot taken; Snapshot returns it while a Write
	// holds mu, so a flooding program cannot freeze the UI.
	snap atomic.Pointer[Snapshot]
}

// New returns a cols×rows terminal. Sizes outside 1..[MaxSize] are clamped.
func New(cols, rows int, opts ...Option) *Term {
	cols, rows = clampSize(cols), clampSize(rows)
	t := &Term{cols: cols, rows: rows, modes: defaultModes()}
	t.sb.max = DefaultScrollback
	for _, o := range opts {
		o(t)
	}
	t.vt = vt10x.New(vt10x.WithSize(cols, rows))
	t.snap.Store(t.snapshotLocked())
	return t
}

func clampSize(n int) int { return min(max(n, 1), MaxSize) }

// Write feeds p to the terminal. It always consumes all of p; an incomplete
// trailing UTF-8 sequence is held back for the next Write (vt10x drops it).
func (t *Term) Write(p []byte) (int, error) {
	t.mu.Lock()
	data := p
	if len(t.pending) > 0 {
		data = append(t.pending, p...)
	}
	cut := completePrefix(data)
	_, _ = t.vt.Write(data[:cut])
	t.pending = append(t.pending[:0], data[cut:]...)
	t.seq++
	t.mu.Unlock()
	return len(p), nil
}

// completePrefix returns the length of the longest prefix of p that does not
// end inside a UTF-8 sequence.
func completePrefix(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			break
		}
	}
	return len(p)
}

// Resize changes the screen size. It rejects sizes below 1 or above [MaxSize].
func (t *Term) Resize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > MaxSize || rows > MaxSize {
		return fmt.Errorf("vterm: resize to %dx%d: outside 1x1..%dx%d", cols, rows, MaxSize, MaxSize)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.vt.Resize(cols, rows)
	t.cols, t.rows = cols, rows
	t.seq++
	return nil
}

// Snapshot returns the current screen. It never waits for a busy emulator:
// while a Write is in progress it returns the previous snapshot.
func (t *Term) Snapshot() *Snapshot {
	if !t.mu.TryLock() {
		return t.snap.Load()
	}
	defer t.mu.Unlock()
	if s := t.snap.Load(); s != nil && s.Seq == t.seq {
		return s
	}
	s := t.snapshotLocked()
	t.snap.Store(s)
	return s
}

func (t *Term) snapshotLocked() *Snapshot {
	s := &Snapshot{Seq: t.seq, Cols: t.cols, Rows: t.rows, Title: t.title, Modes: t.modes}
	s.Cells = make([][]Cell, t.rows)
	for y := range s.Cells {
		row := make([]Cell, t.cols)
		for x := range row {
			g := t.vt.Cell(x, y)
			row[x] = Cell{Text: string(g.Char), Width: 1}
		}
		s.Cells[y] = row
	}
	c := t.vt.Cursor()
	s.Cursor = Cursor{X: c.X, Y: c.Y}
	s.AltScreen = t.vt.Mode()&vt10x.ModeAltScreen != 0
	return s
}

// Scrollback returns the lines that scrolled off the top of the primary
// screen, oldest first, at most the configured number.
func (t *Term) Scrollback() []Line {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sb.lines()
}

// Replay writes everything r yields into a new cols×rows terminal in
// 4096-byte chunks, as a PTY read would.
func Replay(r io.Reader, cols, rows int) (*Term, error) {
	t := New(cols, rows)
	buf := make([]byte, 4096)
	for {
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			_, _ = t.Write(buf[:n])
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return t, nil
		}
		if err != nil {
			return t, fmt.Errorf("vterm: replay: %w", err)
		}
	}
}
