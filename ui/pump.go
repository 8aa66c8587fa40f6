package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
)

// frame caps how often pane content is redrawn from engine output; the
// renderer itself stays at 60 FPS.
const frame = time.Second / 30

// screenDirtyMsg says that some job printed something since the last one.
type screenDirtyMsg struct{}

// engineEventMsg carries one lifecycle event of the engine.
type engineEventMsg struct{ ev engine.Event }

// activityDirtyMsg says that a tool call was recorded or a client came or
// went.
type activityDirtyMsg struct{}

// Pump turns engine events into engineEventMsg (each one, in order) and the
// output doorbell into at most one screenDirtyMsg per frame: the first ring
// arms a timer, rings until it fires are absorbed, and a ring after it
// arms the next, so the trailing frame is always sent. A ring of approvals
// (the approval queue's doorbell; nil when there is none) is sent at once
// as approvalsDirtyMsg: a person is told of a held command without waiting
// for a frame. Idle, it waits without waking. send is tea.Program.Send
// (tests pass a func); Pump returns when ctx ends.
func Pump(ctx context.Context, send func(tea.Msg), events <-chan engine.Event, ready, approvals <-chan struct{}) {
	var tick <-chan time.Time // nil while no frame is pending
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-events:
			send(engineEventMsg{ev})
		case <-approvals:
			send(approvalsDirtyMsg{})
		case <-ready:
			if tick == nil {
				tick = time.After(frame)
			}
		case <-tick:
			tick = nil
			send(screenDirtyMsg{})
		}
	}
}

// PumpActivity turns the activity doorbell into activityDirtyMsg, at most
// one per frame like [Pump].
func PumpActivity(ctx context.Context, send func(tea.Msg), bell <-chan struct{}) {
	var tick <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-bell:
			if tick == nil {
				tick = time.After(frame)
			}
		case <-tick:
			tick = nil
			send(activityDirtyMsg{})
		}
	}
}
