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
