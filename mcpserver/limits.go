package mcpserver

import (
	"context"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits on what HTTP clients can hold of tend's: without them, idle
// connections that never send a request could take every descriptor tend
// has (and then a job cannot start), and sessions left open would each
// keep memory for an hour.
const (
	// MaxConns is how many HTTP connections are served at once; more
	// wait in the kernel's queue, holding no descriptor of tend's.
	MaxConns = 256
	// MaxSessions is how many HTTP sessions are kept; a new one beyond it
	// ends the one idle longest.
	MaxSessions = 128
)

// LimitListener accepts at most n connections at once from ln; Accept waits
// while n are open.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n)}
}

type limitListener struct {
	net.Listener
	slots chan struct{}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

// limitConn gives its slot back once, when it is closed.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// sessionCap keeps the number of HTTP sessions under a cap: it sees every
// request of every session, and when a new session's first request makes
// one too many, it ends a session that only probed (server/discover) and
// never went on, else the one idle longest (since its last request began;
// notifications do not count), never one with a tool call in flight.
type sessionCap struct {
	max int

	mu   sync.Mutex
	seen map[*mcp.ServerSession]*sessionUse // HTTP sessions
}

// sessionUse is what the cap knows of a session.
type sessionUse struct {
	last     time.Time // when its last request began
	inFlight int
	agent    bool // it has made a request past server/discover
}

func (c *sessionCap) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if ss == nil || ss.ID() == "" { // stdio and the socket: one agent each
			return next(ctx, method, req)
		}
		// A notification (initialized, cancelled) is not use: the SDK may
		// handle it after the session's next request. Only a tool call can
		// take long enough to be busy: the end of a quick request may be
		// seen after the client has gone on.
		use := !strings.HasPrefix(method, "notifications/")
		agent := use && method != "server/discover" // a probe before initialize is not an agent yet
		busy := method == "tools/call"
		c.mu.Lock()
		u, known := c.seen[ss]
		if !known {
			u = &sessionUse{last: time.Now()}
			c.seen[ss] = u
		}
		if use {
			u.last = time.Now()
		}
		u.agent = u.agent || agent
		if busy {
			u.inFlight++
		}
		c.mu.Unlock()
		if !known {
			go func() { // forget it when it ends
				_ = ss.Wait()
				c.mu.Lock()
				delete(c.seen, ss)
				c.mu.Unlock()
			}()
			c.evict(ss)
		}
		if busy {
			defer func() {
				c.mu.Lock()
				u.inFlight--
				c.mu.Unlock()
			}()
		}
		return next(ctx, method, req)
	}
}

// evict ends the sessions idle longest, other than keep, while there are
// more than the cap and some are idle.
func (c *sessionCap) evict(keep *mcp.ServerSession) {
	for {
		c.mu.Lock()
		if len(c.seen) <= c.max {
			c.mu.Unlock()
			return
		}
		var oldest *mcp.ServerSession
		for ss, u := range c.seen {
			if ss == keep || u.inFlight > 0 {
				continue
			}
			if o := c.seen[oldest]; oldest == nil || (!u.agent && o.agent) || (u.agent == o.agent && u.last.Before(o.last)) {
				oldest = ss // a probe that never became an agent goes first, then the idle longest
			}
		}
		delete(c.seen, oldest)
		c.mu.Unlock()
		if oldest == nil {
			return
		}
		oldest.Close()
	}
}
