package ui

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
)

// recorder is a send func that keeps what it was sent.
type recorder struct {
	mu   sync.Mutex
	msgs []tea.Msg
}

func (r *recorder) send(m tea.Msg) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, m)
}

func (r *recorder) count() (dirty, events int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.msgs {
		switch m.(type) {
		case screenDirtyMsg:
			dirty++
		case engineEventMsg:
			events++
		}
	}
	return dirty, events
}

func startPump(t *testing.T) (*recorder, chan engine.Event, chan struct{}) {
	t.Helper()
	r := &recorder{}
	events := make(chan engine.Event)
	ready := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go Pump(ctx, r.send, events, ready, nil)
	return r, events, ready
}

func TestPumpCoalescesDoorbellsIntoOneFrame(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r, _, ready := startPump(t)
		for range 1000 {
			ready <- struct{}{} // all within the first instant of the frame
		}
		synctest.Wait()
		if d, _ := r.count(); d != 0 {
			t.Fatalf("%d frames before the frame time", d)
		}
		time.Sleep(frame + time.Millisecond) // not at the very instant the frame fires
		synctest.Wait()
		if d, _ := r.count(); d != 1 {
			t.Fatalf("1000 doorbells in one frame gave %d screenDirtyMsg, want 1", d)
		}
		// Idle: no more messages, however long nothing happens.
		time.Sleep(100 * frame)
		synctest.Wait()
		if d, _ := r.count(); d != 1 {
			t.Fatalf("idle pump sent %d frames, want still 1", d)
		}
	})
}

func TestPumpAlwaysSendsTheTrailingFrame(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r, _, ready := startPump(t)
		ready <- struct{}{}
		time.Sleep(frame / 2)
		ready <- struct{}{} // absorbed by the pending frame, which is drawn after it
		time.Sleep(frame/2 + time.Millisecond)
		synctest.Wait()
		if d, _ := r.count(); d != 1 {
			t.Fatalf("after the first frame: %d frames, want 1", d)
		}
		// Output that arrives just after a frame was sent gets a frame of its own.
		ready <- struct{}{}
		synctest.Wait()
		time.Sleep(frame + time.Millisecond)
		synctest.Wait()
		if d, _ := r.count(); d != 2 {
			t.Fatalf("the trailing doorbell gave %d frames in all, want 2", d)
		}
		// A steady stream gets one frame per frame time, never more.
		for range 10 {
			for range 50 {
				ready <- struct{}{}
			}
			time.Sleep(frame + time.Millisecond)
		}
		synctest.Wait()
		if d, _ := r.count(); d != 12 {
			t.Fatalf("10 busy frames gave %d frames in all, want 12", d)
		}
	})
}

func TestPumpForwardsEveryEventInOrder(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r, events, _ := startPump(t)
		for i := range 100 {
			events <- engine.Event{Kind: engine.JobStarted, Job: engine.JobID(rune('a' + i%26))}
		}
		synctest.Wait()
		if _, ev := r.count(); ev != 100 {
			t.Fatalf("forwarded %d events, want 100", ev)
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		for i, m := range r.msgs {
			if got, want := m.(engineEventMsg).ev.Job, engine.JobID(rune('a'+i%26)); got != want {
				t.Fatalf("event %d is %q, want %q", i, got, want)
			}
		}
	})
}

func TestPumpStopsWithItsContext(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			Pump(ctx, func(tea.Msg) {}, make(chan engine.Event), make(chan struct{}), nil)
			close(done)
		}()
		cancel()
		<-done
	})
}
