package engine

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Semantic status values of an exec result.
const (
	SemanticOK     = "ok"
	SemanticSignal = "signal"
	SemanticError  = "error"
	SemanticDenied = "denied"
)

// exitOneOK are commands for which exit 1 is an answer, not a failure.
var exitOneOK = map[string]string{
	"grep": "no lines matched", "egrep": "no lines matched", "fgrep": "no lines matched",
	"rg": "no lines matched", "ag": "no lines matched",
	"diff": "the inputs differ", "cmp": "the inputs differ",
	"test": "the condition is false", "[": "the condition is false",
	"find": "some paths could not be read",
}

// semantic explains an exit the way an agent needs it: whether it is an
// error, and why.
func semantic(command string, st Status, code int, sig string) (status, msg string) {
	switch st {
	case TimedOut:
		return SemanticError, "timed out: the command was killed (raise timeout_sec, or run it with terminal_job_start)"
	case Killed:
		return SemanticSignal, "killed by tend"
	case Signaled:
		return SemanticSignal, fmt.Sprintf("terminated by %s", sig)
	case Failed:
		return SemanticError, "the command could not be started"
	}
	if code == 0 {
		return SemanticOK, ""
	}
	if code == 1 {
		if m, ok := exitOneOK[lastCommandName(command)]; ok {
			return SemanticOK, m
		}
	}
	switch code {
	case 126:
		return SemanticError, "exit 126: not executable (or a resource limit could not be set)"
	case 127:
		return SemanticError, "exit 127: command not found"
	}
	return SemanticError, fmt.Sprintf("exit code %d", code)
}

// lastCommandName is the program whose exit status a command line returns:
// the first word of its last pipeline element, roughly.
func lastCommandName(command string) string {
	c := command
	for _, sep := range []string{"&&", "||", ";", "|"} {
		if i := strings.LastIndex(c, sep); i >= 0 {
			c = c[i+len(sep):]
		}
	}
	for _, w := range strings.Fields(c) {
		if strings.Contains(w, "=") || w == "sudo" || w == "env" || w == "time" || w == "!" {
			continue
		}
		return filepath.Base(w)
	}
	return ""
}
