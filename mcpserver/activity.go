package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Call is one tool call as the Activity view shows it: recorded when it
// starts, and again when it ends.
type Call struct {
	Seq      uint64 // 1 for the first call recorded, then 2, 3 …: the order calls started in
	Rev      uint64 // the record's revision when this call last changed
	Time     time.Time
	Client   string // the client's name and version
	Agent    string // the agent as people see it (claude-code·api#2)
	Session  string
	Tool     string
	Args     string // the arguments as JSON, cut to maxArgs bytes
	Running  bool   // not answered yet
	Result   string // a one-line summary of the result or error
	IsError  bool   // a tool error or a protocol error
	Status   string // ok, error, signal, denied …: the result's semantic_status, else ok or error
	Job      string // the job the call started or acted on, if any
	Detail   string // what else is worth a look: the approval decision, the output's first lines
	Duration time.Duration
	Before   bool // recorded by an earlier run of tend (from the audit log)

	born   uint64              // the record's revision when this call was added
	result *mcp.CallToolResult // its result, until Result, IsError, Status, Job and Detail are made of it
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
	calls    []Call // by Seq, at most activityKeep
	seq      uint64
	rev      uint64
	ends     []end                                   // the calls that ended, by revision: what Since finds changed before the tail
	unread   []uint64                                // the calls that ended with a result still to summarize, oldest first (some since read)
	endsLost uint64                                  // the last revision dropped from ends
	agent    func(*mcp.ServerSession, string) string // names a session's agent
	session  func(*mcp.ServerSession) string         // a session's id, as jobs' origins have it
	clients  map[*mcp.ServerSession]Client
	watchers map[chan struct{}]struct{}
}

// end is a call's end: the revision it changed at.
type end struct{ rev, seq uint64 }

const (
	activityKeep = 2000
	maxArgs      = 400
	maxResult    = 200
	// A result of at most maxLazy bytes of structured content is
	// summarized when its call is first read, and at most maxUnread wait
	// so; a bigger one (a list of jobs, a log) when its call ends.
	maxLazy   = 16 << 10
	maxUnread = 16
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
		c := Call{Time: time.Now(), Running: true, Client: "unknown client"}
		if r, ok := req.(*mcp.CallToolRequest); ok {
			c.Tool = r.Params.Name
			c.Args = cut(string(r.Params.Arguments), maxArgs)
			ci := requestClientInfo(r) // decoded from the request each time: once here, for all
			ctx = context.WithValue(ctx, clientKey{}, ci)
			if ci != nil && ci.Name != "" {
				c.Client = strings.TrimSpace(ci.Name + " " + ci.Version)
			}
			c.Agent = c.Client
			if a.agent != nil {
				name := c.Client
				if ci != nil && ci.Name != "" {
					name = ci.Name
				}
				c.Agent = a.agent(r.Session, name)
			}
			if r.Session != nil {
				c.Session = r.Session.ID()
				if a.session != nil {
					c.Session = a.session(r.Session)
				}
				a.connectedSession(r.Session, c.Client)
			}
		}
		seq := a.add(c)
		res, err := next(ctx, method, req)
		end := Call{Duration: time.Since(c.Time)} // read outside the lock the next call's start waits for
		switch tr, _ := res.(*mcp.CallToolResult); {
		case err != nil:
			end.IsError, end.Result, end.Status = true, cut(oneLine(err.Error()), maxResult), "error"
		case tr != nil && small(tr):
			// The summary is made when the call is first read (Since),
			// not here on the reply's way: of a copy, as the SDK adds
			// to the result on its way out.
			end.result = new(*tr)
		case tr != nil:
			end.result = tr
			end = end.summarized()
		default:
			end.Status = "ok"
		}
		a.update(seq, func(c *Call) {
			c.Running, c.Duration = false, end.Duration
			c.IsError, c.Result, c.Status, c.Job, c.Detail, c.result = end.IsError, end.Result, end.Status, end.Job, end.Detail, end.result
		})
		return res, err
	}
}

// clientKey holds a tool call's client information in its context.
type clientKey struct{}

// clientInfo is the client that made the tool call req, as the Activity
// middleware read it.
func clientInfo(ctx context.Context, req *mcp.CallToolRequest) *mcp.Implementation {
	if ci, ok := ctx.Value(clientKey{}).(*mcp.Implementation); ok {
		return ci
	}
	return requestClientInfo(req)
}

// structured is the fields of a result's structured content that the
// summary and the marks read, as plain JSON values, read once for both;
// nil when there is none. An array is only counted (an items value): the
// summary says how many, and a list of 200 jobs is not decoded for that.
func structured(r *mcp.CallToolResult) map[string]any {
	if r == nil || r.StructuredContent == nil {
		return nil
	}
	raw, ok := r.StructuredContent.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(r.StructuredContent); err != nil {
			return nil
		}
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil
	}
	m := make(map[string]any, len(top))
	for k, v := range top {
		if !readFields[k] {
			continue
		}
		var err error
		if len(v) > 0 && v[0] == '[' {
			m[k] = countItems(v)
		} else {
			var val any
			err = json.Unmarshal(v, &val)
			m[k] = val
		}
		if err != nil {
			return nil
		}
	}
	return m
}

// items is how many items a JSON array holds, counted without decoding
// them; raw is valid JSON (it was decoded around it).
type items int

func countItems(raw json.RawMessage) items {
	n, depth, inString, escaped := 0, 0, false, false
	for _, c := range raw {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if depth == 1 && n == 0 && c > ' ' && c != ']' {
			n = 1 // the first item begins
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case ',':
			if depth == 1 {
				n++
			}
		}
	}
	return items(n)
}

// outcome reads what the Activity view marks a call by: its semantic
// status, its job, and the approval decision and first lines of output.
func outcome(r *mcp.CallToolResult, m map[string]any) (status, job, detail string) {
	status = "ok"
	if r != nil && r.IsError {
		status = "error"
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	if s := str(m, "semantic_status"); s != "" {
		status = s
	}
	var lines []string
	if ap, _ := m["approval"].(map[string]any); ap != nil && ap["required"] == true {
		line := "approval: " + str(ap, "decision")
		if by := str(ap, "by"); by != "" {
			line += " by " + by
		}
		if why := str(ap, "reason"); why != "" {
			line += ": " + why
		}
		lines = append(lines, line)
	}
	for _, k := range []string{"stdout", "stderr", "output"} {
		for l := range strings.Lines(str(m, k)) {
			if len(lines) == 4 {
				break
			}
			lines = append(lines, cut(strings.TrimRight(l, "\n"), maxResult))
		}
	}
	return status, str(m, "job_id"), strings.Join(lines, "\n")
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

// add records a call and returns its sequence number.
func (a *Activity) add(c Call) uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	a.rev++
	c.Seq, c.Rev, c.born = a.seq, a.rev, a.rev
	if len(a.calls) == activityKeep { // drop the older half, but not a call still running: its end is still to come
		kept := a.calls[:0]
		for i, old := range a.calls {
			if i >= activityKeep/2 || old.Running {
				kept = append(kept, old)
			}
		}
		a.calls = kept
	}
	a.calls = append(a.calls, c)
	a.notifyLocked()
	return c.Seq
}

// update changes the call seq, if it is still kept.
func (a *Activity) update(seq uint64, change func(*Call)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	i := a.find(seq)
	if i < 0 {
		return
	}
	change(&a.calls[i])
	a.rev++
	a.calls[i].Rev = a.rev
	if len(a.ends) == activityKeep {
		a.endsLost = a.ends[activityKeep/2-1].rev
		a.ends = append(a.ends[:0], a.ends[activityKeep/2:]...)
	}
	a.ends = append(a.ends, end{a.rev, seq})
	if a.calls[i].result != nil {
		// Nobody may read the record: at most maxUnread results wait.
		a.unread = append(a.unread, seq)
		for len(a.unread) > maxUnread {
			if j := a.find(a.unread[0]); j >= 0 {
				a.calls[j].summarized()
			}
			a.unread = a.unread[1:]
		}
	}
	a.notifyLocked()
}

// find returns the index of call seq in a.calls, or -1.
func (a *Activity) find(seq uint64) int {
	i := sort.Search(len(a.calls), func(i int) bool { return a.calls[i].Seq >= seq })
	if i == len(a.calls) || a.calls[i].Seq != seq {
		return -1
	}
	return i
}

// Seed records calls an earlier run of tend served (from its audit log),
// before any of this run's, so that the view is not empty after a restart.
func (a *Activity) Seed(calls []Call) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.seq > 0 || len(calls) == 0 {
		return
	}
	calls = calls[max(len(calls)-activityKeep/2, 0):]
	for _, c := range calls {
		a.seq++
		a.rev++
		c.Seq, c.Rev, c.born, c.Before, c.Running = a.seq, a.rev, a.rev, true, false
		a.calls = append(a.calls, c)
	}
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

// Since returns the calls recorded or changed after revision rev (0: all
// kept), in the order they started. A call in flight comes back again when
// it ends, with the same Seq.
func (a *Activity) Since(rev uint64) []Call {
	a.mu.Lock()
	defer a.mu.Unlock()
	// The calls added since rev are the tail; before it, a call changed
	// only when it ended, and ends says which did. Without a record of
	// every end since rev (a follower far behind), look at them all.
	tail := sort.Search(len(a.calls), func(i int) bool { return a.calls[i].born > rev })
	if rev < a.endsLost {
		tail = 0
	}
	var ended []int
	for _, e := range a.ends[sort.Search(len(a.ends), func(i int) bool { return a.ends[i].rev > rev }):] {
		if i := sort.Search(tail, func(i int) bool { return a.calls[i].Seq >= e.seq }); i < tail && a.calls[i].Seq == e.seq {
			ended = append(ended, i)
		}
	}
	slices.Sort(ended)
	var out []Call
	for _, i := range slices.Compact(ended) {
		out = append(out, a.calls[i].summarized())
	}
	for i := range a.calls[tail:] {
		if c := &a.calls[tail+i]; c.Rev > rev {
			out = append(out, c.summarized())
		}
	}
	return out
}

// small reports whether r is small enough to keep until its call is read.
func small(r *mcp.CallToolResult) bool {
	raw, ok := r.StructuredContent.(json.RawMessage)
	if !ok && r.StructuredContent != nil {
		return false
	}
	n := len(raw)
	for _, c := range r.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok {
			return false
		}
		n += len(t.Text)
	}
	return n <= maxLazy
}

// summarized makes the summary and the marks of c's result, if it has one
// still to make, and returns c.
func (c *Call) summarized() Call {
	if r := c.result; r != nil {
		m := structured(r)
		c.IsError, c.Result = summarize(r, m)
		c.Status, c.Job, c.Detail = outcome(r, m)
		c.result = nil
	}
	return *c
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

// readFields are the fields of a result that [summarize] and [outcome] read.
var readFields = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range append(summaryKeys, "stdout", "stderr", "data", "output", "jobs", "matches", "approval") {
		m[k] = true
	}
	return m
}()

// summarize makes a one-line summary of a tool result; m is its
// structured content ([structured]).
func summarize(r *mcp.CallToolResult, m map[string]any) (isError bool, summary string) {
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
	if n, ok := m["jobs"].(items); ok {
		parts = append(parts, fmt.Sprintf("jobs=%d", n))
	}
	if n, ok := m["matches"].(items); ok {
		parts = append(parts, fmt.Sprintf("matches=%d", n))
	}
	if len(parts) > 0 {
		return false, cut(strings.Join(parts, " "), maxResult)
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
