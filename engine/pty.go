package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// PTY defaults and limits.
const (
	DefaultCols = 120
	DefaultRows = 40
	maxCanon    = 4095 // bytes of one line a canonical-mode terminal keeps (RELIABILITY V16)
	maxSize     = 1000
)

// Sentinel errors of PTY jobs.
var (
	ErrNotPTY = errors.New("not a PTY job")
	// ErrLineTooLong refuses input a canonical-mode terminal would cut.
	ErrLineTooLong = fmt.Errorf("a line longer than %d bytes would be cut by the terminal (canonical mode keeps %d bytes of a line): send it in shorter lines or through a file", maxCanon, maxCanon)
)

// ptyIO gives the job a pseudo-terminal: the child gets the terminal as its
// stdin, stdout, stderr and controlling terminal, in its own session.
func (j *Job) ptyIO(cmd *exec.Cmd, spec Spec) (io jobIO, err error) {
	cols, rows := spec.Cols, spec.Rows
	if cols == 0 {
		cols = DefaultCols
	}
	if rows == 0 {
		rows = DefaultRows
	}
	if err := checkSize(cols, rows); err != nil {
		return io, err
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		return io, fmt.Errorf("open a pty: %w", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		ptmx.Close()
		tty.Close()
		return io, fmt.Errorf("size the pty: %w", err)
	}
	// Input goes through its own descriptor, so closing it (the job ended)
	// never closes the master the output is read from.
	w, err := dup(ptmx)
	if err != nil {
		ptmx.Close()
		tty.Close()
		return io, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	cmd.Env = append(cmd.Env, "TERM=xterm-256color")
	j.pty, j.ptmx = true, ptmx
	j.streams[Stdout] = newStream(filepath.Join(j.dir, "pty.log"), j.e.cfg.LogCap)
	j.in = newInputQueue(w)
	if len(spec.Stdin) > 0 {
		j.Input(spec.Stdin)
	}
	return jobIO{readers: []*os.File{ptmx}, names: []string{Stdout}, childEnds: []*os.File{tty}}, nil
}

func dup(f *os.File) (*os.File, error) {
	var fd int
	var derr error
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	rc.Control(func(old uintptr) { fd, derr = unix.FcntlInt(old, unix.F_DUPFD_CLOEXEC, 0) })
	if derr != nil {
		return nil, fmt.Errorf("dup the pty: %w", derr)
	}
	unix.SetNonblock(fd, true)
	return os.NewFile(uintptr(fd), f.Name()), nil
}

func checkSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > maxSize || rows > maxSize {
		return fmt.Errorf("terminal size %d×%d is out of range (1 to %d each)", cols, rows, maxSize)
	}
	return nil
}

// IsPTY reports whether the job runs on a pseudo-terminal.
func (j *Job) IsPTY() bool { return j.pty }

// Resize changes a PTY job's terminal size; the kernel tells the job with
// SIGWINCH.
func (j *Job) Resize(cols, rows int) error {
	if !j.pty {
		return fmt.Errorf("job %s: %w: only PTY jobs can be resized", j.ID, ErrNotPTY)
	}
	if err := checkSize(cols, rows); err != nil {
		return err
	}
	if j.Done() {
		return fmt.Errorf("job %s: %w", j.ID, ErrNotRunning)
	}
	j.sizeMu.Lock()
	defer j.sizeMu.Unlock()
	if err := pty.Setsize(j.ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		return fmt.Errorf("resize job %s: %w", j.ID, err)
	}
	return nil
}

// checkCanonical refuses input with a line the terminal would cut, when the
// terminal is in canonical (line-editing) mode.
func (j *Job) checkCanonical(data []byte) error {
	rc, err := j.ptmx.SyscallConn()
	if err != nil {
		return nil
	}
	var t *unix.Termios
	rc.Control(func(fd uintptr) { t, err = unix.IoctlGetTermios(int(fd), unix.TCGETS) })
	if err != nil || t.Lflag&unix.ICANON == 0 {
		return nil
	}
	for line := range bytes.FieldsFuncSeq(data, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if len(line) > maxCanon {
			return ErrLineTooLong
		}
	}
	return nil
}
