package vterm

// Style is the full rendition of a cell. vt10x can store neither faint,
// strike nor an unambiguous true colour, so vterm keeps every Style in a
// table of its own and hands vt10x only the style's number, as the "true
// colour" foreground of its cells (38;2;r;g;b with r,g,b the id's bytes).
// vt10x then moves the number around with the cell, and a snapshot reads
// the real style back from the table.
type Style struct {
	FG, BG Color
	Attr   Attr
}

// maxStyles bounds the style table (ids fit in vt10x's 24 colour bits with
// room to spare). When it fills up, ids no cell uses any more are recycled.
const maxStyles = 1 << 16

type styleTable struct {
	ids  map[Style]uint32
	list []Style // id -> style; id 0 is the default style
	free []uint32
	// cache holds recent answers of id: a program switches among a few
	// styles (and an erase's), and hashing a Style for the map was most
	// of what an SGR cost. A sweep empties it.
	cache [16]styleCacheEntry
}

type styleCacheEntry struct {
	s  Style
	id uint32
	ok bool
}

func (s Style) cacheSlot() uint32 {
	h := uint32(s.FG)*0x9e3779b1 ^ uint32(s.BG)*0x85ebca77 ^ uint32(s.Attr)*0xc2b2ae3d
	return h >> 28
}

func newStyleTable() styleTable {
	return styleTable{ids: map[Style]uint32{{}: 0}, list: []Style{{}}}
}

// id returns the number of s, adding s if needed. It returns ok=false when
// the table is full; the caller collects garbage and asks again.
func (st *styleTable) id(s Style) (uint32, bool) {
	e := &st.cache[s.cacheSlot()]
	if e.ok && e.s == s {
		return e.id, true
	}
	if id, ok := st.ids[s]; ok {
		*e = styleCacheEntry{s, id, true}
		return id, true
	}
	var id uint32
	switch {
	case len(st.free) > 0:
		id = st.free[len(st.free)-1]
		st.free = st.free[:len(st.free)-1]
		st.list[id] = s
	case len(st.list) < maxStyles:
		id = uint32(len(st.list))
		st.list = append(st.list, s)
	default:
		return 0, false
	}
	st.ids[s] = id
	*e = styleCacheEntry{s, id, true}
	return id, true
}

func (st *styleTable) style(id uint32) Style {
	if int(id) < len(st.list) {
		return st.list[id]
	}
	return Style{}
}

// sweep frees every id not in used (id 0 always stays).
func (st *styleTable) sweep(used map[uint32]bool) {
	st.cache = [len(st.cache)]styleCacheEntry{}
	for id := 1; id < len(st.list); id++ {
		s := st.list[id]
		if used[uint32(id)] {
			continue
		}
		if cur, ok := st.ids[s]; ok && cur == uint32(id) {
			delete(st.ids, s)
			st.free = append(st.free, uint32(id))
		}
	}
}

// ApplySGR returns s after the SGR sequence whose parameters are params
// (what comes between CSI and m: digits, ';' and ':'), exactly as the
// emulator applies it to its cells; anything else in params, or more
// parameters than a sequence may have, leaves s as it was. It is how text
// drawn without an emulator (a pipe job's output) gets the colours the same
// program has on a terminal.
func ApplySGR(s Style, params []byte) Style {
	var p parser
	for _, c := range params {
		if c != ';' && c != ':' && (c < '0' || c > '9') {
			return s
		}
		p.csiCollect(c)
	}
	if p.toomany {
		return s
	}
	return p.sgr(s)
}

// sgr applies an SGR sequence (CSI … m) to s, with both ';' and ':' forms
// of the extended colours, as tmux and xterm accept them.
func (p *parser) sgr(s Style) Style {
	if p.nparams == 0 {
		return Style{}
	}
	for i := 0; i < p.nparams; i++ {
		a := p.arg(i, 0)
		// Sub-parameters that belong to a previous parameter are consumed
		// with it; a stray one is skipped.
		if p.params[i].sub {
			continue
		}
		switch {
		case a == 0:
			s = Style{}
		case a == 1:
			s.Attr |= AttrBold
		case a == 2:
			s.Attr |= AttrFaint
		case a == 3:
			s.Attr |= AttrItalic
		case a == 4:
			// 4:0 is "no underline"; 4:1..4:5 are underline styles.
			if i+1 < p.nparams && p.params[i+1].sub && p.arg(i+1, 1) == 0 {
				s.Attr &^= AttrUnderline
			} else {
				s.Attr |= AttrUnderline
			}
		case a == 5 || a == 6:
			s.Attr |= AttrBlink
		case a == 7:
			s.Attr |= AttrReverse
		case a == 8:
			s.Attr |= AttrHidden
		case a == 9:
			s.Attr |= AttrStrike
		case a == 21:
			s.Attr |= AttrUnderline // double underline
		case a == 22:
			s.Attr &^= AttrBold | AttrFaint
		case a == 23:
			s.Attr &^= AttrItalic
		case a == 24:
			s.Attr &^= AttrUnderline
		case a == 25:
			s.Attr &^= AttrBlink
		case a == 27:
			s.Attr &^= AttrReverse
		case a == 28:
			s.Attr &^= AttrHidden
		case a == 29:
			s.Attr &^= AttrStrike
		case a >= 30 && a <= 37:
			s.FG = PaletteColor(uint8(a - 30))
		case a == 38 || a == 48 || a == 58:
			c, next, ok := p.extColor(i)
			i = next
			if ok && a == 38 {
				s.FG = c
			} else if ok && a == 48 {
				s.BG = c
			} // 58: underline colour, not kept
		case a == 39:
			s.FG = DefaultColor
		case a >= 40 && a <= 47:
			s.BG = PaletteColor(uint8(a - 40))
		case a == 49:
			s.BG = DefaultColor
		case a >= 90 && a <= 97:
			s.FG = PaletteColor(uint8(a - 90 + 8))
		case a >= 100 && a <= 107:
			s.BG = PaletteColor(uint8(a - 100 + 8))
		}
	}
	return s
}

// extColor parses the colour after parameter i (38, 48 or 58) and returns the
// index of the last parameter it used.
func (p *parser) extColor(i int) (Color, int, bool) {
	if i+1 < p.nparams && p.params[i+1].sub {
		// Colon form: 38:5:n, 38:2:r:g:b or 38:2:cs:r:g:b.
		j := i + 1
		for j+1 < p.nparams && p.params[j+1].sub {
			j++
		}
		n := j - i // sub-parameters after the 38
		switch p.arg(i+1, 0) {
		case 5:
			if n >= 2 {
				return paletteArg(p.arg(i+2, -1)), j, p.arg(i+2, -1) >= 0 && p.arg(i+2, -1) < 256
			}
		case 2:
			k := i + 2
			if n >= 5 {
				k = i + 3 // skip the colour space id
			}
			if n >= 4 {
				c, ok := rgbArgs(p.arg(k, 0), p.arg(k+1, 0), p.arg(k+2, 0))
				return c, j, ok
			}
		}
		return DefaultColor, j, false
	}
	switch p.arg(i+1, -1) {
	case 5:
		if i+2 < p.nparams {
			n := p.arg(i+2, -1)
			return paletteArg(n), i + 2, n >= 0 && n < 256
		}
		return DefaultColor, p.nparams, false
	case 2:
		if i+4 < p.nparams {
			c, ok := rgbArgs(p.arg(i+2, 0), p.arg(i+3, 0), p.arg(i+4, 0))
			return c, i + 4, ok
		}
		return DefaultColor, p.nparams, false
	}
	return DefaultColor, i + 1, false
}

func paletteArg(n int) Color {
	if n < 0 || n > 255 {
		return DefaultColor
	}
	return PaletteColor(uint8(n))
}

func rgbArgs(r, g, b int) (Color, bool) {
	if r > 255 || g > 255 || b > 255 {
		return DefaultColor, false
	}
	return RGBColor(uint8(r), uint8(g), uint8(b)), true
}
