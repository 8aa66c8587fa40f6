package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"tend/internal/testkit"
)

// escapes starts processes that leave a job every way we know: a new
// session without the job's environment (env -i setsid), the markers
// unset and a forked session (setsid -f), a double fork, nohup, and a new
// session without environment that ignores TERM and HUP. Each sleeps for
// mark seconds, which tells them apart in /proc from everything else.
func escapes(mark string) string {
	return fmt.Sprintf(`env -i setsid sleep %[1]s & `+
		`(unset TEND_JOB TEND_ENGINE; setsid -f sleep %[1]s) & `+
		`(sleep %[1]s &) ; nohup sleep %[1]s >/dev/null 2>&1 & `+
		`env -i setsid sh -c 'trap "" TERM HUP; sleep %[1]s' & `+
		`echo started`, mark)
}

// newMark is a sleep length no other process has: 600 seconds and a
// random fraction.
func newMark() string { return fmt.Sprintf("600.%07d", rand.IntN(10_000_000)) }

// marked counts the live processes whose command line holds mark, read
// from /proc: no marker, session or cgroup of tend's is needed to see them.
func marked(mark string) int {
	n := 0
	for _, pid := range allPids() {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !bytes.Contains(b, []byte(mark)) {
			continue
		}
		if p, err := readProc(pid); err == nil && p.state != 'Z' {
			n++
		}
	}
	return n
}

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
					mark := newMark()
					spec := Spec{Command: escapes(mark) + "; sleep " + mark, Interactive: true}
					switch way {
					case "timeout":
						spec.Timeout = time.Second
					case "exit":
						spec.Command = escapes(mark)
					}
					j := start(t, e, spec)
					waitOutput(t, j, "started")
					testkit.WaitUntil(t, 10*time.Second, "the escapees to start", func() bool { return marked(mark) >= 5 })
					switch way {
					case "kill":
						j.Kill("test")
					case "close":
						e.Close()
					}
					testkit.WaitUntil(t, 10*time.Second, "no process of the job left", func() bool { return marked(mark) == 0 })
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
	mark := newMark()
	var jobs []*Job
	for range 30 {
		jobs = append(jobs, start(t, e, Spec{Command: escapes(mark) + "; sleep " + mark, Interactive: true}))
	}
	for _, j := range jobs {
		waitOutput(t, j, "started")
	}
	testkit.WaitUntil(t, 20*time.Second, "the escapees to start", func() bool { return marked(mark) >= 30*6 })
	t.Logf("%d processes of 30 jobs (%s)", marked(mark), e.Containment())
	done := make(chan struct{})
	for _, j := range jobs {
		go func() { j.Kill("storm"); done <- struct{}{} }()
	}
	for range jobs {
		<-done
	}
	if n := marked(mark); n != 0 {
		t.Fatalf("%d processes survived the kills", n)
	}
}
