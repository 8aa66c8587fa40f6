package vterm

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/hinshun/vt10x"
)

// benchStreams are the workloads, about 1 MiB each: plain lines (seq's
// output), a coloured log (mostly text, SGR and line feeds, scrolling) and
// full-screen programs (cursor movement, erases, regions, the alternate
// screen).
func benchStreams(b *testing.B) map[string][]byte {
	b.Helper()
	var log bytes.Buffer
	levels := []string{"\x1b[32mINFO\x1b[0m", "\x1b[33mWARN\x1b[0m", "\x1b[1;31mERROR\x1b[0m", "\x1b[2mDEBUG\x1b[0m"}
	for i := 0; log.Len() < 1<<20; i++ {
		fmt.Fprintf(&log, "\x1b[90m2025-01-02T03:04:%02d.%03dZ\x1b[0m %s \x1b[36mjob=%d\x1b[0m request served path=/api/v1/items/%d status=\x1b[32m200\x1b[0m dur=%dms\r\n",
			i%60, i%1000, levels[i%4], i%17, i, i%250)
	}
	var plain bytes.Buffer
	for i := 1; plain.Len() < 1<<20; i++ {
		fmt.Fprintf(&plain, "%d\r\n", i)
	}
	var tui bytes.Buffer
	for tui.Len() < 1<<20 {
		for _, name := range []string{"vim", "htop", "less", "dialog"} {
			raw, err := os.ReadFile("testdata/diff/" + name + ".bytes")
			if err != nil {
				b.Fatal(err)
			}
			tui.Write(raw)
		}
	}
	return map[string][]byte{"plain": plain.Bytes(), "colorlog": log.Bytes(), "tui": tui.Bytes()}
}

func writeChunks(w interface{ Write([]byte) (int, error) }, data []byte) {
	for i := 0; i < len(data); i += 4096 {
		_, _ = w.Write(data[i:min(i+4096, len(data))])
	}
}

// BenchmarkParse compares vterm with raw vt10x on the same bytes, written in
// 4096-byte chunks as a PTY read delivers them. Each vterm pass ends with a
// snapshot: vterm prints a flood's last screen only when it is looked at,
// and vt10x has its screen ready.
func BenchmarkParse(b *testing.B) {
	streams := benchStreams(b)
	for _, name := range []string{"plain", "colorlog", "tui"} {
		data := streams[name]
		b.Run(name+"/vterm", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			cpu := cpuTime()
			for b.Loop() {
				tm := New(80, 24)
				writeChunks(tm, data)
				tm.Snapshot()
			}
			reportCPU(b, cpu, len(data))
		})
		b.Run(name+"/vt10x", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			cpu := cpuTime()
			for b.Loop() {
				writeChunks(vt10x.New(vt10x.WithSize(80, 24)), data)
			}
			reportCPU(b, cpu, len(data))
		})
	}
}

// cpuTime is the process's CPU time. On a shared machine wall-clock MB/s
// swings with the load; MiB per CPU second (cpu-MiB/s) holds still.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration, size int) {
	b.Helper()
	if d := cpuTime() - start; d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/(1<<20)/d.Seconds(), "cpu-MiB/s")
	}
}

func BenchmarkSnapshot(b *testing.B) {
	tm := New(200, 60)
	writeChunks(tm, benchStreams(b)["colorlog"])
	for b.Loop() {
		_, _ = tm.Write([]byte("x"))
		_ = tm.Snapshot()
	}
}
