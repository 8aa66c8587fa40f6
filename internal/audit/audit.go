// Package audit is tend's record of what happened: <state dir>/audit.jsonl,
// one JSON object a line, only ever appended to. It holds every tool call an
// agent made (with its client and a summary of the result), every decision
// on a held command, and everything a person did to a job.
package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"tend/engine"
)

// FileName is the audit log in the state dir.
const FileName = "audit.jsonl"

// The kinds of record.
const (
	KindCall     = "call"     // an MCP tool call
	KindApproval = "approval" // a decision on a held command
	KindPerson   = "person"   // what a person did to a job in the TUI
	KindLoss     = "loss"     // output of a job that was kept nowhere, and why
)

// Record is one line of the audit log; fields that do not apply to its
// kind are left out.
type Record struct {
	Time       time.Time    `json:"time"`
	Kind       string       `json:"kind"`
	Client     string       `json:"client,omitempty"`
	Agent      string       `json:"agent,omitempty"`
	Session    string       `json:"session,omitempty"`
	Tool       string       `json:"tool,omitempty"`
	Args       string       `json:"args,omitempty"`
	Result     string       `json:"result,omitempty"`
	IsError    bool         `json:"is_error,omitempty"`
	Status     string       `json:"status,omitempty"`
	DurationMs int64        `json:"duration_ms,omitempty"`
	Command    string       `json:"command,omitempty"`
	Cwd        string       `json:"cwd,omitempty"`
	Decision   string       `json:"decision,omitempty"`
	By         string       `json:"by,omitempty"`
	Reason     string       `json:"reason,omitempty"`
	Job        engine.JobID `json:"job_id,omitempty"`
	Action     string       `json:"action,omitempty"`
}

// Log appends records to the audit log. Its methods are safe for
// concurrent use, and do nothing on a nil *Log.
type Log struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (or creates, mode 0600) the audit log of stateDir for
// appending. A link in its place is refused, not followed: another user
// must not be able to point tend's record at a file of theirs.
func Open(stateDir string) (*Log, error) {
	f, err := os.OpenFile(filepath.Join(stateDir, FileName), os.O_APPEND|os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	return &Log{f: f}, nil
}

// Write appends r as one line, whole or not at all: a line cut short by a
// full disk is taken back, since a torn line would read as a record. A zero
// Time is now. It reports whether the line was written.
func (l *Log) Write(r Record) bool {
	if l == nil {
		return false
	}
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	b, _ := json.Marshal(r)
	line := append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.f.Write(line)
	if err != nil && n > 0 {
		l.takeBack(line[:n])
	}
	return err == nil
}

// takeBack removes part, the start of a line just appended, from the end
// of the file, if it is still there (another tend may share the log).
func (l *Log) takeBack(part []byte) {
	st, err := l.f.Stat()
	if err != nil || st.Size() < int64(len(part)) {
		return
	}
	end := make([]byte, len(part))
	r, err := os.Open(l.f.Name())
	if err != nil {
		return
	}
	defer r.Close()
	if _, err := r.ReadAt(end, st.Size()-int64(len(part))); err == nil && bytes.Equal(end, part) {
		l.f.Truncate(st.Size() - int64(len(part)))
	}
}

// tailBytes bounds how much of the log's end [Tail] reads.
const tailBytes = 4 << 20

// Tail returns the last n records of kind in stateDir's audit log, oldest
// first, from at most its last 4 MiB; a missing log has none. Lines that do
// not parse are skipped.
func Tail(stateDir, kind string, n int) ([]Record, error) {
	f, err := os.OpenFile(filepath.Join(stateDir, FileName), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	from := max(st.Size()-tailBytes, 0)
	buf := make([]byte, st.Size()-from)
	if _, err := f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if from > 0 { // the first line is cut: skip it
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	var out []Record
	for line := range bytes.Lines(buf) {
		var r Record
		if json.Unmarshal(line, &r) == nil && r.Kind == kind {
			out = append(out, r)
		}
	}
	return out[max(len(out)-n, 0):], nil
}

// Close closes the log.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
