package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"mvdan.cc/sh/v3/shell"

	"tend/internal/config"
	"tend/policy"
)

// runSetup is tend setup AGENT: add tend's MCP server and hooks to the
// agent's own settings, merged with what is there, once.
func runSetup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	route := fs.Bool("route", false, "make the hook route every allowed Bash command through tend run, so each is a job you see")
	dry := fs.Bool("n", false, "print what would change, change nothing")
	cfgPath := fs.String("config", config.DefaultPath(), "tend's config file, whose approval timeout the hook's own must exceed")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: tend setup claude [-route] [-n]
       tend setup codex | gemini | cursor   (prints what to add)

claude: adds tend to Claude Code for your user: the MCP server "tend"
(tend mcp) in ~/.claude.json, and in ~/.claude/settings.json the
PreToolUse hook "tend hook claude" on its Bash tool (every command asks
tend; held ones wait for your answer in tend) and the wake-up hook after
terminal_job_start (Claude is woken when the job ends). What is there is
kept; running it again changes nothing; a file it changes is first copied
to FILE.tend-backup. It prints what changed.

Flags:
`)
		fs.PrintDefaults()
	}
	agent, code, ok := parseOperand(fs, args, stdout)
	if !ok {
		return code
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "tend setup: where is this tend? %v\n", err)
		return 1
	}
	switch agent {
	case "claude":
	case "codex", "gemini", "cursor":
		fmt.Fprint(stdout, snippets(agent, self))
		return 0
	default:
		fmt.Fprintln(stderr, "tend setup: say which agent: claude (or codex, gemini, cursor for what to add by hand)")
		return 2
	}
	home, err := os.UserHomeDir()
	if err != nil {
		fmt.Fprintf(stderr, "tend setup: %v\n", err)
		return 1
	}
	hook := shellJoin([]string{self, "hook", "claude"})
	if *route {
		hook += " --route"
	}
	// The hook waits as long as tend may wait for an answer, and a bit:
	// killed before, it would leave the decision to Claude Code's rules.
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "tend setup: %v\n", err)
		return 1
	}
	timeout := int(cmp.Or(cfg.Approval.Timeout.Duration, policy.DefaultApprovalTimeout).Seconds()) + 60
	edits := []struct {
		path string
		edit func(map[string]any) ([]string, error)
	}{
		{filepath.Join(home, ".claude.json"), func(doc map[string]any) ([]string, error) {
			want := map[string]any{"type": "stdio", "command": self, "args": []any{"mcp"}, "env": map[string]any{}}
			return setKey(doc, []string{"mcpServers", "tend"}, want)
		}},
		{filepath.Join(home, ".claude", "settings.json"), func(doc map[string]any) ([]string, error) {
			changed, err := addHook(doc, "PreToolUse", "Bash", map[string]any{"type": "command", "command": hook, "timeout": timeout})
			if err != nil {
				return nil, err
			}
			wake := map[string]any{"type": "command", "command": shellJoin([]string{self, "hook", "claude-wake"}), "asyncRewake": true, "timeout": 86400}
			more, err := addHook(doc, "PostToolUse", "mcp__tend__terminal_job_start|mcp__tend__terminal_exec", wake)
			return append(changed, more...), err
		}},
	}
	for _, e := range edits {
		changed, err := editJSON(e.path, e.edit, *dry)
		if err != nil {
			fmt.Fprintf(stderr, "tend setup: %v\n", err)
			return 1
		}
		if len(changed) == 0 {
			fmt.Fprintf(stdout, "%s: already set up\n", e.path)
			continue
		}
		for _, c := range changed {
			fmt.Fprintf(stdout, "%s: %s\n", e.path, c)
		}
	}
	if *dry {
		fmt.Fprintln(stdout, "(-n: nothing was written)")
	}
	return 0
}

// editJSON reads the JSON object at path (none: empty), lets edit change
// it, and writes it back when it changed: by rename, keeping its mode, to
// the file a symlink at path points to; the first time, the old file is
// copied to path.tend-backup. It returns what changed.
func editJSON(path string, edit func(map[string]any) ([]string, error), dry bool) ([]string, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	doc := map[string]any{}
	old, err := os.ReadFile(path)
	mode := fs.FileMode(0o600)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return nil, err
	default:
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		d := json.NewDecoder(bytes.NewReader(old))
		d.UseNumber()
		if len(bytes.TrimSpace(old)) > 0 {
			if err := d.Decode(&doc); err != nil {
				return nil, fmt.Errorf("%s is not a JSON object (%v): mend it or move it away, then run tend setup again", path, err)
			}
		}
	}
	changed, err := edit(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(changed) == 0 || dry {
		return changed, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(path + ".tend-backup"); old != nil && errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(path+".tend-backup", old, mode); err != nil {
			return nil, err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tend-setup-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	return changed, os.Rename(tmp.Name(), path)
}

// setKey sets doc[keys…] to want, making the objects on the way; it says
// what it did, or nothing when the value was already want.
func setKey(doc map[string]any, keys []string, want any) ([]string, error) {
	for i, k := range keys[:len(keys)-1] {
		next, ok := doc[k].(map[string]any)
		switch {
		case !ok && doc[k] != nil:
			return nil, fmt.Errorf("%s is not an object: mend it, then run tend setup again", strings.Join(keys[:i+1], "."))
		case !ok:
			next = map[string]any{}
			doc[k] = next
		}
		doc = next
	}
	last := keys[len(keys)-1]
	old, had := doc[last]
	if had && reflect.DeepEqual(normal(old), normal(want)) {
		return nil, nil
	}
	doc[last] = want
	verb := "added"
	if had {
		verb = "replaced"
	}
	return []string{fmt.Sprintf("%s %s", verb, strings.Join(keys, "."))}, nil
}

// addHook puts handler under hooks.event in the group for matcher, once:
// a handler of tend's for the same subcommand is replaced, anything else
// kept.
func addHook(doc map[string]any, event, matcher string, handler map[string]any) ([]string, error) {
	hooks, ok := doc["hooks"].(map[string]any)
	switch {
	case !ok && doc["hooks"] != nil:
		return nil, errors.New("hooks is not an object: mend it, then run tend setup again")
	case !ok:
		hooks = map[string]any{}
		doc["hooks"] = hooks
	}
	groups, ok := hooks[event].([]any)
	if !ok && hooks[event] != nil {
		return nil, fmt.Errorf("hooks.%s is not a list: mend it, then run tend setup again", event)
	}
	mine := tendSubcommand(handler["command"])
	for _, g := range groups {
		grp, ok := g.(map[string]any)
		if !ok || grp["matcher"] != matcher {
			continue
		}
		hs, _ := grp["hooks"].([]any)
		for i, h := range hs {
			hm, ok := h.(map[string]any)
			if !ok || mine == "" || tendSubcommand(hm["command"]) != mine {
				continue
			}
			if reflect.DeepEqual(normal(hm), normal(handler)) {
				return nil, nil
			}
			hs[i] = handler
			return []string{fmt.Sprintf("replaced the %s hook %q on %s", event, handler["command"], matcher)}, nil
		}
		grp["hooks"] = append(hs, handler)
		return []string{fmt.Sprintf("added the %s hook %q on %s", event, handler["command"], matcher)}, nil
	}
	hooks[event] = append(groups, map[string]any{"matcher": matcher, "hooks": []any{handler}})
	return []string{fmt.Sprintf("added the %s hook %q on %s", event, handler["command"], matcher)}, nil
}

// tendSubcommand is "hook claude" for a command that runs this tend's, or
// one named tend's, hook claude (the same for claude-wake), else "": a
// hook of anyone else's is never taken for tend's.
func tendSubcommand(cmd any) string {
	s, _ := cmd.(string)
	f, err := shell.Fields(s, func(string) string { return "" })
	if err != nil || len(f) < 3 || f[1] != "hook" {
		return ""
	}
	self, _ := os.Executable()
	if f[0] != self && filepath.Base(f[0]) != "tend" {
		return ""
	}
	return f[1] + " " + f[2]
}

// normal is v as JSON would give it back, so that a value read from a
// file and one built here compare equal.
func normal(v any) any {
	b, _ := json.Marshal(v)
	var out any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	d.Decode(&out)
	return out
}

// snippets is what to add by hand for agents whose settings tend does not
// edit.
func snippets(agent, self string) string {
	switch agent {
	case "codex":
		return fmt.Sprintf(`# ~/.codex/config.toml: tend's tools, and its hook on Codex's own shell
# (review and trust the hook in Codex's /hooks before it runs)
[mcp_servers.tend]
command = %q
args = ["mcp"]

[[hooks.PreToolUse]]
matcher = "^Bash$"
[[hooks.PreToolUse.hooks]]
type = "command"
command = %q
timeout = %d
`, self, shellJoin([]string{self, "hook", "codex"}), int(policy.DefaultApprovalTimeout.Seconds())+60)
	case "gemini":
		return fmt.Sprintf(`// ~/.gemini/settings.json: tend's tools
{ "mcpServers": { "tend": { "command": %q, "args": ["mcp"] } } }
`, self)
	default:
		return fmt.Sprintf(`// ~/.cursor/mcp.json: tend's tools
{ "mcpServers": { "tend": { "command": %q, "args": ["mcp"] } } }
`, self)
	}
}
