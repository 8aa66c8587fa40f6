package vterm

// A program that floods its terminal (seq, a chatty build, cat of a log)
// writes lines that scroll straight through the screen: each is printed on
// the bottom row and pushed off the top a screenful later. Through vt10x
// that costs a parse per byte and a whole row read back per line. flood
// takes such a run of lines in one step instead: the lines that pass
// through go to the scrollback from the text itself, and vt10x gets only
// the screenful that stays.

// flood is called right after a line feed at the bottom row scrolled a
// blank line in. It takes the longest run at the start of b of printable
// ASCII lines ended by CR LF (lines longer than the screen wrap), when the
// run scrolls more than a screenful and the terminal is in the plain state
// the shortcut assumes. It returns how many bytes it took (0: none) and
// where the run it looked at ends, so the caller need not look again
// before that.
func (t *Term) flood(b []byte) (n, end int) {
	if t.slowOnly || t.alt || t.top != 0 || t.bottom != t.rows-1 || !t.modes.AutoWrap || t.modes.Insert ||
		t.graphicsActive() || t.style.BG != DefaultColor || !t.curOK || t.cx != 0 || t.wrapNext || t.cy != t.bottom {
		return 0, 0
	}
	// starts holds where each line on the screen after the first begins: a
	// wrap or a CR LF ends the one before.
	starts := t.floodStarts[:0]
	col, i := 0, 0
	for ; i < len(b); i++ {
		c := b[i]
		if c >= 0x20 && c < 0x7f {
			if col == t.cols {
				starts, col = append(starts, i), 0
			}
			col++
			continue
		}
		if c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
			starts, col = append(starts, i+1), 0
			continue
		}
		break
	}
	t.floodStarts = starts
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
	if t.sb.max > 0 {
		st := t.styles.style(t.curID)
		row := t.rowBuf[:0]
		for k := max(skip-(t.rows-1), 0); k < through; k++ {
			from, to := 0, starts[k]
			if k > 0 {
				from = starts[k-1]
			}
			if b[to-1] == '\n' {
				to -= 2
			}
			row = row[:0]
			for _, c := range b[from:to] {
				row = append(row, Cell{Text: asciiText[c], Width: 1, FG: st.FG, BG: st.BG, Attr: st.Attr})
			}
			t.sb.push(packLine(row))
		}
		t.rowBuf = row
	}

	// vt10x: a blank screen, and the last screenful printed from the top.
	t.setVT(0)
	t.out = append(t.out, "\x1b[2J\x1b[H"...)
	t.cx, t.cy = 0, 0
	t.feed(b[starts[through-1]:i])
	return i, i
}
