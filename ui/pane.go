package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"tend/engine"
	"tend/themes"
	"tend/vterm"
)

// pane is the selected job's body: a PTY job's live screen (or its
// scrollback, while scrolled), or a pipe job's output lines.
type pane struct {
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

	// Pipe jobs.
	out       attributor
	started   bool  // offsets below are set
	mergedOff int64 // next merged offset to read
	errOff    int64 // next stderr offset to read
	noStderr  bool  // stderr shares stdout's pipe
	eof       bool

	// Scrolling: lines above the live bottom; 0 follows the output.
	scroll int
	// hist is a PTY job's scrollback and screen, loaded when a person
	// scrolls, searches or copies; nil while live.
	hist        []histLine
	histLoading bool
	afterHist   func(*pane) // what to do once hist arrives (search, copy)

	search  string
	matches []int // line indices matching search, ascending
	match   int   // index into matches; -1: none current

	copyCur, copyAnchor int
	copyMarking         bool
}

// histLine is one line of a PTY job's history.
type histLine struct {
	plain  string
	styled string
	cells  []vterm.Cell
}

// reset points the pane at job id.
func (p *pane) reset(id engine.JobID, pty bool) {
	*p = pane{id: id, pty: pty, gen: p.gen + 1, w: p.w, h: p.h, match: -1, copyCur: -1}
}

// restyle re-renders what was rendered with the old styles.
func (p *pane) restyle(st *themes.Styles) {
	if p.snap != nil {
		p.screen = renderScreen(st, p.snap, p.w, p.h)
	}
	for i := range p.hist {
		p.hist[i].styled = renderLines(st, [][]vterm.Cell{p.hist[i].cells}, p.w)[0]
	}
}

// frozen reports whether the pane shows lines (pipe output or PTY
// history) rather than a live screen.
func (p *pane) frozen() bool { return !p.pty || p.hist != nil }

// lineCount is the number of scrollable lines.
func (p *pane) lineCount() int {
	if p.pty {
		return len(p.hist)
	}
	n := len(p.out.lines)
	if _, ok := p.out.tailLine(); ok {
		n++
	}
	return n
}

// plainLine returns line i as text.
func (p *pane) plainLine(i int) string {
	if p.pty {
		return p.hist[i].plain
	}
	if i < len(p.out.lines) {
		return p.out.lines[i].text
	}
	tl, _ := p.out.tailLine()
	return tl.text
}

// window returns the first and one-past-last line shown.
func (p *pane) window() (int, int) {
	n := p.lineCount()
	p.scroll = min(max(p.scroll, 0), max(n-p.h, 0))
	end := n - p.scroll
	return max(end-p.h, 0), end
}

// scrollBy moves the view by d lines (positive: up, into the past).
func (p *pane) scrollBy(d int) {
	p.scroll += d
	p.window()
}

// findMatches recomputes the lines matching the search (case-insensitive
// when the search is all lower case, as in less -i).
func (p *pane) findMatches() {
	p.matches = p.matches[:0]
	if p.search == "" {
		p.match = -1
		return
	}
	fold := strings.ToLower(p.search) == p.search
	for i := range p.lineCount() {
		l := p.plainLine(i)
		if fold {
			l = strings.ToLower(l)
		}
		if strings.Contains(l, p.search) {
			p.matches = append(p.matches, i)
		}
	}
	p.match = -1
}

// jump makes match k current and scrolls it into view.
func (p *pane) jump(k int) bool {
	if len(p.matches) == 0 {
		return false
	}
	k = (k + len(p.matches)) % len(p.matches)
	p.match = k
	line := p.matches[k]
	n := p.lineCount()
	start, end := p.window()
	if line < start || line >= end {
		// Put the match in the middle of the pane.
		p.scroll = n - (line + p.h/2 + 1)
		p.window()
	}
	return true
}

// body renders the pane's body: exactly h lines of width w.
func (p *pane) body(st *themes.Styles) []string {
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
	start, end := p.window()
	cur := -1
	if p.match >= 0 && p.match < len(p.matches) {
		cur = p.matches[p.match]
	}
	lo, hi := -1, -1
	if p.copyMarking {
		lo, hi = min(p.copyAnchor, p.copyCur), max(p.copyAnchor, p.copyCur)
	}
	for i := start; i < end; i++ {
		out = append(out, p.renderLine(st, i, i == cur, (i >= lo && i <= hi) || i == p.copyCurIf()))
	}
	blank := st.Base.Render(strings.Repeat(" ", p.w))
	for len(out) < p.h {
		out = append(out, blank)
	}
	return out
}

// copyCurIf is the copy cursor's line, or -1 outside copy mode.
func (p *pane) copyCurIf() int {
	if p.copyCur < 0 {
		return -1
	}
	return p.copyCur
}

func (p *pane) renderLine(st *themes.Styles, i int, current, selected bool) string {
	plain := p.plainLine(i)
	pad := func(s string, w int) string {
		if w < p.w {
			s += strings.Repeat(" ", p.w-w)
		}
		return s
	}
	if selected {
		t := ansi.Truncate(plain, p.w, "")
		return st.CopySel.Render(pad(t, ansi.StringWidth(t)))
	}
	if p.search != "" && strings.Contains(strings.ToLower(plain), strings.ToLower(p.search)) {
		return p.highlight(st, plain, current)
	}
	if p.pty {
		return p.hist[i].styled
	}
	var l outLine
	if i < len(p.out.lines) {
		l = p.out.lines[i]
	} else {
		l, _ = p.out.tailLine()
	}
	t := ansi.Truncate(l.text, p.w, "")
	w := ansi.StringWidth(t)
	var s string
	switch {
	case l.errLen == 0:
		s = st.Base.Render(t)
	case l.errLen >= len(t):
		s = st.Stderr.Render(t)
	default:
		s = st.Stderr.Render(t[:l.errLen]) + st.Base.Render(t[l.errLen:])
	}
	if w < p.w {
		s += st.Base.Render(strings.Repeat(" ", p.w-w))
	}
	return s
}

// highlight renders plain with every match of the search marked; the
// current match line is marked whole.
func (p *pane) highlight(st *themes.Styles, plain string, current bool) string {
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
