package policy

import (
	"path"
	"regexp"
	"strings"
)

// Code given to an interpreter or to a framework's console (php artisan
// tinker --execute, rails runner, manage.py shell -c, mix run -e) that
// prints one value looked up by a key whose name says it is a secret —
// os.environ['OPENAI_API_KEY'], process.env.STRIPE_SECRET_KEY,
// config('services.stripe.secret'), settings.SECRET_KEY, Rails'
// credentials — prints that secret to the agent, as echo "$TOKEN" does.
// Asking only whether it is set, or how long it is (len(…), bool(…),
// … is None, a ternary), prints no secret; nor does code whose output
// goes into a login that reads a credential on its stdin (| gh auth login
// --with-token). Into a file or any other pipe it carries the secret on
// (> /tmp/t, | nc …), as echo "$TOKEN" does.

// printOpen is a call that prints what follows it.
var printOpen = lazyRE(`\b(?:print|println|printf|puts|pp|dump|dd|var_dump|print_r|var_export|echo|say|warn|IO\.puts|IO\.inspect|console\.(?:log|info|warn|error|debug)|System\.out\.println)\b\s*\(?`)

// secretLookup is a lookup of a setting by its key: the environment,
// a framework's settings or config, Hugging Face's stored token
// (get_token()), the keyring's passwords, Rails' credentials. The key is in
// one of the groups; the last is Rails' credentials (the path into
// them, maybe empty), whose store holds only secrets.
var secretLookup = lazyRE(`os\.environ(?:\.get)?\s*[\[(]\s*['"](\w+)['"]|\b(?:os\.)?getenv\(\s*['"](\w+)['"]|\bENV(?:\.fetch)?\s*[\[(]\s*['"](\w+)['"]` +
	`|\$_ENV\[\s*['"](\w+)['"]|process\.env\.(\w+)|process\.env\[\s*['"](\w+)['"]|\$ENV\{\s*['"]?(\w+)['"]?\s*\}|\benv\(\s*['"](\w+)['"]` +
	`|\bconfig\(\s*['"]([\w.]+)['"]|\bsettings\.(\w+)|System\.get_?env\(\s*["'](\w+)["']|Deno\.env\.get\(\s*['"](\w+)['"]|Bun\.env\.(\w+)` +
	`|\b(?:HfFolder\.)?get_(token)\(|\bkeyring\.get_(password)\(` +
	`|Rails\.application\.(?:credentials|secrets)((?:\.\w+)*)`)

// secretKeyName is a setting's key that names a secret.
var secretKeyName = lazyRE(`(?i)secret|passw|token|api_?key|private_?key|access_?key|signing_?key|credential|dsn|database_url|conn(?:ection)?_?str`)

// printedSecret is the first lookup of a secret that code prints as it
// is, "" if none.
func printedSecret(code string) string {
	for _, m := range printOpen.FindAllStringIndex(code, 16) {
		rest := code[m[1]:]
		if i := strings.IndexAny(rest, "\n;"); i >= 0 {
			rest = rest[:i]
		}
		ls := secretLookup.FindAllStringSubmatchIndex(rest, 1)
		if ls == nil {
			continue
		}
		l := ls[0]
		key := ""
		for g := 2; g+1 < len(l); g += 2 {
			if l[g] >= 0 {
				key = rest[l[g]:l[g+1]]
			}
		}
		credentials := l[len(l)-2] >= 0 // Rails.application.credentials.stripe: its store holds only secrets
		before, after := rest[:l[0]], strings.TrimLeft(rest[l[1]:], " \t)]}\"'`")
		if !credentials && !secretKeyName.MatchString(key) || strings.ContainsAny(before, "(?!") || testedValue.MatchString(before) ||
			after != "" && !strings.HasPrefix(after, ",") && !strings.HasPrefix(after, "+") && !strings.HasPrefix(after, ".") {
			continue // print(len(…)), "set" if … else, … is None, [:4]
		}
		if strings.HasPrefix(after, ".") && !valueMethod.MatchString(after) {
			continue // .length, .startswith(…): a fact about it, not it
		}
		end := l[1]
		if end < len(rest) && (rest[end] == ')' || rest[end] == ']' || rest[end] == '}') {
			end++ // config('services.stripe.secret'), not config('services.stripe.secret'
		}
		return rest[l[0]:end]
	}
	return ""
}

// testedValue, before a lookup in what is printed, says the value is
// tested, not printed: "set" if …, bool …, … and.
var testedValue = lazyRE(`\b(?:if|unless|and|or|not|bool|len|length|is)\b|&&|\|\|`)

// valueMethod is a method that gives the value on, whole: .to_s,
// .strip(), .trim().
var valueMethod = lazyRE(`^\.(?:to_s|strip|trim|toString|inspect)\b`)

// keyringRead is code that reads a password from the OS keyring or
// keychain: Python's keyring.get_password, node's keytar.getPassword,
// go-keyring's keyring.Get, a keyring entry's get_password(),
// secretstorage's get_secret().
var keyringRead = lazyRE(`\bkeyring\.(?:get_password|get_credential|Get)\s*\(|\b(?:keytar|keychain|Keychain)\.(?:getPassword|findPassword|findCredentials|get)\s*\(|\.get_password\s*\(|\.getPassword\s*\(|\.get_secret\s*\(\s*\)`)

// readsKeyring holds code that reads a password from the OS keyring
// (keyringRead) and prints it, or sends it over the network: the
// password reaches the agent, or leaves the machine. Printing only a
// fact about it (len(t), t is None) prints no secret.
func (iv *inv) readsKeyring(code string) {
	m := keyringRead.FindStringIndex(code)
	if m == nil || iv.sc.remote {
		return
	}
	call := strings.TrimRight(code[m[0]:m[1]], "( ")
	if netRef.MatchString(urlText.ReplaceAllString(code, "")) {
		iv.flag(Destructive, iv.name+" code reads a password from the OS keyring ("+call+") and opens a network connection")
		return
	}
	if !iv.sc.piped && printsKeyring(code) {
		iv.flag(Destructive, iv.name+" code reads a password from the OS keyring ("+call+") and prints it (what it prints reaches the agent and its model)")
	}
}

// urlText is a URL in code: a name for what a keyring holds, not a
// connection (keyring.get_password("https://upload.pypi.org/legacy/", …)).
var urlText = lazyRE(`https?://[^\s'"]*`)

// keyringVar is a variable code sets to what it reads from the keyring.
var keyringVar = lazyRE(`\b(\w+)\s*:?=\s*(?:await\s+)?` + "`?" + `[\w.]*(?:keyring|keytar|keychain|Keychain|entry|Entry|item)[\w.()'",\s-]*?\.(?:get_password|get_credential|Get|getPassword|findPassword|get_secret|get)\s*\(`)

// printsKeyring reports whether code prints what it reads from the
// keyring as it is: a print call given the read (print(keyring.get_password(…))),
// or a variable set to it (t = …; print(t)), with nothing that makes
// only a fact of it before it (len(…), … is None); or a promise of it
// handed to console.log (keytar.getPassword(…).then(console.log)).
func printsKeyring(code string) bool {
	if strings.Contains(code, ".then(console.log") || strings.Contains(code, ".then(console.info") {
		return true
	}
	vars := []string{}
	for _, v := range keyringVar.FindAllStringSubmatch(code, 4) {
		vars = append(vars, v[1])
	}
	for _, p := range printOpen.FindAllStringIndex(code, 16) {
		rest := code[p[1]:]
		if i := strings.IndexAny(rest, "\n;"); i >= 0 {
			rest = rest[:i]
		}
		at := -1
		if k := keyringRead.FindStringIndex(rest); k != nil {
			at = k[0]
		}
		for _, v := range vars {
			if k := wordRE(v).FindStringIndex(rest); k != nil && (at < 0 || k[0] < at) {
				at = k[0]
			}
		}
		if at >= 0 && !strings.ContainsAny(rest[:at], "(?!") && !testedValue.MatchString(rest[:at]) && !testedValue.MatchString(rest[at:]) {
			return true
		}
	}
	return false
}

// wordRE is a regular expression matching w as a whole word.
func wordRE(w string) *regexp.Regexp {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`)
}

// printsSecretValue holds code that prints a secret it looks up.
func (iv *inv) printsSecretValue(code string) {
	iv.readsKeyring(code)
	if iv.sc.piped || iv.sc.remote {
		return
	}
	if m := printedSecret(code); m != "" {
		iv.flag(Destructive, iv.name+" code prints a secret it looks up: "+cutText(m)+" (what it prints reaches the agent and its model)")
	}
}

// consoleCode is the code a framework's console is given to run on the
// command line: php artisan tinker --execute=…, rails runner '…', python
// manage.py shell -c '…', mix run -e '…'.
func consoleCode(name string, args []arg) []string {
	var out []string
	rails := name == "rails" || path.Base(name) == "rails"
	for i, a := range args {
		if !a.ok {
			continue
		}
		opt, val, eq := strings.Cut(a.s, "=")
		if rails && i == 0 && (a.s == "runner" || a.s == "r") { // rails runner -e production 'code': the code follows the environment
			for j := i + 1; j < len(args); j++ {
				if b := args[j]; b.ok && (b.s == "-e" || b.s == "--environment") {
					j++
				} else if b.ok && !strings.HasPrefix(b.s, "-") {
					out = append(out, b.s)
					break
				}
			}
			continue
		}
		switch {
		case rails && (a.s == "-e" || a.s == "--environment"):
			// the environment's name, not code
		case eq && (opt == "--execute" || opt == "--eval" || opt == "--command" || opt == "--code"):
			out = append(out, val)
		case i+1 < len(args) && args[i+1].ok && (a.s == "--execute" || a.s == "--eval" || a.s == "--command" || a.s == "--code" || a.s == "-e" || a.s == "-c" ||
			rails && i == 0 && (a.s == "runner" || a.s == "r")):
			out = append(out, args[i+1].s)
		}
	}
	return out
}

// printedSecretIn is the first secret lookup that code given to a
// command on its line prints, "" if none.
func printedSecretIn(name string, args []arg) string {
	for _, code := range consoleCode(name, args) {
		if m := printedSecret(code); m != "" {
			return m
		}
	}
	return ""
}

// codeRunner reports whether a command runs code given on its line that
// printedSecretIn can read: an interpreter or a framework's console.
func codeRunner(name string) bool {
	switch name {
	case "node", "ruby", "perl", "php", "deno", "bun", "rails", "elixir", "mix", "julia", "Rscript":
		return true
	}
	return strings.HasPrefix(name, "python")
}
