package themes

import "testing"

func TestPalettesAreComplete(t *testing.T) {
	t.Parallel()
	for _, p := range []Palette{Dark(), Light()} {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			for i, c := range p.ANSI {
				if c == nil {
					t.Errorf("ANSI[%d] is nil", i)
				}
			}
			for name, c := range map[string]any{"Subtle": p.Subtle, "Muted": p.Muted, "Accent": p.Accent, "Selection": p.Selection, "Error": p.Error, "OK": p.OK, "Warn": p.Warn, "Running": p.Running, "Match": p.Match} {
				if c == nil {
					t.Errorf("%s is nil", name)
				}
			}
			if (p.Fg == nil) != (p.Bg == nil) {
				t.Errorf("Fg and Bg must both be set or both be the terminal's")
			}
			s := New(p)
			if got := s.Error.Render("x"); got == "x" {
				t.Errorf("Error style draws no colour: %q", got)
			}
		})
	}
}
