package policy

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// ownContainers reports whether every one of names is a container this
// command itself started: held in a variable set from $(docker run …), or
// named by docker run or create --name before verb. A teardown (rm, stop,
// kill) of it is the command's own however the two are joined (see
// madeHere); a command run in it (exec) must run only once the run
// succeeded (joined by &&: a name already taken makes the run fail), or
// under a name made afresh, to be sure the container is the one started.
func (iv *inv) ownContainers(verb string) bool {
	src := iv.c.whole
	var names []string
	args := iv.rest(1)
	for i := slices.IndexFunc(args, func(a arg) bool { return a.s == verb }) + 1; i > 0 && i < len(args); i++ {
		switch a := args[i]; {
		case !a.ok:
			names = append(names, a.src)
		case a.s == "-t" || a.s == "--time" || a.s == "-s" || a.s == "--signal":
			i++
		case !strings.HasPrefix(a.s, "-"):
			names = append(names, a.src) // as written, as the run that named it is
		}
	}
	for _, n := range names {
		if !iv.ownContainer(src, n, verb) && !iv.remadeTestContainer(src, strings.Trim(n, `"'`)) && !(testListed(n) && iv.localDocker()) {
			return false
		}
	}
	return len(names) > 0
}

// testLabelled reports whether a docker or podman listing (ps, container
// ls) is filtered to the containers a test framework labels as its own:
// Testcontainers' org.testcontainers labels, or a compose project named
// for tests (label=com.docker.compose.project=shop-e2e), on this
// machine's Docker (no -H or --context). Filters of the same listing all
// apply, so one such label bounds it.
func testLabelled(ws []string) bool {
	_, rest, _ := strings.Cut(" "+strings.Join(ws, " ")+" ", " ps ")
	if rest == "" {
		_, rest, _ = strings.Cut(" "+strings.Join(ws, " ")+" ", " container ls ")
	}
	if rest == "" || slices.ContainsFunc(ws, func(w string) bool {
		return w == "-H" || w == "--host" || w == "-c" || w == "--context" || strings.HasPrefix(w, "--host=") || strings.HasPrefix(w, "--context=")
	}) {
		return false
	}
	for i, w := range ws {
		v := ""
		switch {
		case (w == "--filter" || w == "-f") && i+1 < len(ws):
			v = ws[i+1]
		case strings.HasPrefix(w, "--filter="):
			v = strings.TrimPrefix(w, "--filter=")
		}
		v = strings.Trim(v, `"'`)
		if strings.HasPrefix(v, "label=org.testcontainers") {
			return true
		}
		if p, ok := strings.CutPrefix(v, "label=com.docker.compose.project="); ok && testContainerName(p) {
			return true
		}
	}
	return false
}

// testListed reports whether a container operand is the items of a
// listing of a test framework's containers: xargs's (testContainerItems)
// or a command substitution's, $(docker ps -aq --filter
// label=org.testcontainers=true).
func testListed(n string) bool {
	if n == testContainerItems {
		return true
	}
	inner, ok := strings.CutPrefix(strings.Trim(n, `"`), "$(")
	if !ok || !strings.HasSuffix(inner, ")") || strings.ContainsAny(inner[:len(inner)-1], "()|;&`$<>") {
		return false
	}
	ws := strings.Fields(inner[:len(inner)-1])
	return len(ws) > 2 && (ws[0] == "docker" || ws[0] == "podman") && testLabelled(ws[1:])
}

// remadeTestContainer reports whether n, a container named for tests
// (shop-pg-test, api-e2e), on this machine's Docker, is started again
// under the same name by the same command (docker rm -f pg-test; docker
// run --name pg-test …): the suite's own container, made afresh.
func (iv *inv) remadeTestContainer(src, n string) bool {
	if !testContainerName(n) || !iv.localDocker() {
		return false
	}
	for _, form := range []string{"--name " + n, "--name=" + n, "--name '" + n + "'", `--name "` + n + `"`} {
		if i := strings.Index(src, form); i >= 0 && (i+len(form) == len(src) || strings.IndexByte(" \t\n;&|)", src[i+len(form)]) >= 0) {
			return true
		}
	}
	return false
}

// ownContainer is ownContainers for one name n, as written.
func (iv *inv) ownContainer(src, n, verb string) bool {
	if v := strings.Trim(n, `"${}`); strings.HasPrefix(n, "$") || strings.HasPrefix(n, `"$`) {
		set := strings.Contains(src, v+"=$("+iv.name+" run") || strings.Contains(src, v+"=$("+iv.name+" create")
		if set && strings.Count(src, v+"=") == 1 && !strings.Contains(src, "read "+v) && !strings.Contains(src, " "+v+" in ") {
			return true
		}
	}
	for _, m := range startedNamed.FindAllStringSubmatchIndex(src, -1) {
		if strings.Trim(src[m[4]:m[5]], `"'`) != strings.Trim(n, `"'`) {
			continue
		}
		rest := src[m[1]:]
		if at := strings.Index(rest, iv.name+" "+verb); at >= 0 && (verb != "exec" || onlyOnSuccess(rest[:at]) || iv.fresh(n)) {
			return true // a name made afresh for this run is this run's whatever joins them
		}
	}
	return false
}

// builtHere reports whether the image named (as written) was built by an
// earlier build of this command tagged with that name (docker build -t
// app-$$ . && … ; docker rmi app-$$): removing it removes what the command
// made, however the name is computed, as long as nothing else sets it.
func (iv *inv) builtHere(name string) bool {
	src := iv.c.whole
	at := strings.Index(src, iv.name+" rmi")
	if at < 0 {
		at = strings.Index(src, iv.name+" image r")
	}
	if at < 0 || name == "" || strings.ContainsAny(name, "*?`") || strings.Contains(name, "$(") {
		return false
	}
	if v := strings.Trim(name, `"${}`); strings.HasPrefix(strings.TrimLeft(name, `"`), "$") && !iv.fresh(name) && strings.Count(src, v+"=") != 1 {
		return false
	}
	for _, m := range builtTagged.FindAllStringSubmatchIndex(src[:at], -1) {
		if strings.Trim(src[m[2]:m[3]], `"'`) == strings.Trim(name, `"'`) {
			return true
		}
	}
	return false
}

// builtTagged is an image build and the name it tags: docker build -t NAME.
var builtTagged = lazyRE(`\b(?:docker|podman|buildah)\s+(?:image\s+|buildx\s+)?(?:build|bud)\b[^;&|\n]*?(?:-t|--tag)[= ](\S+)`)

// pidNamed reports whether a name holds the pid of the shell running the
// command ($$, $BASHPID): made by this run, it is no one else's.
func pidNamed(name string) bool {
	return strings.Contains(name, "$$") || strings.Contains(name, "${$}") || strings.Contains(name, "$BASHPID") || strings.Contains(name, "${BASHPID}")
}

// bareContainer reports whether the container named was started by this
// command (ownContainers) with nothing of the host mounted into it and
// the host's network and devices kept out: what runs in it holds only
// what the command gave it.
func (iv *inv) bareContainer(name string) bool {
	if v := strings.Trim(name, `"${}`); strings.HasPrefix(strings.TrimLeft(name, `"`), "$") { // cid=$(docker run -d redis:7)
		for _, verb := range []string{" run", " create"} {
			if at := strings.Index(iv.c.whole, v+"=$("+iv.name+verb); at >= 0 {
				start, _, _ := strings.Cut(iv.c.whole[at:], ")")
				return bareRun(start)
			}
		}
	}
	for _, m := range startedNamed.FindAllStringSubmatchIndex(iv.c.whole, -1) {
		if strings.Trim(iv.c.whole[m[4]:m[5]], `"'`) != name {
			continue
		}
		start := iv.c.whole[m[0]:]
		if end := strings.IndexAny(start, ";&|\n"); end >= 0 {
			start = start[:end]
		}
		return bareRun(start)
	}
	return false
}

// bareRun reports whether the text of a docker run mounts nothing of the
// host into the container and keeps the host's network and devices out,
// and another container's too: --network container:pgdev puts the new
// container on pgdev's loopback, where pgdev's server answers.
func bareRun(start string) bool {
	return !sharedNamespace.MatchString(start) && !strings.Contains(start, " -v") && !strings.Contains(start, "--volume") && !strings.Contains(start, "--mount") &&
		!strings.Contains(start, "--privileged") && !strings.Contains(start, "--network host") && !strings.Contains(start, "--net=host") &&
		!strings.Contains(start, "--network=host") && !strings.Contains(start, "--net host") && !strings.Contains(start, "--volumes-from") &&
		!strings.Contains(start, "--pid=host") && !strings.Contains(start, "--pid host")
}

// sharedNamespace is a docker run option that shares the host's or another
// container's network, processes or IPC with the new container.
var sharedNamespace = lazyRE(`--(?:net|network|pid|ipc|uts|userns)(?:=|\s+)['"]?(?:host|container:)`)

// serverPorts are the clients that ask a server on a port: the options
// that name its host and port, and the port they use when none is named.
var serverPorts = map[string]struct {
	host, port []string
	def        string
}{
	"redis-cli":  {[]string{"-h"}, []string{"-p"}, "6379"},
	"valkey-cli": {[]string{"-h"}, []string{"-p"}, "6379"},
	"psql":       {[]string{"-h", "--host"}, []string{"-p", "--port"}, "5432"},
	"mysql":      {[]string{"-h", "--host"}, []string{"-P", "--port"}, "3306"},
	"mariadb":    {[]string{"-h", "--host"}, []string{"-P", "--port"}, "3306"},
	"mongosh":    {[]string{"--host"}, []string{"--port"}, "27017"},
	"mongo":      {[]string{"--host"}, []string{"--port"}, "27017"},
}

// testContainerName reports whether a container's name says it is kept
// for tests (api-redis-test, billing-mysql-it, e2e-postgres, pg_ci): a
// word of testDB's, or it as its last word too, after another (a
// container's name carries no locale).
func testContainerName(name string) bool {
	if strings.ContainsAny(name, "$`*?[") {
		return false
	}
	ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	return testDB.MatchString(name) || len(ws) > 1 && ws[len(ws)-1] == "it"
}

// ownServer reports whether a client asks a server on this machine's
// loopback at a port that a container this command started publishes
// (docker run -d -p 6390:6379 redis:7 && redis-cli -p 6390 FLUSHALL; a
// URL's host and port count as the options': psql
// postgresql://u:pw@localhost:55432/db), with
// nothing of the host mounted into the container and the client run only
// if the start succeeded: docker run fails when the port is taken, so
// what answers there is that container, which holds only what the command
// put in it. So does a client run inside such a container (scratch: docker
// exec pgtest psql -c …, docker run --rm redis:7 sh -c 'redis-server
// --daemonize yes && redis-cli FLUSHALL') that names no other host.
func (iv *inv) ownServer() bool {
	opts, ok := serverPorts[iv.name]
	if !ok || iv.c.tunnel || iv.sc.remote || iv.sc.mounts != nil && !iv.sc.scratch || !iv.sc.scratch && iv.whole() < 0 {
		return false
	}
	host, port := "", opts.def
	args := iv.rest(1)
	for i, a := range args {
		switch {
		case !a.ok:
			if i > 0 && args[i-1].ok && (contains(opts.host, args[i-1].s) || contains(opts.port, args[i-1].s)) {
				return false // a host or port computed at run time
			}
		case strings.Contains(a.s, "://"): // psql postgresql://u:pw@localhost:55432/db, redis-cli -u redis://…
			u, err := url.Parse(strings.TrimPrefix(a.s, "--uri="))
			if err != nil || strings.Contains(u.Host, ",") {
				return false
			}
			host = u.Hostname()
			if h := u.Query().Get("host"); h != "" {
				host = h // postgresql:///app?host=db.prod: libpq takes the host from the query too
			}
			if u.Port() != "" {
				port = u.Port()
			}
		case a.s == "-u" && strings.HasSuffix(iv.name, "-cli") || strings.HasPrefix(a.s, "--uri"):
		case strings.Contains(a.s, "host=") || strings.Contains(a.s, "hostaddr="): // psql "host=db.prod user=admin dbname=app": libpq's conninfo
			for _, kv := range strings.Fields(a.s) {
				if k, v, _ := strings.Cut(kv, "="); k == "host" || k == "hostaddr" {
					host = strings.Trim(v, `'"`)
				} else if k == "port" {
					port = strings.Trim(v, `'"`)
				}
			}
		case !strings.HasPrefix(a.s, "-") && strings.HasPrefix(iv.name, "mongo") && strings.ContainsAny(a.s, ":/") && (i == 0 || !args[i-1].ok || !strings.HasPrefix(args[i-1].s, "-")):
			// mongosh db.prod:27017/app: a host and a database, with no scheme
			h, _, _ := strings.Cut(a.s, "/")
			host = h
			if hh, pp, ok := strings.Cut(h, ":"); ok {
				host, port = hh, pp
			}
		case i+1 < len(args) && contains(opts.host, a.s):
			host = args[i+1].s
		case i+1 < len(args) && contains(opts.port, a.s):
			port = args[i+1].s
		case strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "="):
			name, val, _ := strings.Cut(a.s, "=")
			if contains(opts.host, name) {
				host = val
			} else if contains(opts.port, name) {
				port = val
			}
		case len(a.s) > 2 && a.s[1] != '-' && contains(opts.host, a.s[:2]): // -hdb.prod: getopt's value attached
			host = a.s[2:]
		case len(a.s) > 2 && a.s[1] != '-' && contains(opts.port, a.s[:2]):
			port = a.s[2:]
		}
	}
	if host != "" && !loopback(host) || strings.Trim(port, "0123456789") != "" {
		return false
	}
	if iv.sc.scratch {
		for _, e := range iv.environ() { // PGHOST=db.prod psql …: the client's variables name another server
			if name, val, _ := strings.Cut(e.src, "="); serverVar.MatchString(name) && (!e.ok || !loopback(hostOf(val))) {
				return false
			}
		}
		return true // in a bare container this command started: its loopback is its own, and its servers hold what the command put there
	}
	before := iv.c.whole[:iv.whole()]
	if iv.name == "psql" && port != opts.def && iv.ownCluster(before, port) {
		return true
	}
	if strings.HasSuffix(iv.name, "-cli") && port != opts.def && onlyShutdown(args) && iv.in.kind != srcText && strings.Contains(before, "-server") && ownRedis(before, port) {
		return true // a server the command started may have failed to bind a port another held: stopping is all it may do there, never flushing
	}
	if !strings.Contains(before, "docker") && !strings.Contains(before, "podman") {
		return false // no container was started to publish it: nothing to compile
	}
	published := regexp.MustCompile(`\b(?:docker|podman)\s+(?:container\s+)?run\b[^;&|\n]*?\s(?:-p|--publish)[= ](?:(?:127\.0\.0\.1|0\.0\.0\.0|localhost):)?` + port + `:\d+\b[^;&|\n]*`)
	for _, m := range published.FindAllStringIndex(before, -1) {
		if bareRun(before[m[0]:m[1]]) && onlyOnSuccess(before[m[1]:]) {
			return true
		}
	}
	return false
}

// serverVar is a variable by which a datastore's client is told which
// server to ask: PGHOST, REDIS_URL, DATABASE_URL, MONGO_URI.
var serverVar = lazyRE(`(?i)(?:host|hostname|url|uri|dsn|addr|address|server|servers)$`)

// hostOf is the host a server variable's value names: a URL's host, or
// the value itself.
func hostOf(v string) string {
	v = strings.Trim(v, `"'`)
	if u, err := url.Parse(v); err == nil && u.Host != "" {
		return u.Hostname()
	}
	return v
}

// ownProject reports whether the compose project a down or rm names, by
// -p or by its -f files, was brought up earlier in the same command
// under the same name (docker compose -f docker-compose.test.yml up -d &&
// pytest; docker compose -f docker-compose.test.yml down -v): its
// containers and volumes are the command's own (see madeHere). A project
// named by neither is the directory's default one, the developer's own
// stack, which an up finds there.
func (iv *inv) ownProject() bool {
	id := composeName(iv.args)
	if id == "" {
		return false
	}
	text := iv.c.whole
	if at := iv.whole(); at >= 0 {
		text = text[:at]
	}
	for _, up := range composeUp.FindAllString(text, -1) {
		if composeName(argsOf(strings.Fields(up)...)) == id {
			return true
		}
	}
	return false
}

// localDocker reports whether a docker (or compose) command asks this
// machine's Docker: no DOCKER_HOST or DOCKER_CONTEXT, no -H or --context,
// and not itself run on another machine.
func (iv *inv) localDocker() bool {
	if iv.sc.remote || iv.c.tunnel {
		return false
	}
	for _, e := range iv.environ() {
		if name, _, _ := strings.Cut(e.src, "="); name == "DOCKER_HOST" || name == "DOCKER_CONTEXT" {
			return false
		}
	}
	for _, a := range iv.args[1:] {
		if !a.ok {
			continue
		}
		if a.s == "-H" || a.s == "--host" || a.s == "-c" || a.s == "--context" || strings.HasPrefix(a.s, "--host=") || strings.HasPrefix(a.s, "--context=") {
			return false
		}
		if a.s == "exec" {
			return true
		}
	}
	return true
}

// testProject reports whether a compose command names, on this
// machine's Docker, a project made for tests: by -p, or by -f files that
// are all named for tests (docker-compose.test.yml, compose.e2e.yaml, -p
// myapp_test; see testDB). Its containers and volumes hold test data the
// next run makes again. The default project (neither -p nor -f) is the
// developer's stack; a -f list with the main file in it is that stack
// with overrides.
func (iv *inv) testProject() bool {
	if iv.sc.remote {
		return false
	}
	var p, f []string
	for _, e := range iv.environ() {
		name, val, _ := strings.Cut(e.src, "=")
		switch {
		case name == "DOCKER_HOST" || name == "DOCKER_CONTEXT":
			return false // DOCKER_HOST=ssh://prod: another machine's Docker
		case !e.ok:
		case name == "COMPOSE_PROJECT_NAME":
			p = append(p, val)
		case name == "COMPOSE_FILE":
			f = append(f, strings.Split(val, ":")...)
		}
	}
	for i, a := range iv.args[1:] {
		next := ""
		if i+2 < len(iv.args) {
			next = iv.args[i+2].src
		}
		switch {
		case !a.ok:
			continue
		case a.s == "-H" || a.s == "--host" || a.s == "-c" || a.s == "--context" || strings.HasPrefix(a.s, "--host=") || strings.HasPrefix(a.s, "--context="):
			return false // docker -H ssh://prod compose …
		case a.s == "-p" || a.s == "--project-name":
			p = append(p, next)
		case strings.HasPrefix(a.s, "--project-name="):
			p = append(p, strings.TrimPrefix(a.s, "--project-name="))
		case a.s == "-f" || a.s == "--file":
			f = append(f, next)
		case strings.HasPrefix(a.s, "--file="):
			f = append(f, strings.TrimPrefix(a.s, "--file="))
		}
	}
	for i, n := range f {
		if f[i] = path.Base(n); testDB.MatchString(path.Base(path.Dir(n))) {
			f[i] = "test" // -f e2e/docker-compose.yml: the project takes its directory's name
		}
	}
	all := func(names []string) bool {
		return len(names) > 0 && !slices.ContainsFunc(names, func(n string) bool { return strings.ContainsAny(n, "$`\"'") || !testDB.MatchString(n) })
	}
	if len(p) > 0 {
		return all(p)
	}
	return all(f)
}

// composeUp is a compose up in a command line's text.
var composeUp = lazyRE(`\b(?:docker|podman)[ -]compose\s[^;&|\n]*\bup\b[^;&|\n]*`)

// composeName is the name by which a compose command names its project:
// its -p and -f values, as written; "" if it gives neither.
func composeName(args []arg) string {
	var p, f []string
	for i, a := range args {
		src := strings.Trim(a.src, `"'`)
		next := ""
		if i+1 < len(args) {
			next = strings.Trim(args[i+1].src, `"'`)
		}
		switch {
		case src == "-p" || src == "--project-name":
			p = append(p, next)
		case strings.HasPrefix(src, "--project-name="):
			p = append(p, strings.TrimPrefix(src, "--project-name="))
		case src == "-f" || src == "--file":
			f = append(f, strings.TrimPrefix(next, "./"))
		case strings.HasPrefix(src, "--file="):
			f = append(f, strings.TrimPrefix(strings.TrimPrefix(src, "--file="), "./"))
		}
	}
	if len(p)+len(f) == 0 {
		return ""
	}
	return strings.Join(p, ",") + "|" + strings.Join(f, ",")
}

// madeHere reports whether what a command destroys (name, as written in
// the command) was made or started earlier in the same command, however
// the two are joined: createdb x && …; dropdb x, CREATE DATABASE x … DROP
// DATABASE x, bq mk --dataset p:ds … bq rm -r -f -d p:ds, kind create
// cluster --name x && make e2e; kind delete
// cluster --name x, helm install r … helm uninstall r. It is the
// command's own to tear down. (After ;, or after a start that finds one
// there, the teardown may reach a thing someone else had under that
// name; that small risk is accepted, as a person reading the command
// would.) A name held in a variable must be set once. The destroying
// command is found where it stands in the command line, or, in code
// re-parsed from a word, by its destroyer, which must then occur once.
func (iv *inv) madeHere(name, destroyer string) bool {
	c := iv.c
	if name == "" || strings.ContainsAny(name, " \n") {
		return false
	}
	if v := strings.Trim(name, `"${}`); strings.HasPrefix(strings.TrimLeft(name, `"`), "$") && strings.Count(c.whole, v+"=") > 1 {
		return false
	}
	var made *regexp.Regexp
	before := func(at int) bool {
		if !mayContainFold(c.whole[:at], name) {
			return false // the name is not there to have been made: nothing to compile
		}
		if made == nil {
			made = regexp.MustCompile(`(?i)\b(create\w*|new(?:-session)?|mk\w*|mb|start|launch|install|up|add|init|run)\b[^;&|\n]*?[\s'"=](` + regexp.QuoteMeta(name) + `)(?:[\s'";)]|$)`)
		}
		return made.MatchString(c.whole[:at])
	}
	if at := iv.whole(); at >= 0 && before(at) {
		return true
	}
	lower := strings.ToLower(c.whole)
	at := strings.Index(lower, strings.ToLower(destroyer))
	if at < 0 || strings.Count(lower, strings.ToLower(destroyer)) != 1 {
		return false // which of them is this one cannot be told
	}
	return before(at)
}

// mayContainFold reports whether s may hold sub in any case, as a (?i)
// expression sees it: false only when both are ASCII, whose letters fold
// only to each other, and s lowered holds no sub lowered.
func mayContainFold(s, sub string) bool {
	return !isASCII(s) || !isASCII(sub) || strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ownObjects reports whether every object a destroying verb names, from
// the first operand after it (as written; options and their values
// aside), was made earlier by this command (madeHere): kubectl create
// namespace t-$$ … ; kubectl delete namespace t-$$, helm install r-$$ … ;
// helm uninstall r-$$. skip is how many operands name a kind of thing,
// not a thing (namespace in kubectl delete namespace x).
func (iv *inv) ownObjects(verb string, skip int, withValue ...string) bool {
	args := iv.rest(1)
	i := slices.IndexFunc(args, func(a arg) bool { return a.ok && a.s == verb })
	if i < 0 || iv.sc.remote {
		return false
	}
	var names []string
	for j := i + 1; j < len(args); j++ {
		switch a := args[j]; {
		case a.ok && strings.HasPrefix(a.s, "-"):
			if !strings.Contains(a.s, "=") && contains(withValue, a.s) {
				j++
			}
		case skip > 0:
			skip--
		default:
			names = append(names, a.src)
		}
	}
	for _, n := range names {
		if !iv.madeHere(n, verb) {
			return false
		}
	}
	return len(names) > 0
}

// fresh reports whether a name, as written, holds a part the shell makes
// afresh for each run ($$, $RANDOM, $(date +%s), see freshValue), written
// out or through a variable the script set to such a value (net=itest-$$;
// … "$net-db"): made by this run, it is no one else's.
func (iv *inv) fresh(name string) bool {
	if pidNamed(name) || freshWord.MatchString(name) {
		return true
	}
	for _, m := range varRef.FindAllStringSubmatch(name, 4) {
		if iv.sc.vars.fresh(m[1] + m[2]) {
			return true
		}
	}
	return false
}

// freshWord is a part of a word, other than the pid, that the shell makes
// afresh for each run.
var freshWord = lazyRE(`\$\{?(?:RANDOM|SRANDOM|EPOCHSECONDS|EPOCHREALTIME)\b|\$\(\s*(?:date\s[^)]*\+[^)]*%[sNST][^)]*\)|uuidgen\s*\))`)

// varRef is a plain use of a variable in a word: $name, ${name}.
var varRef = lazyRE(`\$\{(\w+)\}|\$([A-Za-z_]\w*)`)

// onlyOnSuccess reports whether the shell text between two commands joins
// them with && alone, so the second runs only if the first succeeded:
// separators inside a group the second is in do not count.
func onlyOnSuccess(between string) bool {
	for _, sep := range separators(between) {
		if sep != "&&" {
			return false
		}
	}
	return true
}

// separators are the list operators in shell text between two commands,
// in order, outside the groups and subshells in it: "&&", "||", "&" and
// ";" (a newline too); a redirection's & (2>&1) and a pipe are none.
func separators(between string) []string {
	var out []string
	depth := 0
	for i := 0; i < len(between); i++ {
		switch c := between[i]; {
		case c == '(' || c == '{':
			depth++
		case c == ')' || c == '}':
			depth--
		case depth > 0:
		case c == '&' && i > 0 && (between[i-1] == '>' || between[i-1] == '<'): // 2>&1
		case c == '&' && i+1 < len(between) && between[i+1] == '&':
			out = append(out, "&&")
			i++
		case c == '&':
			out = append(out, "&")
		case c == '|' && i+1 < len(between) && between[i+1] == '|':
			out = append(out, "||")
			i++
		case c == ';' || c == '\n':
			out = append(out, ";")
		}
	}
	return out
}

// startedNamed is a container started under a name of its own choosing.
var startedNamed = lazyRE(`\b(docker|podman)\s+(?:container\s+)?(?:run|create)\b[^;&|]*?--name[= ](\S+)`)

// positionals returns the operands of args after skipping options;
// withValue lists options that take the next word.
func positionals(args []arg, withValue ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			out = append(out, unknownWord)
			continue
		}
		if strings.HasPrefix(a.s, "-") {
			if !strings.Contains(a.s, "=") && contains(withValue, a.s) {
				i++
			}
			continue
		}
		out = append(out, a.s)
	}
	return out
}

// at returns list[i] or "".
func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

// verbClass builds a handler for CLIs whose first positionals are verbs:
// a verb in destroy is destructive, in read is read-only, else Write.
func verbClass(name string, withValue []string, read []string, destroy map[string]string) handler {
	return func(iv *inv) {
		pos := positionals(iv.rest(1), withValue...)
		v := at(pos, 0)
		if v == unknownWord {
			iv.flag(Unparseable, name+" verb computed at run time")
			return
		}
		if ctx := optValue(iv.rest(1), "--kube-context"); localContext(ctx) && !dryRun(iv.name, iv.rest(1)) && !iv.sc.remote {
			iv.flag(Write, "") // helm uninstall api --kube-context kind-dev: a cluster on this machine, made to be remade
			iv.judged = true
			return
		}
		if why, ok := destroy[v]; ok {
			if iv.ownObjects(v, 0, withValue...) {
				iv.flag(Write, "") // helm install r-$$ … ; helm uninstall r-$$
				iv.judged = true
				return
			}
			iv.flag(Destructive, name+" "+v+" "+why)
			return
		}
		if contains(read, v) {
			return
		}
		iv.flag(Write, "")
		verbEffect(iv)
	}
}

var kubeOpts = []string{"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster", "--user", "-l", "--selector", "-o", "--output", "-f", "--filename", "-c", "--container"}

func kubectl(iv *inv) {
	pos := positionals(iv.rest(1), kubeOpts...)
	if clusterVerbs[at(pos, 0)] && localContext(optValue(iv.rest(1), "--context")) {
		iv.flag(Write, "") // kubectl --context kind-dev delete pod -l app=api: a cluster on this machine, made to be remade
		iv.judged = true
		return
	}
	if why := deploysLive(iv, iv.rest(1)); why != "" {
		iv.flag(Destructive, why)
		return
	}
	if why := changesWorkload(iv.rest(1), pos); why != "" && !dryRun(iv.name, iv.rest(1)) {
		iv.flag(Destructive, "kubectl "+why)
		return
	}
	switch at(pos, 0) {
	case "delete":
		if dryRun(iv.name, iv.rest(1)) {
			return
		}
		if !hasWord(iv.rest(1), "--all", "-A", "--all-namespaces", "-f", "--filename", "-k", "--kustomize", "-l", "--selector") && !strings.Contains(at(pos, 1), "/") &&
			iv.ownObjects("delete", 1, kubeOpts...) {
			iv.flag(Write, "") // kubectl create namespace t-$$ && …; kubectl delete namespace t-$$
			iv.judged = true
			return
		}
		iv.flag(Destructive, "kubectl delete removes cluster resources")
	case "drain":
		iv.flag(Destructive, "kubectl drain evicts every pod from a node")
	case "get", "describe", "logs", "top", "explain", "api-resources", "api-versions", "version", "cluster-info", "diff":
	case "config":
		if at(pos, 1) != "view" && at(pos, 1) != "get-contexts" && at(pos, 1) != "current-context" {
			iv.flag(Write, "")
		}
	case "auth":
	case "create":
		iv.flag(Write, "")
		if r := at(pos, 1); r == "clusterrolebinding" || r == "rolebinding" {
			iv.grantsPower(r)
		}
	case "exec":
		iv.flag(Write, "")
		args := iv.rest(1)
		for i, a := range args {
			if a.ok && a.s == "--" {
				if i+1 < len(args) {
					iv.c.run(args[i+1:], remote(iv.sc), iv.stdinKept(args[:i], false), iv.depth+1)
				}
				return
			}
		}
	default:
		iv.flag(Write, "")
	}
}

// pgStart is pg_ctl starting a cluster: its data directory (-D) and the
// port it is told to listen on (-o '-p PORT').
var pgStart = lazyRE(`\bpg_ctl\s[^;&|\n]*?-D\s*("[^"]*"|'[^']*'|\S+)[^;&|\n]*?-o\s*['"]?-p\s*(\d+)['"]?[^;&|\n]*?\bstart\b`)

// redisStart is a Redis (or Valkey) server started on a port named on
// its command line, not as a replica of another server.
var redisStart = lazyRE(`\b(?:redis|valkey)-server\b([^;&|\n]*?)\s--port[= ]+['"]?(\d+)\b([^;&|\n]*)`)

// onlyShutdown reports whether a Redis client's command is SHUTDOWN and
// its modifiers, and nothing else.
func onlyShutdown(args []arg) bool {
	for _, a := range args {
		if !a.ok {
			return false
		}
	}
	ops := positionals(args, "-h", "-p", "-s", "-a", "-u", "-n", "--user", "--pass", "-r", "-i", "--tls-ciphers", "--cacert", "--cert", "--key")
	if len(ops) == 0 || !strings.EqualFold(ops[0], "shutdown") {
		return false
	}
	for _, a := range ops[1:] {
		switch strings.ToLower(a) {
		case "nosave", "save", "now", "force", "abort":
		default:
			return false
		}
	}
	return true
}

// ownRedis reports whether, before a client asks the server on port, the
// command started a Redis server of its own there (redis-server --port
// 6390 --daemonize yes; …; redis-cli -p 6390 shutdown nosave): the port
// is not the default, so most likely nothing else was listening there,
// and what the server holds the command put in it, unless it was told to replicate
// another server or to load (and, shut down, save over) the data files
// of one (--dir, --dbfilename, a config file).
func ownRedis(before, port string) bool {
	for _, m := range redisStart.FindAllStringSubmatch(before, -1) {
		if opts := m[1] + m[3]; m[2] == port && !strings.Contains(opts, "replicaof") && !strings.Contains(opts, "slaveof") &&
			!strings.Contains(opts, "--dir") && !strings.Contains(opts, "--dbfilename") && !strings.Contains(opts, ".conf") {
			return true
		}
	}
	return false
}

// ownCluster reports whether, before a psql on port, the command started a
// PostgreSQL cluster listening there with its data directory in a temp
// dir made for this run (PGDATA=$(mktemp -d); initdb -D "$PGDATA"; pg_ctl
// -D "$PGDATA" -o '-p 54329' start): what it holds, the command put there.
// Its port is not the default, so a failed start leaves nothing else
// listening there.
func (iv *inv) ownCluster(before, port string) bool {
	for _, m := range pgStart.FindAllStringSubmatch(before, -1) {
		if m[2] == port && iv.tempDir(m[1]) {
			return true
		}
	}
	return false
}

// tempDir reports whether a word, as written, names a directory in a temp
// dir or one mktemp made for this run ("$PGDATA" after PGDATA=$(mktemp -d)).
func (iv *inv) tempDir(src string) bool {
	a := arg{src: src}
	if s := strings.Trim(src, `"'`); !strings.ContainsAny(s, "$`") {
		a = arg{s: iv.c.tilde(s), ok: true, src: src}
	}
	t := iv.c.resolve(iv.sc, a)
	return t.path != "" && !t.children && iv.c.inTemp(t.path) && !iv.c.isTempRoot(t.path)
}

// pgCtl judges pg_ctl: stopping, restarting or killing a server is
// stopping a database others may use, unless its data directory is in a
// temp dir (a cluster the command made for itself, initdb -D
// "$(mktemp -d)").
func pgCtl(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	v := at(positionals(args, "-D", "--pgdata", "-o", "--options", "-l", "--log", "-m", "--mode", "-t", "--timeout", "-N", "-U", "-P", "-e"), 0)
	if v != "stop" && v != "restart" && v != "kill" && v != "promote" && v != "unregister" {
		return
	}
	dir := optValue(args, "-D")
	if dir == "" {
		dir = optValue(args, "--pgdata")
	}
	for i, a := range args {
		if a.ok && a.s == "-D" && i+1 < len(args) {
			dir = args[i+1].src
		}
	}
	if dir == "" || !iv.tempDir(dir) {
		iv.flag(Destructive, "pg_ctl "+v+" stops a database server others may be using")
	}
}

// clusterVerbs are the kubectl verbs that change what a cluster holds or
// runs.
var clusterVerbs = map[string]bool{
	"delete": true, "scale": true, "patch": true, "set": true, "rollout": true, "label": true, "annotate": true, "apply": true,
	"replace": true, "drain": true, "cordon": true, "uncordon": true, "taint": true, "create": true, "edit": true, "autoscale": true,
}

// changesWorkload says how kubectl's verb changes what runs on a cluster
// that may be shared or production (set env, set image, patch, scale,
// rollout restart, label --overwrite, cordon), or "". Its pods are
// replaced, or its nodes stop taking pods, without review.
func changesWorkload(args []arg, pos []string) string {
	v, w := at(pos, 0), at(pos, 1)
	switch {
	case v == "set" && w != "":
		return "set " + w + " changes a running workload and rolls out its pods again"
	case v == "scale" && optValue(args, "--current-replicas") == "0":
		return "" // from none running: it adds, stops nothing
	case v == "patch", v == "scale", v == "autoscale", v == "edit":
		return v + " changes a running workload"
	case v == "replace" && hasWord(args, "--force"):
		return "replace --force deletes and recreates resources"
	case v == "rollout" && (w == "restart" || w == "undo" || w == "pause"):
		return "rollout " + w + " replaces or stops a running workload's pods"
	case (v == "label" || v == "annotate") && hasFlag(args, "", "--overwrite"):
		return v + " --overwrite replaces a live resource's " + map[string]string{"label": "labels, which select its pods", "annotate": "annotations, which tools act on"}[v]
	case v == "cordon" || v == "taint":
		return v + " changes which pods a node runs"
	}
	return ""
}

// deployTools roll out releases to a cluster or an environment, and
// deployVerbs are their verbs that do (helm upgrade, skaffold run,
// argocd app sync, kubectl apply).
var (
	deployTools = map[string]bool{"helm": true, "helmfile": true, "skaffold": true, "argocd": true, "kubectl": true, "oc": true, "kapp": true, "werf": true, "devspace": true}
	deployVerbs = map[string]bool{"install": true, "upgrade": true, "apply": true, "sync": true, "deploy": true, "run": true, "replace": true, "create": true, "rollback": true}
	deployOpts  = []string{"-n", "--namespace", "--kube-context", "--context", "-p", "--profile", "-e", "--environment", "--env", "-f", "--values", "--filename", "-k", "--kustomize", "--set", "--set-string", "--version", "--timeout", "-l", "--selector", "--revision"}
)

// deploysLive says why a deploy tool's verb rolls out to production, named
// by a context, namespace, profile, environment or release (--kube-context
// production, -n prod, -e production, argocd app sync api-prod): users get
// it at once, without review. A cluster on this machine (kind-, minikube)
// and a dry run are not production; files (values-prod.yaml) are only
// what it reads. "" if it is not.
func deploysLive(iv *inv, args []arg) string {
	if !deployTools[iv.name] || dryRun(iv.name, args) {
		return ""
	}
	pos := positionals(args, deployOpts...)
	v := at(pos, 0)
	if v == "app" || v == "apps" {
		v = at(pos, 1) // argocd app sync
	}
	if !deployVerbs[v] {
		return ""
	}
	for _, e := range iv.environ() { // KUBECONFIG=~/.kube/prod.yaml: the cluster the file's name says
		if name, val, ok := strings.Cut(e.src, "="); ok && e.ok && name == "KUBECONFIG" && contains(words(strings.TrimSuffix(path.Base(val), path.Ext(val))), "prod") {
			return iv.name + " " + v + " deploys to production (" + e.src + "), which users get at once, without review"
		}
	}
	for i, a := range args {
		if a.ok && i > 0 && args[i-1].ok && (args[i-1].s == "--context" || args[i-1].s == "--kube-context") && strings.Contains(a.s, "/") {
			a.s = path.Base(a.s) // arn:aws:eks:…:cluster/prod: the cluster's name
		}
		if !a.ok || strings.ContainsAny(a.s, "/") || fileExts[strings.ToLower(path.Ext(a.s)[min(1, len(path.Ext(a.s))):])] {
			continue
		}
		if i > 0 && args[i-1].ok && contains([]string{"-f", "--values", "--filename", "-k", "--kustomize", "--set", "--set-string"}, args[i-1].s) {
			continue
		}
		val := a.s
		if o, w, ok := strings.Cut(a.s, "="); ok && strings.HasPrefix(o, "-") {
			val = w
			if contains([]string{"--values", "--filename", "--set", "--set-string", "--kustomize"}, o) {
				continue
			}
		}
		if !localContext(val) && (liveMarker.MatchString(val) || contains(words(val), "prod") || contains(words(val), "production")) { // prod-eu, eks-production-1
			return iv.name + " " + v + " deploys to production (" + a.shown() + "), which users get at once, without review"
		}
	}
	return ""
}

// localContext reports whether a kube context names a cluster on this
// machine, made to be thrown away and remade: kind, minikube, k3d, Docker
// Desktop, Rancher Desktop, OrbStack, Colima.
func localContext(ctx string) bool {
	switch {
	case ctx == "minikube", ctx == "docker-desktop", ctx == "docker-for-desktop", ctx == "rancher-desktop", ctx == "orbstack", ctx == "colima":
		return true
	case strings.HasPrefix(ctx, "kind-"), strings.HasPrefix(ctx, "k3d-"), strings.HasPrefix(ctx, "colima-"):
		return true
	}
	return false
}

// optValue is the value of a long option (--context x, --context=x), or "".
func optValue(args []arg, name string) string {
	for i, a := range args {
		if !a.ok {
			continue
		}
		if v, ok := strings.CutPrefix(a.s, name+"="); ok {
			return v
		}
		if a.s == name && i+1 < len(args) && args[i+1].ok {
			return args[i+1].s
		}
	}
	return ""
}

// docker and podman.
func docker(iv *inv) {
	pos := positionals(iv.rest(1), "-H", "--host", "--context", "-c", "--config", "-l", "--log-level",
		"-e", "--env", "-u", "--user", "-w", "--workdir", "--name", "-p", "--publish", "-v", "--volume",
		"--network", "--entrypoint", "--env-file", "--platform", "-f", "--file", "--filter", "--format", "--project-name", "--project-directory", "--profile")
	v, w := at(pos, 0), at(pos, 1)
	if v == "compose" {
		composeOutput(iv) // docker compose config -o resolved.yml: the environment's values, in a file
	}
	if host, ro := hostMount(iv); host != "" && (v == "run" || v == "create" || (v == "container" && (w == "run" || w == "create"))) {
		if ro {
			iv.flag(Destructive, iv.name+" "+v+" gives the container "+host+" to read (read-only): the image's code, which tend cannot read, can send what it reads anywhere")
		} else {
			iv.flag(Destructive, iv.name+" "+v+" gives the container "+host+" to write")
		}
		return
	}
	if v == "run" || v == "container" && w == "run" {
		if iv.containerRun() {
			return
		}
	}
	switch {
	case v == "image" && w == "prune" && !hasFlag(iv.rest(2), "a", "--all"), v == "builder" && w == "prune", v == "buildx" && w == "prune":
		iv.flag(Write, "") // dangling images, the build cache: made again by the next build
		iv.judged = true
	case v == "buildx" && (w == "rm" || w == "remove"):
		iv.flag(Write, "") // a builder and its build cache: docker buildx create makes one again
		iv.judged = true
	case v == "system" && w == "prune":
		iv.flag(Destructive, iv.name+" system prune deletes containers, images and volumes")
	case v == "volume" && (w == "rm" || w == "remove") && iv.ownObjects(w, 0):
		iv.flag(Write, "") // docker volume create v-$$ && …; docker volume rm v-$$
		iv.judged = true
	case v == "volume" && (w == "rm" || w == "prune" || w == "remove"):
		iv.flag(Destructive, iv.name+" volume "+w+" deletes volume data")
	case v == "compose" && (w == "down" || w == "rm") && (iv.ownProject() || iv.testProject()):
		iv.flag(Write, "") // the project this command brought up, or a test stack on this machine
		iv.judged = true
	case v == "compose" && w == "down" && hasFlag(iv.rest(1), "v", "--volumes"):
		iv.flag(Destructive, iv.name+" compose down --volumes deletes volume data")
	case v == "ps" || v == "images" || v == "logs" || v == "inspect" || v == "version" || v == "info" || v == "top" || v == "stats" || v == "history" || v == "search" ||
		(v == "compose" && (w == "ps" || w == "logs" || w == "config")):
	case v == "rmi" || v == "image" && (w == "rm" || w == "remove"):
		// A local image named is rebuilt or pulled again; a list computed
		// at run time (rmi -f $(docker images -q)) is every image there is.
		_, ops := opts(iv.rest(2))
		if v == "image" {
			_, ops = opts(iv.rest(3))
		}
		iv.flag(Write, "")
		iv.judged = true
		for _, a := range ops {
			if (!a.ok || strings.ContainsAny(a.s, "*?")) && !iv.builtHere(a.src) {
				iv.flag(Destructive, iv.name+" "+v+" removes images computed at run time: "+a.shown())
				return
			}
		}
	case (v == "rm" || v == "stop" || v == "kill") && iv.ownContainers(v):
		iv.flag(Write, "") // the containers this command started
		iv.judged = true
	case v == "exec" || v == "compose" && w == "exec":
		iv.flag(Write, "")
		// docker exec [opts] CONTAINER cmd…, docker compose exec [opts]
		// SERVICE cmd…: the command after the container is judged as run
		// there, and that judgement is the whole of it.
		args := iv.rest(1)
		words := 3 // exec, container, command
		if v == "compose" {
			words = 4
		}
		n := 0
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a.ok && strings.HasPrefix(a.s, "-") {
				if contains([]string{"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "--index", "-f", "--file", "-p", "--project-name"}, a.s) {
					i++
				}
				continue
			}
			n++
			if n == 2 && v == "exec" && iv.ownContainer(iv.c.whole, a.src, "exec") && iv.bareContainer(a.src) && i+1 < len(args) {
				sc := iv.sc.sub() // docker exec redis-test-$$ redis-cli FLUSHALL: the command's own container
				sc.mounts, sc.cwd, sc.scratch = map[string]string{}, "/", true
				iv.c.run(args[i+1:], sc, iv.stdinKept(args[:i], false), iv.depth+1)
				iv.judged = true
				return
			}
			if n == words {
				sc := remote(iv.sc)
				sc.localContainer = iv.localDocker() && !slices.ContainsFunc(args[:i], func(a arg) bool { // -e DB_HOST=db.prod: what the environment names is not seen
					return !a.ok || a.s == "-e" || a.s == "--env" || a.s == "--env-file" || strings.HasPrefix(a.s, "--env") || strings.HasPrefix(a.s, "-e")
				})
				// docker exec api-redis-test redis-cli FLUSHALL: a container of
				// this machine's Docker named for tests holds test data
				sc.testContainer = sc.localContainer && i > 0 && args[i-1].ok && testContainerName(args[i-1].s)
				iv.c.run(args[i:], sc, iv.stdinKept(args[:i], v == "compose"), iv.depth+1)
				iv.judged = true // its words are the command's, judged above (docker exec test-pg psql -c 'DROP DATABASE app_test' as psql's)
				return
			}
		}
	default:
		iv.flag(Write, "")
	}
}

// localURL reports whether the URL an option gives, if it is given, is
// known and on this machine's loopback.
func localURL(args []arg, opt string) bool {
	for i, a := range args {
		v, ok := strings.CutPrefix(a.s, opt+"=")
		if !a.ok && strings.Contains(a.src, opt) {
			return false // --db-url="$DB"
		}
		if a.s == opt && i+1 < len(args) {
			a, v, ok = args[i+1], args[i+1].s, true
		}
		if !ok {
			continue
		}
		if u, err := url.Parse(v); !a.ok || err != nil || !loopback(u.Hostname()) {
			return false
		}
	}
	return true
}

// localCluster is a tool for Kubernetes clusters in containers on this
// machine (kind, k3d, minikube): they are made to be thrown away and made
// again, so deleting one by name is ordinary; --all deletes every one,
// and minikube delete --purge the tool's own state.
func localCluster(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	if !slices.Contains(strs0(args), "delete") || iv.sc.remote {
		return
	}
	if hasFlag(args, "", "--purge") {
		iv.flag(Destructive, iv.name+" delete --purge deletes its whole state directory, every cluster's with it")
		return
	}
	if hasFlag(args, "aA", "--all") {
		iv.flag(Destructive, iv.name+" delete --all deletes every local cluster, the developer's own among them")
		return
	}
	iv.judged = true
}

// dockerCompose is the standalone compose (docker-compose,
// podman-compose): judged as docker compose.
func dockerCompose(iv *inv) {
	iv.args = append(argsOf("docker", "compose"), iv.rest(1)...)
	iv.name = "docker"
	docker(iv)
}

// sailOwn are Laravel Sail's own commands, which run a tool inside the
// application's container; every other word Sail hands to docker compose.
var sailOwn = setOf("artisan", "art", "php", "composer", "node", "npm", "npx", "yarn", "pnpm", "pnpx", "bun", "bunx",
	"test", "phpunit", "pest", "dusk", "dusk:fails", "tinker", "shell", "bash", "root-shell", "root-bash",
	"mysql", "mariadb", "psql", "mongodb", "redis", "valkey", "share", "open", "debug", "pint", "python", "pip")

// composeWrapper judges the tools that run a project's docker compose
// stack for it (Laravel Sail, DDEV, Lando) as compose is judged: stopping
// the stack or taking its containers down keeps its volumes (sail down,
// ddev stop, ddev poweroff, lando stop), deleting those volumes or the
// project's database is held (sail down -v, ddev stop --remove-data, ddev
// delete, lando destroy). Their other verbs are judged as an unknown
// tool's words are.
func composeWrapper(iv *inv) {
	args := iv.rest(1)
	pos := positionals(args)
	v := at(pos, 0)
	switch {
	case iv.name == "sail" && v != "" && v != unknownWord && !sailOwn[v]:
		dockerCompose(iv) // sail down -v: docker compose down -v
		return
	case iv.name == "ddev" && (v == "stop" || v == "poweroff" || v == "restart"):
		iv.flag(Write, "")
		if hasFlag(args, "R", "--remove-data") {
			iv.flag(Destructive, "ddev "+v+" --remove-data deletes the project's database")
		}
		return
	case iv.name == "ddev" && v == "delete" && at(pos, 1) != "images":
		iv.flag(Destructive, "ddev delete deletes the project's database and containers")
		return
	case iv.name == "lando" && (v == "stop" || v == "poweroff" || v == "restart"):
		iv.flag(Write, "")
		return
	case iv.name == "lando" && v == "destroy":
		iv.flag(Destructive, "lando destroy deletes the app's containers and the data in them")
		return
	}
	unknownTool(iv)
	wrappedProgram(iv) // ddev exec rm -rf …
}

// terraform, tofu, terragrunt.
func terraform(iv *inv) {
	args := iv.rest(1)
	pos := positionals(args, "-chdir")
	switch v := at(pos, 0); v {
	case "destroy":
		iv.flag(Destructive, iv.name+" destroy deletes infrastructure")
	case "apply":
		if hasWord(args, "-auto-approve", "--auto-approve") {
			iv.flag(Destructive, iv.name+" apply -auto-approve changes infrastructure without review")
		} else if hasWord(args, "-destroy", "--destroy") {
			iv.flag(Destructive, iv.name+" apply -destroy deletes infrastructure")
		} else if iv.c.mentions("-destroy") {
			iv.flag(Destructive, iv.name+" apply of a plan made with -destroy deletes infrastructure")
		} else if plan := at(pos, 1); plan != "" && plan != unknownWord {
			iv.flag(Destructive, iv.name+" apply "+plan+" applies a saved plan, which it does without asking, so it changes infrastructure without review")
		} else if answered(iv.in) && !hasWord(args, "-input=false") {
			iv.flag(Destructive, iv.name+" apply is given its confirmation on stdin (yes | …), so it changes infrastructure without review")
		} else {
			iv.flag(Write, "")
		}
	case "workspace":
		// workspace delete refuses a workspace whose state still holds
		// resources, and the one selected; -force deletes the state anyway.
		if w := at(pos, 1); w == "delete" && hasWord(args, "-force", "--force", "-force=true", "--force=true") {
			iv.flag(Destructive, iv.name+" workspace delete -force deletes a workspace's state with the resources it still tracks")
		} else if w == "delete" && anyUnknown(args) {
			iv.flag(Destructive, iv.name+" workspace delete is given words computed at run time, which may be -force")
		} else {
			iv.flag(Write, "")
			iv.judged = true
		}
	case "force-unlock":
		iv.flag(Destructive, iv.name+" force-unlock breaks the state lock of a run that may still be going: both write the shared state")
	case "import", "taint":
		iv.flag(Destructive, iv.name+" "+v+" changes the shared state by hand, outside a reviewed plan")
	case "state":
		if w := at(pos, 1); w == "rm" || w == "mv" || w == "push" || w == "replace-provider" {
			iv.flag(Destructive, iv.name+" state "+w+" changes the shared state by hand, outside a reviewed plan")
		} else {
			iv.flag(Write, "")
		}
	case "plan", "show", "validate", "output", "version", "providers", "graph", "fmt":
		if v == "plan" || v == "fmt" {
			iv.flag(Write, "")
		}
	default:
		iv.flag(Write, "")
	}
}

// answered reports whether a prompt's answer may come on stdin: text
// saying yes, or the output of a command or file tend cannot read (yes |,
// < answers.txt).
func answered(in source) bool {
	switch in.kind {
	case srcNone:
		return false
	case srcText:
		return strings.Contains(strings.ToLower(in.text), "yes")
	}
	return true
}

// emulatorCLIs are the cloud CLIs that can be pointed at an emulator of
// their cloud on this machine (LocalStack, MinIO, Azurite, the Google
// Cloud and Firebase emulators), and LocalStack's wrappers, which always
// are.
var emulatorCLIs = map[string]bool{
	"aws": true, "gcloud": true, "gsutil": true, "az": true, "azcopy": true, "mc": true, "mcli": true, "firebase": true, "s3cmd": true,
	"awslocal": true, "tflocal": true, "cdklocal": true, "samlocal": true, "pulumilocal": true, "azlocal": true,
}

// emulated reports whether a cloud CLI works on an emulator on this
// machine, not on the cloud: LocalStack's wrappers (awslocal, tflocal),
// or an endpoint on the loopback given by an option (--endpoint-url,
// s3cmd's --host), a connection string (Azurite's
// UseDevelopmentStorage=true), a MinIO alias this command sets (mc alias
// set local http://localhost:9000 …, MC_HOST_local=…) or the environment
// (AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_S3, PUBSUB_EMULATOR_HOST,
// CLOUDSDK_API_ENDPOINT_OVERRIDES_PUBSUB) for the service it uses. Every
// such setting that applies must point here, and no tunnel this command
// opens may carry the loopback elsewhere. What it deletes there is the
// emulator's; its credentials are dummies.
func (iv *inv) emulated() bool {
	if iv.sc.remote || iv.c.tunnel {
		return false
	}
	if strings.HasSuffix(iv.name, "local") {
		return true // awslocal, tflocal …
	}
	args := iv.rest(1)
	local, elsewhere := false, false
	see := func(v string) {
		if localEndpoint(v) {
			local = true
		} else {
			elsewhere = true
		}
	}
	for i, a := range args {
		if !a.ok {
			if i > 0 && args[i-1].ok && strings.Contains(args[i-1].s, "endpoint") {
				elsewhere = true
			}
			continue
		}
		name, val, eq := strings.Cut(a.s, "=")
		if !eq && i+1 < len(args) {
			val = args[i+1].s
		}
		switch {
		case !strings.HasPrefix(name, "--"):
		case strings.Contains(name, "endpoint") || iv.name == "s3cmd" && name == "--host":
			see(val)
		case name == "--connection-string":
			see(connectionEndpoint(val))
		}
	}
	services := iv.services()
	for _, e := range iv.environ() {
		name, _, _ := strings.Cut(e.src, "=")
		val := e.s
		if !e.ok {
			continue
		}
		switch svc, ok := endpointVar(name); {
		case !ok:
		case svc == "" || services[svc]:
			if name == "AZURE_STORAGE_CONNECTION_STRING" {
				val = connectionEndpoint(val)
			}
			see(val)
		}
	}
	if iv.name == "mc" || iv.name == "mcli" {
		local, elsewhere = iv.localAliases(local, elsewhere)
	}
	return local && !elsewhere
}

// endpointVar says which service an environment variable points at an
// endpoint of its own ("" for all of them), and whether it does:
// AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_DYNAMODB, FIRESTORE_EMULATOR_HOST,
// CLOUDSDK_API_ENDPOINT_OVERRIDES_PUBSUB, Azurite's connection string.
func endpointVar(name string) (string, bool) {
	svc := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	switch {
	case name == "AWS_ENDPOINT_URL":
		return "", true
	case strings.HasPrefix(name, "AWS_ENDPOINT_URL_"):
		return svc(strings.TrimPrefix(name, "AWS_ENDPOINT_URL_")), true
	case strings.HasPrefix(name, "CLOUDSDK_API_ENDPOINT_OVERRIDES_"):
		return svc(strings.TrimPrefix(name, "CLOUDSDK_API_ENDPOINT_OVERRIDES_")), true
	case strings.HasSuffix(name, "_EMULATOR_HOST"):
		return svc(strings.TrimPrefix(strings.TrimSuffix(name, "_EMULATOR_HOST"), "FIREBASE_")), true
	case name == "AZURE_STORAGE_CONNECTION_STRING":
		return "storage", true
	}
	return "", false
}

// services are the names of the services a cloud CLI's first words use
// (aws s3api → s3, firebase firestore:delete → firestore, gsutil →
// storage), as the environment names them: lower case, no separators.
func (iv *inv) services() map[string]bool {
	out := map[string]bool{}
	if iv.name == "gsutil" || iv.name == "azcopy" {
		out["storage"] = true
	}
	pos := positionals(iv.rest(1), "--profile", "--region", "--project", "--account", "-g", "--resource-group", "--subscription", "--endpoint-url", "--connection-string", "--account-name")
	for _, w := range pos[:min(len(pos), 3)] {
		w = strings.ToLower(w)
		out[strings.TrimSuffix(w, "api")] = true // s3api
		out[strings.ReplaceAll(w, "-", "")] = true
		for _, p := range words(w) {
			out[p] = true
		}
	}
	return out
}

// localEndpoint reports whether an endpoint (a URL, host:port or host)
// is on this machine: the loopback, localhost, or LocalStack's name for
// it (localhost.localstack.cloud).
func localEndpoint(v string) bool {
	if v == "" {
		return false
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return loopback(h) || h == "localhost.localstack.cloud" || strings.HasSuffix(h, ".localhost.localstack.cloud") || strings.HasSuffix(h, ".localhost")
}

// connectionEndpoint is where an Azure Storage connection string points:
// 127.0.0.1 for Azurite's UseDevelopmentStorage=true, else its
// BlobEndpoint (or QueueEndpoint, TableEndpoint), else "" (the cloud).
func connectionEndpoint(cs string) string {
	for _, part := range strings.Split(cs, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch strings.ToLower(k) {
		case "usedevelopmentstorage":
			if strings.EqualFold(v, "true") {
				return "127.0.0.1"
			}
		case "blobendpoint", "queueendpoint", "tableendpoint":
			return v
		}
	}
	return ""
}

// localAliases judges the MinIO aliases mc's operands name (local/bucket):
// one the command sets to an endpoint here (mc alias set local
// http://localhost:9000 …, MC_HOST_local=http://…@localhost:9000) is
// local, any other is elsewhere.
func (iv *inv) localAliases(local, elsewhere bool) (bool, bool) {
	for i, w := range positionals(iv.rest(1), "--config-dir", "-C") {
		alias, _, ok := strings.Cut(w, "/")
		if i == 0 {
			continue // the verb
		}
		if !ok || alias == "" {
			continue
		}
		var set []string
		if iv.c.mentions("MC_HOST_") || iv.c.mentions("alias") && iv.c.mentions("set") || iv.c.mentions("config") && iv.c.mentions("host") && iv.c.mentions("add") {
			set = regexp.MustCompile(`\bmcl?i?\s+(?:alias\s+set|config\s+host\s+add)\s+` + regexp.QuoteMeta(alias) + `\s+(\S+)|\bMC_HOST_` + regexp.QuoteMeta(alias) + `=["']?(\S+)`).FindStringSubmatch(iv.c.whole)
		} // else no alias is set: nothing to compile
		switch {
		case set == nil:
			elsewhere = true
		case localEndpoint(strings.Trim(set[1]+set[2], `"'`)):
			local = true
		default:
			elsewhere = true
		}
	}
	return local, elsewhere
}

var awsOpts = []string{"--profile", "--region", "--output", "--endpoint-url", "--query", "--cli-read-timeout", "--cli-connect-timeout", "--color", "--ca-bundle"}

func aws(iv *inv) {
	args := iv.rest(1)
	pos := positionals(args, awsOpts...)
	svc, op := at(pos, 0), at(pos, 1)
	switch {
	case (svc == "s3" && op == "rb" || hasAnyPrefix(op, "delete-", "terminate-", "remove-", "deregister-", "destroy-")) && iv.ownObjects(op, 0, awsOpts...):
		iv.flag(Write, "") // aws s3 mb s3://b-$$ && …; aws s3 rb s3://b-$$ --force
		iv.judged = true
	case svc == "s3" && op == "rb":
		iv.flag(Destructive, "aws s3 rb removes a bucket")
	case svc == "s3" && op == "rm" && hasFlag(args, "", "--recursive"):
		iv.flag(Destructive, "aws s3 rm --recursive deletes objects")
	case svc == "s3" && op == "mv" && hasFlag(args, "", "--recursive") && strings.HasPrefix(at(pos, 2), "s3://"):
		iv.flag(Destructive, "aws s3 mv --recursive from a bucket deletes the objects it moves out of it: "+at(pos, 2))
	case svc == "s3" && op == "sync" && hasFlag(args, "", "--delete"):
		iv.flag(Destructive, "aws s3 sync --delete deletes objects")
	case svc == "s3" && op == "ls":
	case svc == "iam" && iv.grantsPower(op):
	case hasAnyPrefix(op, "delete-", "terminate-", "remove-", "deregister-", "purge-", "destroy-"):
		iv.flag(Destructive, "aws "+svc+" "+op+" deletes cloud resources")
	case hasAnyPrefix(op, "describe-", "get-", "list-") || svc == "sts":
	case withdraws(pos[min(1, len(pos)):min(2, len(pos))], false) != "" && !hasFlag(args, "", "--dry-run"):
		w := withdraws(pos[1:2], false)
		iv.flag(Destructive, "aws "+svc+" "+op+" "+withdrawWhy[w]+" in the account it acts on, where others rely on it")
	default:
		iv.flag(Write, "")
	}
}

// withdrawWhy is what a platform CLI's verb does to what is there when
// it withdraws, suspends or replaces it rather than deleting it: the
// words of such verbs (az vm deallocate, flux suspend, gh repo archive,
// aws cloudfront create-invalidation, gcloud sql import, heroku
// pg:backups:restore).
var withdrawWhy = map[string]string{
	"suspend": "suspends what it names", "pause": "pauses what it names", "deallocate": "stops what it names and gives up its machine",
	"detach": "detaches what it names from what uses it", "archive": "archives what it names, read-only for everyone",
	"invalidation": "drops what a CDN caches, sending every request to the origin", "invalidate": "drops what a CDN or service caches",
	"restore": "restores a backup over what is there", "import": "imports data over what is there",
}

// withdraws is the word of withdrawWhy among the words of a platform
// CLI's first verbs (restore and import only when over is set: in aws
// they make a new resource), or "" when none is, or a verb that only
// reads (list, describe) comes first.
func withdraws(pos []string, over bool) string {
	for i, v := range pos {
		if i >= 4 || strings.ContainsAny(v, "/=@ ") {
			break
		}
		ws := words(v)
		if slices.ContainsFunc(ws, func(w string) bool { return readVerbs[w] || w == "describe" || w == "status" }) {
			return ""
		}
		for _, w := range ws {
			if _, ok := withdrawWhy[w]; ok && (over || w != "restore" && w != "import") {
				return w
			}
		}
	}
	return ""
}

// hasWord reports whether args hold one of words, alone or as word=value
// (terraform's single-dash long options).
func hasWord(args []arg, words ...string) bool {
	for _, a := range args {
		if !a.ok {
			continue
		}
		name, val, _ := strings.Cut(a.s, "=")
		if contains(words, name) && val != "false" {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// cloudVerb handles gcloud, az, gh, doctl …: a positional "delete" (or the
// like) anywhere in the command path is destructive.
func cloudVerb(iv *inv) {
	cloudOpts := []string{"--project", "--zone", "--region", "--format", "-g", "--resource-group", "-R", "--repo", "--subscription", "--account", "-X", "--method"}
	pos := positionals(iv.rest(1), cloudOpts...)
	if (iv.name == "vercel" || iv.name == "netlify") && (hasWord(iv.rest(1), "--prod", "--production") || optValue(iv.rest(1), "--target") == "production") {
		iv.flag(Destructive, iv.name+" --prod deploys to production, which users get at once, without review")
		return
	}
	if iv.name == "supabase" && at(pos, 0) == "db" && at(pos, 1) == "reset" && !iv.sc.remote && !hasWord(iv.rest(1), "--linked") && localURL(iv.rest(1), "--db-url") {
		iv.flag(Write, "") // the local Docker stack's database, made again from migrations and seed
		iv.judged = true
		return
	}
	if iv.name == "supabase" && (at(pos, 0) == "stop" || at(pos, 0) == "start") && !iv.sc.remote {
		iv.flag(Write, "") // supabase stop: the local Docker stack, its data kept in its volumes (--no-backup drops that, still on this machine)
		iv.judged = true
		return
	}
	if iv.name == "gh" && at(pos, 0) == "cache" {
		iv.flag(Write, "") // gh cache delete: Actions caches, which the next run rebuilds
		iv.judged = true
		return
	}
	for _, v := range pos {
		switch v {
		case "delete", "destroy", "purge", "rb":
			if iv.ownObjects(v, 0, cloudOpts...) {
				iv.flag(Write, "") // gcloud compute instances create vm-$$ … ; gcloud compute instances delete vm-$$
				iv.judged = true
				return
			}
			iv.flag(Destructive, iv.name+" "+strings.Join(pos[:min(len(pos), 3)], " ")+" deletes resources")
			return
		}
	}
	if w := withdraws(pos, true); w != "" && !dryRun(iv.name, iv.rest(1)) {
		iv.flag(Destructive, iv.name+" "+strings.Join(pos[:min(len(pos), 3)], " ")+" "+withdrawWhy[w]+" in the account it acts on, where others rely on it")
		return
	}
	for _, v := range pos {
		if (v == "add-iam-policy-binding" || v == "set-iam-policy" || v == "assignment") && iv.grantsPower(v) {
			return
		}
	}
	if iv.name == "gh" && at(pos, 0) == "pr" && at(pos, 1) == "close" && hasFlag(iv.rest(1), "d", "--delete-branch") {
		iv.flag(Destructive, "gh pr close --delete-branch deletes the pull request's branch on the remote")
		return
	}
	if o := bypassesReview(iv.name, pos, iv.rest(1)); o != "" { // gh pr merge --admin, az repos pr update --bypass-policy true
		iv.flag(Destructive, iv.name+" "+strings.Join(pos[:min(len(pos), 3)], " ")+" "+o+" merges, or lets the merge go, past the required reviews and checks that protect the branch everyone builds on")
		return
	}
	if v := closeVerb(pos); v != "" && slices.ContainsFunc(iv.rest(1), func(a arg) bool { return a.item }) {
		iv.flag(Destructive, iv.name+" "+strings.Join(pos[:min(len(pos), 2)], " ")+" runs on every item its input lists: each of them is changed ("+v+") on the remote, in bulk")
		return
	}
	args := iv.rest(1)
	for i := range args { // -X DELETE, -XDELETE, -X=DELETE, --method=DELETE
		if m := requestMethod(args, i); m != nil && strings.EqualFold(m.s, "DELETE") {
			iv.flag(Destructive, iv.name+" api DELETE request")
			return
		}
		if m := requestMethod(args, i); iv.name == "gh" && at(pos, 0) == "api" && m != nil && (!m.ok || !strings.EqualFold(m.s, "GET")) && guardSetting.MatchString(at(pos, 1)) {
			iv.flag(Destructive, "gh api changes who or what may act on a repository or organisation: "+at(pos, 1))
			return
		}
	}
	if verbEffect(iv) {
		return
	}
	for _, v := range pos {
		if v == "list" || v == "describe" || v == "view" || v == "show" || v == "status" {
			return
		}
	}
	iv.flag(Write, "")
}

// guardSetting is a GitHub API path of the settings that guard a
// repository or organisation: what Actions may do, branch protection
// and rulesets, collaborators and members, webhooks, deploy keys,
// secrets.
var guardSetting = lazyRE(`^/?(?:repos/[^/]+/[^/]+|orgs/[^/]+)/(?:actions/(?:permissions|secrets|variables)|branches/[^/]+/protection|rulesets|collaborators|members|memberships|outside_collaborators|teams|hooks|keys|secrets|dependabot/secrets|environments)`)

// bypassesReview is the option by which a platform CLI merges a change
// past the branch's protection (required reviews and checks): gh pr merge
// --admin, az repos pr create/update --bypass-policy true; "" if none.
func bypassesReview(name string, pos []string, args []arg) string {
	for i, a := range args {
		if !a.ok {
			continue
		}
		switch o, v, eq := strings.Cut(a.s, "="); {
		case name == "gh" && at(pos, 0) == "pr" && at(pos, 1) == "merge" && o == "--admin" && (!eq || v == "true"):
			return a.s
		case name == "az" && o == "--bypass-policy":
			if !eq && i+1 < len(args) {
				v = args[i+1].s
			}
			if strings.EqualFold(v, "true") || v == "yes" || v == "1" {
				return a.s + " " + v
			}
		}
	}
	return ""
}

// closeVerb is a verb among a platform CLI's words that changes the state
// of an item others share, undoable one at a time but not lightly in bulk
// (gh pr close, gh issue lock, gh repo archive), or "".
func closeVerb(pos []string) string {
	for _, v := range pos[:min(len(pos), 3)] {
		switch v {
		case "close", "lock", "archive", "merge", "transfer":
			return v
		}
	}
	return ""
}

// systemctl verbs that stop the machine or its services.
func systemctl(iv *inv) {
	pos := positionals(iv.rest(1), "-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "-s", "--signal")
	switch v := at(pos, 0); v {
	case "poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency", "suspend", "hibernate", "hybrid-sleep", "isolate":
		iv.flag(Destructive, "systemctl "+v+" stops the machine")
	case "stop", "disable", "mask", "kill", "reset-failed", "revert", "clean", "freeze":
		iv.flag(Destructive, "systemctl "+v+" stops or disables services")
	case "enable", "link", "preset", "set-default":
		iv.flag(Destructive, "systemctl "+v+" makes a service start by itself from now on")
	case "status", "show", "cat", "list-units", "list-unit-files", "list-timers", "is-active", "is-enabled", "is-failed", "list-dependencies":
	case unknownWord:
		iv.flag(Unparseable, "systemctl verb computed at run time")
	default:
		iv.flag(Write, "")
	}
}

// firewall flushes.
func iptables(iv *inv) {
	args := iv.rest(1)
	for i, a := range args {
		if a.ok && i+1 < len(args) && (a.s == "-j" || a.s == "--jump" || a.s == "-P" || a.s == "--policy") {
			if v := strings.ToUpper(args[len(args)-1].s); (a.s == "-P" || a.s == "--policy") && (v == "DROP" || v == "REJECT") ||
				(a.s == "-j" || a.s == "--jump") && (args[i+1].s == "DROP" || args[i+1].s == "REJECT") {
				iv.flag(Destructive, iv.name+" drops traffic: "+shownArgs(args))
				return
			}
		}
	}
	if hasFlag(args, "FX", "--flush", "--delete-chain") {
		iv.flag(Destructive, iv.name+" flushes firewall rules")
		return
	}
	if hasFlag(args, "LS", "--list", "--list-rules") {
		return
	}
	iv.flag(Write, "")
}

// nft flush removes firewall rules.
func nft(iv *inv) {
	if pos := positionals(iv.rest(1)); at(pos, 0) == "flush" {
		iv.flag(Destructive, "nft flush removes firewall rules")
		return
	}
	iv.flag(Write, "")
}

// ufw disable or reset turns the firewall off.
func ufw(iv *inv) {
	if pos := positionals(iv.rest(1)); at(pos, 0) == "default" && at(pos, 1) != "allow" {
		iv.flag(Destructive, "ufw default "+at(pos, 1)+" blocks traffic by default")
		return
	}
	if v := at(positionals(iv.rest(1)), 0); v == "disable" || v == "reset" {
		iv.flag(Destructive, "ufw "+v+" turns the firewall off")
		return
	}
	if v := at(positionals(iv.rest(1)), 0); v == "status" || v == "show" || v == "version" || v == "" && hasWord(iv.rest(1), "--version", "--help") ||
		v == "app" && (at(positionals(iv.rest(1)), 1) == "list" || at(positionals(iv.rest(1)), 1) == "info") {
		return // ufw status verbose, ufw app list: they only report
	}
	iv.flag(Write, "")
}

// crontab -r deletes the crontab; -l only lists it.
func crontab(iv *inv) {
	if hasFlag(iv.rest(1), "r", "--remove") {
		iv.flag(Destructive, "crontab -r deletes the crontab")
		return
	}
	if hasFlag(iv.rest(1), "l", "--list") {
		return
	}
	iv.flag(Write, "")
	if _, operands := opts(iv.rest(1)); len(operands) > 0 {
		iv.flag(Destructive, "crontab "+operands[0].shown()+" replaces the crontab (code that runs later)")
	}
}

// telinit (and init) to runlevel 0 or 6 stops the machine.
func telinit(iv *inv) {
	if v := at(positionals(iv.rest(1)), 0); v == "0" || v == "6" {
		iv.flag(Destructive, "init "+v+" stops the machine")
		return
	}
	iv.flag(Write, "")
}

// hostMount is the host directory a container is given that exposes the
// machine (the root, home, the docker socket, a system directory, given
// to write) or secrets (given even to read: ro says so), or "".
func hostMount(iv *inv) (host string, ro bool) {
	args := runArgs(iv.rest(1))
	for i, a := range args {
		spec, name := "", a.s
		switch {
		case !a.ok:
		case (a.s == "-v" || a.s == "--volume" || a.s == "--mount") && i+1 < len(args):
			spec = args[i+1].src
			if args[i+1].ok {
				spec = args[i+1].s
			}
		case strings.HasPrefix(a.s, "--volume=") || strings.HasPrefix(a.s, "--mount="):
			name, spec, _ = strings.Cut(a.s, "=")
		case a.s == "--privileged":
			return "the whole machine (--privileged)", false
		}
		if spec == "" {
			continue
		}
		src, ro := mountSource(name, spec)
		if isSecretPath(iv.c.tilde(strings.Trim(src, `"`))) {
			return "secrets, " + src + ",", ro
		}
		if p := path.Clean(iv.c.tilde(src)); slices.ContainsFunc(homeSecretDirs, func(d string) bool {
			return p == path.Join(iv.c.home, d) || isUnder(path.Join(iv.c.home, d), p) && p != iv.c.home
		}) {
			return "secrets, " + src + ",", ro // -v ~/.docker:/d: the registry logins in its config.json
		}
		if ro || src == "" {
			continue
		}
		if src == "$HOME" || src == "${HOME}" {
			src = iv.c.home
		}
		t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(src), ok: true, src: src})
		if p := t.path; p == "/" || p == iv.c.home || isSystemPath(p) || strings.HasSuffix(p, "docker.sock") || p == "/home" {
			return p, false
		}
	}
	return "", false
}

// mountSource is the host path of a mount (-v SRC:DST[:OPTS], --mount
// type=bind,source=SRC,… in any order, src= or source=) and whether it is
// read-only (:ro, readonly, ro=true).
func mountSource(opt, spec string) (src string, ro bool) {
	if opt != "--mount" {
		parts := strings.Split(spec, ":")
		if len(parts) > 2 {
			for _, o := range strings.Split(parts[2], ",") {
				ro = ro || o == "ro" || o == "readonly"
			}
		}
		return strings.Trim(parts[0], `"`), ro
	}
	for _, f := range strings.Split(spec, ",") {
		k, v, eq := strings.Cut(strings.TrimSpace(f), "=")
		switch strings.ToLower(k) {
		case "source", "src":
			src = strings.Trim(v, `"`)
		case "readonly", "ro":
			ro = !eq || v == "true" || v == "1"
		}
	}
	return src, ro
}

// runArgs reads docker run's options before the image as its parser does:
// a one-letter option that takes a value takes the rest of its word
// (-v/:/host, -v=/:/host) or the next, and one-letter flags cluster
// (-itv /:/host). The words from the image on are the container's
// command's, left as they are.
func runArgs(args []arg) []arg {
	out := make([]arg, 0, len(args)+4)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok || a.s == "--" || !strings.HasPrefix(a.s, "-") {
			if a.ok && (a.s == "run" || a.s == "create" || a.s == "container") {
				out = append(out, a)
				continue
			}
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a.s, "--") || len(a.s) == 2 {
			out = append(out, a)
			if !strings.Contains(a.s, "=") && contains(runValueOpts, a.s) && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		for j := 1; j < len(a.s); j++ {
			opt := "-" + a.s[j:j+1]
			out = append(out, arg{s: opt, ok: true, src: opt})
			if !contains(runValueOpts, opt) {
				continue
			}
			if v := strings.TrimPrefix(a.s[j+1:], "="); v != "" {
				out = append(out, arg{s: v, ok: true, src: v})
			} else if i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			break
		}
	}
	return out
}

// homeSecretDirs are the directories under home that hold tools' logins
// and tokens (with ~/.ssh, ~/.aws and the others isSecretPath knows).
var homeSecretDirs = []string{".docker", ".config/gh", ".config/gcloud", ".azure", ".kube", ".config/hub", ".terraform.d"}

// vcsDiscard judges the version control systems beside git —
// Subversion, Mercurial, Sapling (sl), Fossil, Jujutsu (jj), Darcs,
// Bazaar (bzr, brz), CVS and Pijul: the verbs
// that throw away what the working copy holds and no commit has (revert,
// a clean update or goto, purge and clean, jj's abandon and restore, a
// forced fossil checkout) or strip commits cannot be undone from the
// repository; the rest is ordinary work. A verb asked only to list what
// it would do (hg purge --print, hg revert --dry-run, fossil clean -n)
// does nothing, unless a later word turns that off (--no-print).
func vcsDiscard(iv *inv) {
	args := iv.rest(1)
	pos := positionals(args, "-r", "--rev", "--revision", "-m", "--message", "--depth", "-R", "--repository", "--cwd", "--config",
		"--at-op", "--at-operation", "--color", "--chdir", "-I", "--include", "-X", "--exclude")
	v := at(pos, 0)
	if iv.name == "jj" && v == "op" || iv.name == "fossil" && v == "stash" {
		v += " " + at(pos, 1) // jj op abandon, fossil stash drop
	}
	switch {
	case v == unknownWord || strings.HasSuffix(v, " "+unknownWord):
		iv.flag(Unparseable, iv.name+" verb computed at run time")
	case (dryRun(iv.name, args) || (v == "purge" || v == "clean") && vcsLists(args, "p0", "--print", "--print0") && iv.name != "fossil" && iv.name != "svn" ||
		(v == "revert" || v == "clean") && vcsLists(args, "n", "--dry-run") && iv.name != "svn") && iv.listingRun() != "":
		iv.flag(Destructive, iv.name+" "+v+" lists what it would throw away, and the pipe does it: "+iv.listingRun())
	case dryRun(iv.name, args): // bzr clean-tree --dry-run, darcs obliterate --dry-run; where a verb has none, the option is refused and nothing runs
		iv.flag(Write, "")
	case (v == "purge" || v == "clean") && vcsLists(args, "p0", "--print", "--print0") && iv.name != "fossil" && iv.name != "svn",
		(v == "revert" || v == "clean") && vcsLists(args, "n", "--dry-run") && iv.name != "svn":
		iv.flag(Write, "") // only prints the files it would delete or revert
	case iv.name == "jj" && (v == "abandon" || v == "restore"):
		iv.flag(Destructive, "jj "+v+" throws away the changes of the working copy's revision, or of the revisions it names, which only jj's operation log still holds")
	case iv.name == "jj" && v == "op abandon":
		iv.flag(Destructive, "jj op abandon deletes operations from jj's log, and with them what jj undo brings back")
	case iv.name == "jj":
		iv.flag(Write, "")
	case iv.name == "fossil" && (v == "checkout" || v == "co") && hasFlag(args, "", "--force"),
		iv.name == "fossil" && (v == "stash drop" || v == "stash rm" || v == "stash clear"),
		iv.name == "fossil" && v == "scrub",
		iv.name == "darcs" && (v == "obliterate" || v == "unpull"), // patches deleted with their changes
		(iv.name == "bzr" || iv.name == "brz") && v == "clean-tree",
		iv.name == "pijul" && v == "reset",
		iv.name == "cvs" && v == "release" && hasFlag(args, "d", ""): // deletes the working directory
		iv.flag(Destructive, iv.name+" "+v+" throws away changes no commit holds")
	case v == "revert" || v == "purge" || v == "clean" || v == "strip" || v == "rollback" || v == "cleanup" && hasFlag(args, "", "--remove-unversioned", "--remove-ignored"):
		iv.flag(Destructive, iv.name+" "+v+" throws away changes no commit holds")
	case (v == "update" || v == "up" || v == "checkout" || v == "co" || v == "goto" || v == "go") && iv.name != "fossil" && hasFlag(args, "C", "--clean"):
		iv.flag(Destructive, iv.name+" "+v+" --clean throws away changes no commit holds")
	case v == "delete" || v == "del" || v == "remove" || v == "rm":
		iv.flag(Write, "")
		for _, a := range pos[1:] {
			if strings.Contains(a, "://") || strings.HasPrefix(a, "^/") {
				iv.flag(Destructive, iv.name+" "+v+" deletes from the repository on the server: "+a)
			}
		}
	case v == "status" || v == "st" || v == "log" || v == "diff" || v == "info" || v == "cat" || v == "blame" || v == "annotate" || v == "ls" || v == "list" || v == "summary" || v == "heads" ||
		v == "timeline" || v == "changes" || v == "extras":
	default:
		iv.flag(Write, "")
	}
}

// pipedToDelete is the rest of a pipeline that deletes or runs what the
// command before it prints, through filters or not: xargs rm, a shell, a
// while read loop.
var pipedToDelete = lazyRE(`^[^|;&\n]*(?:\|\s*(?:sed|grep|egrep|awk|cut|sort|uniq|tr|head|tail|cat)\b[^|;&\n]*)*\|\s*(?:sudo\s+)?(xargs\b[^|;&\n]*?\b(?:rm|unlink|shred|trash|sh|bash|zsh)\b|(?:sh|bash|zsh|dash)\b|while\s+(?:IFS=\S*\s+)?read\b[^|;&\n]*;\s*do\b[^|;&\n]*\brm\b)`)

// listingRun is what the pipe this command prints into does with each
// line (hg purge --print | xargs rm -f: the list of what it would delete,
// deleted), or "": a dry run so piped is not one.
func (iv *inv) listingRun() string {
	if !iv.sc.piped || iv.at == 0 || iv.at-1 > len(iv.sc.src) {
		return ""
	}
	if m := pipedToDelete.FindStringSubmatch(iv.sc.src[iv.at-1:]); m != nil {
		return m[1]
	}
	return ""
}

// vcsLists reports whether a Mercurial-style command is told only to
// list what it would do, by one of the short letters (alone or in a
// cluster) or long options given, and no later --no-… turns it off.
func vcsLists(args []arg, short string, long ...string) bool {
	lists := false
	for _, a := range args {
		switch {
		case !a.ok:
		case a.s == "--":
			return lists
		case strings.HasPrefix(a.s, "--no-") && contains(long, "--"+strings.TrimPrefix(a.s, "--no-")):
			lists = false
		case strings.HasPrefix(a.s, "--"):
			if contains(long, optName(a.s)) {
				_, val, eq := strings.Cut(a.s, "=")
				lists = !eq || !saysNo(val)
			}
		case len(a.s) > 1 && a.s[0] == '-' && strings.Trim(a.s[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == "" && strings.ContainsAny(a.s[1:], short):
			lists = true
		}
	}
	return lists
}

// condaEnv judges conda and its kin: removing a whole environment (or
// cleaning its caches of everything) deletes what lives outside the
// project.
func condaEnv(iv *inv) {
	if runsGiven(iv) { // conda run -n x cmd
		iv.flag(Write, "")
		return
	}
	args := iv.rest(1)
	pos := positionals(args, "-n", "--name", "-p", "--prefix", "-c", "--channel", "--file")
	switch v := at(pos, 0); {
	case v == unknownWord:
		iv.flag(Unparseable, iv.name+" verb computed at run time")
	case (v == "remove" || v == "uninstall") && hasFlag(args, "", "--all"),
		v == "env" && (at(pos, 1) == "remove" || at(pos, 1) == "rm"):
		if name := optionValue(args, "--name", "-n"); name != "" && iv.madeHere(name, at(pos, 1)+at(pos, 0)) {
			iv.flag(Write, "") // conda create -n t-$$ … ; conda env remove -n t-$$
			return
		}
		iv.flag(Destructive, iv.name+" removes a whole environment")
	case v == "list" || v == "info" || v == "search" || v == "env" && at(pos, 1) == "list":
	default:
		iv.flag(Write, "")
		verbEffect(iv)
	}
}

// minioClient judges MinIO's mc (and not Midnight Commander, the same name
// with no verb): removing buckets or objects deletes remote data.
func minioClient(iv *inv) {
	pos := positionals(iv.rest(1), "--config-dir", "-C")
	switch v := at(pos, 0); v {
	case unknownWord:
		iv.flag(Unparseable, iv.name+" verb computed at run time")
	case "rb", "rm", "del":
		if iv.ownObjects(v, 0, "--config-dir", "-C") {
			iv.flag(Write, "") // mc mb local/t-$$ && …; mc rb --force local/t-$$
			return
		}
		if iv.localTestBuckets(pos[1:]) {
			iv.flag(Write, "") // mc rb --force local/it-fixtures: test data on this machine's MinIO
			return
		}
		iv.flag(Destructive, "mc "+v+" deletes buckets or objects")
	case "mirror":
		if hasFlag(iv.rest(1), "", "--remove", "--overwrite") {
			iv.flag(Destructive, "mc mirror --remove deletes what the source lacks")
		} else {
			iv.flag(Write, "")
		}
	case "", "ls", "cat", "head", "stat", "du", "find", "diff", "tree", "ping", "ready", "version", "alias":
	default:
		iv.flag(Write, "")
		verbEffect(iv)
	}
}

// localTestBuckets reports whether every target of an mc command is in
// a bucket named for tests (testDB) under mc's "local" alias, which is
// this machine's MinIO (localhost:9000) unless a config dir or an
// MC_HOST_local variable says otherwise.
func (iv *inv) localTestBuckets(targets []string) bool {
	if len(targets) == 0 || iv.sc.remote || iv.c.tunnel || hasFlag(iv.rest(1), "C", "--config-dir") {
		return false
	}
	for _, e := range iv.environ() {
		if strings.HasPrefix(e.src, "MC_HOST_") || strings.HasPrefix(e.src, "MC_CONFIG_DIR") {
			return false
		}
	}
	for _, t := range targets {
		bucket, _, _ := strings.Cut(strings.TrimPrefix(t, "local/"), "/")
		if !strings.HasPrefix(t, "local/") || bucket == "" || !testDB.MatchString(bucket) {
			return false
		}
	}
	return true
}

// runValueOpts are the options of docker run that take a value as the next
// word.
var runValueOpts = []string{"-v", "--volume", "--mount", "-e", "--env", "--env-file", "-w", "--workdir", "-u", "--user",
	"--name", "-p", "--publish", "--network", "--net", "--entrypoint", "--platform", "-h", "--hostname", "-l", "--label",
	"--label-file", "--cpus", "-m", "--memory", "--memory-swap", "--add-host", "--device", "--dns", "--cap-add", "--cap-drop",
	"--security-opt", "--ulimit", "--tmpfs", "--log-driver", "--log-opt", "--restart", "--pull", "--shm-size", "--gpus",
	"--ipc", "--pid", "--cidfile", "--runtime", "--stop-signal", "--stop-timeout", "-a", "--attach", "--expose", "--link",
	"--group-add", "--ip", "--cpu-shares", "-c", "--cpuset-cpus", "--userns", "--uts", "--cgroupns", "--health-cmd",
	"--network-alias", "--sysctl", "--storage-opt", "--device-cgroup-rule", "--volumes-from", "-H", "--host", "--context",
	"--config", "--log-level"}

// containerRun judges docker run's command inside the container, where a
// path is the host's only through a mount (-v src:dst[:ro], --mount
// source=…,target=…): a path under a mount's target is judged as the
// host path it maps to, any other is the container's own, which leaves
// the host alone. A named volume's data is not the container's own: its
// paths are unknown. It reports false, leaving the command to the general
// look, when the words do not read plainly.
func (iv *inv) containerRun() bool {
	args := runArgs(iv.rest(1))
	i := 0
	for i < len(args) && args[i].ok && (strings.HasPrefix(args[i].s, "-") || args[i].s == "container") {
		if contains(runValueOpts, args[i].s) {
			i++
		}
		i++
	}
	if i >= len(args) || !args[i].ok || args[i].s != "run" {
		return false
	}
	sc := iv.sc.sub()
	sc.mounts = map[string]string{}
	sc.cwd = "/"
	var entry []arg
	serverElsewhere := false
	mount := func(src, dst string) {
		switch {
		case dst == "" || !path.IsAbs(dst):
			return
		case src == "":
			sc.mounts[path.Clean(dst)] = "" // a volume of its own, named or not: unknown to tend
		case !strings.ContainsAny(src, "/.~$"):
			sc.mounts[path.Clean(dst)] = "" // a named volume: data that outlives the container
		default:
			sc.mounts[path.Clean(dst)] = iv.c.resolve(iv.sc, arg{s: iv.c.tilde(src), ok: true, src: src}).path
		}
	}
	for i++; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			return false
		}
		if !strings.HasPrefix(a.s, "-") {
			break
		}
		name, val, eq := strings.Cut(a.s, "=")
		if !eq && contains(runValueOpts, name) {
			if i+1 >= len(args) || !args[i+1].ok {
				return false
			}
			i++
			val = args[i].s
		}
		switch name {
		case "-v", "--volume":
			parts := strings.Split(val, ":")
			if len(parts) == 1 {
				mount("", parts[0]) // -v /data: an anonymous volume
			} else {
				mount(parts[0], parts[1])
			}
		case "--mount":
			kv := map[string]string{}
			for _, f := range strings.Split(val, ",") {
				k, v, _ := strings.Cut(f, "=")
				kv[k] = v
			}
			dst := kv["target"] + kv["destination"] + kv["dst"]
			if kv["type"] == "tmpfs" {
				continue
			}
			mount(kv["source"]+kv["src"], dst)
		case "-w", "--workdir":
			sc.cwd = path.Clean(val)
		case "--entrypoint":
			entry = argsOf(strings.Fields(val)...)
		case "--volumes-from":
			return false
		case "--pid", "--ipc", "--userns", "--cgroupns":
			if val == "host" {
				sc.mounts["/proc"] = "/proc" // the host's processes, and through /proc/PID/root their files
			}
		case "--device", "--cap-add", "--device-cgroup-rule":
			sc.mounts["/dev"] = "/dev" // the host's devices
		case "-e", "--env":
			if !strings.Contains(val, "=") || !args[i].ok || strings.Contains(args[i].src, "$") {
				sc.hostEnv = true // -e TOKEN, -e TOKEN=$TOKEN: the host's value
			}
			if name, v, _ := strings.Cut(val, "="); serverVar.MatchString(name) && !loopback(hostOf(v)) {
				serverElsewhere = true // -e PGHOST=db.prod: its clients ask another server
			}
		case "--env-file":
			sc.hostEnv, serverElsewhere = true, true
		}
	}
	if i >= len(args) {
		return false // no image
	}
	// Nothing of the host's given to it: its servers hold only what the command puts there.
	sc.scratch = len(sc.mounts) == 0 && !serverElsewhere && bareRun(" "+strings.Join(strs0(args[:i]), " "))
	cmd := append(entry, args[i+1:]...)
	if len(cmd) == 0 {
		return false // the image's own command: unknown here, judged by words
	}
	iv.flag(Write, "")
	iv.judged = true
	iv.c.run(cmd, sc, iv.stdinKept(args[:i], false), iv.depth+1)
	return true
}

// stdinKept is what the command a container runs reads on its stdin
// (docker exec -i, kubectl exec --stdin, docker run -i, docker compose
// exec, which keeps it always): this command's stdin, so SQL or a script
// fed to psql or sh there is judged as it would be here. Without those
// options the command reads nothing.
func (iv *inv) stdinKept(opts []arg, always bool) source {
	for _, a := range opts {
		if !a.ok || always {
			continue
		}
		name, val, _ := strings.Cut(a.s, "=")
		if (name == "--interactive" || name == "--stdin") && val != "false" ||
			len(a.s) > 1 && a.s[0] == '-' && a.s[1] != '-' && strings.Trim(a.s[1:], "itdqP") == "" && strings.Contains(a.s, "i") {
			always = true
		}
	}
	if always {
		return iv.in
	}
	return source{}
}

// adminRole names a role or policy that grants everything, or the power
// to grant it: AWS's AdministratorAccess and *FullAccess, GCP's
// roles/owner and roles/editor, Kubernetes' cluster-admin, Azure's Owner.
var adminRole = lazyRE(`(?i)AdministratorAccess|IAMFullAccess|PowerUserAccess|policy/\w*FullAccess\b|\broles/(?:owner|editor|iam\.\w*admin\w*|resourcemanager\.\w*admin\w*)\b|\bcluster-admin\b|(?:^|=)admin$|^(?:Owner|Contributor|User Access Administrator)$|"Action"\s*:\s*"\*"`)

// grantsPower flags a verb that grants privileges (attach-user-policy,
// add-iam-policy-binding, create clusterrolebinding) when what it grants
// is an administrator's role, or an inline policy tend cannot read: the
// remote account changes who may do everything.
func (iv *inv) grantsPower(verb string) bool {
	inline := strings.HasPrefix(verb, "put-") && strings.HasSuffix(verb, "-policy")
	if !inline && !(strings.HasPrefix(verb, "attach-") && strings.HasSuffix(verb, "-policy")) && verb != "add-user-to-group" &&
		verb != "add-iam-policy-binding" && verb != "set-iam-policy" && verb != "assignment" && !strings.HasSuffix(verb, "rolebinding") {
		return false
	}
	if inline {
		iv.flag(Destructive, iv.name+" "+verb+" grants a remote account an inline policy tend cannot read")
		return true
	}
	for _, a := range iv.rest(1) {
		if a.ok && adminRole.MatchString(a.s) {
			iv.flag(Destructive, iv.name+" "+verb+" grants administrator privileges on a remote account: "+a.shown())
			return true
		}
	}
	return false
}
