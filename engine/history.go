package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tend/sandbox"
)

// meta is a job's metadata file (jobs/<id>/meta.json): written before the
// job's process starts (so a crash at any moment leaves a record of it),
// again once its pid is known, and at exit, so the next engine can show
// the job as history and end what a dead engine left running.
type meta struct {
	ID          JobID      `json:"id"`
	Name        string     `json:"name,omitempty"`
	Command     string     `json:"command"`
	Description string     `json:"description,omitempty"`
	Cwd         string     `json:"cwd"`
	Origin      metaOrigin `json:"origin"`
	Pid         int        `json:"pid"`
	PidStart    uint64     `json:"pid_start"`
	Owner       int        `json:"owner_pid"`
	OwnerStart  uint64     `json:"owner_start"`
	Token       string     `json:"engine_token"`
	Cgroup      string     `json:"cgroup,omitempty"`
	Merged      bool       `json:"merged,omitempty"`
	PTY         bool       `json:"pty,omitempty"`
	Sandbox     string     `json:"sandbox,omitempty"`
	Cols        int        `json:"cols,omitempty"`
	Rows        int        `json:"rows,omitempty"`
	Started     time.Time  `json:"started"`
	Status      string     `json:"status"`
	ExitCode    int        `json:"exit_code"`
	Signal      string     `json:"signal,omitempty"`
	Ended       time.Time  `json:"ended,omitzero"`
	Warning     string     `json:"warning,omitempty"`
	Approval    *Approval  `json:"approval,omitempty"`
	Note        string     `json:"note,omitempty"`
	Lost        int64      `json:"lost_bytes,omitempty"`
	LostWhy     string     `json:"lost_why,omitempty"`
}

// metaOrigin is [Origin] as meta.json keeps it.
type metaOrigin struct {
	Client  string `json:"client"`
	Version string `json:"version,omitempty"`
	Session string `json:"session,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Person  bool   `json:"person,omitempty"`
	Agent   string `json:"agent,omitempty"`
}

// writeFirstMeta writes the job's first record, the one with its pid, into
// the empty meta.json its directory was made with (metaFile), so a start
// creates no file on its way to the reply. The file stays open for the
// last record. It runs before the job's supervisor starts, which writes
// the last.
func (j *Job) writeFirstMeta() error {
	b := j.record(false)
	j.metaLen = len(b)
	return overwrite(j.metaFile, b, 0)
}

// writeLastMeta writes the job's record at its exit over the first, in the
// file kept open since, and closes it.
func (j *Job) writeLastMeta() error {
	f := j.metaFile
	j.metaFile = nil
	defer f.Close()
	return overwrite(f, j.record(true), j.metaLen)
}

// overwrite writes record b over the one in f, of size bytes, in one write
// from its start, then cuts off what is left of a longer one (only then:
// a truncation is a journalled change on ext4, and the last record, on the
// way to an exec's reply, is seldom the shorter). Should tend die between
// the two, the file holds b and then a tail, which loadHistory passes over:
// it reads the first JSON value only. (A crash of the machine mid-write
// could tear b; loadHistory passes over a record that does not parse.)
func overwrite(f *os.File, b []byte, size int) error {
	_, err := f.WriteAt(b, 0)
	if err == nil && size > len(b) {
		err = f.Truncate(int64(len(b)))
	}
	if err != nil {
		return fmt.Errorf("write the job's record: %w", err)
	}
	return nil
}

// record is the job's metadata as meta.json holds it.
func (j *Job) record(final bool) []byte {
	j.mu.Lock()
	m := meta{
		ID: j.ID, Name: j.Name, Command: j.Command, Description: j.Description, Cwd: j.Cwd,
		Origin: metaOrigin{j.Origin.Client, j.Origin.Version, j.Origin.Session, j.Origin.Tool, j.Origin.person, j.Origin.Agent},
		Pid:    j.pid, PidStart: j.leader.start, Owner: j.e.self.pid, OwnerStart: j.e.self.start,
		Token: j.e.token, Merged: j.merged, PTY: j.pty, Sandbox: string(j.sandbox), Cols: j.cols, Rows: j.rows, Started: j.Started, Status: j.status.String(), ExitCode: j.exitCode,
		Signal: j.signal, Ended: j.ended, Warning: j.warning, Approval: j.approval, Note: j.note,
	}
	if j.cg != nil {
		m.Cgroup = j.cg.path
	}
	j.mu.Unlock()
	if final {
		in := j.Info()
		m.Lost, m.LostWhy = in.Lost, in.LostWhy
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	return b
}

// loadHistory shows the jobs of earlier engines as finished jobs with
// readable logs. A job whose engine died while it ran is "lost"; whatever of
// it still runs is killed, but only when pid and start time both match.
func (e *Engine) loadHistory() {
	ents, _ := os.ReadDir(filepath.Join(e.cfg.StateDir, "jobs"))
	var ms []meta
	for _, d := range ents {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		dir := filepath.Join(e.cfg.StateDir, "jobs", d.Name())
		b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
		var m meta
		if err != nil || json.NewDecoder(bytes.NewReader(b)).Decode(&m) != nil { // the first value: see overwrite
			// A job whose record could not be written never ran; once
			// surely not being started, its directory goes.
			if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				os.RemoveAll(dir)
			}
			continue
		}
		if m.Status == Running.String() {
			if owner, err := readProc(m.Owner); err == nil && owner.start == m.OwnerStart {
				continue // another live engine runs it
			}
			m.Status = Lost.String()
			if m.Ended.IsZero() {
				m.Ended = m.Started
			}
			endLost(m)
		}
		ms = append(ms, m)
	}
	slices.SortFunc(ms, func(a, b meta) int { return a.Started.Compare(b.Started) })
	if len(ms) > e.cfg.Retention {
		for _, m := range ms[:len(ms)-e.cfg.Retention] {
			os.RemoveAll(filepath.Join(e.cfg.StateDir, "jobs", string(m.ID)))
		}
		ms = ms[len(ms)-e.cfg.Retention:]
	}
	for _, m := range ms {
		j := &Job{
			ID: m.ID, Name: m.Name, Command: m.Command, Description: m.Description, Cwd: m.Cwd,
			Origin:  Origin{m.Origin.Client, m.Origin.Version, m.Origin.Session, m.Origin.Tool, m.Origin.Agent, m.Origin.Person},
			Started: m.Started, e: e, dir: filepath.Join(e.cfg.StateDir, "jobs", string(m.ID)),
			pid: m.Pid, merged: m.Merged, pty: m.PTY, sandbox: sandbox.Mode(m.Sandbox), cols: m.Cols, rows: m.Rows, streams: map[Stream]source{}, done: make(chan struct{}), bg: make(chan struct{}),
			status: parseStatus(m.Status), exitCode: m.ExitCode, signal: m.Signal, ended: m.Ended,
			warning: m.Warning, approval: m.Approval, note: m.Note, lost: m.Lost, lostWhy: m.LostWhy,
		}
		j.reaped.Store(true)
		close(j.done)
		logs := map[Stream]string{Stdout: "stdout.log", Stderr: "stderr.log"}
		if m.PTY {
			logs = map[Stream]string{Stdout: "pty.log"}
		}
		for n, file := range logs {
			if s, err := openStream(filepath.Join(j.dir, file)); err == nil {
				j.streams[n] = s
			}
		}
		if j.streams[Stdout] == nil {
			continue // unreadable logs: nothing to show
		}
		if errs := j.streams[Stderr]; errs != nil && !m.Merged && !m.PTY {
			j.streams[Merged] = openInterleave(filepath.Join(j.dir, mergedName), j.streams[Stdout], errs)
		}
		e.jobs[j.ID] = j
		e.order = append(e.order, j.ID)
		j.retained = true
		e.retained++
	}
}

// endLost ends what is left of a job whose engine died: its cgroup, or
// the processes in its session (while its leader is the same process, pid
// and start time) and those carrying its marker.
func endLost(m meta) {
	if lostGroup(m) {
		g := &group{path: m.Cgroup}
		if g.populated() {
			g.kill()
			g.waitEmpty(2 * time.Second)
		}
		g.remove()
		os.Remove(filepath.Dir(m.Cgroup)) // the dead engine's, once its last job's group is gone
	}
	leader, err := readProc(m.Pid)
	sessionOK := m.Pid > 0 && err == nil && leader.start == m.PidStart
	var ps []procInfo
	for _, pid := range allPids() {
		p, err := readProc(pid)
		if err != nil || p.state == 'Z' {
			continue
		}
		if sessionOK && p.sid == m.Pid {
			ps = append(ps, p)
		} else if id, tok := jobOf(pid); id == m.ID && tok == m.Token && m.Token != "" {
			ps = append(ps, p)
		}
	}
	signalProcs(ps, syscall.SIGKILL)
}

// lostGroup reports whether a lost job's record names a cgroup that looks
// like one an engine made for it: <cgroup2 mount>/…/tend.<token>/job-<id>.
func lostGroup(m meta) bool {
	mount, _, err := cgroup2Mount()
	return m.Cgroup != "" && err == nil && strings.HasPrefix(m.Cgroup, mount+"/") &&
		filepath.Base(m.Cgroup) == "job-"+string(m.ID) && strings.HasPrefix(filepath.Base(filepath.Dir(m.Cgroup)), "tend.")
}

func parseStatus(s string) Status {
	for st := Running; st <= Lost; st++ {
		if st.String() == s {
			return st
		}
	}
	return Lost
}
