package vterm

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// One test per vt10x quirk that vterm/doc.go lists, named after it.

func TestQuirkSplitUTF8Carried(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 2, "a\xe6", "\x97", "\xa5b\xf0\x9f", "\x98\x80")
	if got := line(s, 0); got != "a日b😀" {
		t.Fatalf("got %q", got)
	}
}

func TestQuirkInvalidUTF8Replaced(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 2, "a\xffb\xe6\x97c")
	if got := line(s, 0); got != "a\uFFFDb\uFFFDc" {
		t.Fatalf("got %q", got)
	}
}

func TestQuirkQueriesAnswered(t *testing.T) {
	t.Parallel()
	got := make(chan string, 16)
	var tm *Term
	tm = New(80, 24, WithReplies(func(b []byte) {
		// Replies never arrive under the emulator lock.
		if !tm.mu.TryLock() {
			got <- "called under lock"
			return
		}
		tm.mu.Unlock()
		got <- string(b)
	}))
	_, _ = tm.Write([]byte("\x1b[c\x1b[>c\x1b[5n\x1b[3;7H\x1b[6n\x1b[?2004h\x1b[?2004$p\x1b]11;?\a"))
	want := []string{"\x1b[?1;2c", "\x1b[>0;10;1c", "\x1b[0n", "\x1b[3;7R", "\x1b[?2004;1$y", "\x1b]11;rgb:0000/0000/0000\a"}
	for _, w := range want {
		select {
		case g := <-got:
			if g != w {
				t.Fatalf("reply %q, want %q", g, w)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no reply %q", w)
		}
	}
}

func TestQuirkKittyKeyboardSwallowed(t *testing.T) {
	t.Parallel()
	// vt10x takes CSI ? u, CSI > 1 u and CSI < u for "restore cursor".
	_, s := feed(t, 20, 3, "\x1b[2;5H\x1b7\x1b[1;1Hab\x1b[?u\x1b[>1u\x1b[<u\x1b[=1;1ucd")
	if got := line(s, 0); got != "abcd" {
		t.Fatalf("got %q", got)
	}
}

func TestQuirkModifyOtherKeysSwallowed(t *testing.T) {
	t.Parallel()
	// vt10x reads CSI > 4;2 m as SGR 0.
	_, s := feed(t, 20, 3, "\x1b[31ma\x1b[>4;2mb\x1b[>4n")
	if st := s.Cells[0][1].Style(); st != "p1/" {
		t.Fatalf("style after modifyOtherKeys %q", st)
	}
}

func TestQuirkSecond1049lStaysPrimary(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 20, 3, "primary", "\x1b[?1049h", "alt", "\x1b[?1049l", "\x1b[?1049l")
	if s.AltScreen || line(s, 0) != "primary" {
		t.Fatalf("alt=%v line %q", s.AltScreen, line(s, 0))
	}
	_, s = feed(t, 20, 3, "primary", "\x1b[?1049h\x1b[?1049h", "alt")
	if !s.AltScreen || strings.TrimSpace(line(s, 0)) != "alt" {
		t.Fatalf("alt=%v line %q", s.AltScreen, line(s, 0))
	}
}

func TestQuirkHostileParamsClamped(t *testing.T) {
	t.Parallel()
	inputs := []string{
		"\x1b[-1@", "\x1b[-1P", "\x1b[9223372036854775807I", "\x1b[9223372036854775807Z",
		"\x1b[9223372036854775807@", "\x1b[99999999999P", "\x1b[99999999999X", "\x1b[99999999L",
		"\x1b[99999999M", "\x1b[99999999S", "\x1b[99999999T", "\x1b[99999999b", "\x1b[0X",
		"\x1b[99999;99999H", "\x1b[99999;99999r", "\x1b[" + strings.Repeat("1;", 80) + "1m",
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, in := range inputs {
			_, s := feed(t, 20, 4, "ab", in, "\r\nOK")
			if !strings.Contains(s.Text(), "OK") {
				t.Errorf("%q: OK missing:\n%s", in, s.Text())
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("hostile parameters hang the emulator")
	}
}

func TestQuirkPanicRecovered(t *testing.T) {
	t.Parallel()
	tm := New(10, 3)
	tm.mu.Lock()
	tm.vt = nil // make the next flush panic
	tm.mu.Unlock()
	if n, err := tm.Write([]byte("boom")); n != 4 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if tm.Panics() != 1 {
		t.Fatalf("panics = %d", tm.Panics())
	}
}

func TestQuirkREPExpanded(t *testing.T) {
	t.Parallel()
	// Like tmux: only right after a printed character, never past the margin.
	_, s := feed(t, 10, 2, "ab\x1b[3bc\x1b[2b\x1b[99b", "\r\nz\x1b[99b")
	if got := s.Text(); got != "abbbbccc\nzzzzzzzzzz" {
		t.Fatalf("got %q", got)
	}
}

func TestQuirkIRMInserts(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 12, 2, "0123456789\r\x1b[4h\x1b[2CIN\x1b[4lx")
	if got := line(s, 0); got != "01INx3456789" {
		t.Fatalf("got %q", got)
	}
}

func TestQuirkColonSGR(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 2, "\x1b[38:2::1:2:3ma\x1b[38:5:200;48:2:4:5:6mb\x1b[4:3mc\x1b[4:0md")
	want := []string{"#010203/", "p200/#040506", "p200/#040506U", "p200/#040506"}
	for i, w := range want {
		if got := s.Cells[0][i].Style(); got != w {
			t.Errorf("cell %d style %q, want %q", i, got, w)
		}
	}
}

func TestQuirkCUPEmptyRow(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 3, "\x1b[2;2H\x1b[;5Hx")
	if s.Cells[0][4].Text != "x" {
		t.Fatalf("ESC[;5H went to %v:\n%s", s.Cursor, s.Text())
	}
}

func TestQuirkRISInAltScreen(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 3, "one\x1b[?1049htwo\x1bc", "\x1b[?1049hthree\x1b[?1049l")
	if s.AltScreen || strings.TrimSpace(s.Text()) != "" {
		t.Fatalf("alt=%v text %q", s.AltScreen, s.Text())
	}
}

// fullScreen fills every cell of a cols×rows screen with styled text: wide
// characters, a grapheme cluster and ASCII, so no cell is left blank.
func fullScreen(cols, rows int) string {
	var b strings.Builder
	b.WriteString("\x1b[1;3;38;2;1;2;3;48;5;200m")
	for y := range rows {
		b.WriteString("\x1b[" + strconv.Itoa(y+1) + ";1H")
		x := 0
		if cols > 1 {
			b.WriteString("e\u0301")
			x++
		}
		for ; x+2 <= cols && y%2 == 1; x += 2 {
			b.WriteString("日")
		}
		b.WriteString(strings.Repeat("x", cols-x))
	}
	return b.String()
}

func TestQuirkRISClearsWholeScreen(t *testing.T) {
	t.Parallel()
	// vt10x's reset clears a rectangle with rows and columns swapped: on a
	// screen wider than tall the columns from the height on kept their text,
	// on one taller than wide the rows from the width on did.
	cases := []struct {
		name       string
		cols, rows int
		before     string // after the screen is full, before RIS
	}{
		{"wide", 80, 24, ""},
		{"tall", 10, 30, ""},
		{"one column", 1, 5, ""},
		{"scroll region and origin", 40, 12, "\x1b[3;8r\x1b[?6h\x1b[2;2H"},
		{"alternate screen", 40, 12, "\x1b[?1049h" + fullScreen(40, 12)},
		{"pending wrap", 40, 12, "\x1b[12;40Hz"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := New(tc.cols, tc.rows).Snapshot()
			tm, s := feed(t, tc.cols, tc.rows, fullScreen(tc.cols, tc.rows), tc.before, "\x1bc")
			for y, row := range s.Cells {
				for x, c := range row {
					if c != want.Cells[y][x] {
						t.Fatalf("cell %d,%d is %q %s after RIS, want blank:\n%s", x, y, c.Text, c.Style(), s.Text())
					}
				}
			}
			if s.Cursor != (Cursor{}) || s.AltScreen || s.Modes != want.Modes {
				t.Fatalf("cursor %v alt %v modes %+v", s.Cursor, s.AltScreen, s.Modes)
			}
			// The style and cluster tables were reset with the screen: new
			// text gets its own style, not one a stale cell still points at.
			_, _ = tm.Write([]byte("\x1b[4ma"))
			if got := tm.Snapshot().Cells[0][0]; got.Text != "a" || got.Style() != "/U" {
				t.Fatalf("after RIS: %q %q", got.Text, got.Style())
			}
		})
	}
}

func TestRISResetsState(t *testing.T) {
	t.Parallel()
	// Each case sets some state, then writes RIS and what shows whether the
	// state survived: modes the screen alone does not show, and state that
	// vterm and vt10x must both forget (a flag only one of them dropped would
	// show in the other's behaviour). Without the RIS, each case must fail.
	fresh := New(10, 4).Snapshot().Modes
	cases := []struct {
		name  string
		set   string                   // the state
		after string                   // written after RIS
		check func(s *Snapshot) string // what is wrong with the screen, or ""
	}{
		{name: "application cursor keys", set: "\x1b[?1h"},
		{name: "application keypad", set: "\x1b="},
		{name: "bracketed paste", set: "\x1b[?2004h"},
		{name: "synchronized output", set: "\x1b[?2026h"},
		{name: "focus events", set: "\x1b[?1004h"},
		{name: "mouse X10", set: "\x1b[?9h"},
		{name: "mouse any motion", set: "\x1b[?1003h"},
		{name: "mouse SGR encoding", set: "\x1b[?1006h"},
		{name: "cursor style", set: "\x1b[4 q"},
		{name: "cursor hidden", set: "\x1b[?25l"},
		{name: "insert", set: "\x1b[4h", after: "abc\rX", check: lineIs(0, "Xbc")},
		{name: "autowrap off", set: "\x1b[?7l", after: "0123456789ab", check: lineIs(1, "ab")},
		{name: "origin", set: "\x1b[2;3r\x1b[?6h", after: "\x1b[2;3r\x1b[1;5HX", check: lineIs(0, "    X")},
		{name: "new line", set: "\x1b[20h", after: "ab\nc", check: lineIs(1, "  c")},
		{name: "scroll region", set: "\x1b[2;3r", after: "top\x1b[4;1H\nend", check: lineIs(0, "")},
		{name: "tab stops", set: "\x1b[3g\x1b[1;3H\x1bH", after: "\tX", check: lineIs(0, "        X")},
		{name: "character sets", set: "\x1b(0\x1b)0\x0e", after: "lqk\x0elqk\x0flqk", check: lineIs(0, "lqklqklqk")},
		{
			name: "rendition", set: "\x1b[1;7;31;44m", after: "x\x1b[K\r\n\x1b[2X",
			check: func(s *Snapshot) string {
				for y := range 2 {
					for x, c := range s.Cells[y] {
						if c.FG != DefaultColor || c.BG != DefaultColor || c.Attr != 0 {
							return fmt.Sprintf("cell %d,%d style %q, want the default", x, y, c.Style())
						}
					}
				}
				return ""
			},
		},
		{
			name: "saved cursor", set: "\x1b[3;5H\x1b[32m\x1b(0\x1b7\x1b[m\x1b(B", after: "\x1b[2;2H\x1b8q",
			check: func(s *Snapshot) string {
				if st := s.Cells[0][0].Style(); st != "/" {
					return "DECRC after RIS restored the style " + st
				}
				return lineIs(0, "q")(s)
			},
		},
		{
			name: "pending wrap", set: "\x1b[4;1H0123456789", after: "X",
			check: func(s *Snapshot) string {
				if s.Cursor != (Cursor{X: 1}) {
					return fmt.Sprintf("cursor %v", s.Cursor)
				}
				return lineIs(0, "X")(s)
			},
		},
		{
			// RIS left the alternate screen, so ?1049h enters a clear one.
			name: "alternate screen", set: "primary\x1b[?1049halt", after: "\x1b[?1049hnew",
			check: func(s *Snapshot) string {
				if !s.AltScreen {
					return "?1049h after RIS did not enter the alternate screen"
				}
				return lineIs(0, "new")(s)
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wrong := func(s *Snapshot) string {
				if s.Modes != fresh {
					return fmt.Sprintf("modes %+v, want %+v", s.Modes, fresh)
				}
				if tc.check != nil {
					return tc.check(s)
				}
				return ""
			}
			if _, s := feed(t, 10, 4, tc.set, tc.after); wrong(s) == "" {
				t.Fatalf("%q then %q passes without RIS: the case tests nothing", tc.set, tc.after)
			}
			if _, s := feed(t, 10, 4, tc.set, "\x1bc"+tc.after); wrong(s) != "" {
				t.Errorf("after RIS: %s; screen:\n%s", wrong(s), s.Text())
			}
		})
	}
}

// lineIs reports whether row y of a screen reads want.
func lineIs(y int, want string) func(*Snapshot) string {
	return func(s *Snapshot) string {
		if got := line(s, y); got != want {
			return fmt.Sprintf("row %d %q, want %q", y, got, want)
		}
		return ""
	}
}

func TestQuirkED1OnSecondRow(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 3, "aaaa\r\nbbbb\r\ncccc\x1b[2;3H\x1b[1J")
	if got := s.Text(); got != "\n   b\ncccc" {
		t.Fatalf("got %q", got)
	}
}

func TestQuirkTrueColorNotPalette(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 2, "\x1b[38;2;0;0;5;48;2;0;0;0ma\x1b[38;5;5mb")
	if got := s.Cells[0][0].Style(); got != "#000005/#000000" {
		t.Errorf("true colour: %q", got)
	}
	if got := s.Cells[0][1].Style(); got != "p5/#000000" {
		t.Errorf("palette: %q", got)
	}
}

func TestQuirkWideCharsTwoCells(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 5, 3, "日本x\r\n1234日")
	c := s.Cells[0]
	if c[0].Text != "日" || c[0].Width != 2 || c[1].Text != "" || c[1].Width != 0 || c[4].Text != "x" {
		t.Fatalf("row 0: %+v", c)
	}
	// At the margin a wide character wraps first, leaving the last column.
	if line(s, 1) != "1234" || line(s, 2) != "日" || s.Cursor != (Cursor{X: 2, Y: 2}) {
		t.Fatalf("wrap: %q %q cursor %v", line(s, 1), line(s, 2), s.Cursor)
	}
	// Overwriting half a wide character blanks the other half.
	_, s = feed(t, 5, 1, "日本\x1b[1;2Hx")
	if got := line(s, 0); got != " x本" {
		t.Fatalf("overwrite: %q", got)
	}
}

func TestQuirkCombiningMarksAttach(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 8, 2, "e\u0301x", "\x1b[31m日", "\u0308", "\x1b[mabc\u0301")
	c := s.Cells[0]
	if c[0].Text != "e\u0301" || c[1].Text != "x" || c[2].Text != "日\u0308" || c[2].Width != 2 || c[6].Text != "c\u0301" {
		t.Fatalf("cells: %q %q %q %q", c[0].Text, c[1].Text, c[2].Text, c[6].Text)
	}
	if s.Cursor != (Cursor{X: 7, Y: 0}) {
		t.Fatalf("cursor %v", s.Cursor)
	}
	if got := c[2].Style(); got != "p1/" {
		t.Fatalf("style of the mark's cell %q", got)
	}
}

// A mark on a narrow character written over the left half of a wide one
// attaches to that character alone: the stale right half stays a blank,
// and the cursor stays right after the mark's base.
func TestQuirkCombiningMarkOnHalfOverwrittenWide(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 8, 1, "日\x1b[1Gx\u0301")
	c := s.Cells[0]
	if c[0].Text != "x\u0301" || c[0].Width != 1 || c[1].Text != " " {
		t.Fatalf("cells %q %q", c[0].Text, c[1].Text)
	}
	if s.Cursor != (Cursor{X: 1, Y: 0}) {
		t.Fatalf("cursor %v", s.Cursor)
	}
}

// A mark with the cursor on the right half of a wide character attaches to
// that character, and the cursor stays where it was.
func TestQuirkCombiningMarkOnRightHalf(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 8, 1, "a日\x1b[3G\u0301")
	c := s.Cells[0]
	if c[1].Text != "日\u0301" || c[1].Width != 2 {
		t.Fatalf("cells %q %q", c[0].Text, c[1].Text)
	}
	if s.Cursor != (Cursor{X: 2, Y: 0}) {
		t.Fatalf("cursor %v", s.Cursor)
	}
}

func TestQuirkScrollbackCaptured(t *testing.T) {
	t.Parallel()
	tm := New(10, 3, WithScrollback(4))
	_, _ = tm.Write([]byte("1\r\n2\r\n3\r\n4\r\n\x1b[31m5\x1b[m\r\n6"))
	var got []string
	for _, l := range tm.Scrollback() {
		got = append(got, l.Text())
	}
	if strings.Join(got, ",") != "1,2,3" {
		t.Fatalf("scrollback %q", got)
	}
	// Bounded; nothing from the alternate screen or a region not at the top.
	_, _ = tm.Write([]byte("\r\n7\r\n8\x1b[?1049h\r\n\r\n\r\n\r\nalt\x1b[?1049l\x1b[2;3r\x1b[3;1H\n\n\n\x1b[r"))
	got = got[:0]
	for _, l := range tm.Scrollback() {
		got = append(got, l.Text())
	}
	if strings.Join(got, ",") != "2,3,4,5" {
		t.Fatalf("scrollback %q", got)
	}
	if st := tm.ScrollbackRange(3, 1)[0].Cells[0].Style(); st != "p1/" {
		t.Fatalf("style kept: %q", st)
	}
}

func TestQuirkModesTracked(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 2, "\x1b[?1h\x1b[?2004h\x1b[?2026h\x1b[?1002h\x1b[?1006h\x1b[5 q\x1b[?25l\x1b[?1004h\x1b=")
	want := Modes{AppCursor: true, AppKeypad: true, BracketedPaste: true, SyncOutput: true, FocusEvents: true,
		Mouse: MouseButton, MouseEncoding: MouseEncodingSGR, CursorStyle: CursorBlinkingBar, AutoWrap: true}
	if s.Modes != want {
		t.Fatalf("modes %+v\nwant %+v", s.Modes, want)
	}
	_, s = feed(t, 10, 2, "\x1b[?1002h\x1b[?1006h\x1b[?1002l\x1b[?1006l\x1b[?2026h\x1b[?2026l")
	if s.Modes.Mouse != MouseNone || s.Modes.MouseEncoding != MouseEncodingDefault || s.Modes.SyncOutput {
		t.Fatalf("modes %+v", s.Modes)
	}
}

func TestQuirkBoldBrightInJSON(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 4, 1, "\x1b[1;31ma\x1b[1;38;5;3mb\x1b[1;91mc\x1b[1;38;5;100md")
	want := []string{"p9/B", "p11/B", "p9/B", "p100/B"}
	for i, w := range want {
		if got := s.Cells[0][i].Style(); got != w {
			t.Errorf("cell %d: %q, want %q", i, got, w)
		}
	}
	if s.Cells[0][0].FG != PaletteColor(1) {
		t.Errorf("Cell.FG is the logical colour, got %v", s.Cells[0][0].FG)
	}
}

func TestQuirkReverseFlagOnly(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 4, 1, "\x1b[7;31;42ma")
	if got := s.Cells[0][0].Style(); got != "p1/p2R" {
		t.Fatalf("got %q", got)
	}
}

func TestQuirkFaintStrikeItalicBlink(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 4, 1, "\x1b[2;3;4;5;9ma\x1b[22;23;24;25;29mb")
	if a, b := s.Cells[0][0].Style(), s.Cells[0][1].Style(); a != "/FIUKS" || b != "/" {
		t.Fatalf("got %q %q", a, b)
	}
}

func TestQuirkEraseKeepsBackgroundOnly(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 6, 2, "\x1b[1;4;31;44mab\x1b[K\r\n\x1b[7;45mcd\x1b[2X")
	if got := s.Cells[0][3].Style(); got != "/p4" {
		t.Errorf("EL: %q", got)
	}
	if got := s.Cells[1][2].Style(); got != "/p5" {
		t.Errorf("ECH with reverse: %q", got)
	}
	if got := s.Cells[1][0].Style(); got != "p9/p5BUR" {
		t.Errorf("text: %q", got)
	}
}

func TestQuirkHugeOSCBounded(t *testing.T) {
	t.Parallel()
	tm := New(10, 2)
	osc := append([]byte("\x1b]0;"), bytes.Repeat([]byte("x"), 1<<20)...)
	for i := 0; i < len(osc); i += 4096 {
		_, _ = tm.Write(osc[i:min(i+4096, len(osc))])
	}
	_, _ = tm.Write([]byte("\aOK\x1b_" + strings.Repeat("y", 1<<20) + "\x1b\\OK"))
	s := tm.Snapshot()
	if line(s, 0) != "OKOK" {
		t.Fatalf("got %q", line(s, 0))
	}
	if cap(tm.p.osc) > 2*maxOSC || len(s.Title) > maxOSC {
		t.Fatalf("OSC buffer grew to %d", cap(tm.p.osc))
	}
}

func TestQuirkTitle(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 4, 1, "\x1b]2;héllo\x07\x1b]0;wo\x01rld\x1b\\")
	if s.Title != "world" {
		t.Fatalf("title %q", s.Title)
	}
}

func TestQuirkDECGraphics(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 1, "\x1b(0lqk\x1b(B x\x1b)0\x0eq\x0fq")
	if got := line(s, 0); got != "┌─┐ x─q" {
		t.Fatalf("got %q", got)
	}
}

func TestResizeRejectsExtremeSizes(t *testing.T) {
	t.Parallel()
	tm := New(10, 5)
	for _, sz := range [][2]int{{0, 5}, {5, 0}, {-1, 5}, {1001, 5}, {5, 1001}, {1 << 30, 1 << 30}} {
		if err := tm.Resize(sz[0], sz[1]); err == nil {
			t.Errorf("Resize(%d, %d) accepted", sz[0], sz[1])
		}
	}
	if err := tm.Resize(1000, 1000); err != nil {
		t.Fatal(err)
	}
}

func TestResizeKeepsTabsAndScrollback(t *testing.T) {
	t.Parallel()
	tm := New(10, 3)
	_, _ = tm.Write([]byte("a\r\nb\r\nc"))
	if err := tm.Resize(40, 2); err != nil {
		t.Fatal(err)
	}
	_, _ = tm.Write([]byte("\r\t\t\tx"))
	s := tm.Snapshot()
	if s.Cells[1][24].Text != "x" {
		t.Fatalf("tab stops after widening:\n%s", s.Text())
	}
	if sb := tm.Scrollback(); len(sb) != 1 || sb[0].Text() != "a" {
		t.Fatalf("scrollback %v", sb)
	}
}

func TestSnapshotNeverBlocks(t *testing.T) {
	t.Parallel()
	tm := New(10, 2)
	_, _ = tm.Write([]byte("before"))
	prev := tm.Snapshot()
	tm.mu.Lock() // a Write in progress
	done := make(chan *Snapshot)
	go func() { done <- tm.Snapshot() }()
	got := <-done
	tm.mu.Unlock()
	if got != prev {
		t.Fatal("Snapshot did not return the previous snapshot while the emulator was busy")
	}
}

func TestStyleTableBounded(t *testing.T) {
	t.Parallel()
	tm := New(80, 24)
	var b bytes.Buffer
	for i := 0; i < maxStyles+5000; i++ {
		b.WriteString("\x1b[38;2;")
		b.WriteString(strconv.Itoa(i>>16) + ";" + strconv.Itoa(i>>8&255) + ";" + strconv.Itoa(i&255))
		b.WriteString("mx")
	}
	b.WriteString("\x1b[38;2;1;2;3mEND")
	_, _ = tm.Write(b.Bytes())
	s := tm.Snapshot()
	if len(tm.styles.list) > maxStyles {
		t.Fatalf("style table grew to %d", len(tm.styles.list))
	}
	c := s.Cells[s.Cursor.Y][s.Cursor.X-1]
	if c.Text != "D" || c.Style() != "#010203/" {
		t.Fatalf("last cell %q %q", c.Text, c.Style())
	}
	// Cells still on screen keep their style through the collection.
	i := maxStyles + 5000 - 1
	want := RGBColor(uint8(i>>16), uint8(i>>8), uint8(i))
	if got := s.Cells[s.Cursor.Y][s.Cursor.X-4]; got.FG != want {
		t.Fatalf("cell before END: %v, want %v", got.FG, want)
	}
}

func TestVT10xBitsPinned(t *testing.T) {
	t.Parallel()
	// vterm mirrors vt10x's unexported pending-wrap and origin bits; pin them.
	tm := New(3, 2)
	_, _ = tm.Write([]byte("abc"))
	tm.mu.Lock()
	if tm.vt.Cursor().State&vtCursorWrapNext == 0 {
		t.Fatalf("vt10x cursor state %b: pending-wrap bit moved", tm.vt.Cursor().State)
	}
	tm.mu.Unlock()
	_, _ = tm.Write([]byte("\x1b[?6h"))
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tm.vt.Cursor().State != vtCursorOrigin {
		t.Fatalf("vt10x cursor state %b in origin mode: origin bit moved", tm.vt.Cursor().State)
	}
}

func TestHiddenPrimaryKeepsIDs(t *testing.T) {
	t.Parallel()
	// The primary screen, hidden behind the alternate one, keeps its styles
	// and clusters through a collection run there, however its cells are
	// laid out (a cluster between two runs of one style, a run wrapping onto
	// the next row) and however recently they were written; ids no cell
	// uses are freed and reused.
	tm := New(6, 3)
	_, _ = tm.Write([]byte("\x1b[31mgone\x1b[H\x1b[m" + // style 31 overwritten: garbage
		"\x1b[32mab\x1b[33me\u0301\x1b[32mcd\x1b[34mxyz\x1b[35m\r\n\x1b[34mw\x1b[36m" +
		"\x1b[?1049h\x1b[37malt\x1b[m")) // in the same Write: nothing flushed before the switch
	want := tm.Snapshot()
	if !want.AltScreen {
		t.Fatal("not on the alternate screen")
	}
	tm.mu.Lock()
	tm.collectGarbage()
	freed := map[Style]bool{}
	for _, id := range tm.styles.free {
		freed[tm.styles.list[id]] = true
	}
	clusters := len(tm.clusters.free)
	tm.mu.Unlock()
	for n, garbage := range map[uint8]bool{1: true, 2: false, 3: false, 4: false, 5: true, 6: false, 7: false} {
		if freed[Style{FG: PaletteColor(n)}] != garbage {
			t.Errorf("style 3%d freed: %v, want %v", n, !garbage, garbage)
		}
	}
	if clusters != 0 {
		t.Errorf("the hidden cluster was freed")
	}
	// New styles and clusters take the freed ids, not the hidden ones.
	_, _ = tm.Write([]byte("\x1b[H\x1b[38;5;200mn\u0302\x1b[91mq\x1b[m\x1b[?1049l"))
	got := tm.Snapshot()
	if got.AltScreen || line(got, 0) != "abe\u0301cdx" || line(got, 1) != "yz" || line(got, 2) != "w" {
		t.Fatalf("primary screen after the alternate one (alt %v): %q %q %q", got.AltScreen, line(got, 0), line(got, 1), line(got, 2))
	}
	for y, styles := range []string{"p2/ p2/ p3/ p2/ p2/ p4/", "p4/ p4/ / / / /", "p4/ / / / / /"} {
		var row []string
		for _, c := range got.Cells[y] {
			row = append(row, c.Style())
		}
		if r := strings.Join(row, " "); r != styles {
			t.Errorf("row %d styles %q, want %q", y, r, styles)
		}
	}
}

func TestStyleTableCacheSweep(t *testing.T) {
	t.Parallel()
	// The lookup cache never answers with an id a sweep freed: after the
	// sweep, the freed id goes to a new style and the old one gets another.
	st := newStyleTable()
	a, b, c := Style{FG: PaletteColor(1)}, Style{BG: PaletteColor(2)}, Style{Attr: AttrBold}
	ida, _ := st.id(a)
	idb, _ := st.id(b)
	if again, _ := st.id(a); again != ida {
		t.Fatalf("a: %d then %d", ida, again)
	}
	st.sweep(map[uint32]bool{idb: true}) // a is on no cell
	idc, _ := st.id(c)
	if idc != ida {
		t.Fatalf("c got %d, want a's freed %d", idc, ida)
	}
	ida2, _ := st.id(a)
	if ida2 == ida || ida2 == idb || st.style(ida2) != a || st.style(idc) != c {
		t.Fatalf("a: %d (%v), c: %d (%v), b: %d", ida2, st.style(ida2), idc, st.style(idc), idb)
	}
	if got, _ := st.id(b); got != idb {
		t.Fatalf("b: %d, want %d", got, idb)
	}
}
