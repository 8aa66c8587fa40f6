package ui

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
)

// Commands that act on jobs through the backend. They run off the Update
// goroutine, take copies of what they need and never touch the model; what
// they have to say comes back as messages.

// refreshInfos re-reads the state of running jobs that changes without a
// lifecycle event (waiting for input, runtimes) and what they use.
func (m *Model) refreshInfos() tea.Cmd {
	var ids []engine.JobID
	for id, in := range m.jobs {
		if in.Status == engine.Running {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	be := m.be
	return func() tea.Msg {
		msg := infosMsg{usage: map[engine.JobID]engine.Usage{}}
		for _, id := range ids {
			if j, err := be.Job(id); err == nil {
				msg.infos = append(msg.infos, j.Info())
				if u, ok := j.Usage(); ok {
					msg.usage[id] = u
				}
			}
		}
		return msg
	}
}

// audit returns the person-action hook, or one that does nothing.
func (m *Model) audit() func(action string, job engine.JobID, detail string) {
	if m.opts.OnAction != nil {
		return m.opts.OnAction
	}
	return func(string, engine.JobID, string) {}
}

// auditCmd records what a person did, off the Update goroutine (the hook
// writes a file).
func (m *Model) auditCmd(action string, id engine.JobID, detail string) tea.Cmd {
	audit := m.audit()
	return func() tea.Msg {
		audit(action, id, detail)
		return nil
	}
}

// jobCmd returns a command that records action, finds job id and does to it
// what act says; done is the status message on success.
func (m *Model) jobCmd(action string, id engine.JobID, detail string, act func(Job) error, done string) tea.Cmd {
	be, audit := m.be, m.audit()
	return func() tea.Msg {
		audit(action, id, detail)
		j, err := be.Job(id)
		if err == nil {
			err = act(j)
		}
		if err != nil {
			return statusMsg{levelError, err.Error()}
		}
		return statusMsg{levelInfo, done}
	}
}

// killJob ends a job's whole tree.
func (m *Model) killJob(id engine.JobID) tea.Cmd {
	return m.jobCmd("kill", id, "", func(j Job) error {
		j.Kill("killed by a person in the TUI")
		return nil
	}, fmt.Sprintf("job %s killed", id))
}

// signalJob sends sig to a job's process group.
func (m *Model) signalJob(id engine.JobID, sig syscall.Signal) tea.Cmd {
	name := engine.SignalName(sig)
	return m.jobCmd("signal", id, name, func(j Job) error { return j.Signal(sig) },
		fmt.Sprintf("sent %s to job %s", name, id))
}

// backgroundJob lets the agent's exec waiting on a job return now.
func (m *Model) backgroundJob(id engine.JobID) tea.Cmd {
	return m.jobCmd("background", id, "", Job.Background,
		fmt.Sprintf("job %s backgrounded: the agent's call returned with its id", id))
}

// removeJob deletes a finished job and its logs.
func (m *Model) removeJobs(ids []engine.JobID) tea.Cmd {
	be, audit := m.be, m.audit()
	return func() tea.Msg {
		for _, id := range ids {
			audit("remove", id, "")
			if err := be.Remove(id); err != nil {
				return statusMsg{levelError, err.Error()}
			}
		}
		if len(ids) == 1 {
			return statusMsg{levelInfo, fmt.Sprintf("job %s removed, and its logs", ids[0])}
		}
		return statusMsg{levelInfo, fmt.Sprintf("%d finished jobs removed, and their logs", len(ids))}
	}
}

// openPager shows a job's whole output, every byte kept on disk, in the
// person's pager ($PAGER, else less -R), colours and all: a pipe job's
// stdout and stderr in the order they came, a PTY job's screen history as
// text. The output is streamed to the pager as far as it goes now.
func (m *Model) openPager(in engine.Info) tea.Cmd {
	j, err := m.be.Job(in.ID)
	if err != nil {
		return reportErr(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return reportErr(err)
	}
	go func() {
		defer w.Close()
		if in.PTY {
			lines, snap, err := j.Scrollback()
			if err != nil {
				fmt.Fprintln(w, err)
				return
			}
			for _, l := range lines {
				if _, err := fmt.Fprintln(w, l.Text()); err != nil {
					return // the pager quit
				}
			}
			if snap != nil {
				fmt.Fprintln(w, snap.Text())
			}
			return
		}
		stream := engine.Merged
		if _, err := j.Len(engine.Merged); err != nil {
			stream = engine.Stdout // stderr went into stdout
		}
		for off := int64(0); ; {
			c, err := j.Read(stream, off, 1<<20)
			if err != nil || len(c.Data) == 0 {
				return
			}
			if c.Dropped > 0 {
				fmt.Fprintf(w, "[tend: %d bytes before this were dropped: %s]\n", c.Dropped, c.Note)
			}
			if _, err := w.Write(c.Data); err != nil {
				return // the pager quit
			}
			off = c.Next
		}
	}()
	c := exec.Command("sh", "-c", cmp.Or(os.Getenv("PAGER"), "less -R"))
	c.Stdin = r
	return m.execProcess(c, func(err error) tea.Msg {
		r.Close()
		if err != nil {
			return statusMsg{levelError, "the pager: " + err.Error()}
		}
		return nil
	})
}

// finished are the jobs that ended, filtered out of the list or not.
func (m *Model) finished() []engine.JobID {
	var ids []engine.JobID
	for id, in := range m.jobs {
		if in.Status != engine.Running {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// restartJob runs a finished job's command again, where it ran and on a
// terminal if it had one, as the person's.
func (m *Model) restartJob(in engine.Info) tea.Cmd {
	be := m.be
	spec := engine.Spec{
		Command: in.Command, Cwd: in.Cwd, PTY: in.PTY, Interactive: true, Origin: engine.PersonOrigin(),
		Description: fmt.Sprintf("restarted by you (was job %s)", in.ID),
	}
	if in.PTY {
		spec.Cols, spec.Rows = max(m.pane.w, 20), max(m.pane.h, 5)
	}
	audit := m.audit()
	return func() tea.Msg {
		j, err := be.Start(context.Background(), spec)
		if err != nil {
			return statusMsg{levelError, fmt.Sprintf("restart %q: %s", in.Command, errText(err))}
		}
		audit("restart", j.Info().ID, in.Command)
		return jobStartedMsg{info: j.Info()}
	}
}

// startJob runs a command (or a shell) typed by the person, on a PTY the
// size of the pane.
func (m *Model) startJob(command, desc string, attach bool) tea.Cmd {
	be := m.be
	spec := engine.Spec{
		Command: command, Description: desc, Cwd: m.opts.Cwd, PTY: true, Interactive: true,
		Cols: max(m.pane.w, 20), Rows: max(m.pane.h, 5), Origin: engine.PersonOrigin(),
	}
	audit := m.audit()
	return func() tea.Msg {
		j, err := be.Start(context.Background(), spec)
		if err != nil {
			return statusMsg{levelError, fmt.Sprintf("start %q: %s", command, errText(err))}
		}
		in := j.Info()
		audit("start", in.ID, command)
		return jobStartedMsg{info: in, attach: attach}
	}
}

// signals offered by the signal picker.
var signals = []syscall.Signal{
	syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGSTOP, syscall.SIGCONT, syscall.SIGWINCH,
}

// inputQueue sends what a person types to attached jobs, in the order it
// was typed, off the Update goroutine: Update only queues (no I/O), and
// each queued send returns a command that writes everything queued so far.
// Commands run concurrently, but a flush takes the whole queue under one
// lock, so bytes leave in the order they were queued.
type inputQueue struct {
	mu      sync.Mutex // guards pending
	pending []input
	writing sync.Mutex // one flush at a time
}

// input is bytes for a job's stdin; then close its stdin, or send it a
// signal (ctrl+c on a pipe job must not overtake the line before it).
type input struct {
	id    engine.JobID
	data  []byte
	close bool
	sig   syscall.Signal
}

// send queues in and returns the command that writes it.
func (q *inputQueue) send(be Backend, in input) tea.Cmd {
	q.mu.Lock()
	q.pending = append(q.pending, in)
	q.mu.Unlock()
	return func() tea.Msg { return q.flush(be) }
}

func (q *inputQueue) flush(be Backend) tea.Msg {
	q.writing.Lock()
	defer q.writing.Unlock()
	q.mu.Lock()
	batch := q.pending
	q.pending = nil
	q.mu.Unlock()
	var errs []string
	for _, in := range batch {
		j, err := be.Job(in.id)
		if err == nil && len(in.data) > 0 {
			_, err = j.Input(in.data)
		}
		if err == nil && in.close {
			err = j.CloseInput()
		}
		if err == nil && in.sig != 0 {
			err = j.Signal(in.sig)
		}
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return statusMsg{levelError, errs[len(errs)-1]}
	}
	return nil
}

// themeSaver keeps the theme the person chose: Update sets the choice, and
// each command it returns writes the choice as it is when the command
// runs, one at a time, so that the last write is the last choice however
// the commands of quick presses are ordered.
type themeSaver struct {
	save func(name string) error

	writing sync.Mutex // one save at a time
	mu      sync.Mutex // guards want
	want    string
}

// saveTheme keeps theme name for the next start, off the Update goroutine
// (it writes a file), and says so.
func (m *Model) saveTheme(name string) tea.Cmd {
	s := m.themeSave
	if s.save == nil {
		return info("theme %s", name)
	}
	s.mu.Lock()
	s.want = name
	s.mu.Unlock()
	return func() tea.Msg {
		s.writing.Lock()
		defer s.writing.Unlock()
		s.mu.Lock()
		want := s.want
		s.mu.Unlock()
		if err := s.save(want); err != nil {
			return statusMsg{levelWarn, fmt.Sprintf("theme %s, but it is not kept for the next start: %v", name, err)}
		}
		return statusMsg{levelInfo, fmt.Sprintf("theme %s, kept for the next start", name)}
	}
}
