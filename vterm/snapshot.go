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
// (docs: screen-json.md): cols, rows, cursor, alt screen and every cell.
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
