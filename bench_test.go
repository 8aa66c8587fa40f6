package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"

	"tend/engine"
	"tend/internal/testkit"
	"tend/sandbox"
)

// BenchmarkExecRoundTrip times terminal_exec of `echo hi` through the real
// binary over stdio, against spawning `bash -c 'echo hi'` directly in the same
// run, call by call. It reports p50 and p95 of each and their ratio, and
// tend's CPU per call; with cgroups (where the machine gives them) and with
// the subreaper. The go-sdk client talks to tend through its own stdio
// transport (mcp.CommandTransport); the -leanclient figures are the same
// calls through a lean client transport (leanTransport), the session above
// it the go-sdk's still: how much of the round trip is the client's
// transport; the -rawclient figures have no client library at all, JSON-RPC
// lines written to tend's stdin and read from its stdout: what is left is
// the server's.
//
//	go test -run '^$' -bench ExecRoundTrip -benchtime 300x .
func BenchmarkExecRoundTrip(b *testing.B) {
	eachContainment(b, execRoundTrip)
	eachContainmentVia(b, "-leanclient", func(cmd *exec.Cmd) mcp.Transport { return leanTransport{cmd} }, execRoundTrip)
	for _, mode := range []string{"cgroup", "subreaper"} {
		b.Run(mode+"-rawclient", func(b *testing.B) { execRoundTripRaw(b, mode) })
	}
}

// execRoundTrip is BenchmarkExecRoundTrip over cs to the tend of pid.
func execRoundTrip(b *testing.B, cs *mcp.ClientSession, pid int) {
	args := &mcp.CallToolParams{Name: "terminal_exec", Arguments: map[string]any{"command": "echo hi"}}
	roundTrips(b, pid, func() {
		res, err := cs.CallTool(b.Context(), args)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
	})
}

// execRoundTripRaw is BenchmarkExecRoundTrip through a client that is only
// lines of JSON on tend's stdin and stdout.
func execRoundTripRaw(b *testing.B, mode string) {
	cmd := tendCommand(b, mode)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	replies := bufio.NewReader(out)
	id := 0
	call := func(method, params string) []byte {
		id++
		if _, err := fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params); err != nil {
			b.Fatal(err)
		}
		line, err := replies.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	call("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}`)
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	roundTrips(b, cmd.Process.Pid, func() {
		var reply struct {
			Result struct {
				IsError           bool `json:"isError"`
				StructuredContent struct {
					Stdout string `json:"stdout"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		line := call("tools/call", `{"name":"terminal_exec","arguments":{"command":"echo hi"}}`)
		if err := json.Unmarshal(line, &reply); err != nil || reply.Result.IsError || reply.Result.StructuredContent.Stdout != "hi\n" {
			b.Fatalf("call: %v %s", err, line)
		}
	})
}

// roundTrips times call, after one to warm up, interleaved one by one with
// a spawn of `bash -c 'echo hi'`, and reports both and tend's CPU a call.
func roundTrips(b *testing.B, pid int, call func()) {
	call()
	cpu0 := cpuTime(b, pid)
	var tend, raw []time.Duration
	for b.Loop() {
		t0 := time.Now()
		call()
		tend = append(tend, time.Since(t0))
		t0 = time.Now()
		if out, err := exec.Command("bash", "-c", "echo hi").Output(); err != nil || string(out) != "hi\n" {
			b.Fatalf("bash: %v %q", err, out)
		}
		raw = append(raw, time.Since(t0))
	}
	cpu := cpuTime(b, pid) - cpu0
	p := percentile
	b.ReportMetric(p(tend, .5), "tend-p50-µs")
	b.ReportMetric(p(tend, .95), "tend-p95-µs")
	b.ReportMetric(p(raw, .5), "bash-p50-µs")
	b.ReportMetric(p(raw, .95), "bash-p95-µs")
	b.ReportMetric(p(tend, .5)/p(raw, .5), "p50-ratio")
	b.ReportMetric(p(tend, .95)/p(raw, .95), "p95-ratio")
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(tend)), "tend-cpu-µs/call")
}

// BenchmarkExecSandboxed times terminal_exec of `echo hi` confined to its
// workspace against the same unconfined, call by call in the same run: what
// the sandbox costs (tend runs itself before the command, which confines
// itself and execs it).
//
//	go test -run '^$' -bench ExecSandboxed -benchtime 300x .
func BenchmarkExecSandboxed(b *testing.B) {
	if _, err := sandbox.ABI(); err != nil {
		b.Skip(err)
	}
	eachContainment(b, func(b *testing.B, cs *mcp.ClientSession, pid int) {
		plain := map[string]any{"command": "echo hi"}
		boxed := map[string]any{"command": "echo hi", "sandbox": "workspace"}
		testkit.CallOK(b, cs, "terminal_exec", boxed, nil)
		var with, without []time.Duration
		for b.Loop() {
			for _, c := range []struct {
				args map[string]any
				d    *[]time.Duration
			}{{plain, &without}, {boxed, &with}} {
				var env struct {
					Stdout string `json:"stdout"`
				}
				t0 := time.Now()
				testkit.CallOK(b, cs, "terminal_exec", c.args, &env)
				*c.d = append(*c.d, time.Since(t0))
				if env.Stdout != "hi\n" {
					b.Fatalf("stdout %q", env.Stdout)
				}
			}
		}
		b.ReportMetric(percentile(without, .5), "plain-p50-µs")
		b.ReportMetric(percentile(with, .5), "sandboxed-p50-µs")
		b.ReportMetric(percentile(with, .5)/percentile(without, .5), "p50-ratio")
	})
}

// BenchmarkKill times terminal_job_manage kill through the real binary, from
// the call to the moment every process of the job is gone (a pidfd for each,
// opened before the call), against a terminal_exec of `echo hi` in the same
// run: the goal is a kill that costs less than a spawn. Each job is a shell
// with a child, an orphaned grandchild and an `env -i setsid` escapee, all
// ending on SIGTERM. It reports p50/p95 of both, tend's CPU per kill and per
// exec, tend's RSS before the first job and after the last kill, and, after
// the loop, how long 60 such jobs killed at once take to be gone; with
// cgroups (where the machine gives them) and with the subreaper.
//
//	go test -run '^$' -bench Kill -benchtime 60x .
func BenchmarkKill(b *testing.B) {
	eachContainment(b, func(b *testing.B, cs *mcp.ClientSession, pid int) {
		testkit.CallOK(b, cs, "terminal_exec", map[string]any{"command": "echo hi"}, nil)
		rss0 := procKB(b, pid, "VmRSS")
		var kills, execs []time.Duration
		var killCPU, execCPU time.Duration
		for b.Loop() {
			mark := testkit.NewMark()
			var job struct {
				JobID string `json:"job_id"`
				Pid   int    `json:"pid"`
			}
			testkit.CallOK(b, cs, "terminal_job_start", map[string]any{"command": fmt.Sprintf("sleep %[1]s & (sleep %[1]s &); env -i setsid sleep %[1]s & wait", mark), "startup_wait_sec": 0}, &job)
			var sleeps []int
			testkit.WaitUntil(b, 10*time.Second, "the job's 3 sleeps", func() bool { sleeps = sleeping(mark); return len(sleeps) == 3 })
			gone := pidfds(b, append(sleeps, job.Pid))

			cpu0, t0 := cpuTime(b, pid), time.Now()
			testkit.CallOK(b, cs, "terminal_job_manage", map[string]any{"action": "kill", "job_id": job.JobID}, nil)
			gone()
			kills = append(kills, time.Since(t0))
			killCPU += cpuTime(b, pid) - cpu0

			cpu0, t0 = cpuTime(b, pid), time.Now()
			testkit.CallOK(b, cs, "terminal_exec", map[string]any{"command": "echo hi"}, nil)
			execs = append(execs, time.Since(t0))
			execCPU += cpuTime(b, pid) - cpu0
		}
		b.StopTimer()
		rss := procKB(b, pid, "VmRSS")
		storm, running, killed := killStorm(b, cs, pid, 60)
		b.ReportMetric(percentile(kills, .5), "kill-p50-µs")
		b.ReportMetric(percentile(kills, .95), "kill-p95-µs")
		b.ReportMetric(percentile(execs, .5), "exec-p50-µs")
		b.ReportMetric(percentile(execs, .95), "exec-p95-µs")
		b.ReportMetric(percentile(kills, .5)/percentile(execs, .5), "p50-ratio")
		b.ReportMetric(float64(killCPU.Microseconds())/float64(b.N), "kill-cpu-µs")
		b.ReportMetric(float64(execCPU.Microseconds())/float64(b.N), "exec-cpu-µs")
		b.ReportMetric(float64(rss0)/1024, "rss-before-MiB")
		b.ReportMetric(float64(rss)/1024, "rss-after-MiB")
		b.ReportMetric(float64(storm.Microseconds()), "storm-µs")
		b.ReportMetric(float64(running)/1024, "rss-60-running-MiB")
		b.ReportMetric(float64(killed)/1024, "rss-60-killed-MiB")
	})
}

// BenchmarkListAndStart times, against a terminal_exec of `echo hi` in the
// same run, call by call, with 200 finished jobs retained:
// terminal_job_manage list as an agent calls it (the 30 most recent jobs),
// the same list with limit=0 (all 200), and terminal_job_start of a job
// that prints at once (`echo up; sleep 0.1`: gone before the next few
// lists, which would otherwise list it and what it uses), which answers at
// its first output rather than after its startup window. It reports tend's
// CPU per list of 200.
//
//	go test -run '^$' -bench ListAndStart -benchtime 100x .
func BenchmarkListAndStart(b *testing.B) {
	eachContainment(b, func(b *testing.B, cs *mcp.ClientSession, pid int) {
		echo := map[string]any{"command": "echo hi"}
		for range engine.DefaultRetention {
			testkit.CallOK(b, cs, "terminal_exec", echo, nil)
		}
		var lists, alls, starts, execs []time.Duration
		var allCPU time.Duration
		timed := func(d *[]time.Duration, tool string, args map[string]any, out any) {
			t0 := time.Now()
			testkit.CallOK(b, cs, tool, args, out)
			*d = append(*d, time.Since(t0))
		}
		type listed struct {
			Jobs []json.RawMessage `json:"jobs"`
		}
		for b.Loop() {
			var l listed
			timed(&lists, "terminal_job_manage", map[string]any{"action": "list"}, &l)
			if len(l.Jobs) < 30 {
				b.Fatalf("list of %d jobs", len(l.Jobs))
			}
			cpu0 := cpuTime(b, pid)
			timed(&alls, "terminal_job_manage", map[string]any{"action": "list", "limit": 0}, &l)
			allCPU += cpuTime(b, pid) - cpu0
			if len(l.Jobs) < engine.DefaultRetention {
				b.Fatalf("list of %d jobs", len(l.Jobs))
			}
			var st struct {
				Output string `json:"output"`
			}
			timed(&starts, "terminal_job_start", map[string]any{"command": "echo up; sleep 0.1"}, &st)
			if st.Output != "up\n" {
				b.Fatalf("job_start output %q", st.Output)
			}
			timed(&execs, "terminal_exec", echo, nil)
		}
		p := percentile
		b.ReportMetric(p(lists, .5), "list-p50-µs")
		b.ReportMetric(p(alls, .5), "list-200-p50-µs")
		b.ReportMetric(float64(allCPU.Microseconds())/float64(len(alls)), "list-200-tend-cpu-µs")
		b.ReportMetric(p(starts, .5), "start-p50-µs")
		b.ReportMetric(p(starts, .95), "start-p95-µs")
		b.ReportMetric(p(execs, .5), "exec-p50-µs")
		b.ReportMetric(p(lists, .5)/p(execs, .5), "list/exec-p50")
		b.ReportMetric(p(alls, .5)/p(execs, .5), "list-200/exec-p50")
	})
}

// killStorm starts n jobs like BenchmarkKill's and kills them all at once;
// it returns how long until every process of them was gone, and tend's RSS
// in KiB (process pid) with the jobs running and once they are killed.
func killStorm(b *testing.B, cs *mcp.ClientSession, pid, n int) (took time.Duration, running, killed int) {
	mark := testkit.NewMark()
	ids := make([]string, n)
	for i := range ids {
		var job struct {
			JobID string `json:"job_id"`
		}
		testkit.CallOK(b, cs, "terminal_job_start", map[string]any{"command": fmt.Sprintf("sleep %[1]s & (sleep %[1]s &); env -i setsid sleep %[1]s & wait", mark), "startup_wait_sec": 0}, &job)
		ids[i] = job.JobID
	}
	var sleeps []int
	testkit.WaitUntil(b, 30*time.Second, "the jobs' sleeps", func() bool { sleeps = sleeping(mark); return len(sleeps) == 3*n })
	gone := pidfds(b, sleeps)
	running = procKB(b, pid, "VmRSS")
	errs := make(chan error, n)
	t0 := time.Now()
	for _, id := range ids {
		go func() {
			res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: "terminal_job_manage", Arguments: map[string]any{"action": "kill", "job_id": id}})
			if err == nil && res.IsError {
				err = errors.New(testkit.Text(res))
			}
			errs <- err
		}()
	}
	for range ids {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	gone()
	return time.Since(t0), running, procKB(b, pid, "VmRSS")
}

// sleeping lists the processes running sleep for mark seconds.
func sleeping(mark string) []int {
	return slices.DeleteFunc(testkit.Marked(mark), func(pid int) bool {
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		return string(comm) != "sleep\n"
	})
}

// pidfds opens a pidfd for each process and returns a function that waits
// until all of them have exited.
func pidfds(b *testing.B, pids []int) (wait func()) {
	var fds []unix.PollFd
	for _, pid := range pids {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			b.Fatalf("pidfd of %d: %v", pid, err)
		}
		fds = append(fds, unix.PollFd{Fd: int32(fd), Events: unix.POLLIN})
	}
	return func() {
		for _, f := range fds {
			for {
				p := []unix.PollFd{f}
				if _, err := unix.Poll(p, 10_000); err == unix.EINTR {
					continue
				}
				if p[0].Revents&unix.POLLIN == 0 {
					b.Fatalf("a process of the killed job is still running after 10 s")
				}
				break
			}
			unix.Close(int(f.Fd))
		}
	}
}

// cpuTime is the CPU time a process has used, from /proc/<pid>/stat.
func cpuTime(b *testing.B, pid int) time.Duration {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(st[bytes.LastIndexByte(st, ')')+2:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * time.Second / 100 // clock ticks: USER_HZ is 100 on Linux
}

func percentile(d []time.Duration, q float64) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[int(q*float64(len(s)-1))].Microseconds())
}

// eachContainment runs bench against a tend mcp over stdio, with cgroups
// (where the machine gives them) and with the subreaper; pid is tend's.
func eachContainment(b *testing.B, bench func(b *testing.B, cs *mcp.ClientSession, pid int)) {
	eachContainmentVia(b, "", func(cmd *exec.Cmd) mcp.Transport { return &mcp.CommandTransport{Command: cmd} }, bench)
}

// tendCommand is tend mcp with jobs contained by mode (cgroup or
// subreaper), its state in a directory of the benchmark's; it skips the
// benchmark where the machine cannot contain so.
func tendCommand(b *testing.B, mode string) *exec.Cmd {
	if mode == "cgroup" {
		if _, err := engine.ProbeContainment(engine.ContainCgroup); err != nil {
			b.Skip(err)
		}
	}
	state := testkit.PrivateDir(b)
	config := testkit.WriteFile(b, "config.toml", "[jobs]\ncontainment = \""+mode+"\"\n")
	return exec.Command(tendBin, "mcp", "-state-dir", state, "-config", config)
}

// eachContainmentVia is eachContainment with the client's transport to the
// command made by via, the sub-benchmarks' names ending in suffix.
func eachContainmentVia(b *testing.B, suffix string, via func(*exec.Cmd) mcp.Transport, bench func(b *testing.B, cs *mcp.ClientSession, pid int)) {
	for _, mode := range []string{"cgroup", "subreaper"} {
		b.Run(mode+suffix, func(b *testing.B) {
			cmd := tendCommand(b, mode)
			client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
			cs, err := client.Connect(b.Context(), via(cmd), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			bench(b, cs, cmd.Process.Pid)
		})
	}
}
