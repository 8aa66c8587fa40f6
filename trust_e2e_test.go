package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/internal/discovery"
	"tend/internal/testkit"
)

// fakeServer is a unix socket server run as uid 65534 that records how
// many bytes each connection sent it.
const fakeServer = `
import socket, sys, os
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(8)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    n = 0
    c.settimeout(5)
    try:
        while True:
            b = c.recv(65536)
            if not b: break
            n += len(b)
    except OSError:
        pass
    with open(sys.argv[2], "a") as f: f.write("%d\n" % n)
    c.close()
`

// tend mcp trusts only its own user's tend: a discovery file or socket
// that another user owns, or a server another user runs behind a socket
// that looks like ours, is not bridged to. tend mcp says why and serves
// the agent itself, and the fake server receives nothing.
func TestBridgeTrustsOnlyItsOwnUser(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a server as uid 65534")
	}
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("needs /usr/bin/python3 for the fake server")
	}
	for _, tc := range []struct {
		name  string
		forge func(t *testing.T, disc, sock string)
		want  string
	}{
		{"discovery file of another user", func(t *testing.T, disc, sock string) {
			chown(t, disc, 65534)
		}, "owned by uid 65534"},
		{"socket of another user", func(t *testing.T, disc, sock string) {}, "owned by uid 65534"},
		{"server of another user behind our socket", func(t *testing.T, disc, sock string) {
			chown(t, sock, 0)
			if err := os.Chmod(sock, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "runs as uid 65534"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			shared, err := os.MkdirTemp("", "tend-fake-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(shared) })
			os.Chmod(shared, 0o777)
			sock, got := filepath.Join(shared, "tend.sock"), filepath.Join(shared, "got")
			srv := exec.Command(py, "-c", fakeServer, sock, got)
			srv.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			out, err := srv.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := srv.Start(); err != nil {
				t.Skipf("cannot run python3 as uid 65534: %v", err)
			}
			t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
			if b := make([]byte, 5); func() bool { n, _ := out.Read(b); return string(b[:n]) != "ready" }() {
				t.Skip("the fake server did not start")
			}
			// A live pid that is not ours to be: the fake server's.
			state := testkit.PrivateDir(t)
			d := &discovery.File{URL: "http://127.0.0.1:1/mcp", Token: "forged", Socket: sock, Pid: srv.Process.Pid}
			if err := discovery.Write(state, d); err != nil {
				t.Fatal(err)
			}
			tc.forge(t, discovery.Path(state), sock)

			stderr := &lockedBuf{}
			cmd := exec.Command(tendBin, "mcp", "--state-dir", state, "--grace", "300ms")
			cmd.Stderr = stderr
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, stderr)
			}
			var env struct {
				Stdout string `json:"stdout"`
			}
			testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo served here"}, &env)
			cs.Close()
			if env.Stdout != "served here\n" || !strings.Contains(cs.InitializeResult().Instructions, "headless") {
				t.Fatalf("not served headless: %q, %q", env.Stdout, cs.InitializeResult().Instructions)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("tend mcp did not say why (%q):\n%s", tc.want, stderr)
			}
			b, _ := os.ReadFile(got)
			for _, n := range strings.Fields(string(b)) {
				if n != "0" {
					t.Fatalf("the fake server received %s bytes", n)
				}
			}
		})
	}
}

func chown(t *testing.T, path string, uid int) {
	t.Helper()
	if err := os.Lchown(path, uid, uid); err != nil {
		t.Fatal(err)
	}
}
