package main

import (
	"errors"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tend/engine"
	"tend/mcpserver"
)

func TestDiscoveryFile(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	d := &discovery{URL: "http://127.0.0.1:1/mcp", Token: "T", Socket: filepath.Join(dir, socketName), Pid: os.Getpid()}
	if err := writeDiscovery(dir, d); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(discoveryPath(dir))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat: %v %v", fi, err)
	}
	got, err := readDiscovery(dir)
	if err != nil || *got != *d {
		t.Fatalf("read %+v, %v", got, err)
	}
	// Ours is never "live" to ourselves, and a file naming another pid is
	// not ours to remove.
	if l, c, err := findLive(dir); l != nil || c != nil || err != nil {
		t.Fatalf("findLive on our own file: %+v %v", l, err)
	}
	other := *d
	other.Pid = 1
	if err := writeDiscovery(dir, &other); err != nil {
		t.Fatal(err)
	}
	removeDiscovery(dir)
	if _, err := os.Stat(discoveryPath(dir)); err != nil {
		t.Fatal("removed another tend's discovery file")
	}
	if err := writeDiscovery(dir, d); err != nil {
		t.Fatal(err)
	}
	removeDiscovery(dir)
	if _, err := os.Stat(discoveryPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("our discovery file stayed: %v", err)
	}
	if err := os.WriteFile(discoveryPath(dir), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := findLive(dir); err == nil {
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

// startServers in-process, as the TUI hosts it: the discovery file, a
// second start refused while the first serves, and a clean restart.
func TestStartServers(t *testing.T) {
	t.Parallel()
	dir := stateDir(t)
	e, err := engine.New(engine.Config{StateDir: dir, Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	srv := mcpserver.New(e, mcpserver.Options{Version: "test"})
	o := serveOptions{stateDir: dir, port: 0, logger: slog.New(slog.DiscardHandler)}
	s, err := startServers(t.Context(), srv, o)
	if err != nil {
		t.Fatal(err)
	}
	d, err := readDiscovery(dir)
	if err != nil || d.URL != s.URL || d.Token != s.Token || d.Socket != s.Socket || d.Pid != os.Getpid() {
		t.Fatalf("discovery %+v for %+v (%v)", d, s, err)
	}
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Fatalf("URL %s", s.URL)
	}
	// Another process would see it live; in-process, findLive skips our own
	// pid, so fake a second tend by rewriting the pid to our parent's.
	d.Pid = os.Getppid()
	if err := writeDiscovery(dir, d); err != nil {
		t.Fatal(err)
	}
	if _, err := startServers(t.Context(), srv, o); !errors.Is(err, errLive) {
		t.Fatalf("second start: %v, want errLive", err)
	}
	d.Pid = os.Getpid()
	if err := writeDiscovery(dir, d); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, p := range []string{discoveryPath(dir), s.Socket} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s left after Close: %v", p, err)
		}
	}
	if _, err := net.Dial("unix", s.Socket); err == nil {
		t.Fatal("socket still accepts")
	}
	s2, err := startServers(t.Context(), srv, o)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	s2.Close()
}

// S9: a process of another uid cannot connect to the socket at all (the
// directory is 0700). Needs root, to run the client as nobody, and python3.
func TestSocketRefusesOtherUID(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as uid 65534")
	}
	// A system python3 (a shim under /root would not run as nobody).
	py := ""
	for _, p := range []string{"/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"} {
		if _, err := os.Stat(p); err == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Skip("needs a system python3 for a unix-socket client")
	}
	s := startServe(t, stateDir(t))
	// The client must reach python3 and the socket path's parents: t.TempDir
	// is 0700, so open the parents but not the state dir itself.
	for p := filepath.Dir(s.state); p != "/" && p != os.TempDir(); p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(py, "-c", "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ntry:\n s.connect(sys.argv[1]); print('CONNECTED')\nexcept OSError as e:\n print('refused', e)", s.disc.Socket)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/"}
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "refused") {
		t.Skipf("python3 as uid 65534 did not run: %v: %s", err, out)
	}
	if !strings.Contains(string(out), "refused") || strings.Contains(string(out), "CONNECTED") {
		t.Fatalf("uid 65534: %s", out)
	}
	t.Logf("uid 65534: %s", strings.TrimSpace(string(out)))
}
