package mcpserver

import (
	"context"
	"net"
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
// one too many, it ends the one idle longest (since its last request ended)
// among those with no request in flight.
type sessionCap struct {
	max int

	mu   sync.Mutex
	seen map[*mcp.ServerSession]*sessionUse // HTTP sessions
}

// sessionUse is what the cap knows of a session.
type sessionUse struct {
	last     time.Time // when its last request started or ended
	inFlight int
}

func (c *sessionCap) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if ss == nil || ss.ID() == "" { // stdio and the socket: one agent each
			return next(ctx, method, req)
		}
		c.mu.Lock()
		u, known := c.seen[ss]
		if !known {
			u = &sessionUse{}
			c.seen[ss] = u
		}
		u.last = time.Now()
		u.inFlight++
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
		defer func() {
			c.mu.Lock()
			u.last = time.Now()
			u.inFlight--
			c.mu.Unlock()
		}()
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
			if ss != keep && u.inFlight == 0 && (oldest == nil || u.last.Before(c.seen[oldest].last)) {
				oldest = ss
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
