package vterm

import "sync"

// maxQueuedReplies bounds the reply queue: a program that floods queries
// while nobody drains the replies loses replies, not memory.
const maxQueuedReplies = 256

// replyQueue hands replies to w on a goroutine of its own, in order, so the
// emulator never blocks on a PTY master that is not being read. The goroutine
// runs only while there is something to deliver.
type replyQueue struct {
	w        func([]byte)
	mu       sync.Mutex
	queue    [][]byte
	draining bool
	dropped  uint64
}

func (q *replyQueue) send(b []byte) {
	if q.w == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.queue) >= maxQueuedReplies {
		q.dropped++
		return
	}
	q.queue = append(q.queue, b)
	if !q.draining {
		q.draining = true
		go q.drain()
	}
}

func (q *replyQueue) drain() {
	for {
		q.mu.Lock()
		if len(q.queue) == 0 {
			q.draining = false
			q.mu.Unlock()
			return
		}
		b := q.queue[0]
		q.queue[0] = nil
		q.queue = q.queue[1:]
		q.mu.Unlock()
		q.w(b)
	}
}
