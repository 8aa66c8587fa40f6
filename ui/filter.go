package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// NewFilter returns a tea.WithFilter function that drops mouse motion (the
// UI does not use it) and lets through at most one wheel event per
// wheelGap, so a flick of the wheel does not queue hundreds of redraws.
func NewFilter() func(tea.Model, tea.Msg) tea.Msg {
	var last time.Time
	return func(_ tea.Model, msg tea.Msg) tea.Msg {
		switch msg.(type) {
		case tea.MouseMotionMsg:
			return nil
		case tea.MouseWheelMsg:
			now := time.Now()
			if now.Sub(last) < wheelGap {
				return nil
			}
			last = now
		}
		return msg
	}
}

const wheelGap = 12 * time.Millisecond
