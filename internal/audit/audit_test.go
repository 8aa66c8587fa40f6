package audit

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// On a full disk a record is written whole or not at all: every line of
// the log parses, however many writes failed.
func TestWholeOrAbsent(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "tiny")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	written, failed := 0, 0
	for i := range 2000 {
		r := Record{Kind: KindCall, Tool: "terminal_exec", Args: strings.Repeat("x", 50+i%300)}
		if l.Write(r) {
			written++
		} else {
			failed++
		}
	}
	l.Close()
	if failed == 0 {
		t.Fatal("the disk never filled: the test did not exercise a failed write")
	}
	f, err := os.Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d does not parse: %v", lines+1, err)
		}
	}
	if lines != written {
		t.Fatalf("%d lines for %d records written (%d failed)", lines, written, failed)
	}
}

// A link planted where the audit log goes is refused, not followed.
func TestOpenRefusesALink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "theirs")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if l, err := Open(dir); err == nil {
		l.Close()
		t.Fatal("the audit log was opened through a link")
	}
}
