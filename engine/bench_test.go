package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
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
	e, err := New(Config{StateDir: b.TempDir(), Retention: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
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

// BenchmarkExecEcho is the engine's share of a terminal_exec round trip.
//
//	go test -run '^$' -bench ExecEcho ./engine
func BenchmarkExecEcho(b *testing.B) {
	e, err := New(Config{StateDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	for b.Loop() {
		env, err := e.Exec(b.Context(), Spec{Command: "echo hi"}, time.Minute, 1<<20)
		if err != nil || env.Stdout != "hi\n" {
			b.Fatalf("%v %+v", err, env)
		}
	}
}
