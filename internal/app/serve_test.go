package app

import (
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"tend/internal/discovery"
	"tend/internal/testkit"
)

func open(t *testing.T, dir string) *App {
	t.Helper()
	a, err := Open(Options{StateDir: dir, Grace: 300 * time.Millisecond, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// Serving in-process, as the terminal UI does: the discovery file, a
// second start refused while the first serves, and a clean restart.
func TestServe(t *testing.T) {
	t.Parallel()
	dir := testkit.PrivateDir(t)
	a := open(t, dir)
	s, err := a.Serve(t.Context(), 0, false)
	if err != nil {
		t.Fatal(err)
	}
	d, err := discovery.Read(dir)
	if err != nil || d.URL != s.URL || d.Token != s.Token || d.Socket != s.Socket || d.Pid != os.Getpid() {
		t.Fatalf("discovery %+v for %+v (%v)", d, s, err)
	}
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Fatalf("URL %s", s.URL)
	}
	// Another process would see it live; in-process, FindLive skips our own
	// pid, so fake a second tend by rewriting the pid to our parent's.
	d.Pid = os.Getppid()
	if err := discovery.Write(dir, d); err != nil {
		t.Fatal(err)
	}
	if err := Available(dir); !errors.Is(err, ErrLive) {
		t.Fatalf("Available while served: %v, want ErrLive", err)
	}
	if _, err := a.Serve(t.Context(), 0, false); !errors.Is(err, ErrLive) {
		t.Fatalf("second start: %v, want ErrLive", err)
	}
	d.Pid = os.Getpid()
	if err := discovery.Write(dir, d); err != nil {
		t.Fatal(err)
	}
	a.Close()
	for _, p := range []string{discovery.Path(dir), s.Socket} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s left after Close: %v", p, err)
		}
	}
	if _, err := net.Dial("unix", s.Socket); err == nil {
		t.Fatal("socket still accepts")
	}
	b := open(t, dir)
	if _, err := b.Serve(t.Context(), 0, false); err != nil {
		t.Fatalf("restart: %v", err)
	}
}

// A port another program holds is an error that says what to do, unless
// any port will do.
func TestServePortTaken(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	a := open(t, testkit.PrivateDir(t))
	if _, err := a.Serve(t.Context(), port, false); err == nil || !strings.Contains(err.Error(), "--port 0") {
		t.Fatalf("taken port: %v, want an error suggesting --port 0", err)
	}
	s, err := a.Serve(t.Context(), port, true)
	if err != nil || strings.HasSuffix(s.URL, ":"+strconv.Itoa(port)+"/mcp") {
		t.Fatalf("any port: %+v %v", s, err)
	}
}
