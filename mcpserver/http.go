package mcpserver

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where [Server.HTTPHandler] serves MCP.
const HTTPPath = "/mcp"

// SessionIdle is how long an HTTP session may stay idle (no request in
// flight) before it is closed; its jobs live on in the engine.
const SessionIdle = time.Hour

// statelessSince is the first protocol revision served without sessions.
const statelessSince = "2026-07-28"

// HTTPOptions configure [Server.HTTPHandler].
type HTTPOptions struct {
	// Token is the bearer token every request must carry
	// ("Authorization: Bearer <Token>"). It must not be empty.
	Token string
	// MaxBody is the largest request body accepted (413 beyond it); zero
	// means [MaxLine], the same limit as the stream transports.
	MaxBody int64
	// MaxSessions is how many HTTP sessions are kept (default
	// [MaxSessions]); a new one beyond it ends the one idle longest.
	MaxSessions int
}

// HTTPHandler serves s over Streamable HTTP at [HTTPPath] for a loopback
// listener (RELIABILITY S8): a cross-site Origin or Sec-Fetch-Site is refused
// with 403 ([http.CrossOriginProtection]), a missing or wrong bearer token
// with 401, a Host that is not loopback with 403 (the SDK's DNS-rebinding
// check) and a body over the limit with 413.
//
// For the revisions up to 2025-11-25, sessions are stateful
// (Mcp-Session-Id), so each client's name from initialize is recorded on
// its jobs and notifications/cancelled reaches the call it names; a
// 2026-07-28 request carries its client's name itself and is served
// without a session: its POST is the call, and dropping it cancels it. /.well-known/ answers 404: tend has no OAuth. Streams are resumable (Last-Event-ID). A client whose
// connection drops does not cancel
// anything: the SDK does not tie a handler to its POST (the default
// PropagateRequestCancellation=false), so an exec in flight goes on and
// auto-promotes to a background job as for any other client.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	if o.Token == "" {
		panic("mcpserver: HTTPHandler needs a token")
	}
	if o.MaxBody <= 0 {
		o.MaxBody = MaxLine
	}
	if o.MaxSessions > 0 {
		s.capped.mu.Lock()
		s.capped.max = o.MaxSessions
		s.capped.mu.Unlock()
	}
	get := func(*http.Request) *mcp.Server { return s.Server }
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: o.MaxBody,
		SessionTimeout:      SessionIdle,
		// Resumable streams: a client whose SSE stream drops mid-call
		// reconnects with Last-Event-ID and gets the result (R4.2); 10 MiB
		// of events are kept across sessions, oldest dropped first.
		EventStore: mcp.NewMemoryEventStore(nil),
	})
	// The 2026-07-28 revision has no handshake and no session: the SDK
	// serves it only on a stateless handler. Its requests (and
	// server/discover, which says which revisions are spoken) go there;
	// the older revisions keep their sessions on the stateful one.
	// There a POST is the whole call: a client cancels by dropping it,
	// so a dropped POST cancels its call (an exec's job is killed).
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes:          o.MaxBody,
		Stateless:                    true,
		PropagateRequestCancellation: true,
	})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Protocol-Version") >= statelessSince || r.Header.Get("Mcp-Method") == "server/discover" {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, methodNotFound(h, o.MaxBody))
	want := []byte("Bearer " + o.Token)
	authed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/.well-known/") {
			// No OAuth here: a client probing for it learns so, and then
			// shows the 401 below, which says what to send.
			http.NotFound(w, r)
			return
		}
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="tend"`)
			http.Error(w, "Unauthorized: send the bearer token from tend's discovery file (Authorization: Bearer …)", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Forbidden: cross-origin request", http.StatusForbidden)
	}))
	return cop.Handler(authed)
}

// methodNotFound makes the SDK's answer to an unknown method a JSON-RPC
// -32601 error, as on stdio (RELIABILITY R4.4), where for the older protocol
// revisions it answers 400 with a plain-text "JSON RPC not handled" body. It
// reads the body itself (up to max, 413 beyond) to learn the request's id.
func methodNotFound(next http.Handler, max int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var call struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &call) != nil || len(call.ID) == 0 || call.Method == "" {
			next.ServeHTTP(w, r)
			return
		}
		nw := &notFoundWriter{ResponseWriter: w, id: call.ID}
		next.ServeHTTP(nw, r)
		nw.finish()
	})
}

// notFoundWriter holds back a 400 response to see whether it is the SDK's
// "not handled" one, and rewrites that into a JSON-RPC error.
type notFoundWriter struct {
	http.ResponseWriter
	id   json.RawMessage
	held bool
	buf  bytes.Buffer
}

func (n *notFoundWriter) WriteHeader(code int) {
	if code == http.StatusBadRequest && !n.held {
		n.held = true
		return
	}
	n.ResponseWriter.WriteHeader(code)
}

func (n *notFoundWriter) Write(p []byte) (int, error) {
	if n.held {
		n.buf.Write(p)
		if n.buf.Len() > 64<<10 { // not ours to rewrite: let it through
			n.release()
		}
		return len(p), nil
	}
	return n.ResponseWriter.Write(p)
}

func (n *notFoundWriter) release() {
	n.held = false
	n.ResponseWriter.WriteHeader(http.StatusBadRequest)
	n.ResponseWriter.Write(n.buf.Bytes())
	n.buf.Reset()
}

func (n *notFoundWriter) Flush() {
	if !n.held {
		http.NewResponseController(n.ResponseWriter).Flush()
	}
}

func (n *notFoundWriter) Unwrap() http.ResponseWriter { return n.ResponseWriter }

// finish sends what was held back.
func (n *notFoundWriter) finish() {
	if !n.held {
		return
	}
	msg := strings.TrimSpace(n.buf.String())
	if !strings.HasPrefix(msg, "JSON RPC not handled") {
		n.release()
		return
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": n.id,
		"error": map[string]any{"code": -32601, "message": "method not found: " + strings.TrimPrefix(msg, "JSON RPC not handled: ")},
	})
	h := n.ResponseWriter.Header()
	h.Del("X-Content-Type-Options")
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", fmt.Sprint(len(b)))
	n.ResponseWriter.WriteHeader(http.StatusOK)
	n.ResponseWriter.Write(b)
}

// ListenLoopback listens on TCP port port (0: a free one) of 127.0.0.1 and
// checks that the address it got is a loopback one (RELIABILITY S8).
func ListenLoopback(port int) (net.Listener, error) {
	if port < 0 || port > 65535 {
		return nil, fmt.Errorf("port %d is out of range (0 to 65535)", port)
	}
	ln, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", fmt.Sprint(port)))
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1:%d: %w", port, err)
	}
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
		ln.Close()
		return nil, fmt.Errorf("listener got %v, which is not loopback: refusing to serve", ln.Addr())
	}
	return ln, nil
}

// URL is the MCP endpoint of a listener made by [ListenLoopback].
func URL(ln net.Listener) string {
	return "http://" + ln.Addr().String() + HTTPPath
}
