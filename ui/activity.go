package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tend/keymap"
	"tend/themes"
)

// activity is the Activity view: every MCP tool call, newest at the
// bottom, and the selected call's arguments and result in full.
type activity struct {
	src     ActivitySource
	calls   []Call
	seq     uint64
	clients []string
	sel     int // selected call; -1 follows the newest
	top     int // first row shown
	rows    int // rows of the table at the last render
}

const maxCalls = 2000

func (a *activity) init(src ActivitySource) {
	a.src, a.sel = src, -1
	a.pull()
}

// pull takes the calls recorded since the last pull.
func (a *activity) pull() {
	if a.src == nil {
		return
	}
	calls := a.src.Since(a.seq)
	if len(calls) > 0 {
		a.seq = calls[len(calls)-1].Seq
		a.calls = append(a.calls, calls...)
		if over := len(a.calls) - maxCalls; over > 0 {
			a.calls = append(a.calls[:0:0], a.calls[over:]...)
			if a.sel >= 0 {
				a.sel = max(a.sel-over, 0)
			}
		}
	}
	a.clients = a.src.Clients()
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
	}
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
	detail := 4
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
	toolW := 19
	restW := max(w-2-(8+1+clientW+1+toolW+1+1+1+7), 10) // mark, then the columns and their gaps
	argsW := restW / 2
	resW := restW - argsW
	for i := a.top; i < len(a.calls) && i < a.top+rows; i++ {
		c := a.calls[i]
		mark := st.OK.Render("✓")
		if c.IsError {
			mark = st.Error.Render("✗")
		}
		row := fmt.Sprintf("%s %s %s %s %s %s",
			c.Time.Format("15:04:05"),
			pad(ansi.Truncate(c.Client, clientW, "…"), clientW),
			pad(ansi.Truncate(c.Tool, toolW, "…"), toolW),
			pad(ansi.Truncate(oneLine(c.Args), argsW, "…"), argsW),
			pad(ansi.Truncate(oneLine(c.Result), resW, "…"), resW),
			fmt.Sprintf("%7s", shortDuration(c.Duration)))
		if i == cur {
			out = append(out, mark+" "+st.Selected.Render(pad(row, w-2)))
		} else if c.IsError {
			out = append(out, mark+" "+st.Error.Render(row))
		} else {
			out = append(out, mark+" "+st.Base.Render(row))
		}
	}
	for len(out) < rows {
		out = append(out, "")
	}
	if detail > 0 && cur >= 0 {
		c := a.calls[cur]
		out = append(out, st.Subtle.Render(strings.Repeat("─", w)))
		lines := []string{
			st.Accent.Render("call ") + fmt.Sprintf("#%d %s by %s at %s, %s", c.Seq, c.Tool, c.Client, c.Time.Format("15:04:05.000"), shortDuration(c.Duration)),
			st.Accent.Render("args ") + oneLine(c.Args),
			st.Accent.Render("result ") + oneLine(c.Result),
		}
		for _, l := range lines {
			out = append(out, ansi.Truncate(l, w, "…"))
		}
	}
	return out
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
