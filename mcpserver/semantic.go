package mcpserver

import (
	"fmt"
	"path/filepath"
	"strings"

	"tend/engine"
)

// Semantic status values of an exec result.
const (
	semanticOK     = "ok"
	semanticSignal = "signal"
	semanticError  = "error"
	semanticDenied = "denied"
)

// exitOneOK are commands for which exit 1 is an answer, not a failure.
var exitOneOK = map[string]string{
	"grep": "no lines matched", "egrep": "no lines matched", "fgrep": "no lines matched",
	"rg": "no lines matched", "ag": "no lines matched",
	"diff": "the inputs differ", "cmp": "the inputs differ",
	"test": "the condition is false", "[": "the condition is false",
	"find": "some paths could not be read",
}

// semantic explains a finished job's exit the way an agent needs it:
// whether it is an error, and why.
func semantic(command string, in engine.Info) (status, msg string) {
	status, msg = exitMeaning(command, in)
	return status, joinNotes(msg, in.SandboxedNote(status != semanticOK))
}

// exitMeaning says what the way a command ended means.
func exitMeaning(command string, in engine.Info) (status, msg string) {
	code := 0
	if in.ExitCode != nil {
		code = *in.ExitCode
	}
	switch in.Status {
	case engine.TimedOut:
		return semanticError, "timed out: the command was killed (raise timeout_sec, or run it with terminal_job_start)"
	case engine.Killed:
		return semanticSignal, "killed by tend"
	case engine.Signaled:
		return semanticSignal, fmt.Sprintf("terminated by %s", in.Signal)
	case engine.Failed:
		return semanticError, "the command could not be started"
	}
	if code == 0 {
		return semanticOK, ""
	}
	if code == 1 {
		if m, ok := exitOneOK[lastCommandName(command)]; ok {
			return semanticOK, m
		}
	}
	switch code {
	case 126:
		return semanticError, "exit 126: not executable (or a resource limit could not be set)"
	case 127:
		return semanticError, "exit 127: command not found"
	}
	return semanticError, fmt.Sprintf("exit code %d", code)
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
