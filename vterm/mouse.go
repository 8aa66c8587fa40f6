package vterm

import (
	"fmt"
	"unicode/utf8"
)

// Mouse wheel buttons as xterm reports them: button 4 (up) and 5 (down)
// are 64 and 65 in a report.
const (
	wheelUp   = 64
	wheelDown = 65
)

// EncodeWheel returns the bytes an xterm sends a program that asked for
// mouse reports (m.Mouse) for one notch of the mouse wheel over cell x, y
// (counted from 0), in the encoding it asked for (m.MouseEncoding). It
// returns nil when the program asked for no reports, or the cell is beyond
// what its encoding can say (223 in the default encoding).
func EncodeWheel(up bool, x, y int, m Modes) []byte {
	if m.Mouse == MouseNone || x < 0 || y < 0 {
		return nil
	}
	b := wheelDown
	if up {
		b = wheelUp
	}
	cx, cy := x+1, y+1
	switch m.MouseEncoding {
	case MouseEncodingSGR:
		return fmt.Appendf(nil, "\x1b[<%d;%d;%dM", b, cx, cy)
	case MouseEncodingURXVT:
		return fmt.Appendf(nil, "\x1b[%d;%d;%dM", 32+b, cx, cy)
	case MouseEncodingUTF8:
		if 32+cx > 2047 || 32+cy > 2047 { // two bytes of UTF-8 at most
			return nil
		}
		out := []byte("\x1b[M")
		for _, v := range []int{32 + b, 32 + cx, 32 + cy} {
			out = utf8.AppendRune(out, rune(v))
		}
		return out
	}
	if 32+cx > 255 || 32+cy > 255 {
		return nil
	}
	return []byte{0x1b, '[', 'M', byte(32 + b), byte(32 + cx), byte(32 + cy)}
}
