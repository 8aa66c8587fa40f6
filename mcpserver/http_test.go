package mcpserver

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/internal/testkit"
)

const testToken = "test-token-0123456789"

// serveHTTP serves a new server over e on a loopback port and returns its URL.
func serveHTTP(t *testing.T, e *engine.Engine) string {
	t.Helper()
	ln, err := ListenLoopback(0)
	if err != nil {
		t.Fatal(err)
	}
	if a := ln.Addr().(*net.TCPAddr); !a.IP.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Fatalf("listening on %v, want 127.0.0.1", a)
	}
	hs := &http.Server{Handler: New(e, Options{Version: "test"}).HTTPHandler(HTTPOptions{Token: testToken})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return URL(ln)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-client","version":"0.1"}}}`

// post sends one raw MCP POST; hdr entries override the defaults (an empty
// value deletes the header).
func post(t *testing.T, url, body string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// rpcReply reads the JSON-RPC response out of a JSON or SSE response body.
func rpcReply(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var payload []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(d, `"id"`) {
				payload = []byte(d)
				break
			}
		}
	} else {
		payload, _ = io.ReadAll(resp.Body)
	}
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatalf("reply %q: %v", payload, err)
	}
	return m
}

// session initializes a raw session and returns its Mcp-Session-Id.
func session(t *testing.T, url string) string {
	t.Helper()
	resp := post(t, url, initBody, nil)
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("initialize: %s %s", resp.Status, b)
	}
	rpcReply(t, resp)
	id := resp.Header.Get("Mcp-Session-Id")
	if len(id) < 22 { // 22 base32 characters are 110 bits; the SDK's are 26 (130 bits)
		t.Fatalf("session id %q is too short to be unguessable", id)
	}
	for _, r := range id {
		if r <= ' ' || r > '~' {
			t.Fatalf("session id %q is not visible ASCII", id)
		}
	}
	hdr := map[string]string{"Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18"}
	if resp := post(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr); resp.StatusCode != 202 {
		t.Fatalf("initialized: %s", resp.Status)
	}
	return id
}

// S8 and R4.4: every refusal over HTTP, answered at once (none waits on
// anything: how fast is a benchmark's business, not a test's).
func TestHTTPRefusals(t *testing.T) {
	t.Parallel()
	url := serveHTTP(t, newEngine(t, engine.Config{}))
	sid := session(t, url)
	inSession := func(extra map[string]string) map[string]string {
		h := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"}
		for k, v := range extra {
			h[k] = v
		}
		return h
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, tc := range []struct {
		name string
		body string
		hdr  map[string]string
		want int
	}{
		{"no token", initBody, map[string]string{"Authorization": ""}, 401},
		{"wrong token", initBody, map[string]string{"Authorization": "Bearer nope"}, 401},
		{"token without Bearer", initBody, map[string]string{"Authorization": testToken}, 401},
		{"foreign Origin", initBody, map[string]string{"Origin": "https://evil.example"}, 403},
		{"Sec-Fetch-Site cross-site", initBody, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"Host evil.example", initBody, map[string]string{"Host": "evil.example"}, 403},
		{"Host evil.example with port", initBody, map[string]string{"Host": "evil.example:7878"}, 403},
		{"malformed body", `{"jsonrpc":"2.0","id":2,"method":`, inSession(nil), 400},
		{"body over the limit", `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxLine+10) + `"}}`, inSession(nil), 413},
		{"bogus MCP-Protocol-Version", list, inSession(map[string]string{"MCP-Protocol-Version": "bogus"}), 400},
		{"old bogus MCP-Protocol-Version", list, inSession(map[string]string{"MCP-Protocol-Version": "1999-01-01"}), 400},
		{"unknown session", list, inSession(map[string]string{"Mcp-Session-Id": "nope"}), 404},
		{"same-origin Origin is fine", list, inSession(map[string]string{"Origin": strings.TrimSuffix(url, HTTPPath)}), 200},
		{"in session", list, inSession(nil), 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := post(t, url, tc.body, tc.hdr)
			if resp.StatusCode != tc.want {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, bytes.TrimSpace(b), tc.want)
			}
		})
	}

	for _, tc := range []struct {
		name, body string
		code       float64 // JSON-RPC error code, or 0 for a tool error
		want       string  // in the message or the tool error
	}{
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"no/such"}`, -32601, ""},
		{"unknown tool", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`, -32602, "no_such_tool"},
		{"wrong argument type", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"terminal_exec","arguments":{"command":42}}}`, 0, "command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := rpcReply(t, post(t, url, tc.body, inSession(nil)))
			if tc.code != 0 {
				e, _ := m["error"].(map[string]any)
				if e == nil || e["code"] != tc.code || !strings.Contains(fmt.Sprint(e["message"]), tc.want) {
					t.Fatalf("reply %v, want error %v mentioning %q", m, tc.code, tc.want)
				}
				return
			}
			r, _ := m["result"].(map[string]any)
			if r == nil || r["isError"] != true || !strings.Contains(fmt.Sprint(r["content"]), tc.want) {
				t.Fatalf("reply %v, want isError naming %q", m, tc.want)
			}
		})
	}
}

func TestListenLoopback(t *testing.T) {
	t.Parallel()
	ln, err := ListenLoopback(0)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if host != "127.0.0.1" {
		t.Fatalf("listening on %s, want 127.0.0.1", ln.Addr())
	}
	if !strings.HasPrefix(URL(ln), "http://127.0.0.1:") || !strings.HasSuffix(URL(ln), "/mcp") {
		t.Fatalf("URL %s", URL(ln))
	}
	if _, err := ListenLoopback(70000); err == nil {
		t.Fatal("port 70000 accepted")
	}
}

// A go-sdk client with the token runs terminal_exec end to end.
func TestHTTPExec(t *testing.T) {
	t.Parallel()
	cs := testkit.ConnectHTTP(t, serveHTTP(t, newEngine(t, engine.Config{})), testToken, "http-agent")
	var env execOutput
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo hello; echo oops >&2; exit 3"}, &env)
	if env.Stdout != "hello\n" || env.Stderr != "oops\n" || env.ExitCode == nil || *env.ExitCode != 3 {
		t.Fatalf("envelope %+v", env)
	}
	var list struct {
		Jobs []jobInfo `json:"jobs"`
	}
	testkit.CallOK(t, cs, "terminal_job_manage", map[string]any{"action": "list"}, &list)
	if len(list.Jobs) != 1 || list.Jobs[0].Origin.Client != "http-agent" || list.Jobs[0].Origin.Session == "" {
		t.Fatalf("jobs %+v", list.Jobs)
	}
}

// waitJob waits until the engine has a job whose command contains cmd.
func waitJob(t *testing.T, e *engine.Engine, cmd string) *engine.Job {
	t.Helper()
	var id engine.JobID
	testkit.WaitUntil(t, 10*time.Second, "a job that runs "+cmd, func() bool {
		for _, info := range e.List() {
			if strings.Contains(info.Command, cmd) && info.Pid != 0 {
				id = info.ID
				return true
			}
		}
		return false
	})
	j, err := e.Job(id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// A cancelled call over HTTP kills the exec's job: notifications/cancelled
// in a session, the dropped POST in the 2026-07-28 revision.
func TestHTTPCancelKills(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		t.Run("protocol "+version, func(t *testing.T) {
			t.Parallel()
			testHTTPCancelKills(t, version)
		})
	}
}

func testHTTPCancelKills(t *testing.T, version string) {
	e := newEngine(t, engine.Config{})
	cs := testkit.ConnectHTTPVersion(t, serveHTTP(t, e), testToken, "http-agent", version)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "sleep 600 # cancel-me", "auto_background_after_sec": 0, "timeout_sec": 600}})
		done <- err
	}()
	j := waitJob(t, e, "cancel-me")
	cancel()
	<-done
	wctx, stop := context.WithTimeout(t.Context(), 10*time.Second)
	defer stop()
	if err := j.Wait(wctx); err != nil {
		t.Fatalf("the job still runs after the call was cancelled: %v", err)
	}
	if st, _, _ := j.Exit(); st == engine.Exited {
		t.Fatalf("status %v, want killed", st)
	}
}

// A client whose connection drops mid-exec cancels nothing: the job runs on
// and a new client reads all of it (RELIABILITY rule 5, R4.2's drop).
func TestHTTPDropLeavesJob(t *testing.T) {
	t.Parallel()
	e := newEngine(t, engine.Config{})
	url := serveHTTP(t, e)
	sid := session(t, url)
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// A raw POST on a connection of our own, which we then cut.
	conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(url, HTTPPath), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"terminal_exec","arguments":{"command":"echo before; cat %s; echo after # drop-me","auto_background_after_sec":0,"timeout_sec":600}}}`, fifo)
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer %s\r\nMcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s",
		HTTPPath, strings.TrimPrefix(strings.TrimSuffix(url, HTTPPath), "http://"), testToken, sid, len(body), body)
	j := waitJob(t, e, "drop-me")
	// The job runs, so the handler has the call; now cut (RST).
	conn.(*net.TCPConn).SetLinger(0)
	conn.Close()
	// Proving a negative: give a wrongful cancel time to land.
	time.Sleep(300 * time.Millisecond)
	if j.Done() {
		t.Fatalf("the job ended when its client dropped: %+v", j.Info())
	}
	// The SDK does not even cancel the call's context (its POST is not the
	// call's lifetime in the stateful protocol): the exec is still waiting
	// in the foreground; a read error would have promoted it.
	if !j.Info().Foreground {
		t.Logf("the exec was promoted to the background when its client dropped")
	}
	// Let it finish, and read every byte from a new client.
	if err := os.WriteFile(fifo, []byte("middle\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cs := testkit.ConnectHTTP(t, url, testToken, "later-agent")
	var logs struct {
		Data     string `json:"data"`
		Status   string `json:"status"`
		ExitCode *int   `json:"exit_code"`
	}
	testkit.CallOK(t, cs, "terminal_job_logs", map[string]any{"job_id": string(j.ID), "stream": "stdout", "wait_until_exit": true, "wait_timeout_sec": 10}, &logs)
	if logs.Data != "before\nmiddle\nafter\n" || logs.ExitCode == nil || *logs.ExitCode != 0 {
		t.Fatalf("logs %+v", logs)
	}
}

// R4.2: the SSE stream of a call drops mid-call; the client comes back with
// Last-Event-ID and gets the call's result, nothing lost.
func TestHTTPResumeAfterDrop(t *testing.T) {
	t.Parallel()
	e := newEngine(t, engine.Config{})
	url := serveHTTP(t, e)
	const proto = "2025-11-25"
	resp := post(t, url, strings.Replace(initBody, "2025-06-18", proto, 1), nil)
	rpcReply(t, resp)
	sid := resp.Header.Get("Mcp-Session-Id")
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": proto}
	if r := post(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr); r.StatusCode != 202 {
		t.Fatalf("initialized: %s", r.Status)
	}
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"terminal_exec","arguments":{"command":"cat %s; echo resumed # resume-me","auto_background_after_sec":0}}}`, fifo)
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", proto)
	time.AfterFunc(10*time.Second, cancel) // no endless wait if no event comes
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	// The priming event carries the id to resume from.
	sc := bufio.NewScanner(r.Body)
	last := ""
	for last == "" && sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
			last = v
		}
	}
	if last == "" {
		t.Fatal("no event id on the call's stream")
	}
	j := waitJob(t, e, "resume-me")
	cancel() // the stream drops
	r.Body.Close()
	if err := os.WriteFile(fifo, []byte("all of it\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithTimeout(t.Context(), 10*time.Second)
	defer stop()
	if err := j.Wait(wctx); err != nil {
		t.Fatal(err)
	}
	gctx, gstop := context.WithTimeout(t.Context(), 10*time.Second)
	defer gstop()
	get, _ := http.NewRequestWithContext(gctx, "GET", url, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Authorization", "Bearer "+testToken)
	get.Header.Set("Mcp-Session-Id", sid)
	get.Header.Set("MCP-Protocol-Version", proto)
	get.Header.Set("Last-Event-ID", last)
	gr, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Body.Close()
	m := rpcReply(t, gr)
	res, _ := m["result"].(map[string]any)
	sc2, _ := res["structuredContent"].(map[string]any)
	if m["id"] != float64(9) || sc2 == nil || sc2["stdout"] != "all of it\nresumed\n" {
		t.Fatalf("resumed reply %v", m)
	}
}

// Every protocol revision the SDK speaks is served over HTTP, the newest
// (2026-07-28, no handshake) included: a client gets the revision it asks
// for and its calls work; OAuth discovery gets a plain 404, before the
// bearer check, so a client shows tend's own 401 message next.
func TestHTTPProtocolRevisions(t *testing.T) {
	t.Parallel()
	url := serveHTTP(t, newEngine(t, engine.Config{}))
	for _, version := range []string{"", "2025-11-25", "2025-06-18", "2025-03-26"} {
		cs := testkit.ConnectHTTPVersion(t, url, testToken, "rev-agent", version)
		want := cmp.Or(version, "2026-07-28")
		if got := cs.InitializeResult().ProtocolVersion; got != want {
			t.Errorf("asked for %q, got %q", version, got)
		}
		var out struct {
			Stdout string `json:"stdout"`
		}
		testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo hi"}, &out)
		if out.Stdout != "hi\n" {
			t.Errorf("%s: stdout %q", want, out.Stdout)
		}
	}
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server/mcp"} {
		res, err := http.Get(strings.TrimSuffix(url, HTTPPath) + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, res.StatusCode)
		}
	}
}
