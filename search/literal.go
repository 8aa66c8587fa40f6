package search

// The Go walk's prefilter: most patterns hold a literal (or one of a few), and
// finding those with bytes.Index is far faster than running the regexp over a
// whole file, so the regexp only runs on the lines that hold one.

import (
	"bytes"
	"encoding/binary"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// literal is a literal that matches may hold.
type literal struct {
	b    []byte
	fold bool // matched without regard to ASCII case; b is lower case
}

// maxLiterals bounds the alternatives a prefilter looks for.
const maxLiterals = 8

// required gives literals one of which every match of re holds (nil if
// it finds none). A literal matched regardless of case keeps only its longest
// part of ASCII other than k and s, which also fold to non-ASCII (the Kelvin
// sign, long s): any part of a required literal is required too.
func required(re *syntax.Regexp) []literal {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return []literal{{b: []byte(string(re.Rune))}}
		}
		best := ""
		for _, part := range strings.FieldsFunc(strings.ToLower(string(re.Rune)), func(r rune) bool {
			return r >= utf8.RuneSelf || r == 'k' || r == 's'
		}) {
			if len(part) > len(best) {
				best = part
			}
		}
		if best == "" {
			return nil
		}
		return []literal{{b: []byte(best), fold: strings.ContainsFunc(best, func(r rune) bool { return 'a' <= r && r <= 'z' })}}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat: // the part whose shortest literal is longest
		var best []literal
		for _, sub := range re.Sub {
			if l := required(sub); shortest(l) > shortest(best) ||
				(shortest(l) == shortest(best) && len(l) < len(best)) {
				best = l
			}
		}
		return best
	case syntax.OpAlternate: // one literal from each branch
		var all []literal
		for _, sub := range re.Sub {
			l := required(sub)
			if l == nil {
				return nil
			}
			all = append(all, l...)
		}
		if len(all) > maxLiterals {
			return nil
		}
		return all
	}
	return nil
}

func shortest(ls []literal) int {
	if len(ls) == 0 {
		return 0
	}
	n := len(ls[0].b)
	for _, l := range ls[1:] {
		n = min(n, len(l.b))
	}
	return n
}

// finder finds the literals in one file, remembering where each occurs
// next so that none is looked for twice over the same bytes.
type finder struct {
	lits  []literal
	data  []byte
	lower []byte // data with ASCII in lower case, for the fold literals
	next  []int  // per literal: where it next occurs at or after the last from; -1 unknown
}

// reset starts on data.
func (f *finder) reset(lits []literal, data []byte) {
	f.lits, f.data = lits, data
	f.next = f.next[:0]
	fold := false
	for _, l := range lits {
		f.next = append(f.next, -1)
		fold = fold || l.fold
	}
	if fold {
		if cap(f.lower) < len(data) {
			f.lower = make([]byte, len(data), len(data)+len(data)/8)
		}
		f.lower = f.lower[:len(data)]
		lowerASCII(f.lower, data)
	}
}

// find gives the first place at or after from where a literal starts, or -1.
func (f *finder) find(from int) int {
	best := -1
	for i, l := range f.lits {
		if f.next[i] != -1 && f.next[i] < from && f.next[i] <= len(f.data) {
			f.next[i] = -1 // passed
		}
		if f.next[i] == -1 {
			hay := f.data
			if l.fold {
				hay = f.lower
			}
			f.next[i] = len(f.data) + 1 // none
			if from <= len(hay) {
				if j := bytes.Index(hay[from:], l.b); j >= 0 {
					f.next[i] = from + j
				}
			}
		}
		if n := f.next[i]; n <= len(f.data) && (best < 0 || n < best) {
			best = n
		}
	}
	return best
}

// lowerASCII writes src to dst with ASCII letters in lower case, eight
// bytes at a time.
func lowerASCII(dst, src []byte) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(src); i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		low := x &^ highs                                  // each byte's low seven bits
		geA := low + (0x80-'A')*ones                       // high bit: >= 'A'
		gtZ := low + (0x80-'Z'-1)*ones                     // high bit: > 'Z'
		upper := geA &^ gtZ &^ x & highs                   // high bit: an ASCII capital
		binary.LittleEndian.PutUint64(dst[i:], x|upper>>2) // 0x80>>2 is the case bit
	}
	for ; i < len(src); i++ {
		c := src[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
}
