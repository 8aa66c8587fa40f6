package policy

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// gitReadOnly are subcommands that only read the repository.
var gitReadOnly = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "blame": true, "shortlog": true,
	"describe": true, "rev-parse": true, "rev-list": true, "ls-files": true, "ls-tree": true,
	"ls-remote": true, "cat-file": true, "grep": true, "version": true, "help": true,
	"whatchanged": true, "name-rev": true, "merge-base": true, "for-each-ref": true,
	"show-ref": true, "check-ignore": true, "count-objects": true, "var": true,
	"diff-tree": true, "diff-files": true, "diff-index": true, "check-attr": true, "show-branch": true,
}

// gitCodeKey reports whether a git config key's value is a command that git
// runs (git -c core.pager='rm -rf ~' log).
func gitCodeKey(key string) bool {
	key = strings.ToLower(key)
	if strings.HasPrefix(key, "alias.") || strings.HasPrefix(key, "pager.") || strings.HasSuffix(key, ".path") &&
		(strings.HasPrefix(key, "include") || strings.HasPrefix(key, "mergetool.") || strings.HasPrefix(key, "difftool.") || strings.HasPrefix(key, "browser.")) {
		return true // pager.log=cmd, mergetool.x.path=/tmp/prog
	}
	for _, suf := range []string{"pager", "editor", "sshcommand", "fsmonitor", "textconv", "command",
		".clean", ".smudge", ".process", "helper", "program", "askpass", "driver", "uploadpack",
		"receivepack", "packobjectshook", "gitproxy", "external", "hookspath", "cmd", "tool", "difffilter"} {
		if strings.HasSuffix(key, suf) {
			return true
		}
	}
	return false
}

// gitConfigFromEnv judges git --config-env=key=VAR: a key whose value is
// a command takes it from a variable tend cannot read.
func (iv *inv) gitConfigFromEnv(kv string) {
	if key, v, _ := strings.Cut(kv, "="); gitCodeKey(key) {
		iv.flag(Unparseable, "git runs a command held in the environment: "+key+" from $"+v)
	}
}

// gitTraces are git's variables that trace its HTTP traffic to stderr.
var gitTraces = []string{"GIT_TRACE_CURL", "GIT_CURL_VERBOSE", "GIT_TRACE_PACKET"}

// tracesAuth says why git prints its credentials: GIT_TRACE_REDACT=0 turns
// off the redaction git does by default, so a trace of its HTTP traffic
// shows the Authorization header and cookies. "" if it does not.
func (iv *inv) tracesAuth() string {
	redact, trace := "", ""
	for _, e := range iv.environ() {
		name, v, _ := strings.Cut(e.src, "=")
		v = strings.Trim(v, `"'`)
		switch {
		case name == "GIT_TRACE_REDACT" && (v == "0" || strings.EqualFold(v, "false") || strings.EqualFold(v, "no") || strings.EqualFold(v, "off")):
			redact = e.src
		case contains(gitTraces, name) && v != "" && v != "0" && !strings.EqualFold(v, "false"):
			trace = e.src
		}
	}
	if redact == "" || trace == "" {
		return ""
	}
	return "git with " + redact + " and " + trace + " prints the credentials it sends (the Authorization header), unredacted"
}

// git classifies by subcommand after its global options.
func git(iv *inv) {
	if why := iv.tracesAuth(); why != "" {
		iv.flag(Destructive, why)
		return
	}
	args := iv.args
	repo := iv.sc    // where the repository is: the shell's directory, or -C's
	pointed := false // --work-tree, --git-dir, GIT_DIR=…: the repository is elsewhere
	i := 1
	for i < len(args) {
		a := args[i]
		if !a.ok {
			iv.flag(Unparseable, "git argument computed at run time: "+a.shown())
			return
		}
		if !strings.HasPrefix(a.s, "-") {
			break
		}
		i++
		switch a.s {
		case "-c":
			if i < len(args) {
				iv.gitConfig(args[i])
				i++
			}
		case "-C":
			if i < len(args) {
				in := *repo
				in.cwd = iv.c.resolve(repo, args[i]).path
				repo = &in
			}
			i++
		case "--config-env":
			if i < len(args) {
				iv.gitConfigFromEnv(args[i].s)
			}
			i++
		case "--git-dir", "--work-tree":
			pointed = true
			i++
		case "--namespace", "--super-prefix", "--exec-path", "--list-cmds":
			i++
		default:
			if v, ok := strings.CutPrefix(a.s, "--config-env="); ok {
				iv.gitConfigFromEnv(v)
			}
		}
	}
	iv.gitConfigEnv()
	scratch := func() bool { // asked only of what it would let through: it reads the whole command
		return !pointed && !gitPointed.MatchString(iv.c.whole) && iv.c.scratchRepo(repo, args[i].s)
	}
	if i >= len(args) {
		return
	}
	sub, rest := args[i].s, args[i+1:]
	if val, ok := iv.c.gitAliases[sub]; ok && !gitReadOnly[sub] && iv.depth < maxUnwrap { // git config alias.ship 'push -f'; git ship
		delete(iv.c.gitAliases, sub) // an alias does not expand within itself
		defer func() { iv.c.gitAliases[sub] = val }()
		iv.exec(append(append(args[:i:i], argsOf(strings.Fields(val)...)...), rest...))
		return
	}
	for _, a := range rest { // ext::sh -c … : a remote helper that is a command
		if cmd, ok := strings.CutPrefix(a.s, "ext::"); ok && a.ok {
			iv.c.run(argsOf(extArgv(cmd)...), iv.sc, source{}, iv.depth+1)
		}
	}
	flags, operands := opts(rest)
	has := func(short string, long ...string) bool { return hasFlag(flags, short, long...) }
	destroy := func(why string) { iv.flag(Destructive, why) }
	rewrite := func(why string) { // history: in a repository under a temp dir (a mirror cloned to slim it), scratch
		if repo.cwd == "" || repo.remote || repo.mounts != nil || !iv.c.inTemp(repo.cwd) {
			destroy(why)
		}
	}
	discard := func(why string) { // uncommitted changes: in a fresh clone, or a worktree this command added under a temp dir, none are the user's
		if !iv.freshClone(repo, sub) && !iv.c.addedTempWorktree(repo) && !scratch() {
			destroy(why)
		}
	}
	iv.gitCommands(sub, rest)
	if (sub == "diff" || sub == "grep") && has("", "--no-index") || sub == "blame" { // files read as they are, in or out of the repository
		for i, a := range rest {
			f := a
			if v, ok := strings.CutPrefix(a.s, "--contents="); ok {
				f = arg{s: v, ok: true, src: v}
			} else if a.s == "--contents" && i+1 < len(rest) {
				f = rest[i+1]
			}
			if f.ok && !strings.HasPrefix(f.s, "-") && iv.secretFile(f.s) {
				destroy("git " + sub + " prints a secrets file: " + f.s)
				return
			}
		}
	}
	if gitReadOnly[sub] {
		return
	}
	iv.flag(Write, "")
	switch sub {
	case "clone":
		for i, o := range operands { // what it fetches is code tend has not seen
			if !o.ok || !strings.Contains(o.s, ":") { // the repository: a URL or host:path (--depth's 1 is not)
				continue
			}
			dir := arg{s: strings.TrimSuffix(path.Base(o.s), ".git"), ok: true}
			if i+1 < len(operands) {
				dir = operands[i+1]
			}
			iv.c.wrote(repo, dir, source{kind: srcDownload}, false)
			if t := iv.c.resolve(repo, dir); t.path != "" && !t.children {
				iv.c.clones = append(iv.c.clones, t.path)
			}
			break
		}
		if len(operands) == 2 && operands[0].ok && !strings.Contains(operands[0].s, ":") { // git clone . "$d": a local repository's commits, into a new directory
			if t := iv.c.resolve(repo, operands[1]); t.path != "" && !t.children {
				iv.c.clones = append(iv.c.clones, t.path)
			}
		}
	case "send-email": // its operands are mailed: a secrets file among them leaves the machine
		for _, o := range operands {
			if o.ok && iv.secretFile(o.s) {
				destroy("git send-email sends a secrets file off the machine: " + o.s)
			}
		}
	case "clean":
		if has("n", "--dry-run") && iv.listingRun() != "" {
			discard("git clean -n lists the untracked files it would delete, and the pipe deletes them: " + iv.listingRun())
			return
		}
		if has("n", "--dry-run") {
			iv.lower()
			return
		}
		operands = cleanPaths(rest)
		switch {
		case has("f", "--force") && has("x", "") && !iv.c.madeOnly(repo, operands): // limited to what tools make (build/, coverage/), it deletes what rm -rf of them would
			discard("git clean -x deletes untracked files, uncommitted work among them, with the ignored ones")
		case has("f", "--force") && has("x", ""):
		case has("f", "--force") && len(operands) == 0:
			discard("git clean -f deletes untracked files")
		case has("f", "--force") && !iv.c.buildOutputs(iv.sc, operands):
			discard("git clean -f deletes untracked files")
		case has("f", "--force") && has("X", ""):
			if own := iv.untrackedWork(operands); own != "" { // git clean -fdX models/: trained models, local settings
				discard("git clean -X deletes the ignored files in " + own + ", no directory tools make: what is kept out of version control there (settings, data, trained models) nothing gives back")
			}
		case has("f", "--force"):
			if own := iv.untrackedWork(operands); own != "" { // git clean -fd models/: new files no commit holds
				discard("git clean -f deletes the untracked files, new work no commit holds, in " + own)
			}
		}
	case "push":
		switch {
		case has("n", "--dry-run"):
			return // says what it would do
		case len(operands) > 0 && iv.c.tempRemote(repo, operands[0]):
			return // to a repository in a temp dir: scratch, as its files are
		case has("f", "--force") && (has("", "--tags", "--all", "--branches") || !iv.pushesFresh(repo, operands)):
			destroy("git push --force rewrites the remote")
		case has("", "--mirror"):
			destroy("git push --mirror can delete remote refs")
		case has("d", "--delete") && !iv.deletesPushed(operands, true):
			destroy("git push --delete deletes remote refs")
		case has("", "--prune"):
			destroy("git push --prune deletes remote branches")
		case iv.c.gitMirror:
			destroy("git push to a remote configured as a mirror can delete remote refs")
		}
		if len(operands) > 0 && operands[0].ok { // where the commits go: a configured remote, or somewhere this command names
			if to := operands[0].s; remoteAddress(to) {
				destroy("git push sends the repository to an address named on the command line, not a configured remote: " + to)
			} else if url, ok := iv.c.gitRemotes[to]; ok {
				destroy("git push sends the repository to a remote this command adds: " + to + " (" + url + ")")
			}
		}
		for j, op := range operands {
			if j == 0 {
				continue // the remote
			}
			if !op.ok && computedRefspec.MatchString(op.src) {
				destroy("git push of refspecs computed to force or delete: " + op.shown())
			} else if strings.HasPrefix(op.s, "+") {
				destroy("git push +refspec force-pushes: " + op.s)
			} else if strings.HasPrefix(op.s, ":") && !iv.deletesPushed([]arg{operands[0], op}, false) {
				destroy("git push :ref deletes a remote ref: " + op.s)
			} else if lead := strings.TrimLeft(op.src, `"'`); !op.ok && (strings.HasPrefix(lead, ":") || strings.HasPrefix(lead, "+")) {
				destroy("git push of a refspec that forces or deletes, its ref computed at run time: " + op.shown()) // xargs -I{} git push origin :{}
			}
		}
	case "update-ref":
		if has("d") || has("", "--stdin") && (iv.in.kind != srcText || strings.Contains(iv.in.text, "delete")) {
			destroy("git update-ref deletes or rewrites refs: branches and tags")
		}
	case "rm":
		if has("r") && wholeTree(operands) && !has("", "--cached") { // --cached only untracks: the files stay
			destroy("git rm -r of the whole tree removes every tracked file")
		}
	case "add":
		if iv.sc.cwd != "" && isSecretPath(iv.sc.cwd) && (len(operands) == 0 || wholeTree(operands)) { // cd ~/.ssh && git init && git add .
			destroy("git add stages a directory of secrets: " + iv.sc.cwd)
			break
		}
		if f, what := iv.filledWithSecrets(operands, has("A", "--all", "--update") || has("u", "") || wholeTree(operands)); f != "" {
			destroy("git add stages a file this command filled with " + what + ", for every clone of the repository: " + f) // heroku config -s >> .env.example && git add .
			break
		}
		for _, op := range operands {
			if op.ok && (iv.secretFile(op.s) || isSecretPath(iv.c.resolve(iv.sc, op).path)) && !templateFile(path.Base(op.s)) { // .env.example holds placeholders
				destroy("git add stages a file holding secrets, for every clone of the repository: " + op.s)
				break
			}
			if op.ok && has("f", "--force") && privateKeyName(path.Base(op.s)) {
				destroy("git add --force stages a key file even where the ignore rules keep it out, for every clone of the repository: " + op.s)
				break
			}
			if op.ok && has("f", "--force") && localSettings(path.Base(op.s)) { // git add -f src/main/resources/application-local.yml
				destroy("git add --force stages this checkout's own settings file, where its credentials go, even where the ignore rules keep it out, for every clone of the repository: " + op.s)
				break
			}
			if op.ok && has("f", "--force") && credentialsName(path.Base(op.s)) { // git add -f config/credentials.yml
				destroy("git add --force stages a file named for secrets even where the ignore rules keep it out, for every clone of the repository: " + op.s)
				break
			}
		}
	case "commit":
		if f, what := iv.filledWithSecrets(operands, has("a", "--all")); f != "" {
			destroy("git commit takes in a file this command filled with " + what + ", for every clone of the repository: " + f) // heroku config -s >> .env.example && git commit -am …
		}
	case "reset":
		if has("", "--hard", "--merge") && !(len(operands) == 0 || len(operands) == 1 && operands[0].s == "HEAD") || has("", "--hard", "--merge") && !iv.stashedFirst() {
			discard("git reset --hard discards uncommitted changes")
		}
	case "checkout-index":
		if has("f", "--force") && !has("", "--prefix") { // plumbing of checkout -f: writes the index's files over the working tree's (--prefix: elsewhere)
			discard("git checkout-index --force overwrites uncommitted changes in the working tree")
		}
	case "read-tree":
		if has("u", "-u") && has("", "--reset") { // plumbing of reset --hard
			discard("git read-tree -u --reset discards uncommitted changes")
		}
	case "checkout":
		if has("f", "--force") {
			discard("git checkout --force discards uncommitted changes")
		}
		if dashdash(rest) && !iv.onlyRemade(afterDashdash(rest)) {
			discard("git checkout -- <paths> discards uncommitted changes")
		} else if wholeTree(operands) {
			discard("git checkout . discards uncommitted changes")
		}
		iv.branchCreated(repo, rest, "-b")
	case "restore":
		if (!has("S", "--staged") || has("W", "--worktree")) && len(operands) > 0 && !iv.onlyRemade(operands) {
			discard("git restore discards uncommitted changes in the working tree")
		}
	case "switch":
		if has("f", "--force", "--discard-changes") {
			discard("git switch --discard-changes discards uncommitted changes")
		}
		iv.branchCreated(repo, rest, "-c", "--create")
	case "branch":
		if (has("D", "") || (has("d", "--delete") && has("f", "--force"))) && !iv.pushedFirst(operands) && !iv.branchedFirst(operands) && !scratch() {
			destroy("git branch -D deletes a branch even if unmerged")
		}
		if len(operands) == 0 && !has("dDmMcC", "--delete", "--move", "--copy", "--set-upstream-to", "--unset-upstream", "--edit-description") {
			iv.lower()
		}
	case "stash":
		switch first(operands) {
		case "drop", "clear":
			if !iv.appliedFirst() && !scratch() {
				destroy("git stash " + first(operands) + " deletes stashed changes")
			}
		case "list", "show":
			iv.lower()
		}
	case "worktree":
		switch first(operands) {
		case "remove":
			if has("f", "--force") && !(len(operands) == 2 && (iv.addedWorktree(operands[1].src) || iv.tempWorktree(operands[1]))) {
				destroy("git worktree remove --force deletes a worktree with changes")
			}
		case "list":
			iv.lower()
		case "add":
			if t := iv.c.resolve(repo, worktreeDir(rest)); t.path != "" && !t.children && iv.c.inTemp(t.path) {
				iv.c.worktrees = append(iv.c.worktrees, t.path)
			}
		}
	case "reflog":
		switch first(operands) {
		case "expire", "delete":
			if has("n", "--dry-run") {
				iv.lower() // prints what it would expire
				break
			}
			rewrite("git reflog " + first(operands) + " destroys recovery data")
		case "", "show":
			iv.lower()
		}
	case "gc", "prune":
		for _, f := range flags {
			if f.ok && (f.s == "--prune=now" || f.s == "--prune=all" || f.s == "--expire=now") && !(sub == "prune" && has("n", "--dry-run")) {
				rewrite("git " + sub + " " + f.s + " destroys unreachable commits")
			}
		}
	case "filter-branch", "filter-repo":
		if !analysesOnly(sub, flags) {
			rewrite("git " + sub + " rewrites history")
		}
	case "remote":
		if len(operands) == 0 || first(operands) == "show" || first(operands) == "get-url" {
			iv.lower()
		}
		if v := first(operands); (v == "add" || v == "set-url") && len(operands) >= 3 && operands[1].ok {
			if iv.c.gitRemotes == nil {
				iv.c.gitRemotes = map[string]string{}
			}
			iv.c.gitRemotes[operands[1].s] = operands[2].shown()
		}
	case "tag":
		if len(operands) == 0 && !has("dfsau", "--delete", "--force") {
			iv.lower()
		}
	case "config":
		if has("l", "--get", "--list", "--get-all", "--get-regexp") || (len(operands) == 1 && len(flags) == 0) {
			iv.lower()
		}
		if where := iv.userGitConfig(rest); where != "" {
			destroy("git config " + where + " changes the user's own git configuration, outside the working directory, which every repository reads")
		}
		if len(operands) >= 2 && operands[0].ok && redirectKey(operands[0].s, operands[1].s) {
			iv.flag(Destructive, "git config "+operands[0].s+" changes where git fetches and pushes, or what it trusts")
		}
		if len(operands) >= 2 && operands[0].ok && strings.EqualFold(operands[0].s, "core.hooksPath") && !iv.projectHooks(operands[1], flags) {
			iv.flag(Destructive, "git config core.hooksPath makes git run the hooks in "+operands[1].shown())
		}
		if len(operands) >= 2 && operands[0].ok {
			iv.gitConfig(arg{s: operands[0].s + "=" + operands[1].s, ok: operands[1].ok, src: operands[1].src})
		}
	case "submodule":
		if first(operands) == "foreach" && len(operands) > 1 {
			iv.shell(joinRest(operands[1:]), iv.sc)
		}
	}
}

// gitCommandOpts are, by subcommand, the options whose value is a shell
// command git runs (rebase --exec, difftool --extcmd, the --upload-pack a
// local remote runs, grep --open-files-in-pager), with their one-letter
// spellings.
var gitCommandOpts = map[string][]string{
	"rebase":     {"-x", "--exec"},
	"difftool":   {"-x", "--extcmd"},
	"mergetool":  {"--extcmd"},
	"clone":      {"-u", "--upload-pack"},
	"fetch":      {"--upload-pack"},
	"pull":       {"--upload-pack"},
	"ls-remote":  {"-u", "--upload-pack"},
	"push":       {"--receive-pack", "--exec"},
	"archive":    {"--exec"},
	"grep":       {"-O", "--open-files-in-pager"},
	"send-email": {"--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd"},
}

// gitCommands judges what a git subcommand is told to run, whatever else
// it does (a reader too: ls-remote --upload-pack, grep -O): the shell
// commands of gitCommandOpts, bisect run's command, the config a clone is
// given (-c, --config) and the hooks of its --template.
func (iv *inv) gitCommands(sub string, rest []arg) {
	names := gitCommandOpts[sub]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !a.ok || a.s == "--" || !strings.HasPrefix(a.s, "-") {
			if a.ok && a.s == "--" {
				return
			}
			continue
		}
		name, val, eq := strings.Cut(a.s, "=")
		short := len(name) > 2 && name[1] != '-' && contains(names, name[:2])
		if short { // -x'cmd', -O'cmd'
			name, val, eq = name[:2], strings.TrimPrefix(a.s[2:], "="), true
		}
		if !eq && name != "-O" && i+1 < len(rest) && (contains(names, name) || (sub == "clone" || sub == "init") && (name == "-c" || name == "--config" || name == "--template")) {
			i++
			val, eq = rest[i].s, rest[i].ok
			if !rest[i].ok {
				iv.flag(Unparseable, "git "+sub+" "+name+" value computed at run time: "+rest[i].shown())
				continue
			}
		}
		switch {
		case !eq:
		case contains(names, name):
			iv.shell(arg{s: val, ok: true, src: val}, iv.sc)
		case (sub == "clone" || sub == "init") && name == "--template":
			iv.hooksDir(path.Join(val, "hooks"))
		case sub == "clone" && (name == "-c" || name == "--config"):
			iv.gitConfig(arg{s: val, ok: true, src: val})
		}
	}
	if _, ops := opts(rest); sub == "bisect" && len(ops) > 1 && ops[0].ok && ops[0].s == "run" {
		iv.exec(ops[1:]) // git bisect run make test
	}
}

// addedWorktree reports whether this command added the worktree at dir
// before removing it, under a name holding the shell's pid (git worktree
// add /tmp/wt-$$ … ; git worktree remove --force /tmp/wt-$$), or with
// the work in it run only if the add succeeded and the remove after
// that work, on its success or after a ; (git worktree add ../x main &&
// { (cd ../x && make test); git worktree remove --force ../x; }, git
// worktree add ../x HEAD~10 && (cd ../x && make test); git worktree
// remove --force ../x): an add fails on a directory already there, so
// its changes are the run's own, and the ; only says the remove runs
// whether the work failed or not. (An add that fails on a worktree
// already there skips the work and leaves the remove to reach that one;
// that small risk is accepted, as madeHere accepts it and a person
// reading the command would.) An add followed at once by ; or || (git
// worktree add ../x main; git worktree remove --force ../x) says its
// failure is expected, and is not taken for one.
func (iv *inv) addedWorktree(dir string) bool {
	src := iv.c.whole
	rm := strings.Index(src, "worktree remove")
	if rm < 0 || strings.Count(src, "worktree remove") != 1 {
		return false
	}
	for _, m := range worktreeAdd.FindAllStringIndex(src[:rm], 4) {
		if !slices.Contains(strings.Fields(src[m[0]:m[1]])[2:], dir) {
			continue
		}
		return iv.fresh(dir) || inSequence(src[m[1]:rm])
	}
	return false
}

// worktreeAdd is a git worktree add and its words up to the end of the
// simple command.
var worktreeAdd = lazyRE(`\bworktree\s+add\b[^;&|\n)]*`)

// inSequence reports whether what stands between an add and a remove
// in a command line, between, runs the remove after the add succeeded,
// or after work that ran only if it did: the first separator is &&
// (add && work; remove), and none is || (the rest only if something
// failed) or & (at once, in the background). Subshells and groups
// count as one step.
func inSequence(between string) bool {
	seps := separators(between)
	for _, sep := range seps {
		if sep == "||" || sep == "&" || sep == ";" && seps[0] != "&&" {
			return false // add; …: its failure goes on to the remove
		}
	}
	return true
}

// worktreeDir is the directory git worktree add (args, after add) makes:
// its first operand, the values of -b, -B and --reason aside.
func worktreeDir(args []arg) arg {
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a.ok && (a.s == "-b" || a.s == "-B" || a.s == "--reason"):
			i++
		case a.ok && strings.HasPrefix(a.s, "-"):
		default:
			return a
		}
	}
	return arg{}
}

// addedTempWorktree reports whether the repository a git command works
// in (cd or -C) is a worktree this command added under a temp dir: git
// worktree add /tmp/bisect-wt HEAD~5 && git -C /tmp/bisect-wt clean -fdx.
// Its files are the checkout's and the run's, in a place for scratch.
func (c *classifier) addedTempWorktree(repo *scope) bool {
	dir := repo.cwd
	return dir != "" && !repo.remote && repo.mounts == nil && slices.ContainsFunc(c.worktrees, func(w string) bool { return dir == w || isUnder(dir, w) })
}

// gitPointed is a command line that points git at a repository or work
// tree other than the directory it runs in: --git-dir, --work-tree,
// GIT_DIR, GIT_WORK_TREE.
var gitPointed = lazyRE(`--git-dir\b|--work-tree\b|\bGIT_DIR=|\bGIT_WORK_TREE=|\bGIT_COMMON_DIR=`)

// scratchRepo reports whether the repository a git command (sub) works
// in (cd or -C) lies in a directory mktemp -d made for this run (git -C
// "$d" after d=$(mktemp -d), cd "$d/repo"), with nothing between the
// mktemp and the command but steps taken on success: the directory was
// empty, so what is in it this command put there, and its uncommitted
// changes, branches and stashes are scratch, as its files are. After a
// ; mktemp may have failed, leaving git -C "" in the working tree. A
// path under /tmp the command did not make may be a worktree of the
// user's (git -C /tmp/x clean -fdx stays held).
func (c *classifier) scratchRepo(repo *scope, sub string) bool {
	dir := repo.cwd
	if c.links != nil {
		dir = c.throughLinks(dir, true) // ln -s ~/project /tmp/p: git works in what the link leads to
	}
	return dir != "" && !repo.remote && repo.mounts == nil && c.madeTempDir(repo, dir, " "+sub)
}

// madeTempDir reports whether dir, a resolved path, is or lies in the
// directory a variable holds that mktemp -d made for this run (pidPath
// keeps it as written: $TMPDIR/$d/…), and the command line from its
// assignment to the last use (use, " reset") runs only on success.
func (c *classifier) madeTempDir(sc *scope, dir, use string) bool {
	for _, t := range c.temps {
		rest, ok := strings.CutPrefix(dir, t+"/")
		if !ok {
			continue
		}
		first, _, _ := strings.Cut(rest, "/")
		name := strings.Trim(first, "${}")
		if !strings.HasPrefix(first, "$") || name == "" || !sc.vars.temp(name) {
			return false
		}
		at := strings.LastIndex(c.whole, use)
		for _, m := range mktempAssign.get().FindAllStringSubmatchIndex(c.whole, -1) {
			if c.whole[m[2]:m[3]] == name && at > m[1] && onlyOnSuccess(c.whole[m[1]:at]) {
				return dir != c.project && !isUnder(c.project, dir)
			}
		}
		return false
	}
	return false
}

// mktempAssign is a variable assigned what mktemp prints: d=$(mktemp -d).
var mktempAssign = lazyRE(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=["']?\$\(\s*mktemp\s`)

// tempRemote reports whether a git push's remote (to) is a repository in
// a directory mktemp -d made for this run, named by its path (git push
// --force "$d/remote.git" after d=$(mktemp -d)): what it rewrites there
// is scratch. A configured remote's name (origin) says nothing of where
// it is.
func (c *classifier) tempRemote(repo *scope, to arg) bool {
	if to.ok || !strings.HasPrefix(strings.Trim(to.src, `"`), "$") {
		return false
	}
	t := c.resolve(repo, to)
	if c.links != nil {
		t.path = c.throughLinks(t.path, true)
	}
	return t.path != "" && !t.children && c.madeTempDir(repo, t.path, " push")
}

// freshClone reports whether the repository a git command (sub) works in
// is one this command cloned, with nothing between the clone and it but
// steps taken on success (cd /tmp && git clone URL d && cd d && git
// reset --hard v1): its working tree is the clone's checkout, and what it
// discards was put there by this command, nothing of the user's. After a
// ; the clone may have failed on a directory already there, and the cd
// with it; a second clone or a second such command leaves it unsaid which
// one follows which.
func (iv *inv) freshClone(repo *scope, sub string) bool {
	dir := repo.cwd
	if dir == "" || repo.remote || repo.mounts != nil || !slices.ContainsFunc(iv.c.clones, func(c string) bool { return dir == c || isUnder(dir, c) }) {
		return false
	}
	src := iv.c.whole
	clone, at := strings.Index(src, "git clone"), strings.Index(src, " "+sub)
	return strings.Count(src, "git clone") == 1 && strings.Count(src, " "+sub) == 1 && clone >= 0 && at > clone && onlyOnSuccess(src[clone:at])
}

// tempWorktree reports whether a worktree lies in a temp dir (git worktree
// remove --force /tmp/wt-main): what is in it is scratch, as any file
// there is, which rm -rf may delete.
func (iv *inv) tempWorktree(dir arg) bool {
	t := iv.c.resolve(iv.sc, dir)
	return t.path != "" && !t.children && iv.c.inTemp(t.path) && iv.c.danger(t) == ""
}

// stashedFirst reports whether this command stashed the uncommitted
// changes (git stash, git stash push -u, with no pathspec) before a git
// reset --hard to HEAD: the stash keeps them, and the reset loses nothing.
func (iv *inv) stashedFirst() bool {
	src := iv.c.whole
	reset := strings.Index(src, "git reset")
	if reset < 0 || strings.Count(src, "git reset") != 1 {
		return false
	}
	m := stashAll.FindStringIndex(src[:reset])
	return m != nil && onlyOnSuccess(src[m[1]:reset])
}

// stashAll is a git stash of every uncommitted change: no pathspec, no
// --staged (-S) or --patch (-p) choosing part of them.
var stashAll = lazyRE(`\bgit\s+stash(?:\s+(?:push|save))?(?:\s+(?:-u|--include-untracked|-a|--all|-k|--keep-index|-q|--quiet|-m\s+(?:'[^']*'|"[^"]*"|\S+)|--message[= ](?:'[^']*'|"[^"]*"|\S+)))*\s*(?:&&|$)`)

// projectHooks reports whether a core.hooksPath set in the repository's
// own config (not --global or --system) names a directory inside the
// working directory that this command does not write: the project's own
// hooks (.githooks, .husky), which are its code as its scripts and its
// Makefile are. A directory this command writes is judged by hooksDir.
func (iv *inv) projectHooks(dir arg, flags []arg) bool {
	if !dir.ok || hasFlag(flags, "", "--global", "--system", "--file") {
		return false
	}
	p := iv.c.resolve(iv.sc, dir).path
	if p == "" || p == iv.c.project || !isUnder(p, iv.c.project) || !iv.c.trustedProject() {
		return false
	}
	for file := range iv.c.written {
		if file == p || isUnder(file, p) {
			return false
		}
	}
	return true
}

// appliedFirst reports whether the stash dropped was applied by this
// command first, on success only (git stash apply && … && git stash drop):
// a pop in two steps.
func (iv *inv) appliedFirst() bool {
	src := iv.c.whole
	apply := strings.Index(src, "git stash apply")
	drop := strings.LastIndex(src, "git stash drop")
	if apply < 0 || drop < apply || strings.Count(src, "git stash drop") != 1 || strings.Count(src, "git stash apply") != 1 {
		return false
	}
	top := func(rest string) bool { // the newest stash: no argument, or stash@{0}
		word, _, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
		return word == "" || word == "stash@{0}" || word == "0" || strings.Trim(word, ";&|)}") == ""
	}
	return top(src[apply+len("git stash apply"):]) && top(src[drop+len("git stash drop"):]) && onlyOnSuccess(src[apply:drop])
}

// pushedFirst reports whether every branch to delete was pushed by this
// command first, on success only (git push origin b && git branch -D b):
// its commits are then on the remote.
func (iv *inv) pushedFirst(branches []arg) bool {
	src := iv.c.whole
	for _, b := range branches {
		if !b.ok {
			return false
		}
		push := regexp.MustCompile(`\bgit\s+push\s+(?:-u\s+|--set-upstream\s+)?\S+\s+` + regexp.QuoteMeta(b.s) + `(?:\s|&|$)`).FindStringIndex(src)
		if push == nil {
			return false
		}
		at := strings.Index(src[push[1]-1:], "git branch")
		if at < 0 || !onlyOnSuccess(src[push[1]-1:][:at]) {
			return false
		}
	}
	return len(branches) > 0
}

// branchedFirst reports whether every branch to delete was created by this
// command first (git branch b HEAD~5 && …; git branch -D b; git switch
// -c b): a new branch, whose commits are this command's, however the two
// are joined (see madeHere).
func (iv *inv) branchedFirst(branches []arg) bool {
	src := iv.c.whole
	for _, b := range branches {
		if !b.ok {
			return false
		}
		made := regexp.MustCompile(`\bgit\s+(?:branch|checkout\s+-b|switch\s+-c)\s+` + regexp.QuoteMeta(b.s) + `(?:\s|&|$)`).FindStringIndex(src)
		if made == nil {
			return false
		}
		if at := strings.LastIndex(src, "git branch -"); at < made[1]-1 {
			return false
		}
	}
	return len(branches) > 0
}

// remoteAddress reports whether a git remote operand is an address rather
// than a remote's name: a URL, or scp's host:path.
func remoteAddress(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	host, _, ok := strings.Cut(s, ":")
	return ok && host != "" && !strings.ContainsAny(host, "/\\")
}

// computedRefspec is a substitution that makes refspecs starting with : or
// + (deleting or forcing): sed 's/^/:/', --format=':%(refname)'.
var computedRefspec = lazyRE(`s/\^/[:+]|format=['"]?[:+]|printf\s+['"]?[:+]|echo\s+['"]?[:+]`)

// userGitConfig says which configuration outside the working directory a
// git config command writes (--global, ~/.gitconfig; --system; a --file
// outside the working directory and the temp dirs), or "" when it writes
// none of them or only reads (--get, --list, a key alone, get, list).
func (iv *inv) userGitConfig(args []arg) string {
	where, writes, n := "", false, 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok:
			n++
		case a.s == "--global" || a.s == "--system":
			where = a.s
		case a.s == "--file" || a.s == "-f" || strings.HasPrefix(a.s, "--file="):
			f, ok := strings.CutPrefix(a.s, "--file=")
			if !ok && i+1 < len(args) {
				i++
				f, ok = args[i].s, args[i].ok
			}
			if t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(f), ok: ok, src: f}); ok && t.path != "" && iv.c.danger(t) != "" && iv.c.danger(t) != "unresolved" {
				where = "--file " + f
			}
		case a.s == "--unset" || a.s == "--unset-all" || a.s == "--add" || a.s == "--replace-all" || a.s == "--rename-section" ||
			a.s == "--remove-section" || a.s == "-e" || a.s == "--edit":
			writes = true
		case strings.HasPrefix(a.s, "-"):
		case n == 0 && (a.s == "set" || a.s == "unset" || a.s == "rename-section" || a.s == "remove-section" || a.s == "edit"):
			writes = true // git config set …
			n = -1
		case n == 0 && (a.s == "get" || a.s == "list"):
			return ""
		default:
			n++
		}
	}
	if where == "" || !writes && n < 2 {
		return ""
	}
	return where
}

// redirectKey reports whether a git config key sends git elsewhere or
// turns off its checks: url.<base>.insteadOf, a proxy, sslVerify off.
func redirectKey(key, val string) bool {
	k := strings.ToLower(key)
	return strings.HasPrefix(k, "url.") && (strings.HasSuffix(k, ".insteadof") || strings.HasSuffix(k, ".pushinsteadof")) ||
		k == "http.proxy" || k == "https.proxy" || strings.HasSuffix(k, ".sslverify") && val == "false"
}

// lower makes a Write command ReadOnly again, unless something about it
// (a -c value, an unexpandable word) was flagged.
func (iv *inv) lower() {
	cmd := &iv.c.cmds[iv.idx]
	if cmd.Class == Write && len(cmd.Reasons) == 0 && !iv.pinned {
		cmd.Class = ReadOnly
	}
}

// gitConfig checks a -c key=value whose value git will run as a command.
func (iv *inv) gitConfig(kv arg) {
	iv.flag(Write, "")
	iv.pinned = true
	if !kv.ok {
		iv.flag(Unparseable, "git -c value computed at run time: "+kv.shown())
		return
	}
	key, val, _ := strings.Cut(kv.s, "=")
	lower := strings.ToLower(key)
	if strings.HasPrefix(lower, "remote.") && strings.HasSuffix(lower, ".mirror") && val != "false" ||
		strings.HasPrefix(lower, "remote.") && strings.HasSuffix(lower, ".push") && (strings.HasPrefix(val, "+") || strings.HasPrefix(val, ":")) {
		iv.c.gitMirror = true // every later push forces or deletes
	}
	if !gitCodeKey(key) {
		return
	}
	if lower == "include.path" || strings.HasPrefix(lower, "includeif.") && strings.HasSuffix(lower, ".path") {
		iv.gitConfigFile(val, 1) // git -c include.path=/tmp/g: the keys of a file
		return
	}
	if strings.HasPrefix(lower, "alias.") && !strings.HasPrefix(val, "!") { // an alias to git arguments
		if iv.c.gitAliases == nil {
			iv.c.gitAliases = map[string]string{}
		}
		iv.c.gitAliases[key[len("alias."):]] = val
		return
	}
	if lower == "core.hookspath" {
		iv.hooksDir(val)
		return
	}
	val = strings.TrimPrefix(val, "!")
	iv.shell(arg{s: val, ok: true, src: val}, iv.sc)
	if strings.HasSuffix(lower, "askpass") || strings.HasPrefix(lower, "credential.") && strings.HasSuffix(lower, "helper") {
		iv.helperProgram(key, val)
	}
}

// gitConfigEnv judges the config files git is handed through its
// environment (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG, HOME's
// .gitconfig, XDG_CONFIG_HOME's git/config) and the keys it is given there
// (GIT_CONFIG_KEY_n with GIT_CONFIG_VALUE_n), as git -c would be.
func (iv *inv) gitConfigEnv() {
	keys := map[string]string{}
	for _, e := range iv.env {
		name, _, _ := strings.Cut(e.src, "=")
		switch {
		case !e.ok:
		case name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM" || name == "GIT_CONFIG":
			iv.gitConfigFile(e.s, 1)
		case name == "HOME":
			iv.gitConfigFile(path.Join(e.s, ".gitconfig"), 1)
			iv.gitConfigFile(path.Join(e.s, ".config/git/config"), 1)
		case name == "XDG_CONFIG_HOME":
			iv.gitConfigFile(path.Join(e.s, "git/config"), 1)
		case strings.HasPrefix(name, "GIT_CONFIG_KEY_"):
			keys[strings.TrimPrefix(name, "GIT_CONFIG_KEY_")] = e.s
		}
	}
	for _, e := range iv.env {
		name, _, _ := strings.Cut(e.src, "=")
		if n, ok := strings.CutPrefix(name, "GIT_CONFIG_VALUE_"); ok && keys[n] != "" && e.ok {
			iv.gitConfig(arg{s: keys[n] + "=" + e.s, ok: true, src: keys[n] + "=" + e.s})
		}
	}
}

// gitConfigFile judges the keys of a git config file this command wrote
// (printf '[core]\n\tfsmonitor = …' > /tmp/g) as git -c would be: code
// keys, aliases, includes, hooks.
func (iv *inv) gitConfigFile(file string, depth int) {
	if depth > maxUnwrap || file == "" {
		return
	}
	src, ok := iv.c.written[iv.c.resolve(iv.sc, arg{s: iv.c.tilde(file), ok: true, src: file}).path]
	if !ok || src.kind != srcText {
		return
	}
	section := ""
	for line := range strings.SplitSeq(src.text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasPrefix(line, "[") { // [core], [alias], [remote "origin"], [includeIf "gitdir:…"]
			head, rest, _ := strings.Cut(strings.TrimPrefix(line, "["), "]")
			name, sub, quoted := strings.Cut(head, " ")
			section = strings.TrimSpace(name)
			if quoted {
				section += "." + strings.Trim(strings.TrimSpace(sub), `"`)
			}
			if line = strings.TrimSpace(rest); line == "" {
				continue
			}
		}
		key, val, _ := strings.Cut(line, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if lit, isLit := stringLit(val); isLit && strings.HasPrefix(val, `"`) {
			val = lit
		}
		full := section + "." + key
		if l := strings.ToLower(full); l == "include.path" || strings.HasPrefix(l, "includeif.") && strings.HasSuffix(l, ".path") {
			iv.gitConfigFile(val, depth+1)
			continue
		}
		iv.gitConfig(arg{s: full + "=" + val, ok: true, src: full + "=" + val})
	}
}

// hooksDir judges the hooks git runs from a core.hooksPath directory: the
// ones this command wrote there by their text, as code; a directory
// outside the working directory that tend cannot read is held. /dev/null
// (no hooks) and the project's own hooks directory are ordinary.
func (iv *inv) hooksDir(dir string) {
	if dir == "" || dir == "/dev/null" {
		return
	}
	p := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(dir), ok: true, src: dir}).path
	wrote := false
	for file := range iv.c.written {
		if p == "" || !isUnder(file, p) {
			continue
		}
		wrote = true
		if !iv.runsWritten(arg{s: file, ok: true, src: file}, func(code arg) { iv.shell(code, iv.sc) }) {
			iv.flag(Unparseable, "git runs hooks from "+dir+" that tend cannot read")
		}
	}
	if !wrote && (p == "" || p != iv.c.project && !isUnder(p, iv.c.project)) {
		iv.flag(Destructive, "git runs the hooks in "+dir+", outside the working directory, whose code tend cannot read")
	}
}

// extArgv splits the command of an ext:: URL as git does: at spaces,
// where "% " is a space within a word and "%%" a percent sign.
func extArgv(cmd string) []string {
	var out []string
	var word strings.Builder
	for i := 0; i < len(cmd); i++ {
		switch {
		case cmd[i] == '%' && i+1 < len(cmd):
			i++
			word.WriteByte(cmd[i])
		case cmd[i] == ' ':
			out = append(out, word.String())
			word.Reset()
		default:
			word.WriteByte(cmd[i])
		}
	}
	return append(out, word.String())
}

// dashdash reports whether args contain "--" followed by a pathspec.
func dashdash(args []arg) bool {
	for i, a := range args {
		if a.ok && a.s == "--" {
			return i+1 < len(args)
		}
	}
	return false
}

// afterDashdash are the pathspecs after "--".
func afterDashdash(args []arg) []arg {
	for i, a := range args {
		if a.ok && a.s == "--" {
			return args[i+1:]
		}
	}
	return nil
}

// onlyRemade reports whether every path is a file tools write afresh from
// what the project declares, so that its uncommitted changes are churn,
// not work: a dependency lockfile (package-lock.json, yarn.lock,
// Cargo.lock, go.sum, poetry.lock, …), or a file in what tools make
// (dist/app.js). Each must be written out, with no glob or pathspec
// magic, and lie in the working tree.
func (iv *inv) onlyRemade(paths []arg) bool {
	for _, a := range paths {
		if !a.ok || a.s == "" || strings.ContainsAny(a.s, "*?[:") || strings.HasPrefix(a.s, "-") {
			return false
		}
		t := iv.c.resolve(iv.sc, a)
		rel, ok := strings.CutPrefix(t.path, iv.c.project+"/")
		if !ok || t.children || !lockfiles[path.Base(rel)] && (path.Dir(rel) == "." || !iv.c.madePath(path.Dir(rel))) {
			return false
		}
	}
	return len(paths) > 0
}

// lockfiles are the files package managers write to pin what they
// resolved, made again by the next install.
var lockfiles = map[string]bool{
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "bun.lockb": true, "bun.lock": true,
	"deno.lock": true, "Cargo.lock": true, "go.sum": true, "go.work.sum": true, "poetry.lock": true, "Pipfile.lock": true, "uv.lock": true,
	"pdm.lock": true, "Gemfile.lock": true, "composer.lock": true, "mix.lock": true, "pubspec.lock": true, "Podfile.lock": true,
	"Package.resolved": true, "packages.lock.json": true, "gradle.lockfile": true, "flake.lock": true, ".terraform.lock.hcl": true,
	"conan.lock": true, "Manifest.toml": true, "renv.lock": true, "shard.lock": true, "stack.yaml.lock": true, "cabal.project.freeze": true,
}

// wholeTree reports whether some operand names the whole tree or a path
// rather than a branch: ".", "./…", ":/", or a glob.
func wholeTree(ops []arg) bool {
	for _, a := range ops {
		if a.ok && (a.s == "." || strings.HasPrefix(a.s, "./") || strings.HasPrefix(a.s, ":/") || strings.ContainsAny(a.s, "*?")) {
			return true
		}
	}
	return false
}

// first is the first operand, or "".
func first(ops []arg) string {
	if len(ops) == 0 {
		return ""
	}
	return ops[0].s
}

// privateKeyName reports whether a file's name marks it as a private key
// or a key store: *.key, *.pem, *.p12, *.pfx, *.jks, *.keystore, id_*.
func privateKeyName(base string) bool {
	for _, ext := range []string{".key", ".pem", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".gpg", ".asc"} {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	return strings.HasPrefix(base, "id_") && !strings.HasSuffix(base, ".pub")
}

// credentialsName is the name of a file that holds credentials in the
// clear: credentials.yml, secrets.json, client_secret_….json, a service
// account's key, .npmrc, .htpasswd, a web app's wp-config.php, in a
// format that holds data. Not a template of one
// (secrets.example.yml), nor one kept encrypted (credentials.yml.enc,
// secrets.sops.yaml), which is made to be committed.
func credentialsName(base string) bool {
	b := strings.ToLower(base)
	if templateFile(b) || strings.HasSuffix(b, ".enc") || strings.HasSuffix(b, ".age") || strings.Contains(b, ".sops.") || strings.HasSuffix(b, ".pub") {
		return false
	}
	if isSecretPath("/x/" + b) {
		return true
	}
	switch b {
	case ".htpasswd", ".pgpass", ".my.cnf", ".vault-token", ".dockercfg", "auth.json", "token.json", ".boto", ".s3cfg", "terraform.tfvars", "secrets", "credentials",
		"wp-config.php", "localsettings.php", "settings.local.php": // a web app's database password and salts, in its code's language
		return true
	}
	switch path.Ext(b) {
	case "", ".yml", ".yaml", ".json", ".toml", ".ini", ".conf", ".cfg", ".env", ".xml", ".properties", ".txt", ".csv", ".plist":
	default:
		return false // a markdown page or a Go test about secrets holds none
	}
	for _, p := range []string{"credentials", "secrets.", "secret.", "client_secret", "service-account", "service_account", "serviceaccount", "gcp-key", "gcloud-key", "firebase-adminsdk"} {
		if strings.HasPrefix(b, p) || strings.Contains(b, "-"+p) || strings.Contains(b, "_"+p) {
			return true
		}
	}
	return false
}

// untrackedWork names the first path git clean is limited to where the
// untracked files are the user's new work, "" if every path is or lies in
// what tools make (git clean -fd -- dist/ tmp/: madePath) or picks files
// tools leave (git clean -f '*.orig'). A path that names one file is as
// a plain rm of it.
func (iv *inv) untrackedWork(operands []arg) string {
	for _, a := range operands {
		if !a.ok || a.s == "--" {
			continue
		}
		t := iv.c.resolve(iv.sc, a)
		rel := strings.TrimPrefix(strings.TrimPrefix(t.path, iv.c.project), "/")
		if t.path == "" || rel == "" || iv.c.madePath(rel) && keptRecords(rel) == "" {
			continue
		}
		if t.children && !t.all {
			if name := path.Base(a.s); !sourceName(name) || strings.Contains(name, ".") && madeFiles(name) {
				continue // '*.orig', '*.pyc'
			}
		}
		return iv.c.show(t)
	}
	return ""
}

// cleanPaths are the paths git clean is limited to: its operands without
// the patterns -e (--exclude) takes, and with pathspec magic read (see
// gitglossary): an exclude (:!x, :^x, :(exclude)x) limits nothing, and
// :/ or :(top) alone is the whole repository, so a list of only those
// limits nothing (git clean -fd :/ cleans everything); :/src is src from
// the top, taken as from the working directory.
func cleanPaths(rest []arg) []arg {
	var out []arg
	limited := false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a.ok && (a.s == "-e" || a.s == "--exclude"):
			i++
			continue
		case a.ok && strings.HasPrefix(a.s, "-") && a.s != "-" && a.s != "--":
			continue
		case !a.ok || !strings.HasPrefix(a.s, ":"):
			out = append(out, a)
			limited = limited || a.s != "--"
			continue
		}
		magic, p := "", a.s[1:]
		if strings.HasPrefix(p, "(") {
			magic, p, _ = strings.Cut(p[1:], ")")
		} else {
			k := strings.IndexFunc(p, func(r rune) bool { return !strings.ContainsRune("/!^", r) })
			if k < 0 {
				k = len(p)
			}
			magic, p = p[:k], strings.TrimPrefix(p[k:], ":")
		}
		if strings.ContainsAny(magic, "!^") || strings.Contains(magic, "exclude") {
			continue // limits nothing
		}
		if p == "" {
			return nil // :/, :(top): the whole repository
		}
		out = append(out, arg{s: p, ok: true, src: a.src})
		limited = true
	}
	if !limited {
		return nil
	}
	return out
}

// pushesFresh reports whether every ref a push names is new on the
// remote, so that forcing it overwrites nothing: a branch this same
// command creates (git checkout -b fix/x, git switch -c fix/x) earlier
// in repo, on success only, and pushes to the same name, or a name it
// makes unique for this run (HEAD:refs/heads/wip/agent-$(date +%s)). A
// branch that only exists locally may be on the remote too; a shared
// name (main, master, develop, release/…) never counts as new. The
// caller holds --tags, --all and --branches, which force more than the
// refs named.
func (iv *inv) pushesFresh(repo *scope, operands []arg) bool {
	if len(operands) < 2 {
		return false // the current branch, or the configured refspecs
	}
	for _, op := range operands[1:] {
		src := strings.TrimPrefix(op.src, "+")
		dst := src
		from := ""
		if i := strings.LastIndexByte(src, ':'); i >= 0 {
			from, dst = src[:i], src[i+1:]
		}
		dst = strings.Trim(dst, `"'`)
		from = strings.TrimPrefix(strings.Trim(from, `"'`), "refs/heads/")
		name := strings.TrimPrefix(dst, "refs/heads/")
		switch {
		case dst == "" || sharedBranch(name):
			return false
		case freshPart.MatchString(dst) && !strings.Contains(strings.TrimPrefix(freshPart.ReplaceAllString(dst, ""), "refs/heads/"), "$"):
		case op.ok && !strings.ContainsAny(name, "$`*") && (from == "" || from == name || from == "HEAD") && iv.createdBefore(repo, name):
		default:
			return false
		}
	}
	return true
}

// sharedBranch reports whether a branch's name says others build on it.
func sharedBranch(name string) bool {
	switch name {
	case "main", "master", "develop", "development", "dev", "trunk", "production", "prod", "staging", "stable", "gh-pages", "HEAD":
		return true
	}
	return strings.HasPrefix(name, "release") || strings.HasPrefix(name, "hotfix")
}

// newBranch is a branch a command in the list creates afresh.
type newBranch struct {
	at   int    // the offset in the whole command line of the command that creates it
	repo string // the directory of the repository it is made in
}

// branchCreated records the branch git checkout -b NAME (switch -c NAME)
// creates, when it is made anew: not one that tracks a remote branch
// (--track, -t), nor one started from a remote's branch (origin/NAME,
// refs/remotes/…, FETCH_HEAD, @{upstream}), which the remote has. -B and
// -C reset a branch that may be there and are not recorded. Code
// re-parsed from a word (bash -c '…') records nothing: its offsets are
// not the command line's.
func (iv *inv) branchCreated(repo *scope, rest []arg, opt ...string) {
	name, start, track := "", "", false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case !a.ok:
			return
		case a.s == "--":
			i = len(rest)
		case slices.Contains(opt, a.s) && i+1 < len(rest):
			i++
			name = rest[i].s
			if !rest[i].ok {
				return
			}
		case a.s == "-t" || a.s == "--track" || strings.HasPrefix(a.s, "--track="):
			track = true
		case strings.HasPrefix(a.s, "-"):
		case name != "" && start == "":
			start = a.s
		}
	}
	if name == "" || track || iv.whole() < 0 || iv.c.remoteStart(start, name) {
		return
	}
	if iv.c.newBranches == nil {
		iv.c.newBranches = map[string]newBranch{}
	}
	iv.c.newBranches[name] = newBranch{at: iv.whole(), repo: repo.cwd}
}

// remoteStart reports whether a new branch's start point is a remote's
// branch.
func (c *classifier) remoteStart(start, name string) bool {
	if start == "" {
		return false
	}
	first, _, _ := strings.Cut(start, "/")
	_, added := c.gitRemotes[first]
	return start == "FETCH_HEAD" || strings.Contains(start, "@{") || strings.HasPrefix(start, "refs/remotes/") ||
		first == "origin" || first == "upstream" || added || strings.HasSuffix(start, "/"+name)
}

// createdBefore reports whether an earlier command of the list created
// the branch name afresh in repo (branchCreated), and this one runs only
// if that succeeded: if git checkout -b failed, the branch was there.
func (iv *inv) createdBefore(repo *scope, name string) bool {
	b, ok := iv.c.newBranches[name]
	at := iv.whole()
	return ok && at > b.at && b.repo == repo.cwd && onlyOnSuccess(iv.c.whole[b.at:at])
}

// deletesPushed reports whether every remote branch a push deletes
// (git push origin --delete x, git push origin :x) was pushed to that
// remote earlier in the same command (git push -u origin
// HEAD:refs/heads/agent/probe && … && git push origin --delete
// agent/probe): a branch it made there, its own to remove, as other
// things the command made. A shared name (main, release/…) is never
// taken for one.
func (iv *inv) deletesPushed(operands []arg, deleting bool) bool {
	if len(operands) < 2 || !operands[0].ok {
		return false
	}
	remote := operands[0].s
	pushed := iv.c.pushedRefs(iv.idx, iv.sc.cwd, remote)
	for _, op := range operands[1:] {
		name := op.s
		if !deleting {
			var ok bool
			if name, ok = strings.CutPrefix(op.s, ":"); !ok {
				continue // a push, not a delete
			}
		}
		name = strings.TrimPrefix(name, "refs/heads/")
		if !op.ok || name == "" || sharedBranch(name) || !slices.Contains(pushed, name) {
			return false
		}
	}
	return true
}

// pushedRefs are the branches the git pushes recorded before command
// before, run in dir, send to remote: the destination of each refspec
// (HEAD:x, y:x, x), refs/heads/ taken off. Deleting pushes push nothing.
func (c *classifier) pushedRefs(before int, dir, remote string) []string {
	var out []string
	for _, cmd := range c.cmds[:min(before, len(c.cmds))] {
		argv := cmd.Argv
		if len(argv) < 3 || path.Base(argv[0]) != "git" || !cmd.Resolved || dir == "" || cmd.Dir != dir {
			continue
		}
		i := slices.Index(argv, "push")
		if i < 0 {
			continue
		}
		var ops []string
		del := false
		for j := i + 1; j < len(argv); j++ {
			switch a := argv[j]; {
			case a == "-d" || a == "--delete" || a == "--mirror" || a == "--prune":
				del = true
			case a == "-o" || a == "--push-option" || a == "--repo" || a == "--receive-pack" || a == "--exec":
				j++
			case strings.HasPrefix(a, "-"):
			default:
				ops = append(ops, a)
			}
		}
		if del || len(ops) < 2 || ops[0] != remote {
			continue
		}
		for _, spec := range ops[1:] {
			spec = strings.TrimPrefix(spec, "+")
			if k := strings.LastIndexByte(spec, ':'); k >= 0 {
				spec = spec[k+1:]
			}
			if spec = strings.TrimPrefix(spec, "refs/heads/"); spec != "" {
				out = append(out, spec)
			}
		}
	}
	return out
}

// gitProgram is git's own program run by its name (git-filter-repo,
// git-filter-branch): judged as git running that subcommand.
func gitProgram(iv *inv) {
	iv.flag(Write, "")
	iv.exec(append(argsOf("git", strings.TrimPrefix(iv.name, "git-")), iv.rest(1)...))
}

// bfgValueOpts are the BFG Repo-Cleaner's options that take a value.
var bfgValueOpts = []string{"-b", "--strip-blobs-bigger-than", "-B", "--strip-biggest-blobs", "-bi", "--strip-blobs-with-ids",
	"-D", "--delete-files", "--delete-folders", "--convert-to-git-lfs", "-rt", "--replace-text", "-fi", "--filter-content-including",
	"-fe", "--filter-content-excluding", "-fs", "--filter-content-size-threshold", "-p", "--protect-blobs-from",
	"--massive-non-file-objects-sized-up-to", "--fix-filename-duplicates-preferring"}

// bfg is the BFG Repo-Cleaner: told to strip blobs, files or folders or
// to replace text, it rewrites every commit of the repository it is
// given (the last operand; the working directory when none), as git
// filter-repo does; with --no-blob-protection the latest commit too. In a
// repository under a temp dir (a mirror cloned to slim it) that is
// scratch. With no such option it only prints its usage.
func bfg(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	cleans := false
	for _, a := range args {
		if a.ok && strings.HasPrefix(a.s, "-") && contains(bfgValueOpts, optName(a.s)) {
			cleans = true
		}
	}
	if !cleans {
		return
	}
	repo := arg{s: ".", ok: true, src: "."}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a.ok && strings.HasPrefix(a.s, "-"):
			if contains(bfgValueOpts, a.s) {
				i++
			}
		default:
			repo = a
		}
	}
	t := iv.c.resolve(iv.sc, repo)
	if t.path != "" && !t.children && iv.c.inTemp(t.path) && !iv.sc.remote {
		return // a mirror clone in /tmp: scratch
	}
	iv.flag(Destructive, iv.name+" rewrites every commit of the repository's history: "+repo.shown())
}

// jarProgram judges java -jar NAME-1.2.3.jar as the program NAME when the
// catalogue knows it (java -jar bfg-1.14.0.jar … is bfg); java's own
// words were judged as an unknown tool's.
func jarProgram(iv *inv) {
	if iv.name != "java" {
		return
	}
	args := iv.rest(1)
	for i, a := range args {
		if !a.ok || a.s != "-jar" || i+1 >= len(args) || !args[i+1].ok {
			continue
		}
		base := strings.TrimSuffix(path.Base(args[i+1].s), ".jar")
		if j := strings.IndexFunc(base, func(r rune) bool { return r >= '0' && r <= '9' }); j > 0 {
			base = strings.TrimRight(base[:j], "-_.")
		}
		if h, known := lookup(base); known {
			sub := *iv
			sub.name, sub.args = base, append(argsOf(base), args[i+2:]...)
			h(&sub)
		}
		return
	}
}

// runsBFG reports whether a command is the BFG Repo-Cleaner, by its name
// or as java -jar bfg….jar: the values of its options are patterns of
// names in history, not files it reads.
func (iv *inv) runsBFG() bool {
	if iv.name == "bfg" {
		return true
	}
	if iv.name != "java" {
		return false
	}
	for _, a := range iv.rest(1) {
		if a.ok && strings.HasSuffix(a.s, ".jar") && strings.HasPrefix(path.Base(a.s), "bfg") {
			return true
		}
	}
	return false
}

// filledWithSecrets finds a file of the working tree this command filled
// with secrets (the environment, a secrets file, the output of a command
// that prints them: heroku config -s >> .env.example, printenv > env.txt)
// or put secret values in (a secret variable's value that sed -i, yq -i,
// echo or jq write, what envsubst or compose config interpolates:
// classifier.filled) that git add or git commit takes in: one named
// among ops, or one under a directory named there or, when all is set
// (git add -A, git add ., git commit -a), under the tree, that the
// ignore rules do not keep out. A template's name (.env.example) is no
// placeholder's once it holds them. It returns the file and what it
// holds, or "".
func (iv *inv) filledWithSecrets(ops []arg, all bool) (file, what string) {
	if len(iv.c.written) == 0 && len(iv.c.filled) == 0 || iv.sc.remote {
		return "", ""
	}
	describe := func(src source) string {
		switch {
		case src.kind != srcSecret:
			return src.values
		case src.text == "" || src.text == envDump:
			return "the environment's values"
		case strings.HasPrefix(src.text, "the output of "), strings.HasPrefix(src.text, dumpOf), strings.HasPrefix(src.text, answerOf):
			return "secrets, " + src.text
		}
		return "secrets, from " + src.text
	}
	var dirs []string // what git takes in all under: a directory named (git add k8s), the tree (git add -A)
	for _, op := range ops {
		p := iv.c.resolve(iv.sc, op).path
		if src, ok := iv.c.secretsIn(p); op.ok && ok {
			return op.s, describe(src)
		}
		if op.ok && p != "" {
			dirs = append(dirs, p)
		}
	}
	root := iv.c.resolve(iv.sc, arg{s: ".", ok: true, src: "."}).path
	if all && root != "" {
		dirs = append(dirs, root)
	}
	if len(dirs) == 0 {
		return "", ""
	}
	for _, d := range dirs {
		if f, src, ok := iv.c.filledUnder(d); ok && (file == "" || f < file) {
			file, what = f, describe(src)
		}
	}
	if file != "" {
		file = iv.c.show(target{path: file, src: strings.TrimPrefix(file, root+"/")})
	}
	return file, what
}

// madeOnly reports whether paths, as git clean is limited to them, are all
// in the working tree and under what tools make (build/, coverage/,
// node_modules): build outputs, caches and installed dependencies, not a
// directory of trained models or records of runs (keptRecords).
func (c *classifier) madeOnly(sc *scope, paths []arg) bool {
	n := 0
	for _, a := range paths {
		if a.ok && a.s == "--" {
			continue
		}
		t := c.resolve(sc, a)
		rel, ok := strings.CutPrefix(t.path, c.project+"/")
		if !a.ok || t.path == "" || !ok || c.danger(t) != "" || !c.trustedProject() || !c.madePath(rel) || keptRecords(rel) != "" {
			return false
		}
		n++
	}
	return n > 0
}

// fillScan is how far filledWithSecrets has looked through fillLog for
// the files under one directory, and the first by name it found there.
type fillScan struct {
	next int
	file string
}

// filledUnder finds, of the files this command filled with secrets under
// dir, the first by name that the ignore rules do not keep out and that
// is not in a temp dir, with what it holds. Each directory's look goes on
// where the last one stopped, so that a command of many git add -A looks
// at each file once; a file written over afresh since is looked for anew.
func (c *classifier) filledUnder(dir string) (string, source, bool) {
	scan := c.fillScans[dir]
	if _, ok := c.secretsIn(scan.file); scan.file != "" && !ok {
		scan = fillScan{} // written over since: look again
	}
	for ; scan.next < len(c.fillLog); scan.next++ {
		p := c.fillLog[scan.next]
		if !isUnder(p, dir) || c.inTemp(p) || scan.file != "" && p >= scan.file {
			continue
		}
		if _, ok := c.secretsIn(p); !ok {
			continue
		}
		if rel, ok := strings.CutPrefix(p, c.project+"/"); ok && c.trustedProject() && c.ignored(rel) {
			continue
		}
		scan.file = p
	}
	if c.fillScans == nil {
		c.fillScans = map[string]fillScan{}
	}
	c.fillScans[dir] = scan
	src, ok := c.secretsIn(scan.file)
	return scan.file, src, scan.file != "" && ok
}

// secretsIn says what secrets this command put in the file at p: its
// written source, if that is secret, or the values it filled it with.
func (c *classifier) secretsIn(p string) (source, bool) {
	if src, ok := c.written[p]; ok && src.kind == srcSecret {
		return src, true
	}
	if v, ok := c.filled[p]; ok {
		return source{kind: srcPipe, values: v}, true // sed -i "s/x/$DB_PASSWORD/" config.yml
	}
	return source{}, false
}
