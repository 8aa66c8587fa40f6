package policy

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Task runners (make, just, go-task) run the recipes of a task file as
// shell commands: a task file this command writes, hands over on stdin or
// gives inline (make --eval) is code, judged line by line as any other.

// recipeFormat is how a task file holds its commands.
type recipeFormat int

const (
	makeRecipes recipeFormat = iota // a tab-indented line (or one starting with .RECIPEPREFIX) after a rule, or after ; on the rule's line
	justRecipes                     // an indented line after a recipe's header
	yamlRecipes                     // go-task's cmds: list items, cmd: values
)

// taskRunner is a runner's options naming its task file, the names it
// looks for in its directory, and the option naming that directory.
type taskRunner struct {
	fileOpts []string
	defaults []string
	dirOpts  []string
	format   recipeFormat
}

var taskRunners = map[string]taskRunner{
	"make":  {[]string{"-f", "--file", "--makefile"}, []string{"GNUmakefile", "makefile", "Makefile"}, []string{"-C", "--directory"}, makeRecipes},
	"gmake": {[]string{"-f", "--file", "--makefile"}, []string{"GNUmakefile", "makefile", "Makefile"}, []string{"-C", "--directory"}, makeRecipes},
	"just":  {[]string{"-f", "--justfile"}, []string{"justfile", "Justfile", ".justfile"}, []string{"-d", "--working-directory"}, justRecipes},
	"task":  {[]string{"-t", "--taskfile"}, taskfileNames, []string{"-d", "--dir"}, yamlRecipes},
}

// taskfileNames are the files go-task looks for.
var taskfileNames = []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml"}

// recipeFormatOf is the format of a task file by its name, for one this
// command writes (hookCode); ok is false for any other file.
func recipeFormatOf(base string) (recipeFormat, bool) {
	switch {
	case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk"):
		return makeRecipes, true
	case base == "justfile" || base == "Justfile" || base == ".justfile" || strings.HasSuffix(base, ".just"):
		return justRecipes, true
	case contains(taskfileNames, base):
		return yamlRecipes, true
	}
	return 0, false
}

// runsRecipes judges the recipes a task runner is given: inline (make
// --eval, -E), on stdin (-f -), or in a task file this command wrote,
// named by an option or found in the runner's directory.
func runsRecipes(iv *inv) {
	tr, ok := taskRunners[iv.name]
	if !ok {
		return
	}
	args := iv.rest(1)
	var texts []string
	named := false
	dir := iv.sc
	for i, a := range args {
		if !a.ok {
			continue
		}
		name, val, eq := strings.Cut(a.s, "=")
		if !eq && i+1 < len(args) && args[i+1].ok {
			val = args[i+1].s
		}
		switch {
		case (iv.name == "make" || iv.name == "gmake") && (name == "--eval" || name == "-E"):
			texts = append(texts, val) // make --eval='x: ; rm -rf ~'
		case contains(tr.fileOpts, name) || len(name) > 2 && contains(tr.fileOpts, name[:2]) && !strings.HasPrefix(name, "--"):
			if len(name) > 2 && !strings.HasPrefix(name, "--") {
				val = name[2:] // -fMakefile.x
			}
			named = true
			if (val == "-" || val == "/dev/stdin") && iv.in.kind == srcText {
				texts = append(texts, iv.in.text)
			} else if src, ok := iv.c.written[iv.c.resolve(iv.sc, arg{s: val, ok: true, src: val}).path]; ok && src.kind == srcText {
				texts = append(texts, src.text)
			}
		case contains(tr.dirOpts, name):
			if t := iv.c.resolve(iv.sc, arg{s: val, ok: true, src: val}); t.path != "" {
				d := *iv.sc
				d.cwd = t.path
				dir = &d
			}
		}
	}
	if !named && dir.cwd != "" && iv.c.written != nil {
		for _, f := range tr.defaults {
			if src, ok := iv.c.written[path.Join(dir.cwd, f)]; ok && src.kind == srcText {
				texts = append(texts, src.text)
				break
			}
		}
	}
	for _, t := range texts {
		iv.runRecipes(tr.format, t, iv.sc)
	}
}

// maxRecipes bounds the recipe lines of one task file judged.
const maxRecipes = 64

// runRecipes judges each command of a task file's text as shell code.
func (iv *inv) runRecipes(format recipeFormat, text string, sc *scope) {
	for i, code := range recipes(format, text) {
		if i == maxRecipes {
			iv.flag(Unparseable, iv.name+" is given more recipes than tend reads")
			return
		}
		if parses(code) {
			iv.shell(arg{s: code, ok: true, src: code}, sc)
		}
	}
}

// makeVars turns make's escapes into the shell's: $$ is a $ the shell
// sees, $(HOME) the environment's HOME.
var makeVars = strings.NewReplacer("$$", "$", "$(HOME)", "$HOME", "${HOME}", "$HOME", "$(PWD)", "$PWD", "$(CURDIR)", "$PWD")

// recipes are the shell commands of a task file's text.
func recipes(format recipeFormat, text string) []string {
	var out []string
	add := func(code string) {
		if code = strings.TrimSpace(code); code != "" {
			out = append(out, code)
		}
	}
	lines := strings.Split(text, "\n")
	switch format {
	case makeRecipes:
		prefix := "\t"
		lines = joinContinued(lines)
		for _, line := range lines {
			if !strings.HasPrefix(line, prefix) {
				for _, code := range parseTimeShell(line) {
					add(makeVars.Replace(code)) // x := $(shell …), y != …: run when make reads the file
				}
			}
			if name, val, ok := strings.Cut(line, "="); ok && strings.TrimRight(strings.TrimSpace(name), ":+?") == ".RECIPEPREFIX" {
				prefix = "\t" // .RECIPEPREFIX = >: recipe lines start with its first character, not a tab
				if val = strings.TrimLeft(val, " \t"); val != "" {
					_, n := utf8.DecodeRuneInString(val)
					prefix = val[:n]
				}
				continue
			}
			if r, ok := strings.CutPrefix(line, prefix); ok {
				add(makeVars.Replace(strings.TrimLeft(r, " \t@-+")))
			} else if head, r, ok := strings.Cut(line, ";"); ok && strings.Contains(head, ":") && !strings.Contains(head, "=") && !strings.HasPrefix(strings.TrimSpace(head), "#") {
				add(makeVars.Replace(strings.TrimLeft(r, " \t@-+"))) // all: ; rm -rf ~
			}
		}
	case justRecipes:
		in := false
		for _, line := range lines {
			switch trimmed := strings.TrimSpace(line); {
			case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			case line[0] == ' ' || line[0] == '\t':
				if in {
					add(strings.TrimLeft(trimmed, "@-"))
				}
			default:
				in = strings.Contains(line, ":") && !strings.Contains(line, ":=")
			}
		}
	case yamlRecipes:
		list := -1 // the indentation of a cmds: key whose list is being read, or -1
		block := -1
		for _, line := range lines {
			trimmed := strings.TrimSpace(line)
			indent := len(line) - len(strings.TrimLeft(line, " "))
			if block >= 0 {
				if indent > block && trimmed != "" {
					add(trimmed) // a line of a | block
					continue
				}
				block = -1
			}
			if trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			if list >= 0 && indent <= list && !strings.HasPrefix(trimmed, "-") {
				list = -1
			}
			key, val, isKey := strings.Cut(strings.TrimPrefix(trimmed, "- "), ":")
			switch {
			case isKey && strings.TrimSpace(key) == "cmds" && strings.TrimSpace(val) == "":
				list = indent
			case isKey && (key == "cmd" || key == "sh" || key == "run"):
				val = strings.TrimSpace(val)
				if val == "|" || val == ">" || val == "|-" || val == ">-" {
					block = indent
					continue
				}
				add(yamlString(val))
			case list >= 0 && strings.HasPrefix(trimmed, "- "):
				item := strings.TrimSpace(trimmed[2:])
				if item == "|" || item == ">" || item == "|-" || item == ">-" {
					block = indent
					continue
				}
				if k, _, ok := strings.Cut(item, ":"); ok && !strings.ContainsAny(k, " \"'") {
					continue // task: other, defer: …: a key, read above when it is cmd
				}
				add(yamlString(item))
			}
		}
	}
	return out
}

// joinContinued joins the lines of a makefile that end in a backslash to
// the next, as make does before it runs a recipe line or reads a variable:
// the recipe's next line loses its leading tab, so the shell reads one
// command (rm -rf \ then ~/Documents is rm -rf ~/Documents).
func joinContinued(lines []string) []string {
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + " " + strings.TrimLeft(lines[i], "\t ")
		}
		out = append(out, line)
	}
	return out
}

// makeShell is the start of a $(shell …) or ${shell …} call in a makefile.
var makeShell = lazyRE(`[$][({]shell\s`)

// parseTimeShell is the shell code a makefile's line outside a recipe
// runs when make reads it: the commands of $(shell …) calls, and the
// right side of a != assignment.
func parseTimeShell(line string) []string {
	var out []string
	if name, val, ok := strings.Cut(line, "!="); ok && !strings.ContainsAny(name, "#:") && strings.TrimSpace(name) != "" {
		out = append(out, val)
	}
	for _, m := range makeShell.FindAllStringIndex(line, 8) {
		open, depth := line[m[0]+1], 0
		closer := byte(')')
		if open == '{' {
			closer = '}'
		}
		for j := m[0] + 1; j < len(line); j++ {
			switch line[j] {
			case open:
				depth++
			case closer:
				depth--
			}
			if depth == 0 {
				out = append(out, line[m[1]:j])
				break
			}
		}
	}
	return out
}

// yamlString is a YAML scalar's value: unquoted, its escapes undone.
func yamlString(s string) string {
	s = strings.TrimSpace(s)
	if lit, ok := stringLit(s); ok && len(s) > 1 && s[len(s)-1] == s[0] {
		return lit
	}
	return s
}

// cleanWords are the words of a target or script that deletes what the
// build made: clean, distclean, clobber, purge …
var cleanWords = map[string]bool{
	"clean": true, "distclean": true, "clobber": true, "purge": true, "reset": true, "mrproper": true,
	"realclean": true, "cleanall": true, "nuke": true, "wipe": true, "scrub": true, "prune": true,
}

// dirVarWords are the words of a variable's name that say it names a
// directory a recipe works in or deletes: BUILD_DIR, OUT, PREFIX, DEST.
var dirVarWords = []string{"DIR", "PATH", "ROOT", "PREFIX", "DEST", "OUT", "BUILD", "TARGET"}

// cleansOverRoot holds a task runner's cleaning target (make clean, just
// distclean, npm run clean) given a variable that names a directory
// (BUILD_DIR, OUT, PREFIX, DEST …) pointed at the working directory, a
// parent of it, the home directory or / (".", "..", "~", "$HOME", "/",
// or nothing): the recipe deletes what the variable names, and so that.
// The variable is given on the command line (make clean BUILD_DIR=.) or
// in the environment (OUT_DIR=. npm run clean).
func cleansOverRoot(iv *inv) {
	_, task := taskRunners[iv.name]
	args := iv.rest(1)
	var sets []arg // NAME=value, in src; the value in s
	var words []string
	for i, a := range args {
		switch {
		case !a.ok:
			if name, val, ok := strings.Cut(a.src, "="); ok && syntax.ValidName(name) && (val == "$(pwd)" || val == `"$(pwd)"` || val == "`pwd`") {
				sets = append(sets, arg{s: iv.sc.cwd, ok: iv.sc.cwd != "", src: a.src}) // make clean OUT=$(pwd)
			}
		case strings.Contains(a.s, "=") && !strings.HasPrefix(a.s, "-"):
			name, val, _ := strings.Cut(a.s, "=")
			sets = append(sets, arg{s: val, ok: true, src: name + "=" + val})
		case runners[iv.name] && strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "=") && slices.ContainsFunc(args[:i], func(b arg) bool { return b.s == "--" }):
			name, val, _ := strings.Cut(strings.TrimPrefix(a.s, "--"), "=")
			sets = append(sets, arg{s: val, ok: true, src: a.s[:2+len(name)] + "=" + val}) // npm run clean -- --out-dir=.
		case !strings.HasPrefix(a.s, "-"):
			words = append(words, a.s)
		}
	}
	if !task {
		if !runners[iv.name] || len(words) < 2 || words[0] != "run" && words[0] != "run-script" {
			return
		}
		words = words[1:2] // npm run clean: the script's name
	}
	runner := iv.name
	if !task {
		runner += " run"
	}
	cleaning := ""
	for _, w := range words {
		for _, part := range strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return r == '-' || r == '_' || r == ':' || r == '.' }) {
			if cleanWords[part] {
				cleaning = w
			}
		}
	}
	if cleaning == "" {
		return
	}
	for _, e := range iv.environ() {
		if name, _, ok := strings.Cut(e.src, "="); ok && e.ok {
			sets = append(sets, arg{s: e.s, ok: true, src: name + "=" + e.s})
		}
	}
	for _, e := range sets {
		name, _, _ := strings.Cut(strings.TrimLeft(e.src, "-"), "=")
		if !e.ok {
			continue
		}
		upper := strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if !slices.ContainsFunc(dirVarWords, func(w string) bool { return strings.Contains(upper, w) }) {
			continue
		}
		what := ""
		if strings.TrimSpace(e.s) == "" {
			what = "nothing, so the paths its recipe deletes under it can start at /"
		} else if t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(e.s), ok: true, src: e.s}); t.path != "" && !t.children {
			switch {
			case t.path == "/":
				what = "/, the whole machine"
			case t.path == iv.c.home:
				what = "the home directory"
			case t.path == iv.c.project && iv.sc.cwd == iv.c.project:
				what = "the working directory itself"
			case isUnder(iv.c.project, t.path) || t.path == iv.c.project:
				what = "a directory that holds the working tree (" + t.path + ")"
			}
		}
		if what != "" {
			iv.flag(Destructive, runner+" "+cleaning+" is given "+e.src+", a directory its recipe may delete, set to "+what)
			return
		}
	}
}
