package ui

import (
	"image/color"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"tend/themes"
	"tend/vterm"
)

// cellStyle is what decides a cell's SGR sequence.
type cellStyle struct {
	fg, bg vterm.Color
	attr   vterm.Attr
}

// sgrWriter writes a job's styled text (PTY cells, pipe output) with SGR
// sequences of its own making: nothing the job wrote reaches the terminal
// but its text. The job's colours 0–15 stay the terminal's own (SGR 30–37
// and 90–97), so it looks as it does in a plain terminal, unless the theme
// remaps them ([themes.Styles.ANSI]); its default colours are the theme's.
type sgrWriter struct {
	st *themes.Styles
}

// appendColor appends the SGR parameters of colour c as a foreground or
// background: the 16 colours as SGR 30–37 and 90–97 (40–47, 100–107),
// the rest of the 256 as 38;5;n, anything else as 38;2;r;g;b.
func appendColor(b []byte, fg bool, c color.Color) []byte {
	base := 30
	if !fg {
		base = 40
	}
	n := -1
	switch c := c.(type) {
	case ansi.BasicColor:
		n = int(c)
	case ansi.IndexedColor:
		n = int(c)
	}
	switch {
	case n >= 0 && n < 8:
		b = append(b, ';')
		return strconv.AppendInt(b, int64(base+n), 10)
	case n >= 8 && n < 16:
		b = append(b, ';')
		return strconv.AppendInt(b, int64(base+60+n-8), 10)
	case n >= 16:
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(base+8), 10)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(n), 10)
	}
	r, g, bl, _ := c.RGBA()
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(base+8), 10)
	b = append(b, ";2;"...)
	b = strconv.AppendInt(b, int64(r>>8), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(g>>8), 10)
	b = append(b, ';')
	return strconv.AppendInt(b, int64(bl>>8), 10)
}

// appendCellColor appends a job's colour c as a foreground or background;
// def is what its default colour is drawn as (nil: the terminal's, which
// the reset before it already set).
func (w sgrWriter) appendCellColor(b []byte, c vterm.Color, fg bool, def color.Color) []byte {
	if n, ok := c.Palette(); ok {
		if n < 16 && w.st.ANSI[n] != nil {
			return appendColor(b, fg, w.st.ANSI[n])
		}
		return appendColor(b, fg, ansi.IndexedColor(n))
	}
	if r, g, bl, ok := c.RGB(); ok {
		return appendColor(b, fg, color.RGBA{R: r, G: g, B: bl, A: 0xff})
	}
	if def == nil {
		return b
	}
	return appendColor(b, fg, def)
}

// appendSGR appends the SGR sequence of s; defFG is what its default
// foreground is drawn as (nil: the terminal's).
func (w sgrWriter) appendSGR(b []byte, s cellStyle, defFG color.Color) []byte {
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
	if n, ok := fg.Palette(); ok && n < 8 && s.attr&vterm.AttrBold != 0 && w.st.ANSI[n] != nil {
		// Bold brightens the basic colours, as xterm does. The terminal
		// does that itself to its own colours, not to the theme's.
		fg = vterm.PaletteColor(n + 8)
	}
	b = w.appendCellColor(b, fg, true, defFG)
	b = w.appendCellColor(b, s.bg, false, w.st.Bg)
	return append(b, 'm')
}

// row renders up to width columns of cells, padded with blanks to width.
func (w sgrWriter) row(b []byte, cells []vterm.Cell, width int) []byte {
	base := cellStyle{}
	cur := base
	b = w.appendSGR(b, cur, w.st.Fg)
	col := 0
	prev := ""
	for _, c := range cells {
		if c.Width == 0 {
			continue
		}
		if col+c.Width > width {
			break
		}
		s := cellStyle{fg: c.FG, bg: c.BG, attr: c.Attr}
		if s != cur {
			b = w.appendSGR(b, s, w.st.Fg)
			cur = s
			prev = "" // no cluster joins across an escape sequence
		}
		text := c.Text
		if text == "" {
			text = " "
		}
		text = cellText(prev, text, c.Width)
		b = append(b, text...)
		prev = text
		col += c.Width
	}
	if col < width {
		if cur != base {
			b = w.appendSGR(b, base, w.st.Fg)
		}
		b = append(b, strings.Repeat(" ", width-col)...)
	}
	return append(b, "\x1b[m"...)
}

// outLine renders a line of a pipe job's output to exactly width columns:
// each part in the job's own rendition, stderr where the job chose no
// colour of its own in the theme's error colour.
func (w sgrWriter) outLine(b []byte, parts []outPart, width int) []byte {
	room := width
	for _, part := range parts {
		t, _ := termSafe(part.text)
		t = ansi.Truncate(t, room, "")
		if t == "" {
			continue
		}
		def := w.st.Fg
		if part.stderr {
			def = w.st.StderrFg
		}
		b = w.appendSGR(b, part.style, def)
		b = append(b, t...)
		if room -= ansi.StringWidth(t); room <= 0 {
			break
		}
	}
	if room > 0 {
		b = w.appendSGR(b, cellStyle{}, w.st.Fg)
		b = append(b, strings.Repeat(" ", room)...)
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
