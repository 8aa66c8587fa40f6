package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Color is one colour of a palette as each colour profile draws it. Left
// to itself the renderer downsamples a 24-bit colour to the nearest entry
// of the 256- or 16-colour palette by distance, and for a theme's muted
// colours that is often a grey: on tmux's default 256-colour profile the
// dark theme's red #e06c75 became grey 246 and the light theme's #ca1243
// grey 241, so failed jobs, stderr and errors turned grey. So every colour
// names its own entry in both palettes, of the same hue.
type Color struct {
	TrueColor color.Color       // 24-bit; nil: the terminal's default colour
	ANSI256   ansi.IndexedColor // an entry of the xterm 256-colour palette
	ANSI      ansi.BasicColor   // one of the terminal's own 16 colours
}

// On returns c as drawn on colour profile p; nil when c is the terminal's
// default colour.
func (c Color) On(p colorprofile.Profile) color.Color {
	switch {
	case c.TrueColor == nil:
		return nil
	case p == colorprofile.ANSI256:
		return c.ANSI256
	case p == colorprofile.ANSI:
		return c.ANSI
	}
	return c.TrueColor // TrueColor; a profile without colours draws none anyway
}

// rgb is the colour hex, drawn as entry c256 on 256 colours and as c16 on
// 16.
func rgb(hex string, c256 uint8, c16 ansi.BasicColor) Color {
	return Color{TrueColor: lipgloss.Color(hex), ANSI256: ansi.IndexedColor(c256), ANSI: c16}
}

// Palette names the colours of a theme. Fg and Bg may be zero: the
// terminal's own default colours are then used and nothing is painted.
type Palette struct {
	Name      string
	Fg, Bg    Color // default text and background; zero: the terminal's
	Subtle    Color // borders, secondary text
	Muted     Color // finished jobs, hints
	Accent    Color // focus, titles, keys in help
	Selection Color // background of the selected row
	Error     Color // failed jobs, stderr, errors
	OK        Color // successful exits
	Warn      Color // warnings, waiting for input, confirmations
	Running   Color // running jobs
	Match     Color // background of search matches
	// ANSI remaps a job's palette colours 0–15 so that its output reads
	// well on the theme's background, when [Options.ThemeJobColours] asks
	// for it. On 16 colours entry i is colour i: there is nothing to remap.
	ANSI [16]Color
}

// Dark is the default palette, for dark terminals. It paints no
// background: the terminal's own is used. On 16 colours it uses the
// normal colours 1–6 for its hues: some palettes (Solarized) make the
// bright ones greys.
func Dark() Palette {
	return Palette{
		Name:      "dark",
		Subtle:    rgb("#5c6370", 241, ansi.BrightBlack),
		Muted:     rgb("#8b919e", 246, ansi.White),
		Accent:    rgb("#61afef", 75, ansi.Blue),
		Selection: rgb("#2c3446", 237, ansi.BrightBlack),
		Error:     rgb("#e06c75", 167, ansi.Red),
		OK:        rgb("#98c379", 114, ansi.Green),
		Warn:      rgb("#e5c07b", 179, ansi.Yellow),
		Running:   rgb("#56b6c2", 73, ansi.Cyan),
		Match:     rgb("#7a5f1a", 94, ansi.Yellow),
		ANSI: [16]Color{
			rgb("#282c34", 236, 0), rgb("#e06c75", 167, 1), rgb("#98c379", 114, 2), rgb("#e5c07b", 179, 3),
			rgb("#61afef", 75, 4), rgb("#c678dd", 170, 5), rgb("#56b6c2", 73, 6), rgb("#abb2bf", 249, 7),
			rgb("#5c6370", 241, 8), rgb("#ef7b85", 210, 9), rgb("#b5e08f", 150, 10), rgb("#f0d08f", 222, 11),
			rgb("#82c0f5", 111, 12), rgb("#d69ae8", 176, 13), rgb("#74ccd8", 116, 14), rgb("#e6e9ef", 255, 15),
		},
	}
}

// Light is the palette for light terminals. It paints its own background,
// so it also reads on a dark terminal.
func Light() Palette {
	return Palette{
		Name:      "light",
		Fg:        rgb("#383a42", 237, ansi.Black),
		Bg:        rgb("#fafafa", 231, ansi.BrightWhite),
		Subtle:    rgb("#a0a1a7", 247, ansi.White),
		Muted:     rgb("#696c77", 242, ansi.BrightBlack),
		Accent:    rgb("#4078f2", 68, ansi.Blue),
		Selection: rgb("#dfe4ee", 254, ansi.White),
		Error:     rgb("#ca1243", 161, ansi.Red),
		OK:        rgb("#50a14f", 71, ansi.Green),
		Warn:      rgb("#986801", 94, ansi.Yellow),
		Running:   rgb("#0184bc", 31, ansi.Cyan),
		Match:     rgb("#f5dc9a", 222, ansi.Yellow),
		ANSI: [16]Color{
			rgb("#383a42", 237, 0), rgb("#ca1243", 161, 1), rgb("#50a14f", 71, 2), rgb("#986801", 94, 3),
			rgb("#4078f2", 68, 4), rgb("#a626a4", 127, 5), rgb("#0184bc", 31, 6), rgb("#696c77", 242, 7),
			rgb("#4f525e", 239, 8), rgb("#e45649", 167, 9), rgb("#3e953a", 28, 10), rgb("#c18401", 172, 11),
			rgb("#2f6ae0", 26, 12), rgb("#b751b6", 133, 13), rgb("#0997b3", 38, 14), rgb("#a0a1a7", 247, 15),
		},
	}
}

// Options say how [New] draws a palette.
type Options struct {
	// Profile is the terminal's colour profile, as Bubble Tea detects it:
	// each colour is drawn as the palette chose for that profile
	// (Unknown: 24-bit).
	Profile colorprofile.Profile
	// ThemeJobColours draws a job's own colours 0–15 in the palette's
	// ANSI colours. Otherwise they stay the terminal's, so a job looks as
	// it does in a plain terminal.
	ThemeJobColours bool
}

// Styles are the lipgloss styles of every part of the UI, made from one
// [Palette].
type Styles struct {
	Palette Palette
	Options Options

	Base        lipgloss.Style // default text on the theme's background
	Title       lipgloss.Style // pane titles
	Subtle      lipgloss.Style
	Muted       lipgloss.Style
	Accent      lipgloss.Style
	Error       lipgloss.Style
	OK          lipgloss.Style
	Warn        lipgloss.Style
	Running     lipgloss.Style
	Border      lipgloss.Style // the frame of an unfocused pane
	BorderFocus lipgloss.Style // the frame of the focused pane
	BorderTerm  lipgloss.Style // the frame of a pane whose job has the keyboard
	Selected    lipgloss.Style // the selected row
	Match       lipgloss.Style // a search match
	CopySel     lipgloss.Style // lines selected in copy mode
	StatusBar   lipgloss.Style
	StatusKey   lipgloss.Style // labels in the status bar
	HelpKey     lipgloss.Style
	HelpDesc    lipgloss.Style
	HelpSep     lipgloss.Style
	Dialog      lipgloss.Style // confirmations and pickers
	Prompt      lipgloss.Style // the input line (filter, command, search)
	Approval    lipgloss.Style // a command waiting for a person's approval: its row, its title, the count
	Escaped     lipgloss.Style // a control or invisible character of a held command, shown as an escape

	// Fg and Bg are the palette's default colours as drawn on the
	// profile; nil: the terminal's.
	Fg, Bg color.Color
	// StderrFg is the colour of a pipe job's stderr text where the job
	// chose none itself: its stderr stays marked, and its own colours win.
	StderrFg color.Color
	// ANSI is what a job's colours 0–15 are drawn as: the palette's ANSI
	// with [Options.ThemeJobColours], else nil, the terminal's own.
	ANSI [16]color.Color
}

// New makes the styles of palette p, drawn as o says.
func New(p Palette, o Options) *Styles {
	on := func(c Color) color.Color { return c.On(o.Profile) }
	base := lipgloss.NewStyle()
	fgc, bgc := on(p.Fg), on(p.Bg)
	if fgc != nil {
		base = base.Foreground(fgc)
	}
	if bgc != nil {
		base = base.Background(bgc)
	}
	fg := func(c Color) lipgloss.Style { return base.Foreground(on(c)) }
	s := &Styles{
		Palette:     p,
		Options:     o,
		Base:        base,
		Title:       fg(p.Accent).Bold(true),
		Subtle:      fg(p.Subtle),
		Muted:       fg(p.Muted),
		Accent:      fg(p.Accent),
		Error:       fg(p.Error),
		OK:          fg(p.OK),
		Warn:        fg(p.Warn),
		Running:     fg(p.Running),
		Border:      fg(p.Subtle),
		BorderFocus: fg(p.Accent),
		BorderTerm:  fg(p.Warn),
		Selected:    base.Background(on(p.Selection)).Bold(true),
		Match:       base.Background(on(p.Match)),
		CopySel:     base.Background(on(p.Selection)),
		StatusBar:   fg(p.Muted),
		StatusKey:   fg(p.Accent).Bold(true),
		HelpKey:     fg(p.Accent),
		HelpDesc:    fg(p.Muted),
		HelpSep:     fg(p.Subtle),
		Dialog:      fg(p.Warn).Bold(true),
		Prompt:      fg(p.Accent).Bold(true),
		Approval:    fg(p.Warn).Bold(true),
		Escaped:     fg(p.Error).Bold(true),
		Fg:          fgc,
		Bg:          bgc,
		StderrFg:    on(p.Error),
	}
	if o.ThemeJobColours {
		for i, c := range p.ANSI {
			s.ANSI[i] = on(c)
		}
	}
	return s
}
