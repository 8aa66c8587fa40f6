package supervisor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"syscall"
	"time"

	"tend/engine"
	"tend/policy"
)

// ActivitySource is the Activity record a server passes on (the App adapts
// the MCP server's).
type ActivitySource interface {
	Watch() (<-chan struct{}, func())
	Since(rev uint64) []Call
	Clients() []string
}

// Server serves the protocol over an engine, for one connection at a time
// of any number.
type Server struct {
	Engine    *engine.Engine
	Approvals *policy.Approvals // nil: nothing here waits for a person
	Activity  ActivitySource    // nil: no record
	Welcome   Welcome
	// Person, when set, records what a person did to a job (audit log).
	Person func(action string, job engine.JobID, detail string)
	// Attached, when set, is told +1 when a connection subscribes and -1
	// when it ends: held commands wait for a person while one is attached.
	Attached func(delta int)
}

// maxLine bounds one message a client sends.
const maxLine = 16 << 20

// readyEvery is the most often the output doorbell is passed on: a job
// flooding rings it thousands of times a second, and the UI draws at most
// 30 frames.
const readyEvery = 10 * time.Millisecond

// Serve serves one connection: in is what the client sent (its first line
// included), out where replies go. It returns when the client goes away or
// ctx ends.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &writer{w: out}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	if !sc.Scan() {
		return
	}
	var hello message
	var h Hello
	if err := json.Unmarshal(sc.Bytes(), &hello); err != nil || hello.ID == nil || hello.Method != mHello || json.Unmarshal(hello.Params, &h) != nil {
		w.fail(hello.ID, &wireError{Code: -32600, Message: "the first request must be " + mHello})
		return
	}
	if h.Version != Version {
		w.fail(hello.ID, wireErr(versionError(h.Version)))
		return
	}
	welcome := s.Welcome
	welcome.Version = Version
	w.reply(hello.ID, welcome)
	var wg sync.WaitGroup
	defer wg.Wait()
	c := &session{s: s, w: w, ctx: ctx, wg: &wg}
	defer c.close()
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			w.fail(nil, &wireError{Code: -32700, Message: "not JSON: " + err.Error()})
			continue
		}
		if m.ID == nil {
			continue // the client sends no notifications
		}
		switch m.Method {
		case mInput, mCloseInput, mSignal, mResize:
			// In the order sent: keys typed must reach the job in order.
			c.answer(m)
		default:
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.answer(m)
			}()
		}
	}
}

// Refuse answers the first request of a connection with why, which wraps
// [ErrRefused], and serves nothing else: the client says why it was
// refused instead of seeing the connection drop.
func Refuse(in io.Reader, out io.Writer, why error) {
	w := &writer{w: out}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	if !sc.Scan() {
		return
	}
	var m message
	json.Unmarshal(sc.Bytes(), &m)
	w.fail(m.ID, wireErr(why))
}

// session is one client's connection.
type session struct {
	s   *Server
	w   *writer
	ctx context.Context
	wg  *sync.WaitGroup

	mu         sync.Mutex
	subscribed bool
}

func (c *session) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subscribed && c.s.Attached != nil {
		c.s.Attached(-1)
	}
}

func (c *session) answer(m message) {
	res, err := c.handle(m)
	if err != nil {
		c.w.fail(m.ID, wireErr(err))
		return
	}
	c.w.reply(m.ID, res)
}

func (c *session) handle(m message) (any, error) {
	var p JobParams
	if len(m.Params) > 0 && m.Method != mStart && m.Method != mDecide && m.Method != mAction {
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, fmt.Errorf("bad params: %v", err)
		}
	}
	e := c.s.Engine
	switch m.Method {
	case mSubscribe:
		return c.subscribe()
	case mStart:
		var spec engine.Spec
		if err := json.Unmarshal(m.Params, &spec); err != nil {
			return nil, fmt.Errorf("bad params: %v", err)
		}
		// The supervisor protocol is the person's: what they start is
		// theirs, never held, and says nothing it was not asked.
		spec.Origin, spec.Answered = engine.PersonOrigin(), nil
		j, err := e.Start(context.Background(), spec)
		if err != nil {
			return nil, err
		}
		return wireInfo(j.Info()), nil
	case mDecide:
		var d Decision
		if err := json.Unmarshal(m.Params, &d); err != nil {
			return nil, fmt.Errorf("bad params: %v", err)
		}
		if c.s.Approvals == nil {
			return nil, ErrNoApprovals
		}
		return nil, c.s.Approvals.Decide(d.ID, d.Answer)
	case mAction:
		var a Action
		if err := json.Unmarshal(m.Params, &a); err != nil {
			return nil, fmt.Errorf("bad params: %v", err)
		}
		if c.s.Person != nil {
			c.s.Person(a.Action, a.Job, a.Detail)
		}
		return nil, nil
	case mRemove:
		return nil, e.Remove(p.Job)
	case mInfo, mRead, mLen, mScreen, mScrollback, mInput, mCloseInput, mSignal, mKill, mBackground, mResize, mUsage:
	default:
		return nil, &wireError{Code: -32601, Message: fmt.Sprintf("no method %q in version %d of the supervisor protocol", m.Method, Version)}
	}
	j, err := e.Job(p.Job)
	if err != nil {
		return nil, err
	}
	switch m.Method {
	case mInfo:
		return wireInfo(j.Info()), nil
	case mRead:
		return j.Read(p.Stream, p.Off, min(max(p.Limit, 0), 4<<20))
	case mLen:
		return j.Len(p.Stream)
	case mScreen:
		snap, err := j.Screen()
		if err != nil || p.Known && snap.Seq == p.Seq {
			return nil, err // nil: the client has this screen
		}
		return packScreen(snap), nil
	case mScrollback:
		lines, snap, err := j.Scrollback()
		if err != nil {
			return nil, err
		}
		sb := Scrollback{Lines: make([]Row, len(lines)), Screen: packScreen(snap)}
		for i, l := range lines {
			sb.Lines[i] = packRow(l.Cells)
		}
		return sb, nil
	case mInput:
		return j.Input(p.Data)
	case mCloseInput:
		return nil, j.CloseInput()
	case mSignal:
		return nil, j.Signal(syscall.Signal(p.Signal))
	case mKill:
		j.Kill(p.Reason)
		return nil, nil
	case mBackground:
		return nil, j.Background()
	case mResize:
		return nil, j.Resize(p.Cols, p.Rows)
	case mUsage:
		if u, ok := j.Usage(); ok {
			return &u, nil
		}
	}
	return nil, nil
}

// subscribe answers with the jobs and starts passing on, as notifications,
// every later event, the output doorbell, the approval queue and the
// Activity record.
func (c *session) subscribe() (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subscribed {
		return nil, errors.New("already subscribed")
	}
	c.subscribed = true
	if c.s.Attached != nil {
		c.s.Attached(+1)
	}
	infos, sub := c.s.Engine.Subscribe()
	bell, stopBell := c.s.Engine.Bell()
	res := Jobs{Jobs: make([]Info, len(infos))}
	for i, in := range infos {
		res.Jobs[i] = wireInfo(in)
	}
	// The reply goes first: nothing is sent before it but the reply, and
	// events queue in the subscription meanwhile.
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	started := make(chan struct{})
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer sub.Close()
		defer stopBell()
		<-started
		c.forward(sub, bell)
	}()
	return replyFirst{b, started}, nil
}

// replyFirst is a reply after which started is closed.
type replyFirst struct {
	json    json.RawMessage
	started chan struct{}
}

// forward passes on events, doorbells, the queue and the record until the
// connection ends.
func (c *session) forward(sub *engine.Subscription, bell <-chan struct{}) {
	var appr <-chan struct{}
	if a := c.s.Approvals; a != nil {
		w, stop := a.Watch()
		defer stop()
		appr = w
	}
	var act <-chan struct{}
	if a := c.s.Activity; a != nil {
		w, stop := a.Watch()
		defer stop()
		act = w
	}
	sent := c.sendQueue(nil)
	var rev uint64
	rev = c.sendActivity(rev)
	var tick <-chan time.Time // a doorbell waits for it when one went out less than readyEvery ago
	var last time.Time
	for {
		select {
		case <-c.ctx.Done():
			return
		case ev := <-sub.C():
			if c.w.notify(mEvent, Event{Kind: ev.Kind, Info: wireInfo(ev.Info)}) != nil {
				return
			}
		case <-bell:
			if d := readyEvery - time.Since(last); d > 0 {
				if tick == nil {
					tick = time.After(d)
				}
				continue
			}
			last = time.Now()
			if c.w.notify(mReady, nil) != nil {
				return
			}
		case <-tick:
			tick, last = nil, time.Now()
			if c.w.notify(mReady, nil) != nil {
				return
			}
		case <-appr:
			sent = c.sendQueue(sent)
		case <-act:
			rev = c.sendActivity(rev)
		}
	}
}

// sendQueue sends the approval queue, with how the requests sent before
// that left it ended; it returns the ids it sent.
func (c *session) sendQueue(before []int) []int {
	a := c.s.Approvals
	if a == nil {
		return nil
	}
	q := Queue{Pending: a.Pending()}
	var ids []int
	for _, r := range q.Pending {
		ids = append(ids, r.ID)
	}
	for _, id := range before {
		if !slices.Contains(ids, id) {
			if q.Ended == nil {
				q.Ended = map[int]policy.Outcome{}
			}
			q.Ended[id] = a.Outcome(id)
		}
	}
	c.w.notify(mApprovals, q)
	return ids
}

// sendActivity sends the calls recorded or changed after rev and returns
// the revision sent.
func (c *session) sendActivity(rev uint64) uint64 {
	a := c.s.Activity
	if a == nil {
		return rev
	}
	act := Activity{Calls: a.Since(rev), Clients: a.Clients()}
	for _, call := range act.Calls {
		rev = max(rev, call.Rev)
	}
	c.w.notify(mActivity, act)
	return rev
}

// writer writes whole messages, one at a time.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) send(m message) error {
	m.JSONRPC = "2.0"
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.w.Write(append(b, '\n'))
	return err
}

func (w *writer) reply(id *int64, result any) error {
	var started chan struct{}
	if r, ok := result.(replyFirst); ok {
		result, started = r.json, r.started
		defer close(started)
	}
	b, err := json.Marshal(result)
	if err != nil {
		return w.fail(id, wireErr(err))
	}
	return w.send(message{ID: id, Result: b})
}

func (w *writer) notify(method string, params any) error {
	var b json.RawMessage
	if params != nil {
		var err error
		if b, err = json.Marshal(params); err != nil {
			return err
		}
	}
	return w.send(message{Method: method, Params: b})
}

func (w *writer) fail(id *int64, e *wireError) error {
	return w.send(message{ID: id, Error: e})
}
