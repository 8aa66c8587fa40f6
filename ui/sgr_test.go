package ui

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"tend/engine"
	"tend/themes"
	"tend/vterm"
)

// sgrSeeds are SGR parameters in every form programs write them.
var sgrSeeds = []string{
	"", "0", "1", "1;31", "2;3;4;5;7;8;9", "22;23;24;25;27;28;29", "4:0", "4:3", "4:", "21",
	"30", "37", "39", "40;47", "49", "90", "97", "100", "107", "38;5;208", "48;5;17", "38;5;300",
	"38;2;1;2;3", "48;2;255;128;0", "38;2;256;0;0", "38:5:208", "38:2:1:2:3", "38:2::1:2:3", "38:2:0:1:2:3",
	"38;5", "38;2;1;2", "38;5:1", "58;5;3;31", "58:2::1:2:3;32", "1:2", ";31", "31;", ";;", "38;9;1;32",
	"1;" + strings.Repeat("0;", 30) + "31", "1;" + strings.Repeat("0;", 31) + "31", "99999999999;31",
}

// styleInVterm is the style vterm gives text after ESC [ p m: what the same
// program's output looks like as a PTY job.
func styleInVterm(t *testing.T, p string) cellStyle {
	t.Helper()
	term := vterm.New(4, 1)
	if _, err := term.Write([]byte("\x1b[" + p + "mX")); err != nil {
		t.Fatal(err)
	}
	c := term.Snapshot().Cells[0][0]
	if c.Text != "X" {
		t.Fatalf("vterm shows %q, not X", c.Text)
	}
	return cellStyle{fg: c.FG, bg: c.BG, attr: c.Attr}
}

// A pipe job's SGR sequences give its text the style vterm gives the same
// bytes in a PTY job.
func TestSGRMatchesVterm(t *testing.T) {
	t.Parallel()
	for _, p := range sgrSeeds {
		if got, want := applySGR(cellStyle{}, []byte(p)), styleInVterm(t, p); got != want {
			t.Errorf("ESC[%sm: style %+v, vterm %+v", p, got, want)
		}
	}
}

func FuzzSGRMatchesVterm(f *testing.F) {
	for _, p := range sgrSeeds {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if _, ok := sgrParams([]byte("\x1b[" + p + "m")); !ok {
			return
		}
		if got, want := applySGR(cellStyle{}, []byte(p)), styleInVterm(t, p); got != want {
			t.Errorf("ESC[%sm: style %+v, vterm %+v", p, got, want)
		}
	})
}

// onlySGR checks that s has no escape sequence but SGR and no control
// character, and is w columns wide.
func onlySGR(t *testing.T, s string, w int) {
	t.Helper()
	for rest := s; len(rest) > 0; {
		seq, _, n, _ := ansi.DecodeSequence(rest, ansi.NormalState, nil)
		switch {
		case seq[0] == '\x1b':
			if _, ok := sgrParams([]byte(seq)); !ok {
				t.Fatalf("%q draws %q, which is not SGR", s, seq)
			}
		case !utf8.ValidString(seq) || strings.ContainsFunc(seq, func(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }):
			t.Fatalf("%q draws %q", s, seq)
		}
		rest = rest[n:]
	}
	if got := ansi.StringWidth(s); got != w {
		t.Fatalf("%q is %d columns wide, not %d", s, got, w)
	}
}

// pipeSeeds are pipe outputs a terminal would act on beyond colour.
var pipeSeeds = []string{
	"\x1b[31mred\x1b[0m plain\n",
	"\x1b[2J\x1b[H\x1b[10;10H\x1b[1A\x1b[K\x1b[?1049h\x1b[?25l\x1b[r\x1b[5S\n",
	"\x1b]0;title\x07\x1b]2;t\x1b\\\x1b]52;c;aGk=\x07\x1b]8;;http://x\x1b\\link\n",
	"\x1bP+q544e\x1b\\\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\\x1bc\x1b7\x1b8\x1bD\x1bM\x1b(0lqk\n",
	"\x9b2J\x9d0;t\x07\xc2\x9b2J\xc2\x9d0;x\x07\x07\x08\x0b\x0c\x0e\x0f\x7f\n",
	"\x1b[38;2;255;0;0m\x1b[48;5;21m\x1b[1;3;4;5;7;8;9mall\x1b[m\r\x1b[31mover\n",
	"wide 世界 ☃ e\u0301 \U0001F600 \xff\xfe bad\n",
	"\x1b[999999999I\x1b[999999999Z\x1b[" + strings.Repeat("1;", 40) + "31mmany\n",
	"unterminated \x1b]0;swallowed", "\x1b[", "\x1b", "tab\there\ttoo\n",
}

// Whatever a pipe job prints, its lines reach the terminal as text and
// SGR sequences of the UI's own making, exactly as wide as the pane:
// nothing it writes can move the cursor, clear, set a title or a
// clipboard, or start a sequence the UI's own drawing would end up in.
func FuzzPipeOutputOnlySGR(f *testing.F) {
	for i, s := range pipeSeeds {
		f.Add([]byte(s), uint(i), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint, remap bool) {
		st := themes.New(themes.Light(), themes.Options{Profile: colorprofile.TrueColor, ThemeJobColours: remap})
		var o outputLines
		k := int(cut % uint(len(data)+1))
		o.add(data[:k], []engine.Span{{Stream: engine.Stderr, Len: k}})
		o.add(data[k:], nil)
		w := sgrWriter{st}
		for i := range o.count() {
			for _, width := range []int{1, 7, 80} {
				onlySGR(t, string(w.outLine(nil, o.line(i).parts, width)), width)
			}
		}
	})
}

func TestPipeOutputOnlySGR(t *testing.T) {
	t.Parallel()
	// The fuzz seeds run as a test anyway; this says what they look like.
	var o outputLines
	o.add([]byte(strings.Join(pipeSeeds, "")), nil)
	got := make([]string, o.count())
	for i := range got {
		got[i] = o.line(i).text
	}
	want := []string{
		"red plain",
		"",
		"link",
		"lqk",
		"2J0;x", // C1 controls go (U+009B, U+009D); what follows them is text
		"over",
		"wide 世界 ☃ e\u0301 \U0001F600  bad",
		"many",
		"unterminated ab here    too", // an unterminated OSC ends at the next ESC; ESC t is a sequence
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%q\nwant\n%q", got, want)
	}
}

// sgrOf renders one part of a pipe line and returns the SGR parameters it
// was drawn with.
func sgrOf(st *themes.Styles, part outPart) string {
	b := sgrWriter{st}.outLine(nil, []outPart{part}, ansi.StringWidth(part.text))
	i := bytes.IndexByte(b, 'm')
	return string(b[len("\x1b[0"):i])
}

// A job's colours 0–15 are the terminal's own, as in a plain terminal
// (bold left to the terminal, as there); with ThemeJobColours they are the
// theme's, bold brightened as xterm does. Its 256 and true colours are its
// own either way. Stderr is the theme's error colour where the job chose
// no colour, and the job's own where it did.
func TestJobColours(t *testing.T) {
	t.Parallel()
	dark, light := themes.Dark(), themes.Light()
	rgb := func(c themes.Color) string {
		r, g, b, _ := c.TrueColor.RGBA()
		return fmt.Sprintf("%d;%d;%d", r>>8, g>>8, b>>8)
	}
	terminal := themes.New(dark, themes.Options{Profile: colorprofile.TrueColor})
	theme := themes.New(dark, themes.Options{Profile: colorprofile.TrueColor, ThemeJobColours: true})
	theme256 := themes.New(dark, themes.Options{Profile: colorprofile.ANSI256, ThemeJobColours: true})
	lightTerm := themes.New(light, themes.Options{Profile: colorprofile.ANSI256})
	red, bold := cellStyle{fg: vterm.PaletteColor(1)}, cellStyle{fg: vterm.PaletteColor(1), attr: vterm.AttrBold}
	for _, tc := range []struct {
		name string
		st   *themes.Styles
		part outPart
		want string
	}{
		{"red", terminal, outPart{text: "x", style: red}, ";31"},
		{"bold red", terminal, outPart{text: "x", style: bold}, ";1;31"},
		{"bright red background", terminal, outPart{text: "x", style: cellStyle{bg: vterm.PaletteColor(9)}}, ";101"},
		{"256 colours", terminal, outPart{text: "x", style: cellStyle{fg: vterm.PaletteColor(208), bg: vterm.PaletteColor(17)}}, ";38;5;208;48;5;17"},
		{"true colour", terminal, outPart{text: "x", style: cellStyle{fg: vterm.RGBColor(1, 2, 3)}}, ";38;2;1;2;3"},
		{"plain", terminal, outPart{text: "x"}, ""},
		{"stderr plain", terminal, outPart{text: "x", stderr: true}, ";38;2;" + rgb(dark.Error)},
		{"stderr coloured by the job", terminal, outPart{text: "x", stderr: true, style: cellStyle{fg: vterm.PaletteColor(2)}}, ";32"},
		{"stderr with only a background", terminal, outPart{text: "x", stderr: true, style: cellStyle{bg: vterm.PaletteColor(4)}}, ";38;2;" + rgb(dark.Error) + ";44"},
		{"theme red", theme, outPart{text: "x", style: red}, ";38;2;" + rgb(dark.ANSI[1])},
		{"theme bold red is bright", theme, outPart{text: "x", style: bold}, ";1;38;2;" + rgb(dark.ANSI[9])},
		{"theme red on 256 colours", theme256, outPart{text: "x", style: red}, ";38;5;167"},
		{"theme 256 colours stay", theme, outPart{text: "x", style: cellStyle{fg: vterm.PaletteColor(208)}}, ";38;5;208"},
		{"light theme paints its own default colours", lightTerm, outPart{text: "x", style: cellStyle{fg: vterm.PaletteColor(4)}}, ";34;48;5;231"},
		{"light theme stderr on 256 colours", lightTerm, outPart{text: "x", stderr: true}, ";38;5;161;48;5;231"},
	} {
		if got := sgrOf(tc.st, tc.part); got != tc.want {
			t.Errorf("%s: drawn with %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The same holds for a PTY job's cells: its colours 0–15 reach the
// terminal as the indices it wrote.
func TestPTYCellsKeepTheTerminalsColours(t *testing.T) {
	t.Parallel()
	term := vterm.New(20, 1)
	if _, err := term.Write([]byte("\x1b[32mok\x1b[1;31mF\x1b[0;38;5;208mo\x1b[38;2;1;2;3mt")); err != nil {
		t.Fatal(err)
	}
	snap := term.Snapshot()
	for _, tc := range []struct {
		remap bool
		want  []string
	}{
		{false, []string{"\x1b[0;32mok", "\x1b[0;1;31mF", "\x1b[0;38;5;208mo", "\x1b[0;38;2;1;2;3mt"}},
		{true, []string{"\x1b[0;38;2;152;195;121mok", "\x1b[0;1;38;2;239;123;133mF", "\x1b[0;38;5;208mo", "\x1b[0;38;2;1;2;3mt"}},
	} {
		st := themes.New(themes.Dark(), themes.Options{Profile: colorprofile.TrueColor, ThemeJobColours: tc.remap})
		row := renderScreen(st, snap, 20, 1)[0]
		for _, w := range tc.want {
			if !strings.Contains(row, w) {
				t.Errorf("theme colours %v: row %q lacks %q", tc.remap, row, w)
			}
		}
	}
}

var _ color.Color = ansi.IndexedColor(0) // appendColor takes the palette types the themes give
