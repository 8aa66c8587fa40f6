package engine

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"tend/internal/testkit"
)

// Nothing a job starts outlives it, however it leaves: killed, timed out,
// at shutdown, or when its command exits and leaves its escapees behind;
// with a cgroup per job and, forced, without one.
//
// The tests that force the subreaper do not run in parallel with one
// another: an orphan that shed session and marker is taken for the job that
// started last before it, of every engine in the process.
func TestNothingEscapes(t *testing.T) {
	for _, mode := range []Containment{ContainAuto, ContainSubreaper} {
		t.Run(string(mode), func(t *testing.T) {
			// Not parallel: without cgroups an orphan is taken for the
			// job that started last before it, of every engine here.
			for _, way := range []string{"kill", "timeout", "close", "exit"} {
				t.Run(way, func(t *testing.T) {
					e := newEngine(t, Config{Containment: mode, Grace: 200 * time.Millisecond})
					if mode == ContainAuto && e.cg == nil {
						t.Skip("no cgroup here: ", e.Containment())
					}
					mark := testkit.NewMark()
					spec := Spec{Command: testkit.Escapes(mark) + "; sleep " + mark, Interactive: true}
					switch way {
					case "timeout":
						spec.Timeout = time.Second
					case "exit":
						spec.Command = testkit.Escapes(mark)
					}
					j := start(t, e, spec)
					waitOutput(t, j, "started")
					testkit.WaitUntil(t, 10*time.Second, "the escapees to start", func() bool { return testkit.CountMarked(mark) >= testkit.EscapesPerJob })
					switch way {
					case "kill":
						j.Kill("test")
					case "close":
						e.Close()
					}
					testkit.WaitUntil(t, 10*time.Second, "no process of the job left", func() bool { return testkit.CountMarked(mark) == 0 })
					wait(t, j, 10*time.Second) // the note is final once it has ended
					if way == "exit" && !strings.Contains(j.Info().Note, "ended") {
						t.Errorf("note %q does not say what was left was ended", j.Info().Note)
					}
				})
			}
			t.Run("storm", func(t *testing.T) { storm(t, mode) })
		})
	}
}

// storm starts 30 jobs of escapees at once and kills them all at once:
// nothing is left.
func storm(t *testing.T, mode Containment) {
	e := newEngine(t, Config{Containment: mode, Grace: 300 * time.Millisecond})
	mark := testkit.NewMark()
	var jobs []*Job
	for range 30 {
		jobs = append(jobs, start(t, e, Spec{Command: testkit.Escapes(mark) + "; sleep " + mark, Interactive: true}))
	}
	for _, j := range jobs {
		waitOutput(t, j, "started")
	}
	testkit.WaitUntil(t, 20*time.Second, "the escapees to start", func() bool { return testkit.CountMarked(mark) >= 30*testkit.EscapesPerJob })
	t.Logf("%d processes of 30 jobs (%s)", testkit.CountMarked(mark), e.Containment())
	done := make(chan struct{})
	for _, j := range jobs {
		go func() { j.Kill("storm"); done <- struct{}{} }()
	}
	for range jobs {
		<-done
	}
	if n := testkit.CountMarked(mark); n != 0 {
		t.Fatalf("%d processes survived the kills", n)
	}
}

// A job whose processes all end on SIGTERM is over when they have, one of
// them stopped too: Kill never waits out the grace for them, and a job
// started just after a kill is not touched by it. (In a cgroup, the group emptying was missed one kill
// in three: the job's own end removed the group while the kernel held its
// notice back, and the kill slept the grace. Without, an orphan was taken
// for an ended job started in the same clock tick, and a leader forked but
// not yet registered for an ended job's orphan, and killed.)
func TestKillDoesNotWaitOutGrace(t *testing.T) {
	for _, mode := range []Containment{ContainAuto, ContainSubreaper} {
		t.Run(string(mode), func(t *testing.T) {
			const grace = time.Minute
			e := newEngine(t, Config{Containment: mode, Grace: grace})
			for range 30 {
				mark := testkit.NewMark()
				handler := `env -i setsid sh -c 'trap "exit 0" TERM; sleep ` + mark + ` & wait' >/dev/null 2>&1 &`
				j := start(t, e, Spec{Command: "sleep " + mark + " & (sleep " + mark + " &); " + handler + " wait"})
				testkit.WaitUntil(t, 10*time.Second, "the job's processes", func() bool { // each forked and run
					c := comms(mark)
					return len(c) == 3 && c["bash"] == 1 && c["sh"] == 1 && c["sleep"] == 3
				})
				stop(t, mark, "sh") // it handles TERM: it must be continued to act on it
				t0 := time.Now()
				j.Kill("test")
				if took := time.Since(t0); took >= grace/2 {
					t.Fatalf("the kill took %s: it waited out the grace", took)
				}
				if n := testkit.CountMarked(mark); n != 0 {
					t.Fatalf("%d processes left", n)
				}
			}
		})
	}
}

// A running job's usage is its processes': a busy loop uses CPU, and 64 MiB
// held show in its memory; a finished job has none.
func TestUsage(t *testing.T) {
	for _, mode := range []Containment{ContainAuto, ContainSubreaper} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			e := newEngine(t, Config{Containment: mode})
			busy := start(t, e, Spec{Command: "while :; do :; done"})
			held := start(t, e, Spec{Command: `python3 -c 'import sys, time; b = bytearray(64 << 20); b[::4096] = b"x" * len(b[::4096]); print("held"); sys.stdout.flush(); time.sleep(600)' & wait`})
			waitOutput(t, held, "held")
			var u Usage
			testkit.WaitUntil(t, 20*time.Second, "the busy loop to have used CPU", func() bool {
				var ok bool
				u, ok = busy.Usage()
				return ok && u.CPU >= 300*time.Millisecond && u.Processes == 1
			})
			// However loaded the machine, one loop uses some of one core.
			if u.CPUPercent <= 0 || u.CPUPercent > 110 {
				t.Errorf("one shell loop uses %.0f%% of a core", u.CPUPercent)
			}
			h, ok := held.Usage()
			if !ok || h.Memory < 64<<20 || h.Memory > 1<<30 || h.Processes != 2 {
				t.Errorf("the job holding 64 MiB in two processes: %+v %v", h, ok)
			}
			busy.Kill("test")
			if u, ok := busy.Usage(); ok {
				t.Errorf("a killed job has usage %+v", u)
			}
		})
	}
}

// The CPU percentage is the CPU time used between two looks at least half a
// second apart, over the time between them; the first look gives the
// average since the start, and looks in between repeat the last figure.
func TestRate(t *testing.T) {
	t.Parallel()
	t0 := time.Now()
	j := &Job{Started: t0}
	for _, step := range []struct {
		after time.Duration // since t0
		cpu   time.Duration
		want  float64
	}{
		{2 * time.Second, time.Second, 50},              // first look: 1 s in 2 s
		{2200 * time.Millisecond, 2 * time.Second, 50},  // 0.2 s later: too soon, the last figure
		{3 * time.Second, 2500 * time.Millisecond, 150}, // 1.5 s of CPU in 1 s: one and a half cores
		{4 * time.Second, 2 * time.Second, 0},           // a process left and took its time: never negative
	} {
		if got := j.rate(step.cpu, t0.Add(step.after)); got != step.want {
			t.Errorf("at %s with %s of CPU: %.1f%%, want %.1f%%", step.after, step.cpu, got, step.want)
		}
	}
}

// comms counts the processes whose command line holds mark by the
// command they run.
func comms(mark string) map[string]int {
	c := map[string]int{}
	for _, pid := range testkit.Marked(mark) {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil {
			c[strings.TrimSpace(string(b))]++
		}
	}
	return c
}

// stop stops the process running comm whose command line holds mark.
func stop(t *testing.T, mark, comm string) {
	t.Helper()
	for _, pid := range testkit.Marked(mark) {
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); string(b) == comm+"\n" {
			syscall.Kill(pid, syscall.SIGSTOP)
			testkit.WaitUntil(t, 10*time.Second, comm+" to stop", func() bool { p, err := readProc(pid); return err == nil && p.state == 'T' })
			return
		}
	}
	t.Fatalf("no %s runs %s", comm, mark)
}

// Owns knows every process of a job, those that shed its session and its
// marker included, and not a process from elsewhere (the test's parent).
func TestOwns(t *testing.T) {
	for _, mode := range []Containment{ContainAuto, ContainSubreaper} {
		t.Run(string(mode), func(t *testing.T) {
			// Not parallel: without cgroups an orphan is taken for the
			// job that started last before it, of every engine here.
			e := newEngine(t, Config{Containment: mode, Grace: 200 * time.Millisecond})
			if mode == ContainAuto && e.cg == nil {
				t.Skip("no cgroup here: ", e.Containment())
			}
			mark := testkit.NewMark()
			j := start(t, e, Spec{Command: testkit.Escapes(mark) + "; sleep " + mark, Interactive: true})
			defer j.Kill("test")
			waitOutput(t, j, "started")
			testkit.WaitUntil(t, 10*time.Second, "the escapees to start", func() bool { return testkit.CountMarked(mark) >= testkit.EscapesPerJob })
			for _, pid := range testkit.Marked(mark) {
				if !e.Owns(pid) {
					t.Errorf("process %d of the job is not the engine's", pid)
				}
			}
			if e.Owns(os.Getppid()) {
				t.Errorf("the test's parent (%d) is taken for the engine's", os.Getppid())
			}
		})
	}
}
