package engine

import (
	"cmp"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Kill ends the job's whole tree: SIGTERM to every process of it (and, for
// a PTY job, SIGHUP shortly after, as a closing terminal sends: an
// interactive shell ignores SIGTERM), then after the grace period SIGKILL
// to whatever is left, until nothing is. It returns once the job has
// finished. reason is recorded as why it ended.
func (j *Job) Kill(reason string) {
	j.mu.Lock()
	if j.killReason == "" && j.status == Running {
		j.killReason = reason
	}
	j.mu.Unlock()
	j.e.endTree(j, j.e.cfg.Grace)
	select {
	case <-j.done:
	case <-time.After(2*j.e.cfg.Drain + time.Second):
	}
}

// hangupAfter is how long a killed PTY job has to end on SIGTERM before it
// is hung up too.
const hangupAfter = 100 * time.Millisecond

// endTree signals everything of the job: TERM (and HUP for a terminal),
// grace, KILL until nothing is left. Without a cgroup, a process found
// during the grace that was not sent TERM (forked as the job was first
// looked at) is sent it then.
func (e *Engine) endTree(j *Job, grace time.Duration) {
	if j.cg != nil {
		e.endGroup(j, grace)
		return
	}
	sent := map[int]uint64{} // pid: start, of the processes sent TERM
	left := func() bool {
		first := len(sent) == 0
		ms := j.members()
		var fresh []procInfo
		for _, p := range ms {
			if sent[p.pid] != p.start {
				sent[p.pid] = p.start
				fresh = append(fresh, p)
			}
		}
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGCONT} { // a stopped process acts on TERM once continued
			if first && !j.reaped.Load() {
				_ = syscall.Kill(-j.pid, sig)
			}
			signalProcs(fresh, sig)
		}
		return len(ms) > 0
	}
	left()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(grace)
	var hangup <-chan time.Time
	if j.pty {
		hangup = time.After(min(hangupAfter, grace))
	}
	done := j.done // looked at as it closes, then on the ticks
wait:
	for {
		select {
		case <-deadline:
			break wait
		case <-hangup:
			hangup = nil
			j.signalTree(syscall.SIGHUP)
			continue
		case <-done:
			done = nil
		case <-tick.C:
		}
		if j.Done() && !left() {
			j.markEmpty()
			e.endOrphans(false)
			return
		}
	}
	// A killed process can re-parent its own children to us after we listed
	// them (RELIABILITY V3: one round left a survivor, two cleared it), so
	// sweep until a round finds nothing.
	defer e.endOrphans(false) // and those of jobs already ended
	for range 100 {
		if j.signalTree(syscall.SIGKILL) == 0 && j.reaped.Load() {
			j.markEmpty()
			return
		}
		<-tick.C
	}
	e.logger.Warn("processes of a job survived 100 kill rounds", "job", j.ID)
}

// endGroup is endTree for a job in a cgroup of its own: nothing has to be
// found, the group holds everything; the wait is on the kernel's notice that
// the group emptied.
func (e *Engine) endGroup(j *Job, grace time.Duration) {
	j.signalTree(syscall.SIGTERM)
	left := grace
	if j.pty && !j.cg.waitEmpty(min(hangupAfter, grace)) {
		j.signalTree(syscall.SIGHUP)
		left = grace - min(hangupAfter, grace)
	}
	if !j.cg.waitEmpty(left) {
		j.cg.kill()
		if !j.cg.waitEmpty(5 * time.Second) {
			e.logger.Warn("processes of a job survived cgroup.kill", "job", j.ID, "cgroup", j.cg.path)
		}
	}
	if j.Done() {
		j.cg.remove()
	}
}

// signalTree signals every live process of the job; it returns how many it
// found (besides its process group, without a cgroup). A SIGTERM or SIGHUP is followed
// by a SIGCONT, as a stopped process acts on it only once continued. In a
// cgroup the group holds them all, and SIGKILL is cgroup.kill: every process
// of the group at once, and the forks in flight too. Without a cgroup the
// job's processes are found before its process group is signalled: a child
// that left the session and dropped the marker is known by its parent only
// while that parent lives.
func (j *Job) signalTree(sig syscall.Signal) int {
	sigs := []syscall.Signal{sig}
	if sig != syscall.SIGKILL {
		sigs = append(sigs, syscall.SIGCONT)
	}
	if j.cg != nil {
		if sig == syscall.SIGKILL {
			n := len(j.cg.procs())
			j.cg.kill()
			return n
		}
		n := 0
		for _, s := range sigs {
			n = j.cg.signal(s)
		}
		return n
	}
	ms := j.members()
	n := 0
	for _, s := range sigs {
		if !j.reaped.Load() {
			_ = syscall.Kill(-j.pid, s)
		}
		n = signalProcs(ms, s)
	}
	return n
}

// hasLeftovers reports whether anything of the job still runs once its
// leader has exited.
func (j *Job) hasLeftovers() bool {
	if j.cg != nil {
		return j.cg.populated()
	}
	if syscall.Kill(-j.pid, 0) == nil {
		return true
	}
	// With the engine a subreaper, every surviving descendant's chain of
	// parents now ends at this process, so the orphans it adopted are
	// where to look (the common case: nothing is left).
	reaper.Lock()
	defer reaper.Unlock()
	for _, pid := range orphans() {
		if isLeader(pid) {
			continue
		}
		if p, err := readProc(pid); err == nil && p.state != 'Z' && owner(p) == j {
			return true
		}
	}
	return false
}

// members finds the live processes of a job without a cgroup, from one look
// at /proc: those in its session (while the session is its), those carrying
// its marker, the orphans this process adopted that came from it, and the
// descendants of all of these (a child that left the session and dropped
// the marker while its parent lived). A process that started before the
// job cannot be of it and is passed over without reading its environment.
// Zombies are left to the reaper.
func (j *Job) members() []procInfo {
	reaper.Lock()
	defer reaper.Unlock()
	self := os.Getpid()
	session := j.leader.pid > 0 && sessionAlive(j.leader)
	var out []procInfo
	kids := map[int][]procInfo{} // the rest, by parent
	for _, pid := range allPids() {
		if pid == self {
			continue
		}
		p, err := readProc(pid)
		if err != nil || p.state == 'Z' || p.start < j.leader.start {
			continue
		}
		if session && p.sid == j.leader.pid || p.ppid == self && !isLeader(pid) && owner(p) == j {
			out = append(out, p)
		} else if id, tok := jobOf(pid); id == j.ID && tok == j.e.token {
			out = append(out, p)
		} else {
			kids[p.ppid] = append(kids[p.ppid], p)
		}
	}
	for i := 0; i < len(out); i++ {
		out = append(out, kids[out[i].pid]...)
		delete(kids, out[i].pid)
	}
	return out
}

// owner is the job a process of this process's came from, among the jobs
// without a cgroup of every engine here; nil when it is no job's (ripgrep
// run by a tool, a cgroup watcher, a job in a cgroup). A process claims
// its job by its marker or its session. One that has neither, or a marker
// that names no job here (forged, or another tend's), was adopted by this
// process, the subreaper, and is taken for the job that started last before
// it did, passing over jobs that had ended with nothing left before it
// started: tend never lets go of a process it was handed, and one it cannot
// place is ended with that job at the latest.
func owner(p procInfo) *Job {
	if mySid, _ := unix.Getsid(0); p.sid == mySid || inJobCgroup(p.pid) {
		return nil
	}
	id, tok := jobOf(p.pid)
	var marked, session, latest *Job
	forEngine(func(e *Engine) {
		if e.cg != nil {
			return
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, j := range e.jobs {
			switch {
			case j.leader.pid == 0: // from history
			case id != "" && tok == e.token && id == j.ID:
				marked = j
			case p.sid == j.leader.pid && sessionAlive(j.leader):
				session = j
			case j.leader.start <= p.start && !j.endedEmptyBefore(p.start) && (latest == nil || later(j, latest)):
				latest = j
			}
		}
	})
	return cmp.Or(marked, session, latest)
}

// markEmpty records that nothing of the job is left, now.
func (j *Job) markEmpty() { j.emptyAt.CompareAndSwap(0, uptimeTicks()) }

// endedEmptyBefore reports whether the job ended, with none of its
// processes left, before clock tick t: nothing started after that is its.
func (j *Job) endedEmptyBefore(t uint64) bool {
	end := j.emptyAt.Load()
	return end != 0 && end < t
}

// later reports whether job a started after job b. Start times in /proc
// count clock ticks (10 ms), in which several jobs can start: the engine's
// own clock tells those apart.
func later(a, b *Job) bool {
	if a.leader.start != b.leader.start {
		return a.leader.start > b.leader.start
	}
	return a.Started.After(b.Started)
}

// inJobCgroup reports whether a process is in a job's cgroup of some
// engine here: that engine holds it.
func inJobCgroup(pid int) bool {
	name, ok := cgroupOf(pid)
	in := false
	forEngine(func(e *Engine) {
		in = in || ok && e.cg != nil && strings.HasPrefix(name, e.cg.name+"/")
	})
	return in
}

// endOrphans ends the orphans this process adopted whose job has ended (or
// that belong to a job of e, when all is true: e is closing). Without a
// cgroup this is how a process that left its job's session and dropped
// its marker still ends with its job.
func (e *Engine) endOrphans(all bool) {
	if e.cg != nil {
		return
	}
	ended := func(p procInfo) bool {
		j := owner(p)
		return j != nil && (j.Done() || all && j.e == e)
	}
	// What they started is adopted the moment they die: sweep until a
	// round finds nothing.
	for round := range 20 {
		if round > 0 {
			time.Sleep(5 * time.Millisecond)
		}
		reaper.Lock()
		ps := slices.DeleteFunc(e.adopted(), func(p procInfo) bool { return !ended(p) })
		signalProcs(ps, syscall.SIGKILL)
		reaper.Unlock()
		if len(ps) == 0 {
			return
		}
	}
}

// adopted lists this process's live children that are not leaders it
// waits for: the orphans it adopted (see orphans).
func (e *Engine) adopted() []procInfo {
	var out []procInfo
	for _, pid := range orphans() {
		if isLeader(pid) {
			continue
		}
		if p, err := readProc(pid); err == nil && p.state != 'Z' {
			out = append(out, p)
		}
	}
	return out
}

// Owns reports whether process pid is of this engine's making: in one of
// its jobs' cgroups, carrying one of its jobs' markers, in a job's
// session, or descended from such a process or from this one (every job
// starts as this process's child, and this process, the subreaper, adopts
// their orphans). A process, or a parent of it, that cannot be looked at
// counts as the engine's: the answer errs on that side. A process started
// elsewhere that a job had started for it (by a service manager, a
// scheduler, ssh to this machine) is not the engine's.
func (e *Engine) Owns(pid int) bool {
	self := os.Getpid()
	for range 1 << 12 { // deeper than any real chain of parents
		if pid == self {
			return true
		}
		if pid <= 1 {
			return false
		}
		p, err := readProc(pid)
		if err != nil || e.holds(p) {
			return true
		}
		parent, err := readProc(p.ppid)
		if p.ppid > 1 && (err != nil || parent.start > p.start) {
			// The parent went (and its pid may be another's): the
			// process is being re-parented as we look.
			return true
		}
		pid = p.ppid
	}
	return true
}

// holds reports whether p is a process of one of the engine's jobs by its
// cgroup, its marker or its session.
func (e *Engine) holds(p procInfo) bool {
	if e.cg != nil {
		if name, ok := cgroupOf(p.pid); ok && strings.HasPrefix(name, e.cg.name+"/") {
			return true
		}
	}
	if _, tok := jobOf(p.pid); tok != "" && tok == e.token {
		return true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, j := range e.jobs {
		if j.leader.pid != 0 && (p.pid == j.leader.pid || p.sid == j.leader.pid) && sessionAlive(j.leader) {
			return true
		}
	}
	return false
}
