package engine

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// RingSize is the in-memory window kept per running stream. Older offsets are
// served from the stream's log file, so a reader can page through every byte a
// job ever printed without the engine holding it all in memory.
const RingSize = 1 << 20

// punchChunk is how much of a log's head is released at a time once the log
// is over its cap, so capping costs one fallocate per chunk, not per write.
const punchChunk = 16 << 20

// diskReserve is the free space a log leaves on its file system: past it a
// job's log stops, so that tend's own records (a job's metadata, the audit
// log) still fit when a job fills the disk. checkEvery is how often a log
// looks.
const (
	diskReserve = 8 << 20
	checkEvery  = 1 << 20
)

// stream is one output channel of a job (stdout, stderr, merged or a PTY's).
// Offsets are absolute: the log file's offset of a byte equals its stream
// offset, even after the head of the log has been released.
type stream struct {
	mu      sync.Mutex
	ring    []byte // circular once full (RingSize); grows until then; nil once finished
	end     int64  // total bytes written; the next write's offset
	first   int64  // first offset still readable (older ones were dropped by the cap)
	path    string
	log     *os.File // the writer's descriptor: made on the first write, nil once closed
	logCap  int64
	logEnd  int64 // bytes safely in the log; less than end after a write error
	logErr  error // first log write error, reported once to readers
	checked int64 // end at the last look at the free space
	closed  bool  // no more writes: reads at end are EOF
	changed chan struct{}
}

// newStream makes a stream whose log will be path. The log file and the
// ring are made when the first bytes arrive: most commands print little or
// nothing on one of their streams, and creating files is not free.
func newStream(path string, logCap int64) *stream {
	return &stream{path: path, ring: []byte{}, logCap: logCap, changed: make(chan struct{})}
}

// openStream opens the log of a finished job (history) for reading; a
// missing log is a stream that never printed.
func openStream(path string) (*stream, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return &stream{path: path, closed: true, changed: make(chan struct{})}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return &stream{path: path, end: st.Size(), logEnd: st.Size(), first: firstData(f, st.Size()), closed: true, changed: make(chan struct{})}, nil
}

// firstData finds the first byte not in a punched hole, so a reopened capped
// log reports its dropped head instead of returning zeros.
func firstData(f *os.File, size int64) int64 {
	off, err := unix.Seek(int(f.Fd()), 0, unix.SEEK_DATA)
	if err != nil || off > size {
		return size
	}
	return off
}

// Write appends p. It never blocks on readers: the child producing the
// output must never wait for anyone watching it.
func (s *stream) Write(p []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if s.log == nil && s.logErr == nil {
		s.log, s.logErr = openLog(s.path)
	}
	if s.logErr == nil && s.end-s.checked >= checkEvery {
		s.checked = s.end
		var fs unix.Statfs_t
		if unix.Statfs(filepath.Dir(s.path), &fs) == nil && int64(fs.Bavail)*fs.Bsize < diskReserve {
			s.logErr = fmt.Errorf("the disk is nearly full (%d MiB free): the log stopped at offset %d, keeping room for tend's own records", int64(fs.Bavail)*fs.Bsize>>20, s.end)
		}
	}
	if s.logErr == nil {
		if _, err := s.log.WriteAt(p, s.end); err != nil {
			s.logErr = fmt.Errorf("log write failed at offset %d: %w", s.end, err)
		} else {
			s.logEnd = s.end + int64(len(p))
		}
	}
	s.writeRing(p)
	s.end += int64(len(p))
	if s.logErr == nil && s.logCap > 0 && s.end-s.first > s.logCap+punchChunk {
		s.dropHead(s.end - s.logCap)
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

// openLog creates a stream's log. The job can reach its own job dir, and
// could put a FIFO or a device where its log goes: opened non-blocking and
// checked to be a regular file, such a thing is refused at once instead of
// stopping the reader of every job's output on an open that never returns.
func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, fmt.Errorf("log could not be created: %w", err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("log could not be created: %s is not a regular file", path)
	}
	if err := emptyFile(f, st.Size()); err != nil {
		f.Close()
		return nil, fmt.Errorf("log could not be created: %w", err)
	}
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { unix.SetNonblock(int(fd), false) })
	}
	return f, nil
}

// emptyFile empties f, of size bytes, for a log. The log's file is made
// empty ahead of the job (makeSpares), and is then left as it is: on ext4
// a truncation to zero, even of an empty file, makes the file's next close
// write its data out at once (auto_da_alloc), and that close comes as the
// job ends, on the way to the exec's reply (about 20-60 µs).
func emptyFile(f *os.File, size int64) error {
	if size == 0 {
		return nil
	}
	return f.Truncate(0)
}

func (s *stream) writeRing(p []byte) {
	if need := s.end + int64(len(p)); need > int64(len(s.ring)) && len(s.ring) < RingSize {
		// Still linear (nothing has wrapped): grow, keeping positions.
		n := max(4096, 2*len(s.ring))
		for int64(n) < need && n < RingSize {
			n *= 2
		}
		grown := make([]byte, min(n, RingSize))
		copy(grown, s.ring)
		s.ring = grown
	}
	at := s.end // absolute offset of p[0]
	if len(p) > len(s.ring) {
		at += int64(len(p) - len(s.ring))
		p = p[len(p)-len(s.ring):]
	}
	pos := int(at % int64(len(s.ring)))
	n := copy(s.ring[pos:], p)
	copy(s.ring, p[n:])
}

// dropHead releases the log below off (rounded down to a chunk), keeping the
// file's offsets intact by punching a hole.
func (s *stream) dropHead(off int64) {
	off -= off % punchChunk
	if off <= s.first {
		return
	}
	err := unix.Fallocate(int(s.log.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, 0, off)
	if err != nil {
		// Without hole punching the cap cannot hold: stop logging rather than
		// fill the disk, and say so to readers.
		s.logErr = fmt.Errorf("log cap reached at offset %d and the file system cannot release space: %w", s.end, err)
		return
	}
	s.first = off
}

// Close marks the stream finished, closes its log for writing and releases
// its ring; later reads come from the log.
func (s *stream) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	if s.log != nil {
		s.log.Close()
		s.log = nil
	}
	if s.logErr == nil {
		s.ring = nil
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

// loss says how many bytes of the stream are kept nowhere, and why: those
// a failed log (a full disk, an I/O error) could not keep and the ring no
// longer holds, and those the log cap dropped from its head.
func (s *stream) loss() (int64, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var lost int64
	var why []string
	if s.logErr != nil {
		ringStart := s.end - int64(len(s.ring))
		if n := ringStart - s.logEnd; n > 0 {
			lost += n
			why = append(why, s.logErr.Error())
		}
	}
	if s.first > 0 {
		lost += s.first
		why = append(why, fmt.Sprintf("the log cap dropped the first %d bytes", s.first))
	}
	return lost, strings.Join(why, "; ")
}

// Chunk is the answer to a read at an offset.
type Chunk struct {
	Data    []byte
	Offset  int64 // where Data starts; later than asked when bytes were dropped
	Next    int64 // the offset to ask for next
	Dropped int64 // bytes between the asked offset and Offset that no longer exist
	EOF     bool  // the stream is finished and Next is its end
	Note    string
	// Spans says, for a read of a pipe job's Merged stream, which stream
	// each byte of Data came from: consecutive runs covering Data in order.
	// It is nil for every other read: all of Data is then the stream read.
	Spans []Span
}

// Span is a run of Len bytes of one stream within a merged read.
type Span struct {
	Stream Stream
	Len    int
}

// ReadAt returns up to limit bytes starting at off. An offset past the end
// returns no data; an offset older than what is kept says how much was dropped.
func (s *stream) ReadAt(off int64, limit int) Chunk {
	s.mu.Lock()
	c := Chunk{Offset: min(max(off, 0), s.end)}
	if c.Offset < s.first {
		c.Dropped = s.first - c.Offset
		c.Offset = s.first
		c.Note = fmt.Sprintf("%d bytes were dropped by the log cap; the first available offset is %d", c.Dropped, s.first)
	}
	ringStart := s.end
	if s.ring != nil {
		ringStart = max(s.end-int64(len(s.ring)), 0)
	}
	if s.logErr != nil && c.Offset >= s.logEnd && c.Offset < ringStart {
		// Neither the log (it failed) nor the ring holds these bytes.
		c.Dropped += ringStart - c.Offset
		c.Offset = ringStart
		c.Note = s.logErr.Error()
	}
	want := min(int64(limit), s.end-c.Offset)
	var fromLog int64 // read from the log after the lock is released
	switch {
	case want <= 0:
	case c.Offset >= ringStart:
		c.Data = s.ringCopy(c.Offset, want)
	default:
		fromLog = min(want, s.logEnd-c.Offset)
	}
	c.Next = c.Offset + int64(len(c.Data))
	end, closed := s.end, s.closed
	s.mu.Unlock()

	if fromLog > 0 {
		// Each read opens the log itself: finished jobs keep no descriptor,
		// and no reader can see one closed under it.
		buf, err := readFile(s.path, c.Offset, fromLog)
		if err != nil && c.Note == "" {
			c.Note = "reading the log failed: " + err.Error()
		}
		c.Data = buf
		c.Next = c.Offset + int64(len(buf))
	}
	c.EOF = closed && c.Next >= end
	return c
}

func readFile(path string, off, n int64) ([]byte, error) {
	// Three system calls, where os.Open's file would take seven (it tries
	// the runtime's poller, which refuses a regular file, and sets the
	// descriptor blocking again): an exec's reply reads its output here.
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	buf := make([]byte, n)
	k := 0
	for k < len(buf) {
		m, err := unix.Pread(fd, buf[k:], off+int64(k))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return buf[:k], &os.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			return buf[:k], io.EOF
		}
		k += m
	}
	return buf, nil
}

// ringCopy copies n bytes at absolute offset off out of the ring; the caller
// holds mu and has checked that the range is in the ring.
func (s *stream) ringCopy(off, n int64) []byte {
	out := make([]byte, n)
	pos := int(off % int64(len(s.ring)))
	k := copy(out, s.ring[pos:])
	copy(out[k:], s.ring)
	return out
}

// state reports the stream's end and a channel closed on the next change.
func (s *stream) state() (end int64, closed bool, changed <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.end, s.closed, s.changed
}

// Len is the number of bytes written so far.
func (s *stream) Len() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.end
}
