package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync/atomic"
	"time"
)

// BridgeLinger is how long [Bridge] waits, after the agent's input ended,
// for the server to send its last replies (an exec in flight auto-promotes
// and answers at once) before it closes the socket.
const BridgeLinger = 5 * time.Second

// replayWait is how long a tend that came back has to answer the replayed
// initialize.
const replayWait = 10 * time.Second

// BridgeRetry is how often a bridge whose tend went away looks for the
// next one.
const BridgeRetry = 250 * time.Millisecond

// Dialer connects to the tend serving the state dir now, or returns a nil
// conn when none does.
type Dialer func() (conn net.Conn, pid int, err error)

// Bridge carries an agent's stdio session to the tend behind conn, message
// by message and otherwise unchanged, so its initialize, client info and
// cancellations reach that tend. The session outlives the tend: when it
// goes away (it quit, restarted or crashed), each call in flight is
// answered with an error saying so, calls made while no tend runs are
// answered with one too, and dial is tried every [BridgeRetry] until a
// tend is back; the agent's initialize is then replayed to it (its answer
// kept from the agent, which has one) and the session goes on in the same
// process. When in ends (the agent closed its stdin or died) it half-closes
// the socket, lets the last replies through for up to [BridgeLinger], and
// closes it: the jobs stay with the tend. It returns then, or when ctx
// ends; what happened is said on logger.
func Bridge(ctx context.Context, conn net.Conn, dial Dialer, in io.Reader, out io.Writer, logger *slog.Logger) error {
	b := &bridge{out: out, dial: dial, logger: logger, pending: map[string]bool{}, asked: map[string]bool{}}
	stop := context.AfterFunc(ctx, func() { // a write blocked on a tend that stopped reading ends too
		if c := b.current.Load(); c != nil {
			(*c).Close()
		}
	})
	defer stop()
	fromAgent := make(chan []byte)
	agentDone := make(chan error, 1)
	go func() { agentDone <- lines(in, fromAgent, ctx.Done()) }()
	b.attach(conn, 0)
	defer func() {
		if b.conn != nil {
			b.conn.Close()
		}
	}()
	ticker := time.NewTicker(BridgeRetry)
	defer ticker.Stop()
	var retry <-chan time.Time // the ticker's, while no tend serves
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-fromAgent:
			if !ok {
				fromAgent = nil // its end comes on agentDone
				continue
			}
			if err := b.fromAgent(line); err != nil {
				return err
			}
		case <-b.replayBy: // the new tend never answered the replayed initialize
			b.logger.Warn("the tend that came back did not answer this session's initialize; looking for another")
			b.conn.Close() // its reader ends, and the loop hears it went
		case err := <-agentDone:
			return b.finish(err)
		case line, ok := <-b.fromServer:
			if ok {
				if err := b.fromTend(line); err != nil {
					return err
				}
				continue
			}
			if err := b.lost(); err != nil {
				return err
			}
			retry = ticker.C
		case <-retry:
			c, pid, err := dial()
			if err != nil {
				logger.Warn("a tend serves the state dir but cannot be reached", "why", err)
			}
			if c == nil {
				continue
			}
			retry = nil
			if err := b.attach(c, pid); err != nil {
				return err
			}
		}
	}
}

// bridge is a session's state between the agent and whichever tend serves
// it now. Only the loop in [Bridge] touches it.
type bridge struct {
	out    io.Writer
	dial   Dialer
	logger *slog.Logger

	conn       net.Conn        // nil while no tend serves
	fromServer chan []byte     // the tend's messages; closed when it goes
	pending    map[string]bool // ids of the agent's calls the tend has not answered
	asked      map[string]bool // ids of the tend's requests (elicitation) the agent has not answered
	replayBy   <-chan time.Time

	current     atomic.Pointer[net.Conn] // conn, for closing when ctx ends
	initialize  []byte                   // the agent's initialize request, replayed to the next tend
	initialized []byte                   // and its initialized notification
	replaying   string                   // the replayed initialize's id, while its answer is awaited
	held        [][]byte                 // the agent's messages while the replay is answered
}

// attach starts serving the session through c (a later tend: pid is its
// process), replaying the agent's initialize to it.
func (b *bridge) attach(c net.Conn, pid int) error {
	b.conn = c
	b.current.Store(&c)
	b.fromServer = make(chan []byte)
	go lines(c, b.fromServer, nil)
	if pid == 0 {
		return nil
	}
	b.logger.Warn("reconnected: a tend serves the state dir again, and this agent's session goes on there", "pid", pid)
	if b.initialize == nil {
		return nil
	}
	id, _, _ := peek(b.initialize)
	b.replaying = id
	b.replayBy = time.After(replayWait)
	return b.send(b.initialize)
}

// send writes a message to the tend; a failed write is the tend going.
func (b *bridge) send(line []byte) error {
	if _, err := b.conn.Write(append(line, '\n')); err != nil {
		b.conn.Close() // its reader ends, and the loop hears the tend went
	}
	return nil
}

func (b *bridge) toAgent(line []byte) error {
	_, err := b.out.Write(append(line, '\n'))
	return err
}

// fromAgent forwards one of the agent's messages, or answers a call itself
// while no tend serves.
func (b *bridge) fromAgent(line []byte) error {
	id, method, response := peek(line)
	if response {
		// An answer to the tend's question (an elicitation) goes only to
		// the tend that asked: ids start again at 1 with each tend, so an
		// old dialog's answer must never settle a new tend's question.
		if b.conn == nil || !b.asked[id] {
			return nil
		}
		delete(b.asked, id)
		return b.send(line)
	}
	switch method {
	case "initialize":
		b.initialize = bytes.Clone(line)
	case "notifications/initialized":
		b.initialized = bytes.Clone(line)
	}
	switch {
	case b.conn == nil:
		if id != "" && method != "" {
			return b.toAgent(errorReply(id, "no tend is running for this state dir, so the call was not run; start tend (or tend serve) and call again: this connection picks it up"))
		}
		return nil // a notification or a reply to a tend that is gone
	case b.replaying != "":
		b.held = append(b.held, bytes.Clone(line))
		return nil
	}
	if id != "" && method != "" {
		b.pending[id] = true
	}
	return b.send(line)
}

// fromTend passes one of the tend's messages to the agent.
func (b *bridge) fromTend(line []byte) error {
	id, method, response := peek(line)
	if response && id != "" && id == b.replaying {
		b.replaying, b.replayBy = "", nil
		if bytes.Contains(line, []byte(`"error"`)) {
			b.logger.Warn("the tend that came back refused this session's initialize; looking for another", "answer", string(line[:min(len(line), 300)]))
			b.conn.Close()
			return nil
		}
		if b.initialized != nil {
			b.send(b.initialized)
		}
		held := b.held
		b.held = nil
		for _, m := range held {
			if err := b.fromAgent(m); err != nil {
				return err
			}
		}
		return nil
	}
	if response {
		delete(b.pending, id)
	} else if id != "" && method != "" {
		b.asked[id] = true
	}
	return b.toAgent(line)
}

// lost answers every call the tend took with it and says so.
func (b *bridge) lost() error {
	b.conn.Close()
	b.conn, b.fromServer = nil, nil
	b.logger.Warn("the tend serving the state dir went away; calls fail until one is back, and this connection picks it up", "in flight", len(b.pending))
	for id := range b.pending {
		if err := b.toAgent(errorReply(id, "tend stopped while this call ran; what it started may have ended with it; call again once tend is back")); err != nil {
			return err
		}
	}
	clear(b.pending)
	for id := range b.asked { // the tend's open questions went with it
		if err := b.toAgent(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s,"reason":"tend stopped"}}`, id)); err != nil {
			return err
		}
	}
	clear(b.asked)
	held := b.held
	b.held, b.replaying, b.replayBy = nil, "", nil
	for _, m := range held { // sent while the replay was answered: refused now
		if err := b.fromAgent(m); err != nil {
			return err
		}
	}
	return nil
}

// finish ends the session once the agent's input ended.
func (b *bridge) finish(err error) error {
	if b.conn == nil {
		return err
	}
	if cw, ok := b.conn.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
	linger := time.After(BridgeLinger)
	for {
		select {
		case line, ok := <-b.fromServer:
			if !ok {
				return nil
			}
			if err := b.fromTend(line); err != nil {
				return err
			}
		case <-linger:
			return nil
		}
	}
}

// lines sends each line read from r to ch, without its newline, and closes
// ch at the end; stop (if not nil) ends it early.
func lines(r io.Reader, ch chan<- []byte, stop <-chan struct{}) error {
	defer close(ch)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if line = bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(line)) > 0 {
			select {
			case ch <- line:
			case <-stop:
				return nil
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// errorReply is a JSON-RPC error answering the call with id.
func errorReply(id, message string) []byte {
	msg, _ := json.Marshal(message)
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":%s}}`, id, msg)
}

// peek reads a message's top-level keys until it knows its id (as written),
// its method, and whether it is a response, never decoding more than it
// must: a reply can be a megabyte.
func peek(msg []byte) (id, method string, response bool) {
	d := json.NewDecoder(bytes.NewReader(msg))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return "", "", false
	}
	for d.More() {
		t, err := d.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return "", "", false
		}
		if key == "result" || key == "error" {
			response = true
			if id != "" {
				return id, method, response // the rest is the answer itself
			}
		}
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return "", "", false
		}
		switch key {
		case "id":
			if string(v) != "null" {
				id = string(v)
			}
		case "method":
			json.Unmarshal(v, &method)
		}
		if id != "" && (method != "" || response) {
			break
		}
	}
	return id, method, response
}
