package vterm

import (
	"strconv"
)

// Color is a cell colour: the terminal default, a palette index (0–255) or a
// true colour. The three kinds are kept apart so that a true colour with
// r=g=0 never reads as a palette index (vt10x conflates them).
type Color uint32

const (
	colorKindShift = 24
	kindPalette    = 1
	kindRGB        = 2
)

// DefaultColor is the terminal's default foreground or background.
const DefaultColor Color = 0

// PaletteColor returns palette colour n (0–255; SGR 31 is 1, SGR 91 is 9).
func PaletteColor(n uint8) Color { return Color(kindPalette<<colorKindShift | uint32(n)) }

// RGBColor returns the true colour r, g, b.
func RGBColor(r, g, b uint8) Color {
	return Color(kindRGB<<colorKindShift | uint32(r)<<16 | uint32(g)<<8 | uint32(b))
}

// Palette returns the palette index of c and whether c is a palette colour.
func (c Color) Palette() (uint8, bool) {
	return uint8(c), c>>colorKindShift == kindPalette
}

// RGB returns the components of c and whether c is a true colour.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	return uint8(c >> 16), uint8(c >> 8), uint8(c), c>>colorKindShift == kindRGB
}

// String returns c as in the screen JSON: "" (default), "pN" or "#rrggbb".
func (c Color) String() string { return string(c.appendTo(nil)) }

func (c Color) appendTo(b []byte) []byte {
	if n, ok := c.Palette(); ok {
		return strconv.AppendUint(append(b, 'p'), uint64(n), 10)
	}
	if r, g, bl, ok := c.RGB(); ok {
		const hex = "0123456789abcdef"
		return append(b, '#', hex[r>>4], hex[r&15], hex[g>>4], hex[g&15], hex[bl>>4], hex[bl&15])
	}
	return b
}

// Attr is a set of text attributes.
type Attr uint16

// The attributes, in the order the screen JSON lists their flags.
const (
	AttrBold Attr = 1 << iota
	AttrFaint
	AttrItalic
	AttrUnderline
	AttrBlink
	AttrReverse
	AttrStrike
	// AttrHidden (SGR 8) is tracked but not part of the screen JSON.
	AttrHidden
)

// attrFlags are the screen JSON flag letters, indexed by bit.
const attrFlags = "BFIUKRS"

// String returns the flag letters of a, e.g. "BU".
func (a Attr) String() string { return string(a.appendTo(nil)) }

func (a Attr) appendTo(b []byte) []byte {
	for i := 0; i < len(attrFlags); i++ {
		if a&(1<<i) != 0 {
			b = append(b, attrFlags[i])
		}
	}
	return b
}

// Cell is one screen cell. A wide character occupies two cells: the first
// has Width 2 and the text, the second Width 0 and empty text.
type Cell struct {
	// Text is one grapheme: a base character and its combining marks; " " when blank.
	Text   string
	Width  int
	FG, BG Color
	Attr   Attr
}

// Style returns the cell's style as in the screen JSON: "<fg>/<bg><flags>",
// with bold p0–p7 reported as p8–p15 and reverse given as a flag only.
func (c Cell) Style() string { return string(c.appendStyle(nil)) }

func (c Cell) appendStyle(b []byte) []byte {
	fg := c.FG
	if n, ok := fg.Palette(); ok && n < 8 && c.Attr&AttrBold != 0 {
		fg = PaletteColor(n + 8)
	}
	b = fg.appendTo(b)
	b = append(b, '/')
	b = c.BG.appendTo(b)
	return c.Attr.appendTo(b)
}

// blankCell is an erased cell in the default style.
var blankCell = Cell{Text: " ", Width: 1}

// Cursor is the cursor position, zero-based. In the pending-wrap state after
// writing the last column the cursor stays on the last column, as in xterm.
type Cursor struct {
	X, Y int
}
