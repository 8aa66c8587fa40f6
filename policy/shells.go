package policy

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellCmd handles bash, sh, zsh …: -c code is re-parsed; with neither -c
// nor a script file the shell runs its stdin, which is judged by where it
// comes from (curl | sh runs downloaded code).
func shellCmd(iv *inv) {
	iv.flag(Write, "")
	args := iv.args
	code, script := false, -1
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			script = i
			break
		}
		s := a.s
		if s == "--" || s == "-" {
			if i+1 < len(args) && !code {
				script = i + 1
			}
			break
		}
		if name, v, eq := strings.Cut(s, "="); name == "--rcfile" || name == "--init-file" {
			f := arg{s: v, ok: eq, src: v}
			if !eq && i+1 < len(args) { // bash --rcfile FILE -c …: FILE is read first, and is not the script
				i++
				f = args[i]
			}
			iv.startupFile(f)
			continue
		}
		if strings.HasPrefix(s, "--") {
			continue // --norc, --login, --posix …
		}
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
			if strings.Contains(s[1:], "c") {
				code = true
			}
			if strings.HasPrefix(s, "-") && (strings.Contains(s, "x") || strings.ContainsAny(s[1:], "o") && i+1 < len(args) && args[i+1].s == "xtrace") {
				traced := *iv.sc // bash -x: the code runs with the trace on
				traced.xtrace = true
				iv.sc = &traced
			}
			if strings.Contains(s[1:], "s") && !code { // -s: commands from stdin; the words after are its arguments
				iv.runStdin(func(code arg) { iv.shell(code, iv.sc) }, "commands")
				return
			}
			if strings.ContainsAny(s[1:], "oO") {
				i++ // -o option / -O shopt take a value
			}
			continue
		}
		script = i
		break
	}
	switch {
	case code:
		if script < 0 {
			iv.flag(Unparseable, iv.name+" -c without code")
			return
		}
		iv.shell(bindPositional(args[script], args[script+1:]), iv.sc)
	case script >= 0 && iv.procScript(args[script]):
	case script >= 0 && !args[script].ok:
		iv.flag(Unparseable, iv.name+" runs a script whose name is computed at run time: "+args[script].shown())
	case script >= 0 && (args[script].s == "/dev/stdin" || args[script].s == "/proc/self/fd/0" || args[script].s == "/dev/fd/0"):
		iv.runStdin(func(code arg) { iv.shell(code, iv.sc) }, "commands")
	case script >= 0:
		// A local script file: ordinary work, Write, unless this command
		// wrote it, or it is one no one here can have looked at.
		if !iv.runsWritten(args[script], func(code arg) { iv.shell(code, iv.sc) }) {
			iv.unseenScript(args[script])
			iv.destroyingScript(args[script], args[script+1:])
		}
	default:
		iv.runStdin(func(code arg) { iv.shell(code, iv.sc) }, "commands")
	}
}

// procScript judges a script a shell runs or sources from <(…) whose
// output is known text (bash <(echo 'go test')): that is the code it runs.
// It reports whether it judged a.
func (iv *inv) procScript(a arg) bool {
	if a.ok || !strings.HasPrefix(a.src, "<(") {
		return false
	}
	out, ok := iv.c.procOut[a.src]
	switch {
	case ok && out.kind == srcText:
		iv.shell(arg{s: out.text, ok: true, src: out.text}, iv.sc)
	default:
		return false
	}
	return true
}

// startupFile judges a file a shell reads before its commands (--rcfile,
// --init-file): code this command wrote is judged by its text, one in a
// temp dir it did not write is held, as a script would be.
func (iv *inv) startupFile(f arg) {
	if f.ok && f.s != "/dev/null" && !iv.runsWritten(f, func(code arg) { iv.shell(code, iv.sc) }) {
		iv.unseenScript(f)
	}
}

// runStdin judges a command that executes its stdin as code; run handles
// known text.
func (iv *inv) runStdin(run func(code arg), what string) {
	switch iv.in.kind {
	case srcText:
		run(arg{s: iv.in.text, ok: true, src: iv.in.text})
	case srcDownload:
		iv.flag(Destructive, iv.name+" runs downloaded code (… | "+iv.name+")")
	case srcSecret, srcPipe:
		iv.flag(Unparseable, iv.name+" runs "+what+" read from a pipe")
	}
}

// eval re-parses its arguments joined with spaces, in the current shell:
// a cd inside it moves the commands after it (eval 'cd /'; rm -rf usr).
func eval(iv *inv) {
	code := joinRest(iv.rest(1))
	if !code.ok && (strings.Contains(code.src, "curl") || strings.Contains(code.src, "wget")) {
		iv.flag(Destructive, "eval runs downloaded code")
	}
	if !code.ok && iv.projectExports(code.src) {
		iv.flag(Write, "") // eval "$(jq -r '… "export \(.key)=…"' config/dev.json)"
		return
	}
	if !code.ok && iv.envSetup(code.src) {
		iv.flag(Write, "") // eval "$(ssh-agent -s)"
		return
	}
	iv.sc.cwd = iv.shell(code, iv.sc)
}

// envSetup reports whether eval is given the output of an installed
// tool's own environment emitter, which prints the settings for this
// shell to take up (eval "$(ssh-agent -s)", eval "$(pyenv init -)", eval
// "$(brew shellenv)"): ordinary shell setup, code from a known program
// found on the PATH or in a system directory, not anything the command
// computes or downloads. Not when this command could have put another
// program under that name first: it sets PATH, defines a function or
// alias of that name, or writes or links a file so named. The emitter
// itself is judged where it runs, as a command of its own.
func (iv *inv) envSetup(src string) bool {
	inner := strings.Trim(src, `"`)
	if body, ok := strings.CutPrefix(inner, "$("); ok && strings.HasSuffix(body, ")") {
		inner = strings.TrimSuffix(body, ")")
	} else if body, ok := strings.CutPrefix(src, "<("); ok && strings.HasSuffix(body, ")") {
		inner = strings.TrimSuffix(body, ")") // source <(kubectl completion bash)
	} else if len(inner) > 2 && inner[0] == '`' && strings.IndexByte(inner[1:], '`') == len(inner)-2 {
		inner = inner[1 : len(inner)-1] // eval `ssh-agent -s`
	} else {
		return false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(inner), "")
	if err != nil || len(f.Stmts) != 1 || !quietRedirs(f.Stmts[0].Redirs) {
		return false
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) != 0 || len(ce.Args) == 0 {
		return false
	}
	words, ok := plainWords(ce.Args)
	if !ok {
		return false
	}
	name := path.Base(words[0])
	emits, known := envEmitters[name]
	if known && !emits(words[1:]) || !known && !completionArgs(name, words[1:]) {
		return false
	}
	if dir := path.Dir(words[0]); strings.Contains(words[0], "/") && !isSystemPath(dir) && dir != "/home/linuxbrew/.linuxbrew/bin" {
		return false // a program in a place anyone may have put it
	}
	if iv.c.mentions("PATH=") || regexp.MustCompile(`(?:^|[\s;&|(])(?:function\s+)?`+regexp.QuoteMeta(name)+`\s*\(\)|alias\s+`+regexp.QuoteMeta(name)+`=`).MatchString(iv.c.whole) {
		return false
	}
	for p := range iv.c.written {
		if path.Base(p) == name {
			return false
		}
	}
	for p := range iv.c.links {
		if path.Base(p) == name {
			return false
		}
	}
	return true
}

// quietRedirs reports whether an emitter's redirections only silence its
// errors (2>/dev/null).
func quietRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.N == nil || r.N.Value != "2" || r.Op != syntax.RdrOut && r.Op != syntax.AppOut || r.Word == nil || r.Word.Lit() != "/dev/null" {
			return false
		}
	}
	return true
}

// completionArgs reports whether args ask the program name for its own
// shell completion script, which the shell is meant to source or eval
// (kubectl completion bash, gh completion -s zsh, rustup completions bash
// cargo, uv generate-shell-completion fish, just --completions zsh, pip
// completion --bash, npm completion): subcommand words, then a word
// naming completion, then only shell names, options and plain words. Not
// for a program that prints or runs what it is given (cat completion, sh
// completion, curl completion), where the word is a file or a host.
func completionArgs(name string, args []string) bool {
	if completionRelays[name] || shells[name] || slices.Contains(readOnlyTools, name) || codeInterp.MatchString(name) {
		return false
	}
	seen := false
	for _, w := range args {
		bare, val, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
		switch {
		case !seen && (bare == "completion" || bare == "completions" || strings.HasSuffix(bare, "-completion") || strings.HasSuffix(bare, "-completions")):
			seen = true
			if val != "" && !shellName(val) && val != "powershell" && val != "pwsh" && val != "elvish" && val != "nushell" {
				return false
			}
		case !completionWord.MatchString(w), !seen && strings.HasPrefix(w, "-"):
			return false
		}
	}
	return seen
}

// completionWord is a plain word among a completion command's arguments:
// a subcommand, a shell's name, an option.
var completionWord = lazyRE(`^-{0,2}[A-Za-z0-9][A-Za-z0-9_.-]*(?:=[A-Za-z0-9_.-]+)?$`)

// completionRelays print or run what they are given rather than a script
// of their own.
var completionRelays = setOf("echo", "printf", "cat", "tac", "base64", "xxd", "tee", "sed", "awk", "gawk", "tr", "rev",
	"env", "sudo", "doas", "xargs", "nc", "ncat", "socat", "busybox", "eval", "source", "exec", "command", "builtin",
	"npx", "bunx", "pnpx", "uvx", "pipx", "dlx", "deno", "bun", "node", "php", "lua", "java", "dotnet", "docker", "podman", "ssh",
	"curl", "wget", "http", "https", "xh", "aria2c", "lynx", "w3m", "httpie", "fetch", "open", "xdg-open")

// envEmitters are the tools whose output is this shell's settings, meant
// for eval, and the arguments with which they print them.
var envEmitters = map[string]func(args []string) bool{
	"ssh-agent": func(a []string) bool { return allIn(a, "-s", "-c") },
	"gpg-agent": func(a []string) bool {
		return contains(a, "--daemon") && allIn(a, "--daemon", "--sh", "-s", "--csh", "-c", "-q", "--quiet")
	},
	"direnv": func(a []string) bool { return len(a) == 2 && (a[0] == "export" || a[0] == "hook") && shellName(a[1]) },
	"opam": func(a []string) bool {
		return at(a, 0) == "env" && optionsOnly(a[1:]) || at(a, 0) == "config" && at(a, 1) == "env" && optionsOnly(a[2:])
	},
	"pyenv": func(a []string) bool {
		return (at(a, 0) == "init" || at(a, 0) == "virtualenv-init") && shellArgs(a[1:])
	},
	"rbenv": func(a []string) bool { return at(a, 0) == "init" && shellArgs(a[1:]) },
	"brew":  func(a []string) bool { return at(a, 0) == "shellenv" && shellArgs(a[1:]) },
	"starship": func(a []string) bool {
		return at(a, 0) == "init" && len(a) > 1 && shellName(a[1]) && optionsOnly(a[2:])
	},
	"zoxide": func(a []string) bool {
		return at(a, 0) == "init" && len(a) > 1 && shellName(a[1]) && optionsOnly(a[2:])
	},
	"fnm":  func(a []string) bool { return at(a, 0) == "env" && optionsOnly(a[1:]) },
	"mise": func(a []string) bool { return (at(a, 0) == "activate" || at(a, 0) == "env") && shellArgs(a[1:]) },
	"conda": func(a []string) bool {
		return len(a) == 2 && strings.HasPrefix(a[0], "shell.") && shellName(strings.TrimPrefix(a[0], "shell.")) && a[1] == "hook"
	},
	"micromamba": func(a []string) bool {
		return at(a, 0) == "shell" && at(a, 1) == "hook" && optionsOnly(a[2:])
	},
}

// shellName is the name of a shell an emitter writes for.
func shellName(s string) bool {
	switch s {
	case "bash", "zsh", "sh", "fish", "posix", "ksh", "dash":
		return true
	}
	return false
}

// shellArgs are an emitter's arguments that only say which shell to write
// for: -, a shell's name, options.
func shellArgs(a []string) bool {
	for _, w := range a {
		if w != "-" && !shellName(w) && !strings.HasPrefix(w, "-") {
			return false
		}
	}
	return true
}

// optionsOnly reports whether every word is an option or a plain value of
// one: --use-on-cd, --shell bash, --switch=default, --cmd cd.
func optionsOnly(a []string) bool {
	for i, w := range a {
		if !strings.HasPrefix(w, "-") && (i == 0 || !strings.HasPrefix(a[i-1], "-") || strings.Contains(a[i-1], "=")) {
			return false
		}
	}
	return true
}

// allIn reports whether every word of a is one of set.
func allIn(a []string, set ...string) bool {
	for _, w := range a {
		if !contains(set, w) {
			return false
		}
	}
	return true
}

// projectExports reports whether eval is given the output of one
// read-only data tool (jq or yq -r, node -p) whose program builds export
// statements from files of the working directory: what it runs is
// assignments made from the project's own files, as trusted as the
// project's scripts, which tend runs (npm run, make) unheld. The tool
// itself is judged where it runs, as a command of its own.
func (iv *inv) projectExports(src string) bool {
	inner, ok := strings.CutPrefix(strings.Trim(src, `"`), "$(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(strings.TrimSuffix(inner, ")")), "")
	if err != nil || len(f.Stmts) != 1 || len(f.Stmts[0].Redirs) != 0 {
		return false
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) != 0 {
		return false
	}
	var words []string
	for _, w := range ce.Args {
		lit, ok := plainWord(w)
		if dq, isDq := w.Parts[0].(*syntax.DblQuoted); !ok && isDq && len(w.Parts) == 1 && len(dq.Parts) == 1 {
			if l, isLit := dq.Parts[0].(*syntax.Lit); isLit && !strings.ContainsAny(l.Value, "\\$`") {
				lit, ok = l.Value, true // node -p "'export V=' + …": no expansion in it
			}
		}
		if !ok {
			return false
		}
		words = append(words, lit)
	}
	if len(words) < 3 {
		return false
	}
	var program string
	var files []string
	switch words[0] {
	case "jq", "gojq", "yq":
		if !contains(words, "-r") && !contains(words, "--raw-output") {
			return false
		}
		for _, w := range words[1:] {
			switch {
			case strings.HasPrefix(w, "-"):
			case program == "":
				program = w
			default:
				files = append(files, w)
			}
		}
		if len(files) == 0 {
			return false // it would read the agent's stdin
		}
	case "node", "nodejs":
		if words[1] != "-p" && words[1] != "--print" || len(words) != 3 {
			return false
		}
		program = words[2]
		for _, m := range requiredFile.FindAllStringSubmatch(program, 4) {
			files = append(files, m[1])
		}
		if strings.Count(program, "require(") != len(files) || strings.Contains(program, "process") || strings.Contains(program, "child") {
			return false
		}
	default:
		return false
	}
	if !exportBuilt.MatchString(program) {
		return false
	}
	for _, file := range files {
		t := iv.c.resolve(iv.sc, arg{s: file, ok: true, src: file})
		if t.path == "" || t.children || !isUnder(t.path, iv.c.project) || !iv.c.trustedProject() || isSecretPath(t.path) {
			return false
		}
		if _, wrote := iv.c.written[t.path]; wrote {
			return false // written by this command: not the project's as it stands
		}
	}
	return true
}

// exportBuilt is a program's literal text that starts an export
// statement: "export \(.key)=…", 'export VERSION=' + ….
var exportBuilt = lazyRE(`["']export [A-Za-z_\\(]`)

// requiredFile is a file of the working directory a node program loads by
// a relative name: require('./package.json').
var requiredFile = lazyRE(`require\(\s*['"](\./[^'"]+)['"]\s*\)`)

// source runs a file in the current shell.
func source_(iv *inv) {
	iv.flag(Write, "")
	if len(iv.args) < 2 {
		return
	}
	a := iv.args[1]
	switch {
	case !a.ok && strings.HasPrefix(a.src, "<(") && iv.envSetup(a.src):
		// source <(kubectl completion bash): the tool's own completion script
	case iv.procScript(a):
	case !a.ok:
		iv.flag(Unparseable, iv.name+" of a file computed at run time: "+a.shown())
	case a.s == "/dev/stdin" || a.s == "-":
		iv.runStdin(func(code arg) { iv.shell(code, iv.sc) }, "commands")
	default:
		iv.runsWritten(a, func(code arg) { iv.shell(code, iv.sc) })
	}
}

// trap installs code that runs later, on a signal or at exit.
func trap(iv *inv) {
	args := iv.rest(1)
	if len(args) == 0 || (args[0].ok && (args[0].s == "-p" || args[0].s == "-l")) {
		return
	}
	iv.flag(Write, "")
	if args[0].ok && args[0].s == "--" {
		args = args[1:]
	}
	if len(args) < 2 || (args[0].ok && (args[0].s == "-" || args[0].s == "")) {
		return // resets handlers
	}
	code := args[0]
	if src := code.src; !code.ok && len(src) > 1 && src[0] == '"' && src[len(src)-1] == '"' && !strings.ContainsAny(src, "`") && !strings.Contains(src, "$(") {
		// trap "kill $server" EXIT: the variables are filled in now; the
		// code is judged as written, each variable by what set it.
		code = arg{s: src[1 : len(src)-1], ok: true, src: src[1 : len(src)-1]}
	}
	iv.shell(code, iv.sc)
}

// alias name=value defines code that runs when name is typed.
func alias(iv *inv) {
	for _, a := range iv.rest(1) {
		if !a.ok {
			iv.flag(Unparseable, "alias computed at run time: "+a.shown())
			continue
		}
		if name, val, ok := strings.Cut(a.s, "="); ok {
			iv.flag(Write, "")
			iv.shell(arg{s: val, ok: true, src: val}, iv.sc)
			if iv.c.aliases == nil {
				iv.c.aliases = map[string]string{}
			}
			iv.c.aliases[name] = val
		}
	}
}

// ssh runs its trailing words as a shell command on another host, where
// no path is inside our project.
func ssh(iv *inv) {
	iv.flag(Write, "")
	i := skipOpts(iv.args, "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m",
		"-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B")
	if iv.in.kind == srcSecret {
		iv.flag(Destructive, "sends the environment or a secrets file over the network"+dumpNote(iv.in))
	}
	for j, a := range iv.args[1:min(i, len(iv.args))] {
		switch {
		case a.ok && (a.s == "-R" || strings.HasPrefix(a.s, "-R") || strings.HasPrefix(a.s, "-oRemoteForward") || a.s == "RemoteForward" || strings.HasPrefix(a.s, "RemoteForward")):
			spec := a.s
			if a.s == "-R" && j+2 < len(iv.args) {
				spec = iv.args[j+2].s
			}
			why := "ssh -R exposes a service of this machine on another host: " + spec
			if strings.HasPrefix(strings.TrimPrefix(spec, "-R"), "0.0.0.0:") || strings.HasPrefix(strings.TrimPrefix(spec, "-R"), "*:") {
				why += ", to anyone who can reach that host"
			}
			iv.flag(Destructive, why)
		case a.ok && sshForward.MatchString(a.s): // -L, -D, -fNL
			iv.c.tunnel = true // loopback now reaches the other end
		}
	}
	if hasFlag(iv.args[1:min(i, len(iv.args))], "A") || hasWord(iv.args, "ForwardAgent=yes") {
		iv.flag(Destructive, "ssh -A lends the host your ssh agent: it can log in wherever your keys can")
	}
	if i+1 >= len(iv.args) { // a login shell there, reading this stdin
		if iv.in.kind == srcText {
			iv.shell(arg{s: iv.in.text, ok: true, src: iv.in.text}, remote(iv.sc))
		}
		return
	}
	cmd := joinRest(iv.args[i+1:])
	if cmd.ok && iv.in.kind == srcText && (cmd.s == "bash -s" || cmd.s == "sh -s" || cmd.s == "bash" || cmd.s == "sh") {
		iv.shell(arg{s: iv.in.text, ok: true, src: iv.in.text}, remote(iv.sc)) // ssh host 'bash -s' <<< code
	}
	iv.shell(cmd, remote(iv.sc))
}

// sshClients take ssh's -o options and -F config file.
var sshClients = map[string]bool{"ssh": true, "scp": true, "sftp": true, "autossh": true, "ssh-copy-id": true, "sshfs": true}

// sshCodeKeys are ssh options whose value is a shell command run on this
// machine (ProxyCommand, LocalCommand, KnownHostsCommand) or, for
// RemoteCommand, on the host.
var sshCodeKeys = map[string]bool{"proxycommand": true, "localcommand": true, "knownhostscommand": true, "remotecommand": true}

// sshOptions judges the commands an ssh client's options make it run: -o
// Key=Value, -oKey=Value, -o 'Key Value', and the lines of a -F config
// file this command wrote, as the shell code they are.
func sshOptions(iv *inv) {
	if !sshClients[iv.name] {
		return
	}
	setting := func(kv string, file bool) {
		kv = strings.TrimSpace(kv)
		key, val, ok := strings.Cut(kv, "=")
		if k, v, sp := strings.Cut(kv, " "); sp && (!ok || len(k) < len(key)) {
			key, val, ok = k, v, true
		}
		if !ok || !sshCodeKeys[strings.ToLower(strings.TrimSpace(key))] || strings.HasPrefix(kv, "ProxyCommand=") && !file {
			return // a word ProxyCommand=… is an escape every tool's words are read for (embedded)
		}
		val = strings.TrimSpace(val)
		if val == "none" {
			return
		}
		sc := iv.sc
		if strings.EqualFold(strings.TrimSpace(key), "RemoteCommand") {
			sc = remote(iv.sc)
		}
		iv.shell(arg{s: val, ok: true, src: val}, sc)
	}
	args := iv.rest(1)
	for i, a := range args {
		if !a.ok || a.s == "--" {
			if a.ok {
				return
			}
			continue
		}
		var v string
		switch {
		case (a.s == "-o" || a.s == "-F") && i+1 < len(args) && args[i+1].ok:
			v = args[i+1].s
		case strings.HasPrefix(a.s, "-o") || strings.HasPrefix(a.s, "-F"):
			v = a.s[2:]
			if strings.HasPrefix(v, "ProxyCommand=") {
				v = "ProxyCommand " + v[len("ProxyCommand="):] // not an escape when attached: -oProxyCommand=…
			}
		default:
			continue
		}
		if strings.HasPrefix(a.s, "-o") {
			setting(v, false)
		} else if src, ok := iv.c.written[iv.c.resolve(iv.sc, arg{s: v, ok: true, src: v}).path]; ok && src.kind == srcText {
			for line := range strings.SplitSeq(src.text, "\n") {
				setting(line, true)
			}
		}
	}
}

// remote is a scope on another machine: cwd is its home, and nothing
// there is our project.
func remote(sc *scope) *scope {
	s := sc.sub()
	s.remote, s.localContainer = true, false
	s.cwd = remoteHome
	return s
}

// atCmd (at, batch) runs later, unwatched, the commands it reads from its
// stdin or -f file: scheduling them is held, and they are classified too.
func atCmd(iv *inv) {
	iv.flag(Write, "")
	defer func() {
		if iv.c.cmds[iv.idx].Class == Write {
			iv.flag(Destructive, iv.name+" schedules commands to run later, with no one watching")
		}
	}()
	for _, a := range iv.rest(1) {
		if a.ok && (a.s == "-l" || a.s == "-c" || a.s == "-r" || a.s == "-d") {
			return // lists, shows or removes jobs
		}
	}
	iv.runStdin(func(code arg) { iv.shell(code, iv.sc) }, "commands")
}

// unseenScript holds running a script this command did not write that no
// one here can have looked at: a pattern of files (find /tmp -name 'job*.sh'
// -exec bash {} \;) but the project's own (ownScripts), or a file in a
// temp dir, where anyone may put one.
func (iv *inv) unseenScript(file arg) {
	t := iv.c.resolve(iv.sc, file)
	switch {
	case strings.ContainsAny(file.s, "*?[") && iv.ownScripts(file):
		// for f in tests/e2e/*.sh; do bash "$f"; done: as bash tests/e2e/run.sh
	case strings.ContainsAny(file.s, "*?["):
		iv.flag(Unparseable, iv.name+" runs every script matching "+file.s+", unseen")
	case t.path != "" && iv.c.inTemp(t.path):
		iv.flag(Unparseable, iv.name+" runs a script from a temp dir that this command did not write: "+iv.c.show(t))
	}
}

// ownScripts reports whether a pattern of scripts picks the project's
// own, as a script named in the tree is (bash tests/e2e/run.sh): the
// pattern only in its last name (tests/e2e/*.sh), in a directory of the
// working tree that tools do not make (not node_modules/*/install.sh,
// .git/hooks/*), and that nothing this command wrote, downloaded or
// unpacked lies in or holds.
func (iv *inv) ownScripts(file arg) bool {
	dir := path.Dir(file.s)
	if !file.ok || iv.sc.remote || strings.ContainsAny(dir, "*?[") || !iv.c.trustedProject() {
		return false
	}
	d := iv.c.resolve(iv.sc, arg{s: dir, ok: true, src: dir}).path
	if d == "" || d != iv.c.project && !isUnder(d, iv.c.project) || iv.c.inTemp(d) {
		return false
	}
	if rel := strings.TrimPrefix(d, iv.c.project+"/"); d != iv.c.project && iv.c.madePath(rel) {
		return false
	}
	for w := range iv.c.written {
		if w == d || isUnder(w, d) || isUnder(d, w) {
			return false
		}
	}
	return true
}

// ed runs the shell commands its script gives after "!", and edits the
// file it is given in place unless its script is known not to write (w).
func ed(iv *inv) {
	iv.flag(Write, "")
	if _, ops := opts(iv.rest(1)); len(ops) > 0 && (iv.in.kind != srcText || edWrites.MatchString(iv.in.text)) {
		iv.inPlace(ops[:1])
		if t := iv.c.resolve(iv.sc, ops[0]); iv.in.kind == srcText && edEmpties.MatchString(iv.in.text) && ops[0].ok {
			if own := iv.c.emptied(t, ops[0].s); own != "" { // ed -s src/app.py <<< $',d\nw'
				iv.flagWrite(t, iv.name+" deletes every line of "+own+" and writes it: "+iv.c.show(t))
			}
		}
	}
	if iv.in.kind != srcText {
		return
	}
	for line := range strings.SplitSeq(iv.in.text, "\n") {
		if code, ok := strings.CutPrefix(strings.TrimSpace(line), "!"); ok {
			iv.shell(arg{s: code, ok: true, src: code}, iv.sc)
		}
	}
}

// edEmpties is an ed or ex command that deletes every line: ,d, 1,$d,
// %delete, g/^/d (every line matches ^, .*, and . every line with text).
var edEmpties = lazyRE(`(?m)^\s*(?:,|%|1,\$|%?g/(?:\^|\.\*|\.|\^\.\*\$?)/)\s*d(?:e|el|ele|elet|elete)?\s*$`)

// edWrites is an ed command that writes the file: w, wq, or x, after an
// optional range.
var edWrites = lazyRE(`(?m)^\s*[\d,.$]*(?:w|wq|x)\b`)

// bindPositional puts the arguments after sh -c's code where the code
// reads them: sh -c ': > "$1"' _ {} truncates what {} names. The first
// is $0; "$@" and $* are all the rest, and so is the list of a for loop
// that has none (for f; do). A parameter whose value is not
// known, or whose text would mean something else inside the code (a quote,
// a $), is left for the code to read as unknown, as before.
func bindPositional(code arg, params []arg) arg {
	if !code.ok || len(params) == 0 || !strings.Contains(code.s, "$") {
		return code
	}
	value := func(name byte, quoted bool) (string, bool) {
		var vals []arg
		switch {
		case name == '@' || name == '*':
			vals = params[1:]
		case int(name-'0') < len(params):
			vals = params[name-'0' : name-'0'+1]
		default:
			return "", false
		}
		out := make([]string, 0, len(vals))
		for _, v := range vals {
			if !v.ok || strings.ContainsAny(v.s, "\"'`$\\") {
				return "", false
			}
			out = append(out, v.s)
		}
		if name == '@' && quoted { // "$@": a word for each, as "$1" "$2" … are
			return strings.Join(out, `" "`), true
		}
		return strings.Join(out, " "), true
	}
	var b strings.Builder
	s, quoted := forEachParam.ReplaceAllString(code.s, `${1}for $2 in "$$@"; do`), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' && !quoted:
			if j := strings.IndexByte(s[i+1:], '\''); j >= 0 { // '…': nothing in it is expanded
				b.WriteString(s[i : i+j+2])
				i += j + 1
				continue
			}
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i++
			continue
		case c == '$' && i+1 < len(s):
			name, n := s[i+1], 2
			if name == '{' && i+3 < len(s) && s[i+3] == '}' {
				name, n = s[i+2], 4
			}
			if name >= '0' && name <= '9' || name == '@' || name == '*' {
				if v, ok := value(name, quoted); ok {
					b.WriteString(v)
					i += n - 1
					continue
				}
			}
		}
		b.WriteByte(c)
	}
	return arg{s: b.String(), ok: true, src: code.src}
}

// forEachParam is a for loop without a list (for f; do, for f do), which
// runs over the positional parameters as for f in "$@" does.
var forEachParam = lazyRE(`(^|[;&|(){}\s])for\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:;\s*|\n\s*|\s)do\b`)

// unset removes the shell's own variables or functions: it prints
// nothing, and the commands after it see less, not more.
func unset(iv *inv) {
	iv.flag(Write, "")
}

// cmdExe is Windows's cmd.exe, run from WSL: the code after /c (or /k)
// runs in a Windows directory (cmd.exe cannot start in the WSL tree, so
// it falls back to C:\Windows), so every file it deletes is Windows's,
// none of the working tree's; and it changes the machine with
// Windows's own tools (format, reg, taskkill, shutdown …). Its language
// (%VAR% expansion, ^ escapes, for, if, call, redirections) is not one
// tend reads, so only a plain command of cmdReads is judged; any other
// is held as code tend cannot read. A reader given a secrets file of
// the Windows user (%USERPROFILE%\.aws\credentials, C:\Users\me\.ssh\id_rsa)
// prints it, and set without a value every environment variable.
func cmdExe(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	var code, raw []string
	for i, a := range args {
		if a.ok && (strings.EqualFold(a.s, "/c") || strings.EqualFold(a.s, "/k") || strings.EqualFold(a.s, "/r")) { // cmd /?: /R is the same as /C
			for _, b := range args[i+1:] {
				if !b.ok {
					iv.flag(Unparseable, "cmd.exe runs a command computed at run time: "+b.shown())
					return
				}
			}
			code = strs0(args[i+1:])
			for _, b := range args[i+1:] {
				raw = append(raw, strings.NewReplacer(`'`, "", `"`, "").Replace(b.src))
			}
			break
		}
	}
	// The words as written, before bash took the backslashes out of
	// %USERPROFILE%\.aws\credentials, and as cmd.exe is given them.
	rawParts := cmdSeparators.Split(strings.Join(raw, " "), 16)
	cwd := "" // where an earlier cd of the same line went (cd /d %USERPROFILE%\.aws && type credentials)
	for k, part := range cmdSeparators.Split(strings.Join(code, " "), 16) {
		f := strings.Fields(strings.TrimLeft(strings.TrimSpace(part), "@"))
		if len(f) == 0 {
			continue
		}
		verb := strings.TrimSuffix(strings.ToLower(strings.Trim(f[0], `"`)), ".exe")
		shown := cutText(strings.TrimSpace(part))
		switch why, ok := windowsTools[verb]; {
		case ok && !(verb == "reg" && len(f) > 1 && strings.EqualFold(f[1], "query")):
			iv.flag(Destructive, "cmd.exe runs "+verb+", which "+why+": "+shown)
			continue
		case ok && regSecret.MatchString(part):
			iv.flag(Destructive, "cmd.exe reg query reads a registry key or value that holds a password or secret (what it prints reaches the agent and its model): "+shown)
			continue
		case ok:
			continue // reg query reads the registry
		case verb == "powershell" || verb == "pwsh" || verb == "wsl":
			iv.c.run(argsOf(f...), iv.sc, source{}, iv.depth+1)
			continue
		case !cmdReads[verb]:
			iv.flag(Unparseable, "cmd.exe runs Windows code tend does not read: "+shown)
			continue
		}
		words := f[1:]
		if k < len(rawParts) {
			words = append(words, strings.Fields(rawParts[k])...)
		}
		if verb == "cd" || verb == "chdir" || verb == "pushd" {
			for _, w := range words {
				if !strings.HasPrefix(w, "/") || len(w) > 2 {
					cwd = w
				}
			}
			continue
		}
		if cwd != "" && (verb == "type" || verb == "more" || verb == "findstr" || verb == "find") {
			for i, w := range words {
				if w = strings.Trim(w, `"'`); w != "" && w[0] != '/' && w[0] != '%' && w[0] != '$' && w[0] != '\\' && !strings.Contains(w, ":") {
					words[i] = strings.TrimRight(cwd, `\/`) + `\` + w // type credentials after cd %USERPROFILE%\.aws
				}
			}
		}
		switch {
		case strings.ContainsAny(part, "<>") && !cmdToNul.MatchString(part):
			iv.flag(Unparseable, "cmd.exe redirects to or from a file tend does not follow: "+shown)
		case verb == "set" && len(f) == 1:
			iv.flag(Destructive, "cmd.exe set prints every environment variable, tokens and keys included (what it prints reaches the agent and its model)")
		case verb == "set" && !strings.Contains(part, "=") && !harmlessVars[strings.ToUpper(strings.Trim(f[1], `"'`))] && !strings.HasPrefix(f[1], "/"):
			iv.flag(Destructive, "cmd.exe set prints every environment variable whose name starts with "+f[1]+", a secret's too (AWS prints AWS_SECRET_ACCESS_KEY) (what it prints reaches the agent and its model)")
		case verb == "start" && !cmdOpens(f[1:]):
			iv.flag(Unparseable, "cmd.exe start runs a program tend does not read: "+shown)
		case verb == "ipconfig" && slices.ContainsFunc(f[1:], func(w string) bool {
			w = strings.ToLower(w)
			w = strings.TrimLeft(w, "/-") // ipconfig takes -release as /release
			return strings.HasPrefix(w, "release") || strings.HasPrefix(w, "renew")
		}):
			iv.flag(Destructive, "cmd.exe ipconfig releases or renews the machine's network addresses: "+shown)
		case secretVarWin.MatchString(part):
			iv.flag(Destructive, "cmd.exe "+verb+" prints a variable named for a secret (what it prints reaches the agent and its model): "+secretVarWin.FindString(part))
		case (verb == "findstr" || verb == "find") && slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(w, "/s") }) && slices.ContainsFunc(words, func(w string) bool {
			p := windowsHome(w)
			return p == "~" || p == "~/" || strings.HasPrefix(p, "~/*")
		}):
			iv.flag(Destructive, "cmd.exe "+verb+" /s searches every file of the Windows user's home, secrets files too (what it prints reaches the agent and its model): "+shown)
		case verb == "type" || verb == "more" || verb == "findstr" || verb == "find":
			for _, w := range words {
				if p := windowsHome(w); p != "" && isSecretPath(p) {
					iv.flag(Destructive, "cmd.exe "+verb+" reads a secrets file of the Windows user (what it prints reaches the agent and its model): "+w)
					break
				}
			}
		}
	}
}

// regSecret is a registry key or value that holds a password or secret:
// Winlogon's DefaultPassword, the SAM and SECURITY hives, LSA secrets,
// a value named for a password or token.
var regSecret = lazyRE(`(?i)passw|secret|token|credential|winlogon|\\SAM\b|\\SECURITY\b|\bHKLM\\SAM\b|\bHKLM\\SECURITY\b`)

// harmlessVars are the variables whose names no secret's begins with:
// set PATH prints PATH and PATHEXT; set AWS prints every AWS_ variable.
var harmlessVars = map[string]bool{
	"PATH": true, "PATHEXT": true, "OS": true, "PROCESSOR_ARCHITECTURE": true, "PROCESSOR": true, "NUMBER_OF_PROCESSORS": true,
	"COMPUTERNAME": true, "USERNAME": true, "USERPROFILE": true, "USERDOMAIN": true, "HOMEDRIVE": true, "HOMEPATH": true,
	"SYSTEMROOT": true, "SYSTEMDRIVE": true, "WINDIR": true, "COMSPEC": true, "PROMPT": true, "TEMP": true, "TMP": true,
	"JAVA_HOME": true, "GOPATH": true, "GOROOT": true, "PYTHONPATH": true, "CLASSPATH": true, "PROGRAMFILES": true,
	"APPDATA": true, "LOCALAPPDATA": true, "PSMODULEPATH": true, "ERRORLEVEL": true, "LANG": true,
}

// cmdSeparators split cmd.exe's command line into its commands.
var cmdSeparators = regexp.MustCompile(`&&|\|\||&|\|`)

// cmdReads are cmd.exe's commands that print, look up or open what they
// are told and change nothing (ver, echo, type, dir, where …); start is
// one only for a web address or a folder (cmdOpens), ipconfig without
// /release or /renew, set without a value.
var cmdReads = map[string]bool{
	"echo": true, "ver": true, "type": true, "more": true, "dir": true, "where": true, "whoami": true, "hostname": true,
	"vol": true, "cd": true, "chdir": true, "findstr": true, "find": true, "tree": true, "systeminfo": true, "tasklist": true,
	"ipconfig": true, "ping": true, "nslookup": true, "tracert": true, "netstat": true, "set": true, "start": true,
	"explorer": true, "cls": true, "title": true, "rem": true, "exit": true, "chcp": true, "wslpath": true, "code": true,
}

// cmdToNul is a redirection of cmd.exe's output to nothing: >nul, 2>&1.
var cmdToNul = lazyRE(`(?i)^[^<>]*?(?:\d?>&\d|\d?>\s*nul\b)(?:[^<>]*?(?:\d?>&\d|\d?>\s*nul\b))*[^<>]*$`)

// cmdOpens reports whether start's words open a web address or a
// folder in the Windows shell, and run no program: start
// http://localhost:3000, start "" https://…, start . .
func cmdOpens(words []string) bool {
	if len(words) > 0 && (words[0] == `""` || words[0] == "") {
		words = words[1:]
	}
	if len(words) != 1 {
		return false
	}
	w := strings.ToLower(words[0])
	return w == "." || w == ".." || strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://")
}

// secretVarWin is a Windows variable named for a secret: %GITHUB_TOKEN%,
// $env:OPENAI_API_KEY.
var secretVarWin = lazyRE(`(?i)(?:%|\$env:)\w*(?:TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)\w*%?`)

// windowsHome turns a path in the Windows user's home, as cmd.exe,
// PowerShell or WSL name it (%USERPROFILE%\.aws\credentials,
// $env:USERPROFILE\.ssh\id_rsa, C:\Users\me\.netrc, /mnt/c/Users/me/…,
// %HOMEDRIVE%%HOMEPATH%\…), into a path under ~ with forward slashes and
// in lower case, for isSecretPath; "" if it is not one.
func windowsHome(w string) string {
	p := strings.ToLower(strings.ReplaceAll(strings.Trim(w, `"'`), `\`, "/"))
	for _, pre := range []string{"%userprofile%", "$env:userprofile", "${env:userprofile}", "%homedrive%%homepath%", "$env:homedrive$env:homepath", "%homepath%", "$env:homepath", "$home", "$env:home", "~"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && (rest == "" || rest[0] == '/') {
			return "~" + rest
		}
	}
	if m := windowsUser.FindStringSubmatch(p); m != nil {
		return "~" + m[1]
	}
	return ""
}

// windowsUser is a path under a Windows user's home, as Windows or WSL
// names it, in lower case with forward slashes: c:/users/me/…,
// /mnt/c/users/me/…; what follows the home is group 1.
var windowsUser = lazyRE(`^(?:[a-z]:|/mnt/[a-z])/users/[^/]+(/.*)?$`)

// windowsTools are cmd.exe's commands that delete files or change the
// Windows machine, with what they do.
var windowsTools = map[string]string{
	"del": "deletes Windows files", "erase": "deletes Windows files", "rd": "deletes Windows directories",
	"rmdir": "deletes Windows directories", "format": "erases a disk", "diskpart": "changes disks and partitions",
	"reg": "changes the Windows registry", "taskkill": "kills Windows processes", "shutdown": "shuts the machine down",
	"bcdedit": "changes how Windows boots", "vssadmin": "deletes or changes backups", "cipher": "wipes disk space",
	"sc": "changes Windows services", "net": "changes accounts, shares or services", "netsh": "changes the network and firewall",
	"wmic": "changes the machine", "robocopy": "copies over (and with /mir deletes) Windows files", "move": "moves Windows files",
}

// wsl is the WSL launcher: --unregister deletes a distribution with
// every file in it, for good, and --uninstall WSL itself; --shutdown
// stops every distribution and the VM they run in, and --terminate one,
// ending every process in it (the agent's and tend's own, run from WSL,
// and the user's work in other shells); --mount and --unmount attach
// and detach disks, and --update replaces WSL's kernel: all change the
// machine. A command after its options (-e, --, or the first word that
// is no option) runs in the distribution.
func wsl(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch s := strings.ToLower(a.s); {
		case !a.ok:
			iv.flag(Unparseable, "wsl runs a command computed at run time: "+a.shown())
			return
		case s == "--unregister":
			iv.flag(Destructive, "wsl "+s+" deletes a Linux distribution and every file in it")
			return
		case s == "--uninstall":
			iv.flag(Destructive, "wsl "+s+" removes WSL from the machine")
			return
		case s == "--shutdown":
			iv.flag(Destructive, "wsl --shutdown stops every WSL distribution and the VM they run in, ending every process in them")
			return
		case s == "-t" || s == "--terminate":
			iv.flag(Destructive, "wsl "+s+" stops a WSL distribution, ending every process in it")
			return
		case s == "--mount" || s == "--unmount" || s == "--update" || s == "--set-version" || s == "--manage":
			iv.flag(Destructive, "wsl "+s+" changes the machine: its disks, WSL's kernel or a distribution's VM")
			return
		case s == "-e" || s == "--exec" || s == "--":
			iv.exec(args[i+1:])
			return
		case s == "-d" || s == "--distribution" || s == "-u" || s == "--user" || s == "--cd" || s == "--shell-type":
			i++
		case strings.HasPrefix(s, "-"):
			return // --shutdown, --terminate NAME, --list, --install …: they stop, list or add
		default:
			iv.shell(joinRest(args[i:]), iv.sc) // wsl rm -rf ~: run by the distribution's shell
			return
		}
	}
}

// wslconfig is WSL's older launcher: /unregister (/u) deletes a
// distribution and every file in it, /terminate (/t) stops one, ending
// every process in it; /list and /setdefault only list or choose.
func wslconfig(iv *inv) {
	iv.flag(Write, "")
	for _, a := range iv.rest(1) {
		switch s := strings.ToLower(a.s); {
		case !a.ok:
			iv.flag(Unparseable, "wslconfig is given an option computed at run time: "+a.shown())
			return
		case s == "/u" || s == "/unregister":
			iv.flag(Destructive, "wslconfig "+s+" deletes a Linux distribution and every file in it")
			return
		case s == "/t" || s == "/terminate":
			iv.flag(Destructive, "wslconfig "+s+" stops a WSL distribution, ending every process in it")
			return
		}
	}
}

// sshForward is an ssh option, alone or after options that take no value
// (-fNL), that forwards a local port or opens a SOCKS proxy.
var sshForward = lazyRE(`^-[46AaCfGgKkMNnqsTtVvXxYy]*[LD]`)
