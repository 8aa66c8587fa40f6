package search

// Glob: the shell's globs over a walk that honours ignore files. A
// pattern is matched segment by segment as the walk goes down, so a directory
// no pattern can enter is never read.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// globSeg is one path segment of a glob: "**" or a name pattern.
type globSeg struct {
	any bool           // "**": any number of directories whose names do not start with a dot
	re  *regexp.Regexp // a name; it matches a leading dot only if dot
	dot bool           // the segment starts with a literal dot
}

// globPattern is one alternative of Glob's pattern.
type globPattern []globSeg

// globState is a position in one alternative: segs[pos] is next.
type globState struct{ alt, pos int }

// globMatcher matches the alternatives of a pattern as the walk goes down.
type globMatcher struct{ alts []globPattern }

// globCompile turns Glob's pattern into its alternatives (see
// GlobOptions.Pattern for the rules).
func globCompile(pattern, root string) (*globMatcher, error) {
	p := strings.TrimSpace(pattern)
	if p == "" {
		return nil, errors.New("pattern is empty: give a glob such as *.go or src/**/*.ts")
	}
	if filepath.IsAbs(p) {
		// an absolute path under root is made relative; one elsewhere is a
		// mistake, unless its first name is not in / (then a leading slash
		// anchors the pattern to path, as in .gitignore)
		rel, err := filepath.Rel(root, p)
		switch first, _, _ := strings.Cut(strings.TrimLeft(p, "/"), "/"); {
		case err == nil && rel != ".." && !strings.HasPrefix(rel, "../"):
			p = filepath.ToSlash(rel)
		case first != "" && !strings.ContainsAny(first, `*?[{\`) && exists(filepath.Join("/", first)):
			return nil, fmt.Errorf("pattern %q is an absolute path outside path %q: give a pattern relative to path, or path to look under", pattern, root)
		}
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") {
		return nil, fmt.Errorf("pattern %q goes up with ..: give the directory to look under as path instead", pattern)
	}
	alts, err := expandBraces(p)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	m := &globMatcher{}
	for _, a := range alts {
		dir := strings.HasSuffix(a, "/")
		a = strings.TrimRight(a, "/")
		if a == "" {
			continue
		}
		var forms []string
		switch {
		case strings.HasPrefix(a, "/"):
			forms = []string{strings.TrimLeft(a, "/")}
		case strings.Contains(a, "/"):
			forms = []string{a}
		case !strings.ContainsAny(a, `*?[\.`): // a bare name: name or name.*
			forms = []string{"**/" + a, "**/" + a + ".*"}
		default:
			forms = []string{"**/" + a}
		}
		for _, f := range forms {
			if dir {
				f += "/**"
			}
			g, err := globParse(f)
			if err != nil {
				return nil, fmt.Errorf("pattern %q: %w", pattern, err)
			}
			m.alts = append(m.alts, g)
		}
	}
	if len(m.alts) == 0 {
		return nil, fmt.Errorf("pattern %q matches nothing", pattern)
	}
	return m, nil
}

func globParse(p string) (globPattern, error) {
	var g globPattern
	for _, s := range strings.Split(p, "/") {
		switch {
		case s == "":
			continue
		case s == "**":
			if len(g) == 0 || !g[len(g)-1].any {
				g = append(g, globSeg{any: true})
			}
			continue
		}
		re, err := segmentRegexp(s)
		if err != nil {
			return nil, err
		}
		c, err := regexp.Compile(`(?s)^` + re + `$`)
		if err != nil {
			return nil, err
		}
		g = append(g, globSeg{re: c, dot: strings.HasPrefix(s, ".")})
	}
	return g, nil
}

// start is the set of positions before any segment.
func (m *globMatcher) start() []globState {
	var st []globState
	for i := range m.alts {
		st = m.close(st, globState{i, 0})
	}
	return st
}

// close adds s and the positions reached from it by "**" matching nothing.
func (m *globMatcher) close(st []globState, s globState) []globState {
	for {
		if slices.Contains(st, s) {
			return st
		}
		st = append(st, s)
		g := m.alts[s.alt]
		if s.pos >= len(g) || !g[s.pos].any {
			return st
		}
		s.pos++
	}
}

// step moves the positions in st over one name; final says whether some
// alternative is then complete.
func (m *globMatcher) step(st []globState, name string) (next []globState, final bool) {
	hidden := strings.HasPrefix(name, ".")
	for _, s := range st {
		g := m.alts[s.alt]
		if s.pos >= len(g) {
			continue
		}
		switch seg := g[s.pos]; {
		case seg.any:
			if !hidden {
				next = m.close(next, s)
			}
		case (!hidden || seg.dot) && seg.re.MatchString(name):
			next = m.close(next, globState{s.alt, s.pos + 1})
		}
	}
	for _, s := range next {
		if s.pos == len(m.alts[s.alt]) {
			final = true
		}
	}
	return next, final
}

// GlobOptions is one listing of file names.
type GlobOptions struct {
	// Pattern is the glob of the files to list, relative to Path: * and ?
	// stay within a name, ** spans directories, [abc] and {a,b} are as in
	// the shell; a pattern without a slash matches names at any depth; a
	// bare name without wildcards or dot also finds name.*; a trailing slash
	// lists everything under the matching directories; wildcards do not
	// match a leading dot.
	Pattern string
	// Path is the directory to list under ("" is the working directory); the
	// paths listed are relative to it.
	Path string
	// MaxResults is the most paths listed (1 to 100000; 0 is 1000).
	MaxResults int
	// IncludeIgnored also lists what ignore files leave out, and dependency
	// and build directories such as node_modules and target.
	IncludeIgnored bool
	// Config holds the time limit; Glob uses none of its other fields.
	Config Config
}

// GlobResult is what Glob found.
type GlobResult struct {
	// Paths are the matching files and symlinks, slash-separated, relative
	// to GlobOptions.Path, sorted.
	Paths []string
	// Truncated says more files matched than listed: see Note.
	Truncated bool
	// Note says what was left out and why.
	Note string
}

// Glob lists the files whose path matches a glob, leaving out what ignore
// files leave out, as Grep does. An invalid option or pattern is an error
// saying why; MaxResults or the time limit cuts the list short, saying so in
// its note.
func Glob(ctx context.Context, in GlobOptions) (GlobResult, error) {
	c := in.Config.withDefaults()
	max := in.MaxResults
	switch {
	case max == 0:
		max = 1000
	case max < 0 || max > 100000:
		return GlobResult{}, fmt.Errorf("max_results must be between 1 and 100000, not %d", max)
	}
	root, file, err := resolve(in.Path)
	if err != nil {
		return GlobResult{}, err
	}
	if file != "" {
		return GlobResult{}, fmt.Errorf("path %q is a file: give the directory to list under", in.Path)
	}
	m, err := globCompile(in.Pattern, root)
	if err != nil {
		return GlobResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.TimeLimit)
	defer cancel()
	ctx, stop := context.WithCancel(ctx)
	defer stop()

	var out GlobResult
	// the positions reached at each directory, by depth (the walk is depth first)
	states := [][]globState{m.start()}
	w := &walk{root: root, noIgnore: in.IncludeIgnored}
	w.visit = func(e *entry) bool {
		if e.name == ".git" || (!in.IncludeIgnored && e.isDir && skipDirs[e.name]) {
			return false
		}
		next, final := m.step(states[e.depth-1], e.name)
		if len(next) == 0 {
			return false
		}
		if !in.IncludeIgnored && e.ignored() == ignore {
			return false
		}
		if e.isDir {
			more := slices.ContainsFunc(next, func(s globState) bool { return s.pos < len(m.alts[s.alt]) })
			states = append(states[:e.depth], next)
			return more
		}
		if final && (e.typ.IsRegular() || e.typ&fs.ModeSymlink != 0) {
			if len(out.Paths) == max {
				out.Truncated = true
				stop()
				return false
			}
			out.Paths = append(out.Paths, e.rel)
		}
		return false
	}
	w.run(ctx)
	if err := context.Cause(ctx); err != nil && !out.Truncated {
		if !errors.Is(err, context.DeadlineExceeded) {
			return GlobResult{}, err
		}
		out.Truncated = true
		out.Note = fmt.Sprintf("time limit of %v reached; the list is partial: narrow the pattern or path", c.TimeLimit)
	}
	if out.Truncated && out.Note == "" {
		out.Note = fmt.Sprintf("stopped at %d paths; narrow the pattern or path, or raise max_results", max)
	}
	if w.unreadable > 0 {
		out.Note = strings.TrimPrefix(out.Note+fmt.Sprintf("; %d directories could not be read", w.unreadable), "; ")
	}
	return out, nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
