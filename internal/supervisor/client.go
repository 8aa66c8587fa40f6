package supervisor

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"tend/engine"
	"tend/policy"
	"tend/vterm"
)

// Dialer opens a new byte stream to a serving engine: a socket, or the
// stdio of ssh running `tend serve --stdio` on another machine.
type Dialer func(ctx context.Context) (io.ReadWriteCloser, error)

// Link is the state of a client's connection.
type Link struct {
	Host string
	Up   bool
	// Note says why it is down and since when, or whom it serves.
	Note  string
	Since time.Time
}

// Client is a supervisor of one engine over the protocol. It keeps what
// the person sees (the jobs, the approval queue, the Activity record) as
// last sent, so a UI reading them never waits on the network; it
// reconnects when the connection is lost, and a read by offset after that
// goes on where it stopped.
type Client struct {
	host   string
	dial   Dialer
	logger *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	cur     *conn // nil while the connection is lost
	link    Link
	welcome Welcome
	jobs    map[engine.JobID]engine.Info
	subs    []*queue
	pending []policy.Request
	ended   map[int]policy.Outcome
	calls   map[uint64]Call // by the engine's Seq
	clients []string
	screens map[engine.JobID]*vterm.Snapshot

	ready    chan struct{}
	apprBell chan struct{}
	actBells bells
	linkBell bells
}

// keepCalls is how many of the Activity record's calls a client keeps,
// the most recent (the engine and the UI keep as many).
const keepCalls = 2000

// revs numbers every Activity change any client receives, so that the
// records of several engines merge into one.
var revs atomic.Uint64

// Connect connects to the engine dial reaches, names it host, and keeps
// the connection until Close. The first connection must succeed; later
// losses are retried.
func Connect(ctx context.Context, host string, dial Dialer, logger *slog.Logger) (*Client, error) {
	c := newClient(ctx, host, dial, logger)
	l, err := c.connect()
	if err != nil {
		c.cancel()
		return nil, fmt.Errorf("%s: %w", host, err)
	}
	go c.keep(l)
	return c, nil
}

// Retry is a client of an engine its first connection did not reach
// (why): it starts lost, and connects as a lost connection does again.
func Retry(ctx context.Context, host string, dial Dialer, logger *slog.Logger, why error) *Client {
	c := newClient(ctx, host, dial, logger)
	c.setLink(false, "lost: "+why.Error()+"; reconnecting")
	go c.keep(nil)
	return c
}

func newClient(ctx context.Context, host string, dial Dialer, logger *slog.Logger) *Client {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	c := &Client{
		host: host, dial: dial, logger: logger, done: make(chan struct{}),
		jobs: map[engine.JobID]engine.Info{}, ended: map[int]policy.Outcome{}, calls: map[uint64]Call{},
		screens: map[engine.JobID]*vterm.Snapshot{},
		ready:   make(chan struct{}, 1), apprBell: make(chan struct{}, 1),
	}
	c.ctx, c.cancel = context.WithCancel(context.WithoutCancel(ctx))
	return c
}

// Close ends the connection; the engine and its jobs run on.
func (c *Client) Close() {
	c.cancel()
	c.mu.Lock()
	if c.cur != nil {
		c.cur.rwc.Close()
	}
	for _, q := range c.subs {
		q.close()
	}
	c.subs = nil
	c.mu.Unlock()
	<-c.done
}

// Host is the name the client was given.
func (c *Client) Host() string { return c.host }

// Welcome is what the engine said of itself when last connected.
func (c *Client) Welcome() Welcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.welcome
}

// Link says whether the connection is up.
func (c *Client) Link() Link {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.link
}

// WatchLink is rung when the connection is lost or made again.
func (c *Client) WatchLink() (<-chan struct{}, func()) { return c.linkBell.add() }

// keep reconnects whenever the connection is lost (at once when l is
// nil: there is none yet), until Close.
func (c *Client) keep(l *conn) {
	defer close(c.done)
	for {
		if l != nil {
			select {
			case <-l.dead:
			case <-c.ctx.Done():
				return
			}
			c.setLink(false, "lost: "+l.why()+"; reconnecting")
		}
		wait := 250 * time.Millisecond
		for {
			select {
			case <-c.ctx.Done():
				return
			case <-time.After(wait):
			}
			var err error
			if l, err = c.connect(); err == nil {
				break
			}
			if errors.Is(err, ErrVersion) || errors.Is(err, ErrRefused) {
				c.setLink(false, err.Error())
				<-c.ctx.Done()
				return
			}
			c.setLink(false, "lost: "+err.Error()+"; reconnecting")
			wait = min(wait*2, 4*time.Second)
		}
	}
}

func (c *Client) setLink(up bool, note string) {
	c.mu.Lock()
	if c.link.Up != up {
		c.link.Since = time.Now()
	}
	c.link = Link{Host: c.host, Up: up, Note: note, Since: cmp.Or(c.link.Since, time.Now())}
	if !up {
		c.cur = nil
	}
	c.mu.Unlock()
	c.linkBell.ring()
	if up {
		ring(c.ready) // reads resume where they stopped
	}
}

// connect dials, says hello and subscribes.
func (c *Client) connect() (*conn, error) {
	ctx, cancel := context.WithTimeout(c.ctx, 30*time.Second)
	defer cancel()
	rwc, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	l := &conn{c: c, rwc: rwc, w: &writer{w: rwc}, calls: map[int64]*pendingCall{}, dead: make(chan struct{})}
	go l.read()
	stop := context.AfterFunc(ctx, func() { rwc.Close() })
	defer stop()
	var w Welcome
	if err := l.call(mHello, Hello{Version: Version, Client: "tend attach"}, &w, nil); err != nil {
		rwc.Close()
		return nil, err
	}
	// The reply is applied on the reading goroutine, before any event
	// that follows it.
	err = l.call(mSubscribe, nil, nil, func(raw json.RawMessage) {
		var jobs Jobs
		if json.Unmarshal(raw, &jobs) == nil {
			c.reconcile(jobs.Jobs)
		}
	})
	if err != nil {
		rwc.Close()
		return nil, err
	}
	c.mu.Lock()
	c.cur, c.welcome = l, w
	c.mu.Unlock()
	c.setLink(true, fmt.Sprintf("tend %d on %s", w.Pid, w.Host))
	return l, nil
}

// reconcile takes the jobs of a new subscription: what changed while the
// connection was lost becomes events.
func (c *Client) reconcile(wire []Info) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := map[engine.JobID]engine.Info{}
	for _, w := range wire {
		in := w.info()
		now[in.ID] = in
		old, known := c.jobs[in.ID]
		switch {
		case !known:
			c.publishLocked(engine.Event{Kind: engine.JobStarted, Job: in.ID, Info: in})
		case old.Status == engine.Running && in.Status != engine.Running:
			c.publishLocked(engine.Event{Kind: engine.JobExited, Job: in.ID, Info: in})
		default:
			c.publishLocked(engine.Event{Kind: engine.JobChanged, Job: in.ID, Info: in})
		}
	}
	for id, in := range c.jobs {
		if _, ok := now[id]; !ok {
			c.publishLocked(engine.Event{Kind: engine.JobRemoved, Job: id, Info: in})
		}
	}
	c.jobs = now
}

func (c *Client) publishLocked(ev engine.Event) {
	for _, q := range c.subs {
		q.push(ev)
	}
}

// note applies a notification.
func (c *Client) note(m message) {
	switch m.Method {
	case mEvent:
		var ev Event
		if json.Unmarshal(m.Params, &ev) != nil {
			return
		}
		in := ev.Info.info()
		c.mu.Lock()
		if ev.Kind == engine.JobRemoved {
			delete(c.jobs, in.ID)
			delete(c.screens, in.ID)
		} else {
			c.jobs[in.ID] = in
		}
		c.publishLocked(engine.Event{Kind: ev.Kind, Job: in.ID, Info: in})
		c.mu.Unlock()
	case mReady:
		ring(c.ready)
	case mApprovals:
		var q Queue
		if json.Unmarshal(m.Params, &q) != nil {
			return
		}
		c.mu.Lock()
		c.pending = q.Pending
		for id, o := range q.Ended {
			c.ended[id] = o
		}
		c.mu.Unlock()
		ring(c.apprBell)
	case mActivity:
		var a Activity
		if json.Unmarshal(m.Params, &a) != nil {
			return
		}
		c.mu.Lock()
		for _, call := range a.Calls {
			call.Rev = revs.Add(1)
			c.calls[call.Seq] = call
		}
		if len(c.calls) > keepCalls+keepCalls/4 {
			// The oldest go: an attach left open for days would keep
			// every call an agent ever made.
			seqs := slices.Sorted(maps.Keys(c.calls))
			for _, seq := range seqs[:len(seqs)-keepCalls] {
				delete(c.calls, seq)
			}
		}
		c.clients = a.Clients
		c.mu.Unlock()
		c.actBells.ring()
	}
}

// call makes a request over the current connection.
func (c *Client) call(method string, params, result any) error {
	c.mu.Lock()
	l, link := c.cur, c.link
	c.mu.Unlock()
	if l == nil {
		return fmt.Errorf("%s: %w (%s)", c.host, ErrLost, link.Note)
	}
	if err := l.call(method, params, result, nil); err != nil {
		if errors.Is(err, ErrLost) {
			return fmt.Errorf("%s: %w", c.host, err)
		}
		return err
	}
	return nil
}

// Subscribe returns the jobs, their later events (in order, losslessly;
// what changed while the connection was lost comes as events when it is
// back) and a function that ends the subscription.
func (c *Client) Subscribe() ([]engine.Info, <-chan engine.Event, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := newQueue()
	c.subs = append(c.subs, q)
	return c.listLocked(), q.out, func() {
		c.mu.Lock()
		c.subs = slices.DeleteFunc(c.subs, func(s *queue) bool { return s == q })
		c.mu.Unlock()
		q.close()
	}
}

// Ready is the output doorbell.
func (c *Client) Ready() <-chan struct{} { return c.ready }

// List returns the jobs as last known, oldest first.
func (c *Client) List() []engine.Info {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.listLocked()
}

func (c *Client) listLocked() []engine.Info {
	out := make([]engine.Info, 0, len(c.jobs))
	for _, in := range c.jobs {
		out = append(out, in)
	}
	slices.SortFunc(out, func(a, b engine.Info) int {
		x, _ := strconv.Atoi(string(a.ID))
		y, _ := strconv.Atoi(string(b.ID))
		return cmp.Or(cmp.Compare(x, y), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Job returns a handle on job id.
func (c *Client) Job(id engine.JobID) (*Job, error) {
	c.mu.Lock()
	_, ok := c.jobs[id]
	c.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("job %s: %w", id, engine.ErrNoSuchJob)
	}
	return &Job{c: c, id: id}, nil
}

// Start starts a job as the person.
func (c *Client) Start(ctx context.Context, spec engine.Spec) (*Job, error) {
	var w Info
	if err := c.call(mStart, spec, &w); err != nil {
		return nil, err
	}
	in := w.info()
	c.mu.Lock()
	if _, ok := c.jobs[in.ID]; !ok {
		c.jobs[in.ID] = in // its event may come after this answer
	}
	c.mu.Unlock()
	return &Job{c: c, id: in.ID}, nil
}

// Remove removes a finished job and its logs.
func (c *Client) Remove(id engine.JobID) error {
	return c.call(mRemove, JobParams{Job: id}, nil)
}

// Action records what the person did, in the engine's audit log.
func (c *Client) Action(action string, id engine.JobID, detail string) {
	c.call(mAction, Action{Action: action, Job: id, Detail: detail}, nil)
}

// Pending returns the held commands waiting, oldest first, as last sent.
func (c *Client) Pending() []policy.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.pending)
}

// Decide settles request id.
func (c *Client) Decide(id int, ans policy.Answer) error {
	return c.call(mDecide, Decision{ID: id, Answer: ans}, nil)
}

// Changed is rung when the queue changes.
func (c *Client) Changed() <-chan struct{} { return c.apprBell }

// Outcome says how a request that left the queue ended.
func (c *Client) Outcome(id int) policy.Outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended[id]
}

// WatchActivity is rung when the Activity record changes.
func (c *Client) WatchActivity() (<-chan struct{}, func()) { return c.actBells.add() }

// Since returns the calls received after revision rev, in the order they
// started.
func (c *Client) Since(rev uint64) []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Call
	for _, call := range c.calls {
		if call.Rev > rev {
			out = append(out, call)
		}
	}
	slices.SortFunc(out, func(a, b Call) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// Clients names the engine's connected MCP clients.
func (c *Client) Clients() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.clients)
}

// Job is a handle on one job of the engine.
type Job struct {
	c   *Client
	id  engine.JobID
	set *Set // the set that names it, when it does
}

func (j *Job) p() JobParams { return JobParams{Job: j.id} }

// Info returns the job's state now, or as last known while the
// connection is lost.
func (j *Job) Info() engine.Info {
	var w Info
	in := w.info()
	if err := j.c.call(mInfo, j.p(), &w); err != nil {
		j.c.mu.Lock()
		in = j.c.jobs[j.id]
		j.c.mu.Unlock()
	} else {
		in = w.info()
	}
	if j.set != nil {
		in = j.set.outer(j.c, in)
	}
	return in
}

// Read reads a stream by offset.
func (j *Job) Read(stream engine.Stream, off int64, limit int) (engine.Chunk, error) {
	p := j.p()
	p.Stream, p.Off, p.Limit = stream, off, limit
	var ch engine.Chunk
	err := j.c.call(mRead, p, &ch)
	return ch, err
}

// Len is how many bytes the stream has had.
func (j *Job) Len(stream engine.Stream) (int64, error) {
	p := j.p()
	p.Stream = stream
	var n int64
	err := j.c.call(mLen, p, &n)
	return n, err
}

// Screen returns the job's terminal screen; one the client has already is
// not sent again.
func (j *Job) Screen() (*vterm.Snapshot, error) {
	p := j.p()
	j.c.mu.Lock()
	have := j.c.screens[j.id]
	j.c.mu.Unlock()
	if have != nil {
		p.Seq, p.Known = have.Seq, true
	}
	var s *Screen
	if err := j.c.call(mScreen, p, &s); err != nil {
		return nil, err
	}
	if s == nil && have != nil {
		return have, nil
	}
	if s == nil {
		return nil, errors.New("the engine sent no screen")
	}
	snap := s.snapshot()
	j.c.mu.Lock()
	j.c.screens[j.id] = snap
	j.c.mu.Unlock()
	return snap, nil
}

// Scrollback returns the job's scrollback and screen.
func (j *Job) Scrollback() ([]vterm.Line, *vterm.Snapshot, error) {
	var sb Scrollback
	if err := j.c.call(mScrollback, j.p(), &sb); err != nil {
		return nil, nil, err
	}
	lines := make([]vterm.Line, len(sb.Lines))
	for i, r := range sb.Lines {
		lines[i] = vterm.Line{Cells: r.cells()}
	}
	if sb.Screen == nil {
		return nil, nil, errors.New("the engine sent no screen")
	}
	return lines, sb.Screen.snapshot(), nil
}

// Input queues data for the job's stdin.
func (j *Job) Input(data []byte) (int, error) {
	p := j.p()
	p.Data = data
	var n int
	err := j.c.call(mInput, p, &n)
	return n, err
}

// CloseInput closes the job's stdin (a terminal gets ctrl+d).
func (j *Job) CloseInput() error { return j.c.call(mCloseInput, j.p(), nil) }

// Signal signals the job's process group.
func (j *Job) Signal(sig syscall.Signal) error {
	p := j.p()
	p.Signal = int(sig)
	return j.c.call(mSignal, p, nil)
}

// Kill ends the job's whole tree and returns once it has ended (or the
// connection is lost).
func (j *Job) Kill(reason string) {
	p := j.p()
	p.Reason = reason
	j.c.call(mKill, p, nil)
}

// Background lets an exec waiting on the job return now.
func (j *Job) Background() error { return j.c.call(mBackground, j.p(), nil) }

// Resize resizes a PTY job's terminal.
func (j *Job) Resize(cols, rows int) error {
	p := j.p()
	p.Cols, p.Rows = cols, rows
	return j.c.call(mResize, p, nil)
}

// Usage is what a running job's processes use now.
func (j *Job) Usage() (engine.Usage, bool) {
	var u *engine.Usage
	if err := j.c.call(mUsage, j.p(), &u); err != nil || u == nil {
		return engine.Usage{}, false
	}
	return *u, true
}

// conn is one connection to the engine.
type conn struct {
	c   *Client
	rwc io.ReadWriteCloser
	w   *writer

	mu    sync.Mutex
	next  int64
	calls map[int64]*pendingCall
	err   error
	dead  chan struct{} // closed when the connection is gone
}

type pendingCall struct {
	reply   chan message
	onReply func(json.RawMessage) // run on the reading goroutine, before later messages
}

func (l *conn) why() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		return "the engine closed the connection"
	}
	return l.err.Error()
}

// read reads every message until the connection ends, then fails the
// calls in flight.
func (l *conn) read() {
	sc := bufio.NewScanner(l.rwc)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue
		}
		if m.ID == nil {
			l.c.note(m)
			continue
		}
		l.mu.Lock()
		pc := l.calls[*m.ID]
		delete(l.calls, *m.ID)
		l.mu.Unlock()
		if pc == nil {
			continue
		}
		if pc.onReply != nil && m.Error == nil {
			pc.onReply(m.Result)
		}
		pc.reply <- m
	}
	l.mu.Lock()
	l.err = sc.Err()
	l.calls = nil
	l.mu.Unlock()
	l.rwc.Close()
	close(l.dead)
}

func (l *conn) call(method string, params, result any, onReply func(json.RawMessage)) error {
	var b json.RawMessage
	if params != nil {
		var err error
		if b, err = json.Marshal(params); err != nil {
			return err
		}
	}
	pc := &pendingCall{reply: make(chan message, 1), onReply: onReply}
	l.mu.Lock()
	if l.calls == nil {
		l.mu.Unlock()
		return ErrLost
	}
	l.next++
	id := l.next
	l.calls[id] = pc
	l.mu.Unlock()
	if err := l.w.send(message{ID: &id, Method: method, Params: b}); err != nil {
		return fmt.Errorf("%w: %v", ErrLost, err)
	}
	select {
	case m := <-pc.reply:
		if m.Error != nil {
			return m.Error.err()
		}
		if result != nil && len(m.Result) > 0 {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-l.dead:
		return ErrLost
	}
}

// queue passes events on in order without ever blocking who pushes them.
type queue struct {
	mu   sync.Mutex
	q    []engine.Event
	wake chan struct{}
	out  chan engine.Event
	stop chan struct{}
	once sync.Once
}

func newQueue() *queue {
	q := &queue{wake: make(chan struct{}, 1), out: make(chan engine.Event), stop: make(chan struct{})}
	go q.run()
	return q
}

func (q *queue) push(ev engine.Event) {
	q.mu.Lock()
	q.q = append(q.q, ev)
	q.mu.Unlock()
	ring(q.wake)
}

func (q *queue) close() { q.once.Do(func() { close(q.stop) }) }

func (q *queue) run() {
	for {
		q.mu.Lock()
		var next []engine.Event
		next, q.q = q.q, nil
		q.mu.Unlock()
		for _, ev := range next {
			select {
			case q.out <- ev:
			case <-q.stop:
				return
			}
		}
		select {
		case <-q.wake:
		case <-q.stop:
			return
		}
	}
}

// bells are doorbells of several watchers.
type bells struct {
	mu sync.Mutex
	bs []chan struct{}
}

func (b *bells) add() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	b.mu.Lock()
	b.bs = append(b.bs, ch)
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		b.bs = slices.DeleteFunc(b.bs, func(c chan struct{}) bool { return c == ch })
		b.mu.Unlock()
	}
}

func (b *bells) ring() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.bs {
		ring(ch)
	}
}

func ring(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
