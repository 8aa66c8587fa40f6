package mcpserver

// terminal_rg and terminal_glob: the search package's Grep and Glob as tools.
// Their wire types are here, apart from search's plain Go types, so that the
// tools' schemas are set by what agents are told and not by search's API.

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/search"
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
	addSearchToolsWith(s, dir, search.Config{})
}

// addSearchToolsWith is addSearchTools with c's limits and engine: tests
// shrink the limits and force the Go walk.
func addSearchToolsWith(s *mcp.Server, dir func(*mcp.CallToolRequest, string) string, c search.Config) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	addTool(s, &mcp.Tool{Name: "terminal_rg", Description: rgDescription, Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in rgInput) (*mcp.CallToolResult, rgOutput, error) {
			res, err := search.Grep(ctx, search.GrepOptions{
				Pattern: in.Pattern, Path: dir(req, in.Path), Glob: in.Glob, TypeFilter: in.TypeFilter,
				IgnoreCase: in.IgnoreCase, Context: in.Context, MaxCount: in.MaxCount, MaxDepth: in.MaxDepth,
				Hidden: in.Hidden, NoIgnore: in.NoIgnore, Config: c,
			})
			if err != nil {
				return nil, rgOutput{}, err
			}
			out := rgOutput{Matches: make([]rgMatch, len(res.Matches)), Total: len(res.Matches), Truncated: res.Truncated, Engine: res.Engine, Note: res.Note}
			for i, m := range res.Matches {
				out.Matches[i] = rgMatch(m) // the same fields, with their wire tags
			}
			return nil, out, nil
		})
	addTool(s, &mcp.Tool{Name: "terminal_glob", Description: globDescription, Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in globInput) (*mcp.CallToolResult, globOutput, error) {
			res, err := search.Glob(ctx, search.GlobOptions{
				Pattern: in.Pattern, Path: dir(req, in.Path), MaxResults: in.MaxResults, IncludeIgnored: in.IncludeIgnored, Config: c,
			})
			if err != nil {
				return nil, globOutput{}, err
			}
			out := globOutput{Paths: res.Paths, Count: len(res.Paths), Truncated: res.Truncated, Note: res.Note}
			if out.Paths == nil { // [] on the wire, not null
				out.Paths = []string{}
			}
			return nil, out, nil
		})
}
