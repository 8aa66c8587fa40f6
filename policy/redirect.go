package policy

import (
	"os"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirects checks the output redirections of st. idx is the Command they
// belong to, or -1 for a statement without a simple command, in which case
// a pseudo-command is recorded if anything is found.
//
// Redirect pseudo-commands have argv [">target"].
func (w *walker) redirects(st *syntax.Stmt, sc *scope, idx int) {
	c := w.c
	for _, r := range st.Redirs {
		var truncating bool
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob, syntax.RdrInOut:
			truncating = r.Op != syntax.RdrInOut
		case syntax.AppOut, syntax.AppClob, syntax.AppAll, syntax.AppAllClob:
		default:
			continue
		}
		fs, err := c.fields(sc, []*syntax.Word{r.Word})
		a := arg{src: wordSource(sc.src, r.Word)}
		if err == nil && len(fs) == 1 {
			a = fs[0]
		}
		class, why := c.writeTarget(sc, a, truncating)
		switch {
		case class == ReadOnly:
		case class >= Destructive || idx < 0:
			// A destructive redirection is its own pseudo-command, so that
			// an allow rule for the command (Bash(echo:*)) does not cover
			// writing ~/.bashrc; only the catch-all rule "Bash" does.
			j := c.record(argsOf(">" + a.src))
			c.flag(j, class, why)
			c.vetWrite(j, sc, a, true)
		default:
			c.flag(idx, class, why)
			c.vetWrite(idx, sc, a, false)
		}
	}
}

// writeTarget classifies writing to a (by a redirection or tee).
func (c *classifier) writeTarget(sc *scope, a arg, truncating bool) (Class, string) {
	if !a.ok || sc.remote {
		return Write, ""
	}
	t := c.resolve(sc, a)
	p := t.path
	if p == "" {
		return Write, ""
	}
	switch {
	case p == "/dev/null" || p == "/dev/stdout" || p == "/dev/stderr" || p == "/dev/tty" ||
		strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/dev/pts/") || strings.HasPrefix(p, "/proc/self/fd/"):
		return ReadOnly, ""
	case strings.HasPrefix(p, "/dev/"):
		return Destructive, "writes to a device: " + c.show(t)
	case c.startupFile(p):
		return Destructive, "writes to a shell startup or configuration file: " + c.show(t)
	case isSystemPath(p):
		return Destructive, "writes to a system file: " + c.show(t)
	case c.trustedProject() && isUnder(p, c.project), c.inTemp(p):
		return Write, ""
	}
	if truncating && !t.children {
		if _, err := os.Lstat(p); err == nil {
			return Destructive, "overwrites an existing file outside the working directory: " + c.show(t)
		}
	}
	return Write, ""
}

// startupFile reports whether p is read by shells or tools at start-up, so
// writing it plants code that runs later (persistence).
func (c *classifier) startupFile(p string) bool {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if dir == c.home && strings.HasPrefix(base, ".") {
		return true // ~/.bashrc, ~/.profile, ~/.gitconfig, …
	}
	for _, d := range []string{".ssh", ".config", ".local/bin", ".bashrc.d", ".oh-my-zsh"} {
		if isUnder(p, path.Join(c.home, d)) {
			return true
		}
	}
	return false
}

// isSystemPath reports whether p is inside a system directory.
func isSystemPath(p string) bool {
	for _, d := range []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/sys", "/proc", "/var/spool/cron"} {
		if p == d || isUnder(p, d) {
			return true
		}
	}
	return false
}
