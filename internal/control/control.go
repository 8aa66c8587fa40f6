// Package control is the socket protocol of tend's own local clients, the
// ones that are not an agent's MCP session: `tend hook` asks whether a
// command an agent's built-in shell is about to run may run (and waits for
// the person when it is held), and `tend run` runs a command as a job of
// the running tend with its output streamed back byte for byte.
//
// It shares the unix socket with MCP: a connection whose first line is a
// JSON-RPC request for a method starting with [Prefix] is served here,
// every other one is an MCP session. The socket only serves our own uid.
// Nothing here can decide an approval: a client asks, the person decides
// in the terminal UI.
//
// The wire is JSON-RPC 2.0, one message per line, one request per
// connection:
//
//	→ {"jsonrpc":"2.0","id":1,"method":"tend/check","params":CheckParams}
//	← {"jsonrpc":"2.0","id":1,"result":CheckResult}
//
//	→ {"jsonrpc":"2.0","id":1,"method":"tend/run","params":RunParams}
//	← {"jsonrpc":"2.0","method":"tend/started","params":{"job":"12"}}
//	← {"jsonrpc":"2.0","method":"tend/output","params":{"stream":"stdout","data":"<base64>"}} …
//	→ {"jsonrpc":"2.0","method":"tend/stdin","params":{"data":"<base64>"}} or {"eof":true}
//	→ {"jsonrpc":"2.0","method":"tend/signal","params":{"signal":"SIGINT"}}
//	← {"jsonrpc":"2.0","id":1,"result":RunResult}
//
//	→ {"jsonrpc":"2.0","id":1,"method":"tend/wait","params":WaitParams}
//	← {"jsonrpc":"2.0","id":1,"result":WaitResult}
//
// A run's client that goes away ends its job, as a terminal's hangup
// would.
package control

import (
	"encoding/json"
	"fmt"
)

// Prefix starts the method of every request of this protocol.
const Prefix = "tend/"

// Version is this protocol's version; a client sends it and a server that
// does not speak it says so.
const Version = 1

// Origin is who asks: the agent, its session and its tool, as the agent's
// hook was told them.
type Origin struct {
	Client  string `json:"client"`            // "claude-code", "codex", or "tend run"
	Session string `json:"session,omitempty"` // the agent's session id
	Tool    string `json:"tool,omitempty"`    // the agent's tool: "Bash"
}

// CheckParams ask whether Command may run in Cwd.
type CheckParams struct {
	Version int    `json:"version"`
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	Origin  Origin `json:"origin"`
	// Route says the command will run through tend run if allowed: a
	// command a person would be asked about is allowed here, and tend
	// run's own gate asks them.
	Route bool `json:"route,omitempty"`
}

// The decisions of a check.
const (
	Allow = "allow" // it may run: not held, allowed by a rule, or a person approved it
	Deny  = "deny"  // it must not: a deny rule, a person's denial, or no answer in time
	Ask   = "ask"   // it is held and no person watches this tend: the client's own fallback
)

// CheckResult is the answer to a check.
type CheckResult struct {
	Decision string   `json:"decision"`
	Class    string   `json:"class"`
	Reasons  []string `json:"reasons,omitempty"`
	Reason   string   `json:"reason,omitempty"`  // why, in a sentence for the agent
	By       string   `json:"by,omitempty"`      // who decided, when a person was asked
	Command  string   `json:"command,omitempty"` // the command as the person edited it, to run instead
}

// RunParams start a command as a job.
type RunParams struct {
	Version int      `json:"version"`
	Command string   `json:"command"`
	Cwd     string   `json:"cwd"`
	Env     []string `json:"env,omitempty"` // the caller's environment, over tend's
	Origin  Origin   `json:"origin"`
	// Stdin says what the caller's stdin is: "pipe" (a pipe or a file,
	// whose content the policy cannot see: an interpreter reading it is
	// held), "terminal" (a person types) or "none".
	Stdin string `json:"stdin,omitempty"`
}

// Output is a piece of a job's stdout or stderr.
type Output struct {
	Stream string `json:"stream"` // "stdout" or "stderr"
	Data   []byte `json:"data"`
}

// Stdin is a piece of the caller's stdin, or its end.
type Stdin struct {
	Data []byte `json:"data,omitempty"`
	EOF  bool   `json:"eof,omitempty"`
}

// Signal is a signal the caller received, for the job: "SIGINT".
type Signal struct {
	Signal string `json:"signal"`
}

// Started names the job.
type Started struct {
	Job string `json:"job"`
}

// RunResult is how the job ended.
type RunResult struct {
	Job      string `json:"job,omitempty"`
	Status   string `json:"status"`              // exited, killed, … or "denied"
	ExitCode *int   `json:"exit_code,omitempty"` // when it exited
	Signal   string `json:"signal,omitempty"`    // the signal that ended it
	Denied   string `json:"denied,omitempty"`    // why it did not run
	Lost     int64  `json:"lost,omitempty"`      // output bytes that could not be sent
	Note     string `json:"note,omitempty"`      // what the caller should know of how it ran
}

// WaitParams wait for a job to end, or to print a line matching For.
type WaitParams struct {
	Version int    `json:"version"`
	Job     string `json:"job"`
	For     string `json:"for,omitempty"` // a regular expression (RE2) its output is watched for
	Lines   int    `json:"lines,omitempty"`
}

// WaitResult says how the wait ended and how the job stands.
type WaitResult struct {
	Matched   bool     `json:"matched,omitempty"` // For was seen
	Match     string   `json:"match,omitempty"`
	Command   string   `json:"command"`
	Status    string   `json:"status"`
	ExitCode  *int     `json:"exit_code,omitempty"`
	Signal    string   `json:"signal,omitempty"`
	RuntimeMs int64    `json:"runtime_ms"`
	Tail      []string `json:"tail,omitempty"` // its last lines
}

// message is one line of the wire.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *int            `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("tend: %s (%d)", e.Message, e.Code) }

// IsRequest reports whether line, the first line a client sent, is a
// request of this protocol.
func IsRequest(line []byte) bool {
	var m struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(line, &m) == nil && len(m.Method) > len(Prefix) && m.Method[:len(Prefix)] == Prefix
}
