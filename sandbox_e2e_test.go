package main

import (
	"fmt"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"tend/internal/testkit"
	"tend/sandbox"
)

// A sandboxed command writes only where its mode lets it, through the real
// binary: in its working tree under workspace, nowhere but the temp dirs
// under readonly, and with no TCP under workspace-offline; a grandchild in
// a session of its own is as confined. The places written to are under
// the home directory, outside every temp dir.
func TestSandboxOverMCP(t *testing.T) {
	t.Parallel()
	if abi, err := sandbox.ABI(); err != nil || abi < 4 {
		t.Skipf("needs Landlock ABI 4: %d %v", abi, err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.MkdirTemp(home, ".tend-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	tree, outside := filepath.Join(root, "tree"), filepath.Join(root, "outside")
	for _, d := range []string{tree, outside, filepath.Join(outside, "keep")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	s := startServer(t, "")
	exec := func(mode, command string) envelope {
		t.Helper()
		var env envelope
		testkit.CallOK(t, s.cs, "terminal_exec", map[string]any{"command": command, "cwd": tree, "sandbox": mode}, &env)
		if env.ExitCode == nil {
			t.Fatalf("%s: no exit code: %+v", command, env)
		}
		return env
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }

	if env := exec("workspace", "touch ../outside/file"); *env.ExitCode == 0 || exists(filepath.Join(outside, "file")) {
		t.Errorf("workspace wrote outside its tree: %+v", env)
	}
	if env := exec("workspace", "touch ./inside && mkdir -p build/x && rm -rf build"); *env.ExitCode != 0 || !exists(filepath.Join(tree, "inside")) {
		t.Errorf("workspace could not write in its tree: %+v", env)
	}
	if env := exec("workspace", "rm -rf ../outside/keep"); *env.ExitCode == 0 || !exists(filepath.Join(outside, "keep")) {
		t.Errorf("workspace removed a directory outside its tree: %+v", env)
	}
	if env := exec("workspace", "setsid -w sh -c 'touch ../outside/grandchild'; nohup touch ../outside/nohup 2>/dev/null; echo done"); exists(filepath.Join(outside, "grandchild")) || exists(filepath.Join(outside, "nohup")) || !strings.Contains(env.Stdout, "done") {
		t.Errorf("a grandchild escaped the workspace: %+v", env)
	}
	var escape envelope // the job's TMPDIR is the agent's to set: it widens nothing
	testkit.CallOK(t, s.cs, "terminal_exec", map[string]any{"command": "touch \"$TMPDIR/tmpdir\"", "cwd": tree, "sandbox": "workspace", "env": map[string]string{"TMPDIR": outside}}, &escape)
	if exists(filepath.Join(outside, "tmpdir")) {
		t.Errorf("a job's own TMPDIR let it write outside its tree: %+v", escape)
	}
	_, shell := s.openShellIn(t, tree, "workspace") // a persistent shell, and what it runs
	if out := shell(map[string]any{"command": "touch ../outside/shell; setsid sh -c 'touch ../outside/shell-child'; touch ./from-shell; echo done"}); !strings.Contains(out.Output, "done") ||
		exists(filepath.Join(outside, "shell")) || exists(filepath.Join(outside, "shell-child")) || !exists(filepath.Join(tree, "from-shell")) {
		t.Errorf("a workspace shell wrote outside its tree, or not inside it: %+v", out)
	}
	if env := exec("", "touch ../outside/unconfined"); *env.ExitCode != 0 || !exists(filepath.Join(outside, "unconfined")) {
		t.Errorf("unconfined (the default) could not write: %+v", env)
	}

	if env := exec("readonly", "touch ./ro"); *env.ExitCode == 0 || exists(filepath.Join(tree, "ro")) {
		t.Errorf("readonly wrote in its tree: %+v", env)
	}
	tmp := filepath.Join(os.TempDir(), "tend-sandbox-"+testkit.NewMark())
	t.Cleanup(func() { os.Remove(tmp) })
	if env := exec("readonly", "touch "+tmp); *env.ExitCode != 0 {
		t.Errorf("readonly could not write a temp file: %+v", env)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	connect := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", ln.Addr().(*net.TCPAddr).Port)
	if env := exec("workspace-offline", connect); *env.ExitCode == 0 || strings.Contains(env.Stdout, "connected") {
		t.Errorf("workspace-offline connected: %+v", env)
	}
	if env := exec("workspace", connect); *env.ExitCode != 0 || !strings.Contains(env.Stdout, "connected") {
		t.Errorf("workspace (online) did not connect: %+v", env)
	}
	if env := exec("workspace-offline", "touch ../outside/offline"); *env.ExitCode == 0 || exists(filepath.Join(outside, "offline")) {
		t.Errorf("workspace-offline wrote outside its tree: %+v", env)
	}

	var list struct {
		Jobs []struct {
			Command string `json:"command"`
			Sandbox string `json:"sandbox"`
		} `json:"jobs"`
	}
	testkit.CallOK(t, s.cs, "terminal_job_manage", map[string]any{"action": "list", "limit": 0}, &list)
	said := map[string]string{}
	for _, j := range list.Jobs {
		said[j.Command] = j.Sandbox
	}
	if said["touch ./ro"] != "readonly" || said["touch ../outside/offline"] != "workspace-offline" || said["touch ../outside/unconfined"] != "" {
		t.Errorf("the list says the sandboxes %q", said)
	}

	res := s.call(t, "terminal_exec", map[string]any{"command": "true", "sandbox": "everywhere"}, nil)
	if !res.IsError || !strings.Contains(testkit.Text(res), "workspace-offline") {
		t.Errorf("an unknown sandbox: %s", testkit.Text(res))
	}
}

// A command in a persistent shell cannot push a line into the shell's own
// input (TIOCSTI): the probe is refused, and the line it tried to inject
// never runs.
func TestShellRefusesTerminalInjection(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	_, run := s.openShell(t, 80, 24)
	// inject runs probe, which must be refused, and then a command that
	// must run alone.
	inject := func(probe, injected string) {
		t.Helper()
		if out := run(map[string]any{"command": probe}); !strings.Contains(out.Output, "refused 1") {
			t.Fatalf("probe: %q", out.Output)
		}
		if out := run(map[string]any{"command": "echo after"}); strings.Contains(out.Output, injected) || !strings.Contains(out.Output, "after") {
			t.Fatalf("after the probe: %q", out.Output)
		}
	}
	inject(`python3 -c 'import fcntl, termios
try:
    [fcntl.ioctl(0, termios.TIOCSTI, c) for c in "echo INJECTED-$((6*7))\n"]
    print("pushed")
except OSError as e:
    print("refused", e.errno)'`, "INJECTED-42")
	// The same through the 32-bit calls (int 0x80), which a filter of the
	// native calls alone lets through.
	inject(compileProbe32(t), "INJECTED-32")
}

// compileProbe32 builds a program that pushes "echo INJECTED-32" into its
// terminal with TIOCSTI through the 32-bit system calls, and prints
// "pushed" or "refused ERRNO"; it skips where that cannot be built (not
// amd64, no gcc).
func compileProbe32(t *testing.T) string {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skip("the 32-bit probe is for amd64")
	}
	cc, err := osexec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc to build the 32-bit probe")
	}
	dir := t.TempDir()
	src := testkit.WriteFile(t, "probe32.c", `#include <stdio.h>
#include <sys/ioctl.h>
static char c; /* below 4 GiB: a 32-bit call can name it */
int main(void) {
	for (const char *p = "echo INJECTED-$((8*4))\n"; *p; p++) {
		long ret;
		c = *p;
		__asm__ volatile("int $0x80" : "=a"(ret) : "a"(54), "b"(0), "c"(TIOCSTI), "d"(&c) : "memory");
		if (ret < 0) { printf("refused %ld\n", -ret); return 1; }
	}
	printf("pushed\n");
	return 0;
}
`)
	bin := filepath.Join(dir, "probe32")
	if out, err := osexec.Command(cc, "-O0", "-static", "-no-pie", "-o", bin, src).CombinedOutput(); err != nil {
		t.Skipf("gcc could not build the 32-bit probe: %v\n%s", err, out)
	}
	return bin
}

// With approval.sandbox, a command held only for what it would delete
// outside its working tree runs in the sandbox instead of waiting for a
// person: the deletion is refused, the directory is intact, and the agent
// is told why in a sentence it can act on; the same tend without the
// setting (and no person watching, held commands denied) does not run it
// at all. What is not held (rm -rf ./build) just runs; what a sandbox
// could not contain (deleting a parent of the tree) is still denied.
func TestSandboxInsteadOfAsking(t *testing.T) {
	t.Parallel()
	if err := sandbox.Enforces(sandbox.Workspace); err != nil {
		t.Skip(err)
	}
	realHome, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	home, err := os.MkdirTemp(realHome, ".tend-sandbox-home-") // outside every temp dir
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	tree := filepath.Join(home, "project")
	for _, d := range []string{filepath.Join(home, "x", "keep"), filepath.Join(tree, "build", "obj")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home}
	deny := "[approval]\nheadless = \"deny\"\n"
	type result struct {
		envelope
		Approval *struct {
			Decision string `json:"decision"`
			By       string `json:"by"`
		} `json:"approval"`
	}
	exec := func(s *server, command string) result {
		t.Helper()
		var r result
		testkit.CallOK(t, s.cs, "terminal_exec", map[string]any{"command": command, "cwd": tree}, &r)
		return r
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }

	plain := startServerEnv(t, "", env, "-config", testkit.WriteFile(t, "config.toml", deny))
	if r := exec(plain, "rm -rf ~/x"); r.SemanticStatus != "denied" {
		t.Fatalf("without approval.sandbox, a held command with no one to approve it ran: %+v", r)
	}

	s := startServerEnv(t, "", env, "-config", testkit.WriteFile(t, "config.toml", deny+"sandbox = \"workspace\"\n"))
	r := exec(s, "rm -rf ~/x")
	if r.Approval == nil || r.Approval.Decision != "sandboxed" || r.ExitCode == nil || *r.ExitCode == 0 {
		t.Fatalf("rm -rf ~/x did not run, and fail, in the sandbox: %+v %+v", r, r.Approval)
	}
	if !exists(filepath.Join(home, "x", "keep")) {
		t.Fatal("~/x was removed")
	}
	for _, want := range []string{"workspace sandbox", "refused", "ask the person"} {
		if !strings.Contains(r.SemanticMessage, want) {
			t.Errorf("the agent is told %q, without %q", r.SemanticMessage, want)
		}
	}
	if r := exec(s, "rm -rf ./build"); r.ExitCode == nil || *r.ExitCode != 0 || r.Approval != nil || exists(filepath.Join(tree, "build")) {
		t.Errorf("rm -rf ./build: %+v", r)
	}
	if r := exec(s, "rm -rf ~"); r.SemanticStatus != "denied" || !exists(tree) {
		t.Errorf("a deletion that would empty the working tree first was not left to a person: %+v", r)
	}
}

// Full-screen programs work in an agent's persistent shell, which runs
// under the filter against terminal input injection: vim edits and saves a
// file, htop (or top where it is missing) draws its screen and quits on q,
// and the shell then runs the next command.
func TestFullScreenProgramsUnderTheFilter(t *testing.T) {
	t.Parallel()
	s := startServer(t, "")
	_, run := s.openShell(t, 100, 30)
	// screen waits until the screen shows want.
	screen := func(want string) {
		t.Helper()
		var last string
		testkit.WaitUntil(t, 10*time.Second, "the screen to show "+want, func() bool {
			last = run(map[string]any{"read_only": true, "screen": true}).Screen
			return strings.Contains(last, want)
		})
	}
	if _, err := osexec.LookPath("vim"); err == nil {
		file := filepath.Join(t.TempDir(), "edited.txt")
		run(map[string]any{"command": "vim -u NONE -N " + file, "expect": "edited.txt"})
		screen("edited.txt")
		run(map[string]any{"command": "iwritten under the filter", "raw_send": true, "keys": []string{"esc"}})
		run(map[string]any{"command": ":wq", "expect": `\$ $`})
		if b, err := os.ReadFile(file); err != nil || string(b) != "written under the filter\n" {
			t.Errorf("vim saved %q, %v", b, err)
		}
	} else {
		t.Log("no vim here")
	}
	top := "htop"
	if _, err := osexec.LookPath(top); err != nil {
		top = "top"
	}
	run(map[string]any{"command": top, "expect": "(?i)load average"})
	screen("PID")
	run(map[string]any{"keys": []string{"q"}})
	if out := run(map[string]any{"command": "echo back at the prompt"}); !strings.Contains(out.Output, "back at the prompt") {
		t.Fatalf("after %s: %q", top, out.Output)
	}
}
