package mcpserver

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/internal/testkit"
)

// At most n connections are accepted at once; the next waits for one to
// close.
func TestLimitListener(t *testing.T) {
	t.Parallel()
	inner, err := ListenLoopback(0)
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitListener(inner, 2)
	defer ln.Close()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(100 * time.Millisecond): // a bound on what must not happen
	}
	first.Close()
	<-accepted // now it is
	second.Close()
}

// Sessions beyond the cap end the one idle longest; the others go on.
// sessionful is the newest protocol revision served with HTTP sessions,
// which the session cap is about (2026-07-28 has none).
const sessionful = "2025-11-25"

func TestSessionCap(t *testing.T) {
	t.Parallel()
	ln, err := ListenLoopback(0)
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: New(newEngine(t, engine.Config{}), Options{Version: "test"}).HTTPHandler(HTTPOptions{Token: testToken, MaxSessions: 2})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	url := URL(ln)
	// Each session is used once it is connected: the cap knows a session
	// from its first request (its notifications may be handled later).
	oldest := testkit.ConnectHTTPVersion(t, url, testToken, "oldest", sessionful)
	testkit.CallOK(t, oldest, "terminal_job_manage", map[string]any{"action": "list"}, nil)
	middle := testkit.ConnectHTTPVersion(t, url, testToken, "middle", sessionful)
	testkit.CallOK(t, middle, "terminal_job_manage", map[string]any{"action": "list"}, nil) // middle is used after oldest
	newest := testkit.ConnectHTTPVersion(t, url, testToken, "newest", sessionful)
	for _, cs := range map[string]*mcp.ClientSession{"middle": middle, "newest": newest} {
		testkit.CallOK(t, cs, "terminal_job_manage", map[string]any{"action": "list"}, nil)
	}
	if _, err := oldest.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_job_manage", Arguments: map[string]any{"action": "list"}}); err == nil {
		t.Fatal("the session idle longest still answers past the cap")
	}
}

// A session with a call in flight is not idle, however long ago the call
// began: past the cap, an idle session ends instead and the call completes.
func TestSessionCapSparesBusy(t *testing.T) {
	t.Parallel()
	ln, err := ListenLoopback(0)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, engine.Config{})
	hs := &http.Server{Handler: New(e, Options{Version: "test"}).HTTPHandler(HTTPOptions{Token: testToken, MaxSessions: 2})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	url := URL(ln)
	dir := t.TempDir()
	busy := testkit.ConnectHTTPVersion(t, url, testToken, "busy", sessionful)
	call := make(chan error, 1)
	go func() {
		res, err := busy.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "while [ ! -e go ]; do sleep 0.01; done", "cwd": dir}})
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error: %s", testkit.Text(res))
		}
		call <- err
	}()
	testkit.WaitUntil(t, 10*time.Second, "the call to be running", func() bool { return len(e.List()) == 1 })
	idle := testkit.ConnectHTTPVersion(t, url, testToken, "idle", sessionful)
	testkit.CallOK(t, idle, "terminal_job_manage", map[string]any{"action": "list"}, nil) // idle is used after busy's call began
	testkit.ConnectHTTPVersion(t, url, testToken, "newest", sessionful)
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-call; err != nil {
		t.Fatalf("the busy session's call: %v", err)
	}
	if _, err := idle.CallTool(t.Context(), &mcp.CallToolParams{Name: "terminal_job_manage", Arguments: map[string]any{"action": "list"}}); err == nil {
		t.Fatal("the idle session still answers past the cap; the busy one was ended instead?")
	}
}
