package ui

import (
	tea "charm.land/bubbletea/v2"

	"tend/vterm"
)

// specialKeys are Bubble Tea's keys that a terminal sends as more than
// their text, as vterm names them. Keypad keys count as their main-block
// twins.
var specialKeys = map[rune]vterm.KeyCode{
	tea.KeyEnter: vterm.KeyEnter, tea.KeyKpEnter: vterm.KeyEnter,
	tea.KeyTab: vterm.KeyTab, tea.KeyBackspace: vterm.KeyBackspace,
	tea.KeyEscape: vterm.KeyEscape, tea.KeySpace: vterm.KeySpace,
	tea.KeyUp: vterm.KeyUp, tea.KeyKpUp: vterm.KeyUp,
	tea.KeyDown: vterm.KeyDown, tea.KeyKpDown: vterm.KeyDown,
	tea.KeyRight: vterm.KeyRight, tea.KeyKpRight: vterm.KeyRight,
	tea.KeyLeft: vterm.KeyLeft, tea.KeyKpLeft: vterm.KeyLeft,
	tea.KeyHome: vterm.KeyHome, tea.KeyKpHome: vterm.KeyHome,
	tea.KeyEnd: vterm.KeyEnd, tea.KeyKpEnd: vterm.KeyEnd,
	tea.KeyPgUp: vterm.KeyPgUp, tea.KeyKpPgUp: vterm.KeyPgUp,
	tea.KeyPgDown: vterm.KeyPgDown, tea.KeyKpPgDown: vterm.KeyPgDown,
	tea.KeyInsert: vterm.KeyInsert, tea.KeyKpInsert: vterm.KeyInsert,
	tea.KeyDelete: vterm.KeyDelete, tea.KeyKpDelete: vterm.KeyDelete,
}

// keypadText are the keypad keys that type a character.
var keypadText = map[rune]rune{
	tea.KeyKp0: '0', tea.KeyKp1: '1', tea.KeyKp2: '2', tea.KeyKp3: '3', tea.KeyKp4: '4',
	tea.KeyKp5: '5', tea.KeyKp6: '6', tea.KeyKp7: '7', tea.KeyKp8: '8', tea.KeyKp9: '9',
	tea.KeyKpEqual: '=', tea.KeyKpMultiply: '*', tea.KeyKpPlus: '+', tea.KeyKpComma: ',',
	tea.KeyKpMinus: '-', tea.KeyKpDecimal: '.', tea.KeyKpDivide: '/', tea.KeyKpSep: ',',
}

// termBytes is what a terminal sends to the program for a key press, in
// the program's modes: the key is named as vterm names keys and encoded by
// vterm.EncodeKey, the encoder the MCP tools' keys use too. Keys a terminal
// sends nothing for (media keys, a modifier alone) give nil.
func termBytes(msg tea.KeyPressMsg, modes vterm.Modes) []byte {
	k := msg.Key()
	vk := vterm.Key{Ctrl: k.Mod&tea.ModCtrl != 0, Alt: k.Mod&tea.ModAlt != 0, Shift: k.Mod&tea.ModShift != 0}
	if k.Text != "" && !vk.Ctrl && !vk.Alt {
		// Typed text, as the keyboard layout made it ("!" for shift+1).
		var out []byte
		for _, r := range k.Text {
			out = append(out, vterm.EncodeKey(vterm.Key{Code: vterm.KeyRune, Rune: r}, modes)...)
		}
		return out
	}
	switch code, special := specialKeys[k.Code]; {
	case special:
		vk.Code = code
	case k.Code >= tea.KeyF1 && k.Code <= tea.KeyF20:
		vk.Code = vterm.KeyF1 + vterm.KeyCode(k.Code-tea.KeyF1)
	case keypadText[k.Code] != 0:
		vk.Code, vk.Rune = vterm.KeyRune, keypadText[k.Code]
	case k.Code < tea.KeyExtended:
		vk.Code, vk.Rune = vterm.KeyRune, k.Code
	default:
		return nil
	}
	return vterm.EncodeKey(vk, modes)
}
