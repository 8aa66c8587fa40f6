package vterm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// fullState is everything a flood could get wrong: the screen cell by cell
// with styles, the cursor, the modes and the scrollback with styles.
func fullState(t *testing.T, tm *Term) string {
	t.Helper()
	checkShadow(t, tm)
	s := tm.Snapshot()
	var b strings.Builder
	fmt.Fprintf(&b, "cursor %+v alt %v modes %+v\n", s.Cursor, s.AltScreen, s.Modes)
	for _, row := range s.Cells {
		fmt.Fprintf(&b, "%v\n", row)
	}
	b.WriteString("scrollback\n")
	for _, l := range tm.Scrollback() {
		fmt.Fprintf(&b, "%v\n", l.Cells)
	}
	return b.String()
}

// floodInput writes lines that take the flood path, mixed with what must
// end it or keep it from starting: lines exactly as wide as the screen and
// wider, empty lines, lone CR and LF, tabs, colours, a background colour,
// the alternate screen, a scroll region, autowrap off, wide characters,
// the cursor sent home over older lines.
func floodInput(r *rand.Rand, cols int) []byte {
	var b bytes.Buffer
	for range r.IntN(8) + 1 {
		n := r.IntN(300)
		for range n {
			switch r.IntN(9) {
			case 6: // coloured, as a compiler or grep writes it
				fmt.Fprintf(&b, "\x1b[01m\x1b[Kfile.go:%d:\x1b[m\x1b[K \x1b[01;31m\x1b[Kerror:\x1b[m\x1b[K bad", r.IntN(100))
			case 7: // colours that outlast the line, a background in it, colon forms
				b.WriteString([]string{"\x1b[32mgreen", "\x1b[41m on red \x1b[49m", "\x1b[38:5:200mpink", "\x1b[1;4m", "\x1b[0m", "\x1b[44m", "abc\x1b[1Kdef", "abc\x1b[2K"}[r.IntN(8)])
			case 8: // an erase at the margin, with the wrap pending
				b.WriteString(strings.Repeat("y", cols) + "\x1b[K")
			case 0:
				b.WriteString(strings.Repeat("x", cols*(1+r.IntN(2))))
			case 1:
				b.WriteString(strings.Repeat("ab ", r.IntN(cols*3/3+5)))
			case 2: // empty line
			default:
				fmt.Fprintf(&b, "%d", r.IntN(1000000))
			}
			b.WriteString("\r\n")
		}
		for range r.IntN(3) + 1 {
			writeInterruption(&b, r)
		}
		if r.IntN(4) == 0 { // the lines that follow overwrite older ones
			b.WriteString("left on the row\x1b[H")
		}
	}
	return b.Bytes()
}

// writeInterruption writes something that ends a run of plain lines.
func writeInterruption(b *bytes.Buffer, r *rand.Rand) {
	switch r.IntN(17) {
	case 0:
		b.WriteString("\rover")
	case 1:
		b.WriteString("bare\nfeed")
	case 2:
		b.WriteString("\ttab")
	case 3:
		b.WriteString("\x1b[31;1mred\x1b[m")
	case 4:
		b.WriteString("\x1b[44m")
	case 5:
		b.WriteString("\x1b[49m")
	case 6:
		b.WriteString("\x1b[?1049h")
	case 7:
		b.WriteString("\x1b[?1049l")
	case 8:
		b.WriteString("\x1b[3;7r")
	case 9:
		b.WriteString("\x1b[r")
	case 10:
		b.WriteString("\x1b[?7l")
	case 11:
		b.WriteString("\x1b[?7h")
	case 12:
		b.WriteString("世界\u0301")
	case 13:
		b.WriteString("\x1b[35m")
	case 14:
		b.WriteString("\x1b[5;1H")
	case 15:
		b.WriteString("\x1b[2J")
	case 16: // a line without its end
		b.WriteString("unended line")
	}
}

// The flood shortcut leaves exactly the state the byte-by-byte path leaves,
// however the input is cut into writes.
func TestFloodMatchesSlowPath(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 1))
		cols, rows := 5+r.IntN(40), 1+r.IntN(12)
		sb := []int{0, 7, 50, DefaultScrollback}[r.IntN(4)]
		in := floodInput(r, cols)

		slow := New(cols, rows, WithScrollback(sb))
		slow.slowOnly = true
		slow.Write(in)

		whole := New(cols, rows, WithScrollback(sb))
		whole.Write(in)

		split, looked := New(cols, rows, WithScrollback(sb)), New(cols, rows, WithScrollback(sb))
		for rest := in; len(rest) > 0; {
			n := min(1+r.IntN(4096), len(rest))
			split.Write(rest[:n])
			looked.Write(rest[:n])
			switch r.IntN(4) { // someone looks at the screen between writes
			case 0:
				looked.Snapshot()
			case 1:
				looked.History()
			}
			rest = rest[n:]
		}

		want := fullState(t, slow)
		for name, tm := range map[string]*Term{"whole": whole, "split": split, "looked": looked} {
			if got := fullState(t, tm); got != want {
				t.Fatalf("seed %d (%dx%d, scrollback %d), %s: flood differs from the slow path\ninput %q\ngot:\n%s\nwant:\n%s",
					seed, cols, rows, sb, name, in, got, want)
			}
		}
	}
}

// The shortcut is taken: a flood of lines reaches vt10x as one screenful.
func TestFloodSkipsVT10x(t *testing.T) {
	var in bytes.Buffer
	for i := range 100000 {
		fmt.Fprintf(&in, "%d\r\n", i)
	}
	tm := New(80, 24)
	tm.Write(in.Bytes())
	if tm.vtBytes > 4096 {
		t.Errorf("vt10x was handed %d bytes for a %d-byte flood", tm.vtBytes, in.Len())
	}
	sb := tm.Scrollback()
	if len(sb) != DefaultScrollback || sb[len(sb)-1].Text() != "99976" {
		t.Errorf("scrollback has %d lines, the last %q", len(sb), sb[len(sb)-1].Text())
	}
	s := tm.Snapshot()
	if line(s, 0) != "99977" || line(s, 22) != "99999" || !reflect.DeepEqual(s.Cursor, Cursor{X: 0, Y: 23}) {
		t.Errorf("screen:\n%s\ncursor %+v", s.Text(), s.Cursor)
	}
}

// A flood in many writes reaches vt10x as one screenful too: the screenful a
// write's flood leaves is taken on by the next one, and printed only when
// someone looks.
func TestFloodAcrossWritesSkipsVT10x(t *testing.T) {
	var in bytes.Buffer
	for i := range 100000 {
		fmt.Fprintf(&in, "\x1b[3%dm%d\x1b[m\r\n", i%8, i)
	}
	tm := New(80, 24)
	for b := in.Bytes(); len(b) > 0; b = b[min(4096, len(b)):] {
		tm.Write(b[:min(4096, len(b))])
	}
	tm.mu.Lock()
	handed := tm.vtBytes + uint64(len(tm.out))
	tm.mu.Unlock()
	if handed > 1024 {
		t.Errorf("vt10x was handed %d bytes for a %d-byte flood in 4 KiB writes", handed, in.Len())
	}
	s := tm.Snapshot()
	if line(s, 0) != "99977" || line(s, 22) != "99999" || line(s, 23) != "" || s.Cells[22][0].FG != PaletteColor(7) {
		t.Errorf("screen:\n%s", s.Text())
	}
	if sb := tm.Scrollback(); len(sb) != DefaultScrollback || sb[len(sb)-1].Text() != "99976" || sb[len(sb)-1].Cells[0].FG != PaletteColor(0) {
		t.Errorf("scrollback has %d lines, the last %q", len(sb), sb[len(sb)-1].Text())
	}
	checkShadow(t, tm)
}

// FuzzFlood: on a small screen any input takes the flood path often, and
// must leave what the byte-by-byte path leaves.
func FuzzFlood(f *testing.F) {
	f.Add([]byte("1\r\n22\r\n333\r\n4444\r\n55555\r\n666666\r\n7777777\r\n88888888\r\n9"))
	f.Add([]byte("a\r\n\x1b[31mb\x1b[K\r\nc\x1b[m\r\n\r\n\x1b[44md\x1b[49m\r\ne\r\nf\x1b[Hg\r\nh\r\ni\r\nj\r\n"))
	f.Add([]byte("x\x1b[2;2r\r\n1\r\n2\r\n3\r\n4\x1b[r\r\n5\r\n6\r\n7\x1b[?7l\r\n8\r\n9\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 1<<16 {
			return
		}
		slow := New(7, 2, WithScrollback(9))
		slow.slowOnly = true
		slow.Write(in)
		fast := New(7, 2, WithScrollback(9))
		fast.Write(in)
		want := fullState(t, slow)
		if got := fullState(t, fast); got != want {
			t.Fatalf("flood differs from the slow path\ngot:\n%s\nwant:\n%s", got, want)
		}
		// In pieces of up to 16 bytes, looked at between some of them: the
		// input's own bytes say where.
		split := New(7, 2, WithScrollback(9))
		for rest, k := in, 0; len(rest) > 0; k++ {
			c := in[k%len(in)]
			n := min(len(rest), 1+int(c%16))
			split.Write(rest[:n])
			if c&0x10 != 0 {
				split.Snapshot()
			}
			rest = rest[n:]
		}
		if got := fullState(t, split); got != want {
			t.Fatalf("flood in pieces differs from the slow path\ngot:\n%s\nwant:\n%s", got, want)
		}
	})
}
