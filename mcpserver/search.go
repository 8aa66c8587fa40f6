package mcpserver

// terminal_rg and terminal_glob: code search for agents without a shell
// round-trip. terminal_rg runs ripgrep (--json) when it is on PATH and a Go
// walk otherwise; both engines take the same flags to the same results (see
// search_ignore.go for the ignore rules, search_grep.go, search_literal.go and
// search_rg.go for the engines), so an agent never needs to know which one
// ran. terminal_glob (search_glob.go) walks with the same ignore rules.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type rgInput struct {
	Pattern    string `json:"pattern" jsonschema:"regular expression (RE2 syntax: escape ( ) [ ] { } . * + ? | ^ $ \\ to match them literally), matched line by line; it cannot match a line break"`
	Path       string `json:"path,omitempty" jsonschema:"directory or file to search (default .: the agent's working directory when it connects through tend mcp, else tend's); result paths are relative to it"`
	Glob       string `json:"glob,omitempty" jsonschema:"only files whose path (relative to path) matches this glob, e.g. *.go or src/**/*.{ts,tsx}; a glob without / matches names at any depth; a leading ! excludes instead"`
	TypeFilter string `json:"type_filter,omitempty" jsonschema:"only files of these types, comma-separated: go, py, js, ts, rust, c, cpp, java, kotlin, swift, ruby, php, cs, sh, md, json, yaml, toml, html, css, sql, proto, make, docker, lua, zig, txt, xml, tf, scala, ex, erl, hs, dart, r, nix, svelte"`
	IgnoreCase bool   `json:"ignore_case,omitempty" jsonschema:"match case-insensitively"`
	Context    int    `json:"context,omitempty" jsonschema:"lines of context to return before and after each match (0 to 10; default 0)"`
	MaxCount   int    `json:"max_count,omitempty" jsonschema:"at most this many matching lines per file (default: no limit)"`
	MaxDepth   int    `json:"max_depth,omitempty" jsonschema:"descend at most this many directory levels (1: only the files directly in path; default: no limit)"`
	Hidden     bool   `json:"hidden,omitempty" jsonschema:"also search hidden files and directories (names starting with a dot); .git is never searched"`
	NoIgnore   bool   `json:"no_ignore,omitempty" jsonschema:"also search what .gitignore/.ignore/.rgignore exclude, and node_modules, __pycache__, .venv, venv, target, dist and similar directories"`
}

type rgMatch struct {
	Path   string   `json:"path" jsonschema:"the file, relative to path"`
	Line   int      `json:"line" jsonschema:"1-based line number"`
	Text   string   `json:"text" jsonschema:"the matching line (a very long line is cut, saying how much was left out)"`
	Before []string `json:"before,omitempty" jsonschema:"up to context lines just before the match, in order"`
	After  []string `json:"after,omitempty" jsonschema:"up to context lines just after the match, in order (they may match too)"`
}

type rgOutput struct {
	Matches   []rgMatch `json:"matches" jsonschema:"matching lines, by path then line"`
	Total     int       `json:"total" jsonschema:"the number of matches returned"`
	Truncated bool      `json:"truncated" jsonschema:"there were more matches than returned (result cap, output size or time limit: see note)"`
	Engine    string    `json:"engine" jsonschema:"rg (ripgrep) or go (tend's own walk, when rg is not installed)"`
	Note      string    `json:"note,omitempty" jsonschema:"what was left out and why, or what went wrong on the way"`
}

type globInput struct {
	Pattern        string `json:"pattern" jsonschema:"glob of the files to list, relative to path: * and ? stay within a name, ** spans directories, [abc] and {a,b} as in the shell; a pattern without / matches names at any depth (*.go is **/*.go); a bare name without wildcards or dot also finds name.* (main finds main.go, main.py, main); a trailing / lists everything under matching directories; wildcards do not match a leading dot (write .github/** or **/.env*)"`
	Path           string `json:"path,omitempty" jsonschema:"directory to list under (default .: the agent's working directory when it connects through tend mcp, else tend's); result paths are relative to it"`
	MaxResults     int    `json:"max_results,omitempty" jsonschema:"at most this many paths (default 1000)"`
	IncludeIgnored bool   `json:"include_ignored,omitempty" jsonschema:"also list what .gitignore/.ignore/.rgignore exclude, and node_modules, __pycache__, .venv, venv, target, dist and similar directories"`
}

type globOutput struct {
	Paths     []string `json:"paths" jsonschema:"matching files (and symlinks), relative to path, sorted"`
	Count     int      `json:"count" jsonschema:"the number of paths returned"`
	Truncated bool     `json:"truncated" jsonschema:"more files matched than max_results (or the time limit was hit: see note)"`
	Note      string   `json:"note,omitempty" jsonschema:"what was left out and why"`
}

// searchConfig holds the search tools' limits; tests shrink them and force
// one engine.
type searchConfig struct {
	rg          string        // the ripgrep binary: "" finds rg on PATH; searchNoRG forces the Go walk
	maxMatches  int           // terminal_rg's cap on matches
	maxOutput   int           // terminal_rg's cap on the bytes of text returned
	maxLine     int           // a longer line is cut, saying so
	maxFileSize int64         // larger files are not searched (rg --max-filesize)
	timeLimit   time.Duration // per call; the results so far are returned, saying so
	workers     int           // files searched at once by the Go walk
	// dir resolves a call's path against the agent's working directory
	// (Server.dir); nil: as given.
	dir func(*mcp.CallToolRequest, string) string
}

// searchNoRG as searchConfig.rg forces the Go walk.
const searchNoRG = "-"

func defaultSearchConfig() searchConfig {
	return searchConfig{
		maxMatches:  1000,
		maxOutput:   512 << 10,
		maxLine:     500,
		maxFileSize: 64 << 20,
		timeLimit:   20 * time.Second,
	}
}

const rgDescription = "Search file contents with a regular expression, like ripgrep (ripgrep runs it when installed; a Go walk gives the same results otherwise). " +
	"Skips what .gitignore/.ignore/.rgignore exclude, hidden files, binary files, .git, and node_modules, __pycache__, .venv, venv, target, dist and similar directories, unless hidden or no_ignore say otherwise. " +
	"Returns matches as {path, line, text, before, after} sorted by path and line, at most 1000 and for at most 20 seconds: when truncated is true, narrow pattern, path, glob or type_filter. " +
	"A pattern that is not a valid regular expression is an error saying why."

const globDescription = "List files whose path matches a glob, like the shell's ** globs: *.go or main finds them at any depth, src/**/*.ts under src. " +
	"Skips what .gitignore/.ignore/.rgignore exclude, .git, and node_modules, __pycache__, .venv, venv, target, dist and similar directories unless include_ignored. " +
	"Returns {paths, count, truncated}, sorted, relative to path."

// addSearchTools registers the search tools; dir resolves the path a call
// gives against the agent's working directory.
func addSearchTools(s *mcp.Server, dir func(*mcp.CallToolRequest, string) string) {
	c := defaultSearchConfig()
	c.dir = dir
	addSearchToolsWith(s, c)
}

func addSearchToolsWith(s *mcp.Server, c searchConfig) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	mcp.AddTool(s, &mcp.Tool{Name: "terminal_rg", Description: rgDescription, Annotations: ro}, c.rgTool)
	mcp.AddTool(s, &mcp.Tool{Name: "terminal_glob", Description: globDescription, Annotations: ro}, c.globTool)
}

// searchQuery is a checked terminal_rg call.
type searchQuery struct {
	in        rgInput
	root      string          // the directory searched, or the directory of the file searched
	file      string          // the name of the file searched, when path is a file
	re        *regexp.Regexp  // the Go walk's form of the pattern (see searchCompile)
	lits      []searchLiteral // every match holds one of these: candidate lines are found fast
	glob      *searchRule     // from in.Glob; whitelist here means "leave out"
	include   bool            // glob includes (no leading !): the files it misses are left out
	typeGlobs []string        // from in.TypeFilter
	types     *regexp.Regexp  // the same, over file names
}

// searchResult is what an engine found: matches in any order.
type searchResult struct {
	matches   []rgMatch
	truncated bool // more matches than the cap
	timedOut  bool
	notes     []string
}

func (c searchConfig) rgTool(ctx context.Context, req *mcp.CallToolRequest, in rgInput) (*mcp.CallToolResult, rgOutput, error) {
	if c.dir != nil {
		in.Path = c.dir(req, in.Path)
	}
	q, err := c.prepare(in)
	if err != nil {
		return nil, rgOutput{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeLimit)
	defer cancel()
	engine := "go"
	var res searchResult
	var notes []string
	if bin := c.rgBinary(); bin != "" {
		engine = "rg"
		res, err = c.runRG(ctx, bin, q)
		var unusable *searchRGUnusableError
		if errors.As(err, &unusable) {
			engine = "go"
			notes = append(notes, unusable.Error()+"; searched with the Go walk instead")
			res, err = c.runGo(ctx, q)
		}
	} else {
		res, err = c.runGo(ctx, q)
	}
	if err != nil {
		return nil, rgOutput{}, err
	}
	res.notes = append(notes, res.notes...)
	out := c.finish(res)
	out.Engine = engine
	return nil, out, nil
}

// rgBinary is the ripgrep to run, or "" for the Go walk.
func (c searchConfig) rgBinary() string {
	switch c.rg {
	case searchNoRG:
		return ""
	case "":
		p, err := exec.LookPath("rg")
		if err != nil {
			return ""
		}
		return p
	default:
		return c.rg
	}
}

// prepare checks a call's arguments and compiles its pattern and globs.
func (c searchConfig) prepare(in rgInput) (*searchQuery, error) {
	q := &searchQuery{in: in}
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
	if q.re, q.lits, err = searchCompile(in.Pattern, in.IgnoreCase); err != nil {
		return nil, err
	}
	if q.root, q.file, err = searchResolve(in.Path); err != nil {
		return nil, err
	}
	if g := strings.TrimSpace(in.Glob); g != "" {
		q.include = !strings.HasPrefix(g, "!")
		r, ok, err := searchParseRule(g)
		if err != nil || !ok {
			if err == nil {
				err = errors.New("it matches nothing")
			}
			return nil, fmt.Errorf("glob %q is not valid: %w", in.Glob, err)
		}
		q.glob = &r
	}
	if in.TypeFilter != "" {
		if q.typeGlobs, q.types, err = searchTypes(in.TypeFilter); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// searchResolve turns the path argument into the directory to search and,
// when it names a file, that file's name.
func searchResolve(p string) (root, file string, err error) {
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

// searchCompile checks pattern and compiles the Go walk's form of it: a
// multi-line regexp that cannot match a line break, so that one pass over a
// whole file finds the same lines as ripgrep's line-by-line search; and
// literals one of which every match holds, if it finds some.
func searchCompile(pattern string, ignoreCase bool) (*regexp.Regexp, []searchLiteral, error) {
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
	if err := searchNoNewline(re); err != nil {
		return nil, nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	out, err := regexp.Compile(re.String())
	if err != nil { // a regexp that syntax printed should compile
		return nil, nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	return out, searchRequired(re), nil
}

// searchNoNewline rewrites re in place so that it matches within lines: no
// class or "." matches a line break, and ^ $ \A \z are line anchors. A literal
// line break is an error, as it is for ripgrep.
func searchNoNewline(re *syntax.Regexp) error {
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
		if err := searchNoNewline(sub); err != nil {
			return err
		}
	}
	return nil
}

// searchTypeTable is terminal_rg's type_filter: file-name globs, after
// ripgrep's own table (rg --type-list), which the rg engine is not asked to
// use, so that both engines agree.
var searchTypeTable = map[string][]string{
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

// searchTypeAliases are other names agents use for the types above.
var searchTypeAliases = map[string]string{
	"golang": "go", "python": "py", "javascript": "js", "jsx": "js", "typescript": "ts", "tsx": "ts",
	"rs": "rust", "h": "c", "c++": "cpp", "cc": "cpp", "cxx": "cpp", "kt": "kotlin", "rb": "ruby",
	"csharp": "cs", "c#": "cs", "shell": "sh", "bash": "sh", "zsh": "sh", "markdown": "md",
	"yml": "yaml", "htm": "html", "scss": "css", "protobuf": "proto", "makefile": "make",
	"dockerfile": "docker", "text": "txt", "terraform": "tf", "hcl": "tf", "elixir": "ex",
	"erlang": "erl", "haskell": "hs",
}

// searchTypes turns a type_filter into its file-name globs and a regexp of
// them.
func searchTypes(filter string) ([]string, *regexp.Regexp, error) {
	var globs, res []string
	for name := range strings.SplitSeq(filter, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if a, ok := searchTypeAliases[name]; ok {
			name = a
		}
		gs, ok := searchTypeTable[name]
		if !ok {
			known := make([]string, 0, len(searchTypeTable))
			for k := range searchTypeTable {
				known = append(known, k)
			}
			slices.Sort(known)
			return nil, nil, fmt.Errorf("type_filter: unknown type %q; known types: %s (or use glob, e.g. *.ext)", name, strings.Join(known, ", "))
		}
		for _, g := range gs {
			re, err := searchSegmentRegexp(g)
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
func (c searchConfig) finish(res searchResult) rgOutput {
	ms := res.matches
	slices.SortStableFunc(ms, func(a, b rgMatch) int {
		if d := searchPathCompare(a.Path, b.Path); d != 0 {
			return d
		}
		return a.Line - b.Line
	})
	out := rgOutput{Matches: ms, Truncated: res.truncated}
	notes := res.notes
	if len(ms) > c.maxMatches {
		out.Matches, out.Truncated = ms[:c.maxMatches], true
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
		if size > c.maxOutput && i > 0 {
			out.Matches, out.Truncated = out.Matches[:i], true
			notes = append(notes, fmt.Sprintf("output cut to %d matches (%d KiB of text); ask for less context or narrow the search", i, c.maxOutput>>10))
			break
		}
	}
	if res.timedOut {
		out.Truncated = true
		notes = append(notes, fmt.Sprintf("time limit of %v reached; the results are partial: narrow the search", c.timeLimit))
	}
	if out.Matches == nil {
		out.Matches = []rgMatch{}
	}
	out.Total = len(out.Matches)
	out.Note = strings.Join(notes, "; ")
	return out
}

// searchText is how a line is returned: without its line break, cut at
// max bytes (saying how many were left out), as valid UTF-8.
func searchText(line []byte, max int) string {
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
