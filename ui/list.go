package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tend/engine"
	"tend/policy"
	"tend/themes"
)

// listWidth is the width of the job list box (0 when zoomed). On a narrow
// screen the pane, where a job's output is, keeps most of it; on a wide one
// the list grows, its command column first.
func (m *Model) listWidth() int {
	w := m.width
	switch {
	case m.zoom:
		return 0
	case w < 100:
		return max(w*2/5, min(22, w/2)) // 60: 24, 80: 32
	case w < 120:
		return 40
	}
	return min(40+(w-120)*3/4, 80) // 160: 70, 200: 80
}

// listCols is which columns of the job list fit, and how wide they are.
// Right of the command come, when there is room: who started it, memory,
// CPU, runtime and status; they are dropped in the reverse of that order
// before the command gets too narrow, status last. The id, who and status
// columns are as wide as what they show.
type listCols struct {
	id, host, label, who, status int // widths; host, who, status 0: not shown
	mem, cpu, age                bool
}

// Widths of the fixed columns.
const (
	statusW = 8 // at most: "exit 127", "sig TERM"
	ageW    = 5 // "1h05m"
	memW    = 4 // "512K"
	cpuW    = 4 // "999%"
	whoMax  = 12
)

// layoutList decides the columns of a list iw cells wide over the rows
// shown.
func (m *Model) layoutList(iw int, infos []engine.Info, reqs []policy.Request) listCols {
	c := listCols{id: 1}
	who, status := 3, 6 // "who", "status"
	for _, in := range infos {
		c.id = max(c.id, len(shortID(in)))
		if in.Host != "" {
			c.host = max(c.host, 4, ansi.StringWidth(safe(in.Host)))
		}
		who = max(who, ansi.StringWidth(safe(originName(in.Origin))))
		status = max(status, len(statusCell(in)))
	}
	if len(reqs) > 0 {
		c.id = max(c.id, 3) // "ask"
		status = max(status, len(askStatus))
	}
	status = min(status, statusW)
	for _, r := range reqs {
		who = max(who, ansi.StringWidth(safe(originOf(r))))
		if r.Host != "" {
			c.host = max(c.host, 4, ansi.StringWidth(safe(r.Host)))
		}
	}
	who = min(who, whoMax)
	c.host = min(c.host, whoMax)
	c.label = iw - 2 - c.id - 1 // the glyph and its space, the id and its space
	if c.host > 0 {
		c.label -= c.host + 1
	}
	take := func(w, keep int) bool {
		if c.label-w < keep {
			return false
		}
		c.label -= w
		return true
	}
	if take(1+status, 6) {
		c.status = status
	}
	c.age = take(1+ageW, 16)
	if take(1+who, 20) {
		c.who = who
	}
	c.cpu = take(1+cpuW, 34)
	c.mem = c.cpu && take(1+memW, 32)
	c.label = max(c.label, 1)
	return c
}

// row lays out one row of the list: id, label and the right-hand cells.
func (c listCols) row(id, host, label, who, mem, cpu, age, status string) string {
	var b strings.Builder
	b.WriteString(fmt.Sprintf("%*s ", c.id, id))
	if c.host > 0 {
		b.WriteString(cell(host, c.host) + " ")
	}
	b.WriteString(cell(label, c.label))
	if c.who > 0 {
		b.WriteString(" " + cell(who, c.who))
	}
	if c.mem {
		b.WriteString(fmt.Sprintf(" %*s", memW, mem))
	}
	if c.cpu {
		b.WriteString(fmt.Sprintf(" %*s", cpuW, cpu))
	}
	if c.age {
		b.WriteString(fmt.Sprintf(" %*s", ageW, age))
	}
	if c.status > 0 {
		b.WriteString(" " + cell(status, c.status))
	}
	return b.String()
}

// header is the list's header row.
func (c listCols) header() string {
	return "  " + c.row("#", "host", "command", "who", "mem", "cpu", "time", "status")
}

// shortID is a job's id as its engine has it: a supervisor of several
// engines names its jobs "host/id", and the host has a column of its own.
func shortID(in engine.Info) string {
	return strings.TrimPrefix(string(in.ID), in.Host+"/")
}

// glyph is a job's mark in the list.
func glyph(st *themes.Styles, in engine.Info) (string, lipgloss.Style) {
	switch in.Status {
	case engine.Running:
		switch {
		case in.Killing:
			return "■", st.Warn
		case in.WaitingForInput:
			return "?", st.Warn
		case in.Foreground:
			return "▶", st.Accent
		case in.Idle:
			return "○", st.Running
		}
		return "●", st.Running
	case engine.Exited:
		if in.ExitCode != nil && *in.ExitCode == 0 {
			return "✓", st.OK
		}
		return "✗", st.Error
	case engine.Killed:
		return "■", st.Muted
	case engine.Lost:
		return "!", st.Warn
	default: // signaled, timed out, failed
		return "✗", st.Error
	}
}

// statusCell is the list's status column: what a running job is doing, or
// how a finished one ended, in at most statusW cells.
func statusCell(in engine.Info) string {
	switch in.Status {
	case engine.Running:
		switch {
		case in.Killing:
			return "killing"
		case in.WaitingForInput:
			return "input?"
		case in.Idle:
			return "idle"
		}
		return "running"
	case engine.Exited:
		if in.ExitCode != nil {
			return fmt.Sprintf("exit %d", *in.ExitCode)
		}
		return "exited"
	case engine.Signaled:
		return "sig " + strings.TrimPrefix(in.Signal, "SIG")
	case engine.Killed:
		return "killed"
	case engine.TimedOut:
		return "timeout"
	case engine.Failed:
		return "failed"
	case engine.Lost:
		return "lost"
	}
	return in.Status.String()
}

// endWord says in a few words how a finished job ended: "exit 1",
// "killed", "timed out", "SIGSEGV".
func endWord(in engine.Info) string {
	switch in.Status {
	case engine.Signaled:
		return in.Signal
	case engine.TimedOut:
		return "timed out"
	case engine.Failed:
		return "failed to start"
	}
	return statusCell(in)
}

// endText says in plain words how a finished job ended and after how long:
// "exited with code 2 after 1m", "timed out after 30s · SIGTERM".
func (m *Model) endText(in engine.Info) string {
	after := " after " + shortAge(m.runtime(in))
	how := ""
	switch {
	case in.Signal != "":
		how = " · " + in.Signal
	case in.ExitCode != nil:
		how = fmt.Sprintf(" · exit %d", *in.ExitCode)
	}
	switch in.Status {
	case engine.Exited:
		if in.ExitCode != nil {
			return fmt.Sprintf("exited with code %d%s", *in.ExitCode, after)
		}
		return "exited" + after
	case engine.Signaled:
		return "ended by " + in.Signal + after
	case engine.Killed:
		return "killed" + after + how
	case engine.TimedOut:
		return "timed out" + after + how
	case engine.Failed:
		return "failed to start"
	case engine.Lost:
		return "lost: the tend that ran it stopped"
	}
	return in.Status.String() + after
}

// shown is a job's state as the UI shows it: being killed from the moment
// the person confirmed the kill.
func (m *Model) shown(in engine.Info) engine.Info {
	in.Killing = in.Killing || in.Status == engine.Running && m.killing[in.ID]
	return in
}

// runWord is what the pane calls a running job's state.
func runWord(in engine.Info) string {
	if in.Killing {
		return "killing"
	}
	return "running"
}

// originName is who started a job, as the list names them: "you" for
// the person at this tend.
func originName(o engine.Origin) string {
	switch {
	case o.IsPerson():
		return "you"
	case o.Who() == "":
		return "?"
	}
	return o.Who()
}

func (m *Model) renderList(w, h int) []string {
	st := m.c.Styles
	iw := w - 2
	rows := m.listRows(h)
	running := m.Running()
	title := st.Title.Render("Jobs")
	na := m.appr.len()
	if na > 0 {
		// First: the title is cut to the list's width.
		title += st.Approval.Render(fmt.Sprintf(" ⚠ %d to approve ·", na))
	}
	counts := fmt.Sprintf(" %d running · %d done", running, len(m.jobs)-running)
	title += st.Muted.Render(counts)
	if m.filter != "" {
		title += st.Warn.Render(" · f:" + m.filter)
	}
	// The rows shown: pending approvals first, then the jobs.
	var reqs []policy.Request
	for i := m.listTop; i < na && i < m.listTop+rows; i++ {
		reqs = append(reqs, m.appr.at(i))
	}
	var infos []engine.Info
	for i := max(m.listTop-na, 0); i < len(m.order) && i+na < m.listTop+rows; i++ {
		infos = append(infos, m.shown(m.jobs[m.order[i]]))
	}
	cols := m.layoutList(iw, infos, reqs)
	var lines []string
	if len(reqs)+len(infos) > 0 {
		lines = append(lines, st.Muted.Render(pad(cols.header(), iw)))
	}
	for _, r := range reqs {
		sel := m.listAppr && r.ID == m.appr.cur && m.view == jobsView && m.focus == focusList
		lines = append(lines, m.approvalRow(r, cols, iw, sel))
	}
	for _, in := range infos {
		g, gs := glyph(st, in)
		age, mem, cpu := shortAge(m.runtime(in)), "", ""
		if u, ok := m.usage[in.ID]; ok && in.Status == engine.Running {
			mem, cpu = shortBytes(u.Memory), fmt.Sprintf("%.0f%%", min(u.CPUPercent, 999))
		}
		text := cols.row(shortID(in), safe(in.Host), label(in), originName(in.Origin), mem, cpu, age, statusCell(in))
		sel := in.ID == m.selected && !m.listAppr
		switch {
		case sel && m.view == jobsView && m.focus == focusList:
			lines = append(lines, gs.Background(st.Selected.GetBackground()).Render(g+" ")+st.Selected.Render(pad(text, iw-2)))
		case sel:
			lines = append(lines, gs.Render(g+" ")+st.Accent.Render(pad(text, iw-2)))
		case in.Status != engine.Running:
			lines = append(lines, gs.Render(g+" ")+st.Muted.Render(text))
		default:
			lines = append(lines, gs.Render(g+" ")+st.Base.Render(text))
		}
	}
	if len(m.order) == 0 && na == 0 {
		if m.filter != "" {
			lines = append(lines, st.Muted.Render(" no job matches the filter"))
		} else {
			lines = append(lines, st.Muted.Render(" no jobs yet"), "", st.Muted.Render(" s  opens a shell"), st.Muted.Render(" :  runs a command"), st.Muted.Render(" or let an agent run one"))
		}
	}
	hint := ""
	if n := na + len(m.order); n > rows {
		hint = st.Muted.Render(fmt.Sprintf("%d–%d of %d", m.listTop+1, min(m.listTop+rows, n), n))
	}
	border := st.Border
	if m.focus == focusList && m.mode != modeHelp {
		border = st.BorderFocus
	}
	return box(st, border, title, hint, lines, w, h)
}

// listRows is how many jobs (and pending approvals) the list shows in a box
// h high: less its borders and the header row.
func (m *Model) listRows(h int) int { return max(h-3, 1) }

// askStatus is a pending approval's status in the list.
const askStatus = "approve?"

// approvalRow is a pending approval's row at the top of the job list, in
// the jobs' columns.
func (m *Model) approvalRow(r policy.Request, cols listCols, iw int, selected bool) string {
	st := m.c.Styles
	text := cols.row("ask", safe(r.Host), oneLineEscaped(r.Command), originOf(r), "", "", shortAge(m.since(r.Asked)), askStatus)
	if selected {
		s := st.Approval.Background(st.Selected.GetBackground())
		return s.Render("⚠ " + pad(text, iw-2))
	}
	return st.Approval.Render("⚠ " + text)
}
