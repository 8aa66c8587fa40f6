package ui

import (
	"context"
	"fmt"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
	"tend/themes"
	"tend/vterm"
)

// Commands that talk to the engine. They run off the Update goroutine,
// take copies of what they need and never touch the model; their results
// come back as messages.

// outputMsg carries new output of a pipe job.
type outputMsg struct {
	id          engine.JobID
	gen         int
	err         error
	merged      []byte
	stderr      []byte
	mergedStart int64 // set on the first read: where the window starts
	errStart    int64
	first       bool
	noStderr    bool
	mergedNext  int64
	errNext     int64
	more        bool // more output is waiting: read again
	eof         bool
	final       bool // read after the job ended: nothing more will come
}

// screenMsg carries a PTY job's screen.
type screenMsg struct {
	id        engine.JobID
	gen       int
	err       error
	snap      *vterm.Snapshot
	lines     []string
	w, h      int
	unchanged bool
	final     bool // read after the job ended
}

// historyMsg carries a PTY job's scrollback and screen.
type historyMsg struct {
	id    engine.JobID
	gen   int
	err   error
	lines []histLine
}

// resizedMsg says a PTY job was resized to the pane.
type resizedMsg struct{ id engine.JobID }

const (
	initialWindow = 512 << 10 // how far back a pipe job's output is shown at first
	readChunk     = 1 << 20   // most merged bytes read per fetch
	historyBytes  = 8 << 20   // most of a PTY log replayed for its scrollback
)

// selectJob makes id the selected job and loads its pane.
func (m *Model) selectJob(id engine.JobID, force bool) tea.Cmd {
	if id == m.selected && !force && m.pane.id == id {
		return nil
	}
	m.selected = id
	in := m.jobs[id]
	m.pane.reset(id, in.PTY)
	if m.mode == modeCopy || m.mode == modeSearch {
		m.mode = modeNone
	}
	m.syncKeys()
	m.scrollListTo()
	if id == "" {
		return nil
	}
	return tea.Batch(m.fetchPane(), m.resizeToPane())
}

// fetchPane reads what is new for the selected job's pane: one fetch at a
// time, and one more if asked for meanwhile.
func (m *Model) fetchPane() tea.Cmd {
	p := &m.pane
	if p.id == "" || p.hist != nil && p.pty {
		return nil
	}
	if p.settled {
		return nil // finished and fully shown: other jobs' output does not concern it
	}
	// A fetch that starts once the UI has seen the job end reads all of it.
	final := m.jobs[p.id].Status != "running"
	if p.loading {
		p.again = true
		return nil
	}
	p.loading, p.again = true, false
	if p.pty {
		return fetchScreen(m.be, m.c.Styles, p.id, p.gen, p.w, p.h, p.snap, final)
	}
	return fetchOutput(m.be, p.id, p.gen, p.started, p.mergedOff, p.errOff, p.noStderr, final)
}

func fetchScreen(be Backend, st *themes.Styles, id engine.JobID, gen, w, h int, prev *vterm.Snapshot, final bool) tea.Cmd {
	return func() tea.Msg {
		msg := fetchScreenNow(be, st, id, gen, w, h, prev)
		msg.final = final
		return msg
	}
}

func fetchScreenNow(be Backend, st *themes.Styles, id engine.JobID, gen, w, h int, prev *vterm.Snapshot) screenMsg {
	j, err := be.Job(id)
	if err != nil {
		return screenMsg{id: id, gen: gen, err: err}
	}
	s, err := j.Screen()
	if err != nil {
		return screenMsg{id: id, gen: gen, err: err}
	}
	if prev != nil && s.Seq == prev.Seq && s.Cols == prev.Cols && s.Rows == prev.Rows {
		return screenMsg{id: id, gen: gen, snap: s, unchanged: true, w: w, h: h}
	}
	return screenMsg{id: id, gen: gen, snap: s, lines: renderScreen(st, s, w, h), w: w, h: h}
}

func fetchOutput(be Backend, id engine.JobID, gen int, started bool, mergedOff, errOff int64, noStderr, final bool) tea.Cmd {
	return func() tea.Msg {
		msg := outputMsg{id: id, gen: gen, noStderr: noStderr, final: final}
		j, err := be.Job(id)
		if err != nil {
			msg.err = err
			return msg
		}
		if !started {
			msg.first = true
			ml, err := j.Len(engine.Merged)
			if err != nil {
				msg.err = err
				return msg
			}
			el, err := j.Len(engine.Stderr)
			if err != nil {
				msg.noStderr, noStderr = true, true
			}
			mergedOff = max(ml-initialWindow, 0)
			errOff = max(el-(ml-mergedOff), 0)
			msg.mergedStart, msg.errStart = mergedOff, errOff
		}
		c, err := j.Read(engine.Merged, mergedOff, readChunk)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.merged, msg.mergedNext, msg.eof = c.Data, c.Next, c.EOF
		if end, err := j.Len(engine.Merged); err == nil && c.Next < end {
			msg.more = true
		}
		msg.errNext = errOff
		if !noStderr {
			// Read stderr after merged, so it covers every stderr byte in it.
			e, err := j.Read(engine.Stderr, errOff, 2*readChunk)
			if err == nil {
				msg.stderr, msg.errNext = e.Data, e.Next
			}
		}
		return msg
	}
}

// applyOutput adds a pipe job's new output to the pane.
func (m *Model) applyOutput(msg outputMsg) tea.Cmd {
	p := &m.pane
	if msg.id != p.id || msg.gen != p.gen {
		return nil
	}
	p.loading = false
	if msg.err != nil {
		return reportErr(msg.err)
	}
	merged := msg.merged
	if msg.first {
		p.started, p.noStderr = true, msg.noStderr
		if msg.mergedStart > 0 {
			// Starting mid-stream: drop the partial first line.
			if i := indexNL(merged); i >= 0 {
				merged = merged[i+1:]
			}
		}
	}
	before := p.lineCount()
	p.out.add(merged, msg.stderr)
	p.mergedOff, p.errOff, p.eof = msg.mergedNext, msg.errNext, msg.eof
	p.settled = msg.final && !msg.more
	if p.scroll > 0 {
		// Keep the view still while the person reads back.
		p.scroll += p.lineCount() - before
	}
	if p.search != "" {
		p.findMatches()
	}
	if msg.more || p.again {
		return m.fetchPane()
	}
	return nil
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// applyScreen shows a PTY job's new screen.
func (m *Model) applyScreen(msg screenMsg) tea.Cmd {
	p := &m.pane
	if msg.id != p.id || msg.gen != p.gen {
		return nil
	}
	p.loading = false
	if msg.err != nil {
		return reportErr(msg.err)
	}
	p.settled = msg.final
	sizeChanged := p.snap == nil || p.snap.Cols != msg.snap.Cols || p.snap.Rows != msg.snap.Rows
	p.snap = msg.snap
	switch {
	case !msg.unchanged && msg.w == p.w && msg.h == p.h:
		p.screen = msg.lines
	case !msg.unchanged || len(p.screen) != p.h:
		p.screen = renderScreen(m.c.Styles, p.snap, p.w, p.h)
	}
	var cmds []tea.Cmd
	if sizeChanged {
		cmds = append(cmds, m.resizeToPane())
	}
	if p.again {
		cmds = append(cmds, m.fetchPane())
	}
	return tea.Batch(cmds...)
}

// resizeToPane gives the selected running PTY job the pane's size.
func (m *Model) resizeToPane() tea.Cmd {
	p := &m.pane
	in, ok := m.jobs[p.id]
	if !ok || !in.PTY || in.Status != "running" || p.w < 2 || p.h < 2 {
		return nil
	}
	if p.snap != nil && p.snap.Cols == p.w && p.snap.Rows == p.h {
		return nil
	}
	be, id, w, h := m.be, p.id, p.w, p.h
	return func() tea.Msg {
		j, err := be.Job(id)
		if err != nil {
			return nil
		}
		if err := j.Resize(w, h); err != nil {
			return nil // it ended meanwhile, or the size is out of range: keep its size
		}
		return resizedMsg{id}
	}
}

// loadHistory replays a PTY job's log to get its scrollback.
func (m *Model) loadHistory(then func(*pane)) tea.Cmd {
	p := &m.pane
	p.afterHist = then
	if p.histLoading {
		return nil
	}
	p.histLoading = true
	be, st, id, gen, w := m.be, m.c.Styles, p.id, p.gen, p.w
	cols, rows := w, p.h
	if p.snap != nil {
		cols, rows = p.snap.Cols, p.snap.Rows
	}
	return func() tea.Msg {
		j, err := be.Job(id)
		if err != nil {
			return historyMsg{id: id, gen: gen, err: err}
		}
		end, err := j.Len(engine.Stdout)
		if err != nil {
			return historyMsg{id: id, gen: gen, err: err}
		}
		t := vterm.New(cols, rows, vterm.WithScrollback(20000))
		for off := max(end-historyBytes, 0); off < end; {
			c, err := j.Read(engine.Stdout, off, 256<<10)
			if err != nil || len(c.Data) == 0 {
				break
			}
			_, _ = t.Write(c.Data)
			off = c.Next
		}
		var rows2 [][]vterm.Cell
		for _, l := range t.ScrollbackRange(0, t.ScrollbackLen()) {
			rows2 = append(rows2, l.Cells)
		}
		s := t.Snapshot()
		last := len(s.Cells) - 1
		for last >= 0 && rowBlank(s.Cells[last]) && last > s.Cursor.Y {
			last--
		}
		rows2 = append(rows2, s.Cells[:last+1]...)
		styled := renderLines(st, rows2, w)
		out := make([]histLine, len(rows2))
		for i, r := range rows2 {
			out[i] = histLine{plain: vterm.Line{Cells: r}.Text(), styled: styled[i], cells: r}
		}
		return historyMsg{id: id, gen: gen, lines: out}
	}
}

func rowBlank(r []vterm.Cell) bool {
	for _, c := range r {
		if c.Text != " " && c.Text != "" {
			return false
		}
	}
	return true
}

func (m *Model) applyHistory(msg historyMsg) tea.Cmd {
	p := &m.pane
	if msg.id != p.id || msg.gen != p.gen {
		return nil
	}
	p.histLoading = false
	if msg.err != nil {
		return reportErr(msg.err)
	}
	p.hist = msg.lines
	if p.hist == nil {
		p.hist = []histLine{}
	}
	if f := p.afterHist; f != nil {
		p.afterHist = nil
		f(p)
	}
	m.syncKeys()
	return nil
}

// refreshInfos re-reads the state of running jobs (waiting for input,
// runtimes) that changes without a lifecycle event.
func (m *Model) refreshInfos() tea.Cmd {
	var ids []engine.JobID
	for id, in := range m.jobs {
		if in.Status == "running" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	be := m.be
	return func() tea.Msg {
		out := make([]engine.Info, 0, len(ids))
		for _, id := range ids {
			if j, err := be.Job(id); err == nil {
				out = append(out, j.Info())
			}
		}
		return infosMsg{out}
	}
}

// audit returns the person-action hook, or one that does nothing.
func (m *Model) audit() func(action string, job engine.JobID, detail string) {
	if m.opts.OnAction != nil {
		return m.opts.OnAction
	}
	return func(string, engine.JobID, string) {}
}

// hangupAfter is how long a kill of a PTY job waits before it hangs up too.
const hangupAfter = 100 * time.Millisecond

// killJob ends a job's whole tree.
func (m *Model) killJob(id engine.JobID) tea.Cmd {
	be, audit := m.be, m.audit()
	return func() tea.Msg {
		audit("kill", id, "")
		j, err := be.Job(id)
		if err != nil {
			return statusMsg{levelError, err.Error()}
		}
		killed := make(chan struct{})
		go func() {
			defer close(killed)
			j.Kill("killed by a person in the TUI")
		}()
		if j.IsPTY() {
			// An interactive shell ignores SIGTERM but leaves on SIGHUP: hang
			// up too, as a closing terminal does, once Kill has recorded that
			// the job was killed (so it is not reported as "signaled").
			select {
			case <-killed:
			case <-time.After(hangupAfter):
				_ = j.Signal(syscall.SIGHUP)
			}
		}
		<-killed
		return statusMsg{levelInfo, fmt.Sprintf("job %s killed", id)}
	}
}

// signalJob sends sig to a job's process group.
func (m *Model) signalJob(id engine.JobID, sig syscall.Signal) tea.Cmd {
	be, audit := m.be, m.audit()
	return func() tea.Msg {
		audit("signal", id, sigName(sig))
		j, err := be.Job(id)
		if err == nil {
			err = j.Signal(sig)
		}
		if err != nil {
			return statusMsg{levelError, err.Error()}
		}
		return statusMsg{levelInfo, fmt.Sprintf("sent %s to job %s", sigName(sig), id)}
	}
}

// backgroundJob lets the agent's exec waiting on a job return now.
func (m *Model) backgroundJob(id engine.JobID) tea.Cmd {
	be, audit := m.be, m.audit()
	return func() tea.Msg {
		audit("background", id, "")
		j, err := be.Job(id)
		if err == nil {
			err = j.Background()
		}
		if err != nil {
			return statusMsg{levelError, err.Error()}
		}
		return statusMsg{levelInfo, fmt.Sprintf("job %s backgrounded: the agent's call returned with its id", id)}
	}
}

// removeJob deletes a finished job and its logs.
func (m *Model) removeJob(id engine.JobID) tea.Cmd {
	be, audit := m.be, m.audit()
	return func() tea.Msg {
		audit("remove", id, "")
		if err := be.Remove(id); err != nil {
			return statusMsg{levelError, err.Error()}
		}
		return statusMsg{levelInfo, fmt.Sprintf("job %s removed", id)}
	}
}

// startJob runs a command (or a shell) typed by the person, on a PTY the
// size of the pane.
func (m *Model) startJob(command, desc string, attach bool) tea.Cmd {
	be := m.be
	spec := engine.Spec{
		Command: command, Description: desc, Cwd: m.opts.Cwd, PTY: true, Interactive: true,
		Cols: max(m.pane.w, 20), Rows: max(m.pane.h, 5), Origin: engine.Human,
	}
	audit := m.audit()
	return func() tea.Msg {
		j, err := be.Start(context.Background(), spec)
		if err != nil {
			return statusMsg{levelError, fmt.Sprintf("start %q: %s", command, errText(err))}
		}
		audit("start", j.Info().ID, command)
		return jobStartedMsg{id: j.Info().ID, attach: attach}
	}
}

// signals offered by the signal picker.
var signals = []syscall.Signal{
	syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGSTOP, syscall.SIGCONT, syscall.SIGWINCH,
}

func sigName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGUSR1:
		return "SIGUSR1"
	case syscall.SIGUSR2:
		return "SIGUSR2"
	case syscall.SIGSTOP:
		return "SIGSTOP"
	case syscall.SIGCONT:
		return "SIGCONT"
	case syscall.SIGWINCH:
		return "SIGWINCH"
	default:
		return fmt.Sprintf("signal %d", int(s))
	}
}
