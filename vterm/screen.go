package vterm

import (
	"strconv"
	"unicode/utf8"
)

// Bits of vt10x's unexported state that vterm reads back or mirrors;
// TestVT10xBitsPinned pins them.
const (
	vtCursorWrapNext = 1 << 1 // vt10x cursorWrapNext: the pending-wrap state
	vtCursorOrigin   = 1 << 2 // vt10x cursorOrigin: origin mode, kept with the cursor
)

// emitCSI queues ESC [ args… final for vt10x.
func (t *Term) emitCSI(final byte, args ...int) {
	t.out = append(t.out, 0x1b, '[')
	for i, a := range args {
		if i > 0 {
			t.out = append(t.out, ';')
		}
		t.out = strconv.AppendInt(t.out, int64(a), 10)
	}
	t.out = append(t.out, final)
}

// emitCSI1 queues ESC [ n final, or ESC [ final when n is the parameter's
// default for vt10x.
func (t *Term) emitCSI1(final byte, n, def int) {
	if n == def {
		t.out = append(t.out, 0x1b, '[', final)
		return
	}
	t.emitCSI(final, n)
}

func (t *Term) emitRune(r rune) { t.out = utf8.AppendRune(t.out, r) }

// flush hands the queued bytes to vt10x.
func (t *Term) flush() {
	t.move.at = -1 // the queue a move could be taken back from is gone
	if len(t.out) == 0 {
		return
	}
	_, _ = t.vt.Write(t.out)
	t.vtBytes += uint64(len(t.out))
	t.vtWrites++
	t.out = t.out[:0]
}

// queuedMove is the cursor move queued last: where in t.out it starts and
// ends, and the cursor before it.
type queuedMove struct {
	at, end int // at < 0: none that can be taken back
	x, y    int
	wrap    bool
}

// moveCursor moves the cursor to x, y, which must be where vt10x's moveTo
// would put it (on the screen, and inside the scroll region in origin
// mode), ending a pending wrap. Full-screen programs move the cursor
// between every few characters, often twice in a row, and vt10x's parser
// costs per byte: so the move queued is the shortest one from where the
// cursor is (none when it is there), and a move queued right before with
// nothing after it is taken back first.
func (t *Term) moveCursor(x, y int) {
	t.needCursor()
	if m := t.move; m.at >= 0 && m.end == len(t.out) {
		t.out = t.out[:m.at]
		t.cx, t.cy, t.wrapNext = m.x, m.y, m.wrap
	}
	t.move = queuedMove{at: len(t.out), x: t.cx, y: t.cy, wrap: t.wrapNext}
	t.emitMove(x, y)
	t.move.end = len(t.out)
	t.cx, t.cy, t.wrapNext = x, y, false
}

// emitMove queues the shortest sequence that takes vt10x's cursor from the
// shadow cursor to x, y, ending a pending wrap.
func (t *Term) emitMove(x, y int) {
	cx, cy := t.cx, t.cy
	if x == cx && y == cy && !t.wrapNext {
		return
	}
	// A line feed moves down a line unless it is on the bottom margin,
	// where it scrolls; a carriage return goes to the first column.
	lf := y == cy+1 && cy != t.bottom
	switch {
	case y == cy && x == 0:
		t.out = append(t.out, '\r')
		return
	case y == cy && x == cx-1:
		t.out = append(t.out, '\b')
		return
	case lf && x == cx:
		t.out = append(t.out, '\n')
		return
	case lf && x == 0:
		t.out = append(t.out, '\r', '\n')
		return
	}
	row := y + 1 // CUP and VPA count rows from the region's top in origin mode
	if t.modes.Origin {
		row -= t.top
	}
	cup := 4 + digits(row) + digits(x+1) // ESC [ row ; col H
	if x == 0 {
		cup = 3 + digits(row)
		if row == 1 {
			cup = 3
		}
	}
	switch {
	case y == cy:
		// CUF or CUB by the difference, or CHA; the pending wrap (the
		// cursor on the last column) ends with a CUF that stays there.
		d, f := x-cx, byte('C')
		if d < 0 {
			d, f = -d, 'D'
		}
		if d == 0 && cx != t.cols-1 {
			d = -1 // CHA only
		}
		if d >= 0 && relLen(d) <= min(3+digits(x+1), cup) {
			t.emitCSI1(f, max(d, 1), 1)
			return
		}
		if 3+digits(x+1) <= cup {
			t.emitCSI('G', x+1)
			return
		}
	case x == cx:
		d, f := y-cy, byte('B')
		if d < 0 {
			d, f = -d, 'A'
		}
		if relLen(d) <= min(3+digits(row), cup) {
			t.emitCSI1(f, d, 1)
			return
		}
		if 3+digits(row) <= cup {
			t.emitCSI('d', row)
			return
		}
	}
	switch {
	case x == 0 && row == 1:
		t.out = append(t.out, 0x1b, '[', 'H')
	case x == 0:
		t.emitCSI('H', row)
	default:
		t.emitCSI('H', row, x+1)
	}
}

// relLen is the length of a relative move by n (ESC [ n C, the 1 left out).
func relLen(n int) int {
	if n == 1 {
		return 3
	}
	return 3 + digits(n)
}

// digits is the number of decimal digits of n >= 0.
func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// needCursor makes the shadow cursor valid, reading vt10x's if need be.
func (t *Term) needCursor() {
	if t.curOK {
		return
	}
	t.flush()
	c := t.vt.Cursor()
	t.cx, t.cy = c.X, c.Y
	t.wrapNext = c.State&vtCursorWrapNext != 0
	t.curOK = true
}

// setVT makes vt10x's current attribute carry style id: the cells it writes
// or erases from now on get that id as their "foreground".
func (t *Term) setVT(id uint32) {
	if t.vtStyle == id {
		return
	}
	t.vtStyle = id
	// vt10x stores SGR 3x, 9x and 38;5;n as the bare colour number, the same
	// value 38;2;0;0;n gives, so small ids take the shorter forms: vt10x's
	// parser costs per byte.
	switch {
	case id == 0:
		t.out = append(t.out, "\x1b[m"...)
	case id < 8:
		t.out = append(t.out, 0x1b, '[', '3', byte('0'+id), 'm')
	case id < 16:
		t.out = append(t.out, 0x1b, '[', '9', byte('0'+id-8), 'm')
	case id < 256:
		t.emitCSI('m', 38, 5, int(id))
	default:
		t.emitCSI('m', 38, 2, int(id>>16), int(id>>8&0xff), int(id&0xff))
	}
}

// styleID returns the id of s, collecting unused ids when the table is full.
// If even that fails (a screen using 65536 styles at once) s falls back to
// the default style rather than growing without bound.
func (t *Term) styleID(s Style) uint32 {
	if id, ok := t.styles.id(s); ok {
		return id
	}
	t.collectGarbage()
	id, _ := t.styles.id(s)
	return id
}

// setStyle changes the current rendition.
func (t *Term) setStyle(s Style) {
	t.style = s
	t.curID = t.styleID(s)
}

// eraseStyle prepares vt10x for an erase: like tmux and xterm (background
// colour erase), erased cells keep only the current background colour.
// vt10x would copy the whole current attribute into them.
func (t *Term) eraseStyle() {
	t.setVT(t.styleID(Style{BG: t.style.BG}))
}

func (t *Term) clampY(y int) int {
	lo, hi := 0, t.rows-1
	if t.modes.Origin {
		lo, hi = t.top, t.bottom
	}
	return min(max(y, lo), hi)
}

// lineFeed moves the cursor down a line, scrolling at the bottom margin, and
// returns the carriage first when cr is set. A scroll fills the new line with
// the current background when bce is set (LF, IND, NEL as in tmux), with the
// default one otherwise (an autowrap).
func (t *Term) lineFeed(cr, bce bool) {
	t.needCursor()
	// vt10x's LF (vterm never sets its LNM) scrolls in a line of default
	// cells; IND scrolls in cells of the current attribute, so it serves
	// when the new line must carry a background colour.
	ind := bce && t.cy == t.bottom && t.style.BG != DefaultColor
	if ind {
		t.eraseStyle()
	}
	wrapNext := t.wrapNext
	t.advanceLine(cr)
	if cr {
		t.out = append(t.out, '\r')
	}
	if ind {
		t.out = append(t.out, 0x1b, 'D')
		if wrapNext && !cr {
			// vt10x's IND at the bottom keeps a pending wrap, which a line
			// feed ends: a CHA to the same column ends it.
			t.emitCSI('G', t.cx+1)
		}
	} else {
		t.out = append(t.out, '\n')
	}
}

// advanceLine mirrors vt10x's newline on the shadow cursor, first saving the
// top line into the scrollback if it is about to scroll off the screen.
func (t *Term) advanceLine(cr bool) {
	if t.cy == t.bottom {
		t.captureTop(1)
	} else {
		t.cy = t.clampY(t.cy + 1)
	}
	if cr {
		t.cx = 0
	}
	t.wrapNext = false
}

// captureTop copies the top n lines into the scrollback before a scroll that
// removes them: only on the primary screen and only when the scroll region
// starts at the top, so a status line or a pager's region never leaks in.
func (t *Term) captureTop(n int) {
	if t.alt || t.top != 0 || t.sb.max == 0 {
		return
	}
	t.flush()
	n = min(n, t.bottom+1)
	for y := 0; y < n; y++ {
		t.sb.push(t.packRow(y))
	}
}

// resize changes vt10x's size and fixes what its resize gets wrong.
func (t *Term) resize(cols, rows int) {
	t.needCursor()
	// vt10x slides the screen up when the cursor would fall off the bottom;
	// those lines leave the top, so they belong in the scrollback.
	if slide := t.cy - rows + 1; slide > 0 {
		t.top, t.bottom = 0, t.rows-1
		t.captureTop(slide)
	}
	oldCols := t.cols
	t.setVT(0) // vt10x fills new cells with the current attribute; tmux uses the default
	t.flush()
	t.vt.Resize(cols, rows)
	t.cols, t.rows = cols, rows
	t.top, t.bottom = 0, rows-1
	t.curOK = false
	if cols > oldCols {
		// vt10x sets the new tab stops in the old slice it then drops; set
		// them every 8 columns from the old margin, as a fresh terminal has.
		t.needCursor()
		for x := (oldCols + 7) / 8 * 8; x < cols; x += 8 {
			t.emitCSI('G', x+1)
			t.out = append(t.out, 0x1b, 'H')
		}
		t.emitCSI('G', t.cx+1)
		t.curOK = false
	}
}

// collectGarbage frees the style and cluster ids no cell uses any more.
func (t *Term) collectGarbage() {
	t.flush()
	styles := map[uint32]bool{t.curID: true, t.saved.id: true, t.alt1049.id: true}
	clusters := map[uint32]bool{}
	for k := range t.hiddenStyles {
		styles[k] = true
	}
	for k := range t.hiddenClusters {
		clusters[k] = true
	}
	t.idsOnScreen(styles, clusters)
	t.styles.sweep(styles)
	t.clusters.sweep(clusters)
	// vtStyle may have been freed and is re-sent before the next use.
	if !styles[t.vtStyle] {
		t.vtStyle = ^uint32(0)
	}
}

// idsOnScreen adds the style and cluster ids of every visible cell. A style
// is added once per run of cells that carry it: a map insert per cell was
// most of the cost of switching to the alternate screen.
func (t *Term) idsOnScreen(styles, clusters map[uint32]bool) {
	last := ^uint32(0)
	for y := 0; y < t.rows; y++ {
		for x := 0; x < t.cols; x++ {
			g := t.vt.Cell(x, y)
			if id := vtStyleID(g.FG); id != last {
				styles[id], last = true, id
			}
			if id, ok := clusterID(g.Char); ok {
				clusters[id] = true
			}
		}
	}
}
