package engine

import "sync"

// EventKind is what happened to a job.
type EventKind int

// The event kinds.
const (
	JobStarted EventKind = iota
	JobChanged
	JobExited
	JobRemoved
)

func (k EventKind) String() string {
	switch k {
	case JobStarted:
		return "started"
	case JobChanged:
		return "changed"
	case JobExited:
		return "exited"
	case JobRemoved:
		return "removed"
	default:
		return "unknown"
	}
}

// Event is one lifecycle change. Output is not an event: it rings
// [Engine.Ready] instead.
type Event struct {
	Kind EventKind
	Job  JobID
	Info Info
}

// broker fans events out to subscribers without ever blocking the publisher
// or dropping an event: each subscriber has its own unbounded queue.
type broker struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

func (b *broker) init() { b.subs = map[*Subscription]struct{}{} }

func (b *broker) subscribe() *Subscription {
	s := &Subscription{b: b, c: make(chan Event), wake: make(chan struct{}, 1), stop: make(chan struct{})}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	go s.run()
	return s
}

func (b *broker) publish(ev Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		s.mu.Lock()
		s.queue = append(s.queue, ev)
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// Subscription receives events in order on C until Close.
type Subscription struct {
	b     *broker
	c     chan Event
	wake  chan struct{}
	stop  chan struct{}
	once  sync.Once
	mu    sync.Mutex
	queue []Event
}

// C delivers the events.
func (s *Subscription) C() <-chan Event { return s.c }

// Close ends the subscription.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.b.mu.Lock()
		delete(s.b.subs, s)
		s.b.mu.Unlock()
		close(s.stop)
	})
}

func (s *Subscription) run() {
	for {
		s.mu.Lock()
		q := s.queue
		s.queue = nil
		s.mu.Unlock()
		for _, ev := range q {
			select {
			case s.c <- ev:
			case <-s.stop:
				return
			}
		}
		select {
		case <-s.wake:
		case <-s.stop:
			return
		}
	}
}
