package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// markerVar is set to the job id in every job's environment, so a process
// that escaped its job's session can still be told apart.
const markerVar = "TEND_JOB"

// engineVar holds a token of the engine that started a job: job ids are
// unique within a state dir only, and engines with other state dirs may run
// on the same machine.
const engineVar = "TEND_ENGINE"

// Limits are optional per-job resource limits (0 = unset).
type Limits struct {
	CPUSec  int // CPU seconds (RLIMIT_CPU)
	RSSMB   int // address space in MiB (RLIMIT_AS; Linux does not enforce RSS itself)
	FsizeMB int // largest file the job may write, in MiB (RLIMIT_FSIZE)
	Nofile  int // open files (RLIMIT_NOFILE)
}

func (l Limits) ulimits() string {
	var b strings.Builder
	add := func(flag string, v int) {
		if v > 0 {
			fmt.Fprintf(&b, "ulimit -%s %d || exit 126; ", flag, v)
		}
	}
	add("t", l.CPUSec)
	add("v", l.RSSMB*1024)
	add("f", l.FsizeMB*1024)
	add("n", l.Nofile)
	return b.String()
}

// shellMeta are the characters that make a command need bash rather than a
// plain argv exec.
const shellMeta = "|&;<>()$`\\\"'*?[]#~=%{}!\n"

// commandArgv decides how to run command in cwd with env added to tend's
// environment: bash -c when it uses shell syntax, its words as argv
// otherwise, found as bash would find them. Limits are applied by bash's
// ulimit before the command starts, so they hold from the first
// instruction.
func commandArgv(command string, l Limits, cwd string, env map[string]string) ([]string, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("command is empty")
	}
	if strings.IndexByte(command, 0) >= 0 {
		return nil, errors.New("command contains a NUL byte")
	}
	words := strings.Fields(command)
	if base := filepath.Base(words[0]); base == "zsh" || strings.HasPrefix(base, "zsh-") {
		return nil, errors.New("zsh is not supported: tend runs every command with bash")
	}
	bash, ok := lookPath("bash", "", os.Getenv("PATH"))
	if !ok {
		return nil, errors.New("bash is not installed; tend needs it to run commands")
	}
	pre := l.ulimits()
	if pre == "" && !strings.ContainsAny(command, shellMeta) {
		path, set := env["PATH"]
		if !set {
			path = os.Getenv("PATH")
		}
		if found, ok := lookPath(words[0], cwd, path); ok {
			return append([]string{found}, words[1:]...), nil
		}
		// Not found: let bash say so in its usual words, with exit 127.
	}
	return []string{bash, "-c", pre + command}, nil
}

// found remembers where lookPath found a name in a PATH, as bash's hash
// table does: a search stats every directory before the one that has it,
// and agents run the same few programs all day. It starts again past
// foundMax names (PATH can be set per job).
var (
	found  sync.Map // PATH, name and the job's directory → path
	nFound atomic.Int32
)

const foundMax = 1024

// lookPath finds the program name as bash would run it: a name with a slash
// is a path from cwd, any other is searched for in the directories of path.
// What it found is used again while it is there and PATH is the same.
func lookPath(name, cwd, path string) (string, bool) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if executable(p) {
			return name, true // exec resolves a relative one from the job's directory
		}
		return "", false
	}
	key := path + "\x00" + name + "\x00" + cwd // a relative directory in PATH is the job's
	if p, ok := found.Load(key); ok && executable(p.(string)) {
		return p.(string), true
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir) // "" and "." too
		}
		if p := filepath.Join(dir, name); executable(p) {
			if nFound.Add(1) > foundMax {
				found.Clear()
				nFound.Store(1)
			}
			found.Store(key, p)
			return p, true
		}
	}
	return "", false
}

// executable reports whether path is a regular file this process may run.
func executable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && unix.Access(path, unix.X_OK) == nil
}

// resolveCwd makes cwd absolute (relative to tend's own directory; ~ is
// the home directory) and checks that it is a directory.
func resolveCwd(cwd string) (string, error) {
	if cwd == "" {
		return os.Getwd()
	}
	p := cwd
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cwd %q: %w", cwd, err)
		}
		p = filepath.Join(home, p[1:])
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("cwd %q: %w", cwd, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("cwd %q does not exist", cwd)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("cwd %q is not a directory", cwd)
	}
	return abs, nil
}

// checkEnv refuses an environment a process cannot be given as asked: a
// name that is empty or holds '=' or NUL, a value with NUL, or tend's own
// markers.
func checkEnv(env map[string]string) error {
	for k, v := range env {
		switch {
		case k == "" || strings.ContainsAny(k, "=\x00"):
			return fmt.Errorf("env name %q is not valid: a name is not empty and holds no '=' and no NUL", k)
		case strings.IndexByte(v, 0) >= 0:
			return fmt.Errorf("env %s: a value cannot hold a NUL byte", k)
		case k == markerVar || k == engineVar:
			return fmt.Errorf("env %s is tend's own: it tells this job's processes apart", k)
		}
	}
	return nil
}

// jobEnv is tend's environment minus zsh's, plus pager and editor settings
// that keep tools from waiting on a terminal, the job marker, and the call's.
func jobEnv(id JobID, token string, extra map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ZDOTDIR") || strings.HasPrefix(k, "ZSH_") || k == markerVar || strings.HasPrefix(k, "TEND_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GIT_EDITOR=true", "GIT_PAGER=cat", "PAGER=cat")
	for k, v := range extra {
		if k == "" || strings.ContainsAny(k, "=\x00") || k == markerVar || k == engineVar {
			continue
		}
		env = append(env, k+"="+v)
	}
	return append(env, markerVar+"="+string(id), engineVar+"="+token)
}

// SignalName is a signal's name as tend shows and reads it: "SIGTERM".
func SignalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n
	}
	return "SIG" + strconv.Itoa(int(s))
}

// ParseSignal reads a signal's name in any case, with or without "SIG"
// ("TERM", "sigterm", "term"), or its number.
func ParseSignal(name string) (syscall.Signal, error) {
	n := strings.ToUpper(strings.TrimSpace(name))
	if k, err := strconv.Atoi(n); err == nil && k > 0 && k < 65 {
		return syscall.Signal(k), nil
	}
	if !strings.HasPrefix(n, "SIG") {
		n = "SIG" + n
	}
	if s := unix.SignalNum(n); s != 0 {
		return s, nil
	}
	return 0, fmt.Errorf("unknown signal %q", name)
}
