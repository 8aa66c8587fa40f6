package vterm

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/<name>, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the golden file:\ngot:  %s\nwant: %s", name, got, want)
	}
}

// screenJSONInput exercises every part of the screen JSON format.
const screenJSONInput = "\x1b[31m日\x1b[mx e\u0301 \x1b[1;32mB\x1b[2;3;4;5;7;9;38;2;0;0;7;48;5;200mall\x1b[m\r\n" +
	"\x1b[1;91mbright\x1b[m \"q\\\x1b[?25l\r\n\x1b[3;7Hlast"

func TestScreenJSONGolden(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 3, screenJSONInput)
	got, err := s.MarshalScreenJSON()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "screen.golden.json", append(got, '\n'))

	// The format is valid JSON with the documented shape.
	var v struct {
		Cols, Rows    int
		CursorX       int  `json:"cursor_x"`
		CursorY       int  `json:"cursor_y"`
		CursorVisible bool `json:"cursor_visible"`
		AltScreen     bool `json:"alt_screen"`
		Cells         [][]struct {
			T string
			W int
			S string
		}
	}
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatal(err)
	}
	if v.Cols != 10 || v.Rows != 3 || len(v.Cells) != 3 || len(v.Cells[0]) != 10 || v.CursorVisible || v.CursorX != 9 || v.CursorY != 2 {
		t.Fatalf("shape: %+v", v)
	}
	first := v.Cells[0][:2]
	if first[0].T != "日" || first[0].W != 2 || first[0].S != "p1/" || first[1].T != "" || first[1].W != 0 {
		t.Fatalf("wide cell: %+v", first)
	}
}

func TestSnapshotText(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 3, screenJSONInput)
	want := "日x e\u0301 Ball\nbright \"q\\\n      last"
	if got := s.Text(); got != want {
		t.Fatalf("Text() = %q, want %q", got, want)
	}
	if strings.Count(s.Text(), "\n") != 2 {
		t.Fatal("rows are joined by \\n")
	}
}

func TestReplay(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/diff/vim.bytes")
	if err != nil {
		t.Fatal(err)
	}
	tm, err := Replay(bytes.NewReader(raw), 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	whole := New(80, 24)
	_, _ = whole.Write(raw)
	a, _ := tm.Snapshot().MarshalScreenJSON()
	b, _ := whole.Snapshot().MarshalScreenJSON()
	if !bytes.Equal(a, b) {
		t.Fatal("Replay differs from one Write of the whole stream")
	}
	// Replay writes in 4096-byte chunks, so a rune split at a chunk edge survives.
	stream := append(bytes.Repeat([]byte("a"), 4095), "日本"...)
	tm, _ = Replay(bytes.NewReader(stream), 80, 60)
	if got := tm.Snapshot().Text(); !strings.Contains(got, "日本") {
		t.Fatal("rune split across chunks lost")
	}
	if _, err := Replay(errReader{}, 80, 24); err == nil {
		t.Fatal("a read error is not reported")
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, os.ErrClosed }
