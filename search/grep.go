package search

// Grep's Go engine: a sorted walk feeding a few searchers, whose
// results are taken in walk order so that the cap keeps the first matches.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// binaryWindow is ripgrep's read buffer: a file read in blocks of this
// size stops at the first block holding a NUL byte, so a NUL in the first
// block makes the whole file binary.
const binaryWindow = 64 << 10

type job struct {
	seq      int
	rel, abs string
}

type jobDone struct {
	seq     int
	matches []Match
	failed  bool
}

// runGo searches with the Go walk.
func (c Config) runGo(ctx context.Context, q *query) (result, error) {
	var res result
	s := searcher{c: c, q: q}
	if q.file != "" {
		ms, err := s.file(filepath.Join(q.root, q.file), q.file, true)
		if err != nil {
			return res, fmt.Errorf("search %s: %w", q.file, err)
		}
		res.matches = ms
		return res, nil
	}

	ctx, stop := context.WithCancel(ctx)
	defer stop()
	jobs := make(chan job, 256)
	done := make(chan jobDone, 256)
	w := &walk{root: q.root, noIgnore: q.in.NoIgnore, maxDepth: q.in.MaxDepth}
	seq := 0
	w.visit = func(e *entry) bool {
		if !q.wants(e) {
			return false
		}
		if !e.isDir {
			select {
			case jobs <- job{seq: seq, rel: e.rel, abs: filepath.Join(q.root, filepath.FromSlash(e.rel))}:
				seq++
			case <-ctx.Done():
			}
		}
		return true
	}
	go func() {
		defer close(jobs)
		w.run(ctx)
	}()
	var wg sync.WaitGroup
	for range c.Workers {
		wg.Go(func() {
			s := searcher{c: c, q: q}
			for j := range jobs {
				ms, err := s.file(j.abs, j.rel, false)
				select {
				case done <- jobDone{seq: j.seq, matches: ms, failed: err != nil}:
				case <-ctx.Done():
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	// take the results in walk order; stop once the cap is passed
	pending := map[int]jobDone{}
	next, failed := 0, 0
	take := func(d jobDone) {
		res.matches = append(res.matches, d.matches...)
		if d.failed {
			failed++
		}
	}
	for d := range done {
		if res.truncated {
			continue // draining
		}
		pending[d.seq] = d
		for {
			d, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			take(d)
		}
		if len(res.matches) > c.MaxMatches && !res.truncated {
			res.truncated = true
			stop()
		}
	}
	if !res.truncated { // a time limit or a cancel: keep what was found
		for _, d := range pending {
			take(d)
		}
	}
	if err := context.Cause(ctx); err != nil && !res.truncated {
		if errors.Is(err, context.DeadlineExceeded) {
			res.timedOut = true
		} else {
			return res, err
		}
	}
	if k := w.unreadable + failed; k > 0 {
		res.notes = append(res.notes, fmt.Sprintf("%d files or directories could not be read", k))
	}
	return res, nil
}

// wants says whether the walk takes an entry: ripgrep's order of rules, with
// tend's own left-outs (.git, hidden names, the dependency directories) as
// the globs tend gives rg last, which therefore win.
func (q *query) wants(e *entry) bool {
	if e.name == ".git" || (!q.in.Hidden && e.hidden()) || (!q.in.NoIgnore && e.isDir && skipDirs[e.name]) {
		return false
	}
	v := none
	if q.glob != nil {
		v = q.glob.overrideMatch(e.rel, e.isDir, q.include)
	}
	switch v {
	case ignore:
		return false
	case whitelist: // a glob's match beats ignore files and types
	case none:
		if !q.in.NoIgnore && e.ignored() == ignore {
			return false
		}
		if q.types != nil && !e.isDir && !q.types.MatchString(e.name) {
			return false
		}
	}
	return e.isDir || e.typ.IsRegular()
}

// overrideMatch is the verdict of Grep's glob (ripgrep's -g): a match
// includes (or, with a leading !, leaves out); an including glob leaves out
// the files it misses.
func (r *rule) overrideMatch(rel string, isDir, include bool) verdict {
	if (!r.dirOnly || isDir) && r.re.MatchString(rel) {
		if r.whitelist { // a leading !
			return ignore
		}
		return whitelist
	}
	if include && !isDir {
		return ignore
	}
	return none
}

// searcher searches files one at a time, reusing its buffer.
type searcher struct {
	c    Config
	q    *query
	buf  []byte
	find finder
}

// file searches one file; a file given as the path (explicit) is searched
// even when binary, as ripgrep does.
func (s *searcher) file(abs, rel string, explicit bool) ([]Match, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size > s.c.MaxFileSize {
		if explicit {
			return nil, fmt.Errorf("the file is %d MiB, and without rg tend searches files of up to %d MiB: use terminal_exec with grep", size>>20, s.c.MaxFileSize>>20)
		}
		return nil, nil // as rg --max-filesize
	}
	if int64(cap(s.buf)) < size+1 {
		s.buf = make([]byte, 0, size+size/8+512)
	}
	// read the first block alone: most binary files end there
	buf := s.buf[:min(int64(cap(s.buf)), size+1)]
	n, err := io.ReadFull(f, buf[:min(int64(len(buf)), binaryWindow)])
	if err == nil {
		var m int
		if !explicit && bytes.IndexByte(buf[:n], 0) >= 0 && !hasBOM(buf[:n]) {
			return nil, nil
		}
		m, err = io.ReadFull(f, buf[n:])
		n += m
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	data := decode(buf[:n])
	if !explicit {
		data = beforeBinary(data)
	}
	return s.lines(rel, data), nil
}

// hasBOM says whether data starts with a UTF-16 byte-order mark.
func hasBOM(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff})
}

// decode does what ripgrep does with a byte-order mark: a UTF-8 one is
// dropped, UTF-16 is turned into UTF-8.
func decode(data []byte) []byte {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		return data[3:]
	case hasBOM(data):
		be := data[0] == 0xfe
		u := make([]uint16, 0, len(data)/2)
		for i := 2; i+1 < len(data); i += 2 {
			if be {
				u = append(u, uint16(data[i])<<8|uint16(data[i+1]))
			} else {
				u = append(u, uint16(data[i+1])<<8|uint16(data[i]))
			}
		}
		var out []byte
		for _, r := range utf16.Decode(u) {
			out = utf8.AppendRune(out, r)
		}
		if len(data)%2 == 1 {
			out = append(out, "\uFFFD"...)
		}
		return out
	}
	return data
}

// beforeBinary is the part of a file ripgrep searches when it meets a
// NUL byte: the lines read in the blocks before the one holding it. The
// blocks are ripgrep's line buffer: each read fills what the unfinished last
// line leaves free of binaryWindow, and the buffer doubles when one
// line fills it.
func beforeBinary(data []byte) []byte {
	nul := bytes.IndexByte(data, 0)
	if nul < 0 {
		return data
	}
	size, read, lines := binaryWindow, 0, 0 // lines: the end of the last whole line read
	for {
		left := read - lines
		for size-left <= 0 {
			size *= 2
		}
		end := min(read+size-left, len(data))
		if nul < end {
			return data[:lines]
		}
		read = end
		if i := bytes.LastIndexByte(data[lines:read], '\n'); i >= 0 {
			lines += i + 1
		}
	}
}

// lines finds the matching lines of data (see compile: the pattern
// cannot match a line break, so one pass over data finds them in order).
func (s *searcher) lines(rel string, data []byte) []Match {
	var out []Match
	ctxLines, maxCount := s.q.in.Context, s.q.in.MaxCount
	if s.q.lits != nil {
		s.find.reset(s.q.lits, data)
	}
	pos, line := 0, 1 // pos starts line number line
	for pos < len(data) {
		start, end, ok := s.next(data, pos)
		if !ok {
			break
		}
		line += bytes.Count(data[pos:start], []byte{'\n'})
		m := Match{Path: rel, Line: line, Text: text(data[start:end], s.c.MaxLine)}
		if ctxLines > 0 {
			m.Before = s.before(data, start, ctxLines)
			m.After = s.after(data, end, ctxLines)
		}
		out = append(out, m)
		if maxCount > 0 && len(out) >= maxCount {
			break
		}
		pos, line = end+1, line+1
	}
	return out
}

// next finds the first matching line at or after pos (a line start): its
// start and end (the index of its line break, or len(data)).
func (s *searcher) next(data []byte, pos int) (start, end int, ok bool) {
	lineOf := func(at int) (int, int) {
		start, end := pos, len(data)
		if i := bytes.LastIndexByte(data[pos:at], '\n'); i >= 0 {
			start = pos + i + 1
		}
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			end = at + i
		}
		return start, end
	}
	if s.q.lits != nil {
		// every match holds a literal: try the regexp on the lines that do
		for pos < len(data) {
			at := s.find.find(pos)
			if at < 0 {
				return 0, 0, false
			}
			start, end := lineOf(at)
			if s.q.re.Match(data[start:end]) {
				return start, end, true
			}
			pos = end + 1
		}
		return 0, 0, false
	}
	loc := s.q.re.FindIndex(data[pos:])
	if loc == nil {
		return 0, 0, false
	}
	at := pos + loc[0]
	if at == len(data) && data[at-1] == '\n' {
		return 0, 0, false // the empty "line" after the last line break
	}
	start, end = lineOf(at)
	return start, end, true
}

// before gives up to n lines ending just before the line at start.
func (s *searcher) before(data []byte, start, n int) []string {
	var out []string
	for end := start - 1; end >= 0 && len(out) < n; {
		b := bytes.LastIndexByte(data[:end], '\n') + 1
		out = append(out, text(data[b:end], s.c.MaxLine))
		end = b - 1
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// after gives up to n lines starting just after the line ending at end.
func (s *searcher) after(data []byte, end, n int) []string {
	var out []string
	for b := end + 1; b < len(data) && len(out) < n; {
		e := len(data)
		if i := bytes.IndexByte(data[b:], '\n'); i >= 0 {
			e = b + i
		}
		out = append(out, text(data[b:e], s.c.MaxLine))
		b = e + 1
	}
	return out
}
