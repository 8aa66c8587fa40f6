package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"tend/vterm"
)

func TestEncodeKey(t *testing.T) {
	t.Parallel()
	app := vterm.Modes{AppCursor: true}
	for _, tc := range []struct {
		name  string
		key   tea.KeyPressMsg
		modes vterm.Modes
		want  string
	}{
		{"text", tea.KeyPressMsg{Code: 'a', Text: "a"}, vterm.Modes{}, "a"},
		{"unicode", tea.KeyPressMsg{Code: 'é', Text: "é"}, vterm.Modes{}, "é"},
		{"enter", tea.KeyPressMsg{Code: tea.KeyEnter}, vterm.Modes{}, "\r"},
		{"ctrl+c", tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, vterm.Modes{}, "\x03"},
		{"ctrl+d", tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, vterm.Modes{}, "\x04"},
		{"up", tea.KeyPressMsg{Code: tea.KeyUp}, vterm.Modes{}, "\x1b[A"},
		{"up in app cursor mode", tea.KeyPressMsg{Code: tea.KeyUp}, app, "\x1bOA"},
		{"backspace", tea.KeyPressMsg{Code: tea.KeyBackspace}, vterm.Modes{}, "\x7f"},
		{"esc", tea.KeyPressMsg{Code: tea.KeyEscape}, vterm.Modes{}, "\x1b"},
		{"tab", tea.KeyPressMsg{Code: tea.KeyTab}, vterm.Modes{}, "\t"},
		{"alt+x", tea.KeyPressMsg{Code: 'x', Mod: tea.ModAlt}, vterm.Modes{}, "\x1bx"},
		{"pgup", tea.KeyPressMsg{Code: tea.KeyPgUp}, vterm.Modes{}, "\x1b[5~"},
		{"f5", tea.KeyPressMsg{Code: tea.KeyF5}, vterm.Modes{}, "\x1b[15~"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := string(encodeKey(tc.key, tc.modes)); got != tc.want {
				t.Errorf("encodeKey(%s) = %q, want %q", tc.key.String(), got, tc.want)
			}
		})
	}
}
