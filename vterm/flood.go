package vterm

import (
	"bytes"
	"strings"
)

// A program that floods its terminal (seq, a chatty build, cat of a log)
// writes lines that scroll straight through the screen: each is printed on
// the bottom row and pushed off the top a screenful later. Through vt10x
// that costs a parse per byte and a whole row read back per line. flood
// takes such a run of lines in one step instead: the lines that pass
// through go to the scrollback from the text itself, and vt10x gets only
// the screenful that stays. The run may colour its text (SGR) and erase to
// the end of a line (EL), as compilers and grep do.

// flood is called right after a line feed at the bottom row scrolled a
// blank line in. It takes the longest run at the start of b of printable
// ASCII lines ended by CR LF (lines longer than the screen wrap; no line may
// end with a background colour set, which would fill the next), when the
// run scrolls more than a screenful and the terminal is in the plain state
// the shortcut assumes. It returns how many bytes it took (0: none) and
// where the run it looked at ends, so the caller need not look again
// before that. When the run ends b and mayDefer is set (b ends a Write),
// the screenful that stays is left pending (see resume).
func (t *Term) flood(b []byte, mayDefer bool) (n, end int) {
	if t.slowOnly || t.alt || t.top != 0 || t.bottom != t.rows-1 || !t.modes.AutoWrap || t.modes.Insert ||
		t.graphicsActive() || t.style.BG != DefaultColor || !t.curOK || t.cx != 0 || t.wrapNext || t.cy != t.bottom {
		return 0, 0
	}
	i, _, _, starts, pens := t.floodScan(b, 0, 0, t.style, t.floodStarts[:0], t.floodPens[:0])
	t.floodStarts, t.floodPens = starts, pens
	if len(starts) < 2*t.rows { // not worth it
		return 0, i
	}

	// The run's lines number len(starts)+1 (the last one partial, maybe
	// empty). The last screenful stays on the screen; the lines before it,
	// and the rows on the screen above the cursor, scroll off in order.
	through := len(starts) + 1 - t.rows
	skip := max(t.rows-1+through-t.sb.max, 0) // pushed, then pushed out again
	t.flush()
	for y := skip; y < t.rows-1; y++ {
		t.sb.push(t.packRow(y))
	}
	t.pushThrough(nil, b, starts, pens, t.style, max(skip-(t.rows-1), 0), through)

	// vt10x: a blank screen, and the last screenful printed from the top.
	t.setStyle(pens[through-1])
	t.setVT(0)
	t.out = append(t.out, "\x1b[2J\x1b[H"...)
	t.cx, t.cy = 0, 0
	if mayDefer && (i == len(b) || cutShort(b[i:])) {
		t.pending = append(t.pending[:0], b[starts[through-1]:]...)
		t.pendingTail, t.pendingOn = len(b)-i, true
		return len(b), len(b)
	}
	t.feed(b[starts[through-1]:i])
	return i, i
}

// floodScan reads the run a flood takes from the start of b, from column
// col in rendition pen, appending to starts where each line on the screen
// after the first begins (a wrap or a CR LF ends the one before; off is
// added to each) and to pens the rendition there. It returns where the run
// ends and the column and rendition there.
func (t *Term) floodScan(b []byte, off, col int, pen Style, starts []int, pens []Style) (int, int, Style, []int, []Style) {
	return t.floodScanTo(b, len(b), off, col, pen, starts, pens)
}

// floodScanTo is floodScan stopping at the first boundary at or after limit.
func (t *Term) floodScanTo(b []byte, limit, off, col int, pen Style, starts []int, pens []Style) (int, int, Style, []int, []Style) {
	i := 0
scan:
	for i < len(b) && i < limit {
		switch c := b[i]; {
		case c >= 0x20 && c < 0x7f:
			j := i + 1
			for j < len(b) && b[j] >= 0x20 && b[j] < 0x7f {
				j++
			}
			for i < j {
				if col == t.cols {
					starts, pens, col = append(starts, off+i), append(pens, pen), 0
				}
				step := min(t.cols-col, j-i)
				col, i = col+step, i+step
			}
		case c == '\r' && i+1 < len(b) && b[i+1] == '\n' && pen.BG == DefaultColor:
			i += 2
			starts, pens, col = append(starts, off+i), append(pens, pen), 0
		case c == 0x1b:
			n, next, ok := t.floodCSI(b[i:], pen, col)
			if !ok {
				break scan
			}
			i, pen = i+n, next
		default:
			break scan
		}
	}
	return i, col, pen, starts, pens
}

// pushThrough pushes lines first up to through of a flood's run into the
// scrollback, as raw lines packed only if read. The run is a followed by b
// (starts count from a's start); pen is the rendition at its start.
func (t *Term) pushThrough(a, b []byte, starts []int, pens []Style, pen Style, first, through int) {
	if t.sb.max == 0 || first >= through {
		return
	}
	// The lines pushed share one string: a flood pushes a line every few
	// dozen bytes, and a string each was most of its cost.
	base := 0
	if first > 0 {
		base = starts[first-1]
	}
	lines := joined(a, b, base, starts[through-1])
	at := func(i int) byte {
		if i < len(a) {
			return a[i]
		}
		return b[i-len(a)]
	}
	for k := first; k < through; k++ {
		from, to, pen := 0, starts[k], pen
		if k > 0 {
			from, pen = starts[k-1], pens[k-1]
		}
		if at(to-1) == '\n' {
			to -= 2
		}
		t.sb.push(packedLine{raw: lines[from-base : to-base], pen: pen}) // packed if read
	}
}

// joined returns bytes from up to to of a followed by b, as one string.
func joined(a, b []byte, from, to int) string {
	if from >= len(a) {
		return string(b[from-len(a) : to-len(a)])
	}
	if to <= len(a) {
		return string(a[from:to])
	}
	var s strings.Builder
	s.Grow(to - from)
	s.Write(a[from:])
	s.Write(b[:to-len(a)])
	return s.String()
}

// A flood's last screenful, printed from the top of a blank screen, was
// most of what a program flooding in large writes cost (a PTY job's output
// read 160 KiB at a time): the next write scrolled it away again. So the
// flood that ends a Write leaves it pending, with what ends the Write if
// that is a sequence or a CR LF cut short (the tail), vt10x holding the
// blank screen with the cursor home meanwhile: the next Write carries the
// flood on from it (resume), and anything else that needs the screen
// prints it first (showPending).

// resume carries a flood on through p from its pending screenful: the
// pending lines printed from the top of the blank screen, then p's, scroll
// as a flood's do. It returns the bytes of p left to feed, the pending
// screenful printed first if there are any.
func (t *Term) resume(p []byte) []byte {
	pend := t.pending
	a, tail := pend[:len(pend)-t.pendingTail], pend[len(pend)-t.pendingTail:]
	i, col, pen, starts, pens := t.floodScan(a, 0, 0, t.style, t.floodStarts[:0], t.floodPens[:0])
	if i < len(a) { // not so, as a flood took all of it
		t.floodStarts, t.floodPens = starts, pens
		t.showPending()
		return p
	}
	// The tail and the start of p make up the sequence or CR LF cut short:
	// it is read from a copy of the two, a flood's sequences being short.
	j := 0 // p[:j] is read
	if len(tail) > 0 {
		buf := append(append(t.floodJoin[:0], tail...), p[:min(len(p), 64)]...)
		t.floodJoin = buf
		var n int
		n, col, pen, starts, pens = t.floodScanTo(buf, len(tail), len(a), col, pen, starts, pens)
		t.floodStarts, t.floodPens = starts, pens
		if n < len(tail) {
			if len(buf) == len(tail)+len(p) && cutShort(buf[n:]) { // still cut short
				t.pending = append(t.pending, p...)
				t.pendingTail += len(p)
				return nil
			}
			t.showPending()
			return p
		}
		j = n - len(tail)
	}
	n, _, _, starts, pens := t.floodScan(p[j:], len(pend)+j, col, pen, starts, pens)
	t.floodStarts, t.floodPens = starts, pens
	j += n
	from := 0 // where the pending screenful starts now, in pend and then p
	if through := len(starts) + 1 - t.rows; through > 0 {
		t.pushThrough(pend, p, starts, pens, t.style, max(through-t.sb.max, 0), through)
		from = starts[through-1]
		t.setStyle(pens[through-1])
	}
	cut := j < len(p) && cutShort(p[j:])
	end := j // of what stays pending, in p
	if cut {
		end = len(p)
	}
	if from < len(pend) {
		t.pending = append(append(t.pending[:0], pend[from:]...), p[:end]...)
	} else {
		t.pending = append(t.pending[:0], p[from-len(pend):end]...)
	}
	t.pendingTail = end - j
	if j < len(p) && !cut {
		t.showPending()
	}
	return p[end:]
}

// cutShort reports whether b (not empty) is the start of what a flood
// takes, cut short by the end of a write: a CR, or a CSI sequence without
// its final byte.
func cutShort(b []byte) bool {
	switch {
	case len(b) == 1:
		return b[0] == '\r' || b[0] == 0x1b
	case b[0] != 0x1b || b[1] != '[' || len(b) >= 64:
		return false
	}
	for _, c := range b[2:] {
		if c < 0x20 || c > 0x3f {
			return false
		}
	}
	return true
}

// showPending prints the screenful a flood left pending.
func (t *Term) showPending() {
	if t.pendingOn {
		t.pendingOn = false
		t.feed(t.pending)
		t.flush()
	}
}

// floodCSI reads the CSI sequence at the start of b, one a run of lines may
// hold: SGR, whose rendition it returns applied to pen, or EL to the end of
// the line with the default background, which changes nothing on a line
// scrolled in blank while the cursor is left of the margin (col cells
// printed). ok is false for anything else, or a sequence cut short.
func (t *Term) floodCSI(b []byte, pen Style, col int) (n int, next Style, ok bool) {
	if len(b) < 3 || b[1] != '[' {
		return 0, pen, false
	}
	m := &t.sgrMemo[sgrMemoSlot(b, pen)]
	if m.n > 0 && m.in == pen && len(b) >= m.n && string(b[:m.n]) == string(m.seq[:m.n]) {
		return m.n, m.out, true
	}
	p := &t.floodParser
	p.state = stCSI
	p.resetSeq()
	for n = 2; n < len(b) && n < 64; n++ {
		c := b[n]
		if c < 0x20 || c >= 0x7f {
			return 0, pen, false
		}
		if !p.csiCollect(c) {
			if p.state != stCSI {
				return 0, pen, false
			}
			continue
		}
		if p.toomany || p.prefix != 0 || p.ninter > 0 {
			return 0, pen, false
		}
		switch {
		case c == 'm':
			next = p.sgr(pen)
			if n < len(m.seq) {
				*m = sgrMemo{n: n + 1, in: pen, out: next}
				copy(m.seq[:], b[:n+1])
			}
			return n + 1, next, true
		case c == 'K' && p.arg(0, 0) == 0 && pen.BG == DefaultColor && col < t.cols:
			return n + 1, pen, true
		}
		return 0, pen, false
	}
	return 0, pen, false
}

// sgrMemo is an SGR sequence a flood read (its first n bytes of seq) and
// the rendition it made of pen in: a flood meets the same few sequences
// again and again (a log's colours), and reading one byte by byte was a
// fifth of a coloured flood's cost. A sequence ends at its final byte, so
// input that starts with seq holds that very sequence.
type sgrMemo struct {
	seq     [16]byte
	n       int
	in, out Style
}

// sgrMemoSlot picks the memo for the sequence starting b (len(b) >= 3)
// applied to pen.
func sgrMemoSlot(b []byte, pen Style) int {
	h := uint32(b[2])
	if len(b) > 3 {
		h |= uint32(b[3]) << 8
	}
	h ^= uint32(pen.FG)*0x9e3779b1 ^ uint32(pen.BG)*0x85ebca77 ^ uint32(pen.Attr)*0xc2b2ae3d
	h *= 0x27d4eb2d
	return int(h >> 27)
}

// packStyled packs a line of printable ASCII with SGR and EL sequences in
// it (as flood took it; pen is the rendition at its start) as packLine
// packs the same cells, without making them.
func (t *Term) packStyled(b []byte, pen Style) packedLine {
	text := t.floodText[:0]
	var runs []styleRun
	for j := 0; j < len(b); {
		if b[j] == 0x1b {
			n, next, _ := t.floodCSI(b[j:], pen, 0)
			j, pen = j+n, next
			continue
		}
		k := j + 1
		for k < len(b) && b[k] != 0x1b {
			k++
		}
		text = append(text, b[j:k]...)
		if n := len(runs); n > 0 && runs[n-1].s == pen {
			runs[n-1].n += k - j
		} else {
			runs = append(runs, styleRun{k - j, pen})
		}
		j = k
	}
	t.floodText = text
	// Blank cells in the default rendition at the end are not kept.
	for len(runs) > 0 && runs[len(runs)-1].s == (Style{}) && text[len(text)-1] == ' ' {
		text = text[:len(text)-1]
		if runs[len(runs)-1].n--; runs[len(runs)-1].n == 0 {
			runs = runs[:len(runs)-1]
		}
	}
	return packedLine{text: string(text), cells: asciiCells[:len(text):len(text)], runs: runs}
}

// asciiCells is the packed form of a line of ASCII: one byte wide, one
// cell wide, every cell.
var asciiCells = bytes.Repeat([]byte{1<<2 | 1}, MaxSize)
