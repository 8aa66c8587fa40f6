package policy

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Secret values a command puts in a file of the tree (source.values,
// classifier.filled): a secret variable's value that echo, printf, sed,
// awk, jq or yq write out or edit in (sed -i "s/x/$DB_PASSWORD/"), the
// environment that envsubst or compose config interpolates. Printing them
// is judged elsewhere, as what made them; a commit that takes the file in
// sends them to every clone of the repository (git.go: filledWithSecrets).

// valueFillers are the tools whose output holds the text of their words:
// a secret variable expanded in them (or, for jq, yq, awk and perl, an
// environment variable the program looks up) ends up in what they write.
var valueFillers = map[string]bool{
	"echo": true, "printf": true, "sed": true, "gsed": true, "awk": true, "gawk": true, "mawk": true, "nawk": true,
	"perl": true, "jq": true, "gojq": true, "yq": true, "sd": true, "envsubst": true,
	"docker": true, "podman": true, "docker-compose": true, "podman-compose": true,
}

// composeTools are valueFillers that fill by what they read, not by
// their words.
var composeTools = setOf("docker", "podman", "docker-compose", "podman-compose")

// envLookup is a program's lookup of an environment variable by name:
// jq's env.X and $ENV.X, yq's strenv(X) and env(X), awk's ENVIRON["X"],
// perl's $ENV{X}, ruby's ENV["X"], python's os.environ["X"] and getenv.
var envLookup = lazyRE(`(?:\benv\.|\$ENV\.|\bstrenv\(|\benv\(|ENVIRON\[|\$ENV\{|\bENV\[|\bENV\.fetch\(|\benviron\[|\benviron\.get\(|\bgetenv\()\s*["']?(\w+)`)

// valuesIn says which secret values the output of st carries that its
// kind does not say (source.values), or "". prev is what it reads.
func (w *walker) valuesIn(st *syntax.Stmt, sc *scope, prev source) string {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return ""
	}
	first := path.Base(litOf(ce.Args[0]))
	if _, wrapper := quietWrappers[first]; !valueFillers[first] && !wrapper && first != "env" {
		if passThrough[first] {
			return prev.values // envsubst < t | sort | tee config.yml
		}
		return ""
	}
	if first != "envsubst" && valueFillers[first] && !composeTools[first] {
		// What the other tools put in is named in their words: a
		// variable expanded, an environment variable looked up.
		expands := false
		for _, a := range ce.Args[1:] {
			if src := wordSource(sc.src, a); strings.Contains(src, "$") || strings.Contains(src, "env") || strings.Contains(src, "ENV") {
				expands = true
				break
			}
		}
		if !expands {
			if passThrough[first] {
				return prev.values
			}
			return ""
		}
	}
	args, err := w.c.fields(sc, ce.Args)
	if err != nil {
		return ""
	}
	args = unwrapQuiet(args)
	if len(args) == 0 || !args[0].ok {
		return ""
	}
	name := path.Base(args[0].s)
	if v := fillsValues(name, args[1:], prev); v != "" {
		return v
	}
	if passThrough[name] {
		return prev.values // envsubst < t | sed … | tee config.yml
	}
	return ""
}

// fillsValues says which secret values a tool of valueFillers puts in
// what it writes, given its words and its input, or "".
func fillsValues(name string, args []arg, in source) string {
	switch name {
	case "envsubst":
		return envsubstValues(args, in)
	case "docker", "podman", "docker-compose", "podman-compose":
		if how := composeConfig(name, args); how != "" {
			return "the environment's and .env's values, which " + how + " puts in"
		}
		return ""
	}
	if !valueFillers[name] {
		return ""
	}
	for _, a := range args {
		if v := secretIn(a); v != "" {
			return "the value of " + v
		}
	}
	switch name {
	case "jq", "gojq", "yq", "awk", "gawk", "mawk", "nawk", "perl":
		for _, a := range args {
			if v := looksUpSecret(a); v != "" {
				return "the value of $" + v
			}
		}
	}
	return ""
}

// looksUpSecret is the secret variable a program in a looks up in the
// environment by name (jq 'env.API_TOKEN'), or "".
func looksUpSecret(a arg) string {
	if !a.ok || !strings.ContainsAny(a.s, "vV") {
		return ""
	}
	for _, m := range envLookup.FindAllStringSubmatch(a.s, 4) {
		if printsSecretVar("$" + m[1]) {
			return m[1]
		}
	}
	return ""
}

// envsubstValues says what envsubst puts in: the environment's values
// for the variables its template names, all of them unless a shell
// format names only some ('$VERSION $IMAGE'); --variables lists names.
// A template known here (a heredoc) names the variables itself.
func envsubstValues(args []arg, in source) string {
	flags, ops := opts(args)
	if hasFlag(flags, "v", "--variables") || hasFlag(flags, "h", "--help") || hasFlag(flags, "V", "--version") {
		return ""
	}
	if len(ops) > 0 {
		for _, op := range ops {
			if !op.ok {
				return "the environment's values, which envsubst puts in"
			}
			if m := secretVar.FindString(op.s); m != "" && printsSecretVar(op.s) {
				return "the value of " + m + ", which envsubst puts in"
			}
		}
		return ""
	}
	if in.kind == srcText {
		if m := secretVar.FindString(in.text); m != "" && printsSecretVar(in.text) {
			return "the value of " + m + ", which envsubst puts in"
		}
		return ""
	}
	return "the environment's values, which envsubst puts in"
}

// composeConfig reports whether compose's words ask it to print the
// compose file with the environment and .env interpolated: config (or
// its old name, convert) without an option that prints only names or
// the file as written (composeListing). It returns how it was asked
// (docker compose config), or "".
func composeConfig(name string, args []arg) string {
	switch name {
	case "docker", "podman":
		if at(strs0(args), 0) != "compose" {
			return ""
		}
		args = args[1:]
		name += " compose"
	case "docker-compose", "podman-compose":
	default:
		return ""
	}
	verb := ""
	for i, a := range args {
		if !a.ok {
			continue
		}
		o, _, _ := strings.Cut(a.s, "=")
		switch {
		case composeListing[o]:
			return ""
		case verb == "" && !strings.HasPrefix(a.s, "-") && (i == 0 || !args[i-1].ok || !strings.HasPrefix(args[i-1].s, "-") || strings.Contains(args[i-1].s, "=")):
			verb = a.s
		}
	}
	if verb == "config" || verb == "convert" {
		return name + " " + verb
	}
	return ""
}

// secretIn is the secret variable a word expands, as the shell reads it
// (expandsSecret), but not a path to a secret's file ($SECRETS_FILE), or "".
func secretIn(a arg) string {
	if v := expandsSecret(a); v != "" && printsSecretVar(v) && !strings.Contains(a.src, "{"+v[1:]+":+") && !strings.Contains(a.src, "{"+v[1:]+"+") {
		return v // not ${TOKEN:+set}
	}
	return ""
}

// hdocValues is the secret variable an unquoted heredoc expands
// (cat > config.yml <<EOF … password: $DB_PASSWORD), or "".
func hdocValues(r *syntax.Redirect) string {
	if r.Hdoc == nil {
		return ""
	}
	for _, p := range r.Hdoc.Parts {
		if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil && !(pe.Exp != nil && (pe.Exp.Op == syntax.AlternateUnset || pe.Exp.Op == syntax.AlternateUnsetOrNull)) {
			if v := "$" + pe.Param.Value; printsSecretVar(v) {
				return "the value of " + v
			}
		}
	}
	return ""
}

// fillsInPlace records the files an in-place edit (sed -i, perl -pi,
// yq -i) puts a secret variable's value in, named in its words.
func (iv *inv) fillsInPlace(files []arg) {
	if iv.sc.remote || len(files) == 0 {
		return
	}
	v := ""
	for _, a := range iv.rest(1) {
		if v = secretIn(a); v != "" {
			v = "the value of " + v
			break
		}
	}
	if v == "" && (iv.name == "yq" || iv.name == "perl" || iv.name == "gawk") {
		for _, a := range iv.rest(1) {
			if n := looksUpSecret(a); n != "" {
				v = "the value of $" + n
				break
			}
		}
	}
	if v == "" {
		return
	}
	for _, f := range files {
		if p := iv.c.resolve(iv.sc, f).path; f.ok && p != "" {
			iv.c.fill(p, v+", which "+iv.name+" edits in")
		}
	}
}

// yqInPlace records what yq -i (--inplace) puts in the files it edits.
func yqInPlace(iv *inv) {
	flags, ops := opts(iv.rest(1))
	if len(ops) > 0 && ops[0].ok && (ops[0].s == "e" || ops[0].s == "eval" || ops[0].s == "ea" || ops[0].s == "eval-all") {
		ops = ops[1:] // yq e -i EXPR FILE
	}
	if !hasFlag(flags, "i", "--inplace") || len(ops) < 2 {
		return
	}
	iv.fillsInPlace(ops[1:])
}

// composeOutput records the file compose config writes with -o
// (--output), the environment and .env interpolated, as a redirection of
// its output would be.
func composeOutput(iv *inv) {
	args := iv.rest(1)
	var out arg
	kept := make([]arg, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.ok && (a.s == "-o" || a.s == "--output") && i+1 < len(args):
			out = args[i+1]
			i++
		case a.ok && strings.HasPrefix(a.s, "--output="):
			out = arg{s: a.s[len("--output="):], ok: true, src: a.s[len("--output="):]}
		default:
			kept = append(kept, a)
		}
	}
	if !out.ok || out.s == "-" {
		return
	}
	if how := composeConfig(iv.name, kept); how != "" {
		iv.c.wrote(iv.sc, out, source{kind: srcFile, values: "the environment's and .env's values, which " + how + " puts in"}, false)
	}
}
