package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
	"tend/vterm"
)

// fakeJob is a job with fixed output, recording what the UI asks of it.
type fakeJob struct {
	mu           sync.Mutex
	info         engine.Info
	merged       []byte        // all its output
	spans        []engine.Span // which of it came from stderr (nil: none)
	term         *vterm.Term
	inputs       []string
	signals      []syscall.Signal
	order        []string // inputs and signals as they came: "in:…", "sig:…"
	killed       bool
	backgrounded bool
	resized      [2]int
	reads        int
	usage        engine.Usage
}

func (j *fakeJob) Usage() (engine.Usage, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.usage, j.info.Status == engine.Running
}

func (j *fakeJob) Info() engine.Info {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.info
}

// withOutput gives j the given lines of output; a line that starts with
// "!" came from stderr (the "!" is not part of it).
func withOutput(j *fakeJob, lines ...string) *fakeJob {
	for _, l := range lines {
		st := engine.Stdout
		if t, ok := strings.CutPrefix(l, "!"); ok {
			l, st = t, engine.Stderr
		}
		j.merged = append(j.merged, l+"\n"...)
		j.spans = append(j.spans, engine.Span{Stream: st, Len: len(l) + 1})
	}
	return j
}

func (j *fakeJob) Read(stream engine.Stream, off int64, limit int) (engine.Chunk, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.reads++
	if stream != engine.Merged {
		return engine.Chunk{}, fmt.Errorf("the fake reads only merged output, not %s", stream)
	}
	b := j.merged
	off = min(off, int64(len(b)))
	end := min(off+int64(limit), int64(len(b)))
	c := engine.Chunk{Data: b[off:end], Offset: off, Next: end, EOF: j.info.Status != engine.Running && end == int64(len(b))}
	pos := int64(0)
	for _, sp := range j.spans { // the spans that cover [off, end)
		lo, hi := max(pos, off), min(pos+int64(sp.Len), end)
		if lo < hi {
			c.Spans = append(c.Spans, engine.Span{Stream: sp.Stream, Len: int(hi - lo)})
		}
		pos += int64(sp.Len)
	}
	return c, nil
}

func (j *fakeJob) Len(stream engine.Stream) (int64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return int64(len(j.merged)), nil
}

func (j *fakeJob) Screen() (*vterm.Snapshot, error) {
	if j.term == nil {
		return nil, engine.ErrNotPTY
	}
	return j.term.Snapshot(), nil
}

func (j *fakeJob) Scrollback() ([]vterm.Line, *vterm.Snapshot, error) {
	if j.term == nil {
		return nil, nil, engine.ErrNotPTY
	}
	lines, snap := j.term.History()
	return lines, snap, nil
}

func (j *fakeJob) Input(data []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.inputs = append(j.inputs, string(data))
	j.order = append(j.order, "in:"+string(data))
	return len(data), nil
}

func (j *fakeJob) CloseInput() error { return nil }

func (j *fakeJob) Signal(sig syscall.Signal) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.signals = append(j.signals, sig)
	j.order = append(j.order, "sig:"+engine.SignalName(sig))
	return nil
}

func (j *fakeJob) Kill(string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.killed = true
}

func (j *fakeJob) Background() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.backgrounded = true
	return nil
}

func (j *fakeJob) Resize(cols, rows int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.resized = [2]int{cols, rows}
	return nil
}

// fakeBackend holds fake jobs.
type fakeBackend struct {
	mu      sync.Mutex
	jobs    map[engine.JobID]*fakeJob
	order   []engine.JobID
	started []engine.Spec
	removed []engine.JobID
}

func newFakeBackend() *fakeBackend { return &fakeBackend{jobs: map[engine.JobID]*fakeJob{}} }

func (b *fakeBackend) add(j *fakeJob) *fakeJob {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.jobs[j.info.ID] = j
	b.order = append(b.order, j.info.ID)
	return j
}

func (b *fakeBackend) Subscribe() ([]engine.Info, <-chan engine.Event, func()) {
	return b.List(), make(chan engine.Event), func() {}
}

func (b *fakeBackend) Ready() <-chan struct{} { return make(chan struct{}) }

func (b *fakeBackend) List() []engine.Info {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []engine.Info
	for _, id := range b.order {
		out = append(out, b.jobs[id].Info())
	}
	return out
}

func (b *fakeBackend) Job(id engine.JobID) (Job, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	j, ok := b.jobs[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q", engine.ErrNoSuchJob, id)
	}
	return j, nil
}

func (b *fakeBackend) Start(_ context.Context, spec engine.Spec) (Job, error) {
	b.mu.Lock()
	b.started = append(b.started, spec)
	id := engine.JobID(fmt.Sprint(100 + len(b.started)))
	b.mu.Unlock()
	return b.add(&fakeJob{info: engine.Info{ID: id, Command: spec.Command, Status: engine.Running, PTY: spec.PTY, Origin: spec.Origin}}), nil
}

func (b *fakeBackend) Remove(id engine.JobID) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.removed = append(b.removed, id)
	return nil
}

// fakeActivity is a fixed record of tool calls.
type fakeActivity struct{ calls []Call }

func (a *fakeActivity) Watch() (<-chan struct{}, func()) { return make(chan struct{}), func() {} }
func (a *fakeActivity) Clients() []string                { return []string{"claude-code 2.1"} }
func (a *fakeActivity) Since(rev uint64) []Call {
	var out []Call
	for _, c := range a.calls {
		if max(c.Rev, c.Seq) > rev {
			out = append(out, c)
		}
	}
	return out
}

// now is the fixed clock of the model tests.
var now = time.Date(2026, 8, 24, 15, 4, 5, 0, time.UTC)

func code(n int) *int { return &n }

// fixture is a backend with one job of each kind.
func fixture(t *testing.T) (*fakeBackend, map[string]*fakeJob) {
	t.Helper()
	b := newFakeBackend()
	term := vterm.New(60, 10)
	_, _ = term.Write([]byte("$ make test\r\n\x1b[32mok\x1b[0m  tend/engine  1.2s\r\n\x1b[1;31mFAIL\x1b[0m tend/ui\r\n$ "))
	claude := engine.Origin{Client: "claude-code", Version: "2.1", Tool: "terminal_exec"}
	jobs := map[string]*fakeJob{
		"pipe": b.add(withOutput(&fakeJob{
			info: engine.Info{
				ID: "8", Command: "go test ./...", Description: "run the tests", Cwd: "/srv/app", Origin: claude,
				Pid: 4242, Status: engine.Running, StartedAt: now.Add(-42 * time.Second), Foreground: true,
			},
		}, "=== RUN   TestA", "--- PASS: TestA", "!warning: deprecated flag", "=== RUN   TestB", "!panic: boom")),
		"pty": b.add(&fakeJob{
			info: engine.Info{
				ID: "7", Command: "bash", Description: "persistent shell", Cwd: "/srv/app", PTY: true,
				Origin: engine.Origin{Client: "codex", Version: "0.9", Tool: "terminal_pty_open"},
				Pid:    4343, Status: engine.Running, StartedAt: now.Add(-3 * time.Minute),
			},
			merged: []byte("$ make test\r\nok\r\n"),
			term:   term,
		}),
		"done": b.add(&fakeJob{
			info: engine.Info{
				ID: "3", Command: "rm -rf build", Cwd: "/srv/app", Origin: engine.PersonOrigin(), Pid: 4000,
				Status: engine.Exited, ExitCode: code(0), StartedAt: now.Add(-10 * time.Minute), RuntimeMs: 1200,
			},
			merged: []byte("removed\n"),
		}),
		"failed": b.add(&fakeJob{
			info: engine.Info{
				ID: "2", Command: "npm run lint", Cwd: "/srv/app", Origin: claude, Pid: 3900,
				Status: engine.Exited, ExitCode: code(2), StartedAt: now.Add(-20 * time.Minute), RuntimeMs: 65000,
				Warning: "write: redirects over an existing file",
			},
		}),
	}
	return b, jobs
}

// harness drives a Model synchronously: every command runs at once and
// its message goes back to Update; ticks are recorded, never waited for.
type harness struct {
	t       *testing.T
	mu      sync.Mutex
	actions []string // what OnAction was told: "kill 8"
	m       *Model
	quit    bool
	ticks   []time.Duration
	raw     []string // what went to the terminal as is (bell, notifications)
}

func newHarness(t *testing.T, b Backend, act ActivitySource, theme string, more ...func(*Options)) *harness {
	t.Helper()
	h := &harness{t: t}
	opts := Options{
		Backend: b, Activity: act, Address: "http://127.0.0.1:7878/mcp", Theme: theme, Now: func() time.Time { return now }, Cwd: "/srv/app",
		OnAction: func(action string, job engine.JobID, _ string) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.actions = append(h.actions, action+" "+string(job))
		},
	}
	for _, f := range more {
		f(&opts)
	}
	h.m = New(opts)
	h.m.tick = func(d time.Duration, _ func(time.Time) tea.Msg) tea.Cmd {
		h.ticks = append(h.ticks, d)
		return nil
	}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 24})
	h.run(h.m.Init())
	return h
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tea.QuitMsg:
		h.quit = true
	case tea.RawMsg:
		h.raw = append(h.raw, fmt.Sprint(msg.Msg))
	default:
		h.send(msg)
	}
}

func (h *harness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

// press sends key presses by name ("x", "enter", "ctrl+c", "tab") or text.
func (h *harness) press(keys ...string) {
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

func keyMsg(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "ctrl+w":
		return tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	case " ":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+b":
		return tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl}
	}
	var mod tea.KeyMod
	parts := []string{name}
	if len(name) > 1 {
		parts = strings.Split(name, "+")
	}
	for _, p := range parts[:len(parts)-1] {
		switch p {
		case "ctrl":
			mod |= tea.ModCtrl
		case "alt":
			mod |= tea.ModAlt
		default:
			panic("keyMsg: " + name)
		}
	}
	last := parts[len(parts)-1]
	if code, ok := map[string]rune{"left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome, "end": tea.KeyEnd,
		"delete": tea.KeyDelete, "backspace": tea.KeyBackspace}[last]; ok {
		return tea.KeyPressMsg{Code: code, Mod: mod}
	}
	r := []rune(last)
	if len(r) != 1 {
		panic("keyMsg: " + name)
	}
	if mod != 0 {
		return tea.KeyPressMsg{Code: r[0], Mod: mod}
	}
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (h *harness) selectJob(id engine.JobID) { h.run(h.m.selectJob(id, false)) }

func (h *harness) view() string { return h.m.View().Content }
