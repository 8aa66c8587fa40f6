package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Approval records a person's decision on a held command.
type Approval struct {
	Required bool `json:"required"` // a person was asked (false: a prefix they allowed earlier let it run)
	// Decision is "allow", "deny", "withdrawn" (the call ended before an
	// answer) or "sandboxed" (it ran confined instead of asking anyone).
	Decision string `json:"decision"`
	By       string `json:"by,omitempty"`     // who decided: the person, the timeout, an allowed prefix
	Reason   string `json:"reason,omitempty"` // the person's reason, for a denial
	WaitedMs int64  `json:"waited_ms,omitempty"`
}

// ErrCancelled is returned by [Engine.Exec] when its call was cancelled; the
// job has been killed.
var ErrCancelled = errors.New("cancelled: the command was killed")

// Exec starts spec as a foreground job and waits for it up to budget (0:
// until it ends or its timeout kills it). It returns the job, and
// backgrounded = true when the job is still running: past the budget, or
// when a person backgrounded it, Exec returns with the process running and
// nothing lost. If ctx is cancelled outright (cause [context.Canceled], an
// MCP notifications/cancelled) the job is killed and the error wraps
// [ErrCancelled]; if ctx ends for another cause (the client went away) the
// job is left running as a background job. A command the gate refused
// returns a [*DeniedError] and no job.
func (e *Engine) Exec(ctx context.Context, spec Spec, budget time.Duration) (j *Job, backgrounded bool, err error) {
	spec.Foreground = true
	j, err = e.Start(ctx, spec)
	if err != nil {
		return nil, false, err
	}
	var after <-chan time.Time
	if budget > 0 {
		t := time.NewTimer(budget)
		defer t.Stop()
		after = t.C
	}
	select {
	case <-j.done:
		return j, false, nil
	case <-after:
	case <-j.bg:
	case <-ctx.Done():
		if context.Cause(ctx) == context.Canceled {
			j.Kill("its call was cancelled")
			return j, false, fmt.Errorf("job %s: %w", j.ID, ErrCancelled)
		}
	}
	j.mu.Lock()
	j.foreground = false
	j.mu.Unlock()
	if j.Done() { // it ended while we were deciding: report it whole
		return j, false, nil
	}
	e.publish(JobChanged, j)
	return j, true, nil
}

// ValidText returns b as a string that is valid UTF-8, so it stays valid
// JSON: invalid bytes become U+FFFD, and replaced says whether any did.
func ValidText(b []byte) (text string, replaced bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), true
}
