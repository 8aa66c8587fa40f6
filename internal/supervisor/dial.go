package supervisor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"tend/internal/discovery"
)

// DialLocal reaches the tend serving stateDir on this machine, found
// through its discovery file (which must be ours alone, as its socket).
func DialLocal(stateDir string) Dialer {
	return func(context.Context) (io.ReadWriteCloser, error) {
		d, conn, err := discovery.FindLive(stateDir)
		if err != nil {
			return nil, err
		}
		if d == nil {
			return nil, fmt.Errorf("no tend serves %s (start one with tend serve)", stateDir)
		}
		return conn, nil
	}
}

// DialUnix reaches the engine listening on the unix socket path.
func DialUnix(path string) Dialer {
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", path)
	}
}

// DialCommand runs argv and speaks the protocol over its stdin and stdout:
// ssh running `tend serve --stdio` on another machine, docker exec,
// kubectl exec. Closing the stream ends the process.
func DialCommand(argv ...string) Dialer {
	return func(context.Context) (io.ReadWriteCloser, error) {
		cmd := exec.Command(argv[0], argv[1:]...)
		// Its own process group: keys the person types (ctrl+c) are the
		// UI's, never the pipe's.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		p := &procConn{cmd: cmd, stderr: &tail{}}
		cmd.Stderr = p.stderr
		var err error
		if p.in, err = cmd.StdinPipe(); err != nil {
			return nil, err
		}
		if p.out, err = cmd.StdoutPipe(); err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return p, nil
	}
}

// procConn is a process's stdin and stdout as one stream.
type procConn struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    io.ReadCloser
	stderr *tail
	once   sync.Once
}

func (p *procConn) Write(b []byte) (int, error) { return p.in.Write(b) }

// Read reads its stdout; at the end it says what the process said on
// stderr (ssh's reason).
func (p *procConn) Read(b []byte) (int, error) {
	n, err := p.out.Read(b)
	if errors.Is(err, io.EOF) {
		if msg := p.stderr.String(); msg != "" {
			return n, fmt.Errorf("%s: %s", p.cmd.Args[0], msg)
		}
	}
	return n, err
}

func (p *procConn) Close() error {
	p.once.Do(func() {
		p.in.Close()
		p.cmd.Process.Kill() // ours, by pid
		p.cmd.Wait()
	})
	return nil
}

// Pid is the process's pid (tests end it to cut a connection).
func (p *procConn) Pid() int { return p.cmd.Process.Pid }

// tail keeps the last line a process wrote.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
