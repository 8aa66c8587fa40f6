package ui

import (
	"charm.land/lipgloss/v2"
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"tend/engine"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tend/keymap"
	"tend/themes"
)

// activity is the Activity view: every MCP tool call in the order they
// started, newest at the bottom, each shown from when it starts (running,
// or waiting for a person's approval) to how it ended; the selected call's
// arguments, result, approval and first lines of output below.
type activity struct {
	src     ActivitySource
	all     []Call // by Seq
	calls   []Call // those shown: all, or one agent's
	rev     uint64
	clients []string
	agent   string // the agent shown alone; "" for all
	held    func(session string) bool
	sel     int // selected call; -1 follows the newest
	top     int // first row shown
	rows    int // rows of the table at the last render
}

const maxCalls = 2000

func (a *activity) init(src ActivitySource, held func(session string) bool) {
	a.src, a.held, a.sel = src, held, -1
	a.pull()
}

// pull takes the calls recorded or changed since the last pull: a new one
// is added, one that was running is replaced by how it ended.
func (a *activity) pull() {
	if a.src == nil {
		return
	}
	for _, c := range a.src.Since(a.rev) {
		a.rev = max(a.rev, c.Rev)
		i := sort.Search(len(a.all), func(i int) bool { return a.all[i].Seq >= c.Seq })
		if i < len(a.all) && a.all[i].Seq == c.Seq {
			a.all[i] = c
		} else {
			a.all = slices.Insert(a.all, i, c)
		}
	}
	if over := len(a.all) - maxCalls; over > 0 {
		a.all = append(a.all[:0:0], a.all[over:]...)
	}
	a.filter()
	a.clients = a.src.Clients()
}

// filter makes calls the calls shown, keeping the selected one selected.
func (a *activity) filter() {
	var was uint64
	if cur := a.current(); a.sel >= 0 && cur >= 0 {
		was = a.calls[cur].Seq
	}
	a.calls = a.all
	if a.agent != "" {
		a.calls = nil
		for _, c := range a.all {
			if c.Agent == a.agent {
				a.calls = append(a.calls, c)
			}
		}
	}
	if was != 0 {
		a.sel = slices.IndexFunc(a.calls, func(c Call) bool { return c.Seq == was })
	}
}

// toggleAgent shows only the selected call's agent, or all again.
func (a *activity) toggleAgent() {
	switch cur := a.current(); {
	case a.agent != "":
		a.agent = ""
	case cur >= 0:
		a.agent = a.calls[cur].Agent
	}
	a.filter()
}

// job is the job the selected call started or acted on, if any.
func (a *activity) job() engine.JobID {
	if cur := a.current(); cur >= 0 {
		return a.calls[cur].Job
	}
	return ""
}

// len is the number of calls kept.
func (a *activity) len() int { return len(a.calls) }

// connected names the clients connected at the last pull.
func (a *activity) connected() []string { return a.clients }

func (a *activity) current() int {
	if a.sel < 0 || a.sel >= len(a.calls) {
		return len(a.calls) - 1
	}
	return a.sel
}

func (a *activity) move(d int) {
	if len(a.calls) == 0 {
		return
	}
	i := min(max(a.current()+d, 0), len(a.calls)-1)
	a.sel = i
	if i == len(a.calls)-1 {
		a.sel = -1 // at the newest: follow
	}
}

func (a *activity) scroll(d int) { a.move(d) }

func (a *activity) key(msg tea.KeyPressMsg, k keymap.Activity) {
	page := max(a.rows-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		a.move(-1)
	case key.Matches(msg, k.Down):
		a.move(1)
	case key.Matches(msg, k.PageUp):
		a.move(-page)
	case key.Matches(msg, k.PageDown):
		a.move(page)
	case key.Matches(msg, k.Top):
		a.move(-len(a.calls))
	case key.Matches(msg, k.Bottom):
		a.sel = -1
	case key.Matches(msg, k.Agent):
		a.toggleAgent()
	}
}

// mark is a call's mark and the style of its row: how it ended, or that it
// runs or waits for a person.
func (a *activity) mark(st *themes.Styles, c Call) (mark string, row lipgloss.Style) {
	switch {
	case c.Running && a.held != nil && a.held(c.Session):
		return st.Approval.Render("?"), st.Approval
	case c.Running:
		return st.Accent.Render("…"), st.Base
	case c.Status == "denied":
		return st.Approval.Render("⊘"), st.Approval
	case c.Status == "signal":
		return st.Error.Render("⚡"), st.Error
	case c.IsError || c.Status == "error":
		return st.Error.Render("✗"), st.Error
	}
	return st.OK.Render("✓"), st.Base
}

// outcome is what the result column says of a call.
func (a *activity) outcome(c Call) string {
	switch {
	case c.Running && a.held != nil && a.held(c.Session):
		return "waiting for approval, " + shortDuration(time.Since(c.Time).Truncate(time.Second))
	case c.Running:
		return "running, " + shortDuration(time.Since(c.Time).Truncate(time.Second))
	}
	return oneLine(c.Result)
}

// render draws the view's inner lines: w wide, h high.
func (a *activity) render(st *themes.Styles, w, h int) []string {
	var out []string
	if a.src == nil {
		out = append(out, st.Muted.Render("MCP is not served by this tend, so there is no tool call to show."))
		return out
	}
	if len(a.calls) == 0 {
		out = append(out, st.Muted.Render("No tool calls yet. Connect an agent: claude mcp add tend -- tend mcp"))
		return out
	}
	if a.agent != "" {
		out = append(out, st.Accent.Render("only "+a.agent)+st.Muted.Render(" (a: every agent)"))
		h--
	}
	lines := a.detail(st, a.calls[a.current()])
	detail := min(len(lines), 7)
	if h < 16 {
		detail = min(detail, 4)
	}
	if h < 12 {
		detail = 0
	}
	rows := h - detail
	if detail > 0 {
		rows-- // the rule above the detail
	}
	a.rows = rows
	cur := a.current()
	// Keep the current row in view.
	if cur < a.top {
		a.top = cur
	}
	if cur >= a.top+rows {
		a.top = cur - rows + 1
	}
	a.top = min(max(a.top, 0), max(len(a.calls)-rows, 0))
	clientW := 16
	if w >= 140 {
		clientW = 22 // claude-code·frontend#2
	}
	toolW := 19
	restW := max(w-2-(8+1+clientW+1+toolW+1+1+1+7), 10) // mark, then the columns and their gaps
	argsW := restW / 2
	resW := restW - argsW
	for i := a.top; i < len(a.calls) && i < a.top+rows; i++ {
		c := a.calls[i]
		mark, style := a.mark(st, c)
		took := shortDuration(c.Duration)
		if c.Running {
			took = ""
		}
		row := fmt.Sprintf("%s %s %s %s %s %s",
			c.Time.Format("15:04:05"),
			cell(cmp.Or(c.Agent, c.Client), clientW),
			cell(c.Tool, toolW),
			cell(oneLine(c.Args), argsW),
			cell(a.outcome(c), resW),
			fmt.Sprintf("%7s", took))
		if i == cur {
			out = append(out, mark+" "+st.Selected.Render(pad(row, w-2)))
		} else {
			out = append(out, mark+" "+style.Render(row))
		}
	}
	for len(out) < rows {
		out = append(out, "")
	}
	if detail > 0 {
		out = append(out, st.Subtle.Render(strings.Repeat("─", w)))
		for _, l := range lines[:detail] {
			out = append(out, ansi.Truncate(safe(l), w, "…"))
		}
	}
	return out
}

// detail is what the view shows of call c below the table.
func (a *activity) detail(st *themes.Styles, c Call) []string {
	when := c.Time.Format("15:04:05.000") + ", " + shortDuration(c.Duration)
	if c.Running {
		when = c.Time.Format("15:04:05.000")
	}
	if c.Before {
		when = c.Time.Format("2006-01-02 15:04:05") + " (before tend restarted), " + shortDuration(c.Duration)
	}
	who := c.Client
	if c.Agent != "" && c.Agent != c.Client {
		who = c.Agent + " (" + c.Client + ")"
	}
	lines := []string{
		st.Accent.Render("call ") + fmt.Sprintf("#%d %s by %s at %s", c.Seq, c.Tool, who, when),
		st.Accent.Render("args ") + oneLine(c.Args),
		st.Accent.Render("result ") + a.outcome(c),
	}
	if c.Job != "" {
		lines = append(lines, st.Accent.Render("job ")+string(c.Job)+st.Muted.Render(" (enter: show it)"))
	}
	for l := range strings.Lines(c.Detail) {
		lines = append(lines, "  "+decidedByYou(strings.TrimRight(l, "\n")))
	}
	return lines
}

// decidedByYou names the person at this tend "you" in an approval line of
// a call's detail, as the rest of the UI does: the record says "person"
// (or, written by older tends, "human").
func decidedByYou(l string) string {
	if !strings.HasPrefix(l, "approval: ") {
		return l
	}
	for _, by := range []string{" by " + decidedBy, " by human"} {
		if i := strings.Index(l, by); i >= 0 && (len(l) == i+len(by) || l[i+len(by)] == ':') {
			return l[:i] + " by you" + l[i+len(by):]
		}
	}
	return l
}

func pad(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// shortDuration prints a latency: 850µs, 12ms, 1.2s, 3m4s.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		return d.Truncate(time.Second).String()
	}
}
