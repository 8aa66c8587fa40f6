package search

// The ignore rules of Grep's Go engine and of Glob: globs with
// ripgrep's gitignore semantics, ignore files (.gitignore, .ignore, .rgignore,
// .git/info/exclude) stacked by directory, and a sorted directory walk.
//
// The rules follow the ignore crate that ripgrep is built on, so that the Go
// walk and `rg --no-require-git --no-ignore-global` pick the same files:
//   - the last matching line of an ignore file decides; a deeper file beats a
//     shallower one; .rgignore beats .ignore beats .gitignore beats
//     .git/info/exclude, whatever their depth;
//   - ignore files of the directories above the search root apply too, but a
//     .gitignore above the nearest directory holding .git does not;
//   - a line without a slash (but for a trailing one) matches a name at any
//     depth; one with a slash is anchored to its file's directory; a trailing
//     slash matches directories only; "**" spans directories; "{a,b}" is an
//     alternation (ripgrep's extension); "!" re-includes.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// verdict is what an ignore rule or glob says about a path.
type verdict uint8

const (
	none      verdict = iota // no rule matched
	ignore                   // leave the path out
	whitelist                // keep the path (a "!" line, or an include glob)
)

// skipDirs are directories of dependencies, caches and build output that
// are left out of every walk unless ignore rules are turned off: ripgrep only
// leaves them out when a .gitignore says so, which many trees forget.
var skipDirs = map[string]bool{
	"node_modules": true, "bower_components": true, "__pycache__": true,
	".venv": true, "venv": true, ".tox": true, ".mypy_cache": true,
	".pytest_cache": true, ".ruff_cache": true, ".next": true, ".gradle": true,
	"target": true, "dist": true,
}

// maxBraces bounds the alternatives one glob may expand to.
const maxBraces = 256

// expandBraces expands "{a,b}" alternations (nested ones too) outside
// character classes; a backslash escapes the next character.
func expandBraces(pat string) ([]string, error) {
	open, end, commas := -1, -1, []int(nil)
	depth, inClass := 0, false
scan:
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			if i+1 < len(pat) && (pat[i+1] == '!' || pat[i+1] == '^') {
				i++
			}
			if i+1 < len(pat) && pat[i+1] == ']' {
				i++ // a leading ] is a member
			}
		case c == '{':
			if depth == 0 {
				open = i
			}
			depth++
		case c == ',' && depth == 1:
			commas = append(commas, i)
		case c == '}' && depth > 0:
			depth--
			if depth == 0 {
				end = i
				break scan
			}
		}
	}
	if open < 0 {
		return []string{pat}, nil
	}
	if end < 0 {
		return nil, fmt.Errorf("unclosed { in %q", pat)
	}
	prefix, suffix := pat[:open], pat[end+1:]
	var parts []string
	last := open + 1
	for _, c := range commas {
		parts = append(parts, pat[last:c])
		last = c + 1
	}
	parts = append(parts, pat[last:end])
	var out []string
	for _, p := range parts {
		alts, err := expandBraces(prefix + p + suffix)
		if err != nil {
			return nil, err
		}
		out = append(out, alts...)
		if len(out) > maxBraces {
			return nil, fmt.Errorf("%q expands to more than %d alternatives", pat, maxBraces)
		}
	}
	return out, nil
}

// segmentRegexp translates one path segment of a glob (no slash, no
// braces) into regexp syntax: * and ? stop at slashes, [...] and [!...] are
// classes, a backslash escapes.
func segmentRegexp(seg string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(seg); {
		r, n := utf8.DecodeRuneInString(seg[i:])
		switch r {
		case '*':
			b.WriteString(`[^/]*`)
			for i < len(seg) && seg[i] == '*' { // ** inside a name is *
				i++
			}
			continue
		case '?':
			b.WriteString(`[^/]`)
		case '\\':
			if i+1 >= len(seg) {
				return "", errors.New("a trailing backslash escapes nothing")
			}
			r, n = utf8.DecodeRuneInString(seg[i+1:])
			b.WriteString(regexp.QuoteMeta(string(r)))
			i += 1 + n
			continue
		case '[':
			cls, used, err := classRegexp(seg[i:])
			if err != nil {
				return "", err
			}
			b.WriteString(cls)
			i += used
			continue
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
		i += n
	}
	return b.String(), nil
}

// classRegexp translates the class at the start of s ("[...]") and says
// how many bytes it used.
func classRegexp(s string) (string, int, error) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		b.WriteByte('^')
		i++
	}
	first := true
	for {
		if i >= len(s) {
			return "", 0, fmt.Errorf("unclosed character class in %q", s)
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == ']' && !first {
			b.WriteByte(']')
			return b.String(), i + 1, nil
		}
		first = false
		if r == '\\' && i+1 < len(s) {
			i++
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		fmt.Fprintf(&b, `\x{%x}`, r)
		// a range a-z: a '-' that is neither first nor last
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			i++
			hi, m := utf8.DecodeRuneInString(s[i:])
			if hi == '\\' && i+1 < len(s) {
				i++
				hi, m = utf8.DecodeRuneInString(s[i:])
			}
			if hi < r {
				return "", 0, fmt.Errorf("range %c-%c is out of order in %q", r, hi, s)
			}
			i += m
			fmt.Fprintf(&b, `-\x{%x}`, hi)
		}
	}
}

// pathRegexp translates a glob over a slash-separated path (braces
// already expanded) into an anchored regexp, with globset's rules for "**":
// "**/x" is x at any depth, "a/**/b" spans zero or more directories, "a/**"
// is everything inside a.
func pathRegexp(pat string) (string, error) {
	var segs []string
	for _, s := range strings.Split(pat, "/") {
		if s == "**" && len(segs) > 0 && segs[len(segs)-1] == "**" {
			continue // a/**/**/b is a/**/b
		}
		segs = append(segs, s)
	}
	var b strings.Builder
	b.WriteString(`^`)
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			switch {
			case len(segs) == 1:
				b.WriteString(`.*`)
			case i == 0:
				b.WriteString(`(?:.*/)?`)
			case last:
				b.WriteString(`/.*`)
			default:
				b.WriteString(`/(?:.*/)?`)
			}
			continue
		}
		if i > 0 && segs[i-1] != "**" {
			b.WriteString(`/`)
		}
		re, err := segmentRegexp(seg)
		if err != nil {
			return "", err
		}
		b.WriteString(re)
	}
	b.WriteString(`$`)
	return b.String(), nil
}

// rule is one line of an ignore file, or Grep's glob.
type rule struct {
	re        *regexp.Regexp
	whitelist bool // a "!" line
	dirOnly   bool // a trailing slash
}

// rules are the lines of one ignore file, in order.
type rules []rule

// parseRule parses one ignore-file line; ok is false for blank lines and
// comments.
func parseRule(line string) (r rule, ok bool, err error) {
	if strings.HasPrefix(line, "#") {
		return r, false, nil
	}
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " \t\r")
	}
	if line == "" {
		return r, false, nil
	}
	anchored := false
	if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	} else {
		if strings.HasPrefix(line, "!") {
			r.whitelist = true
			line = line[1:]
		}
		if strings.HasPrefix(line, "/") {
			anchored = true
			line = line[1:]
		}
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimSuffix(line, "/")
		line = strings.TrimSuffix(line, `\`)
	}
	if line == "" {
		return r, false, nil
	}
	alts, err := expandBraces(line)
	if err != nil {
		return r, false, err
	}
	var res []string
	for _, a := range alts {
		if !anchored && !strings.Contains(a, "/") && !strings.HasPrefix(a, "**/") {
			a = "**/" + a
		}
		if strings.HasSuffix(a, "/**") {
			a += "/*" // everything inside, not the directory itself
		}
		re, err := pathRegexp(a)
		if err != nil {
			return r, false, err
		}
		res = append(res, re)
	}
	re := res[0]
	if len(res) > 1 {
		re = "(?:" + strings.Join(res, "|") + ")"
	}
	r.re, err = regexp.Compile("(?s)" + re)
	if err != nil {
		return r, false, err
	}
	return r, true, nil
}

// match gives the verdict of the last rule matching rel (relative to the
// rules' directory).
func (rs rules) match(rel string, isDir bool) verdict {
	for i := len(rs) - 1; i >= 0; i-- {
		r := &rs[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.re.MatchString(rel) {
			if r.whitelist {
				return whitelist
			}
			return ignore
		}
	}
	return none
}

// readRules reads an ignore file; a missing file has no rules, and a
// line that is not a valid glob is skipped (as ripgrep does).
func readRules(name string) rules {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var rs rules
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if r, ok, err := parseRule(sc.Text()); ok && err == nil {
			rs = append(rs, r)
		}
	}
	return rs
}

// frame holds the ignore files of one directory.
type frame struct {
	rel    string // the directory relative to the search root ("" for the root)
	prefix string // for a directory above the root: the root relative to it
	above  bool

	rgignore, ignore, gitignore, exclude rules
	hasGit                               bool // holds .git: the .gitignores above it do not apply
}

// loadFrame reads the ignore files of dir; nil when it has none. has
// says whether dir holds a name (nil: try every file).
func loadFrame(dir string, has func(name string) bool) *frame {
	read := func(name string) rules {
		if has != nil && !has(name) {
			return nil
		}
		return readRules(filepath.Join(dir, name))
	}
	f := &frame{rgignore: read(".rgignore"), ignore: read(".ignore"), gitignore: read(".gitignore")}
	if has != nil {
		f.hasGit = has(".git")
	} else {
		_, err := os.Lstat(filepath.Join(dir, ".git"))
		f.hasGit = err == nil
	}
	if f.hasGit {
		f.exclude = readRules(filepath.Join(dir, ".git", "info", "exclude"))
	}
	if !f.hasGit && f.rgignore == nil && f.ignore == nil && f.gitignore == nil {
		return nil
	}
	return f
}

// ancestorFrames loads the ignore files of the directories above root,
// outermost first.
func ancestorFrames(root string) []*frame {
	var frames []*frame
	prefix := ""
	for dir := root; ; {
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		prefix = filepath.ToSlash(filepath.Join(filepath.Base(dir), prefix))
		if f := loadFrame(parent, nil); f != nil {
			f.above, f.prefix = true, prefix
			frames = append(frames, f)
		}
		dir = parent
	}
	for i, j := 0, len(frames)-1; i < j; i, j = i+1, j-1 {
		frames[i], frames[j] = frames[j], frames[i]
	}
	return frames
}

// ignored gives the verdict of the ignore files in frames (outermost
// first) on rel, a path relative to the search root.
func ignored(frames []*frame, rel string, isDir bool) verdict {
	var custom, dot, git, excl verdict
	sawGit := false
	for i := len(frames) - 1; i >= 0; i-- {
		f := frames[i]
		p := rel
		switch {
		case f.above:
			p = f.prefix + "/" + rel
		case f.rel != "":
			p = rel[len(f.rel)+1:]
		}
		if custom == none {
			custom = f.rgignore.match(p, isDir)
		}
		if dot == none {
			dot = f.ignore.match(p, isDir)
		}
		if !sawGit {
			if git == none {
				git = f.gitignore.match(p, isDir)
			}
			if excl == none {
				excl = f.exclude.match(p, isDir)
			}
		}
		sawGit = sawGit || f.hasGit
	}
	for _, v := range [...]verdict{custom, dot, git, excl} {
		if v != none {
			return v
		}
	}
	return none
}

// entry is one directory entry met by [walk].
type entry struct {
	rel   string // slash-separated, relative to the root
	name  string
	depth int // 1 for the root's children
	isDir bool
	typ   fs.FileMode // the entry's type bits (not followed: a symlink is a symlink)

	frames []*frame
}

// ignored is the verdict of the ignore files on the entry.
func (e *entry) ignored() verdict { return ignored(e.frames, e.rel, e.isDir) }

// hidden says whether the entry's name starts with a dot.
func (e *entry) hidden() bool { return strings.HasPrefix(e.name, ".") }

// walk walks the directory root depth first in name order (which is
// also [pathCompare]'s order), calling visit for every entry; visit says
// whether to enter a directory. Ignore files are read as directories are
// entered, unless noIgnore. It stops early when ctx is done and counts the
// directories it could not read.
type walk struct {
	root     string
	noIgnore bool
	maxDepth int // 0: no limit
	visit    func(e *entry) bool

	unreadable int
}

func (w *walk) run(ctx context.Context) {
	var frames []*frame
	if !w.noIgnore {
		frames = ancestorFrames(w.root)
	}
	w.dir(ctx, w.root, "", 0, frames)
}

// dir walks the directory abs (rel from the root); frames are the ignore
// files of the directories above it.
func (w *walk) dir(ctx context.Context, abs, rel string, depth int, frames []*frame) {
	if ctx.Err() != nil {
		return
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		w.unreadable++
	}
	if !w.noIgnore {
		// the listing says which ignore files exist: no failed opens
		has := func(name string) bool {
			i, found := slices.BinarySearchFunc(ents, name, func(d os.DirEntry, name string) int { return strings.Compare(d.Name(), name) })
			return found && (name == ".git" || !ents[i].IsDir())
		}
		if f := loadFrame(abs, has); f != nil {
			f.rel = rel
			frames = append(frames[:len(frames):len(frames)], f)
		}
	}
	for _, d := range ents {
		if ctx.Err() != nil {
			return
		}
		e := entry{name: d.Name(), depth: depth + 1, typ: d.Type(), isDir: d.IsDir(), frames: frames}
		e.rel = e.name
		if rel != "" {
			e.rel = rel + "/" + e.name
		}
		if w.maxDepth > 0 && e.depth > w.maxDepth {
			continue
		}
		if !w.visit(&e) || !e.isDir || (w.maxDepth > 0 && e.depth >= w.maxDepth) {
			continue
		}
		w.dir(ctx, filepath.Join(abs, e.name), e.rel, e.depth, frames)
	}
}

// pathCompare orders slash-separated paths as a depth-first walk in
// name order meets them: "a/b" before "a.txt", since a directory's entries
// come with it.
func pathCompare(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		ca, cb := a[i], b[i]
		if ca == '/' {
			ca = 0
		}
		if cb == '/' {
			cb = 0
		}
		if ca != cb {
			return int(ca) - int(cb)
		}
	}
	return len(a) - len(b)
}
