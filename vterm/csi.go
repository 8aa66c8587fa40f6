package vterm

import "strconv"

// csiDispatch acts on a complete CSI sequence. Every parameter was clamped
// to maxParamVal while parsing; counts are clamped again to the screen here,
// so nothing vt10x loops over (CHT, CBT, ICH …) can run long or go negative,
// and every sequence vt10x sees is re-emitted in a form it parses right
// (explicit parameters, so ESC[;5H keeps its column).
func (t *Term) csiDispatch(final byte) {
	p := &t.p
	defer func() { t.lastOK = false }()
	if p.ninter > 0 {
		t.csiIntermediate(final)
		return
	}
	switch p.prefix {
	case '?':
		t.csiPrivate(final)
		return
	case '>':
		t.csiGreater(final)
		return
	case '<', '=':
		// kitty keyboard protocol (push/pop/set flags): nothing to do here, and
		// vt10x would read "CSI < u" as a cursor restore.
		return
	}
	switch final {
	case '@': // ICH
		t.eraseStyle()
		t.emitCSI1('@', min(p.count(0), t.cols), 1)
	case 'A', 'B', 'C', 'D', 'E', 'F', 'a', 'e', 'G', '`', 'H', 'f', 'd':
		t.cursorMove(final)
	case 'I', 'Z': // CHT, CBT: vt10x loops n times, so n is the screen width at most
		t.emitCSI1(final, min(p.count(0), t.cols), 1)
		t.curOK = false
	case 'J':
		t.eraseDisplay(p.arg(0, 0))
	case 'K':
		if m := p.arg(0, 0); m <= 2 {
			t.eraseStyle()
			t.emitCSI1('K', m, 0)
		}
	case 'L', 'M': // IL, DL
		t.eraseStyle()
		t.emitCSI1(final, min(p.count(0), t.rows), 1)
		t.curOK = false
	case 'P', 'X': // DCH, ECH
		t.eraseStyle()
		t.emitCSI1(final, min(p.count(0), t.cols), 1)
	case 'S': // SU: what leaves the top goes to the scrollback
		n := min(p.count(0), t.rows)
		t.captureTop(n)
		t.eraseStyle()
		t.emitCSI1('S', n, 1)
	case 'T': // SD
		t.eraseStyle()
		t.emitCSI1('T', min(p.count(0), t.rows), 1)
	case 'b': // REP: vt10x does not know it
		t.repeat(p.count(0))
	case 'c': // DA1
		if p.arg(0, 0) == 0 {
			t.reply("\x1b[?1;2c")
		}
	case 'g': // TBC
		if m := p.arg(0, 0); m == 0 || m == 3 {
			t.emitCSI1('g', m, 0)
		}
	case 'h', 'l':
		for i := 0; i < p.nparams; i++ {
			t.setMode(p.arg(i, 0), final == 'h')
		}
	case 'm':
		t.setStyle(p.sgr(t.style))
	case 'n': // DSR
		switch p.arg(0, 0) {
		case 5:
			t.reply("\x1b[0n")
		case 6:
			t.needCursor()
			y := t.cy
			if t.modes.Origin {
				y -= t.top
			}
			t.reply("\x1b[" + strconv.Itoa(y+1) + ";" + strconv.Itoa(t.cx+1) + "R")
		}
	case 'r': // DECSTBM; like tmux, a region of fewer than two lines is ignored
		top, bot := min(p.count(0), t.rows), min(p.count(1), t.rows)
		if p.nparams < 2 || !p.params[1].set {
			bot = t.rows
		}
		if top < bot {
			t.top, t.bottom = top-1, bot-1
			if top == 1 && bot == t.rows {
				t.out = append(t.out, 0x1b, '[', 'r')
			} else {
				t.emitCSI('r', top, bot)
			}
			t.curOK = false
		}
	case 's':
		t.saveCursor()
	case 'u':
		t.restoreCursor()
	case 't': // window ops: only the size report
		if p.arg(0, 0) == 18 {
			t.reply("\x1b[8;" + strconv.Itoa(t.rows) + ";" + strconv.Itoa(t.cols) + "t")
		}
	}
}

// cursorMove handles the CSI sequences that only move the cursor. vterm
// works out where vt10x's moveTo puts the cursor (clamped to the screen, and
// to the scroll region in origin mode, where CUP and VPA count from its top)
// and moves it there with the shortest sequence (moveCursor).
func (t *Term) cursorMove(final byte) {
	p := &t.p
	t.needCursor()
	n := p.count(0)
	x, y := t.cx, t.cy
	switch final {
	case 'A': // CUU
		y = t.clampY(y - min(n, MaxSize))
	case 'B', 'e': // CUD, VPR
		y = t.clampY(y + min(n, MaxSize))
	case 'C', 'a': // CUF, HPR
		x = min(x+min(n, MaxSize), t.cols-1)
	case 'D': // CUB
		x = max(x-min(n, MaxSize), 0)
	case 'E': // CNL
		x, y = 0, t.clampY(y+min(n, MaxSize))
	case 'F': // CPL
		x, y = 0, t.clampY(y-min(n, MaxSize))
	case 'G', '`': // CHA, HPA
		x = min(n, t.cols) - 1
	case 'H', 'f': // CUP, HVP
		x, y = min(p.count(1), t.cols)-1, t.rowY(n)
	case 'd': // VPA
		y = t.rowY(n)
	}
	t.moveCursor(x, y)
}

// rowY is the screen row of CUP's or VPA's row parameter n (from 1).
func (t *Term) rowY(n int) int {
	y := min(n, t.rows) - 1
	if t.modes.Origin {
		y += t.top
	}
	return t.clampY(y)
}

// eraseDisplay handles ED. vt10x's ED 1 skips the first row when the cursor
// is on the second one; ED 3 (clear the scrollback) it does not know.
func (t *Term) eraseDisplay(m int) {
	switch m {
	case 0, 1, 2:
		t.eraseStyle()
		t.emitCSI1('J', m, 0)
		if m == 1 {
			t.needCursor()
			if t.cy == 1 && (!t.modes.Origin || t.top == 0) {
				t.emitCSI('A')
				t.emitCSI('K', 2)
				t.emitCSI('B')
				t.curOK = false
			}
		}
	case 3:
		t.sb.clear()
	}
}

// csiPrivate handles CSI ? … sequences: DEC private modes. The rest (kitty's
// "CSI ? u" query, XTSAVE/XTRESTORE, DECSED …) is swallowed: vt10x reads
// several of them as something else ("CSI ? u" restores the cursor).
func (t *Term) csiPrivate(final byte) {
	p := &t.p
	if final != 'h' && final != 'l' {
		return
	}
	for i := 0; i < p.nparams; i++ {
		t.setPrivateMode(p.arg(i, 0), final == 'h')
	}
}

// csiGreater handles CSI > … sequences: DA2 and XTVERSION are answered;
// modifyOtherKeys (CSI > 4;2 m, which vt10x takes for an SGR reset) and
// kitty's "CSI > flags u" (a cursor restore to vt10x) are swallowed.
func (t *Term) csiGreater(final byte) {
	switch final {
	case 'c':
		if t.p.arg(0, 0) == 0 {
			t.reply("\x1b[>0;10;1c")
		}
	case 'q':
		if t.p.arg(0, 0) == 0 {
			t.reply("\x1bP>|tend(vterm)\x1b\\")
		}
	}
}

// csiIntermediate handles sequences with intermediate bytes: the cursor
// style (DECSCUSR) and mode queries (DECRQM); others are swallowed.
func (t *Term) csiIntermediate(final byte) {
	p := &t.p
	switch {
	case p.inter[0] == ' ' && final == 'q' && p.prefix == 0:
		if n := p.arg(0, 0); n <= int(CursorSteadyBar) {
			t.modes.CursorStyle = CursorStyle(n)
		}
	case p.inter[0] == '$' && final == 'p' && (p.prefix == 0 || p.prefix == '?'):
		n := p.arg(0, 0)
		v := t.modeState(n, p.prefix == '?')
		pre := "\x1b["
		if p.prefix == '?' {
			pre = "\x1b[?"
		}
		t.reply(pre + strconv.Itoa(n) + ";" + strconv.Itoa(v) + "$y")
	}
}

// setMode handles SM/RM (ANSI modes).
func (t *Term) setMode(n int, on bool) {
	switch n {
	case 4: // IRM: vterm inserts itself, vt10x only records the flag
		t.modes.Insert = on
	case 20: // LNM: vt10x implements it for LF, which vterm no longer sends, so it is ours
		t.modes.NewLine = on
	}
}

// setPrivateMode handles DECSET/DECRST.
func (t *Term) setPrivateMode(n int, on bool) {
	m := &t.modes
	switch n {
	case 1:
		m.AppCursor = on
	case 3: // DECCOLM: no 132 columns, but clear and home as tmux does
		t.emitCSI('H')
		t.eraseStyle()
		t.emitCSI('J', 2)
		t.curOK = false
	case 6:
		m.Origin = on
		t.emitPrivate(6, on) // vt10x homes the cursor into the region
		t.curOK = false
	case 7:
		m.AutoWrap = on
		t.emitPrivate(7, on)
	case 9:
		m.Mouse = pick(on, MouseX10, MouseNone)
	case 25:
		m.CursorVisible = on
	case 47, 1047, 1049:
		if on {
			t.altOn(n == 1049)
		} else {
			t.altOff(n == 1049)
		}
	case 1048:
		if on {
			t.saveCursor()
		} else {
			t.restoreCursor()
		}
	case 1000:
		m.Mouse = pick(on, MouseNormal, MouseNone)
	case 1002:
		m.Mouse = pick(on, MouseButton, MouseNone)
	case 1003:
		m.Mouse = pick(on, MouseAny, MouseNone)
	case 1004:
		m.FocusEvents = on
	case 1005:
		m.MouseEncoding = encodingMode(m.MouseEncoding, MouseEncodingUTF8, on)
	case 1006:
		m.MouseEncoding = encodingMode(m.MouseEncoding, MouseEncodingSGR, on)
	case 1015:
		m.MouseEncoding = encodingMode(m.MouseEncoding, MouseEncodingURXVT, on)
	case 2004:
		m.BracketedPaste = on
	case 2026:
		m.SyncOutput = on
	}
}

func pick[T any](on bool, a, b T) T {
	if on {
		return a
	}
	return b
}

func encodingMode(cur, e MouseEncoding, on bool) MouseEncoding {
	if on {
		return e
	}
	if cur == e {
		return MouseEncodingDefault
	}
	return cur
}

func (t *Term) emitPrivate(n int, on bool) {
	t.out = append(t.out, "\x1b[?"...)
	t.out = strconv.AppendInt(t.out, int64(n), 10)
	t.out = append(t.out, pick[byte](on, 'h', 'l'))
}

// modeState answers DECRQM: 1 set, 2 reset, 0 not recognised.
func (t *Term) modeState(n int, private bool) int {
	m := t.modes
	b := func(v bool) int { return pick(v, 1, 2) }
	if !private {
		switch n {
		case 4:
			return b(m.Insert)
		case 20:
			return b(m.NewLine)
		}
		return 0
	}
	switch n {
	case 1:
		return b(m.AppCursor)
	case 6:
		return b(m.Origin)
	case 7:
		return b(m.AutoWrap)
	case 25:
		return b(m.CursorVisible)
	case 47, 1047, 1049:
		return b(t.alt)
	case 1000:
		return b(m.Mouse == MouseNormal)
	case 1002:
		return b(m.Mouse == MouseButton)
	case 1003:
		return b(m.Mouse == MouseAny)
	case 1004:
		return b(m.FocusEvents)
	case 1006:
		return b(m.MouseEncoding == MouseEncodingSGR)
	case 2004:
		return b(m.BracketedPaste)
	case 2026:
		return b(m.SyncOutput)
	}
	return 0
}
