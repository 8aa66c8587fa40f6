package vterm

import "unicode/utf8"

// decGraphics is the VT100 special graphics set (ESC ( 0) for 0x5f..0x7e.
var decGraphics = [...]rune{
	' ', // _ (blank)
	'◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼', '⎺',
	'⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
}

func (t *Term) graphicsActive() bool { return t.charset.gfx[t.charset.gl] }

// printASCII prints a run of printable ASCII: the common case, kept tight.
func (t *Term) printASCII(b []byte) {
	if t.graphicsActive() || t.modes.Insert {
		for _, c := range b {
			t.printRune(rune(c))
		}
		return
	}
	t.needCursor()
	t.last, t.lastOK = rune(b[len(b)-1]), true
	for len(b) > 0 {
		if t.wrapNext && t.modes.AutoWrap {
			t.lineFeed(true, false)
		}
		// What fits before the right margin; with autowrap off, a pending
		// wrap keeps each character on the last column.
		k := 1
		if !t.wrapNext {
			k = min(len(b), t.cols-t.cx)
		}
		t.printLine(b[:k])
		b = b[k:]
	}
}

// sameMin is the shortest run of characters printASCII leaves out because
// the cells already hold them: a cursor move over fewer costs vt10x about
// as much as printing them.
const sameMin = 8

// printLine prints ASCII that fits on the cursor's line. Full-screen
// programs often redraw text that is already there (a pager repainting its
// screen); vt10x's parser costs per character, so when the cells from the
// cursor on already hold the first sameMin or more characters in the
// current rendition, vterm moves over them instead of printing them. The
// cells are compared as vt10x holds them, glyph for glyph, so nothing
// changes but what vt10x is handed. Only a leading run is looked for: in
// the recorded programs a line redrawn as it was is redrawn whole, and
// comparing further cost more than it saved. The last column is always
// printed, for the pending wrap that leaves.
func (t *Term) printLine(b []byte) {
	if len(b) >= sameMin && !t.wrapNext && !t.slowOnly {
		// vt10x's cells and attribute must be up to date; a move queued
		// alone leaves them so, and is better taken back into the next.
		if t.vtStyle != t.curID || t.move.at != 0 || t.move.end != len(t.out) {
			t.setVT(t.curID)
			t.flush()
		}
		want := t.vt.Cursor().Attr
		end := len(b)
		if t.cx+end == t.cols {
			end--
		}
		n := 0
		for ; n < end; n++ {
			want.Char = rune(b[n])
			if t.vt.Cell(t.cx+n, t.cy) != want {
				break
			}
		}
		if n >= sameMin {
			t.moveCursor(t.cx+n, t.cy)
			b = b[n:]
		}
	}
	t.setVT(t.curID)
	t.out = append(t.out, b...)
	t.advance(len(b))
}

// advance moves the shadow cursor over w cells just written, into the
// pending-wrap state at the right margin as vt10x does.
func (t *Term) advance(w int) {
	if t.cx+w < t.cols {
		t.cx += w
		t.wrapNext = false
	} else {
		t.cx = t.cols - 1
		t.wrapNext = true
	}
}

// printRune prints one character of any width.
func (t *Term) printRune(r rune) {
	if r >= 0x5f && r <= 0x7e && t.graphicsActive() {
		r = decGraphics[r-0x5f]
	}
	if r >= 0x80 && r < 0xa0 {
		return // C1 controls arriving as UTF-8: not printable, and not honoured
	}
	w := runeWidth(r)
	if w == 0 {
		t.combine(r)
		t.lastOK = false
		return
	}
	cell := r
	if needsCluster(r) {
		cell = t.clusterRune(string(r))
	}
	t.put(cell, w)
	t.last, t.lastOK = r, true
}

// put writes cell rune r of width w at the cursor. A wide character that
// does not fit before the right margin wraps first (leaving the last column
// as it was, like tmux), or is dropped when autowrap is off.
func (t *Term) put(r rune, w int) {
	t.needCursor()
	if w == 2 && (t.wrapNext || t.cx == t.cols-1) {
		if !t.modes.AutoWrap || t.cols < 2 {
			return
		}
		t.lineFeed(true, false)
	} else if t.wrapNext && t.modes.AutoWrap {
		t.lineFeed(true, false)
	}
	if t.modes.Insert {
		t.emitCSI1('@', w, 1) // IRM: vt10x only records the mode
	}
	t.setVT(t.curID)
	t.emitRune(r)
	if w == 2 {
		t.emitRune(placeholderRune)
	}
	t.advance(w)
}

// combine attaches a zero-width rune (a combining mark, ZWJ, a variation
// selector) to the character left of the cursor, as tmux does, by rewriting
// that cell with a cluster stand-in in the cell's own style. The cursor ends
// where it was, pending wrap included.
func (t *Term) combine(r rune) {
	t.needCursor()
	x := t.cx
	if !t.wrapNext {
		x--
	}
	if x < 0 {
		return // nothing to attach to: dropped
	}
	t.flush()
	g := t.vt.Cell(x, t.cy)
	if g.Char == placeholderRune && x > 0 {
		x--
		g = t.vt.Cell(x, t.cy)
	}
	text := t.cellText(g.Char)
	// Wide only if the base is: a narrow character written over the left
	// half of a wide one leaves the old right half behind it.
	first, _ := utf8.DecodeRuneInString(text)
	wide := runeWidth(first) == 2 && x+1 < t.cols && t.vt.Cell(x+1, t.cy).Char == placeholderRune
	if len(text)+utf8.RuneLen(r) > maxClusterBytes {
		return
	}
	id := vtStyleID(g.FG)
	cell := t.clusterRune(text + string(r))
	t.emitCSI('G', x+1) // CHA: column only, so origin mode does not matter
	t.setVT(id)
	t.emitRune(cell)
	end := x + 1
	if wide {
		t.emitRune(placeholderRune)
		end++
	}
	if !t.wrapNext && end != t.cx {
		t.emitCSI('G', t.cx+1) // the cursor was on the wide character's right half
	}
}

// cellText returns the text a vt10x cell rune stands for.
func (t *Term) cellText(r rune) string {
	if id, ok := clusterID(r); ok {
		return t.clusters.text(id)
	}
	switch r {
	case 0:
		return " "
	case placeholderRune:
		return ""
	}
	return string(r)
}

// repeat handles REP (CSI n b): the last printed character again, n times,
// but like tmux never past the right margin.
func (t *Term) repeat(n int) {
	if !t.lastOK {
		return
	}
	t.needCursor()
	if t.wrapNext {
		return
	}
	n = min(n, t.cols-t.cx)
	r := t.last
	for range n {
		t.printRune(r)
	}
}
