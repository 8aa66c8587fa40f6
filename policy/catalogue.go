package policy

import "strings"

// handler classifies one invocation by flagging it (and running what it
// wraps). A handler that flags nothing leaves the command ReadOnly.
type handler func(iv *inv)

// catalogue maps a command's base name to its handler. Commands not in it
// are Write: they may change things, but nothing known to be destructive.
var catalogue = map[string]handler{}

// register adds h under every name.
func register(h handler, names ...string) {
	for _, n := range names {
		catalogue[n] = h
	}
}

// lookup returns the handler for a command name.
func lookup(name string) handler {
	if h, ok := catalogue[name]; ok {
		return h
	}
	switch {
	case strings.HasPrefix(name, "mkfs"):
		return destroys("formats a filesystem")
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		if h, ok := catalogue["python"]; ok {
			return h
		}
	}
	return writes
}

// readOnly leaves the command ReadOnly.
func readOnly(*inv) {}

// writes marks the command Write.
func writes(iv *inv) { iv.flag(Write, "") }

// destroys returns a handler that marks every use Destructive; the reason
// follows the command name.
func destroys(reason string) handler {
	return func(iv *inv) { iv.flag(Destructive, iv.name+" "+reason) }
}

func init() {
	register(readOnly,
		"ls", "ll", "la", "dir", "cat", "bat", "grep", "egrep", "fgrep", "rg", "ag", "ack", "head", "tail",
		"less", "more", "wc", "uniq", "cut", "tr", "echo", "printf", "pwd", "whoami", "id",
		"date", "printenv", "which", "type", "whereis", "file", "stat", "du", "df", "tree",
		"diff", "cmp", "comm", "jq", "true", "false", "test", "[", "basename", "dirname",
		"realpath", "readlink", "seq", "sleep", "uname", "hostname", "ps", "pgrep", "lsof",
		"man", "help", "nl", "od", "hexdump", "xxd", "md5sum", "sha1sum", "sha256sum",
		"sha512sum", "cksum", "column", "fold", "fmt", "paste", "join", "expand", "unexpand",
		"rev", "tac", "strings", "locale", "groups", "uptime", "free", "w", "who", "history",
		"jobs", "getconf", "nproc", "arch", "tty", "yes", "wait", ":", "cal", "top", "htop",
		"look", "zcat", "zgrep", "zless", "shasum", "b2sum", "numfmt", "lscpu",
		"lsblk", "dirs", "hash", "set", "shopt",
		"getent", "host", "dig", "nslookup", "ping", "base32")
}
