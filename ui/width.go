package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Widths: what a job prints, an agent's command line and the like may hold
// grapheme clusters whose width is not agreed on. A ZWJ emoji sequence
// ("👩‍💻") is one cluster two cells wide to lipgloss and to a terminal with
// Unicode grapheme clustering (mode 2027), but four cells to wcwidth, which
// programs, vterm and Bubble Tea's renderer use until the terminal says it
// clusters; an emoji with VS16 ("❤️") or a keycap is two cells one way and
// one the other. A line measured one way and drawn the other has its right
// border pushed off or pulled in. So every cluster on which the two
// disagree is drawn as what both count alike: its runes that have a width,
// each alone ("👩💻", "❤"), and blanks for one that would still join (a skin
// tone). Its width is then wcwidth's, as vterm laid it out.

// termSafe returns s, styled or not, with every grapheme cluster whose
// width the two ways of measuring disagree on replaced as described
// above, and its width in cells (the same both ways).
func termSafe(s string) (string, int) {
	if !needsCheck(s) {
		return s, ansi.StringWidth(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	width := 0
	var state byte
	for rest := s; len(rest) > 0; {
		seq, w, n, next := ansi.DecodeSequence(rest, state, nil)
		if n <= 0 {
			n, seq = 1, rest[:1]
		}
		// The decoder takes printable ASCII a byte at a time, but a mark
		// after it joins it ("1️⃣", "e\u0301"): take the whole cluster.
		if n == 1 && seq[0] > 0x1f && seq[0] < 0x7f && len(rest) > 1 && rest[1] >= 0xc0 {
			if cl, _ := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth); len(cl) > 1 {
				seq, n = cl, len(cl)
			}
		}
		state = next
		rest = rest[n:]
		if len(seq) == 1 || seq[0] == ansi.ESC { // ASCII, or an escape sequence: no cluster to agree on
			b.WriteString(seq)
			width += w
			continue
		}
		g, gw := safeCluster(seq)
		b.WriteString(g)
		width += gw
	}
	return b.String(), width
}

// safe is s as termSafe draws it, for text that is measured, cut or
// padded before it is drawn (a job's command in a column).
func safe(s string) string {
	s, _ = termSafe(s)
	return s
}

// cell cuts s to w cells ("…" where cut) and pads it to w.
func cell(s string, w int) string {
	return pad(ansi.Truncate(safe(s), w, "…"), w)
}

// plainRunes are ranges of runes that both ways of measuring count alike,
// none of them zero-width, and that join nothing into a cluster: Latin-1
// and its extensions, punctuation, arrows, box drawing, symbols (the UI's
// own ·, │, ●, ✓ …), CJK and Hangul syllables. Half-open.
var plainRunes = [][2]rune{
	{0xa0, 0xad}, {0xae, 0x300}, {0x2000, 0x200b}, {0x2010, 0x2028}, {0x202f, 0x2060},
	{0x2070, 0x20d0}, {0x20f1, 0x2cef}, {0x3000, 0x302a}, {0x3030, 0x3099}, {0x309b, 0xa66f},
	{0xac00, 0xd7a4},
}

// needsCheck reports whether s holds a rune on which, alone or joined to
// its neighbours, the two ways of measuring may disagree: one outside
// ASCII (escape sequences are ASCII) and plainRunes.
func needsCheck(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		plain := false
		for _, rg := range plainRunes {
			if r >= rg[0] && r < rg[1] {
				plain = true
				break
			}
		}
		if !plain {
			return true
		}
	}
	return false
}

// safeCluster returns grapheme cluster g as something every way of
// measuring agrees is w cells wide, w being g's wcwidth.
func safeCluster(g string) (string, int) {
	wc := ansi.StringWidthWc(g)
	if ansi.StringWidth(g) == wc {
		return g, wc
	}
	var b strings.Builder
	for _, r := range g {
		rw := ansi.StringWidthWc(string(r))
		if rw == 0 {
			continue // a joiner, a variation selector, a combining mark
		}
		if cand := b.String() + string(r); ansi.StringWidth(cand) == ansi.StringWidthWc(cand) {
			b.WriteRune(r)
			continue
		}
		b.WriteString(strings.Repeat(" ", rw)) // it would join what is before it
	}
	return b.String(), wc
}

const zwj = "\u200d" // ZERO WIDTH JOINER

// cellText is a PTY cell's text as drawn: something every way of measuring
// agrees is width cells wide (what vterm laid out), and that cannot join
// the cell before it (prev, as drawn) into one cluster of another width.
func cellText(prev, text string, width int) string {
	if !needsCheck(text) {
		return text
	}
	// A joiner at the end of a cell would join the next one, even across
	// the escape sequence of a change of colour on some terminals.
	text = strings.ReplaceAll(text, zwj, "")
	t, w := safeCluster(text)
	if w != width || ansi.StringWidth(t) != width {
		return strings.Repeat(" ", width)
	}
	if prev != "" && needsCheck(prev) {
		joined := prev + t
		if first, _ := ansi.FirstGraphemeCluster(joined, ansi.GraphemeWidth); len(first) > len(prev) {
			// It joins: keep it only if both ways still count the two cells.
			if ansi.StringWidth(joined) != ansi.StringWidthWc(joined) || ansi.StringWidthWc(joined) != ansi.StringWidthWc(prev)+width {
				return strings.Repeat(" ", width)
			}
		}
	}
	return t
}
