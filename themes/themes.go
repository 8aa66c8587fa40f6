package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette names the colours of a theme. Fg and Bg may be nil: the
// terminal's own default colours are then used and nothing is painted.
type Palette struct {
	Name      string
	Fg, Bg    color.Color // default text and background; nil: the terminal's
	Subtle    color.Color // borders, secondary text
	Muted     color.Color // finished jobs, hints
	Accent    color.Color // focus, titles, keys in help
	Selection color.Color // background of the selected row
	Error     color.Color // failed jobs, stderr, errors
	OK        color.Color // successful exits
	Warn      color.Color // warnings, waiting for input, confirmations
	Running   color.Color // running jobs
	Match     color.Color // background of search matches
	// ANSI remaps a child's palette colours 0–15 so that a job's output
	// reads well on the theme's background.
	ANSI [16]color.Color
}

// Dark is the default palette, for dark terminals. It paints no
// background: the terminal's own is used.
func Dark() Palette {
	return Palette{
		Name:      "dark",
		Subtle:    lipgloss.Color("#5c6370"),
		Muted:     lipgloss.Color("#8b919e"),
		Accent:    lipgloss.Color("#61afef"),
		Selection: lipgloss.Color("#2c3446"),
		Error:     lipgloss.Color("#e06c75"),
		OK:        lipgloss.Color("#98c379"),
		Warn:      lipgloss.Color("#e5c07b"),
		Running:   lipgloss.Color("#56b6c2"),
		Match:     lipgloss.Color("#7a5f1a"),
		ANSI: [16]color.Color{
			lipgloss.Color("#282c34"), lipgloss.Color("#e06c75"), lipgloss.Color("#98c379"), lipgloss.Color("#e5c07b"),
			lipgloss.Color("#61afef"), lipgloss.Color("#c678dd"), lipgloss.Color("#56b6c2"), lipgloss.Color("#abb2bf"),
			lipgloss.Color("#5c6370"), lipgloss.Color("#ef7b85"), lipgloss.Color("#b5e08f"), lipgloss.Color("#f0d08f"),
			lipgloss.Color("#82c0f5"), lipgloss.Color("#d69ae8"), lipgloss.Color("#74ccd8"), lipgloss.Color("#e6e9ef"),
		},
	}
}

// Light is the palette for light terminals. It paints its own background,
// so it also reads on a dark terminal.
func Light() Palette {
	return Palette{
		Name:      "light",
		Fg:        lipgloss.Color("#383a42"),
		Bg:        lipgloss.Color("#fafafa"),
		Subtle:    lipgloss.Color("#a0a1a7"),
		Muted:     lipgloss.Color("#696c77"),
		Accent:    lipgloss.Color("#4078f2"),
		Selection: lipgloss.Color("#dfe4ee"),
		Error:     lipgloss.Color("#ca1243"),
		OK:        lipgloss.Color("#50a14f"),
		Warn:      lipgloss.Color("#986801"),
		Running:   lipgloss.Color("#0184bc"),
		Match:     lipgloss.Color("#f5dc9a"),
		ANSI: [16]color.Color{
			lipgloss.Color("#383a42"), lipgloss.Color("#ca1243"), lipgloss.Color("#50a14f"), lipgloss.Color("#986801"),
			lipgloss.Color("#4078f2"), lipgloss.Color("#a626a4"), lipgloss.Color("#0184bc"), lipgloss.Color("#696c77"),
			lipgloss.Color("#4f525e"), lipgloss.Color("#e45649"), lipgloss.Color("#3e953a"), lipgloss.Color("#c18401"),
			lipgloss.Color("#2f6ae0"), lipgloss.Color("#b751b6"), lipgloss.Color("#0997b3"), lipgloss.Color("#a0a1a7"),
		},
	}
}

// Styles are the lipgloss styles of every part of the UI, made from one
// [Palette].
type Styles struct {
	Palette Palette

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
	Stderr      lipgloss.Style // a pipe job's stderr lines
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

	// ANSI is the palette's remap of a child's colours 0–15.
	ANSI [16]color.Color
}

// New makes the styles of palette p.
func New(p Palette) *Styles {
	base := lipgloss.NewStyle()
	if p.Fg != nil {
		base = base.Foreground(p.Fg)
	}
	if p.Bg != nil {
		base = base.Background(p.Bg)
	}
	fg := func(c color.Color) lipgloss.Style { return base.Foreground(c) }
	return &Styles{
		Palette:     p,
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
		Selected:    base.Background(p.Selection).Bold(true),
		Stderr:      fg(p.Error),
		Match:       base.Background(p.Match),
		CopySel:     base.Background(p.Selection),
		StatusBar:   fg(p.Muted),
		StatusKey:   fg(p.Accent).Bold(true),
		HelpKey:     fg(p.Accent),
		HelpDesc:    fg(p.Muted),
		HelpSep:     fg(p.Subtle),
		Dialog:      fg(p.Warn).Bold(true),
		Prompt:      fg(p.Accent).Bold(true),
		Approval:    fg(p.Warn).Bold(true),
		Escaped:     fg(p.Error).Bold(true),
		ANSI:        p.ANSI,
	}
}
