package mcpserver

import (
	"crypto/rand"
	"fmt"
	"sync"
	"time"

	"tend/engine"
)

// handleTTL is how long an output handle stays valid after it is made.
const handleTTL = 5 * time.Minute

// errHandleExpired says an output handle is past its TTL or unknown.
var errHandleExpired = fmt.Errorf("output handle expired or unknown (handles last %s; read the job's logs with terminal_job_logs instead)", handleTTL)

// handles names the whole output of exec results for terminal_output_get. A
// handle is only a job id with an expiry: the output is the job's logs, not
// a copy in memory.
type handles struct {
	mu sync.Mutex
	m  map[string]handle
}

type handle struct {
	job     engine.JobID
	expires time.Time
}

// add makes a handle for a job's output, dropping expired ones.
func (h *handles) add(id engine.JobID) string {
	name := "out-" + string(id) + "-" + rand.Text()[:8]
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	if h.m == nil {
		h.m = map[string]handle{}
	}
	for k, v := range h.m {
		if now.After(v.expires) {
			delete(h.m, k)
		}
	}
	h.m[name] = handle{job: id, expires: now.Add(handleTTL)}
	return name
}

// job resolves a handle to its job's id.
func (h *handles) job(name string) (engine.JobID, error) {
	h.mu.Lock()
	v, ok := h.m[name]
	h.mu.Unlock()
	if !ok || time.Now().After(v.expires) {
		return "", errHandleExpired
	}
	return v.job, nil
}
