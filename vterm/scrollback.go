package vterm

import "strings"

// Line is one line of scrollback. Trailing blank cells in the default style
// are trimmed.
type Line struct {
	Cells []Cell
}

// Text returns the line as plain text, trailing spaces trimmed.
func (l Line) Text() string { return rowText(l.Cells) }

// packedLine is how the scrollback keeps a line: 10,000 lines of []Cell
// would cost ~30 MiB at 80 columns; packed, a typical line costs its text
// plus a byte per cell plus a few style runs.
type packedLine struct {
	text  string
	cells []uint8 // per cell: text length in bytes << 2 | width
	runs  []styleRun

	// raw, when not "", is a line as flood took it (printable ASCII with
	// SGR and EL), in rendition pen at its start, packed only when read:
	// most lines of a flood are pushed out of the scrollback again unread.
	raw string
	pen Style
}

type styleRun struct {
	n int
	s Style
}

func packLine(cells []Cell) packedLine {
	end := len(cells)
	for end > 0 && cells[end-1] == blankCell {
		end--
	}
	size := 0
	for _, c := range cells[:end] {
		size += len(c.Text)
	}
	var b strings.Builder
	b.Grow(size)
	pl := packedLine{cells: make([]uint8, end)}
	for i, c := range cells[:end] {
		b.WriteString(c.Text)
		pl.cells[i] = uint8(len(c.Text))<<2 | uint8(c.Width)
		s := Style{FG: c.FG, BG: c.BG, Attr: c.Attr}
		if n := len(pl.runs); n > 0 && pl.runs[n-1].s == s {
			pl.runs[n-1].n++
		} else {
			pl.runs = append(pl.runs, styleRun{1, s})
		}
	}
	pl.text = b.String()
	return pl
}

func (pl packedLine) unpack() Line {
	cells := make([]Cell, len(pl.cells))
	off, run, left := 0, 0, 0
	for i, m := range pl.cells {
		if left == 0 {
			left = pl.runs[run].n
			run++
		}
		left--
		s := pl.runs[run-1].s
		n := int(m >> 2)
		cells[i] = Cell{Text: pl.text[off : off+n], Width: int(m & 3), FG: s.FG, BG: s.BG, Attr: s.Attr}
		off += n
	}
	return Line{Cells: cells}
}

// scrollback is a bounded ring of lines that left the top of the primary screen.
type scrollback struct {
	max  int
	ring []packedLine
	head int // index of the oldest line once the ring is full
}

func (s *scrollback) push(l packedLine) {
	if s.max == 0 {
		return
	}
	if len(s.ring) < s.max {
		s.ring = append(s.ring, l)
		return
	}
	s.ring[s.head] = l
	s.head = (s.head + 1) % s.max
}

func (s *scrollback) clear() { s.ring, s.head = nil, 0 }

func (s *scrollback) len() int { return len(s.ring) }

// sbLines returns n scrollback lines from line from, 0 being the oldest,
// packing a line flood kept raw (and keeping it packed).
func (t *Term) sbLines(from, n int) []Line {
	s := &t.sb
	from = min(max(from, 0), s.len())
	n = min(max(n, 0), s.len()-from)
	out := make([]Line, n)
	for i := range out {
		k := (s.head + from + i) % len(s.ring)
		if l := s.ring[k]; l.raw != "" {
			s.ring[k] = t.packStyled([]byte(l.raw), l.pen)
		}
		out[i] = s.ring[k].unpack()
	}
	return out
}

// ScrollbackLen returns the number of lines in the scrollback.
func (t *Term) ScrollbackLen() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sb.len()
}

// ScrollbackRange returns up to n scrollback lines starting at from, where
// 0 is the oldest line kept.
func (t *Term) ScrollbackRange(from, n int) []Line {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sbLines(from, n)
}

// packRow packs screen row y for the scrollback.
func (t *Term) packRow(y int) packedLine {
	if cap(t.rowBuf) < t.cols {
		t.rowBuf = make([]Cell, t.cols)
	}
	return packLine(t.rowCells(y, t.rowBuf[:t.cols]))
}
