package vterm

// Line is one line of scrollback.
type Line struct {
	Cells []Cell
}

// scrollback is a bounded ring of lines that left the top of the primary screen.
type scrollback struct {
	max  int
	ring []Line
	head int // index of the oldest line once the ring is full
}

func (s *scrollback) push(l Line) {
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

func (s *scrollback) lines() []Line {
	out := make([]Line, 0, len(s.ring))
	out = append(out, s.ring[s.head:]...)
	return append(out, s.ring[:s.head]...)
}
