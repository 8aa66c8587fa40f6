package engine

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// BenchmarkPipeCapture compares a job printing size bytes captured by the
// engine (ring, log and merged index) with the same bytes piped to
// `cat > /dev/null` and to `cat > file` (the same disk write tend does), in
// the same run. Throughput is in MB/s; ratio is engine ÷ /dev/null and
// ratio-file engine ÷ file.
//
//	go test -run '^$' -bench PipeCapture -benchtime 3x ./engine
func BenchmarkPipeCapture(b *testing.B) {
	const size = 1 << 30
	gen := fmt.Sprintf("head -c %d /dev/zero", size)
	var raw, toFile, captured time.Duration
	file := filepath.Join(b.TempDir(), "raw.log")
	e := newEngine(b, Config{Retention: 1})
	b.SetBytes(size)
	for b.Loop() {
		t0 := time.Now()
		if err := exec.Command("bash", "-c", gen+" | cat > /dev/null").Run(); err != nil {
			b.Fatal(err)
		}
		raw += time.Since(t0)
		t0 = time.Now()
		if err := exec.Command("bash", "-c", gen+" | cat > "+file).Run(); err != nil {
			b.Fatal(err)
		}
		toFile += time.Since(t0)
		os.Remove(file)
		t0 = time.Now()
		j, err := e.Start(b.Context(), Spec{Command: gen})
		if err != nil {
			b.Fatal(err)
		}
		if err := j.Wait(b.Context()); err != nil {
			b.Fatal(err)
		}
		captured += time.Since(t0)
		if n, _ := j.Len(Stdout); n != size {
			b.Fatalf("captured %d bytes", n)
		}
	}
	mbps := func(d time.Duration) float64 { return float64(size) * float64(b.N) / d.Seconds() / 1e6 }
	b.ReportMetric(mbps(raw), "raw-MB/s")
	b.ReportMetric(mbps(captured), "tend-MB/s")
	b.ReportMetric(mbps(toFile), "raw-file-MB/s")
	b.ReportMetric(mbps(captured)/mbps(raw), "ratio")
	b.ReportMetric(mbps(captured)/mbps(toFile), "ratio-file")
}

// BenchmarkExecEcho is the engine's share of a terminal_exec round trip,
// against spawning `bash -c 'echo hi'` from the same process, call by call:
// p50 of each and their ratio.
//
//	go test -run '^$' -bench ExecEcho -benchtime 500x ./engine
func BenchmarkExecEcho(b *testing.B) {
	e := newEngine(b, Config{})
	var engine, raw []time.Duration
	for b.Loop() {
		t0 := time.Now()
		j, _, err := e.Exec(b.Context(), Spec{Command: "echo hi"}, time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		if c, _ := j.Read(Stdout, 0, 1<<20); string(c.Data) != "hi\n" {
			b.Fatalf("stdout %q", c.Data)
		}
		engine = append(engine, time.Since(t0))
		t0 = time.Now()
		if out, err := exec.Command("bash", "-c", "echo hi").Output(); err != nil || string(out) != "hi\n" {
			b.Fatalf("bash: %v %q", err, out)
		}
		raw = append(raw, time.Since(t0))
	}
	p50 := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds())
	}
	b.ReportMetric(p50(engine), "engine-p50-µs")
	b.ReportMetric(p50(raw), "bash-p50-µs")
	b.ReportMetric(p50(engine)/p50(raw), "p50-ratio")
}

// BenchmarkPTYCapture compares a PTY job printing size bytes of coloured log
// lines under the engine with the same program on a raw PTY read to
// /dev/null, in the same run: unwatched (ring and log; the emulator idles
// until someone looks), and watched (the emulator running beside the job
// from its start, as when the job is on a person's screen). ratio and
// watched-ratio are raw time ÷ tend time for the job to finish;
// screen-ratio also waits for the watched screen to catch up.
//
//	go test -run '^$' -bench PTYCapture -benchtime 3x ./engine
func BenchmarkPTYCapture(b *testing.B) {
	const size = 100 << 20
	gen := fmt.Sprintf(`yes $'\e[32m2026-11-22T01:13:00Z\e[0m \e[1;34mINFO\e[0m worker=7 request handled in \e[33m12ms\e[0m path=/api/v1/items' | head -c %d`, size)
	e := newEngine(b, Config{Retention: 1})
	var raw, job, watched, screen time.Duration
	var rawCPU, jobCPU, watchedCPU time.Duration // this process's, all threads: on a busy machine, steadier than the time
	run := func(watch bool) (*Job, time.Time) {
		t0 := time.Now()
		j, err := e.Start(b.Context(), Spec{Command: gen, PTY: true})
		if err != nil {
			b.Fatal(err)
		}
		if watch {
			j.want()
			go func() { // a watcher looks again and again, as the UI does each frame
				for {
					select {
					case <-j.done:
						return
					case <-time.After(wantFor / 2):
						j.want()
					}
				}
			}()
		}
		j.Wait(b.Context())
		return j, t0
	}
	b.SetBytes(size)
	for b.Loop() {
		t0, c0 := time.Now(), selfCPU(b)
		cmd := exec.Command("bash", "-c", gen)
		ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, ptmx) // ends with EIO once the child is gone
		cmd.Wait()
		ptmx.Close()
		raw += time.Since(t0)
		rawCPU += selfCPU(b) - c0
		if n < size {
			b.Fatalf("raw pty read %d bytes", n)
		}

		c0 = selfCPU(b)
		_, t0 = run(false)
		job += time.Since(t0)
		jobCPU += selfCPU(b) - c0

		c0 = selfCPU(b)
		j, t0 := run(true)
		watched += time.Since(t0)
		for end := j.streams[Stdout].Len(); j.termAt.get() < end; {
			j.want()
			j.termAt.wait(end, time.Second)
		}
		screen += time.Since(t0)
		watchedCPU += selfCPU(b) - c0
	}
	perMiB := func(d time.Duration) float64 { return d.Seconds() * 1e3 / float64(b.N) / (size >> 20) }
	b.ReportMetric(perMiB(rawCPU), "raw-cpu-ms/MiB")
	b.ReportMetric(perMiB(jobCPU), "tend-cpu-ms/MiB")
	b.ReportMetric(perMiB(watchedCPU), "watched-cpu-ms/MiB")
	mbps := func(d time.Duration) float64 { return float64(size) * float64(b.N) / d.Seconds() / 1e6 }
	b.ReportMetric(mbps(raw), "raw-MB/s")
	b.ReportMetric(mbps(job), "tend-MB/s")
	b.ReportMetric(mbps(watched), "watched-MB/s")
	b.ReportMetric(raw.Seconds()/job.Seconds(), "ratio")
	b.ReportMetric(raw.Seconds()/watched.Seconds(), "watched-ratio")
	b.ReportMetric(raw.Seconds()/screen.Seconds(), "screen-ratio")
}

// selfCPU is the CPU time this process has used, all its threads.
func selfCPU(tb testing.TB) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
