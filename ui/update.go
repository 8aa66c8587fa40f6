package ui

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
	"tend/themes"
)

// statusMsg shows a message in the status bar; errors arrive this way,
// never as panics.
type statusMsg struct {
	lvl  level
	text string
}

// statusClearMsg clears the status message it names (by id) after a while.
type statusClearMsg struct{ id int }

// runtimeTickMsg redraws the runtimes of running jobs when their shown
// value changes; id tags the one pending tick (like spinner.TickMsg).
type runtimeTickMsg struct{ id int }

// infosMsg refreshes the state of the running jobs (waiting for input,
// bytes) and what they use.
type infosMsg struct {
	infos []engine.Info
	usage map[engine.JobID]engine.Usage
}

// jobStartedMsg reports a job a person started, as it was when it
// started: its own event may come later.
type jobStartedMsg struct {
	info   engine.Info
	attach bool
}

// reportErr turns err into a status message.
func reportErr(err error) tea.Cmd {
	return func() tea.Msg { return statusMsg{levelError, err.Error()} }
}

func info(format string, args ...any) tea.Cmd {
	text := fmt.Sprintf(format, args...)
	return func() tea.Msg { return statusMsg{levelInfo, text} }
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	switch msg.(type) {
	case runtimeTickMsg, infosMsg:
		// Ticks come every second or two while jobs run: an idle UI
		// draws again only when what they change shows.
		if !m.stale && m.clock() == m.shownClock {
			return m, cmd
		}
	}
	m.syncKeys()
	m.refresh()
	m.stale, m.shownClock = false, m.clock()
	return m, cmd
}

// clock is what time alone changes in the frame: the runtimes of the
// running jobs, the ages of the held commands and their countdowns.
func (m *Model) clock() string {
	var b strings.Builder
	for _, id := range m.order {
		if in := m.jobs[id]; in.Status == engine.Running {
			b.WriteString(shortAge(m.runtime(in)))
			b.WriteByte(' ')
		}
	}
	for i := range m.appr.len() {
		r := m.appr.at(i)
		fmt.Fprintf(&b, "%s %d ", shortAge(m.since(r.Asked)), m.left(r)/time.Second)
	}
	return b.String()
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 20), max(msg.Height, 8)
		return m.layout()
	case tea.ColorProfileMsg:
		if msg.Profile != m.draw.Profile {
			m.draw.Profile = msg.Profile
			m.setTheme(m.c.Styles.Palette)
		}
		return nil
	case tea.BackgroundColorMsg:
		if !m.themeSet && !msg.IsDark() {
			m.setTheme(themes.Light())
		}
		return nil
	case tea.KeyPressMsg:
		m.lastKey = m.now()
		return m.handleKey(msg)
	case tea.PasteMsg:
		return m.handlePaste(msg.Content)
	case tea.MouseWheelMsg:
		return m.handleWheel(msg)
	case tea.MouseClickMsg:
		return m.handleClick(msg)
	case engineEventMsg:
		return m.handleEvent(msg.ev)
	case screenDirtyMsg:
		return tea.Batch(m.pane.fetch(m.running(m.pane.id)), m.refreshInfos())
	case activityDirtyMsg:
		m.act.pull()
		return nil
	case linksDirtyMsg:
		m.links = m.opts.Links.Links()
		return nil
	case approvalsDirtyMsg:
		return m.applyApprovals()
	case editedMsg:
		return m.applyEdited(msg)
	case decidedMsg:
		return m.applyDecided(msg)
	case infosMsg:
		var asking []engine.Info
		for _, in := range msg.infos {
			was, ok := m.jobs[in.ID]
			if !ok {
				continue
			}
			if in.WaitingForInput && !was.WaitingForInput && !in.Origin.IsPerson() {
				asking = append(asking, in)
			}
			// A running job's runtime is shown counted from its start
			// (clock); the engine's count of it moves on each look.
			was.RuntimeMs = in.RuntimeMs
			m.stale = m.stale || !reflect.DeepEqual(was, in)
			m.jobs[in.ID] = in
		}
		m.stale = m.stale || !maps.Equal(m.usage, msg.usage)
		m.usage = msg.usage
		if len(asking) > 0 {
			in := asking[0]
			return m.notify("input", "tend: job "+string(in.ID)+" waits for input", in.Origin.String()+": "+in.Command)
		}
		return nil
	case outputMsg, screenMsg, historyMsg, resizedMsg, scanMsg, windowMsg:
		return m.pane.update(msg, m.running(m.pane.id))
	case jobStartedMsg:
		id := msg.info.ID
		if _, known := m.jobs[id]; !known { // known from here on, as what it is
			m.jobs[id] = msg.info
			m.rebuildOrder()
		}
		m.listAppr = false
		cmd := m.selectJob(id, true)
		if msg.attach {
			m.focus = focusTerm
			return tea.Batch(cmd, info("attached to job %s: keys go to it; %s detaches", id, keyName(m.c.Keys.Term.Detach)))
		}
		return cmd
	case runtimeTickMsg:
		if msg.id != m.tickID {
			return nil
		}
		m.tickAt = time.Time{}
		return tea.Batch(m.refreshInfos(), m.scheduleTick())
	case statusMsg:
		m.statusID++
		m.status, m.statusLvl = msg.text, msg.lvl
		id := m.statusID
		return m.tick(6*time.Second, func(time.Time) tea.Msg { return statusClearMsg{id} })
	case statusClearMsg:
		if msg.id == m.statusID {
			m.status = ""
		}
		return nil
	}
	return nil
}

// handleEvent applies one lifecycle event.
func (m *Model) handleEvent(ev engine.Event) tea.Cmd {
	var cmds []tea.Cmd
	switch ev.Kind {
	case engine.JobRemoved:
		delete(m.jobs, ev.Job)
	default:
		m.jobs[ev.Job] = ev.Info
	}
	if ev.Info.Status != engine.Running {
		delete(m.killing, ev.Job) // it ended: the engine says how
	}
	prev := slices.Index(m.order, m.selected)
	m.rebuildOrder()
	switch {
	case m.selected == "" && len(m.order) > 0:
		cmds = append(cmds, m.selectJob(m.order[0], false))
	case ev.Kind == engine.JobRemoved && ev.Job == m.selected:
		next := engine.JobID("")
		if len(m.order) > 0 {
			next = m.order[min(max(prev, 0), len(m.order)-1)]
		}
		cmds = append(cmds, m.selectJob(next, false))
	case ev.Job == m.selected && m.pane.pty != ev.Info.PTY:
		// Selected before its first event arrived (a person's new job):
		// now that its kind is known, load it as what it is.
		cmds = append(cmds, m.selectJob(ev.Job, true))
	case ev.Job == m.selected:
		if ev.Kind == engine.JobExited {
			if m.focus == focusTerm {
				m.focus = focusList
				cmds = append(cmds, info("job %s %s; detached", ev.Job, m.endText(ev.Info)))
			}
			cmds = append(cmds, m.pane.fetch(false))
		}
	}
	if m.confirm == ev.Job && ev.Kind != engine.JobStarted && ev.Info.Status != engine.Running && (m.mode == modeConfirmKill || m.mode == modeSignal) {
		m.mode = modeNone
	}
	cmds = append(cmds, m.scheduleTick())
	return tea.Batch(cmds...)
}

// rebuildOrder sorts and filters the job list: running jobs first, then
// finished ones, newest first in each.
func (m *Model) rebuildOrder() {
	m.order = m.order[:0]
	for id, in := range m.jobs {
		if m.filter == "" || matchesFilter(in, m.filter) {
			m.order = append(m.order, id)
		}
	}
	slices.SortFunc(m.order, func(a, b engine.JobID) int {
		ia, ib := m.jobs[a], m.jobs[b]
		ra, rb := ia.Status == engine.Running, ib.Status == engine.Running
		if ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		// Newest first: ids are allocated in creation order.
		return compareIDs(b, a)
	})
}

// compareIDs orders numeric ids by value.
func compareIDs(a, b engine.JobID) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(string(a), string(b))
}

func matchesFilter(in engine.Info, f string) bool {
	f = strings.ToLower(f)
	for _, s := range []string{string(in.ID), in.Name, in.Command, in.Description, originName(in.Origin), in.Origin.Client, in.Origin.Tool, in.Status.String(), statusCell(in), in.Cwd} {
		if strings.Contains(strings.ToLower(s), f) {
			return true
		}
	}
	return false
}

// setTheme switches every style to palette p, drawn for the terminal's
// colour profile.
func (m *Model) setTheme(p themes.Palette) {
	m.c.Styles = themes.New(p, m.draw)
	m.applyHelpStyles()
	m.pane.restyle()
}

func (m *Model) applyHelpStyles() {
	st := m.c.Styles
	m.help.Styles.ShortKey = st.HelpKey
	m.help.Styles.ShortDesc = st.HelpDesc
	m.help.Styles.ShortSeparator = st.HelpSep
	m.help.Styles.Ellipsis = st.HelpSep
	m.help.Styles.FullKey = st.HelpKey
	m.help.Styles.FullDesc = st.HelpDesc
	m.help.Styles.FullSeparator = st.HelpSep
}

// selectJob makes id the selected job and shows it in the pane.
func (m *Model) selectJob(id engine.JobID, force bool) tea.Cmd {
	if id == m.selected && !force && m.pane.id == id {
		return nil
	}
	m.selected = id
	in := m.jobs[id]
	m.pane.show(id, in.PTY)
	if m.mode == modeSearch {
		m.mode = modeNone
	}
	m.scrollListTo()
	if id == "" {
		return nil
	}
	running := in.Status == engine.Running
	return tea.Batch(m.pane.fetch(running), m.pane.resize(running))
}

// running reports whether job id is known and running.
func (m *Model) running(id engine.JobID) bool {
	return m.jobs[id].Status == engine.Running
}

// selectedInfo returns the selected job's state.
func (m *Model) selectedInfo() (engine.Info, bool) {
	in, ok := m.jobs[m.selected]
	return in, ok && m.selected != ""
}

// syncKeys enables the bindings that apply to the selected job.
func (m *Model) syncKeys() {
	in, ok := m.selectedInfo()
	ok = ok && !m.listAppr // a pending approval is selected, not a job
	running := ok && in.Status == engine.Running
	k := &m.c.Keys
	k.Global.Approvals.SetEnabled(m.appr.len() > 0)
	k.Jobs.Attach.SetEnabled(running)
	k.Jobs.Kill.SetEnabled(running)
	k.Jobs.Signal.SetEnabled(running)
	k.Jobs.Background.SetEnabled(running && in.Foreground)
	k.Jobs.Remove.SetEnabled(ok && !running)
	k.Jobs.Restart.SetEnabled(ok && !running)
	k.Pane.Next.SetEnabled(m.pane.search != "")
	k.Pane.Prev.SetEnabled(m.pane.search != "")
	k.Pane.Live.SetEnabled(m.pane.scrolledBack())
}

// usageEvery is how often the usage of running jobs is looked at again
// once their runtimes change only each minute.
const usageEvery = 2 * time.Second

// scheduleTick arms one timer for the moment the shown runtime of some
// running job changes (each second under a minute, then each minute), for
// the usage of running jobs at least each usageEvery, and each second
// while an approval waits (its countdown). With neither nothing is armed: an idle UI
// does not wake.
func (m *Model) scheduleTick() tea.Cmd {
	now := m.now()
	var next time.Time
	consider := func(since time.Time, most time.Duration) {
		since = since.Truncate(time.Second) // as m.since counts
		age := now.Sub(since)
		step := time.Second
		if age >= time.Minute {
			step = min(time.Minute, most)
		}
		at := since.Add((age/step + 1) * step)
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	for _, in := range m.jobs {
		if in.Status == engine.Running {
			consider(in.StartedAt, usageEvery)
		}
	}
	for i := range m.appr.len() {
		consider(m.appr.at(i).Asked, time.Second) // the countdown to its denial
	}
	if next.IsZero() || (!m.tickAt.IsZero() && !next.Before(m.tickAt)) {
		return nil
	}
	m.tickID++
	m.tickAt = next
	id := m.tickID
	return m.tick(max(next.Sub(now), time.Millisecond), func(time.Time) tea.Msg { return runtimeTickMsg{id} })
}

// errText is the sentence of err for the status bar.
func errText(err error) string {
	var d *engine.DeniedError
	if errors.As(err, &d) {
		return "denied: " + d.Reason
	}
	return err.Error()
}
