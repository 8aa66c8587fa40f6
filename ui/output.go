package ui

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// outLine is one line of a pipe job's output. errLen bytes at its start
// came from stderr (the whole line, usually).
type outLine struct {
	text   string
	errLen int
}

// maxOutLines is how many lines of a pipe job's output the pane keeps; the
// job's log keeps everything.
const maxOutLines = 20000

// maxPendingErr bounds the stderr bytes waiting to be found in the merged
// stream.
const maxPendingErr = 1 << 20

// attributor splits a pipe job's merged output into lines and tells which
// came from stderr. The engine's merged stream interleaves stdout and
// stderr in arrival order but does not say which bytes are which, so the
// stderr stream is read alongside and its bytes are matched, in order,
// against the merged lines (a stdout line identical to the next stderr
// line would be taken for stderr; rare, and only a colour).
type attributor struct {
	lines   []outLine
	tail    []byte // merged bytes after the last newline
	pending []byte // stderr bytes not yet matched in the merged stream
	dropped int    // lines dropped from the head (keeps match indices honest)
}

// add takes new merged bytes and new stderr bytes (read after the merged
// ones, so they cover every stderr byte in merged).
func (a *attributor) add(merged, stderr []byte) {
	a.pending = append(a.pending, stderr...)
	data := merged
	if len(a.tail) > 0 {
		data = append(a.tail, merged...)
		a.tail = nil
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		a.push(a.classify(data[:i+1]))
		data = data[i+1:]
	}
	a.tail = append([]byte(nil), data...)
	if len(a.pending) > maxPendingErr {
		a.pending = append([]byte(nil), a.pending[len(a.pending)-maxPendingErr/2:]...)
	}
	if over := len(a.lines) - maxOutLines; over > 0 {
		a.lines = append(a.lines[:0:0], a.lines[over:]...)
		a.dropped += over
	}
}

// classify attributes one complete merged line and consumes the stderr
// bytes it used.
func (a *attributor) classify(line []byte) outLine {
	text := cleanLine(line)
	p := a.pending
	switch {
	case len(p) == 0:
		return outLine{text: text}
	case bytes.HasPrefix(p, line):
		a.pending = p[len(line):]
		return outLine{text: text, errLen: len(text)}
	case bytes.HasPrefix(line, p):
		// stderr printed without a newline, then stdout finished the line.
		a.pending = p[:0]
		return outLine{text: text, errLen: min(len(cleanLine(p)), len(text))}
	case len(line) > 1:
		// Resynchronise: stderr bytes before the match predate the window
		// or were misattributed.
		if i := bytes.Index(p, line); i > 0 {
			a.pending = p[i+len(line):]
			return outLine{text: text, errLen: len(text)}
		}
	}
	return outLine{text: text}
}

func (a *attributor) push(l outLine) { a.lines = append(a.lines, l) }

// tailLine is the incomplete last line, if any, as it would be classified
// now.
func (a *attributor) tailLine() (outLine, bool) {
	if len(a.tail) == 0 {
		return outLine{}, false
	}
	text := cleanLine(a.tail)
	if len(a.pending) > 0 && bytes.HasPrefix(a.pending, a.tail) {
		return outLine{text: text, errLen: len(text)}, true
	}
	return outLine{text: text}, true
}

// cleanLine makes one line of raw output printable: no escape sequences,
// a carriage return keeps what was drawn last (progress bars), tabs become
// spaces, other control characters and invalid UTF-8 are dropped.
func cleanLine(b []byte) string {
	s := string(bytes.TrimRight(b, "\r\n"))
	if strings.ContainsRune(s, '\x1b') {
		s = ansi.Strip(s)
	}
	if i := strings.LastIndexByte(s, '\r'); i >= 0 {
		s = s[i+1:]
	}
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var sb strings.Builder
	col := 0
	for _, r := range s {
		switch {
		case r == '\t':
			n := 8 - col%8
			sb.WriteString("        "[:n])
			col += n
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
		default:
			sb.WriteRune(r)
			col++
		}
	}
	return sb.String()
}
