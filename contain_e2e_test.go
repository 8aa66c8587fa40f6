package main

// Containment through the real binary: nothing a job starts outlives it,
// however the job ends and however tend ends; counted from /proc by command
// line, not by any marker of tend's.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/internal/testkit"
)

// containConfig writes a config that holds jobs as mode says.
func containConfig(t *testing.T, dir, mode string) string {
	t.Helper()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("[jobs]\ncontainment = \""+mode+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startEscapes starts n jobs of escapees through cs and waits until their
// processes run; it returns the jobs' ids.
func startEscapes(t *testing.T, cs *mcp.ClientSession, mark string, n int) []string {
	t.Helper()
	var ids []string
	for range n {
		var out struct {
			JobID string `json:"job_id"`
		}
		testkit.CallOK(t, cs, "terminal_job_start", map[string]any{
			"command": testkit.Escapes(mark) + "; sleep " + mark, "startup_wait_sec": 0,
		}, &out)
		ids = append(ids, out.JobID)
	}
	testkit.WaitUntil(t, 20*time.Second, "the escapees to start", func() bool {
		return testkit.CountMarked(mark) >= n*testkit.EscapesPerJob
	})
	return ids
}

// noneLeft waits until no process sleeps mark, and says how long it took.
func noneLeft(t *testing.T, mark string, since time.Time) {
	t.Helper()
	testkit.WaitUntil(t, 10*time.Second, "no process of the jobs left", func() bool { return testkit.CountMarked(mark) == 0 })
	t.Logf("all gone %s after", time.Since(since).Round(time.Millisecond))
}

func TestNothingEscapesTend(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"auto", "subreaper"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cfg := containConfig(t, t.TempDir(), mode)
			t.Run("kill", func(t *testing.T) {
				t.Parallel()
				s := startServer(t, "", "-config", cfg)
				mark := testkit.NewMark()
				id := startEscapes(t, s.cs, mark, 1)[0]
				t0 := time.Now()
				testkit.CallOK(t, s.cs, "terminal_job_manage", map[string]any{"action": "kill", "job_id": id}, nil)
				noneLeft(t, mark, t0)
			})
			t.Run("timeout_sec", func(t *testing.T) {
				t.Parallel()
				s := startServer(t, "", "-config", cfg)
				mark := testkit.NewMark()
				var env struct {
					TimedOut bool `json:"timed_out"`
				}
				testkit.CallOK(t, s.cs, "terminal_exec", map[string]any{
					"command": testkit.Escapes(mark) + "; sleep " + mark, "timeout_sec": 1, "auto_background_after_sec": 0,
				}, &env)
				if !env.TimedOut {
					t.Fatal("the exec did not time out")
				}
				noneLeft(t, mark, time.Now())
			})
			t.Run("headless agent disconnects", func(t *testing.T) {
				t.Parallel()
				s := startServer(t, "", "-config", cfg)
				mark := testkit.NewMark()
				startEscapes(t, s.cs, mark, 2)
				t0 := time.Now()
				s.cs.Close()
				noneLeft(t, mark, t0)
			})
			t.Run("SIGTERM to tend serve", func(t *testing.T) {
				t.Parallel()
				state := testkit.PrivateDir(t)
				containConfig(t, state, mode)
				srv := startServe(t, state)
				cs, _ := bridged(t, state, "agent")
				mark := testkit.NewMark()
				startEscapes(t, cs, mark, 2)
				t0 := time.Now()
				srv.cmd.Process.Signal(syscall.SIGTERM)
				<-srv.done
				srv.done <- nil // for the cleanup
				noneLeft(t, mark, t0)
			})
			t.Run("storm", func(t *testing.T) {
				t.Parallel()
				s := startServer(t, "", "-config", cfg)
				mark := testkit.NewMark()
				ids := startEscapes(t, s.cs, mark, 30)
				t.Logf("%d processes in 30 jobs", testkit.CountMarked(mark))
				t0 := time.Now()
				var wg sync.WaitGroup
				for _, id := range ids {
					wg.Go(func() {
						testkit.CallOK(t, s.cs, "terminal_job_manage", map[string]any{"action": "kill", "job_id": id}, nil)
					})
				}
				wg.Wait()
				noneLeft(t, mark, t0)
			})
		})
	}
}

// A tend killed outright (SIGKILL: no shutdown of its own) leaves nothing
// running: its cgroup watcher ends every job, the youngest too. The next
// tend on the state dir lists them as lost, with no exit code.
func TestKilledTendLeavesNothing(t *testing.T) {
	t.Parallel()
	if held, _ := engine.ProbeContainment(engine.ContainAuto); !strings.HasPrefix(held, "cgroup") {
		t.Skip("needs a cgroup per job: ", held)
	}
	t.Run("tend serve", func(t *testing.T) {
		t.Parallel()
		state := testkit.PrivateDir(t)
		srv := startServe(t, state)
		cs, _ := bridged(t, state, "agent")
		mark := testkit.NewMark()
		ids := startEscapes(t, cs, mark, 2)
		young := startEscapes(t, cs, mark, 1) // well under a second old at the kill
		ids = append(ids, young...)
		t0 := time.Now()
		srv.cmd.Process.Kill()
		<-srv.done
		srv.done <- nil
		noneLeft(t, mark, t0)

		startServe(t, state)
		cs2, _ := bridged(t, state, "agent-after")
		lost := map[string]bool{}
		for _, j := range listJobsFull(t, cs2) {
			if j.Status == "lost" && j.ExitCode == nil {
				lost[j.ID] = true
			}
		}
		for _, id := range ids {
			if !lost[id] {
				t.Errorf("job %s is not listed as lost with no exit code: %+v", id, listJobsFull(t, cs2))
			}
		}
	})
	t.Run("headless tend mcp", func(t *testing.T) {
		t.Parallel()
		s := startServer(t, "")
		mark := testkit.NewMark()
		startEscapes(t, s.cs, mark, 3)
		t0 := time.Now()
		s.cmd.Process.Kill()
		noneLeft(t, mark, t0)
	})
	t.Run("its watcher killed by a job first", func(t *testing.T) {
		t.Parallel()
		s := startServer(t, "")
		tend := s.cmd.Process.Pid
		// The job's shell is tend's child: $PPID is tend. (Its own command
		// line holds the watcher's name too.)
		killer := `for d in /proc/[0-9]*; do
			[ "${d#/proc/}" = $$ ] && continue
			case "$(tr '\0' ' ' < $d/cmdline 2>/dev/null)" in *tend-cgroup-watcher*) ;; *) continue ;; esac
			[ "$(cut -d' ' -f4 $d/stat)" = "$PPID" ] && kill -9 "${d#/proc/}" && echo "killed ${d#/proc/}"
		done`
		var out struct {
			Stdout string `json:"stdout"`
		}
		testkit.CallOK(t, s.cs, "terminal_exec", map[string]any{"command": killer}, &out)
		var old int
		if _, err := fmt.Sscanf(out.Stdout, "killed %d", &old); err != nil {
			t.Fatalf("the job found no watcher to kill: %q (tend %d, its watcher %d)", out.Stdout, tend, watcherOf(tend))
		}
		testkit.WaitUntil(t, 10*time.Second, "another watcher", func() bool {
			w := watcherOf(tend)
			return w != 0 && w != old
		})
		mark := testkit.NewMark()
		startEscapes(t, s.cs, mark, 2)
		t0 := time.Now()
		s.cmd.Process.Kill()
		noneLeft(t, mark, t0)
	})
}

// watcherOf is the pid of tend's cgroup watcher, 0 if it has none.
func watcherOf(tend int) int {
	ds, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range ds {
		cmdline, _ := os.ReadFile(d + "/cmdline")
		stat, _ := os.ReadFile(d + "/stat")
		var pid, ppid int
		var comm, state string
		fmt.Sscanf(string(stat), "%d %s %s %d", &pid, &comm, &state, &ppid)
		if ppid == tend && bytes.Contains(cmdline, []byte("tend-cgroup-watcher")) {
			return pid
		}
	}
	return 0
}

// lostJob is a job as listed, with its exit code.
type lostJob struct {
	ID       string `json:"job_id"`
	Status   string `json:"status"`
	ExitCode *int   `json:"exit_code"`
}

func listJobsFull(t *testing.T, cs *mcp.ClientSession) []lostJob {
	t.Helper()
	var out struct {
		Jobs []lostJob `json:"jobs"`
	}
	testkit.CallOK(t, cs, "terminal_job_manage", map[string]any{"action": "list"}, &out)
	return out.Jobs
}
