package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tend/engine"
	"tend/keymap"
	"tend/vterm"
)

// pane is the selected job's body: a PTY job's live screen (or its
// scrollback, while scrolled), or a pipe job's output lines. It owns its
// state: the root model says which job to show and at what size, and hands
// it the messages its commands return; reading a job's output or screen
// happens in those commands, never in Update.
type pane struct {
	c  *Common
	be Backend

	id   engine.JobID
	pty  bool
	gen  int // bumped on every job switch; results of older fetches are dropped
	w, h int // body size in cells

	// A fetch of output or screen is in flight; again: another was asked
	// for meanwhile (the trailing frame).
	loading, again bool
	// settled: the job had ended when the last fetch began, so the pane
	// holds all of it and needs no more fetches.
	settled bool

	// PTY jobs.
	snap   *vterm.Snapshot
	screen []string // snap rendered at w×h

	// Pipe jobs: a window of the output, the live end unless past.
	out     outputLines
	started bool  // off is set
	off     int64 // next merged offset to read
	eof     bool
	past    bool  // the window is a stretch of the past: nothing is fetched
	base    int64 // the number of the window's first line as loaded; 0: not known
	winSeq  int   // bumped when another window is loaded

	// Scrolling: lines above the live bottom; 0 follows the output.
	scroll int
	// hist is a PTY job's scrollback and screen, loaded when a person
	// scrolls, searches or copies; nil while live.
	hist        []histLine
	histLoading bool
	histThen    histIntent // what to do when it arrives: the person's last request

	// The search: matches before the window (pipe jobs), in it (line
	// indices), after it; the current one indexes all three in turn.
	search             string
	older              []hit
	matches            []int
	newer              []hit
	match              int // -1: none current
	scanning, counting *scan
	scanSeq            int

	copying             bool
	copyCur, copyAnchor int
	copyMarking         bool
}

// histLine is one line of a PTY job's history.
type histLine struct {
	plain  string
	styled string
	cells  []vterm.Cell
}

// outputMsg carries new output of a pipe job.
type outputMsg struct {
	id    engine.JobID
	gen   int
	win   int // the window it was read for
	err   error
	data  []byte
	spans []engine.Span
	first bool  // the first read: it started at start, perhaps mid-line
	start int64 // where the first read started
	next  int64
	more  bool // more output is waiting: read again
	eof   bool
	final bool // read after the job ended: nothing more will come
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

// histIntent is what to do once a PTY job's history has arrived: what the
// person asked for that needed it.
type histIntent struct {
	kind  histKind
	lines int // histScroll: how far up
}

type histKind int

const (
	histScroll histKind = iota
	histSearch
	histCopy
)

// resizedMsg says a PTY job was resized to the pane.
type resizedMsg struct{ id engine.JobID }

const (
	initialWindow = 512 << 10 // how far back a pipe job's output is shown at first
	readChunk     = 1 << 20   // most merged bytes read per fetch
)

// show points the pane at job id.
func (p *pane) show(id engine.JobID, pty bool) {
	*p = pane{c: p.c, be: p.be, id: id, pty: pty, gen: p.gen + 1, w: p.w, h: p.h, match: -1, copyCur: -1}
}

// setSize sizes the body; it reports whether the size changed.
func (p *pane) setSize(w, h int) bool {
	w, h = max(w, 1), max(h, 1)
	if w == p.w && h == p.h {
		return false
	}
	p.w, p.h = w, h
	p.screen = nil
	if p.hist != nil {
		p.hist = nil // rendered for the old width
		p.scroll = 0
	}
	return true
}

// fetch reads what is new for the pane: one fetch at a time, and one more
// if asked for meanwhile. running says whether the job still runs: a fetch
// that starts once it has ended reads all of it.
func (p *pane) fetch(running bool) tea.Cmd {
	if p.id == "" || p.hist != nil && p.pty || p.settled || p.past {
		return nil // nothing shown, a frozen history, all of a finished job, or a window of the past
	}
	if p.loading {
		p.again = true
		return nil
	}
	p.loading, p.again = true, false
	if p.pty {
		return fetchScreen(p.be, p.c, p.id, p.gen, p.w, p.h, p.snap, !running)
	}
	return fetchOutput(p.be, p.id, p.gen, p.winSeq, p.started, p.off, !running)
}

func fetchScreen(be Backend, c *Common, id engine.JobID, gen, w, h int, prev *vterm.Snapshot, final bool) tea.Cmd {
	st := c.Styles
	return func() tea.Msg {
		msg := screenMsg{id: id, gen: gen, w: w, h: h, final: final}
		j, err := be.Job(id)
		if err != nil {
			msg.err = err
			return msg
		}
		if msg.snap, msg.err = j.Screen(); msg.err != nil {
			return msg
		}
		s := msg.snap
		if prev != nil && s.Seq == prev.Seq && s.Cols == prev.Cols && s.Rows == prev.Rows {
			msg.unchanged = true
		} else {
			msg.lines = renderScreen(st, s, w, h)
		}
		return msg
	}
}

func fetchOutput(be Backend, id engine.JobID, gen, win int, started bool, off int64, final bool) tea.Cmd {
	return func() tea.Msg {
		msg := outputMsg{id: id, gen: gen, win: win, final: final}
		j, err := be.Job(id)
		if err != nil {
			msg.err = err
			return msg
		}
		if !started {
			end, err := j.Len(engine.Merged)
			if err != nil {
				msg.err = err
				return msg
			}
			off = max(end-initialWindow, 0)
			msg.first, msg.start = true, off
		}
		c, err := j.Read(engine.Merged, off, readChunk)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.data, msg.spans, msg.next, msg.eof = c.Data, c.Spans, c.Next, c.EOF
		if end, err := j.Len(engine.Merged); err == nil && c.Next < end {
			msg.more = true
		}
		return msg
	}
}

// resize gives the shown job the pane's size, when it is a running PTY job
// of another size.
func (p *pane) resize(running bool) tea.Cmd {
	if !p.pty || !running || p.w < 2 || p.h < 2 {
		return nil
	}
	if p.snap != nil && p.snap.Cols == p.w && p.snap.Rows == p.h {
		return nil
	}
	be, id, w, h := p.be, p.id, p.w, p.h
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

// update applies the result of one of the pane's commands; running says
// whether the shown job still runs.
func (p *pane) update(msg tea.Msg, running bool) tea.Cmd {
	switch msg := msg.(type) {
	case outputMsg:
		return p.applyOutput(msg, running)
	case screenMsg:
		return p.applyScreen(msg, running)
	case historyMsg:
		return p.applyHistory(msg)
	case scanMsg:
		return p.applyScan(msg)
	case windowMsg:
		return p.applyWindow(msg, running)
	case resizedMsg:
		if msg.id == p.id {
			return p.fetch(running)
		}
	}
	return nil
}

func (p *pane) applyOutput(msg outputMsg, running bool) tea.Cmd {
	if msg.id != p.id || msg.gen != p.gen || msg.win != p.winSeq {
		return nil // for another job, or for a window since left
	}
	p.loading = false
	if msg.err != nil {
		return reportErr(msg.err)
	}
	before := p.lineCount()
	var inWin []hit // the window's matches, kept when their lines leave it
	for _, i := range p.matches {
		inWin = append(inWin, p.lineHit(i))
	}
	if msg.first {
		p.out.startAt(msg.start)
	}
	p.out.add(msg.data, msg.spans)
	var cmds []tea.Cmd
	if msg.first {
		p.started = true
		if msg.start > 0 {
			p.out.dropPartial()
		}
		if p.search != "" {
			cmds = append(cmds, p.startScan(false))
		}
	}
	p.off, p.eof = msg.next, msg.eof
	p.settled = msg.final && !msg.more
	if p.scroll > 0 {
		// Keep the view still while the person reads back.
		p.scroll += p.lineCount() - before
	}
	if p.search != "" {
		cur, ok := p.current()
		first, _ := p.loadedRange()
		p.matches = nil
		for _, h := range inWin {
			if h.off < first {
				p.older = append(p.older, h)
			}
		}
		p.findMatches()
		p.split(slices.Concat(p.older, p.newer))
		p.setCurrent(cur, ok)
	}
	if msg.more || p.again {
		cmds = append(cmds, p.fetch(running))
	}
	return tea.Batch(cmds...)
}

func (p *pane) applyScreen(msg screenMsg, running bool) tea.Cmd {
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
		p.screen = renderScreen(p.c.Styles, p.snap, p.w, p.h)
	}
	var cmds []tea.Cmd
	if sizeChanged {
		cmds = append(cmds, p.resize(running))
	}
	if p.again {
		cmds = append(cmds, p.fetch(running))
	}
	return tea.Batch(cmds...)
}

// loadHistory asks for a PTY job's scrollback from the engine, to do then
// once it arrives. Asked again while it loads, the last request is done
// (scrolls add up).
func (p *pane) loadHistory(then histIntent) tea.Cmd {
	if p.histLoading {
		if then.kind == histScroll && p.histThen.kind == histScroll {
			then.lines += p.histThen.lines
		}
		p.histThen = then
		return nil
	}
	p.histLoading, p.histThen = true, then
	be, st, id, gen, w := p.be, p.c.Styles, p.id, p.gen, p.w
	return func() tea.Msg {
		msg := historyMsg{id: id, gen: gen}
		j, err := be.Job(id)
		if err != nil {
			msg.err = err
			return msg
		}
		lines, snap, err := j.Scrollback()
		if err != nil {
			msg.err = err
			return msg
		}
		rows := make([][]vterm.Cell, 0, len(lines)+len(snap.Cells))
		for _, l := range lines {
			rows = append(rows, l.Cells)
		}
		last := len(snap.Cells) - 1
		for last >= 0 && rowBlank(snap.Cells[last]) && last > snap.Cursor.Y {
			last--
		}
		rows = append(rows, snap.Cells[:last+1]...)
		styled := renderLines(st, rows, w)
		msg.lines = make([]histLine, len(rows))
		for i, r := range rows {
			msg.lines[i] = histLine{plain: vterm.Line{Cells: r}.Text(), styled: styled[i], cells: r}
		}
		return msg
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

func (p *pane) applyHistory(msg historyMsg) tea.Cmd {
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
	switch p.histThen.kind {
	case histScroll:
		p.scrollBy(p.histThen.lines)
	case histSearch:
		return p.runSearch()
	case histCopy:
		p.enterCopy()
	}
	return nil
}

// scroll moves the view d lines (up when positive); a PTY job's scrollback
// is loaded first, and scrolling back to its bottom goes live again.
func (p *pane) scrollLines(d int, running bool) tea.Cmd {
	if p.id == "" {
		return nil
	}
	if p.pty && p.hist == nil {
		if d <= 0 {
			return nil
		}
		return p.loadHistory(histIntent{kind: histScroll, lines: d})
	}
	p.scrollBy(d)
	if p.pty && p.scroll == 0 && d < 0 {
		p.hist = nil
		return p.fetch(running)
	}
	return p.countLines()
}

// follow leaves scrollback: the pane follows the job's live end again
// (from a window of the past, the search ends).
func (p *pane) follow(running bool) tea.Cmd {
	if p.past {
		p.show(p.id, p.pty)
	}
	p.scroll, p.hist = 0, nil
	return p.fetch(running)
}

// live leaves scrollback and ends the search.
func (p *pane) live(running bool) tea.Cmd {
	p.endSearch()
	return p.follow(running)
}

func (p *pane) endSearch() {
	p.search, p.older, p.matches, p.newer, p.match = "", nil, nil, nil, -1
	p.scanning = nil
}

// scrolledBack reports whether the pane shows anything but the live end.
func (p *pane) scrolledBack() bool { return p.scroll > 0 || p.hist != nil || p.past }

// frozen reports whether the pane shows lines (pipe output or PTY
// history) rather than a live screen.
func (p *pane) frozen() bool { return !p.pty || p.hist != nil }

// lineCount is the number of scrollable lines.
func (p *pane) lineCount() int {
	if p.pty {
		return len(p.hist)
	}
	return p.out.count()
}

// plainLine returns line i as text.
func (p *pane) plainLine(i int) string {
	if p.pty {
		return p.hist[i].plain
	}
	return p.out.line(i).text
}

// window returns the first and one-past-last line shown.
func (p *pane) window() (int, int) {
	start, end, _ := p.view()
	return start, end
}

// view returns the first and one-past-last line shown, and whether the
// marker for earlier output is shown above them: a row above the first
// line of a pipe job's window, when output comes before it.
func (p *pane) view() (start, end int, marker bool) {
	n := p.lineCount()
	m := 0
	if before, _ := p.earlier(); before > 0 {
		m = 1
	}
	p.scroll = min(max(p.scroll, 0), max(n+m-p.h, 0))
	end = n - p.scroll
	top := max(end+m-p.h, 0) // counting the marker's row
	return max(top-m, 0), end, m == 1 && top == 0
}

// marker is the row that says what output comes before the window, and
// whether it is in view.
func (p *pane) marker() (string, bool) {
	if _, _, shown := p.view(); !shown {
		return "", false
	}
	before, lines := p.earlier()
	what := longBytes(before) + " of earlier output"
	if lines >= 0 {
		what = fmt.Sprintf("%s earlier %s (%s)", groupDigits(lines), plural(lines, "line", "lines"), longBytes(before))
	}
	return fmt.Sprintf("▲ %s not loaded here · / searches all of it · o opens the whole log", what), true
}

// scrollBy moves the view by d lines (positive: up, into the past).
func (p *pane) scrollBy(d int) {
	p.scroll += d
	p.window()
}

// startSearch searches the output for q and jumps to the newest match; a
// PTY job's history is loaded first.
// A pipe job's whole log is looked through, the lines before the window
// as they are read from it.
func (p *pane) startSearch(q string) tea.Cmd {
	p.endSearch()
	p.search = q
	if q == "" {
		return nil
	}
	if p.pty && p.hist == nil {
		return p.loadHistory(histIntent{kind: histSearch})
	}
	return tea.Batch(p.runSearch(), p.startScan(false))
}

func (p *pane) runSearch() tea.Cmd {
	p.findMatches()
	jump := p.jump(len(p.matches) - 1)
	if before, _ := p.earlier(); before > 0 {
		return jump // the scan says when it is done
	}
	where := ""
	if p.pty {
		where = " of the scrollback (o opens the whole log)"
	}
	if len(p.matches) == 0 {
		return info("no match for %q%s", p.search, where)
	}
	return tea.Batch(jump, info("%s%s: n older, N newer", matching(len(p.matches), p.search), where))
}

// findMatches recomputes the lines of the window that match the search,
// keeping the current match.
func (p *pane) findMatches() {
	cur, ok := p.current()
	p.matches = p.matches[:0]
	if p.search == "" {
		p.match = -1
		return
	}
	m := newMatcher(p.search)
	for i := range p.lineCount() {
		if m.text(p.plainLine(i)) {
			p.matches = append(p.matches, i)
		}
	}
	p.setCurrent(cur, ok)
}

// step makes the match d places newer current (negative: older), from
// none the newest or the oldest; a match outside the window loads the
// output around it.
func (p *pane) step(d int) tea.Cmd {
	if p.matchCount() == 0 {
		return info("no match for %q", p.search)
	}
	k := p.match + d
	if p.match < 0 {
		k = min(d, 0)
	}
	return p.jump(k)
}

// jump makes match k current (wrapping around) and brings it into view.
func (p *pane) jump(k int) tea.Cmd {
	n := p.matchCount()
	if n == 0 {
		return nil
	}
	k = (k%n + n) % n
	p.match = k
	if k < len(p.older) || k >= len(p.older)+len(p.matches) {
		p.loading = true
		p.winSeq++
		return loadWindow(p.be, p.id, p.gen, p.winSeq, p.hitAt(k))
	}
	line := p.matches[k-len(p.older)]
	if start, end := p.window(); line < start || line >= end {
		p.centre(line)
	}
	return p.countLines()
}

// centre scrolls line into the middle of the pane.
func (p *pane) centre(line int) {
	p.scroll = p.lineCount() - (line + p.h/2 + 1)
	p.window()
}

// copyMode enters copy mode, loading a PTY job's history first.
func (p *pane) copyMode() tea.Cmd {
	if p.pty && p.hist == nil {
		return p.loadHistory(histIntent{kind: histCopy})
	}
	p.enterCopy()
	return nil
}

func (p *pane) enterCopy() {
	p.copying = true
	start, end := p.window()
	p.copyCur = max(end-1, start)
	p.copyMarking = false
}

func (p *pane) leaveCopy() {
	p.copying = false
	p.copyCur, p.copyMarking = -1, false
}

// copyKey moves the copy cursor, marks, and copies the selection via OSC 52
// (sent by raw).
func (p *pane) copyKey(msg tea.KeyPressMsg, k keymap.Copy, raw func(string) tea.Cmd) tea.Cmd {
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
		p.leaveCopy()
		lines := strings.Count(text, "\n") + 1
		return tea.Batch(raw(ansi.SetSystemClipboard(text)), info("copied %d line(s) to the clipboard (OSC 52)", lines))
	case key.Matches(msg, k.Cancel):
		p.leaveCopy()
	}
	return nil
}

// selection returns the text of the copy selection (or the cursor line).
func (p *pane) selection() string {
	lo, hi := p.copyCur, p.copyCur
	if p.copyMarking {
		lo, hi = min(p.copyAnchor, p.copyCur), max(p.copyAnchor, p.copyCur)
	}
	var lines []string
	for i := lo; i <= hi && i < p.lineCount(); i++ {
		if i >= 0 {
			lines = append(lines, strings.TrimRight(p.plainLine(i), " "))
		}
	}
	return strings.Join(lines, "\n")
}

// modes are the shown PTY job's terminal modes (cursor keys, paste), for
// encoding keys sent to it.
func (p *pane) modes() vterm.Modes {
	if p.snap == nil {
		return vterm.Modes{}
	}
	return p.snap.Modes
}

// cursor is where the shown PTY job's cursor is in the body, when it is
// visible on the live screen.
func (p *pane) cursor() (x, y int, ok bool) {
	if !p.pty || p.snap == nil || !p.snap.Modes.CursorVisible || p.hist != nil {
		return 0, 0, false
	}
	x, y = p.snap.Cursor.X, p.snap.Cursor.Y
	return x, y, x < p.w && y < p.h
}

// termSize is the shown PTY job's terminal size, "" before it is known.
func (p *pane) termSize() string {
	if !p.pty || p.snap == nil {
		return ""
	}
	return fmt.Sprintf("%d×%d", p.snap.Cols, p.snap.Rows)
}

// restyle re-renders what was rendered with the old styles.
func (p *pane) restyle() {
	st := p.c.Styles
	if p.snap != nil {
		p.screen = renderScreen(st, p.snap, p.w, p.h)
	}
	for i := range p.hist {
		p.hist[i].styled = renderLines(st, [][]vterm.Cell{p.hist[i].cells}, p.w)[0]
	}
}

// hint is what the pane's border says about it: scrolled back, copy mode,
// the search and its matches.
func (p *pane) hint() string {
	st := p.c.Styles
	var hint string
	switch {
	case p.copying:
		hint = st.Accent.Render("copy mode · space selects · y copies · esc leaves")
	case p.histLoading:
		hint = st.Muted.Render("loading scrollback…")
	case p.loading && p.past:
		hint = st.Muted.Render("loading…")
	case p.past:
		hint = st.Accent.Render("past output · esc back to live")
	case p.scroll > 0:
		hint = st.Accent.Render(fmt.Sprintf("↑ %d lines · esc back to live", p.scroll))
	case p.hist != nil:
		hint = st.Accent.Render("scrollback · esc back to live")
	case !p.pty && p.eof:
		hint = st.Muted.Render("end of output")
	}
	if p.search != "" {
		n := p.matchCount()
		s := fmt.Sprintf("/%s %d matches", p.search, n)
		if h, ok := p.current(); ok {
			s = fmt.Sprintf("/%s %d/%d", p.search, n-p.match, n)
			if h.line > 0 {
				s += " · line " + groupDigits(h.line)
			}
		}
		if sc := p.scanning; sc != nil {
			s += fmt.Sprintf(" · looked through %d%% of %s", 100*(sc.next-sc.from)/max(sc.to-sc.from, 1), longBytes(sc.to))
		}
		if hint != "" {
			hint += st.Muted.Render(" · ")
		}
		hint += st.Warn.Render(s)
	}
	return hint
}

// body renders the pane's body: exactly h lines of width w.
func (p *pane) body() []string {
	st := p.c.Styles
	if p.w <= 0 || p.h <= 0 {
		return nil
	}
	if !p.frozen() {
		if len(p.screen) == p.h {
			return p.screen
		}
		return renderScreen(st, p.snap, p.w, p.h)
	}
	out := make([]string, 0, p.h)
	start, end, _ := p.view()
	if m, ok := p.marker(); ok {
		out = append(out, st.Muted.Render(pad(ansi.Truncate(m, p.w, "…"), p.w)))
	}
	cur := -1
	if k := p.match - len(p.older); k >= 0 && k < len(p.matches) {
		cur = p.matches[k]
	}
	lo, hi := -1, -1
	if p.copyMarking {
		lo, hi = min(p.copyAnchor, p.copyCur), max(p.copyAnchor, p.copyCur)
	}
	for i := start; i < end; i++ {
		out = append(out, p.renderLine(i, i == cur, (i >= lo && i <= hi) || p.copying && i == p.copyCur))
	}
	blank := st.Base.Render(strings.Repeat(" ", p.w))
	for len(out) < p.h {
		out = append(out, blank)
	}
	return out
}

func (p *pane) renderLine(i int, current, selected bool) string {
	st := p.c.Styles
	plain := p.plainLine(i)
	if selected {
		t := ansi.Truncate(plain, p.w, "")
		return st.CopySel.Render(pad(t, p.w))
	}
	if p.search != "" && strings.Contains(strings.ToLower(plain), strings.ToLower(p.search)) {
		return p.highlight(plain, current)
	}
	if p.pty {
		return p.hist[i].styled
	}
	return string(sgrWriter{st}.outLine(nil, p.out.line(i).parts, p.w))
}

// highlight renders plain with every match of the search marked; the
// current match line is marked whole.
func (p *pane) highlight(plain string, current bool) string {
	st := p.c.Styles
	t := ansi.Truncate(plain, p.w, "")
	lower, q := strings.ToLower(t), strings.ToLower(p.search)
	base := st.Base
	if current {
		base = st.Selected
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, q)
		if i < 0 {
			break
		}
		b.WriteString(base.Render(t[:i]))
		b.WriteString(st.Match.Render(t[i : i+len(q)]))
		t, lower = t[i+len(q):], lower[i+len(q):]
	}
	b.WriteString(base.Render(t))
	w := ansi.StringWidth(b.String())
	if w < p.w {
		b.WriteString(base.Render(strings.Repeat(" ", p.w-w)))
	}
	return b.String()
}
