package engine

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as the generator of deterministic output: with
// TEND_HELPER set, the test binary prints and exits instead of testing.
func TestMain(m *testing.M) {
	if h := os.Getenv("TEND_HELPER"); h != "" {
		os.Exit(helper(h))
	}
	os.Exit(m.Run())
}

// helper runs a generator: "lines:N" prints N numbered lines;
// "lines:N:gapms:M" sleeps M ms between lines.
func helper(spec string) int {
	f := strings.Split(spec, ":")
	switch f[0] {
	case "lines":
		n, _ := strconv.Atoi(f[1])
		var gap time.Duration
		if len(f) == 4 {
			ms, _ := strconv.Atoi(f[3])
			gap = time.Duration(ms) * time.Millisecond
		}
		w := bufio.NewWriterSize(os.Stdout, 64<<10)
		for i := range n {
			fmt.Fprintf(w, "line %08d\n", i)
			if gap > 0 {
				w.Flush()
				time.Sleep(gap)
			}
		}
		w.Flush()
		return 0
	}
	return 2
}

// numbered is what helper lines:n prints, for comparison.
func numbered(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %08d\n", i)
	}
	return []byte(b.String())
}

func helperCmd() string { return os.Args[0] }

// newEngine returns an engine over a temp state dir, closed at cleanup.
func newEngine(t testing.TB, cfg Config) *Engine {
	t.Helper()
	if cfg.StateDir == "" {
		cfg.StateDir = t.TempDir()
	}
	if cfg.Grace == 0 {
		cfg.Grace = 300 * time.Millisecond
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

// readAll pages through a stream in chunks of size n.
func readAll(t *testing.T, j *Job, stream Stream, n int) []byte {
	t.Helper()
	var out []byte
	var off int64
	for {
		c, err := j.Read(stream, off, n)
		if err != nil {
			t.Fatal(err)
		}
		if c.Dropped != 0 {
			t.Fatalf("read at %d dropped %d bytes: %s", off, c.Dropped, c.Note)
		}
		out = append(out, c.Data...)
		off = c.Next
		if c.EOF {
			return out
		}
		if len(c.Data) == 0 {
			// Not finished: wait for more.
			ch, _, _, _ := j.Changed(stream)
			select {
			case <-ch:
			case <-time.After(10 * time.Second):
				t.Fatalf("no output for 10 s at offset %d", off)
			}
		}
	}
}

func sum(b []byte) string { return fmt.Sprintf("%x", sha256.Sum256(b)) }

func fileSum(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// survivors counts processes of job j three ways: the engine's children
// that carry its marker, every process carrying its marker, and the members
// of its process group.
func survivors(j *Job) (children, marked, group int) {
	mine := func(pid int) bool {
		id, tok := jobOf(pid)
		return id == j.ID && tok == j.e.token
	}
	for _, pid := range childrenOfSelf() {
		if p, err := readProc(pid); err == nil && p.state != 'Z' && mine(pid) {
			children++
		}
	}
	for _, pid := range allPids() {
		p, err := readProc(pid)
		if err != nil || p.state == 'Z' {
			continue
		}
		if mine(pid) {
			marked++
		}
		if p.pgid == j.pid {
			group++
		}
	}
	return
}

func childrenOfSelf() []int { return children() }

func rssKB() int {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	return 0
}

func openFDs() int {
	ents, _ := os.ReadDir("/proc/self/fd")
	return len(ents)
}

func zombies() int {
	n := 0
	for _, pid := range children() {
		if p, err := readProc(pid); err == nil && p.state == 'Z' {
			n++
		}
	}
	return n
}

func start(t *testing.T, e *Engine, spec Spec) *Job {
	t.Helper()
	j, err := e.Start(t.Context(), spec)
	if err != nil {
		t.Fatalf("start %q: %v", spec.Command, err)
	}
	return j
}

func wait(t *testing.T, j *Job, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := j.Wait(ctx); err != nil {
		t.Fatalf("job %s (%q) did not finish within %s", j.ID, j.Command, d)
	}
}

// ran is an exec as the tests look at it.
type ran struct {
	j              *Job
	bg             bool   // still running: the exec returned before it ended
	stdout, stderr string // the output so far
	info           Info
}

// code is the exit code (-1 while the job runs).
func (r ran) code() int {
	if r.info.ExitCode == nil {
		return -1
	}
	return *r.info.ExitCode
}

// execute runs spec as a foreground exec with the given budget and reads
// what it printed.
func execute(t *testing.T, e *Engine, spec Spec, budget time.Duration) ran {
	t.Helper()
	j, bg, err := e.Exec(t.Context(), spec, budget)
	if err != nil {
		t.Fatalf("exec %q: %v", spec.Command, err)
	}
	r := ran{j: j, bg: bg, info: j.Info()}
	c, _ := j.Read(Stdout, 0, 64<<20)
	r.stdout = string(c.Data)
	if c, err := j.Read(Stderr, 0, 64<<20); err == nil {
		r.stderr = string(c.Data)
	}
	return r
}

// children lists the direct children of this process (all threads), for the
// tests that look for what the engine left; the engine reads orphans. With the
// engine a subreaper, orphaned descendants of jobs show up here.
func children() []int {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return nil
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	var pids []int
	for _, tid := range tids {
		withProcFile("/proc/self/task/"+tid+"/children", func(b []byte) error {
			for f := range bytes.FieldsSeq(b) {
				if pid := atoi(f); pid > 0 {
					pids = append(pids, pid)
				}
			}
			return nil
		})
	}
	return pids
}
