package engine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"tend/internal/testkit"
)

func TestPTYIsATerminal(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	r := execute(t, e, Spec{Command: `test -t 0 && test -t 1 && echo "tty $TERM" && stty size`, PTY: true, Cols: 97, Rows: 31}, 10*time.Second)
	if got := strings.ReplaceAll(r.stdout, "\r\n", "\n"); got != "tty xterm-256color\n31 97\n" || r.code() != 0 {
		t.Fatalf("stdout %q exit %d", r.stdout, r.code())
	}
}

// R2.4: a PTY job that prints and exits at once loses nothing: EIO after
// the child exits is the end only once everything is drained.
func TestPTYShortLivedLosesNothing(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := range n {
		r := execute(t, e, Spec{Command: fmt.Sprintf("printf MARK-%d; exit 3", i), PTY: true}, 10*time.Second)
		if r.stdout != fmt.Sprintf("MARK-%d", i) || r.code() != 3 {
			t.Fatalf("run %d: stdout %q exit %d", i, r.stdout, r.code())
		}
	}
}

// R2.5: a grandchild that ignores SIGHUP keeps the terminal open after the
// shell exits; the job still ends within the drain bound and the
// grandchild is ended.
func TestPTYGrandchildHoldingTerminal(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{Drain: 200 * time.Millisecond})
	t0 := time.Now()
	r := execute(t, e, Spec{Command: `(trap '' HUP; sleep 30; echo late) & echo early`, PTY: true}, 10*time.Second)
	if took := time.Since(t0); took > 5*time.Second {
		t.Fatalf("took %s", took)
	}
	if !strings.Contains(r.stdout, "early") || strings.Contains(r.stdout, "late") {
		t.Fatalf("stdout %q", r.stdout)
	}
	assertGone(t, r.j)
}

// R1.7: a line longer than canonical mode keeps is refused, never cut.
func TestPTYLongLineRefused(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	j := start(t, e, Spec{Command: `IFS= read -r line; echo "len ${#line}"`, PTY: true, Interactive: true})
	testkit.WaitUntil(t, 5*time.Second, "the terminal to be in canonical mode", func() bool {
		return j.checkCanonical(bytes.Repeat([]byte("x"), maxCanon+1)) != nil
	})
	if _, err := j.Input(append(bytes.Repeat([]byte("x"), 10000), '\n')); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("10000-byte line: %v", err)
	}
	if _, err := j.Input(append(bytes.Repeat([]byte("y"), 4000), '\n')); err != nil {
		t.Fatal(err)
	}
	wait(t, j, 10*time.Second)
	waitOutput(t, j, "len 4000")

	// The call's own stdin: refused before anything runs, or delivered whole.
	cmd := `IFS= read -r line; echo "len ${#line}"`
	if _, err := e.Start(t.Context(), Spec{Command: cmd, PTY: true, Stdin: append(bytes.Repeat([]byte("x"), 10000), '\n')}); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("10000-byte stdin line: %v", err)
	}
	j = start(t, e, Spec{Command: cmd, PTY: true, Stdin: append(bytes.Repeat([]byte("y"), 4000), '\n')})
	wait(t, j, 10*time.Second)
	waitOutput(t, j, "len 4000")
	if _, err := e.Start(t.Context(), Spec{Command: "cat", Stdin: make([]byte, inputCap+1)}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("stdin over the queue: %v", err)
	}
}

// R2.11: resize reaches the job; a storm of resizes ends on the last size.
func TestPTYResize(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	j := start(t, e, Spec{Command: `read a; stty size; read b; stty size`, PTY: true, Interactive: true})
	if err := j.Resize(120, 40); err != nil {
		t.Fatal(err)
	}
	j.Input([]byte("\n"))
	waitOutput(t, j, "40 120")
	for i := range 1000 {
		if err := j.Resize(10+i%200, 5+i%50); err != nil {
			t.Fatal(err)
		}
	}
	j.Resize(77, 22)
	j.Input([]byte("\n"))
	waitOutput(t, j, "22 77")
	if err := j.Resize(0, 5); err == nil {
		t.Fatal("a 0-column terminal was accepted")
	}
	pipe := start(t, e, Spec{Command: "true"})
	if err := pipe.Resize(80, 24); !errors.Is(err, ErrNotPTY) {
		t.Fatalf("resize of a pipe job: %v", err)
	}
}

// The screen of a PTY job is the rendered terminal, also after the job has
// finished and when it is read back from history.
func TestPTYScreen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEngine(t, Config{StateDir: dir})
	j := execute(t, e, Spec{Command: `printf 'first\r\nsecond\r\n\033[1;31mred\033[0m\033[2;3HX'`, PTY: true, Cols: 40, Rows: 5}, 10*time.Second).j
	snap, err := j.Screen()
	if err != nil {
		t.Fatal(err)
	}
	if got := snap.Text(); !strings.HasPrefix(got, "first\nseXond\nred") {
		t.Fatalf("screen:\n%s", got)
	}
	if snap.Cols != 40 || snap.Rows != 5 {
		t.Fatalf("size %dx%d", snap.Cols, snap.Rows)
	}
	e.Close()
	e2 := newEngine(t, Config{StateDir: dir})
	h, _ := e2.Job(j.ID)
	snap, err = h.Screen()
	if err != nil || !strings.HasPrefix(snap.Text(), "first\nseXond\nred") {
		t.Fatalf("history screen: %v\n%s", err, snap.Text())
	}
	pipe := start(t, e2, Spec{Command: "true"})
	if _, err := pipe.Screen(); !errors.Is(err, ErrNotPTY) {
		t.Fatalf("screen of a pipe job: %v", err)
	}
}

// A program that asks the terminal where the cursor is gets an answer, even
// when nobody is looking at its screen.
func TestPTYAnswersQueries(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	r := execute(t, e, Spec{Command: `printf 'ab\033[6n'; IFS= read -rs -d R -t 5 ans; echo " got ${ans#*[}"`, PTY: true}, 10*time.Second)
	if !strings.Contains(r.stdout, "got 1;3") {
		t.Fatalf("no cursor position report: %q", r.stdout)
	}
}

// Every query is found wherever the reads split the output; plain and
// coloured output holds none.
func TestAsksTerminal(t *testing.T) {
	t.Parallel()
	for _, q := range queries {
		out := append([]byte("\x1b[32mok\x1b[0m "), q...)
		out = append(out, " more\x1b[1m"...)
		for cut := range len(out) + 1 {
			var s seam
			a, b := out[:cut], out[cut:]
			if !(s.asks(a) || asksTerminal(a)) && !(s.asks(b) || asksTerminal(b)) {
				t.Errorf("%q split at %d: not found", out, cut)
			}
		}
	}
	for _, plain := range []string{"", "hello", "\x1b[32mok\x1b[0m \x1b[1;34mINFO\x1b[0m", "\x1b[cx"[1:], "\x1b[?25l\x1b[6;1H\x1b[>4;2m", "\x1b"} {
		var s seam
		if s.asks([]byte(plain)) || asksTerminal([]byte(plain)) {
			t.Errorf("%q: a query found", plain)
		}
	}
}

// A PTY job's scrollback and screen together hold every line it printed,
// once each and in order, also when read back from history.
func TestPTYScrollback(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEngine(t, Config{StateDir: dir})
	j := execute(t, e, Spec{Command: "seq 1 300", PTY: true, Cols: 20, Rows: 6}, 10*time.Second).j
	check := func(j *Job) {
		t.Helper()
		lines, snap, err := j.Scrollback()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range lines {
			got = append(got, l.Text())
		}
		for _, row := range strings.Split(snap.Text(), "\n") {
			if row != "" {
				got = append(got, row)
			}
		}
		if len(got) != 300 {
			t.Fatalf("%d lines in scrollback and screen, want 300: %q…", len(got), got[:min(len(got), 5)])
		}
		for i, l := range got {
			if l != fmt.Sprint(i+1) {
				t.Fatalf("line %d is %q, want %d", i, l, i+1)
			}
		}
	}
	check(j)
	e.Close()
	h, err := newEngine(t, Config{StateDir: dir}).Job(j.ID)
	if err != nil {
		t.Fatal(err)
	}
	check(h)
	pipe := start(t, newEngine(t, Config{}), Spec{Command: "true"})
	if _, _, err := pipe.Scrollback(); !errors.Is(err, ErrNotPTY) {
		t.Fatalf("scrollback of a pipe job: %v", err)
	}
}

// Killing an interactive shell on a terminal, which ignores SIGTERM, hangs
// it up as a closing terminal would, long before the grace period ends; the
// job is reported killed by tend, not signaled.
func TestKillPTYShellHangsUp(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{Grace: time.Minute})
	j := start(t, e, Spec{Command: "bash --norc --noprofile -i", PTY: true, Interactive: true, Env: map[string]string{"PS1": "ready> "}})
	testkit.WaitUntil(t, 10*time.Second, "the shell's prompt", func() bool {
		c, _ := j.Read(Stdout, 0, 4096)
		return strings.Contains(string(c.Data), "ready> ")
	})
	j.Kill("test")
	st, _, sig := j.Exit()
	if st != Killed || sig != "SIGHUP" {
		t.Fatalf("status %s by %q, want killed by SIGHUP (SIGKILL means it waited out the grace)", st, sig)
	}
}

// An interactive shell sitting at its own prompt is idle, not waiting for
// input: it waits for a command, not on a question. A command it runs that
// asks something, with the terminal its own, is waiting for input; and so
// is a PTY job that is not a shell at all.
func TestIdleShellIsNotWaitingForInput(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{Quiet: 50 * time.Millisecond})
	j := start(t, e, Spec{Command: "bash --norc --noprofile", PTY: true, Interactive: true, Env: map[string]string{"PS1": "$ "}})
	state := func(in Info) string {
		switch {
		case in.Idle && in.WaitingForInput:
			return "both"
		case in.Idle:
			return "idle"
		case in.WaitingForInput:
			return "waiting"
		}
		return "busy"
	}
	until := func(want string) {
		t.Helper()
		testkit.WaitUntil(t, 10*time.Second, "the shell to be "+want, func() bool { return state(j.Info()) == want })
	}
	until("idle")
	if _, err := j.Input([]byte(`sh -c 'printf "Continue? [y/n] "; read a; echo "got $a"'` + "\r")); err != nil {
		t.Fatal(err)
	}
	until("waiting")
	if _, err := j.Input([]byte("y\r")); err != nil {
		t.Fatal(err)
	}
	until("idle")
	c, _ := j.Read(Stdout, 0, 1<<16)
	if !strings.Contains(string(c.Data), "got y") {
		t.Fatalf("output %q", c.Data)
	}

	asks := start(t, e, Spec{Command: `printf "Password: "; read a`, PTY: true, Interactive: true})
	testkit.WaitUntil(t, 10*time.Second, "a prompting job to wait for input", func() bool {
		in := asks.Info()
		return in.WaitingForInput && !in.Idle
	})
}

// A job being killed says so until it has ended.
func TestKillingIsShown(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{Grace: time.Minute})
	j := start(t, e, Spec{Command: `trap '' TERM; echo ready; sleep 600`}) // sleep inherits the ignored TERM
	testkit.WaitUntil(t, 10*time.Second, "the job to ignore SIGTERM", func() bool {
		c, _ := j.Read(Stdout, 0, 64)
		return strings.Contains(string(c.Data), "ready")
	})
	if j.Info().Killing {
		t.Fatal("a job nobody killed is killing")
	}
	done := make(chan struct{})
	go func() { defer close(done); j.Kill("test") }()
	testkit.WaitUntil(t, 10*time.Second, "the job to be killing", func() bool { return j.Info().Killing })
	if err := j.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	if in := j.Info(); in.Killing || in.Status != Killed {
		t.Fatalf("after it ended: killing %v, status %s", in.Killing, in.Status)
	}
}

func TestInteractiveShell(t *testing.T) {
	t.Parallel()
	for argv, want := range map[string]bool{
		"/usr/bin/bash": true, "bash --norc --noprofile": true, "sh -l": true, "bash -i": true, "fish": true,
		"bash -c ls": false, "bash -lc ls": false, "bash script.sh": false, "fish --command ls": false,
		"python3": false, "/bin/zsh": false, "": false,
	} {
		if got := interactiveShell(strings.Fields(argv)); got != want {
			t.Errorf("interactiveShell(%q) = %v, want %v", argv, got, want)
		}
	}
}

// isQuery agrees with a match of every query as a prefix, on every string
// of up to five bytes made of what queries are made of and their kin.
func TestIsQueryMatchesTheQueries(t *testing.T) {
	t.Parallel()
	alphabet := []byte("\x1b[c0>56?nm1;")
	var walk func(b []byte)
	walk = func(b []byte) {
		want := false
		for _, q := range queries {
			want = want || bytes.HasPrefix(b, q)
		}
		if got := isQuery(b); got != want {
			t.Fatalf("isQuery(%q) = %v, want %v", b, got, want)
		}
		if len(b) < maxQuery {
			for _, c := range alphabet {
				walk(append(b, c))
			}
		}
	}
	walk([]byte{0x1b})
}

// A screen far behind its job's output (here: nobody looked while it
// printed 70 MB of wide characters, which the emulator takes slowly) does
// not take many seconds of a core to catch up: it skips to the output's
// tail, and the job's note says so.
func TestPTYScreenSkipsWhatItCannotKeepUpWith(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	j := start(t, e, Spec{Command: `yes '你好👩‍💻 wide' | head -n 2900000; echo the-end`, PTY: true, Cols: 40, Rows: 5})
	if err := j.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		snap, err := j.Screen()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(snap.Text(), "the-end") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never caught up:\n%s", snap.Text())
		}
	}
	if in := j.Info(); !strings.Contains(in.Note, "skipped") {
		t.Errorf("the note does not say the screen skipped output: %q", in.Note)
	}
}
