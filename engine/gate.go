package engine

import (
	"context"
	"errors"

	"tend/sandbox"
)

// Gate decides, before a command runs, whether it may: it can attach a
// warning, deny it, or hold the call while a person decides (the context is
// the calling client's). main wires it to the policy package.
type Gate func(ctx context.Context, r GateRequest) Verdict

// GateRequest is a command about to run.
type GateRequest struct {
	Command     string
	Cwd         string
	Origin      Origin
	Description string
	Answered    *Approval // see [Spec].Answered
	// Stdin is what the command will read on its stdin, when known;
	// StdinForwarded says it reads what another program sends at run time.
	Stdin          []byte
	StdinForwarded bool
	// Confinable says the command can be run in a sandbox instead of
	// waiting for a person (a job's start, not a line typed into a shell
	// that runs); Sandbox is the one it asked for, if any.
	Confinable bool
	Sandbox    sandbox.Mode
}

// Verdict is a gate's answer.
type Verdict struct {
	Warning  string       // shown with the result (e.g. why the command is destructive)
	Deny     string       // non-empty: do not run it, for this reason
	Approval *Approval    // set when a person was asked
	Command  string       // non-empty: run this instead (a person edited the command)
	Sandbox  sandbox.Mode // non-empty: run it confined so (instead of asking a person)
}

// ErrDenied is wrapped by the error of a command the gate refused.
var ErrDenied = errors.New("denied")

// DeniedError is a refused command with the gate's reason.
type DeniedError struct {
	Reason   string
	Approval *Approval
}

func (d *DeniedError) Error() string { return "denied: " + d.Reason }

// Unwrap makes [errors.Is] match [ErrDenied].
func (d *DeniedError) Unwrap() error { return ErrDenied }
