package mcpserver

import (
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A tools/call of terminal_exec as the go-sdk client (2026-07-28 protocol)
// writes it, and the reply tend gives it.
const (
	benchCall  = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"terminal_exec","arguments":{"command":"echo hi"}}}`
	benchReply = `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"tend","title":"tend","version":"0.1.0-dev"}},"content":[{"type":"text","text":"{\"exit_code\":0,\"stdout\":\"hi\\n\",\"stderr\":\"\",\"stdout_truncated_bytes\":0,\"stderr_truncated_bytes\":0,\"runtime_ms\":3,\"pid\":18776,\"timed_out\":false,\"semantic_status\":\"ok\",\"auto_backgrounded\":false,\"job_id\":\"2\"}"}],"structuredContent":{"exit_code":0,"stdout":"hi\n","stderr":"","stdout_truncated_bytes":0,"stderr_truncated_bytes":0,"runtime_ms":3,"pid":18776,"timed_out":false,"semantic_status":"ok","auto_backgrounded":false,"job_id":"2"},"resultType":"complete"}`
)

// repeated reads line (and its newline) over and over.
type repeated struct {
	line []byte
	off  int
}

func (r *repeated) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.line[r.off:])
		n += c
		r.off = (r.off + c) % len(r.line)
	}
	return n, nil
}

// interruptible is a reader a deadline could end, as a pipe's or a
// socket's.
type interruptible struct{ io.Reader }

func (interruptible) SetReadDeadline(time.Time) error { return nil }

// BenchmarkStdioTransport is the stream transport's share of a tool call:
// a request read and handed to the session, its reply encoded and written;
// read by the session's reader (a pipe, a socket) and by the guard's
// goroutine (a terminal).
//
//	go test -run '^$' -bench StdioTransport -benchmem ./mcpserver
func BenchmarkStdioTransport(b *testing.B) {
	in := &repeated{line: []byte(benchCall + "\n")}
	b.Run("direct", func(b *testing.B) { benchTransport(b, interruptible{in}) })
	b.Run("goroutine", func(b *testing.B) { benchTransport(b, in) })
}

func benchTransport(b *testing.B, in io.Reader) {
	conn, err := GuardedTransport(in, io.Discard).Connect(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	for b.Loop() {
		msg, err := conn.Read(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		req := msg.(*jsonrpc.Request)
		if err := conn.Write(b.Context(), &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(benchReply)}); err != nil {
			b.Fatal(err)
		}
	}
}
