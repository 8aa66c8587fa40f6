package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding of the UI, by group.
type KeyMap struct {
	Global   Global   // active everywhere except an attached job and an open dialog
	Jobs     Jobs     // the job list
	Pane     Pane     // the selected job's output, while the list has focus
	Term     Term     // an attached job: every other key goes to the job
	Confirm  Confirm  // yes/no questions
	Picker   Picker   // the signal picker
	Input    Input    // the filter, command and search lines
	Copy     Copy     // copy mode
	Activity Activity // the Activity view
	Approve  Approve  // a pending approval: the Approvals view, or its row selected in the job list
	Queue    Queue    // the Approvals view: which request is shown
}

// Global are the keys that work in every view.
type Global struct {
	Help, Views, Approvals, Theme, Quit key.Binding
}

// Jobs are the keys of the job list.
type Jobs struct {
	Up, Down, Top, Bottom, Attach, Background, Kill, Signal, Shell, Command, Zoom, Filter, Remove key.Binding
	Clear, Restart                                                                                key.Binding
}

// Pane are the keys of the selected job's output.
type Pane struct {
	PageUp, PageDown, Search, Next, Prev, Copy, Live, Pager key.Binding
}

// Term is the one key taken from an attached job.
type Term struct {
	Detach key.Binding
}

// Confirm answers a question.
type Confirm struct {
	Yes, No key.Binding
}

// Picker chooses from a short list.
type Picker struct {
	Up, Down, Pick, Cancel key.Binding
}

// Input ends a line of typed text.
type Input struct {
	Submit, Cancel key.Binding
}

// Copy are the keys of copy mode.
type Copy struct {
	Up, Down, PageUp, PageDown, Mark, Yank, Cancel key.Binding
}

// Approve are the only keys that settle a held command (RELIABILITY
// S5): active only in the Approvals view and while a pending approval is
// selected in the job list. Enter is not among them.
type Approve struct {
	Approve, Deny, Reason, Edit, Prefix, PageUp, PageDown key.Binding
}

// Queue moves between the pending approvals of the Approvals view.
type Queue struct {
	Up, Down key.Binding
}

// Activity are the keys of the Activity view.
type Activity struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Open, Agent                             key.Binding
}

func b(keys []string, help, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

func k(keys ...string) []string { return keys }

// Default returns tend's default key bindings. Bindings that only apply in
// some states (background a foreground exec, search next) start enabled;
// the UI disables them with SetEnabled where they do not apply.
func Default() KeyMap {
	return KeyMap{
		Global: Global{
			Help:  b(k("?"), "?", "help"),
			Views: b(k("tab"), "tab", "next view"),
			// Approvals jumps to the oldest pending request from any view
			// (not from an attached job: the detach key first).
			Approvals: b(k("A"), "A", "oldest approval"),
			Theme:     b(k("t"), "t", "theme"),
			Quit:      b(k("q", "ctrl+c"), "q", "quit"),
		},
		Jobs: Jobs{
			Up:         b(k("up", "k"), "↑/k", "up"),
			Down:       b(k("down", "j"), "↓/j", "down"),
			Top:        b(k("home", "g"), "g", "first"),
			Bottom:     b(k("end", "G"), "G", "last"),
			Attach:     b(k("enter"), "enter", "attach"),
			Background: b(k("b"), "b", "background"),
			Kill:       b(k("x"), "x", "kill"),
			Signal:     b(k("K"), "K", "signal"),
			Shell:      b(k("s"), "s", "new shell"),
			Command:    b(k(":"), ":", "run command"),
			Zoom:       b(k("z"), "z", "zoom"),
			Filter:     b(k("f"), "f", "filter"),
			Remove:     b(k("d"), "d", "remove (asks)"),
			Clear:      b(k("D"), "D", "remove every finished job (asks)"),
			Restart:    b(k("R"), "R", "run a finished job again"),
		},
		Pane: Pane{
			PageUp:   b(k("pgup", "ctrl+u"), "pgup", "scroll up"),
			PageDown: b(k("pgdown", "ctrl+d"), "pgdn", "scroll down"),
			Search:   b(k("/"), "/", "search"),
			Next:     b(k("n"), "n", "next match (older)"),
			Prev:     b(k("N"), "N", "previous match (newer)"),
			Copy:     b(k("v"), "v", "copy mode"),
			Live:     b(k("esc"), "esc", "back to live"),
			Pager:    b(k("o"), "o", "whole log in $PAGER"),
		},
		Term: Term{
			Detach: b(k("ctrl+b"), "ctrl+b", "detach (every other key goes to the job)"),
		},
		Confirm: Confirm{
			Yes: b(k("y", "Y"), "y", "yes"),
			No:  b(k("n", "N", "esc"), "n/esc", "no"),
		},
		Picker: Picker{
			Up:     b(k("up", "k"), "↑/k", "up"),
			Down:   b(k("down", "j"), "↓/j", "down"),
			Pick:   b(k("enter"), "enter", "send"),
			Cancel: b(k("esc", "q"), "esc", "cancel"),
		},
		Input: Input{
			Submit: b(k("enter"), "enter", "ok"),
			Cancel: b(k("esc"), "esc", "cancel"),
		},
		Copy: Copy{
			Up:       b(k("up", "k"), "↑/k", "up"),
			Down:     b(k("down", "j"), "↓/j", "down"),
			PageUp:   b(k("pgup"), "pgup", "page up"),
			PageDown: b(k("pgdown"), "pgdn", "page down"),
			Mark:     b(k("space", "v"), "space", "start/clear selection"),
			Yank:     b(k("y", "enter"), "y", "copy (OSC 52)"),
			Cancel:   b(k("esc", "q"), "esc", "leave"),
		},
		Approve: Approve{
			Approve:  b(k("y"), "y", "approve once"),
			Deny:     b(k("n"), "n", "deny"),
			Reason:   b(k("r"), "r", "deny with reason"),
			Edit:     b(k("e"), "e", "edit+approve"),
			Prefix:   b(k("a"), "a", "allow prefix"),
			PageUp:   b(k("pgup"), "pgup", "scroll the command up"),
			PageDown: b(k("pgdown"), "pgdn", "scroll the command down"),
		},
		Queue: Queue{
			Up:   b(k("up", "k"), "↑/k", "older request"),
			Down: b(k("down", "j"), "↓/j", "newer request"),
		},
		Activity: Activity{
			Up:       b(k("up", "k"), "↑/k", "up"),
			Down:     b(k("down", "j"), "↓/j", "down"),
			PageUp:   b(k("pgup"), "pgup", "page up"),
			PageDown: b(k("pgdown"), "pgdn", "page down"),
			Top:      b(k("home", "g"), "g", "oldest"),
			Bottom:   b(k("end", "G"), "G", "newest"),
			Open:     b(k("enter"), "enter", "the call's job"),
			Agent:    b(k("a"), "a", "one agent / all"),
		},
	}
}

// ShortHelp implements help.KeyMap.
func (g Global) ShortHelp() []key.Binding { return []key.Binding{g.Approvals, g.Views, g.Help, g.Quit} }

// FullHelp implements help.KeyMap.
func (g Global) FullHelp() [][]key.Binding {
	return [][]key.Binding{{g.Help, g.Views, g.Approvals, g.Theme, g.Quit}}
}

// ShortHelp implements help.KeyMap.
func (j Jobs) ShortHelp() []key.Binding {
	return []key.Binding{j.Attach, j.Background, j.Kill, j.Shell, j.Command, j.Filter, j.Zoom}
}

// FullHelp implements help.KeyMap.
func (j Jobs) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{j.Up, j.Down, j.Top, j.Bottom, j.Filter, j.Zoom},
		{j.Attach, j.Background, j.Kill, j.Signal, j.Shell, j.Command},
		{j.Remove, j.Clear, j.Restart},
	}
}

// ShortHelp implements help.KeyMap.
func (p Pane) ShortHelp() []key.Binding { return []key.Binding{p.PageUp, p.Search, p.Copy} }

// FullHelp implements help.KeyMap.
func (p Pane) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.PageUp, p.PageDown, p.Search, p.Next, p.Prev, p.Copy, p.Live, p.Pager}}
}

// ShortHelp implements help.KeyMap.
func (t Term) ShortHelp() []key.Binding { return []key.Binding{t.Detach} }

// FullHelp implements help.KeyMap.
func (t Term) FullHelp() [][]key.Binding { return [][]key.Binding{{t.Detach}} }

// ShortHelp implements help.KeyMap.
func (c Confirm) ShortHelp() []key.Binding { return []key.Binding{c.Yes, c.No} }

// FullHelp implements help.KeyMap.
func (c Confirm) FullHelp() [][]key.Binding { return [][]key.Binding{{c.Yes, c.No}} }

// ShortHelp implements help.KeyMap.
func (p Picker) ShortHelp() []key.Binding { return []key.Binding{p.Up, p.Down, p.Pick, p.Cancel} }

// FullHelp implements help.KeyMap.
func (p Picker) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

// ShortHelp implements help.KeyMap.
func (i Input) ShortHelp() []key.Binding { return []key.Binding{i.Submit, i.Cancel} }

// FullHelp implements help.KeyMap.
func (i Input) FullHelp() [][]key.Binding { return [][]key.Binding{i.ShortHelp()} }

// ShortHelp implements help.KeyMap.
func (c Copy) ShortHelp() []key.Binding { return []key.Binding{c.Up, c.Down, c.Mark, c.Yank, c.Cancel} }

// FullHelp implements help.KeyMap.
func (c Copy) FullHelp() [][]key.Binding {
	return [][]key.Binding{{c.Up, c.Down, c.PageUp, c.PageDown, c.Mark, c.Yank, c.Cancel}}
}

// ShortHelp implements help.KeyMap.
func (a Approve) ShortHelp() []key.Binding {
	return []key.Binding{a.Approve, a.Deny, a.Reason, a.Edit, a.Prefix}
}

// FullHelp implements help.KeyMap.
func (a Approve) FullHelp() [][]key.Binding {
	return [][]key.Binding{{a.Approve, a.Deny, a.Reason, a.Edit, a.Prefix, a.PageUp, a.PageDown}}
}

// ShortHelp implements help.KeyMap.
func (q Queue) ShortHelp() []key.Binding { return []key.Binding{q.Up, q.Down} }

// FullHelp implements help.KeyMap.
func (q Queue) FullHelp() [][]key.Binding { return [][]key.Binding{q.ShortHelp()} }

// ShortHelp implements help.KeyMap.
func (a Activity) ShortHelp() []key.Binding { return []key.Binding{a.Up, a.Down, a.Bottom} }

// FullHelp implements help.KeyMap.
func (a Activity) FullHelp() [][]key.Binding {
	return [][]key.Binding{{a.Up, a.Down, a.PageUp, a.PageDown, a.Top, a.Bottom}, {a.Open, a.Agent}}
}

// Groups returns every group with its name, for tests and the generated
// README key table.
func (m KeyMap) Groups() []Group {
	return []Group{
		{"Global", m.Global}, {"Jobs", m.Jobs}, {"Pane", m.Pane}, {"Term", m.Term},
		{"Confirm", m.Confirm}, {"Picker", m.Picker}, {"Input", m.Input}, {"Copy", m.Copy},
		{"Activity", m.Activity}, {"Approve", m.Approve}, {"Queue", m.Queue},
	}
}

// Group is a named group of bindings.
type Group struct {
	Name string
	Keys HelpKeyMap
}

// HelpKeyMap is bubbles' help.KeyMap, restated so that keymap does not
// import the help package (which imports Bubble Tea).
type HelpKeyMap interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// Bindings returns every binding of the group, once.
func (g Group) Bindings() []key.Binding {
	var out []key.Binding
	for _, col := range g.Keys.FullHelp() {
		out = append(out, col...)
	}
	return out
}
