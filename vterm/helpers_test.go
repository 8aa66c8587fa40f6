package vterm

import "testing"

// feed writes each input in its own Write and returns the snapshot.
func feed(t *testing.T, cols, rows int, inputs ...string) (*Term, *Snapshot) {
	t.Helper()
	tm := New(cols, rows)
	for _, in := range inputs {
		if n, err := tm.Write([]byte(in)); n != len(in) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", in, n, err)
		}
	}
	checkShadow(t, tm)
	return tm, tm.Snapshot()
}

// checkShadow asserts that vterm's shadow cursor agrees with vt10x's.
func checkShadow(t testing.TB, tm *Term) {
	t.Helper()
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if !tm.curOK {
		return
	}
	c := tm.vt.Cursor()
	if c.X != tm.cx || c.Y != tm.cy || (c.State&vtCursorWrapNext != 0) != tm.wrapNext || (c.State&vtCursorOrigin != 0) != tm.modes.Origin {
		t.Fatalf("shadow cursor %d,%d wrap=%v origin=%v; vt10x %d,%d state=%d", tm.cx, tm.cy, tm.wrapNext, tm.modes.Origin, c.X, c.Y, c.State)
	}
}

func line(s *Snapshot, y int) string { return rowText(s.Cells[y]) }
