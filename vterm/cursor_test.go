package vterm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hinshun/vt10x"
)

// randomMoves is a program of cursor movement (every form vterm tracks
// itself, with counts past the margins), text up to and past the right
// margin, line feeds at the bottom, scroll regions, origin mode, autowrap,
// tabs, saved cursors, index, reverse index, inserted and deleted lines and
// erases: each step in a form vt10x reads the same as vterm (explicit,
// non-zero parameters, regions of two lines or more). IND and NEL are
// given to vt10x alone as LF and CR LF, as vterm hands them on: vt10x's IND
// on the bottom margin keeps a pending wrap, which a line feed ends.
func randomMoves(r *rand.Rand, cols, rows, steps int) (prog, vtProg []string) {
	n := func(max int) int { return 1 + r.IntN(max) }
	for range steps {
		var s string
		switch k := r.IntN(24); k {
		case 0, 1:
			s = fmt.Sprintf("\x1b[%d;%dH", n(rows+3), n(cols+3))
		case 2:
			s = fmt.Sprintf("\x1b[%df", n(rows))
		case 3:
			s = "\x1b[H"
		case 4:
			s = fmt.Sprintf("\x1b[%d%c", n(rows+2), "AB"[r.IntN(2)])
		case 5:
			s = fmt.Sprintf("\x1b[%c", "ABCDEF"[r.IntN(6)])
		case 6:
			s = fmt.Sprintf("\x1b[%d%c", n(cols+2), "CDa"[r.IntN(3)])
		case 7:
			s = fmt.Sprintf("\x1b[%d%c", n(rows), "EFe"[r.IntN(3)])
		case 8:
			s = fmt.Sprintf("\x1b[%d%c", n(cols+2), "G`"[r.IntN(2)])
		case 9:
			s = fmt.Sprintf("\x1b[%dd", n(rows+2))
		case 10, 11, 12:
			b := make([]byte, n(cols+4))
			for i := range b {
				b[i] = byte('a' + r.IntN(26))
			}
			s = string(b)
		case 13:
			s = []string{"\r", "\n", "\b", "\r\n", "\t"}[r.IntN(5)]
		case 14:
			top := n(rows - 1)
			s = fmt.Sprintf("\x1b[%d;%dr", top, top+n(rows-top))
		case 15:
			s = "\x1b[r"
		case 16:
			s = []string{"\x1b[?6h", "\x1b[?6l"}[r.IntN(2)]
		case 17:
			s = []string{"\x1b[?7l", "\x1b[?7h"}[r.IntN(2)]
		case 18:
			s = []string{"\x1b7", "\x1b8"}[r.IntN(2)]
		case 19:
			i := r.IntN(3)
			prog = append(prog, []string{"\x1bD", "\x1bM", "\x1bE"}[i])
			vtProg = append(vtProg, []string{"\n", "\x1bM", "\r\n"}[i])
			continue
		case 20:
			s = fmt.Sprintf("\x1b[%d%c", n(3), "LM"[r.IntN(2)])
		case 21:
			s = []string{"\x1b[K", "\x1b[1K", "\x1b[2J", "\x1b[J"}[r.IntN(4)]
		case 22:
			s = fmt.Sprintf("\x1b[%d;%dH\x1b[%d;%dH", n(rows), n(cols), n(rows), n(cols)) // two moves in a row
		case 23:
			s = fmt.Sprintf("\x1b[%dC\r\x1b[%dB\b", n(cols), n(rows))
		}
		prog, vtProg = append(prog, s), append(vtProg, s)
	}
	return prog, vtProg
}

// sameAsVT10x compares the grid and cursor vterm keeps in vt10x with those
// of a vt10x fed the program itself.
func sameAsVT10x(t *testing.T, tm *Term, raw vt10x.Terminal, where string) {
	t.Helper()
	checkShadow(t, tm)
	tm.mu.Lock()
	defer tm.mu.Unlock()
	const bits = vtCursorWrapNext | vtCursorOrigin
	g, w := tm.vt.Cursor(), raw.Cursor()
	if g.X != w.X || g.Y != w.Y || g.State&bits != w.State&bits {
		t.Fatalf("%s: cursor %d,%d state %b; vt10x alone %d,%d state %b", where, g.X, g.Y, g.State&bits, w.X, w.Y, w.State&bits)
	}
	for y := 0; y < tm.rows; y++ {
		for x := 0; x < tm.cols; x++ {
			if a, b := tm.vt.Cell(x, y).Char, raw.Cell(x, y).Char; a != b {
				t.Fatalf("%s: cell %d,%d %q; vt10x alone %q", where, x, y, a, b)
			}
		}
	}
}

func TestCursorMovesMatchVT10x(t *testing.T) {
	t.Parallel()
	// vterm works cursor moves out itself and hands vt10x the shortest
	// equivalent (or none); the cursor and the cells must end up exactly
	// where vt10x alone puts them, step by step and when the whole program
	// comes in chunks that cut it anywhere.
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 7))
		cols, rows := 3+r.IntN(78), 2+r.IntN(23)
		prog, vtProg := randomMoves(r, cols, rows, 1500)
		tm, raw := New(cols, rows), vt10x.New(vt10x.WithSize(cols, rows))
		var all []byte
		for i, s := range prog {
			_, _ = tm.Write([]byte(s))
			_, _ = raw.Write([]byte(vtProg[i]))
			all = append(all, s...)
			sameAsVT10x(t, tm, raw, fmt.Sprintf("seed %d, %dx%d, step %d %q", seed, cols, rows, i, s))
		}
		chunked := New(cols, rows)
		for len(all) > 0 {
			k := min(1+r.IntN(64), len(all))
			_, _ = chunked.Write(all[:k])
			all = all[k:]
		}
		sameAsVT10x(t, chunked, raw, fmt.Sprintf("seed %d, %dx%d, chunked", seed, cols, rows))
	}
}

// vtRecorder keeps what vterm hands vt10x.
type vtRecorder struct {
	vt10x.Terminal
	got []byte
}

func (r *vtRecorder) Write(p []byte) (int, error) {
	r.got = append(r.got, p...)
	return r.Terminal.Write(p)
}

func TestCursorMovesShortest(t *testing.T) {
	t.Parallel()
	// What vt10x is handed for a move: the shortest sequence from where the
	// cursor is, nothing for a move that goes nowhere, one move for two in a
	// row.
	for _, c := range []struct{ in, want string }{
		{"\x1b[1;1H", ""},
		{"ab\x1b[1;1H", "ab\r"},
		{"ab\x1b[1;2H", "ab\b"},
		{"ab\x1b[2;3H", "ab\n"},
		{"ab\x1b[2;1H", "ab\r\n"},
		{"ab\x1b[2;1H\x1b[2;1H", "ab\r\n"},
		{"\x1b[5;9H\x1b[3;4H", "\x1b[3;4H"},
		{"\x1b[5;9H\x1b[1;1Hx", "x"},
		{"\x1b[5;9H\x1b[1;1H\x1b[5;9Hx", "\x1b[5;9Hx"},
		{"\x1b[5;9H", "\x1b[5;9H"},
		{"\x1b[5;1H", "\x1b[4B"},
		{"\x1b[15;1H", "\x1b[14B"}, // as short as ESC[15H
		{"\x1b[5;9Hx\x1b[17;1H", "\x1b[5;9Hx\x1b[17H"},
		{"\x1b[1;9H", "\x1b[8C"},
		{"\x1b[1;15H", "\x1b[14C"},
		{"\x1b[5;9Hx\x1b[5;40H", "\x1b[5;9Hx\x1b[30C"},
		{"\x1b[5;79Hx\x1b[5;3H", "\x1b[5;79Hx\x1b[3G"},
		{"\x1b[5;9Hx\x1b[5;8H", "\x1b[5;9Hx\x1b[2D"},
		{"\x1b[5;9Hx\x1b[8;10H", "\x1b[5;9Hx\x1b[3B"},
		{"\x1b[5;9Hx\x1b[20;10H", "\x1b[5;9Hx\x1b[15B"},
		{"\x1b[15;9Hx\x1b[2;10H", "\x1b[15;9Hx\x1b[2d"},
		{"\x1b[24;1Hx\x1b[24;1H\x1b[23;2H", "\x1b[23Bx\x1b[A"},
		{"\x1b[24;2H\r\n", "\x1b[23B\n"},                                               // on the bottom margin the line feed scrolls
		{"\x1b[1;80Hx\x1b[1;80H", "\x1b[79Cx\x1b[C"},                                   // a pending wrap ends
		{"\x1b[1;80Hx\x1b[5;5H\x1b[1;80H", "\x1b[79Cx\x1b[C"},                          // also when the move there is taken back
		{"\x1b[3;9r\x1b[?6h\x1b[2;5H", "\x1b[3;9r\x1b[?6h\x1b[2;5H"},                   // rows count from the region's top
		{"\x1b[3;9r\x1b[?6h\x1b[2;5H\x1b[1;5H", "\x1b[3;9r\x1b[?6h\x1b[4C"},            // DECOM homes to 3;1
		{"\x1b[3;9r\x1b[?6h\x1b[20;5Hx\x1b[1;1H", "\x1b[3;9r\x1b[?6h\x1b[7;5Hx\x1b[H"}, // clamped to the region
	} {
		tm := New(80, 24)
		rec := &vtRecorder{Terminal: tm.vt}
		tm.vt = rec
		_, _ = tm.Write([]byte(c.in))
		if string(rec.got) != c.want {
			t.Errorf("%q: vt10x got %q, want %q", c.in, rec.got, c.want)
		}
		raw := vt10x.New(vt10x.WithSize(80, 24))
		_, _ = raw.Write([]byte(c.in))
		tm.vt = rec.Terminal
		sameAsVT10x(t, tm, raw, fmt.Sprintf("%q", c.in))
	}
}

func TestRedrawnTextMovedOver(t *testing.T) {
	t.Parallel()
	// Text the cells already hold, in the same rendition, is moved over
	// rather than handed to vt10x again: from sameMin characters on, at the
	// start of what is printed on a line, never the last column (its pending
	// wrap), never over a different rendition; the screen and the cursor
	// are as vt10x alone makes them.
	for _, c := range []struct{ first, again, want string }{
		{"hello world!", "\rhello world!", ""}, // the cursor ends where it was
		{"hello world!", "\rhello world", "\b"},
		{"hello world!", "\r\x1b[Hhello world", "\b"},
		{"hello world!", "\x1b[2Hhello world!", "\r\nhello world!"},         // a blank line
		{"hello world!", "\rhello there!", "\rhello there!"},                // differs before sameMin
		{"hello world!", "\rhello woRLD!", "\x1b[4DRLD!"},                   // the rest is printed
		{"hello", "\rhello", "\rhello"},                                     // shorter than sameMin
		{"hello world!", "\r\x1b[1mhello world!", "\r\x1b[31mhello world!"}, // another rendition
		{"\x1b[7mhello world!", "\r hello world", "\r hello world"},         // other text
		{"\x1b[7mhello world!\x1b[m", "\r\x1b[7mhello world", "\b"},
		{"01234567890123456789", "\r01234567890123456789", "\x1b[C9"}, // the last column is printed
		{"01234567890123456789abc", "\x1b[H01234567890123456789", "\x1b[1;20H9"},
	} {
		tm := New(20, 3)
		_, _ = tm.Write([]byte(c.first))
		rec := &vtRecorder{Terminal: tm.vt}
		tm.vt = rec
		_, _ = tm.Write([]byte(c.again))
		tm.vt = rec.Terminal
		if string(rec.got) != c.want {
			t.Errorf("%q then %q: vt10x got %q, want %q", c.first, c.again, rec.got, c.want)
		}
		raw := vt10x.New(vt10x.WithSize(20, 3))
		_, _ = raw.Write([]byte(c.first + c.again))
		sameAsVT10x(t, tm, raw, fmt.Sprintf("%q then %q", c.first, c.again))
	}
}
