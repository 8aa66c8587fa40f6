// Package discovery is how a `tend mcp` finds the tend serving its state
// dir: the serving tend (the terminal UI or `tend serve`) writes tend.json
// there (its MCP URL and bearer token, its unix socket and its pid, mode
// 0600) and removes it when it stops.
package discovery

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// FileName is the discovery file in the state dir.
const FileName = "tend.json"

// SocketName is the unix socket in the state dir that `tend mcp` bridges
// agents to.
const SocketName = "tend.sock"

// File is what a serving tend writes so that `tend mcp` and people can
// find it.
type File struct {
	URL    string `json:"url"`
	Token  string `json:"token"`
	Socket string `json:"socket"`
	Pid    int    `json:"pid"`
}

// Path is the discovery file of stateDir.
func Path(stateDir string) string { return filepath.Join(stateDir, FileName) }

// Read reads the discovery file of stateDir, whatever its state.
func Read(stateDir string) (*File, error) {
	b, err := os.ReadFile(Path(stateDir))
	if err != nil {
		return nil, err
	}
	var d File
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", Path(stateDir), err)
	}
	return &d, nil
}

// pidAlive says whether a process with that pid exists (a zombie counts as
// gone).
func pidAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: trust kill(0)
	}
	i := len(stat) - 1
	for i > 0 && stat[i] != ')' {
		i--
	}
	return !(i+2 < len(stat) && stat[i+2] == 'Z')
}

// ErrUntrusted wraps the reason a discovery file or socket was not used:
// it, or the process behind it, is not this user's alone.
var ErrUntrusted = errors.New("not trusted")

// FindLive returns the discovery file of a live tend serving stateDir and a
// connection to its socket, or nil (and no error) when there is none: no
// file, a stale one (its pid is dead or its socket refuses), or one that is
// ours. A file that cannot be read as JSON is an error, and so (wrapping
// [ErrUntrusted]) is a file or socket that is not ours alone, or a server
// run by another user: an agent's commands go only to its own user's tend.
func FindLive(stateDir string) (*File, *net.UnixConn, error) {
	if err := private(Path(stateDir), 0); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	d, err := Read(stateDir)
	if err != nil {
		return nil, nil, err
	}
	if d.Pid == os.Getpid() || !pidAlive(d.Pid) || d.Socket == "" {
		return nil, nil, nil
	}
	if err := private(d.Socket, os.ModeSocket); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	c, err := net.DialTimeout("unix", d.Socket, 2*time.Second)
	if err != nil {
		return nil, nil, nil
	}
	uc := c.(*net.UnixConn)
	if uid, err := peerUID(uc); err != nil || uid != os.Getuid() {
		uc.Close()
		if err == nil {
			err = fmt.Errorf("%w: the server on %s runs as uid %d, not as us (uid %d)", ErrUntrusted, d.Socket, uid, os.Getuid())
		}
		return nil, nil, err
	}
	return d, uc, nil
}

// private checks that path is of type typ (0: a regular file), not a link,
// owned by us, and open to nobody else.
func private(path string, typ fs.FileMode) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode().Type() != typ:
		return fmt.Errorf("%w: %s is a %s, not what tend makes there", ErrUntrusted, path, fi.Mode().Type())
	case !ok:
		return fmt.Errorf("%w: %s has no owner tend can see", ErrUntrusted, path)
	case int(st.Uid) != os.Getuid():
		return fmt.Errorf("%w: %s is owned by uid %d, not by us (uid %d)", ErrUntrusted, path, st.Uid, os.Getuid())
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%w: %s has mode %#o: others may read or write it", ErrUntrusted, path, fi.Mode().Perm())
	}
	return nil
}

// peerUID is the uid of the process at the other end of c (SO_PEERCRED).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	var cred *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return -1, err
	}
	if serr != nil {
		return -1, serr
	}
	return int(cred.Uid), nil
}

// Write writes d atomically, mode 0600.
func Write(stateDir string, d *File) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(stateDir, ".tend.json-*")
	if err != nil {
		return fmt.Errorf("write discovery file: %w", err)
	}
	defer os.Remove(f.Name()) // after a successful rename this is a no-op
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("write discovery file: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("write discovery file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write discovery file: %w", err)
	}
	if err := os.Rename(f.Name(), Path(stateDir)); err != nil {
		return fmt.Errorf("write discovery file: %w", err)
	}
	return nil
}

// Remove removes the discovery file if it is still ours.
func Remove(stateDir string) {
	if d, err := Read(stateDir); err == nil && d.Pid == os.Getpid() {
		os.Remove(Path(stateDir))
	}
}
