package policy

import (
	"path"
	"slices"
	"strings"
)

// target is a path an operation acts on, resolved against the shell's
// tracked working directory.
type target struct {
	path     string // absolute and clean; "" if unknown
	children bool   // a glob: everything under path rather than path itself
	all      bool   // the glob is a bare * (or .*, **): every entry of path
	src      string // as written
	glob     string // the glob as expanded, if it is one (src may be a variable bound to it)
}

// resolve turns an argument into a target. Globs (unexpanded, since no
// directory is read) become "everything under" their fixed prefix.
func (c *classifier) resolve(sc *scope, a arg) target {
	t := target{src: a.src}
	if !a.ok {
		if p, ok := c.pidPath(sc, a.src); ok {
			a = arg{s: p, ok: true, src: a.src} // /tmp/disk-$$.img: a name in /tmp, whatever the pid
		} else if p, ok := c.knownBase(sc, a.src); ok {
			a = arg{s: p, ok: true, src: a.src} // "$(git rev-parse --show-toplevel)/.venv"
		} else {
			return t
		}
	}
	p := a.s
	if name, rest, _ := strings.Cut(p, "/"); len(name) > 1 && name[0] == '~' {
		p = path.Join(path.Dir(c.home), name[1:], rest) // ~user/x: another user's home
	}
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		t.children, t.glob = true, p
		rest := strings.TrimRight(p[strings.LastIndexByte(p[:i+1], '/')+1:], "/")
		t.all = rest == "*" || rest == ".*" || rest == "**" || rest == "*.*"
		p = p[:i]
		if j := strings.LastIndexByte(p, '/'); j >= 0 {
			p = p[:j+1]
		} else {
			p = "."
		}
	}
	if p == "" {
		p = "."
	}
	if !path.IsAbs(p) {
		if sc.cwd == "" {
			return t
		}
		p = c.join(sc.cwd, p)
	}
	t.path = path.Clean(p)
	if strings.HasPrefix(t.path, "/proc/") && sc.mounts == nil && !sc.remote && sc.cwd != "" {
		t.path = ownProc(t.path, sc.cwd)
	}
	if sc.mounts != nil {
		if t.path = inContainer(sc, t.path); t.path == "" {
			return t
		}
	}
	if c.links != nil {
		t.path = c.throughLinks(t.path, t.children)
		if to, ok := c.links[t.path]; ok && !t.children && len(a.s) > 1 && strings.HasSuffix(a.s, "/") {
			t.path = to // rm -rf link/: the slash goes through the link to the directory it leads to
		}
	}
	return t
}

// ownProc is where a path through the shell's own /proc entry lands:
// /proc/self/cwd (and /proc/thread-self, /proc/$$, /proc/$BASHPID) is the
// directory the command runs in, /proc/self/root is /. Another process's
// entry (/proc/1/cwd) is left as it is: outside the working directory.
func ownProc(p, cwd string) string {
	rest := p[len("/proc/"):]
	self, rest, _ := strings.Cut(rest, "/")
	switch self {
	case "self", "thread-self", "$$", "${$}", "$BASHPID", "${BASHPID}":
	default:
		return p
	}
	link, rest, _ := strings.Cut(rest, "/")
	switch link {
	case "cwd":
		return path.Join(cwd, rest)
	case "root":
		return path.Join("/", rest)
	}
	return p
}

// knownBase is a path computed at run time whose start is known for what
// it is: $(pwd) and the like (hereSubst: the directory the command runs
// in), $(git rev-parse --show-toplevel) run in the working directory (the
// repository's top: the project), and an XDG base directory with its
// standard default (${XDG_CACHE_HOME:-$HOME/.cache}: the user's cache
// directory either way; likewise XDG_CONFIG_HOME, XDG_DATA_HOME,
// XDG_STATE_HOME) when the script does not set the variable. What
// follows must be written out: "$(pwd)/$d" stays unknown. A default
// other than the standard one, or ${XDG_CACHE_HOME-…} (empty gives /),
// stays unknown.
func (c *classifier) knownBase(sc *scope, src string) (string, bool) {
	s := strings.TrimPrefix(src, "\"")
	base, rest := "", ""
	if p, ok := hereSubst(s); ok {
		base, rest = sc.cwd, s[len(p):]
		if strings.Contains(p, "show-toplevel") && sc.cwd != c.project {
			base = ""
		}
	}
	switch {
	case base != "":
	case strings.HasPrefix(s, "${XDG_"):
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", false
		}
		name, def, ok := strings.Cut(s[2:end], ":-")
		dir, std := xdgDefaults[name]
		if !ok || !std || sc.vars != nil && (len(sc.vars.known[name]) > 0 || len(sc.vars.known["HOME"]) > 0) {
			return "", false
		}
		for _, h := range []string{"$HOME", "${HOME}", "~"} {
			if def == h+dir && (h != "~" || s == src) { // "${X:-~/.cache}": no tilde expansion inside quotes
				base = c.home + dir
			}
		}
		rest = s[end+1:]
	}
	if base == "" || sc.remote || sc.mounts != nil {
		return "", false
	}
	rest = strings.ReplaceAll(rest, "\"", "")
	if strings.ContainsAny(rest, "$`'\\(){}") || rest != "" && rest[0] != '/' {
		return "", false
	}
	return base + rest, true
}

// hereSubst is the command substitution s starts with when it prints the
// directory the command runs in ($(pwd), `pwd`, $(pwd -P), $(realpath .),
// $(readlink -f .)) or the top of its repository ($(git rev-parse
// --show-toplevel)).
func hereSubst(s string) (string, bool) {
	if len(s) < 5 || s[0] != '$' && s[0] != '`' {
		return "", false
	}
	for _, p := range []string{"$(pwd)", "`pwd`", "$(pwd -P)", "$(pwd -L)", "$(realpath .)", "$(readlink -f .)", "$(git rev-parse --show-toplevel)", "`git rev-parse --show-toplevel`"} {
		if strings.HasPrefix(s, p) {
			return p, true
		}
	}
	return "", false
}

// xdgDefaults are the XDG base directories' standard values under home.
var xdgDefaults = map[string]string{"XDG_CACHE_HOME": "/.cache", "XDG_CONFIG_HOME": "/.config", "XDG_DATA_HOME": "/.local/share", "XDG_STATE_HOME": "/.local/state"}

// join is path.Join(dir, p), made once for each pair in a classification:
// handler after handler resolves the same words in the same directory.
func (c *classifier) join(dir, p string) string {
	k := [2]string{dir, p}
	j, ok := c.joined[k]
	if !ok {
		if c.joined == nil {
			c.joined = map[[2]string]string{}
		}
		j = path.Join(dir, p)
		c.joined[k] = j
	}
	return j
}

// pidPath is a path written whole but for parts the shell makes afresh
// for each run: the pid of the shell running it ($$, $BASHPID), $RANDOM
// and the like, $(date +%s), $(uuidgen) (see freshValue), written out or
// through a variable the script set once to such a value (d=x-$(date
// +%s); "/tmp/$d"). Those parts hold no / and are never . or ..: the
// directory it names is known, and only one name in it is computed
// (/tmp/disk-$$.img, "$TMPDIR" aside). The path keeps them as written.
func (c *classifier) pidPath(sc *scope, src string) (string, bool) {
	s := src
	if len(s) > 1 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	if !strings.Contains(s, "$") {
		return "", false
	}
	if m := varRef.FindStringSubmatch(s); m != nil && strings.HasPrefix(s, m[0]) && sc.vars.temp(m[1]+m[2]) {
		// "$d/app" after d=$(mktemp -d): a name inside a directory made
		// for this run, taken to lie in the temp dir, kept as written.
		rest := s[len(m[0]):]
		if rest == "" || rest[0] == '/' && !strings.ContainsAny(rest, "$\"'`*?[{}()") && !strings.Contains(rest+"/", "/../") {
			return c.temps[0] + "/" + m[0] + rest, true
		}
	}
	s = varRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := varRef.FindStringSubmatch(ref)
		if text := sc.vars.freshText(m[1] + m[2]); text != "" {
			return text
		}
		return ref
	})
	check := freshPart.ReplaceAllString(s, "\x00")
	if strings.ContainsAny(check, "$\"'`*?[{}()") || !strings.Contains(check, "\x00") {
		return "", false
	}
	if strings.HasPrefix(s, "~/") {
		s = c.home + s[1:]
	}
	return s, !strings.HasPrefix(s, "~")
}

// freshPart is a part of a word the shell makes afresh for each run, with
// neither / nor a lone . or .. in what it expands to.
var freshPart = lazyRE(`\$\$|\$\{\$\}|\$\{(?:BASHPID|S?RANDOM|EPOCHSECONDS|EPOCHREALTIME)\}|\$(?:BASHPID|S?RANDOM|EPOCHSECONDS|EPOCHREALTIME)\b|\$\(\s*date\s+(?:(?:-u|--utc)\s+)?['"]?\+(?:[A-Za-z0-9_.:-]|%[YymdHMjFuVGz])*%[sNST](?:[A-Za-z0-9_.:-]|%[YymdHMSsNjFTuVGz])*['"]?\s*\)|\$\(\s*uuidgen\s*\)`)

// containerRoot is where a container's own files are taken to lie: a
// temporary directory, since they leave the host alone.
const containerRoot = "/\x00container"

// inContainer is the host path a path inside a container maps to: through
// the mount whose target holds it (the deepest), "" for a volume of
// unknown content or a path a mount lies under, and under containerRoot
// when no mount holds it.
func inContainer(sc *scope, p string) string {
	best := ""
	for dst := range sc.mounts {
		if (p == dst || isUnder(p, dst)) && len(dst) > len(best) {
			best = dst
		}
		if isUnder(dst, p) {
			return "" // rm -rf / reaches what is mounted at /data
		}
	}
	if best == "" {
		return path.Join(containerRoot, p)
	}
	host := sc.mounts[best]
	if host == "" {
		return ""
	}
	return path.Join(host, strings.TrimPrefix(p, best))
}

// throughLinks is where p lands when it goes through a link this command
// made: a path inside a linked directory, or the linked file's contents
// (children: the names a glob finds in it). The link itself is removed by
// name (rm ./out removes the link), so p equal to a link is left alone.
func (c *classifier) throughLinks(p string, children bool) string {
	for range maxUnwrap { // a link to a link, without looping forever
		moved := false
		for link, to := range c.links {
			switch {
			case p == link && children:
				p, moved = to, true
			case isUnder(p, link):
				p, moved = path.Join(to, p[len(link):]), true
			}
		}
		if !moved {
			break
		}
	}
	return p
}

// isUnder reports whether p is strictly inside dir.
func isUnder(p, dir string) bool {
	if dir == "/" {
		return p != "/" && strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir+"/")
}

// trustedProject reports whether deleting inside the working directory is
// ordinary work. A working directory of /, the home directory or one of its
// parents, or a top-level system directory is not a project.
func (c *classifier) trustedProject() bool {
	p := c.project
	if p == unknownProject {
		return true // relative paths without .. are still inside it
	}
	if p == "/" || p == c.home || isUnder(c.home, p) {
		return false
	}
	return strings.Count(p, "/") > 1
}

// inTemp reports whether p is strictly inside a temporary directory.
func (c *classifier) inTemp(p string) bool {
	for _, t := range c.temps {
		if isUnder(p, t) {
			return true
		}
	}
	return false
}

// danger says why deleting (or recursively changing) t is destructive, or
// "" if it is ordinary work: strictly inside the project or a temp dir.
// An unknown target returns "unresolved".
func (c *classifier) danger(t target) string {
	if t.path == "" {
		return "unresolved"
	}
	p := t.path
	if t.children {
		// Everything under p: fine when p is the project or inside it, or a
		// temp dir or inside one.
		if t.all && p == c.project {
			return "every file in the working directory"
		}
		if c.inTemp(p) || c.isTempRoot(p) {
			return ""
		}
		if why := unrecoverable(t); why != "" && !(dataFile(t.src) && c.scratch(p+"/x")) && !(t.glob != "" && dataFile(t.glob) && c.testDataFile(t.glob)) {
			return why
		}
		if c.trustedProject() && (p == c.project || isUnder(p, c.project)) {
			return ""
		}
		if c.cache(t) {
			return ""
		}
		if p == c.project || isUnder(c.project, p) {
			return "a glob over the working directory or a parent of it"
		}
		return "outside the working directory"
	}
	switch {
	case p == containerRoot:
		return "" // a container's own files, all of them: nothing of the host is mounted under them
	case p == "/":
		return "the root directory"
	case p == c.home:
		return "the home directory"
	case p == c.project:
		return "the working directory itself"
	case isUnder(c.project, p):
		return "a parent of the working directory"
	case c.inTemp(p):
		return ""
	}
	if why := unrecoverable(t); why != "" && !(dataFile(p) && (c.scratch(p) || c.testDataFile(p))) {
		return why
	}
	if c.trustedProject() && isUnder(p, c.project) || c.cache(t) {
		return ""
	}
	return "outside the working directory"
}

// homeCaches are the directories under home where tools keep what they
// download or build again when it is missing: a tool's own ~/.cache/NAME
// (not all of ~/.cache), macOS's caches, Xcode's DerivedData, Gradle's
// and npm's download caches, package managers' local repositories and
// stores of what they fetched from a registry and fetch again when it is
// missing (Maven's and Ivy's, Cabal's and Stack's, NuGet's, Dart's,
// Cargo's, Go's module cache; an entry ending in / only what is inside
// it, one artifact or index at a time, not the whole store, which holds
// what was installed only there), and tools' control sockets (Ansible's
// cp). Data and settings (~/.local/share, ~/.config) are not among them,
// nor what was installed there from this machine (~/.ivy2/local,
// ~/.gem/credentials, ~/.stack/config.yaml).
var homeCaches = []string{"Library/Caches", "Library/Developer/Xcode/DerivedData", "Library/Developer/CoreSimulator/Caches",
	".gradle/caches", ".gradle/wrapper/dists", ".npm/_cacache", ".npm/_npx", ".cargo/registry", ".cargo/git/checkouts", ".cargo/git/db", ".cache/",
	".m2/repository/", ".ivy2/cache/", ".sbt/boot/", ".cabal/packages/", ".stack/indices/", ".stack/pantry", ".stack/snapshots", ".stack/programs",
	".nuget/packages/", ".nuget/v3-cache", ".pub-cache/hosted/", ".pub-cache/git", ".bun/install/cache/", ".yarn/berry/cache/", ".hex/packages/",
	".conan2/p/", ".rustup/downloads", ".rustup/tmp", ".ansible/cp", ".node-gyp/", ".elm", ".gem/ruby", ".gem/specs", ".julia/packages",
	".julia/artifacts", ".julia/compiled", ".julia/registries", "go/pkg/mod", ".cpanm", ".opam/download-cache"}

// machineCaches are the machine's own such places: a program's directory
// under /var/cache (not all of it), crash reports. Not apt's package
// lists under /var/lib: without them apt knows no package until the next
// update, and a corpus row holds deleting them.
var machineCaches = []string{"/var/cache/", "/var/crash"}

// tidies reports whether a command run as another user (root) only
// deletes what the machine makes again or keeps no longer: its caches and
// crash reports (rm, find -delete), apt's downloaded packages (apt-get
// clean, autoclean), archived logs past a week or 100M (journalctl
// --vacuum-*), a snap's old revision (snap remove --revision).
func (c *classifier) tidies(cmd Command) bool {
	if len(cmd.Argv) < 2 {
		return false
	}
	args := cmd.Argv[1:]
	if path.Base(cmd.Argv[0]) == "snap" { // snap remove "$name" --revision="$rev"
		return args[0] == "remove" && slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--revision") })
	}
	if !cmd.Resolved {
		return false
	}
	switch path.Base(cmd.Argv[0]) {
	case "apt-get", "apt":
		return len(args) == 1 && (args[0] == "clean" || args[0] == "autoclean")
	case "journalctl":
		return len(args) == 1 && strings.HasPrefix(args[0], "--vacuum") && vacuumKeeps(args[0])
	case "rm", "find":
		n := 0
		for _, a := range args {
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				if path.Base(cmd.Argv[0]) == "find" {
					break
				}
				continue
			}
			if !machineCache(a) {
				return false
			}
			n++
		}
		return n > 0
	}
	return false
}

// machineCache reports whether p, absolute (a glob in its last name
// standing for what is in its directory), is one of machineCaches or
// inside one: /var/cache/apt, /var/lib/apt/lists/*, not /var/cache/*.
func machineCache(p string) bool {
	if !path.IsAbs(p) || strings.Contains(p, "/..") {
		return false
	}
	if dir, base := path.Split(p); strings.ContainsAny(base, "*?[") {
		p = path.Clean(dir)
	}
	if strings.ContainsAny(p, "*?[") {
		return false
	}
	for _, d := range machineCaches {
		if strings.HasSuffix(d, "/") && strings.HasPrefix(p, d) || p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// cache reports whether t is one of homeCaches or inside one, or the
// shell's completion cache (~/.zcompdump*): deleting it costs a rebuild,
// no data.
func (c *classifier) cache(t target) bool {
	if c.home == unknownHome {
		return false
	}
	if t.path == c.home && t.children && strings.Contains(t.src, ".zcompdump") || !t.children && strings.HasPrefix(t.path, c.home+"/.zcompdump") {
		full := t.path
		if t.children {
			full = c.tilde(strings.ReplaceAll(strings.ReplaceAll(t.src, `"`, ""), "'", ""))
		}
		if path.Dir(full) == c.home && strings.HasPrefix(path.Base(full), ".zcompdump") {
			return true // rm -f ~/.zcompdump*
		}
	}
	if machineCache(t.path) {
		return true
	}
	rel, ok := strings.CutPrefix(t.path, c.home+"/")
	if !ok {
		return false
	}
	for _, d := range homeCaches {
		if strings.HasSuffix(d, "/") && strings.HasPrefix(rel, d) && len(rel) > len(d) || rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return toolCache(rel)
}

// toolCache reports whether rel, a path under home, is or is in a
// directory named cache inside a tool's own hidden directory, or is its
// tmp or temp directory (~/.triton/cache, ~/.kube/cache, ~/.ansible/tmp): what the tool
// compiles or downloads again when it is missing. Stores of versioned
// data named cache (.dvc/cache) are unrecoverable, judged before this;
// the directories of keys, settings and data (~/.ssh, ~/.config,
// ~/.local) are no tool's cache.
func toolCache(rel string) bool {
	if !strings.HasPrefix(rel, ".") || strings.HasPrefix(rel, ".cache") {
		return false
	}
	ds := strings.Split(rel, "/")
	switch ds[0] {
	case ".ssh", ".gnupg", ".password-store", ".local", ".config", ".dvc", ".git":
		return false
	}
	for i, d := range ds[1:] {
		l := strings.ToLower(d)
		if l == "cache" || l == "caches" || i == 0 && (l == "tmp" || l == "temp") {
			return true // ~/.kube/cache; ~/.ansible/tmp, ~/.vagrant.d/tmp: the tool's own scratch files
		}
	}
	return false
}

// scratch reports whether p is in a place for throwaway files: a temp dir,
// or a tmp directory of the working tree (./tmp/test.sqlite3), where a
// database file is scratch, not the project's data.
func (c *classifier) scratch(p string) bool {
	if c.inTemp(p) {
		return true
	}
	rel, ok := strings.CutPrefix(p, c.project+"/")
	if !ok || !c.trustedProject() {
		return false
	}
	dirs := strings.Split(rel, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if d == "tmp" || d == "temp" || d == ".tmp" {
			return true
		}
	}
	return false
}

// underTemp reports whether a path computed at run time starts with a temp
// directory and a name of its own below it (/tmp/pytest-of-$(whoami)), so
// that whatever it expands to is inside that directory, not the directory.
func (c *classifier) underTemp(src string) bool {
	src = strings.Trim(src, `"`)
	lit, _, _ := strings.Cut(src, "$")
	dir, name := path.Split(lit)
	return name != "" && !strings.ContainsAny(lit, "*?[.") && c.inTemp(path.Clean(dir)+"/x") && !strings.Contains(src[len(lit):], "/..")
}

// tmpdirChild reports whether src names something inside $TMPDIR, the
// temp root, written through the variable tend cannot read
// ("$TMPDIR"/metro-*, ${TMPDIR}/haste-map-x, "$TMPDIR/jest_*"): a temp
// file. If $TMPDIR is unset the word names a child of /, so the first
// name must neither be only a pattern ("$TMPDIR"/*) nor match one of the
// system's top directories ($TMPDIR/usr, $TMPDIR/[a-z]*), and the script
// must not set TMPDIR itself (TMPDIR=$HOME; rm -rf $TMPDIR/x).
func (c *classifier) tmpdirChild(src string) bool {
	w := strings.ReplaceAll(src, `"`, "")
	rest, ok := strings.CutPrefix(w, "$TMPDIR/")
	if !ok {
		if rest, ok = strings.CutPrefix(w, "${TMPDIR}/"); !ok {
			return false
		}
	}
	if rest == "" || strings.ContainsAny(rest, "$`'\\(){}") || strings.Contains("/"+rest+"/", "/../") || strings.Contains("/"+rest+"/", "/./") {
		return false
	}
	first, _, _ := strings.Cut(rest, "/")
	if strings.Trim(first, "*?[]!^-") == "" || strings.HasPrefix(first, ".") {
		return false
	}
	for _, top := range rootDirs {
		if m, err := path.Match(first, top); m || err != nil {
			return false
		}
	}
	n := strings.Count(c.whole, "TMPDIR")
	return n == strings.Count(c.whole, "$TMPDIR")+strings.Count(c.whole, "${TMPDIR}")
}

// rootDirs are the directories a system keeps at / (Linux, macOS, Nix).
var rootDirs = []string{"bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt",
	"proc", "root", "run", "sbin", "srv", "sys", "tmp", "usr", "var", "snap", "nix", "Applications", "Library", "System",
	"Users", "Volumes", "private", "cores", "data", "workspace", "workspaces", "app", "code", "src", "export", "net"}

// testDataFile reports whether p, a database file, lies in the project
// and is named for tests (test.db, app_test.sqlite3, e2e.db-wal,
// test.db*): a test suite's own database, which it makes again on every
// run, as a server's database named for tests is.
func (c *classifier) testDataFile(p string) bool {
	if !path.IsAbs(p) {
		p = path.Join(c.project, p) // a glob as written: test.db*
	}
	if !c.trustedProject() || !isUnder(p, c.project) {
		return false
	}
	base := path.Base(p)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return testDB.MatchString(base)
}

// buildOutputs reports whether operands name only paths inside the working
// directory that version control can do without: not the directory
// itself, its parents or its repository store (git clean -fd -- dist/).
func (c *classifier) buildOutputs(sc *scope, operands []arg) bool {
	if len(operands) == 0 {
		return false
	}
	for _, a := range operands {
		if a.ok && a.s == "--" {
			continue
		}
		t := c.resolve(sc, a)
		if t.path == "" || c.danger(t) != "" || !isUnder(t.path, c.project) {
			return false
		}
	}
	return true
}

// unrecoverable says why deleting t.path (or, for a glob, what is under it)
// loses what version control cannot give back even inside the project: a
// repository's own store (.git, its objects, refs and submodules), a
// database file or Terraform's local state. Lock files and hooks under .git are ordinary work.
func unrecoverable(t target) string {
	p, children := t.path, t.children
	if dataFile(p) || children && (dataFile(t.src) || dataFile(t.glob)) {
		return "a database file"
	}
	if uploadsDir(p) {
		return "the files users uploaded, which no version control keeps"
	}
	if originalsDir(p) {
		return originalsWhy
	}
	if why := iacState(p, t.glob); why != "" {
		return why
	}
	if why := dataStore(p, children); why != "" {
		return why
	}
	for _, vcs := range []string{"/.git", "/.hg", "/.svn"} {
		i := strings.Index(p+"/", vcs+"/")
		if i < 0 {
			continue
		}
		rest := strings.TrimPrefix(p[i+len(vcs):], "/")
		top, _, _ := strings.Cut(rest, "/")
		if rest == "" || children && !strings.Contains(rest, "/") ||
			top == "objects" || top == "refs" || top == "modules" || top == "logs" || top == "lfs" || top == "annex" || top == "store" || top == "worktrees" ||
			top == "packed-refs" || top == "HEAD" || top == "config" || top == "shallow" {
			return "the repository's history"
		}
	}
	for _, name := range strings.Split(strings.Trim(t.src, `"'`), "/") { // rm -rf .g*: the glob matches .git
		if !children {
			break
		}
		if strings.ContainsAny(name, "*?[") {
			for _, vcs := range []string{".git", ".hg", ".svn"} {
				if ok, _ := path.Match(strings.ReplaceAll(name, "[!", "[^"), vcs); ok && name[0] == '.' {
					return "the repository's history"
				}
			}
			break
		}
	}
	return ""
}

// dataStore says why p is a versioned-data tool's store of content, which
// holds the only copy on this machine of what was added to it and may
// hold the only copy anywhere of what was never pushed: DVC's cache
// (.dvc/cache, or all of .dvc), a git-annex repository's objects
// (.git/annex, above). Named cache, it is no cache a tool fills again.
func dataStore(p string, children bool) string {
	i := strings.Index(p+"/", "/.dvc/")
	if i < 0 {
		return ""
	}
	rest := strings.TrimPrefix(p[i+len("/.dvc"):], "/")
	if rest == "" {
		return "DVC's directory, its cache with it: the only local copy of every version of the data it tracks"
	}
	if top, _, _ := strings.Cut(rest, "/"); top == "cache" || children && !strings.Contains(rest, "/") && top != "tmp" {
		return "DVC's cache, the only local copy of every version of the data it tracks"
	}
	return ""
}

// iacState says why p, or the glob's last part, is the state by which
// an infrastructure tool knows what it made, kept on this disk (a local
// backend): Terraform's and OpenTofu's terraform.tfstate, its backups
// and each workspace's terraform.tfstate.d, any *.tfstate*
// (terraform.tfstate*, prod.tfstate.backup), Pulumi's file backend
// (.pulumi, its stacks and backups, not its plugins). Lose it and the
// tool no longer knows the live resources it made. What is under
// .terraform (providers, modules, the backend's settings) is fetched
// again by init. "" if it is none.
func iacState(p, glob string) string {
	for _, s := range []string{p, glob} {
		if s == "" || strings.Contains(s, "/.terraform/") || strings.HasPrefix(s, ".terraform/") {
			continue
		}
		for seg := range strings.SplitSeq(s, "/") {
			if strings.Contains(seg, "tfstate") {
				return "Terraform's local state, which nothing else keeps: without it Terraform no longer knows the live resources it made"
			}
		}
		if i := strings.Index(s+"/", "/.pulumi/"); i >= 0 || strings.HasPrefix(s, ".pulumi/") || s == ".pulumi" {
			rest := ""
			if i >= 0 {
				rest = strings.TrimPrefix(s[i+len("/.pulumi"):], "/")
			} else {
				rest = strings.TrimPrefix(strings.TrimPrefix(s, ".pulumi"), "/")
			}
			if top, _, _ := strings.Cut(rest, "/"); rest == "" || top == "stacks" || top == "backups" || top == "history" || strings.ContainsAny(top, "*?[") {
				return "Pulumi's local state, which nothing else keeps: without it Pulumi no longer knows the live resources it made"
			}
		}
	}
	return ""
}

// uploadsDir reports whether p is or is in a web application's store of
// what its users uploaded (uploads/, storage/app/, wp-content/uploads/,
// var/storage/, var/media/, public/media/),
// not a scratch or test copy of one (tmp/uploads, fixtures/uploads).
func uploadsDir(p string) bool {
	found, parent := false, ""
	for d := range strings.SplitSeq(p, "/") {
		switch d {
		case "tmp", "temp", "cache", "test", "tests", "spec", "fixtures", "testdata", "node_modules", "vendor":
			return false
		case "uploads", "user-uploads", "user_uploads":
			found = true
		case "app":
			found = found || parent == "storage"
		case "storage", "media", "files":
			found = found || parent == "var" || d == "media" && parent == "public" // var/storage, var/media (Symfony's), public/media
		}
		parent = d
	}
	return found
}

// originalsWhy is unrecoverable's reason for a directory of originals.
const originalsWhy = "originals, raw inputs or backups, which nothing builds again"

// originalsNames are the names of directories that keep what the rest is
// made from: originals and masters of media, full-size images, raw data
// as it came. backupNames keep copies against loss.
var (
	originalsNames = setOf("originals", "original", "masters", "raw", "raw_data", "raw-data", "rawdata", "source_data", "source-data",
		"full-res", "fullres", "full_res", "hires", "hi-res")
	backupNames = setOf("backups", "backup")
)

// originalsDir reports whether p is a directory named for originals (its
// contents too: rm -rf data/raw/* resolves to data/raw), raw inputs or
// backups (static/images/originals, data/raw, backups/), not inside what
// builds or tests make (build/raw, tmp/backup, node_modules/…/raw,
// fixtures/raw). One file in one (rm data/raw/old.csv) is not the
// directory.
func originalsDir(p string) bool {
	for d := range strings.SplitSeq(p, "/") {
		if originalsMade[d] {
			return false
		}
	}
	b := strings.ToLower(path.Base(p))
	return originalsNames[b] || backupNames[b]
}

// originalsMade are the directories whose contents builds, tests and tools
// make: an originals name under one of them is theirs.
var originalsMade = setOf("tmp", "temp", ".tmp", "cache", ".cache", "test", "tests", "spec", "fixtures", "testdata", "node_modules", "vendor",
	"build", "dist", "target", "out", "_build", ".git", ".venv", "venv", "site-packages")

// inOriginals reports whether p lies in a directory named for originals
// or raw inputs (data/raw/survey.csv), not in what tools make.
func inOriginals(p string) bool {
	found := false
	for d := range strings.SplitSeq(path.Dir(p), "/") {
		if originalsMade[d] {
			return false
		}
		found = found || originalsNames[strings.ToLower(d)]
	}
	return found
}

func (c *classifier) isTempRoot(p string) bool {
	for _, t := range c.temps {
		if p == t {
			return true
		}
	}
	return false
}

// show formats a target for a reason: as written, plus where it resolved
// when that differs and is real.
func (c *classifier) show(t target) string {
	if t.path == "" || t.path == t.src || strings.Contains(t.path, "\x00") {
		return cutText(t.src)
	}
	p := t.path
	if t.children {
		p = strings.TrimSuffix(p, "/") + "/…"
	}
	return cutText(t.src) + " (" + cutText(p) + ")"
}
