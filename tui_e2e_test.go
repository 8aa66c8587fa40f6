package main

// End-to-end tests of the terminal UI: the real binary runs on a PTY, its
// screen is read through tend's own emulator, and keys are typed into it, as
// a person in a terminal would.

import (
	"crypto/rand"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"tend/vterm"
)

// screen is a tend TUI running on a PTY of its own.
type screen struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	term *vterm.Term
	mu   sync.Mutex // serialises writes to the PTY (keys and terminal replies)
	done chan struct{}
}

func startTUI(t *testing.T, state string, args ...string) *screen {
	t.Helper()
	cmd := exec.Command(tendBin, append([]string{"ui", "--state-dir", state, "--grace", "300ms"}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 160, Rows: 45})
	if err != nil {
		t.Fatal(err)
	}
	s := &screen{t: t, cmd: cmd, ptmx: ptmx, done: make(chan struct{})}
	s.term = vterm.New(160, 45, vterm.WithReplies(func(b []byte) { s.write(b) }))
	go func() {
		io.Copy(s.term, ptmx) // ends with EIO when tend exits
		close(s.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		cmd.Wait()
		ptmx.Close()
	})
	return s
}

func (s *screen) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ptmx.Write(b)
}

// keys types text; names in angle brackets are keys: "<enter>", "<ctrl+b>".
func (s *screen) keys(in ...string) {
	s.t.Helper()
	for _, k := range in {
		if strings.HasPrefix(k, "<") && strings.HasSuffix(k, ">") {
			key, err := vterm.ParseKey(k[1 : len(k)-1])
			if err != nil {
				s.t.Fatal(err)
			}
			s.write(vterm.EncodeKey(key, vterm.Modes{}))
			continue
		}
		s.write([]byte(k))
	}
}

// waitFor polls the screen until it shows want, and returns it.
func (s *screen) waitFor(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		text := s.term.Snapshot().Text()
		if strings.Contains(text, want) {
			return text
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q; it shows:\n%s", want, text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// attach presses enter until the selected job is attached. Under the race
// detector a first enter is sometimes not taken (the UI is still settling
// its selection); a person would press it again, and so does this.
func (s *screen) attach() {
	s.t.Helper()
	for try := 1; try <= 5; try++ {
		s.keys("<enter>")
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(s.term.Snapshot().Text(), "ctrl+b detaches") {
				if try > 1 {
					s.t.Logf("attached on enter number %d", try)
				}
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	s.t.Fatalf("enter never attached:\n%s", s.term.Snapshot().Text())
}

// waitGone polls the screen until it no longer shows what.
func (s *screen) waitGone(what string) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for strings.Contains(s.term.Snapshot().Text(), what) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen still shows %q:\n%s", what, s.term.Snapshot().Text())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A person runs a command from the UI, sees its output, answers its prompt
// by typing into it, and kills another job by keys: its whole tree is gone.
func TestTUIPersonRunsAnswersAndKills(t *testing.T) {
	t.Parallel()
	s := startTUI(t, t.TempDir())
	s.waitFor("Jobs")

	s.keys(":", `read -p "your name? " n; echo "hello $n"`, "<enter>")
	s.waitFor("your name?")
	s.attach()
	s.keys("bob", "<enter>")
	s.waitFor("hello bob")
	s.keys("<ctrl+b>") // detach
	s.waitGone("ctrl+b detaches")

	mark := rand.Text()
	s.keys(":", "E2E_MARK="+mark+" bash -c 'trap \"\" TERM; sleep 600 & sleep 600'", "<enter>")
	waitCount(t, mark, 2)
	s.keys("x")
	s.waitFor("y/n")
	s.keys("y")
	waitNone(t, mark)
}

// Closing the terminal (SIGHUP to tend) ends every job tree.
func TestTUIHangupEndsJobs(t *testing.T) {
	t.Parallel()
	s := startTUI(t, t.TempDir())
	s.waitFor("Jobs")
	mark := rand.Text()
	s.keys(":", "E2E_MARK="+mark+" setsid bash -c 'trap \"\" TERM HUP; sleep 600' & E2E_MARK="+mark+" sleep 600", "<enter>")
	waitCount(t, mark, 2)
	s.cmd.Process.Signal(syscall.SIGHUP)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		t.Fatal("tend did not exit on SIGHUP")
	}
	waitNone(t, mark)
}
