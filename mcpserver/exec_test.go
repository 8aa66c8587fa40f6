package mcpserver

import (
	"strconv"
	"strings"
	"testing"

	"tend/internal/testkit"
)

// The envelope of terminal_exec: exit codes read the way an agent needs
// them, invalid UTF-8 kept valid JSON, and output over the inline cap cut
// to head and tail with the whole of it behind the handle.
func TestExecEnvelope(t *testing.T) {
	t.Parallel()
	cs := connect(t, Options{}, nil)
	tests := []struct {
		name, cmd       string
		code            int
		semantic, msg   string
		stdout, warning string
		timedOut        bool
	}{
		{name: "echo", cmd: "echo hi", code: 0, semantic: "ok", stdout: "hi\n"},
		{name: "grep exit 1 is an answer", cmd: "echo a | grep zzz", code: 1, semantic: "ok", msg: "no lines matched"},
		{name: "exit 3 is an error", cmd: "exit 3", code: 3, semantic: "error", msg: "exit code 3"},
		{name: "not found", cmd: "no-such-command-xyz", code: 127, semantic: "error", msg: "command not found"},
		{name: "invalid UTF-8", cmd: `printf 'a\xff\xfeb'`, code: 0, semantic: "ok", stdout: "a\uFFFDb", warning: "UTF-8"},
		{name: "timeout", cmd: "echo start; sleep 600", code: 143, semantic: "error", msg: "timed out", stdout: "start\n", timedOut: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var env execOutput
			args := map[string]any{"command": tc.cmd}
			if tc.timedOut {
				args["timeout_sec"] = 0.3
			}
			testkit.CallOK(t, cs, "terminal_exec", args, &env)
			if env.SemanticStatus != tc.semantic || !strings.Contains(env.SemanticMessage, tc.msg) || env.TimedOut != tc.timedOut {
				t.Fatalf("semantic %s %q timed_out %v, want %s %q %v", env.SemanticStatus, env.SemanticMessage, env.TimedOut, tc.semantic, tc.msg, tc.timedOut)
			}
			if !tc.timedOut && (env.ExitCode == nil || *env.ExitCode != tc.code) {
				t.Fatalf("exit %v, want %d", env.ExitCode, tc.code)
			}
			if tc.stdout != "" && env.Stdout != tc.stdout {
				t.Fatalf("stdout %q, want %q", env.Stdout, tc.stdout)
			}
			if !strings.Contains(env.Warning, tc.warning) || tc.warning == "" && env.Warning != "" {
				t.Fatalf("warning %q, want one with %q", env.Warning, tc.warning)
			}
		})
	}
}

func TestExecHeadAndTail(t *testing.T) {
	t.Parallel()
	cs := connect(t, Options{}, nil)
	var env execOutput
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "seq 1 20000", "max_output_kb": 4}, &env)
	if !strings.HasPrefix(env.Stdout, "1\n2\n") || !strings.HasSuffix(env.Stdout, "19999\n20000\n") {
		t.Fatalf("head or tail missing: %q … %q", env.Stdout[:20], env.Stdout[len(env.Stdout)-20:])
	}
	if !strings.Contains(env.Stdout, "bytes left out here") || env.StdoutTruncatedBytes <= 0 || env.OutputHandle == "" {
		t.Fatalf("no marker, count or handle: truncated %d, handle %q", env.StdoutTruncatedBytes, env.OutputHandle)
	}
	var whole strings.Builder
	for off := int64(0); ; {
		var got outputGetOutput
		testkit.CallOK(t, cs, "terminal_output_get", map[string]any{"output_handle": env.OutputHandle, "stream": "stdout", "since_offset": off}, &got)
		whole.WriteString(got.Data)
		off = got.NextOffset
		if got.EOF || got.Expired {
			break
		}
	}
	var want strings.Builder
	for i := 1; i <= 20000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	if whole.String() != want.String() {
		t.Fatalf("the handle gave %d bytes, want all %d", whole.Len(), want.Len())
	}
	// Asking for more than a reply carries gets half a megabyte of head and
	// tail a stream, and says so.
	var big execOutput
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "seq 1 300000; seq 1 300000 >&2", "max_output_kb": 1 << 20}, &big)
	if big.StdoutTruncatedBytes == 0 || big.StderrTruncatedBytes == 0 || len(big.Stdout)+len(big.Stderr) > maxReply+400 || !strings.Contains(big.Warning, "capped") {
		t.Fatalf("2 MB a stream asked for with max_output_kb 1 GiB: %d+%d bytes inline, %d+%d left out, warning %q",
			len(big.Stdout), len(big.Stderr), big.StdoutTruncatedBytes, big.StderrTruncatedBytes, big.Warning)
	}
	// Once its job is removed, the handle has expired.
	testkit.CallOK(t, cs, "terminal_job_manage", map[string]any{"action": "remove", "job_id": string(env.JobID)}, nil)
	var gone outputGetOutput
	testkit.CallOK(t, cs, "terminal_output_get", map[string]any{"output_handle": env.OutputHandle}, &gone)
	if !gone.Expired || !strings.Contains(gone.Note, "expired") {
		t.Fatalf("the handle of a removed job: %+v", gone)
	}
}

// Engine errors reach the agent with what to do about them in the tools'
// terms, added in one place.
func TestToolErrorsSayWhatToDo(t *testing.T) {
	t.Parallel()
	cs := connect(t, Options{}, nil)
	var env execOutput
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "true"}, &env)
	var shell ptyOpenOutput
	testkit.CallOK(t, cs, "terminal_pty_open", nil, &shell)
	job, sh := string(env.JobID), string(shell.SessionID)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"terminal_job_logs", map[string]any{"job_id": "999"}, "terminal_job_manage action=list"},
		{"terminal_pty_run", map[string]any{"session_id": "999", "command": "true"}, "terminal_pty_open"},
		{"terminal_pty_run", map[string]any{"session_id": sh}, "give command, keys, or read_only"},
		{"terminal_job_logs", map[string]any{"job_id": job, "stream": "both"}, "say stdout, stderr or merged"},
		{"terminal_job_logs", map[string]any{"job_id": job, "stream": "pty"}, "runs on no terminal"},
		{"terminal_job_manage", map[string]any{"action": "stdin", "job_id": job, "data": "x"}, "exited"},
		{"terminal_job_logs", map[string]any{"job_id": job, "max_bytes": -1}, "max_bytes must be positive"},
		{"terminal_exec", map[string]any{"command": "true", "max_output_kb": -4}, "max_output_kb must be positive"},
	} {
		res := testkit.Call(t, cs, tc.tool, tc.args, nil)
		if !res.IsError || !strings.Contains(testkit.Text(res), tc.want) {
			t.Errorf("%s %v: error %v %q, want one saying %q", tc.tool, tc.args, res.IsError, testkit.Text(res), tc.want)
		}
	}
}
