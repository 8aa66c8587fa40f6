package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/internal/testkit"
)

// serveSocket serves a new server over e on a socket in a private dir.
func serveSocket(t *testing.T, e *engine.Engine, o SocketOptions) string {
	t.Helper()
	path := filepath.Join(testkit.PrivateDir(t), "s")
	ln, err := ListenSocket(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(e, Options{Version: "test"}).ServeSocket(ctx, ln, o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeSocket: %v", err)
		}
	})
	return path
}

func connectSocket(t *testing.T, path, name string) *mcp.ClientSession {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: name, Version: "2.0"}, nil)
	cs, err := cl.Connect(t.Context(), &mcp.IOTransport{Reader: c, Writer: c}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", name, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestSocketModes(t *testing.T) {
	t.Parallel()
	dir := testkit.PrivateDir(t)
	path := filepath.Join(dir, "tend.sock")
	ln, err := ListenSocket(path)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %#o, want %#o", p, fi.Mode().Perm(), want)
		}
	}
	// A second listen replaces the socket only because the caller said no
	// live tend owns it; closing the listener removes the file.
	ln.Close()
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("socket left after close: %v", err)
	}
}

func TestSocketRefusesBadDir(t *testing.T) {
	t.Parallel()
	open := t.TempDir()
	if err := os.Chmod(open, 0o755); err != nil {
		t.Fatal(err)
	}
	other := testkit.PrivateDir(t)
	if os.Getuid() == 0 {
		if err := os.Chown(other, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	notSock := testkit.PrivateDir(t)
	if err := os.WriteFile(filepath.Join(notSock, "s"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(testkit.PrivateDir(t), link); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"mode 0755":              filepath.Join(open, "s"),
		"a file is in the way":   filepath.Join(notSock, "s"),
		"the dir is a symlink":   filepath.Join(link, "s"),
		"missing dir":            filepath.Join(open, "nope", "s"),
		"path over 107 bytes":    filepath.Join(testkit.PrivateDir(t), strings.Repeat("x", 120)),
		"owned by someone else ": filepath.Join(other, "s"),
	}
	if os.Getuid() != 0 {
		delete(cases, "owned by someone else ")
	}
	for name, path := range cases {
		t.Run(name, func(t *testing.T) {
			ln, err := ListenSocket(path)
			if err == nil {
				ln.Close()
				t.Fatalf("listened on %s", path)
			}
			t.Log(err)
		})
	}
}

// Two agents over the socket at once share one engine: each sees the
// other's jobs, with both client names as origins.
func TestSocketTwoClients(t *testing.T) {
	t.Parallel()
	path := serveSocket(t, newEngine(t, engine.Config{}), SocketOptions{})
	a := connectSocket(t, path, "agent-a")
	b := connectSocket(t, path, "agent-b")
	testkit.CallOK(t, a, "terminal_job_start", map[string]any{"command": "sleep 600", "startup_wait_sec": 0}, nil)
	testkit.CallOK(t, b, "terminal_exec", map[string]any{"command": "echo hi"}, nil)
	for _, cs := range []*mcp.ClientSession{a, b} {
		var list struct {
			Jobs []jobInfo `json:"jobs"`
		}
		testkit.CallOK(t, cs, "terminal_job_manage", map[string]any{"action": "list"}, &list)
		var clients, sessions []string
		for _, j := range list.Jobs {
			clients = append(clients, j.Origin.Client+" "+j.Origin.Version)
			sessions = append(sessions, j.Origin.Session)
		}
		slices.Sort(clients)
		if !slices.Equal(clients, []string{"agent-a 2.0", "agent-b 2.0"}) {
			t.Fatalf("origins %q", clients)
		}
		if sessions[0] == "" || sessions[0] == sessions[1] {
			t.Fatalf("sessions %q, want two distinct ones", sessions)
		}
	}
}

// A peer whose SO_PEERCRED uid is not the one served is dropped unread.
func TestSocketDropsOtherUID(t *testing.T) {
	t.Parallel()
	other := os.Getuid() + 12345
	path := serveSocket(t, newEngine(t, engine.Config{}), SocketOptions{UID: &other})
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte(initBody + "\n"))
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := c.Read(make([]byte, 100))
	if err != io.EOF && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("read %d bytes, %v: want the connection closed", n, err)
	}
	if cred, err := peerCred(c.(*net.UnixConn)); err != nil || int(cred.Uid) != os.Getuid() {
		t.Fatalf("peerCred = %+v, %v", cred, err)
	}
}

// The bridge carries a session byte for byte; when the agent's input ends
// it closes the socket and the server keeps the job.
func TestBridge(t *testing.T) {
	t.Parallel()
	e := newEngine(t, engine.Config{})
	path := serveSocket(t, e, SocketOptions{})
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	agentOut, bridgeIn := io.Pipe() // agent → bridge
	bridgeOut, agentIn := io.Pipe() // bridge → agent
	done := make(chan error, 1)
	none := func() (net.Conn, int, error) { return nil, 0, nil }
	go func() { done <- Bridge(t.Context(), c, none, agentOut, agentIn, slog.New(slog.DiscardHandler)) }()
	cl := mcp.NewClient(&mcp.Implementation{Name: "bridged", Version: "3"}, nil)
	cs, err := cl.Connect(t.Context(), &mcp.IOTransport{Reader: bridgeOut, Writer: bridgeIn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "tend" {
		t.Fatalf("server %q", got)
	}
	var started struct {
		JobID engine.JobID `json:"job_id"`
	}
	testkit.CallOK(t, cs, "terminal_job_start", map[string]any{"command": "sleep 600", "startup_wait_sec": 0}, &started)
	bridgeIn.Close() // the agent's stdin ends
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Bridge: %v", err)
		}
	case <-time.After(BridgeLinger + 5*time.Second):
		t.Fatal("the bridge did not end with its input")
	}
	j, err := e.Job(started.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if j.Done() || j.Info().Origin.Client != "bridged" {
		t.Fatalf("job %+v", j.Info())
	}
}

// Clients that come, read every log and vanish leave nothing behind in the
// server: no goroutine, no live memory (R4.1's "RSS unchanged", measured
// where it can be: RSS of a Go process follows GC pacing, not leaks).
func TestSocketClientsLeaveNothing(t *testing.T) {
	e := newEngine(t, engine.Config{}) // not parallel: it counts goroutines and heap
	path := serveSocket(t, e, SocketOptions{})
	a := connectSocket(t, path, "starter")
	var ids []string
	for i := range 5 {
		var st struct {
			JobID string `json:"job_id"`
		}
		testkit.CallOK(t, a, "terminal_job_start", map[string]any{"command": fmt.Sprintf("seq 1 %d; sleep 600", 2000+500*i), "startup_wait_sec": 0}, &st)
		ids = append(ids, st.JobID)
	}
	round := func() {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close() // vanish without a goodbye
		cl := mcp.NewClient(&mcp.Implementation{Name: "reader", Version: "1"}, nil)
		cs, err := cl.Connect(t.Context(), &mcp.IOTransport{Reader: c, Writer: c}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			var l struct {
				Data string `json:"data"`
			}
			testkit.CallOK(t, cs, "terminal_job_logs", map[string]any{"job_id": id, "stream": "stdout"}, &l)
		}
	}
	settle := func() (heap uint64, g int) {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc, runtime.NumGoroutine()
	}
	round() // warm up: lazily built schemas, pools
	time.Sleep(50 * time.Millisecond)
	heap0, g0 := settle()
	for range 6 {
		round()
	}
	var heap1 uint64
	var g1 int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if heap1, g1 = settle(); g1 <= g0 || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("after 6 clients: live heap %d → %d KiB, goroutines %d → %d", heap0>>10, heap1>>10, g0, g1)
	if g1 > g0 {
		t.Errorf("goroutines %d → %d: sessions left behind", g0, g1)
	}
	if heap1 > heap0+1<<20 {
		t.Errorf("live heap grew by %d KiB", (heap1-heap0)>>10)
	}
}

// When its tend goes, the bridge answers the call in flight and the calls
// made meanwhile with errors that say so; when a tend is back it replays
// the agent's initialize there, keeps that answer from the agent, and goes
// on carrying the session.
func TestBridgeReconnects(t *testing.T) {
	t.Parallel()
	tends := make(chan net.Conn, 1)
	dial := func() (net.Conn, int, error) {
		select {
		case c := <-tends:
			return c, 2, nil
		default:
			return nil, 0, nil
		}
	}
	first, firstEnd := net.Pipe()
	agentOut, bridgeIn := io.Pipe()
	bridgeOut, agentIn := io.Pipe()
	go Bridge(t.Context(), firstEnd, dial, agentOut, agentIn, slog.New(slog.DiscardHandler))
	agent := bufio.NewReader(bridgeOut)
	say := func(line string) {
		t.Helper()
		if _, err := io.WriteString(bridgeIn, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	hear := func(r *bufio.Reader, want string) {
		t.Helper()
		line, err := r.ReadString('\n')
		if err != nil || !strings.Contains(line, want) {
			t.Fatalf("read %q, %v; want it to hold %q", line, err, want)
		}
	}
	tend := bufio.NewReader(first)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"a","version":"1"}}}`
	say(initialize)
	hear(tend, `"method":"initialize"`)
	io.WriteString(first, `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n")
	hear(agent, `"id":1,"result"`)
	say(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	hear(tend, `notifications/initialized`)
	say(`{"jsonrpc":"2.0","id":2,"method":"tools/call"}`)
	hear(tend, `"id":2`)
	io.WriteString(first, `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}`+"\n")
	hear(agent, `elicitation/create`)
	first.Close() // the tend goes with the call and its question
	hear(agent, `"id":2,"error"`)
	hear(agent, `notifications/cancelled`)

	say(`{"jsonrpc":"2.0","id":3,"method":"tools/call"}`)
	hear(agent, `no tend is running`)

	second, secondEnd := net.Pipe()
	tends <- secondEnd
	tend = bufio.NewReader(second)
	hear(tend, initialize)
	say(`{"jsonrpc":"2.0","id":4,"method":"tools/call"}`) // held until the replay is answered
	io.WriteString(second, `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n")
	hear(tend, `notifications/initialized`)
	hear(tend, `"id":4`)
	// The old tend's question answered late reaches no one: the new tend's
	// first question would have the same id.
	say(`{"jsonrpc":"2.0","id":1,"result":{"action":"accept"}}`)
	say(`{"jsonrpc":"2.0","id":5,"method":"tools/call"}`)
	hear(tend, `"id":5`)
	io.WriteString(second, `{"jsonrpc":"2.0","id":4,"result":{"ok":true}}`+"\n")
	hear(agent, `"id":4,"result"`) // and not the replayed initialize's answer
	bridgeIn.Close()
}
