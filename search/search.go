package search

// Grep and its query: the options checked, the pattern compiled for the Go
// walk, the engine picked, and the engines' matches ordered and capped. The
// engines are in grep.go (the Go walk, with literal.go's prefilter) and rg.go
// (ripgrep); ignore.go has the ignore rules and the walk that Glob (glob.go)
// uses too.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Config holds the limits of a search and picks its engine. Its zero value
// gives the defaults: a zero (or negative) field takes its default.
type Config struct {
	// RG is the ripgrep binary; "" finds rg on PATH.
	RG string
	// NoRG searches with the Go walk even when ripgrep is installed.
	NoRG bool
	// MaxMatches caps the matches Grep returns (default 1000).
	MaxMatches int
	// MaxOutput caps the bytes of text Grep returns (default 512 KiB).
	MaxOutput int
	// MaxLine is the longest line returned whole; a longer one is cut,
	// saying so (default 500 bytes).
	MaxLine int
	// MaxFileSize is the largest file searched, as rg --max-filesize
	// (default 64 MiB).
	MaxFileSize int64
	// TimeLimit bounds one call; the results found by then are returned,
	// saying so (default 20 seconds).
	TimeLimit time.Duration
	// Workers is how many files the Go walk searches at once (default
	// GOMAXPROCS, at most 8).
	Workers int
}

// withDefaults fills in the fields left zero (or negative).
func (c Config) withDefaults() Config {
	if c.MaxMatches <= 0 {
		c.MaxMatches = 1000
	}
	if c.MaxOutput <= 0 {
		c.MaxOutput = 512 << 10
	}
	if c.MaxLine <= 0 {
		c.MaxLine = 500
	}
	if c.MaxFileSize <= 0 {
		c.MaxFileSize = 64 << 20
	}
	if c.TimeLimit <= 0 {
		c.TimeLimit = 20 * time.Second
	}
	if c.Workers <= 0 {
		c.Workers = min(runtime.GOMAXPROCS(0), 8)
	}
	return c
}

// GrepOptions is one search of file contents.
type GrepOptions struct {
	// Pattern is an RE2 regular expression, matched line by line: it cannot
	// match a line break.
	Pattern string
	// Path is the directory or file to search ("" is the working directory);
	// the matches' paths are relative to it (to its directory for a file).
	Path string
	// Glob keeps only the files whose path relative to Path matches it; a
	// glob without a slash matches names at any depth, a leading ! leaves
	// the matching files out instead.
	Glob string
	// TypeFilter keeps only the files of these types, comma-separated (go,
	// py, ts, ...).
	TypeFilter string
	// IgnoreCase matches case-insensitively.
	IgnoreCase bool
	// Context is the number of lines returned before and after each match
	// (0 to 10).
	Context int
	// MaxCount is the most matching lines taken from one file (0: no limit).
	MaxCount int
	// MaxDepth is the most directory levels descended (1: only the files
	// directly in Path; 0: no limit).
	MaxDepth int
	// Hidden also searches names starting with a dot (.git never).
	Hidden bool
	// NoIgnore also searches what ignore files leave out, and dependency
	// and build directories such as node_modules and target.
	NoIgnore bool
	// Config holds the limits and the engine.
	Config Config
}

// Match is one matching line.
type Match struct {
	// Path is the file, slash-separated, relative to GrepOptions.Path.
	Path string
	// Line is the 1-based line number.
	Line int
	// Text is the line without its line break, cut if longer than
	// Config.MaxLine.
	Text string
	// Before holds up to GrepOptions.Context lines just before the match,
	// in order.
	Before []string
	// After holds up to GrepOptions.Context lines just after the match, in
	// order (they may match too).
	After []string
}

// GrepResult is what Grep found.
type GrepResult struct {
	// Matches are ordered by path, as a depth-first walk in name order
	// meets the files, then by line.
	Matches []Match
	// Truncated says more matches were found than returned: see Note.
	Truncated bool
	// Engine is "rg" (ripgrep) or "go" (the Go walk).
	Engine string
	// Note says what was left out and why, or what went wrong on the way.
	Note string
}

// query is a checked Grep call.
type query struct {
	in        GrepOptions
	root      string         // the directory searched, or the directory of the file searched
	file      string         // the name of the file searched, when path is a file
	re        *regexp.Regexp // the Go walk's form of the pattern (see compile)
	lits      []literal      // every match holds one of these: candidate lines are found fast
	glob      *rule          // from in.Glob; whitelist here means "leave out"
	include   bool           // glob includes (no leading !): the files it misses are left out
	typeGlobs []string       // from in.TypeFilter
	types     *regexp.Regexp // the same, over file names
}

// result is what an engine found: matches in any order.
type result struct {
	matches   []Match
	truncated bool // more matches than the cap
	timedOut  bool
	notes     []string
}

// Grep searches file contents for a regular expression, with ripgrep when it
// is installed and the Go walk otherwise (or when ripgrep cannot run); both
// give the same matches. An invalid option or pattern, or a path that cannot
// be searched, is an error saying why; a cap or the time limit cuts the
// result short, saying so in its note.
func Grep(ctx context.Context, in GrepOptions) (GrepResult, error) {
	c := in.Config.withDefaults()
	q, err := prepare(in)
	if err != nil {
		return GrepResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.TimeLimit)
	defer cancel()
	engine := "go"
	var res result
	var notes []string
	if bin := c.rgBinary(); bin != "" {
		engine = "rg"
		res, err = c.runRG(ctx, bin, q)
		var unusable *rgUnusableError
		if errors.As(err, &unusable) {
			engine = "go"
			notes = append(notes, unusable.Error()+"; searched with the Go walk instead")
			res, err = c.runGo(ctx, q)
		}
	} else {
		res, err = c.runGo(ctx, q)
	}
	if err != nil {
		return GrepResult{}, err
	}
	res.notes = append(notes, res.notes...)
	out := c.finish(res)
	out.Engine = engine
	return out, nil
}

// rgBinary is the ripgrep to run, or "" for the Go walk.
func (c Config) rgBinary() string {
	switch {
	case c.NoRG:
		return ""
	case c.RG == "":
		p, err := exec.LookPath("rg")
		if err != nil {
			return ""
		}
		return p
	default:
		return c.RG
	}
}

// prepare checks a call's arguments and compiles its pattern and globs.
func prepare(in GrepOptions) (*query, error) {
	q := &query{in: in}
	if in.Pattern == "" {
		return nil, errors.New("pattern is empty: give a regular expression to search for")
	}
	switch {
	case in.Context < 0 || in.Context > 10:
		return nil, fmt.Errorf("context must be between 0 and 10, not %d", in.Context)
	case in.MaxCount < 0:
		return nil, fmt.Errorf("max_count must not be negative (it is %d)", in.MaxCount)
	case in.MaxDepth < 0:
		return nil, fmt.Errorf("max_depth must not be negative (it is %d)", in.MaxDepth)
	}
	var err error
	if q.re, q.lits, err = compile(in.Pattern, in.IgnoreCase); err != nil {
		return nil, err
	}
	if q.root, q.file, err = resolve(in.Path); err != nil {
		return nil, err
	}
	if g := strings.TrimSpace(in.Glob); g != "" {
		q.include = !strings.HasPrefix(g, "!")
		r, ok, err := parseRule(g)
		if err != nil || !ok {
			if err == nil {
				err = errors.New("it matches nothing")
			}
			return nil, fmt.Errorf("glob %q is not valid: %w", in.Glob, err)
		}
		q.glob = &r
	}
	if in.TypeFilter != "" {
		if q.typeGlobs, q.types, err = types(in.TypeFilter); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// resolve turns the path argument into the directory to search and,
// when it names a file, that file's name.
func resolve(p string) (root, file string, err error) {
	arg := p
	if p == "" {
		p = "."
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", "", fmt.Errorf("path %q: %w", arg, err)
	}
	// ripgrep sees its working directory as getcwd gives it, symlinks resolved
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", "", fmt.Errorf("path %q does not exist", arg)
		}
		return "", "", fmt.Errorf("path %q: %w", arg, err)
	}
	st, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", "", fmt.Errorf("path %q: %w", arg, err)
	case st.IsDir():
		return abs, "", nil
	case st.Mode().IsRegular():
		return filepath.Dir(abs), filepath.Base(abs), nil
	default:
		return "", "", fmt.Errorf("path %q is neither a file nor a directory", arg)
	}
}

// compile checks pattern and compiles the Go walk's form of it: a
// multi-line regexp that cannot match a line break, so that one pass over a
// whole file finds the same lines as ripgrep's line-by-line search; and
// literals one of which every match holds, if it finds some.
func compile(pattern string, ignoreCase bool) (*regexp.Regexp, []literal, error) {
	flags := syntax.Perl
	if ignoreCase {
		flags |= syntax.FoldCase
	}
	re, err := syntax.Parse(pattern, flags)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, nil, fmt.Errorf("pattern %q is not a valid regular expression: %s: `%s` (RE2 syntax; put a backslash before ( ) [ ] { } . * + ? | ^ $ \\ to match one literally)", pattern, se.Code, se.Expr)
		}
		return nil, nil, fmt.Errorf("pattern %q is not a valid regular expression: %w", pattern, err)
	}
	if err := noNewline(re); err != nil {
		return nil, nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	out, err := regexp.Compile(re.String())
	if err != nil { // a regexp that syntax printed should compile
		return nil, nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	return out, required(re), nil
}

// noNewline rewrites re in place so that it matches within lines: no
// class or "." matches a line break, and ^ $ \A \z are line anchors. A literal
// line break is an error, as it is for ripgrep.
func noNewline(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, '\n') {
			return errors.New("a line break (\\n) cannot match: the search is line by line")
		}
	case syntax.OpCharClass:
		var out []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if lo <= '\n' && '\n' <= hi {
				if lo < '\n' {
					out = append(out, lo, '\n'-1)
				}
				if hi > '\n' {
					out = append(out, '\n'+1, hi)
				}
				continue
			}
			out = append(out, lo, hi)
		}
		if len(out) == 0 {
			return errors.New("a line break (\\n) cannot match: the search is line by line")
		}
		re.Rune = out
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpBeginText:
		re.Op = syntax.OpBeginLine
	case syntax.OpEndText:
		re.Op = syntax.OpEndLine
		re.Flags &^= syntax.WasDollar
	}
	for _, sub := range re.Sub {
		if err := noNewline(sub); err != nil {
			return err
		}
	}
	return nil
}

// typeTable is Grep's TypeFilter: file-name globs, after
// ripgrep's own table (rg --type-list), which the rg engine is not asked to
// use, so that both engines agree.
var typeTable = map[string][]string{
	"go":     {"*.go"},
	"py":     {"*.py", "*.pyi"},
	"js":     {"*.js", "*.jsx", "*.vue", "*.cjs", "*.mjs"},
	"ts":     {"*.ts", "*.tsx", "*.cts", "*.mts"},
	"rust":   {"*.rs"},
	"c":      {"*.[chH]", "*.[chH].in", "*.cats"},
	"cpp":    {"*.[ChH]", "*.cc", "*.[ch]pp", "*.[ch]xx", "*.hh", "*.inl", "*.[ChH].in", "*.cc.in", "*.[ch]pp.in", "*.[ch]xx.in", "*.hh.in"},
	"java":   {"*.java", "*.jsp", "*.jspx", "*.properties"},
	"kotlin": {"*.kt", "*.kts"},
	"swift":  {"*.swift"},
	"ruby":   {"*.rb", "*.gemspec", "*.rake", "Gemfile", "Rakefile", ".irbrc"},
	"php":    {"*.php", "*.php3", "*.php4", "*.php5", "*.php7", "*.php8", "*.phtml"},
	"cs":     {"*.cs"},
	"sh":     {"*.sh", "*.bash", "*.zsh", "*.ksh", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout"},
	"md":     {"*.md", "*.markdown", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
	"json":   {"*.json", "composer.lock"},
	"yaml":   {"*.yaml", "*.yml"},
	"toml":   {"*.toml", "Cargo.lock"},
	"html":   {"*.htm", "*.html", "*.ejs"},
	"css":    {"*.css", "*.scss", "*.sass", "*.less"},
	"sql":    {"*.sql", "*.psql"},
	"proto":  {"*.proto"},
	"make":   {"Makefile", "makefile", "GNUmakefile", "*.mk", "*.mak"},
	"docker": {"Dockerfile", "Dockerfile.*", "*.dockerfile", "Containerfile"},
	"lua":    {"*.lua"},
	"zig":    {"*.zig"},
	"txt":    {"*.txt"},
	"xml":    {"*.xml", "*.xsd", "*.xsl", "*.xslt", "*.svg"},
	"tf":     {"*.tf", "*.tfvars", "*.tf.json"},
	"scala":  {"*.scala", "*.sbt", "*.sc"},
	"ex":     {"*.ex", "*.exs", "*.heex", "*.eex"},
	"erl":    {"*.erl", "*.hrl"},
	"hs":     {"*.hs", "*.lhs"},
	"dart":   {"*.dart"},
	"r":      {"*.R", "*.r", "*.Rmd", "*.Rnw"},
	"nix":    {"*.nix"},
	"svelte": {"*.svelte"},
}

// typeAliases are other names agents use for the types above.
var typeAliases = map[string]string{
	"golang": "go", "python": "py", "javascript": "js", "jsx": "js", "typescript": "ts", "tsx": "ts",
	"rs": "rust", "h": "c", "c++": "cpp", "cc": "cpp", "cxx": "cpp", "kt": "kotlin", "rb": "ruby",
	"csharp": "cs", "c#": "cs", "shell": "sh", "bash": "sh", "zsh": "sh", "markdown": "md",
	"yml": "yaml", "htm": "html", "scss": "css", "protobuf": "proto", "makefile": "make",
	"dockerfile": "docker", "text": "txt", "terraform": "tf", "hcl": "tf", "elixir": "ex",
	"erlang": "erl", "haskell": "hs",
}

// types turns a type_filter into its file-name globs and a regexp of
// them.
func types(filter string) ([]string, *regexp.Regexp, error) {
	var globs, res []string
	for name := range strings.SplitSeq(filter, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if a, ok := typeAliases[name]; ok {
			name = a
		}
		gs, ok := typeTable[name]
		if !ok {
			known := make([]string, 0, len(typeTable))
			for k := range typeTable {
				known = append(known, k)
			}
			slices.Sort(known)
			return nil, nil, fmt.Errorf("type_filter: unknown type %q; known types: %s (or use glob, e.g. *.ext)", name, strings.Join(known, ", "))
		}
		for _, g := range gs {
			re, err := segmentRegexp(g)
			if err != nil {
				return nil, nil, fmt.Errorf("type %s: %w", name, err)
			}
			globs, res = append(globs, g), append(res, re)
		}
	}
	if len(globs) == 0 {
		return nil, nil, nil
	}
	re, err := regexp.Compile(`^(?:` + strings.Join(res, "|") + `)$`)
	return globs, re, err
}

// finish orders an engine's matches and applies the caps, saying in the note
// what was left out.
func (c Config) finish(res result) GrepResult {
	ms := res.matches
	slices.SortStableFunc(ms, func(a, b Match) int {
		if d := pathCompare(a.Path, b.Path); d != 0 {
			return d
		}
		return a.Line - b.Line
	})
	out := GrepResult{Matches: ms, Truncated: res.truncated}
	notes := res.notes
	if len(ms) > c.MaxMatches {
		out.Matches, out.Truncated = ms[:c.MaxMatches], true
	}
	if out.Truncated {
		notes = append(notes, fmt.Sprintf("stopped at %d matches; narrow pattern, path, glob or type_filter to see the rest", len(out.Matches)))
	}
	size := 0
	for i, m := range out.Matches {
		size += len(m.Path) + len(m.Text) + 32
		for _, l := range m.Before {
			size += len(l) + 4
		}
		for _, l := range m.After {
			size += len(l) + 4
		}
		if size > c.MaxOutput && i > 0 {
			out.Matches, out.Truncated = out.Matches[:i], true
			notes = append(notes, fmt.Sprintf("output cut to %d matches (%d KiB of text); ask for less context or narrow the search", i, c.MaxOutput>>10))
			break
		}
	}
	if res.timedOut {
		out.Truncated = true
		notes = append(notes, fmt.Sprintf("time limit of %v reached; the results are partial: narrow the search", c.TimeLimit))
	}
	out.Note = strings.Join(notes, "; ")
	return out
}

// text is how a line is returned: without its line break, cut at
// max bytes (saying how many were left out), as valid UTF-8.
func text(line []byte, max int) string {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) <= max {
		return strings.ToValidUTF8(string(line), "\uFFFD")
	}
	cut := max
	for cut > 0 && cut > max-utf8.UTFMax && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return strings.ToValidUTF8(string(line[:cut]), "\uFFFD") + fmt.Sprintf(" …[%d more bytes]", len(line)-cut)
}
