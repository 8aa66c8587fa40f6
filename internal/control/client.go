package control

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"tend/internal/discovery"
)

// ErrNoTend says no tend serves the state dir.
var ErrNoTend = errors.New("no tend is running")

// Client is a connection to the tend serving a state dir; it makes one
// request.
type Client struct {
	conn *net.UnixConn
	sc   *bufio.Scanner
	w    *writer
}

// Dial connects to the tend serving stateDir, found through its discovery
// file (which must be ours alone, as its socket and its server). With none
// live the error wraps [ErrNoTend].
func Dial(stateDir string) (*Client, error) {
	d, conn, err := discovery.FindLive(stateDir)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("%w (looked for %s)", ErrNoTend, discovery.Path(stateDir))
	}
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &Client{conn: conn, sc: sc, w: &writer{w: conn}}, nil
}

// Close closes the connection: a request in flight is withdrawn.
func (c *Client) Close() error { return c.conn.Close() }

// Check asks whether p.Command may run. It waits for the person when the
// command is held and one watches; ctx ending withdraws the request.
func (c *Client) Check(ctx context.Context, p CheckParams) (CheckResult, error) {
	p.Version = Version
	stop := context.AfterFunc(ctx, func() { c.conn.Close() })
	defer stop()
	var res CheckResult
	err := c.call("tend/check", p, &res, nil)
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, err
}

// Wait waits for a job to end, or for its output to match p.For; ctx
// ending gives up.
func (c *Client) Wait(ctx context.Context, p WaitParams) (WaitResult, error) {
	p.Version = Version
	stop := context.AfterFunc(ctx, func() { c.conn.Close() })
	defer stop()
	var res WaitResult
	err := c.call("tend/wait", p, &res, nil)
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, err
}

// Run runs p.Command as a job of the tend and waits for it: its stdout and
// stderr are written to stdout and stderr as they come, stdin is forwarded
// until it ends (nil: the job's stdin is closed at once), and each signal
// from sigs is passed to the job. A signal that comes before the job
// starts (while it waits for a person) withdraws it: the result's status
// is then "withdrawn".
// started, when not nil, is told the job's id.
func (c *Client) Run(p RunParams, stdin io.Reader, stdout, stderr io.Writer, sigs <-chan os.Signal, started func(job string)) (RunResult, error) {
	p.Version = Version
	done := make(chan struct{})
	defer close(done)
	var (
		mu        sync.Mutex
		running   bool
		withdrawn string // the signal that withdrew it
	)
	go func() {
		for {
			select {
			case s := <-sigs:
				sig, ok := s.(unix.Signal)
				if !ok {
					continue
				}
				mu.Lock()
				if !running {
					withdrawn = unix.SignalName(sig)
					mu.Unlock()
					c.conn.Close()
					return
				}
				mu.Unlock()
				c.w.notify("tend/signal", Signal{Signal: unix.SignalName(sig)})
			case <-done:
				return
			}
		}
	}()
	var res RunResult
	err := c.call("tend/run", p, &res, func(m message) error {
		switch m.Method {
		case "tend/started":
			var s Started
			json.Unmarshal(m.Params, &s)
			if started != nil {
				started(s.Job)
			}
			mu.Lock()
			first := !running
			running = true
			mu.Unlock()
			switch {
			case first && stdin != nil:
				go c.pumpStdin(stdin)
			case first:
				c.w.notify("tend/stdin", Stdin{EOF: true})
			}
		case "tend/output":
			var o Output
			if err := json.Unmarshal(m.Params, &o); err != nil {
				return err
			}
			w := stdout
			if o.Stream == "stderr" {
				w = stderr
			}
			if _, err := w.Write(o.Data); err != nil {
				return fmt.Errorf("writing the job's %s: %w", o.Stream, err)
			}
		}
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	if withdrawn != "" && err != nil {
		return RunResult{Status: "withdrawn", Signal: withdrawn}, nil
	}
	return res, err
}

// pumpStdin forwards in to the job until it ends, then closes the job's
// stdin.
func (c *Client) pumpStdin(in io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if c.w.notify("tend/stdin", Stdin{Data: buf[:n]}) != nil {
				return
			}
		}
		if err != nil {
			c.w.notify("tend/stdin", Stdin{EOF: true})
			return
		}
	}
}

// call sends a request and reads until its reply, giving every
// notification before it to note.
func (c *Client) call(method string, params, result any, note func(message) error) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	id := 1
	if err := c.w.send(message{ID: &id, Method: method, Params: b}); err != nil {
		return fmt.Errorf("tend went away: %w", err)
	}
	for c.sc.Scan() {
		var m message
		if err := json.Unmarshal(c.sc.Bytes(), &m); err != nil {
			return fmt.Errorf("tend sent a line that is not JSON-RPC: %w", err)
		}
		if m.ID == nil {
			if note != nil {
				if err := note(m); err != nil {
					return err
				}
			}
			continue
		}
		if m.Error != nil {
			return m.Error
		}
		return json.Unmarshal(m.Result, result)
	}
	if err := c.sc.Err(); err != nil {
		return fmt.Errorf("tend went away: %w", err)
	}
	return errors.New("tend went away before it answered")
}
