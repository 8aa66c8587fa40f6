package vterm

import (
	"github.com/hinshun/vt10x"
	"github.com/mattn/go-runewidth"
)

// vt10x stores one rune per cell and knows nothing of width. vterm writes
// two kinds of stand-in runes into it instead of the application's text:
//
//   - placeholderRune, a noncharacter, in the right half of a wide character;
//   - a rune from Unicode plane 16 (private use) for a grapheme cluster (a base
//     with combining marks) or for an application rune that is itself in that
//     plane or is the placeholder; the cluster table maps it back to text.
//
// vt10x moves these runes with the cells through scrolls, inserts and
// deletes, so the snapshot can read the real text back whatever happened.
const (
	placeholderRune = '\uFDD0'
	clusterBase     = 0x100000
	maxClusters     = 0xFFFE // U+100000 … U+10FFFD
	maxClusterBytes = 64     // a longer cluster stops growing: marks are dropped
)

func clusterID(r rune) (uint32, bool) {
	if r >= clusterBase && r < clusterBase+maxClusters {
		return uint32(r - clusterBase), true
	}
	return 0, false
}

// needsCluster reports whether r cannot be written to vt10x as itself.
func needsCluster(r rune) bool {
	_, ok := clusterID(r)
	return ok || r == placeholderRune
}

type clusterTable struct {
	ids  map[string]uint32
	list []string
	free []uint32
}

func newClusterTable() clusterTable { return clusterTable{ids: map[string]uint32{}} }

func (ct *clusterTable) id(s string) (uint32, bool) {
	if id, ok := ct.ids[s]; ok {
		return id, true
	}
	var id uint32
	switch {
	case len(ct.free) > 0:
		id = ct.free[len(ct.free)-1]
		ct.free = ct.free[:len(ct.free)-1]
		ct.list[id] = s
	case len(ct.list) < maxClusters:
		id = uint32(len(ct.list))
		ct.list = append(ct.list, s)
	default:
		return 0, false
	}
	ct.ids[s] = id
	return id, true
}

func (ct *clusterTable) text(id uint32) string {
	if int(id) < len(ct.list) {
		return ct.list[id]
	}
	return "\uFFFD"
}

func (ct *clusterTable) sweep(used map[uint32]bool) {
	for id := range ct.list {
		if used[uint32(id)] {
			continue
		}
		s := ct.list[id]
		if cur, ok := ct.ids[s]; ok && cur == uint32(id) {
			delete(ct.ids, s)
			ct.free = append(ct.free, uint32(id))
		}
	}
}

// clusterRune returns the stand-in rune for text s, or U+FFFD if the table
// is full even after collecting garbage.
func (t *Term) clusterRune(s string) rune {
	id, ok := t.clusters.id(s)
	if !ok {
		t.collectGarbage()
		if id, ok = t.clusters.id(s); !ok {
			return '\uFFFD'
		}
	}
	return rune(clusterBase + id)
}

// vtStyleID returns the style id a vt10x cell carries in its foreground.
func vtStyleID(fg vt10x.Color) uint32 {
	if fg >= vt10x.DefaultFG {
		return 0
	}
	return uint32(fg) & 0xffffff
}

// widthCond is fixed rather than taken from the environment, so a screen
// does not change with the locale of the process that renders it.
var widthCond = func() *runewidth.Condition {
	c := runewidth.NewCondition()
	c.EastAsianWidth = false
	return c
}()

// runeWidth is the number of cells r takes: 0 for combining marks and other
// zero-width runes, 2 for wide (East Asian wide, emoji) ones, else 1.
func runeWidth(r rune) int {
	if r < 0x300 {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			return 0
		}
		return 1
	}
	return widthCond.RuneWidth(r)
}
