package vterm

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fuzzSeeds are the quirk streams plus the start of each recording.
func fuzzSeeds(f *testing.F) [][]byte {
	f.Helper()
	seeds := [][]byte{
		[]byte("a\xe6\x97\xa5b\x1b[31mred\x1b[m\r\n"),
		[]byte("\x1b[-1@\x1b[-1P\x1b[9223372036854775807I\x1b[99999Z\x1b[;5Hx"),
		[]byte("\x1b[?u\x1b[>4;2m\x1b[>1u\x1b[<u\x1b[?1049h\x1b[?1049l\x1b[?1049l"),
		[]byte("ab\x1b[3b\x1b[4hIN\x1b[4l\x1b[38:2::1:2:3m\x1bc\x1b[2;3H\x1b[1J"),
		[]byte("日本語\u0301😀\x1b[10;79H日\x1b(0lqk\x1b(B\x0e\x0f\x1b]0;title\a"),
		[]byte("\x1b[2;5r\x1b[5;1H\n\n\n\x1b[S\x1b[T\x1bM\x1bD\x1bE\x1b7\x1b8\x1b[s\x1b[u\x1b#8"),
		[]byte("\x1b]0;" + string(bytes.Repeat([]byte("x"), 5000)) + "\x1b\\OK\x1bP" + "zz\x1b\\"),
	}
	paths, _ := filepath.Glob("testdata/diff/*.bytes")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err == nil {
			seeds = append(seeds, b[:min(len(b), 6000)])
		}
	}
	return seeds
}

// screenState is everything a split of the input must not change.
func screenState(t *testing.T, tm *Term) []byte {
	t.Helper()
	checkShadow(t, tm)
	s := tm.Snapshot()
	checkSnapshot(t, s)
	j, err := s.MarshalScreenJSON()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(j)
	b.WriteString(s.Title)
	b.WriteString(modesString(s.Modes))
	for _, l := range tm.Scrollback() {
		b.WriteString("\n" + l.Text())
	}
	return b.Bytes()
}

func modesString(m Modes) string {
	var b bytes.Buffer
	for _, v := range []bool{m.AppCursor, m.AppKeypad, m.BracketedPaste, m.SyncOutput, m.FocusEvents, m.CursorVisible, m.Insert, m.AutoWrap, m.Origin, m.NewLine} {
		if v {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	b.WriteByte(byte(m.Mouse) + '0')
	b.WriteByte(byte(m.MouseEncoding) + '0')
	b.WriteByte(byte(m.CursorStyle) + '0')
	return b.String()
}

// checkSnapshot asserts the invariants every snapshot keeps.
func checkSnapshot(t *testing.T, s *Snapshot) {
	t.Helper()
	if len(s.Cells) != s.Rows || s.Cursor.X < 0 || s.Cursor.X >= s.Cols || s.Cursor.Y < 0 || s.Cursor.Y >= s.Rows {
		t.Fatalf("snapshot %dx%d with %d rows, cursor %v", s.Cols, s.Rows, len(s.Cells), s.Cursor)
	}
	for y, row := range s.Cells {
		if len(row) != s.Cols {
			t.Fatalf("row %d has %d cells", y, len(row))
		}
		for x, c := range row {
			switch c.Width {
			case 2:
				if x+1 >= len(row) || row[x+1].Width != 0 {
					t.Fatalf("wide cell %d,%d without its right half", x, y)
				}
			case 0:
				if x == 0 || row[x-1].Width != 2 || c.Text != "" {
					t.Fatalf("right half %d,%d without its wide cell", x, y)
				}
			case 1:
				if c.Text == "" {
					t.Fatalf("empty narrow cell %d,%d", x, y)
				}
			default:
				t.Fatalf("cell %d,%d width %d", x, y, c.Width)
			}
		}
	}
}

// FuzzWriteChunking: splitting the input anywhere must not change the screen.
func FuzzWriteChunking(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, []byte{1, 7, 3})
	}
	f.Fuzz(func(t *testing.T, data, splits []byte) {
		if len(data) > 1<<16 {
			return
		}
		whole := New(30, 8, WithScrollback(20))
		_, _ = whole.Write(data)

		split := New(30, 8, WithScrollback(20))
		rest := data
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if i < len(splits) {
				n = min(int(splits[i])+1, n)
			}
			_, _ = split.Write(rest[:n])
			rest = rest[n:]
		}
		a, b := screenState(t, whole), screenState(t, split)
		if !bytes.Equal(a, b) {
			t.Fatalf("split changed the screen\nwhole: %s\nsplit: %s", a, b)
		}
	})
}

// FuzzWrite: hostile bytes interleaved with resizes must neither panic nor
// hang. 0xFF, 0xFE introduce a resize to the two following bytes; sizes
// past MaxSize must be rejected.
func FuzzWrite(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte("abc\xff\x05\x03def\xfe\xff\xffghi\xff\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan struct{})
		tm := New(20, 6)
		go func() {
			defer close(done)
			for len(data) > 0 {
				i := bytes.IndexAny(data, "\xfe\xff")
				if i < 0 {
					_, _ = tm.Write(data)
					return
				}
				_, _ = tm.Write(data[:i])
				if i+2 >= len(data) {
					return
				}
				cols, rows := int(data[i+1])%90, int(data[i+2])%40
				if data[i] == 0xfe {
					cols, rows = cols*16, rows*32 // sometimes beyond MaxSize
				}
				err := tm.Resize(cols, rows)
				if valid := cols >= 1 && rows >= 1 && cols <= MaxSize && rows <= MaxSize; valid != (err == nil) {
					t.Errorf("Resize(%d, %d) = %v", cols, rows, err)
				}
				data = data[i+3:]
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("Write or Resize hangs")
		}
		if tm.Panics() != 0 {
			t.Fatalf("%d panics recovered", tm.Panics())
		}
		checkShadow(t, tm)
		checkSnapshot(t, tm.Snapshot())
	})
}
