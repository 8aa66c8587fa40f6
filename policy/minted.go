package policy

import (
	"path"
	"slices"
	"strings"
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

// mintedOf leads the text of a source that is a credential a command
// made and printed (mintsCredential).
const mintedOf = "a credential made by "

// nonOpts is args' operands (opts).
func nonOpts(args []arg) []arg {
	_, ops := opts(args)
	return ops
}
