package ui

import (
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"tend/engine"
	"tend/themes"
	"tend/vterm"
)

// styleBefore is the rendition the view draws mark in: the SGR sequences
// before its first appearance, applied in order.
func styleBefore(t *testing.T, view, mark string) cellStyle {
	t.Helper()
	i := strings.Index(view, mark)
	if i < 0 {
		t.Fatalf("view lacks %q", mark)
	}
	var s cellStyle
	for rest := view[:i]; len(rest) > 0; {
		seq, _, n, _ := ansi.DecodeSequence(rest, ansi.NormalState, nil)
		if p, ok := sgrParams([]byte(seq)); ok {
			s = applySGR(s, p)
		}
		rest = rest[n:]
	}
	return s
}

// asCell is a theme colour as an SGR sequence gives it back.
func asCell(c color.Color) vterm.Color {
	switch c := c.(type) {
	case ansi.BasicColor:
		return vterm.PaletteColor(uint8(c))
	case ansi.IndexedColor:
		return vterm.PaletteColor(uint8(c))
	}
	r, g, b, _ := c.RGBA()
	return vterm.RGBColor(uint8(r>>8), uint8(g>>8), uint8(b>>8))
}

// The theme is drawn for the colour profile Bubble Tea reports, through a
// change of theme too: a failed job's mark is the theme's red for that
// profile (themes tests that each keeps its hue there), never the grey
// the renderer's own downsampling made of it.
func TestColourProfileRedrawsTheTheme(t *testing.T) {
	t.Parallel()
	for _, prof := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI} {
		t.Run(prof.String(), func(t *testing.T) {
			t.Parallel()
			b, _ := fixture(t)
			h := newHarness(t, b, nil, "dark")
			h.send(tea.ColorProfileMsg{Profile: prof})
			for _, p := range []themes.Palette{themes.Dark(), themes.Light()} {
				if h.m.c.Styles.Palette.Name != p.Name {
					h.press("t")
				}
				if got, want := styleBefore(t, h.view(), "✗").fg, asCell(p.Error.On(prof)); got != want {
					t.Errorf("%s on %s: the failed mark is drawn in %v, want %v", p.Name, prof, got, want)
				}
			}
		})
	}
}

// A pipe job's own colours reach the screen, stderr's too where it chose
// them; nothing else it wrote does.
func TestPipeJobShowsItsColours(t *testing.T) {
	t.Parallel()
	b := newFakeBackend()
	b.add(withOutput(&fakeJob{info: engine.Info{ID: "1", Command: "ls --color=always", Status: engine.Running, StartedAt: now.Add(-time.Second)}},
		"\x1b[0m\x1b[01;34mbin\x1b[0m  \x1b[38;5;208mlog\x1b[0m \x1b[38;2;1;2;3mrgb\x1b[m",
		"\x1b[2J\x1b[Hcleared? \x1b]0;pwned\x07no",
		"!\x1b[33mwarning:\x1b[0m plain stderr",
	))
	h := newHarness(t, b, nil, "dark")
	h.send(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	v := h.view()
	for mark, want := range map[string]cellStyle{
		"bin":          {fg: vterm.PaletteColor(4), attr: vterm.AttrBold},
		"log":          {fg: vterm.PaletteColor(208)},
		"rgb":          {fg: vterm.RGBColor(1, 2, 3)},
		"cleared? no":  {},
		"warning:":     {fg: vterm.PaletteColor(3)},
		" plain stder": {fg: asCell(themes.Dark().Error.TrueColor)},
	} {
		if got := styleBefore(t, v, mark); got != want {
			t.Errorf("%q drawn in %+v, want %+v", mark, got, want)
		}
	}
	for _, bad := range []string{"\x1b[2J", "\x1b[H", "\x1b]0;", "pwned", "\a"} {
		if strings.Contains(v, bad) {
			t.Errorf("the view carries the job's %q", bad)
		}
	}
}

// ThemeJobColours draws a PTY job's colours 0–15 in the theme's; by
// default they are the terminal's own.
func TestThemeJobColoursOption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		remap bool
		want  vterm.Color
	}{
		{false, vterm.PaletteColor(2)},
		{true, asCell(themes.Dark().ANSI[2].TrueColor)},
	} {
		b, _ := fixture(t)
		h := newHarness(t, b, nil, "dark", func(o *Options) { o.ThemeJobColours = tc.remap })
		h.press("down") // the shell, whose screen says "ok" in green
		if got := styleBefore(t, h.view(), "ok\x1b[0").fg; got != tc.want {
			t.Errorf("ThemeJobColours %v: ok drawn in %v, want %v", tc.remap, got, tc.want)
		}
	}
}
