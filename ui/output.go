package ui

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"tend/engine"
)

// outLine is one line of a pipe job's output, made printable, in parts by
// the stream they came from and the job's own rendition (SGR) of them.
type outLine struct {
	off   int64     // where the line starts in the job's merged output
	text  string    // the whole line
	parts []outPart // text in order, cut where the stream or rendition changes
}

// outPart is a stretch of a line from one stream in one rendition.
type outPart struct {
	text   string
	stderr bool
	style  cellStyle // what the job's SGR sequences made of it; zero: plain
}

// maxOutLines is how many lines of a pipe job's output the pane keeps; the
// job's log keeps everything.
const maxOutLines = 20000

// segment is raw bytes of one stream within a line not yet complete.
type segment struct {
	data   []byte
	stderr bool
}

// outputLines splits a pipe job's merged output into lines, each told apart
// by stream as the engine's merged reads say ([engine.Chunk.Spans]).
type outputLines struct {
	lines []outLine
	tail  []segment // the line after the last newline, not complete yet
	pens  pens      // the streams' renditions where tail starts

	at      int64 // the merged offset of the next byte to come
	tailAt  int64 // where tail starts
	trimmed int64 // lines dropped from the front to keep maxOutLines
}

// startAt says where in the merged output the first bytes added start.
func (o *outputLines) startAt(off int64) { o.at, o.tailAt = off, off }

// pens are the renditions stdout and stderr are in: a job's colour goes on
// past a newline until it is reset, as on a terminal. Each stream has its
// own, as each has its own pipe.
type pens [2]cellStyle

// of is the rendition of stderr or of stdout.
func (p *pens) of(stderr bool) *cellStyle {
	if stderr {
		return &p[1]
	}
	return &p[0]
}

// add takes the next merged bytes and their spans (nil: all stdout).
func (o *outputLines) add(data []byte, spans []engine.Span) {
	// Bytes no span covers (nil spans: all of them) are stdout's.
	covered := 0
	for _, sp := range spans {
		covered += sp.Len
	}
	if covered < len(data) {
		spans = append(spans[:len(spans):len(spans)], engine.Span{Stream: engine.Stdout, Len: len(data) - covered})
	}
	for _, sp := range spans {
		chunk := data[:min(sp.Len, len(data))]
		data = data[len(chunk):]
		err := sp.Stream == engine.Stderr
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				o.tail = appendSegment(o.tail, chunk, err)
				o.at += int64(len(chunk))
				break
			}
			l := cleanLine(appendSegment(o.tail, chunk[:i], err), &o.pens)
			l.off = o.tailAt
			o.lines = append(o.lines, l)
			o.tail = nil
			o.at += int64(i + 1)
			o.tailAt = o.at
			chunk = chunk[i+1:]
		}
	}
	if over := len(o.lines) - maxOutLines; over > 0 {
		o.lines = append(o.lines[:0:0], o.lines[over:]...)
		o.trimmed += int64(over)
	}
}

// appendSegment adds bytes of one stream to a line, joining them to the
// last segment when it is of the same stream. The bytes are copied: data
// belongs to the read.
func appendSegment(segs []segment, b []byte, stderr bool) []segment {
	if k := len(segs) - 1; k >= 0 && segs[k].stderr == stderr {
		segs[k].data = append(segs[k].data, b...)
		return segs
	}
	return append(segs, segment{append([]byte(nil), b...), stderr})
}

// dropPartial drops the first complete line, which a read that starts
// mid-stream has only the end of.
func (o *outputLines) dropPartial() {
	if len(o.lines) > 0 {
		o.lines = o.lines[1:]
	}
}

// count is the number of lines, the incomplete last one included.
func (o *outputLines) count() int {
	if len(o.tail) > 0 {
		return len(o.lines) + 1
	}
	return len(o.lines)
}

// line returns line i (the incomplete last one as it reads now).
func (o *outputLines) line(i int) outLine {
	if i < len(o.lines) {
		return o.lines[i]
	}
	p := o.pens // the line is not over: its end does not move them yet
	l := cleanLine(o.tail, &p)
	l.off = o.tailAt
	return l
}

// cleanLine makes a line printable, starting from the renditions in p and
// leaving there those at its end. Of the job's escape sequences only SGR
// (colours and attributes) is kept, as a rendition of the text: nothing
// else it wrote can move the cursor, clear the screen, set a title or
// reach the terminal at all. A carriage return keeps what was drawn after
// it (progress bars), tabs become spaces, other control characters and
// invalid UTF-8 are dropped.
func cleanLine(segs []segment, p *pens) outLine {
	// What a carriage return overdraws goes, in whatever segment it is
	// (the renditions it set stay); one ending the line overdraws nothing.
	from, at := 0, 0 // what is shown starts at segs[from].data[at:]
	for k := len(segs) - 1; k >= 0; k-- {
		d := segs[k].data
		if k == len(segs)-1 {
			d = bytes.TrimRight(d, "\r")
		}
		if i := bytes.LastIndexByte(d, '\r'); i >= 0 {
			from, at = k, i+1
			break
		}
	}
	c := cleaner{pens: p}
	n, most := 0, len(segs) // bytes, and at most how many parts: each starts a segment or follows an ESC
	for _, sg := range segs {
		n += len(sg.data)
		most += bytes.Count(sg.data, []byte{'\x1b'})
	}
	c.text = make([]byte, 0, n)
	if most > 1 {
		c.parts = make([]outPart, 0, most)
		c.ends = make([]int, 0, most-1)
	}
	for k, sg := range segs {
		switch {
		case k < from:
			c.feed(sg.data, sg.stderr, false)
		case k == from:
			c.feed(sg.data[:at], sg.stderr, false)
			c.feed(sg.data[at:], sg.stderr, true)
		default:
			c.feed(sg.data, sg.stderr, true)
		}
	}
	return c.done()
}

// cleaner builds a printable line from a job's bytes.
type cleaner struct {
	pens  *pens
	col   int    // the column the next text starts at, for tabs
	text  []byte // the line's text
	parts []outPart
	// ends are where each part but the last ends in text: the parts get
	// their text, pieces of the line's one string, when it is done.
	ends []int
}

// add appends printable text in the given stream and rendition.
func (c *cleaner) add(t []byte, stderr bool, style cellStyle) {
	if k := len(c.parts) - 1; k < 0 || c.parts[k].stderr != stderr || c.parts[k].style != style {
		if k >= 0 {
			c.ends = append(c.ends, len(c.text))
		}
		c.parts = append(c.parts, outPart{stderr: stderr, style: style})
	}
	c.text = append(c.text, t...)
}

// done returns the line built.
func (c *cleaner) done() outLine {
	text := string(c.text)
	from := 0
	for i := range c.parts {
		end := len(text)
		if i < len(c.ends) {
			end = c.ends[i]
		}
		c.parts[i].text = text[from:end]
		from = end
	}
	return outLine{text: text, parts: c.parts}
}

var tabSpaces = []byte("        ")

// feed takes bytes of one stream: their SGR sequences move the stream's
// rendition, and when show is set their printable text is added to the
// line in it.
func (c *cleaner) feed(data []byte, stderr, show bool) {
	pen := c.pens.of(stderr)
	for len(data) > 0 {
		// Printable ASCII, the common case, needs no decoding.
		n := 0
		for n < len(data) && data[n] >= 0x20 && data[n] < 0x7f {
			n++
		}
		if n > 0 {
			if show {
				c.add(data[:n], stderr, *pen)
				c.col += n
			}
			data = data[n:]
			continue
		}
		seq, width, n, _ := ansi.DecodeSequence(data, ansi.NormalState, nil)
		if n <= 0 { // never seen; but never loop forever on what it cannot read
			seq, n = data[:1], 1
		}
		data = data[n:]
		switch {
		case seq[0] == '\t':
			if show {
				k := 8 - c.col%8
				c.add(tabSpaces[:k], stderr, *pen)
				c.col += k
			}
		case seq[0] == ansi.ESC:
			if p, ok := sgrParams(seq); ok {
				*pen = applySGR(*pen, p)
			}
		case show && showable(seq):
			c.add(seq, stderr, *pen)
			c.col += width
		}
	}
}

// showable reports whether a grapheme may be shown as it is: valid
// UTF-8 with no control character in it (C1 controls such as U+009B, CSI,
// act as escapes on many terminals).
func showable(g []byte) bool {
	if !utf8.Valid(g) {
		return false
	}
	for _, r := range string(g) {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}
