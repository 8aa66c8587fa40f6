package ui

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"syscall"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tend/engine"
	"tend/themes"
	"tend/vterm"
)

// handleKey routes a key press: a modal state first, then an attached job,
// then the current view.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	switch m.mode {
	case modeHelp:
		m.mode = modeNone
		return nil
	case modeConfirmKill:
		switch {
		case key.Matches(msg, k.Confirm.Yes):
			m.mode = modeNone
			if m.running(m.confirm) {
				m.killing[m.confirm] = true
			}
			return tea.Batch(info("killing job %s and its whole tree…", m.confirm), m.killJob(m.confirm))
		case key.Matches(msg, k.Confirm.No):
			m.mode = modeNone
		}
		return nil
	case modeConfirmRemove, modeConfirmClear:
		if key.Matches(msg, k.Confirm.Yes) {
			ids := []engine.JobID{m.confirm}
			if m.mode == modeConfirmClear {
				ids = m.finished()
			}
			m.mode = modeNone
			return m.removeJobs(ids)
		}
		if key.Matches(msg, k.Confirm.No) {
			m.mode = modeNone
		}
		return nil
	case modeConfirmRerun:
		switch {
		case key.Matches(msg, k.Confirm.Yes):
			m.mode = modeNone
			if in, ok := m.jobs[m.confirm]; ok {
				return m.restartJob(in)
			}
		case key.Matches(msg, k.Confirm.No):
			m.mode = modeNone
		}
		return nil
	case modeConfirmQuit:
		switch {
		case key.Matches(msg, k.Confirm.Yes):
			m.mode = modeNone
			return tea.Quit
		case key.Matches(msg, k.Confirm.No):
			m.mode = modeNone
		}
		return nil
	case modeSignal:
		switch {
		case key.Matches(msg, k.Picker.Up):
			m.sigIndex = (m.sigIndex + len(signals) - 1) % len(signals)
		case key.Matches(msg, k.Picker.Down):
			m.sigIndex = (m.sigIndex + 1) % len(signals)
		case key.Matches(msg, k.Picker.Pick):
			m.mode = modeNone
			return m.signalJob(m.confirm, signals[m.sigIndex])
		case key.Matches(msg, k.Picker.Cancel):
			m.mode = modeNone
		}
		return nil
	case modeFilter, modeCommand, modeSearch:
		return m.handleInputKey(msg)
	case modeApprReason, modeApprEdit, modeApprPrefix:
		return m.handleApprovalInputKey(msg)
	}
	if m.pane.copying {
		return m.pane.copyKey(msg, m.c.Keys.Copy, m.raw)
	}
	if m.focus == focusTerm {
		return m.handleTermKey(msg)
	}
	switch {
	case key.Matches(msg, k.Global.Quit):
		if n := m.Running(); n > 0 && m.opts.Attached == "" { // detaching ends nothing
			m.mode = modeConfirmQuit
			return nil
		}
		return tea.Quit
	case key.Matches(msg, k.Global.Help):
		m.mode = modeHelp
		return nil
	case key.Matches(msg, k.Global.Approvals):
		m.showOldestApproval()
		return nil
	case key.Matches(msg, k.Global.Views):
		switch m.view {
		case jobsView:
			m.view = activityView
			m.act.pull()
		case activityView:
			m.view = approvalsView
			m.appr.looked() // the person comes to look at what is shown
		default:
			m.view = jobsView
		}
		m.syncKeys()
		return nil
	case key.Matches(msg, k.Global.Theme):
		if m.c.Styles.Palette.Name == "light" {
			m.setTheme(themes.Dark())
		} else {
			m.setTheme(themes.Light())
		}
		m.themeSet = true
		return m.saveTheme(m.c.Styles.Palette.Name)
	}
	switch {
	case m.view == activityView && key.Matches(msg, k.Activity.Open):
		if id := m.act.job(); id != "" {
			if _, ok := m.jobs[id]; ok {
				m.view = jobsView
				m.syncKeys()
				return m.selectJob(id, true)
			}
			return info("job %s is no longer kept", id)
		}
		return nil
	case m.view == activityView:
		m.act.key(msg, k.Activity)
		return nil
	case m.view == approvalsView:
		return m.handleApprovalKey(msg)
	case m.listAppr:
		return m.handleListApprovalKey(msg)
	}
	return m.handleJobsKey(msg)
}

// handleListApprovalKey handles the keys while a pending approval is
// selected in the job list: its own keys, moving in the list, and the list
// keys that do not act on a job.
func (m *Model) handleListApprovalKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.Approve.Approve, k.Approve.Deny, k.Approve.Reason, k.Approve.Edit, k.Approve.Prefix, k.Approve.PageUp, k.Approve.PageDown):
		return m.handleApprovalKey(msg)
	case key.Matches(msg, k.Jobs.Up, k.Jobs.Down, k.Jobs.Top, k.Jobs.Bottom, k.Jobs.Shell, k.Jobs.Command, k.Jobs.Zoom, k.Jobs.Filter):
		return m.handleJobsKey(msg)
	}
	return nil
}

func (m *Model) handleJobsKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	p := &m.pane
	in, ok := m.selectedInfo()
	if ok {
		if why := m.notForThisJob(msg, in); why != "" {
			return info("%s", why)
		}
	}
	switch {
	case key.Matches(msg, k.Jobs.Up):
		return m.moveSelection(-1)
	case key.Matches(msg, k.Jobs.Down):
		return m.moveSelection(1)
	case key.Matches(msg, k.Jobs.Top):
		return m.moveSelection(-len(m.order))
	case key.Matches(msg, k.Jobs.Bottom):
		return m.moveSelection(len(m.order))
	case key.Matches(msg, k.Jobs.Attach):
		if ok {
			return m.attach(in)
		}
	case key.Matches(msg, k.Jobs.Background):
		if ok {
			return m.backgroundJob(in.ID)
		}
	case key.Matches(msg, k.Jobs.Kill):
		if ok {
			m.mode, m.confirm = modeConfirmKill, in.ID
		}
	case key.Matches(msg, k.Jobs.Signal):
		if ok {
			m.mode, m.confirm, m.sigIndex = modeSignal, in.ID, 0
		}
	case key.Matches(msg, k.Jobs.Remove):
		if ok {
			m.mode, m.confirm = modeConfirmRemove, in.ID
		}
	case key.Matches(msg, k.Jobs.Clear):
		if len(m.finished()) == 0 {
			return info("no finished job to remove")
		}
		m.mode = modeConfirmClear
	case key.Matches(msg, k.Jobs.Restart):
		switch {
		case ok && in.Sandbox != "":
			// It ran confined (perhaps instead of asking): again, it
			// runs as the person's, unconfined, so ask first.
			m.mode, m.confirm = modeConfirmRerun, in.ID
		case ok:
			return m.restartJob(in)
		}
	case key.Matches(msg, k.Jobs.Shell):
		return m.startJob(m.opts.Shell, "shell started in the TUI", true)
	case key.Matches(msg, k.Jobs.Command):
		m.mode, m.input = modeCommand, lineInput{prompt: "run: "}
	case key.Matches(msg, k.Jobs.Zoom):
		m.zoom = !m.zoom
		return m.layout()
	case key.Matches(msg, k.Jobs.Filter):
		m.mode, m.input = modeFilter, lineInput{prompt: "filter: ", value: m.filter}
	case key.Matches(msg, k.Pane.PageUp):
		return m.scrollPane(p.h - 1)
	case key.Matches(msg, k.Pane.PageDown):
		return m.scrollPane(-(p.h - 1))
	case key.Matches(msg, k.Pane.Search):
		m.mode, m.input = modeSearch, lineInput{prompt: "search: "}
	case key.Matches(msg, k.Pane.Next):
		return p.step(-1)
	case key.Matches(msg, k.Pane.Prev):
		return p.step(1)
	case key.Matches(msg, k.Pane.Copy):
		if ok {
			return p.copyMode()
		}
	case key.Matches(msg, k.Pane.Live):
		return p.live(m.running(p.id))
	case key.Matches(msg, k.Pane.Pager):
		if ok {
			return m.openPager(in)
		}
	}
	return nil
}

// attach sends the keyboard to a running job until the detach key.
func (m *Model) attach(in engine.Info) tea.Cmd {
	if in.Status != engine.Running {
		return info("job %s has ended: %s", in.ID, m.endText(in))
	}
	m.focus = focusTerm
	detach := keyName(m.c.Keys.Term.Detach)
	audit := m.auditCmd("attach", in.ID, "keys go to the job until "+detach)
	live := m.pane.follow(true)
	if in.PTY {
		return tea.Batch(audit, info("attached to job %s: keys go to it, ctrl+c too; %s detaches", in.ID, detach), live)
	}
	m.input = lineInput{prompt: "stdin> "}
	return tea.Batch(audit, live, info("attached to job %s: type a line for its stdin, enter sends it, ctrl+d closes stdin, ctrl+c interrupts; %s detaches", in.ID, detach))
}

// notForThisJob says why a job key does nothing to the selected job,
// instead of nothing at all: a key for a running job pressed on one that
// has ended, one for a finished job pressed on a running one, background on
// a job no agent waits on. "" when the key is not one of those or applies.
func (m *Model) notForThisJob(msg tea.KeyPressMsg, in engine.Info) string {
	k := m.c.Keys.Jobs
	running := in.Status == engine.Running
	switch {
	case !running && pressed(msg, k.Attach, k.Background, k.Kill, k.Signal):
		return fmt.Sprintf("job %s has ended (%s); %s restarts it", in.ID, endWord(in), keyName(k.Restart))
	case running && pressed(msg, k.Remove, k.Restart):
		return fmt.Sprintf("job %s is still running; %s kills it", in.ID, keyName(k.Kill))
	case running && !in.Foreground && pressed(msg, k.Background):
		return fmt.Sprintf("no agent is waiting on job %s: %s only lets an agent's waiting call return", in.ID, keyName(k.Background))
	}
	return ""
}

// pressed reports whether msg is a key of any of bs, enabled or not.
func pressed(msg tea.KeyPressMsg, bs ...key.Binding) bool {
	for _, b := range bs {
		if slices.Contains(b.Keys(), msg.String()) {
			return true
		}
	}
	return false
}

// scrollPane scrolls the selected job's output by d lines (up when
// positive).
func (m *Model) scrollPane(d int) tea.Cmd {
	return m.pane.scrollLines(d, m.running(m.pane.id))
}

// moveSelection moves the job list's selection d rows: over the pending
// approvals at its top, then the jobs.
func (m *Model) moveSelection(d int) tea.Cmd {
	return m.selectRow(m.selIndex() + d)
}

// selectRow selects row i of the job list (clamped).
func (m *Model) selectRow(i int) tea.Cmd {
	na := m.appr.len()
	n := na + len(m.order)
	if n == 0 {
		return nil
	}
	i = min(max(i, 0), n-1)
	if i < na {
		m.listAppr = true
		m.appr.setCur(m.appr.at(i).ID)
		m.scrollListTo()
		return nil
	}
	m.listAppr = false
	cmd := m.selectJob(m.order[i-na], false)
	m.scrollListTo()
	return cmd
}

// selIndex is the row of the job list's selection.
func (m *Model) selIndex() int {
	na := m.appr.len()
	if m.listAppr {
		if i := m.appr.index(m.appr.cur); i >= 0 {
			return i
		}
		return 0
	}
	if i := slices.Index(m.order, m.selected); i >= 0 {
		return na + i
	}
	return na
}

// handleInputKey edits the filter, command or search line.
func (m *Model) handleInputKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys.Input
	switch {
	case key.Matches(msg, k.Submit):
		md := m.mode
		m.mode = modeNone
		v := strings.TrimSpace(m.input.value)
		switch md {
		case modeCommand:
			if v == "" {
				return nil
			}
			return m.startJob(v, "", false)
		case modeSearch:
			return m.pane.startSearch(v)
		case modeFilter:
			return m.setFilter(v)
		}
		return nil
	case key.Matches(msg, k.Cancel):
		var cmd tea.Cmd
		if m.mode == modeFilter {
			cmd = m.setFilter("")
		}
		m.mode = modeNone
		return cmd
	}
	if m.input.key(msg) && m.mode == modeFilter {
		return m.setFilter(m.input.value) // filter as you type
	}
	return nil
}

// setFilter shows the jobs matching f; when the selected job is filtered
// out, the first one shown is selected (and its pane loaded).
func (m *Model) setFilter(f string) tea.Cmd {
	m.filter = f
	m.rebuildOrder()
	var cmd tea.Cmd
	if len(m.order) > 0 && !slices.Contains(m.order, m.selected) {
		cmd = m.selectJob(m.order[0], false)
	}
	m.scrollListTo()
	return cmd
}

// handleTermKey sends a key to the attached job; only Detach is kept.
func (m *Model) handleTermKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.c.Keys.Term.Detach) {
		m.focus = focusList
		return info("detached")
	}
	id := m.selected
	if !m.jobs[id].PTY {
		return m.pipeInputKey(id, msg)
	}
	b := termBytes(msg, m.pane.modes())
	if len(b) == 0 {
		return nil
	}
	return m.in.send(m.be, input{id: id, data: b})
}

// pipeInputKey edits the stdin line of an attached pipe job.
func (m *Model) pipeInputKey(id engine.JobID, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		line := m.input.value + "\n"
		m.input.set("")
		return tea.Batch(m.in.send(m.be, input{id: id, data: []byte(line)}), m.auditCmd("stdin", id, line))
	case "ctrl+d":
		return tea.Batch(m.in.send(m.be, input{id: id, close: true}), m.auditCmd("close_stdin", id, ""),
			info("closed the stdin of job %s", id))
	case "ctrl+c":
		return tea.Batch(m.in.send(m.be, input{id: id, sig: syscall.SIGINT}), m.auditCmd("signal", id, "SIGINT"),
			info("sent SIGINT to job %s", id))
	default:
		m.input.key(msg)
	}
	return nil
}

// handlePaste sends pasted text to an attached job or the input line.
func (m *Model) handlePaste(s string) tea.Cmd {
	switch {
	case m.mode == modeFilter || m.mode == modeCommand || m.mode == modeSearch || isApprovalMode(m.mode):
		// Into a line being typed: it edits the text and never submits it.
		// Anywhere else on an approval a paste is dropped: it cannot answer.
		m.input.paste(s)
		if m.mode == modeFilter {
			return m.setFilter(m.input.value)
		}
	case m.focus == focusTerm && !m.jobs[m.selected].PTY:
		m.input.paste(s)
	case m.focus == focusTerm:
		return m.in.send(m.be, input{id: m.selected, data: vterm.EncodePaste(s, m.pane.modes())})
	}
	return nil
}

// handleWheel scrolls what is under the mouse.
func (m *Model) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	d := 0
	switch msg.Button {
	case tea.MouseWheelUp:
		d = 3
	case tea.MouseWheelDown:
		d = -3
	default:
		return nil
	}
	if m.view == activityView {
		m.act.scroll(-d)
		return nil
	}
	if m.view == approvalsView || m.listAppr && (m.zoom || msg.X >= m.listWidth()) {
		m.appr.scrollBy(-d)
		return nil
	}
	if !m.zoom && msg.X < m.listWidth() {
		return m.moveSelection(-d / 3)
	}
	if m.mode != modeNone {
		return nil
	}
	if b := m.wheelBytes(msg); len(b) > 0 {
		return m.in.send(m.be, input{id: m.pane.id, data: b})
	}
	return m.scrollPane(d)
}

// wheelBytes is what the mouse wheel over the pane sends the job it shows,
// as a terminal would (tmux's alternate-scroll): to a running PTY job that
// asked for mouse reports, a wheel report at the cell under the mouse; to
// one showing a full-screen program on the alternate screen (less, vim,
// htop), three arrow keys a notch. nil: the wheel scrolls tend's own
// scrollback of the job instead.
func (m *Model) wheelBytes(msg tea.MouseWheelMsg) []byte {
	p := &m.pane
	if !p.pty || p.snap == nil || p.scrolledBack() || p.copying || m.listAppr || !m.running(p.id) {
		return nil
	}
	up := msg.Button == tea.MouseWheelUp
	modes := p.snap.Modes
	if modes.Mouse != vterm.MouseNone {
		// The body starts right of the list and the pane's border, below
		// the top border and the job's two header lines.
		x := min(max(msg.X-m.listWidth()-1, 0), p.w-1)
		y := min(max(msg.Y-3, 0), p.h-1)
		return vterm.EncodeWheel(up, x, y, modes)
	}
	if !p.snap.AltScreen {
		return nil
	}
	arrow := vterm.Key{Code: vterm.KeyDown}
	if up {
		arrow.Code = vterm.KeyUp
	}
	return bytes.Repeat(vterm.EncodeKey(arrow, modes), 3)
}

// handleClick selects the job clicked in the list.
func (m *Model) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	if m.view != jobsView || m.zoom || msg.Button != tea.MouseLeft || msg.X >= m.listWidth() || m.mode != modeNone || m.pane.copying {
		return nil
	}
	row := msg.Y - 2 + m.listTop // the box's top border is row 0, the header row 1
	if row >= 0 && row < m.appr.len()+len(m.order) && msg.Y >= 2 {
		return m.selectRow(row)
	}
	return nil
}
