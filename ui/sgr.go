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

// applySGR returns style s after the SGR sequence with parameters p, as
// vterm applies it to a PTY job's cells, so that a pipe job's colours are
// those the same program has on a terminal.
func applySGR(s cellStyle, p []byte) cellStyle {
	st := vterm.ApplySGR(vterm.Style{FG: s.fg, BG: s.bg, Attr: s.attr}, p)
	return cellStyle{fg: st.FG, bg: st.BG, attr: st.Attr}
}
