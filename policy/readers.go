package policy

import (
	"slices"
	"strconv"
	"strings"
)

// Some of the tools that only read (readOnlyTools) have a mode that
// writes a file, runs a program or changes the machine: xxd IN OUT writes
// OUT, tree -o and less -O write a file, history -w writes one, date -s
// sets the clock, hostname NAME renames the machine, ss -K kills sockets,
// rg --pre and ugrep --filter run a program on every file they search,
// bat --pager runs its pager, journalctl --vacuum-* deletes the system's
// logs (all but the last hours of them, for a small size or time; routine
// disk cleanup that keeps a week or 100M is Write) and --rotate or --flush
// moves them, dmesg -C clears the kernel's
// and -n sets its console level, set -x makes the shell print every
// command after it with its words expanded. reader judges those modes;
// the rest of what these tools do stays ReadOnly.

// readerModes are the handlers of the readers that have such a mode.
var readerModes = map[string]handler{
	"xxd": func(iv *inv) {
		if ops := operandsOf(iv.rest(1), "-c", "-cols", "-g", "-groupsize", "-l", "-len", "-s", "-seek", "-o", "-offset", "-n", "-name"); len(ops) > 1 {
			iv.overwrites(ops[1])
			iv.fillsNothing(ops[1], ops[:1]) // xxd -r /dev/null src/app.py
		}
	},
	"tree": func(iv *inv) { iv.outputOption("-o") },
	"journalctl": func(iv *inv) {
		for _, a := range iv.rest(1) {
			switch {
			case !a.ok:
			case strings.HasPrefix(a.s, "--vacuum") && !vacuumKeeps(a.s):
				iv.flag(Destructive, "journalctl "+a.s+" deletes the system's logs")
				return
			case strings.HasPrefix(a.s, "--vacuum"):
				iv.flag(Write, "") // archived journal files past a week or 100M, the recent ones kept
			case slices.Contains([]string{"--rotate", "--flush", "--sync", "--relinquish-var", "--smart-relinquish-var", "--setup-keys", "--update-catalog"}, a.s):
				iv.flag(Write, "") // the journal's files moved or rewritten
			}
		}
	},
	"dmesg": func(iv *inv) {
		args := iv.rest(1)
		switch {
		case hasFlag(args, "Cc", "--clear", "--read-clear"):
			iv.flag(Destructive, "dmesg -C clears the kernel's message buffer")
		case hasFlag(args, "nDE", "--console-level", "--console-off", "--console-on"):
			iv.flag(Write, "") // the console's level, a setting of the machine
		}
	},
	"less": func(iv *inv) { iv.outputOption("-o", "-O", "--log-file", "--LOG-FILE") },
	"history": func(iv *inv) {
		args := iv.rest(1)
		for i, a := range args {
			if a.ok && strings.HasPrefix(a.s, "-") && strings.ContainsAny(a.s, "wan") && i+1 < len(args) {
				iv.overwrites(args[i+1]) // history -w FILE
				return
			}
		}
	},
	"date": func(iv *inv) {
		args := iv.rest(1)
		for _, a := range args {
			switch {
			case !a.ok:
			case strings.HasPrefix(a.s, "--set") || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(strings.FieldsFunc(a.s, func(r rune) bool { return strings.ContainsRune("dfrI", r) })[0], "s"): // -us, not -Iseconds
				iv.flag(Destructive, "date -s sets the system clock")
				return
			case !strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "+") && a.s != "" && strings.Trim(a.s, "0123456789.") == "":
				iv.flag(Destructive, "date "+a.s+" sets the system clock")
				return
			}
		}
	},
	"hostname": func(iv *inv) {
		args := iv.rest(1)
		for i, a := range args {
			switch {
			case !a.ok:
				iv.flag(Destructive, "hostname may set the machine's name: "+a.shown())
				return
			case a.s == "-F" || a.s == "--file" || strings.HasPrefix(a.s, "--file="):
				iv.flag(Destructive, "hostname -F sets the machine's name")
				return
			case !strings.HasPrefix(a.s, "-") && (i == 0 || args[i-1].s != "-F"):
				iv.flag(Destructive, "hostname "+a.s+" sets the machine's name")
				return
			}
		}
	},
	"ss": func(iv *inv) {
		for _, a := range iv.rest(1) {
			if a.ok && (a.s == "--kill" || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "K")) {
				iv.flag(Destructive, "ss -K kills the sockets it lists, cutting other programs' connections")
				return
			}
		}
	},
	"set":   xtrace,
	"rg":    func(iv *inv) { iv.perFile("--pre") },
	"ugrep": func(iv *inv) { iv.perFile("--filter") },
	"ug":    func(iv *inv) { iv.perFile("--filter") },
	"bat":   func(iv *inv) { iv.perFile("--pager") },
}

// xtrace follows set -x (-o xtrace, a cluster with x: set -euxo
// pipefail) and set +x: while it is on, the shell prints every command
// with its words expanded (see traced). It follows set -e likewise: a
// failing cd then ends the script.
func xtrace(iv *inv) {
	args := iv.rest(1)
	for i, a := range args {
		switch {
		case !a.ok || len(a.s) < 2 || a.s[0] != '-' && a.s[0] != '+' || a.s[1] == '-':
		case (a.s[1:] == "o" || strings.HasSuffix(a.s, "o")) && i+1 < len(args) && args[i+1].s == "xtrace":
			iv.sc.xtrace = a.s[0] == '-'
		case strings.Contains(a.s, "x"):
			iv.sc.xtrace = a.s[0] == '-'
		}
		switch {
		case !a.ok || len(a.s) < 2 || a.s[0] != '-' && a.s[0] != '+' || a.s[1] == '-':
		case (a.s[1:] == "o" || strings.HasSuffix(a.s, "o")) && i+1 < len(args) && args[i+1].s == "errexit":
			iv.sc.errexit = a.s[0] == '-'
		case strings.Contains(a.s, "e"):
			iv.sc.errexit = a.s[0] == '-'
		}
	}
}

// traced says why the shell's trace (set -x) of a command prints a
// secret: a word expands a variable named for one ($OPENAI_API_KEY), whose
// value the trace shows; "" if none, or if the trace is off.
func traced(sc *scope, args []arg) string {
	if !sc.xtrace {
		return ""
	}
	for _, a := range args {
		if v := expandsSecret(a); v != "" {
			return "set -x prints each command with its words expanded, the value of " + v + " with them"
		}
	}
	return ""
}

// reader judges a tool of readOnlyTools by its modes that do more than
// read (readerModes); the others only read.
func reader(iv *inv) {
	if h, ok := readerModes[iv.name]; ok {
		h(iv)
	}
}

// operandsOf is args without options, an option of withValue taken with
// the word after it.
func operandsOf(args []arg, withValue ...string) []arg {
	var out []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok || a.s == "-" || !strings.HasPrefix(a.s, "-"):
			out = append(out, a)
		case contains(withValue, a.s):
			i++
		}
	}
	return out
}

// outputOption judges the file an option names for a tool's output: OPT
// FILE, OPT=FILE, a short OPT glued to its value (-Ofile).
func (iv *inv) outputOption(names ...string) {
	args := iv.rest(1)
	for i, a := range args {
		if !a.ok {
			continue
		}
		for _, n := range names {
			switch {
			case a.s == n && i+1 < len(args):
				iv.overwrites(args[i+1])
			case strings.HasPrefix(a.s, n+"="):
				iv.overwrites(arg{s: a.s[len(n)+1:], ok: true, src: a.src})
			case len(n) == 2 && len(a.s) > 2 && strings.HasPrefix(a.s, n):
				iv.overwrites(arg{s: a.s[2:], ok: true, src: a.src})
			}
		}
	}
}

// perFile judges the program an option gives a reader to run for every
// file (rg --pre CMD, ugrep --filter='pdf:CMD', bat --pager CMD): it runs
// with the files as its arguments.
func (iv *inv) perFile(opt string) {
	args := iv.rest(1)
	for i, a := range args {
		var prog arg
		switch {
		case !a.ok:
			continue
		case a.s == opt && i+1 < len(args):
			prog = args[i+1]
		case strings.HasPrefix(a.s, opt+"="):
			v := a.s[len(opt)+1:]
			prog = arg{s: v, ok: true, src: v}
		default:
			continue
		}
		if !prog.ok {
			iv.flag(Unparseable, iv.name+" "+opt+" runs a program computed at run time: "+prog.shown())
			return
		}
		code := prog.s
		if opt == "--filter" { // exts:command, several joined by commas
			var cmds []string
			for _, f := range strings.Split(code, ",") {
				if _, c, ok := strings.Cut(f, ":"); ok {
					cmds = append(cmds, c)
				}
			}
			code = strings.Join(cmds, "; ")
		}
		if code == "" || code == "less" || strings.HasPrefix(code, "less ") || code == "cat" {
			continue
		}
		files := operandsOf(args[i+1:])
		if opt == "--pre" && len(files) > 0 {
			files = files[1:] // the pattern
		}
		words := []string{}
		for _, f := range files {
			if !f.ok {
				words = nil
				break
			}
			words = append(words, shellQuote(f.s))
		}
		if len(words) == 0 {
			words = []string{"./*"}
		}
		if opt == "--pager" {
			words = nil // it reads what bat prints
		}
		iv.shell(arg{s: code + " " + strings.Join(words, " "), ok: true, src: code}, iv.sc)
	}
}

// shellQuote quotes s for a shell, as one word.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./~") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// vacuumKeeps reports whether a journalctl --vacuum-size or --vacuum-time
// option keeps what a person looks back on: at least 100M, or a week.
func vacuumKeeps(opt string) bool {
	name, val, ok := strings.Cut(opt, "=")
	i := strings.IndexFunc(val, func(r rune) bool { return r < '0' || r > '9' })
	if !ok || i == 0 {
		return false
	}
	if i < 0 {
		i = len(val)
	}
	n, err := strconv.Atoi(val[:i])
	if err != nil {
		return false
	}
	unit := strings.ToLower(val[i:])
	switch name {
	case "--vacuum-size":
		mult := map[string]int{"m": 1, "g": 1 << 10, "t": 1 << 20}[unit]
		return n*mult >= 100
	case "--vacuum-time":
		days := map[string]int{"d": 1, "day": 1, "days": 1, "w": 7, "week": 7, "weeks": 7, "month": 30, "months": 30, "y": 365, "year": 365, "years": 365}[unit]
		return n*days >= 7
	}
	return false
}
