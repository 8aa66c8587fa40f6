package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine is the largest JSON-RPC message accepted on a stream transport.
const MaxLine = 4 << 20

// GuardedTransport is a newline-delimited JSON-RPC transport over r and w
// that answers a malformed line itself (-32700 parse error, -32600 invalid
// request, or a line over [MaxLine]) and goes on, where the SDK's stdio
// transport would end the session (RELIABILITY V14). It answers every
// request, and echoes every request id exactly as the client wrote it.
//
// Each line is decoded once, by the guard, and handed to the session as a
// message: the SDK's own stream transport would read it on a goroutine of
// its own and decode it twice more, each decode allocating 32 KiB (its
// JSON decoder's buffer), on the way to every call. When r can be
// interrupted (it has a read deadline, as a pipe or socket read through
// the runtime's poller does) the session's own reader reads the lines: no
// goroutine of the transport's stands between the input and the session,
// to be woken and to wake the session's, for each message; Close ends a
// read in progress through the deadline. Another reader (a terminal, a
// pipe in memory) is read on a goroutine of the transport's, whose read
// Close need not end.
func GuardedTransport(r io.Reader, w io.Writer) mcp.Transport {
	return &guarded{r: r, w: w}
}

type guarded struct {
	r io.Reader
	w io.Writer
}

func (g *guarded) Connect(context.Context) (mcp.Connection, error) {
	x := &idSwap{prefix: "tend-id-" + rand.Text()[:8] + "-", raw: map[string]json.RawMessage{}}
	c := &guardedConn{
		lines:   lineReader{br: bufio.NewReaderSize(g.r, 64<<10)},
		ids:     x,
		pending: &inflight{answered: make(chan struct{}, 1)},
		closed:  make(chan struct{}),
	}
	c.lw = &lockedWriter{w: g.w, ids: x, inflight: c.pending}
	if d, ok := g.r.(deadliner); ok && d.SetReadDeadline(time.Time{}) == nil {
		c.interrupt = func() { d.SetReadDeadline(time.Unix(1, 0)) }
	} else {
		c.incoming = make(chan received)
		go c.guard()
	}
	return c, nil
}

// deadliner is a reader whose reads a deadline can end.
type deadliner interface {
	SetReadDeadline(time.Time) error
}

// guardedConn is the session's side of a guarded stream: Read gives the
// session the next message the guard read and decoded; replies are
// encoded and written whole through lw.
type guardedConn struct {
	lines   lineReader
	ids     *idSwap
	pending *inflight
	lw      *lockedWriter
	// interrupt ends a read in progress, for good; nil when the lines are
	// read on the guard's goroutine and handed over on incoming.
	interrupt func()
	incoming  chan received
	readErr   error // why the input ended, read with the last line
	closed    chan struct{}
	closeOnce sync.Once
}

// received is a message from the guard, or why there will be no more.
type received struct {
	msg jsonrpc.Message
	err error
}

func (c *guardedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if c.incoming != nil {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case r := <-c.incoming:
			return r.msg, r.err
		case <-c.closed:
			return nil, io.EOF
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, err := c.next()
	if err != nil && c.isClosed() {
		return nil, io.EOF
	}
	return m, err
}

func (c *guardedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.lw.write(msg)
}

func (c *guardedConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		if c.interrupt != nil {
			c.interrupt()
		}
	})
	return nil
}

func (c *guardedConn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

func (c *guardedConn) SessionID() string { return "" }

// guard reads the messages on a goroutine of its own and hands them to
// Read, until the input ends or the session closes.
func (c *guardedConn) guard() {
	for {
		m, err := c.next()
		select {
		case c.incoming <- received{msg: m, err: err}:
		case <-c.closed:
			return
		}
		if err != nil {
			return
		}
	}
}

// next reads lines until one is a message for the session, answering the
// malformed ones; or until the input ends, when it first waits (up to
// [AnswerLinger]) for the answers to the requests it read.
func (c *guardedConn) next() (jsonrpc.Message, error) {
	for {
		if err := c.readErr; err != nil {
			if errors.Is(err, io.EOF) {
				c.pending.drain(AnswerLinger, c.closed)
			}
			return nil, err
		}
		line, tooLong, err := c.lines.next(MaxLine)
		c.readErr = err
		switch {
		case tooLong:
			c.pending.add(1) // the reply counts itself answered
			reply(c.lw, idOf(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over %d bytes: ignored", MaxLine))
		case len(bytes.TrimSpace(line)) == 0:
		default:
			m, request, code, msg := check(line, c.ids)
			if code != 0 {
				c.pending.add(1) // the reply counts itself answered
				reply(c.lw, idOf(line), code, msg)
				continue
			}
			if request {
				c.pending.add(1)
			}
			return m, nil
		}
	}
}

// lockedWriter serialises whole messages from the SDK and from the guard,
// and puts back the ids the guard swapped.
type lockedWriter struct {
	mu       sync.Mutex
	w        io.Writer
	ids      *idSwap
	inflight *inflight
	buf      []byte // a message being written, kept for the next
}

// write encodes msg and writes it, with its newline, in one write.
func (l *lockedWriter) write(msg jsonrpc.Message) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, err := appendMessage(l.buf[:0], msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %w", err)
	}
	p = append(p, '\n')
	if cap(p) <= 64<<10 { // a rare big one is let go
		l.buf = p[:0]
	}
	_, response := msg.(*jsonrpc.Response)
	return l.sendLocked(p, response)
}

// send writes the message p (its newline included), a response or not.
func (l *lockedWriter) send(p []byte, response bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sendLocked(p, response)
}

func (l *lockedWriter) sendLocked(p []byte, response bool) error {
	p = l.ids.restore(p)
	if _, err := l.w.Write(p); err != nil {
		return err
	}
	if response {
		l.inflight.add(-1)
	}
	return nil
}

// appendMessage appends msg encoded as [jsonrpc.EncodeMessage] encodes it.
// A result, the reply to nearly every request, is written around the
// result the SDK encoded (compact, with no HTML escaping, as
// EncodeMessage would leave it), where EncodeMessage would encode the
// whole again by reflection and check and copy the result once more.
func appendMessage(dst []byte, msg jsonrpc.Message) ([]byte, error) {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > 0 && bytes.IndexByte(r.Result, '\n') < 0 {
		if id, ok := r.ID.Raw().(int64); ok {
			dst = append(dst, `{"jsonrpc":"2.0","id":`...)
			dst = strconv.AppendInt(dst, id, 10)
			dst = append(dst, `,"result":`...)
			dst = append(dst, r.Result...)
			return append(dst, '}'), nil
		}
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// AnswerLinger is how long a stream transport whose input ended waits for
// the answers to the requests it had read, before it ends the session.
const AnswerLinger = 5 * time.Second

// inflight counts the requests read and not yet answered, so that input
// ending right after a request (echo '{…}' | tend mcp) still gets its
// answer.
type inflight struct {
	mu       sync.Mutex
	n        int
	answered chan struct{} // rung on each answer
}

func (f *inflight) add(d int) {
	f.mu.Lock()
	f.n = max(f.n+d, 0)
	f.mu.Unlock()
	if d < 0 {
		select {
		case f.answered <- struct{}{}:
		default:
		}
	}
}

// drain waits until every request read has been answered, or linger, or
// closed.
func (f *inflight) drain(linger time.Duration, closed <-chan struct{}) {
	t := time.NewTimer(linger)
	defer t.Stop()
	for {
		f.mu.Lock()
		n := f.n
		f.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-f.answered:
		case <-t.C:
			return
		case <-closed:
			return
		}
	}
}

// lineReader reads a stream line by line into one buffer, grown as a line
// needs and kept for the next.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
}

// next reads one line without its newline; a line over max is consumed
// and reported as too long rather than buffered: only its start is kept,
// to find its id. The line is good until the next call.
func (l *lineReader) next(max int) (line []byte, tooLong bool, err error) {
	const keep = 64 << 10
	line = l.buf[:0]
	defer func() {
		if cap(line) <= 1<<20 { // a rare big one is let go
			l.buf = line[:0]
		}
	}()
	for {
		frag, e := l.br.ReadSlice('\n')
		if !tooLong && len(line)+len(frag) > max+1 {
			tooLong, line = true, line[:min(len(line), keep)]
		}
		if !tooLong {
			line = append(line, frag...)
		} else if len(line) < keep {
			line = append(line, frag[:min(len(frag), keep-len(line))]...)
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, e
	}
}

// idSwap keeps request ids exactly as the client wrote them. The SDK reads
// a numeric id as a float and writes back an integer (1.5 comes back as 1,
// 2^53+1 as 2^53, 1e2 as 100): such an id is swapped for a string of ours
// on the way in and back on the way out. Plain integers, the common case,
// pass untouched.
type idSwap struct {
	prefix string
	mu     sync.Mutex
	next   int
	raw    map[string]json.RawMessage // our id, quoted → the client's
}

// swap rewrites a request whose id the SDK would change, and a
// cancellation that names such a request; m is line's top level.
func (x *idSwap) swap(line []byte, m top) []byte {
	switch {
	case m.method() != "" && len(m.ID) > 0 && !exactID(m.ID):
		x.mu.Lock()
		x.next++
		ours := strconv.Quote(x.prefix + strconv.Itoa(x.next))
		x.raw[ours] = m.ID
		x.mu.Unlock()
		return setField(line, "id", ours)
	case m.method() == "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.Params, &p) != nil || len(p.RequestID) == 0 {
			return line
		}
		x.mu.Lock()
		defer x.mu.Unlock()
		for ours, raw := range x.raw {
			if bytes.Equal(raw, p.RequestID) {
				var v map[string]json.RawMessage
				if json.Unmarshal(line, &v) == nil {
					return setField(line, "params", string(setField(v["params"], "requestId", ours)))
				}
			}
		}
	}
	return line
}

// restore puts back the client's id in a response to a swapped request.
func (x *idSwap) restore(p []byte) []byte {
	x.mu.Lock()
	defer x.mu.Unlock()
	for ours, raw := range x.raw {
		key := []byte(`"id":` + ours)
		if i := bytes.Index(p, key); i >= 0 {
			delete(x.raw, ours)
			out := append([]byte(nil), p[:i]...)
			out = append(append(append(out, `"id":`...), raw...), p[i+len(key):]...)
			return out
		}
	}
	return p
}

// exactID reports whether the SDK gives id back as written: a string, or
// an integer it can hold exactly, written plainly.
func exactID(id json.RawMessage) bool {
	if id[0] == '"' {
		return true
	}
	v, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && v >= -(1<<53) && v <= 1<<53 && strconv.FormatInt(v, 10) == string(id)
}

// setField returns the JSON object obj with key set to the raw value v.
func setField(obj []byte, key, v string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return obj
	}
	m[key] = json.RawMessage(v)
	b, err := json.Marshal(m)
	if err != nil {
		return obj
	}
	return b
}

// check decodes line, its id swapped if need be, and says whether it is a
// request (a method and an id); or it says why the SDK would not accept
// it. It reads the line once for all of that (the SDK's decoder only for
// what the guard leaves to it).
func check(line []byte, x *idSwap) (m jsonrpc.Message, request bool, code int64, msg string) {
	f, t, err := topLevel(line)
	if err != nil {
		switch {
		case !json.Valid(line):
			return nil, false, -32700, "parse error: the line is not valid JSON"
		case bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")):
			return nil, false, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported: send one message per line"
		}
		if _, derr := jsonrpc.DecodeMessage(line); derr != nil {
			err = derr // the SDK's words, as before the guard read it
		}
		return nil, false, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	if len(t.ID) > 0 && t.Method == nil && t.Result == nil && t.Error == nil {
		return nil, false, jsonrpc.CodeInvalidRequest, "invalid request: a request needs a method"
	}
	if swapped := x.swap(line, t); &swapped[0] != &line[0] {
		line, f = swapped, nil // read again, as it now is
	}
	m, ok := decodeRequest(line, f)
	if !ok {
		if m, err = jsonrpc.DecodeMessage(line); err != nil {
			return nil, false, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
		}
	}
	return m, t.Method != nil && len(t.ID) > 0 && string(t.ID) != "null", 0, ""
}

// topLevel reads the members of a JSON-RPC message by their exact names,
// as the SDK does: a "Method" is not its method.
func topLevel(line []byte) (map[string]json.RawMessage, top, error) {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, top{}, err
	}
	t := top{ID: f["id"], Result: f["result"], Error: f["error"], Params: f["params"]}
	if raw := f["method"]; raw != nil && string(raw) != "null" {
		t.Method = new(string)
		if err := json.Unmarshal(raw, t.Method); err != nil {
			return nil, top{}, err
		}
	}
	return f, t, nil
}

// decodeRequest decodes a request or notification as [jsonrpc.DecodeMessage]
// would, with the standard library: the SDK's decoder takes a 32 KiB buffer
// for each value it reads, two for each message (the message, its method),
// on the way to every call. It reads the keys exactly as the SDK does
// (case-sensitive) and gives up (false) on anything it would not take as
// it is: a response, an id neither a number nor a string, a version other
// than "2.0", nesting deeper than the SDK allows; DecodeMessage decides
// those, with its own words for what is wrong. f is line's top level
// (topLevel), or nil to read it here.
func decodeRequest(line []byte, f map[string]json.RawMessage) (jsonrpc.Message, bool) {
	if tooDeep(line, maxDepth) {
		return nil, false
	}
	if f == nil && json.Unmarshal(line, &f) != nil {
		return nil, false
	}
	if string(f["jsonrpc"]) != `"2.0"` || f["result"] != nil || f["error"] != nil {
		return nil, false
	}
	var method string
	if raw := f["method"]; raw == nil || raw[0] != '"' || json.Unmarshal(raw, &method) != nil {
		return nil, false
	}
	var id jsonrpc.ID
	if raw := f["id"]; raw != nil && string(raw) != "null" {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return nil, false
		}
		switch v.(type) {
		case float64, string:
		default:
			return nil, false
		}
		var err error
		if id, err = jsonrpc.MakeID(v); err != nil {
			return nil, false
		}
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: f["params"]}, true
}

// maxDepth is the deepest nesting of objects and arrays the SDK's decoder
// accepts in a message.
const maxDepth = 1000

// tooDeep reports whether the JSON in data nests objects and arrays deeper
// than max, as the SDK's check counts it.
func tooDeep(data []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > max {
				return true
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}

// top is the top level of a JSON-RPC message, read once per line for the
// checks above and the id swap (topLevel).
type top struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	Params json.RawMessage `json:"params"`
}

func (t top) method() string {
	if t.Method == nil {
		return ""
	}
	return *t.Method
}

// idOf extracts the id of a malformed request, if it has a usable one. A
// line cut short (too long) is read key by key until its id.
func idOf(line []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" && len(v) > 0 && strings.ContainsRune(`"-0123456789`, rune(v[0])) {
			return v
		}
	}
	return nil
}

func reply(w *lockedWriter, id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	w.send(append(b, '\n'), true)
}
