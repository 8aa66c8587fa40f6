package engine

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"tend/vterm"
)

// PTY defaults and limits.
const (
	DefaultCols = 120
	DefaultRows = 40
	maxCanon    = 4095 // bytes of one line a canonical-mode terminal keeps (RELIABILITY V16)
	maxSize     = 1000
	scrollback  = 20000 // lines of a PTY job's screen kept after they scroll off
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
	j.pty, j.ptmx, j.cols, j.rows = true, ptmx, cols, rows
	j.streams[Stdout] = newStream(filepath.Join(j.dir, "pty.log"), j.e.cfg.LogCap)
	j.in = newInputQueue(w)
	// The terminal answers the program's queries (cursor position, device
	// attributes) through the job's input, as a real terminal would.
	j.term = vterm.New(cols, rows, vterm.WithScrollback(scrollback), vterm.WithReplies(func(b []byte) { j.in.Write(b) }))
	j.termOnce.Do(func() {})
	if len(spec.Stdin) > 0 {
		j.in.Write(spec.Stdin) // fits, and no line is cut: checkStdin
	}
	// So is the output read, by the job's output loop.
	fd, err := dupFD(ptmx)
	if err == nil {
		io.out, err = j.e.out.watch(j, []int{fd}, []Stream{Stdout})
	}
	if err != nil {
		ptmx.Close()
		tty.Close()
		j.in.Abort() // closes w
		return io, err
	}
	io.master, io.childEnds = ptmx, []*os.File{tty}
	return io, nil
}

func dup(f *os.File) (*os.File, error) {
	fd, err := dupFD(f)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}

// dupFD gives a non-blocking, close-on-exec copy of f's descriptor.
func dupFD(f *os.File) (int, error) {
	fd := -1
	var derr error
	rc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	rc.Control(func(old uintptr) { fd, derr = unix.FcntlInt(old, unix.F_DUPFD_CLOEXEC, 0) })
	if derr != nil {
		return -1, fmt.Errorf("dup the pty: %w", derr)
	}
	unix.SetNonblock(fd, true)
	return fd, nil
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
	if err := j.term.Resize(cols, rows); err != nil {
		return err
	}
	// Through the file's own descriptor, held for the call: the job ending
	// may close the terminal at any moment (its number then being free to
	// name another file).
	rc, err := j.ptmx.SyscallConn()
	if err != nil {
		return fmt.Errorf("resize job %s: %w", j.ID, err)
	}
	if cerr := rc.Control(func(fd uintptr) {
		err = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)})
	}); cerr != nil {
		return fmt.Errorf("job %s: %w", j.ID, ErrNotRunning)
	}
	if err != nil {
		return fmt.Errorf("resize job %s: %w", j.ID, err)
	}
	j.mu.Lock()
	j.cols, j.rows = cols, rows
	j.mu.Unlock()
	return nil
}

// checkCanonical refuses input with a line the terminal would cut, when the
// terminal is in canonical (line-editing) mode.
func (j *Job) checkCanonical(data []byte) error {
	if len(data) <= maxCanon {
		return nil // no line in it can be too long: spare the ioctl (a key press)
	}
	rc, err := j.ptmx.SyscallConn()
	if err != nil {
		return nil
	}
	var t *unix.Termios
	rc.Control(func(fd uintptr) { t, err = unix.IoctlGetTermios(int(fd), unix.TCGETS) })
	if err != nil || t.Lflag&unix.ICANON == 0 {
		return nil
	}
	return checkLines(data)
}

// checkLines refuses data with a line longer than a canonical-mode terminal
// keeps.
func checkLines(data []byte) error {
	for line := range bytes.FieldsFuncSeq(data, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if len(line) > maxCanon {
			return ErrLineTooLong
		}
	}
	return nil
}

// checkStdin refuses a call's stdin that would not arrive whole: more than
// the input queue holds, or (a new terminal being in canonical mode) a line
// the terminal would cut.
func checkStdin(spec Spec) error {
	if len(spec.Stdin) > inputCap {
		return fmt.Errorf("stdin of %d bytes is over the %d-byte limit: write it to a file and redirect from it", len(spec.Stdin), inputCap)
	}
	if spec.PTY {
		return checkLines(spec.Stdin)
	}
	return nil
}

// wantFor is how long the emulator keeps up with a job after the last
// look at its screen (or a terminal query from it).
const wantFor = 5 * time.Second

// want keeps the emulator running for a while: someone is looking at the
// screen, or the program asked the terminal something and waits for the
// answer. Nobody looking, a flooding job costs no emulation at all; the
// screen catches up from the log when someone looks.
func (j *Job) want() {
	j.wanted.Store(time.Now().Add(wantFor).UnixNano())
	if j.emulating.CompareAndSwap(false, true) {
		go j.emulate(j.streams[Stdout])
	}
}

// emulate feeds the job's terminal output into its screen on a goroutine of
// its own, from where it left off: the job's output reaches the ring and the
// log at full speed, and the emulator catches up behind it (docs/ARCHITECTURE.md §3.2).
func (j *Job) emulate(s source) {
	const chunk = 256 << 10
	runtime.LockOSThread() // not unlocked: the thread ends with the goroutine, its niceness with it
	_ = unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), emulateNice)
	off := j.termAt.get()
	var woke time.Time
	for {
		end, closed, changed := s.state()
		if end-off > behindMost {
			off = j.skipTo(s, end-behindKeep)
		}
		for off < end {
			c := s.ReadAt(off, chunk)
			if len(c.Data) == 0 && c.Dropped == 0 {
				break
			}
			j.term.Write(c.Data)
			off = c.Next
			j.termAt.set(off)
		}
		j.e.ring()
		if closed && off >= end {
			j.emulating.Store(false)
			return
		}
		left := time.Until(time.Unix(0, j.wanted.Load()))
		if left <= 0 {
			j.emulating.Store(false)
			// A want that came in just now must not be lost.
			if time.Until(time.Unix(0, j.wanted.Load())) > 0 && j.emulating.CompareAndSwap(false, true) {
				continue
			}
			return
		}
		select {
		case <-changed:
			// A flooding job wakes the emulator for every write; reading
			// at that pace alone costs the job a fifth of its speed. Wake-
			// ups that close together are taken in one batch; a keystroke's
			// echo, long after the last, is not held back.
			if time.Since(woke) < emulatePace {
				time.Sleep(emulatePace)
			}
			woke = time.Now()
		case <-time.After(left):
		}
	}
}

// A job can print far faster than the emulator reads some output (lines of
// wide characters go through vt10x at a few MB/s, a flood of them at a
// hundred). So far behind that catching up would take many seconds, and
// keep a core busy long after the job ended, the screen skips to the
// output's tail, as a terminal attached late would: it is drawn from the
// last behindKeep bytes, from a line's start. The log keeps all of it.
const (
	behindMost = 64 << 20
	behindKeep = 4 << 20
)

// skipTo is the offset of the first line that starts at or after from, to
// feed the emulator from; the screen's parser forgets a sequence cut off
// (CAN), and the job's note says what the screen skipped.
func (j *Job) skipTo(s source, from int64) int64 {
	c := s.ReadAt(from, 64<<10)
	off := c.Offset
	if i := bytes.IndexByte(c.Data, '\n'); i >= 0 {
		off += int64(i) + 1
	}
	j.term.Write([]byte{0x18})
	j.setNote("its screen skipped output it could not keep up with; the log has it all")
	return off
}

// emulateNice is the emulator thread's niceness: where a job and its screen
// compete for the CPU, the job comes first.
const emulateNice = 10

// emulatePace is the shortest time between two wake-ups of the emulator
// while output keeps coming: well under a frame.
const emulatePace = 4 * time.Millisecond

// Screen returns the job's rendered terminal screen once the emulator has
// caught up with the output printed so far (or after a short wait). Finished
// PTY jobs from history are rendered from their log.
func (j *Job) Screen() (*vterm.Snapshot, error) {
	if err := j.catchUp(); err != nil {
		return nil, err
	}
	return j.term.Snapshot(), nil
}

// Scrollback returns the lines that scrolled off the top of a PTY job's
// screen, oldest first (the last 20 000), and the screen below them, taken
// at the same moment, once the emulator has caught up as for [Job.Screen].
func (j *Job) Scrollback() ([]vterm.Line, *vterm.Snapshot, error) {
	if err := j.catchUp(); err != nil {
		return nil, nil, err
	}
	lines, snap := j.term.History()
	return lines, snap, nil
}

// catchUp makes sure a PTY job has a screen (a job from history gets one,
// fed from its log) and waits, up to 2 s, until it shows all the output
// printed so far.
func (j *Job) catchUp() error {
	if !j.pty {
		return fmt.Errorf("job %s: %w: only PTY jobs have a screen", j.ID, ErrNotPTY)
	}
	j.termOnce.Do(func() {
		if j.term == nil { // history: replay the log
			j.term = vterm.New(cmp.Or(j.cols, DefaultCols), cmp.Or(j.rows, DefaultRows), vterm.WithScrollback(scrollback))
		}
	})
	j.want()
	j.termAt.wait(j.streams[Stdout].Len(), 2*time.Second)
	return nil
}

// progress is an offset that goroutines can wait to reach.
type progress struct {
	mu    sync.Mutex
	off   int64
	moved chan struct{}
}

func (p *progress) get() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.off
}

func (p *progress) set(off int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.off = off
	if p.moved != nil {
		close(p.moved)
		p.moved = nil
	}
}

// wait returns once the offset reaches target, or after d.
func (p *progress) wait(target int64, d time.Duration) {
	timeout := time.After(d)
	for {
		p.mu.Lock()
		if p.off >= target {
			p.mu.Unlock()
			return
		}
		if p.moved == nil {
			p.moved = make(chan struct{})
		}
		ch := p.moved
		p.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
			return
		}
	}
}

// queries are what programs ask a terminal and wait for the answer to:
// device attributes and status / cursor position reports.
var queries = [][]byte{[]byte("\x1b[c"), []byte("\x1b[0c"), []byte("\x1b[>c"), []byte("\x1b[>0c"), []byte("\x1b[5n"), []byte("\x1b[6n"), []byte("\x1b[?6n")}

// asksTerminal reports whether output holds a query the emulator must
// answer. It runs on every read of a PTY job's output, so it looks at each
// escape once, and at no more of it than tells a query from the rest (a
// coloured log has an SGR every dozen bytes).
func asksTerminal(b []byte) bool {
	for i := bytes.IndexByte(b, 0x1b); i >= 0; {
		if isQuery(b[i:]) {
			return true
		}
		j := bytes.IndexByte(b[i+1:], 0x1b)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// isQuery reports whether q starts with one of queries.
func isQuery(q []byte) bool {
	at := func(i int) byte {
		if i < len(q) {
			return q[i]
		}
		return 0
	}
	if at(1) != '[' {
		return false
	}
	switch at(2) {
	case 'c':
		return true
	case '0':
		return at(3) == 'c'
	case '>':
		return at(3) == 'c' || at(3) == '0' && at(4) == 'c'
	case '5', '6':
		return at(3) == 'n'
	case '?':
		return at(3) == '6' && at(4) == 'n'
	}
	return false
}

// maxQuery is the length of the longest query.
const maxQuery = 5

// seam is the end of a PTY job's output so far, to find a query split
// between two reads.
type seam struct {
	b [maxQuery - 1]byte
	n int
}

// asks reports whether a query starts in the output before next and ends in
// next; it then keeps the end of next.
func (s *seam) asks(next []byte) bool {
	var both [2 * (maxQuery - 1)]byte
	k := copy(both[:], s.b[:s.n])
	k += copy(both[k:], next)
	if len(next) >= len(s.b) {
		s.n = copy(s.b[:], next[len(next)-len(s.b):])
	} else {
		s.n = copy(s.b[:], both[max(k-len(s.b), 0):k])
	}
	return asksTerminal(both[:k])
}
