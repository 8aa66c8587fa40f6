package policy

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Credentials a command makes (round r50a): a cloud's access key, a
// service principal's password, an API token, a private key. What it
// prints, or the file it writes the new credential into, is a secret like
// any other: sending it off the machine (a bucket, an issue comment, a
// gist) is held as sending ~/.aws/credentials is.

// mintVerbs are the verbs that make a credential, or a new value of one.
var mintVerbs = setOf("create", "generate", "gen", "mint", "issue", "new", "reset", "renew", "regenerate", "rotate", "roll")

// mintNouns are the words that name a credential whose value is printed
// when it is made: a token, an access or API key, a key pair, a
// credential, an authorization (heroku authorizations:create). Not a
// key alone (gcloud kms keys create, aws kms create-key keep the key
// material to themselves) nor a secret (kubectl create secret, gh secret
// set store a value given them and print its name).
var mintNouns = setOf("token", "tokens", "credential", "credentials", "cred", "creds", "authorization", "authorizations",
	"apikey", "apikeys", "accesskey", "accesskeys", "keypair", "keypairs")

// keyQualifiers make "key" a credential's name: an access key, an API
// key, a key pair, keys and a certificate (aws iot
// create-keys-and-certificate), a service account's key; not an SSH or
// deploy key, whose public half is what is added.
var keyQualifiers = setOf("access", "api", "pair", "certificate", "account", "secret", "signing")

// mintsCredential says why a command prints a credential it makes, by its
// verbs (w, its words that are no option): aws iam create-access-key, aws
// ec2 create-key-pair, az ad sp create-for-rbac, az ad sp credential
// reset, npm token create, vault token create, heroku
// authorizations:create, stripe api_keys create, openstack application
// credential create, az storage account keys renew; "" if it does not.
func mintsCredential(name string, w []string) string {
	n := min(len(w), maxVerbWords)
	for i := range n {
		v := w[i]
		if len(v) > 40 || strings.ContainsAny(v, "/.=@ ") {
			continue // a path or a value (tests/test_token.py::test_reset), not a verb
		}
		if v == "create-for-rbac" { // az ad sp create-for-rbac: a service principal and its password, printed
			return name + " " + strings.Join(w[:i+1], " ") + " makes a service principal and prints its password"
		}
		if !mintVerbs[v] && !(strings.ContainsAny(v, "-_:") && mintShaped(v)) {
			continue // cheap: this runs for the first words of every command
		}
		parts := words(strings.ToLower(v))
		if len(parts) > 1 && (mintVerbs[parts[0]] || strings.Contains(v, ":") && mintVerbs[parts[len(parts)-1]]) && mintedNoun(parts) {
			return name + " " + strings.Join(w[:i+1], " ") + " makes a credential and prints it" // create-access-key, tokens:create
		}
		if !mintVerbs[v] {
			continue
		}
		for _, j := range []int{i - 1, i + 1} { // npm token create, kubectl create token, az storage account keys renew
			if j < 0 || j >= n {
				continue
			}
			p := words(strings.ToLower(w[j]))
			if mintedNoun(p) || len(p) == 1 && p[0] == "keys" && (v == "renew" || v == "regenerate" || v == "rotate" || v == "roll") {
				return name + " " + strings.Join(w[:max(i, j)+1], " ") + " makes a credential and prints it"
			}
		}
	}
	return ""
}

// mintShaped reports whether a word may join a verb and a credential's
// name (create-access-key, authorizations:create), before it is split.
func mintShaped(v string) bool {
	for _, n := range []string{"oken", "ey", "red", "uthorization"} {
		if strings.Contains(v, n) {
			return true
		}
	}
	return false
}

// mintedNoun reports whether the parts of a word name a credential made
// to be used by its value (mintNouns, or a key with a qualifier).
func mintedNoun(parts []string) bool {
	key := false
	for _, p := range parts {
		if mintNouns[p] {
			return true
		}
		key = key || p == "key" || p == "keys"
	}
	return key && slices.ContainsFunc(parts, func(p string) bool { return keyQualifiers[p] })
}

// keygens are the tools that make a private key: ssh-keygen, openssl's
// genrsa, genpkey, gendsa, ecparam -genkey and req -newkey, wg genkey and
// genpsk, age-keygen, step crypto keypair, and a cloud's service-account
// key (gcloud iam service-accounts keys create FILE).
var keygens = setOf("ssh-keygen", "openssl", "wg", "age-keygen", "step", "gcloud")

// madeKey says where a command puts a private key it makes: the file, or
// "-" for its stdout; "" if it makes none. The public half (ssh-keygen
// writes FILE.pub, openssl req -out the request) is no secret.
func madeKey(name string, args []arg) string {
	if !keygens[name] {
		return ""
	}
	_, ops := opts(args)
	w := strs0(ops)
	out := func(opt string) string {
		for i, a := range args {
			switch {
			case !a.ok:
			case a.s == opt && i+1 < len(args) && args[i+1].ok:
				return args[i+1].s
			case strings.HasPrefix(a.s, opt+"="):
				return strings.TrimPrefix(a.s, opt+"=")
			}
		}
		return ""
	}
	stdout := func(f string) string {
		if f == "" || toStdout(f) {
			return "-"
		}
		return f
	}
	switch name {
	case "ssh-keygen":
		for _, a := range args {
			if a.ok && len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.ContainsAny(a.s[1:], "ylRFHpceiDLsQkYBrgGTMAIn") {
				return "" // -y prints the public half, -l a fingerprint, -p changes a passphrase, -s signs, -A makes host keys
			}
		}
		return out("-f") // no -f: ~/.ssh/id_*, asked for or written there
	case "openssl":
		switch at(w, 0) {
		case "genrsa", "genpkey", "gendsa":
			return stdout(out("-out"))
		case "ecparam":
			if hasWord(args, "-genkey") {
				return stdout(out("-out"))
			}
		case "req":
			if hasWord(args, "-newkey") || hasWord(args, "-new") && !hasWord(args, "-key") {
				return out("-keyout") // none: privkey.pem, beside
			}
		}
	case "wg":
		if at(w, 0) == "genkey" || at(w, 0) == "genpsk" {
			return "-"
		}
	case "age-keygen":
		if hasWord(args, "-y") {
			return ""
		}
		return stdout(out("-o"))
	case "step":
		if at(w, 0) == "crypto" && at(w, 1) == "keypair" && len(w) > 3 {
			return w[3] // step crypto keypair PUB PRIV
		}
	case "gcloud":
		for i := range w {
			if i > 0 && i+2 < len(w) && w[i] == "keys" && w[i+1] == "create" && (w[i-1] == "service-accounts" || w[i-1] == "iam") {
				return stdout(w[i+2]) // gcloud iam service-accounts keys create FILE
			}
		}
	}
	return ""
}

// keyMadeInto records the file a command writes a private key it makes
// into as holding a secret (named: reading it is no leak, sending it is).
func keyMadeInto(iv *inv) {
	f := madeKey(iv.name, iv.rest(1))
	if f == "" || f == "-" || publicKey(f) || strings.HasSuffix(path.Base(f), ".pub") {
		return
	}
	iv.c.wrote(iv.sc, arg{s: f, ok: true, src: f}, source{kind: srcSecret, text: "a private key " + iv.name + " made", named: true}, false)
}

// remoteRunners are the tools that run a command on another machine or in
// a container (ssh, kubectl exec, docker exec, fly ssh console -C, heroku
// run, gcloud compute ssh --command, cf ssh -c, az vm run-command), or
// with a platform's secrets put in its environment (railway run, doppler
// run, op run, infisical run, aws-vault exec), and give back what it
// prints.
var remoteRunners = setOf("ssh", "kubectl", "oc", "docker", "podman", "nerdctl", "docker-compose", "fly", "flyctl", "heroku", "dokku",
	"gcloud", "cf", "eb", "doctl", "az", "lxc", "incus", "vagrant", "multipass", "minikube", "kamal", "gh", "railway", "doppler", "op",
	"infisical", "aws-vault", "dotenvx", "teller", "chamber")

// remoteRunVerbs are the words by which those tools run a command: exec, run,
// ssh, shell, console, enter.
var remoteRunVerbs = setOf("exec", "run", "ssh", "shell", "console", "enter", "run-command", "exec-env")

// remoteEnvDump reports whether a command prints, through a remote shell
// or a runner that puts secrets in the environment, every environment
// variable where it runs: fly ssh console -C env, heroku run printenv,
// kubectl exec pod -- env, docker exec app env, ssh host env, railway run
// env, gcloud compute ssh vm --command 'env | sort'. A server's variables
// are its secrets, as the local environment's are.
func remoteEnvDump(name string, args []arg) bool {
	if !remoteRunners[name] || len(args) == 0 || !slices.ContainsFunc(args, func(a arg) bool {
		return strings.Contains(a.s, "env") || strings.Contains(a.s, "export") || strings.Contains(a.s, "declare") ||
			strings.Contains(a.s, "set") || strings.Contains(a.s, "typeset")
	}) {
		return false // cheap: no word that could print the environment
	}
	w := strs0(args)
	if name != "ssh" && !slices.ContainsFunc(w[:min(len(w), maxVerbWords)], func(s string) bool { return remoteRunVerbs[s] }) {
		return false // docker run alpine env: a container the command starts has the image's environment (dumpsEnvironment)
	}
	if slices.Contains(w, "run") && (name == "docker" || name == "podman" || name == "nerdctl") {
		return false
	}
	iv := &inv{name: name, args: append([]arg{{s: name, ok: true, src: name}}, args...)}
	if name != "aws" {
		for _, p := range remotePayloads(iv) {
			if dumpsEnvText(p) {
				return true
			}
		}
	}
	last := args[len(args)-1]
	if !last.ok {
		return false
	}
	if strings.ContainsAny(last.s, " \t\n;|") {
		return dumpsEnvText(last.s) // ssh host 'env | sort', kubectl exec pod -- sh -c 'printenv'
	}
	n := len(args)
	if n >= 2 && args[n-2].ok && dumpsEnvText(args[n-2].s+" "+last.s) && !strings.HasPrefix(args[n-2].s, "-") {
		return true // printenv -0, export -p
	}
	shell := n >= 3 && args[n-3].ok && shells[path.Base(args[n-3].s)] && args[n-2].ok && strings.HasSuffix(args[n-2].s, "c") // kubectl exec pod -- sh -c env
	return dumpsEnvText(last.s) && (n < 2 || !args[n-2].ok || !optTakesValue(args[n-2].s) || shell)
}

// optTakesValue reports whether a word is a short or long option that
// may take the next word as its value (-c, --command; not -- nor -it).
func optTakesValue(s string) bool {
	return strings.HasPrefix(s, "-") && s != "--" && !strings.Contains(s, "=") && (len(s) == 2 || strings.HasPrefix(s, "--"))
}

// envDumps are the commands that print every environment variable.
var envDumps = setOf("env", "printenv", "env -0", "printenv -0", "env --null", "printenv --null", "export", "export -p", "declare -x",
	"declare -p", "declare -px", "declare -xp", "typeset -x", "typeset -p", "set", "cat /proc/1/environ", "cat /proc/self/environ")

// dumpsEnvText reports whether shell code prints every environment
// variable: env, printenv, export -p, alone or through filters that keep
// the lines (env | sort), after sh -c or bash -lc.
func dumpsEnvText(s string) bool {
	s = strings.TrimSpace(s)
	for _, sh := range []string{"sh -c ", "bash -c ", "bash -lc ", "sh -lc ", "/bin/sh -c ", "/bin/bash -c ", "bash -l -c "} {
		s = strings.TrimSpace(strings.Trim(strings.TrimPrefix(s, sh), `"'`))
	}
	if len(s) > 512 {
		return false
	}
	for _, seg := range strings.FieldsFunc(strings.ReplaceAll(strings.ReplaceAll(s, "&&", ";"), "||", ";"), func(r rune) bool { return r == ';' || r == '\n' }) {
		stages := strings.Split(seg, "|")
		if !envDumps[strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(stages[0]), "sudo ")), " ")] {
			continue
		}
		if !slices.ContainsFunc(stages[1:], func(st string) bool {
			f := strings.Fields(st)
			return len(f) == 0 || !passesLines[f[0]] || len(f) > 1 && f[0] == "head"
		}) {
			return true
		}
	}
	return false
}

// dropsSecretLines reports whether a search drops the lines that name the
// usual secrets (grep -v with a pattern naming passwords, secrets, tokens
// and keys alike): what goes on are the variables named for none of them.
func dropsSecretLines(name string, args []arg) bool {
	if name != "grep" && name != "egrep" && name != "rg" {
		return false
	}
	flags, ops := opts(args)
	if !hasFlag(flags, "v", "--invert-match") || len(ops) == 0 || !ops[0].ok {
		return false
	}
	p := strings.ToLower(ops[0].s)
	return strings.Contains(p, "pass") && strings.Contains(p, "secret") && strings.Contains(p, "token") && strings.Contains(p, "key")
}

// debugEnv are the variables that turn on a tool's trace of its requests,
// credentials among what it logs, with the values that do: terraform's
// and OpenTofu's TF_LOG at DEBUG, TRACE or JSON (the providers' requests
// and responses, tokens and sensitive values in them), Go's
// GODEBUG=http2debug=2 (every header, Authorization too).
func debugEnv(name, val string) bool {
	v := strings.ToLower(val)
	switch name {
	case "TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_CORE":
		return v == "debug" || v == "trace" || v == "json"
	case "GODEBUG":
		return strings.Contains(v, "http2debug=2")
	}
	return false
}

// tracesSecrets says why what a command writes to stderr holds
// credentials: a debug trace of its requests (debugEnv, aws --debug,
// which logs each request's headers, a session token among them, and each
// response's body); "" if it does not. env is what it is given, as
// NAME=value.
func tracesSecrets(name string, args []arg, env func(yield func(string, string) bool)) string {
	tf := name == "terraform" || name == "tofu" || name == "terragrunt"
	for n, v := range env {
		if debugEnv(n, v) && (tf || n == "GODEBUG") {
			return name + " with " + n + "=" + v + " logs its requests and responses, credentials and sensitive values among them"
		}
	}
	if name == "aws" && hasWord(args, "--debug") {
		return "aws --debug logs each request's headers, a session token among them, and each response's body"
	}
	return ""
}

// mergesStderr reports whether a statement sends its stderr where its
// stdout goes: 2>&1, &> file, >& file.
func mergesStderr(st *syntax.Stmt) bool {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
			return true
		case syntax.DplOut:
			if lit := litOf(r.Word); r.N != nil && r.N.Value == "2" && lit == "1" || r.N == nil && lit != "2" && lit != "-" {
				return true
			}
		}
	}
	return false
}

// stmtEnv yields the variables a statement's command is given: its
// assignments (TF_LOG=DEBUG terraform …), env's (env TF_LOG=DEBUG …),
// and what the script exported before it (export TF_LOG=DEBUG; …).
func stmtEnv(ce *syntax.CallExpr, sc *scope, wrapped []arg) func(yield func(string, string) bool) {
	return func(yield func(string, string) bool) {
		for _, as := range ce.Assigns {
			if as.Name != nil && as.Value != nil && !yield(as.Name.Value, litOf(as.Value)) {
				return
			}
		}
		for _, a := range wrapped {
			if n, v, ok := strings.Cut(a.s, "="); a.ok && ok && isAssignment(a.s) && !yield(n, v) {
				return
			}
		}
		for _, e := range sc.vars.environ(uint(ce.Pos().Offset())) {
			if n, _, ok := strings.Cut(e.src, "="); ok && !yield(n, e.s) {
				return
			}
		}
	}
}

// debugTools are the tools tracesSecrets knows the traces of.
var debugTools = setOf("terraform", "tofu", "terragrunt", "aws", "go", "kubectl", "helm", "gh", "docker", "vault", "consul", "nomad")

// traceInto records the file a tool writes a debug trace of its requests
// into as holding a secret: TF_LOG_PATH with TF_LOG at DEBUG or TRACE.
func traceInto(iv *inv) {
	if iv.name != "terraform" && iv.name != "tofu" && iv.name != "terragrunt" {
		return
	}
	env := iv.environ()
	file, on := "", false
	for _, e := range env {
		n, _, _ := strings.Cut(e.src, "=")
		switch {
		case n == "TF_LOG_PATH" && e.ok:
			file = e.s
		case debugEnv(n, e.s):
			on = true
		}
	}
	if on && file != "" {
		iv.c.wrote(iv.sc, arg{s: file, ok: true, src: file}, source{kind: srcSecret, text: iv.name + " logs its requests and responses there", named: true}, true)
	}
}

// tracedStderr says why what a simple command writes to stderr holds
// credentials (tracesSecrets); "" if it does not.
func (w *walker) tracedStderr(ce *syntax.CallExpr, sc *scope) string {
	if len(ce.Args) == 0 {
		return ""
	}
	if lit := litOf(ce.Args[0]); lit != "" && !debugTools[path.Base(lit)] && lit != "env" && lit != "sudo" {
		return "" // cheap: most commands are none of these
	}
	all, err := w.c.fields(sc, ce.Args)
	if err != nil || len(all) == 0 {
		return ""
	}
	args := unwrapQuiet(all)
	if len(args) == 0 || !args[0].ok || !debugTools[path.Base(args[0].s)] {
		return ""
	}
	return tracesSecrets(path.Base(args[0].s), args[1:], stmtEnv(ce, sc, all[:len(all)-len(args)]))
}

// outFileOpts are the options by which a tool is told the file to write
// what it prints into.
var outFileOpts = []string{"--out-file", "--output-file", "--output", "--outfile", "--file", "-o", "--out", "-out"}

// outFile is the value of the first of opts a command is given, "" if
// none.
func outFile(args []arg, opts ...string) string {
	for i, a := range args {
		if !a.ok {
			continue
		}
		for _, o := range opts {
			switch {
			case a.s == o && i+1 < len(args) && args[i+1].ok:
				return args[i+1].s
			case strings.HasPrefix(o, "--") && strings.HasPrefix(a.s, o+"="):
				return strings.TrimPrefix(a.s, o+"=")
			}
		}
	}
	return ""
}

// exportsSecrets says which file a command writes the secrets a tool
// keeps into, in plain text (an export, a download, a decryption to a
// file): airflow connections or variables export FILE, gcloud secrets
// versions access --out-file F, az keyvault secret download --file F, op
// read --out-file F, op inject -o F, op document get -o F, bw export
// --output F, sops -d --output F, ansible-vault decrypt [--output F]
// FILE, infisical export --output-file F, doppler secrets download F
// --no-encrypt, vercel env pull F, borg key export REPO F, gpg
// --export-secret-keys -o F. "" if none, or stdout (printsSecrets judges
// that).
func exportsSecrets(name string, args []arg) string {
	if !exporters[name] {
		return "" // cheap: this runs for every command
	}
	_, ops := opts(args)
	w := strs0(ops)
	f := ""
	switch name {
	case "airflow":
		if (at(w, 0) == "connections" || at(w, 0) == "variables") && at(w, 1) == "export" && len(w) > 2 {
			f = w[2]
		}
	case "gcloud":
		if slices.Contains(w, "secrets") && slices.Contains(w, "access") {
			f = outFile(args, "--out-file")
		}
	case "az":
		if at(w, 0) == "keyvault" && at(w, 1) == "secret" && at(w, 2) == "download" {
			f = outFile(args, "--file", "-f")
		}
	case "op":
		if at(w, 0) == "read" || at(w, 0) == "inject" || at(w, 0) == "document" && at(w, 1) == "get" {
			f = outFile(args, "--out-file", "--output", "-o")
		}
	case "bw":
		if at(w, 0) == "export" || at(w, 0) == "get" {
			f = outFile(args, "--output")
		}
	case "sops":
		if hasWord(args, "-d", "--decrypt") || at(w, 0) == "decrypt" {
			f = outFile(args, "--output")
		}
	case "ansible-vault":
		if at(w, 0) == "decrypt" {
			if f = outFile(args, "--output"); f == "" && len(w) > 1 {
				f = w[1] // decrypted in place
			}
		}
	case "infisical":
		if at(w, 0) == "export" {
			f = outFile(args, "--output-file")
		}
	case "doppler":
		if at(w, 0) == "secrets" && at(w, 1) == "download" && hasWord(args, "--no-encrypt") && !hasWord(args, "--no-file") {
			f = at(w, 2)
		}
	case "vercel":
		if at(w, 0) == "env" && at(w, 1) == "pull" {
			f = at(w, 2)
		}
	case "borg", "borgmatic":
		if at(w, 0) == "key" && at(w, 1) == "export" && len(w) > 3 {
			f = w[3]
		}
	case "gpg", "gpg2":
		if hasWord(args, "--export-secret-keys", "--export-secret-subkeys") {
			f = outFile(args, "--output", "-o")
		}
	}
	if toStdout(f) {
		return ""
	}
	return f
}

// exporters are the tools exportsSecrets knows.
var exporters = setOf("airflow", "gcloud", "az", "op", "bw", "sops", "ansible-vault", "infisical", "doppler", "vercel", "borg", "borgmatic", "gpg", "gpg2")

// exportedInto records the file a command exports secrets into
// (exportsSecrets) as holding them: what a later command sends.
func exportedInto(iv *inv) {
	if f := exportsSecrets(iv.name, iv.rest(1)); f != "" {
		iv.c.wrote(iv.sc, arg{s: f, ok: true, src: f}, source{kind: srcSecret, text: "the secrets " + iv.name + " exported"}, false)
	}
}
