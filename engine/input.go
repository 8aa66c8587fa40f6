package engine

import (
	"fmt"
	"os"
	"sync"
)

// inputCap bounds stdin bytes queued for a job that is not reading them.
const inputCap = 4 << 20

// inputQueue feeds a job's stdin from its own goroutine, so a child that
// stops reading never blocks the caller (or the UI) that sends it input.
type inputQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	buf     []byte
	closing bool // close once buf is written
	err     error
	w       *os.File
}

func newInputQueue(w *os.File) *inputQueue {
	q := &inputQueue{w: w}
	q.cond = sync.NewCond(&q.mu)
	go q.run()
	return q
}

// Write queues p and returns how many bytes were accepted.
func (q *inputQueue) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case q.err != nil:
		return 0, fmt.Errorf("stdin: %w", q.err)
	case q.closing:
		return 0, fmt.Errorf("stdin was closed")
	}
	n := min(len(p), inputCap-len(q.buf))
	q.buf = append(q.buf, p[:n]...)
	q.cond.Signal()
	if n < len(p) {
		return n, fmt.Errorf("stdin queue full: accepted %d of %d bytes; the job is not reading its input", n, len(p))
	}
	return n, nil
}

// Close closes stdin after the queued bytes are written.
func (q *inputQueue) Close() {
	q.mu.Lock()
	q.closing = true
	q.cond.Signal()
	q.mu.Unlock()
}

// Abort closes stdin now, dropping what is queued (the job has exited).
func (q *inputQueue) Abort() {
	q.mu.Lock()
	q.closing = true
	q.buf = nil
	if q.err == nil {
		q.err = fmt.Errorf("the job has exited")
	}
	q.cond.Signal()
	q.mu.Unlock()
	q.w.Close() // interrupts a blocked write
}

func (q *inputQueue) run() {
	defer q.w.Close()
	for {
		q.mu.Lock()
		for len(q.buf) == 0 && !q.closing {
			q.cond.Wait()
		}
		if len(q.buf) == 0 {
			q.mu.Unlock()
			return
		}
		chunk := q.buf
		q.buf = nil
		q.mu.Unlock()
		if _, err := q.w.Write(chunk); err != nil {
			q.mu.Lock()
			if q.err == nil {
				q.err = err
			}
			q.buf = nil
			q.mu.Unlock()
			return
		}
	}
}
