package ui

import (
	"tend/vterm"
)

// sgrParams returns the parameters of seq when it is an SGR sequence: ESC
// [, then only digits, ';' and ':', then m. Any other sequence (a private
// marker or an intermediate byte, another final byte) is not one.
func sgrParams(seq []byte) ([]byte, bool) {
	if len(seq) < 3 || seq[0] != '\x1b' || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return nil, false
	}
	p := seq[2 : len(seq)-1]
	for _, c := range p {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return nil, false
		}
	}
	return p, true
}

const (
	// maxSGRParams is how many parameters a sequence may have; one with
	// more is ignored whole, as tmux and vterm do.
	maxSGRParams = 32
	// maxSGRParam caps a parameter's value while it is read, as vterm does.
	maxSGRParam = 65535
)

// sgrParam is one parameter of an SGR sequence.
type sgrParam struct {
	v   int
	set bool // not left empty
	sub bool // after a ':': it belongs to the parameter before it
}

// sgrArgs are the parameters of one SGR sequence.
type sgrArgs []sgrParam

// parseSGR reads SGR parameters (digits, ';' and ':') into buf; ok is
// false when there are too many.
func parseSGR(buf *[maxSGRParams]sgrParam, p []byte) (args sgrArgs, ok bool) {
	args = append(buf[:0], sgrParam{})
	for _, c := range p {
		if c == ';' || c == ':' {
			if len(args) == maxSGRParams {
				return nil, false
			}
			args = append(args, sgrParam{sub: c == ':'})
			continue
		}
		q := &args[len(args)-1]
		q.v = min(q.v*10+int(c-'0'), maxSGRParam)
		q.set = true
	}
	return args, true
}

// arg is parameter i, or def when it is empty or absent.
func (a sgrArgs) arg(i, def int) int {
	if i >= len(a) || !a[i].set {
		return def
	}
	return a[i].v
}

// applySGR returns style s after the SGR sequence with parameters p, as
// vterm applies it to a PTY job's cells, so that a pipe job's colours are
// those the same program has on a terminal: attributes, the 16 colours,
// the 256-colour and true-colour forms with ';' or ':', and resets. What
// it does not know it skips.
func applySGR(s cellStyle, p []byte) cellStyle {
	var buf [maxSGRParams]sgrParam
	args, ok := parseSGR(&buf, p)
	if !ok {
		return s
	}
	for i := 0; i < len(args); i++ {
		if args[i].sub {
			continue // a stray sub-parameter
		}
		switch a := args.arg(i, 0); {
		case a == 0:
			s = cellStyle{}
		case a == 1:
			s.attr |= vterm.AttrBold
		case a == 2:
			s.attr |= vterm.AttrFaint
		case a == 3:
			s.attr |= vterm.AttrItalic
		case a == 4:
			// 4:0 is no underline; 4:1 to 4:5 are its styles.
			if i+1 < len(args) && args[i+1].sub && args.arg(i+1, 1) == 0 {
				s.attr &^= vterm.AttrUnderline
			} else {
				s.attr |= vterm.AttrUnderline
			}
		case a == 5 || a == 6:
			s.attr |= vterm.AttrBlink
		case a == 7:
			s.attr |= vterm.AttrReverse
		case a == 8:
			s.attr |= vterm.AttrHidden
		case a == 9:
			s.attr |= vterm.AttrStrike
		case a == 21:
			s.attr |= vterm.AttrUnderline // double underline
		case a == 22:
			s.attr &^= vterm.AttrBold | vterm.AttrFaint
		case a == 23:
			s.attr &^= vterm.AttrItalic
		case a == 24:
			s.attr &^= vterm.AttrUnderline
		case a == 25:
			s.attr &^= vterm.AttrBlink
		case a == 27:
			s.attr &^= vterm.AttrReverse
		case a == 28:
			s.attr &^= vterm.AttrHidden
		case a == 29:
			s.attr &^= vterm.AttrStrike
		case a >= 30 && a <= 37:
			s.fg = vterm.PaletteColor(uint8(a - 30))
		case a == 38 || a == 48 || a == 58:
			c, last, ok := args.extColor(i)
			i = last
			switch {
			case !ok:
			case a == 38:
				s.fg = c
			case a == 48:
				s.bg = c
			} // 58: the underline's colour, which vterm does not keep either
		case a == 39:
			s.fg = vterm.DefaultColor
		case a >= 40 && a <= 47:
			s.bg = vterm.PaletteColor(uint8(a - 40))
		case a == 49:
			s.bg = vterm.DefaultColor
		case a >= 90 && a <= 97:
			s.fg = vterm.PaletteColor(uint8(a - 90 + 8))
		case a >= 100 && a <= 107:
			s.bg = vterm.PaletteColor(uint8(a - 100 + 8))
		}
	}
	return s
}

// extColor reads the colour that parameter i (38, 48 or 58) introduces:
// 38:5:n, 38:2:r:g:b or 38:2:cs:r:g:b, or 38;5;n and 38;2;r;g;b. It
// returns the index of the last parameter it used.
func (a sgrArgs) extColor(i int) (vterm.Color, int, bool) {
	if i+1 < len(a) && a[i+1].sub { // the colon form
		j := i + 1
		for j+1 < len(a) && a[j+1].sub {
			j++
		}
		n := j - i // sub-parameters
		switch a.arg(i+1, 0) {
		case 5:
			if n >= 2 {
				c, ok := palette(a.arg(i+2, -1))
				return c, j, ok
			}
		case 2:
			k := i + 2
			if n >= 5 {
				k = i + 3 // past the colour space id
			}
			if n >= 4 {
				c, ok := rgb(a.arg(k, 0), a.arg(k+1, 0), a.arg(k+2, 0))
				return c, j, ok
			}
		}
		return vterm.DefaultColor, j, false
	}
	switch a.arg(i+1, -1) {
	case 5:
		if i+2 < len(a) {
			c, ok := palette(a.arg(i+2, -1))
			return c, i + 2, ok
		}
		return vterm.DefaultColor, len(a), false
	case 2:
		if i+4 < len(a) {
			c, ok := rgb(a.arg(i+2, 0), a.arg(i+3, 0), a.arg(i+4, 0))
			return c, i + 4, ok
		}
		return vterm.DefaultColor, len(a), false
	}
	return vterm.DefaultColor, i + 1, false
}

// palette is palette colour n, if n is one.
func palette(n int) (vterm.Color, bool) {
	if n < 0 || n > 255 {
		return vterm.DefaultColor, false
	}
	return vterm.PaletteColor(uint8(n)), true
}

// rgb is the true colour r, g, b, if each fits a byte.
func rgb(r, g, b int) (vterm.Color, bool) {
	if r > 255 || g > 255 || b > 255 {
		return vterm.DefaultColor, false
	}
	return vterm.RGBColor(uint8(r), uint8(g), uint8(b)), true
}
