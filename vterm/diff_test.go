package vterm

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The differential suite: real programs recorded inside tmux by
// scripts/record-vterm-screens.sh. Each testdata/diff/<case>.<n>.screen holds
// tmux's screen (capture-pane -p -e -N), cursor and alternate-screen flag
// after the first <offset> bytes of <case>.bytes. vterm must show the same
// cells, whether the bytes arrive in 4096-byte chunks or one at a time.

// tmuxScreen is a parsed capture.
type tmuxScreen struct {
	offset       int
	cx, cy       int
	alt, visible bool
	cells        [][]Cell
}

func loadTmuxScreen(t *testing.T, path string, cols, rows int) tmuxScreen {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header, body, _ := bytes.Cut(data, []byte("\n"))
	var s tmuxScreen
	var alt, vis int
	if _, err := fmt.Sscanf(string(header), "offset=%d cursor=%d,%d alt=%d visible=%d", &s.offset, &s.cx, &s.cy, &alt, &vis); err != nil {
		t.Fatalf("%s: header %q: %v", path, header, err)
	}
	s.alt, s.visible = alt == 1, vis == 1
	s.cells = parseCapture(t, body, cols, rows)
	return s
}

// parseCapture reads capture-pane -e output: text, SGR sequences and SO/SI
// around cells in the DEC graphics set. The style carries across lines, as
// tmux writes only changes. Widths come from vterm's width table: a line
// that then overflows means tmux measured a character differently.
func parseCapture(t *testing.T, b []byte, cols, rows int) [][]Cell {
	t.Helper()
	cells := make([][]Cell, rows)
	var st Style
	gfx := false
	lines := bytes.Split(b, []byte("\n"))
	for y := 0; y < rows; y++ {
		row := make([]Cell, 0, cols)
		var line []byte
		if y < len(lines) {
			line = lines[y]
		}
		for i := 0; i < len(line); {
			c := line[i]
			switch {
			case c == 0x1b && i+1 < len(line) && line[i+1] == '[':
				j := i + 2
				for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
					j++
				}
				if j < len(line) && line[j] == 'm' {
					st = captureSGR(st, string(line[i+2:j]))
				}
				i = j + 1
				continue
			case c == 0x0e:
				gfx = true
				i++
				continue
			case c == 0x0f:
				gfx = false
				i++
				continue
			}
			r, n := utf8.DecodeRune(line[i:])
			i += n
			if gfx && r >= 0x5f && r <= 0x7e {
				r = decGraphics[r-0x5f]
			}
			w := runeWidth(r)
			if w == 0 && len(row) > 0 {
				k := len(row) - 1
				if row[k].Width == 0 && k > 0 {
					k--
				}
				row[k].Text += string(r)
				continue
			}
			row = append(row, Cell{Text: string(r), Width: w, FG: st.FG, BG: st.BG, Attr: st.Attr})
			if w == 2 {
				row = append(row, Cell{Text: "", Width: 0, FG: st.FG, BG: st.BG, Attr: st.Attr})
			}
		}
		if len(row) > cols {
			t.Errorf("capture row %d is %d cells wide: tmux measures a character differently", y, len(row))
			row = row[:cols]
		}
		for len(row) < cols {
			row = append(row, padCell)
		}
		cells[y] = row
	}
	return cells
}

// padCell stands for a cell past the end of a captured line. tmux's
// capture stops at the last cell written, so cells erased with a background
// colour there (ED, EL with BCE: whiptail's blue screen) come out as nothing.
// Such a cell must be a blank without attributes, of any background.
var padCell = Cell{Text: " ", Width: 1, Attr: 1 << 15}

func cellMatches(got, want Cell) bool {
	if want == padCell {
		return got.Text == " " && got.Width == 1 && got.FG == DefaultColor && got.Attr == 0
	}
	return got == want
}

// captureSGR applies an SGR as tmux writes it in a capture.
func captureSGR(st Style, params string) Style {
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	num := func(i int) int {
		if i >= len(ps) {
			return 0
		}
		n, _ := strconv.Atoi(ps[i])
		return n
	}
	if len(ps) == 0 {
		return Style{}
	}
	for i := 0; i < len(ps); i++ {
		switch a := num(i); {
		case a == 0:
			st = Style{}
		case a >= 1 && a <= 9:
			st.Attr |= map[int]Attr{1: AttrBold, 2: AttrFaint, 3: AttrItalic, 4: AttrUnderline, 5: AttrBlink, 6: AttrBlink, 7: AttrReverse, 8: AttrHidden, 9: AttrStrike}[a]
			if a == 4 && i+1 < len(ps) && strings.Contains(params, "4:") {
				i++ // underline style
			}
		case a >= 30 && a <= 37:
			st.FG = PaletteColor(uint8(a - 30))
		case a >= 40 && a <= 47:
			st.BG = PaletteColor(uint8(a - 40))
		case a >= 90 && a <= 97:
			st.FG = PaletteColor(uint8(a - 82))
		case a >= 100 && a <= 107:
			st.BG = PaletteColor(uint8(a - 92))
		case a == 39:
			st.FG = DefaultColor
		case a == 49:
			st.BG = DefaultColor
		case a == 38 || a == 48:
			var c Color
			if num(i+1) == 5 {
				c = PaletteColor(uint8(num(i + 2)))
				i += 2
			} else {
				c = RGBColor(uint8(num(i+2)), uint8(num(i+3)), uint8(num(i+4)))
				i += 4
			}
			if a == 38 {
				st.FG = c
			} else {
				st.BG = c
			}
		}
	}
	return st
}

// knownDiff is a region of a recorded screen where tmux is the odd one out:
// vterm does what xterm and a VT100 do (and what vttest asks for).
type knownDiff struct {
	reason string
	cell   func(x, y int) bool // the cells not compared; nil for none
	alt    bool                // vterm's alternate-screen flag is the opposite of tmux's
}

// tmuxPendingWrap: tmux keeps a cursor in the pending-wrap state at x = cols,
// one past the last column, so a BS or CUB from there lands one column
// further right than on xterm or a VT100 (which vt10x and vterm follow).
const tmuxPendingWrap = "tmux parks a pending-wrap cursor at x=cols, so BS/CUB from it land one column right of xterm's"

var knownDiffs = map[string]knownDiff{
	"sequences.0.screen": {reason: "tmux 3.3a does not implement CHT (CSI I); xterm does", cell: func(x, y int) bool { return y == 5 }},
	"vttest.2.screen":    {reason: tmuxPendingWrap, cell: func(x, y int) bool { return x == 78 }},
	"vttest.3.screen":    {reason: tmuxPendingWrap, cell: func(x, y int) bool { return y >= 2 && y <= 19 }},
	"vttest.4.screen":    {reason: tmuxPendingWrap, cell: func(x, y int) bool { return y >= 2 && y <= 19 }},
	"vttest.18.screen": {reason: "tmux homes the cursor to the screen's top-left after DECSTBM even in origin mode; a VT100 homes to the region's",
		cell: func(x, y int) bool { return y == 1 || y == 23 }},
	// Every cell agrees: tmux clears the alternate screen, xterm the primary one it returns to.
	"ris-alt.0.screen": {reason: "tmux 3.3a stays in the alternate screen after RIS; xterm leaves it", alt: true},
}

func TestDifferentialTmux(t *testing.T) {
	t.Parallel()
	screens, err := filepath.Glob("testdata/diff/*.screen")
	if err != nil || len(screens) == 0 {
		t.Fatalf("no recordings in testdata/diff (run scripts/record-vterm-screens.sh): %v", err)
	}
	sort.Strings(screens)
	for _, path := range screens {
		base := filepath.Base(path)
		name := base[:strings.IndexByte(base, '.')]
		t.Run(strings.TrimSuffix(base, ".screen"), func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("testdata/diff", name+".bytes"))
			if err != nil {
				t.Fatal(err)
			}
			want := loadTmuxScreen(t, path, 80, 24)
			if want.offset > len(raw) {
				t.Fatalf("offset %d beyond the recording (%d bytes)", want.offset, len(raw))
			}
			stream := raw[:want.offset]
			for _, chunk := range []int{4096, 1} {
				tm := New(80, 24)
				for i := 0; i < len(stream); i += chunk {
					_, _ = tm.Write(stream[i:min(i+chunk, len(stream))])
					if chunk == 1 {
						checkShadow(t, tm) // after every byte
					}
				}
				compareScreen(t, base, fmt.Sprintf("chunk %d", chunk), tm.Snapshot(), want)
			}
		})
	}
}

func compareScreen(t *testing.T, file, how string, got *Snapshot, want tmuxScreen) {
	t.Helper()
	bad, masked := 0, 0
	known, hasKnown := knownDiffs[file]
	for y := range want.cells {
		for x := range want.cells[y] {
			g, w := got.Cells[y][x], want.cells[y][x]
			if cellMatches(g, w) {
				continue
			}
			if hasKnown && known.cell != nil && known.cell(x, y) {
				masked++
				continue
			}
			if bad++; bad <= 8 {
				t.Errorf("%s: cell %d,%d: got %q w%d %s, tmux %q w%d %s", how, x, y, g.Text, g.Width, g.Style(), w.Text, w.Width, w.Style())
			}
		}
	}
	if bad > 8 {
		t.Errorf("%s: … %d cells differ in all", how, bad)
	}
	if hasKnown {
		t.Logf("%s: known difference, %d cells masked: %s", how, masked, known.reason)
	}
	if bad > 0 {
		t.Logf("%s: vterm screen:\n%s", how, got.Text())
	}
	cx := min(want.cx, got.Cols-1) // tmux reports x = cols in the pending-wrap state
	if (got.Cursor != Cursor{X: cx, Y: want.cy}) {
		t.Errorf("%s: cursor %d,%d, tmux %d,%d", how, got.Cursor.X, got.Cursor.Y, cx, want.cy)
	}
	wantAlt := want.alt
	if hasKnown && known.alt {
		wantAlt = !want.alt
	}
	if got.AltScreen != wantAlt {
		t.Errorf("%s: alt screen %v, want %v (tmux %v)", how, got.AltScreen, wantAlt, want.alt)
	}
	if got.Modes.CursorVisible != want.visible {
		t.Errorf("%s: cursor visible %v, tmux %v", how, got.Modes.CursorVisible, want.visible)
	}
}
