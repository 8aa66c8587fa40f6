package vterm

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// KeyCode names a key that is not a plain character.
type KeyCode uint8

// The special keys.
const (
	KeyRune KeyCode = iota // a character: Key.Rune
	KeyEnter
	KeyTab
	KeyBackspace
	KeyEscape
	KeySpace
	KeyUp
	KeyDown
	KeyRight
	KeyLeft
	KeyHome
	KeyEnd
	KeyPgUp
	KeyPgDown
	KeyInsert
	KeyDelete
	KeyF1 // KeyF1+n-1 is Fn, up to F20
)

// Key is a key press with its modifiers.
type Key struct {
	Code  KeyCode
	Rune  rune // for KeyRune
	F     int  // 1–20 for function keys
	Ctrl  bool
	Alt   bool
	Shift bool
}

// ParseKey parses a Bubble Tea key name: "ctrl+c", "enter", "up", "tab",
// "f5", "alt+x", "pgup", "esc", "backspace", "space", "a", "é" …
func ParseKey(name string) (Key, error) {
	var k Key
	rest := name
	for {
		i := strings.IndexByte(rest, '+')
		if i <= 0 || i == len(rest)-1 {
			break
		}
		switch strings.ToLower(rest[:i]) {
		case "ctrl":
			k.Ctrl = true
		case "alt":
			k.Alt = true
		case "shift":
			k.Shift = true
		default:
			return Key{}, fmt.Errorf("vterm: key %q: unknown modifier %q", name, rest[:i])
		}
		rest = rest[i+1:]
	}
	if utf8.RuneCountInString(rest) == 1 {
		r, _ := utf8.DecodeRuneInString(rest)
		if r == utf8.RuneError {
			return Key{}, fmt.Errorf("vterm: key %q: invalid UTF-8", name)
		}
		k.Code, k.Rune = KeyRune, r
		return k, nil
	}
	return Key{}, fmt.Errorf("vterm: unknown key %q", name)
}

// EncodeKey returns the bytes a terminal sends for k in modes m.
func EncodeKey(k Key, m Modes) []byte {
	return []byte(string(k.Rune))
}

// EncodePaste returns the bytes for pasting s: wrapped in ESC[200~ … ESC[201~
// when the application enabled bracketed paste.
func EncodePaste(s string, m Modes) []byte {
	return []byte(s)
}
