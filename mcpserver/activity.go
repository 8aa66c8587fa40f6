package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Call is one tool call as the Activity view shows it.
type Call struct {
	Seq      uint64 // 1 for the first call recorded, then 2, 3 …
	Time     time.Time
	Client   string // the client's name and version
	Session  string
	Tool     string
	Args     string // the arguments as JSON, cut to maxArgs bytes
	Result   string // a one-line summary of the result or error
	IsError  bool   // a tool error or a protocol error
	Duration time.Duration
}

// Client is a connected MCP client session.
type Client struct {
	Name    string // name and version from initialize
	Session string
	Since   time.Time
}

// Activity records every tool call served (a receiving middleware) and the
// connected clients, for the terminal UI's Activity view. It keeps the last
// [activityKeep] calls.
type Activity struct {
	mu       sync.Mutex
	calls    []Call // oldest first, at most activityKeep
	seq      uint64
	clients  map[*mcp.ServerSession]Client
	watchers map[chan struct{}]struct{}
}

const (
	activityKeep = 2000
	maxArgs      = 400
	maxResult    = 200
)

func newActivity() *Activity {
	return &Activity{clients: map[*mcp.ServerSession]Client{}, watchers: map[chan struct{}]struct{}{}}
}

// Activity returns the server's record of tool calls and clients.
func (s *Server) Activity() *Activity { return s.activity }

func (a *Activity) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
		case "initialize":
			res, err := next(ctx, method, req)
			if err == nil {
				a.connected(req)
			}
			return res, err
		default:
			return next(ctx, method, req)
		}
		start := time.Now()
		res, err := next(ctx, method, req)
		c := Call{Time: start, Duration: time.Since(start)}
		if r, ok := req.(*mcp.CallToolRequest); ok {
			c.Tool = r.Params.Name
			c.Args = cut(string(r.Params.Arguments), maxArgs)
			if ci := r.ClientInfo(); ci != nil {
				c.Client = strings.TrimSpace(ci.Name + " " + ci.Version)
			}
			if r.Session != nil {
				c.Session = r.Session.ID()
				a.connectedSession(r.Session, c.Client)
			}
		}
		if c.Client == "" {
			c.Client = "unknown client"
		}
		switch {
		case err != nil:
			c.IsError, c.Result = true, cut(oneLine(err.Error()), maxResult)
		default:
			tr, _ := res.(*mcp.CallToolResult)
			c.IsError, c.Result = summarize(tr)
		}
		a.add(c)
		return res, err
	}
}

// connected records the client of an initialize request and forgets it
// when its session ends.
func (a *Activity) connected(req mcp.Request) {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return
	}
	name := "unknown client"
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
		name = strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
	}
	a.connectedSession(ss, name)
}

func (a *Activity) connectedSession(ss *mcp.ServerSession, name string) {
	a.mu.Lock()
	if _, ok := a.clients[ss]; ok || name == "" {
		a.mu.Unlock()
		return
	}
	a.clients[ss] = Client{Name: name, Session: ss.ID(), Since: time.Now()}
	a.notifyLocked()
	a.mu.Unlock()
	go func() {
		_ = ss.Wait()
		a.mu.Lock()
		delete(a.clients, ss)
		a.notifyLocked()
		a.mu.Unlock()
	}()
}

func (a *Activity) add(c Call) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	c.Seq = a.seq
	if len(a.calls) == activityKeep {
		a.calls = append(a.calls[:0], a.calls[activityKeep/2:]...)
	}
	a.calls = append(a.calls, c)
	a.notifyLocked()
}

func (a *Activity) notifyLocked() {
	for w := range a.watchers {
		select {
		case w <- struct{}{}:
		default:
		}
	}
}

// Watch returns a doorbell that receives a value (coalesced) whenever a call
// is recorded or a client connects or leaves, and a function that stops it.
func (a *Activity) Watch() (<-chan struct{}, func()) {
	w := make(chan struct{}, 1)
	a.mu.Lock()
	a.watchers[w] = struct{}{}
	a.mu.Unlock()
	return w, func() {
		a.mu.Lock()
		delete(a.watchers, w)
		a.mu.Unlock()
	}
}

// Since returns the calls recorded after sequence number seq (0: all kept),
// oldest first.
func (a *Activity) Since(seq uint64) []Call {
	a.mu.Lock()
	defer a.mu.Unlock()
	i := sort.Search(len(a.calls), func(i int) bool { return a.calls[i].Seq > seq })
	return append([]Call(nil), a.calls[i:]...)
}

// Clients returns the connected clients, longest connected first.
func (a *Activity) Clients() []Client {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Client, 0, len(a.clients))
	for _, c := range a.clients {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out
}

// summaryKeys are the result fields worth a glance, in the order shown.
var summaryKeys = []string{
	"job_id", "session_id", "status", "semantic_status", "exit_code", "signal", "auto_backgrounded",
	"timed_out", "matched", "matched_expect", "eof", "total", "count", "truncated", "already_closed", "message", "warning",
}

// summarize makes a one-line summary of a tool result.
func summarize(r *mcp.CallToolResult) (isError bool, summary string) {
	if r == nil {
		return false, ""
	}
	if r.IsError {
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				return true, cut(oneLine(t.Text), maxResult)
			}
		}
		return true, "error"
	}
	if r.StructuredContent != nil {
		raw, err := json.Marshal(r.StructuredContent)
		var m map[string]any
		if err == nil && json.Unmarshal(raw, &m) == nil {
			var parts []string
			for _, k := range summaryKeys {
				if v, ok := m[k]; ok && v != nil && v != "" && v != false {
					parts = append(parts, fmt.Sprintf("%s=%v", k, v))
				}
			}
			for _, k := range []string{"stdout", "stderr", "data", "output"} {
				if s, ok := m[k].(string); ok && s != "" {
					parts = append(parts, fmt.Sprintf("%s=%dB", k, len(s)))
				}
			}
			if js, ok := m["jobs"].([]any); ok {
				parts = append(parts, fmt.Sprintf("jobs=%d", len(js)))
			}
			if ms, ok := m["matches"].([]any); ok {
				parts = append(parts, fmt.Sprintf("matches=%d", len(ms)))
			}
			if len(parts) > 0 {
				return false, cut(strings.Join(parts, " "), maxResult)
			}
		}
	}
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return false, cut(oneLine(t.Text), maxResult)
		}
	}
	return false, "ok"
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
