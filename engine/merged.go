package engine

import (
	"encoding/binary"
	"os"
	"sort"
	"sync"
)

// source is what every readable stream offers: byte-offset reads and change
// notification. [stream] holds bytes; [interleave] only points into streams.
type source interface {
	ReadAt(off int64, limit int) Chunk
	Len() int64
	state() (end int64, closed bool, changed <-chan struct{})
	Close()
}

// run is a stretch of the merged output that comes from one stream: merged
// offsets [start, next run's start) are that stream's bytes from srcOff on.
type run struct {
	start  int64
	srcOff int64
	src    uint8 // index into interleave.srcs
}

const (
	runSize    = 17      // bytes per run in the index file
	runsInMem  = 1 << 16 // runs kept in memory; older ones are looked up in the file
	srcStdout  = 0
	srcStderr  = 1
	mergedName = "merged.idx"
)

// srcStream is the stream of each run source.
var srcStream = [2]Stream{srcStdout: Stdout, srcStderr: Stderr}

// interleave is the merged view of stdout and stderr in arrival order. It
// keeps no copy of the bytes, only where each run of one stream begins, so
// merged output costs neither a third ring nor a second log, and tells
// stdout and stderr apart.
type interleave struct {
	srcs [2]source

	mu      sync.Mutex
	runs    []run // the newest runs; all runs are also in the index file
	nFile   int64 // runs in the index file
	end     int64
	idx     *os.File // append-only index, made at the first switch of stream
	path    string
	closed  bool
	changed chan struct{}
}

func newInterleave(path string, stdout, stderr source) *interleave {
	return &interleave{srcs: [2]source{stdout, stderr}, path: path, changed: make(chan struct{})}
}

// openInterleave reopens the merged view of a finished job. Without an
// index (no file, or the empty one a job's directory is made with) the job
// never switched streams: one run covers everything.
func openInterleave(path string, stdout, stderr source) *interleave {
	m := &interleave{srcs: [2]source{stdout, stderr}, path: path, closed: true, changed: make(chan struct{})}
	m.end = stdout.Len() + stderr.Len()
	if st, err := os.Stat(path); err == nil && st.Size() > 0 {
		m.nFile = st.Size() / runSize
	} else if m.end > 0 {
		src := uint8(srcStdout)
		if stdout.Len() == 0 {
			src = srcStderr
		}
		m.runs = []run{{src: src}}
	}
	return m
}

// add records that n bytes at srcOff of stream src just arrived. The
// stream has them already.
func (m *interleave) add(src uint8, srcOff int64, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if k := len(m.runs); k > 0 {
		last := m.runs[k-1]
		if last.src == src && last.srcOff+(m.end-last.start) == srcOff {
			m.end += int64(n)
			m.notifyLocked()
			return
		}
	}
	r := run{start: m.end, srcOff: srcOff, src: src}
	if m.nFile == 1 && m.idx == nil && m.path != "" {
		// The first switch: from now on the runs need a file.
		if f, err := os.OpenFile(m.path, os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			if st, err := f.Stat(); err == nil && emptyFile(f, st.Size()) == nil {
				m.idx = f
				m.idx.WriteAt(encodeRun(m.runs[0]), 0)
			} else {
				f.Close()
			}
		}
	}
	if m.idx != nil {
		m.idx.WriteAt(encodeRun(r), m.nFile*runSize)
	}
	m.nFile++
	if len(m.runs) == runsInMem {
		m.runs = append(m.runs[:0], m.runs[runsInMem/2:]...)
	}
	m.runs = append(m.runs, r)
	m.end += int64(n)
	m.notifyLocked()
}

func encodeRun(r run) []byte {
	rec := make([]byte, runSize)
	binary.LittleEndian.PutUint64(rec[0:], uint64(r.start))
	binary.LittleEndian.PutUint64(rec[8:], uint64(r.srcOff))
	rec[16] = r.src
	return rec
}

func (m *interleave) notifyLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// Close marks the merged view finished (both streams are).
func (m *interleave) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.closed = true
	if m.idx != nil {
		m.idx.Close()
		m.idx = nil
	}
	m.notifyLocked()
}

func (m *interleave) Len() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.end
}

func (m *interleave) state() (int64, bool, <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.end, m.closed, m.changed
}

// find returns the run holding merged offset off and where that run ends.
func (m *interleave) find(off int64) (r run, runEnd int64, ok bool) {
	m.mu.Lock()
	end := m.end
	mem := m.runs
	nFile := m.nFile
	m.mu.Unlock()
	if off >= end || (len(mem) == 0 && nFile == 0) {
		return run{}, 0, false
	}
	if len(mem) > 0 && off >= mem[0].start {
		i := sort.Search(len(mem), func(i int) bool { return mem[i].start > off }) - 1
		runEnd = end
		if i+1 < len(mem) {
			runEnd = mem[i+1].start
		}
		return mem[i], runEnd, true
	}
	// Older than memory: binary search the index file.
	f, err := os.Open(m.path)
	if err != nil {
		return run{}, 0, false
	}
	defer f.Close()
	at := func(i int64) run {
		var rec [runSize]byte
		f.ReadAt(rec[:], i*runSize)
		return run{start: int64(binary.LittleEndian.Uint64(rec[0:])), srcOff: int64(binary.LittleEndian.Uint64(rec[8:])), src: rec[16]}
	}
	i := int64(sort.Search(int(nFile), func(i int) bool { return at(int64(i)).start > off })) - 1
	if i < 0 {
		return run{}, 0, false
	}
	runEnd = end
	if i+1 < nFile {
		runEnd = at(i + 1).start
	}
	return at(i), runEnd, true
}

// ReadAt reads merged bytes from off, run by run, from the streams.
func (m *interleave) ReadAt(off int64, limit int) Chunk {
	end, closed, _ := m.state()
	c := Chunk{Offset: min(max(off, 0), end)}
	pos := c.Offset
	for len(c.Data) < limit && pos < end {
		r, runEnd, ok := m.find(pos)
		if !ok {
			break
		}
		want := min(int64(limit-len(c.Data)), runEnd-pos)
		part := m.srcs[r.src].ReadAt(r.srcOff+(pos-r.start), int(want))
		if part.Dropped > 0 {
			if len(c.Data) > 0 {
				break // report the gap on the next read
			}
			c.Dropped += part.Dropped
			c.Note = part.Note
			c.Offset += part.Dropped
		}
		c.Data = append(c.Data, part.Data...)
		if n := len(part.Data); n > 0 {
			if k := len(c.Spans) - 1; k >= 0 && c.Spans[k].Stream == srcStream[r.src] {
				c.Spans[k].Len += n
			} else {
				c.Spans = append(c.Spans, Span{srcStream[r.src], n})
			}
		}
		pos += part.Dropped + int64(len(part.Data))
		if len(part.Data) == 0 {
			break
		}
	}
	c.Next = c.Offset + int64(len(c.Data))
	c.EOF = closed && c.Next >= end
	return c
}
