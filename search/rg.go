package search

// Grep's ripgrep engine: rg --json, told everything that would make it
// differ from the Go walk (no config file, no global gitignore, .gitignore
// outside git repositories too, tend's left-outs as globs, tend's types).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rgUnusableError says rg could not be run as tend runs it (missing,
// too old); the Go walk takes over.
type rgUnusableError struct{ msg string }

func (e *rgUnusableError) Error() string { return e.msg }

// rgArgs are the arguments for q.
func (c Config) rgArgs(q *query) []string {
	args := []string{"--json", "--no-config", "--no-require-git", "--no-ignore-global",
		"--max-filesize", strconv.FormatInt(c.MaxFileSize, 10)}
	in := q.in
	if in.IgnoreCase {
		args = append(args, "--ignore-case")
	} else {
		args = append(args, "--case-sensitive")
	}
	if in.Context > 0 {
		args = append(args, "--context", strconv.Itoa(in.Context))
	}
	if in.MaxCount > 0 {
		args = append(args, "--max-count", strconv.Itoa(in.MaxCount))
	}
	if in.MaxDepth > 0 {
		args = append(args, "--max-depth", strconv.Itoa(in.MaxDepth))
	}
	if in.NoIgnore {
		args = append(args, "--no-ignore")
	}
	if len(q.typeGlobs) > 0 {
		for _, g := range q.typeGlobs {
			args = append(args, "--type-add", "tendtype:"+g)
		}
		args = append(args, "--type", "tendtype")
	}
	// globs: the later wins, so tend's left-outs come after the caller's
	if g := strings.TrimSpace(in.Glob); g != "" {
		args = append(args, "--glob", g)
	}
	if !in.NoIgnore {
		dirs := make([]string, 0, len(skipDirs))
		for d := range skipDirs {
			dirs = append(dirs, d)
		}
		slices.Sort(dirs)
		for _, d := range dirs {
			args = append(args, "--glob", "!"+d+"/")
		}
	}
	if in.Hidden {
		args = append(args, "--hidden")
	} else {
		args = append(args, "--glob", "!.*")
	}
	args = append(args, "--glob", "!.git", "--regexp", rgPattern(in.Pattern), "--")
	if q.file != "" {
		return append(args, q.file)
	}
	return append(args, ".")
}

// rgPattern gives rg a pattern (already checked as RE2) with RE2's
// meaning: \w \d \s \b and their negations are ASCII in RE2 and Unicode in
// rg, and rg has no \Q...\E.
func rgPattern(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			e := p[i+1]
			i++
			switch {
			case e == 'Q':
				end := strings.Index(p[i+1:], `\E`)
				lit := p[i+1:]
				if end >= 0 {
					lit = p[i+1 : i+1+end]
					i += end + 2
				} else {
					i = len(p)
				}
				if inClass {
					for _, r := range lit {
						fmt.Fprintf(&b, `\x{%x}`, r)
					}
				} else {
					b.WriteString(regexp.QuoteMeta(lit))
				}
			case !inClass && strings.IndexByte("wWdDsSbB", e) >= 0:
				b.WriteString(`(?-u:\` + string(e) + `)`)
			case inClass && strings.IndexByte("wWdDsS", e) >= 0:
				b.WriteString(map[byte]string{
					'w': `0-9A-Za-z_`, 'd': `0-9`, 's': `\t\n\x0C\r\x20`,
					'W': `[:^word:]`, 'D': `[:^digit:]`, 'S': `[:^space:]`,
				}[e])
			default:
				b.WriteByte(c)
				b.WriteByte(e)
			}
		case !inClass && c == '[':
			inClass = true
			b.WriteByte(c)
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' { // a leading ] is a member
				b.WriteByte(']')
				i++
			}
		case inClass && c == '[' && strings.HasPrefix(p[i:], "[:"):
			end := strings.Index(p[i:], ":]")
			if end < 0 {
				b.WriteString(p[i:])
				return b.String()
			}
			b.WriteString(p[i : i+end+2])
			i += end + 1
		case inClass && c == ']':
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// rgMessage is one line of rg --json.
type rgMessage struct {
	Type string `json:"type"`
	Data struct {
		Path       rgData `json:"path"`
		Lines      rgData `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// rgData is rg's arbitrary data: text when it is UTF-8, base64 bytes if not.
type rgData struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (d rgData) raw() []byte {
	if d.Text != nil {
		return []byte(*d.Text)
	}
	b, _ := base64.StdEncoding.DecodeString(d.Bytes)
	return b
}

// rgFile gathers one file's messages: rg writes each file's together.
type rgFile struct {
	path    string
	lines   map[int][]byte // every line rg gave, matches and context
	matches []int
}

func (f *rgFile) results(c Config, ctxLines int) []Match {
	out := make([]Match, 0, len(f.matches))
	for _, n := range f.matches {
		m := Match{Path: f.path, Line: n, Text: text(f.lines[n], c.MaxLine)}
		for i := n - ctxLines; i < n; i++ {
			if l, ok := f.lines[i]; ok {
				m.Before = append(m.Before, text(l, c.MaxLine))
			} else {
				m.Before = nil // only the run just before the match
			}
		}
		for i := n + 1; i <= n+ctxLines; i++ {
			l, ok := f.lines[i]
			if !ok {
				break
			}
			m.After = append(m.After, text(l, c.MaxLine))
		}
		out = append(out, m)
	}
	return out
}

// runRG searches with ripgrep at bin.
func (c Config) runRG(ctx context.Context, bin string, q *query) (result, error) {
	var res result
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	cmd := exec.CommandContext(runCtx, bin, c.rgArgs(q)...)
	cmd.Dir = q.root
	cmd.WaitDelay = 2 * time.Second
	stderr := &tail{max: 4 << 10}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return res, fmt.Errorf("run rg: %w", err)
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			res.timedOut = true
			return res, nil
		} else if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, &rgUnusableError{msg: fmt.Sprintf("rg could not start (%v)", err)}
	}
	stopped, seen := false, 0
	var f *rgFile
	br := bufio.NewReaderSize(stdout, 256<<10)
	for {
		line, rerr := br.ReadSlice('\n')
		if errors.Is(rerr, bufio.ErrBufferFull) { // a long line: gather it
			big := append([]byte(nil), line...)
			for errors.Is(rerr, bufio.ErrBufferFull) {
				line, rerr = br.ReadSlice('\n')
				big = append(big, line...)
			}
			line = big
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var m rgMessage
			if err := json.Unmarshal(line, &m); err != nil {
				stop()
				_ = cmd.Wait()
				return res, fmt.Errorf("read rg --json: %w", err)
			}
			seen++
			switch m.Type {
			case "begin":
				f = &rgFile{path: strings.TrimPrefix(string(m.Data.Path.raw()), "./"), lines: map[int][]byte{}}
			case "context", "match":
				if f == nil {
					break
				}
				n := m.Data.LineNumber
				f.lines[n] = m.Data.Lines.raw()
				// rg 13 also reports the matches in the context after the
				// max_count-th as matches: they are context here
				if m.Type == "match" && (q.in.MaxCount == 0 || len(f.matches) < q.in.MaxCount) {
					f.matches = append(f.matches, n)
				}
			case "end":
				if f != nil {
					res.matches = append(res.matches, f.results(c, q.in.Context)...)
					f = nil
				}
				if len(res.matches) > c.MaxMatches {
					res.truncated, stopped = true, true
					stop()
				}
			}
		}
		if rerr != nil || stopped {
			break
		}
	}
	if stopped {
		_, _ = io.Copy(io.Discard, stdout)
	}
	werr := cmd.Wait()
	if f != nil && !stopped { // cut off mid-file by the time limit or a cancel
		res.matches = append(res.matches, f.results(c, q.in.Context)...)
	}
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			res.timedOut = true
			return res, nil
		}
		return res, err
	}
	if stopped {
		return res, nil
	}
	var ee *exec.ExitError
	switch {
	case werr == nil:
	case errors.As(werr, &ee) && ee.ExitCode() == 1: // no match
	case errors.As(werr, &ee) && ee.ExitCode() == 2:
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "regex") {
			return res, fmt.Errorf("pattern %q is not valid for ripgrep: %s", q.in.Pattern, msg)
		}
		if seen == 0 {
			return res, &rgUnusableError{msg: "rg failed: " + firstLine(msg)}
		}
		res.notes = append(res.notes, "rg: "+firstLine(msg))
	default:
		return res, fmt.Errorf("rg: %w: %s", werr, firstLine(stderr.String()))
	}
	return res, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// tail keeps the first max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.b); room > 0 {
		t.b = append(t.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
