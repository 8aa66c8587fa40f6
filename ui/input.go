package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// lineInput is a one-line editor for the filter, a command, a search, the
// stdin line of an attached pipe job and the answers to a request, with
// readline's keys: ←/→ (ctrl+b/ctrl+f outside an attached job), home/end
// (ctrl+a/ctrl+e), a word at a time with alt+b/alt+f or ctrl+←/→,
// backspace and delete, ctrl+w and alt+backspace delete the word before,
// alt+d the word after, ctrl+u and ctrl+k to the start and to the end. It
// has no blinking cursor, so it never ticks.
type lineInput struct {
	prompt string
	value  string
	back   int // bytes of value after the cursor: the zero value is the end
}

// set replaces the text, the cursor at its end.
func (l *lineInput) set(v string) { l.value, l.back = v, 0 }

// split is the text before and after the cursor.
func (l *lineInput) split() (string, string) {
	i := len(l.value) - min(l.back, len(l.value))
	return l.value[:i], l.value[i:]
}

func (l *lineInput) join(before, after string) {
	l.value, l.back = before+after, len(after)
}

// key edits the line; it reports whether the key was used.
func (l *lineInput) key(msg tea.KeyPressMsg) bool {
	before, after := l.split()
	k := msg.Key()
	switch msg.String() {
	case "left", "ctrl+b":
		_, n := utf8.DecodeLastRuneInString(before)
		l.back += n
	case "right", "ctrl+f":
		_, n := utf8.DecodeRuneInString(after)
		l.back -= n
	case "home", "ctrl+a":
		l.back = len(l.value)
	case "end", "ctrl+e":
		l.back = 0
	case "alt+b", "ctrl+left":
		l.back = len(l.value) - wordStart(before)
	case "alt+f", "ctrl+right":
		l.back = len(after) - wordEnd(after)
	case "backspace":
		_, n := utf8.DecodeLastRuneInString(before)
		l.join(before[:len(before)-n], after)
	case "delete":
		_, n := utf8.DecodeRuneInString(after)
		l.join(before, after[n:])
	case "ctrl+w", "alt+backspace":
		l.join(before[:wordStart(before)], after)
	case "alt+d":
		l.join(before, after[wordEnd(after):])
	case "ctrl+u":
		l.join("", after)
	case "ctrl+k":
		l.join(before, "")
	default:
		if k.Text == "" || k.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return false
		}
		l.join(before+k.Text, after)
	}
	return true
}

// wordStart is where the word that s ends in starts (spaces after it
// included).
func wordStart(s string) int {
	t := strings.TrimRightFunc(s, unicode.IsSpace)
	return strings.LastIndexFunc(t, unicode.IsSpace) + 1
}

// wordEnd is where the first word of s ends (spaces before it included).
func wordEnd(s string) int {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	skip := len(s) - len(t)
	if i := strings.IndexFunc(t, unicode.IsSpace); i >= 0 {
		return skip + i
	}
	return len(s)
}

// paste inserts pasted text at the cursor, first line only.
func (l *lineInput) paste(s string) {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	before, after := l.split()
	l.join(before+s, after)
}

// view is the text as shown in room cells, each part through show, and
// the cursor's column in it: all of it when it fits, else a window around
// the cursor marked with … where text is cut off.
func (l *lineInput) view(room int, show func(string) string) (string, int) {
	before, after := l.split()
	b, a := show(before), show(after)
	bw, aw := ansi.StringWidth(b), ansi.StringWidth(a)
	room = max(room, 2)
	if bw+aw <= room {
		return b + a, bw
	}
	if bw >= room-1 { // the cursor near the end of the room: cut the start
		b = "…" + ansi.TruncateLeft(b, bw-(room-2), "")
		bw = ansi.StringWidth(b)
	}
	return ansi.Truncate(b+a, room, "…"), bw
}
