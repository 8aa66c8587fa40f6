// Package sandbox confines a job's command before it runs: Landlock rules
// for the file system and TCP, and a seccomp filter that refuses the ioctls
// that push input into a terminal (TIOCSTI, TIOCLINUX). Go cannot run code
// between fork and exec, so the engine starts tend itself as the job's
// first process with the command after it (Command); Main, in that
// process, confines it and execs the command in its place: the job's
// process is the command, its pid unchanged, and everything it starts is
// confined too.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Mode is how far a command is confined.
type Mode string

const (
	// Off: nothing but the terminal-input filter.
	Off Mode = "off"
	// Workspace: writes only in the working tree, the temp dirs and the
	// paths the config lists; reads anywhere the user can.
	Workspace Mode = "workspace"
	// WorkspaceOffline: Workspace, and no TCP connect or bind.
	WorkspaceOffline Mode = "workspace-offline"
	// ReadOnly: writes only in the temp dirs.
	ReadOnly Mode = "readonly"
)

// Parse reads a mode ("" is Off).
func Parse(s string) (Mode, error) {
	switch m := Mode(s); m {
	case "":
		return Off, nil
	case Off, Workspace, WorkspaceOffline, ReadOnly:
		return m, nil
	}
	return "", fmt.Errorf("sandbox %q: use off, workspace, workspace-offline or readonly", s)
}

// Arg is the argument that makes tend confine a command (see Main).
const Arg = "__confine"

// Command returns the argv that runs argv confined by mode, through the
// tend binary at self: writes allowed only where [Writable] says.
func Command(self string, mode Mode, cwd string, writable []string, argv []string) []string {
	out := []string{self, Arg, "-mode", string(mode)}
	if mode != Off {
		for _, p := range Writable(mode, cwd, writable) {
			out = append(out, "-rw", p)
		}
	}
	return append(append(out, "--"), argv...)
}

// Writable are the directories a command confined by mode may write in:
// devices and /proc, as any terminal program writes them (/dev/null,
// /dev/tty, its own /proc entries); the temp dirs (tend's own: a job's
// TMPDIR is the agent's to set); cwd, but in readonly; and the paths the
// config lists (extra).
func Writable(mode Mode, cwd string, extra []string) []string {
	dirs := []string{"/dev", "/proc", "/tmp", "/var/tmp", "/dev/shm"}
	if t := os.Getenv("TMPDIR"); t != "" && filepath.IsAbs(t) {
		dirs = append(dirs, t)
	}
	if mode == Workspace || mode == WorkspaceOffline {
		dirs = append(dirs, cwd)
	}
	return append(dirs, extra...)
}

// Refuses reports whether a command confined by mode can write nothing at
// path nor under it: path is in none of the [Writable] directories, and
// none of them is in path (deleting a parent of the working tree would
// empty the tree before it failed). Symbolic links are followed as far as
// they exist, on both sides.
func Refuses(mode Mode, cwd string, extra []string, path string) bool {
	if mode == Off || !filepath.IsAbs(path) {
		return false
	}
	paths := []string{filepath.Clean(path), realPath(path)}
	for _, d := range Writable(mode, cwd, extra) {
		for _, r := range []string{filepath.Clean(d), realPath(d)} {
			for _, p := range paths {
				if within(p, r) || within(r, p) {
					return false
				}
			}
		}
	}
	return true
}

// within reports whether p is dir or under it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// realPath is p with the symbolic links of its longest existing prefix
// resolved.
func realPath(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		dir := filepath.Dir(p)
		if dir == p {
			return p
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = dir
	}
}

// Main confines this process as its arguments say and execs the command
// after "--"; it returns only on failure, with a sentence for the job's
// stderr.
func Main(args []string) error {
	mode, rw, argv, err := parseArgs(args)
	if err != nil {
		return err
	}
	// Filters and Landlock domains are a thread's; the exec is from this one.
	runtime.LockOSThread()
	err = unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
	if err != nil {
		err = fmt.Errorf("sandbox: no_new_privs: %w", err)
	} else {
		err = denyTerminalInput()
	}
	switch {
	case err != nil && mode != Off:
		return err
	case err != nil: // only the filter was asked for: run, and say so
		fmt.Fprintf(os.Stderr, "tend: %v; this command could type into its own terminal\n", err)
	}
	if mode != Off {
		if err := restrict(mode, rw); err != nil {
			return err
		}
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	return fmt.Errorf("sandbox: exec %s: %w", argv[0], unix.Exec(path, argv, os.Environ()))
}

func parseArgs(args []string) (mode Mode, rw, argv []string, err error) {
	mode = Off
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			if i+1 == len(args) {
				return "", nil, nil, errors.New("sandbox: no command")
			}
			return mode, rw, args[i+1:], nil
		case (a == "-mode" || a == "-rw") && i+1 < len(args):
			i++
			if a == "-rw" {
				rw = append(rw, args[i])
			} else if mode, err = Parse(args[i]); err != nil {
				return "", nil, nil, err
			}
		default:
			return "", nil, nil, fmt.Errorf("sandbox: unknown argument %q", a)
		}
	}
	return "", nil, nil, errors.New("sandbox: no command")
}

// restrict applies mode's Landlock rules to this thread, which execs the
// command, and so to all the command starts. It fails, rather than run the
// command less confined than asked, where the kernel cannot enforce them.
func restrict(mode Mode, rw []string) error {
	abi, err := enforces(mode)
	if err != nil {
		return err
	}
	fs := uint64(1<<13 - 1) // ABI 1: execute … make_sym
	if abi >= 2 {
		fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	attr := unix.LandlockRulesetAttr{Access_fs: fs}
	if mode == WorkspaceOffline {
		// Handled with no rule that allows them: every TCP connect and
		// bind is refused. (Landlock has no rule for UDP or raw sockets.)
		attr.Access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return fmt.Errorf("sandbox %s: create the ruleset: %w", mode, errno)
	}
	defer unix.Close(int(fd))
	const read = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	allow := func(path string, access uint64) error {
		dir, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC|unix.O_DIRECTORY, 0)
		if err != nil {
			return nil // not there (or not a directory): nothing to allow
		}
		defer unix.Close(dir)
		rule := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(dir)}
		if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0); errno != 0 {
			return fmt.Errorf("sandbox %s: allow %s: %w", mode, path, errno)
		}
		return nil
	}
	if err := allow("/", read); err != nil {
		return err
	}
	for _, p := range rw {
		if err := allow(p, fs); err != nil {
			return err
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("sandbox %s: %w", mode, errno)
	}
	return nil
}

// Enforces says why this kernel cannot confine a command as mode asks, or
// nil if it can.
func Enforces(mode Mode) error {
	_, err := enforces(mode)
	return err
}

func enforces(mode Mode) (abi int, err error) {
	if abi, err = ABI(); err != nil {
		return 0, err
	}
	need := 1
	if mode == WorkspaceOffline {
		need = 4 // TCP rules
	}
	if abi < need {
		return 0, fmt.Errorf("sandbox %s: this kernel's Landlock (ABI %d) cannot enforce it (needs ABI %d)", mode, abi, need)
	}
	return abi, nil
}

// ABI returns the Landlock ABI version the kernel offers, or why none.
func ABI() (int, error) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0, fmt.Errorf("sandbox: this kernel offers no Landlock (%v)", errno)
	}
	return int(v), nil
}

// Filters says why this kernel cannot install the terminal-input filter
// (seccomp filters), or nil if it can.
func Filters() error {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if !strings.Contains(string(b), "\nSeccomp_filters:") {
		return errors.New("sandbox: this kernel has no seccomp filters")
	}
	return nil
}

// denyTerminalInput installs a seccomp filter refusing (EPERM) the ioctls
// that inject input into a terminal: TIOCSTI, and TIOCLINUX (whose
// subcodes can paste into a virtual console), through the native calls and
// the 32-bit ones alike (int 0x80 from any process on amd64); x32 calls,
// and those of any other architecture, are refused whole. Every other call
// is allowed.
func denyTerminalInput() error {
	a, ok := filterArchs[runtime.GOARCH]
	if !ok {
		return fmt.Errorf("sandbox: no terminal-input filter for %s", runtime.GOARCH)
	}
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
		// offsets in struct seccomp_data
		nrAt   = 0
		archAt = 4
		arg1At = 16 + 8 // args[1], its low 32 bits (little endian)
	)
	type insn struct {
		label   string // this instruction's, for jumps to it
		code    uint16
		k       uint32
		yes, no string // a jump's targets ("": the next instruction)
	}
	prog := []insn{
		{code: ld, k: archAt},
		{code: jeq, k: a.native, no: "compat"},
		{code: ld, k: nrAt},
		{code: jge, k: a.refuseFrom, yes: "refuse"}, // amd64: x32 calls
		{code: jeq, k: a.ioctl, yes: "request", no: "allow"},
		{label: "compat", code: jeq, k: a.compat, no: "refuse"},
		{code: ld, k: nrAt},
		{code: jeq, k: a.compatIoctl, no: "allow"},
		{label: "request", code: ld, k: arg1At},
		{code: jeq, k: unix.TIOCSTI, yes: "refuse"},
		{code: jeq, k: unix.TIOCLINUX, yes: "refuse"},
		{label: "allow", code: ret, k: unix.SECCOMP_RET_ALLOW},
		{label: "refuse", code: ret, k: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
	}
	at := map[string]int{}
	for i, in := range prog {
		if in.label != "" {
			at[in.label] = i
		}
	}
	filter := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		jump := func(label string) uint8 {
			if label == "" {
				return 0
			}
			return uint8(at[label] - i - 1)
		}
		filter[i] = unix.SockFilter{Code: in.code, K: in.k, Jt: jump(in.yes), Jf: jump(in.no)}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("sandbox: terminal-input filter: %w", err)
	}
	return nil
}

// filterArchs are, for each GOARCH, the audit architectures of its native
// and 32-bit calls and their ioctl numbers, and the first native call
// number that is not one (x32's on amd64).
var filterArchs = map[string]struct {
	native, ioctl, refuseFrom, compat, compatIoctl uint32
}{
	"amd64": {unix.AUDIT_ARCH_X86_64, unix.SYS_IOCTL, 0x40000000, unix.AUDIT_ARCH_I386, 54},
	"arm64": {unix.AUDIT_ARCH_AARCH64, unix.SYS_IOCTL, 1 << 31, unix.AUDIT_ARCH_ARM, 54},
}
