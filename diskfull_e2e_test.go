package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tend/internal/testkit"
)

// A job that fills the disk holding the state dir: its result says how
// many bytes were lost and why, tend goes on, other jobs are whole, every
// audit line parses, and the job stays in history with its loss.
func TestDiskFull(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=20m,mode=0700", "tmpfs", state).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", state).Run() })

	s := startServer(t, "", "-state-dir", state)
	var env struct {
		ExitCode        *int   `json:"exit_code"`
		Warning         string `json:"warning"`
		OutputLostBytes int64  `json:"output_lost_bytes"`
		JobID           string `json:"job_id"`
	}
	testkit.CallOK(t, s.cs, "terminal_exec", map[string]any{
		"command": `head -c 100000000 /dev/zero | tr '\0' x`, "max_output_kb": 4, "auto_background_after_sec": 0,
	}, &env)
	if env.ExitCode == nil || *env.ExitCode != 0 || env.OutputLostBytes < 50_000_000 || !strings.Contains(env.Warning, "lost") || !strings.Contains(env.Warning, "disk is nearly full") {
		t.Fatalf("the result does not say what was lost: exit %v, lost %d, warning %q", env.ExitCode, env.OutputLostBytes, env.Warning)
	}
	t.Logf("lost %d of 100000000 bytes: %s", env.OutputLostBytes, env.Warning)

	var after struct {
		Stdout string `json:"stdout"`
	}
	testkit.CallOK(t, s.cs, "terminal_exec", map[string]any{"command": "echo still here"}, &after)
	if after.Stdout != "still here\n" {
		t.Fatalf("a job after the full disk printed %q", after.Stdout)
	}
	s.cs.Close()
	s.cmd.Wait()

	f, err := os.Open(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, losses := 0, 0
	for sc := bufio.NewScanner(f); sc.Scan(); records++ {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %d does not parse: %v: %q", records+1, err, sc.Text())
		}
		if r["kind"] == "loss" {
			losses++
		}
	}
	if records < 3 || losses != 1 {
		t.Errorf("%d audit records, %d of them a loss; want the two calls and the loss", records, losses)
	}

	next := startServer(t, "", "-state-dir", state)
	var list struct {
		Jobs []struct {
			ID        string `json:"job_id"`
			LostBytes int64  `json:"lost_bytes"`
		} `json:"jobs"`
	}
	testkit.CallOK(t, next.cs, "terminal_job_manage", map[string]any{"action": "list"}, &list)
	for _, j := range list.Jobs {
		if j.ID == env.JobID && j.LostBytes == env.OutputLostBytes {
			return
		}
	}
	t.Fatalf("history lost the job or its loss: %+v", list.Jobs)
}
