package ui

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// lineInput is a one-line editor for the filter, a command and a search.
// It has no blinking cursor, so it never ticks.
type lineInput struct {
	prompt string
	value  string
}

// key edits the line; it reports whether the key was used.
func (l *lineInput) key(msg tea.KeyPressMsg) bool {
	k := msg.Key()
	switch {
	case k.Code == tea.KeyBackspace && k.Mod == 0:
		if l.value != "" {
			_, n := utf8.DecodeLastRuneInString(l.value)
			l.value = l.value[:len(l.value)-n]
		}
	case msg.String() == "ctrl+u":
		l.value = ""
	case msg.String() == "ctrl+w":
		v := strings.TrimRight(l.value, " ")
		if i := strings.LastIndexByte(v, ' '); i >= 0 {
			l.value = v[:i+1]
		} else {
			l.value = ""
		}
	case k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt) == 0:
		l.value += k.Text
	default:
		return false
	}
	return true
}

// paste appends pasted text, first line only.
func (l *lineInput) paste(s string) {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	l.value += s
}
