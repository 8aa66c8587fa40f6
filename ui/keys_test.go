package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"tend/vterm"
)

func TestTermBytes(t *testing.T) {
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
		{"shift+1 types its text", tea.KeyPressMsg{Code: '1', Mod: tea.ModShift, Text: "!"}, vterm.Modes{}, "!"},
		{"alt+shift+a", tea.KeyPressMsg{Code: 'a', Mod: tea.ModAlt | tea.ModShift}, vterm.Modes{}, "\x1bA"},
		{"ctrl+space", tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl}, vterm.Modes{}, "\x00"},
		{"shift+tab", tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, vterm.Modes{}, "\x1b[Z"},
		{"ctrl+up", tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModCtrl}, app, "\x1b[1;5A"},
		{"keypad enter", tea.KeyPressMsg{Code: tea.KeyKpEnter}, vterm.Modes{}, "\r"},
		{"keypad 7", tea.KeyPressMsg{Code: tea.KeyKp7}, vterm.Modes{}, "7"},
		{"f12", tea.KeyPressMsg{Code: tea.KeyF12}, vterm.Modes{}, "\x1b[24~"},
		{"a media key sends nothing", tea.KeyPressMsg{Code: tea.KeyMediaPlay}, vterm.Modes{}, ""},
		{"ctrl+/ is readline's undo", tea.KeyPressMsg{Code: '/', Mod: tea.ModCtrl}, vterm.Modes{}, "\x1f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := string(termBytes(tc.key, tc.modes)); got != tc.want {
				t.Errorf("termBytes(%s) = %q, want %q", tc.key.String(), got, tc.want)
			}
		})
	}
}
