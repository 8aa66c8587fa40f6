package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/vterm"
)

// BenchmarkTUIKeyLatency times a key press to its effect on the screen (z
// zooms the selected job, hiding the job list, and back) while the selected
// PTY job floods its terminal, through the real binary on a PTY read by
// vterm. It reports p50 and p95 in milliseconds, and as the baseline the
// same with a selected job that prints nothing.
//
//	go test -run '^$' -bench TUIKeyLatency -benchtime 40x .
func BenchmarkTUIKeyLatency(b *testing.B) {
	keyLatency(b, `yes "flooding the terminal with a line of text that wraps nowhere"`)
}

// BenchmarkTUIKeyLatencyColour is the same with a flood in colour (SGR on
// every few words, as a coloured test runner prints), which tend keeps.
//
//	go test -run '^$' -bench TUIKeyLatencyColour -benchtime 40x .
func BenchmarkTUIKeyLatencyColour(b *testing.B) {
	keyLatency(b, `yes $'\e[1;31mFAIL\e[0m flooding the terminal \e[32mwith\e[0m \e[38;5;208mcolour\e[0m that wraps nowhere'`)
}

func keyLatency(b *testing.B, flood string) {
	t := &testing.T{}
	s := startTUI(t, b.TempDir())
	s.t = t
	defer func() {
		s.keys("x")
		s.keys("y")
	}()
	s.waitFor("Jobs")
	zoomed := false
	toggle := func() time.Duration {
		// A person's keys come at any moment, not just after a frame.
		time.Sleep(rand.N(20 * time.Millisecond))
		t0 := time.Now()
		s.keys("z")
		zoomed = !zoomed
		for {
			listShown := strings.Contains(s.term.Snapshot().Text(), "─ Jobs ")
			if listShown != zoomed {
				return time.Since(t0)
			}
			if time.Since(t0) > 10*time.Second {
				b.Fatalf("z had no effect in 10 s (zoomed %v)", zoomed)
			}
			time.Sleep(time.Millisecond)
		}
	}
	// The baseline: the same key with a job selected that prints nothing.
	s.keys(":", `sleep 600`, "<enter>")
	s.waitFor("sleep 600")
	var idle []time.Duration
	for range 40 {
		idle = append(idle, toggle())
	}
	s.keys(":", flood, "<enter>")
	s.waitFor("flooding the terminal")
	var lat []time.Duration
	for b.Loop() {
		lat = append(lat, toggle())
	}
	ms := func(d []time.Duration, q int) float64 {
		slices.Sort(d)
		return float64(d[len(d)*q/100].Microseconds()) / 1000
	}
	b.ReportMetric(ms(lat, 50), "p50-ms")
	b.ReportMetric(ms(lat, 95), "p95-ms")
	b.ReportMetric(ms(idle, 50), "idle-p50-ms")
	b.ReportMetric(ms(idle, 95), "idle-p95-ms")
}

// floodScript runs seq 1 2000000 on the terminal and writes how long it took
// (ms, as the program saw it) to file.
func floodScript(file string) string {
	return fmt.Sprintf(`bash -c 's=$(date +%%s%%N); seq 1 2000000; e=$(date +%%s%%N); echo $(((e-s)/1000000)) > %s'`, file)
}

// waitMS polls file for the milliseconds floodScript wrote.
func waitMS(b *testing.B, file string) float64 {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(file); err == nil && bytes.HasSuffix(data, []byte("\n")) {
			ms, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
			if err != nil {
				b.Fatal(err)
			}
			return ms
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatalf("%s never written", file)
	return 0
}

// BenchmarkTUIVisibleFlood times `seq 1 2000000` in a PTY job shown on
// tend's screen against the same in a tmux pane with a client attached, both
// 160×45 and both drawn into a terminal read by vterm in this process. It
// reports each in ms and tend's time as a ratio of tmux's (below 1: tend is
// faster).
//
//	go test -run '^$' -bench TUIVisibleFlood -benchtime 3x .
func BenchmarkTUIVisibleFlood(b *testing.B) {
	if _, err := exec.LookPath("tmux"); err != nil {
		b.Skip("no tmux")
	}
	dir := b.TempDir()
	t := &testing.T{}
	s := startTUI(t, filepath.Join(dir, "state"))
	s.t = t
	s.waitFor("Jobs")

	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) {
		if out, err := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput(); err != nil {
			b.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
	}
	tmux("new-session", "-d", "-x", "160", "-y", "45", "bash --norc --noprofile")
	defer tmux("kill-server")
	client := exec.Command("tmux", "-S", sock, "attach")
	client.Env = append(os.Environ(), "TERM=xterm-256color")
	ptmx, err := pty.StartWithSize(client, &pty.Winsize{Cols: 160, Rows: 45})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { client.Process.Kill(); client.Wait(); ptmx.Close() }()
	outer := vterm.New(160, 45, vterm.WithReplies(func(p []byte) { ptmx.Write(p) }))
	go io.Copy(outer, ptmx)

	var tendMS, tmuxMS float64
	n := 0
	for b.Loop() {
		n++
		f := filepath.Join(dir, fmt.Sprintf("tend%d", n))
		s.keys(":", floodScript(f), "<enter>")
		tendMS += waitMS(b, f)
		f = filepath.Join(dir, fmt.Sprintf("tmux%d", n))
		tmux("send-keys", "-l", floodScript(f))
		tmux("send-keys", "Enter")
		tmuxMS += waitMS(b, f)
	}
	b.ReportMetric(tendMS/float64(n), "tend-ms")
	b.ReportMetric(tmuxMS/float64(n), "tmux-ms")
	b.ReportMetric(tendMS/tmuxMS, "tend/tmux")
	s.keys("x")
	s.keys("y")
}

// cpuOf returns the user+system CPU time a process has used so far.
func cpuOf(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// Fields after the command name (which may hold spaces, inside parens).
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// BenchmarkTUIIdleCPU measures the CPU an idle tend uses with 50 finished
// and 5 sleeping agent jobs in its list, 10 s per iteration once the jobs
// are a minute old, against a tmux server (with a client attached) holding 5
// windows of sleep over the same time; and tend's over 20 s of the jobs'
// first minute, while their runtimes tick each second. It reports each as a
// percentage of one CPU.
//
//	go test -run '^$' -bench TUIIdleCPU -benchtime 3x .
func BenchmarkTUIIdleCPU(b *testing.B) {
	if _, err := exec.LookPath("tmux"); err != nil {
		b.Skip("no tmux")
	}
	dir := b.TempDir()
	t := &testing.T{}
	state := filepath.Join(dir, "state")
	s := startTUI(t, state)
	s.t = t
	s.waitFor("Jobs")
	cmd := exec.Command(tendBin, "mcp", "--state-dir", state)
	client := mcp.NewClient(&mcp.Implementation{Name: "idle-agent", Version: "1"}, nil)
	cs, err := client.Connect(b.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	for i := range 55 {
		tool, command := "terminal_exec", fmt.Sprintf("echo finished %d", i)
		if i >= 50 {
			tool, command = "terminal_job_start", "sleep 600"
		}
		if _, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"command": command}}); err != nil {
			b.Fatal(err)
		}
	}
	s.waitFor("finished 49")

	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) {
		if out, err := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput(); err != nil {
			b.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
	}
	tmux("new-session", "-d", "-x", "160", "-y", "45", "sleep 600")
	defer tmux("kill-server")
	for range 4 {
		tmux("new-window", "sleep 600")
	}
	tc := exec.Command("tmux", "-S", sock, "attach")
	tc.Env = append(os.Environ(), "TERM=xterm-256color")
	ptmx, err := pty.StartWithSize(tc, &pty.Winsize{Cols: 160, Rows: 45})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { tc.Process.Kill(); tc.Wait(); ptmx.Close() }()
	go io.Copy(io.Discard, ptmx)
	out, err := exec.Command("tmux", "-S", sock, "display", "-p", "#{pid}").Output()
	if err != nil {
		b.Fatal(err)
	}
	tmuxPid, _ := strconv.Atoi(strings.TrimSpace(string(out)))

	time.Sleep(2 * time.Second) // both settle after drawing
	measure := func(d time.Duration) (tend, tmux float64) {
		tend0, tmux0, start := cpuOf(b, s.cmd.Process.Pid), cpuOf(b, tmuxPid)+cpuOf(b, tc.Process.Pid), time.Now()
		time.Sleep(d) // idle is what is measured
		wall := time.Since(start).Seconds()
		tendCPU := cpuOf(b, s.cmd.Process.Pid) - tend0
		tmuxCPU := cpuOf(b, tmuxPid) + cpuOf(b, tc.Process.Pid) - tmux0
		return 100 * tendCPU.Seconds() / wall, 100 * tmuxCPU.Seconds() / wall
	}
	// In their first minute the sleeping jobs' runtimes tick each second.
	young, _ := measure(20 * time.Second)
	deadline := time.Now().Add(90 * time.Second)
	for !strings.Contains(s.term.Snapshot().Text(), "1m") {
		if time.Now().After(deadline) {
			b.Fatal("the runtimes never reached a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
	var tendPct, tmuxPct float64
	n := 0
	for b.Loop() {
		tend, tmux := measure(10 * time.Second)
		tendPct, tmuxPct, n = tendPct+tend, tmuxPct+tmux, n+1
	}
	b.ReportMetric(young, "tend-first-minute-%cpu")
	b.ReportMetric(tendPct/float64(n), "tend-%cpu")
	b.ReportMetric(tmuxPct/float64(n), "tmux-%cpu")
	s.keys("q")
	s.keys("y")
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		b.Fatal("tend did not quit")
	}
}
