package supervisor

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"tend/engine"
	"tend/policy"
)

// Set is what a terminal UI supervises: the engines of one or several
// clients as one. With several, each job's id is "host/id" and its
// Info.Host names its engine, each request of the one approval queue
// names its host, and the Activity record is all of theirs; with one,
// jobs and requests are as the engine has them.
type Set struct {
	cs     []*Client
	many   bool
	cancel context.CancelFunc
	wg     sync.WaitGroup

	ready    chan struct{}
	apprBell chan struct{}
	actBells bells
	linkBell bells

	mu    sync.Mutex
	ids   map[hostID]int // approval ids: ours for each engine's
	back  map[int]hostID
	seqs  map[hostSeq]uint64 // Activity call numbers: ours for each engine's
	nextA int
	nextS uint64
}

type hostID struct {
	c  *Client
	id int
}

type hostSeq struct {
	c   *Client
	seq uint64
}

// NewSet supervises the engines of cs; Close closes them.
func NewSet(cs ...*Client) *Set {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Set{
		cs: cs, many: len(cs) > 1, cancel: cancel,
		ready: make(chan struct{}, 1), apprBell: make(chan struct{}, 1),
		ids: map[hostID]int{}, back: map[int]hostID{}, seqs: map[hostSeq]uint64{},
	}
	for _, c := range cs {
		act, stopAct := c.WatchActivity()
		link, stopLink := c.WatchLink()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer stopAct()
			defer stopLink()
			for {
				select {
				case <-ctx.Done():
					return
				case <-c.Ready():
					ring(s.ready)
				case <-c.Changed():
					ring(s.apprBell)
				case <-act:
					s.actBells.ring()
				case <-link:
					s.linkBell.ring()
				}
			}
		}()
	}
	return s
}

// Close ends every connection; the engines and their jobs run on.
func (s *Set) Close() {
	s.cancel()
	s.wg.Wait()
	for _, c := range s.cs {
		c.Close()
	}
}

// Members are the engines' clients, in the order given.
func (s *Set) Members() []*Client { return s.cs }

// outer is a job's info as the set shows it.
func (s *Set) outer(c *Client, in engine.Info) engine.Info {
	if s.many {
		in.ID, in.Host = engine.JobID(c.host+"/"+string(in.ID)), c.host
	}
	return in
}

// inner finds the client and the engine's id of a job id of the set.
func (s *Set) inner(id engine.JobID) (*Client, engine.JobID, error) {
	if !s.many {
		return s.cs[0], id, nil
	}
	host, jid, _ := strings.Cut(string(id), "/")
	for _, c := range s.cs {
		if c.host == host {
			return c, engine.JobID(jid), nil
		}
	}
	return nil, "", fmt.Errorf("job %s: %w", id, engine.ErrNoSuchJob)
}

// Subscribe returns every engine's jobs and their later events.
func (s *Set) Subscribe() ([]engine.Info, <-chan engine.Event, func()) {
	if !s.many {
		return s.cs[0].Subscribe()
	}
	q := newQueue()
	var infos []engine.Info
	var stops []func()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for _, c := range s.cs {
		in, evs, stop := c.Subscribe()
		for _, i := range in {
			infos = append(infos, s.outer(c, i))
		}
		stops = append(stops, stop)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case ev := <-evs:
					ev.Info = s.outer(c, ev.Info)
					ev.Job = ev.Info.ID
					q.push(ev)
				case <-done:
					return
				}
			}
		}()
	}
	return infos, q.out, func() {
		close(done)
		wg.Wait()
		for _, stop := range stops {
			stop()
		}
		q.close()
	}
}

// Ready is rung when any engine's jobs printed something.
func (s *Set) Ready() <-chan struct{} { return s.ready }

// List lists every engine's jobs.
func (s *Set) List() []engine.Info {
	var out []engine.Info
	for _, c := range s.cs {
		for _, in := range c.List() {
			out = append(out, s.outer(c, in))
		}
	}
	return out
}

// Job returns a handle on job id.
func (s *Set) Job(id engine.JobID) (*Job, error) {
	c, jid, err := s.inner(id)
	if err != nil {
		return nil, err
	}
	j, err := c.Job(jid)
	if err != nil {
		return nil, err
	}
	j.set = s
	return j, nil
}

// Start starts a job as the person, on the first engine.
func (s *Set) Start(ctx context.Context, spec engine.Spec) (*Job, error) {
	j, err := s.cs[0].Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	j.set = s
	return j, nil
}

// Remove removes a finished job.
func (s *Set) Remove(id engine.JobID) error {
	c, jid, err := s.inner(id)
	if err != nil {
		return err
	}
	return c.Remove(jid)
}

// Action records what the person did in the job's engine's audit log.
func (s *Set) Action(action string, id engine.JobID, detail string) {
	if c, jid, err := s.inner(id); err == nil {
		c.Action(action, jid, detail)
	}
}

// Pending is every engine's queue as one, oldest first.
func (s *Set) Pending() []policy.Request {
	var out []policy.Request
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.cs {
		for _, r := range c.Pending() {
			k := hostID{c, r.ID}
			id, ok := s.ids[k]
			if !ok {
				s.nextA++
				id = s.nextA
				s.ids[k], s.back[id] = id, k
			}
			r.ID = id
			if s.many {
				r.Host = c.host
			}
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b policy.Request) int { return a.Asked.Compare(b.Asked) })
	return out
}

// Decide settles request id in its engine's queue.
func (s *Set) Decide(id int, ans policy.Answer) error {
	s.mu.Lock()
	k, ok := s.back[id]
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %d", policy.ErrNoRequest, id)
	}
	return k.c.Decide(k.id, ans)
}

// Changed is rung when any engine's queue changed.
func (s *Set) Changed() <-chan struct{} { return s.apprBell }

// Outcome says how request id ended.
func (s *Set) Outcome(id int) policy.Outcome {
	s.mu.Lock()
	k, ok := s.back[id]
	s.mu.Unlock()
	if !ok {
		return policy.Pending
	}
	return k.c.Outcome(k.id)
}

// Activity is every engine's Activity record as one.
func (s *Set) Activity() ActivitySource { return setActivity{s} }

type setActivity struct{ s *Set }

func (a setActivity) Watch() (<-chan struct{}, func()) { return a.s.actBells.add() }

// Since returns the calls of every engine received after rev, in the
// order they were first seen here.
func (a setActivity) Since(rev uint64) []Call {
	s := a.s
	var out []Call
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.cs {
		for _, call := range c.Since(rev) {
			k := hostSeq{c, call.Seq}
			seq, ok := s.seqs[k]
			if !ok {
				s.nextS++
				seq = s.nextS
				s.seqs[k] = seq
			}
			call.Seq = seq
			if s.many {
				call.Agent = c.host + " " + cmp.Or(call.Agent, call.Client)
				if call.Job != "" {
					call.Job = engine.JobID(c.host + "/" + string(call.Job))
				}
			}
			out = append(out, call)
		}
	}
	if len(s.seqs) > 2*keepCalls*len(s.cs) {
		// Numbers of calls the clients no longer keep.
		for k, seq := range s.seqs {
			if seq+uint64(keepCalls*len(s.cs)) < s.nextS {
				delete(s.seqs, k)
			}
		}
	}
	slices.SortFunc(out, func(a, b Call) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// Clients names every engine's connected MCP clients.
func (a setActivity) Clients() []string {
	s := a.s
	var out []string
	for _, c := range s.cs {
		for _, n := range c.Clients() {
			if s.many {
				n = c.host + " " + n
			}
			out = append(out, n)
		}
	}
	return out
}

// Links says how each connection is.
func (s *Set) Links() []Link {
	out := make([]Link, len(s.cs))
	for i, c := range s.cs {
		out[i] = c.Link()
	}
	return out
}

// WatchLinks is rung when a connection is lost or made again.
func (s *Set) WatchLinks() (<-chan struct{}, func()) { return s.linkBell.add() }
