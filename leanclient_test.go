package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/internal/testkit"
)

// leanTransport is a client's stdio transport to the command, for the
// benchmarks' second figure: what a round trip costs when the client's
// transport is lean too. The go-sdk's (mcp.CommandTransport) reads each
// line on a goroutine of its own with encoding/json's stream decoder, and
// decodes it again with the SDK's, which takes a 32 KiB buffer for the
// message and another for its method; this one reads lines on the
// session's reader into one buffer, kept from line to line, decodes a
// response with the standard library (the rest as the SDK does), and
// writes a call around the parameters the SDK encoded, in one write. The
// session above it (the go-sdk's ClientSession: its requests, the result
// decoded) is the same.
type leanTransport struct{ cmd *exec.Cmd }

func (t leanTransport) Connect(context.Context) (mcp.Connection, error) {
	out, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	in, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	return &leanConn{cmd: t.cmd, in: in, br: bufio.NewReaderSize(out, 64<<10)}, nil
}

type leanConn struct {
	cmd  *exec.Cmd
	br   *bufio.Reader
	line []byte

	mu  sync.Mutex // whole messages
	in  io.WriteCloser
	buf []byte

	closeOnce sync.Once
	closeErr  error
}

func (c *leanConn) Read(context.Context) (jsonrpc.Message, error) {
	for {
		c.line = c.line[:0]
		for {
			frag, err := c.br.ReadSlice('\n')
			c.line = append(c.line, frag...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				return nil, err
			}
			break
		}
		if line := bytes.TrimSpace(c.line); len(line) > 0 {
			return decodeLean(line)
		}
	}
}

// decodeLean decodes a response with the standard library, and anything
// else (a request or notification of the server's) as the SDK does.
func decodeLean(line []byte) (jsonrpc.Message, error) {
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   *jsonrpc.Error  `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil || m.Method != nil || m.JSONRPC != "2.0" || len(m.ID) == 0 {
		return jsonrpc.DecodeMessage(line)
	}
	var v any // a string or a number, as the SDK reads an id
	if json.Unmarshal(m.ID, &v) != nil {
		return jsonrpc.DecodeMessage(line)
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil || !id.IsValid() {
		return jsonrpc.DecodeMessage(line)
	}
	r := &jsonrpc.Response{ID: id, Result: m.Result}
	if m.Error != nil {
		r.Error = m.Error
	}
	return r, nil
}

func (c *leanConn) Write(_ context.Context, msg jsonrpc.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.buf[:0]
	r, ok := msg.(*jsonrpc.Request)
	var id int64
	var numeric bool
	if ok {
		id, numeric = r.ID.Raw().(int64)
	}
	if ok && (numeric || !r.ID.IsValid()) && bytes.IndexByte(r.Params, '\n') < 0 && plain(r.Method) {
		p = append(p, `{"jsonrpc":"2.0",`...)
		if numeric {
			p = append(strconv.AppendInt(append(p, `"id":`...), id, 10), ',')
		}
		p = append(append(append(p, `"method":"`...), r.Method...), '"')
		if len(r.Params) > 0 {
			p = append(append(p, `,"params":`...), r.Params...)
		}
		p = append(p, '}')
	} else {
		b, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return err
		}
		p = append(p, b...)
	}
	p = append(p, '\n')
	c.buf = p
	_, err := c.in.Write(p)
	return err
}

// plain reports whether s is written in JSON as it is, between quotes.
func plain(s string) bool {
	for _, c := range []byte(s) {
		if c < ' ' || c == '"' || c == '\\' || c >= 0x7f {
			return false
		}
	}
	return true
}

// Close closes the command's stdin and waits for it to exit (killing it
// after 10 s), which closes its stdout and so ends a read.
func (c *leanConn) Close() error {
	c.closeOnce.Do(func() {
		c.in.Close()
		done := make(chan error, 1)
		go func() { done <- c.cmd.Wait() }()
		select {
		case c.closeErr = <-done:
		case <-time.After(10 * time.Second):
			c.cmd.Process.Kill()
			c.closeErr = fmt.Errorf("killed after 10 s: %v", <-done)
		}
	})
	return c.closeErr
}

func (c *leanConn) SessionID() string { return "" }

// The benchmarks' lean client transport writes what the SDK's would, and
// reads a response as the SDK's does; a session over it works.
func TestLeanClientTransport(t *testing.T) {
	t.Parallel()
	id, _ := jsonrpc.MakeID(float64(3))
	sid, _ := jsonrpc.MakeID("x<&>\"y")
	var w bytes.Buffer
	c := &leanConn{in: nopWriteCloser{&w}}
	for _, msg := range []jsonrpc.Message{
		&jsonrpc.Request{ID: id, Method: "tools/call", Params: json.RawMessage(`{"name":"terminal_exec","arguments":{"command":"echo <hi> & \u00e9"}}`)},
		&jsonrpc.Request{ID: sid, Method: "ping"},
		&jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)},
		&jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`)},
	} {
		w.Reset()
		want, _ := jsonrpc.EncodeMessage(msg)
		if err := c.Write(t.Context(), msg); err != nil || w.String() != string(want)+"\n" {
			t.Errorf("%+v written as %q (%v), the SDK writes %q", msg, w.String(), err, want)
		}
	}
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"bad"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`,
		`{"jsonrpc":"2.0","id":4,"method":"roots/list"}`,
	} {
		got, err := decodeLean([]byte(line))
		want, werr := jsonrpc.DecodeMessage([]byte(line))
		if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s read as %+v (%v), the SDK reads %+v (%v)", line, got, err, want, werr)
		}
	}
	cmd := exec.Command(tendBin, "mcp", "-state-dir", t.TempDir())
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "lean", Version: "1"}, nil).Connect(t.Context(), leanTransport{cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Stdout string `json:"stdout"`
	}
	testkit.CallOK(t, cs, "terminal_exec", map[string]any{"command": "echo hi"}, &out)
	if out.Stdout != "hi\n" {
		t.Errorf("stdout %q", out.Stdout)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
