package policy

import (
	"strings"
)

// Database clients run shell commands of their own: sqlite3's .shell and
// .system (any abbreviation of two letters or more: .sy) and its outputs
// and inputs that are a pipe ('|cmd' to .once, .output, .read, .import);
// psql's \!, \o |cmd, \g |cmd, \w |cmd and \copy … to/from program 'cmd';
// mysql's \!, system and pager. COPY … PROGRAM runs its command on the
// database's machine.

// programCopy is a COPY that runs a program: its quoted command.
var programCopy = lazyRE(`(?is)(\\?copy)\b[^;]*?\b(?:to|from)\s+program\s+'((?:[^']|'')*)'`)

// psqlPipe is a psql meta-command that writes to a pipe: \o |cmd, \g |cmd.
var psqlPipe = lazyRE(`\\(?:o|out|g|gx|w|write)\s+'?\|([^'\n]+)`)

// clientEscapes judges the shell commands a database client is told to
// run, in the words it is given, its stdin and the files this command
// wrote and handed to it.
func clientEscapes(iv *inv) {
	if !dbClients[iv.name] {
		return
	}
	var texts []string
	for _, a := range iv.rest(1) {
		if !a.ok {
			continue
		}
		texts = append(texts, a.s)
		if src, ok := iv.c.written[iv.c.resolve(iv.sc, a).path]; ok && src.kind == srcText && !strings.HasPrefix(a.s, "-") {
			texts = append(texts, src.text)
		}
	}
	if iv.in.kind == srcText {
		texts = append(texts, iv.in.text)
	}
	run := func(code string, sc *scope) {
		if code = strings.TrimSpace(code); code != "" {
			iv.shell(arg{s: code, ok: true, src: code}, sc)
		}
	}
	for _, t := range texts {
		for _, m := range programCopy.FindAllStringSubmatch(t, 8) {
			sc := remote(iv.sc) // COPY … PROGRAM runs on the server
			if strings.HasPrefix(m[1], `\`) {
				sc = iv.sc // \copy runs it here
			}
			run(strings.ReplaceAll(m[2], "''", "'"), sc)
		}
		for _, m := range psqlPipe.FindAllStringSubmatch(t, 8) {
			run(m[1], iv.sc)
		}
		for line := range strings.SplitSeq(t, "\n") {
			if code, ok := clientShellLine(iv.name, strings.TrimSpace(line)); ok {
				run(code, iv.sc)
			}
		}
	}
}

// clientShellLine is the shell command one line of a client's input runs,
// if it runs one.
func clientShellLine(client, line string) (string, bool) {
	if rest, ok := strings.CutPrefix(line, `\!`); ok {
		return rest, true
	}
	if _, rest, ok := strings.Cut(line, `\!`); ok && (client == "psql" || client == "mysql" || client == "mariadb") {
		return rest, true // SELECT 1 \! rm -rf ~: the client reads a backslash command anywhere on a line
	}
	switch client {
	case "mysql", "mariadb":
		word, rest, _ := strings.Cut(line, " ")
		switch strings.ToLower(word) {
		case "system", `\p`, "pager":
			if word != `\p` {
				return strings.TrimSuffix(rest, ";"), true
			}
		}
		if word == `\P` {
			return rest, true
		}
	case "sqlite3", "sqlite", "duckdb":
		if !strings.HasPrefix(line, ".") {
			return "", false
		}
		words := dotWords(line)
		cmd := strings.TrimPrefix(words[0], ".")
		if len(cmd) >= 2 && (strings.HasPrefix("shell", cmd) || strings.HasPrefix("system", cmd)) {
			return strings.Join(words[1:], " "), true
		}
		for i, w := range words[1:] {
			if strings.HasPrefix(w, "|") { // .once '|cmd', .read '|cmd'; unquoted, the words after are taken too
				return strings.Join(words[i+1:], " ")[1:], true
			}
		}
	}
	return "", false
}

// dotWords splits a sqlite3 dot-command into its words as the shell of
// sqlite3 does: at spaces, with '…' and "…" quoting.
func dotWords(line string) []string {
	var out []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if q := line[0]; q == '\'' || q == '"' {
			end := strings.IndexByte(line[1:], q)
			if end < 0 {
				out = append(out, line[1:])
				break
			}
			out = append(out, line[1:end+1])
			line = line[end+2:]
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		out = append(out, word)
		line = rest
	}
	return out
}
