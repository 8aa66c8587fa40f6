package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"tend/engine"
	"tend/keymap"
	"tend/policy"
	"tend/themes"
)

// Options configure [New].
type Options struct {
	Backend  Backend
	Activity ActivitySource // nil: no MCP server runs
	// Approvals is the queue of held commands the person answers; nil:
	// nothing waits for a person here.
	Approvals Approvals
	// Notice, when set, is shown in the status bar at start as a warning
	// (e.g. why MCP is not served).
	Notice  string
	Address string // where MCP is served, for the status bar ("" when it is not)
	Version string
	Theme   string // "dark" (default) or "light"
	// SaveTheme, when set, keeps the theme the person switched to for
	// the next start (main writes it to the config file). It is called
	// off the Update goroutine, one call at a time.
	SaveTheme func(name string) error
	Keys      *keymap.KeyMap // the key bindings (default: keymap.Default())
	Cwd       string         // where a person's jobs start (default: the working directory)
	Shell     string         // the command of a new shell job (default "bash")
	// ThemeJobColours draws a job's colours 0–15 in the theme's own
	// (config job_colours = "theme"); by default they are the terminal's,
	// so a job looks as it does in a plain terminal.
	ThemeJobColours bool
	// Containment says how the engine holds jobs ("cgroup: …" or
	// "subreaper: …"), shown in the status bar and the help.
	Containment string
	Now         func() time.Time // the clock (tests)
	// InTmux says the terminal is tmux ($TMUX is set): notifications then
	// go through its passthrough.
	InTmux bool
	// OnAction, when set, is told of everything a person does to a job
	// (kill, signal, stdin, background, start, remove), for the audit log.
	// It is called off the Update goroutine and must not block for long.
	OnAction func(action string, job engine.JobID, detail string)
	// Attached, when set, says the UI supervises engines it does not host
	// (tend attach): quitting leaves them and their jobs running, and this
	// says how to end them; the help and the status bar show it.
	Attached string
	// Links, when set, are the connections to those engines: the status
	// bar says which one is lost.
	Links LinkSource
	// OnNotify, when set, is told of each event the terminal's bell
	// announces (kind "approval" or "input"), off the Update goroutine.
	OnNotify func(kind, title, body string)
}

// Common is what every part of the UI shares: styles and keys.
type Common struct {
	Styles *themes.Styles
	Keys   keymap.KeyMap
}

type viewKind int

const (
	jobsView viewKind = iota
	activityView
	approvalsView
)

type focusKind int

const (
	focusList focusKind = iota
	focusTerm           // keys go to the selected job
)

// mode is a modal state that takes the keyboard.
type mode int

const (
	modeNone mode = iota
	modeHelp
	modeConfirmKill
	modeConfirmQuit
	modeConfirmRemove // d: remove the job m.confirm
	modeConfirmClear  // D: remove every finished job
	modeConfirmRerun  // R on a sandboxed job: run m.confirm's command again, unconfined
	modeSignal
	modeFilter
	modeCommand
	modeSearch
	modeApprReason // typing the reason of a denial
	modeApprEdit   // editing a held command before approving it
	modeApprPrefix // editing the prefix allowed for the session
)

// Model is the root model of the terminal UI.
type Model struct {
	term *terminal // where Run draws; nil in tests
	c    Common
	opts Options
	be   Backend
	now  func() time.Time

	events   <-chan engine.Event
	unsub    func()
	width    int
	height   int
	view     viewKind
	focus    focusKind
	mode     mode
	zoom     bool
	themeSet bool           // the person chose a theme: ignore the terminal's background
	draw     themes.Options // how the theme is drawn: for which colour profile, and whose colours a job's 16 are

	jobs     map[engine.JobID]engine.Info
	usage    map[engine.JobID]engine.Usage // what the running jobs use, as of the last tick
	order    []engine.JobID                // visible jobs, in list order
	selected engine.JobID
	listTop  int // first visible row of the list
	filter   string
	input    lineInput // the filter, command or search being typed
	confirm  engine.JobID
	sigIndex int
	// killing are the jobs the person confirmed a kill of, shown as being
	// killed from that moment, before the engine's next word says so.
	killing map[engine.JobID]bool

	pane     pane
	act      activity
	appr     approvals
	listAppr bool       // the job list's selection is on the pending approval appr.cur
	lastKey  time.Time  // when the person last pressed a key
	in       inputQueue // what is typed into attached jobs, on its way

	links []Link // the connections to the engines, as last told

	status    string
	statusLvl level
	statusID  int

	tick       func(time.Duration, func(time.Time) tea.Msg) tea.Cmd // tea.Tick; tests stub it
	tickID     int                                                  // the pending runtime tick
	tickAt     time.Time                                            // when it fires; zero: none pending
	stale      bool                                                 // a look at the running jobs found them changed since the last frame
	shownClock string                                               // clock() as of the last frame

	help help.Model

	themeSave *themeSaver // the theme to keep for the next start

	// Cached renderings; View only joins them.
	listBox  []string
	paneBox  []string
	mainBox  []string // the Activity view or an overlay over the whole main area
	statusLn string
	helpLn   string
	frame    string
	cursor   *tea.Cursor
}

// level is a status message's importance.
type level int

const (
	levelInfo level = iota
	levelWarn
	levelError
)

// New returns the UI over opts.Backend, subscribed to its events. Call
// [Model.Close] when done; [Run] does all of it.
func New(opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Cwd == "" {
		opts.Cwd, _ = os.Getwd()
	}
	if opts.Shell == "" {
		opts.Shell = "bash"
	}
	pal := themes.Dark()
	if opts.Theme == "light" {
		pal = themes.Light()
	}
	keys := keymap.Default()
	if opts.Keys != nil {
		keys = *opts.Keys
	}
	// Until Bubble Tea says which colour profile the terminal has (at
	// once, on start), the theme is drawn in 24-bit colour.
	draw := themes.Options{Profile: colorprofile.TrueColor, ThemeJobColours: opts.ThemeJobColours}
	m := &Model{
		c:       Common{Styles: themes.New(pal, draw), Keys: keys},
		draw:    draw,
		opts:    opts,
		be:      opts.Backend,
		now:     opts.Now,
		jobs:    map[engine.JobID]engine.Info{},
		killing: map[engine.JobID]bool{},
		help:    help.New(),
		tick:    tea.Tick,

		themeSave: &themeSaver{save: opts.SaveTheme},
	}
	m.themeSet = opts.Theme != ""
	m.pane = pane{c: &m.c, be: m.be, match: -1, copyCur: -1}
	m.applyHelpStyles()
	infos, events, unsub := m.be.Subscribe()
	m.events, m.unsub = events, unsub
	for _, in := range infos {
		m.jobs[in.ID] = in
	}
	m.act.init(opts.Activity, func(session string) bool { // a call in flight waits for the person
		if opts.Approvals == nil || session == "" {
			return false
		}
		return slices.ContainsFunc(opts.Approvals.Pending(), func(r policy.Request) bool { return r.Session == session })
	})
	m.appr.init(opts.Approvals)
	if opts.Links != nil {
		m.links = opts.Links.Links()
	}
	m.width, m.height = 100, 30
	m.rebuildOrder()
	if len(m.order) > 0 {
		m.selected = m.order[0]
	}
	m.pane.setSize(m.paneSize()) // Init loads the pane (and sizes its job) once the program runs
	m.refresh()
	return m
}

// Events is the engine's event stream for [Pump].
func (m *Model) Events() <-chan engine.Event { return m.events }

// Close ends the engine subscription.
func (m *Model) Close() {
	if m.unsub != nil {
		m.unsub()
	}
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.selectJob(m.selected, true), m.scheduleTick()}
	if m.opts.Notice != "" {
		notice := m.opts.Notice
		cmds = append(cmds, func() tea.Msg { return statusMsg{levelWarn, notice} })
	}
	if !m.themeSet {
		cmds = append(cmds, m.raw(ansi.RequestBackgroundColor))
	}
	return tea.Batch(cmds...)
}

// View implements tea.Model: it only joins what Update rendered.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "tend"
	if n := m.appr.len(); n > 0 {
		v.WindowTitle = fmt.Sprintf("tend · %d to approve", n)
	}
	v.Cursor = m.cursor
	if st := m.c.Styles; st.Bg != nil {
		v.BackgroundColor = st.Bg
		v.ForegroundColor = st.Fg
	}
	return v
}

// Run runs the UI on the terminal until the person quits: it wires the
// engine's events and the activity record to the program through [Pump].
// It draws on out (or, when out is not a terminal, on /dev/tty) at most
// fps frames a second, and only when the frame changed (see [terminal]).
func Run(ctx context.Context, opts Options, out io.Writer, fps int, progOpts ...tea.ProgramOption) error {
	in, outFile, closeTTY, err := ttyFiles(out)
	if err != nil {
		return err
	}
	defer closeTTY()
	t, err := openTerminal(in, outFile, fps)
	if err != nil {
		return err
	}
	defer t.close()
	m := New(opts)
	m.term = t
	defer m.Close()
	w, h := t.size()
	// The first frame is drawn at once: at the terminal's size and in its
	// colours, not the model's defaults (the program tells it both again).
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(tea.ColorProfileMsg{Profile: t.profile})
	progOpts = append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFilter(NewFilter()),
		tea.WithInput(in), tea.WithOutput(outFile), tea.WithWindowSize(w, h),
		// Bubble Tea's renderer is off (terminal draws), but its ticker
		// still runs: at 1 a second it costs nothing to speak of.
		tea.WithoutRenderer(), tea.WithFPS(1)}, progOpts...)
	p := tea.NewProgram(drawn{m, t}, progOpts...)
	go t.run(p.Send)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var changed <-chan struct{}
	if opts.Approvals != nil {
		changed = opts.Approvals.Changed()
	}
	go Pump(ctx, p.Send, m.Events(), opts.Backend.Ready(), changed)
	if opts.Activity != nil {
		bell, stop := opts.Activity.Watch()
		defer stop()
		go PumpActivity(ctx, p.Send, bell)
	}
	if opts.Links != nil {
		bell, stop := opts.Links.Watch()
		defer stop()
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case <-bell:
					p.Send(linksDirtyMsg{})
				}
			}
		}()
	}
	_, err = p.Run()
	return err
}

// raw sends seq to the terminal (a query, the clipboard, a notification).
func (m *Model) raw(seq string) tea.Cmd {
	if t := m.term; t != nil {
		return func() tea.Msg { t.write(seq); return nil }
	}
	return tea.Raw(seq)
}

// execProcess runs c on the person's terminal, the UI set aside, and
// then tells fn how it went.
func (m *Model) execProcess(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
	if t := m.term; t != nil {
		return tea.Exec(t.exec(c), fn)
	}
	return tea.ExecProcess(c, fn)
}

// drawn is the model as the program runs it: each view it makes goes to
// the terminal.
type drawn struct {
	*Model
	t *terminal
}

func (d drawn) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer d.closeOnPanic()
	if msg, ok := msg.(tea.ColorProfileMsg); ok {
		d.t.setProfile(msg.Profile)
	}
	_, cmd := d.Model.Update(msg)
	return d, d.guard(cmd)
}

func (d drawn) Init() tea.Cmd { return d.guard(d.Model.Init()) }

// guard is cmd closing the terminal if it panics, as [drawn.closeOnPanic]
// does for Update, and so are the commands of a batch it returns.
func (d drawn) guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		defer d.closeOnPanic()
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for i, c := range batch {
				batch[i] = d.guard(c)
			}
		}
		return msg
	}
}

func (d drawn) View() tea.View {
	defer d.closeOnPanic()
	v := d.Model.View()
	d.t.show(v)
	return v
}

// closeOnPanic gives the terminal back before Bubble Tea prints a panic
// (which the alternate screen would otherwise take with it).
func (d drawn) closeOnPanic() {
	if r := recover(); r != nil {
		d.t.close()
		panic(r)
	}
}

// ttyFiles are the terminal's input and output: stdin and out when they
// are one, else /dev/tty (closed by closeTTY).
func ttyFiles(out io.Writer) (in, outFile *os.File, closeTTY func(), err error) {
	closeTTY = func() {}
	in, outFile = os.Stdin, nil
	if f, ok := out.(*os.File); ok && term.IsTerminal(f.Fd()) {
		outFile = f
	}
	if term.IsTerminal(in.Fd()) && outFile != nil {
		return in, outFile, closeTTY, nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("no terminal: %w", err)
	}
	if !term.IsTerminal(in.Fd()) {
		in = tty
	}
	if outFile == nil {
		outFile = tty
	}
	return in, outFile, func() { tty.Close() }, nil
}

// Running reports how many jobs are running.
func (m *Model) Running() int {
	n := 0
	for _, in := range m.jobs {
		if in.Status == engine.Running {
			n++
		}
	}
	return n
}
