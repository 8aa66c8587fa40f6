package discovery

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tend/internal/testkit"
)

func TestDiscoveryFile(t *testing.T) {
	t.Parallel()
	dir := testkit.PrivateDir(t)
	d := &File{URL: "http://127.0.0.1:1/mcp", Token: "T", Socket: filepath.Join(dir, SocketName), Pid: os.Getpid()}
	if err := Write(dir, d); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(Path(dir))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat: %v %v", fi, err)
	}
	got, err := Read(dir)
	if err != nil || *got != *d {
		t.Fatalf("read %+v, %v", got, err)
	}
	// Ours is never "live" to ourselves, and a file naming another pid is
	// not ours to remove.
	if l, c, err := FindLive(dir); l != nil || c != nil || err != nil {
		t.Fatalf("findLive on our own file: %+v %v", l, err)
	}
	other := *d
	other.Pid = 1
	if err := Write(dir, &other); err != nil {
		t.Fatal(err)
	}
	Remove(dir)
	if _, err := os.Stat(Path(dir)); err != nil {
		t.Fatal("removed another tend's discovery file")
	}
	if err := Write(dir, d); err != nil {
		t.Fatal(err)
	}
	Remove(dir)
	if _, err := os.Stat(Path(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("our discovery file stayed: %v", err)
	}
	if err := os.WriteFile(Path(dir), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := FindLive(dir); err == nil {
		t.Fatal("garbage discovery file read without error")
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tend.json-") {
			t.Fatalf("temp file left: %s", e.Name())
		}
	}
}

func TestPidAlive(t *testing.T) {
	t.Parallel()
	if !pidAlive(os.Getpid()) {
		t.Fatal("we are not alive")
	}
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	if pidAlive(c.Process.Pid) || pidAlive(0) || pidAlive(-1) {
		t.Fatal("a reaped or bogus pid is alive")
	}
}
