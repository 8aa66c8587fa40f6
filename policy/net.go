package policy

import (
	"net"
	"net/url"
	"path"
	"slices"
	"strings"
)

// hostPath is an address without a scheme, as httpie takes it:
// es.lan:9200/logs/_search.
var hostPath = lazyRE(`^[\w.-]+(?::\d+)?/`)

// writes reports whether an HTTP client's arguments send something: a
// method other than GET, or data.
func writes(args []arg) bool {
	for i, a := range args {
		switch {
		case !a.ok:
		case i == 0 && (a.s == "POST" || a.s == "PUT" || a.s == "PATCH" || a.s == "DELETE"):
			return true
		case requestMethod(args, i) != nil:
			m := requestMethod(args, i)
			return !strings.EqualFold(m.s, "GET") && !strings.EqualFold(m.s, "HEAD")
		case a.s == "-d" || a.s == "--data" || a.s == "--json" || strings.HasPrefix(a.s, "--data"):
			return true
		}
	}
	return false
}

// requestMethod is the HTTP method args[i] sets, with the word after it
// when it takes one: -X M, -XM, a cluster ending in X (-sX M), --request M,
// --request=M, --method M (httpie's and wget's); nil if args[i] sets none.
func requestMethod(args []arg, i int) *arg {
	a := args[i]
	next := func() *arg {
		if i+1 < len(args) {
			return &args[i+1]
		}
		return nil
	}
	switch {
	case !a.ok:
		return nil
	case a.s == "--request" || a.s == "--method":
		return next()
	case strings.HasPrefix(a.s, "--request=") || strings.HasPrefix(a.s, "--method="):
		_, m, _ := strings.Cut(a.s, "=")
		return &arg{s: m, ok: true, src: m}
	case len(a.s) < 2 || a.s[0] != '-' || a.s[1] == '-':
		return nil
	}
	for j := 1; j < len(a.s); j++ {
		switch {
		case a.s[j] == 'X' && j+1 < len(a.s):
			m := strings.TrimPrefix(a.s[j+1:], "=") // -X=DELETE: gh's and xh's parsers drop the =
			return &arg{s: m, ok: true, src: m}
		case a.s[j] == 'X':
			return next()
		case strings.IndexByte(curlValueLetters, a.s[j]) >= 0:
			return nil // the rest of the cluster is that option's value
		}
	}
	return nil
}

// curlValueLetters are curl's short options that take a value: in a
// cluster, what follows one of them is its value.
const curlValueLetters = "dohuFTAebcKErwxyYzCmUQtPD"

// credentialedHost is the host a request carries credentials to (an
// Authorization or token header, -u user:password, a token variable)
// when it is off this machine, else "": where a request's method matters.
func credentialedHost(args []arg) string {
	creds := false
	for i, a := range args {
		switch {
		case secretVar.MatchString(a.src),
			a.ok && (a.s == "-u" || a.s == "--user" || a.s == "--oauth2-bearer" || strings.HasPrefix(a.s, "--oauth2-bearer=")),
			(a.s == "-H" || a.s == "--header") && i+1 < len(args) && authHeader.MatchString(args[i+1].src),
			strings.HasPrefix(a.s, "--header=") && authHeader.MatchString(a.src):
			creds = true
		}
	}
	if !creds {
		return ""
	}
	for _, a := range args {
		if !a.ok {
			continue
		}
		if u, err := url.Parse(a.s); err == nil && (u.Scheme == "http" || u.Scheme == "https") && !localHost(u.Hostname()) {
			return u.Hostname()
		}
	}
	return ""
}

// authHeader is a request header that carries a credential.
var authHeader = lazyRE(`(?i)^["']?(?:authorization|proxy-authorization|private-token|x-api-key|api-key|x-auth-token|x-\w+-(?:token|key)|cookie)\s*:`)

// devServer reports whether every address a request goes to is a server
// on this machine's loopback that is not a datastore's (the app being
// developed: localhost:3000, 127.0.0.1:8000, httpie's :8080), and none
// of them names many things at once (a wildcard, _all, ?recurse): a
// DELETE there removes a record of local development data.
func devServer(args []arg) bool {
	found := false
	for _, a := range args {
		if !a.ok {
			if strings.Contains(a.src, "://") || strings.Contains(a.src, "localhost") {
				a = arg{s: strings.Trim(a.src, `"'`), ok: true} // "http://127.0.0.1:8000/items/x-$$": the host is written out
			} else {
				continue
			}
		}
		u := strings.ToLower(a.s)
		switch {
		case strings.HasPrefix(u, ":"): // httpie: :8080/path is localhost
			u = "http://localhost" + u
		case strings.HasPrefix(u, "localhost") || hostPath.MatchString(u) && !strings.Contains(u, "://"):
			u = "http://" + u
		case !strings.Contains(u, "://"):
			continue
		}
		p, err := url.Parse(u)
		if err != nil {
			return false
		}
		found = true
		ip := net.ParseIP(p.Hostname())
		if p.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback() && !ip.IsUnspecified()) || datastorePorts[p.Port()] ||
			strings.ContainsAny(u, "*") || strings.Contains(u, "_all") || strings.Contains(u, "recurs") || strings.Contains(u, "_delete") {
			return false
		}
	}
	return found
}

// localDev is devServer for a request this command makes: not one over a
// unix socket (--unix-socket /var/run/docker.sock: a daemon's API, not an
// app), and not one to loopback while this command has opened a tunnel or
// proxy from there to elsewhere (kubectl proxy, ssh -L, a cloud SQL
// proxy), where loopback stands for the remote end.
func (iv *inv) localDev(args []arg) bool {
	return !iv.c.tunnel && !hasWord(args, "--unix-socket", "--abstract-unix-socket", "--unix") &&
		!slices.ContainsFunc(args, func(a arg) bool { return strings.HasPrefix(a.s, "--unix-socket=") }) && devServer(args)
}

// localTestStore reports whether every address a request goes to is a
// store on this machine's loopback (no tunnel opened by this command)
// whose index or database is named for tests (localhost:9200/app_test,
// with or without http://): the test run makes it again.
func (iv *inv) localTestStore(args []arg) bool {
	found := false
	for _, a := range args {
		u := a.s
		switch {
		case !a.ok:
			continue
		case strings.Contains(u, "://"):
		case strings.HasPrefix(u, "localhost") || hostPath.MatchString(u):
			u = "http://" + u // curl localhost:9200/x: a URL without its scheme
		default:
			continue
		}
		if iv.c.tunnel || strings.Contains(u, ",") || !iv.scratchDatabase(u) { // test-index-*: testDB's anchors keep a pattern to test names
			return false
		}
		found = true
	}
	return found
}

// sqlBody says what destructive SQL a request carries in its body or its
// URL's query (--data-binary 'DROP DATABASE x', ?query=TRUNCATE+t), or "".
func sqlBody(args []arg) string {
	for i, a := range args {
		if !a.ok {
			continue
		}
		text := ""
		switch {
		case (a.s == "-d" || strings.HasPrefix(a.s, "--data") || a.s == "--json" || a.s == "--form" || a.s == "-F") && !strings.Contains(a.s, "=") && i+1 < len(args) && args[i+1].ok:
			text = args[i+1].s
		case strings.HasPrefix(a.s, "--data") && strings.Contains(a.s, "="):
			_, text, _ = strings.Cut(a.s, "=")
		case strings.Contains(a.s, "://") && strings.ContainsAny(a.s, "?&"):
			text, _ = url.QueryUnescape(strings.ReplaceAll(a.s, "+", " "))
		}
		if text != "" && mentionsDanger(text) {
			if why := sqlDanger(text); why != "" {
				return "deletes data: " + why
			}
		}
	}
	return ""
}

// datastorePorts are the ports datastores and infrastructure services
// answer HTTP on by default (Elasticsearch, Meilisearch, Consul, CouchDB,
// InfluxDB, Qdrant, Solr, MinIO, Vault, etcd, RabbitMQ, Neo4j, Typesense,
// ClickHouse, Kafka Connect): what is at them is stored data, not an app.
var datastorePorts = map[string]bool{
	"9200": true, "9300": true, "7700": true, "8500": true, "5984": true, "8086": true, "6333": true, "8983": true,
	"9000": true, "9001": true, "8200": true, "2379": true, "15672": true, "7474": true, "8108": true, "8123": true,
	"8083": true, "8529": true, "8091": true, "19530": true, "4001": true,
}

// indexDestroys are Elasticsearch's and OpenSearch's endpoints that
// delete, rewrite or close an index's documents in bulk.
var indexDestroys = lazyRE(`/_(?:delete_by_query|update_by_query|close)\b`)

// pathDeletes reports whether a URL's path names deleting what it
// addresses: /_delete_by_query, /v1/projects/x/purge. A request that
// writes (POST, PUT, a body) is judged by any word of the path; any
// request, a GET among them (some APIs delete on GET), by a last
// segment that is the verb itself: Jenkins's /job/x/doDelete, /users/42/delete.
func pathDeletes(u string, writes bool) bool {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	_, p, _ := strings.Cut(u, "/")
	p, _, _ = strings.Cut(p, "?")
	segs := strings.Split(strings.TrimSuffix(p, "/"), "/")
	for i, seg := range segs {
		ws := words(seg)
		if !writes && (i < len(segs)-1 || len(ws) > 2) {
			continue
		}
		for _, w := range ws {
			if nameVerbs[w] || w == "remove" || w == "reset" {
				return true
			}
		}
	}
	return false
}

// changeMethod is the method, DELETE, PUT or PATCH, by which a request
// changes what a server holds: given to curl, wget or gh by -X,
// --request or --method, or to httpie or xh as the word before the URL
// (http --auth $T PATCH https://api/x); "" for any other.
func changeMethod(name string, args []arg) string {
	for i, a := range args {
		m := ""
		if r := requestMethod(args, i); r != nil && r.ok {
			m = strings.ToUpper(r.s)
		} else if name != "curl" && name != "wget" && a.ok && (a.s == "DELETE" || a.s == "PUT" || a.s == "PATCH") && i+1 < len(args) && args[i+1].ok &&
			(strings.Contains(args[i+1].s, "://") || hostPath.MatchString(args[i+1].s) || strings.HasPrefix(args[i+1].s, "localhost") || strings.HasPrefix(args[i+1].s, ":")) {
			m = a.s
		}
		if m == "DELETE" || m == "PUT" || m == "PATCH" {
			return m
		}
	}
	return ""
}

// curl and wget: upload of the environment or a secrets file is
// exfiltration (env | curl -d @- …).
func curl(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	if len(args) > 0 && args[0].ok && strings.EqualFold(args[0].s, "DELETE") && iv.name != "curl" && iv.name != "wget" && !iv.localDev(args) && !iv.localTestStore(args) {
		iv.flag(Destructive, iv.name+" sends a DELETE request") // httpie, xh: http DELETE url
		return
	}
	if m := changeMethod(iv.name, args); m != "" && !iv.localDev(args) && !iv.localTestStore(args) {
		iv.flag(Destructive, iv.name+" sends a "+m+" request to a server off this machine, which deletes, replaces or changes what it holds for everyone who uses it")
		return
	}
	if len(args) > 0 && !iv.localDev(args) && sqlBody(args) != "" {
		iv.flag(Destructive, iv.name+" sends SQL that "+sqlBody(args)) // ClickHouse's HTTP port: the body is the query
		return
	}
	for i, a := range args {
		method := ""
		switch {
		case a.ok && strings.Contains(a.s, "mutation") && mutationDeletes.MatchString(a.s):
			iv.flag(Destructive, iv.name+" sends a GraphQL mutation that deletes")
			return
		case !a.ok:
			if u := strings.ToLower(a.src); indexDestroys.MatchString(u) && !iv.localTestStore(args) { // "$ELASTIC_URL/logs-*/_delete_by_query"
				iv.flag(Destructive, iv.name+" deletes or closes a search index's documents through its API: "+a.shown())
				return
			}
		case requestMethod(args, i) != nil:
			m := requestMethod(args, i)
			method = m.s
			if !m.ok && !iv.localDev(args) {
				if host := credentialedHost(args); host != "" {
					iv.flag(Destructive, iv.name+" sends a request whose method is computed at run time ("+m.shown()+"), so it may be DELETE, with credentials to "+host)
					return
				}
			}
		case strings.Contains(a.s, "://") || strings.HasPrefix(a.s, "localhost") || hostPath.MatchString(a.s):
			if u := strings.ToLower(a.s); (indexDestroys.MatchString(u) || strings.HasSuffix(u, "/_all") || pathDeletes(a.s, writes(args)) && !iv.localDev(args)) && !iv.localTestStore(args) {
				iv.flag(Destructive, iv.name+" deletes through the API: "+a.s)
				return
			}
			if u := strings.ToLower(a.s); strings.Contains(u, "169.254.169.254") || strings.Contains(u, "metadata.google.internal") || strings.Contains(u, "metadata.azure") || strings.Contains(u, "100.100.100.200") {
				iv.flag(Destructive, iv.name+" asks the cloud instance's metadata service, which hands out its credentials: "+a.s)
				return
			}
		}
		if strings.EqualFold(method, "DELETE") && !iv.localDev(args) && !iv.localTestStore(args) {
			iv.flag(Destructive, iv.name+" sends a DELETE request")
			return
		}
	}
	dataOpts := []string{"-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii",
		"-F", "--form", "-T", "--upload-file", "--json", "--post-file", "--body-file"}
	for i, a := range args {
		if !a.ok {
			continue
		}
		if iv.name == "aria2c" && (a.s == "-o" || a.s == "--out") && i+1 < len(args) {
			dir := "."
			for j, d := range args {
				if d.ok && (d.s == "-d" || d.s == "--dir") && j+1 < len(args) {
					dir = args[j+1].s
				}
			}
			iv.downloadTo(arg{s: path.Join(dir, args[i+1].s), ok: true, src: args[i+1].s})
		}
		if iv.name != "wget" && (a.s == "-O" || a.s == "--remote-name" || len(a.s) > 2 && a.s[0] == '-' && a.s[1] != '-' && strings.Contains(a.s, "O")) {
			for _, u := range args {
				if u.ok && strings.Contains(u.s, "://") {
					iv.downloadTo(arg{s: path.Base(u.s), ok: true, src: u.s})
				}
			}
		}
		if iv.name == "aria2c" && strings.Contains(a.s, "://") && !hasWord(args, "-o", "--out") {
			dir := "."
			for j, d := range args {
				if d.ok && (d.s == "-d" || d.s == "--dir") && j+1 < len(args) {
					dir = args[j+1].s
				}
			}
			iv.downloadTo(arg{s: path.Join(dir, path.Base(a.s)), ok: true, src: a.s})
		}
		if iv.name == "wget" && strings.Contains(a.s, "://") && !hasFlag(args, "O", "--output-document") {
			iv.downloadTo(arg{s: path.Base(a.s), ok: true, src: a.s})
		}
		if f, ok := shortValue(args, i, 'P'); ok && iv.name == "wget" { // wget -P scripts URL: the file lands in scripts/
			iv.downloadTo(f)
		} else if d, ok := strings.CutPrefix(a.s, "--directory-prefix="); ok && iv.name == "wget" {
			iv.downloadTo(arg{s: d, ok: true, src: d})
		} else if d, ok := strings.CutPrefix(a.s, "--output-dir="); ok && iv.name == "curl" {
			iv.downloadTo(arg{s: d, ok: true, src: d})
		} else if (a.s == "--output-dir" || a.s == "--directory-prefix") && i+1 < len(args) {
			iv.downloadTo(args[i+1])
		}
		out := byte('o')
		if iv.name == "wget" {
			out = 'O'
		}
		if f, ok := shortValue(args, i, out); ok && f.s != "-" {
			iv.downloadTo(f)
		} else if a.s == "--output" && i+1 < len(args) {
			iv.downloadTo(args[i+1])
		} else if f, ok := strings.CutPrefix(a.s, "--output-document="); ok {
			iv.downloadTo(arg{s: f, ok: true, src: f})
		}
		val, isData := "", false
		for _, o := range dataOpts {
			if a.s == o && i+1 < len(args) {
				val, isData = args[i+1].s, true
			} else if strings.HasPrefix(o, "--") && strings.HasPrefix(a.s, o+"=") {
				val, isData = strings.TrimPrefix(a.s, o+"="), true
			} else if len(o) == 2 && len(a.s) > 2 && a.s[0] == '-' && a.s[1] != '-' && a.s[len(a.s)-1] == o[1] && i+1 < len(args) {
				val, isData = args[i+1].s, true // a cluster ending in it: -sF f=@x, -sSd @x
			}
		}
		if !isData {
			continue
		}
		if i+1 < len(args) && !args[i+1].ok && (secretSubst(args[i+1].src) || strings.Contains(args[i+1].src, secretItems)) { // env | xargs -I{} curl -F "c={}" …
			iv.flag(Destructive, iv.name+" uploads the environment or a secrets file: "+args[i+1].shown())
			continue
		}
		if i+1 < len(args) && !args[i+1].ok && iv.c.taintedRef(args[i+1].src) != "" { // x=$(curl -s localhost:8080/actuator/env); curl -F "c=$x" …
			iv.flag(Destructive, iv.name+" uploads a variable holding secrets: "+iv.c.taintedRef(args[i+1].src))
			continue
		}
		_, file, hasAt := strings.Cut(val, "@")
		if !hasAt && (a.s == "-T" || a.s == "--upload-file" || strings.HasPrefix(a.s, "--post-file") || strings.HasPrefix(a.s, "--body-file")) {
			file, hasAt = val, true
		}
		file, _, _ = strings.Cut(file, ";")
		switch {
		case hasAt && file == "-" && iv.in.kind == srcSecret:
			iv.flag(Destructive, iv.name+" uploads the environment or a secrets file")
		case hasAt && file == "-" && iv.in.kind == srcPipe:
			iv.uploadsOutput(iv.in.text, args)
		case hasAt && iv.secretFile(file):
			iv.flag(Destructive, iv.name+" uploads a secrets file: "+file)
		case hasAt && file != "" && namedSecret(iv.c.tilde(file)): // curl -F file=@app/play-service-account.json
			iv.flag(Destructive, iv.name+" uploads a private key or credentials file: "+file)
		case hasAt && file != "":
			if src, ok := iv.c.written[iv.c.resolve(iv.sc, arg{s: file, ok: true, src: file}).path]; ok && src.kind == srcPipe {
				iv.uploadsOutput(src.text, args) // journalctl … > app.log && curl -F file=@app.log …
			}
		}
	}
	for _, a := range args { // httpie and xh: field@file uploads the file
		if field, file, ok := strings.Cut(a.s, "@"); ok && a.ok && iv.name != "curl" && iv.name != "wget" && !strings.Contains(a.s, "://") &&
			field != "" && !strings.ContainsAny(field, "/:") && (iv.secretFile(strings.TrimPrefix(file, "@")) || namedSecret(iv.c.tilde(strings.TrimPrefix(file, "@")))) {
			iv.flag(Destructive, iv.name+" uploads a secrets file: "+file)
		}
	}
}

// builtData are the commands whose output is data the command line itself
// puts together, not state read from the machine: a request body.
var builtData = map[string]bool{"jq": true, "yq": true, "echo": true, "printf": true, "cat": true, "base64": true, "gzip": true}

// uploadsOutput judges sending what another program printed (by tells the
// producer's name, "" when unknown) to the hosts among args: logs, a
// container's inspection, a status report carry the tokens and keys of what
// they describe, so sending them to a host off the machine is a leak.
func (iv *inv) uploadsOutput(by string, args []arg) {
	if builtData[by] {
		return
	}
	for _, a := range args {
		if !a.ok {
			continue
		}
		if u, err := url.Parse(a.s); err == nil && (u.Scheme == "http" || u.Scheme == "https") && !localHost(u.Hostname()) {
			what := "the output of " + by
			if by == "" {
				what = "the output of a command"
			}
			iv.flag(Destructive, iv.name+" uploads "+what+" to "+u.Hostname()+": what it printed may hold secrets")
			return
		}
	}
}

// localHost reports whether a host name is this machine or its own
// network's: a loopback or private address, localhost, a name of one label
// (a compose service), or a local domain (.local, .lan, .internal).
func localHost(h string) bool {
	h = strings.ToLower(strings.Trim(h, "[]"))
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified()
	}
	if h == "localhost" || !strings.Contains(h, ".") {
		return true
	}
	for _, d := range []string{".localhost", ".local", ".lan", ".internal", ".home.arpa", ".svc", ".cluster.local", ".test"} {
		if strings.HasSuffix(h, d) {
			return true
		}
	}
	return false
}

// downloadTo records that a download is written to f, and judges the
// write as a redirection's: a download put where it runs later by itself
// (a hook, a startup file, a tool's init or plugin directory) is code from
// the network that nothing here has read.
func (iv *inv) downloadTo(f arg) {
	if u := credentialsURL(iv.rest(1)); u != "" { // curl -o /tmp/h.hprof localhost:8080/actuator/heapdump: the file holds the app's secrets
		iv.c.wrote(iv.sc, f, source{kind: srcSecret, text: answerOf + u}, false)
	} else {
		iv.c.wrote(iv.sc, f, source{kind: srcDownload}, false)
	}
	if !f.ok || iv.sc.remote {
		return
	}
	if t := iv.c.resolve(iv.sc, f); t.path != "" && iv.c.runsLater(t.path) {
		iv.flag(Destructive, iv.name+" puts downloaded code where it runs later by itself: "+iv.c.show(t))
		return
	}
	class, why := iv.c.writeTarget(iv.sc, f, true)
	iv.flag(max(class, Write), why)
}

// secretSubstRE matches a command substitution that reads the environment
// or a secrets file: curl -d "$(env)".
var secretSubstRE = lazyRE(`\$\(\s*(env|printenv|set|export -p|declare -x)\s*(\)|\|)|(\$\(|\x60)\s*(cat|base64|head|tail|tar|gpg|xxd|od|gzip|sed|awk|grep|<)\b?[^)]*(\.env\b|\.ssh/|\.aws/|\.netrc|credentials|id_rsa|id_ed25519|id_ecdsa|\.gnupg|\.kube/config|\.git-credentials|\.npmrc|\.pypirc|/etc/shadow|\.docker/config|hosts\.yml)|\$\(\s*(gh auth token|aws configure export-credentials|gcloud auth print-access-token|gcloud auth print-identity-token|az account get-access-token|kubectl config view --raw)`)

// secretSubst reports whether a word's command substitution prints the
// environment, a secrets file or a token, but not one that reads only a
// file made to be shared ($(cat ~/.ssh/id_ed25519.pub), $(cat
// .env.example)), nor only names or a count of them.
func secretSubst(src string) bool {
	if !secretSubstMatch(src) {
		return substAnswersSecret(src) && substAnswersSecret(redactSubsts(src)) // not "$(terraform output -json | wc -c)"
	}
	r := redactSubsts(src) // $(env | cut -d= -f1): names, not values
	return r == src || secretSubstMatch(r)
}

// secretSubstMatch reports whether secretSubstRE matches src on a file
// that is not made to be shared.
func secretSubstMatch(src string) bool {
	for _, m := range secretSubstRE.FindAllStringIndex(src, 4) {
		end := m[1]
		for end < len(src) && !strings.ContainsRune(" \t\n)`\"';|&<>", rune(src[end])) {
			end++
		}
		start := m[1]
		for start > 0 && !strings.ContainsRune(" \t\n(`\"';|&<>", rune(src[start-1])) {
			start--
		}
		if !shareable(path.Base(src[start:end])) {
			return true
		}
	}
	return false
}

// substAnswersSecret reports whether a word's command substitution prints
// what an address serving secrets answers ("$(curl -s
// localhost:8080/actuator/configprops)", credentialsURL), what code
// that looks a secret up prints ("$(python3 -c 'print(get_token())')")
// or what a tool that prints its stored secrets does ("$(terraform output
// -json)", printsSecrets).
func substAnswersSecret(src string) bool {
	for i := 0; i < len(src); i++ {
		open, close := 0, ""
		switch {
		case strings.HasPrefix(src[i:], "$("):
			open, close = 2, ")"
		case src[i] == '`':
			open, close = 1, "`"
		default:
			continue
		}
		end := substEnd(src, i+open, close)
		if end < 0 {
			return false
		}
		code := src[i+open : end]
		first, _, _ := strings.Cut(code, "|")
		f := strings.Fields(first)
		if len(f) > 0 {
			name := path.Base(f[0])
			if downloaders[name] {
				for j, w := range f {
					f[j] = strings.Trim(w, `"'`)
				}
				if credentialsURL(argsOf(f[1:]...)) != "" {
					return true
				}
			}
			if codeRunner(name) && printedSecret(code) != "" || printsSecrets(name, argsOf(f[1:]...)) != "" {
				return true // "$(terraform output -json)"
			}
		}
		if close == "`" {
			i = end // past the closing backquote
		}
	}
	return false
}

// netcat-like senders forward stdin.
func netSend(iv *inv) {
	iv.flag(Write, "")
	if iv.in.kind == srcSecret && !iv.in.named { // a key or credentials file by its name: sendsSecret's
		iv.flag(Destructive, iv.name+" sends the environment or a secrets file over the network"+dumpNote(iv.in))
	}
	if iv.in.kind == srcText && verbIn(iv.in.text) {
		iv.flag(Destructive, iv.name+" sends a command that deletes or resets data: "+shorten(iv.in.text))
	}
	for _, a := range iv.rest(1) {
		switch {
		case !a.ok:
		case a.s == "-e" || a.s == "-c" || strings.HasPrefix(a.s, "--exec") || strings.HasPrefix(a.s, "--sh-exec") || strings.HasPrefix(a.s, "--lua-exec"),
			strings.HasPrefix(strings.ToLower(a.s), "exec:") || strings.HasPrefix(strings.ToLower(a.s), "system:"):
			iv.flag(Destructive, iv.name+" connects a program to the network (a remote shell): "+a.s)
			return
		}
	}
}

// verbIn reports whether text sent to a service names destroying state
// (echo flush_all | nc …).
func verbIn(text string) bool {
	for _, w := range strings.Fields(text) {
		for _, part := range words(w) {
			if destroyVerbs[part] && !projectVerbs[part] {
				return true
			}
		}
	}
	return false
}

// shorten cuts text for a reason.
func shorten(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// mutationDeletes is a GraphQL mutation whose name deletes or destroys.
var mutationDeletes = lazyRE(`(?i)mutation[\s\S]{0,80}?(delete|destroy|remove|drop|purge|wipe)\w*\s*\(`)

// servesHome flags a file server whose root is the home directory, the
// root, or a directory of secrets: every key and token under it is one
// request away (python3 -m http.server -d ~, cd ~ && npx http-server).
func servesHome(iv *inv) {
	if iv.sc.remote {
		return
	}
	args := iv.rest(1)
	root, serves := arg{s: ".", ok: true, src: "."}, false
	switch iv.name {
	case "python", "python3", "python2":
		for i, a := range args {
			if a.ok && a.s == "-m" && i+1 < len(args) && (args[i+1].s == "http.server" || args[i+1].s == "SimpleHTTPServer") {
				serves = true
			}
			if a.ok && (a.s == "-d" || a.s == "--directory") && i+1 < len(args) {
				root = args[i+1]
			}
		}
	case "ngrok":
		for _, a := range args {
			if dir, ok := strings.CutPrefix(a.s, "file://"); ok && a.ok {
				root, serves = arg{s: dir, ok: true, src: a.src}, true
			}
		}
	case "http-server", "serve", "live-server", "httpd", "caddy", "php", "ruby":
		serves = iv.name != "php" && iv.name != "ruby" || hasWord(args, "-S") || hasWord(args, "httpd")
		for i, a := range args {
			switch {
			case !a.ok:
			case (a.s == "-t" || a.s == "-h" || a.s == "--root" || a.s == "-d" || a.s == "--dir") && i+1 < len(args):
				root = args[i+1]
			case strings.HasPrefix(a.s, "--root="):
				root = arg{s: a.s[len("--root="):], ok: true, src: a.s}
			case !strings.HasPrefix(a.s, "-") && (strings.HasPrefix(a.s, "/") || strings.HasPrefix(a.s, "~") || strings.HasPrefix(a.s, ".")) && (i == 0 || !args[i-1].ok || !strings.HasPrefix(args[i-1].s, "-")):
				root = a
			}
		}
	}
	if !serves {
		return
	}
	t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(root.s), ok: root.ok, src: root.src})
	if p := t.path; p != "" && (p == "/" || p == iv.c.home || isUnder(iv.c.home, p) || isSecretPath(p)) {
		iv.flag(Destructive, iv.name+" serves "+iv.c.show(t)+" over the network: keys and tokens under it included")
	}
}

// transferTools are file-transfer clients that take their own commands
// (put, mput, mirror -R, !cmd) from stdin, a batch file, or an option.
var transferTools = map[string]bool{
	"sftp": true, "psftp": true, "ftp": true, "lftp": true, "ncftp": true, "smbclient": true, "tftp": true, "yafc": true,
}

// transferScript judges the commands a file-transfer client is given (sftp
// host <<< 'put ~/.ssh/id_ed25519', sftp -b - host, lftp -c '…; mirror -R
// ~/.config/gcloud', smbclient -c 'put …'): a local file or directory of
// secrets it uploads leaves the machine, and a !command runs here, in a
// shell. Their text is read when the command gives it: a heredoc or
// here-string on stdin (the client reads its commands there when no batch
// file is named), a batch file this command wrote, an option's value.
func transferScript(iv *inv) {
	if !transferTools[iv.name] || iv.sc.remote {
		return
	}
	args := iv.rest(1)
	var scripts []string
	fromStdin := true
	for i, a := range args {
		if !a.ok {
			continue
		}
		val := ""
		if i+1 < len(args) && args[i+1].ok {
			val = args[i+1].s
		}
		switch {
		case (a.s == "-c" || a.s == "-e") && iv.name == "lftp", (a.s == "-c" || a.s == "--command") && iv.name == "smbclient":
			scripts = append(scripts, val)
			fromStdin = false
		case a.s == "-b" && (iv.name == "sftp" || iv.name == "psftp"), a.s == "-f" && iv.name == "lftp":
			fromStdin = val == "-" || val == "/dev/stdin"
			if src, ok := iv.c.written[iv.c.resolve(iv.sc, arg{s: val, ok: true, src: val}).path]; ok && src.kind == srcText {
				scripts = append(scripts, src.text)
			}
		}
	}
	if fromStdin && iv.in.kind == srcText {
		scripts = append(scripts, iv.in.text)
	}
	local := *iv.sc // lcd moves it
	for _, text := range scripts {
		for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == ';' }) {
			line = strings.TrimLeft(strings.TrimSpace(line), "-@") // sftp's -put: go on if it fails
			if code, ok := strings.CutPrefix(line, "!"); ok {
				iv.shell(arg{s: code, ok: true, src: code}, &local) // a shell on this machine
				continue
			}
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			var files []string
			for _, w := range f[1:] {
				if !strings.HasPrefix(w, "-") {
					files = append(files, strings.Trim(w, `"'`))
				}
			}
			switch verb := strings.ToLower(f[0]); {
			case verb == "lcd" && len(files) > 0:
				cd(&inv{c: iv.c, args: append(argsOf("cd"), argsOf(iv.c.tilde(files[0]))...), sc: &local})
				continue
			case verb == "put" || verb == "reput" || verb == "append" || verb == "send":
				files = files[:min(len(files), 1)] // put LOCAL [REMOTE]
			case verb == "mput":
			case verb == "mirror" && (slices.Contains(f, "-R") || slices.Contains(f, "--reverse")):
				files = files[:min(len(files), 1)] // mirror -R LOCAL [REMOTE]
			default:
				continue
			}
			for _, file := range files {
				p := iv.c.resolve(&local, arg{s: iv.c.tilde(file), ok: true, src: file}).path
				if p == "" {
					p = file
				}
				if iv.secretFile(p) || namedSecret(iv.c.tilde(file)) || iv.secretDir(&local, p) {
					iv.flag(Destructive, iv.name+" uploads a secrets file or directory off the machine: "+file)
					return
				}
			}
		}
	}
}

// secretDir reports whether p names a directory under the home directory
// that holds secrets: a tool's credentials directory (~/.config/gcloud),
// or one holding such (~/.config), or a directory of the home outside
// the working directory named for keys or secrets (~/keys, ~/.secrets).
// The home directory itself is wholeTarget's.
func (iv *inv) secretDir(sc *scope, p string) bool {
	t := iv.c.resolve(sc, arg{s: iv.c.tilde(p), ok: true, src: p})
	return t.path != "" && (iv.c.holdsSecrets(t.path) ||
		isUnder(t.path, iv.c.home) && t.path != iv.c.project && !isUnder(t.path, iv.c.project) && keysDir.MatchString(t.path))
}

// echoesCredential says why a client prints a credential it sends, or
// "": told to trace its request (curl -v, --verbose, --trace-ascii -;
// wget -d; httpie and xh -v, --offline or --print with H; git under
// GIT_CURL_VERBOSE or GIT_TRACE_CURL) it prints the request line and
// headers, so a credential in them — a secret-named variable or a
// substitution that reads one, a computed Authorization header, user and
// password (-u, a URL's user:password@), curl's .netrc (-n) — reaches
// the agent. A trace written to a file holds the credential: reading the
// file back prints it (see secretFile).
func (iv *inv) echoesCredential() string {
	args := iv.rest(1)
	traced, body := "", false
	switch iv.name {
	case "curl":
		for i, a := range args {
			switch {
			case !a.ok:
			case a.s == "--verbose" || len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.Contains(shortLetters(a.s), "v"):
				traced = "curl -v"
			case (a.s == "--trace" || a.s == "--trace-ascii") && i+1 < len(args) || strings.HasPrefix(a.s, "--trace=") || strings.HasPrefix(a.s, "--trace-ascii="):
				name, f, eq := strings.Cut(a.s, "=")
				if !eq {
					f = args[i+1].s
				}
				if f == "-" || f == "%" {
					traced, body = "curl "+name, true
				} else if iv.sendsCredential(args, true) != "" {
					file := arg{s: f, ok: true, src: f}
					iv.c.wrote(iv.sc, file, source{kind: srcSecret, text: "a trace of a request with its credential"}, false)
				}
			}
		}
	case "wget":
		if hasFlag(args, "d", "--debug") {
			traced = "wget -d"
		}
	case "http", "https", "xh", "xhs":
		for i, a := range args {
			p := ""
			switch {
			case !a.ok:
			case a.s == "-v" || a.s == "--verbose" || a.s == "--offline":
				traced, body = iv.name+" "+a.s, true
			case (a.s == "-p" || a.s == "--print") && i+1 < len(args):
				p = args[i+1].s
			case strings.HasPrefix(a.s, "--print="):
				p = strings.TrimPrefix(a.s, "--print=")
			case strings.HasPrefix(a.s, "-p") && len(a.s) > 2 && a.s[2] != '-':
				p = a.s[2:]
			}
			if strings.ContainsAny(p, "HB") {
				traced, body = iv.name+" --print="+p, strings.Contains(p, "B")
			}
		}
	case "git":
		if !iv.c.mentions("GIT_CURL_VERBOSE") && !iv.c.mentions("GIT_TRACE_CURL") {
			return ""
		}
		for _, e := range iv.environ() {
			name, _, _ := strings.Cut(e.src, "=")
			if (name == "GIT_CURL_VERBOSE" || name == "GIT_TRACE_CURL") && e.ok && e.s != "" && e.s != "0" && e.s != "false" {
				traced = name + "=" + e.s + " git"
			}
		}
	}
	if traced == "" {
		return ""
	}
	if what := iv.sendsCredential(args, body); what != "" {
		return traced + " prints the request it sends, and with it " + what
	}
	return ""
}

// sendsCredential says which credential a request carries where a trace
// of it shows it ("" if none): in its URL, headers or user (-u), and,
// with body, in the data it sends.
func (iv *inv) sendsCredential(args []arg, body bool) string {
	for i, a := range args {
		prev := ""
		if i > 0 && args[i-1].ok {
			prev = args[i-1].s
		}
		opt, val, eq := strings.Cut(a.src, "=")
		if !eq || !strings.HasPrefix(opt, "--") {
			opt, val = prev, a.src
		}
		switch {
		case dataOpts[opt] && !body:
			continue // curl -v shows the headers, not the body
		case a.ok && (a.s == "--netrc" || a.s == "--netrc-optional" || strings.HasPrefix(a.s, "--netrc-file") ||
			iv.name == "curl" && len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.Contains(shortLetters(a.s), "n")):
			return "the password .netrc holds"
		case a.ok:
			continue
		case expandsSecret(a) != "":
			return "the value of " + expandsSecret(a)
		case secretSubst(a.src) || iv.substReadsSecret(a.src):
			return "a secret its words read: " + a.shown()
		case credentialOpts[opt] || authHeader.MatchString(val) || urlPassword.MatchString(a.src):
			return "a credential computed at run time: " + a.shown()
		}
	}
	return ""
}

// dataOpts are the options whose value is a request's body.
var dataOpts = map[string]bool{
	"-d": true, "--data": true, "--data-binary": true, "--data-raw": true, "--data-urlencode": true, "--data-ascii": true, "--json": true,
	"-F": true, "--form": true, "--post-data": true, "--body-data": true,
}

// credentialOpts are the options whose value is a user's password or
// token (curl -u, --oauth2-bearer; wget --password; httpie -a).
var credentialOpts = map[string]bool{
	"-u": true, "--user": true, "-U": true, "--proxy-user": true, "--oauth2-bearer": true, "-a": true, "--auth": true,
	"--password": true, "--http-password": true, "--proxy-password": true,
}

// urlPassword is a URL with a user and password in it: https://u:p@host.
var urlPassword = lazyRE(`://[^/\s@:]*:[^/\s@]+@`)

// shortLetters is the letters of a cluster of curl's short options up to
// the first that takes a value (-sSLo out: sSLo): what follows is that
// value, not options.
func shortLetters(s string) string {
	for j := 1; j < len(s); j++ {
		if strings.IndexByte(curlValueLetters, s[j]) >= 0 {
			return s[1 : j+1]
		}
	}
	return s[1:]
}

// mqttPub (mosquitto_pub) publishes to a broker. A retained message
// with an empty payload (-r with -n, or -m "") deletes the message the
// broker keeps for the topic, which devices read as their configuration
// when they connect (Home Assistant's discovery topics).
func mqttPub(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	flags, _ := opts(args)
	empty := hasFlag(flags, "n", "--null-message")
	for i, a := range args {
		if a.ok && (a.s == "-m" || longOpt(a.s, "--message")) && !strings.Contains(a.s, "=") && i+1 < len(args) && args[i+1].ok && args[i+1].s == "" {
			empty = true
		}
	}
	if empty && hasFlag(flags, "r", "--retain") {
		iv.flag(Destructive, iv.name+" -r with an empty message deletes the message the broker keeps for the topic, which devices read when they connect")
	}
}

// tcpdump captures packets and prints them: a report, as root too (sudo
// tcpdump -i lo -c 20 port 8080), of their headers. Their contents
// are other programs' traffic, passwords and tokens included, unless
// read back from a capture file (-r FILE, not -r - from a live capture):
// printed by -A, -x, -X, by -v (which prints every header line of HTTP
// and the other text protocols), written raw to stdout by -w -, or
// decoded line by line as tcpdump does for the text protocols that log
// in in clear (FTP, POP3, IMAP, SMTP, by name or port) even without -v.
// What makes it more: -w writes the
// capture to a file (judged as a write of that file), -z runs a command
// on each file it finishes (judged as that command run on it), -Z runs
// it as another user, -I puts the interface in monitor mode, and an
// option computed at run time may be any of them.
func tcpdump(iv *inv) {
	args := iv.rest(1)
	payload, saved, filed := "", false, false // payload: how the packets' contents are printed; saved: read back from a capture file; filed: written to one, not printed
	defer func() {
		var ports []string // the ports the filter names: -v prints nothing of their contents when all of them encrypt (443, 22)
		var filter []string
		for _, a := range args {
			if a.ok {
				filter = append(filter, strings.Fields(a.s)...)
			}
		}
		for i, w := range filter {
			if payload == "" && clearLogin[strings.ToLower(w)] && (strings.Trim(w, "0123456789") != "" || i > 0 && strings.HasSuffix(filter[i-1], "port")) {
				payload = "the FTP, POP3, IMAP or SMTP command lines it decodes, logins included: " + w
			}
			if i > 0 && strings.HasSuffix(filter[i-1], "port") {
				ports = append(ports, w)
			}
		}
		encrypted := len(ports) > 0 && !slices.ContainsFunc(ports, func(p string) bool { return !tlsPorts[p] })
		if encrypted && strings.HasPrefix(payload, "-v") {
			payload = ""
		}
		if strings.HasPrefix(payload, "-w -") && toViewer.MatchString(iv.c.whole) {
			payload = "" // tcpdump -w - | wireshark -k -i -: shown to the person at the screen, not printed
		}
		if payload != "" && !saved && (!filed || strings.HasPrefix(payload, "-w -") || hasWord(args, "--print")) {
			iv.flag(Destructive, "tcpdump prints the contents of the packets it captures ("+payload+"), with any password, token or cookie that crosses the wire (what it prints reaches the agent and its model)")
		}
	}()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			iv.flag(Write, "") // may be -w or -z
			continue
		}
		name, value, hasValue := a.s, arg{}, false
		switch {
		case strings.HasPrefix(a.s, "--"):
			n, v, eq := strings.Cut(a.s, "=")
			name = n
			if eq {
				value, hasValue = arg{s: v, ok: true, src: v}, true
			} else if tcpdumpLongValued[n] && i+1 < len(args) {
				i++
				value, hasValue = args[i], true
			}
		case len(a.s) > 1 && a.s[0] == '-':
			for k := 1; k < len(a.s); k++ { // -nnvvi eth0, -w/tmp/x.pcap
				if strings.IndexByte(tcpdumpValued, a.s[k]) < 0 {
					if a.s[k] == 'I' {
						name = "-I"
					}
					if strings.IndexByte("AxX", a.s[k]) >= 0 {
						payload = "-" + a.s[k:k+1]
					} else if a.s[k] == 'v' && payload == "" {
						payload = "-v, every header line of the text protocols"
					}
					continue
				}
				name = "-" + a.s[k:k+1]
				if k+1 < len(a.s) {
					value, hasValue = arg{s: a.s[k+1:], ok: true, src: a.s[k+1:]}, true
				} else if i+1 < len(args) {
					i++
					value, hasValue = args[i], true
				}
				break
			}
		}
		switch {
		case (name == "-r" || name == "--read-file") && hasValue:
			saved = value.s != "-" && value.s != "/dev/stdin"
		case (name == "-w" || name == "--write") && hasValue && (value.s == "-" || value.s == "/dev/stdout"):
			payload = "-w -, the raw packets to its output"
		case (name == "-w" || name == "--write") && hasValue:
			filed = true
			class, why := iv.c.writeTarget(iv.sc, value, true)
			iv.flag(max(class, Write), why)
		case (name == "-z" || name == "--postrotate-command") && hasValue:
			iv.exec([]arg{value, {s: "capture.pcap", ok: true, src: "capture.pcap"}})
		case name == "-Z" || name == "--relinquish-privileges" || name == "-I" || name == "--monitor-mode":
			iv.flag(Write, "")
		}
	}
}

// clearLogin are the words of a tcpdump filter naming a text protocol
// that sends logins in clear, whose command lines tcpdump prints: FTP,
// POP3, IMAP, SMTP and their ports.
var clearLogin = map[string]bool{"ftp": true, "pop3": true, "imap": true, "smtp": true, "21": true, "110": true, "143": true, "25": true, "587": true}

// tlsPorts are the ports of protocols that encrypt what they carry.
var tlsPorts = map[string]bool{"443": true, "22": true, "993": true, "995": true, "465": true, "636": true, "8443": true, "853": true}

// toViewer is a capture written to stdout for a graphical analyser, which
// shows it to the person at the screen.
var toViewer = lazyRE(`-w\s*-\s[^|;&]*\|\s*(?:sudo\s+)?wireshark\b`)

// tcpdumpValued are tcpdump's short options that take a value.
const tcpdumpValued = "BcCEFGiMrsTVwWyzZjQ"

// tcpdumpLongValued are tcpdump's long options that take a value.
var tcpdumpLongValued = map[string]bool{
	"--interface": true, "--count": true, "--snapshot-length": true, "--buffer-size": true, "--time-stamp-type": true,
	"--time-stamp-precision": true, "--direction": true, "--relinquish-privileges": true, "--linktype": true,
	"--postrotate-command": true, "--print-sampling": true, "--file-size": true, "--rotate-seconds": true,
}
