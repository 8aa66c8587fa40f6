package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"tend/engine"
	"tend/mcpserver"
)

// auditLog appends what happened to <state dir>/audit.jsonl, one JSON object
// a line (DESIGN §7): every tool call with its client and result summary,
// every approval decision, and every kill, signal, input and background by
// a person. It is only ever appended to.
type auditLog struct {
	mu sync.Mutex
	f  *os.File
}

// auditRecord is one line of audit.jsonl; unused fields are left out.
type auditRecord struct {
	Time       time.Time    `json:"time"`
	Kind       string       `json:"kind"` // call, approval, person
	Client     string       `json:"client,omitempty"`
	Session    string       `json:"session,omitempty"`
	Tool       string       `json:"tool,omitempty"`
	Args       string       `json:"args,omitempty"`
	Result     string       `json:"result,omitempty"`
	IsError    bool         `json:"is_error,omitempty"`
	DurationMs int64        `json:"duration_ms,omitempty"`
	Command    string       `json:"command,omitempty"`
	Cwd        string       `json:"cwd,omitempty"`
	Decision   string       `json:"decision,omitempty"`
	By         string       `json:"by,omitempty"`
	Reason     string       `json:"reason,omitempty"`
	Job        engine.JobID `json:"job_id,omitempty"`
	Action     string       `json:"action,omitempty"`
}

func openAudit(stateDir string) (*auditLog, error) {
	f, err := os.OpenFile(filepath.Join(stateDir, "audit.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	return &auditLog{f: f}, nil
}

func (a *auditLog) write(r auditRecord) {
	if a == nil {
		return
	}
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	b, _ := json.Marshal(r)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.f.Write(append(b, '\n'))
}

func (a *auditLog) Close() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.f.Close()
}

// follow records every tool call the server serves until ctx ends.
func (a *auditLog) follow(ctx context.Context, act *mcpserver.Activity) {
	if a == nil || act == nil {
		return
	}
	ring, stop := act.Watch()
	defer stop()
	var seq uint64
	for {
		for _, c := range act.Since(seq) {
			a.write(auditRecord{
				Time: c.Time, Kind: "call", Client: c.Client, Session: c.Session, Tool: c.Tool,
				Args: c.Args, Result: c.Result, IsError: c.IsError, DurationMs: c.Duration.Milliseconds(),
			})
			seq = c.Seq
		}
		select {
		case <-ring:
		case <-ctx.Done():
			for _, c := range act.Since(seq) { // the calls that ended with it
				a.write(auditRecord{Time: c.Time, Kind: "call", Client: c.Client, Session: c.Session, Tool: c.Tool, Args: c.Args, Result: c.Result, IsError: c.IsError, DurationMs: c.Duration.Milliseconds()})
			}
			return
		}
	}
}

// approval records a person's (or the timeout's) decision on a held command.
func (a *auditLog) approval(r engine.GateRequest, ap *engine.Approval) {
	a.write(auditRecord{Kind: "approval", Client: r.Origin.String(), Session: r.Origin.Session, Command: r.Command, Cwd: r.Cwd,
		Decision: ap.Decision, By: ap.By, Reason: ap.Reason, DurationMs: ap.WaitedMs})
}

// person records what a person did to a job: kill, signal, stdin, background.
func (a *auditLog) person(action string, job engine.JobID, detail string) {
	a.write(auditRecord{Kind: "person", By: "human", Action: action, Job: job, Reason: detail})
}
