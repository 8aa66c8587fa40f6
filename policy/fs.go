package policy

import (
	"cmp"
	"os"
	"path"
	"slices"
	"strings"
)

// opts splits GNU-style arguments into options and operands: every "-x"
// before "--" is an option (GNU tools permute, so options may follow
// operands), everything after "--" is an operand. An unknown word is
// returned in both, since it might be either.
func opts(args []arg) (flags []arg, operands []arg) {
	// Every command's handlers call this, most more than once: count
	// first, then fill one array holding both.
	nf, no, end := 0, 0, len(args)
	for i, a := range args {
		k := optKind(a)
		if k == isDashes {
			no += len(args) - i - 1
			end = i
			break
		}
		if k != isFlag {
			no++
		}
		if k != isOperand {
			nf++
		}
	}
	switch {
	case nf+no == 0:
		return nil, nil
	case end == len(args) && nf == 0: // go test ./...: no copy (capped, so an append copies)
		return nil, args[:end:end]
	case end == len(args) && no == 0:
		return args[:end:end], nil
	}
	buf := make([]arg, nf+no)
	flags, operands = buf[:0:nf], buf[nf:nf:nf+no]
	for _, a := range args[:end] {
		switch optKind(a) {
		case isOperand:
			operands = append(operands, a)
		case isUnknown:
			flags = append(flags, a)
			operands = append(operands, a)
		case isFlag:
			flags = append(flags, a)
		}
	}
	if end < len(args) {
		operands = append(operands, args[end+1:]...)
	}
	if nf == 0 {
		flags = nil
	}
	if no == 0 {
		operands = nil
	}
	return flags, operands
}

// What opts takes a word for.
const (
	isOperand = iota
	isUnknown // not known statically: either
	isFlag
	isDashes // --: all after it are operands
)

func optKind(a arg) int {
	switch {
	case !a.ok && a.item:
		return isOperand
	case !a.ok:
		return isUnknown
	case a.s == "--":
		return isDashes
	case len(a.s) > 1 && a.s[0] == '-':
		return isFlag
	}
	return isOperand
}

// optName is the name of an option as written: --name of --name=value.
func optName(s string) string {
	name, _, _ := strings.Cut(s, "=")
	return name
}

// hasFlag reports whether flags contain a long option (or --long=…), or a
// short one alone or in a cluster (-rf holds r and f).
func hasFlag(flags []arg, short string, long ...string) bool {
	for _, f := range flags {
		if !f.ok {
			continue
		}
		s := f.s
		if strings.HasPrefix(s, "--") {
			for _, l := range long {
				if longOpt(s, l) {
					return true
				}
			}
			continue
		}
		if short != "" && strings.HasPrefix(s, "-") && strings.ContainsAny(s[1:], short) {
			return true
		}
	}
	return false
}

// longOpt reports whether s, an option as written (--name or
// --name=value), is the long option l: getopt_long takes any prefix of
// a long option's name that no other option shares (--in-pl for
// --in-place, --si=0 for --size=0), so a prefix of two letters or more
// is taken for l.
func longOpt(s, l string) bool {
	name, _, _ := strings.Cut(s, "=")
	return name == l || len(name) >= 4 && strings.HasPrefix(name, "--") && strings.HasPrefix(l, name)
}

// shortValue is the value of short option letter at args[i], alone or
// in a cluster: the next word after -o or -sSLo, the rest of -ofile.
func shortValue(args []arg, i int, letter byte) (arg, bool) {
	s := args[i].s
	if !args[i].ok || len(s) < 2 || s[0] != '-' || s[1] == '-' {
		return arg{}, false
	}
	at := strings.IndexByte(s[1:], letter) + 1
	switch {
	case at == 0:
		return arg{}, false
	case at < len(s)-1:
		return arg{s: s[at+1:], ok: true, src: s[at+1:]}, true
	case i+1 < len(args):
		return args[i+1], true
	}
	return arg{}, false
}

// anyUnknown reports whether some arg could not be expanded.
func anyUnknown(args []arg) bool {
	for _, a := range args {
		if !a.ok {
			return true
		}
	}
	return false
}

// rm deletes: destructive for the working directory, its parents, home,
// and anything outside the project and the temp dirs, in any flag
// spelling. Recursive deletion of a target that cannot be resolved is
// destructive too (rm -rf "$d").
func rm(iv *inv) {
	iv.flag(Write, "")
	flags, operands := opts(iv.rest(1))
	recursive := hasFlag(flags, "rR", "--recursive", "--dir")
	verb := iv.name
	if hasFlag(flags, "r", "--recursive") && hasFlag(flags, "f", "--force") {
		verb += " -rf"
	} else if recursive {
		verb += " -r"
	}
	mayBeR := "" // rm "$f": a word computed at run time may be -r, or a directory's name after one
	if !recursive && anyUnknown(flags) {
		recursive, mayBeR = true, " (which may expand to -r)"
	}
	if iv.sc.remote {
		if recursive && iv.sc.localContainer && len(operands) > 0 && !slices.ContainsFunc(operands, func(a arg) bool { return !containerScratch(a) }) {
			return // docker exec app rm -rf /app/tmp/cache/*: the container's own scratch
		}
		if recursive {
			iv.flag(Destructive, verb+" on a remote host")
		} else if what := remoteData(iv.sc, operands); what != "" {
			iv.flag(Destructive, verb+" deletes "+what)
		}
		return
	}
	for _, a := range operands {
		t := iv.c.resolve(iv.sc, a)
		danger := iv.c.danger(t)
		switch why := danger; why {
		case "":
		case "unresolved":
			if !recursive || iv.c.tempVar(a.src) || iv.c.underTemp(a.src) || iv.c.tmpdirChild(a.src) { // d=$(mktemp -d) … rm -rf "$d"; rm -rf /tmp/x-$(whoami)
				break
			}
			if a.ok && iv.sc.mounts != nil {
				iv.flag(Destructive, verb+" in a container reaches what it was given of the host or to keep (a volume, a mounted directory, the host's processes or devices): "+a.shown())
			} else if a.ok {
				iv.flag(Destructive, verb+" of a relative path after cd to a directory computed at run time: "+a.shown())
			} else {
				iv.flag(Destructive, verb+" of a path computed at run time"+mayBeR+": "+a.shown())
			}
		default:
			iv.flagWrite(t, phrase(verb, why)+": "+iv.c.show(t))
		}
		if danger == "" && recursive && (!t.children || t.all) {
			if own := iv.c.ownWork(t.path, true); own != "" { // rm -rf src/
				iv.flagWrite(t, verb+" deletes "+own+": "+iv.c.show(t))
			}
		}
		if danger == "" && a.ok && (!recursive || t.children && !t.all) {
			if own := iv.c.ownFiles(t, a.s, false); own != "" { // rm migrations/versions/*.py; find . -name '*.py' -exec rm {} +
				iv.flagWrite(t, verb+" deletes "+own+", uncommitted work with them: "+iv.c.show(t))
			}
		}
		if base := strings.ToLower(path.Base(a.s)); danger == "" && a.ok && signingKeystore(base) && !strings.Contains(base, "debug") {
			iv.flagWrite(t, verb+" deletes a signing key store, which no version control keeps: "+iv.c.show(t))
		} else if what := iv.lostSecret(t, a); danger == "" && what != "" {
			iv.flagWrite(t, verb+" deletes "+what+", which no version control keeps: "+iv.c.show(t))
		}
	}
}

// containerScratch reports whether a path, in a container of this
// machine's Docker, lies in scratch that what runs there makes again: a
// temp or cache directory (/tmp/x, /app/tmp/cache/*, /root/.cache/pip,
// /var/cache/apt, node_modules/.cache), written out and absolute, below
// its own directory ("/app/tmp" is not /app). Mounted or not, such a
// directory holds nothing that is not made again; a data file in one is
// still a data file.
func containerScratch(a arg) bool {
	if !a.ok || !strings.HasPrefix(a.s, "/") || strings.Contains(a.s, "/../") || strings.HasSuffix(a.s, "/..") || dataFile(strings.TrimRight(a.s, "*")) {
		return false
	}
	for _, part := range strings.Split(strings.Trim(path.Clean(a.s), "/"), "/") {
		switch part {
		case "tmp", "temp", ".tmp", "cache", ".cache", "caches", "__pycache__", ".pytest_cache":
			return true
		}
		if strings.ContainsAny(part, "*?[") {
			return false
		}
	}
	return false
}

// lostSecret says what rm's operand is when it is the only copy of a
// secret, or "": a private key (privateKeyPath: keys/mcuboot-signing.pem,
// AuthKey_X.p8), whose loss loses whatever trusts it, or an environment
// file with this checkout's own keys (.env, .env.local,
// supabase/functions/.env.local). Not one made for the tests, an example
// or a backup (.env.test, .env.example, .env.bak, tests/fixtures/x.key),
// a key for this machine's own development server (localhost-key.pem,
// dev.key), one in the temp dirs or in what tools make (dist/.env), nor
// one this command wrote.
func (iv *inv) lostSecret(t target, a arg) string {
	globMatches := func(pattern, name string) bool { m, err := path.Match(pattern, name); return m && err == nil }
	if !a.ok || t.path == "" || iv.sc.remote || !isUnder(t.path, iv.c.project) && !(t.children && t.path == iv.c.project) {
		return ""
	}
	base := strings.ToLower(path.Base(a.s))
	what := ""
	switch {
	case t.children && (localSettings(base) && envFile(base) && !templateFile(base) || strings.Contains(base, ".env") && globMatches(base, ".env")): // rm -f .env*, not every file (*)
		what = "environment files with this checkout's own keys"
	case localSettings(base) && envFile(base) && !templateFile(base):
		what = "an environment file with this checkout's own keys"
	case privateKeyPath(a.s) && !publicKey(a.s) && t.children:
		what = "private keys"
	case privateKeyPath(a.s) && !publicKey(a.s):
		what = "a private key"
	default:
		return ""
	}
	for _, w := range strings.FieldsFunc(base, func(r rune) bool { return strings.ContainsRune("._-", r) }) {
		switch w {
		case "bak", "backup", "orig", "old", "save", "tmp", "temp", "localhost", "local", "dev", "selfsigned", "snakeoil", "debug":
			if strings.Contains(what, "private key") || w != "local" && w != "dev" {
				return "" // .env.bak: a copy; localhost-key.pem, dev.key: mkcert's and openssl's for a local server, made again at will
			}
		}
	}
	dir := strings.TrimPrefix(strings.TrimPrefix(t.path, iv.c.project), "/") // the directory it lies in: a glob's is its path
	if !t.children {
		dir = path.Dir(dir)
	}
	if fixturePath(a.s) || iv.c.inTemp(t.path) || freshPart.MatchString(a.src) || dir != "" && dir != "." && iv.c.madePath(dir) {
		return ""
	}
	if _, made := iv.c.written[t.path]; made {
		return "" // echo X=1 > .env && … && rm .env: its own
	}
	return what
}

// sourceExts are the extensions of source files people write.
var sourceExts = map[string]bool{
	"py": true, "go": true, "js": true, "ts": true, "tsx": true, "jsx": true, "rb": true, "java": true, "kt": true, "rs": true,
	"c": true, "cc": true, "cpp": true, "h": true, "hpp": true, "cs": true, "swift": true, "php": true, "scala": true, "ex": true,
	"exs": true, "vue": true, "svelte": true, "sql": true, "md": true, "ipynb": true, "mjs": true, "cjs": true, "mts": true,
	"cts": true, "kts": true, "cxx": true, "hh": true, "hxx": true, "m": true, "mm": true, "dart": true, "lua": true, "pl": true,
	"pm": true, "r": true, "R": true, "jl": true, "hs": true, "ml": true, "clj": true, "erl": true, "zig": true, "groovy": true,
	"proto": true, "tf": true, "css": true, "scss": true, "sh": true, "bash": true, "astro": true, "fs": true, "elm": true,
}

// find is read-only unless it deletes or runs commands; -exec commands are
// classified with {} standing for everything under each root.
func find(iv *inv) {
	args := iv.rest(1)
	var roots []arg
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.ok && (strings.HasPrefix(a.s, "-") || a.s == "(" || a.s == "!" || a.s == ")") {
			if a.s == "-H" || a.s == "-L" || a.s == "-P" || strings.HasPrefix(a.s, "-O") || a.s == "-D" {
				if a.s == "-D" {
					i++
				}
				continue // options before the roots
			}
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = argsOf(".")
	}
	expr := i
	for ; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			continue
		}
		// With a test such as -name, {} is some entries under each root;
		// without one it is all of them (find . -exec rm -rf {} +).
		filtered, byName, name, dangling, pathPat := findBranch(args[expr:], i-expr)
		switch a.s {
		case "-delete":
			iv.flag(Write, "")
			if dangling {
				continue // find ~ -xtype l -delete: links that lead nowhere
			}
			for _, r := range roots {
				if iv.sc.remote && iv.sc.localContainer && containerScratch(r) {
					continue // docker exec app find /app/tmp/cache -type f -delete: the container's scratch
				}
				entries := pathEntries(under(r, filtered), name, pathPat)
				t := iv.c.resolve(iv.sc, entries) // what it deletes is under the root
				why := iv.c.danger(t)
				if why == "" && !byName && t.path == iv.c.project {
					why = "files chosen by age, size or owner across the working directory" // find . -mtime +30 -delete: source too
				} else if why == "" && !byName && !iv.sc.remote {
					if own := iv.c.ownWork(t.path, true); own != "" { // find src -type f -delete
						iv.flagWrite(t, "find -delete deletes the files of "+own+": "+iv.c.show(t))
					}
				} else if why == "" && !iv.sc.remote {
					if own := iv.c.ownFiles(t, entries.s, false); own != "" { // find packages -name '*.js' -delete
						iv.flagWrite(t, "find -delete deletes "+own+", uncommitted work with them: "+iv.c.show(t))
					} else if own := iv.c.pathOwn(t, name, pathPat); own != "" { // find . -path '*/migrations/*' -delete
						iv.flagWrite(t, "find -delete deletes "+own+", uncommitted work with them: "+iv.c.show(t))
					}
				}
				if iv.sc.remote {
					iv.flag(Destructive, "find -delete on a remote host")
				} else if why != "" {
					if why == "unresolved" {
						why = "a path computed at run time"
					}
					iv.flagWrite(t, phrase("find -delete", why)+": "+iv.c.show(t))
				}
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && !(args[j].ok && (args[j].s == ";" || args[j].s == "+")) {
				j++
			}
			cmd := args[i+1 : j]
			i = j
			if len(cmd) == 0 {
				continue
			}
			for _, r := range roots {
				if iv.sc.remote && iv.sc.localContainer && containerScratch(r) {
					continue // docker exec app find /app/tmp/cache -type f -delete: the container's scratch
				}
				entries := pathEntries(under(r, filtered), name, pathPat)
				run, _ := replaceIn(cmd, "{}", entries)
				iv.exec(run)
				if filtered && !byName && cmd[0].ok && deleters[path.Base(cmd[0].s)] {
					iv.agedDelete(path.Base(cmd[0].s), r) // find . -mtime -1 -exec rm {} +
				}
				if t := iv.c.resolve(iv.sc, entries); cmd[0].ok && deleters[path.Base(cmd[0].s)] && !iv.sc.remote && iv.c.danger(t) == "" {
					if own := iv.c.pathOwn(t, name, pathPat); own != "" { // find . -path '*/migrations/*' -exec rm {} +
						iv.flagWrite(t, path.Base(cmd[0].s)+" deletes "+own+", uncommitted work with them: "+iv.c.show(t))
					}
				}
			}
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(args) {
				class, why := iv.c.writeTarget(iv.sc, args[i+1], true)
				iv.flag(max(class, Write), why)
			}
		}
	}
}

// findsAged reports whether find's arguments (after its name) list
// entries chosen by age, size or owner and not by name, for its first
// printing action or, with none, the last branch of its expression: find
// . -path ./node_modules -prune -o -type f -newer package.json -print0.
func findsAged(args []arg) bool {
	expr := slices.IndexFunc(args, func(a arg) bool { return a.ok && (strings.HasPrefix(a.s, "-") || a.s == "(" || a.s == "!") })
	if expr < 0 {
		return false
	}
	k := slices.IndexFunc(args[expr:], func(a arg) bool {
		return a.ok && (a.s == "-print" || a.s == "-print0" || a.s == "-printf" || a.s == "-fprint" || a.s == "-ls")
	})
	if k < 0 {
		k = len(args) - expr
	}
	filtered, byName, _, _, _ := findBranch(args[expr:], k)
	return filtered && !byName
}

// deleters are the commands that delete the paths they are given.
var deleters = map[string]bool{"rm": true, "unlink": true, "shred": true, "srm": true}

// agedDelete judges a deleter run on what find chose by age, size or
// owner under root (find . -newer f -print0 | xargs -0 rm, find . -mtime
// -1 -exec rm {} +) as find -delete of them is judged: across the working
// directory, or in what holds the user's work, that choice says nothing of
// whose the files are, and recent ones are the uncommitted work.
func (iv *inv) agedDelete(verb string, root arg) {
	if iv.sc.remote || !root.ok {
		return
	}
	t := iv.c.resolve(iv.sc, under(root, true))
	if iv.c.danger(t) != "" {
		return // judged by the deleter itself
	}
	if t.path == iv.c.project {
		iv.flagWrite(t, verb+" deletes files chosen by age, size or owner across the working directory: "+iv.c.show(t))
	} else if own := iv.c.ownWork(t.path, true); own != "" {
		iv.flagWrite(t, verb+" deletes files chosen by age, size or owner from "+own+": "+iv.c.show(t))
	}
}

// findBranch says what chooses the entries find's action at k acts on:
// the tests before it in its branch, back to the -o before it at its
// level (find . -name '*.tmp' -o -mtime +30 -delete deletes every old
// file; -name chooses only for the other branch), with those of groups
// before it and around it. Tests after the action choose nothing for it.
// filtered: some test chooses; byName: one by name or path; name: the
// -name pattern; dangling: -xtype l, links that lead nowhere; pathPat:
// the -path (-ipath, -wholename) pattern.
func findBranch(expr []arg, k int) (filtered, byName bool, name string, dangling bool, pathPat string) {
	depth := 0
	for j := k - 1; j >= 0; j-- {
		a := expr[j]
		if !a.ok {
			continue
		}
		switch {
		case a.s == ")":
			depth++
		case a.s == "(":
			if depth > 0 {
				depth--
			}
		case (a.s == "-o" || a.s == "-or") && depth == 0:
			return
		case findTests[a.s]:
			filtered = true
			negated := j > 0 && expr[j-1].ok && (expr[j-1].s == "-not" || expr[j-1].s == "!")
			byName = byName || !negated && !nameless[a.s]
			if (a.s == "-name" || a.s == "-iname") && j+1 < len(expr) && expr[j+1].ok && !negated {
				name = expr[j+1].s
			}
			if pathTests[a.s] && j+1 < len(expr) && expr[j+1].ok && !negated {
				pathPat = expr[j+1].s
			} else if (a.s == "-regex" || a.s == "-iregex") && j+1 < len(expr) && expr[j+1].ok && !negated {
				if g, ok := regexGlob(expr[j+1].s); ok {
					pathPat = g // -regex '.*/migrations/.*\.py': the path */migrations/*.py
				}
			}
		case a.s == "-xtype" && j+1 < len(expr) && expr[j+1].ok && expr[j+1].s == "l" && depth == 0:
			dangling = !(j > 0 && expr[j-1].ok && (expr[j-1].s == "-not" || expr[j-1].s == "!"))
		}
	}
	return
}

// pathTests are find's tests of an entry's whole path.
var pathTests = map[string]bool{"-path": true, "-ipath": true, "-wholename": true, "-iwholename": true}

// regexGlob is the glob a simple regular expression of a path stands for
// (.*/migrations/.*\.py$: */migrations/*.py), when it has none of a
// regular expression's other operators.
func regexGlob(re string) (string, bool) {
	g := strings.TrimSuffix(strings.TrimPrefix(re, "^"), "$")
	g = strings.NewReplacer(".*", "*", `\.`, "\x00", `\/`, "/").Replace(g)
	if strings.ContainsAny(g, `\()[]{}|+?^$`) {
		return "", false
	}
	return strings.NewReplacer(".", "?", "\x00", ".").Replace(g), true
}

// pathEntries narrows the entries under a root to those find's -name and
// -path patterns select. A -path pattern's last part names the files as
// -name does (-path '*/migrations/*.py': *.py), and a directory of what
// tools make that a literal part of it names (-path '*/node_modules/*')
// puts them in one: root/node_modules/**/*, so they are judged as made.
func pathEntries(entries arg, name, pathPat string) arg {
	if pathPat == "" || !entries.ok {
		return named(entries, name)
	}
	parts := strings.Split(pathPat, "/")
	for _, d := range parts[:len(parts)-1] {
		if d = strings.Trim(d, "*"); d != "" && d != "." && d != ".." && !strings.ContainsAny(d, "*?[") && made(d) {
			root := strings.TrimSuffix(strings.TrimSuffix(entries.s, "/**/*"), "/*")
			s := root + "/" + d + "/**/*"
			return named(arg{s: s, ok: true, src: s}, name)
		}
	}
	if last := parts[len(parts)-1]; name == "" && !strings.ContainsAny(strings.Trim(last, "*"), "*") {
		name = last // -path '*/migrations/*.py': *.py
	}
	return named(entries, name)
}

// pathOwn says how the entries a find -path pattern selects for deleting
// are the user's own work, beyond the files ownFiles judges by name: all
// that lies under a source root (-path '*/migrations/*'), or "" if it is
// not. t is what they resolve to; a directory tools make
// on the way (pathEntries) makes them not the user's, and a -name picks
// among them (-path '*/tests/*' -name '*.snap': ownFiles judges those).
func (c *classifier) pathOwn(t target, name, pathPat string) string {
	if pathPat == "" || name != "" || t.path == "" || !c.trustedProject() || t.path != c.project && !isUnder(t.path, c.project) {
		return ""
	}
	if rel := strings.TrimPrefix(strings.TrimPrefix(t.path, c.project), "/"); rel != "" && c.madePath(rel) {
		return ""
	}
	parts := strings.Split(pathPat, "/")
	if strings.Trim(parts[len(parts)-1], "*") != "" {
		return "" // -path '*/migrations/*.py' names the files: ownFiles judges them
	}
	for _, d := range parts[:len(parts)-1] {
		if sourceRoots[d] {
			return "every file under each " + d + " directory, which holds the project's source"
		}
	}
	return ""
}

// fdFind is fd (fdfind): read-only unless it runs a command for what it
// finds (-x, --exec; -X, --exec-batch), which is classified like find
// -exec's, {} standing for some entries under each search root.
func fdFind(iv *inv) {
	args := iv.rest(1)
	var operands, roots []arg
	var execs [][]arg
	filtered := false // by extension, size or age, whatever the pattern
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok:
			operands = append(operands, a)
		case a.s == "-x" || a.s == "--exec" || a.s == "-X" || a.s == "--exec-batch":
			j := i + 1
			for j < len(args) && !(args[j].ok && (args[j].s == ";" || args[j].s == "\\;")) {
				j++
			}
			execs = append(execs, args[i+1:j])
			i = j
		case (a.s == "--search-path" || a.s == "--base-directory") && i+1 < len(args):
			roots = append(roots, args[i+1])
			i++
		case fdValueOpts[a.s] && i+1 < len(args):
			filtered = filtered || fdFilters[a.s]
			i++
		case a.s == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a.s, "-"):
		default:
			operands = append(operands, a)
		}
	}
	if len(operands) > 1 {
		roots = append(roots, operands[1:]...) // fd PATTERN PATH…
	}
	if len(roots) == 0 {
		roots = argsOf(".")
	}
	every := !filtered && (len(operands) == 0 || operands[0].ok && (operands[0].s == "." || operands[0].s == "" || operands[0].s == "^"))
	name, pathPat := "", ""
	if !every {
		name, pathPat = fdPattern(args, operands)
	}
	for _, cmd := range execs {
		if len(cmd) == 0 {
			continue
		}
		for _, r := range roots {
			iv.exec(substitute(cmd, "{}", pathEntries(under(r, !every), name, pathPat)))
		}
	}
}

// fdPattern is what fd's words say of the names (*.py) or paths
// (*/migrations/*.py) it picks: by its first extension (-e py) of a
// source file, else the first, or by its pattern when that is a glob (-g)
// or a simple regular expression, matched anywhere in the name or, with
// -p, the path.
func fdPattern(args, operands []arg) (name, pathPat string) {
	glob, full := hasFlag(args, "g", "--glob"), hasFlag(args, "p", "--full-path")
	for i, a := range args {
		if a.ok && (a.s == "-e" || a.s == "--extension") && i+1 < len(args) && args[i+1].ok {
			if ext := "*." + strings.TrimPrefix(args[i+1].s, "."); name == "" || sourceName(ext) && !sourceName(name) {
				name = ext
			}
		}
	}
	if name != "" || len(operands) == 0 || !operands[0].ok {
		return name, ""
	}
	g, ok := operands[0].s, glob
	if !glob {
		if g, ok = regexGlob(operands[0].s); ok {
			if !strings.HasPrefix(operands[0].s, "^") {
				g = "*" + g // a regular expression matches anywhere
			}
			if !strings.HasSuffix(operands[0].s, "$") {
				g += "*"
			}
		}
	}
	switch {
	case !ok:
		return "", ""
	case full:
		return "", g
	case !strings.Contains(g, "/"):
		return g, ""
	}
	return "", ""
}

// fdFilters are fd's options that select some entries.
var fdFilters = map[string]bool{
	"-e": true, "--extension": true, "-S": true, "--size": true, "--changed-within": true, "--changed-before": true, "-o": true, "--owner": true,
}

// fdValueOpts are fd's options that take the next word.
var fdValueOpts = map[string]bool{
	"-t": true, "--type": true, "-e": true, "--extension": true, "-E": true, "--exclude": true, "-d": true, "--max-depth": true,
	"--min-depth": true, "--exact-depth": true, "-S": true, "--size": true, "--changed-within": true, "--changed-before": true,
	"-j": true, "--threads": true, "-c": true, "--color": true, "--max-results": true, "-o": true, "--owner": true,
	"--ignore-file": true, "--path-separator": true, "--format": true, "--batch-size": true,
}

// findTests are find predicates that select some entries.
var findTests = map[string]bool{
	"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true, "-iwholename": true,
	"-regex": true, "-iregex": true, "-newer": true, "-mtime": true, "-mmin": true, "-atime": true,
	"-amin": true, "-ctime": true, "-cmin": true, "-size": true, "-empty": true, "-user": true,
	"-group": true, "-perm": true, "-lname": true, "-links": true, "-inum": true, "-samefile": true,
}

// nameless are the find tests that choose entries by something other than
// their name: age, size, owner, mode.
var nameless = map[string]bool{
	"-newer": true, "-mtime": true, "-mmin": true, "-atime": true, "-amin": true, "-ctime": true, "-cmin": true,
	"-size": true, "-user": true, "-group": true, "-perm": true, "-links": true, "-inum": true,
}

// under is an arg standing for entries under root, as a glob that resolve
// treats as the root's children: all of them (root/*) or, when find
// filters, some (root/**/*).
func under(root arg, some bool) arg {
	if !root.ok {
		return root
	}
	s := strings.TrimSuffix(root.s, "/") + "/*"
	if some {
		s = strings.TrimSuffix(root.s, "/") + "/**/*"
	}
	return arg{s: s, ok: true, src: s}
}

// substitute returns cmd with every occurrence of pat inside an arg
// replaced by repl; if no arg holds pat, repl is appended, as parallel
// and fd -x do.
func substitute(cmd []arg, pat string, repl arg) []arg {
	out, found := replaceIn(cmd, pat, repl)
	if !found {
		out = append(out, repl)
	}
	return out
}

// replaceIn returns cmd with every occurrence of pat inside an arg
// replaced by repl, and whether there was one: find -exec and xargs -I
// put the item only where {} stands (find . -exec rm -rf build \; removes
// build, whatever it finds).
func replaceIn(cmd []arg, pat string, repl arg) ([]arg, bool) {
	out := make([]arg, 0, len(cmd)+1)
	found := false
	for i, a := range cmd {
		if a.ok && strings.Contains(a.s, pat) {
			found = true
			if !repl.ok && i > 1 && cmd[i-1].s == "-c" && shells[path.Base(cmd[0].s)] && !strings.Contains(a.s, "'") {
				// sh -c 'grep -n x {}': the code is known but for the item,
				// which stands in it as a variable whose value is unknown.
				s := strings.ReplaceAll(a.s, pat, `"$item_from_stdin"`)
				out = append(out, arg{s: s, ok: true, src: s})
				continue
			}
			if !repl.ok { // the whole word is unknown now, but its text still says what it does
				out = append(out, arg{src: strings.ReplaceAll(a.s, pat, repl.src), item: repl.item && a.s == pat})
				continue
			}
			s := strings.ReplaceAll(a.s, pat, repl.s)
			out = append(out, arg{s: s, ok: true, src: s})
			continue
		}
		out = append(out, a)
	}
	return out, found
}

// phrase joins an operation and a danger: "rm -rf outside the working
// directory", "rm -rf of the home directory".
func phrase(verb, why string) string {
	if strings.HasPrefix(why, "outside") {
		return verb + " " + why
	}
	return verb + " of " + why
}

// chmodR: recursive permission or owner changes outside the project.
func chmodR(iv *inv) {
	iv.flag(Write, "")
	flags, operands := opts(iv.rest(1))
	if !hasFlag(flags, "R", "--recursive") {
		iv.opensSecret(operands)
		iv.locksOut(operands)
		iv.changesSystemFile(operands)
		return
	}
	for _, a := range operands {
		if !a.ok {
			continue
		}
		t := iv.c.resolve(iv.sc, a)
		// The project itself is fine: chmod -R u+w . is ordinary work.
		if why := iv.c.danger(t); why != "" && why != "unresolved" && why != "the working directory itself" && why != "every file in the working directory" {
			iv.flag(Destructive, phrase(iv.name+" -R", why)+": "+iv.c.show(t))
		}
	}
}

// opensSecret flags chmod making a file of secrets readable by every user
// of the machine (644, a+r, o+r): a copy this command filled with secrets
// (cp .env /tmp/x, tar czf /tmp/b.tgz certs/key.pem), or a secrets file
// in a temp dir, which every user can list.
func (iv *inv) opensSecret(operands []arg) {
	if iv.name != "chmod" || len(operands) < 2 || !operands[0].ok || !othersRead(operands[0].s) {
		return
	}
	for _, a := range operands[1:] {
		if !a.ok {
			continue
		}
		t := iv.c.resolve(iv.sc, a)
		if t.path == "" {
			continue
		}
		src, wrote := iv.c.written[t.path]
		if wrote && src.kind == srcSecret || iv.c.inTemp(t.path) && namedSecret(t.path) {
			iv.flag(Destructive, "chmod "+operands[0].s+" makes a copy of secrets readable by every user of the machine: "+iv.c.show(t))
			return
		}
	}
}

// othersRead reports whether a chmod mode lets users other than the owner
// and group read: an octal mode whose last digit has 4 (644, 0755), or a
// symbolic one giving r to o or a (o+r, a+r, +r, a=rw).
func othersRead(mode string) bool {
	if mode == "" {
		return false
	}
	if strings.Trim(mode, "01234567") == "" {
		return len(mode) >= 3 && (mode[len(mode)-1]-'0')&4 != 0
	}
	for _, clause := range strings.Split(mode, ",") {
		who, perm, ok := strings.Cut(clause, "+")
		if !ok {
			who, perm, ok = strings.Cut(clause, "=")
		}
		if ok && strings.Contains(perm, "r") && (who == "" || strings.ContainsAny(who, "oa")) {
			return true
		}
	}
	return false
}

// invokingOwner is an owner (and group) that is the user who runs the
// command, as the calling shell expands it before sudo starts:
// "$(id -u):$(id -g)", $USER:$USER, $(whoami), ${UID}.
var invokingOwner = lazyRE(`^(?:\$\(id -u\)|\$\(id -un\)|\$\(id -u -n\)|\$\(whoami\)|\$\(logname\)|\$\{?(?:USER|UID|LOGNAME)\}?)?(?:[:.](?:\$\(id -g\)|\$\(id -gn\)|\$\(id -g -n\)|\$\(id -u\)|\$\(id -un\)|\$\(whoami\)|\$\{?(?:USER|GID|LOGNAME)\}?)?)?$`)

// givesBack reports whether cmd, run as another user (root), only gives
// the user who runs it ownership of files of the working tree, all of it
// or a part (chown -R "$(id -u):$(id -g)" node_modules, chown -R
// $USER:$USER storage bootstrap/cache, after a container or a sudo npm
// install left them root's), or of a tool's cache in the home directory:
// what changes was the user's to own. The tree is a project's, not the
// home directory, the root or a system directory (/var/www/html, /opt/x,
// whose owner a service may need). Following links (-L, -H), or a link
// this command made, may lead out of the tree; --reference names an
// owner from a file.
func (iv *inv) givesBack(cmd Command) bool {
	name := path.Base(cmd.Argv[0])
	if name != "chown" && name != "chgrp" || len(cmd.Argv) < 3 || iv.sc.remote || iv.sc.mounts != nil || !iv.c.trustedProject() || isSystemPath(iv.c.project) {
		return false
	}
	owner, n := "", 0
	for _, a := range cmd.Argv[1:] {
		switch {
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "RvcfhP") == "", a == "--recursive" || a == "--verbose" || a == "--changes" || a == "--silent" || a == "--quiet" || a == "--no-dereference":
		case strings.HasPrefix(a, "-"):
			return false
		case owner == "":
			owner = strings.ReplaceAll(a, `"`, "")
			if name == "chgrp" {
				owner = ":" + owner
			}
			if owner == "" || owner == ":" || !invokingOwner.MatchString(owner) {
				return false
			}
		default:
			t := iv.c.resolve(iv.sc, arg{s: a, ok: true, src: a})
			inTree := t.path == iv.c.project || isUnder(t.path, iv.c.project)
			home, inHome := strings.CutPrefix(t.path, iv.c.home+"/")
			switch {
			case t.path == "" || strings.ContainsAny(a, "$`"):
				return false
			case iv.c.linkOnWay(t.path):
				return false // ln -s /etc conf && sudo chown -R $USER conf/
			case inTree:
			case inHome && iv.c.home != unknownHome && slices.ContainsFunc(homeCaches, func(c string) bool {
				return home == strings.TrimSuffix(c, "/") || strings.HasPrefix(home, strings.TrimSuffix(c, "/")+"/")
			}):
			default:
				return false
			}
			n++
		}
	}
	return n > 0
}

// linkOnWay reports whether p is, or lies under, a link this command
// made (ln -s): what it names may lie anywhere.
func (c *classifier) linkOnWay(p string) bool {
	for l := range c.links {
		if p == l || isUnder(p, l) {
			return true
		}
	}
	return false
}

// locksOut holds changing who owns, or may enter, the root, the home
// directory or a top system directory (chmod 000 ~, chown nobody /etc):
// the user, or the system, is locked out of everything under it. chmod
// that keeps the owner's full access (chmod 700 ~, chmod go-w ~) only
// narrows what others may do.
func (iv *inv) locksOut(operands []arg) {
	mode := ""
	if iv.name == "chmod" && len(operands) > 0 {
		mode, operands = operands[0].s, operands[1:]
	}
	for _, a := range operands {
		t := iv.c.resolve(iv.sc, a)
		p := t.path
		if !a.ok || t.children || !(p == "/" || p == iv.c.home || isSystemPath(p) && path.Dir(p) == "/") {
			continue
		}
		if iv.name == "chmod" && p == iv.c.home && ownerKeeps(mode) {
			continue
		}
		iv.flag(Destructive, strings.TrimSpace(iv.name+" "+mode)+" of "+iv.c.show(t)+" changes who may use everything under it")
		return
	}
}

// changesSystemFile holds changing the mode, owner or ACL of a system
// file (chmod a+w /etc/passwd, chown me /etc/sudoers, chmod 4755
// /bin/bash), and setting the setuid or setgid bit of a file outside the
// working directory and the temp dirs: who may do what on the machine
// changes.
func (iv *inv) changesSystemFile(operands []arg) {
	mode := ""
	if iv.name == "chmod" && len(operands) > 0 {
		mode, operands = operands[0].s, operands[1:]
	}
	setID := mode != "" && (strings.Trim(mode, "01234567") == "" && len(mode) == 4 && strings.IndexByte("1234567", mode[0]) >= 0 && mode[0] != '1' ||
		strings.Contains(mode, "+s") || strings.Contains(mode, "=s") || setIDMode.MatchString(mode))
	for _, a := range operands {
		t := iv.c.resolve(iv.sc, a)
		p := t.path
		if !a.ok || p == "" || iv.sc.remote || iv.sc.mounts != nil || iv.c.inTemp(p) || iv.c.trustedProject() && isUnder(p, iv.c.project) {
			continue
		}
		switch {
		case isSystemPath(p):
			iv.flag(Destructive, strings.TrimSpace(iv.name+" "+mode)+" changes who may use a system file: "+iv.c.show(t))
			return
		case setID:
			iv.flag(Destructive, iv.name+" "+mode+" makes a program run as its owner, whoever starts it: "+iv.c.show(t))
			return
		}
	}
}

// setIDMode is a symbolic mode that sets the setuid or setgid bit: u+s, g=rxs.
var setIDMode = lazyRE(`[ugoa]*[+=][rwxXt]*s`)

// ownerKeeps reports whether a chmod mode keeps the owner's full access
// and gives no one else write access: 700, 0755, go-rwx, u+rwx.
func ownerKeeps(mode string) bool {
	if n := len(mode); n >= 3 && n <= 4 && strings.Trim(mode, "01234567") == "" {
		return mode[n-3] == '7' && strings.Trim(mode[n-2:], "0145") == ""
	}
	return strings.HasPrefix(mode, "go-") || strings.HasPrefix(mode, "og-") || strings.HasPrefix(mode, "g-") || strings.HasPrefix(mode, "o-") || strings.HasPrefix(mode, "u+")
}

// dd writes of=; a device or an existing file outside the project is
// destructive, and so is a target computed at run time (of=$(…), of=$dev):
// dd writes blocks over whatever it names, a disk as readily as a file,
// unless it is the command's own temporary file (of="$(mktemp)", of=$t
// after t=$(mktemp)). Copying nothing or zeros (if=/dev/null, count=0)
// over the user's files empties them, as truncate -s0 does.
func dd(iv *inv) {
	blank, zeros, notrunc := false, false, false // what it copies is nothing, or zeros: the output's bytes are lost
	for _, a := range iv.rest(1) {
		v, _ := strings.CutPrefix(a.s, "conv=")
		blank = blank || a.ok && (a.s == "if=/dev/null" || a.s == "count=0")
		zeros = zeros || a.ok && a.s == "if=/dev/zero"
		notrunc = notrunc || a.ok && strings.Contains(v, "notrunc")
	}
	blank = blank && !notrunc || zeros // conv=notrunc keeps the file whole, unless zeros go over it
	for _, a := range iv.rest(1) {
		if !a.ok {
			src := strings.Trim(a.src, `"'`)
			if v, ok := strings.CutPrefix(src, "of="); ok {
				iv.flag(Write, "")
				if !iv.c.tempVar(v) && !iv.c.underTemp(v) && !strings.HasPrefix(strings.Trim(v, `"'`), "$(mktemp") {
					iv.flagWrite(target{src: v}, "dd writes blocks over a target computed at run time, which may be a disk: "+cutText(v))
				}
			}
			continue
		}
		if of, ok := strings.CutPrefix(a.s, "of="); ok {
			of = iv.c.tilde(of) // bash expands ~ after = in such words
			class, why := iv.c.writeTarget(iv.sc, arg{s: of, ok: true, src: of}, true)
			if strings.HasPrefix(why, "writes to") {
				why = "dd " + why
			}
			iv.flag(max(class, Write), why)
			if t := iv.c.resolve(iv.sc, arg{s: of, ok: true, src: of}); blank && class < Destructive && !iv.sc.remote {
				if own := iv.c.emptied(t, of); own != "" { // dd if=/dev/null of=src/index.ts
					iv.flagWrite(t, "dd writes nothing or zeros over "+own+": "+iv.c.show(t))
				}
			}
		}
	}
}

// truncate -s 0 empties files.
func truncate(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	shrinks := false
	var files []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		size := ""
		switch {
		case !a.ok || !strings.HasPrefix(a.s, "-"):
			files = append(files, a)
			continue
		case (a.s == "-s" || a.s == "-r" || longOpt(a.s, "--size") || longOpt(a.s, "--reference")) && !strings.Contains(a.s, "=") && i+1 < len(args):
			i++
			if a.s == "-s" || longOpt(a.s, "--size") {
				size = args[i].s
			}
		case longOpt(a.s, "--size"):
			_, size, _ = strings.Cut(a.s, "=")
		case strings.HasPrefix(a.s, "-s"):
			size = a.s[2:]
		case longOpt(a.s, "--reference") || strings.HasPrefix(a.s, "-r"): // the size of another file: maybe smaller
		default:
			continue
		}
		shrinks = shrinks || !strings.HasPrefix(size, "+")
	}
	if shrinks && iv.sc.remote {
		if what := remoteData(iv.sc, files); what != "" {
			iv.flag(Destructive, "truncate empties "+what)
		}
	}
	if !shrinks || iv.sc.remote {
		return
	}
	for _, f := range files {
		t := iv.c.resolve(iv.sc, f)
		if dataFile(t.path) && !iv.c.scratch(t.path) {
			iv.flagWrite(t, "truncate empties a database file: "+iv.c.show(t))
		} else if why := iv.c.danger(t); why != "" {
			if why == "unresolved" {
				why = "a path computed at run time"
			}
			iv.flagWrite(t, phrase("truncate cuts a file", why)+": "+iv.c.show(t))
		} else if own := iv.c.emptied(t, f.s); f.ok && own != "" { // truncate -s0 src/app.py
			iv.flagWrite(t, "truncate empties "+own+": "+iv.c.show(t))
		}
	}
}

// mv of the project, a parent of it, home, or a system directory.
func mv(iv *inv) {
	iv.flag(Write, "")
	iv.carries(iv.rest(1))
	for _, f := range iv.intoDir(iv.rest(1)) { // mv x.conf -t /etc writes /etc/x.conf
		iv.overwrites(f)
		iv.replacesSecrets(f)
	}
	_, operands := opts(iv.rest(1))
	if d, ok := destination(iv.rest(1)); ok && len(operands) > 0 && operands[len(operands)-1] != d { // mv -t /tmp/ a.log: -t names the destination
		operands = append(slices.DeleteFunc(slices.Clone(operands), func(a arg) bool { return a == d }), d)
	}
	if len(operands) < 2 || iv.sc.remote {
		return
	}
	last := operands[len(operands)-1]
	dst := iv.c.resolve(iv.sc, last)
	iv.overwrites(last)
	iv.replacesSecrets(last)
	iv.restoresBackups(operands)
	iv.replacesOwn()
	away := dst.path == "/dev/null" || iv.c.inTemp(dst.path) || iv.c.isTempRoot(dst.path)
	if !last.ok { // mv ~/.ssh /tmp/.x$$: a temp name made at run time
		away = strings.HasPrefix(last.src, "/tmp/") || strings.HasPrefix(last.src, "/var/tmp/") || strings.HasPrefix(last.src, "/dev/shm/") ||
			strings.HasPrefix(last.src, "$TMPDIR") || strings.HasPrefix(last.src, "${TMPDIR") || strings.HasPrefix(last.src, "\"$TMPDIR") || strings.HasPrefix(last.src, "$(mktemp")
	}
	for _, a := range operands[:len(operands)-1] {
		t := iv.c.resolve(iv.sc, a)
		if away && iv.c.danger(t) != "" && !iv.c.inTemp(t.path) {
			iv.flagWrite(t, "mv of a file outside the working directory into "+iv.c.show(dst)+", where it is lost: "+iv.c.show(t))
			continue
		}
		why := iv.c.danger(t)
		if why == "the working directory itself" || why == "a parent of the working directory" || why == "the home directory" ||
			(t.path != "" && (isSystemPath(t.path) || path.Dir(t.path) == "/")) {
			if why == "" || why == "outside the working directory" {
				why = "a system directory"
			}
			iv.flagWrite(t, "mv of "+why+": "+iv.c.show(t))
		}
	}
}

// backupStrip is a name computed by cutting a backup's suffix off a
// variable's value: ${f%.orig}, ${1%.bak}, "${f%~}"; group 1 is the
// variable.
var backupStrip = lazyRE(`\$\{(\w+)%%?(\.?(?:orig|bak|backup|old|save|prev|rej)|~)\}`)

// restoresBackups judges moving or copying each of many backup copies
// (what a loop, find or xargs gives: "$f", "$1", or the files find
// chose, ./**/*.orig) onto the name without its suffix, exactly
// (${f%.orig}, not ${f%.orig}.new nor /tmp/x/${f%.orig}): that
// is the file the backup was made from, and
// every change made to it since, resolved conflicts and uncommitted
// edits, is written over.
func (iv *inv) restoresBackups(operands []arg) {
	last := operands[len(operands)-1]
	m := backupStrip.FindStringSubmatch(last.src)
	if last.ok || m == nil || strings.Trim(last.src, `"`) != m[0] {
		return // "${f%.bak}.restored", "/tmp/x/${f%.bak}": a name beside or away from the original
	}
	for _, a := range operands[:len(operands)-1] {
		if v := strings.Trim(a.src, `"'{}$`); !a.ok && v == m[1] || a.ok && strings.HasSuffix(a.s, m[2]) && strings.ContainsAny(a.s, "*?[") {
			iv.flag(Destructive, iv.name+" puts backup copies back over the files they were made from, losing every change since: "+a.src+" to "+last.src)
			return
		}
	}
}

// rsync --delete removes files at the destination.
func rsync(iv *inv) {
	iv.flag(Write, "")
	flags, operands := opts(iv.rest(1))
	deletes := hasFlag(flags, "", "--delete", "--del", "--delete-before", "--delete-during", "--delete-delay", "--delete-after", "--delete-excluded")
	if len(operands) > 1 && operands[len(operands)-1].ok && !strings.Contains(operands[len(operands)-1].s, ":") {
		if slices.ContainsFunc(operands[:len(operands)-1], func(a arg) bool { return !a.ok || strings.Contains(a.s, ":") }) {
			iv.c.wrote(iv.sc, operands[len(operands)-1], source{kind: srcDownload}, false) // rsync host:/srv/scripts/ scripts/: what lands there came from another machine, unread
		}
		iv.overwrites(operands[len(operands)-1]) // rsync SRC DST writes over DST as cp does
		for _, t := range iv.treesInto(operands[len(operands)-1], false) {
			if deletes {
				if own := iv.c.ownWork(t.path, true); own != "" { // rsync -a --delete ../clean/ src/
					iv.flagWrite(t, "rsync --delete makes "+own+", a copy of its source, deleting what the source lacks: "+iv.c.show(t))
				}
				continue
			}
			iv.writesOver(t, "rsync copies a tree over", "replacing every file it also holds")
		}
	}
	if hasFlag(flags, "", "--remove-source-files") && len(operands) > 1 && iv.archiveLost(operands[len(operands)-1]) {
		for _, f := range operands[:len(operands)-1] { // rsync -a --remove-source-files src/ /tmp/x/: moved where it is not kept
			iv.removesHere(f, hasFlag(flags, "ra", "--recursive", "--archive"), "rsync --remove-source-files to where it is not kept")
		}
	}
	if !deletes && !hasFlag(flags, "", "--remove-source-files") || len(operands) == 0 {
		return
	}
	dst := operands[len(operands)-1]
	if !dst.ok {
		iv.flag(Destructive, "rsync --delete to a destination computed at run time")
		return
	}
	if host, _, ok := strings.Cut(dst.s, ":"); ok && !strings.Contains(host, "/") {
		iv.flag(Destructive, "rsync --delete removes files on the remote host: "+dst.s)
		return
	}
	t := iv.c.resolve(iv.sc, dst)
	if why := iv.c.danger(t); why != "" {
		iv.flagWrite(t, phrase("rsync --delete", why)+": "+iv.c.show(t))
	}
}

// fallocate punching, collapsing or zeroing a range destroys a file's
// contents in place.
func fallocate(iv *inv) {
	iv.flag(Write, "")
	flags, ops := opts(iv.rest(1))
	if hasFlag(flags, "pcz", "--punch-hole", "--collapse-range", "--zero-range", "--insert-range") && len(ops) > 0 {
		iv.inPlace(ops[len(ops)-1:])
	}
}

// tee writes its operands like a redirection.
func tee(iv *inv) {
	flags, operands := opts(iv.rest(1))
	appending := hasFlag(flags, "a", "--append")
	for _, a := range operands {
		iv.c.wrote(iv.sc, a, iv.in, appending)
		iv.c.hookCode(iv.sc, iv.idx, a)
		if appending {
			iv.c.plantsFetch(iv.idx, a, iv.in)
		}
		class, why := iv.c.writeTarget(iv.sc, a, !appending)
		iv.flag(max(class, Write), why)
		if own := iv.c.overSettings(iv.sc, a, !appending); own != "" {
			iv.flagWrite(iv.c.resolve(iv.sc, a), "tee "+own) // … | tee .env
		} else if own := iv.c.overSecretStore(nil, iv.sc, a, !appending); own != "" && !slices.ContainsFunc(iv.c.cmds, func(c Command) bool { return len(c.Argv) > 0 && encryptors[path.Base(c.Argv[0])] }) {
			iv.flagWrite(iv.c.resolve(iv.sc, a), "tee "+own) // echo '---' | tee group_vars/prod/vault.yml
		} else if own := iv.c.overManifest(iv.sc, a, !appending); own != "" && iv.in.kind == srcText {
			iv.flagWrite(iv.c.resolve(iv.sc, a), "tee "+own) // echo '{}' | tee package.json
		}
		if t := iv.c.resolve(iv.sc, a); !appending && a.ok && !iv.sc.remote {
			if own := iv.c.ownFiles(t, a.s, false); own != "" { // tee $(git ls-files '*.py') < /dev/null
				iv.flagWrite(t, "tee writes the same text over "+own+": "+iv.c.show(t))
			} else if own := iv.c.emptied(t, a.s); own != "" && iv.in.kind == srcText && iv.in.text == "" { // tee config/local.yaml < /dev/null
				iv.flagWrite(t, "tee, given nothing to read, empties "+own+": "+iv.c.show(t))
			} else if own != "" && t.children { // echo x | tee config/*.yaml: each file is truncated and given the same text
				iv.flagWrite(t, "tee writes the same text over every one of "+own+": "+iv.c.show(t))
			}
		}
	}
}

// sed is read-only unless it edits in place: then its files outside the
// working directory are flagged.
func sed(iv *inv) {
	flags, operands := opts(iv.rest(1))
	script := !hasFlag(flags, "ef", "--expression", "--file") // else the first operand is the script
	for _, code := range sedScripts(iv.rest(1)) {
		files, runs := sedEffects(code)
		for _, f := range files {
			iv.overwrites(arg{s: f, ok: true, src: f}) // w FILE, s///w FILE: truncated when sed starts
		}
		for _, r := range runs {
			if r == "" {
				iv.flag(Unparseable, "sed e runs the lines it reads as commands")
				continue
			}
			if strings.ContainsAny(r, "&\\") {
				iv.flag(Unparseable, "sed e runs as a command text made from its input: "+cutText(r))
				continue
			}
			iv.shell(arg{s: r, ok: true, src: r}, iv.sc) // s/.*/CMD/e: the pattern space, now CMD, is run
		}
	}
	if sedInPlace(flags) {
		iv.flag(Write, "")
		code := ""
		if script && len(operands) > 0 {
			code = operands[0].s
			operands = operands[1:]
		}
		iv.inPlace(operands)
		if m := fetchRun.FindString(lineEscapes.Replace(code)); m != "" {
			iv.flag(Destructive, "sed -i puts code that fetches and runs code from the network into its files: "+cutText(m))
			return
		}
		for _, f := range operands {
			if f.ok && isSecretPath(f.s) && sedLoses(code) {
				iv.flag(Destructive, "sed -i deletes from a secrets file, which no version control keeps: "+f.s)
				return
			}
		}
		scripts := sedScripts(iv.rest(1))
		if _, ops := opts(iv.rest(1)); len(scripts) == 1 && scripts[0] == "" && len(ops) > 2 && ops[1].ok {
			scripts = []string{ops[1].s} // BSD sed: -i '' SCRIPT FILE
		}
		if sedQuiet(flags) && !sedBackup(flags) && !iv.sc.remote && (sedScriptFile(iv.rest(1)) || !sedPrintsEvery(scripts)) {
			for _, f := range operands {
				if !f.ok || slices.Contains(scripts, f.s) {
					continue
				}
				if isSecretPath(f.s) && !templateFile(path.Base(f.s)) { // sed -i -n '/^#/p' .env: only the comments are left
					iv.flag(Destructive, "sed -i -n keeps only the lines its script prints of a secrets file, which no version control keeps: "+f.s)
					return
				}
			}
		}
		if how := sedEmpties(strings.Join(scripts, "\n"), sedQuiet(flags)); how != "" && len(scripts) > 0 && !sedScriptFile(iv.rest(1)) && !sedBackup(flags) && !iv.sc.remote {
			for _, f := range operands {
				if !f.ok || slices.Contains(scripts, f.s) {
					continue
				}
				if t := iv.c.resolve(iv.sc, f); iv.c.emptied(t, f.s) != "" { // sed -i '1,$d' app/models/user.rb
					iv.flagWrite(t, "sed -i "+how+", emptying "+iv.c.emptied(t, f.s)+": "+iv.c.show(t))
				}
			}
		}
	}
}

// sedPrintsEvery reports whether one of sed's scripts prints every line
// with p (p, 1,$p), so that with -n it keeps each line it does not delete.
func sedPrintsEvery(scripts []string) bool {
	for _, code := range scripts {
		for _, c := range strings.FieldsFunc(code, func(r rune) bool { return r == ';' || r == '\n' }) {
			switch strings.Join(strings.Fields(c), "") {
			case "p", "1,$p", "0~1p", "1~1p":
				return true
			}
		}
	}
	return false
}

// sedEmpties says how a sed script, run with -i, leaves nothing of a
// file's lines ("deletes every line", "blanks every line"), or "" if
// it does not or cannot be told: a d or c command whose address takes
// every line (none, 1,$, 0~1, /^/, /./, /.*/) and is not negated ($!d;d
// ends in one), s/.*// on every line, or with -n (quiet) a script that
// prints nothing. A script that moves through lines or ends early (n, N,
// D, b, t, q, a block) is not judged.
func sedEmpties(code string, quiet bool) string {
	how, prints := "", false
	i := 0
	skipSpace := func() {
		for i < len(code) && (code[i] == ' ' || code[i] == '\t') {
			i++
		}
	}
	regex := func() (string, bool) { // at a delimiter: the text up to the next one
		d := code[i]
		start := i + 1
		for i++; i < len(code) && code[i] != d; i++ {
			if code[i] == '\\' {
				i++
			}
		}
		if i >= len(code) {
			return "", false
		}
		i++
		return code[start : i-1], true
	}
	address := func() (string, bool) {
		start := i
		switch {
		case i < len(code) && code[i] == '/':
			re, ok := regex()
			return "/" + re + "/", ok
		case i < len(code) && code[i] == '$':
			i++
		default:
			for i < len(code) && (code[i] >= '0' && code[i] <= '9' || code[i] == '~' || code[i] == '+') {
				i++
			}
		}
		return code[start:i], true
	}
	for {
		for i < len(code) && strings.IndexByte(" \t\n;", code[i]) >= 0 {
			i++
		}
		if i >= len(code) {
			break
		}
		a1, ok := address()
		if !ok {
			return ""
		}
		a2 := ""
		skipSpace()
		if i < len(code) && code[i] == ',' {
			i++
			skipSpace()
			if a2, ok = address(); !ok || a2 == "" {
				return ""
			}
		}
		skipSpace()
		negated := i < len(code) && code[i] == '!'
		if negated {
			i++
			skipSpace()
		}
		if i >= len(code) {
			return ""
		}
		every := !negated && (a1 == "" && a2 == "" || a2 == "" && sedEveryLine[a1] || a1 == "1" && a2 == "$")
		cmd := code[i]
		i++
		switch cmd {
		case 'd':
			if every {
				how = cmp.Or(how, "deletes every line")
			}
		case 'c', 'a', 'i', 'r', 'R', 'w', 'W': // text or a file name, to the end of the line
			if cmd == 'c' && every {
				how = cmp.Or(how, "replaces every line with one text")
			}
			prints = prints || cmd != 'w' && cmd != 'W'
			for i < len(code) && code[i] != '\n' {
				i++
			}
			continue
		case 's', 'y':
			if i >= len(code) || code[i] == '\\' || code[i] == '\n' {
				return ""
			}
			pat, ok := regex()
			i--
			var rep string
			if ok {
				rep, ok = regex()
			}
			if !ok {
				return ""
			}
			flags := i
			for i < len(code) && strings.IndexByte("gpiIMme0123456789", code[i]) >= 0 {
				i++
			}
			prints = prints || strings.Contains(code[flags:i], "p")
			if cmd == 's' && every && rep == "" && sedWholeLine[pat] {
				how = cmp.Or(how, "blanks every line")
			}
			if i < len(code) && code[i] == 'w' {
				for i < len(code) && code[i] != '\n' {
					i++
				}
			}
		case 'p', 'P', 'l', '=':
			prints = true
		case 'h', 'H', 'g', 'G', 'x', 'z', 'F':
		default: // n, N, D, b, t, T, q, Q, {, }, :, e, v …
			return ""
		}
		skipSpace()
		if i < len(code) && strings.IndexByte(";\n", code[i]) < 0 {
			return ""
		}
	}
	if how == "" && quiet && !prints {
		return "with -n writes back no line"
	}
	return how
}

// sedEveryLine are sed addresses that take every line (/./ every line
// with text in it).
var sedEveryLine = map[string]bool{"1~1": true, "0~1": true, "/^/": true, "/$/": true, "/.*/": true, "/^.*$/": true, "/./": true}

// sedWholeLine are patterns that match the whole of every line.
var sedWholeLine = map[string]bool{".*": true, "^.*": true, "^.*$": true, ".*$": true}

// sedQuiet reports whether sed's flags include -n (--quiet, --silent):
// a letter n before any i in a cluster, whose i takes the rest as its
// suffix (-ni, -n; not -i.nobak).
func sedQuiet(flags []arg) bool {
	for _, f := range flags {
		if !f.ok {
			continue
		}
		if longOpt(f.s, "--quiet") || longOpt(f.s, "--silent") {
			return true
		}
		if before, _, _ := strings.Cut(f.s, "i"); len(f.s) > 1 && f.s[0] == '-' && f.s[1] != '-' && strings.Contains(before, "n") {
			return true
		}
	}
	return false
}

// sedBackup reports whether sed -i keeps each file's old text as a
// copy: a suffix given to -i (-i.bak, -ni~, --in-place=.orig).
func sedBackup(flags []arg) bool {
	for _, f := range flags {
		switch {
		case !f.ok:
		case strings.HasPrefix(f.s, "--"):
			if name, v, ok := strings.Cut(f.s, "="); ok && v != "" && longOpt(name, "--in-place") {
				return true
			}
		case len(f.s) > 1 && f.s[0] == '-':
			if _, suffix, ok := strings.Cut(f.s[1:], "i"); ok && suffix != "" {
				return true
			}
		}
	}
	return false
}

// sedScriptFile reports whether sed reads a script from a file (-f,
// --file, a cluster ending in f), which this command cannot see.
func sedScriptFile(args []arg) bool {
	for _, a := range args {
		if a.ok && (a.s == "--file" || strings.HasPrefix(a.s, "--file=") || len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.HasSuffix(a.s, "f")) {
			return true
		}
	}
	return false
}

// sedScripts are the scripts sed is given: each -e SCRIPT (a cluster
// ending in e, --expression=), else the first operand.
func sedScripts(args []arg) []string {
	var out []string
	given := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok:
		case strings.HasPrefix(a.s, "--expression="):
			out, given = append(out, strings.TrimPrefix(a.s, "--expression=")), true
		case a.s == "--expression" || len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.HasSuffix(a.s, "e"):
			given = true
			if i+1 < len(args) && args[i+1].ok {
				out = append(out, args[i+1].s)
			}
			i++
		case a.s == "-f" || a.s == "--file" || strings.HasPrefix(a.s, "--file=") || len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.HasSuffix(a.s, "f"):
			given = true
		}
	}
	if !given {
		if _, ops := opts(args); len(ops) > 0 && ops[0].ok {
			out = append(out, ops[0].s)
		}
	}
	return out
}

// sedEffects reads a sed script for the files its w and W commands and
// s///w flags write, and the replacements its s///e flags run as
// commands.
func sedEffects(code string) (files, runs []string) {
	restOfLine := func(j int) (string, int) {
		end := strings.IndexByte(code[j:], '\n')
		if end < 0 {
			end = len(code) - j
		}
		return strings.TrimSpace(code[j : j+end]), j + end
	}
	cmdStart := func(i int) bool { // what comes before a command: an address, or the end of another
		k := i - 1
		for k >= 0 && (code[k] == ' ' || code[k] == '\t') {
			k--
		}
		return k < 0 || strings.IndexByte(";{}\n!$0123456789/", code[k]) >= 0
	}
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c == 's' && i+1 < len(code) && strings.IndexByte("/|#:,@!%^_+=~", code[i+1]) >= 0 && cmdStart(i):
			d, j := code[i+1], i+2
			var parts []string
			for range 2 {
				start := j
				for j < len(code) && code[j] != d {
					if code[j] == '\\' {
						j++
					}
					j++
				}
				if j >= len(code) {
					return files, runs
				}
				parts = append(parts, code[start:j])
				j++
			}
			start := j
			for j < len(code) && strings.IndexByte("gpiIMme0123456789", code[j]) >= 0 {
				j++
			}
			if strings.Contains(code[start:j], "e") {
				runs = append(runs, parts[1])
			}
			if j < len(code) && code[j] == 'w' {
				var f string
				f, j = restOfLine(j + 1)
				files = append(files, f)
			}
			i = j - 1
		case c == 'e' && cmdStart(i) && (i+1 == len(code) || strings.IndexByte(" \t\n;}", code[i+1]) >= 0):
			r, j := restOfLine(i + 1) // GNU sed's e CMD, after any address (1e, $e, /x/e, 1!e): runs CMD; a bare e runs the line read
			runs = append(runs, r)
			i = j - 1
		case (c == 'w' || c == 'W') && i+1 < len(code) && (code[i+1] == ' ' || code[i+1] == '\t') && cmdStart(i):
			f, j := restOfLine(i + 1)
			if f != "" {
				files = append(files, f)
			}
			i = j - 1
		}
	}
	return files, runs
}

// sedLoses reports whether a sed script, or one it cannot see (-e, -f),
// deletes lines or replaces text it does not spell out (s/^KEY=.*//):
// what was there is gone.
func sedLoses(code string) bool {
	return code == "" || sedDelete.MatchString(code) || strings.Contains(code, ".*")
}

// sedDelete is a sed d command: /re/d, 3d, $d, 2,5d.
var sedDelete = lazyRE(`(?:/|\d|\$)\s*!?\s*d\s*(?:;|$|\})`)

// sedInPlace reports whether sed's flags make it edit its files in place
// (-i, -i.bak, --in-place, -ni): it then prints nothing of them.
func sedInPlace(flags []arg) bool {
	for _, f := range flags {
		if f.ok && (f.s == "-i" || strings.HasPrefix(f.s, "-i") || strings.HasPrefix(f.s, "--in-place") || len(f.s) >= 5 && strings.HasPrefix("--in-place", optName(f.s)) ||
			(!strings.HasPrefix(f.s, "--") && strings.Contains(f.s, "i") && !strings.ContainsAny(f.s, "ef"))) {
			return true
		}
	}
	return false
}

// shred destroys file contents beyond recovery: like rm, ordinary work on
// files inside the working tree or a temp dir, destructive anywhere else
// (a key in ~/.ssh, a device, a database file, a path computed at run time).
func shred(iv *inv) {
	iv.flag(Write, "")
	_, operands := opts(iv.rest(1))
	for _, a := range operands {
		if iv.sc.remote {
			iv.flag(Destructive, "shred destroys file contents beyond recovery, on a remote host")
			return
		}
		t := iv.c.resolve(iv.sc, a)
		if why := iv.c.danger(t); why != "" {
			if why == "unresolved" && iv.c.tempVar(a.src) {
				continue // shred -u "$(mktemp)": the file mktemp just made
			}
			if why == "unresolved" {
				why = "a path computed at run time"
			}
			iv.flag(Destructive, phrase("shred destroys file contents beyond recovery,", why)+": "+iv.c.show(t))
			return
		}
		if own := iv.c.emptied(t, a.s); own != "" && a.ok { // shred -u notes/*.md: as emptying them, and beyond recovery
			iv.flagWrite(t, "shred destroys, beyond recovery, the contents of "+own+": "+iv.c.show(t))
			return
		}
	}
}

// rimraf (and del-cli) is rm that is always recursive.
func rimraf(iv *inv) {
	args := append([]arg{iv.args[0], {s: "-r", ok: true, src: "-r"}}, iv.rest(1)...)
	iv.args = args
	rm(iv)
}

// wipefs -a or -o erases filesystem signatures.
func wipefs(iv *inv) {
	flags, _ := opts(iv.rest(1))
	if hasFlag(flags, "ao", "--all", "--offset") && !hasFlag(flags, "n", "--no-act") {
		iv.flag(Destructive, "wipefs erases filesystem signatures")
		return
	}
	if hasFlag(flags, "b", "--backup") {
		iv.flag(Write, "") // writes its backup files
		return
	}
	iv.flag(Write, "")
	iv.lower() // without -a or -o, or with --no-act, it lists the signatures it finds
}

// mkfs, mke2fs and mkswap format what they are given: a device (or a
// name computed at run time) loses everything on it; a regular file in the
// tree or a temp dir (truncate -s 64M tmp/disk.img && mkfs.ext4 tmp/disk.img)
// is a disk image being made, a write; a file elsewhere is overwritten.
func mkfs(iv *inv) {
	iv.flag(Write, "")
	_, ops := opts(iv.rest(1))
	if len(ops) == 0 {
		iv.flag(Destructive, iv.name+" formats a filesystem")
		return
	}
	for _, a := range ops {
		t := iv.c.resolve(iv.sc, a)
		switch why := iv.c.danger(t); {
		case t.path == "" || t.path == "/dev" || isUnder(t.path, "/dev") || strings.HasPrefix(a.s, "UUID=") || strings.HasPrefix(a.s, "LABEL="):
			iv.flag(Destructive, iv.name+" formats a filesystem: "+a.shown())
			return
		case why != "":
			iv.flagWrite(t, phrase(iv.name, why)+": "+iv.c.show(t))
		}
	}
}

// fdisk and the other partition editors rewrite a partition table unless
// they only list it.
func fdisk(iv *inv) {
	flags, _ := opts(iv.rest(1))
	if hasFlag(flags, "lp", "--list", "--print") {
		return
	}
	iv.flag(Destructive, iv.name+" rewrites a partition table")
}

// remoteData says what of operands, paths on another machine (ssh host
// rm -f /opt/app/data/app.db, docker exec app rm /config/home-assistant_v2.db),
// is a database's: a file named like a database or a dump of one, a
// database server's data directory (/var/lib/mysql/…), the files users
// uploaded; as deleting it here is. Not in its temp dirs, nor a test's or
// a fixture's, nor in a container this command started with nothing of
// the host's (scratch).
func remoteData(sc *scope, operands []arg) string {
	if sc.scratch {
		return ""
	}
	for _, a := range operands {
		p := path.Clean(a.s)
		if !a.ok || strings.HasPrefix(a.s, "-") || fixturePath(p) || isUnder(p, "/tmp") || isUnder(p, "/var/tmp") || isUnder(p, "/dev/shm") {
			continue
		}
		switch {
		case dataFile(p) || dataFile(strings.TrimRight(p, "*")):
			return "a database file on another host or in a container: " + a.s
		case serverDataDir.MatchString(p):
			return "a database server's data on another host or in a container: " + a.s
		case uploadsDir(p):
			return "the files users uploaded, on another host or in a container: " + a.s
		}
	}
	return ""
}

// serverDataDir is a path in a database server's data directory.
var serverDataDir = lazyRE(`^/var/lib/(?:mysql|mariadb|postgresql|pgsql|mongodb|redis|influxdb|elasticsearch|opensearch|clickhouse|cassandra|etcd|couchdb|neo4j|rabbitmq)/`)

// dataFile reports whether p is named like a database or a dump of one:
// emptying it loses data wherever it is, unlike a log.
func dataFile(p string) bool {
	switch path.Ext(p) {
	case ".db", ".sqlite", ".sqlite3", ".db3", ".mdb", ".accdb", ".rdb", ".aof", ".dump", ".realm", ".ldb", ".duckdb", ".parquet":
		return true
	}
	return false
}

// named narrows the entries under a root to those find -name selects:
// root/**/* with -name '*.pem' is root/**/*.pem.
func named(entries arg, name string) arg {
	if name == "" || !entries.ok || strings.Contains(name, "/") {
		return entries
	}
	s := strings.TrimSuffix(entries.s, "*") + name
	return arg{s: s, ok: true, src: s}
}

// stow links a package's files into the target directory and refuses to
// write over a file that is there; -D removes only its own links. --adopt
// instead moves the target's files into the package, over the package's
// own versions of them.
func stow(iv *inv) {
	iv.flag(Write, "")
	target := optValue(iv.rest(1), "--target")
	if target == "" {
		target = optValue(iv.rest(1), "-t")
	}
	if p := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(target), ok: true, src: target}).path; target != "" && (p == "/" || isSystemPath(p)) {
		iv.flag(Destructive, iv.name+" links files into the system's directories: "+target)
	}
	if hasFlag(iv.rest(1), "", "--adopt") {
		dir := optValue(iv.rest(1), "--dir")
		if dir == "" {
			dir = optValue(iv.rest(1), "-d")
		}
		if dir == "" {
			dir = "."
		}
		iv.flag(Destructive, iv.name+" --adopt writes the target's files over the package's own versions in "+dir)
	}
}

// replacesOwn holds cp -f or mv -f of one file from outside the working
// tree over a file of the user's own in it (a source file, a schema, a
// migration, a settings file, the manifest): the file is replaced
// wholesale, so every edit in it that the file brought in lacks is lost
// (mv -f /tmp/generated/schema.prisma prisma/schema.prisma). -f says the
// copy is meant to clobber what is there. Ordinary: a file this command
// wrote itself (jq … > /tmp/p.json && mv /tmp/p.json package.json, an
// edit made by way of a temp file), a source inside the tree (a
// template), a new path, a lock or generated file, or one in what tools
// make.
func (iv *inv) replacesOwn() {
	flags, ops := opts(iv.rest(1))
	if iv.sc.remote || len(ops) != 2 || !ops[0].ok || !ops[1].ok || !hasFlag(flags, "f", "--force", "--remove-destination") ||
		strings.HasSuffix(ops[1].s, "/") || hasFlag(flags, "t", "--target-directory") {
		return
	}
	src, dst := iv.c.resolve(iv.sc, ops[0]), iv.c.resolve(iv.sc, ops[1])
	if src.path == "" || dst.path == "" || src.children || dst.children || src.path == iv.c.project || isUnder(src.path, iv.c.project) ||
		!iv.c.trustedProject() || !isUnder(dst.path, iv.c.project) {
		return
	}
	if _, ok := iv.c.written[src.path]; ok {
		return // what this command wrote there: its own edit
	}
	base := path.Base(dst.path)
	if rel := path.Dir(strings.TrimPrefix(dst.path, iv.c.project+"/")); rel != "." && iv.c.madePath(rel) {
		return
	}
	if !handWritten(base) || missingGuard(iv.c.whole, ops[1].s) || newFile(dst.path) {
		return
	}
	if fi, err := os.Stat(dst.path); err == nil && fi.IsDir() {
		return // a file put into a directory
	}
	iv.flagWrite(dst, iv.name+" -f replaces a file of the user's own wholesale with one from outside the working tree, losing what it held: "+iv.c.show(dst)+" from "+iv.c.show(src))
}

// handWritten reports whether a file's name says people write it: a
// source file, a schema, a settings file, a manifest, a Dockerfile, not a
// lock file or one a tool generates (*.pb.go, *.min.js).
func handWritten(base string) bool {
	lower := strings.ToLower(base)
	if strings.Contains(lower, "lock") || base == "go.sum" || strings.Contains(base, ".") && madeFiles(base) || scratchExts[path.Ext(lower)] {
		return false
	}
	switch path.Ext(lower) {
	case ".prisma", ".graphql", ".gql", ".avsc", ".thrift", ".xsd":
		return true
	case ".json", ".jsonc", ".js", ".cjs", ".mjs", ".ts":
		if strings.Contains(lower, "config") || strings.Contains(lower, "settings") || strings.HasPrefix(lower, ".") {
			return true // tsconfig.json, .eslintrc.json, vite.config.ts
		}
	}
	return sourceName(base) || settingsFile(base) || manifestFile(base) || makefiles[base] || strings.HasPrefix(base, "Dockerfile")
}
