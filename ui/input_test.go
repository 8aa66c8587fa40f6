package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The line editor's readline keys, each from a known text and cursor.
func TestLineInputKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		keys []string
		want string // the text with | at the cursor
	}{
		{[]string{"left", "left", "X"}, "git push origX|in"},
		{[]string{"home", "X"}, "X|git push origin"},
		{[]string{"ctrl+a", "ctrl+f", "X"}, "gX|it push origin"},
		{[]string{"alt+b", "X"}, "git push X|origin"},
		{[]string{"ctrl+left", "ctrl+left", "ctrl+right", "X"}, "git pushX| origin"},
		{[]string{"home", "alt+f", "alt+f", "X"}, "git pushX| origin"},
		{[]string{"ctrl+w"}, "git push |"},
		{[]string{"alt+b", "alt+backspace"}, "git |origin"},
		{[]string{"home", "alt+d"}, "| push origin"},
		{[]string{"alt+b", "ctrl+u"}, "|origin"},
		{[]string{"alt+b", "ctrl+k"}, "git push |"},
		{[]string{"home", "delete", "end", "backspace"}, "it push origi|"},
		{[]string{"left", "left", "left", "left", "left", "left", "left", "ctrl+e", "!"}, "git push origin!|"},
		{[]string{"right", "right", "home", "left", "X"}, "X|git push origin"},
		{[]string{"alt+b", "ctrl+b", "ctrl+b", "é", "ß", "backspace"}, "git pusé|h origin"},
	} {
		l := lineInput{}
		l.set("git push origin")
		for _, k := range tc.keys {
			l.key(keyMsg(k))
		}
		before, after := l.split()
		if got := before + "|" + after; got != tc.want {
			t.Errorf("%v: %q, want %q", tc.keys, got, tc.want)
		}
	}
	// A paste goes in at the cursor, its first line only.
	l := lineInput{}
	l.set("ab")
	l.key(keyMsg("left"))
	l.paste("XY\nrm -rf ~")
	if l.value != "aXYb" || l.back != 1 {
		t.Errorf("paste: %q back %d", l.value, l.back)
	}
	if l.key(tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl}) {
		t.Error("ctrl+x was taken as text")
	}
}

// A line wider than its room shows a window with the cursor in it.
func TestLineInputView(t *testing.T) {
	t.Parallel()
	l := lineInput{}
	l.set("0123456789abcdefghij")
	id := func(s string) string { return s }
	if text, col := l.view(30, id); text != "0123456789abcdefghij" || col != 20 {
		t.Errorf("fits: %q %d", text, col)
	}
	if text, col := l.view(10, id); text != "…cdefghij" || col != 9 {
		t.Errorf("end: %q %d", text, col)
	}
	l.back = 18 // after "01"
	if text, col := l.view(10, id); text != "012345678…" || col != 2 {
		t.Errorf("start: %q %d", text, col)
	}
}
