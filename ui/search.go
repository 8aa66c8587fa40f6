package ui

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
)

// A pipe job's pane holds a window of its output: the live end, or a
// stretch of the past a search went to. Its log on disk holds all of it. A
// search looks through the whole log: the lines loaded at once, and the
// rest read from the log a chunk at a time, its progress in the pane's
// border. Matches outside the window are kept by offset, and going to one
// loads the output around it.

// hit is a line that matches the search, by where it starts in the job's
// merged output (a PTY job's history: its index); line is its number
// counted from 1, 0 when not known.
type hit struct{ off, line int64 }

// scan is a look through part of a pipe job's log for the search's
// matches, or, with no query, only to count its lines.
type scan struct {
	seq      int
	m        matcher // q "": count only
	from, to int64   // the part of the log looked through
	end      int64   // the output's end as far as loaded when it began
	next     int64   // where the next chunk starts
	lines    int64   // lines before next
	lost     int64   // bytes the log no longer has (its cap)
	// The window when the scan began: a count up to its first line
	// numbers the window's lines, if it is still the same window.
	win     int
	trimmed int64
}

// scanMsg carries one chunk's results.
type scanMsg struct {
	id    engine.JobID
	gen   int
	seq   int
	err   error
	hits  []hit
	next  int64
	lines int64 // lines in the chunk
	lost  int64 // bytes dropped by the log's cap before the chunk
}

const (
	scanChunk = 4 << 20 // bytes of the log read at a time
	maxHits   = 100000  // matches kept outside the window: the newest
	// aroundHit is how much output is loaded on each side of a match
	// outside the window.
	aroundHit = initialWindow / 2
)

// matcher says whether a line contains the search as the pane shows it:
// escapes taken out, case folded when the search is all lower case (as
// in less -i).
type matcher struct {
	q    string
	fold bool
}

func newMatcher(q string) matcher { return matcher{q, strings.ToLower(q) == q} }

// text reports whether a shown line matches.
func (m matcher) text(t string) bool {
	if m.fold {
		t = strings.ToLower(t)
	}
	return strings.Contains(t, m.q)
}

// raw reports whether a line of the log matches once made printable.
func (m matcher) raw(b []byte) bool {
	if !plainBytes(b) {
		var p pens
		return m.text(cleanLine([]segment{{data: b}}, &p).text)
	}
	if m.fold {
		return m.text(string(b))
	}
	return bytes.Contains(b, []byte(m.q))
}

// plainBytes reports whether b shows as it is: nothing cleaning changes.
func plainBytes(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// scanCmd reads the next chunk of scan s and finds its matches.
func scanCmd(be Backend, id engine.JobID, gen int, s scan) tea.Cmd {
	return func() tea.Msg {
		msg := scanMsg{id: id, gen: gen, seq: s.seq}
		j, err := be.Job(id)
		if err != nil {
			msg.err = err
			return msg
		}
		c, err := j.Read(engine.Merged, s.next, int(min(scanChunk, s.to-s.next)))
		if err != nil {
			msg.err = err
			return msg
		}
		msg.lost = c.Dropped
		data := c.Data
		if i := bytes.LastIndexByte(data, '\n'); c.Next < s.to && i >= 0 {
			data = data[:i+1] // whole lines: the rest comes with the next chunk
		}
		if len(data) == 0 {
			msg.next = s.to // nothing more can be read
			return msg
		}
		msg.next = c.Offset + int64(len(data))
		if s.m.q == "" {
			msg.lines = int64(bytes.Count(data, []byte{'\n'}))
			return msg
		}
		numbered := s.from == 0 && s.lost == 0 && c.Dropped == 0
		for at := c.Offset; len(data) > 0; msg.lines++ {
			l, rest, _ := bytes.Cut(data, []byte{'\n'})
			if s.m.raw(l) {
				h := hit{off: at}
				if numbered {
					h.line = s.lines + msg.lines + 1
				}
				msg.hits = append(msg.hits, h)
			}
			at += int64(len(data) - len(rest))
			data = rest
		}
		return msg
	}
}

// startScan looks through the output before the window: for the search's
// matches, or only to count its lines.
func (p *pane) startScan(count bool) tea.Cmd {
	to, _ := p.earlier()
	if p.pty || !p.started || to <= 0 {
		return nil
	}
	p.scanSeq++
	s := &scan{seq: p.scanSeq, to: to, end: p.out.at, win: p.winSeq, trimmed: p.out.trimmed}
	if count {
		p.counting = s
	} else {
		s.m = newMatcher(p.search)
		p.scanning = s
	}
	return scanCmd(p.be, p.id, p.gen, *s)
}

// countLines counts the lines before the window, once, when the marker
// that says how many there are is in view.
func (p *pane) countLines() tea.Cmd {
	if _, marker := p.marker(); !marker || p.base > 0 || p.counting != nil {
		return nil
	}
	return p.startScan(true)
}

func (p *pane) applyScan(msg scanMsg) tea.Cmd {
	if msg.id != p.id || msg.gen != p.gen {
		return nil
	}
	s := p.scanning
	if s == nil || s.seq != msg.seq {
		s = p.counting
	}
	if s == nil || s.seq != msg.seq {
		return nil // replaced by a later scan
	}
	done := func() {
		if s == p.scanning {
			p.scanning = nil
		} else {
			p.counting = nil
		}
	}
	if msg.err != nil {
		done()
		return reportErr(msg.err)
	}
	s.next, s.lines, s.lost = msg.next, s.lines+msg.lines, s.lost+msg.lost
	p.addHits(msg.hits)
	if s.next < s.to {
		return scanCmd(p.be, p.id, p.gen, *s)
	}
	done()
	if s.lost == 0 && s.win == p.winSeq {
		p.base = s.lines + 1 - s.trimmed
	}
	if s.m.q == "" {
		return nil
	}
	n := p.matchCount()
	var jump tea.Cmd
	if p.match < 0 && n > 0 {
		jump = p.jump(n - 1) // none in the window: the newest before it
	}
	if s.lost > 0 {
		return tea.Batch(jump, info("%s in the %s the log keeps (its cap dropped the first %s)", matching(n, p.search), longBytes(s.end-s.lost), longBytes(s.lost)))
	}
	if n == 0 {
		return info("no match for %q in the whole log (%s)", p.search, longBytes(s.end))
	}
	return tea.Batch(jump, info("%s in the whole log (%s): n older, N newer", matching(n, p.search), longBytes(s.end)))
}

// addHits adds matches found in the log; those the window holds are in
// matches already.
func (p *pane) addHits(hs []hit) {
	if len(hs) == 0 {
		return
	}
	cur, ok := p.current()
	p.split(slices.Concat(p.older, hs, p.newer))
	p.setCurrent(cur, ok)
}

// split sorts matches outside the window into those before and after it;
// the newest are kept when there are too many.
func (p *pane) split(hs []hit) {
	slices.SortFunc(hs, func(a, b hit) int { return cmpInt(a.off, b.off) })
	hs = slices.CompactFunc(hs, func(a, b hit) bool { return a.off == b.off })
	first, end := p.loadedRange()
	p.older, p.newer = nil, nil
	for _, h := range hs {
		switch {
		case h.off < first:
			p.older = append(p.older, h)
		case h.off >= end:
			p.newer = append(p.newer, h)
		}
	}
	if over := p.matchCount() - maxHits; over > 0 {
		p.older = p.older[min(over, len(p.older)):]
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// loadedRange is the part of a pipe job's output the window holds.
func (p *pane) loadedRange() (first, end int64) {
	if p.out.count() == 0 {
		return p.out.at, p.out.at
	}
	return p.out.line(0).off, p.out.at
}

// earlier is how much output comes before the window: bytes, and lines
// (-1 while not known).
func (p *pane) earlier() (bytes, lines int64) {
	if p.pty || !p.started {
		return 0, 0
	}
	first, _ := p.loadedRange()
	if p.base <= 0 {
		return first, -1
	}
	return first, p.base - 1 + p.out.trimmed
}

// hits returns every match, in order: before the window, in it, after it.
func (p *pane) hits() []hit {
	hs := make([]hit, 0, p.matchCount())
	hs = append(hs, p.older...)
	for _, i := range p.matches {
		hs = append(hs, p.lineHit(i))
	}
	return append(hs, p.newer...)
}

// lineHit is line i of the window as a match.
func (p *pane) lineHit(i int) hit {
	if p.pty {
		return hit{off: int64(i)}
	}
	h := hit{off: p.out.line(i).off}
	if p.base > 0 {
		h.line = p.base + p.out.trimmed + int64(i)
	}
	return h
}

// matchCount is the number of matches, in the window and outside it.
func (p *pane) matchCount() int { return len(p.older) + len(p.matches) + len(p.newer) }

// hitAt is match k of all of them.
func (p *pane) hitAt(k int) hit {
	switch {
	case k < len(p.older):
		return p.older[k]
	case k < len(p.older)+len(p.matches):
		return p.lineHit(p.matches[k-len(p.older)])
	}
	return p.newer[k-len(p.older)-len(p.matches)]
}

// current returns the current match.
func (p *pane) current() (hit, bool) {
	if p.match < 0 || p.match >= p.matchCount() {
		return hit{}, false
	}
	return p.hitAt(p.match), true
}

// setCurrent makes match h current again after the matches changed, or
// none when it is gone.
func (p *pane) setCurrent(h hit, ok bool) {
	p.match = -1
	if !ok {
		return
	}
	n := p.matchCount() // all of them are in order of offset
	if k := sort.Search(n, func(k int) bool { return p.hitAt(k).off >= h.off }); k < n && p.hitAt(k).off == h.off {
		p.match = k
	}
}

// windowMsg carries the output around a match outside the window.
type windowMsg struct {
	id   engine.JobID
	gen  int
	win  int
	err  error
	out  outputLines
	at   hit
	live bool // it reaches the end of the output
}

// loadWindow loads the output around match h.
func loadWindow(be Backend, id engine.JobID, gen, win int, h hit) tea.Cmd {
	return func() tea.Msg {
		msg := windowMsg{id: id, gen: gen, win: win, at: h}
		j, err := be.Job(id)
		if err != nil {
			msg.err = err
			return msg
		}
		// Up to half the lines the pane keeps on each side of it.
		c, err := j.Read(engine.Merged, max(h.off-aroundHit, 0), 2*aroundHit)
		if err != nil {
			msg.err = err
			return msg
		}
		at := int(h.off - c.Offset)
		if at < 0 || at > len(c.Data) {
			msg.err = fmt.Errorf("the output at %d is no longer kept", h.off)
			return msg
		}
		from, to := at, at
		for k := 0; k < maxOutLines/2 && from > 0; k++ {
			from = bytes.LastIndexByte(c.Data[:from-1], '\n') + 1
		}
		for k := 0; k < maxOutLines/2 && to < len(c.Data); k++ {
			i := bytes.IndexByte(c.Data[to:], '\n')
			if i < 0 {
				to = len(c.Data)
				break
			}
			to += i + 1
		}
		if from > 0 || to < len(c.Data) {
			if c, err = j.Read(engine.Merged, c.Offset+int64(from), to-from); err != nil {
				msg.err = err
				return msg
			}
		}
		msg.out.startAt(c.Offset)
		msg.out.add(c.Data, c.Spans)
		if c.Offset > 0 {
			msg.out.dropPartial()
		}
		end, err := j.Len(engine.Merged)
		msg.live = err == nil && c.Next >= end
		return msg
	}
}

func (p *pane) applyWindow(msg windowMsg, running bool) tea.Cmd {
	if msg.id != p.id || msg.gen != p.gen || msg.win != p.winSeq {
		return nil // another window was asked for since
	}
	p.loading, p.again = false, false
	if msg.err != nil {
		return reportErr(msg.err)
	}
	hs := p.hits()
	p.out, p.off, p.eof, p.settled = msg.out, msg.out.at, false, false
	p.past, p.base = !msg.live, 0
	p.counting = nil
	p.findMatches()
	p.split(hs)
	for i := range p.out.count() {
		if p.out.line(i).off == msg.at.off {
			if msg.at.line > 0 {
				p.base = msg.at.line - int64(i) - p.out.trimmed
			}
			p.setCurrent(msg.at, true)
			p.centre(i)
			break
		}
	}
	if msg.live {
		return p.fetch(running)
	}
	return nil
}

// groupDigits writes n with thin groups of three digits: 2 980 000.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + " " + s[i:]
	}
	return s
}

// plural picks the word for n things.
func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// matching says how many lines match q.
func matching(n int, q string) string {
	if n == 1 {
		return fmt.Sprintf("1 line matches %q", q)
	}
	return fmt.Sprintf("%d lines match %q", n, q)
}
