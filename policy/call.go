package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// call classifies one simple command and returns the index of its Command.
func (w *walker) call(ce *syntax.CallExpr, sc *scope, in source) int {
	c := w.c
	w.seen[ce] = true
	for _, a := range ce.Assigns {
		w.assignWords(a, sc)
	}
	w.argWords(ce, sc)
	args, err := c.fields(sc, ce.Args)
	if err != nil {
		idx := c.record(nil)
		c.flag(idx, Unparseable, "brace expansion would make too many words")
		return idx
	}
	if len(ce.Args) == 0 {
		for _, a := range ce.Assigns {
			if a.Name != nil && !a.Append {
				w.taint(a.Name.Value, a.Value, sc)
			}
		}
		return c.assignOnly(ce.Assigns, sc)
	}
	for _, a := range ce.Assigns { // CURL_HOME=/tmp/h curl …: files the command may read
		if a.Name != nil && a.Value != nil {
			if s, ok := c.literal(sc, a.Value); ok {
				c.prefixEnv = append(c.prefixEnv, arg{s: s, ok: true, src: a.Name.Value + "=" + s})
			} else { // DATABASE_URL="$PROD_DATABASE_URL" alembic …: what it names, as written
				c.prefixEnv = append(c.prefixEnv, arg{src: a.Name.Value + "=" + wordSource(sc.src, a.Value)})
			}
		}
	}
	c.at = int(ce.Pos().Offset()) + 1
	idx := c.run(args, sc, in, 0)
	if why := traced(sc, args); why != "" {
		c.flag(idx, Destructive, why+" (what it prints reaches the agent and its model)")
	}
	if len(args) > 0 && args[0].ok && holds(ce.Args[0], func(n syntax.Node) bool { _, ok := n.(*syntax.ParamExp); return ok || isSubst(n) }) {
		// x=rm; $x -rf / is rm, and c=go; $c test is go test: a whole
		// value the script sets statically is as plain as the name
		// written out, since bash never takes IFS from its environment.
		// A name no catalogue knows is not taken at its word where the
		// script sets IFS (IFS=,; c=rm,-rf; $c …), where it would be
		// matched as a pattern, or where it is spliced from pieces
		// (a=fr; b=ob; $a$b), the shape of a name hidden from a reader;
		// a program written out under a directory made afresh for this
		// run ($v/bin/pytest after v=/tmp/venv-$$) is that program.
		if _, known := lookup(path.Base(args[0].s)); !known && (c.mentions("IFS") || strings.ContainsAny(args[0].s, "*?[") ||
			!wholeParam(ce.Args[0]) && !namedUnder(ce.Args[0], sc.vars)) {
			c.flag(idx, Unparseable, "command name is computed from variables: "+args[0].shown())
		}
	}
	for _, a := range ce.Assigns {
		c.assign(idx, a, sc, true)
	}
	return idx
}

// namedUnder reports whether a command word ends in a name written out
// after a /, and all it expands before is made afresh for this run: $$
// and the like, or a variable the script set to such a value
// ($v/bin/pytest after v=/tmp/venv-$$). vars may be nil.
func namedUnder(w *syntax.Word, vars *varTable) bool {
	last, ok := w.Parts[len(w.Parts)-1].(*syntax.Lit)
	if !ok {
		return false
	}
	if i := strings.LastIndexByte(last.Value, '/'); i < 0 || i == len(last.Value)-1 || strings.ContainsAny(last.Value[i:], "\\*?[") {
		return false
	}
	fresh := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			fresh = false
		case *syntax.ParamExp:
			fresh = fresh && x.Param != nil && (x.Param.Value == "$" || freshParams[x.Param.Value] || vars.fresh(x.Param.Value))
		}
		return fresh
	})
	return fresh
}

// wholeParam reports whether w is one parameter expansion, bare or alone
// in double quotes ($c, "${c}", "${cmd[@]}"), not spliced with others or
// with literals.
func wholeParam(w *syntax.Word) bool {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	_, ok := parts[0].(*syntax.ParamExp)
	return ok
}

// toolHomePath is a program named outright under a directory a tool's
// own variable gives, which the script does not set
// ($ANDROID_HOME/cmdline-tools/latest/bin/sdkmanager, "$JAVA_HOME/bin/java",
// $VIRTUAL_ENV/bin/pytest): it is the program its last name says. A
// directory the script sets ($D/install.sh), or a program the script
// also writes (curl -o "$TOOL_DIR/x" URL && "$TOOL_DIR/x"), is not such
// a one.
var toolHomePath = lazyRE(`^"?\$\{?([A-Z][A-Z0-9_]*_(?:HOME|ROOT|DIR|PREFIX|PATH)|VIRTUAL_ENV|GOPATH|GOROOT|GOBIN)\}?((?:/[\w.+-]+)+)"?$`)

// toolHome reports whether the program at path under variable name is one
// toolHomePath means: the script assigns name nowhere and writes the path
// out only this once. The whole command line is read for it once, not
// once per command.
func (c *classifier) toolHome(name, path string) bool {
	if c.homes.written == nil {
		c.homes.assigned, c.homes.written = map[string]bool{}, map[string]int{}
		for _, m := range assignedName.FindAllStringSubmatch(c.whole, -1) {
			c.homes.assigned[m[1]] = true
		}
		for _, m := range pathUnder.FindAllStringSubmatch(c.whole, -1) {
			c.homes.written[m[1]+m[2]]++ // $D/x and ${D}/x are one path
		}
	}
	return !c.homes.assigned[name] && c.homes.written[name+path] == 1
}

// What toolHome reads the command line for: a NAME= or NAME+= anywhere,
// and a path written under a variable.
var (
	assignedName = lazyRE(`(?:^|[^A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)\+?=`)
	pathUnder    = lazyRE(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?((?:/[\w.+-]+)+)`)
)

// record appends a Command for args and returns its index.
func (c *classifier) record(args []arg) int {
	cmd := Command{Resolved: true, Argv: make([]string, 0, len(args)), match: make([]string, 0, len(args))}
	for _, a := range args {
		if a.ok {
			cmd.Argv = append(cmd.Argv, a.s)
		} else {
			cmd.Argv = append(cmd.Argv, a.src)
		}
		if a.ok {
			cmd.match = append(cmd.match, a.s)
		} else {
			cmd.match = append(cmd.match, unknownWord)
			cmd.Resolved = false
		}
	}
	c.cmds = append(c.cmds, cmd)
	return len(c.cmds) - 1
}

// inv is one invocation being classified: a simple command, or a command
// unwrapped from sudo, xargs, find -exec and the like.
type inv struct {
	c      *classifier
	idx    int    // its Command
	args   []arg  // argv, args[0] is the command
	name   string // base name of args[0]
	sc     *scope
	in     source // what its stdin carries
	depth  int    // wrapper nesting
	pinned bool   // must stay at least Write (see lower)
	judged bool   // its handler judged all its verbs: no second look by words
	env    []arg  // the environment it is given (RAILS_ENV=test cmd, env X=y cmd): s the value, src NAME=value
	at     int    // 1 + the offset in its script of the simple command it is or runs in (see whole); 0 if none

	perlInPlace bool // perl -i: the files after the code are edited in place
}

// run records args as a Command and classifies it through the catalogue.
func (c *classifier) run(args []arg, sc *scope, in source, depth int) int {
	idx := c.record(args)
	if depth > maxUnwrap {
		c.flag(idx, Unparseable, "wrappers nested too deep")
		return idx
	}
	if len(args) == 0 {
		c.flag(idx, Unparseable, "command name is computed at run time (expands to nothing)")
		return idx
	}
	envVals := c.prefixEnv // the values of assignments before the command (src: NAME=value): files it may read
	c.prefixEnv = nil
	for len(args) > 1 && args[0].ok && isAssignment(args[0].s) { // sudo VAR=x cmd, env VAR=x cmd
		name, val, _ := strings.Cut(args[0].s, "=")
		envVals = append(envVals, arg{s: val, ok: true, src: args[0].s})
		if varKind(name) == varCode {
			iv := &inv{c: c, idx: idx, name: name, sc: sc, depth: depth}
			iv.shell(arg{s: val, ok: true, src: val}, sc)
			if strings.HasSuffix(name, "ASKPASS") {
				iv.helperProgram(name, val)
			}
		}
		args = args[1:]
	}
	if !args[0].ok { // only a name not known statically is looked at again
		if p, ok := c.pidPath(sc, args[0].src); ok && strings.Contains(p, "/") && !sc.remote {
			args = append([]arg{{s: p, ok: true, src: args[0].src}}, args[1:]...) // /tmp/venv-$$/bin/pytest: a program at a path made for this run
		}
	}
	if !args[0].ok {
		if m := toolHomePath.FindStringSubmatch(args[0].src); m != nil && c.toolHome(m[1], m[2]) {
			args = append([]arg{{s: strings.Trim(args[0].src, `"`), ok: true, src: args[0].src}}, args[1:]...) // "$JAVA_HOME/bin/java": the program its name says
		}
	}
	if !args[0].ok {
		c.flag(idx, Unparseable, "command name is computed at run time: "+args[0].shown())
		return idx
	}
	if name := args[0].s; strings.ContainsRune(name, '/') && strings.ContainsAny(name, "*?[") { // /???/r?
		c.flag(idx, Unparseable, "command name is a pattern, matched at run time: "+args[0].shown())
		return idx
	}
	if c.expired() {
		return idx
	}
	if val, ok := c.aliases[args[0].s]; ok && depth < maxUnwrap { // alias l='rm -rf'; l ~/x
		words := strings.Fields(val)
		delete(c.aliases, args[0].s) // an alias does not expand within itself
		defer func() { c.aliases[args[0].s] = val }()
		return c.run(append(argsOf(words...), args[1:]...), sc, in, depth+1)
	}
	if fd := c.funcs[args[0].s]; fd != nil && !sc.remote {
		c.callFunc(fd, sc, args[1:])
		if _, known := lookup(args[0].s); !known {
			// f ~: its body was judged with the words it is given; the
			// name is no tool to judge them by
			c.flag(idx, Write, "")
			return idx
		}
	}
	iv := &inv{c: c, idx: idx, args: args, name: path.Base(args[0].s), sc: sc, in: in, depth: depth, env: envVals, at: c.at}
	if prog, ok := c.renamed[c.resolve(sc, args[0]).path]; ok { // ln -s /bin/rm /tmp/x; /tmp/x -rf ~
		iv.name = prog
	} else if n, ok := strings.CutSuffix(strings.ToLower(iv.name), ".exe"); ok { // powershell.exe from WSL: Windows's program, named in any case
		iv.name = n
	}
	defer c.vet(iv) // for ModeUnknown, once it is classified
	c.cmds[idx].Dir = printable(sc.cwd)
	if len(args) == 2 && args[1].ok && (args[1].s == "--help" || args[1].s == "--version") {
		return idx // prints usage: read-only whatever the command
	}
	if onlySays(iv.name, args[1:]) {
		if real := iv.renderedApplied(); real != nil {
			args, iv.args = real, real // kubectl create configmap … --dry-run=client -o yaml | kubectl apply -f -: what it renders is made
		} else {
			c.flag(idx, Write, "") // terraform destroy -help, helm uninstall --dry-run, rsync -n --delete, curl … | sh -n
			return idx
		}
	}
	if strings.Contains(args[0].s, "/") && iv.runsWritten(args[0], func(code arg) { iv.shell(code, sc) }) {
		return idx
	}
	if base := path.Base(args[0].s); strings.Contains(args[0].s, "/") && strings.HasPrefix(base, ".") && base != "." && base != ".." {
		if t := c.resolve(sc, args[0]); c.danger(t) != "" || c.cache(t) { // ~/.cache/.x11/.dbus-helper
			c.flag(idx, Unparseable, "runs a hidden program outside the working directory: "+c.show(t))
		}
	}
	if !slices.Contains(readOnlyTools, iv.name) {
		if a, ok := downloadedFile(args[1:]); ok { // python3 <(w3m URL), make -f <(curl URL)
			c.flag(idx, Destructive, iv.name+" runs what a download gives it: "+a.shown())
		}
	}
	h, known := lookup(iv.name)
	if emulatorCLIs[iv.name] && iv.emulated() {
		c.flag(idx, Write, "") // aws --endpoint-url=http://localhost:4566 s3 rb …: LocalStack's bucket, not the cloud's
		return idx
	}
	if publishes(iv) {
		return idx
	}
	h(iv)
	if !known {
		wrappedProgram(iv) // eatmydata cp …: judged as the command it runs
		rawDisk(iv)        // nvme format /dev/nvme0n1
		jarProgram(iv)     // java -jar bfg.jar …
		imageFile(iv)      // vmtool create ~/vms/disk.qcow2 20G
	}
	if opensTunnel(iv) {
		c.tunnel = true
	}
	if iv.name == "ansible-playbook" {
		playbook(iv)
	}
	for _, code := range remotePayloads(iv) { // aws ssm send-command --parameters 'commands=[…]'
		iv.shell(arg{s: code, ok: true, src: code}, remote(sc))
	}
	readsWritten(iv, envVals)
	downloadsOnto(iv) // aws s3 cp s3://b/x ~/.bashrc, scp host:cfg ~/.ssh/config
	runsHelper(iv)
	sshOptions(iv)
	clientEscapes(iv)
	mavenExec(iv)
	batchOnStdin(iv)
	transferScript(iv)
	runsFetched(iv)
	plantsScript(iv)
	registryConfig(iv)
	userConfig(iv)
	installsOutside(iv)
	servesHome(iv)
	setsRunner(iv)
	sendsSecret(iv)
	traceInto(iv)    // TF_LOG=DEBUG TF_LOG_PATH=tf.log terraform plan
	exportedInto(iv) // airflow connections export conns.json
	keyMadeInto(iv)  // gcloud iam service-accounts keys create sa.json, openssl genrsa -out k.pem: what a later command sends
	readsSecret(iv, !known || credentialTools[iv.name])
	dumpsEnvironment(iv)
	if infraTools[iv.name] && !dbClients[iv.name] && len(args) > 1 && !args[1].ok && !args[1].item { // op=delete; kubectl $op pvc --all
		iv.flag(Unparseable, iv.name+" verb computed at run time")
	}
	if infraTools[iv.name] && c.cmds[idx].Class < Destructive && !iv.sc.remote && !iv.judged {
		if !verbEffect(iv) { // a verb its handler does not know (terraform state rm, aws … batch-delete-image)
			embedded(iv, true) // fly ssh console -C 'cmd'
		}
	}
	if c.cmds[idx].Class < Destructive && known {
		embedded(iv, false) // vim -c ':!…', man -P 'sh -c …', tar --checkpoint-action=exec=…, git grep -O'sh -c …'
	}
	return idx
}

// renderedApplied is the command's words without its dry run when the
// dry run only renders the objects it would make or change (-o yaml, -o
// json) and the next stage of its pipeline makes them (appliesNext): the
// pipe does what the command was asked only to show. A deletion's dry
// run renders the object as it is, which applied deletes nothing. nil if
// not.
func (iv *inv) renderedApplied() []arg {
	if iv.sc.next == nil || !kubeCLIs[iv.name] || optValue(iv.args, "-o") == "" && optValue(iv.args, "--output") == "" ||
		hasWord(iv.args, "delete") || !iv.appliesNext() {
		return nil
	}
	real := make([]arg, 0, len(iv.args))
	for _, a := range iv.args {
		if opt, _, _ := strings.Cut(a.s, "="); a.ok && dryOpts[opt] {
			continue
		}
		real = append(real, a)
	}
	return real
}

// appliesNext reports whether the next stage of the command's pipeline
// makes the objects of the manifests it reads on its stdin in a cluster
// (kubectl apply -f -, oc create -f /dev/stdin, kubectl replace
// --filename=-): what the command prints goes there, not to the agent.
func (iv *inv) appliesNext() bool {
	if iv.sc.next == nil {
		return false
	}
	next := iv.nextStage()
	if len(next) < 2 || !kubeCLIs[path.Base(next[0].s)] {
		return false
	}
	verb := at(positionals(next[1:], "-n", "--namespace", "--context", "--kubeconfig", "-f", "--filename", "-o", "--output"), 0)
	if verb != "apply" && verb != "create" && verb != "replace" {
		return false
	}
	f := optValue(next[1:], "-f")
	if f == "" {
		f = optValue(next[1:], "--filename")
	}
	return f == "-" || f == "/dev/stdin"
}

// kubeCLIs are Kubernetes' command-line clients, which make objects
// from manifests (apply -f) and render them (--dry-run -o yaml).
var kubeCLIs = map[string]bool{"kubectl": true, "oc": true, "k": true, "kubecolor": true}

// runVerbs are subcommands that run a command given to them.
var runVerbs = map[string]bool{"exec": true, "run": true, "ssh": true, "attach": true, "debug": true, "console": true, "shell": true, "-c": true, "--command": true, "-e": true}

// runsFetched holds a tool that is not only a reader when it is handed
// code from the network: a file fetched by a process substitution
// (python3 <(wget -qO- …)) or the URL of a script it fetches itself (jbang
// https://…/Cleanup.java, dotnet script https://…/fix.csx).
func runsFetched(iv *inv) {
	if iv.c.cmds[iv.idx].Class < Write || iv.c.cmds[iv.idx].Class >= Destructive || fetchers[iv.name] {
		return
	}
	for _, a := range iv.rest(1) {
		switch {
		case !a.ok && fetched.MatchString(a.src):
			iv.flag(Destructive, iv.name+" is given a file fetched from the network: "+a.shown())
			return
		case a.ok && scriptURL.MatchString(a.s):
			iv.flag(Destructive, iv.name+" is given code to fetch and run: "+a.s)
			return
		}
	}
}

// readsWritten judges a tool that is not only a reader by the files this
// command wrote and then handed to it, by name or through the environment
// (mongosh --file /tmp/d.js, curl -K /tmp/c.cfg, CURL_HOME=/tmp/h curl,
// NODE_OPTIONS='--require /tmp/h.js' npm): code in them that deletes, a
// secrets file a network tool is told to send, code a runtime preloads.
func readsWritten(iv *inv, env []arg) {
	if iv.c.written == nil || iv.c.cmds[iv.idx].Class >= Destructive {
		return
	}
	given := append(slices.Clone(iv.rest(1)), env...)
	for _, a := range env {
		for _, w := range strings.Fields(a.s) { // --require /tmp/h.js
			given = append(given, arg{s: w, ok: true, src: w})
		}
	}
	for _, a := range given {
		if !a.ok || strings.HasPrefix(a.s, "-") {
			continue
		}
		p := iv.c.resolve(iv.sc, a).path
		for file, src := range iv.c.written {
			if src.kind != srcText || file != p && !isUnder(file, p) {
				continue
			}
			if why := codeDanger(src.text); why != "" && iv.c.cmds[iv.idx].Class >= Write && !readsAsData(iv.name, iv.rest(1)) && !iv.scratchCode(src.text) { // not sqlfluff lint q.sql
				iv.flag(Destructive, iv.name+" is given a file this command wrote: "+why)
				return
			}
			if netTools[iv.name] && namesSecret(iv, src.text) {
				iv.flag(Destructive, iv.name+" is given a file this command wrote that names a secrets file to send")
				return
			}
			if slices.ContainsFunc(env, func(e arg) bool { return strings.Contains(e.s, a.s) }) && strings.HasSuffix(file, ".js") {
				iv.interpCode(arg{s: src.text, ok: true, src: src.text}) // preloaded code runs first
			}
		}
	}
}

// namesSecret reports whether text names a secrets file, or a private
// key or credentials file of the working tree (namedSecret) as a word of
// its own, not an option's value (--key-file=sa.json, -i key.pem): what
// is sent is then the file's content.
func namesSecret(iv *inv, text string) bool {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\n\"'=@<>,;()", r) }) {
		if strings.ContainsRune(w, '/') && iv.secretFile(w) {
			return true
		}
	}
	prev := ""
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\n\"'<>,;()|&`", r) }) {
		if !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "=:$") && !keyUseOpt(prev) && namedSecret(iv.c.tilde(strings.TrimPrefix(w, "@"))) {
			return true
		}
		prev = w
	}
	return false
}

// batchOnStdin judges a tool told to read its commands from stdin (ip
// -batch -, nft -f -) line by line, each as that tool's own
// command, when the text is known.
func batchOnStdin(iv *inv) {
	if transferTools[iv.name] {
		return // transferScript reads their commands
	}
	args := strs0(iv.rest(1))
	for i, a := range args[:max(len(args)-1, 0)] {
		if (a == "-batch" || a == "--batch" || a == "-b" || a == "-f" || a == "--file") && (args[i+1] == "-" || args[i+1] == "/dev/stdin") {
			if iv.in.kind != srcText {
				return
			}
			for line := range strings.SplitSeq(iv.in.text, "\n") {
				if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
					iv.c.run(argsOf(append([]string{iv.name}, f...)...), iv.sc, source{}, iv.depth+1)
				}
			}
			return
		}
	}
}

// plantsScript judges a package script a command sets as if it ran now:
// npm install, test or a lifecycle hook runs it next (npm pkg set
// scripts.postinstall='…', npm set-script x '…').
func plantsScript(iv *inv) {
	if !runners[iv.name] {
		return
	}
	args := strs0(iv.rest(1))
	switch {
	case len(args) > 2 && args[0] == "pkg" && args[1] == "set":
		for _, a := range args[2:] {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "scripts.") {
				iv.shell(arg{s: v, ok: true, src: v}, iv.sc)
			}
		}
	case len(args) == 3 && args[0] == "set-script":
		iv.shell(arg{s: args[2], ok: true, src: args[2]}, iv.sc)
	}
}

// registryConfig holds pointing a package manager at another registry or
// index for every later install: npm config set registry, pip config set
// global.index-url, gem sources --add.
func registryConfig(iv *inv) {
	args := strs0(iv.rest(1))
	i := slices.Index(args, "set")
	switch {
	case (runners[iv.name] || iv.name == "pip" || iv.name == "pip3" || iv.name == "uv" || iv.name == "poetry") && i >= 0 && i+1 < len(args):
		if k := strings.ToLower(args[i+1]); strings.Contains(k, "registry") || strings.Contains(k, "index-url") || strings.Contains(k, "index_url") || strings.Contains(k, "trusted-host") {
			iv.flag(Destructive, iv.name+" config set "+args[i+1]+" points every later install at another source")
		}
	case iv.name == "gem" && contains(args, "sources") && (contains(args, "--add") || contains(args, "-a")):
		iv.flag(Destructive, "gem sources --add points every later install at another source")
	}
}

// userConfig holds a tool told to change the user's or the machine's own
// configuration, a file outside the working directory that every project
// and every later command of the user reads (npm config set …
// --location=user, pip config set, gh config set): a write outside the
// working directory, as > ~/.npmrc is; a token set there replaces the
// user's. Where the tool's default is the project's file (yarn 2's
// .yarnrc.yml, bundle config set in an application), or it is told to
// use it (--location=project, --local, --site), it is ordinary work. git
// config is git's (userGitConfig). Cloud CLIs' settings are the user's
// too (aws configure set region, az config set, gcloud config set
// compute/zone, kubectl config set-cluster, go env -w, dotnet nuget add
// source), unless the environment points the tool at a file of the
// project's or a temp one (configElsewhere). Choosing among the user's own
// clusters and projects (kubectl config use-context, set-context
// --current --namespace, gcloud config set project) is not held; what
// runs there next is judged as it is.
func userConfig(iv *inv) {
	args := iv.rest(1)
	if iv.name != "aws" && !hasWord(args, "config", "c", "set", "configure", "env", "nuget") {
		return // every case below but aws's starts with one of these verbs
	}
	_, ops := opts(args)
	w := strs0(ops)
	has := func(s ...string) bool { return hasWord(args, s...) }
	verb := at(w, 1)
	where, head := "", at(w, 0)+" "
	switch {
	case (iv.name == "npm" || iv.name == "pnpm") && (at(w, 0) == "config" || at(w, 0) == "c") && (verb == "set" || verb == "delete" || verb == "rm" || verb == "edit"),
		iv.name == "npm" && at(w, 0) == "set":
		loc := optionValue(args, "--location", "-L")
		if loc == "project" || has("--userconfig", "--globalconfig") {
			return
		}
		where = "user's"
		if has("-g", "--global") || loc == "global" {
			where = "machine's"
		}
	case iv.name == "yarn" && at(w, 0) == "config" && (verb == "set" || verb == "unset" || verb == "delete") && has("-H", "--home", "-g", "--global"):
		where = "user's"
	case (iv.name == "pip" || iv.name == "pip3") && at(w, 0) == "config" && (verb == "set" || verb == "unset" || verb == "edit") && !has("--site"):
		where = "user's"
		if has("--global") {
			where = "machine's"
		}
	case iv.name == "gh" && at(w, 0) == "config" && verb == "set":
		where = "user's"
	case iv.name == "poetry" && at(w, 0) == "config" && (len(w) > 2 || has("--unset")) && !has("--local", "--list"):
		where = "user's"
	case (iv.name == "bundle" || iv.name == "composer") && at(w, 0) == "config" && has("--global", "-g") && (len(w) > 2 || has("--unset", "unset")):
		where = "user's"
	case iv.name == "conda" && at(w, 0) == "config" && has("--set", "--add", "--append", "--prepend", "--remove", "--remove-key") && !has("--env", "--file"):
		where = "user's"
	case (iv.name == "kubectl" || iv.name == "oc") && at(w, 0) == "config" && verb == "set-credentials" && !has("--kubeconfig"):
		iv.flag(Destructive, iv.name+" config set-credentials writes credentials into the user's kubeconfig, over the ones there")
		return
	case iv.name == "gcloud" && at(w, 0) == "config" && verb == "set" && trustKey.MatchString(at(w, 2)):
		iv.flag(Destructive, "gcloud config set "+at(w, 2)+" sends every later gcloud request elsewhere, or stops checking whom it talks to")
		return
	case iv.name == "gcloud" && at(w, 0) == "config" && (verb == "set" || verb == "unset") && !choosesAccount(at(w, 2)):
		where = "user's"
	case iv.name == "aws":
		pos := positionals(args, awsOpts...)
		if at(pos, 0) != "configure" || !slices.Contains([]string{"", "set", "import", "sso", "add-model"}, at(pos, 1)) {
			return // aws configure list, get, export-credentials: they read (secrets: readsSecret)
		}
		verb, where, head = strings.TrimSpace("configure "+at(pos, 1)), "user's", ""
	case iv.name == "az" && (at(w, 0) == "config" && (verb == "set" || verb == "unset") ||
		at(w, 0) == "configure" && has("--defaults", "-d") && optionValue(args, "--scope", "") != "local"):
		where = "user's"
		if at(w, 0) == "configure" {
			verb, head = "configure --defaults", ""
		}
	case (iv.name == "kubectl" || iv.name == "oc") && at(w, 0) == "config" && !has("--kubeconfig") &&
		(verb == "set" || verb == "unset" || verb == "set-cluster" || verb == "rename-context" ||
			verb == "set-context" && has("--cluster", "--user", "--auth-info")):
		where = "user's" // kubectl config use-context, set-context --current --namespace x: a choice among the user's own
	case iv.name == "go" && at(w, 0) == "env" && has("-w", "-u"):
		verb, where, head = "env -w", "user's", ""
	case iv.name == "dotnet" && at(w, 0) == "nuget" && (verb == "add" || verb == "remove" || verb == "update" || verb == "enable" || verb == "disable") && !has("--configfile"):
		where = "user's"
	case iv.name == "glab" && at(w, 0) == "config" && verb == "set" && has("-g", "--global"):
		where = "user's"
	case !known(iv.name) && (at(w, 0) == "config" || at(w, 0) == "configure") && (verb == "set" || verb == "unset") && has("-g", "--global", "--user"):
		where = "user's" // a tool's own config set --global
	default:
		return
	}
	if iv.configElsewhere(verb, ops) {
		return // AWS_CONFIG_FILE=./aws.cfg, KUBECONFIG=/tmp/kc: a file of the project's or a temp one
	}
	iv.flag(Destructive, iv.name+" "+head+verb+" changes the "+where+" own "+iv.name+" configuration, outside the working directory, which every project and later command reads")
}

// choosesAccount reports whether a gcloud setting only chooses among the
// user's own projects and accounts (gcloud config set project x), as
// kubectl config use-context does: what runs there next is judged as it
// is.
func choosesAccount(key string) bool {
	switch strings.TrimPrefix(key, "core/") {
	case "project", "account":
		return true
	}
	return false
}

// known reports whether the catalogue knows a command name.
func known(name string) bool {
	_, ok := lookup(name)
	return ok
}

// configVars are the variables that point a tool at another
// configuration file or directory than the user's own.
var configVars = lazyRE(`^(?:AWS_CONFIG_FILE|AWS_SHARED_CREDENTIALS_FILE|CLOUDSDK_CONFIG|AZURE_CONFIG_DIR|KUBECONFIG|GOENV|NUGET_CONFIG_FILE|[A-Z_]*CONFIG(?:_FILE|_DIR|_HOME)?)=`)

// configElsewhere reports whether the command's environment points the
// tool at a configuration file in the working tree or a temp dir
// (AWS_CONFIG_FILE=./aws.cfg, KUBECONFIG=$(mktemp)): not the user's own.
//
// The variable must be the one the tool writes this setting through
// (toolConfigVars): aws configure set puts keys and tokens in the shared
// credentials file (AWS_SHARED_CREDENTIALS_FILE), not AWS_CONFIG_FILE's.
// A list of files (KUBECONFIG=./kc.yaml:$HOME/.kube/config) is elsewhere
// only when every file in it is: kubectl writes a change to the file that
// defines what it changes.
func (iv *inv) configElsewhere(verb string, ops []arg) bool {
	want := toolConfigVars[iv.name]
	if iv.name == "aws" {
		want = []string{"AWS_CONFIG_FILE"}
		if key := strings.ToLower(strings.TrimPrefix(at(strs0(ops), 2), "default.")); verb != "configure set" || strings.HasPrefix(key, "aws_") || strings.Contains(key, "secret") || strings.Contains(key, "token") || strings.Contains(key, "key") {
			want = []string{"AWS_SHARED_CREDENTIALS_FILE"} // aws configure (its keys too), import, set aws_access_key_id
		}
	}
	for _, e := range iv.environ() {
		name, v, _ := strings.Cut(e.src, "=")
		if !configVars.MatchString(e.src) || want != nil && !contains(want, name) {
			continue
		}
		sep := ":"
		if strings.Contains(v, ";") {
			sep = ";"
		}
		all := v != "" && e.ok
		for f := range strings.SplitSeq(v, sep) {
			t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(f), ok: e.ok, src: f})
			all = all && f != "" && iv.c.danger(t) == ""
		}
		if all || !strings.Contains(v, sep) && iv.c.tempVar(v) {
			return true
		}
	}
	return false
}

// toolConfigVars are the variables by which a tool is pointed at another
// configuration than the user's own; a tool not listed takes any of
// configVars.
var toolConfigVars = map[string][]string{
	"kubectl": {"KUBECONFIG"}, "oc": {"KUBECONFIG"}, "gcloud": {"CLOUDSDK_CONFIG"}, "az": {"AZURE_CONFIG_DIR"},
	"npm": {"NPM_CONFIG_USERCONFIG", "NPM_CONFIG_GLOBALCONFIG"}, "pnpm": {"NPM_CONFIG_USERCONFIG", "NPM_CONFIG_GLOBALCONFIG"},
	"pip": {"PIP_CONFIG_FILE", "XDG_CONFIG_HOME"}, "pip3": {"PIP_CONFIG_FILE", "XDG_CONFIG_HOME"}, "gh": {"GH_CONFIG_DIR", "XDG_CONFIG_HOME"},
	"poetry": {"POETRY_CONFIG_DIR", "XDG_CONFIG_HOME"}, "go": {"GOENV"}, "dotnet": {"NUGET_CONFIG_FILE"}, "glab": {"GLAB_CONFIG_DIR", "XDG_CONFIG_HOME"},
}

// trustKey is a gcloud setting that sends requests elsewhere or turns off
// its checks: a proxy, an endpoint, a certificate authority, TLS checks.
var trustKey = lazyRE(`^(?:proxy/|api_endpoint_overrides/|auth/disable_ssl_validation|core/custom_ca_certs_file)`)

// optionValue is the value of an option given as --name=value or --name
// value (or a short alias's), or "".
func optionValue(args []arg, long, short string) string {
	for i, a := range args {
		switch {
		case !a.ok:
		case strings.HasPrefix(a.s, long+"="):
			return strings.TrimPrefix(a.s, long+"=")
		case (a.s == long || a.s == short) && i+1 < len(args):
			return args[i+1].s
		}
	}
	return ""
}

// installsOutside holds a package manager told to install outside the
// project, over what other projects and the user's shell use: globally
// (npm, pnpm or bun -g, --global or --location=global, yarn global add),
// which replaces the version every project gets (npm install -g
// typescript@3.9.7); into a directory outside the working directory and
// the temp dirs (pip install --target, --prefix, --root); over the
// user's own packages (pip install --user with --upgrade or
// --force-reinstall); or over an installed program (cargo install
// --force, but not the project's own: --path). Without those, pip --user and cargo install only add what is
// missing, and go install builds a command into the user's bin as a
// build does.
func installsOutside(iv *inv) {
	args, name := iv.rest(1), iv.name
	if strings.HasPrefix(name, "python") && len(args) > 1 && args[0].s == "-m" && args[1].ok && (args[1].s == "pip" || args[1].s == "pip3") {
		args, name = args[2:], "pip" // python3 -m pip install …
	}
	switch name {
	case "npm", "pnpm", "bun", "yarn", "pip", "pip3", "uv", "cargo":
	default:
		return // the only installers judged here; opts is not free
	}
	_, ops := opts(args)
	w := strs0(ops)
	verb := at(w, 0)
	switch name {
	case "npm", "pnpm", "bun":
		switch verb {
		case "install", "i", "add", "update", "up", "upgrade", "uninstall", "un", "remove", "rm", "r":
		default:
			return
		}
		if hasWord(args, "-g", "--global") || optionValue(args, "--location", "-L") == "global" {
			iv.flag(Destructive, iv.name+" "+verb+" -g changes the packages installed for every project and the user's shell, outside the working directory")
		}
	case "yarn":
		if verb == "global" && (at(w, 1) == "add" || at(w, 1) == "remove" || at(w, 1) == "upgrade") {
			iv.flag(Destructive, "yarn global "+at(w, 1)+" changes the packages installed for every project and the user's shell, outside the working directory")
		}
	case "pip", "pip3", "uv":
		if name == "uv" {
			if verb != "pip" {
				return
			}
			w, verb = w[1:], at(w, 1)
		}
		if verb != "install" && verb != "uninstall" {
			return
		}
		if why := breaksSystem(iv, args); why != "" && !dryRun(name, args) {
			if name == "uv" {
				name = "uv pip"
			}
			iv.flag(Destructive, name+" "+verb+" "+why+" changes the system's own Python, over the packages the distribution installed and its programs need")
			return
		}
		for i, a := range args {
			dir, ok := arg{}, false
			switch {
			case !a.ok:
			case (a.s == "--target" || a.s == "-t" || a.s == "--prefix" || a.s == "--root") && i+1 < len(args):
				dir, ok = args[i+1], true
			case strings.HasPrefix(a.s, "--target=") || strings.HasPrefix(a.s, "--prefix=") || strings.HasPrefix(a.s, "--root="):
				_, v, _ := strings.Cut(a.s, "=")
				dir, ok = arg{s: v, ok: true, src: v}, true
			}
			if !ok || !dir.ok {
				continue
			}
			t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(dir.s), ok: true, src: dir.src})
			if why := iv.c.danger(t); why != "" && why != "unresolved" && !(t.path == iv.c.project && iv.c.trustedProject()) {
				if !strings.HasPrefix(why, "outside") {
					why = "into " + why
				}
				iv.flag(Destructive, name+" "+verb+" "+a.s+" writes packages "+why+", over what is installed there: "+iv.c.show(t))
				return
			}
		}
		if hasWord(args, "--user") && hasWord(args, "-U", "--upgrade", "--force-reinstall", "-I", "--ignore-installed") {
			iv.flag(Destructive, name+" "+verb+" --user --upgrade replaces the packages every program of the user's shares, outside the working directory")
		}
	case "cargo":
		if verb == "install" && hasWord(args, "--force", "-f") && !hasWord(args, "--path") && !devTool(args) {
			iv.flag(Destructive, "cargo install --force replaces a program installed for the user, outside the working directory")
		} // --path: the project's own program, built and installed for the user as go install ./cmd/x does
	}
}

// breaksSystem is what tells pip (or uv pip) to install into a Python
// the distribution manages, which it refuses by default (PEP 668):
// --break-system-packages, or PIP_BREAK_SYSTEM_PACKAGES (or
// UV_BREAK_SYSTEM_PACKAGES) set true; "" if nothing does.
func breaksSystem(iv *inv, args []arg) string {
	if hasWord(args, "--break-system-packages") {
		return "--break-system-packages"
	}
	for _, e := range iv.environ() {
		name, val, _ := strings.Cut(e.src, "=")
		if (name == "PIP_BREAK_SYSTEM_PACKAGES" || name == "UV_BREAK_SYSTEM_PACKAGES") && !saysNo(strings.Trim(val, `"'`)) && val != "" {
			return "with " + name + "=" + val
		}
	}
	return ""
}

// devTool reports whether cargo install is given crates named outright
// that are cargo's own subcommands (cargo-nextest, cargo-watch): a
// reinstall replaces only that tool's binary, as go install tool@v,
// pipx install --force and uv tool install --force do. A crate that takes
// a name the user's shell already runs (ripgrep's rg, fd-find's fd) may
// replace a program of theirs, and npm -g changes what every project's
// scripts find, so those stay held.
func devTool(args []arg) bool {
	n := 0
	for i, a := range args {
		switch {
		case !a.ok || a.s == "--":
			return false
		case a.s == "install" || strings.HasPrefix(a.s, "-"):
		case i > 0 && contains([]string{"--version", "--vers", "--features", "-F", "--target", "--profile", "-j", "--jobs"}, args[i-1].s):
		case strings.HasPrefix(a.s, "cargo-"):
			n++
		default:
			return false // a value of another option (--root DIR), or another crate
		}
	}
	return n > 0 && !hasWord(args, "--root", "--git", "--registry", "--index")
}

// scriptURL is the address of a script: by its ending, or a gist's raw file.
var scriptURL = lazyRE(`(?i)^https?://(?:gist\.githubusercontent\.com/\S+/raw/\S*|\S+\.(?:java|jsh|cs|csx|py|js|mjs|cjs|ts|sh|bash|zsh|rb|pl|php|groovy|kts|kt|lua|jl|ps1|r|swift|go|exs?)(?:[?#]\S*)?)$`)

// fetchers download what they are given (or open it), not run it.
var fetchers = map[string]bool{
	"curl": true, "wget": true, "http": true, "https": true, "xh": true, "aria2c": true, "git": true,
	"open": true, "xdg-open": true, "gh": true, "lynx": true, "w3m": true, "httpie": true, "fetch": true,
}

// environ is the environment this invocation is given that tend can
// read: what its script certainly exported before it (export
// DATABASE_URL=… && alembic …), then the assignments before it
// (RAILS_ENV=test rails …, env X=y cmd). Of a name given twice, the
// later value is the one the command sees (RAILS_ENV=test
// RAILS_ENV=production rails …).
func (iv *inv) environ() []arg {
	all := iv.env
	if iv.at > 0 {
		all = append(iv.sc.vars.environ(uint(iv.at-1)), iv.env...)
	}
	var out []arg
	for i, e := range all {
		name, _, _ := strings.Cut(e.src, "=")
		if !slices.ContainsFunc(all[i+1:], func(l arg) bool { return strings.HasPrefix(l.src, name+"=") }) {
			out = append(out, e)
		}
	}
	return out
}

// whole is the offset in the whole command line of the simple command
// this invocation is or runs in, or -1 when it stands in code re-parsed
// from a word (bash -c '…'), whose offsets are the code's own.
func (iv *inv) whole() int {
	if iv.at == 0 || iv.sc.src != iv.c.whole {
		return -1
	}
	return iv.at - 1
}

// flag raises this invocation's class.
func (iv *inv) flag(class Class, reason string) { iv.c.flag(iv.idx, class, reason) }

// flagWrite holds this invocation for writing, moving or deleting t.
func (iv *inv) flagWrite(t target, reason string) { iv.c.flagWrite(iv.idx, t, reason) }

// exec classifies args as a command run by this one (sudo, env, xargs …),
// with the same stdin.
func (iv *inv) exec(args []arg) {
	iv.c.prefixEnv = iv.env // the program it runs inherits the environment it was given
	iv.c.run(args, iv.sc, iv.in, iv.depth+1)
}

// shell re-parses code that this command runs as a shell script (bash -c,
// eval, trap, ssh …), one level deeper, its commands reading this one's
// stdin. It returns the working directory the code ends in ("" if
// unknown), for eval.
func (iv *inv) shell(code arg, sc *scope) string {
	if !code.ok {
		if downloadedCode.MatchString(code.src) { // bash -c "$(wget -qO- URL)"
			iv.flag(Destructive, fmt.Sprintf("%s runs downloaded code: %s", iv.name, code.shown()))
		}
		iv.flag(Unparseable, fmt.Sprintf("%s runs code computed at run time: %s", iv.name, code.shown()))
		return ""
	}
	sub := *sc
	sub.depth++
	sub.params = nil // a new shell's parameters are its own (bindPositional)
	iv.c.script(code.s, &sub, &iv.idx, iv.in)
	return sub.cwd
}

// downloadedCode is code computed by a download: $(curl …), `wget -qO- …`.
var downloadedCode = lazyRE("(?:\\$\\(|`)\\s*(?:[\\w./-]*/)?(?:curl|wget|aria2c|fetch|http|https|xh)\\s")

// rest returns args from i on, or nil.
func (iv *inv) rest(i int) []arg {
	if i >= len(iv.args) {
		return nil
	}
	return iv.args[i:]
}

// assignOnly handles "a=b c=d" with no command.
func (c *classifier) assignOnly(as []*syntax.Assign, sc *scope) int {
	var args []arg
	for _, a := range as {
		if a.Name != nil {
			args = append(args, arg{s: a.Name.Value + "=", ok: true, src: a.Name.Value + "="})
		}
	}
	idx := c.record(args)
	c.cmds[idx].vetted = true // unless assign says otherwise
	for _, a := range as {
		c.assign(idx, a, sc, false)
	}
	return idx
}

// assign checks one variable assignment. Some variables hold code that the
// shell or a tool runs later (PROMPT_COMMAND, GIT_SSH_COMMAND), so their
// values are re-parsed. prefix is true for "VAR=x cmd".
func (c *classifier) assign(idx int, a *syntax.Assign, sc *scope, prefix bool) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	if sc.xtrace && a.Value != nil { // set -x; TOKEN=$(vault read …): the trace prints TOKEN=its value
		val := arg{src: wordSource(sc.src, a.Value)}
		if _, ok := c.literal(sc, a.Value); !ok && (secretVar.MatchString("$"+name) || expandsSecret(val) != "") {
			c.flag(idx, Destructive, "set -x prints the assignment of "+name+" with its value, a secret (what it prints reaches the agent and its model)")
		}
	}
	if a.Value != nil && publicBuildVar(name) {
		if v := expandsSecret(arg{src: wordSource(sc.src, a.Value)}); v != "" && !publicValue.MatchString(v) {
			c.flag(idx, Destructive, name+" is a variable a front-end build writes into the code it ships to every browser, and it is given the value of "+v+", a secret")
		}
	}
	kind := varKind(name)
	if kind == varPlain {
		return
	}
	if kind == varEnv {
		c.unvet(idx, "not known to be safe: sets "+name)
	}
	if !prefix {
		c.flag(idx, Write, "")
	}
	if a.Value == nil {
		return
	}
	val := arg{src: wordSource(sc.src, a.Value)}
	if s, ok := c.literal(sc, a.Value); ok {
		val = arg{s: s, ok: true, src: s}
	}
	switch kind {
	case varCode:
		iv := &inv{c: c, idx: idx, name: name, sc: sc}
		_ = iv.shell(val, sc)
		if strings.HasSuffix(name, "ASKPASS") && val.ok {
			iv.helperProgram(name, val.s)
		}
	case varPrompt:
		if !val.ok || strings.Contains(val.s, "$(") || strings.Contains(val.s, "`") {
			c.flag(idx, Unparseable, name+" runs command substitutions at every prompt")
		}
	}
}

type varClass int

const (
	varPlain  varClass = iota
	varEnv             // changes how later commands run (PATH, LD_PRELOAD)
	varCode            // holds shell code run later
	varPrompt          // prompt strings: $(…) in them runs at every prompt
)

// varKind says what assigning a variable can do.
func varKind(name string) varClass {
	switch name {
	case "PROMPT_COMMAND", "BASH_ENV", "ENV", "GIT_SSH_COMMAND", "GIT_PAGER", "PAGER",
		"GIT_EDITOR", "EDITOR", "VISUAL", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS",
		"GIT_SSH", "GIT_PROXY_COMMAND", "MANPAGER", "LESSOPEN", "LESSCLOSE", "GIT_SEQUENCE_EDITOR",
		"BROWSER", "SUDO_ASKPASS", "DIFFTOOL", "GIT_DIFFTOOL":
		return varCode
	case "PS0", "PS1", "PS2", "PS4":
		return varPrompt
	case "PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "IFS",
		"HOME", "CDPATH", "SHELLOPTS", "BASHOPTS", "PYTHONSTARTUP", "NODE_OPTIONS":
		return varEnv
	}
	return varPlain
}

// decl handles export, declare, local, readonly, typeset.
func (w *walker) decl(d *syntax.DeclClause, sc *scope) int {
	c := w.c
	args := []arg{{s: d.Variant.Value, ok: true, src: d.Variant.Value}}
	for _, a := range d.Args {
		if d.Variant.Value == "export" && a.Naked && a.Name == nil && a.Value != nil && substOf(a.Value) != nil {
			env := sc.sub() // export $(grep -v '^#' .env | xargs): its output becomes the environment
			env.intoEnv = true
			w.nodeWords(a, env)
		} else {
			w.assignWords(a, sc)
		}
		switch {
		case a.Name != nil:
			w.taint(a.Name.Value, a.Value, sc) // export TOKEN_DUMP=$(curl -s localhost:8080/actuator/env)
			args = append(args, arg{s: a.Name.Value, ok: true, src: a.Name.Value})
		case a.Value != nil:
			if fs, err := c.fields(sc, []*syntax.Word{a.Value}); err == nil {
				args = append(args, fs...)
			}
		}
	}
	idx := c.record(args)
	c.cmds[idx].vetted = true // unless assign says otherwise
	// export, declare -x alone print the environment
	dumpsEnvironment(&inv{c: c, idx: idx, args: args, name: args[0].s, sc: sc})
	for _, a := range d.Args {
		c.assign(idx, a, sc, false)
		if a.Name != nil && !a.Naked {
			c.flag(idx, Write, "")
		}
	}
	return idx
}

// substOf is the command substitution a word is, quoted or not (all it
// holds is that command's output), or nil.
func substOf(w *syntax.Word) *syntax.CmdSubst {
	parts := w.Parts
	if dq, ok := parts[0].(*syntax.DblQuoted); len(parts) == 1 && ok {
		parts = dq.Parts
	}
	if len(parts) != 1 {
		return nil
	}
	cs, _ := parts[0].(*syntax.CmdSubst)
	return cs
}

// assignWords walks the substitutions of an assignment. One whose output
// is the whole value of a variable named for a credential (GH_TOKEN,
// NPM_TOKEN) that nothing in the command expands ($GH_TOKEN) goes only
// into the environment of the tools run here, which read it themselves
// (GH_TOKEN=$(gh auth token) gh pr list, export NPM_TOKEN=$(op read …)
// && npm ci): it is used, not shown (scope.credUse).
func (w *walker) assignWords(a *syntax.Assign, sc *scope) {
	if a.Name != nil && a.Value != nil && !a.Append && a.Index == nil && substOf(a.Value) != nil {
		name := a.Name.Value
		if secretVar.MatchString("$"+name) && !w.c.mentions("$"+name) && !w.c.mentions("${"+name) && !w.c.mentions("!"+name) {
			w.credWords(a, sc)
			return
		}
	}
	w.nodeWords(a, sc)
}

// argWords walks the substitutions of a command's words. An HTTP client's
// Authorization header given a token made for every host it sends to
// (ownVendorAuth) signs in with it: the token is used, not shown.
func (w *walker) argWords(ce *syntax.CallExpr, sc *scope) {
	if len(ce.Args) < 2 || !authClients[litOf(ce.Args[0])] {
		w.words(sc, ce.Args...)
		return
	}
	words, known := make([]string, len(ce.Args)), make([]bool, len(ce.Args))
	for i, a := range ce.Args {
		words[i], known[i] = wordSource(sc.src, a), quotedLiteral(a)
		if known[i] {
			words[i] = strings.Trim(words[i], `"'`)
		}
	}
	hosts := clientHosts(words, known)
	for i, a := range ce.Args {
		if !known[i] && i > 0 && ownVendorAuth(words[i], words[i-1], hosts) {
			w.credWords(a, sc)
			continue
		}
		w.words(sc, a)
	}
}

// credWords walks the substitutions of n as giving a credential to be
// used, not shown (scope.credUse).
func (w *walker) credWords(n syntax.Node, sc *scope) {
	used := *sc
	used.credUse = true
	w.nodeWords(n, &used)
}

// funcDecl walks a function body (defining it is enough to count it) and
// recognises fork bombs: a function that calls itself more than once, or
// in the background.
func (w *walker) funcDecl(fd *syntax.FuncDecl, sc *scope) {
	if fd.Name == nil {
		w.stmt(fd.Body, sc.sub(), source{})
		return
	}
	name := fd.Name.Value
	if w.c.funcs == nil {
		w.c.funcs = map[string]*funcDef{}
	}
	def := &funcDef{body: fd.Body, sc: *sc, w: w, walked: map[string]bool{}}
	w.c.funcs[name] = def
	if readsParams(fd.Body) {
		// f(){ rm "$@"; }; f -rf ~/.ssh: judged where it is called, with
		// the arguments it is given, or once after the script if it is
		// never called (walkUncalled).
		w.c.uncalled = append(w.c.uncalled, def)
	} else {
		def.walked[sc.cwd] = true
		w.stmt(fd.Body, sc.sub(), source{})
	}
	calls, bg := 0, false
	syntax.Walk(fd.Body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Stmt:
			if x.Background && callsName(x, name) {
				bg = true
			}
		case *syntax.CallExpr:
			if len(x.Args) > 0 && litOf(x.Args[0]) == name {
				calls++
			}
		}
		return true
	})
	if calls >= 2 || (calls >= 1 && bg) {
		idx := w.c.record(argsOf(name + "()"))
		w.c.flag(idx, Destructive, fmt.Sprintf("fork bomb: function %s starts copies of itself", name))
	}
}

// funcDef is a function the command defines. Its body runs where it is
// called, not where it is defined (f(){ rm -rf .ssh; }; cd ~; f): a call
// in another directory, or with other arguments all known, judges the
// body again there, once per directory and arguments, up to maxFuncDirs
// of them, then once in an unknown directory with unknown arguments.
type funcDef struct {
	body   *syntax.Stmt
	sc     scope // where it was defined: its script text and variables
	w      *walker
	walked map[string]bool // the directories (and arguments) its body was judged in
}

const maxFuncDirs = 8

// callFunc judges the body of a function the command defined, called
// in sc.
func (c *classifier) callFunc(fd *funcDef, sc *scope, args []arg) {
	cwd := sc.cwd
	var params *[]string // the call's arguments, if all are known
	key := cwd
	if len(args) > 0 && len(fd.walked) < maxFuncDirs {
		list := make([]string, 0, len(args))
		for _, a := range args {
			if !a.ok {
				list = nil
				break
			}
			list = append(list, a.s)
			key += "\x00" + a.s
		}
		if list != nil {
			params = &list
		} else {
			key = cwd
		}
	}
	if len(fd.walked) >= maxFuncDirs {
		cwd, key = "", ""
	}
	if fd.walked[key] {
		return
	}
	fd.walked[key] = true // before the walk: a body that calls itself stops here
	in := fd.sc.sub()
	in.cwd, in.remote, in.piped, in.params = cwd, sc.remote, sc.piped, params
	fd.w.stmt(fd.body, in, source{})
}

// callsName reports whether a call to name occurs under n.
func callsName(n syntax.Node, name string) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && litOf(ce.Args[0]) == name {
			found = true
		}
		return !found
	})
	return found
}

// dataTools print or search their words rather than run them.
var dataTools = map[string]bool{
	"echo": true, "printf": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true,
	"git": true, "jq": true, "yq": true, "awk": true, "gawk": true, "test": true, "[": true,
}

// isAssignment reports whether s is NAME=value with NAME a shell variable
// name.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" || (name[0] >= '0' && name[0] <= '9') {
		return false
	}
	for _, r := range name {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// infraTools manage remote or stored state: after their own handler, their
// words are read for the effect as for a tool the catalogue does not know.
var infraTools = map[string]bool{
	"kubectl": true, "oc": true, "k": true, "docker": true, "podman": true, "nerdctl": true, "terraform": true,
	"tofu": true, "terragrunt": true, "aws": true, "pulumi": true, "helm": true, "redis-cli": true, "valkey-cli": true,
	"psql": true, "mysql": true, "mariadb": true, "sqlite3": true, "sqlite": true, "duckdb": true, "clickhouse-client": true,
	"cockroach": true, "mongosh": true, "mongo": true, "gcloud": true, "az": true, "gh": true, "doctl": true, "heroku": true,
	"flyctl": true, "fly": true, "vercel": true, "netlify": true, "gsutil": true, "firebase": true, "supabase": true,
}

// dbClients are the infrastructure tools whose first operand is the
// database they connect to (psql "$DATABASE_URL" -c '\dt'), not a verb:
// what they run is the query they are given, judged as such.
var dbClients = map[string]bool{
	"psql": true, "mysql": true, "mariadb": true, "sqlite3": true, "sqlite": true, "duckdb": true,
	"clickhouse-client": true, "mongosh": true, "mongo": true,
}

// downloadedFile is a process substitution of a download given to a
// command where it takes its script, program or build file: its first
// operand, or the value of -f/--file.
func downloadedFile(args []arg) (arg, bool) {
	operand := true // no operand before this one
	for i, a := range args {
		if !a.ok && strings.HasPrefix(a.src, "<(") && (fetched.MatchString(a.src) || strings.Contains(a.src, "://")) {
			prev := ""
			if i > 0 && args[i-1].ok {
				prev = args[i-1].s
			}
			if operand || prev == "-f" || prev == "--file" || prev == "--makefile" || prev == "--rcfile" || prev == "--init-file" {
				return a, true
			}
		}
		if !a.ok || !strings.HasPrefix(a.s, "-") {
			operand = false
		}
	}
	return arg{}, false
}

// opensTunnel reports whether a command opens a tunnel or proxy from this
// machine's loopback to another (kubectl proxy and port-forward, a cloud
// SQL proxy, an IAP tunnel, an SSM port-forwarding session), so that
// requests to loopback after it reach that other machine.
func opensTunnel(iv *inv) bool {
	w := strs0(iv.rest(1))
	switch iv.name {
	case "kubectl", "oc", "k":
		return contains(w, "proxy") || contains(w, "port-forward")
	case "cloud-sql-proxy", "cloud_sql_proxy", "alloydb-auth-proxy", "pgbouncer":
		return true
	case "gcloud":
		return contains(w, "start-iap-tunnel")
	case "aws":
		return contains(w, "start-session") && slices.ContainsFunc(w, func(s string) bool { return strings.Contains(s, "PortForwarding") })
	}
	return false
}

// ssmCommands is the list of commands an SSM document runs, as its
// parameters give it: commands=["…"], {"commands":["…"]}.
var ssmCommands = lazyRE(`(?i)["']?commands["']?\s*[=:]\s*\[([^\]]*)\]`)

// remotePayloads is the shell code a cloud CLI runs on the machines it
// names: aws ssm send-command's commands, az vm run-command's --scripts,
// gcloud compute ssh's --command. It runs there as ssh host cmd does.
func remotePayloads(iv *inv) []string {
	args := iv.rest(1)
	w := strs0(args)
	var opt string
	switch {
	case iv.name == "aws" && contains(w, "ssm") && contains(w, "send-command"):
		opt = "--parameters"
	case iv.name == "az" && contains(w, "run-command"):
		opt = "--scripts"
	case iv.name == "gcloud" && contains(w, "ssh"):
		opt = "--command"
	case (iv.name == "fly" || iv.name == "flyctl") && contains(w, "ssh"):
		opt = "-C" // fly ssh console -C printenv
	case iv.name == "cf" && contains(w, "ssh"):
		opt = "-c"
	case iv.name == "eb" && contains(w, "ssh"):
		opt = "--command"
	case iv.name == "doctl" && contains(w, "ssh"):
		opt = "--ssh-command"
	case iv.name == "heroku" && (at(w, 0) == "run" || at(w, 0) == "run:detached"):
		if cmd := herokuCommand(args[1:]); cmd != "" {
			return []string{cmd} // heroku run printenv -a app: the words, joined, run by the dyno's shell
		}
		return nil
	default:
		return nil
	}
	long := map[string]string{"-C": "--command", "-c": "--command"}[opt]
	var out []string
	for i, a := range args {
		val := ""
		switch {
		case !a.ok:
			continue
		case (a.s == opt || long != "" && a.s == long) && i+1 < len(args) && args[i+1].ok:
			val = args[i+1].s
		case strings.HasPrefix(a.s, opt+"="):
			val = strings.TrimPrefix(a.s, opt+"=")
		case long != "" && strings.HasPrefix(a.s, long+"="):
			val = strings.TrimPrefix(a.s, long+"=")
		default:
			continue
		}
		if opt != "--parameters" {
			out = append(out, val)
			continue
		}
		for _, m := range ssmCommands.FindAllStringSubmatch(val, 4) {
			for rest := strings.TrimSpace(m[1]); rest != ""; {
				lit, n, ok := stringLitN(rest)
				if !ok {
					out = append(out, rest) // commands=[rm -rf /x] in the shorthand syntax
					break
				}
				out = append(out, lit)
				rest = strings.TrimLeft(rest[n:], " ,")
			}
		}
	}
	return out
}

// herokuCommand is the command line heroku run is given, without its
// own options (-a app, --size x, -x), which stand anywhere before --:
// its words joined, as the dyno's shell reads them; "" if it is given
// none or a word is not known.
func herokuCommand(args []arg) string {
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		opt, _, eq := strings.Cut(a.s, "=")
		switch {
		case !a.ok:
			return ""
		case a.s == "--":
			for _, b := range args[i+1:] {
				if !b.ok {
					return ""
				}
				words = append(words, b.s)
			}
			return strings.Join(words, " ")
		case herokuValues[opt] || herokuFlags[a.s]: // heroku run bash -a app: its options stand anywhere before --
			if !eq && herokuValues[opt] {
				i++
			}
		default:
			words = append(words, a.s)
		}
	}
	return strings.Join(words, " ")
}

// herokuFlags are heroku run's options that take no value.
var herokuFlags = setOf("-x", "--exit-code", "--no-tty", "--no-notify")

// herokuValues are heroku run's options that take the next word.
var herokuValues = setOf("-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env", "--type")

// playbookState is a task's state that removes or stops what it manages
// (state=absent, state: absent), and playbookShell a shell or command
// module's command line.
var (
	playbookState = lazyRE(`\bstate\s*[:=]\s*["']?(absent|stopped|killed)\b`)
	playbookShell = lazyRE(`(?m)^\s*-?\s*(?:ansible\.builtin\.)?(?:shell|command|raw)\s*:\s*(.+)$`)
)

// playbook judges ansible-playbook by its playbook's tasks when this
// command gives their text: a process substitution (<(printf …)), a
// heredoc on /dev/stdin, or a file it wrote. A task that removes a path
// or package, or stops a service, is held; a shell task's command is
// judged as run on the managed hosts.
func playbook(iv *inv) {
	var texts []string
	for _, a := range iv.rest(1) {
		switch {
		case !a.ok && strings.HasPrefix(a.src, "<("):
			texts = append(texts, a.src) // the text is written out in the command that prints it
		case a.ok && (a.s == "/dev/stdin" || a.s == "-") && iv.in.kind == srcText:
			texts = append(texts, iv.in.text)
		case a.ok && !strings.HasPrefix(a.s, "-"):
			if src, ok := iv.c.written[iv.c.resolve(iv.sc, a).path]; ok && src.kind == srcText {
				texts = append(texts, src.text)
			}
		}
	}
	for _, t := range texts {
		t = strings.ReplaceAll(t, `\n`, "\n")
		if m := playbookState.FindString(t); m != "" {
			iv.flag(Destructive, "ansible-playbook runs a task that removes or stops what it manages on every host it targets: "+m)
		}
		for _, m := range playbookShell.FindAllStringSubmatch(t, 8) {
			code := strings.Trim(strings.TrimSpace(m[1]), `"'`)
			iv.shell(arg{s: code, ok: true, src: code}, remote(iv.sc))
		}
	}
}

// helperOpts are options whose value is a program a tool runs for it: for
// a password (wget --use-askpass), as a proxy (ssh -o ProxyCommand=…).
var helperOpts = map[string]bool{"--use-askpass": true, "ProxyCommand": true, "--askpass": true, "--password-command": true}

// runsHelper judges the program a helper option names as code: by its text
// when this command wrote it, and held when it lies outside the working
// directory where tend cannot read it. A program named without a slash is
// found on PATH, an installed one.
func runsHelper(iv *inv) {
	args := iv.rest(1)
	for i, a := range args {
		if !a.ok {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimPrefix(a.s, "-o"), "=")
		if !eq && helperOpts[name] && i+1 < len(args) && args[i+1].ok {
			val, eq = args[i+1].s, true
		}
		if !eq || !helperOpts[name] {
			continue
		}
		prog, _, _ := strings.Cut(strings.TrimSpace(val), " ")
		if !strings.Contains(prog, "/") {
			continue
		}
		if !iv.runsWritten(arg{s: iv.c.tilde(prog), ok: true, src: prog}, func(code arg) { iv.shell(code, iv.sc) }) {
			iv.helperProgram(name, prog)
		}
	}
}

// helperProgram holds a helper program (the first word of cmd, a path)
// that this command did not write and that lies neither in the working
// directory nor in a system directory, where installed programs are:
// tend cannot read what it does with the credentials it is handed.
func (iv *inv) helperProgram(what, cmd string) {
	prog, _, _ := strings.Cut(strings.TrimSpace(cmd), " ")
	if !strings.Contains(prog, "/") {
		return // found on PATH: an installed program
	}
	t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(prog), ok: true, src: prog})
	if _, wrote := iv.c.written[t.path]; wrote {
		return // judged by its text where it runs
	}
	if t.path == "" || t.path != iv.c.project && !isUnder(t.path, iv.c.project) && !isSystemPath(t.path) {
		who := iv.name + " runs "
		if iv.name == what {
			who = "runs "
		}
		iv.flag(Destructive, who+prog+" for "+what+", a program outside the working directory whose code tend cannot read")
	}
}

// mavenExec judges the program Maven's exec plugin runs (mvn exec:exec,
// or the plugin's coordinates ending in :exec) when the command names it
// with -Dexec.executable and -Dexec.args: a command line like any other.
func mavenExec(iv *inv) {
	if iv.name != "mvn" && iv.name != "mvnw" {
		return
	}
	var prog, args string
	goal := false
	for _, a := range iv.rest(1) {
		if !a.ok {
			continue
		}
		if v, ok := strings.CutPrefix(a.s, "-Dexec.executable="); ok {
			prog = v
		} else if v, ok := strings.CutPrefix(a.s, "-Dexec.args="); ok {
			args = v
		} else if !strings.HasPrefix(a.s, "-") && (a.s == "exec:exec" || strings.Contains(a.s, "exec-maven-plugin") && strings.HasSuffix(a.s, ":exec")) {
			goal = true
		}
	}
	if goal && prog != "" {
		code := strings.TrimSpace(prog + " " + args)
		iv.shell(arg{s: code, ok: true, src: code}, iv.sc)
	}
}

// publicBuildVar reports whether a variable's name has the prefix by which
// a front-end build (Create React App, Next.js, Vite, Expo, Nuxt,
// SvelteKit, Astro, Gatsby, Vue CLI, Angular's @ngx-env, Elm's
// create-elm-app, Storybook, Sanity, Plasmo, Redwood) takes it into the
// bundle it makes: whatever it holds is readable in the shipped code.
func publicBuildVar(name string) bool {
	for _, p := range []string{"REACT_APP_", "NEXT_PUBLIC_", "VITE_", "EXPO_PUBLIC_", "NUXT_PUBLIC_", "NUXT_ENV_", "PUBLIC_", "GATSBY_",
		"VUE_APP_", "NG_APP_", "ELM_APP_", "STORYBOOK_", "SANITY_STUDIO_", "PLASMO_PUBLIC_", "REDWOOD_ENV_", "SNOWPACK_PUBLIC_", "PARCEL_PUBLIC_", "TAURI_PUBLIC_"} {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return true
		}
	}
	return false
}

// publicValue is a variable named for a value made to be public: Stripe's
// publishable key, Supabase's anon key, a client id, a site key, a
// browser or public token.
var publicValue = lazyRE(`(?i)PUBLI(?:C|SHABLE)|ANON|CLIENT_?ID|SITE_?KEY|BROWSER|FRONTEND|MEASUREMENT|_DSN\b`)

// readsParams reports whether a function body reads its positional
// parameters ($1, "$@", $*, $#, shift), outside code it hands to other
// shells, which have their own.
func readsParams(body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ParamExp:
			if x.Param != nil && len(x.Param.Value) == 1 && strings.ContainsAny(x.Param.Value, "@*#123456789") {
				found = true
			}
		case *syntax.CallExpr:
			if len(x.Args) > 0 && litOf(x.Args[0]) == "shift" {
				found = true
			}
		}
		return !found
	})
	return found
}

// walkUncalled judges, once each, the bodies of the functions w's script
// defined that read their parameters and that no call judged.
func (w *walker) walkUncalled() {
	for _, fd := range w.c.uncalled {
		if fd.w == w && len(fd.walked) == 0 {
			fd.walked[fd.sc.cwd] = true
			w.stmt(fd.body, fd.sc.sub(), source{})
		}
	}
}
