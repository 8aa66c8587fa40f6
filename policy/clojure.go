package policy

import (
	"strings"
)

// cljCall is a call in Clojure code of a namespaced function, (d/delete-database …),
// (datomic.api/delete-database …): groups 1 and 2 are the namespace or its
// alias and the function. A Java class's static method (Files/delete) begins
// with a capital and is left to the file rules. cljAlias is a namespace
// given an alias ([datomic.api :as d]): groups 1 and 2.
var (
	cljCall  = lazyREIf(func(s string) bool { return strings.Contains(s, "/") }, `\(\s*([a-z][\w.*+!?-]*)/([a-z][\w*+!?-]*)`)
	cljAlias = lazyREIf(func(s string) bool { return strings.Contains(s, ":as") }, `\[\s*([a-z][\w.-]*)\s+(?:[^\]]*?\s)?:as\s+([\w.-]+)`)
	// cljTxDelete is transaction data that deletes for good: Datomic's
	// excision and entity retraction, XTDB's eviction.
	cljTxDelete = lazyREIf(func(s string) bool { return strings.Contains(s, ":") }, `:(?:db/excise|db\.excise/\w+|db/retractEntity|db\.fn/retractEntity|xtdb\.api/evict|xt/evict|crux\.tx/evict|evict)\b|::xt/evict\b`)
)

// cljLocal are namespaces whose deletes act on this machine's files or on
// values in memory: Clojure's own (clojure.core's dissoc, clojure.java.io's
// delete-file), babashka's fs and process, me.raynes.fs.
func cljLocal(ns string) bool {
	return strings.HasPrefix(ns, "clojure.") || strings.HasPrefix(ns, "babashka.") || strings.HasPrefix(ns, "me.raynes.") ||
		ns == "fs" || ns == "io" || ns == "str" || ns == "set" || ns == "walk" || ns == "clojure"
}

// cljDeleteWords are the words of a function's name that say it deletes
// what it is given, first or last: delete-database, drop-table!, purge,
// evict-entity, flushall, remove (monger's mc/remove).
var cljDeleteWords = setOf("delete", "del", "drop", "destroy", "purge", "truncate", "wipe", "erase", "excise", "evict", "flushall",
	"flushdb", "unlink", "remove", "rm", "nuke")

// cljRemoteDelete says how in Clojure code deletes what a library
// that is not Clojure's own reaches — a database, a queue, a bucket, an
// index — or transacts data that excises or evicts, or "": (d/delete-database
// uri), @(d/transact conn [{:db/excise …}]), (mc/remove db "orders"),
// (s3/delete-object …).
func cljRemoteDelete(code string) string {
	if !strings.Contains(code, "(") {
		return ""
	}
	if m := cljTxDelete.FindString(code); m != "" && (strings.Contains(code, "transact") || strings.Contains(code, "submit-tx") || strings.Contains(code, "execute-tx")) {
		return "transacts " + m + ", which deletes an entity's or an attribute's data for good"
	}
	aliases := map[string]string{}
	for _, m := range cljAlias.FindAllStringSubmatch(code, 16) {
		aliases[m[2]] = m[1]
	}
	for _, m := range cljCall.FindAllStringSubmatch(code, 64) {
		ns, fn := m[1], m[2]
		if full, ok := aliases[ns]; ok {
			ns = full
		}
		if cljLocal(ns) || strings.HasSuffix(fn, "?") {
			continue
		}
		ws := strings.FieldsFunc(strings.TrimRight(fn, "!*"), func(r rune) bool { return r == '-' || r == '_' })
		if len(ws) == 0 || askWords[ws[0]] {
			continue
		}
		if cljDeleteWords[ws[0]] || cljDeleteWords[ws[len(ws)-1]] {
			return "calls " + m[1] + "/" + fn + " (" + ns + "), a function named for deleting what it is given, from a library that is not Clojure's own: a delete of remote state"
		}
	}
	return ""
}
