package ui

import (
	"fmt"
	"slices"
	"strings"

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
			return tea.Batch(info("killing job %s and its whole tree…", m.confirm), m.killJob(m.confirm))
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
	case modeCopy:
		return m.handleCopyKey(msg)
	}
	if m.focus == focusTerm {
		return m.handleTermKey(msg)
	}
	switch {
	case key.Matches(msg, k.Global.Quit):
		if n := m.Running(); n > 0 {
			m.mode = modeConfirmQuit
			return nil
		}
		return tea.Quit
	case key.Matches(msg, k.Global.Help):
		m.mode = modeHelp
		return nil
	case key.Matches(msg, k.Global.Views):
		switch m.view {
		case jobsView:
			m.view = activityView
			m.act.pull()
		case activityView:
			m.view = approvalsView
			m.appr.swapped = false // the person comes to look at what is shown
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
		return nil
	}
	switch {
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
		if !ok {
			return nil
		}
		if in.Status != "running" {
			return info("job %s is not running (%s)", in.ID, exitText(in))
		}
		m.focus = focusTerm
		p.scroll, p.hist = 0, nil
		m.syncKeys()
		detach := keyName(m.c.Keys.Term.Detach)
		audit := m.auditCmd("attach", in.ID, "keys go to the job until "+detach)
		if in.PTY {
			return tea.Batch(audit, info("attached to job %s: keys go to it, ctrl+c too; %s detaches", in.ID, detach), m.fetchPane())
		}
		m.input = lineInput{prompt: "stdin> "}
		return tea.Batch(audit, info("attached to job %s: type a line for its stdin, enter sends it, ctrl+d closes stdin, ctrl+c interrupts; %s detaches", in.ID, detach))
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
			return m.removeJob(in.ID)
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
		if !p.jump(p.match - 1) {
			return info("no match for %q", p.search)
		}
	case key.Matches(msg, k.Pane.Prev):
		if !p.jump(p.match + 1) {
			return info("no match for %q", p.search)
		}
	case key.Matches(msg, k.Pane.Copy):
		if !ok {
			return nil
		}
		enter := func(p *pane) {
			m.mode = modeCopy
			start, end := p.window()
			p.copyCur = max(end-1, start)
			p.copyMarking = false
		}
		if p.pty && p.hist == nil {
			return m.loadHistory(enter)
		}
		enter(p)
	case key.Matches(msg, k.Pane.Live):
		p.scroll, p.hist, p.search, p.matches, p.match = 0, nil, "", nil, -1
		m.syncKeys()
		return m.fetchPane()
	}
	return nil
}

// scrollPane scrolls the selected job's output by d lines (up when
// positive); a PTY job's scrollback is loaded first.
func (m *Model) scrollPane(d int) tea.Cmd {
	p := &m.pane
	if p.id == "" {
		return nil
	}
	if p.pty && p.hist == nil {
		if d <= 0 {
			return nil
		}
		return m.loadHistory(func(p *pane) { p.scrollBy(d) })
	}
	p.scrollBy(d)
	if p.pty && p.scroll == 0 && d < 0 {
		// Back at the bottom of a PTY job's history: live again.
		p.hist = nil
		m.syncKeys()
		return m.fetchPane()
	}
	m.syncKeys()
	return nil
}

// moveSelection moves the job list's selection d rows: over the pending
// approvals at its top, then the jobs.
func (m *Model) moveSelection(d int) tea.Cmd {
	return m.selectRow(m.selIndex() + d)
}

// selectRow selects row i of the job list (clamped).
func (m *Model) selectRow(i int) tea.Cmd {
	na := len(m.appr.reqs)
	n := na + len(m.order)
	if n == 0 {
		return nil
	}
	i = min(max(i, 0), n-1)
	if i < na {
		m.listAppr = true
		m.appr.setCur(m.appr.reqs[i].ID)
		m.syncKeys()
		m.scrollListTo()
		return nil
	}
	m.listAppr = false
	cmd := m.selectJob(m.order[i-na], false)
	m.syncKeys()
	m.scrollListTo()
	return cmd
}

// selIndex is the row of the job list's selection.
func (m *Model) selIndex() int {
	na := len(m.appr.reqs)
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
			return m.startSearch(v)
		case modeFilter:
			m.setFilter(v)
		}
		return nil
	case key.Matches(msg, k.Cancel):
		if m.mode == modeFilter {
			m.setFilter("")
		}
		m.mode = modeNone
		return nil
	}
	if m.input.key(msg) && m.mode == modeFilter {
		m.setFilter(m.input.value) // filter as you type
	}
	return nil
}

func (m *Model) setFilter(f string) {
	m.filter = f
	m.rebuildOrder()
	if len(m.order) > 0 && !containsID(m.order, m.selected) {
		m.selectJob(m.order[0], false)
	}
	m.scrollListTo()
}

func containsID(ids []engine.JobID, id engine.JobID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// startSearch searches the selected job's output for q and jumps to the
// newest match.
func (m *Model) startSearch(q string) tea.Cmd {
	p := &m.pane
	p.search = q
	m.syncKeys()
	if q == "" {
		p.matches, p.match = nil, -1
		return nil
	}
	run := func(p *pane) {
		p.findMatches()
		p.jump(len(p.matches) - 1)
	}
	if p.pty && p.hist == nil {
		return m.loadHistory(run)
	}
	run(p)
	if len(p.matches) == 0 {
		return info("no match for %q", q)
	}
	return info("%d lines match %q: n older, N newer", len(p.matches), q)
}

// handleCopyKey moves the copy cursor and copies the selection via OSC 52.
func (m *Model) handleCopyKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys.Copy
	p := &m.pane
	n := p.lineCount()
	move := func(d int) {
		p.copyCur = min(max(p.copyCur+d, 0), max(n-1, 0))
		start, end := p.window()
		if p.copyCur < start {
			p.scroll += start - p.copyCur
		} else if p.copyCur >= end {
			p.scroll -= p.copyCur - end + 1
		}
		p.window()
	}
	switch {
	case key.Matches(msg, k.Up):
		move(-1)
	case key.Matches(msg, k.Down):
		move(1)
	case key.Matches(msg, k.PageUp):
		move(-p.h)
	case key.Matches(msg, k.PageDown):
		move(p.h)
	case key.Matches(msg, k.Mark):
		p.copyMarking = !p.copyMarking
		p.copyAnchor = p.copyCur
	case key.Matches(msg, k.Yank):
		text := p.selection()
		m.leaveCopy()
		lines := strings.Count(text, "\n") + 1
		return tea.Batch(tea.SetClipboard(text), info("copied %d line(s) to the clipboard (OSC 52)", lines))
	case key.Matches(msg, k.Cancel):
		m.leaveCopy()
	}
	return nil
}

func (m *Model) leaveCopy() {
	m.mode = modeNone
	m.pane.copyCur, m.pane.copyMarking = -1, false
}

// handleTermKey sends a key to the attached job; only Detach is kept.
func (m *Model) handleTermKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.c.Keys.Term.Detach) {
		m.focus = focusList
		m.syncKeys()
		return info("detached")
	}
	j, err := m.be.Job(m.selected)
	if err != nil {
		m.focus = focusList
		return reportErr(err)
	}
	if !j.IsPTY() {
		return m.pipeInputKey(j, msg)
	}
	var modes vterm.Modes
	if m.pane.snap != nil {
		modes = m.pane.snap.Modes
	}
	b := encodeKey(msg, modes)
	if len(b) == 0 {
		return nil
	}
	// Input only queues (it never blocks on the child), so calling it here
	// keeps keys in order.
	if _, err := j.Input(b); err != nil {
		return reportErr(err)
	}
	return nil
}

// pipeInputKey edits the stdin line of an attached pipe job.
func (m *Model) pipeInputKey(j Job, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		line := m.input.value + "\n"
		m.input.value = ""
		if _, err := j.Input([]byte(line)); err != nil {
			return reportErr(err)
		}
		return m.auditCmd("stdin", m.selected, line)
	case "ctrl+d":
		if err := j.CloseInput(); err != nil {
			return reportErr(err)
		}
		return tea.Batch(m.auditCmd("close_stdin", m.selected, ""), info("closed the stdin of job %s", m.selected))
	case "ctrl+c":
		return m.signalJob(m.selected, signals[0])
	default:
		m.input.key(msg)
	}
	return nil
}

// auditCmd records what a person did, off the Update goroutine (the hook
// writes a file).
func (m *Model) auditCmd(action string, id engine.JobID, detail string) tea.Cmd {
	if m.opts.OnAction == nil {
		return nil
	}
	audit := m.opts.OnAction
	return func() tea.Msg {
		audit(action, id, detail)
		return nil
	}
}

// handlePaste sends pasted text to an attached job or the input line.
func (m *Model) handlePaste(s string) tea.Cmd {
	switch {
	case m.mode == modeFilter || m.mode == modeCommand || m.mode == modeSearch || isApprovalMode(m.mode):
		// Into a line being typed: it edits the text and never submits it.
		// Anywhere else on an approval a paste is dropped: it cannot answer.
		m.input.paste(s)
		if m.mode == modeFilter {
			m.setFilter(m.input.value)
		}
	case m.focus == focusTerm:
		j, err := m.be.Job(m.selected)
		if err != nil {
			return reportErr(err)
		}
		if !j.IsPTY() {
			m.input.paste(s)
			return nil
		}
		var modes vterm.Modes
		if m.pane.snap != nil {
			modes = m.pane.snap.Modes
		}
		if _, err := j.Input(vterm.EncodePaste(s, modes)); err != nil {
			return reportErr(err)
		}
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
		m.appr.scroll = max(m.appr.scroll-d, 0) // clamped when drawn
		return nil
	}
	if !m.zoom && msg.X < m.listWidth() {
		return m.moveSelection(-d / 3)
	}
	if m.mode == modeNone || m.mode == modeCopy {
		return m.scrollPane(d)
	}
	return nil
}

// handleClick selects the job clicked in the list.
func (m *Model) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	if m.view != jobsView || m.zoom || msg.Button != tea.MouseLeft || msg.X >= m.listWidth() || m.mode != modeNone {
		return nil
	}
	row := msg.Y - 1 + m.listTop // the box's top border is row 0
	if row >= 0 && row < len(m.appr.reqs)+len(m.order) && msg.Y >= 1 {
		return m.selectRow(row)
	}
	return nil
}

// encodeKey returns the bytes a terminal sends for a key press, honouring
// the application's modes (cursor keys).
func encodeKey(msg tea.KeyPressMsg, modes vterm.Modes) []byte {
	k := msg.Key()
	if k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
		return []byte(k.Text)
	}
	name := msg.String()
	if vk, err := vterm.ParseKey(name); err == nil {
		if b := vterm.EncodeKey(vk, modes); len(b) > 0 && !stubEncoding(vk, b) {
			return b
		}
	}
	return fallbackKey(name, modes)
}

// stubEncoding spots an encoder that returned only the key's rune for a
// key that needs more (a modifier or a special key).
func stubEncoding(k vterm.Key, b []byte) bool {
	return (k.Ctrl || k.Alt || k.Code != vterm.KeyRune) && string(b) == string(k.Rune)
}

// fallbackKey encodes the common keys as xterm does, for names vterm does
// not encode.
func fallbackKey(name string, modes vterm.Modes) []byte {
	cursor := func(c byte) []byte {
		if modes.AppCursor {
			return []byte{0x1b, 'O', c}
		}
		return []byte{0x1b, '[', c}
	}
	switch name {
	case "enter":
		return []byte{'\r'}
	case "tab":
		return []byte{'\t'}
	case "shift+tab":
		return []byte("\x1b[Z")
	case "backspace":
		return []byte{0x7f}
	case "esc":
		return []byte{0x1b}
	case "space":
		return []byte{' '}
	case "up":
		return cursor('A')
	case "down":
		return cursor('B')
	case "right":
		return cursor('C')
	case "left":
		return cursor('D')
	case "home":
		return cursor('H')
	case "end":
		return cursor('F')
	case "pgup":
		return []byte("\x1b[5~")
	case "pgdown":
		return []byte("\x1b[6~")
	case "insert":
		return []byte("\x1b[2~")
	case "delete":
		return []byte("\x1b[3~")
	case "ctrl+space", "ctrl+@":
		return []byte{0}
	}
	if f := fkey(name); f != nil {
		return f
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok && len(rest) == 1 {
		c := rest[0]
		switch {
		case c >= 'a' && c <= 'z':
			return []byte{c - 'a' + 1}
		case c >= '[' && c <= '_':
			return []byte{c - '@'}
		}
	}
	if rest, ok := strings.CutPrefix(name, "alt+"); ok {
		if b := fallbackKey(rest, modes); b != nil {
			return append([]byte{0x1b}, b...)
		}
		if len(rest) > 0 && !strings.Contains(rest, "+") {
			return append([]byte{0x1b}, rest...)
		}
	}
	return nil
}

func fkey(name string) []byte {
	var n int
	if _, err := fmt.Sscanf(name, "f%d", &n); err != nil || fmt.Sprintf("f%d", n) != name {
		return nil
	}
	switch {
	case n >= 1 && n <= 4:
		return []byte{0x1b, 'O', "PQRS"[n-1]}
	case n >= 5 && n <= 12:
		codes := [...]int{15, 17, 18, 19, 20, 21, 23, 24}
		return []byte(fmt.Sprintf("\x1b[%d~", codes[n-5]))
	}
	return nil
}
