package policy

import "strings"

// What ModeUnknown lets run. A simple command is known to be safe when it
// is a reader the catalogue knows (its handler left it ReadOnly) or an
// everyday step (see everydayStep) run in the working directory, and none
// of its redirections writes outside the working directory or a temp dir,
// and it sets no variable that changes how commands run (PATH, LD_PRELOAD
// …). Anything else is held, with a reason: [Command.Doubt].
//
// The classifier records this on each Command as it goes: vet after a
// command's handler ran, vetWrite for each redirection, unvet for such a
// variable.

// Doubt says why [ModeUnknown] does not know c to be safe, or "" if it does.
func (c Command) Doubt() string {
	switch {
	case c.vetted:
		return ""
	case c.doubt != "":
		return c.doubt
	case len(c.Argv) == 0:
		return "not known to be safe"
	}
	return "not known to be safe: " + cutText(c.Argv[0])
}

// vet decides whether iv is known to be safe. It runs once iv's handler
// has classified it.
func (c *classifier) vet(iv *inv) {
	cmd := &c.cmds[iv.idx]
	if opt := npxInstalls(iv); opt != "" {
		cmd.doubt = "not known to be safe: " + iv.name + " " + cutText(opt) + " (installs a package or runs code)"
		return
	}
	if _, reader := catalogue[iv.name]; reader && cmd.Class == ReadOnly {
		cmd.vetted = true
		return
	}
	cmd.vetted, cmd.doubt = c.everyday(iv)
}

// unvet marks command idx as not known to be safe. The first reason stays.
func (c *classifier) unvet(idx int, why string) {
	cmd := &c.cmds[idx]
	cmd.vetted = false
	if cmd.doubt == "" {
		cmd.doubt = printable(why)
	}
}

// vetWrite judges a redirection of command idx to a. alone says idx is
// the redirection's own pseudo-command (">file"), which is known to be
// safe when a is.
func (c *classifier) vetWrite(idx int, sc *scope, a arg, alone bool) {
	if alone {
		c.cmds[idx].vetted = true
	}
	if !c.staysInside(sc, a) {
		c.unvet(idx, "not known to be safe: writes outside the working directory: "+c.show(c.resolve(sc, a)))
	}
}

// staysInside reports whether writing to a stays inside the working
// directory (when it is a project) or a temp directory.
func (c *classifier) staysInside(sc *scope, a arg) bool {
	if !a.ok || sc.remote {
		return false
	}
	p := c.resolve(sc, a).path
	if p == "/dev/null" || c.inTemp(p) {
		return true
	}
	return p != "" && c.trustedProject() && (p == c.project || isUnder(p, c.project))
}

// inProject reports whether sc runs in the working directory (a project)
// or below it.
func (c *classifier) inProject(sc *scope) bool {
	return !sc.remote && sc.cwd != "" && c.trustedProject() && (sc.cwd == c.project || isUnder(sc.cwd, c.project))
}

// npxInstalls returns the option that tells npx (bunx, pnpx) to install
// a package or run code (-p, --package, -c, --call) rather than run a tool
// by name, or "".
func npxInstalls(iv *inv) string {
	if iv.name != "npx" && iv.name != "bunx" && iv.name != "pnpx" {
		return ""
	}
	end := min(skipOpts(iv.args, "-p", "--package", "-c", "--call"), len(iv.args))
	for _, a := range iv.args[1:end] {
		name, _, _ := strings.Cut(a.s, "=")
		if !a.ok || contains([]string{"-p", "--package", "-c", "--call"}, name) {
			return a.src
		}
	}
	return ""
}

// everyday reports whether iv is an everyday step (see everydayStep) with
// every word known, run in the working directory; if not, it says why.
func (c *classifier) everyday(iv *inv) (bool, string) {
	w := make([]string, 0, len(iv.args)-1)
	computed := ""
	for i, a := range iv.args[1:] {
		if a.ok {
			w = append(w, a.s)
			continue
		}
		w = append(w, unknownWord)
		// A commit message may be computed: git commit -m "$(cat <<EOF …)".
		if message := i > 0 && iv.name == "git" && w[0] == "commit" && isMessageFlag(w[i-1]); !message && computed == "" {
			computed = a.shown()
		}
	}
	known, bad := c.everydayStep(iv, w)
	switch {
	case !known:
		return false, "not known to be safe: " + nameAndSub(iv.args)
	case len(w) == 1 && (w[0] == "--help" || w[0] == "--version"):
		return true, ""
	case bad != "":
		return false, "not known to be safe: " + iv.name + " " + cutText(bad)
	case computed != "":
		return false, "not known to be safe: " + nameAndSub(iv.args) + " with a word computed at run time: " + computed
	case !c.inProject(iv.sc):
		where := "a directory computed at run time"
		if iv.sc.cwd != "" {
			where = printable(iv.sc.cwd)
		}
		return false, "not known to be safe: " + nameAndSub(iv.args) + " outside the working directory (in " + cutText(where) + ")"
	}
	return true, ""
}

// isMessageFlag reports whether git commit takes the next word as its
// message: -m, --message, or a cluster ending in m (-am).
func isMessageFlag(s string) bool {
	return s == "--message" || len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.HasSuffix(s, "m")
}

// nameAndSub is a command's name, with its first argument when that reads
// like a subcommand ("cargo nextest", but "curl" for curl https://…).
func nameAndSub(args []arg) string {
	s := cutText(args[0].src)
	if len(args) > 1 && args[1].ok && subWord(args[1].s) {
		s += " " + args[1].s
	}
	return s
}

// subWord reports whether s is a short word of letters, digits, - and
// _ that does not start with -.
func subWord(s string) bool {
	if s == "" || len(s) > 40 || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// makeTargets are the make targets ModeUnknown lets run.
var makeTargets = []string{"all", "build", "test", "check", "lint", "fmt", "vet"}

// everydayStep is the table of everyday steps. known says the program is
// in it; bad is the first of its words that the table does not allow (""
// if none). w are the words after the program, unknownWord for one
// computed at run time. Build and test steps run the project's own code (tests,
// scripts, Makefiles, hooks): that is what they are for.
//
//	go build|test|vet|run|fmt|generate|list|version, go env (not -w, -u),
//	   go mod tidy|download|verify; not -exec, -toolexec, -C; -o inside
//	gofmt, with its files inside
//	npm|pnpm|yarn|bun test|t|run|run-script|install|i|ci|ls|list, and yarn
//	   alone; not -g, --global, --location, --prefix, -C, --dir, --cwd,
//	   --script-shell
//	tsc, eslint, prettier, jest, vitest, pytest (also through npx), and
//	   python -m pytest
//	cargo build|b|test|t|check|c|clippy|fmt|run|r; not --config, -Z,
//	   --manifest-path, --target-dir, -C
//	make with no target or only all|build|test|check|lint|fmt|vet, and
//	   only the options -j [N], -k, -s
//	git add|commit|status|diff|log|show|branch|checkout|switch|stash|
//	   fetch|pull|merge, git rebase (not -i, -x, --exec), git tag -l|--list,
//	   git push [-u] [remote [branch]] (no refspec with : or +, no other
//	   option); no global options before the subcommand, and never
//	   --upload-pack, --receive-pack or --exec
//	mkdir [-p], touch [-c -a -m], tee [-a], with their files inside
//
// The destructive forms (git push --force, git checkout -- .) stay
// Destructive and are held whatever the table says.
func (c *classifier) everydayStep(iv *inv, w []string) (known bool, bad string) {
	sub := at(w, 0)
	switch name := iv.name; {
	case name == "go":
		switch sub {
		case "build", "test", "vet", "run", "fmt", "generate", "list", "version":
		case "env":
			return true, withSub(sub, firstOption(w, "w", "u"))
		case "mod":
			if v := at(w, 1); v != "tidy" && v != "download" && v != "verify" {
				return true, "mod " + v
			}
		default:
			return true, sub
		}
		if f := firstOption(w, "exec", "toolexec", "C"); f != "" {
			return true, withSub(sub, f)
		}
		for i, x := range w {
			out, ok := "", false
			switch {
			case x == "-o" || x == "--o":
				out, ok = at(w, i+1), true
			case strings.HasPrefix(x, "-o=") || strings.HasPrefix(x, "--o="):
				_, out, ok = strings.Cut(x, "=")
			}
			if ok && !c.staysInside(iv.sc, arg{s: out, ok: out != unknownWord}) {
				return true, sub + " -o " + out + " (outside the working directory)"
			}
		}
		return true, ""
	case name == "gofmt":
		return true, c.firstOutside(iv)
	case name == "npm" || name == "pnpm" || name == "yarn" || name == "bun":
		switch sub {
		case "test", "t", "run", "run-script", "install", "i", "ci", "ls", "list":
		case "":
			if name != "yarn" {
				return true, sub
			}
		default:
			return true, sub
		}
		return true, withSub(sub, firstOption(w, "g", "global", "location", "prefix", "C", "dir", "cwd", "script-shell"))
	case name == "tsc" || name == "eslint" || name == "prettier" || name == "jest" || name == "vitest" || name == "pytest":
		return true, ""
	case strings.HasPrefix(name, "python"):
		if sub == "-m" && at(w, 1) == "pytest" {
			return true, ""
		}
		return false, ""
	case name == "cargo":
		switch sub {
		case "build", "b", "test", "t", "check", "c", "clippy", "fmt", "run", "r":
		default:
			return true, sub
		}
		return true, withSub(sub, firstOption(w, "config", "Z", "manifest-path", "target-dir", "C"))
	case name == "make":
		for i := 0; i < len(w); i++ {
			x := w[i]
			switch {
			case contains(makeTargets, x), x == "-k", x == "-s", x == "--keep-going", x == "--silent":
			case x == "-j" || x == "--jobs":
				if allDigits(at(w, i+1)) {
					i++
				}
			case strings.HasPrefix(x, "-j") && allDigits(x[2:]), strings.HasPrefix(x, "--jobs=") && allDigits(x[7:]):
			default:
				return true, x
			}
		}
		return true, ""
	case name == "git":
		return true, gitStep(w)
	case name == "mkdir" || name == "touch" || name == "tee":
		return true, c.firstOutside(iv)
	}
	return false, ""
}

// gitStep returns the first word of a git command line (w, after "git")
// that the table of everyday steps does not allow, or "".
func gitStep(w []string) string {
	sub := at(w, 0)
	switch sub {
	case "add", "commit", "status", "diff", "log", "show", "branch", "checkout", "switch", "stash", "fetch", "pull", "merge":
	case "rebase":
		if f := firstOption(w, "i", "interactive", "x", "exec", "edit-todo"); f != "" {
			return "rebase " + f
		}
	case "tag":
		if v := at(w, 1); (v != "-l" && v != "--list") || len(w) > 3 || strings.HasPrefix(at(w, 2), "-") {
			return "tag " + strings.Join(w[1:], " ")
		}
	case "push":
		operands := 0
		for _, x := range w[1:] {
			switch {
			case x == "-u" || x == "--set-upstream" || x == "-q" || x == "--quiet" || x == "-v" || x == "--verbose":
			case strings.HasPrefix(x, "-") || strings.HasPrefix(x, "+") || strings.Contains(x, ":") || operands == 2:
				return "push " + x
			default:
				operands++
			}
		}
	default:
		return sub
	}
	return withSub(sub, firstOption(w, "upload-pack", "receive-pack", "exec"))
}

// withSub is bad after the subcommand it came with, or "" if bad is.
func withSub(sub, bad string) string {
	if bad == "" {
		return ""
	}
	return sub + " " + bad
}

// firstOutside returns the first operand of iv (mkdir, touch, tee, gofmt) that
// is outside the working directory, or an option the table does not know
// for it; "" if there is none.
func (c *classifier) firstOutside(iv *inv) string {
	options := map[string][]string{
		"mkdir": {"-p", "--parents", "-v", "--verbose"},
		"touch": {"-c", "--no-create", "-a", "-m"},
		"tee":   {"-a", "--append"},
		"gofmt": {"-l", "-w", "-d", "-s", "-e"},
	}[iv.name]
	for _, a := range iv.rest(1) {
		switch {
		case a.ok && strings.HasPrefix(a.s, "-"):
			if !contains(options, a.s) {
				return a.s
			}
		case !c.staysInside(iv.sc, a):
			return c.show(c.resolve(iv.sc, a)) + " (outside the working directory)"
		}
	}
	return ""
}

// firstOption returns the first word of w that is one of the options names,
// spelt -name or --name, alone or with =value; "" if none is.
func firstOption(w []string, names ...string) string {
	for _, x := range w {
		if x == "--" {
			return ""
		}
		if !strings.HasPrefix(x, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(x[1:], "-"), "=")
		if contains(names, name) {
			return x
		}
	}
	return ""
}

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
