package ui

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"tend/engine"
)

// outLine is one line of a pipe job's output, made printable, in parts by
// the stream they came from.
type outLine struct {
	text  string    // the whole line
	parts []outPart // text in order, cut where the stream changes
}

// outPart is a stretch of a line from one stream.
type outPart struct {
	text   string
	stderr bool
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
				break
			}
			o.lines = append(o.lines, cleanLine(appendSegment(o.tail, chunk[:i], err)))
			o.tail = nil
			chunk = chunk[i+1:]
		}
	}
	if over := len(o.lines) - maxOutLines; over > 0 {
		o.lines = append(o.lines[:0:0], o.lines[over:]...)
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
	return cleanLine(o.tail)
}

// cleanLine makes a line printable: no escape sequences, a carriage return
// keeps what was drawn after it (progress bars), tabs become spaces, other
// control characters and invalid UTF-8 are dropped.
func cleanLine(segs []segment) outLine {
	// What a carriage return overdraws goes, in whatever segment it is.
	for k := len(segs) - 1; k >= 0; k-- {
		d := bytes.TrimRight(segs[k].data, "\r")
		if k < len(segs)-1 {
			d = segs[k].data
		}
		if i := bytes.LastIndexByte(d, '\r'); i >= 0 {
			segs = append([]segment{{d[i+1:], segs[k].stderr}}, segs[k+1:]...)
			break
		}
	}
	var l outLine
	var all strings.Builder
	col := 0
	for _, sg := range segs {
		text := cleanText(string(bytes.TrimRight(sg.data, "\r")), &col)
		if text == "" {
			continue
		}
		all.WriteString(text)
		if k := len(l.parts) - 1; k >= 0 && l.parts[k].stderr == sg.stderr {
			l.parts[k].text += text
		} else {
			l.parts = append(l.parts, outPart{text, sg.stderr})
		}
	}
	l.text = all.String()
	return l
}

// cleanText strips escapes and control characters from s and expands its
// tabs; col is the column s starts at, and is moved to where it ends.
func cleanText(s string, col *int) string {
	if strings.ContainsRune(s, '\x1b') {
		s = ansi.Strip(s)
	}
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		*col += len(s)
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			n := 8 - *col%8
			sb.WriteString("        "[:n])
			*col += n
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
		default:
			sb.WriteRune(r)
			*col++
		}
	}
	return sb.String()
}
