package engine

import (
	"strings"
	"testing"
	"time"

	"tend/internal/testkit"
)

// Nothing a job starts outlives it, however it leaves: killed, timed out,
// at shutdown, or when its command exits and leaves its escapees behind;
// with a cgroup per job and, forced, without one.
func TestNothingEscapes(t *testing.T) {
	t.Parallel()
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

// A job whose processes all end on SIGTERM is over when they have: Kill
// never waits out the grace for them, and a job started just after a kill
// is not touched by it. (In a cgroup, the group emptying was missed one kill
// in three: the job's own end removed the group while the kernel held its
// notice back, and the kill slept the grace. Without, an orphan was taken
// for an ended job started in the same clock tick, and a leader forked but
// not yet registered for an ended job's orphan, and killed.)
func TestKillDoesNotWaitOutGrace(t *testing.T) {
	t.Parallel()
	for _, mode := range []Containment{ContainAuto, ContainSubreaper} {
		t.Run(string(mode), func(t *testing.T) {
			const grace = time.Minute
			e := newEngine(t, Config{Containment: mode, Grace: grace})
			for range 30 {
				mark := testkit.NewMark()
				j := start(t, e, Spec{Command: "sleep " + mark + " & (sleep " + mark + " &); env -i setsid sleep " + mark + " & wait"})
				testkit.WaitUntil(t, 10*time.Second, "the job's processes", func() bool { return testkit.CountMarked(mark) == 4 })
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

// A running job's usage is its processes': a busy loop shows as most of a
// core, and 64 MiB held show in its memory; a finished job has none.
func TestUsage(t *testing.T) {
	t.Parallel()
	for _, mode := range []Containment{ContainAuto, ContainSubreaper} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			e := newEngine(t, Config{Containment: mode})
			busy := start(t, e, Spec{Command: "while :; do :; done"})
			held := start(t, e, Spec{Command: `python3 -c 'import sys, time; b = bytearray(64 << 20); b[::4096] = b"x" * len(b[::4096]); print("held"); sys.stdout.flush(); time.sleep(600)' & wait`})
			waitOutput(t, held, "held")
			var u Usage
			testkit.WaitUntil(t, 20*time.Second, "the busy loop to show as busy", func() bool {
				var ok bool
				u, ok = busy.Usage()
				return ok && u.CPUPercent > 50 && u.CPU > 0 && u.Processes == 1
			})
			if u.CPUPercent > 110 {
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
