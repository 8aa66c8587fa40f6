package policy

import (
	"net/url"
	"path"
	"slices"
	"strings"
)

var (
	sqlDrop   = lazyRE(`(?i)\b(DROP\s+(?:TABLE|DATABASE|SCHEMA|INDEX|VIEW|USER|ROLE|COLUMN|KEYSPACE|SEQUENCE|FUNCTION|TRIGGER|TYPE|EXTENSION|OWNED|MATERIALIZED|PROCEDURE|TABLESPACE|NAMESPACE|COLLECTION|MEASUREMENT|RETENTION|CONSTRAINT|ALL)|TRUNCATE(?:\s+TABLE)?|REMOVE\s+TABLE|REMOVE\s+DATABASE|DETACH\s+DELETE)\s+((?:IF\s+EXISTS\s+)?[\w."\x60${}]+)`)
	sqlDelete = lazyRE(`(?is)\bDELETE\s+FROM\s+[^;]*`)
	sqlUpdate = lazyRE(`(?is)\bUPDATE\s+\S+\s+SET\s+[^;]*`)
	sqlWhere  = lazyRE(`(?i)\bWHERE\b`)
	// sqlTautology is a WHERE that holds for every row.
	sqlTautology = lazyRE(`(?i)\bWHERE\s+(?:1\s*=\s*1|true|1|'(\w*)'\s*=\s*'(\w*)')\s*(?:;|$)`)
	mongoDanger  = lazyRE(`(?i)(dropDatabase|\.drop\s*\(|dropAllUsers|deleteMany\s*\(\s*\{\s*\}|\.remove\s*\(\s*\{\s*\}\s*\))`)
)

// sqlWrite is SQL that changes what a database holds; a WHERE narrows it
// but does not make it safe on production.
var sqlWrite = lazyRE(`(?i)\b(?:DELETE\s+FROM|UPDATE\s+\S+\s+SET|INSERT\s+INTO|MERGE\s+INTO|ALTER\s+TABLE|CREATE\s+TABLE)\s+\S+`)

// sqlPlan is an EXPLAIN of a statement, at a statement's start: without
// ANALYZE it only plans it (Cypher's PROFILE runs it, and is no EXPLAIN).
var sqlPlan = lazyRE(`(?is)(?:^|;)\s*EXPLAIN\b[^;]*`)

// planned is sql with every statement that EXPLAIN only plans taken out
// (EXPLAIN DELETE FROM t, EXPLAIN MATCH (n) DETACH DELETE n): an
// EXPLAIN ANALYZE (or ANALYSE, or (ANALYZE …)) runs what it plans, and
// stays.
func planned(sql string) string {
	return sqlPlan.ReplaceAllStringFunc(sql, func(m string) string {
		if u := strings.ToUpper(m); strings.Contains(u, "ANALYZE") || strings.Contains(u, "ANALYSE") || strings.ContainsRune(m, '\\') {
			return m // EXPLAIN … \! cmd: a client's command after it
		}
		if strings.HasPrefix(m, ";") {
			return ";"
		}
		return ""
	})
}

// liveArg is the argument or environment variable that points a database
// client at production ($PROD_DATABASE_URL, -h db.prod.acme.io), as shown;
// "" if none does.
func liveArg(iv *inv, args []arg) string {
	for _, a := range args {
		if liveMarker.MatchString(a.src) || a.ok && liveMarker.MatchString(a.s) {
			return a.shown()
		}
	}
	for _, e := range iv.environ() {
		if name, val, ok := strings.Cut(e.src, "="); ok && (strings.HasPrefix(name, "PG") || strings.Contains(name, "DATABASE") || strings.HasSuffix(name, "_URL")) && liveMarker.MatchString(val) {
			return e.src
		}
	}
	return ""
}

// sqlDanger returns why SQL text is destructive, or "".
func sqlDanger(sql string) string {
	if strings.Contains(sql, "EXPLAIN") || strings.Contains(sql, "explain") || strings.Contains(sql, "Explain") {
		sql = planned(sql)
	}
	for _, m := range sqlDrop.FindAllStringSubmatch(sql, 8) {
		switch strings.ToLower(m[2]) {
		case "or", "and", "not", "the", "a", "to", "of": // prose: "drop or truncate"
		default:
			return "SQL " + strings.ToUpper(m[1]) + " " + m[2]
		}
	}
	for _, m := range sqlDelete.FindAllString(sql, -1) {
		switch {
		case !sqlWhere.MatchString(m):
			return "SQL DELETE without WHERE"
		case sqlTautology.MatchString(m):
			return "SQL DELETE whose WHERE holds for every row"
		}
	}
	for _, m := range sqlUpdate.FindAllString(sql, -1) {
		if !sqlWhere.MatchString(m) {
			return "SQL UPDATE without WHERE"
		}
	}
	return ""
}

// sqlClient builds a handler for a SQL client whose query options are
// listed (psql -c, mysql -e); extra operands are SQL too when operandSQL
// (sqlite3 db "SQL"). A query read from stdin is checked when known.
// dropDatabase is a statement that drops one database.
var dropDatabase = lazyRE(`(?i)\bDROP\s+DATABASE\s+(?:IF\s+EXISTS\s+)?([\w"'` + "`" + `$.-]+)\s*;?`)

// dropdb deletes databases: its own (made earlier by this command) or one
// named for tests (test runners drop and recreate it) only writes.
func dropdb(iv *inv) {
	args := iv.rest(1)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.ok && strings.HasPrefix(a.s, "-") {
			if contains([]string{"-U", "--username", "-h", "--host", "-p", "--port", "--maintenance-db"}, a.s) {
				i++
			}
			continue
		}
		if !iv.madeHere(a.src, iv.name) && !(a.ok && testDB.MatchString(a.s) && onThisMachine(args)) {
			iv.flag(Destructive, iv.name+" deletes a database or its users")
			return
		}
	}
	iv.flag(Write, "")
}

// qualifiedName is a table, view or schema named with the database (or
// schema) it lies in, after the words that name what a statement acts on:
// DROP TABLE shop.orders, DELETE FROM shop.orders, UPDATE shop.t SET.
var qualifiedName = lazyRE("(?i)\\b(?:TABLE|VIEW|FROM|INTO|UPDATE|EXISTS|JOIN|TRUNCATE|INDEX|ON)\\s+[`\"\\[]?(\\w+)[`\"\\]]?\\s*\\.\\s*[`\"\\[]?\\w")

// dropScratch is a statement that drops a schema, table or view by its
// name (group 1), which scratchObject judges.
var dropScratch = lazyREIf(func(s string) bool { return containsFold(s, "drop") }, `(?i)\bDROP\s+(?:SCHEMA|TABLE|VIEW|MATERIALIZED\s+VIEW)\s+(?:IF\s+EXISTS\s+)?([\w"$.-]+)(?:\s+(?:CASCADE|RESTRICT))?\s*;?`)

// scratchObject reports whether a schema's or table's name, or a part of
// a qualified one, is named for tests, CI or scratch (dbt_ci_pr_1203,
// tmp_sessionize_check, scratch.orders): a CI run or a check makes it
// again.
func scratchObject(name string) bool {
	for part := range strings.SplitSeq(strings.Trim(name, `"`), ".") {
		if testDB.MatchString(strings.Trim(part, `"`)) {
			return true
		}
	}
	return false
}

// useDatabase is a statement that switches the database the statements
// after it act on: USE shop.
var useDatabase = lazyRE("(?i)(?:^|;)\\s*USE\\s+([`\"\\[]?\\w+[`\"\\]]?)")

// otherDatabase is the first database not named for tests that SQL sent
// to one named for tests reaches, or "": every DROP DATABASE must name one
// (DROP DATABASE app_test; DROP DATABASE app_development drops the
// second too), and, where a client's qualified names reach other
// databases (MySQL's schema is a database, SQL Server's db.schema.table;
// not psql, whose schemas lie inside the database connected to), every
// database a statement that changes something names must be one too.
func otherDatabase(client, sql string) string {
	for _, m := range dropDatabase.FindAllStringSubmatch(sql, -1) {
		if name := strings.Trim(m[1], `"'`+"`;"); !testDB.MatchString(name) {
			return "database " + name
		}
	}
	if client == "psql" || sqlDanger(sql) == "" && !sqlWrite.MatchString(sql) && !sqlDrop.MatchString(sql) {
		return ""
	}
	for _, m := range useDatabase.FindAllStringSubmatch(sql, -1) { // USE shop; DROP TABLE orders
		if name := strings.Trim(m[1], "`\"[]"); !testDB.MatchString(name) {
			return "database " + name
		}
	}
	for _, m := range qualifiedName.FindAllStringSubmatch(sql, -1) {
		if !testDB.MatchString(m[1]) {
			return "database " + m[1]
		}
	}
	return ""
}

func sqlClient(queryOpts []string, operandSQL bool) handler {
	return func(iv *inv) {
		iv.flag(Write, "")
		args := iv.rest(1)
		memory := operandSQL && slices.Contains(strs0(args), ":memory:") // sqlite3 :memory: keeps nothing
		scratch := iv.scratchDB(operandSQL)                              // a test or scratch database is made again
		own := !operandSQL && iv.ownServer()                             // the server in a bare container this command started
		undone := false                                                  // destructive SQL only inside transactions rolled back
		reads := true                                                    // every query given only reads (listsOnly)
		check := func(a arg) {
			reads = reads && a.ok && (listsOnly(a.s) || a.s != planned(a.s) && (strings.Trim(planned(a.s), "; \t\n") == "" || listsOnly(planned(a.s)))) // EXPLAIN DELETE …: a plan, nothing run
			if a.ok && readsHashes(a.s) {
				iv.flag(Destructive, iv.name+" reads the server's password hashes: "+cutText(a.s)+" (what it prints reaches the agent and its model)")
			}
			other := ""
			if a.ok && scratch && !own {
				other = otherDatabase(iv.name, a.s)
			}
			if a.ok && (own || scratch && other == "") {
				iv.judged = true // DROP TABLE in app_test; but not DROP DATABASE app_prod from it, nor DROP TABLE shop.orders
				return
			}
			if other != "" {
				iv.flag(Destructive, iv.name+" is connected to a database named for tests, but its SQL changes "+other+", which is not one")
				return
			}
			if !a.ok && !memory && !scratch && computedQuery(a.src) {
				iv.flag(Unparseable, iv.name+" runs a query computed at run time, whose text cannot be read: "+a.shown())
				return
			}
			if why := codeDanger(a.src); !a.ok && !memory && !scratch && why != "" {
				iv.flag(Destructive, iv.name+": "+why) // psql -c "DROP TABLE $t", also where no second look by words comes (in a container)
				return
			}
			if !a.ok || memory {
				iv.judged = iv.judged || memory
				return
			}
			if ms := dropDatabase.FindAllStringSubmatch(a.s, 8); ms != nil && sqlDanger(dropDatabase.ReplaceAllString(a.s, "")) == "" && onThisMachine(args) &&
				!slices.ContainsFunc(ms, func(m []string) bool {
					name := strings.Trim(m[1], `"'`+"`")
					return !iv.madeHere(name, "DROP DATABASE") && !testDB.MatchString(name) && !(iv.sc.testContainer && testContainerName(name)) // billing_it in billing-mysql-it
				}) {
				iv.judged = true
				return // DROP DATABASE of the one this command created, or of one named for tests (as dropdb app_test), then nothing that destroys (CREATE DATABASE app_test)
			}
			if ms := dropScratch.FindAllStringSubmatch(a.s, 8); ms != nil && sqlDanger(dropScratch.ReplaceAllString(a.s, "")) == "" && onThisMachine(args) &&
				!slices.ContainsFunc(args, func(a arg) bool { return !a.ok }) && !slices.ContainsFunc(ms, func(m []string) bool { return !scratchObject(m[1]) }) {
				iv.judged = true
				return // DROP SCHEMA IF EXISTS dbt_ci_pr_1203 CASCADE on localhost: a CI run's or a scratch schema, made again by the next run
			}
			sql := a.s
			if transactionalDDL[iv.name] {
				sql = rolledBack.ReplaceAllStringFunc(sql, keptChanges) // BEGIN; DELETE FROM t; ROLLBACK: nothing stays
				undone = undone || sql != a.s && sqlDanger(sql) == "" && sqlDanger(a.s) != ""
			}
			run := planned(sql) // EXPLAIN DELETE … only plans it
			switch why, live := sqlDanger(sql), liveArg(iv, args); {
			case why != "":
				iv.flag(Destructive, iv.name+": "+why)
			case live != "" && sqlWrite.MatchString(run):
				iv.flag(Destructive, iv.name+" changes rows or tables of production's database ("+live+") without review: "+cutText(sqlWrite.FindString(run)))
			case sqlDelete.MatchString(run) && !scratch && !onThisMachine(args):
				iv.flag(Destructive, iv.name+" deletes rows on a database server off this machine, which others use; deleted rows are gone: "+cutText(sqlDelete.FindString(run)))
			case sqlDelete.MatchString(run) && !scratch && unknownConnection(args) != "" && sqlBulkDelete.MatchString(run):
				iv.flag(Destructive, iv.name+" deletes every row a range or pattern matches on the database "+unknownConnection(args)+" names, which is known only when it runs and may be one others use; deleted rows are gone: "+cutText(sqlBulkDelete.FindString(run)))
			}
		}
		queried := false
		for i := 0; i < len(args); i++ {
			a := args[i]
			if !a.ok {
				continue
			}
			for _, o := range queryOpts {
				switch {
				case a.s == o && i+1 < len(args):
					check(args[i+1])
					queried = true
				case strings.HasPrefix(o, "--") && strings.HasPrefix(a.s, o+"="):
					check(arg{s: strings.TrimPrefix(a.s, o+"="), ok: true})
					queried = true
				case !strings.HasPrefix(o, "--") && strings.HasPrefix(a.s, o) && len(a.s) > len(o):
					check(arg{s: a.s[len(o):], ok: true})
					queried = true
				}
			}
		}
		for i, a := range args { // psql -f /tmp/x.sql: a script this command wrote is judged by its text
			f, isFile := arg{}, false
			if a.ok && (a.s == "-f" || a.s == "--file" || a.s == "--queries-file" || a.s == "-i" || a.s == "--input-file") && i+1 < len(args) {
				f, isFile = args[i+1], true
			} else if v, ok := strings.CutPrefix(a.s, "--file="); ok && a.ok {
				f, isFile = arg{s: v, ok: true, src: v}, true
			}
			if src, ok := iv.c.written[iv.c.resolve(iv.sc, f).path]; isFile && f.ok && ok && src.kind == srcText {
				check(arg{s: src.text, ok: true})
				queried = true
			}
		}
		if script := unreadScript(iv, args); script != "" && !scratch && !own && !memory && (!onThisMachine(args) || hostElsewhere(iv)) {
			iv.flag(Destructive, iv.name+" runs the SQL of "+script+", which tend does not read, on a database server off this machine, which others use: a dump or script drops, replaces or deletes what it names")
		} else if script != "" && !scratch && !own && !memory {
			if v := unknownConnection(args); v != "" {
				iv.flag(Destructive, iv.name+" runs the SQL of "+script+", which tend does not read, on the database "+v+" names, which is known only when it runs and may be one others use: a dump or script drops, replaces or deletes what it names")
			}
		}
		if operandSQL {
			_, ops := opts(args)
			for i, a := range ops {
				before := reads
				check(a)
				queried = queried || i > 0 // the first is the database
				if i == 0 {
					reads = before // a file's name, no query
				}
			}
		}
		if !queried && iv.in.kind == srcText {
			check(arg{s: iv.in.text, ok: true})
		}
		if c := iv.c.cmds[iv.idx].Class; undone && c != Destructive && c != Unparseable {
			iv.judged = true // its SQL is read above; the words' scan would see the DELETE the ROLLBACK undoes
		}
		switch iv.name {
		case "psql":
			iv.outputOption("-o", "--output", "-L", "--log-file") // psql -c 'SELECT 1' -o FILE writes FILE
		case "mysql", "mariadb":
			iv.outputOption("--tee")
		}
		if queried && reads && !slices.ContainsFunc(args, func(a arg) bool { return !a.ok || scriptOpt(a.s) }) {
			iv.judged = true // psql -c 'SELECT 1': its SQL is read above, and no word of it is a command line
		}
	}
}

// unreadScript is the file whose SQL a client runs (-f, --file, -i,
// --input-file, or < on stdin) when this command did not write it, so
// its text is not read; "" if none.
func unreadScript(iv *inv, args []arg) string {
	for i, a := range args {
		if !a.ok {
			continue
		}
		f := ""
		if (a.s == "-f" || a.s == "--file" || a.s == "--queries-file" || a.s == "-i" || a.s == "--input-file") && i+1 < len(args) {
			f = args[i+1].shown()
			if src, ok := iv.c.written[iv.c.resolve(iv.sc, args[i+1]).path]; ok && src.kind == srcText {
				continue // judged by its text
			}
		} else if v, ok := strings.CutPrefix(a.s, "--file="); ok {
			f = v
		}
		if f != "" {
			return f
		}
	}
	if iv.in.kind == srcFile {
		if iv.in.file != "" {
			return iv.in.file
		}
		return "the file on its stdin"
	}
	return ""
}

// unknownConnection is a client's connection operand or option (psql
// "$DATABASE_URL", -d "$DB_URL") made of a variable whose value this
// command does not set, as written, when it names a connection (a URL, URI
// or DSN, a database); "" if there is none.
func unknownConnection(args []arg) string {
	for i, a := range args {
		if a.ok || i > 0 && args[i-1].ok && strings.HasPrefix(args[i-1].s, "-") && args[i-1].s != "-d" && args[i-1].s != "--dbname" && !strings.Contains(args[i-1].s, "=") {
			continue // known, or another option's value
		}
		if u := strings.ToUpper(a.src); testWord(strings.ToLower(strings.Trim(a.src, `"'${}`))) || slices.ContainsFunc(words(strings.ToLower(strings.Trim(a.src, `"'${}`))), testWord) {
			continue // "$TEST_DATABASE_URL": named for the test database
		} else if strings.Contains(u, "URL") || strings.Contains(u, "URI") || strings.Contains(u, "DSN") || strings.Contains(u, "DATABASE") {
			return a.shown()
		}
	}
	return ""
}

// hostElsewhere reports whether the command's environment names a
// database server not on this machine (PGHOST=db.staging, MYSQL_HOST).
func hostElsewhere(iv *inv) bool {
	for _, e := range iv.environ() {
		name, val, ok := strings.Cut(e.src, "=")
		if ok && strings.HasSuffix(name, "HOST") && (!e.ok || !loopback(val) && !strings.HasPrefix(val, "/")) {
			return true
		}
	}
	return false
}

// readsHashes reports whether a query reads the password hashes a
// database server keeps: a password column, or every column, of
// pg_shadow, pg_authid, pg_user_mappings or mysql.user.
func readsHashes(sql string) bool {
	return hashTables.MatchString(sql) && hashColumns.MatchString(sql)
}

var (
	// hashTables are the tables that hold password hashes.
	hashTables = lazyRE(`(?i)\b(?:pg_shadow|pg_authid|pg_user_mappings?|mysql\s*\.\s*user)\b`)
	// hashColumns are their password columns, or every column.
	hashColumns = lazyRE(`(?i)\*|\btable\b|\b(?:passwd|rolpassword|authentication_string|password|umoptions)\b`)
)

// scriptOpt reports whether a client's word gives it a script to run:
// -f FILE, -fFILE, --file=FILE, -i, --input-file.
func scriptOpt(word string) bool {
	opt, _, _ := strings.Cut(word, "=")
	return opt == "--file" || opt == "--input-file" || opt == "--queries-file" || strings.HasPrefix(word, "-f") && !strings.HasPrefix(word, "--") || word == "-i"
}

// listsOnly reports whether every statement of sql only reads what the
// server holds: a psql meta-command that lists or describes (\l, \dt,
// \d users, \du, \conninfo), SHOW, or a SELECT that writes nowhere
// (no INTO, no FOR UPDATE) and calls only functions that compute
// (count, version, pg_size_pretty …), not ones that signal, write or
// read files (pg_terminate_backend, setval, lo_import, pg_read_file).
func listsOnly(sql string) bool {
	stmts := 0
	sql = sqlComment.ReplaceAllString(sql, " ") // pg_terminate_backend/**/(pid)
	for _, st := range sqlStatement.Split(sql, -1) {
		st = strings.TrimSpace(st)
		if st == "" {
			continue
		}
		stmts++
		switch {
		case listMeta.MatchString(st):
		case strings.ContainsRune(sqlLiteral.ReplaceAllString(st, ""), '\\'):
			return false // SELECT 1 \! rm -rf ~: a client's command after the query (a shell, a file)
		case showStmt.MatchString(st):
		case selectStmt.MatchString(st) && !selectWrites.MatchString(st):
			calls := strings.ReplaceAll(sqlLiteral.ReplaceAllString(st, "''"), `"`, "") // "pg_terminate_backend"(pid): a quoted name is the same function
			for _, m := range sqlCall.FindAllStringSubmatch(calls, 16) {
				if !pureSQL[strings.ToLower(m[1])] {
					return false
				}
			}
		default:
			return false
		}
	}
	return stmts > 0
}

var (
	// listMeta is a psql meta-command that lists or describes: \l, \dt+,
	// \d users, \du, \conninfo; not \! (a shell), \o or \copy (files).
	listMeta = lazyRE(`^\\(?:l\+?|list\+?|d[tivsmfnuogpxbcCDTELRy]?S?\+?|dconfig|conninfo|encoding|timing|x|\?|h|sf\+?|sv\+?)(?:\s+[\w."*]+)*$`)
	// showStmt is a SHOW statement: SHOW DATABASES, SHOW server_version.
	showStmt = lazyRE(`(?i)^show\s+\w`)
	// selectStmt is a SELECT, or a TABLE or VALUES that reads as one.
	selectStmt = lazyRE(`(?i)^(?:select|table|values)\b`)
	// selectWrites is what makes a SELECT write or lock: INTO, FOR UPDATE/SHARE.
	selectWrites = lazyRE(`(?i)\binto\b|\bfor\s+(?:no\s+key\s+)?(?:update|share)\b`)
	// sqlStatement ends a statement: ; or a client's \g or \G with
	// nothing after it on the word (SELECT * FROM t\G).
	sqlStatement = lazyRE(`;|\\[gG](?:\s|$)`)
	// sqlComment is a comment in SQL: /* … */ or -- to the line's end.
	sqlComment = lazyRE(`(?s)/\*.*?\*/|--[^\n]*`)
	// sqlLiteral is a string literal in SQL.
	sqlLiteral = lazyRE(`'(?:[^']|'')*'`)
	// sqlCall is a function call in SQL; the name is group 1.
	sqlCall = lazyRE(`(\w+)\s*\(`)
)

// pureSQL are SQL functions and keywords before a parenthesis that only
// compute from what they are given or what the server holds.
var pureSQL = map[string]bool{
	"count": true, "sum": true, "min": true, "max": true, "avg": true, "coalesce": true, "lower": true, "upper": true,
	"length": true, "version": true, "now": true, "current_user": true, "current_database": true, "current_schema": true,
	"pg_size_pretty": true, "pg_database_size": true, "pg_relation_size": true, "pg_total_relation_size": true,
	"pg_table_size": true, "pg_indexes_size": true, "in": true, "exists": true, "not": true, "and": true, "or": true,
	"cast": true, "round": true, "date_trunc": true, "to_char": true, "distinct": true, "substring": true, "concat": true,
	"array_agg": true, "string_agg": true, "json_agg": true, "row_number": true, "over": true, "from": true, "where": true,
}

// computedQuery reports whether a query's text is computed as a whole,
// so not even its statement is known: "$SQL", "$(rev <<< …)", $(cat f).
// SELECT … WHERE id = $ID states its statement, and is judged by it.
func computedQuery(src string) bool {
	lit := strings.TrimLeft(src, `"'`)
	if i := strings.IndexAny(lit, "$`"); i >= 0 {
		lit = lit[:i]
	}
	return strings.TrimSpace(lit) == ""
}

// transactionalDDL are SQL clients whose databases undo every change of
// a transaction rolled back, schema changes included (PostgreSQL,
// SQLite, DuckDB; MySQL commits before DDL, and MyISAM tables undo
// nothing).
var transactionalDDL = map[string]bool{"psql": true, "sqlite3": true, "sqlite": true, "duckdb": true}

// rolledBack is a transaction that ends in ROLLBACK: BEGIN; …; ROLLBACK.
var rolledBack = lazyRE(`(?is)\b(?:BEGIN|START\s+TRANSACTION)\b[^;]*;.*?\bROLLBACK\b\s*(?:;|$)`)

// escapesTransaction is what, inside a transaction, acts at once or
// outside it: a COMMIT or END that closes it early, a savepoint rolled
// back to, a copy to or from a program or file, a call out to another
// database or to server functions (dblink, lo_export, pg_terminate_backend),
// a database-wide or system change, a psql meta-command (\!, \copy,
// \gexec) or an SQLite dot-command (.shell).
var escapesTransaction = lazyRE(`(?i)\b(?:COMMIT|END|ROLLBACK\s+TO|RELEASE|PREPARE|COPY|PROGRAM|VACUUM|ATTACH|DETACH|dblink\w*|lo_\w+|pg_\w+|LOAD|CALL|DO|DATABASE|SYSTEM|CONCURRENTLY)\b|\\|\n\s*\.`)

// keptChanges is what of a rolled-back transaction stays: nothing, unless
// something in it escapes the transaction (escapesTransaction).
func keptChanges(tx string) string {
	inner := rolledBackEnd.ReplaceAllString(tx[strings.IndexByte(tx, ';')+1:], "")
	if escapesTransaction.MatchString(inner) {
		return tx
	}
	return ";"
}

// rolledBackEnd is the ROLLBACK that ends a transaction.
var rolledBackEnd = lazyRE(`(?is)\bROLLBACK\b\s*;?$`)

// testDB matches the name of a database, topic, index, queue or bucket
// kept for tests or scratch data (app_test, test.orders.v1,
// test-products-*, e2e_jobs, it-fixtures): test runners delete and make
// it again on every run. See testName.
var testDB testNames

// testNames is the matcher of testDB.
type testNames struct{}

// MatchString reports whether name has a word (between _ - . :) that
// marks test or scratch data: test, tests, testing, e2e, ci,
// scratch, tmp, fixture, fixtures, integration, optionally numbered
// (test2), and it as the first word. A
// pattern (test-*, *_test) counts only by its first or last word, so
// that the wildcard cannot stand for the marked word's neighbours alone.
func (testNames) MatchString(name string) bool {
	ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ':' })
	if len(ws) == 0 {
		return false
	}
	if strings.ContainsAny(name, "*?[") {
		ws = []string{ws[0], ws[len(ws)-1]}
	}
	// it (integration tests) only leads a name (it-fixtures, it_orders):
	// at its end it is a locale's code (shop_it, the Italian store's).
	return ws[0] == "it" || slices.ContainsFunc(ws, testWordOf)
}

// testWordOf reports whether w, one word of a name, marks test or
// scratch data.
func testWordOf(w string) bool {
	switch strings.TrimRight(w, "0123456789") {
	case "test", "tests", "testing", "e2e", "ci", "scratch", "tmp", "fixture", "fixtures", "integration":
		return true
	}
	return false
}

// scratchDB reports whether a SQL client works on a throwaway database:
// a database file in a temp dir or the tree's tmp directory (sqlite3
// ./tmp/scratch.db), or a database named for tests (psql -d app_test,
// mysql app_test, postgres://…/app_test).
func (iv *inv) scratchDB(fileOperand bool) bool {
	args := iv.rest(1)
	_, ops := opts(args)
	if fileOperand {
		if len(ops) == 0 {
			return false
		}
		t := iv.c.resolve(iv.sc, ops[0])
		return t.path != "" && !t.children && (iv.c.scratch(t.path) || iv.c.testFixture(t.path))
	}
	name := ""
	for i, a := range args {
		switch {
		case !a.ok:
		case (a.s == "-d" || a.s == "--dbname" || a.s == "-D" || a.s == "--database") && i+1 < len(args) && args[i+1].ok:
			name = args[i+1].s
		case strings.HasPrefix(a.s, "--dbname=") || strings.HasPrefix(a.s, "--database="):
			_, name, _ = strings.Cut(a.s, "=")
		case strings.Contains(a.s, "://"):
			if u, err := url.Parse(a.s); err == nil {
				name = strings.TrimPrefix(u.Path, "/")
			}
		}
	}
	if pos := positionals(args, "-u", "-U", "-h", "-H", "-P", "-e", "-c", "-f", "-S", "--user", "--username", "--host", "--port", "--socket", "--file", "--command", "--execute"); name == "" && len(pos) > 0 {
		name = pos[0] // psql app_test -c …, mysql -u root app_test -e …
	}
	if name == "" {
		return iv.testEnvironment() // DATABASE_URL=…/app_test psql "$DATABASE_URL"
	}
	return testDB.MatchString(name)
}

// testFixture reports whether p is a file of the working tree kept for
// tests: under a tests, spec, fixtures or testdata directory of it, or
// named for tests (test.db, app_test.sqlite3). Tests make it again, or it
// is the tree's own, checked in: writing into it is a write in the tree.
func (c *classifier) testFixture(p string) bool {
	rel, ok := strings.CutPrefix(p, c.project+"/")
	if !ok || !c.trustedProject() {
		return false
	}
	dirs := strings.Split(rel, "/")
	for _, d := range dirs[:len(dirs)-1] {
		switch d {
		case "test", "tests", "spec", "fixtures", "testdata", "__tests__":
			return true
		}
	}
	base := dirs[len(dirs)-1]
	return testDB.MatchString(strings.TrimSuffix(base, path.Ext(base)))
}

// mongo shells: --eval code.
func mongo(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	text := ""
	for i, a := range args {
		if a.ok && a.s == "--eval" && i+1 < len(args) {
			text += args[i+1].s + "\n"
		} else if a.ok && strings.HasPrefix(a.s, "--eval=") {
			text += strings.TrimPrefix(a.s, "--eval=") + "\n"
		}
	}
	if iv.in.kind == srcText {
		text += iv.in.text
	}
	if (iv.scratchDB(false) || iv.ownServer()) && !otherMongoDB.MatchString(text) {
		iv.judged = true // mongosh …/app_test --eval 'db.dropDatabase()': the test database, made again
		return
	}
	if m := mongoDanger.FindString(text); m != "" {
		iv.flag(Destructive, iv.name+": "+m+" deletes data")
	} else if mongoRewrite.MatchString(text) {
		iv.flag(Destructive, iv.name+": updateMany({}, …) rewrites every document of the collection: its empty filter matches them all")
	} else if m := mongoDelete.FindString(text); m != "" {
		switch v := unknownConnection(args); {
		case !onThisMachine(args):
			iv.flag(Destructive, iv.name+": "+strings.TrimRight(m, "( ")+" deletes documents on a server off this machine, which others use; deleted documents are gone")
		case v != "" && mongoBulkDelete.MatchString(text):
			iv.flag(Destructive, iv.name+": "+strings.TrimRight(m, "( ")+" deletes every document its filter matches on the server "+v+" names, which is known only when it runs and may be one others use; deleted documents are gone")
		}
	}
}

// mongoBulkDelete is a mongo shell delete of every document a filter
// matches (deleteMany, remove without justOne, a bulkWrite's
// deleteMany), as psql's DELETE … WHERE ts < … (sqlBulkDelete); one
// document by its key (deleteOne, findOneAndDelete) is a pointed edit.
var mongoBulkDelete = lazyRE(`\.(?:deleteMany|remove)\s*\(|deleteMany\s*:`)

// sqlBulkDelete is a DELETE whose WHERE picks rows by a range or a
// pattern (ts < now() - '90 days', status LIKE 'tmp%', id IN (SELECT …)),
// not by one key: on a database tend cannot see, the rows it takes are
// unbounded.
var sqlBulkDelete = lazyRE(`(?is)\bDELETE\s+FROM\s+[^;]*?\bWHERE\b[^;]*?(?:[<>]|\bBETWEEN\b|\bNOT\b|\bLIKE\b|\bIN\s*\(\s*SELECT\b|\bIS\s+NULL\b)`)

// mongoDelete is a mongo shell call that deletes the documents its
// filter matches (deleteMany, deleteOne, remove, findOneAndDelete,
// findAndModify with remove, a bulkWrite's deleteMany).
var mongoDelete = lazyRE(`\.(?:deleteMany|deleteOne|remove|findOneAndDelete|findAndRemove)\s*\(|remove\s*:\s*true|deleteMany\s*:`)

// mongoRewrite is an update or replace whose filter is empty: it matches
// every document (db.users.updateMany({}, {$set: …})).
var mongoRewrite = lazyRE(`(?i)updateMany\s*\(\s*\{\s*\}`)

// otherMongoDB is mongo shell code that turns to another database than
// the one it was started on (db.getSiblingDB('x'), use x), or reaches
// beyond the database (require, process, runProgram, load).
var otherMongoDB = lazyRE(`require\s*\(|\bprocess\.|\brun(?:Program|Mongo)|\bload\s*\(|getSiblingDB|getMongo|(?:^|[\n;])\s*use\s`)

// redisFlush is FLUSHALL or FLUSHDB in commands read from stdin.
var redisFlush = lazyRE(`(?i)\bFLUSH(ALL|DB)\b`)

// redis-cli FLUSHALL / FLUSHDB.
func redis(iv *inv) {
	iv.flag(Write, "")
	if iv.ownServer() {
		iv.judged = true
		return // the server in a bare container this command started
	}
	if iv.sc.testContainer && onThisMachine(iv.rest(1)) && !slices.ContainsFunc(iv.environ(), func(e arg) bool { name, _, _ := strings.Cut(e.src, "="); return serverVar.MatchString(name) }) {
		iv.judged = true
		return // docker exec api-redis-test redis-cli FLUSHALL: the Redis of a container named for tests, on its own loopback
	}
	if ws := strs0(iv.rest(1)); !iv.sc.remote && !iv.c.tunnel && onThisMachine(iv.rest(1)) && redisTestNumber(iv.rest(1)) &&
		!slices.ContainsFunc(ws, func(w string) bool { return strings.EqualFold(w, "FLUSHALL") || strings.EqualFold(w, "CONFIG") }) && iv.in.kind != srcText {
		iv.judged = true
		return // redis-cli -h 127.0.0.1 -n 15 FLUSHDB, DEL session:1: the test suites' numbered database on this machine
	}
	if args := iv.rest(1); !onThisMachine(args) || iv.sc.remote || iv.c.tunnel {
		for i, a := range args[:max(len(args)-1, 0)] {
			if a.ok && strings.EqualFold(a.s, "CONFIG") && args[i+1].ok && strings.EqualFold(args[i+1].s, "SET") {
				iv.flag(Destructive, "redis-cli CONFIG SET changes a shared server's settings for every client at once: "+strings.Join(strs0(args[i+2:]), " "))
				return
			}
		}
	}
	for _, a := range iv.rest(1) {
		if a.ok && (strings.EqualFold(a.s, "FLUSHALL") || strings.EqualFold(a.s, "FLUSHDB")) {
			iv.flag(Destructive, "redis-cli "+strings.ToUpper(a.s)+" deletes every key")
		}
	}
	if iv.in.kind == srcText && redisFlush.MatchString(iv.in.text) {
		iv.flag(Destructive, "redis-cli FLUSHALL deletes every key")
	}
}

// redisTestNumber reports whether redis-cli is given a numbered database
// other than 0, the default that applications use (-n 15, or
// redis://localhost:6379/15): test suites keep theirs there, one number
// each, and flush it between runs.
func redisTestNumber(args []arg) bool {
	n := ""
	for i, a := range args {
		switch {
		case !a.ok:
		case a.s == "-n" && i+1 < len(args) && args[i+1].ok:
			n = args[i+1].s
		case strings.HasPrefix(a.s, "-n") && len(a.s) > 2:
			n = a.s[2:]
		case strings.Contains(a.s, "://"):
			if u, err := url.Parse(a.s); err == nil && strings.Trim(u.Path, "/") != "" {
				n = strings.Trim(u.Path, "/")
			}
		}
	}
	return n != "" && strings.Trim(n, "0123456789") == "" && strings.TrimLeft(n, "0") != ""
}

// testEnvironment reports whether a command is pointed at a test or
// scratch environment, where a framework's drop, reset, flush or fresh
// only remakes what the test run makes again: an environment marker
// (RAILS_ENV=test, MIX_ENV=test, APP_ENV=testing, --env=test, -e test,
// --settings=config.settings.test), or a database it is given by URL or
// name that is a test database on this machine (DATABASE_URL=
// postgresql://…@localhost:5432/app_test) or a database file in a scratch
// place (sqlite://./tmp/dev.sqlite, DB_DATABASE=tmp/testing.sqlite). A
// database named anywhere that is not such a one says it is not.
func (iv *inv) testEnvironment() bool {
	marked, other, named, local := false, false, false, localServers[iv.name]
	see := func(name, val string) {
		switch {
		case resourceOpts[name]:
			named = true // kafka-topics --delete --topic test.orders.v1, rabbitmqadmin delete queue name=e2e_jobs
			other = other || !testDB.MatchString(val)
		case name == "ENV" || strings.HasSuffix(name, "_ENV") || name == "env" || name == "environment" || name == "e":
			marked = marked || testWord(val)
		case strings.HasSuffix(name, "SETTINGS_MODULE") || name == "settings":
			marked = marked || testWord(val[strings.LastIndexByte(val, '.')+1:])
		case strings.Contains(name, "DATABASE") || strings.HasPrefix(name, "DB_") || strings.HasSuffix(name, "_URL") ||
			strings.HasSuffix(name, "_DSN") || name == "database-url" || name == "url" || strings.Contains(val, "://") ||
			name == "connection" || name == "connection-string" || strings.HasPrefix(name, "ConnectionStrings__"):
			if name == "DB_CONNECTION" || name == "DB_HOST" && loopback(val) || name == "DB_PORT" || name == "DB_USERNAME" || name == "DB_PASSWORD" ||
				strings.HasSuffix(name, "_CHECK") && !strings.Contains(val, "://") { // DISABLE_DATABASE_ENVIRONMENT_CHECK=1: a switch, not a database
				return // the driver, where, who: not which database
			}
			if iv.scratchDatabase(val) {
				marked = true
			} else if val != "" {
				other = true
			}
		}
	}
	for _, e := range iv.environ() {
		if name, val, ok := strings.Cut(e.src, "="); ok && e.ok {
			see(name, val)
		} else if ok && iv.tempDatabase(val) {
			marked = true // DATABASE_URL="sqlite:///$tmpdb" after tmpdb="$(mktemp -d)/test.sqlite3"
		}
	}
	args := iv.rest(1)
	for i, a := range args {
		if !a.ok {
			continue
		}
		opt, ok := strings.CutPrefix(a.s, "--")
		if name, val, eq := strings.Cut(strings.TrimPrefix(a.s, "-"), "="); !ok && eq && strings.HasPrefix(a.s, "-") {
			switch name {
			case "env", "environment", "settings", "database-url", "url":
				see(name, val) // flyway -url=jdbc:…: single-dash options
				continue
			}
			if l := strings.ToLower(name); (name[0] == 'D' || name[0] == 'P') && (strings.HasSuffix(l, ".url") || strings.HasSuffix(l, "jdbcurl") || strings.HasSuffix(l, "jdbc-url")) {
				see("url", val) // mvn flyway:clean -Dflyway.url=jdbc:…, gradle -Pliquibase.url=…, -Dspring.datasource.url=…: a build's system property
				continue
			}
		}
		if (a.s == "-h" || a.s == "-H" || a.s == "--host") && i+1 < len(args) && args[i+1].ok && loopback(args[i+1].s) {
			local = true // rabbitmqadmin -H localhost; onThisMachine below says no other host is named
		}
		if !ok {
			if a.s == "-e" && i+1 < len(args) && args[i+1].ok {
				see("e", args[i+1].s) // rails -e test
			} else if name, val, ok := strings.Cut(a.s, "="); ok && isAssignment(a.s) {
				see(name, val) // rails db:drop RAILS_ENV=test: rake takes the environment as an argument
			} else if strings.Contains(a.s, "://") {
				see("url", a.s)
			}
			continue
		}
		name, val, hasVal := strings.Cut(opt, "=")
		if !hasVal && i+1 < len(args) && args[i+1].ok {
			val = args[i+1].s
		}
		switch {
		case name == "env" || name == "environment" || name == "settings" || name == "database-url" || name == "url" || resourceOpts[name] ||
			name == "connection" || name == "connection-string":
			see(name, val)
		case serverOpts[name]:
			for _, h := range strings.Split(val, ",") {
				if !strings.Contains(h, "://") {
					h = "//" + h
				}
				if u, err := url.Parse(h); err != nil || !loopback(u.Hostname()) {
					other = true // --bootstrap-server kafka.prod:9092
				} else {
					local = true
				}
			}
		}
	}
	return (marked || named && local && onThisMachine(args)) && !other
}

// tempDatabase reports whether a database setting's value, as written,
// names an SQLite file by a variable the command set to a path in a
// temp dir it made (sqlite:///$tmpdb, "$d/test.db" after d=$(mktemp
// -d)): a database no one else has.
func (iv *inv) tempDatabase(val string) bool {
	val = strings.Trim(val, `"'`)
	if scheme, rest, ok := strings.Cut(val, ":"); ok && !strings.Contains(scheme, "$") {
		if !strings.HasPrefix(scheme, "sqlite") && scheme != "file" {
			return false // postgres://…/$db: a server's database
		}
		val = strings.TrimPrefix(rest, "//") // sqlite:///x, sqlite3:x, file:x
	}
	if strings.HasPrefix(val, "/$") {
		val = val[1:] // sqlite:///$f: the path is in the variable
	}
	if !strings.HasPrefix(val, "$") {
		return false
	}
	p, ok := iv.c.pidPath(iv.sc, val)
	return ok && iv.c.inTemp(p) && !strings.ContainsAny(strings.TrimPrefix(p, iv.c.temps[0]+"/"), "?#")
}

// localServers are tools for a server whose default server is this
// machine's (rabbitmqadmin and rabbitmqctl talk to localhost's broker,
// mysqladmin with no -h to localhost's MySQL: mysqladmin drop app_test is
// the test database the test run makes again, as DROP DATABASE app_test
// through mysql -e is).
var localServers = map[string]bool{"rabbitmqadmin": true, "rabbitmqctl": true, "mysqladmin": true}

// serverSetElsewhere reports whether a tool of localServers may be sent to
// another server than the options show: by a file or login path of
// settings (mysqladmin --defaults-file=x.cnf, --login-path=ci), or by
// MYSQL_HOST naming another host.
func (iv *inv) serverSetElsewhere(args []arg) bool {
	if slices.ContainsFunc(args, func(a arg) bool {
		return !a.ok || strings.HasPrefix(a.s, "--defaults-file") || strings.HasPrefix(a.s, "--defaults-extra-file") || strings.HasPrefix(a.s, "--login-path")
	}) {
		return true
	}
	return slices.ContainsFunc(iv.environ(), func(e arg) bool {
		return strings.HasPrefix(e.src, "MYSQL_HOST=") && (!e.ok || !loopback(e.s))
	})
}

// resourceOpts name the topic, index, queue or bucket a tool for a
// server works on; serverOpts name that server. Named for tests on a
// server on this machine, what it deletes there is test data that the
// test run makes again, as a test database is (testEnvironment).
var (
	resourceOpts = map[string]bool{"topic": true, "index": true, "queue": true, "bucket": true, "name": true, "stream": true, "subject": true, "group": true}
	serverOpts   = map[string]bool{"bootstrap-server": true, "broker-list": true, "brokers": true, "server": true, "servers": true, "endpoint": true, "endpoint-url": true, "zookeeper": true}
)

// testWord reports whether an environment's name says tests.
func testWord(s string) bool {
	s = strings.ToLower(s)
	return s == "test" || s == "testing" || s == "tests"
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1" || host == "[::1]" || host == "0.0.0.0"
}

// onThisMachine reports whether a database client connects to a server
// on this machine: no host named (the local socket), or a loopback one by
// -h, --host or in a URL.
func onThisMachine(args []arg) bool {
	for i, a := range args {
		host := ""
		switch {
		case !a.ok && strings.HasPrefix(a.src, "--host="):
			return false // --host="$DB_HOST", as -h "$DB_HOST": known only when it runs
		case !a.ok:
			continue
		case (a.s == "-h" || a.s == "--host" || a.s == "-H") && i+1 < len(args):
			if !args[i+1].ok {
				return false
			}
			host = args[i+1].s
		case a.s == "-S" && i+1 < len(args): // sqlcmd -S tcp:host,1433 or host\instance; mysql -S /run/mysqld.sock
			v := args[i+1].s
			if !args[i+1].ok || strings.HasPrefix(v, "/") {
				continue
			}
			host, _, _ = strings.Cut(strings.TrimPrefix(v, "tcp:"), ",")
			host, _, _ = strings.Cut(host, `\`)
			if host == "." || strings.EqualFold(host, "(local)") {
				host = "localhost"
			}
		case strings.HasPrefix(a.s, "--host="):
			host = strings.TrimPrefix(a.s, "--host=")
		case strings.HasPrefix(a.s, "-h") && len(a.s) > 2:
			host = a.s[2:]
		case strings.Contains(a.s, "://"):
			u, err := url.Parse(strings.TrimPrefix(a.s, "jdbc:"))
			if err != nil {
				return false
			}
			host = u.Hostname()
		default:
			continue
		}
		if host != "" && !loopback(host) {
			return false
		}
	}
	return true
}

// scratchDatabase reports whether a database URL, file or name is a
// throwaway one: a test database on this machine, or a database file in a
// temp dir, the tree's tmp directory or kept in the tree for tests
// (scratchFile).
func (iv *inv) scratchDatabase(v string) bool {
	v = strings.TrimPrefix(v, "jdbc:") // jdbc:postgresql://localhost:5432/app_test
	if !strings.Contains(v, "://") && strings.Contains(v, ";") && strings.Contains(v, "=") {
		return scratchConnString(v)
	}
	file := ""
	switch scheme, rest, ok := strings.Cut(v, "://"); {
	case ok && strings.HasPrefix(scheme, "sqlite"):
		file = rest // sqlite://./tmp/dev.sqlite
		if rel, abs := strings.CutPrefix(rest, "/"); abs && !iv.scratchFile(rel) {
			return false // sqlite:///x is x to SQLAlchemy, /x to others: scratch only if both are
		}
	case ok:
		u, err := url.Parse(v)
		if err != nil {
			return false
		}
		db, _, _ := strings.Cut(strings.TrimPrefix(path.Clean("/"+u.Path), "/"), "/") // postgres://…/app_test, http://localhost:9200/app_test/_doc/1
		return (u.Hostname() == "" || loopback(u.Hostname())) && testDB.MatchString(db)
	case strings.HasPrefix(v, "sqlite:"):
		file = strings.TrimPrefix(v, "sqlite:")
	case strings.HasPrefix(v, "file:"):
		file = strings.TrimPrefix(v, "file:") // Prisma's and SQLite's URI for a file: file:./test.db
	case strings.ContainsRune(v, '/') || strings.Contains(v, ".sqlite") || strings.HasSuffix(v, ".db"):
		file = v
	default:
		return testDB.MatchString(v)
	}
	return iv.scratchFile(file)
}

// scratchConnString reports whether an ADO.NET or ODBC connection string
// ("Server=localhost,14333;Database=Orders_Test;User Id=sa") names a
// database for tests (testDB) on a server on this machine's loopback. A
// server or database computed at run time, named twice, or not named is
// not such a one.
func scratchConnString(v string) bool {
	host, db, hosts, dbs := "", "", 0, 0
	for kv := range strings.SplitSeq(v, ";") {
		k, val, _ := strings.Cut(kv, "=")
		val = strings.Trim(strings.TrimSpace(val), `'"`)
		switch strings.ToLower(strings.Join(strings.Fields(k), " ")) {
		case "server", "host", "data source", "datasource", "address", "addr", "network address", "hostname":
			hosts++
			host = strings.TrimPrefix(strings.ToLower(val), "tcp:")
			if h, _, ok := strings.Cut(host, ","); ok { // localhost,14333
				host = h
			}
			if h, port, ok := strings.Cut(host, ":"); ok && strings.Trim(port, "0123456789") == "" {
				host = h
			}
			if h, _, ok := strings.Cut(host, `\`); ok { // .\SQLEXPRESS
				host = h
			}
		case "database", "initial catalog", "dbname":
			dbs++
			db = val
		}
	}
	if hosts != 1 || dbs != 1 || strings.ContainsAny(host+db, "$`") {
		return false
	}
	return (loopback(host) || host == "." || host == "(local)" || host == "(localdb)") && testDB.MatchString(db)
}

// scratchFile reports whether a database file (its query string aside)
// lies in a scratch place (a temp dir or the tree's tmp directory) or is
// one of the tree's files for tests (testFixture: test.db, under tests/):
// as a server's database named for tests, the test run makes it again.
func (iv *inv) scratchFile(file string) bool {
	file, _, _ = strings.Cut(file, "?")
	t := iv.c.resolve(iv.sc, arg{s: file, ok: true, src: file})
	return t.path != "" && !t.children && (iv.c.scratch(t.path) || iv.c.testFixture(t.path))
}

// sparkSQLClient is spark-sql judged as the SQL client it is (-e).
var sparkSQLClient = sqlClient([]string{"-e"}, false)

// sparkSQL is spark-sql: run on this machine (--master local, or its
// warehouse put in a temp dir or the tree by --conf
// spark.sql.warehouse.dir, with no metastore service named), its tables
// live here and its SQL is judged as a local server's is (sqlClient: a
// table named for scratch or CI dropped is made again by the next run);
// otherwise its words are (a cluster's shared metastore).
func sparkSQL(iv *inv) {
	local, remote := false, false
	args := iv.rest(1)
	for i, a := range args {
		if !a.ok {
			continue
		}
		v := ""
		switch {
		case (a.s == "--master" || a.s == "--conf" || a.s == "-c") && i+1 < len(args):
			if !args[i+1].ok {
				remote = true
				continue
			}
			v = a.s + "=" + args[i+1].s
		case strings.HasPrefix(a.s, "--master=") || strings.HasPrefix(a.s, "--conf="):
			v = a.s
		default:
			continue
		}
		name, val, _ := strings.Cut(v, "=")
		switch {
		case name == "--master":
			local, remote = local || strings.HasPrefix(val, "local"), remote || !strings.HasPrefix(val, "local")
		case strings.Contains(val, "metastore.uris") || strings.Contains(val, "ConnectionURL"):
			remote = true // a metastore service or database that others may share
		case strings.HasPrefix(val, "spark.sql.warehouse.dir="):
			dir := strings.TrimPrefix(strings.TrimPrefix(val, "spark.sql.warehouse.dir="), "file:")
			t := iv.c.resolve(iv.sc, arg{s: dir, ok: true, src: dir})
			local = local || !strings.Contains(dir, "://") && (isUnder(t.path, "/tmp") || isUnder(t.path, "/var/tmp") || iv.c.danger(t) == "")
		}
	}
	if local && !remote && !iv.sc.remote {
		sparkSQLClient(iv)
		return
	}
	unknownTool(iv)
}
