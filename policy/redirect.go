package policy

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirects checks the output redirections of st. idx is the Command they
// belong to, or -1 for a statement without a simple command, in which case
// a pseudo-command is recorded if anything is found.
//
// Redirect pseudo-commands have argv [">target"].
func (w *walker) redirects(st *syntax.Stmt, sc *scope, idx int, in source) {
	c := w.c
	for _, r := range st.Redirs {
		var truncating bool
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob, syntax.RdrInOut:
			// 1<> f opens f to read and write and writes over its bytes in
			// place: what was there is lost as with >. <> f alone opens
			// stdin so, which a command reads.
			truncating = r.Op != syntax.RdrInOut || r.N != nil && r.N.Value != "0"
		case syntax.AppOut, syntax.AppClob, syntax.AppAll, syntax.AppAllClob:
		case syntax.DplOut: // >& file (not >&2): both streams to a file
			if lit := litOf(r.Word); lit == "-" || lit == "" || strings.Trim(lit, "0123456789") == "" {
				continue
			}
			truncating = true
		default:
			continue
		}
		fs, err := c.fields(sc, []*syntax.Word{r.Word})
		a := arg{src: wordSource(sc.src, r.Word)}
		if err == nil && len(fs) == 1 {
			a = fs[0]
		}
		if r.N != nil && r.N.Value == "2" && (r.Op == syntax.RdrOut || r.Op == syntax.AppOut) {
			if ce, ok := st.Cmd.(*syntax.CallExpr); ok && w.tracedStderr(ce, sc) != "" { // TF_LOG=DEBUG terraform plan 2> debug.log
				c.wrote(sc, a, source{kind: srcSecret, text: w.tracedStderr(ce, sc), named: true}, !truncating)
			}
		}
		if r.N == nil || r.N.Value == "1" || r.Op == syntax.RdrAll || r.Op == syntax.AppAll {
			out := w.output(st, sc, in)
			c.wrote(sc, a, out, !truncating)
			c.hookCode(sc, idx, a)
			if !truncating {
				c.plantsFetch(idx, a, out)
			}
		}
		class, why := c.writeTarget(sc, a, truncating)
		if own := c.overSettings(sc, a, truncating); own != "" && class < Destructive {
			class, why = Destructive, own // cat > .env <<EOF
		} else if own := c.overList(st, sc, a, truncating); own != "" && class < Destructive {
			class, why = Destructive, own // echo "node_modules/" > .gitignore
		} else if own := c.overSecretStore(st, sc, a, truncating); own != "" && class < Destructive {
			class, why = Destructive, own // echo '---' > group_vars/production/vault.yml
		} else if own := c.overManifest(sc, a, truncating); own != "" && class < Destructive && writesText(st) {
			class, why = Destructive, own // echo '{}' > package.json
		}
		if truncating && writesNothing(st) && a.ok && dataFile(a.s) {
			class, why = Destructive, "empties a database file: "+a.s
		} else if truncating && writesNothing(st) && a.ok && !sc.remote && class < Destructive {
			if t := c.resolve(sc, a); c.emptied(t, a.s) != "" { // > src/app.py, : > logs/audit.log
				class, why = Destructive, "empties "+c.emptied(t, a.s)+": "+c.show(t)
			}
		} else if truncating && writesNothing(st) && !sc.remote && class < Destructive && c.unknownPath(a) {
			class, why = Destructive, "empties a file of a path computed at run time: "+a.shown() // : > "$SPARK_HOME/conf/x", as truncate -s0 is
		}
		if truncating && a.ok && !sc.remote && class < Destructive { // ln -sf src/app.py /tmp/run.log && echo x > /tmp/run.log
			if t := c.resolve(sc, a); c.links[t.path] != "" {
				lt := t
				lt.path, lt.src = c.links[t.path], c.links[t.path]
				if own := c.emptied(lt, lt.path); own != "" {
					class, why = Destructive, "writes over "+own+" through a link this command made: "+a.s+" -> "+c.show(lt)
				}
			}
		}
		if truncating && class < Destructive {
			if reader := c.readerOf(st, sc, idx, a); reader != "" {
				class, why = Destructive, "empties "+a.src+" before "+reader+" reads it"
			}
		}
		if truncating && a.ok && !sc.remote && class < Destructive && strings.ContainsAny(a.s, "*?[") {
			// A pattern is a redirection's target only through a name bound
			// to each file it picks (for f in src/*.py; do echo x > "$f",
			// find -exec sh -c '… > "$1"' _ {}): each is written over.
			if t := c.resolve(sc, a); dataFile(a.s) {
				class, why = Destructive, "writes over each database file "+a.s+": "+c.show(t)
			} else if own := c.emptied(t, a.s); own != "" {
				class, why = Destructive, "writes over each of "+own+": "+c.show(t)
			}
		}
		switch {
		case class == ReadOnly:
		case class >= Destructive || idx < 0:
			// A destructive redirection is its own pseudo-command, so that
			// an allow rule for the command (Bash(echo:*)) does not cover
			// writing ~/.bashrc; only the catch-all rule "Bash" does.
			j := c.record(argsOf(">" + a.src))
			if class == Destructive && a.ok && !sc.remote {
				c.flagWrite(j, c.resolve(sc, a), why) // a device or /dev/tcp is under /dev, which a sandbox lets be written
			} else {
				c.flag(j, class, why)
			}
			c.vetWrite(j, sc, a, true)
		default:
			c.flag(idx, class, why)
			c.vetWrite(idx, sc, a, false)
		}
	}
}

// readerOf names the command of st's pipeline that reads the file a
// truncating redirection of st empties first (jq . f > f, cat f | grep x
// > f, sort < f > f), or "".
//
// A name computed at run time, or a pattern, is the same file where it
// is written the same way in the same statement: jq . "$f" > "$f", each
// file of for f in *.json.
func (c *classifier) readerOf(st *syntax.Stmt, sc *scope, idx int, a arg) string {
	p, same, pattern := "", "", ""
	switch {
	case a.ok && strings.ContainsAny(a.s, "*?["):
		pattern = a.s // for f in *.json; do jq . "$f" > "$f", sh -c 'gofmt "$1" > "$1"' _ {}: the same word, the same file
	case a.ok:
		p = c.resolve(sc, a).path
		if p == "" || strings.ContainsAny(a.s, "*?[") || strings.HasPrefix(p, "/dev/") {
			return ""
		}
	default:
		if same = sameName(a.src); same == "" {
			return ""
		}
	}
	for _, r := range st.Redirs {
		if r.Op != syntax.RdrIn {
			continue
		}
		if in, err := c.fields(sc, []*syntax.Word{r.Word}); err == nil && len(in) == 1 &&
			(a.ok && in[0].ok && c.resolve(sc, in[0]).path == p || !a.ok && !in[0].ok && sameName(in[0].src) == same) {
			return "the command"
		}
	}
	from := idx
	if sc.stage > 0 {
		from = sc.stage - 1
	}
	if from < 0 {
		return ""
	}
	// Bounded: a redirection looks at most maxStages commands back.
	for _, cmd := range c.cmds[from:min(len(c.cmds), from+maxStages)] {
		if cmd.Dir == "" || len(cmd.Argv) < 2 || cmd.Argv[0] == "echo" || cmd.Argv[0] == "printf" || cmd.Argv[0] == "tee" {
			continue
		}
		for k, s := range cmd.Argv[1:] {
			known := cmd.match[k+1] != unknownWord
			switch {
			case strings.HasPrefix(s, "-"):
			case pattern != "" && known && s == pattern,
				p != "" && known && (s == p || !path.IsAbs(s) && path.Join(cmd.Dir, s) == p),
				same != "" && !known && sameName(s) == same:
				return cmd.Argv[0]
			}
		}
	}
	return ""
}

// sameName is a word naming a file by variables, as written with its
// quotes and braces taken off ("${f}" and $f are $f), or "" if it is
// more than variables and literal text: a command substitution or a
// parameter operation may give another name each time.
func sameName(src string) string {
	if src == "" || strings.Contains(src, "$(") || strings.Contains(src, "`") || !strings.Contains(src, "$") {
		return ""
	}
	s := src
	if strings.ContainsAny(s, `"'`) {
		s = strings.ReplaceAll(strings.ReplaceAll(s, `"`, ""), "'", "")
	}
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return ""
		}
		name := s[i+2 : i+j]
		if !validName(name) {
			return "" // ${f%.json}, ${f:-x}: an operation
		}
		s = s[:i] + "$" + name + s[i+j+1:]
	}
	return s
}

// maxStages bounds how many commands readerOf compares.
const maxStages = 64

// writeTarget classifies writing to a (by a redirection or tee).
func (c *classifier) writeTarget(sc *scope, a arg, truncating bool) (Class, string) {
	if name := path.Base(strings.Trim(a.src, `"'`)); runsByName(name) && !sc.remote { // "$d/zz_init.pth": wherever $d is
		return Destructive, "writes a file Python runs by its name at every start: " + strings.Trim(a.src, `"'`)
	}
	if !a.ok && !sc.remote {
		if why := deviceNamed(a.src); why != "" {
			return Destructive, why + ": " + a.shown()
		}
		if why := c.storeNamed(sc, a.src); why != "" {
			return Destructive, "writes over " + why + ", a name in it computed at run time: " + a.shown()
		}
	}
	if !a.ok || sc.remote {
		return Write, ""
	}
	t := c.resolve(sc, a)
	if to, ok := c.links[t.path]; ok { // : > ./notes.txt, a link to ~/.bashrc: writes what it leads to
		t.path = to
	}
	p := t.path
	if p == "" {
		return Write, ""
	}
	switch {
	case p == "/dev/null" || p == "/dev/stdout" || p == "/dev/stderr" || p == "/dev/tty" ||
		strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/dev/pts/") || strings.HasPrefix(p, "/proc/self/fd/"):
		return ReadOnly, ""
	case strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/"):
		return Destructive, "sends data over the network: " + c.show(t)
	case strings.HasPrefix(p, "/dev/"):
		return Destructive, "writes to a device: " + c.show(t)
	case c.startupFile(p):
		return Destructive, "writes to a shell startup or configuration file: " + c.show(t)
	case isSystemPath(p):
		return Destructive, "writes to a system file: " + c.show(t)
	case c.inTemp(p):
		return Write, ""
	case unrecoverable(t) != "" && !originalsDir(p):
		return Destructive, "writes over " + unrecoverable(t) + ": " + c.show(t) // dd of=db/app.sqlite3, > .git/HEAD
	case truncating && !t.children && inOriginals(p) && !newFile(p) && !sc.remote:
		return Destructive, "writes over a file of originals or raw inputs, which nothing builds again: " + c.show(t) // cp x.csv data/raw/survey.csv
	case c.trustedProject() && isUnder(p, c.project):
		return Write, ""
	}
	if truncating && t.children && c.danger(t) != "" && c.danger(t) != "unresolved" {
		return Destructive, "writes over files it finds outside the working directory: " + c.show(t) // sh -c ': > "$1"' _ {} under find ~
	}
	if !truncating || t.children {
		return Write, ""
	}
	if p == c.project { // mv -f ../old/* ., rsync -a "$EMPTY/" ./ in a directory tend cannot read
		return Destructive, "writes into the working directory, over what may be there: " + c.show(t)
	}
	fi, err := os.Lstat(p)
	switch {
	case err == nil && fi.IsDir():
		return Write, "" // a new file in it
	case err == nil:
		return Destructive, "overwrites an existing file outside the working directory: " + c.show(t)
	case errors.Is(err, fs.ErrNotExist):
		if _, perr := os.Stat(path.Dir(p)); perr == nil {
			return Write, "" // a new file
		}
	}
	return Destructive, "writes outside the working directory, over what may be there: " + c.show(t)
}

// newFile reports whether writing p creates it: nothing is there, and the
// directory it goes in is (cp .env.example .env in a fresh checkout).
// Where the disk cannot tell, p may be there.
func newFile(p string) bool {
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	fi, err := os.Stat(path.Dir(p))
	return err == nil && fi.IsDir()
}

// deviceNamed says how a write target computed at run time is a device,
// or "": a path under /dev with its name computed (/dev/$d, /dev/sd${x}),
// or the output of a command that lists disks or devices ($(ls
// /dev/nvme0n1 || echo /dev/sda), $(lsblk -dno PATH | head -1)). The
// descriptors, terminals and shared memory under /dev are not disks.
func deviceNamed(src string) string {
	s := strings.TrimLeft(src, `"'`)
	switch {
	case strings.HasPrefix(s, "/dev/tcp/") || strings.HasPrefix(s, "/dev/udp/"):
		return "sends data over the network, to an address computed at run time"
	case strings.HasPrefix(s, "/dev/fd/") || strings.HasPrefix(s, "/dev/pts/") || strings.HasPrefix(s, "/dev/shm/") ||
		strings.HasPrefix(s, "/dev/std") || strings.HasPrefix(s, "/dev/null"):
		return ""
	case strings.HasPrefix(s, "/dev/"):
		return "writes to a device named at run time"
	case (strings.Contains(s, "$(") || strings.Contains(s, "`")) && diskLister.MatchString(s):
		return "writes to a device a command picks at run time"
	}
	return ""
}

// storeNamed says how a path computed at run time lies in what no
// version control gives back, or "": the directory written out before
// the first computed part (".git/objects/pack/$(ls … | head -1)") is
// in a repository's store.
func (c *classifier) storeNamed(sc *scope, src string) string {
	lit, _, _ := strings.Cut(strings.TrimLeft(src, `"'`), "$")
	lit, _, _ = strings.Cut(lit, "`")
	dir, _ := path.Split(lit)
	if dir == "" || strings.ContainsAny(dir, "*?[{'\"\\") {
		return ""
	}
	t := c.resolve(sc, arg{s: dir + "x", ok: true, src: dir + "x"})
	if why := unrecoverable(t); t.path != "" && why == "the repository's history" {
		return why
	}
	return ""
}

// diskLister is a command substitution's text that names disks: a disk's
// path under /dev, or a tool that lists block devices.
var diskLister = lazyRE(`/dev/(?:[shv]d|xvd|nvme|mmcblk|r?disk|loop|md|dm-|mapper/|nbd|by-id/|disk/)|\b(?:lsblk|blkid|findmnt|losetup|fdisk\s+-l|diskutil\s+list)\b`)

// startupFile reports whether p is read by shells or tools at start-up, so
// writing it plants code that runs later (persistence): a dotfile in the
// home directory, anything under ~/.ssh or ~/.config, a directory on the
// PATH (~/bin, ~/.local/bin), and in any tool's dot-directory its places
// for code it loads by itself (~/.gradle/init.d, ~/.ipython/…/startup,
// ~/.vim/plugin, ~/.m2/settings.xml, ~/.emacs.d/init.el).
func (c *classifier) startupFile(p string) bool {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if dir == c.home && strings.HasPrefix(base, ".") {
		return true // ~/.bashrc, ~/.profile, ~/.gitconfig, …
	}
	for _, d := range []string{".ssh", ".config", ".local/bin", ".bashrc.d", ".oh-my-zsh", "bin"} {
		if isUnder(p, path.Join(c.home, d)) {
			return true
		}
	}
	rel, ok := strings.CutPrefix(p, c.home+"/")
	parts := strings.Split(rel, "/")
	if !ok || len(parts) < 2 || !strings.HasPrefix(parts[0], ".") || parts[0] == ".cache" {
		return false
	}
	for _, d := range parts[1 : len(parts)-1] {
		if codeDirs[d] {
			return true
		}
	}
	return strings.HasPrefix(base, "init.") || strings.HasPrefix(base, "startup.") || strings.HasSuffix(base, "rc") ||
		base == "settings.xml" || base == "config" || strings.HasPrefix(base, "config.") || strings.HasSuffix(base, ".pth") ||
		base == "sitecustomize.py" || base == "usercustomize.py" || strings.HasSuffix(base, ".sbt")
}

// codeDirs are the directories in which tools look for code to load by
// themselves: init scripts, plugins, hooks, startup files.
var codeDirs = map[string]bool{
	"init.d": true, "init": true, "startup": true, "autostart": true, "plugins": true, "plugin": true,
	"hooks": true, "profile.d": true, "rc.d": true, "conf.d": true, "autoload": true, "ftplugin": true,
	"site-packages": true, "bin": true, "extensions": true, "addons": true, "pack": true, "after": true,
	"functions": true, "completions": true, "lisp": true, "site-lisp": true,
}

// runsLater reports whether a file written at p runs later by itself: a
// startup file (above), a repository's hook, Python's sitecustomize or a
// .pth file anywhere.
func (c *classifier) runsLater(p string) bool {
	base := path.Base(p)
	return c.startupFile(p) || strings.Contains(p, "/.git/hooks/") || runsByName(base)
}

// runsByName reports whether a file named base runs by its name wherever
// it lies on Python's path: a .pth file's import lines and sitecustomize
// run at every interpreter start.
func runsByName(base string) bool {
	return base == "sitecustomize.py" || base == "usercustomize.py" || strings.HasSuffix(base, ".pth") && len(base) > len(".pth")
}

// isSystemPath reports whether p is inside a system directory.
func isSystemPath(p string) bool {
	for _, d := range []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/sys", "/proc", "/var/spool",
		"/var/log", "/var/lib", "/var/www", "/var/mail", "/var/backups", "/var/opt", "/opt", "/srv", "/root"} {
		if p == d || isUnder(p, d) {
			return true
		}
	}
	return false
}

// wrote records that this command writes what src carries to the file a
// (appending to what it wrote there before), so that running the file
// later in the same command is judged by its content.
func (c *classifier) wrote(sc *scope, a arg, src source, appending bool) {
	if sc.remote { // a path made for this run resolves too ("$d/run.sh" after d=$(mktemp -d))
		return
	}
	p := c.resolve(sc, a).path
	if p == "" {
		return
	}
	if c.written == nil {
		c.written = map[string]source{}
	}
	if old, ok := c.written[p]; ok && appending {
		if old.kind == srcText && src.kind == srcText {
			src.text = old.text + src.text
		} else {
			src = source{kind: max(old.kind, src.kind), values: src.values}
		}
	}
	c.written[p] = src
	if src.kind == srcSecret {
		c.fillLog = append(c.fillLog, p)
	}
	switch {
	case src.values != "":
		c.fill(p, src.values)
	case !appending && c.filled != nil:
		delete(c.filled, p) // written over afresh
	}
}

// fill records that the file at p, an absolute path, now holds secret
// values (source.values), put there by a write or an edit in place.
func (c *classifier) fill(p, values string) {
	if c.filled == nil {
		c.filled = map[string]string{}
	}
	c.filled[p] = values
	c.fillLog = append(c.fillLog, p)
}

// hookCode judges a file this command wrote where it runs by itself later
// by its content, now: a repository's hooks (git runs them at a checkout,
// commit or push), Python's sitecustomize and .pth files (at its next
// start).
//
// A project's build files are judged so too: a package manager runs a
// manifest's scripts (package.json, composer.json), a build its build
// script (build.rs, setup.py, a Makefile's recipes), whatever command of
// the project's toolchain comes next.
func (c *classifier) hookCode(sc *scope, idx int, a arg) {
	p := c.resolve(sc, a).path
	src, ok := c.written[p]
	if idx < 0 || !ok || src.kind != srcText {
		return
	}
	base := path.Base(p)
	iv := &inv{c: c, idx: idx, name: base, sc: sc}
	code := arg{s: src.text, ok: true, src: src.text}
	switch {
	case strings.Contains(p, "/.git/hooks/"):
		iv.shell(code, sc)
	case base == "sitecustomize.py" || base == "usercustomize.py" || strings.HasSuffix(base, ".pth"), // Python runs it at its next start
		buildScripts[base] || strings.HasSuffix(base, ".gradle") || strings.HasSuffix(base, ".gradle.kts"):
		iv.interpCode(code)
	case base == "package.json" || base == "composer.json":
		var m struct {
			Scripts map[string]json.RawMessage `json:"scripts"`
		}
		if json.Unmarshal([]byte(src.text), &m) != nil {
			return
		}
		for _, raw := range m.Scripts {
			var one string
			var many []string
			if json.Unmarshal(raw, &one) == nil {
				many = []string{one}
			} else if json.Unmarshal(raw, &many) != nil {
				continue
			}
			for _, cmd := range many {
				iv.shell(arg{s: cmd, ok: true, src: cmd}, sc)
			}
		}
	case base == ".yarnrc.yml" || base == ".yarnrc" || base == ".npmrc":
		if m := runnerSetting.FindStringSubmatch(src.text); m != nil && !ownRunner(c, sc, m[2]) {
			iv.flag(Destructive, base+" names a program the package manager runs on every invocation: "+strings.TrimSpace(m[0]))
		}
	case strings.HasSuffix(base, ".code-workspace") || base == "tasks.json" && path.Base(path.Dir(p)) == ".vscode":
		if m := folderOpen.FindString(src.text); m != "" {
			iv.flag(Destructive, base+" holds a task the editor runs by itself when the folder is opened: "+m)
		}
	case base == ".pre-commit-config.yaml" || base == ".pre-commit-hooks.yaml":
		if m := mutableHookRepo.FindStringSubmatch(src.text); m != nil {
			iv.flag(Destructive, base+" installs hooks that run at every commit from an outside repository at a rev that can change: "+m[1]+" @ "+m[2])
		}
	case enterFiles[base]: // direnv, autoenv: sourced on entering the directory
		iv.shell(code, sc)
	case ciConfig(p):
		if leak := ciSecretLeak(src.text); leak != "" {
			iv.flag(Destructive, "writes CI configuration, which runs once pushed, "+a.src+", with a step that "+leak)
		}
	default:
		if format, ok := recipeFormatOf(base); ok {
			iv.runRecipes(format, src.text, sc)
		}
	}
}

// runnerSetting is a package manager's setting naming a program it runs
// in its own place on every invocation: .yarnrc.yml's yarnPath, .npmrc's
// script-shell.
var runnerSetting = lazyRE(`(?m)^\s*(yarnPath|yarn-path|script-shell|shell)\s*[:=]\s*["']?([^"'\s]+)`)

// ownRunner reports whether a runner a setting names is the project's own
// (.yarn/releases/yarn-4.1.0.cjs) or a standard shell.
func ownRunner(c *classifier, sc *scope, p string) bool {
	switch path.Base(p) {
	case "sh", "bash", "zsh", "dash", "pwsh", "powershell", "cmd", "cmd.exe", "powershell.exe":
		return strings.HasPrefix(p, "/bin/") || strings.HasPrefix(p, "/usr/bin/") || !strings.Contains(p, "/")
	}
	t := c.resolve(sc, arg{s: p, ok: true, src: p})
	return t.path != "" && isUnder(t.path, c.project) && !c.inTemp(t.path)
}

// folderOpen is an editor task that runs when its folder is opened.
var folderOpen = lazyRE(`"runOn"\s*:\s*"folderOpen"`)

// mutableHookRepo is a pre-commit repository outside the project pinned
// to a branch (rev: main) rather than a tag or a commit.
var mutableHookRepo = lazyRE(`(?m)repo:\s*(https?://\S+|git@\S+)\s*\n\s*rev:\s*["']?(main|master|HEAD|head|trunk|dev|develop|latest|stable|nightly)["']?\s*$`)

// enterFiles are the files a shell extension sources on entering their
// directory (direnv's .envrc, autoenv's .autoenv files): shell code that
// runs later.
var enterFiles = map[string]bool{".envrc": true, ".autoenv": true, ".autoenv.zsh": true, ".autoenv_leave": true, ".autoenv_leave.zsh": true}

// fetchRun is code that fetches code from the network and runs it: a
// download piped into a shell or an interpreter, or handed to eval/exec.
var fetchRun = lazyRE(`(?i)\b(?:curl|wget|fetch|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|;\n]*\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python\d*|perl|ruby|node|php|iex)\b|\b(?:eval|exec|iex)\b\W{0,4}(?:curl|wget|urlopen|urllib|requests\.get)\b`)

// lineEscapes turns a script's \n and \t back into the line breaks and tabs
// they put into a file (sed's s/…/\1\n\tcurl …/, '#!/bin/sh\ncurl …'),
// so that the words they join are read apart.
var lineEscapes = strings.NewReplacer(`\n`, "\n", `\t`, "\t")

// plantsFetch holds text appended to a file of code (echo … >> app.py,
// tee -a) when the text fetches code from the network and runs it: the
// file runs it later, unwatched.
func (c *classifier) plantsFetch(idx int, a arg, src source) {
	ext := strings.TrimPrefix(path.Ext(a.s), ".")
	if idx < 0 || !a.ok || src.kind != srcText || !(sourceExts[ext] && ext != "md" && ext != "sql" || ext == "sh" || ext == "bash" || ext == "zsh") {
		return
	}
	if m := fetchRun.FindString(src.text); m != "" {
		c.flag(idx, Destructive, "puts code that fetches and runs code from the network into "+a.src+": "+cutText(m))
	}
}

// plantedBuild reports whether a file at p is one a project's toolchain
// runs by itself (hookCode): a build script, a manifest with scripts, a
// Makefile, a direnv file.
func plantedBuild(p string) bool {
	base := path.Base(p)
	_, tasks := recipeFormatOf(base)
	return buildScripts[base] || base == "package.json" || base == "composer.json" || enterFiles[base] || makefiles[base] || tasks || strings.HasSuffix(base, ".gradle") || strings.HasSuffix(base, ".gradle.kts")
}

// buildScripts are the files of code a project's build or test tool runs.
var buildScripts = map[string]bool{
	"build.rs": true, "setup.py": true, "conftest.py": true, "noxfile.py": true, "Rakefile": true,
	"Gemfile": true, "Vagrantfile": true, "build.sbt": true, "build.zig": true, "Package.swift": true,
	"mix.exs": true, "rebar.config": true, "Gruntfile.js": true, "gulpfile.js": true, "webpack.config.js": true,
	"vite.config.js": true, "vite.config.ts": true, "jest.config.js": true, "babel.config.js": true,
}

// makefiles are the files whose recipes make or just run.
var makefiles = map[string]bool{"Makefile": true, "makefile": true, "GNUmakefile": true, "justfile": true, "Justfile": true}

// runsWritten judges running a file (as a script, or with an interpreter)
// that this command wrote: by its content when known. It reports whether
// the file is one.
func (iv *inv) runsWritten(file arg, run func(code arg)) bool {
	if !file.ok || iv.c.written == nil {
		return false
	}
	p := iv.c.resolve(iv.sc, file).path
	src, ok := iv.c.written[p]
	for dir, s := range iv.c.written {
		if !ok && s.kind == srcDownload && isUnder(p, dir) { // git clone URL dir && dir/install.sh
			src, ok = s, true
		}
	}
	if !ok {
		return false
	}
	switch src.kind {
	case srcText:
		run(arg{s: src.text, ok: true, src: src.text})
	case srcDownload:
		iv.flag(Destructive, iv.name+" runs a file this command downloaded: "+file.shown())
	default:
		iv.flag(Unparseable, iv.name+" runs a file this command wrote from a source tend cannot see: "+file.shown())
	}
	return true
}

// writesNothing reports whether a statement's redirections only empty
// their files (": > f", "> f", "true > f", printf of empty quotes, "echo -n > f").
func writesNothing(st *syntax.Stmt) bool {
	if st.Cmd == nil {
		return true
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	words := make([]string, len(ce.Args))
	for i, w := range ce.Args {
		words[i] = litOf(w)
	}
	for len(words) > 1 && (isWrapperWord(words[0]) || strings.Trim(words[0], "0123456789") == "") {
		words = words[1:] // sudo, env, timeout 5 …
	}
	switch strings.Join(words, " ") {
	case ":", "true", "cat /dev/null", "echo -n", "echo -n -e", "echo -ne", "echo -en":
		return true
	}
	// printf '' > f, printf "" > f, echo -n "" > f: an empty word printed
	last := ce.Args[len(ce.Args)-1]
	return len(words) >= 2 && (words[0] == "printf" && len(words) == 2 || words[0] == "echo" && len(words) == 3 && words[1] == "-n") && emptyWord(last)
}

// emptyWord reports whether a word is only empty quotes, single or double.
func emptyWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch q := p.(type) {
		case *syntax.SglQuoted:
			if q.Value != "" {
				return false
			}
		case *syntax.DblQuoted:
			if len(q.Parts) != 0 {
				return false
			}
		default:
			return false
		}
	}
	return len(w.Parts) > 0
}

// isWrapperWord reports whether a command name only runs the command after it.
func isWrapperWord(w string) bool {
	_, quiet := quietWrappers[w]
	return quiet || w == "env"
}

// validName reports whether s names a shell variable or a positional
// parameter: x, _f, HOME, 1.
func validName(s string) bool {
	return syntax.ValidName(s) || allDigits(s)
}

// overList says why writing one echo or printf over a, when truncating,
// loses a list the project keeps line by line (listFile: .gitignore,
// .dockerignore, .gitattributes, CODEOWNERS): > where >> was meant leaves
// only the new line. Not when the file is new, or written only when
// missing ([ -f .gitignore ] || …), or the command makes the repository
// (git init), which has none yet.
func (c *classifier) overList(st *syntax.Stmt, sc *scope, a arg, truncating bool) string {
	if !truncating || !a.ok || sc.remote || !listFile(path.Base(a.s)) || !echoes(st) {
		return ""
	}
	t := c.resolve(sc, a)
	dir := strings.TrimPrefix(path.Dir(t.path), c.project+"/")
	if t.path == "" || t.children || !isUnder(t.path, c.project) || dir != ".github" && dir != ".gitlab" && c.madePath(dir) ||
		missingGuard(c.whole, a.s) || strings.Contains(c.whole, "git init") || newFile(t.path) {
		return ""
	}
	return "writes one line over a list the project keeps line by line, losing the lines it held (>> appends): " + c.show(t)
}

// listFile reports whether a file's name is a list the project keeps line
// by line: an ignore file (.gitignore, .dockerignore, .npmignore,
// .prettierignore), .gitattributes, CODEOWNERS.
func listFile(base string) bool {
	return strings.HasPrefix(base, ".") && strings.HasSuffix(base, "ignore") || base == ".gitattributes" || base == "CODEOWNERS"
}

// echoes reports whether st is an echo or printf (after wrappers): one
// line or a few written out, not a file's whole text.
func echoes(st *syntax.Stmt) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	for _, w := range ce.Args {
		if lit := litOf(w); !isWrapperWord(lit) && strings.Trim(lit, "0123456789") != "" { // sudo, env, timeout 5 …
			return lit == "echo" || lit == "printf"
		}
	}
	return false
}

// overSettings says why writing over a, when truncating, loses the
// checkout's own settings (localSettings: .env, settings.local.json),
// which no version control keeps: every other key in it is gone. Not
// when the command writes it only when it is missing ([ -f .env ] || …);
// appending (>>) keeps what is there.
func (c *classifier) overSettings(sc *scope, a arg, truncating bool) string {
	if !truncating || !a.ok || sc.remote {
		return ""
	}
	t := c.resolve(sc, a)
	base := path.Base(t.path)
	if t.path == "" || t.children || !isUnder(t.path, c.project) || !localSettings(base) || templateFile(base) || missingGuard(c.whole, a.s) || newFile(t.path) {
		return ""
	}
	return "writes over this checkout's own settings, which no version control keeps (the other keys in it are lost): " + c.show(t)
}

// overSecretStore says why writing over a, when truncating, loses an
// encrypted store of secrets (encryptedStore: an Ansible vault, a sops
// or .enc file, Rails' credentials.yml.enc): no
// version control keeps their plain values, and what is written in their
// place holds none of them. Not when an encryptor writes it (sops -e
// secrets.yaml > secrets.enc.yaml, gpg -e), nor when the file is new or
// written only when it is missing.
func (c *classifier) overSecretStore(st *syntax.Stmt, sc *scope, a arg, truncating bool) string {
	if !truncating || !a.ok || sc.remote {
		return ""
	}
	t := c.resolve(sc, a)
	if t.path == "" || t.children || !encryptedStore(t.path) || c.inTemp(t.path) || missingGuard(c.whole, a.s) || newFile(t.path) {
		return ""
	}
	if st == nil {
		// tee: what it is fed is judged where it is made
	} else if ce, ok := st.Cmd.(*syntax.CallExpr); ok {
		for _, w := range ce.Args {
			lit := path.Base(litOf(w))
			if isWrapperWord(lit) || strings.Contains(litOf(w), "=") && ce.Assigns == nil {
				continue
			}
			if encryptors[lit] || lit == "" {
				return "" // sops -e secrets.yaml > secrets.enc.yaml: the store encrypted afresh; a computed writer is judged by its own words
			}
			break
		}
	}
	return "writes over an encrypted store of secrets, whose values no version control keeps: " + c.show(t)
}

// encryptors are the tools that write encrypted stores of secrets.
var encryptors = setOf("sops", "ansible-vault", "age", "rage", "gpg", "gpg2", "openssl", "kubeseal", "git-crypt", "blackbox_encrypt_file", "vault")

// encryptedStore reports whether p is by its name an encrypted store of
// secrets: an Ansible vault (vault.yml, vault_prod.yaml), a sops file
// (secrets.sops.yaml), an .enc file (credentials.yml.enc,
// secrets.enc.json, .env.enc), not a template of one.
func encryptedStore(p string) bool {
	b := strings.ToLower(path.Base(p))
	if templateFile(b) {
		return false
	}
	ws := strings.FieldsFunc(b, func(r rune) bool { return r == '.' || r == '_' || r == '-' })
	if len(ws) < 2 {
		return false
	}
	ext := ws[len(ws)-1]
	switch ext {
	case "enc", "encrypted", "vault":
		return true
	}
	for _, w := range ws[:len(ws)-1] {
		switch w {
		case "enc", "sops", "encrypted":
			return true
		case "vault":
			if ext == "yml" || ext == "yaml" {
				return true // group_vars/production/vault.yml
			}
		}
	}
	return false
}

// overManifest says why writing text over a, when truncating, loses the
// project's manifest (manifestFile: package.json, pyproject.toml,
// Cargo.toml, go.mod …): its dependencies, scripts and settings are gone
// unless the text written holds them all again, which one line or a
// short file never does. The same exceptions as overList and
// overSettings: not when the file is new, or written only when it is
// missing ([ -f package.json ] || …), or the command makes the project
// it lies in (mkdir app && cd app && cat > package.json, npm init, cargo
// new app), or it lies in what tools make (node_modules, build).
func (c *classifier) overManifest(sc *scope, a arg, truncating bool) string {
	if !truncating || !a.ok || sc.remote {
		return ""
	}
	t := c.resolve(sc, a)
	if t.path == "" || t.children || !isUnder(t.path, c.project) || !manifestFile(path.Base(t.path)) {
		return ""
	}
	dir := strings.TrimPrefix(strings.TrimPrefix(path.Dir(t.path), c.project), "/")
	if dir != "" && c.madePath(dir) || c.makesProject(dir) || missingGuard(c.whole, a.s) || newFile(t.path) {
		return ""
	}
	return "writes over the project's manifest, losing the dependencies and settings it lists: " + c.show(t)
}

// manifestFile reports whether a file's name is a project's manifest,
// which lists its dependencies, scripts and build settings.
func manifestFile(base string) bool {
	switch base {
	case "package.json", "pyproject.toml", "Cargo.toml", "go.mod", "Gemfile", "pom.xml", "composer.json",
		"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "Pipfile", "setup.cfg",
		"setup.py", "requirements.txt", "mix.exs", "Package.swift", "pubspec.yaml", "deno.json", "build.sbt",
		"project.clj", "deps.edn", "environment.yml", "Project.toml", "DESCRIPTION", "stack.yaml", "dune-project":
		return true
	}
	return strings.HasSuffix(base, ".csproj") || strings.HasSuffix(base, ".fsproj") || strings.HasSuffix(base, ".gemspec") || strings.HasSuffix(base, ".cabal")
}

// projectMakers are the words that make a project or the directory it
// is in: mkdir, a package manager's init or new, a framework's
// generator.
var projectMakers = map[string]bool{"mkdir": true, "init": true, "new": true, "create": true, "startproject": true, "startapp": true, "generate": true, "scaffold": true}

// makesProject reports whether the command makes the project in dir (a
// path from the root of the working tree, "" for the root itself): an
// init or new run for the root (npm init -y, git init, cargo init), or
// a maker given dir or its first directory (mkdir -p app/src, cargo new
// app, npm create vite@latest app).
func (c *classifier) makesProject(dir string) bool {
	first, _, _ := strings.Cut(dir, "/")
	for _, line := range strings.FieldsFunc(c.whole, func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '\n' || r == '(' || r == ')' }) {
		words := strings.Fields(line)
		for i, w := range words {
			if !projectMakers[w] || i == 0 && w != "mkdir" {
				continue
			}
			if dir == "" && w == "init" {
				return true // npm init -y, git init, cargo init, go mod init example.com/x
			}
			for _, op := range words[i+1:] {
				op = strings.Trim(op, `"'`)
				if op != "." && op != "./" {
					op = strings.TrimSuffix(strings.TrimPrefix(op, "./"), "/")
				} else {
					op = "" // npm create vite@latest .
				}
				if op == dir || dir != "" && op == first {
					return true
				}
			}
		}
	}
	return false
}

// writesText reports whether st writes out text of its own, not a
// file's or a program's output: echo or printf, or cat given no file
// (a heredoc, a here-string).
func writesText(st *syntax.Stmt) bool {
	if echoes(st) {
		return true
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	words := make([]string, 0, len(ce.Args))
	for _, w := range ce.Args {
		words = append(words, litOf(w))
	}
	for len(words) > 1 && (isWrapperWord(words[0]) || strings.Trim(words[0], "0123456789") == "") {
		words = words[1:]
	}
	return len(words) == 1 && words[0] == "cat"
}

// ciConfig reports whether p is a CI service's configuration, whose jobs
// run with the repository's secrets once it is pushed: GitHub's
// workflows, GitLab's, CircleCI's, Bitbucket's, Azure's, Travis',
// Drone's, Woodpecker's, Buildkite's pipelines.
func ciConfig(p string) bool {
	base, dir := path.Base(p), path.Base(path.Dir(p))
	yml := strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")
	switch {
	case yml && dir == "workflows" && path.Base(path.Dir(path.Dir(p))) == ".github",
		yml && (dir == ".circleci" || dir == ".buildkite" || dir == ".woodpecker" || dir == ".gitea" || dir == ".forgejo"):
		return true
	}
	switch base {
	case ".gitlab-ci.yml", "bitbucket-pipelines.yml", "azure-pipelines.yml", ".travis.yml", ".drone.yml", ".woodpecker.yml", "cloudbuild.yaml", "cloudbuild.yml":
		return true
	}
	return false
}

// ciSecretRef is a CI expression that reads a secret: GitHub's ${{
// secrets.X }} and ${{ secrets['X'] }}; ciAllSecrets is one that takes
// them all (toJSON(secrets)), ciSecretEnv a variable a step's env: sets
// from one (DB_URL: ${{ secrets.PROD_DB_URL }}), its name in group 1.
var (
	ciSecretRef  = lazyRE(`\$\{\{[^}]*\bsecrets\s*[.\[]`)
	ciAllSecrets = lazyRE(`(?i)\$\{\{[^}]*\btoJSON\s*\(\s*secrets\s*\)`)
	ciSecretEnv  = lazyRE(`(?m)^\s*([A-Za-z_]\w*)\s*:\s*['"]?\$\{\{[^}]*\bsecrets\s*[.\[]`)
	// ciUnmask is a filter that rewrites what it is given so that the
	// CI service's log masking no longer recognises it: an encoder (base64
	// without -d, xxd, od, hexdump, rev), or sed spacing its characters.
	ciUnmask = lazyRE(`\|\s*(?:base64|base32|basenc|xxd|od|hexdump|rev|openssl\s+(?:base64|enc)|sed\s+-?\w*\s*['"]?s/\.?\\?\(?\.|fold\b|tr\b)([^|>;&\n]*)`)
	// ciEnvDump prints the whole environment, the secrets a step was given
	// among it, through such a filter.
	ciEnvDump = lazyRE(`(?:^|[\s;&|(])(?:env|printenv|set|export\s+-p)\s*\|\s*(?:base64|base32|xxd|od|hexdump|rev)\b`)
)

// ciSecretLeak says how CI configuration text shows the repository's
// secrets where they can be read, as words for a reason, or "": a step
// printing them all (toJSON(secrets)), or printing one, or the
// environment a step was given one in, through a filter that gets it
// past the log's masking (echo "${{ secrets.X }}" | base64). Decoding a
// secret into a file (| base64 -d > key.p12) or handing it to a program
// (| docker login --password-stdin) shows nothing.
func ciSecretLeak(text string) string {
	if m := ciAllSecrets.FindString(text); m != "" {
		return "prints every secret of the repository: " + cutText(m+" }}")
	}
	var names []string
	for _, m := range ciSecretEnv.FindAllStringSubmatch(text, 16) {
		names = append(names, m[1])
	}
	for line := range strings.SplitSeq(text, "\n") {
		if !strings.Contains(line, "|") {
			continue
		}
		secret := ciSecretRef.MatchString(line)
		for _, n := range names {
			secret = secret || strings.Contains(line, "${"+n+"}") || strings.Contains(line, "${{ env."+n) || namesVar(line, n)
		}
		if !secret && !ciEnvDump.MatchString(line) {
			continue
		}
		for _, m := range ciUnmask.FindAllStringSubmatch(line, 4) {
			rest := m[1]
			if strings.Contains(m[0], "base") && (strings.Contains(rest, "-d") || strings.Contains(rest, "-D") || strings.Contains(rest, "--decode")) {
				continue // base64 -d: a secret kept encoded, decoded
			}
			if after := line[strings.Index(line, m[0])+len(m[0]):]; strings.Contains(after, ">") && !strings.Contains(after, "GITHUB_OUTPUT") && !strings.Contains(after, "GITHUB_STEP_SUMMARY") || strings.HasPrefix(strings.TrimSpace(after), "|") {
				continue // written to a file, or handed on to another program
			}
			filter := strings.Fields(strings.TrimLeft(m[0], "| \t"))[0]
			what := "a secret"
			if !secret {
				what = "the environment, the secrets it was given among it,"
			}
			return "prints " + what + " through " + filter + ", past the log's masking: " + cutText(strings.TrimSpace(line))
		}
	}
	return ""
}

// namesVar reports whether a shell line expands the variable name as $name.
func namesVar(line, name string) bool {
	for i := strings.Index(line, "$"+name); i >= 0; {
		end := i + 1 + len(name)
		if end == len(line) || !identChar(line[end]) || line[end] == '-' || line[end] == ':' || line[end] == '!' {
			return true
		}
		j := strings.Index(line[end:], "$"+name)
		if j < 0 {
			return false
		}
		i = end + j
	}
	return false
}
