package vterm

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// KeyCode names a key that is not a plain character.
type KeyCode uint8

// The keys. KeyF1+n-1 is function key Fn, up to F20.
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
	KeyF1
	KeyF20 = KeyF1 + 19
)

// Key is a key press with its modifiers.
type Key struct {
	Code  KeyCode
	Rune  rune // for KeyRune
	Ctrl  bool
	Alt   bool
	Shift bool
}

// keyNames are Bubble Tea's key names, plus a few common aliases.
var keyNames = map[string]KeyCode{
	"enter": KeyEnter, "return": KeyEnter, "tab": KeyTab, "backspace": KeyBackspace,
	"esc": KeyEscape, "escape": KeyEscape, "space": KeySpace,
	"up": KeyUp, "down": KeyDown, "right": KeyRight, "left": KeyLeft,
	"home": KeyHome, "end": KeyEnd, "pgup": KeyPgUp, "pageup": KeyPgUp,
	"pgdown": KeyPgDown, "pagedown": KeyPgDown, "insert": KeyInsert,
	"delete": KeyDelete, "del": KeyDelete,
}

var keyCanonical = func() map[KeyCode]string {
	m := map[KeyCode]string{}
	for _, n := range []string{"enter", "tab", "backspace", "esc", "space", "up", "down", "right", "left", "home", "end", "pgup", "pgdown", "insert", "delete"} {
		m[keyNames[n]] = n
	}
	return m
}()

// ParseKey parses a Bubble Tea key name: "ctrl+c", "enter", "up", "tab",
// "shift+tab", "f5", "alt+x", "pgup", "esc", "backspace", "space", "a", "é",
// "+" … Modifiers are ctrl, alt and shift, in any order.
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
	if c, ok := keyNames[strings.ToLower(rest)]; ok {
		k.Code = c
		return k, nil
	}
	if len(rest) >= 2 && (rest[0] == 'f' || rest[0] == 'F') {
		if n, err := strconv.Atoi(rest[1:]); err == nil && n >= 1 && n <= 20 {
			k.Code = KeyF1 + KeyCode(n-1)
			return k, nil
		}
	}
	if r, size := utf8.DecodeRuneInString(rest); size == len(rest) && r != utf8.RuneError && unicode.IsPrint(r) {
		k.Code, k.Rune = KeyRune, r
		return k, nil
	}
	return Key{}, fmt.Errorf("vterm: unknown key %q", name)
}

// String returns the key's name in the form ParseKey reads.
func (k Key) String() string {
	var b strings.Builder
	if k.Ctrl {
		b.WriteString("ctrl+")
	}
	if k.Alt {
		b.WriteString("alt+")
	}
	if k.Shift {
		b.WriteString("shift+")
	}
	switch {
	case k.Code == KeyRune:
		b.WriteRune(k.Rune)
	case k.Code >= KeyF1 && k.Code <= KeyF20:
		b.WriteString("f" + strconv.Itoa(int(k.Code-KeyF1)+1))
	default:
		b.WriteString(keyCanonical[k.Code])
	}
	return b.String()
}

// EncodeKey returns the bytes an xterm sends for k in modes m: cursor keys
// honour application cursor mode (ESC O A rather than ESC [ A) unless a
// modifier is held, which is encoded as ESC [ 1 ; <mod> A.
func EncodeKey(k Key, m Modes) []byte {
	var out []byte
	mod := 1
	if k.Shift {
		mod++
	}
	if k.Alt {
		mod += 2
	}
	if k.Ctrl {
		mod += 4
	}
	alt := func(b ...byte) []byte {
		if k.Alt {
			return append([]byte{0x1b}, b...)
		}
		return b
	}
	switch c := k.Code; {
	case c == KeyRune:
		return alt(encodeRune(k)...)
	case c == KeyEnter:
		return alt('\r')
	case c == KeyTab:
		if k.Shift {
			return []byte("\x1b[Z")
		}
		return alt('\t')
	case c == KeyBackspace:
		if k.Ctrl {
			return alt(0x08)
		}
		return alt(0x7f)
	case c == KeyEscape:
		return alt(0x1b)
	case c == KeySpace:
		if k.Ctrl {
			return alt(0)
		}
		return alt(' ')
	case c >= KeyUp && c <= KeyEnd:
		final := "ABCDHF"[c-KeyUp]
		if mod > 1 {
			return fmt.Appendf(out, "\x1b[1;%d%c", mod, final)
		}
		if m.AppCursor {
			return []byte{0x1b, 'O', final}
		}
		return []byte{0x1b, '[', final}
	case c >= KeyPgUp && c <= KeyDelete:
		n := map[KeyCode]int{KeyPgUp: 5, KeyPgDown: 6, KeyInsert: 2, KeyDelete: 3}[c]
		return tilde(n, mod)
	case c >= KeyF1 && c <= KeyF1+3:
		final := "PQRS"[c-KeyF1]
		if mod > 1 {
			return fmt.Appendf(out, "\x1b[1;%d%c", mod, final)
		}
		return []byte{0x1b, 'O', final}
	case c > KeyF1+3 && c <= KeyF20:
		codes := [...]int{15, 17, 18, 19, 20, 21, 23, 24, 25, 26, 28, 29, 31, 32, 33, 34}
		return tilde(codes[c-KeyF1-4], mod)
	}
	return nil
}

func tilde(n, mod int) []byte {
	if mod > 1 {
		return fmt.Appendf(nil, "\x1b[%d;%d~", n, mod)
	}
	return fmt.Appendf(nil, "\x1b[%d~", n)
}

// encodeRune encodes a character key without alt: ctrl maps letters and
// @[\]^_? to C0 codes as terminals do; shift upper-cases a letter.
func encodeRune(k Key) []byte {
	r := k.Rune
	if k.Shift {
		r = unicode.ToUpper(r)
	}
	if k.Ctrl {
		switch {
		case r >= 'a' && r <= 'z':
			return []byte{byte(r - 'a' + 1)}
		case r >= 'A' && r <= 'Z':
			return []byte{byte(r - 'A' + 1)}
		case r == '@' || r == ' ' || r == '2':
			return []byte{0}
		case r >= '[' && r <= '_':
			return []byte{byte(r - '@')}
		case r >= '3' && r <= '7':
			return []byte{byte(r - '3' + 0x1b)}
		case r == '?' || r == '8':
			return []byte{0x7f}
		case r == '/':
			return []byte{0x1f} // as ctrl+_, readline's undo
		}
	}
	return utf8.AppendRune(nil, r)
}

// EncodePaste returns the bytes for pasting s, as a terminal sends them:
// line breaks become CR, and when the application enabled bracketed paste
// the text is wrapped in ESC[200~ … ESC[201~, with any ESC[201~ inside it
// removed so a paste cannot end itself early and inject keys.
func EncodePaste(s string, m Modes) []byte {
	s = strings.ReplaceAll(s, "\r\n", "\r")
	s = strings.ReplaceAll(s, "\n", "\r")
	if !m.BracketedPaste {
		return []byte(s)
	}
	for strings.Contains(s, "\x1b[201~") {
		s = strings.ReplaceAll(s, "\x1b[201~", "")
	}
	return []byte("\x1b[200~" + s + "\x1b[201~")
}
