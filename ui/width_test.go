package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tend/engine"
	"tend/vterm"
)

// wide are clusters whose width is not agreed on, or is two cells: ZWJ
// sequences, VS16, a skin tone, a keycap, a flag, combining marks, CJK.
var wide = []string{"👩‍💻", "👨‍👩‍👧", "❤️", "👍🏽", "1️⃣", "🇫🇷", "e\u0301", "漢字", "⚡", "a\u200db", "\u0301x"}

// Every line of the screen is exactly as wide as the screen, measured as
// lipgloss measures (grapheme clusters) and as wcwidth does (what Bubble
// Tea's renderer uses on a terminal that does not cluster), whatever
// clusters a job's command line, its output (pipe or terminal) or an
// agent's name hold: no box's right border moves.
func TestWideClustersKeepTheBorders(t *testing.T) {
	t.Parallel()
	text := strings.Join(wide, " ")
	b, _ := fixture(t)
	b.add(withOutput(&fakeJob{info: engine.Info{
		ID: "30", Command: "echo " + text, Cwd: "/srv/" + wide[0], Status: engine.Running, StartedAt: now,
		Origin: engine.Origin{Client: "agent " + wide[1], Agent: wide[0] + "·api"}, Warning: wide[2] + " warning",
	}}, text, "!"+text+" on stderr", strings.Repeat(wide[0], 40)))
	term := vterm.New(60, 10)
	_, _ = term.Write([]byte(text + "\r\n\x1b[31m" + wide[0] + "\x1b[32m" + wide[1] + "\x1b[m|" + strings.Repeat(wide[3], 30) + "\r\n" + strings.Repeat(wide[1], 20)))
	b.add(&fakeJob{info: engine.Info{ID: "31", Command: "cat " + wide[1], PTY: true, Status: engine.Running, StartedAt: now,
		Origin: engine.PersonOrigin()}, term: term})
	act := &fakeActivity{calls: []Call{{Seq: 1, Time: now.Add(-time.Second), Client: wide[0], Agent: wide[1] + "·api", Tool: "terminal_exec",
		Args: `{"command":"echo ` + text + `"}`, Result: text, Detail: text}}}
	for _, size := range [][2]int{{60, 20}, {80, 24}, {120, 40}, {161, 45}} {
		h := newHarness(t, b, act, "dark")
		h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		check := func(what string) {
			t.Helper()
			for i, l := range strings.Split(h.view(), "\n") {
				if g, wc := ansi.StringWidth(l), ansi.StringWidthWc(l); g != size[0] || wc != size[0] {
					t.Errorf("%dx%d, %s: line %d is %d cells (grapheme) and %d (wcwidth), want %d:\n%s",
						size[0], size[1], what, i, g, wc, size[0], ansi.Strip(l))
				}
			}
		}
		for _, id := range []engine.JobID{"30", "31"} {
			h.selectJob(id)
			check("job " + string(id))
			h.press("z")
			check("job " + string(id) + " zoomed")
			h.press("z")
		}
		h.selectJob("30")
		h.press("/")
		h.typeText("e")
		h.press("enter")
		check("a search in job 30")
		h.press("esc", "tab")
		check("the Activity view")
		h.press("tab", "tab")
	}
}

// safeCluster draws a cluster as something both ways of measuring agree
// on, as wide as wcwidth says it is.
func TestSafeCluster(t *testing.T) {
	t.Parallel()
	for _, g := range append(wide, "a", "é", "─") {
		got, w := safeCluster(g)
		if ansi.StringWidth(got) != w || ansi.StringWidthWc(got) != w || w != ansi.StringWidthWc(g) {
			t.Errorf("safeCluster(%q) = %q, %d: widths %d and %d, want %d", g, got, w, ansi.StringWidth(got), ansi.StringWidthWc(got), ansi.StringWidthWc(g))
		}
	}
	if got, _ := safeCluster("👩‍💻"); got != "👩💻" {
		t.Errorf("a ZWJ sequence is drawn %q, want its two emoji", got)
	}
	if got, _ := safeCluster("❤️"); got != "❤" {
		t.Errorf("an emoji with VS16 is drawn %q, want it without", got)
	}
}

// The runes termSafe lets through unchecked are measured alike both ways
// and are never zero-width: a new version of either table that disagrees
// fails here.
func TestPlainRunesArePlain(t *testing.T) {
	t.Parallel()
	for _, rg := range plainRunes {
		for r := rg[0]; r < rg[1]; r++ {
			s := string(r)
			if g, wc := ansi.StringWidth(s), ansi.StringWidthWc(s); g != wc || wc == 0 {
				t.Errorf("%U: %d cells as a cluster, %d by wcwidth", r, g, wc)
			}
		}
	}
}
