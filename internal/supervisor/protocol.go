// Package supervisor is the protocol between a person's terminal UI and an
// engine it does not host (`tend attach`): the job list and its lifecycle
// events, output reads by offset and a doorbell, PTY screens and
// scrollback, input, resizes, signals, kills, background, remove, jobs
// started as the person, the Activity record, and the approval queue with
// its decisions.
//
// It is for the person, not the agent. It shares tend's unix socket with
// MCP and with internal/control, and is told apart by the first line of a
// connection: a JSON-RPC request whose method starts with [Prefix]. An MCP
// session is a different server on a different connection, whose tools
// have no decision in them, and a method of this protocol sent inside an
// MCP session is an unknown MCP method: nothing an agent sends through
// MCP reaches [Server]. What separates the two is the protocol, not a
// credential: the socket serves only our own uid, so a program of that uid
// could speak this protocol, as it could type into the person's terminal.
//
// Why JSON-RPC over the existing socket and not a second socket or
// encoding: one socket means one place to find a tend (the discovery
// file), one permission check (SO_PEERCRED, 0600 in a 0700 dir), and
// over ssh one stdio pipe carries everything (`tend serve --stdio` bridges
// it byte for byte). JSON lines are what control and MCP already speak,
// and debuggable with socat; screens travel in a packed form ([Screen]) so
// a 120×40 frame is a few KB.
//
// The wire is JSON-RPC 2.0, one message per line, many requests per
// connection, answered in any order:
//
//	→ {"jsonrpc":"2.0","id":1,"method":"supervisor/hello","params":{"version":1,"client":"tend attach"}}
//	← {"jsonrpc":"2.0","id":1,"result":Welcome}
//	→ {"jsonrpc":"2.0","id":2,"method":"supervisor/subscribe"}
//	← {"jsonrpc":"2.0","id":2,"result":{"jobs":[Info…]}}
//	← {"jsonrpc":"2.0","method":"supervisor/event","params":Event}       every later lifecycle event, in order
//	← {"jsonrpc":"2.0","method":"supervisor/ready"}                      output doorbell (coalesced)
//	← {"jsonrpc":"2.0","method":"supervisor/approvals","params":Queue}   the queue, whenever it changes
//	← {"jsonrpc":"2.0","method":"supervisor/activity","params":Activity} calls recorded or changed
//
// and requests for each job (see the methods below). The first request
// must be supervisor/hello; a version the server does not speak is refused
// with a sentence saying both versions, and the connection ends.
package supervisor

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"tend/engine"
	"tend/policy"
	"tend/vterm"
)

// Prefix starts the method of every request of this protocol.
const Prefix = "supervisor/"

// Version is this protocol's version. It changes whenever a message or a
// type it carries (engine.Info, engine.Spec, policy.Request …) changes
// shape.
const Version = 1

// The methods.
const (
	mHello      = "supervisor/hello"
	mSubscribe  = "supervisor/subscribe"  // → Jobs; then events, doorbells, the queue and activity as notifications
	mInfo       = "supervisor/info"       // JobParams → Info
	mRead       = "supervisor/read"       // JobParams{Stream, Off, Limit} → engine.Chunk
	mLen        = "supervisor/len"        // JobParams{Stream} → int64
	mScreen     = "supervisor/screen"     // JobParams{Seq} → *Screen (nil: unchanged since Seq)
	mScrollback = "supervisor/scrollback" // JobParams → Scrollback
	mInput      = "supervisor/input"      // JobParams{Data} → int
	mCloseInput = "supervisor/close_input"
	mSignal     = "supervisor/signal" // JobParams{Signal}
	mKill       = "supervisor/kill"   // JobParams{Reason}; answered once the job has ended
	mBackground = "supervisor/background"
	mResize     = "supervisor/resize" // JobParams{Cols, Rows}
	mUsage      = "supervisor/usage"  // JobParams → *engine.Usage (nil: not running)
	mRemove     = "supervisor/remove"
	mStart      = "supervisor/start"  // engine.Spec → Info; the job is the person's
	mDecide     = "supervisor/decide" // Decision
	mAction     = "supervisor/action" // Action: what the person did, for the audit log
	mEvent      = "supervisor/event"  // notification: Event
	mReady      = "supervisor/ready"  // notification: output doorbell
	mApprovals  = "supervisor/approvals"
	mActivity   = "supervisor/activity"
)

// Hello opens a connection.
type Hello struct {
	Version int    `json:"version"`
	Client  string `json:"client"`
}

// Welcome answers [Hello]: who serves.
type Welcome struct {
	Version     int    `json:"version"`
	Host        string `json:"host"` // the machine's hostname
	Pid         int    `json:"pid"`
	StateDir    string `json:"state_dir"`
	Containment string `json:"containment"` // how the engine holds jobs
	Address     string `json:"address"`     // where MCP is served over HTTP
}

// Info is a job's state on the wire: engine.Info, and whether the person
// started it (engine.Origin keeps that unexported, so that only tend's own
// code makes a person's job).
type Info struct {
	engine.Info
	Person bool `json:"person,omitempty"`
}

func wireInfo(in engine.Info) Info { return Info{Info: in, Person: in.Origin.IsPerson()} }

func (w Info) info() engine.Info {
	in := w.Info
	if w.Person {
		in.Origin = engine.PersonOrigin()
	}
	return in
}

// Jobs answers supervisor/subscribe: the jobs when the subscription began.
type Jobs struct {
	Jobs []Info `json:"jobs"`
}

// Event is a lifecycle event.
type Event struct {
	Kind engine.EventKind `json:"kind"`
	Info Info             `json:"info"`
}

// JobParams name a job and what to do to it.
type JobParams struct {
	Job    engine.JobID  `json:"job"`
	Stream engine.Stream `json:"stream,omitempty"`
	Off    int64         `json:"off,omitempty"`
	Limit  int           `json:"limit,omitempty"`
	Data   []byte        `json:"data,omitempty"`
	Signal int           `json:"signal,omitempty"`
	Reason string        `json:"reason,omitempty"`
	Cols   int           `json:"cols,omitempty"`
	Rows   int           `json:"rows,omitempty"`
	Seq    uint64        `json:"seq,omitempty"` // the screen the client has
	Known  bool          `json:"known,omitempty"`
}

// Queue is the approval queue: the requests waiting, oldest first, and how
// recent ones ended.
type Queue struct {
	Pending []policy.Request       `json:"pending"`
	Ended   map[int]policy.Outcome `json:"ended,omitempty"`
}

// Decision settles request ID.
type Decision struct {
	ID     int           `json:"id"`
	Answer policy.Answer `json:"answer"`
}

// Action is something the person did to a job, for the engine's audit log.
type Action struct {
	Action string       `json:"action"`
	Job    engine.JobID `json:"job"`
	Detail string       `json:"detail,omitempty"`
}

// Call is one MCP tool call of the Activity record.
type Call struct {
	Seq      uint64        `json:"seq"`
	Rev      uint64        `json:"rev"`
	Time     time.Time     `json:"time"`
	Client   string        `json:"client"`
	Agent    string        `json:"agent,omitempty"`
	Session  string        `json:"session,omitempty"`
	Tool     string        `json:"tool"`
	Args     string        `json:"args,omitempty"`
	Running  bool          `json:"running,omitempty"`
	Result   string        `json:"result,omitempty"`
	IsError  bool          `json:"is_error,omitempty"`
	Status   string        `json:"status,omitempty"`
	Job      engine.JobID  `json:"job,omitempty"`
	Detail   string        `json:"detail,omitempty"`
	Duration time.Duration `json:"duration,omitempty"`
	Before   bool          `json:"before,omitempty"`
}

// Activity is what the Activity record gained since the last one sent,
// and the clients connected now.
type Activity struct {
	Calls   []Call   `json:"calls,omitempty"`
	Clients []string `json:"clients"`
}

// Scrollback is a PTY job's scrollback and screen.
type Scrollback struct {
	Lines  []Row   `json:"lines"`
	Screen *Screen `json:"screen"`
}

// Screen is a vterm.Snapshot packed: each row as its text and style runs.
type Screen struct {
	Seq       uint64       `json:"seq"`
	Cols      int          `json:"cols"`
	Rows      int          `json:"rows"`
	Cells     []Row        `json:"cells"`
	Cursor    vterm.Cursor `json:"cursor"`
	Title     string       `json:"title,omitempty"`
	Modes     vterm.Modes  `json:"modes"`
	AltScreen bool         `json:"alt,omitempty"`
}

// Row is a row of cells: their texts one after another, each cell's text
// length and width packed in a byte (len<<2 | width; a cell's text is one
// grapheme, under 64 bytes), and runs of cells of one style.
type Row struct {
	Text  string `json:"t"`
	Cells []byte `json:"c"`
	Runs  []Run  `json:"s,omitempty"`
}

// Run is N cells of one style.
type Run struct {
	N    int         `json:"n"`
	FG   vterm.Color `json:"f,omitempty"`
	BG   vterm.Color `json:"b,omitempty"`
	Attr vterm.Attr  `json:"a,omitempty"`
}

func packScreen(s *vterm.Snapshot) *Screen {
	out := &Screen{Seq: s.Seq, Cols: s.Cols, Rows: s.Rows, Cursor: s.Cursor, Title: s.Title, Modes: s.Modes, AltScreen: s.AltScreen}
	out.Cells = make([]Row, len(s.Cells))
	for i, r := range s.Cells {
		out.Cells[i] = packRow(r)
	}
	return out
}

func (s *Screen) snapshot() *vterm.Snapshot {
	out := &vterm.Snapshot{Seq: s.Seq, Cols: s.Cols, Rows: s.Rows, Cursor: s.Cursor, Title: s.Title, Modes: s.Modes, AltScreen: s.AltScreen}
	out.Cells = make([][]vterm.Cell, len(s.Cells))
	for i, r := range s.Cells {
		out.Cells[i] = r.cells()
	}
	return out
}

func packRow(cells []vterm.Cell) Row {
	var text strings.Builder
	r := Row{Cells: make([]byte, len(cells))}
	for i, c := range cells {
		text.WriteString(c.Text)
		r.Cells[i] = byte(min(len(c.Text), 63)<<2 | c.Width&3)
		if n := len(r.Runs); n > 0 && r.Runs[n-1].FG == c.FG && r.Runs[n-1].BG == c.BG && r.Runs[n-1].Attr == c.Attr {
			r.Runs[n-1].N++
			continue
		}
		r.Runs = append(r.Runs, Run{N: 1, FG: c.FG, BG: c.BG, Attr: c.Attr})
	}
	r.Text = text.String()
	return r
}

func (r Row) cells() []vterm.Cell {
	cells := make([]vterm.Cell, len(r.Cells))
	text, run, left := r.Text, 0, 0
	for i, b := range r.Cells {
		n := min(int(b>>2), len(text))
		cells[i] = vterm.Cell{Text: text[:n], Width: int(b & 3)}
		text = text[n:]
		for left == 0 && run < len(r.Runs) {
			left = r.Runs[run].N
			run++
		}
		if left > 0 {
			st := r.Runs[run-1]
			cells[i].FG, cells[i].BG, cells[i].Attr = st.FG, st.BG, st.Attr
			left--
		}
	}
	return cells
}

// message is one line of the wire.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *int64          `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *wireError      `json:"error,omitempty"`
}

// wireError is a JSON-RPC error; Kind names an engine error the client
// turns back into its sentinel.
type wireError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Kind    string `json:"kind,omitempty"`
}

// The engine's sentinels, by the name they travel under.
var sentinels = map[string]error{
	"no_such_job":  engine.ErrNoSuchJob,
	"no_stdin":     engine.ErrNoStdin,
	"no_request":   policy.ErrNoRequest,
	"not_running":  engine.ErrNotRunning,
	"connection":   ErrLost,
	"bad_version":  ErrVersion,
	"no_approvals": ErrNoApprovals,
	"refused":      ErrRefused,
}

// ErrLost says the connection to the engine is lost (a reconnection is
// under way).
var ErrLost = errors.New("the connection to the engine is lost")

// ErrVersion says the two ends speak different versions of the protocol.
var ErrVersion = errors.New("unsupported supervisor protocol version")

// ErrRefused says the engine refused the connection: it is not the
// person's tend attach.
var ErrRefused = errors.New("supervisor connections come only from tend attach run by the person, not from a job of this tend")

// ErrNoApprovals says the engine has no approval queue.
var ErrNoApprovals = errors.New("this engine has no approval queue")

func (e *wireError) Error() string { return e.Message }

func wireErr(err error) *wireError {
	if we, ok := errors.AsType[*wireError](err); ok {
		return we
	}
	e := &wireError{Code: -32000, Message: err.Error()}
	for k, s := range sentinels {
		if errors.Is(err, s) {
			e.Kind = k
		}
	}
	return e
}

// remoteError is an error the engine answered with.
type remoteError struct {
	msg  string
	kind error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.kind }

func (e *wireError) err() error {
	return &remoteError{msg: e.Message, kind: sentinels[e.Kind]}
}

// IsRequest reports whether line, the first line a client sent, is a
// request of this protocol.
func IsRequest(line []byte) bool {
	var m struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(line, &m) == nil && strings.HasPrefix(m.Method, Prefix)
}

func versionError(theirs int) error {
	return fmt.Errorf("%w: this tend speaks version %d of the supervisor protocol, the other end %d: run the same tend version on both machines", ErrVersion, Version, theirs)
}
