package ui

import (
	"context"
	"syscall"
	"time"

	"tend/engine"
	"tend/vterm"
)

// Backend is what the UI needs of the engine. [FromEngine] adapts an
// *engine.Engine; tests use fakes.
type Backend interface {
	// Subscribe returns the current jobs, their later lifecycle events (in
	// order, losslessly) and a function that ends the subscription.
	Subscribe() ([]engine.Info, <-chan engine.Event, func())
	// Ready is the output doorbell.
	Ready() <-chan struct{}
	List() []engine.Info
	Job(id engine.JobID) (Job, error)
	Start(ctx context.Context, spec engine.Spec) (Job, error)
	Remove(id engine.JobID) error
}

// Job is what the UI needs of one job; *engine.Job satisfies it.
type Job interface {
	Info() engine.Info
	// Read reads a stream by offset; a read of engine.Merged says which
	// bytes came from stderr.
	Read(stream engine.Stream, off int64, limit int) (engine.Chunk, error)
	Len(stream engine.Stream) (int64, error)
	// Screen and Scrollback are a PTY job's rendered terminal.
	Screen() (*vterm.Snapshot, error)
	Scrollback() ([]vterm.Line, *vterm.Snapshot, error)
	Input(data []byte) (int, error)
	CloseInput() error
	Signal(sig syscall.Signal) error
	// Kill ends the job's whole tree (a terminal job is hung up too) and
	// returns once it has ended.
	Kill(reason string)
	Background() error
	Resize(cols, rows int) error
	// Usage is what a running job's processes use now.
	Usage() (engine.Usage, bool)
}

// FromEngine adapts e to a [Backend].
func FromEngine(e *engine.Engine) Backend { return engineBackend{e} }

type engineBackend struct{ e *engine.Engine }

func (b engineBackend) Subscribe() ([]engine.Info, <-chan engine.Event, func()) {
	infos, sub := b.e.Subscribe()
	return infos, sub.C(), sub.Close
}

func (b engineBackend) Ready() <-chan struct{} { return b.e.Ready() }
func (b engineBackend) List() []engine.Info    { return b.e.List() }
func (b engineBackend) Remove(id engine.JobID) error {
	return b.e.Remove(id)
}

func (b engineBackend) Job(id engine.JobID) (Job, error) {
	j, err := b.e.Job(id)
	if err != nil {
		return nil, err
	}
	return j, nil
}

func (b engineBackend) Start(ctx context.Context, spec engine.Spec) (Job, error) {
	j, err := b.e.Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	return j, nil
}

// Call is one MCP tool call, as the Activity view shows it.
type Call struct {
	Seq      uint64 // the order calls started in
	Rev      uint64 // the record's revision at the call's last change
	Time     time.Time
	Client   string
	Agent    string // the agent as people see it: claude-code·api#2
	Session  string
	Tool     string
	Args     string
	Running  bool
	Result   string
	IsError  bool
	Status   string // ok, error, signal, denied …
	Job      engine.JobID
	Detail   string // the approval decision, the output's first lines
	Duration time.Duration
	Before   bool // served by an earlier run of tend
}

// ActivitySource is the record of MCP tool calls and connected clients
// (main adapts mcpserver's). It may be nil: the Activity view then says that
// nothing is served.
type ActivitySource interface {
	// Watch returns a coalesced doorbell rung on every new call or client
	// change, and a function that stops it.
	Watch() (<-chan struct{}, func())
	// Since returns the calls recorded or changed after revision rev, in
	// the order they started; a call in flight comes again when it ends.
	Since(rev uint64) []Call
	// Clients names the connected clients.
	Clients() []string
}

// Link is the connection to one engine the UI does not host.
type Link struct {
	Host string
	Up   bool
	Note string // why it is down, or whom it reaches
}

// LinkSource says how the connections to the engines are (tend attach).
type LinkSource interface {
	// Watch returns a doorbell rung when a connection is lost or made
	// again, and a function that stops it.
	Watch() (<-chan struct{}, func())
	Links() []Link
}

// linksDirtyMsg says a connection was lost or made again.
type linksDirtyMsg struct{}
