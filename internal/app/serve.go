package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"tend/engine"
	"tend/internal/control"
	"tend/internal/discovery"
	"tend/internal/supervisor"
	"tend/mcpserver"
)

// DefaultPort is the HTTP port of the terminal UI and tend serve.
const DefaultPort = 7878

// ErrLive says another tend already serves a state dir.
var ErrLive = errors.New("another tend is serving this state dir")

// Endpoints are where a serving tend takes MCP clients.
type Endpoints struct {
	URL    string // http://127.0.0.1:<port>/mcp
	Token  string // the bearer token HTTP clients send
	Socket string // the unix socket `tend mcp` bridges to
}

// served are the listeners of a serving tend.
type served struct {
	Endpoints
	stateDir string
	http     *http.Server
	stop     context.CancelFunc // ends ServeSocket
	sockDone chan struct{}
	once     sync.Once
}

// Available checks that tend may serve stateDir: it exists (it is made,
// 0700, if it does not), is ours and 0700, and no live tend serves it. A
// discovery file that is stale or unreadable does not count: serving
// replaces it.
func Available(stateDir string) error {
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	if err := mcpserver.CheckPrivateDir(stateDir); err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	if d, c, _ := discovery.FindLive(stateDir); d != nil {
		c.Close()
		return fmt.Errorf("%w: pid %d at %s (socket %s)", ErrLive, d.Pid, d.URL, d.Socket)
	}
	return nil
}

// Serve serves the MCP server (and so the engine) over Streamable HTTP on
// 127.0.0.1:port (bearer token, Origin and Host checks) and over the unix
// socket <state dir>/tend.sock (0600 in a 0700 dir, peers of our uid
// only), and writes the discovery file (0600: url, token, socket, pid). It
// refuses when [Available] does. With anyPort, a port another program holds gives way to a free
// one. Serving stops when ctx ends or at Close; the jobs stay until Close.
func (a *App) Serve(ctx context.Context, port int, anyPort bool) (Endpoints, error) {
	if err := Available(a.stateDir); err != nil {
		return Endpoints{}, err
	}
	if _, err := discovery.Read(a.stateDir); err != nil && !errors.Is(err, os.ErrNotExist) {
		a.logger.Warn("unreadable discovery file: replacing it", "err", err)
	}
	sockPath := filepath.Join(a.stateDir, discovery.SocketName)
	sock, err := mcpserver.ListenSocket(sockPath)
	if err != nil {
		return Endpoints{}, err
	}
	ln, err := mcpserver.ListenLoopback(port)
	if err != nil && anyPort && errors.Is(err, syscall.EADDRINUSE) {
		a.logger.Warn("MCP port taken: using a free one", "port", port, "err", err)
		ln, err = mcpserver.ListenLoopback(0)
	}
	if err != nil {
		sock.Close()
		if errors.Is(err, syscall.EADDRINUSE) {
			err = fmt.Errorf("%w (another program has the port: try --port 0 for a free one)", err)
		}
		return Endpoints{}, err
	}
	s := &served{
		Endpoints: Endpoints{URL: mcpserver.URL(ln), Token: rand.Text(), Socket: sockPath},
		stateDir:  a.stateDir,
		sockDone:  make(chan struct{}),
	}
	s.http = &http.Server{
		Handler: a.MCP.HTTPHandler(mcpserver.HTTPOptions{Token: s.Token}),
		// A connection that sends nothing, or a request that never ends,
		// is cut; a long response (an SSE stream) is not.
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(a.logger.Handler(), slog.LevelDebug),
	}
	go func() {
		if err := s.http.Serve(mcpserver.LimitListener(ln, mcpserver.MaxConns)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.logger.Error("HTTP server stopped", "err", err)
		}
	}()
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	go func() {
		defer close(s.sockDone)
		local := &control.Server{Engine: a.Engine, Check: a.Check}
		sup := a.supervisor(s.URL)
		other := func(first []byte, peer mcpserver.Peer) func(context.Context, io.Reader, io.Writer) {
			switch {
			case control.IsRequest(first):
				return local.Serve
			case supervisor.IsRequest(first):
				// The person's, who decides on held commands: never a
				// job's.
				if err := a.admitSupervisor(peer.Pid); err != nil {
					a.logger.Warn("refused a supervisor connection", "pid", peer.Pid, "why", err)
					return func(_ context.Context, in io.Reader, out io.Writer) { supervisor.Refuse(in, out, err) }
				}
				return sup.Serve
			}
			return nil
		}
		if err := a.MCP.ServeSocket(sctx, sock, mcpserver.SocketOptions{Logger: a.logger, Other: other}); err != nil {
			a.logger.Error("socket server stopped", "err", err)
		}
	}()
	d := &discovery.File{URL: s.URL, Token: s.Token, Socket: s.Socket, Pid: os.Getpid()}
	if err := discovery.Write(a.stateDir, d); err != nil {
		s.close()
		return Endpoints{}, err
	}
	context.AfterFunc(ctx, s.close)
	a.served = s
	return s.Endpoints, nil
}

// supervisor is the server of the supervisor protocol (tend attach): the
// person's, over the engine, the approval queue and the Activity record.
// While a supervisor is attached, held commands wait for the person.
func (a *App) supervisor(url string) *supervisor.Server {
	host, _ := os.Hostname()
	return &supervisor.Server{
		Engine: a.Engine, Approvals: a.gate.approvals, Activity: a.Activity(),
		Welcome: supervisor.Welcome{Host: host, Pid: os.Getpid(), StateDir: a.stateDir, Containment: a.Engine.Containment(), Address: url},
		Person:  a.Person,
		Attached: func(delta int) {
			a.gate.attached.Add(int32(delta))
		},
	}
}

// Activity is the record of MCP tool calls, as the person's views read it.
func (a *App) Activity() supervisor.ActivitySource { return activity{a.MCP.Activity()} }

// activity adapts the MCP server's record of tool calls to the protocol's.
type activity struct{ a *mcpserver.Activity }

func (s activity) Watch() (<-chan struct{}, func()) { return s.a.Watch() }

func (s activity) Since(rev uint64) []supervisor.Call {
	calls := s.a.Since(rev)
	out := make([]supervisor.Call, len(calls))
	for i, c := range calls {
		out[i] = supervisor.Call{
			Seq: c.Seq, Rev: c.Rev, Time: c.Time, Client: c.Client, Agent: c.Agent, Session: c.Session, Tool: c.Tool,
			Args: c.Args, Running: c.Running, Result: c.Result, IsError: c.IsError, Status: c.Status,
			Job: engine.JobID(c.Job), Detail: c.Detail, Duration: c.Duration, Before: c.Before,
		}
	}
	return out
}

func (s activity) Clients() []string {
	var out []string
	for _, c := range s.a.Clients() {
		out = append(out, c.Name)
	}
	return out
}

// close stops serving: it removes the discovery file, closes both
// listeners and every connection, and waits (a little) for socket sessions
// to end. Calls in flight see their connection go, not a cancel: an exec
// becomes a background job. Jobs keep running until the engine is closed.
func (s *served) close() {
	s.once.Do(func() {
		discovery.Remove(s.stateDir)
		s.stop()
		s.http.Close()
		select {
		case <-s.sockDone:
		case <-time.After(2 * time.Second):
		}
	})
}
