package vterm

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/hinshun/vt10x"
)

// MaxSize is the largest width or height Resize accepts.
const MaxSize = 1000

// DefaultScrollback is the number of scrollback lines kept unless
// [WithScrollback] says otherwise.
const DefaultScrollback = 10000

// Option configures a [Term].
type Option func(*Term)

// WithReplies sets where answers to the application's queries (DA1, DA2,
// DSR, CPR, DECRQM, XTVERSION) go, normally the PTY master. w is called from
// a goroutine of the Term's own, in order, never while the emulator is
// locked, so it may block; replies beyond a small queue are dropped.
func WithReplies(w func([]byte)) Option { return func(t *Term) { t.replies.w = w } }

// WithScrollback sets how many lines that scroll off the top of the primary
// screen are kept (default [DefaultScrollback]; 0 keeps none).
func WithScrollback(lines int) Option {
	return func(t *Term) { t.sb.max = max(lines, 0) }
}

// Term is a terminal screen fed with the bytes a program writes to its
// terminal. All methods are safe for concurrent use.
type Term struct {
	// mu guards everything below but snap and replies: Write holds it for a
	// whole chunk, Snapshot only tries it.
	mu  sync.Mutex
	vt  vt10x.Terminal
	p   parser
	out []byte // canonical bytes for vt10x, written at the next flush

	cols, rows int
	seq        uint64

	// Shadow of vt10x's cursor, valid while curOK: printing and line feeds
	// need it for every character, and asking vt10x means a flush.
	cx, cy   int
	wrapNext bool
	curOK    bool
	move     queuedMove // the last cursor move queued, to take back

	top, bottom int  // scroll region, mirrored from what we sent vt10x
	alt         bool // the alternate screen is shown

	style    Style  // current rendition (SGR)
	curID    uint32 // style id of style
	vtStyle  uint32 // style id vt10x's cursor attribute carries now
	styles   styleTable
	clusters clusterTable
	// Ids used on the primary screen while it is hidden behind the
	// alternate one, where the garbage collector cannot look.
	hiddenStyles, hiddenClusters map[uint32]bool

	charset charsetState
	saved   savedCursor // DECSC/DECRC; vt10x holds the position
	alt1049 savedCursor // ?1049h saves its own cursor, as tmux does

	last   rune // last printed character, for REP
	lastOK bool

	modes  Modes
	title  string
	panics uint64

	vtBytes, vtWrites uint64      // what vterm handed vt10x, for benchmarks
	rowBuf            []Cell      // scratch row for the scrollback
	floodText         []byte      // scratch for flood: a scrolled line's text
	floodStarts       []int       // scratch for flood: where lines start,
	floodPens         []Style     // the rendition there,
	floodParser       parser      // and a parser for their CSI sequences,
	sgrMemo           [32]sgrMemo // with the SGR sequences read lately
	slowOnly          bool        // no flood, no text moved over: tests compare with the slow path

	// pending is the screenful a flood that ended a Write left to print
	// (flood.go): its text from the first line's start, then pendingTail
	// bytes cut short by the end of the Write; the rendition at its start
	// is style. While pendingOn vt10x holds a blank screen with the cursor
	// home, and so does the shadow cursor.
	pending     []byte
	pendingTail int
	pendingOn   bool
	floodJoin   []byte // scratch for resume: a pending tail and what follows it
	topFeed     bool   // the feed starting is a Write's own: a flood ending it may leave its screenful pending

	sb      scrollback
	replies replyQueue

	// snap is the last snapshot taken; Snapshot returns it while a Write
	// holds mu, so a flooding program cannot freeze the UI.
	snap atomic.Pointer[Snapshot]
}

// charsetState is G0/G1 (DEC special graphics or not) and which is in GL.
type charsetState struct {
	gfx [2]bool
	gl  int
}

// savedCursor is what DECSC and ?1049h save besides vt10x's position.
type savedCursor struct {
	ok      bool
	x, y    int
	style   Style
	id      uint32
	charset charsetState
	origin  bool
}

// New returns a cols×rows terminal. Sizes outside 1..[MaxSize] are clamped.
func New(cols, rows int, opts ...Option) *Term {
	cols, rows = clampSize(cols), clampSize(rows)
	t := &Term{cols: cols, rows: rows, move: queuedMove{at: -1}}
	t.sb.max = DefaultScrollback
	for _, o := range opts {
		o(t)
	}
	t.vt = vt10x.New(vt10x.WithSize(cols, rows))
	t.reset()
	t.snap.Store(t.snapshotLocked())
	return t
}

// reset puts vterm's own state back to power-on (vt10x is reset separately).
func (t *Term) reset() {
	t.p = parser{osc: t.p.osc[:0]}
	t.modes = defaultModes()
	t.styles = newStyleTable()
	t.clusters = newClusterTable()
	t.style, t.curID, t.vtStyle = Style{}, 0, 0
	t.hiddenStyles, t.hiddenClusters = nil, nil
	t.charset = charsetState{}
	t.saved, t.alt1049 = savedCursor{}, savedCursor{}
	t.top, t.bottom = 0, t.rows-1
	t.alt, t.lastOK, t.curOK = false, false, false
}

func clampSize(n int) int { return min(max(n, 1), MaxSize) }

// Write feeds p to the terminal. It always consumes all of p: an incomplete
// trailing UTF-8 sequence is held for the next Write (vt10x drops it), and a
// panic inside vt10x is recovered and counted rather than passed on.
func (t *Term) Write(p []byte) (n int, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			t.afterPanic()
			n, err = len(p), nil
		}
	}()
	if t.pendingOn {
		p = t.resume(p)
	}
	t.topFeed = true
	t.feed(p)
	t.flush()
	t.seq++
	return len(p), nil
}

// afterPanic keeps a hostile stream from taking the job down with it: the
// parser restarts in the ground state and the cursor is read back afresh.
func (t *Term) afterPanic() {
	t.panics++
	t.p.state, t.p.u8n = stGround, 0
	t.pendingOn, t.topFeed = false, false
	t.out = t.out[:0]
	t.move.at = -1
	t.curOK = false
	t.seq++
}

// Panics returns how many panics inside the emulator Write has recovered.
func (t *Term) Panics() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.panics
}

// ErrSize is returned by Resize for a size outside 1x1..MaxSize x MaxSize.
var ErrSize = errors.New("vterm: size out of range")

// Resize changes the screen size. It rejects sizes below 1 or above [MaxSize].
func (t *Term) Resize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > MaxSize || rows > MaxSize {
		return fmt.Errorf("resize to %dx%d: %w", cols, rows, ErrSize)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			t.afterPanic()
		}
	}()
	t.showPending()
	t.resize(cols, rows)
	t.flush()
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
	if s := t.snap.Load(); s.Seq == t.seq {
		return s
	}
	s := t.snapshotLocked()
	t.snap.Store(s)
	return s
}

// Scrollback returns the lines that scrolled off the top of the primary
// screen, oldest first: at most the number set with [WithScrollback].
func (t *Term) Scrollback() []Line {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sbLines(0, t.sb.len())
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
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return t, nil
		}
		if err != nil {
			return t, fmt.Errorf("vterm: replay: %w", err)
		}
	}
}

// History returns the scrollback (as [Term.Scrollback]) and the screen (as
// [Term.Snapshot]) taken at the same moment, so that no line is in both or
// in neither. Unlike Snapshot it waits for a Write in progress.
func (t *Term) History() ([]Line, *Snapshot) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.snap.Load()
	if s.Seq != t.seq {
		s = t.snapshotLocked()
		t.snap.Store(s)
	}
	return t.sbLines(0, t.sb.len()), s
}
