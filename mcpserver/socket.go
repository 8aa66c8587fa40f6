package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// CheckPrivateDir checks that dir is a directory owned by us with no
// permission bits for group or others, as tmux does for its socket
// directory (RELIABILITY S9). A symlink is refused too.
func CheckPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if err := checkOwner(fi, dir); err != nil {
		return err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s has mode %#o: it must be 0700 (chmod 700 %s)", dir, fi.Mode().Perm(), dir)
	}
	return nil
}

func checkOwner(fi fs.FileInfo, path string) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: cannot tell its owner", path)
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s is owned by uid %d, not by us (uid %d)", path, st.Uid, os.Getuid())
	}
	return nil
}

// ListenSocket makes a unix socket at path, mode 0600, in a directory that
// [CheckPrivateDir] accepts; it refuses to start otherwise. A socket file
// already at path is removed first: the caller has made sure no live tend
// owns it.
func ListenSocket(path string) (*net.UnixListener, error) {
	if err := CheckPrivateDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("socket directory: %w", err)
	}
	if len(path) > 107 {
		return nil, fmt.Errorf("socket path %s is %d bytes, over the 107 a unix socket allows: use a shorter --state-dir", path, len(path))
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("%s exists and is not a socket: refusing to replace it", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove stale socket: %w", err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	// The directory is 0700, so nobody else could reach the socket between
	// bind and chmod.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("chmod socket: %w", err)
	}
	fi, err := os.Lstat(path)
	if err == nil {
		err = checkOwner(fi, path)
	}
	if err == nil && fi.Mode().Perm() != 0o600 {
		err = fmt.Errorf("%s has mode %#o, not 0600", path, fi.Mode().Perm())
	}
	if err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// peerCred is the process at the other end of c (SO_PEERCRED).
func peerCred(c *net.UnixConn) (*syscall.Ucred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	var cred *syscall.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, fmt.Errorf("SO_PEERCRED: %w", serr)
	}
	return cred, nil
}

// SocketOptions configure [Server.ServeSocket].
type SocketOptions struct {
	Logger *slog.Logger
	// UID, when set, is the only peer uid served (default: ours); tests
	// set another to see a peer dropped.
	UID *int
	// Other, when set, is asked about the first line of each connection
	// and the process that made it: when it returns a server, that server
	// gets the connection (the first line included in in) instead of an
	// MCP session. tend's own local clients (tend hook, tend run, tend
	// attach) are served so.
	Other func(first []byte, peer Peer) func(ctx context.Context, in io.Reader, out io.Writer)
}

// Peer is the process that connected to the socket, as the kernel saw it
// when it did (SO_PEERCRED).
type Peer struct {
	Pid, UID int
}

// ServeSocket accepts connections on ln until ctx ends or ln is closed, and
// serves each on its own session of s with [GuardedTransport] (so several
// agents share the engine at once). A peer whose SO_PEERCRED uid is not
// ours (or o.UID) is dropped before a byte is read. When ctx ends it closes
// ln and every connection; sessions end as their in-flight calls return.
// A client that goes away cancels nothing: its calls see a read error, not
// notifications/cancelled, so its exec auto-promotes and its jobs run on.
func (s *Server) ServeSocket(ctx context.Context, ln *net.UnixListener, o SocketOptions) error {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	uid := os.Getuid()
	if o.UID != nil {
		uid = *o.UID
	}
	var (
		mu    sync.Mutex
		conns = map[*net.UnixConn]struct{}{}
		wg    sync.WaitGroup
	)
	stop := context.AfterFunc(ctx, func() {
		ln.Close()
		mu.Lock()
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	defer stop()
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				wg.Wait()
				return nil
			}
			// Out of descriptors or the like: wait and go on, as net/http does.
			logger.Warn("accept on the socket failed", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		cred, err := peerCred(c)
		if err != nil || int(cred.Uid) != uid {
			logger.Warn("dropped a socket peer", "cred", cred, "want uid", uid, "err", err)
			c.Close()
			continue
		}
		// The peer is the agent's tend mcp, started where the agent works.
		cwd, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", cred.Pid))
		mu.Lock()
		if ctx.Err() != nil {
			mu.Unlock()
			c.Close()
			continue
		}
		conns[c] = struct{}{}
		mu.Unlock()
		wg.Go(func() {
			defer func() {
				mu.Lock()
				delete(conns, c)
				mu.Unlock()
				c.Close()
			}()
			var in io.Reader = c
			if o.Other != nil {
				// A client speaks first: its first line says which
				// protocol it speaks. A line too long to hold is MCP's.
				br := bufio.NewReaderSize(c, 64<<10)
				first, err := br.ReadSlice('\n')
				if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
					return
				}
				in = io.MultiReader(bytes.NewReader(bytes.Clone(first)), br)
				if serve := o.Other(first, Peer{Pid: int(cred.Pid), UID: int(cred.Uid)}); serve != nil {
					serve(ctx, in, c)
					return
				}
			}
			// Nothing of the session is read before its directory is known.
			known := make(chan struct{})
			ss, err := s.Connect(ctx, GuardedTransport(afterReader{known, in, c}, c), nil)
			if err != nil {
				close(known)
				logger.Info("socket client failed to connect", "err", err)
				return
			}
			s.mu.Lock()
			s.cwds[ss] = cwd
			s.mu.Unlock()
			close(known)
			err = ss.Wait()
			s.mu.Lock()
			delete(s.cwds, ss)
			s.mu.Unlock()
			if err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
				logger.Info("client disconnected", "reason", err)
			} else {
				logger.Debug("client disconnected", "reason", "end of stream")
			}
		})
	}
}

// afterReader reads from r once ready is closed; the deadline of conn,
// which r reads, ends its reads.
type afterReader struct {
	ready <-chan struct{}
	r     io.Reader
	conn  net.Conn
}

func (a afterReader) Read(p []byte) (int, error) {
	<-a.ready
	return a.r.Read(p)
}

func (a afterReader) SetReadDeadline(t time.Time) error { return a.conn.SetReadDeadline(t) }
