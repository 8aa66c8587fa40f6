package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Containment is how the engine holds a job's processes.
type Containment string

// The containments. With cgroups every job runs in a cgroup v2 group of its
// own from its first instruction (clone into the group): whatever it does
// with sessions, process groups or its environment, its processes are
// there, one write to cgroup.kill ends them all, and a watcher process ends
// them if tend dies. Without, the engine finds a job's processes by session,
// by the marker in their environment, and as the subreaper that adopts every
// orphan; a crash leaves them to the next engine on the state dir.
const (
	ContainAuto      Containment = "auto"      // cgroups where the machine allows, else the subreaper
	ContainCgroup    Containment = "cgroup"    // cgroups, or refuse to start
	ContainSubreaper Containment = "subreaper" // never cgroups
)

// ParseContainment reads a containment's name ("" is auto).
func ParseContainment(s string) (Containment, error) {
	switch c := Containment(s); c {
	case "":
		return ContainAuto, nil
	case ContainAuto, ContainCgroup, ContainSubreaper:
		return c, nil
	}
	return "", fmt.Errorf("containment %q: say auto, cgroup or subreaper", s)
}

// cgroups is an engine's cgroup v2 directory: one child group per job.
type cgroups struct {
	dir    string // <cgroup2 mount><tend's own group>/tend.<token>
	name   string // <tend's own group>/tend.<token>, as /proc/<pid>/cgroup names it
	logger *slog.Logger

	mu      sync.Mutex
	watcher *exec.Cmd // ends every job's group when tend's end of its socket closes
	conn    *os.File  // tend's end; closing it (or dying) sets the watcher off
	closing bool
	done    chan struct{} // closed when the last watcher has exited
}

// watchScript runs in the watcher, a shell in a session of its own that
// ignores every signal it can (all but KILL, STOP and CHLD). It waits for
// its stdin, a socket, to end, which happens when the engine closes its end
// or its process dies however it dies, then kills every process of every
// job (cgroup.kill on the engine's group reaches all its children) and
// removes the groups, deepest first. A socket, unlike a pipe, cannot be
// opened again through /proc/<pid>/fd: no job can hold it open.
const watchScript = `trap '' 1 2 3 4 5 6 7 8 10 11 12 13 14 15 16 18 20 21 22 23 24 25 26 27 28 29 30 31
read -r _
echo 1 > "$1/cgroup.kill"
i=0
while [ $i -lt 200 ] && grep -q '^populated 1' "$1/cgroup.events"; do sleep 0.01; i=$((i+1)); done
find "$1" -depth -type d -exec rmdir {} +`

// openCgroups makes the engine's cgroup directory under tend's own group in
// the cgroup v2 hierarchy and starts its watcher. It fails, saying why, where
// the machine gives no writable cgroup v2 hierarchy with cgroup.kill.
func openCgroups(token string, logger *slog.Logger) (*cgroups, error) {
	base, own, err := ownCgroup()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(base, "tend."+token)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot make a cgroup in %s: %w", base, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		os.Remove(dir)
		return nil, errors.New("the kernel has no cgroup.kill (Linux 5.14 or later)")
	}
	c := &cgroups{dir: dir, name: path.Join(own, "tend."+token), logger: logger, done: make(chan struct{})}
	if err := c.watch(); err != nil {
		os.Remove(dir)
		return nil, err
	}
	go c.keepWatching()
	return c, nil
}

// watch starts a watcher.
func (c *cgroups) watch() error {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("start the cgroup watcher: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "watcher"), os.NewFile(uintptr(fds[1]), "watcher")
	defer theirs.Close()
	cmd := exec.Command("/bin/sh", "-c", watchScript, "tend-cgroup-watcher", c.dir)
	cmd.Stdin = theirs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	reaper.RLock() // its exit is os/exec's to collect, as a job leader's
	err = cmd.Start()
	if err == nil {
		addLeader(cmd.Process.Pid)
	}
	reaper.RUnlock()
	if err != nil {
		ours.Close()
		return fmt.Errorf("start the cgroup watcher: %w", err)
	}
	c.mu.Lock()
	c.watcher, c.conn = cmd, ours
	if c.closing { // the engine closed meanwhile: this one ends at once
		ours.Close()
	}
	c.mu.Unlock()
	return nil
}

// keepWatching waits for the watcher, and starts another if it ended
// before the engine closed (a job killed it): without one, a crash of tend
// would leave the jobs running.
func (c *cgroups) keepWatching() {
	defer close(c.done)
	for {
		c.mu.Lock()
		cmd := c.watcher
		c.mu.Unlock()
		err := cmd.Wait()
		removeLeader(cmd.Process.Pid)
		c.mu.Lock()
		closing := c.closing
		c.conn.Close()
		c.mu.Unlock()
		if closing {
			return
		}
		c.logger.Warn("the cgroup watcher ended before tend; starting another", "pid", cmd.Process.Pid, "exit", err)
		if err := c.watch(); err != nil {
			c.logger.Error("jobs will outlive a crash of tend", "why", err)
			return
		}
	}
}

// ProbeContainment says how an engine with containment c would hold its
// jobs here, without starting one: it makes and removes a cgroup the way an
// engine would. The error says why c cannot be had.
func ProbeContainment(c Containment) (string, error) {
	mode, err := ParseContainment(string(c))
	if err != nil {
		return "", err
	}
	const subreaper = "subreaper: jobs are found by session, marker and adoption"
	if mode == ContainSubreaper {
		return subreaper + " (containment = subreaper)", nil
	}
	base, _, err := ownCgroup()
	if err == nil {
		dir := filepath.Join(base, "tend.probe-"+strconv.Itoa(os.Getpid()))
		if err = os.Mkdir(dir, 0o755); err == nil {
			_, err = os.Stat(filepath.Join(dir, "cgroup.kill"))
			os.Remove(dir)
			if err != nil {
				err = errors.New("the kernel has no cgroup.kill (Linux 5.14 or later)")
			}
		} else {
			err = fmt.Errorf("cannot make a cgroup in %s: %w", base, err)
		}
	}
	switch {
	case err == nil:
		return "cgroup: every job in a cgroup v2 group of its own under " + base, nil
	case mode == ContainCgroup:
		return "", err
	}
	return subreaper + " (no cgroup: " + err.Error() + ")", nil
}

// ownCgroup is the directory of this process's group in the cgroup v2
// hierarchy (the unified one, on hosts that also mount v1 controllers), and
// the group's name as /proc/<pid>/cgroup gives it.
func ownCgroup() (dir, name string, err error) {
	name, found := cgroupOf(os.Getpid())
	if !found {
		return "", "", errors.New("this process is in no cgroup v2 group")
	}
	mount, root, err := cgroup2Mount()
	if err != nil {
		return "", "", err
	}
	rel, err := filepath.Rel(root, name)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", "", fmt.Errorf("this process's cgroup %s is outside the mounted hierarchy", name)
	}
	return filepath.Join(mount, rel), name, nil
}

// cgroupOf is the name of a process's cgroup v2 group ("0::" in
// /proc/<pid>/cgroup).
func cgroupOf(pid int) (name string, found bool) {
	withProcFile("/proc/"+strconv.Itoa(pid)+"/cgroup", func(b []byte) error {
		for line := range bytes.SplitSeq(b, []byte("\n")) {
			if p, ok := bytes.CutPrefix(line, []byte("0::")); ok {
				name, found = string(p), true
			}
		}
		return nil
	})
	return name, found
}

// cgroup2Mount finds where the cgroup v2 hierarchy is mounted, and which of
// its groups the mount shows as its root.
func cgroup2Mount() (mount, root string, err error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options … - fstype source super
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields := strings.Fields(pre)
		if !ok || len(fields) < 5 || !strings.HasPrefix(post, "cgroup2 ") {
			continue
		}
		return unescapeMount(fields[4]), unescapeMount(fields[3]), nil
	}
	return "", "", errors.New("no cgroup v2 hierarchy is mounted")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// close ends the watcher: with every job already ended it finds nothing to
// kill, removes the groups and exits.
func (c *cgroups) close() {
	c.mu.Lock()
	c.closing = true
	c.conn.Close()
	c.mu.Unlock()
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
	}
}

// group is one job's cgroup.
type group struct {
	path string
}

// newGroup makes job id's group and opens it for starting a process in it
// (the caller closes fd).
func (c *cgroups) newGroup(id JobID) (*group, int, error) {
	path := filepath.Join(c.dir, "job-"+string(id))
	if err := os.Mkdir(path, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, -1, fmt.Errorf("make the job's cgroup: %w", err)
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		os.Remove(path)
		return nil, -1, fmt.Errorf("open the job's cgroup: %w", err)
	}
	return &group{path: path}, fd, nil
}

// procs lists the processes in the group.
func (g *group) procs() []int {
	b, err := os.ReadFile(filepath.Join(g.path, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var pids []int
	for f := range bytes.FieldsSeq(b) {
		if pid, err := strconv.Atoi(string(f)); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// populated reports whether any process is left in the group. A group
// that cannot be read (removed) is empty. It is read with plain system
// calls (withProcFile), not os.ReadFile, whose file tries the runtime's
// poller and stats it first (nine calls where three do): each job's end
// asks, on the way to an exec's reply.
func (g *group) populated() bool {
	pop := false
	err := withProcFile(filepath.Join(g.path, "cgroup.events"), func(b []byte) error {
		pop = bytes.Contains(b, []byte("populated 1"))
		return nil
	})
	return err == nil && pop
}

// signal sends sig to every process in the group; it returns how many.
func (g *group) signal(sig syscall.Signal) int {
	n := 0
	for _, pid := range g.procs() {
		if syscall.Kill(pid, sig) == nil {
			n++
		}
	}
	return n
}

// kill ends every process in the group at once (SIGKILL, which the
// kernel delivers to all of them, forks in flight included).
func (g *group) kill() error {
	return os.WriteFile(filepath.Join(g.path, "cgroup.kill"), []byte("1"), 0)
}

// waitEmpty waits until the group has no process left, or for d; it
// reports whether the group is empty. It looks at cgroup.events, first
// every 100 µs and then less often, up to every 20 ms: the processes of a
// killed job are usually gone within a millisecond, a look costs
// microseconds, and the kernel's own notice of the change (inotify) comes
// about 20 ms late, or never when the group is removed meanwhile.
func (g *group) waitEmpty(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for pause := 100 * time.Microsecond; g.populated(); pause = min(2*pause, 20*time.Millisecond) {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		time.Sleep(min(pause, left))
	}
	return true
}

// remove removes the group once it is empty, and the groups a job made in
// it, deepest first.
func (g *group) remove() { removeGroups(g.path) }

// removeGroups removes the empty cgroup dir and every group under it.
func removeGroups(dir string) {
	var dirs []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for _, d := range slices.Backward(dirs) {
		os.Remove(d)
	}
}

// cpuTime is the CPU time the group's processes have used so far.
func (g *group) cpuTime() time.Duration {
	b, err := os.ReadFile(filepath.Join(g.path, "cpu.stat"))
	if err != nil {
		return 0
	}
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("usage_usec ")); ok {
			us, _ := strconv.ParseInt(string(v), 10, 64)
			return time.Duration(us) * time.Microsecond
		}
	}
	return 0
}
