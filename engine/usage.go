package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Usage is what a running job's processes use.
type Usage struct {
	CPU        time.Duration // CPU time used so far
	CPUPercent float64       // over about the last second (the average since the start at the first look); 100 is one core
	Memory     int64         // bytes: the group's memory.current, else the processes' resident sets
	Processes  int
}

// ticksPerSecond is the unit of CPU times in /proc (USER_HZ, 100 on Linux
// whatever the kernel's own tick).
const ticksPerSecond = 100

// Usage says what the job's processes use now; false once the job has
// finished. In a cgroup it counts the whole group (the CPU of processes
// already gone too). Without one it counts the processes in the job's
// session, from one look at /proc a second that serves every job.
func (j *Job) Usage() (Usage, bool) {
	if j.Done() {
		return Usage{}, false
	}
	u, at := Usage{}, time.Now()
	if j.cg != nil {
		u = j.cg.usage()
	} else {
		u, at = j.e.sessions.of(j.leader.pid)
	}
	u.CPUPercent = j.rate(u.CPU, at)
	return u, true
}

// rate is the job's CPU use as a percentage of one core over at least half
// a second, from successive looks at its CPU time (cpu, as of at).
func (j *Job) rate(cpu time.Duration, at time.Time) float64 {
	percent := func(cpu, wall time.Duration) float64 {
		if wall <= 0 {
			return 0
		}
		return 100 * cpu.Seconds() / wall.Seconds()
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	switch d := at.Sub(j.cpuAt); {
	case j.cpuAt.IsZero():
		j.cpuPercent = percent(cpu, at.Sub(j.Started))
	case d >= time.Second/2:
		j.cpuPercent = percent(max(cpu-j.cpuSeen, 0), d) // processes gone from a session take their time with them
	default:
		return j.cpuPercent
	}
	j.cpuAt, j.cpuSeen = at, cpu
	return j.cpuPercent
}

// usage is what the group's processes use.
func (g *group) usage() Usage {
	pids := g.procs()
	u := Usage{CPU: g.cpuTime(), Processes: len(pids)}
	if b, err := os.ReadFile(filepath.Join(g.path, "memory.current")); err == nil {
		u.Memory, _ = strconv.ParseInt(string(trimNewline(b)), 10, 64)
		return u
	}
	for _, pid := range pids {
		if p, err := readProc(pid); err == nil {
			u.Memory += int64(p.rss) * int64(os.Getpagesize())
		}
	}
	return u
}

func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return b[:n-1]
	}
	return b
}

// sessions tallies what the processes of each session use, from one look
// at /proc kept for a second.
type sessions struct {
	mu    sync.Mutex
	at    time.Time
	tally map[int]Usage // by session id
}

// of is what the processes of session sid use, and when that was seen.
func (s *sessions) of(sid int) (Usage, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.at) >= time.Second {
		s.tally = map[int]Usage{}
		for _, pid := range allPids() {
			p, err := readProc(pid)
			if err != nil || p.state == 'Z' {
				continue
			}
			u := s.tally[p.sid]
			u.CPU += time.Duration(p.cpu) * time.Second / ticksPerSecond
			u.Memory += int64(p.rss) * int64(os.Getpagesize())
			u.Processes++
			s.tally[p.sid] = u
		}
		s.at = time.Now()
	}
	return s.tally[sid], s.at
}
