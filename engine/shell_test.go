package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"tend/internal/testkit"
)

func openShell(t *testing.T, e *Engine) *Shell {
	t.Helper()
	sh, err := e.OpenShell(t.Context(), ShellSpec{Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sh.Close(true) })
	return sh
}

func shellRun(t *testing.T, sh *Shell, r RunSpec) RunResult {
	t.Helper()
	if r.Timeout == 0 {
		r.Timeout = 10 * time.Second
	}
	res, err := sh.Run(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestShellStateAndExitCodes(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	sh := openShell(t, e)
	dir := t.TempDir()
	if res := shellRun(t, sh, RunSpec{Command: "cd " + dir + " && X=42"}); res.ExitCode == nil || *res.ExitCode != 0 || res.Output != "" {
		t.Fatalf("cd: %+v", res)
	}
	res := shellRun(t, sh, RunSpec{Command: `echo "$X in $(pwd)"`})
	if res.Output != "42 in "+dir+"\n" || *res.ExitCode != 0 || !res.PromptAfter {
		t.Fatalf("state did not persist: %+v", res)
	}
	if res := shellRun(t, sh, RunSpec{Command: "false"}); *res.ExitCode != 1 {
		t.Fatalf("false: %+v", res)
	}
	if res := shellRun(t, sh, RunSpec{Command: "(exit 7)"}); *res.ExitCode != 7 {
		t.Fatalf("exit 7: %+v", res)
	}
}

func TestShellTimeoutThenCtrlC(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	sh := openShell(t, e)
	res := shellRun(t, sh, RunSpec{Command: "echo started; sleep 600", Timeout: 300 * time.Millisecond})
	if !res.TimedOut || res.ExitCode != nil || !strings.Contains(res.Output, "started") {
		t.Fatalf("timeout: %+v", res)
	}
	res = shellRun(t, sh, RunSpec{Keys: []string{"ctrl+c"}})
	if res.ExitCode == nil || *res.ExitCode != 130 {
		t.Fatalf("ctrl+c: %+v", res)
	}
	if res := shellRun(t, sh, RunSpec{Command: "echo alive"}); res.Output != "alive\n" {
		t.Fatalf("after ctrl+c: %+v", res)
	}
}

func TestShellExpectAndReadOnly(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	sh := openShell(t, e)
	res := shellRun(t, sh, RunSpec{Command: `read -p "name? " n; echo "hi $n"`, Expect: regexp.MustCompile(`name\? $`)})
	if !res.MatchedExpect || res.ExitCode != nil {
		t.Fatalf("expect: %+v", res)
	}
	res = shellRun(t, sh, RunSpec{Command: "bob"})
	if res.Output != "hi bob\n" || *res.ExitCode != 0 {
		t.Fatalf("answer: %+v", res)
	}
	if res := shellRun(t, sh, RunSpec{ReadOnly: true}); res.Output != "" {
		t.Fatalf("a second read returned old output: %+v", res)
	}
}

// The rendered screen shows a full-screen program as a person sees it.
func TestShellScreen(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	sh := openShell(t, e)
	file := filepath.Join(t.TempDir(), "lines.txt")
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		b.WriteString(strings.Repeat("x", i%7) + " line " + strconv.Itoa(i) + "\n")
	}
	os.WriteFile(file, []byte(b.String()), 0o600)
	res := shellRun(t, sh, RunSpec{Command: "less +5 " + file, Expect: regexp.MustCompile(` line 5\r`)})
	if !res.MatchedExpect {
		t.Fatalf("less did not start: %+v", res)
	}
	// less draws its prompt last: look at the screen until it is there.
	var lines []string
	testkit.WaitUntil(t, 10*time.Second, "less's prompt", func() bool {
		snap, err := sh.Job.Screen()
		if err != nil {
			t.Fatal(err)
		}
		lines = strings.Split(snap.Text(), "\n")
		return strings.Contains(lines[len(lines)-1], "lines.txt")
	})
	if !strings.HasSuffix(lines[0], " line 5") {
		t.Fatalf("want line 5 on top:\n%s", strings.Join(lines, "\n"))
	}
	if res := shellRun(t, sh, RunSpec{Keys: []string{"q"}}); res.ExitCode == nil {
		t.Fatalf("q did not return to the prompt: %+v", res)
	}
}

func TestShellClose(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	sh := openShell(t, e)
	code, _, already := sh.Close(false)
	if already || code != 0 {
		t.Fatalf("close: code %d already %v", code, already)
	}
	if _, _, already := sh.Close(false); !already {
		t.Fatal("second close did not say already closed")
	}
	if _, err := e.Shell(sh.Job.ID); err == nil {
		t.Fatal("a closed shell is still listed")
	}
}

// What is typed into a shell passes the gate, line by line.
func TestShellGate(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{Gate: func(_ context.Context, r GateRequest) Verdict {
		if strings.Contains(r.Command, "forbidden") {
			return Verdict{Deny: "a deny rule matches"}
		}
		return Verdict{}
	}})
	sh := openShell(t, e)
	_, err := sh.Run(t.Context(), RunSpec{Command: "echo fine\necho forbidden", Timeout: 5 * time.Second})
	if !errors.Is(err, ErrDenied) {
		t.Fatalf("denied line: %v", err)
	}
	if res := shellRun(t, sh, RunSpec{Command: "echo fine"}); res.Output != "fine\n" {
		t.Fatalf("allowed line: %+v", res)
	}
	// A line typed in parts is checked whole: each part joins what came
	// before it on the line, raw or not.
	shellRun(t, sh, RunSpec{Command: "echo forb", RawSend: true})
	for _, r := range []RunSpec{{Command: "idden", RawSend: true}, {Command: "idden"}, {Command: "x; echo forbidden\r", RawSend: true}} {
		r.Timeout = 5 * time.Second
		if _, err := sh.Run(t.Context(), r); !errors.Is(err, ErrDenied) {
			t.Fatalf("%+v after a raw \"echo forb\": %v", r, err)
		}
	}
	// The line ends in a command call, which waits for the prompt.
	if res := shellRun(t, sh, RunSpec{Command: "den"}); res.Output != "forbden\n" || res.ExitCode == nil || *res.ExitCode != 0 {
		t.Fatalf("the line typed in parts: %+v", res)
	}
	// Enter ended that line: the next one starts afresh.
	if res := shellRun(t, sh, RunSpec{Command: "idden-alone"}); res.ExitCode == nil || *res.ExitCode != 127 {
		t.Fatalf("a new line: %+v", res)
	}
}

// A shell in use is never reaped as idle; one left unused is.
func TestShellIdleReaping(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Config{})
	// The limit leaves a loaded machine a second between uses.
	sh, err := e.OpenShell(t.Context(), ShellSpec{Cols: 80, Rows: 24, Idle: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sh.Close(true) })
	for range 2 { // each use longer than the idle limit, back to back
		if res := shellRun(t, sh, RunSpec{Command: "sleep 1.3; echo still-here"}); res.Output != "still-here\n" {
			t.Fatalf("a shell in use was closed: %+v", res)
		}
	}
	wait(t, sh.Job, 10*time.Second)
	if _, err := sh.Run(t.Context(), RunSpec{Command: "true"}); err == nil || !strings.Contains(err.Error(), "has ended") {
		t.Fatalf("run on a reaped shell: %v", err)
	}
	if st, _, _ := sh.Job.Exit(); st != Killed {
		t.Fatalf("reaped shell status %v", st)
	}
}
