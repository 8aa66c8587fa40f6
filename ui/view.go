package ui

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tend/engine"
	"tend/keymap"
	"tend/themes"
)

func (m *Model) mainHeight() int { return max(m.height-2, 3) }

// unreachable is how many requests waiting come from an engine whose
// link is down (tend attach).
func (m *Model) unreachable() int {
	n := 0
	for _, l := range m.links {
		if l.Up {
			continue
		}
		for i := range m.appr.len() {
			if m.appr.at(i).Host == l.Host {
				n++
			}
		}
	}
	return n
}

// paneSize is the size of the pane's body: the window less the list, the
// borders and the job's two header lines.
func (m *Model) paneSize() (w, h int) {
	return m.width - m.listWidth() - 2, m.mainHeight() - 2 - 2
}

// layout sizes the pane after a resize or zoom, and resizes the selected
// PTY job to it.
func (m *Model) layout() tea.Cmd {
	if !m.pane.setSize(m.paneSize()) {
		return nil
	}
	running := m.running(m.pane.id)
	return tea.Batch(m.pane.resize(running), m.pane.fetch(running))
}

// scrollListTo keeps the selected job in view.
func (m *Model) scrollListTo() {
	rows := m.listRows(m.mainHeight())
	i := m.selIndex()
	if i < m.listTop {
		m.listTop = i
	}
	if i >= m.listTop+rows {
		m.listTop = i - rows + 1
	}
	m.listTop = min(max(m.listTop, 0), max(m.appr.len()+len(m.order)-rows, 0))
}

// refresh renders every part into the cached strings View joins.
func (m *Model) refresh() {
	st := m.c.Styles
	mh := m.mainHeight()
	m.cursor = nil
	m.mainBox = nil
	switch {
	case m.mode == modeHelp:
		m.mainBox = m.renderHelp(m.width, mh)
	case m.view == activityView:
		title := st.Title.Render("Activity") + st.Muted.Render(fmt.Sprintf(" · %d tool calls", m.act.len()))
		m.mainBox = box(st, st.BorderFocus, title, "", m.act.render(st, m.width-2, mh-2), m.width, mh)
	case m.view == approvalsView:
		m.mainBox = m.renderApprovals(m.width, mh)
	default:
		if lw := m.listWidth(); lw > 0 {
			m.listBox = m.renderList(lw, mh)
		} else {
			m.listBox = nil
		}
		m.paneBox = m.renderPane(m.width-m.listWidth(), mh)
	}
	m.statusLn = m.renderStatus()
	m.helpLn = m.renderHelpBar()

	var b strings.Builder
	if m.mainBox != nil {
		for _, l := range m.mainBox {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	} else {
		for i := range mh {
			if i < len(m.listBox) {
				b.WriteString(m.listBox[i])
			}
			if i < len(m.paneBox) {
				b.WriteString(m.paneBox[i])
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString(m.statusLn)
	b.WriteByte('\n')
	b.WriteString(m.helpLn)
	m.frame = paint(st, b.String(), m.width)
}

// paint puts the theme's own background under everything, when it has one:
// every reset returns to the theme's colours instead of the terminal's.
func paint(st *themes.Styles, frame string, width int) string {
	if st.Bg == nil {
		return frame
	}
	base := string(appendColor(appendColor([]byte("\x1b[0"), true, st.Fg), false, st.Bg)) + "m"
	lines := strings.Split(frame, "\n")
	for i, l := range lines {
		l = strings.ReplaceAll(l, "\x1b[0m", "\x1b[m")
		l = strings.ReplaceAll(l, "\x1b[m", "\x1b[m"+base)
		if w := ansi.StringWidth(l); w < width {
			l += strings.Repeat(" ", width-w)
		}
		lines[i] = base + l + "\x1b[m"
	}
	return strings.Join(lines, "\n")
}

// box draws a rounded frame of w×h around lines, with a title in the top
// border and a hint in the bottom one.
func box(st *themes.Styles, border lipgloss.Style, title, hint string, lines []string, w, h int) []string {
	iw := max(w-2, 0)
	out := make([]string, 0, h)
	title, _ = termSafe(title)
	title = ansi.Truncate(title, max(iw-3, 0), "…")
	tw := ansi.StringWidth(title)
	top := border.Render("╭─") + title
	if tw > 0 {
		top = border.Render("╭─ ") + title + border.Render(" ")
		tw += 2
	}
	top += border.Render(strings.Repeat("─", max(iw-1-tw, 0)) + "╮")
	out = append(out, top)
	side := border.Render("│")
	for i := range max(h-2, 0) {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out = append(out, side+fit(st, l, iw)+side)
	}
	hint, _ = termSafe(hint)
	hint = ansi.Truncate(hint, max(iw-4, 0), "…")
	hw := ansi.StringWidth(hint)
	bottom := border.Render("╰" + strings.Repeat("─", max(iw-hw-3, 0)))
	if hw > 0 {
		bottom += border.Render(" ") + hint + border.Render(" ─╯")
	} else {
		bottom = border.Render("╰" + strings.Repeat("─", iw) + "╯")
	}
	if h >= 2 {
		out = append(out, bottom)
	}
	return out
}

// fit cuts or pads a styled line to exactly w cells, its clusters drawn as
// every way of measuring agrees (termSafe).
func fit(st *themes.Styles, s string, w int) string {
	s, n := termSafe(s)
	switch {
	case n > w:
		s = ansi.Truncate(s, w, "")
		if n = ansi.StringWidth(s); n < w { // a wide character did not fit
			return s + strings.Repeat(" ", w-n)
		}
		return s
	case n < w:
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// runtime is a job's runtime as shown in the list.
func (m *Model) runtime(in engine.Info) time.Duration {
	if in.Status == engine.Running {
		return m.since(in.StartedAt)
	}
	return time.Duration(in.RuntimeMs) * time.Millisecond
}

// since is how long ago t was, counted in the clock's whole seconds: every
// age shown changes at the same moment, so many running jobs cost one
// redraw a second, not one each.
func (m *Model) since(t time.Time) time.Duration {
	return m.now().Truncate(time.Second).Sub(t.Truncate(time.Second))
}

// shortAge prints a runtime: 12s, 3m, 1h05m, 2d3h.
func shortAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}

// shortBytes prints a size in at most four cells: 512K, 35M, 1.2G.
func shortBytes(n int64) string {
	const k, m, g = 1 << 10, 1 << 20, 1 << 30
	switch {
	case n < 1000*k:
		return fmt.Sprintf("%dK", n/k)
	case (n+m/2)/m < 1000:
		return fmt.Sprintf("%dM", (n+m/2)/m)
	case float64(n)/g < 9.95:
		return fmt.Sprintf("%.1fG", float64(n)/g)
	}
	return fmt.Sprintf("%dG", (n+g/2)/g)
}

// longBytes prints a size for reading: 512 KiB, 35 MiB, 1.2 GiB.
func longBytes(n int64) string {
	switch {
	case n < 1<<20:
		return fmt.Sprintf("%d KiB", n>>10)
	case n < 1<<30:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

func processes(n int) string {
	if n == 1 {
		return " process"
	}
	return " processes"
}

// label is what the list calls a job: its name, description or command.
func label(in engine.Info) string {
	for _, s := range []string{in.Name, in.Description, in.Command} {
		if s = oneLine(s); s != "" {
			return s
		}
	}
	return "(no command)"
}

// tilde shortens a path under the home directory.
func tilde(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "/" && strings.HasPrefix(p, home) {
		return "~" + strings.TrimPrefix(p, home)
	}
	return p
}

func (m *Model) renderPane(w, h int) []string {
	st := m.c.Styles
	p := &m.pane
	if r, ok := m.appr.current(); ok && m.listAppr {
		return m.renderApprovalPane(r, w, h)
	}
	in, ok := m.selectedInfo()
	if !ok {
		return box(st, st.Border, "", "", []string{st.Muted.Render("Select a job on the left.")}, w, h)
	}
	in = m.shown(in)
	title := st.Title.Render("#"+shortID(in)) + " " + st.Base.Render("$ "+oneLine(in.Command))
	if in.Host != "" {
		title = st.Title.Render("#"+shortID(in)) + st.Muted.Render(" on "+safe(in.Host)) + " " + st.Base.Render("$ "+oneLine(in.Command))
	}
	g, gs := glyph(st, in)
	state := runWord(in) + " " + shortAge(m.runtime(in))
	if in.Status != engine.Running {
		state = m.endText(in)
	}
	who := "you"
	if !in.Origin.IsPerson() {
		who = in.Origin.String()
		if in.Origin.Agent != "" && in.Origin.Agent != in.Origin.Client {
			who = in.Origin.Agent + " (" + in.Origin.String() + ")"
		}
		if in.Origin.Tool != "" {
			who += " · " + in.Origin.Tool
		}
	}
	meta1 := gs.Render(g+" "+state) + st.Muted.Render(fmt.Sprintf(" · pid %d · by ", in.Pid)) + st.Base.Render(who)
	if u, ok := m.usage[in.ID]; ok && in.Status == engine.Running {
		meta1 += st.Muted.Render(fmt.Sprintf(" · %.0f%% cpu · %s in %d", u.CPUPercent, longBytes(u.Memory), u.Processes) + processes(u.Processes))
	}
	meta2 := st.Muted.Render("cwd ") + st.Base.Render(tilde(in.Cwd))
	if size := p.termSize(); size != "" {
		meta2 += st.Muted.Render(" · pty " + size)
	}
	if in.Sandbox != "" {
		meta2 += st.Muted.Render(" · sandbox ") + st.Base.Render(string(in.Sandbox))
		if in.Approval != nil && in.Approval.Decision == "sandboxed" {
			meta2 += st.Warn.Render(" instead of asking")
			if in.Status != engine.Running {
				meta2 += st.Muted.Render(": " + keyName(m.c.Keys.Jobs.Restart) + " runs it unconfined")
			}
		}
	}
	if in.Foreground {
		meta2 += st.Accent.Render(" · an agent is waiting on it: " + keyName(m.c.Keys.Jobs.Background) + " backgrounds it")
	}
	switch {
	case in.Killing:
		meta2 += st.Warn.Render(" · SIGTERM sent; SIGKILL when the grace ends")
	case in.WaitingForInput:
		meta2 += st.Warn.Render(" · waiting for input")
	case in.Idle:
		meta2 += st.Muted.Render(" · idle at its prompt")
	}
	if in.Warning != "" {
		meta2 += st.Warn.Render(" · ⚠ " + oneLine(in.Warning))
	}
	if in.Note != "" {
		meta2 += st.Muted.Render(" · " + oneLine(in.Note))
	}
	if in.Lost > 0 {
		meta2 += st.Error.Render(fmt.Sprintf(" · ⚠ %d bytes of output lost: %s", in.Lost, oneLine(in.LostWhy)))
	}
	lines := []string{meta1, meta2}
	body := p.body()
	if m.mode == modeSignal {
		body = m.overlaySignals(body)
	}
	lines = append(lines, body...)
	border, hint := st.Border, p.hint()
	switch {
	case m.focus == focusTerm:
		border = st.BorderTerm
		hint = st.Warn.Render("attached · " + keyName(m.c.Keys.Term.Detach) + " detaches")
	case p.copying:
		border = st.BorderFocus
	}
	if m.zoom {
		// First: a cut hint keeps it.
		zoom := "zoomed"
		if m.focus != focusTerm { // attached, the zoom key is the job's
			zoom += " · " + keyName(m.c.Keys.Jobs.Zoom) + " shows the list"
		}
		if hint != "" {
			zoom += " · "
		}
		hint = st.Accent.Render(zoom) + hint
	}
	out := box(st, border, title, hint, lines, w, h)
	if x, y, ok := p.cursor(); ok && m.focus == focusTerm {
		m.cursor = tea.NewCursor(m.listWidth()+1+x, 1+2+y)
	}
	if m.focus == focusTerm && !p.pty {
		// The stdin line of an attached pipe job takes the body's last row.
		text, col := m.input.view(w-2-ansi.StringWidth(m.input.prompt), oneLine)
		row := st.Prompt.Render(m.input.prompt) + st.Base.Render(text)
		out[h-2] = st.BorderTerm.Render("│") + fit(st, row, w-2) + st.BorderTerm.Render("│")
		m.cursor = tea.NewCursor(m.listWidth()+1+ansi.StringWidth(m.input.prompt)+col, h-2)
	}
	return out
}

// overlaySignals draws the signal picker over the top of the pane body.
func (m *Model) overlaySignals(body []string) []string {
	st := m.c.Styles
	out := append([]string(nil), body...)
	lines := []string{st.Dialog.Render(fmt.Sprintf(" Send a signal to job %s's process group:", m.confirm))}
	for i, s := range signals {
		row := fmt.Sprintf("   %-9s", engine.SignalName(s))
		if i == m.sigIndex {
			lines = append(lines, st.Selected.Render(" ▸ "+fmt.Sprintf("%-9s", engine.SignalName(s))))
		} else {
			lines = append(lines, st.Base.Render(row))
		}
	}
	for i, l := range lines {
		if i < len(out) {
			out[i] = fit(st, l, m.pane.w)
		}
	}
	return out
}

func (m *Model) renderStatus() string {
	st := m.c.Styles
	w := m.width
	switch m.mode {
	case modeConfirmKill:
		in := m.jobs[m.confirm]
		return fit(st, st.Dialog.Render(fmt.Sprintf("Kill job %s (%s) and its whole process tree? %s", m.confirm, ansi.Truncate(label(in), 40, "…"), m.yesNo())), w)
	case modeConfirmRemove:
		in := m.jobs[m.confirm]
		return fit(st, st.Dialog.Render(fmt.Sprintf("Remove job %s (%s) and its logs? %s", m.confirm, ansi.Truncate(label(in), 40, "…"), m.yesNo())), w)
	case modeConfirmClear:
		return fit(st, st.Dialog.Render(fmt.Sprintf("Remove every finished job (%d) and their logs? %s", len(m.finished()), m.yesNo())), w)
	case modeConfirmRerun:
		in := m.jobs[m.confirm]
		return fit(st, st.Dialog.Render(fmt.Sprintf("Job %s ran in the %s sandbox. Run %s again unconfined, as yours? %s", m.confirm, in.Sandbox, ansi.Truncate(in.Command, 40, "…"), m.yesNo())), w)
	case modeConfirmQuit:
		n := m.Running()
		what := fmt.Sprintf("%d jobs are", n)
		if n == 1 {
			what = "1 job is"
		}
		return fit(st, st.Dialog.Render(fmt.Sprintf("%s still running. Quit tend and end them all? %s", what, m.yesNo())), w)
	}
	running := m.Running()
	held := ""
	if word, _, ok := strings.Cut(m.opts.Containment, ":"); ok {
		held = " · " + word // cgroup or subreaper: how jobs are held
	}
	right := st.Running.Render(fmt.Sprintf("● %d running", running)) + st.Muted.Render(fmt.Sprintf(" · %d finished%s · %s ", len(m.jobs)-running, held, m.c.Styles.Palette.Name))
	if m.status != "" {
		right = st.Running.Render(fmt.Sprintf("● %d running ", running)) // room for the message
	}
	if n := m.appr.len(); n > 0 {
		if down := m.unreachable(); down > 0 {
			// Their engine's link is down: an answer cannot reach it.
			right = st.Error.Render(fmt.Sprintf("⚠ %d to approve, %d with the link down", n, down)) + st.Muted.Render(" · ") + right
		} else {
			right = st.Approval.Render(fmt.Sprintf("⚠ %d to approve", n)) + st.Muted.Render(" · ") + right
		}
	}
	if m.status != "" || m.opts.Attached == "" { // else the left says it
		for _, l := range m.links {
			if !l.Up { // shown whatever the status says
				right = st.Error.Render(safe(l.Host)+" lost, reconnecting") + st.Muted.Render(" · ") + right
			}
		}
	}
	var left string
	if m.status != "" {
		ls := st.Base
		switch m.statusLvl {
		case levelWarn:
			ls = st.Warn
		case levelError:
			ls = st.Error
		}
		left = ls.Render(" " + m.status)
	} else if m.opts.Attached != "" {
		left = st.StatusKey.Render(" tend attach")
		for _, l := range m.links {
			if l.Up {
				left += st.Muted.Render(" · ") + st.Base.Render(safe(l.Host))
			} else {
				left += st.Muted.Render(" · ") + st.Error.Render(safe(l.Host)+" "+safe(l.Note))
			}
		}
		left += st.Muted.Render(" · " + keyName(m.c.Keys.Global.Quit) + " detaches, jobs run on")
	} else {
		left = st.StatusKey.Render(" tend")
		if m.opts.Address != "" {
			left += st.Muted.Render(" · MCP ") + st.Base.Render(m.opts.Address)
		} else {
			left += st.Muted.Render(" · MCP not served")
		}
		if cl := m.act.connected(); len(cl) > 0 {
			left += st.Muted.Render(" · clients ") + st.Base.Render(strings.Join(cl, ", "))
		} else if m.opts.Address != "" {
			left += st.Muted.Render(" · no client connected")
		}
	}
	rw := ansi.StringWidth(right)
	return fit(st, ansi.Truncate(left, max(w-rw-1, 0), "…"), max(w-rw, 0)) + right
}

func (m *Model) renderHelpBar() string {
	st := m.c.Styles
	k := m.c.Keys
	m.help.SetWidth(m.width - 1)
	var bs []key.Binding
	switch m.mode {
	case modeFilter, modeCommand, modeSearch, modeApprReason, modeApprEdit, modeApprPrefix:
		// The line being typed: the cursor stays in view, and for an
		// answer to a request hidden characters and newlines show as
		// escapes.
		hint := m.help.ShortHelpView(k.Input.ShortHelp())
		room := max(m.width-ansi.StringWidth(hint)-2-ansi.StringWidth(m.input.prompt)-1, 1)
		style, show := st.Prompt, oneLine
		if isApprovalMode(m.mode) {
			style, show = st.Approval, oneLineEscaped
		}
		text, col := m.input.view(room, show)
		prompt := style.Render(" "+m.input.prompt) + st.Base.Render(text)
		m.cursor = tea.NewCursor(1+ansi.StringWidth(m.input.prompt)+col, m.height-1)
		return fit(st, prompt, max(m.width-ansi.StringWidth(hint)-1, 0)) + hint + " "
	case modeConfirmKill, modeConfirmQuit, modeConfirmRemove, modeConfirmClear, modeConfirmRerun:
		bs = k.Confirm.ShortHelp()
	case modeSignal:
		bs = k.Picker.ShortHelp()
	case modeHelp:
		return fit(st, st.Muted.Render(" any key closes the help"), m.width)
	default:
		switch {
		case m.pane.copying:
			bs = k.Copy.ShortHelp()
		case m.focus == focusTerm:
			bs = k.Term.ShortHelp()
		case m.onApproval(): // one is shown: no need to say how to show one
			bs = append(k.Approve.ShortHelp(), k.Global.Views, k.Global.Help, k.Global.Quit)
		case m.view == approvalsView:
			bs = k.Global.ShortHelp()
		case m.view == activityView:
			bs = append(k.Activity.ShortHelp(), k.Global.ShortHelp()...)
		default:
			bs = append(append(k.Jobs.ShortHelp(), k.Pane.ShortHelp()...), k.Global.ShortHelp()...)
		}
	}
	return fit(st, " "+m.shortHelp(bs, m.width-1), m.width)
}

// shortHelp renders the hints of bs in at most w cells: when they do not
// all fit, hints are dropped from the end, those of the global keys (next
// view, oldest approval) last, never those of the help and quit keys, so
// that a person can always find the rest, and leave.
func (m *Model) shortHelp(bs []key.Binding, w int) string {
	g := m.c.Keys.Global
	rank := func(b key.Binding) int {
		switch {
		case !b.Enabled():
			return 3 // not shown anyway
		case slices.Equal(b.Keys(), g.Help.Keys()) || slices.Equal(b.Keys(), g.Quit.Keys()):
			return 2
		case slices.Equal(b.Keys(), g.Views.Keys()) || slices.Equal(b.Keys(), g.Approvals.Keys()):
			return 1
		}
		return 0
	}
	bs = slices.Clone(bs)
	m.help.SetWidth(0) // measured whole
	defer m.help.SetWidth(w)
	for {
		v := m.help.ShortHelpView(bs)
		if ansi.StringWidth(v) <= w {
			return v
		}
		drop := -1
		for r := 0; r < 2 && drop < 0; r++ {
			for i := len(bs) - 1; i >= 0 && drop < 0; i-- {
				if rank(bs[i]) == r {
					drop = i
				}
			}
		}
		if drop < 0 {
			m.help.SetWidth(w)
			return m.help.ShortHelpView(bs)
		}
		bs = slices.Delete(bs, drop, drop+1)
	}
}

// renderHelp draws the full key help over the main area: one column per
// help column of each group, flowed into rows that fit the width.
func (m *Model) renderHelp(w, h int) []string {
	st := m.c.Styles
	km := m.c.Keys // every binding, enabled here or not
	var cols []string
	add := func(name string, g keymap.HelpKeyMap) {
		for i, c := range g.FullHelp() {
			rows := []string{st.Title.Render(name)}
			if i > 0 {
				rows[0] = ""
			}
			for _, b := range c {
				hb := b.Help()
				rows = append(rows, st.HelpKey.Render(fmt.Sprintf("%-7s", hb.Key))+" "+st.HelpDesc.Render(hb.Desc))
			}
			cols = append(cols, strings.Join(rows, "\n"))
		}
	}
	add("Jobs", km.Jobs)
	add("Output", km.Pane)
	add("Everywhere", km.Global)
	add("Approvals", km.Approve)
	add("", km.Queue)
	add("Attached", km.Term)
	add("Copy mode", km.Copy)
	add("Activity", km.Activity)
	add("Questions", km.Confirm)
	const gap = "   "
	var lines []string
	var row []string
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			lines = append(lines, strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, row...), "\n")...)
			lines = append(lines, "")
		}
		row, rowW = nil, 0
	}
	for _, c := range cols {
		cw := lipgloss.Width(c)
		if rowW > 0 && rowW+len(gap)+cw > w-2 {
			flush()
		}
		if rowW > 0 {
			row = append(row, gap)
			rowW += len(gap)
		}
		row = append(row, c)
		rowW += cw
	}
	flush()
	lines = append(lines, st.Muted.Render(fmt.Sprintf("While attached, every key but %s goes to the job, ctrl+c too. %s quits from the list.",
		keyName(m.c.Keys.Term.Detach), keyName(m.c.Keys.Global.Quit))))
	if m.opts.Containment != "" {
		lines = append([]string{st.Muted.Render("Jobs are held by " + m.opts.Containment + " (tend doctor says more)."), ""}, lines...)
	}
	if m.opts.Attached != "" {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("%s detaches: the engines and their jobs run on. %s", keyName(m.c.Keys.Global.Quit), m.opts.Attached)))
	}
	return box(st, st.BorderFocus, st.Title.Render("Keys"), "", lines, w, h)
}

// keyName is how the help names a binding's keys.
func keyName(b key.Binding) string { return b.Help().Key }

// yesNo names the first keys that answer a question.
func (m *Model) yesNo() string {
	return m.c.Keys.Confirm.Yes.Keys()[0] + "/" + m.c.Keys.Confirm.No.Keys()[0]
}
