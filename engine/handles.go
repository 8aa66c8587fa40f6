package engine

import (
	"crypto/rand"
	"fmt"
	"time"
)

// HandleTTL is how long an output handle stays valid after it is made.
const HandleTTL = 5 * time.Minute

// handle names the whole output of a job for terminal_output_get; it is backed
// by the job's logs, not by a copy in memory.
type handle struct {
	job     JobID
	expires time.Time
}

// NewHandle makes an output handle for a job's output.
func (e *Engine) NewHandle(id JobID) string {
	h := "out-" + string(id) + "-" + rand.Text()[:8]
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	for k, v := range e.handles {
		if now.After(v.expires) {
			delete(e.handles, k)
		}
	}
	e.handles[h] = handle{job: id, expires: now.Add(HandleTTL)}
	return h
}

// ErrHandleExpired says an output handle is past its TTL or unknown.
var ErrHandleExpired = fmt.Errorf("output handle expired or unknown (handles last %s; read the job's logs with terminal_job_logs instead)", HandleTTL)

// Handle resolves an output handle to its job.
func (e *Engine) Handle(h string) (*Job, error) {
	e.mu.Lock()
	v, ok := e.handles[h]
	e.mu.Unlock()
	if !ok || time.Now().After(v.expires) {
		return nil, ErrHandleExpired
	}
	return e.Job(v.job)
}
