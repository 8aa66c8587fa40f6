package ui

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tend/policy"
	"tend/themes"
)

// Approvals is the queue of held commands a person decides on
// (docs/ARCHITECTURE.md §3.3);
// *policy.Approvals satisfies it. The UI calls Decide only on a key press in
// the Approvals view or on a pending approval selected in the job list
// (RELIABILITY S5): never on Enter, a paste, keys meant for an attached job,
// or anything an agent or a job sends.
type Approvals interface {
	// Pending returns the requests waiting, oldest first.
	Pending() []policy.Request
	// Decide settles request id.
	Decide(id int, ans policy.Answer) error
	// Changed is rung (coalesced) when a request is added or settled.
	Changed() <-chan struct{}
	// Outcome says how a request that left the queue ended.
	Outcome(id int) policy.Outcome
}

// approvalsDirtyMsg says the approval queue changed.
type approvalsDirtyMsg struct{}

// decidedMsg reports a decision sent to the queue.
type decidedMsg struct {
	id   int
	err  error
	text string // what was decided, for the status bar
}

// decidedBy is who the audit log says decided: the person at the TUI.
const decidedBy = "person"

// approvals is the TUI's copy of the approval queue.
type approvals struct {
	src     Approvals
	reqs    []policy.Request // pending and not yet decided here, oldest first
	decided map[int]bool     // decided by a key here, until the queue lets go of them
	cur     int              // the request shown (its ID); 0 when none waits
	seen    int              // the newest request ID seen, to tell new ones
	scroll  int              // first line of the shown request's detail
	target  int              // the request a reason, edit or prefix is typed for
	// swapped says the request shown replaced another without the person
	// choosing it (the one before was settled or ended): the next answer
	// key only says so, so that a double press or a key meant for the one
	// before never answers one the person has not looked at.
	swapped bool

	// The shown request's rendered command, kept while it, the width and
	// the styles stay the same (a command can be long).
	cacheID    int
	cacheW     int
	cacheSt    *themes.Styles
	cacheCmd   string
	cacheLines []string
}

func (a *approvals) init(src Approvals) {
	a.src, a.decided = src, map[int]bool{}
	a.pull()
}

// pull re-reads the queue; it returns the requests not seen before.
func (a *approvals) pull() []policy.Request {
	if a.src == nil {
		return nil
	}
	all := a.src.Pending()
	var fresh []policy.Request
	a.reqs = a.reqs[:0]
	live := map[int]bool{}
	for _, r := range all {
		live[r.ID] = true
		if a.decided[r.ID] {
			continue
		}
		a.reqs = append(a.reqs, r)
		if r.ID > a.seen {
			fresh = append(fresh, r)
		}
	}
	for id := range a.decided {
		if !live[id] {
			delete(a.decided, id)
		}
	}
	for _, r := range fresh {
		a.seen = max(a.seen, r.ID)
	}
	a.fixCur()
	return fresh
}

// fixCur shows the oldest request when the shown one is gone.
func (a *approvals) fixCur() {
	if a.index(a.cur) >= 0 {
		return
	}
	next := 0
	if len(a.reqs) > 0 {
		next = a.reqs[0].ID
	}
	a.replace(next)
}

// replace shows request id in place of the one shown, not by the person's
// choice.
func (a *approvals) replace(id int) {
	a.swapped = a.cur != 0 && id != 0 && id != a.cur
	if id == 0 {
		a.swapped = false
	}
	a.cur, a.scroll = id, 0
}

func (a *approvals) index(id int) int {
	return slices.IndexFunc(a.reqs, func(r policy.Request) bool { return r.ID == id })
}

// current is the request shown.
func (a *approvals) current() (policy.Request, bool) {
	if i := a.index(a.cur); i >= 0 {
		return a.reqs[i], true
	}
	return policy.Request{}, false
}

// setCur shows request id, as the person chose.
func (a *approvals) setCur(id int) {
	a.swapped = false
	if id != a.cur {
		a.cur, a.scroll = id, 0
	}
}

// move shows the request d places later in the queue.
func (a *approvals) move(d int) {
	if len(a.reqs) == 0 {
		return
	}
	i := min(max(a.index(a.cur)+d, 0), len(a.reqs)-1)
	a.setCur(a.reqs[i].ID)
}

// scrollBy scrolls the shown request's detail d lines (down when
// positive); drawing clamps it to the detail.
func (a *approvals) scrollBy(d int) { a.scroll = max(a.scroll+d, 0) }

// len is the number of requests waiting.
func (a *approvals) len() int { return len(a.reqs) }

// at is the i-th request waiting, oldest first.
func (a *approvals) at(i int) policy.Request { return a.reqs[i] }

// looked says the person has looked at the request shown: the next answer
// key answers it.
func (a *approvals) looked() { a.swapped = false }

// answering notes that the person is typing a reason, an edit or a prefix
// for request id.
func (a *approvals) answering(id int) { a.target = id }

// answered is the request a reason, edit or prefix is typed for, if it
// still waits.
func (a *approvals) answered() (policy.Request, bool) {
	if i := a.index(a.target); i >= 0 {
		return a.reqs[i], true
	}
	return policy.Request{}, false
}

// refused puts back a request whose decision the queue refused: it still
// waits.
func (a *approvals) refused(id int) {
	delete(a.decided, id)
	a.pull()
}

// decide settles request r with ans, off the Update goroutine: the
// request leaves the view at once; text is what the status bar says.
func (a *approvals) decide(r policy.Request, ans policy.Answer, text string) tea.Cmd {
	a.take(r.ID)
	src := a.src
	return func() tea.Msg {
		return decidedMsg{id: r.ID, err: src.Decide(r.ID, ans), text: text}
	}
}

// take marks id decided here: it leaves the view at once, before the
// queue lets go of it.
func (a *approvals) take(id int) {
	i := a.index(id)
	a.decided[id] = true
	if i < 0 {
		return
	}
	a.reqs = slices.Delete(a.reqs, i, i+1)
	if a.cur == id {
		next := 0
		if len(a.reqs) > 0 {
			next = a.reqs[min(i, len(a.reqs)-1)].ID
		}
		a.replace(next)
	}
}

// onApproval reports whether the keyboard is on a pending approval: the
// Approvals view, or an approval selected in the job list, with no dialog
// or text input open and no job attached.
func (m *Model) onApproval() bool {
	if m.mode != modeNone || m.focus != focusList {
		return false
	}
	if _, ok := m.appr.current(); !ok {
		return false
	}
	return m.view == approvalsView || m.view == jobsView && m.listAppr
}

// handleApprovalKey acts on the keys of a pending approval. Only the
// Approve group settles it; everything else is ignored.
func (m *Model) handleApprovalKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	r, ok := m.appr.current()
	if !ok || !m.onApproval() {
		return nil
	}
	if m.appr.swapped && key.Matches(msg, k.Approve.Approve, k.Approve.Deny, k.Approve.Reason, k.Approve.Edit, k.Approve.Prefix) {
		m.appr.looked()
		text := fmt.Sprintf("now showing request #%d from %s: read it, then answer", r.ID, originOf(r))
		return func() tea.Msg { return statusMsg{levelWarn, text} }
	}
	switch {
	case key.Matches(msg, k.Approve.Approve):
		return m.decide(r, policy.Answer{Approve: true, By: decidedBy}, "approved")
	case key.Matches(msg, k.Approve.Deny):
		return m.decide(r, policy.Answer{By: decidedBy}, "denied")
	case key.Matches(msg, k.Approve.Reason):
		m.mode = modeApprReason
		m.appr.answering(r.ID)
		m.input = lineInput{prompt: "reason for the agent (enter denies): "}
	case key.Matches(msg, k.Approve.Edit) && (strings.Contains(r.Command, "\n") || ansi.StringWidth(r.Command) > m.width/2):
		return m.editInEditor(r)
	case key.Matches(msg, k.Approve.Edit):
		m.mode = modeApprEdit
		m.appr.answering(r.ID)
		m.input = lineInput{prompt: "edit (enter approves the edit): ", value: r.Command}
	case key.Matches(msg, k.Approve.Prefix):
		m.mode = modeApprPrefix
		m.appr.answering(r.ID)
		m.input = lineInput{prompt: "allow for this session every command starting with: ", value: commandPrefix(r.Command)}
	case key.Matches(msg, k.Approve.PageUp):
		m.appr.scrollBy(-max(m.detailRows()-1, 1))
	case key.Matches(msg, k.Approve.PageDown):
		m.appr.scrollBy(max(m.detailRows()-1, 1))
	case m.view == approvalsView && key.Matches(msg, k.Queue.Up):
		m.appr.move(-1)
	case m.view == approvalsView && key.Matches(msg, k.Queue.Down):
		m.appr.move(1)
	}
	return nil
}

// handleApprovalInputKey edits a reason, an edited command or a prefix;
// enter sends the decision, esc goes back to the request.
func (m *Model) handleApprovalInputKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys.Input
	switch {
	case key.Matches(msg, k.Cancel):
		m.mode = modeNone
		return nil
	case key.Matches(msg, k.Submit):
		r, ok := m.appr.answered()
		if !ok {
			m.mode = modeNone
			return func() tea.Msg { return statusMsg{levelWarn, "that request is no longer pending"} }
		}
		v := m.input.value
		switch m.mode {
		case modeApprReason:
			m.mode = modeNone
			return m.decide(r, policy.Answer{Reason: strings.TrimSpace(v), By: decidedBy}, "denied with a reason")
		case modeApprEdit:
			v = strings.TrimSpace(v)
			if v == "" {
				return info("the edited command is empty: type one, or esc")
			}
			m.mode = modeNone
			if v == r.Command {
				return m.decide(r, policy.Answer{Approve: true, By: decidedBy}, "approved")
			}
			return m.decide(r, policy.Answer{Approve: true, Command: v, By: decidedBy}, "approved as edited: "+oneLineEscaped(v))
		case modeApprPrefix:
			v = oneLine(v)
			if v == "" {
				return info("say which words to allow, or esc")
			}
			m.mode = modeNone
			return m.decide(r, policy.Answer{Approve: true, AllowPrefix: v, By: decidedBy}, fmt.Sprintf("approved, and %q allowed for this session", v))
		}
		return nil
	}
	m.input.key(msg)
	return nil
}

// editedMsg says the person's editor, opened on request id's command in
// file, has exited.
type editedMsg struct {
	id   int
	file string
	err  error
}

// editInEditor opens a long or multi-line command in the person's editor
// ($VISUAL, $EDITOR, else vi), as git does for a commit message: saving a
// changed command approves it as edited; leaving it unchanged or empty
// approves nothing.
func (m *Model) editInEditor(r policy.Request) tea.Cmd {
	f, err := os.CreateTemp("", "tend-request-*.sh")
	if err != nil {
		return reportErr(err)
	}
	_, err = f.WriteString(r.Command + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return reportErr(err)
	}
	editor := cmp.Or(os.Getenv("VISUAL"), os.Getenv("EDITOR"), "vi")
	c := exec.Command("sh", "-c", editor+` "$1"`, "sh", f.Name())
	id, file := r.ID, f.Name()
	return m.execProcess(c, func(err error) tea.Msg { return editedMsg{id, file, err} })
}

// applyEdited approves request msg.id as the person saved it in their
// editor, if they changed it.
func (m *Model) applyEdited(msg editedMsg) tea.Cmd {
	b, rerr := os.ReadFile(msg.file)
	os.Remove(msg.file)
	r, ok := m.appr.current()
	if i := m.appr.index(msg.id); i >= 0 {
		r, ok = m.appr.at(i), true
	}
	v := strings.TrimRight(string(b), "\n") // editors end the file with one
	switch {
	case !ok || r.ID != msg.id:
		return func() tea.Msg {
			return statusMsg{levelWarn, "the request you were editing ended (timed out, or the agent gave up)"}
		}
	case msg.err != nil:
		return reportErr(fmt.Errorf("the editor: %w", msg.err))
	case rerr != nil:
		return reportErr(rerr)
	case strings.TrimSpace(v) == "":
		return info("the edited command is empty: nothing approved")
	case v == strings.TrimRight(r.Command, "\n"):
		return info("unchanged: nothing approved (%s approves it as it is)", keyName(m.c.Keys.Approve.Approve))
	}
	return m.decide(r, policy.Answer{Approve: true, Command: v, By: decidedBy}, "approved as edited: "+oneLineEscaped(v))
}

// decide sends a decision on r to the queue. The request leaves the view
// at once; it comes back if the queue refuses the decision.
func (m *Model) decide(r policy.Request, ans policy.Answer, what string) tea.Cmd {
	cmd := m.appr.decide(r, ans, fmt.Sprintf("%s #%d: %s", what, r.ID, ansi.Truncate(oneLineEscaped(r.Command), 60, "…")))
	m.afterApprovalsChange()
	return cmd
}

func (m *Model) applyDecided(msg decidedMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, policy.ErrNoRequest):
		return func() tea.Msg {
			return statusMsg{levelWarn, fmt.Sprintf("request #%d had already ended (timed out, or the agent gave up)", msg.id)}
		}
	case msg.err != nil:
		m.appr.refused(msg.id) // still pending: show it again
		m.afterApprovalsChange()
		return reportErr(msg.err)
	}
	return info("%s", msg.text)
}

// applyApprovals re-reads the queue, says how requests that left it
// without an answer from here ended, and tells the person of new ones
// (whatever is on screen) with the terminal's bell and a desktop
// notification. A new request takes the job list's selection when the
// person is not in the middle of something else.
func (m *Model) applyApprovals() tea.Cmd {
	before := slices.Clone(m.appr.reqs)
	fresh := m.appr.pull()
	var cmds []tea.Cmd
	if _, ok := m.appr.answered(); isApprovalMode(m.mode) && !ok {
		m.mode = modeNone
	}
	for _, r := range before {
		if m.appr.index(r.ID) >= 0 || m.appr.decided[r.ID] {
			continue
		}
		if how := m.appr.src.Outcome(r.ID); how == policy.Withdrawn || how == policy.TimedOut {
			text := fmt.Sprintf("request #%d from %s %s: %s", r.ID, originOf(r), endedAs(how), ansi.Truncate(oneLineEscaped(r.Command), 40, "…"))
			cmds = append(cmds, func() tea.Msg { return statusMsg{levelWarn, text} })
		}
	}
	if n := len(fresh); n > 0 {
		took := m.idle()
		if took {
			m.listAppr = true
			m.appr.setCur(m.appr.at(0).ID)
		}
		r := fresh[n-1]
		k := m.c.Keys.Approve
		where := keyName(m.c.Keys.Global.Approvals) + " shows it"
		switch {
		case took || m.onApproval() && m.appr.cur == r.ID:
			where = fmt.Sprintf("%s approves, %s denies", keyName(k.Approve), keyName(k.Deny))
		case m.view == approvalsView:
			where = keyName(m.c.Keys.Queue.Down) + " shows it"
		}
		text := fmt.Sprintf("⚠ %s asks to run %s · %s", originOf(r), ansi.Truncate(oneLineEscaped(r.Command), 40, "…"), where)
		if n > 1 {
			text = fmt.Sprintf("⚠ %d new requests for approval · %s", n, where)
		}
		cmds = append(cmds, func() tea.Msg { return statusMsg{levelWarn, text} },
			m.notify("approval", "tend: "+originOf(r)+" asks to run a "+r.Class.String()+" command", r.Command))
	}
	m.afterApprovalsChange()
	cmds = append(cmds, m.scheduleTick())
	return tea.Batch(cmds...)
}

func endedAs(how policy.Outcome) string {
	if how == policy.Withdrawn {
		return "was withdrawn by its agent"
	}
	return "timed out and was denied"
}

// idleAfter is how long after the person's last key press the job list
// counts as idle: a new request may then take its selection.
const idleAfter = 2 * time.Second

// idle reports whether a new request may take the job list's selection:
// the list is shown with the keyboard on it and nothing open, no request
// is selected yet, and no key was pressed for idleAfter (so that a key
// meant for a job, or a second y meant for the request before, never
// answers one the person has not seen).
func (m *Model) idle() bool {
	if m.view != jobsView || m.focus != focusList || m.mode != modeNone || m.pane.copying || m.listAppr {
		return false
	}
	return m.now().Sub(m.lastKey) >= idleAfter
}

// showOldestApproval shows the oldest pending request, as the person
// asked: selected in the job list, or in the Approvals view when that is
// shown.
func (m *Model) showOldestApproval() {
	if m.appr.len() == 0 {
		return
	}
	if m.view != approvalsView {
		m.view = jobsView
		m.listAppr = true
	}
	m.appr.setCur(m.appr.at(0).ID)
	m.afterApprovalsChange()
}

// notify rings the terminal's bell and asks for a desktop notification
// (OSC 9, and OSC 777 for the terminals that read that one instead); in
// tmux the notifications go through its passthrough, which tmux forwards
// when allow-passthrough is on (the bell it forwards anyway).
// The [Options].OnNotify hook is told too.
func (m *Model) notify(kind, title, body string) tea.Cmd {
	raw := m.raw(notification(title, body, m.opts.InTmux))
	if m.opts.OnNotify == nil {
		return raw
	}
	hook := m.opts.OnNotify
	return tea.Batch(raw, func() tea.Msg { hook(kind, title, body); return nil })
}

// notification is the bytes of [Model.notify]: title and body are
// flattened to one printable line each.
func notification(title, body string, tmux bool) string {
	title = ansi.Truncate(printable(title), 80, "…")
	body = ansi.Truncate(printable(body), 160, "…")
	osc9 := "\x1b]9;" + title + ": " + body + "\x07"
	osc777 := "\x1b]777;notify;" + strings.ReplaceAll(title, ";", ",") + ";" + body + "\x07"
	if tmux {
		wrap := func(seq string) string {
			return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
		}
		osc9, osc777 = wrap(osc9), wrap(osc777)
	}
	return "\a" + osc9 + osc777
}

// printable is s on one line with every control character, and anything
// that could end or rearrange an escape sequence, replaced by a space.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}

// afterApprovalsChange keeps the job list's selection valid.
func (m *Model) afterApprovalsChange() {
	if m.listAppr && m.appr.len() == 0 {
		m.listAppr = false
	}
	m.syncKeys()
	m.scrollListTo()
}

func isApprovalMode(md mode) bool {
	return md == modeApprReason || md == modeApprEdit || md == modeApprPrefix
}

// originOf names who asked: the agent as people tell them apart, else the
// client.
func originOf(r policy.Request) string {
	switch {
	case r.Agent != "":
		return r.Agent
	case r.Client != "":
		return r.Client
	}
	return "an unknown client"
}

// commandPrefix is the default of "allow a prefix": the command's first two
// words ("git push").
func commandPrefix(cmd string) string {
	f := strings.Fields(cmd)
	return strings.Join(f[:min(len(f), 2)], " ")
}

// visibleRune is how a rune of a held command is shown: itself, or an
// escape for anything that could hide or rearrange what is run (control
// characters, bidi and other invisible format characters, odd spaces).
func visibleRune(r rune) (string, bool) {
	switch {
	case r == '\t':
		return `\t`, true
	case r == utf8.RuneError:
		return `\ufffd`, true
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
		return fmt.Sprintf(`\x%02x`, r), true
	case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
		r != ' ' && unicode.Is(unicode.Zs, r) || unicode.Is(unicode.Co, r):
		return fmt.Sprintf(`\u%04x`, r), true
	}
	return string(r), false
}

// oneLineEscaped is a command on one line for lists and messages: newlines
// become ⏎ and hidden characters escapes.
func oneLineEscaped(s string) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteString(" ⏎ ")
		}
		for _, r := range line {
			t, _ := visibleRune(r)
			b.WriteString(t)
		}
	}
	return b.String()
}

// commandLines wraps a held command to w cells, whole: every line of it,
// hidden characters shown as escapes, "$ " before the first line, "> "
// before each further line and two spaces before wrapped parts.
func commandLines(st *themes.Styles, cmd string, w int, danger [][2]int) []string {
	w = max(w, 4)
	var out []string
	off := 0 // byte offset of line in cmd
	for i, line := range strings.Split(cmd, "\n") {
		gutter := "$ "
		if i > 0 {
			gutter = "> "
		}
		var b, run strings.Builder
		runHot := false
		b.WriteString(st.Approval.Render(gutter))
		col := 2
		flushRun := func() {
			if run.Len() > 0 {
				style := st.Base
				if runHot {
					style = st.Error.Bold(true)
				}
				b.WriteString(style.Render(run.String()))
				run.Reset()
			}
		}
		for j, r := range line {
			text, esc := visibleRune(r)
			tw := ansi.StringWidth(text)
			if col+tw > w && col > 2 {
				flushRun()
				out = append(out, b.String())
				b.Reset()
				b.WriteString(st.Base.Render("  "))
				col = 2
			}
			if hot := inSpans(danger, off+j); hot != runHot {
				flushRun()
				runHot = hot
			}
			if esc {
				flushRun()
				b.WriteString(st.Escaped.Render(text))
			} else {
				run.WriteString(text)
			}
			col += tw
		}
		flushRun()
		out = append(out, b.String())
		off += len(line) + 1
	}
	return out
}

func inSpans(spans [][2]int, i int) bool {
	return slices.ContainsFunc(spans, func(s [2]int) bool { return s[0] <= i && i < s[1] })
}

// dangerSpans finds, in cmd, the text of each held simple command: its
// words in order, each after the one before, from the first word's start
// to the last word's end. A command whose words do not all appear as
// written (they came through a variable or a wrapper's quoting) marks the
// words that do, from its program name on.
func dangerSpans(cmd string, held [][]string) [][2]int {
	var spans [][2]int
	for _, argv := range held {
		if len(argv) == 0 {
			continue
		}
		from := 0
		start, end := -1, -1
		for _, w := range argv {
			if w == "" {
				continue
			}
			i := wordIndex(cmd[from:], w)
			if i < 0 {
				if start < 0 {
					break // not even the program is written as such
				}
				continue
			}
			if start < 0 {
				start = from + i
			}
			from += i + len(w)
			end = from
		}
		if start >= 0 {
			spans = append(spans, [2]int{start, end})
		}
	}
	return spans
}

// wordIndex is the index of the first w in s that no letter, digit or
// word character continues on either side, or -1.
func wordIndex(s, w string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(w):])
		if !wordRune(before) && !wordRune(after) {
			return i
		}
		off = i + 1
	}
}

func wordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' || r == '/')
}

// wrapText wraps plain text to w cells (for the reasons).
func wrapText(s string, w int) []string {
	return strings.Split(ansi.Wrap(oneLineEscaped(s), max(w, 4), " "), "\n")
}

// approvalDetail is everything about request r, w cells wide: who asks,
// how long it has waited, the class, cwd and reasons, then the whole
// command. While the person edits r's command, the edit is shown instead.
func (m *Model) approvalDetail(r policy.Request, w int) []string {
	var edit *string
	if m.mode == modeApprEdit && m.appr.target == r.ID {
		edit = &m.input.value
	}
	return m.appr.detail(m.c.Styles, r, w, m.since(r.Asked), m.left(r), edit)
}

// left is how long request r has before it counts as denied, counted in
// the same whole seconds as [Model.since]; negative when it has no
// deadline.
func (m *Model) left(r policy.Request) time.Duration {
	if r.Deadline.IsZero() {
		return -1
	}
	return max(r.Deadline.Truncate(time.Second).Sub(m.now().Truncate(time.Second)), 0)
}

// countdown prints the time left before an automatic denial: 42s, 9:41.
func countdown(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

// detail is request r, w cells wide, waiting for waited and denied
// automatically in left (none when negative); edit, when not nil, is the
// command as the person is editing it.
func (a *approvals) detail(st *themes.Styles, r policy.Request, w int, waited, left time.Duration, edit *string) []string {
	class := r.Class.String()
	on := ""
	if r.Host != "" {
		on = " on " + safe(r.Host)
	}
	head := st.Approval.Render("⚠ "+originOf(r)+on+" asks to run a "+class+" command") +
		st.Muted.Render(fmt.Sprintf(" · waiting %s · request #%d", shortAge(waited), r.ID))
	lines := []string{head}
	if left >= 0 {
		style := st.Muted
		if left < time.Minute {
			style = st.Warn
		}
		lines = append(lines, style.Render(fmt.Sprintf("denied automatically in %s if no one answers", countdown(left))))
	}
	lines = append(lines, st.Muted.Render("cwd  ")+st.Base.Render(oneLineEscaped(tilde(r.Cwd))))
	for i, reason := range r.Reasons {
		for j, l := range wrapText(reason, w-5) {
			label := "     "
			if i == 0 && j == 0 {
				label = "why  "
			}
			lines = append(lines, st.Muted.Render(label)+st.Warn.Render(l))
		}
	}
	lines = append(lines, "")
	if edit != nil {
		lines = append(lines, st.Accent.Render("as you edit it (enter approves this, esc goes back):"))
		return append(lines, commandLines(st, *edit, w, nil)...)
	}
	cmd := r.Command
	if a.cacheID != r.ID || a.cacheW != w || a.cacheSt != st || a.cacheCmd != cmd {
		a.cacheID, a.cacheW, a.cacheSt, a.cacheCmd = r.ID, w, st, cmd
		a.cacheLines = commandLines(st, cmd, w, dangerSpans(cmd, r.Held))
	}
	return append(lines, a.cacheLines...)
}

// scrolled shows h of lines from the request's scroll position, and says
// where that is when they do not all fit.
func (a *approvals) scrolled(st *themes.Styles, lines []string, h int) ([]string, string) {
	a.scroll = min(max(a.scroll, 0), max(len(lines)-h, 0))
	if len(lines) <= h {
		return lines, ""
	}
	end := min(a.scroll+h, len(lines))
	hint := st.Accent.Render(fmt.Sprintf("lines %d–%d of %d · pgup/pgdn scroll", a.scroll+1, end, len(lines)))
	return lines[a.scroll:end], hint
}

// detailRows is how many rows the shown request's detail has on screen.
func (m *Model) detailRows() int {
	if m.view == approvalsView {
		return max(m.mainHeight()-2-m.queueRows()-1, 1)
	}
	return max(m.mainHeight()-2, 1)
}

// queueRows is how many rows the Approvals view gives the queue.
func (m *Model) queueRows() int { return min(m.appr.len(), 5) }

// renderApprovalPane is the right pane while a pending approval is
// selected in the job list.
func (m *Model) renderApprovalPane(r policy.Request, w, h int) []string {
	st := m.c.Styles
	lines, hint := m.appr.scrolled(st, m.approvalDetail(r, w-2), h-2)
	title := st.Approval.Render(fmt.Sprintf("Approval #%d", r.ID)) + st.Muted.Render(" · "+r.Class.String())
	return box(st, st.BorderTerm, title, hint, lines, w, h)
}

// renderApprovals is the Approvals view: the queue, then the shown
// request in full.
func (m *Model) renderApprovals(w, h int) []string {
	st := m.c.Styles
	a := &m.appr
	title := st.Title.Render("Approvals")
	if n := len(a.reqs); n > 0 {
		title += st.Approval.Render(fmt.Sprintf(" · %d waiting", n))
	}
	iw := w - 2
	r, ok := a.current()
	if !ok {
		k := m.c.Keys.Approve
		lines := []string{
			st.Muted.Render("Nothing waits for approval."),
			"",
			st.Muted.Render("A command an agent runs that is destructive or cannot be read for sure waits here, and at the top"),
			st.Muted.Render(fmt.Sprintf("of the job list, until you answer: %s approves it once, %s denies it, %s denies it with a reason for",
				keyName(k.Approve), keyName(k.Deny), keyName(k.Reason))),
			st.Muted.Render(fmt.Sprintf("the agent, %s edits it then approves, %s allows its first words for the rest of the session.",
				keyName(k.Edit), keyName(k.Prefix))),
			st.Muted.Render("Nothing else answers: not enter, not a paste, not keys sent to a job."),
		}
		return box(st, st.BorderFocus, title, "", lines, w, h)
	}
	var lines []string
	qr := m.queueRows()
	i := a.index(r.ID)
	top := min(max(i-qr+1, 0), max(len(a.reqs)-qr, 0))
	for j := top; j < top+qr && j < len(a.reqs); j++ {
		q := a.reqs[j]
		text := fmt.Sprintf("#%-3d %-8s %-20s %5s  %s", q.ID, q.Class.String(), ansi.Truncate(originOf(q), 20, "…"),
			shortAge(m.since(q.Asked)), oneLineEscaped(q.Command))
		text = ansi.Truncate(text, iw-2, "…")
		if q.ID == r.ID {
			lines = append(lines, st.Approval.Background(st.Selected.GetBackground()).Render(pad("▸ "+text, iw)))
		} else {
			lines = append(lines, st.Approval.Render("  "+text))
		}
	}
	lines = append(lines, st.Subtle.Render(strings.Repeat("─", iw)))
	detail, hint := m.appr.scrolled(st, m.approvalDetail(r, iw), h-2-len(lines))
	lines = append(lines, detail...)
	if len(a.reqs) > qr {
		hint = st.Muted.Render(fmt.Sprintf("request %d of %d · ", i+1, len(a.reqs))) + hint
	}
	return box(st, st.BorderTerm, title, hint, lines, w, h)
}
