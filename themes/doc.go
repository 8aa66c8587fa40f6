// Package themes turns a [Palette] into the [Styles] the terminal UI draws
// with. It is the only place colours are named and the only place
// lipgloss.NewStyle is called; the UI receives a *[Styles] through its
// common state, never as a global. Every colour names what it is on 256-
// and 16-colour terminals too ([Color]), so that none loses its hue there.
//
// Only ui and main import it.
package themes
