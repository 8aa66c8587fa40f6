package engine

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// procInfo is what /proc/<pid>/stat says about a process that matters here.
type procInfo struct {
	pid, ppid, pgid, sid int
	state                byte   // 'R', 'S', 'Z' …
	start                uint64 // start time in clock ticks since boot: with pid, a process's identity
}

func readProc(pid int) (procInfo, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, err
	}
	// comm may hold spaces and parentheses: the fields start after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return procInfo{}, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+2:]))
	if len(f) < 20 {
		return procInfo{}, fmt.Errorf("parse /proc/%d/stat: %d fields", pid, len(f))
	}
	p := procInfo{pid: pid, state: f[0][0]}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	p.sid, _ = strconv.Atoi(f[3])
	p.start, _ = strconv.ParseUint(f[19], 10, 64)
	return p, nil
}

// children lists the direct children of this process (all threads). With the
// engine a subreaper, orphaned descendants of jobs show up here.
func children() []int {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return nil
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	var pids []int
	for _, tid := range tids {
		b, err := os.ReadFile("/proc/self/task/" + tid + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// jobOf reads the job marker from a live process's environment: the job id
// and the token of the engine that started it ("" if none or unreadable).
// env -i defeats it, hence the session check beside it.
func jobOf(pid int) (JobID, string) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", ""
	}
	var id JobID
	var token string
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(markerVar+"=")); ok {
			id = JobID(v)
		} else if v, ok := bytes.CutPrefix(kv, []byte(engineVar+"=")); ok {
			token = string(v)
		}
	}
	return id, token
}

// allPids lists every process on the machine.
func allPids() []int {
	ents, _ := os.ReadDir("/proc")
	pids := make([]int, 0, len(ents))
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// sessionAlive reports whether sid leader.pid still names the job's session.
// Linux does not reuse a pid while a session or group holds it, so if the
// leader's pid now belongs to another process (another start time), the job's
// session is gone and that pid's session is someone else's.
func sessionAlive(leader procInfo) bool {
	p, err := readProc(leader.pid)
	return err != nil || p.start == leader.start
}

// signalProcs sends sig to each process, checking pid and start time first so
// a reused pid is never hit.
func signalProcs(ps []procInfo, sig syscall.Signal) int {
	n := 0
	for _, p := range ps {
		cur, err := readProc(p.pid)
		if err != nil || cur.start != p.start {
			continue
		}
		if err := syscall.Kill(p.pid, sig); err == nil {
			n++
		}
	}
	return n
}

// reaper guards the process-wide set of job leaders (every engine's). It
// is held for reading while a job is started and its leader registered, and
// for writing while orphans are reaped, so the reaper never takes a leader's
// exit status away from os/exec.
var reaper struct {
	sync.RWMutex
	once    sync.Once
	err     error
	mu      sync.Mutex // guards leaders and engines
	leaders map[int]bool
	engines map[*Engine]bool // the open engines: an orphan may be any one's
}

// addEngine and removeEngine keep the set of open engines.
func addEngine(e *Engine) {
	reaper.mu.Lock()
	reaper.engines[e] = true
	reaper.mu.Unlock()
}

func removeEngine(e *Engine) {
	reaper.mu.Lock()
	delete(reaper.engines, e)
	reaper.mu.Unlock()
}

// forEngine calls f with each open engine.
func forEngine(f func(*Engine)) {
	reaper.mu.Lock()
	es := make([]*Engine, 0, len(reaper.engines))
	for e := range reaper.engines {
		es = append(es, e)
	}
	reaper.mu.Unlock()
	for _, e := range es {
		f(e)
	}
}

func addLeader(pid int) {
	reaper.mu.Lock()
	reaper.leaders[pid] = true
	reaper.mu.Unlock()
}

func removeLeader(pid int) {
	reaper.mu.Lock()
	delete(reaper.leaders, pid)
	reaper.mu.Unlock()
}

func isLeader(pid int) bool {
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	return reaper.leaders[pid]
}

// startReaper makes this process a child subreaper, so orphaned
// descendants of jobs re-parent to it instead of init and the sweep can find
// and end them, and starts reaping those that exit. Once per process.
func startReaper() error {
	reaper.once.Do(func() {
		reaper.leaders = map[int]bool{}
		reaper.engines = map[*Engine]bool{}
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			reaper.err = fmt.Errorf("become subreaper: %w", err)
			return
		}
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGCHLD)
		go func() {
			for range ch {
				reap()
				// Exits come in bursts; one look at our children per
				// burst is enough, and zombies may wait a moment.
				time.Sleep(20 * time.Millisecond)
			}
		}()
	})
	return reaper.err
}

// reap collects zombie children that are not job leaders (whose os/exec
// Wait owns them) and that are in some job's session rather than this
// process's own (so children of other in-process code, such as ripgrep run
// by a tool, are left to their owners).
func reap() {
	reaper.Lock()
	defer reaper.Unlock()
	mySid, _ := unix.Getsid(0)
	for _, pid := range children() {
		if isLeader(pid) {
			continue
		}
		p, err := readProc(pid)
		if err != nil || p.state != 'Z' || p.sid == mySid {
			continue
		}
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
	}
}
