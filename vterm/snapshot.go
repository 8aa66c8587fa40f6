package vterm

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Snapshot is an immutable copy of the screen at one moment.
type Snapshot struct {
	// Seq increases with every Write and Resize; equal Seqs mean equal screens.
	Seq        uint64
	Cols, Rows int
	// Cells holds Rows rows of Cols cells, top row first.
	Cells     [][]Cell
	Cursor    Cursor
	Title     string
	Modes     Modes
	AltScreen bool
}

// Text returns the screen as plain text: one line per row with trailing
// spaces trimmed, joined by "\n".
func (s *Snapshot) Text() string {
	var b strings.Builder
	for y, row := range s.Cells {
		if y > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(rowText(row))
	}
	return b.String()
}

func rowText(row []Cell) string {
	var b strings.Builder
	for _, c := range row {
		b.WriteString(c.Text)
	}
	return strings.TrimRight(b.String(), " ")
}

// MarshalScreenJSON returns the screen in tend's screen JSON format
// (docs/screen-json.md): cols, rows, cursor, alt screen and every cell.
func (s *Snapshot) MarshalScreenJSON() ([]byte, error) {
	b := make([]byte, 0, 64+s.Rows*s.Cols*24)
	b = append(b, `{"cols":`...)
	b = strconv.AppendInt(b, int64(s.Cols), 10)
	b = append(b, `,"rows":`...)
	b = strconv.AppendInt(b, int64(s.Rows), 10)
	b = append(b, `,"cursor_x":`...)
	b = strconv.AppendInt(b, int64(s.Cursor.X), 10)
	b = append(b, `,"cursor_y":`...)
	b = strconv.AppendInt(b, int64(s.Cursor.Y), 10)
	b = append(b, `,"cursor_visible":`...)
	b = strconv.AppendBool(b, s.Modes.CursorVisible)
	b = append(b, `,"alt_screen":`...)
	b = strconv.AppendBool(b, s.AltScreen)
	b = append(b, `,"cells":[`...)
	for y, row := range s.Cells {
		if y > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for x, c := range row {
			if x > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"t":`...)
			b = appendJSONString(b, c.Text)
			b = append(b, `,"w":`...)
			b = strconv.AppendInt(b, int64(c.Width), 10)
			b = append(b, `,"s":"`...)
			b = c.appendStyle(b)
			b = append(b, `"}`...)
		}
		b = append(b, ']')
	}
	b = append(b, "]}"...)
	return b, nil
}

// appendJSONString appends s as a JSON string. Unlike encoding/json it does
// not escape <, > and &, so the output reads the same as the text.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&15])
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// asciiText holds the one-character strings of printable ASCII, so reading
// a screen does not allocate per cell.
var asciiText = func() (a [128]string) {
	for i := 0x20; i < 0x7f; i++ {
		a[i] = string(rune(i))
	}
	return a
}()

// snapshotLocked copies the screen out of vt10x, resolving style ids and
// stand-in runes.
func (t *Term) snapshotLocked() *Snapshot {
	t.showPending()
	t.needCursor()
	s := &Snapshot{Seq: t.seq, Cols: t.cols, Rows: t.rows, Title: t.title, Modes: t.modes, AltScreen: t.alt}
	all := make([]Cell, t.cols*t.rows)
	s.Cells = make([][]Cell, t.rows)
	for y := range s.Cells {
		s.Cells[y] = t.rowCells(y, all[y*t.cols:(y+1)*t.cols:(y+1)*t.cols])
	}
	s.Cursor = Cursor{X: t.cx, Y: t.cy}
	return s
}

// rowCells resolves screen row y into row. Half of a wide character whose
// other half was overwritten shows as a blank, as in tmux.
func (t *Term) rowCells(y int, row []Cell) []Cell {
	for x := range row {
		g := t.vt.Cell(x, y)
		st := t.styles.style(vtStyleID(g.FG))
		c := Cell{Text: " ", Width: 1, FG: st.FG, BG: st.BG, Attr: st.Attr}
		switch r := g.Char; {
		case r >= 0x20 && r < 0x7f:
			c.Text = asciiText[r]
		case r == placeholderRune:
			if x > 0 && row[x-1].Width == 2 {
				c.Text, c.Width = "", 0
			}
		case r == 0:
		default:
			text := t.cellText(r)
			first, _ := utf8.DecodeRuneInString(text)
			if runeWidth(first) == 2 {
				if x+1 < len(row) && t.vt.Cell(x+1, y).Char == placeholderRune {
					c.Text, c.Width = text, 2
				}
			} else {
				c.Text = text
			}
		}
		row[x] = c
	}
	return row
}
