package engine

import (
	"bytes"
	"regexp"
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
