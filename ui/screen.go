package ui

import (
	"image/color"
	"strconv"
	"strings"

	"tend/themes"
	"tend/vterm"
)

// cellStyle is what decides a cell's SGR sequence.
type cellStyle struct {
	fg, bg vterm.Color
	attr   vterm.Attr
}

// sgrWriter writes rows of cells as text with SGR sequences, mapping the
// child's palette 0–15 and its default colours through the theme.
type sgrWriter struct {
	st *themes.Styles
}

// appendColor appends the SGR parameters of c as a foreground (base 30) or
// background (base 40) colour.
func (w sgrWriter) appendColor(b []byte, c vterm.Color, fg bool) []byte {
	base := 38
	if !fg {
		base = 48
	}
	if n, ok := c.Palette(); ok {
		if n < 16 {
			return appendRGB(b, base, w.st.ANSI[n])
		}
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(base), 10)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(n), 10)
	}
	if r, g, bl, ok := c.RGB(); ok {
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(base), 10)
		b = append(b, ";2;"...)
		b = strconv.AppendInt(b, int64(r), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(g), 10)
		b = append(b, ';')
		return strconv.AppendInt(b, int64(bl), 10)
	}
	def := w.st.Palette.Fg
	if !fg {
		def = w.st.Palette.Bg
	}
	if def == nil {
		return b // the terminal's default: the reset already set it
	}
	return appendRGB(b, base, def)
}

func appendRGB(b []byte, base int, c color.Color) []byte {
	r, g, bl, _ := c.RGBA()
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(base), 10)
	b = append(b, ";2;"...)
	b = strconv.AppendInt(b, int64(r>>8), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(g>>8), 10)
	b = append(b, ';')
	return strconv.AppendInt(b, int64(bl>>8), 10)
}

func (w sgrWriter) appendSGR(b []byte, s cellStyle) []byte {
	b = append(b, "\x1b[0"...)
	for _, a := range [...]struct {
		bit vterm.Attr
		p   string
	}{
		{vterm.AttrBold, ";1"}, {vterm.AttrFaint, ";2"}, {vterm.AttrItalic, ";3"}, {vterm.AttrUnderline, ";4"},
		{vterm.AttrBlink, ";5"}, {vterm.AttrReverse, ";7"}, {vterm.AttrHidden, ";8"}, {vterm.AttrStrike, ";9"},
	} {
		if s.attr&a.bit != 0 {
			b = append(b, a.p...)
		}
	}
	fg := s.fg
	if n, ok := fg.Palette(); ok && n < 8 && s.attr&vterm.AttrBold != 0 {
		fg = vterm.PaletteColor(n + 8) // bold brightens the basic colours, as xterm does
	}
	b = w.appendColor(b, fg, true)
	b = w.appendColor(b, s.bg, false)
	return append(b, 'm')
}

// row renders up to width columns of cells, padded with blanks to width.
func (w sgrWriter) row(b []byte, cells []vterm.Cell, width int) []byte {
	base := cellStyle{}
	cur := base
	b = w.appendSGR(b, cur)
	col := 0
	for _, c := range cells {
		if c.Width == 0 {
			continue
		}
		if col+c.Width > width {
			break
		}
		s := cellStyle{fg: c.FG, bg: c.BG, attr: c.Attr}
		if s != cur {
			b = w.appendSGR(b, s)
			cur = s
		}
		text := c.Text
		if text == "" {
			text = " "
		}
		b = append(b, text...)
		col += c.Width
	}
	if col < width {
		if cur != base {
			b = w.appendSGR(b, base)
		}
		b = append(b, strings.Repeat(" ", width-col)...)
	}
	return append(b, "\x1b[m"...)
}

// renderScreen renders a snapshot into exactly h lines of width w (cropped
// or padded).
func renderScreen(st *themes.Styles, s *vterm.Snapshot, w, h int) []string {
	out := make([]string, h)
	wr := sgrWriter{st}
	var buf []byte
	blank := string(wr.row(nil, nil, w))
	for y := range h {
		if s == nil || y >= len(s.Cells) {
			out[y] = blank
			continue
		}
		buf = wr.row(buf[:0], s.Cells[y], w)
		out[y] = string(buf)
	}
	return out
}

// renderLines renders scrollback lines, one string each, at width w.
func renderLines(st *themes.Styles, lines [][]vterm.Cell, w int) []string {
	out := make([]string, len(lines))
	wr := sgrWriter{st}
	var buf []byte
	for i, l := range lines {
		buf = wr.row(buf[:0], l, w)
		out[i] = string(buf)
	}
	return out
}
