package themes

import (
	"fmt"
	"image/color"
	"slices"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

func TestPalettesAreComplete(t *testing.T) {
	t.Parallel()
	for _, p := range []Palette{Dark(), Light()} {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			for i, c := range p.ANSI {
				if c.TrueColor == nil {
					t.Errorf("ANSI[%d] is nil", i)
				}
			}
			for name, c := range map[string]Color{"Subtle": p.Subtle, "Muted": p.Muted, "Accent": p.Accent, "Selection": p.Selection, "Error": p.Error, "OK": p.OK, "Warn": p.Warn, "Running": p.Running, "Match": p.Match} {
				if c.TrueColor == nil {
					t.Errorf("%s is nil", name)
				}
			}
			if (p.Fg.TrueColor == nil) != (p.Bg.TrueColor == nil) {
				t.Errorf("Fg and Bg must both be set or both be the terminal's")
			}
			s := New(p, Options{})
			if got := s.Error.Render("x"); got == "x" {
				t.Errorf("Error style draws no colour: %q", got)
			}
		})
	}
}

// profiles are the colour profiles a theme must survive.
var profiles = []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI}

// hueClass names the hue of c as a person would: "grey" when it has next
// to no chroma, else red, yellow, green, cyan, blue or magenta.
func hueClass(c color.Color) string {
	r16, g16, b16, _ := c.RGBA()
	r, g, b := float64(r16)/0xffff, float64(g16)/0xffff, float64(b16)/0xffff
	hi, lo := max(r, g, b), min(r, g, b)
	chroma := hi - lo
	if chroma < 0.12 {
		return "grey"
	}
	var h float64 // degrees, as in HSL
	switch hi {
	case r:
		h = 60 * (g - b) / chroma
	case g:
		h = 60*(b-r)/chroma + 120
	default:
		h = 60*(r-g)/chroma + 240
	}
	if h < 0 {
		h += 360
	}
	switch {
	case h < 25 || h >= 330:
		return "red"
	case h < 75:
		return "yellow"
	case h < 165:
		return "green"
	case h < 200:
		return "cyan"
	case h < 260:
		return "blue"
	}
	return "magenta"
}

// lightness is c's HSL lightness, 0 to 1.
func lightness(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return float64(max(r, g, b)+min(r, g, b)) / 2 / 0xffff
}

// ansiHue is the hue of a job's colour i (0–15) in any terminal's palette.
var ansiHue = [8]string{"grey", "red", "green", "yellow", "blue", "magenta", "cyan", "grey"}

// problems lists where palette p, drawn on profile prof and downsampled
// there as the renderer does (colorprofile's Convert), loses a colour's
// hue or its contrast with the background.
func problems(p Palette, prof colorprofile.Profile) []string {
	s := New(p, Options{Profile: prof, ThemeJobColours: true})
	type part struct {
		name  string
		pal   Color       // as the palette names it
		c     color.Color // as the styles give it to the renderer
		hue   string
		text  bool // drawn as text on the theme's background
		under bool // drawn as a background under text
	}
	parts := []part{
		{"Fg", p.Fg, s.Fg, "grey", false, false},
		{"Bg", p.Bg, s.Bg, "grey", false, false},
		{"Subtle", p.Subtle, s.Subtle.GetForeground(), "grey", true, false},
		{"Muted", p.Muted, s.Muted.GetForeground(), "grey", true, false},
		{"Accent", p.Accent, s.Accent.GetForeground(), "blue", true, false},
		{"Selection", p.Selection, s.Selected.GetBackground(), "grey", false, true},
		{"Error", p.Error, s.Error.GetForeground(), "red", true, false},
		{"Stderr", p.Error, s.StderrFg, "red", true, false},
		{"OK", p.OK, s.OK.GetForeground(), "green", true, false},
		{"Warn", p.Warn, s.Warn.GetForeground(), "yellow", true, false},
		{"Running", p.Running, s.Running.GetForeground(), "cyan", true, false},
		{"Match", p.Match, s.Match.GetBackground(), "yellow", false, true},
	}
	for i, c := range s.ANSI {
		parts = append(parts, part{fmt.Sprintf("ANSI[%d]", i), p.ANSI[i], c, ansiHue[i%8], false, false})
	}
	dark := p.Bg.TrueColor == nil // the terminal's background, taken to be dark
	var bg color.Color
	if !dark {
		bg = prof.Convert(s.Bg)
	}
	var out []string
	for _, pt := range parts {
		if pt.c == nil {
			if pt.name != "Fg" && pt.name != "Bg" || !dark {
				out = append(out, pt.name+" draws no colour")
			}
			continue
		}
		got := prof.Convert(pt.c)
		what := fmt.Sprintf("%s %s drawn as %s", pt.name, colorName(pt.pal.TrueColor), colorName(got))
		if h := hueClass(got); h != pt.hue {
			out = append(out, fmt.Sprintf("%s: %s, not %s", what, h, pt.hue))
		}
		if l := lightness(got); pt.text && (dark && l < 0.2 || !dark && l > 0.8) {
			out = append(out, fmt.Sprintf("%s: lightness %.2f is lost on the background", what, l))
		}
		if pt.under && bg != nil && got == bg {
			out = append(out, what+": the background itself")
		}
	}
	return out
}

// Every theme keeps each colour's hue on 24-bit, 256- and 16-colour
// terminals: a red stays red (not grey), a green green, and so on, after
// the same conversion the renderer applies.
func TestThemesKeepTheirHues(t *testing.T) {
	t.Parallel()
	for _, p := range []Palette{Dark(), Light()} {
		for _, prof := range profiles {
			t.Run(p.Name+"/"+prof.String(), func(t *testing.T) {
				t.Parallel()
				for _, msg := range problems(p, prof) {
					t.Error(msg)
				}
			})
		}
	}
}

// Left to the renderer's downsampling (nearest by distance), the themes'
// colours lose their hues: the reason each names its own entries, and the
// proof that [TestThemesKeepTheirHues] can fail.
func TestDownsampledByDistanceLosesHues(t *testing.T) {
	t.Parallel()
	byDistance := func(c Color) Color {
		if c.TrueColor == nil {
			return c
		}
		return Color{TrueColor: c.TrueColor, ANSI256: ansi.Convert256(c.TrueColor), ANSI: ansi.Convert16(c.TrueColor)}
	}
	for _, tc := range []struct {
		p    Palette
		prof colorprofile.Profile
		want string // one of the problems
	}{
		{Dark(), colorprofile.ANSI256, "Error #e06c75 drawn as 246: grey, not red"},
		{Light(), colorprofile.ANSI256, "Error #ca1243 drawn as 241: grey, not red"},
		{Dark(), colorprofile.ANSI, "Warn #e5c07b drawn as 9: red, not yellow"},
	} {
		p := tc.p
		for _, c := range []*Color{&p.Fg, &p.Bg, &p.Subtle, &p.Muted, &p.Accent, &p.Selection, &p.Error, &p.OK, &p.Warn, &p.Running, &p.Match} {
			*c = byDistance(*c)
		}
		for i := range p.ANSI {
			p.ANSI[i] = byDistance(p.ANSI[i])
		}
		if got := problems(p, tc.prof); !slices.Contains(got, tc.want) {
			t.Errorf("%s on %s: problems %q, want %q among them", tc.p.Name, tc.prof, got, tc.want)
		}
	}
}

// colorName is c as a person names it: an index for a palette colour,
// else #rrggbb.
func colorName(c color.Color) string {
	switch c := c.(type) {
	case ansi.BasicColor:
		return fmt.Sprint(uint8(c))
	case ansi.IndexedColor:
		return fmt.Sprint(uint8(c))
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
