package policy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultApprovalTimeout is how long a held command waits for a person
// before it counts as denied.
const DefaultApprovalTimeout = 10 * time.Minute

// Request is a command waiting for a person's decision.
type Request struct {
	ID      int
	Command string
	Cwd     string
	Client  string // who asked: an MCP client's name and version
	Agent   string // who asked, as people tell agents apart (claude-code·api#2)
	Session string // the asking client's session
	Class   Class
	Reasons []string
	// Held are the argument vectors of the simple commands that made it
	// wait (what a person should look at first in a long command).
	Held     [][]string
	Asked    time.Time
	Deadline time.Time // when it counts as denied if no one answers
	// Host names the machine asking, in a queue of several engines (tend
	// attach); a queue leaves it empty.
	Host string
}

// Answer is a person's decision on a [Request].
type Answer struct {
	Approve bool
	// Command, when not empty, is the command as the person edited it; it
	// runs instead of the one asked for.
	Command string
	// Reason is returned to the agent with a denial.
	Reason string
	// AllowPrefix, with Approve, allows every later command of this session
	// starting with the same words (the argv prefix given here).
	AllowPrefix string
	By          string
	Waited      time.Duration
}

// ErrNoRequest says a decision named a request that is not pending.
var ErrNoRequest = errors.New("no such pending approval")

// Approvals is the queue of held commands. Only [Approvals.Decide] settles a
// request; the UI calls it on a person's key press, and nothing an agent or
// a job can send reaches it.
type Approvals struct {
	mu       sync.Mutex
	next     int
	pending  map[int]chan Answer
	requests []Request
	allowed  []Rule          // prefixes a person allowed for the rest of the session
	ended    map[int]Outcome // how recent requests ended, the last endedKept
	changed  chan struct{}
	watchers map[chan struct{}]bool // more doorbells (Watch)
	Timeout  time.Duration          // 0: DefaultApprovalTimeout
}

// Outcome is how a request left the queue.
type Outcome int

const (
	Pending   Outcome = iota // still waiting, or unknown
	Decided                  // a person answered
	TimedOut                 // no one answered in time: denied
	Withdrawn                // the agent gave up (its call ended) before an answer
)

func (o Outcome) String() string {
	return [...]string{"pending", "decided", "timed out", "withdrawn"}[o]
}

// endedKept is how many outcomes [Approvals.Outcome] remembers.
const endedKept = 256

// NewApprovals returns an empty queue.
func NewApprovals() *Approvals {
	return &Approvals{pending: map[int]chan Answer{}, ended: map[int]Outcome{}, changed: make(chan struct{}, 1)}
}

// Changed receives a value (coalesced) whenever a request is added or settled.
func (a *Approvals) Changed() <-chan struct{} { return a.changed }

func (a *Approvals) notify() {
	select {
	case a.changed <- struct{}{}:
	default:
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for w := range a.watchers {
		select {
		case w <- struct{}{}:
		default:
		}
	}
}

// Watch is a doorbell of the caller's own, rung with [Approvals.Changed]
// ([Approvals.Changed] has one reader: each supervisor connection watches
// its own), and a function that stops it.
func (a *Approvals) Watch() (<-chan struct{}, func()) {
	w := make(chan struct{}, 1)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.watchers == nil {
		a.watchers = map[chan struct{}]bool{}
	}
	a.watchers[w] = true
	return w, func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		delete(a.watchers, w)
	}
}

// Allowed reports whether a person already allowed every held command of v
// ([Verdict].Held) for this session.
func (a *Approvals) Allowed(v Verdict) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.allowed) == 0 || len(v.Held) == 0 {
		return false
	}
	for _, i := range v.Held {
		if !slices.ContainsFunc(a.allowed, func(r Rule) bool { return r.Match(v.Commands[i]) }) {
			return false
		}
	}
	return true
}

// Ask queues r and waits for a decision, the timeout (a denial), or ctx.
func (a *Approvals) Ask(ctx context.Context, r Request) (Answer, error) {
	ch := make(chan Answer, 1)
	a.mu.Lock()
	a.next++
	timeout := a.Timeout
	if timeout <= 0 {
		timeout = DefaultApprovalTimeout
	}
	r.ID, r.Asked = a.next, time.Now()
	r.Deadline = r.Asked.Add(timeout)
	a.pending[r.ID] = ch
	a.requests = append(a.requests, r)
	a.mu.Unlock()
	a.notify()
	t := time.NewTimer(timeout)
	defer t.Stop()
	var ans Answer
	var err error
	how := Decided
	select {
	case ans = <-ch:
	case <-t.C:
		ans = Answer{Reason: fmt.Sprintf("no one answered within %s", timeout), By: "timeout"}
		how = TimedOut
	case <-ctx.Done():
		err = ctx.Err()
		how = Withdrawn
	}
	if a.remove(r.ID, how) == Decided && how != Decided {
		// A person's decision came as the timer fired or the call ended:
		// the decision stands, as Decide told them.
		ans, err = <-ch, nil
	}
	ans.Waited = time.Since(r.Asked)
	return ans, err
}

// remove takes request id off the queue, ended as how unless Decide took
// it first, and returns how it ended.
func (a *Approvals) remove(id int, how Outcome) Outcome {
	a.mu.Lock()
	if _, waiting := a.pending[id]; !waiting {
		how = Decided
	}
	delete(a.pending, id)
	a.requests = slices.DeleteFunc(a.requests, func(r Request) bool { return r.ID == id })
	a.ended[id] = how
	delete(a.ended, id-endedKept)
	a.mu.Unlock()
	a.notify()
	return how
}

// Outcome says how request id left the queue: [Pending] while it waits
// or when it ended too long ago to remember.
func (a *Approvals) Outcome(id int) Outcome {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ended[id]
}

// Pending returns the requests waiting, oldest first.
func (a *Approvals) Pending() []Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.requests)
}

// Decide settles request id. An AllowPrefix must be a valid rule body
// ("npm run test" allows commands starting with those words).
func (a *Approvals) Decide(id int, ans Answer) error {
	var rule Rule
	if ans.Approve && ans.AllowPrefix != "" {
		var err error
		if rule, err = ParseRule("Bash(" + strings.TrimSpace(ans.AllowPrefix) + ":*)"); err != nil {
			return err
		}
	}
	a.mu.Lock()
	ch, ok := a.pending[id]
	if ok {
		delete(a.pending, id)
		if ans.AllowPrefix != "" && ans.Approve {
			a.allowed = append(a.allowed, rule)
		}
	}
	a.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %d", ErrNoRequest, id)
	}
	ch <- ans
	return nil
}
