package engine

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/sys/unix"
)

// promptRE matches a last line that asks the user something: yes/no
// questions, passwords, REPL prompts, "Continue? ".
var promptRE = regexp.MustCompile(`(?i)(\[y/n\]|\(y/n\)|\[yes/no\]|\(yes/no\)|password[^\n]*:|passphrase[^\n]*:|>>>|\.\.\.|\?|:|>|\$|#) ?$`)

// looksLikePrompt reports whether the tail of some output ends in a prompt:
// a last line without a newline that looks like a question.
func looksLikePrompt(tail []byte) bool {
	if len(tail) == 0 || tail[len(tail)-1] == '\n' {
		return false
	}
	line := tail[bytes.LastIndexByte(tail, '\n')+1:]
	return promptRE.Match(line)
}

// shells are the programs that, run with no command or script, sit at a
// prompt of their own between commands.
var shells = map[string]bool{"bash": true, "sh": true, "dash": true, "ash": true, "ksh": true, "mksh": true, "fish": true, "tcsh": true, "csh": true}

// interactiveShell reports whether argv runs a shell that reads its
// commands from the terminal: a shell with options only, no -c and no
// script ("bash", "bash --norc --noprofile", "sh -l").
func interactiveShell(argv []string) bool {
	if len(argv) == 0 || !shells[filepath.Base(argv[0])] {
		return false
	}
	for _, a := range argv[1:] {
		switch {
		case a == "--command":
			return false
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
			if strings.ContainsRune(a[1:], 'c') {
				return false // -c, -lc, -ic: it runs that command
			}
		default:
			return false // a script, or an option's argument: not known to be a prompt
		}
	}
	return true
}

// atOwnPrompt reports whether an interactive shell job is at its own
// prompt: the terminal's foreground process group is the shell's (it is its
// session's leader, so its pid is its group), not that of a command it runs
// (an interactive shell puts each command in a group of its own and hands
// it the terminal). A command that reads the terminal, such as sudo asking
// for a password, has the terminal; the shell waiting for its next command
// does not wait on an answer.
func (j *Job) atOwnPrompt() bool {
	if !j.shell || j.ptmx == nil {
		return false
	}
	rc, err := j.ptmx.SyscallConn()
	if err != nil {
		return false
	}
	pgrp := -1
	if rc.Control(func(fd uintptr) { pgrp, err = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP) }) != nil || err != nil {
		return false // the terminal is gone: the job is ending
	}
	return pgrp == j.pid
}

// unread reports whether a terminal job has output its reader has not taken
// yet: quiet since the last read is not quiet when the reader is behind.
func (j *Job) unread() bool {
	if j.ptmx == nil {
		return false
	}
	rc, err := j.ptmx.SyscallConn()
	if err != nil {
		return false
	}
	n := 0
	if rc.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }) != nil || err != nil {
		return false
	}
	return n > 0
}
