package vterm

import "bytes"

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
// before that.
func (t *Term) flood(b []byte) (n, end int) {
	if t.slowOnly || t.alt || t.top != 0 || t.bottom != t.rows-1 || !t.modes.AutoWrap || t.modes.Insert ||
		t.graphicsActive() || t.style.BG != DefaultColor || !t.curOK || t.cx != 0 || t.wrapNext || t.cy != t.bottom {
		return 0, 0
	}
	// starts holds where each line on the screen after the first begins (a
	// wrap or a CR LF ends the one before), pens the rendition there.
	starts, pens := t.floodStarts[:0], t.floodPens[:0]
	pen := t.style
	col, i := 0, 0
scan:
	for i < len(b) {
		switch c := b[i]; {
		case c >= 0x20 && c < 0x7f:
			j := i + 1
			for j < len(b) && b[j] >= 0x20 && b[j] < 0x7f {
				j++
			}
			for i < j {
				if col == t.cols {
					starts, pens, col = append(starts, i), append(pens, pen), 0
				}
				step := min(t.cols-col, j-i)
				col, i = col+step, i+step
			}
		case c == '\r' && i+1 < len(b) && b[i+1] == '\n' && pen.BG == DefaultColor:
			i += 2
			starts, pens, col = append(starts, i), append(pens, pen), 0
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
	if first := max(skip-(t.rows-1), 0); t.sb.max > 0 && first < through {
		// The lines pushed share one string: a flood pushes a line every
		// few dozen bytes, and a string each was most of its cost.
		base := 0
		if first > 0 {
			base = starts[first-1]
		}
		lines := string(b[base:starts[through-1]])
		for k := first; k < through; k++ {
			from, to, pen := 0, starts[k], t.style
			if k > 0 {
				from, pen = starts[k-1], pens[k-1]
			}
			if b[to-1] == '\n' {
				to -= 2
			}
			t.sb.push(packedLine{raw: lines[from-base : to-base], pen: pen}) // packed if read
		}
	}

	// vt10x: a blank screen, and the last screenful printed from the top.
	t.setStyle(pens[through-1])
	t.setVT(0)
	t.out = append(t.out, "\x1b[2J\x1b[H"...)
	t.cx, t.cy = 0, 0
	t.feed(b[starts[through-1]:i])
	return i, i
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
