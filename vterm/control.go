package vterm

import (
	"strings"
	"unicode/utf8"
)

// execute handles a C0 control character.
func (t *Term) execute(c byte) {
	t.lastOK = false
	switch c {
	case '\b':
		t.needCursor()
		t.moveCursor(max(t.cx-1, 0), t.cy)
	case '\t':
		t.out = append(t.out, '\t')
		t.curOK = false
	case '\n', '\v', '\f':
		t.lineFeed(t.modes.NewLine, true)
	case '\r':
		if t.curOK {
			t.moveCursor(0, t.cy)
		} else { // no need to ask vt10x where the cursor is
			t.out = append(t.out, '\r')
			t.cx, t.wrapNext = 0, false
		}
	case 0x0e: // SO: G1 into GL
		t.charset.gl = 1
	case 0x0f: // SI: G0 into GL
		t.charset.gl = 0
	}
	// BEL, ENQ, NUL and the rest do nothing on screen.
}

// escDispatch handles ESC followed by a final byte.
func (t *Term) escDispatch(c byte) {
	t.lastOK = false
	switch c {
	case '7':
		t.saveCursor()
	case '8':
		t.restoreCursor()
	case 'D': // IND
		t.lineFeed(false, true)
	case 'E': // NEL
		t.lineFeed(true, true)
	case 'H': // HTS
		t.out = append(t.out, 0x1b, 'H')
	case 'M': // RI: vt10x scrolls down with the current attribute: erase style
		t.eraseStyle()
		t.out = append(t.out, 0x1b, 'M')
		t.curOK = false
	case 'c':
		t.hardReset()
	case '=':
		t.modes.AppKeypad = true
	case '>':
		t.modes.AppKeypad = false
	}
}

// escInterDispatch handles ESC with an intermediate: charsets and DECALN.
func (t *Term) escInterDispatch(inter, c byte) {
	t.lastOK = false
	switch inter {
	case '(', ')':
		g := int(inter - '(')
		switch c {
		case '0':
			t.charset.gfx[g] = true
		case 'B', 'A', '1', '2':
			t.charset.gfx[g] = false
		}
	case '#':
		if c == '8' { // DECALN: fill with E in the default style, reset margins, home
			t.setVT(0)
			t.out = append(t.out, 0x1b, '#', '8')
			t.top, t.bottom = 0, t.rows-1
			t.emitCSI('r', 1, t.rows)
			t.curOK = false
		}
	}
}

// hardReset handles RIS as xterm does: the primary screen, cleared, the
// cursor home, and the rendition, modes, scroll region, tab stops, character
// sets and saved cursors as at power-on. The title stays, as in tmux.
//
// vt10x's reset takes care of its cursor, saved cursor, tab stops, scroll
// region and modes, but not of two things. It clears its alternate-screen
// flag without swapping the screens back, so leave the alternate screen
// first. And it clears a rectangle with rows and columns swapped (the first
// 24 columns of an 80x24 screen, the first 10 rows of a 10x30 one): ED 2
// clears the rest, whose cells would otherwise keep their text and style
// and cluster ids the fresh tables below no longer hold.
func (t *Term) hardReset() {
	if t.alt {
		t.emitPrivate(1047, false)
	}
	t.out = append(t.out, "\x1bc\x1b[2J"...)
	t.flush()
	title := t.title
	t.reset()
	t.title = title
}

// saveCursor handles DECSC: vt10x keeps the position, vterm the rest.
func (t *Term) saveCursor() {
	t.setVT(t.curID) // vt10x saves its attribute: make it the current style
	t.out = append(t.out, 0x1b, '7')
	t.saved = savedCursor{ok: true, style: t.style, id: t.curID, charset: t.charset, origin: t.modes.Origin}
}

// restoreCursor handles DECRC.
func (t *Term) restoreCursor() {
	t.out = append(t.out, 0x1b, '8')
	s := t.saved
	if !s.ok {
		s = savedCursor{}
	}
	t.style, t.curID, t.vtStyle = s.style, s.id, s.id
	t.charset = s.charset
	t.modes.Origin = s.origin // vt10x restores DECOM with the cursor
	t.curOK = false
}

// altOn switches to the alternate screen, cleared, as tmux does; a second
// switch while there does nothing. 1049 also saves the cursor, in a slot of
// its own (vt10x would share DECSC's).
func (t *Term) altOn(saveCursor bool) {
	if t.alt {
		return
	}
	if saveCursor {
		t.needCursor()
		t.alt1049 = savedCursor{ok: true, x: t.cx, y: t.cy, style: t.style, id: t.curID}
	}
	// Remember the ids on the primary screen: the garbage collector cannot
	// see them while hidden. What is still queued for vt10x is on it too.
	t.flush()
	t.hiddenStyles, t.hiddenClusters = map[uint32]bool{}, map[uint32]bool{}
	t.idsOnScreen(t.hiddenStyles, t.hiddenClusters)
	t.emitPrivate(1047, true)
	t.setVT(0)
	t.emitCSI('J', 2)
	t.alt = true
}

// altOff leaves the alternate screen. vt10x's ?1049l swaps screens even when
// the primary one is shown (into the alternate one); vterm only swaps back
// from the alternate screen. For 1049 the cursor saved by ?1049h comes back
// even when not on the alternate screen, as in tmux.
func (t *Term) altOff(restoreCursor bool) {
	if t.alt {
		t.emitPrivate(1047, false)
		t.alt = false
		t.hiddenStyles, t.hiddenClusters = nil, nil
		t.curOK = false
	}
	if restoreCursor && t.alt1049.ok {
		s := t.alt1049
		y := s.y
		if t.modes.Origin {
			y -= t.top
		}
		t.emitCSI('H', y+1, s.x+1)
		t.style, t.curID = s.style, t.styleID(s.style)
		t.curOK = false
	}
}

// reply queues an answer to a query.
func (t *Term) reply(s string) { t.replies.send([]byte(s)) }

// oscEnd acts on a complete OSC string: the title (0, 2) and queries for the
// default colours (10, 11), which vim and others send and wait on.
func (t *Term) oscEnd() {
	p := &t.p
	s := string(p.osc)
	num, rest, _ := strings.Cut(s, ";")
	end := "\x1b\\"
	if p.oscBEL {
		end = "\a"
	}
	switch num {
	case "0", "2":
		t.title = sanitizeTitle(rest)
	case "10":
		if rest == "?" {
			t.reply("\x1b]10;rgb:e5e5/e5e5/e5e5" + end)
		}
	case "11":
		if rest == "?" {
			t.reply("\x1b]11;rgb:0000/0000/0000" + end)
		}
	}
}

// sanitizeTitle keeps a title printable: valid UTF-8, no control characters.
func sanitizeTitle(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
}
