package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"tend/engine"
	"tend/internal/testkit"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

func TestReplay(t *testing.T) {
	t.Parallel()
	stream := "hello\r\n\x1b[1;31mred\x1b[0m \xe6\x97\xa5\xe6\x9c\xac"
	code, out, errOut := runCLI(t, stream, "replay", "--cols", "20", "--rows", "3")
	if code != 0 || out != "hello\nred 日本\n\n" && !strings.HasPrefix(out, "hello\nred 日本") {
		t.Fatalf("replay: code %d out %q err %q", code, out, errOut)
	}
	file := filepath.Join(t.TempDir(), "pty.log")
	os.WriteFile(file, []byte(stream), 0o600)
	code, out, _ = runCLI(t, "", "replay", "--json", "--cols", "20", "--rows", "3", file)
	var screen struct {
		Cols, Rows int
		Cells      [][]struct {
			T string `json:"t"`
			W int    `json:"w"`
			S string `json:"s"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &screen); err != nil || code != 0 {
		t.Fatalf("replay --json: %v %q", err, out)
	}
	if screen.Cols != 20 || len(screen.Cells) != 3 || len(screen.Cells[1]) != 20 || screen.Cells[1][0].T != "r" || screen.Cells[1][0].S != "p9/B" {
		t.Fatalf("screen JSON: %+v", screen.Cells[1][:4])
	}
	if code, _, _ := runCLI(t, "", "replay", "--cols", "0"); code != 2 {
		t.Fatalf("bad size: exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "replay", "/no/such/file"); code != 1 {
		t.Fatalf("missing file: exit %d", code)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, "", "check", "--json", "--", "ls", "-la")
	var v struct {
		Class, Decision string
		Reasons         []string
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 || v.Class != "read-only" || v.Decision != "allow" {
		t.Fatalf("check ls: %d %q %+v", code, out, v)
	}
	code, out, _ = runCLI(t, "", "check", "--json", "--", "rm -rf /")
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 || v.Class != "destructive" || v.Decision != "ask" || len(v.Reasons) == 0 {
		t.Fatalf("check rm -rf /: %d %q %+v", code, out, v)
	}
	if code, _, _ := runCLI(t, "", "check"); code != 2 {
		t.Fatalf("no command: exit %d", code)
	}
}

func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if code, out, _ := runCLI(t, "", args...); code != 0 || !strings.HasPrefix(out, "tend ") {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
	code, out, errOut := runCLI(t, "", "--help")
	if code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	help := out + errOut
	for _, want := range []string{"tend mcp", "tend serve", "tend check", "tend replay", "-state-dir"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help does not mention %q:\n%s", want, help)
		}
	}
	if code, _, errOut := runCLI(t, "", "frobnicate"); code != 2 || !strings.Contains(errOut, "frobnicate") {
		t.Errorf("unknown command: %d %q", code, errOut)
	}
	for _, want := range []string{"tend run", "tend wait", "tend setup claude", "tend hook claude"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help does not mention %q", want)
		}
	}
	// Every command's help is on stdout, with exit 0, whichever spelling.
	for _, cmd := range []string{"ui", "serve", "mcp", "check", "replay", "doctor", "run", "wait", "setup", "hook"} {
		for _, flag := range []string{"-h", "--help", "-help"} {
			code, out, errOut := runCLI(t, "", cmd, flag)
			if code != 0 || !strings.Contains(strings.ToLower(out), "usage") || errOut != "" {
				t.Errorf("tend %s %s: exit %d, stdout %q, stderr %q", cmd, flag, code, out, errOut)
			}
		}
	}
}

// A request read just before stdin ends is still answered.
func TestMCPAnswersBeforeStdinEnds(t *testing.T) {
	t.Parallel()
	init := `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"echo","version":"1"}}}` + "\n"
	code, out, _ := runCLI(t, init, "mcp", "--state-dir", testkit.PrivateDir(t), "--headless")
	if code != 0 || !strings.Contains(out, `"id":7,"result":{`) {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
}

// tend check --explain shows each simple command with its class, marks the
// held ones, and names what decided; every line fits 80 columns.
func TestCheckExplain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	none := filepath.Join(dir, "no-config.toml")
	explain := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, "", append([]string{"check", "--explain", "--config", none, "--cwd", dir}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d %s", args, code, errOut)
		}
		for _, l := range strings.Split(out, "\n") {
			if utf8.RuneCountInString(l) > 80 {
				t.Errorf("%q: a line is wider than 80 columns: %q", args, l)
			}
		}
		return out
	}
	has := func(label, out string, wants ...string) {
		t.Helper()
		for _, want := range wants {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", label, want, out)
			}
		}
	}
	has("cd / && sudo rm -rf usr", explain("--", "cd / && sudo rm -rf usr"),
		"  read-only    cd /\n",
		"  write        sudo rm -rf usr (in /)\n",
		"* destructive  rm -rf usr (in /)\n               - rm -rf outside the working directory: usr (/usr)\n",
		"class:      destructive\ndecision:   ask\ndecided by: mode \"destructive\" (destructive and unparseable commands wait for a\n            person)\n",
	)
	has("mode unknown", explain("--mode", "unknown", "--", "go test ./... && cargo nextest run --workspace "+strings.Repeat("--features x ", 10)),
		"  write        go test ./...\n",
		"* write        cargo nextest run --workspace --features x",
		"               - not known to be safe: cargo nextest\n",
		"decided by: mode \"unknown\" (commands not known to be safe wait for a person)\n",
	)
	rules := testkit.WriteFile(t, "config.toml", "[approval]\nmode = \"all\"\n[rules]\nallow = [\"Bash(npm run test:*)\"]\ndeny = [\"Bash(curl:*)\"]\nask = [\"Bash(git push:*)\"]\n")
	for cmd, want := range map[string]string{
		"npm run test -- --watch=false": "decided by: rule allow Bash(npm run test:*)\n",
		"ls && curl example.invalid":    "decided by: rule deny Bash(curl:*)\n",
		"git push origin main":          "decided by: rule ask Bash(git push:*)\n",
		"ls -la":                        "decided by: mode \"all\" (everything in it is read-only)\n",
	} {
		has(cmd, explain("--config", rules, "--", cmd), want)
	}
	if code, _, errOut := runCLI(t, "", "check", "--explain", "--json", "--", "ls"); code != 2 || !strings.Contains(errOut, "do not go together") {
		t.Errorf("--explain --json: exit %d %q", code, errOut)
	}
	if _, out, _ := runCLI(t, "", "check", "--help"); !strings.Contains(out, "-explain") {
		t.Errorf("tend check --help does not mention --explain:\n%s", out)
	}
}

// tend check applies the config's rules.
func TestCheckUsesConfigRules(t *testing.T) {
	t.Parallel()
	path := testkit.WriteFile(t, "config.toml", "[rules]\ndeny = [\"Bash(curl:*)\"]\nallow = [\"Bash(git push:*)\"]\n")
	if code, out, _ := runCLI(t, "", "check", "--config", path, "--", "curl", "example.invalid"); code != 0 || !strings.Contains(out, "deny") {
		t.Fatalf("deny rule: %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "check", "--config", path, "--", "git push --force"); code != 0 || !strings.Contains(out, "allow") {
		t.Fatalf("allow rule: %d %q", code, out)
	}
	if code, _, errOut := runCLI(t, "", "check", "--config", testkit.WriteFile(t, "config.toml", "port = \"x\""), "--", "ls"); code != 2 || !strings.Contains(errOut, "config") {
		t.Fatalf("bad config: %d %q", code, errOut)
	}
}

// tend doctor says how jobs would be held and whether the state dir will
// do, and exits 1 when something tend needs is missing.
func TestDoctor(t *testing.T) {
	t.Parallel()
	state := testkit.PrivateDir(t)
	sub := testkit.WriteFile(t, "config.toml", "[jobs]\ncontainment = \"subreaper\"\n")
	code, out, errOut := runCLI(t, "", "doctor", "--state-dir", state, "--config", sub)
	if code != 0 || !strings.Contains(out, "containment: subreaper") || !strings.Contains(out, "Delegate=yes") || !strings.Contains(out, state+" (ours") || !strings.Contains(out, "sandbox: ") || !strings.Contains(out, "terminal: ") {
		t.Fatalf("doctor with the subreaper: exit %d\n%s%s", code, out, errOut)
	}
	cg := testkit.WriteFile(t, "config.toml", "[jobs]\ncontainment = \"cgroup\"\n")
	code, out, _ = runCLI(t, "", "doctor", "--state-dir", state, "--config", cg)
	if _, err := engine.ProbeContainment(engine.ContainCgroup); err == nil {
		if code != 0 || !strings.Contains(out, "containment: cgroup: every job in a cgroup v2 group of its own") {
			t.Fatalf("doctor with cgroups to be had: exit %d\n%s", code, out)
		}
	} else if code != 1 || !strings.Contains(out, "containment: none: "+err.Error()) {
		t.Fatalf("doctor with cgroups required and none to be had: exit %d\n%s", code, out)
	}
	open := t.TempDir()
	os.Chmod(open, 0o755)
	if code, out, _ := runCLI(t, "", "doctor", "--state-dir", open, "--config", sub); code != 1 || !strings.Contains(out, "state dir:") {
		t.Fatalf("doctor with a state dir others can read: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, "", "doctor", "--grace", "1s"); code != 2 || !strings.Contains(errOut, "usage: tend doctor") {
		t.Fatalf("doctor with a flag it does not take: exit %d %s", code, errOut)
	}
}
