package engine

import (
	"errors"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// pipeSize is the capacity asked for each output pipe, and the largest read.
const pipeSize = 1 << 20

// reader is the engine's one loop over the output of every running job
// (stdout and stderr, one pipe for both, or a PTY's master). One reader per
// job is what keeps the merged view in order: epoll reports descriptors in
// the order they became readable, so a line on stderr written after one on
// stdout is taken after it, where two readers raced each other into the
// merged index. The loop is always waiting when a job starts, so a job's
// first lines are not left to pile up while a new goroutine is scheduled.
// Writes closer together than the loop wakes (no gap at all between them)
// can still be taken together, one stream first; merge_stderr gives exact
// order.
type reader struct {
	ep   int // epoll instance over every watched descriptor and wake
	wake int // an eventfd: written when the engine closes

	mu      sync.Mutex
	watches map[int32]*watch // by the key epoll reports
	next    int32
	done    chan struct{} // the loop has returned
}

// watch is one descriptor of a job being read.
type watch struct {
	out  *output
	key  int32
	fd   int // -1 once at its end, or stopped
	name Stream
	off  int64
	seam seam // a PTY query split between two reads
}

// output is a job's side of the reader: its descriptors, and done, closed
// once every one of them is at its end or the job's output was stopped.
type output struct {
	r       *reader
	j       *Job
	mu      sync.Mutex // held while one of the job's descriptors is read or closed
	watches []*watch
	open    int
	done    chan struct{}
}

func newReader() (r *reader, err error) {
	r = &reader{ep: -1, wake: -1, watches: map[int32]*watch{}, done: make(chan struct{})}
	if r.ep, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return nil, err
	}
	if r.wake, err = unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK); err != nil {
		unix.Close(r.ep)
		return nil, err
	}
	if err = unix.EpollCtl(r.ep, unix.EPOLL_CTL_ADD, r.wake, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: -1}); err != nil {
		unix.Close(r.ep)
		unix.Close(r.wake)
		return nil, err
	}
	return r, nil
}

// event is how a descriptor is watched: for one report at a time, re-armed
// after each read. A level-triggered descriptor would stay in the kernel's
// ready list at the place of its first report, so a later write to it could
// be reported before an earlier one on the other pipe; re-armed, it takes
// its place when it next becomes readable (or at once, if it still is).
func event(key int32) *unix.EpollEvent {
	return &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLONESHOT, Fd: key}
}

// watch starts reading fds (non-blocking read ends, which the reader now
// owns; names[i] is the stream of fds[i]) into j's streams. On error the
// fds are closed.
func (r *reader) watch(j *Job, fds []int, names []Stream) (*output, error) {
	o := &output{r: r, j: j, open: len(fds), done: make(chan struct{})}
	r.mu.Lock()
	for i, fd := range fds {
		r.next++
		w := &watch{out: o, key: r.next, fd: fd, name: names[i]}
		o.watches = append(o.watches, w)
		r.watches[w.key] = w
	}
	r.mu.Unlock()
	var err error
	o.mu.Lock() // the loop may take the first before the last is added
	for _, w := range o.watches {
		if err = unix.EpollCtl(r.ep, unix.EPOLL_CTL_ADD, w.fd, event(w.key)); err != nil {
			break
		}
	}
	o.mu.Unlock()
	if err != nil {
		o.stop()
		return nil, err
	}
	return o, nil
}

// close ends the loop, once every job's output is done.
func (r *reader) close() {
	one := [8]byte{1}
	unix.Write(r.wake, one[:])
	<-r.done
	unix.Close(r.ep)
	unix.Close(r.wake)
}

// run is the loop. Its buffer starts small and doubles, up to pipeSize,
// each time a read fills it: a job printing much is read in big gulps.
func (r *reader) run() {
	defer close(r.done)
	buf := make([]byte, 4<<10)
	events := make([]unix.EpollEvent, 64)
	for {
		n, err := unix.EpollWait(r.ep, events, -1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return // EBADF, EINVAL: the instance itself is broken
		}
		for _, ev := range events[:n] {
			if ev.Fd < 0 {
				return
			}
			r.mu.Lock()
			w := r.watches[ev.Fd]
			r.mu.Unlock()
			if w == nil {
				continue // stopped since it was reported
			}
			o := w.out
			o.mu.Lock()
			if w.fd >= 0 {
				k, end := o.take(w, buf)
				if end {
					o.closeWatch(w)
				} else {
					unix.EpollCtl(r.ep, unix.EPOLL_CTL_MOD, w.fd, event(w.key))
				}
				if k == len(buf) && len(buf) < pipeSize {
					buf = make([]byte, 2*len(buf))
				}
			}
			o.mu.Unlock()
		}
	}
}

// take reads once from w into the job's streams, never waiting on their
// readers: how much, and whether w is at its end. The caller holds o.mu.
func (o *output) take(w *watch, buf []byte) (int, bool) {
	n, err := unix.Read(w.fd, buf)
	if n <= 0 {
		// EAGAIN: nothing now. EIO: a PTY whose terminal side is closed,
		// its end of file.
		return 0, !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EINTR)
	}
	// A terminal gives a few KiB a read. A job's one descriptor (a PTY, or
	// stdout and stderr on one pipe) is read on while more waits, so that a
	// flood takes one log write, one ring and one wake-up a gulp; with two,
	// each read must wait its turn in epoll's order.
	for len(o.watches) == 1 && n < len(buf) {
		k, _ := unix.Read(w.fd, buf[n:])
		if k <= 0 {
			break // EAGAIN, or the end, which the next round finds
		}
		n += k
	}
	j := o.j
	j.streams[w.name].(*stream).Write(buf[:n])
	if m, ok := j.streams[Merged].(*interleave); ok {
		src := uint8(srcStdout)
		if w.name == Stderr {
			src = srcStderr
		}
		m.add(src, w.off, n)
	}
	if j.pty && (w.seam.asks(buf[:n]) || asksTerminal(buf[:n])) {
		j.want() // the program waits for the terminal's answer
	}
	w.off += int64(n)
	j.lastOut.Store(time.Now().UnixNano())
	j.e.ring()
	return n, false
}

// closeWatch stops reading w; the caller holds o.mu.
func (o *output) closeWatch(w *watch) {
	unix.EpollCtl(o.r.ep, unix.EPOLL_CTL_DEL, w.fd, nil)
	unix.Close(w.fd)
	w.fd = -1
	o.r.mu.Lock()
	delete(o.r.watches, w.key)
	o.r.mu.Unlock()
	if o.open--; o.open == 0 {
		close(o.done)
	}
}

// stop takes what the job's descriptors hold now and closes them: a
// process outside the job keeps one open, and waiting longer is pointless.
func (o *output) stop() {
	o.mu.Lock()
	defer o.mu.Unlock()
	var buf []byte
	for _, w := range o.watches {
		if w.fd < 0 {
			continue
		}
		if buf == nil {
			buf = make([]byte, 64<<10)
		}
		for got := 0; got < pipeSize; {
			k, end := o.take(w, buf)
			if k == 0 || end {
				break
			}
			got += k
		}
		o.closeWatch(w)
	}
}
