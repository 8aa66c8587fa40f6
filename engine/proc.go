package engine

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
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
	cpu                  int    // clock ticks of CPU used by it and the children it waited for
	rss                  int    // resident pages
}

func readProc(pid int) (procInfo, error) {
	var p procInfo
	err := withProcFile("/proc/"+strconv.Itoa(pid)+"/stat", func(b []byte) error {
		// comm may hold spaces and parentheses: the fields start after the
		// last ')', with the state (field 3).
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || i+2 >= len(b) {
			return fmt.Errorf("parse /proc/%d/stat", pid)
		}
		var f [22][]byte // fields 3 to 24: state … starttime, vsize, rss
		n := 0
		for field := range bytes.FieldsSeq(b[i+2:]) {
			if n == len(f) {
				break
			}
			f[n] = field
			n++
		}
		if n < len(f) {
			return fmt.Errorf("parse /proc/%d/stat: %d fields", pid, n)
		}
		p = procInfo{pid: pid, state: f[0][0], ppid: atoi(f[1]), pgid: atoi(f[2]), sid: atoi(f[3]), start: uint64(atoi(f[19])),
			cpu: atoi(f[11]) + atoi(f[12]) + atoi(f[13]) + atoi(f[14]), rss: atoi(f[21])}
		return nil
	})
	return p, err
}

// uptimeTicks is the time since boot in clock ticks, the unit of process
// start times in /proc; 0 if it cannot be read. It is the clock
// /proc/uptime reads (CLOCK_BOOTTIME, in the caller's time namespace, as
// start times are), in one system call rather than a file's four: each
// job's end asks it, on the way to an exec's reply.
func uptimeTicks() uint64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil || ts.Sec < 0 {
		return 0
	}
	return uint64(ts.Sec)*ticksPerSecond + uint64(ts.Nsec)/(1e9/ticksPerSecond)
}

// atoi reads a decimal number (0 for anything else) without allocating.
func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// procBufs holds the buffers /proc files are read into: a kill looks at
// every process on the machine, so each look must not leave garbage.
var procBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// withProcFile calls f with the contents of a /proc file, which f must not
// keep.
func withProcFile(path string, f func([]byte) error) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	bp := procBufs.Get().(*[]byte)
	defer procBufs.Put(bp)
	b := (*bp)[:0]
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, cap(b))
		}
		n, err := unix.Read(fd, b[len(b):cap(b)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		b = b[:len(b)+n]
	}
	*bp = b
	return f(b)
}

// orphans lists the children this process adopted as a subreaper, and the
// children its main thread started. The kernel hands an orphan to the first
// live thread of its reaper, the main thread (which a Go program never
// ends), so one file says what children says of all threads, for adopted
// processes: a tenth of the reads.
func orphans() []int {
	var pids []int
	withProcFile("/proc/self/task/"+strconv.Itoa(os.Getpid())+"/children", func(b []byte) error {
		for f := range bytes.FieldsSeq(b) {
			if pid := atoi(f); pid > 0 {
				pids = append(pids, pid)
			}
		}
		return nil
	})
	return pids
}

// jobOf reads the job marker from a live process's environment: the job id
// and the token of the engine that started it ("" if none or unreadable).
// env -i defeats it, hence the session check beside it.
func jobOf(pid int) (id JobID, token string) {
	withProcFile("/proc/"+strconv.Itoa(pid)+"/environ", func(b []byte) error {
		id = JobID(envValue(b, markerVar))
		token = envValue(b, engineVar)
		return nil
	})
	return id, token
}

// envValue is the value of name in an environment block (NUL-separated
// name=value), "" if it has none.
func envValue(env []byte, name string) string {
	for len(env) > 0 {
		kv, rest, _ := bytes.Cut(env, []byte{0})
		if v, ok := bytes.CutPrefix(kv, []byte(name)); ok && len(v) > 0 && v[0] == '=' {
			return string(v[1:])
		}
		env = rest
	}
	return ""
}

// allPids lists every process on the machine.
func allPids() []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	pids := make([]int, 0, len(names))
	for _, name := range names {
		if pid := atoi([]byte(name)); pid > 0 {
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
// for writing while this process's children are looked at (to reap orphans,
// or to take one for a job's), so a leader's exit status is never taken
// away from os/exec and a leader not yet registered (not yet even running
// its command) is never taken for some other job's orphan and ended.
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
// by a tool, are left to their owners). Those are orphans the subreaper
// adopted, which the kernel gives the main thread: one file to read on
// each job's exit, not one for each of tend's threads.
func reap() {
	reaper.Lock()
	defer reaper.Unlock()
	mySid, _ := unix.Getsid(0)
	for _, pid := range orphans() {
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
