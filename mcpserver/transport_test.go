package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The guarded transport reads a pipe or socket on the session's reader
// (Close ends a read through the deadline) and any other reader on a
// goroutine of its own; each test here runs both ways, and both again with
// the input coming a few bytes at a time.
var readModes = []struct {
	name string
	// pipe returns what the server reads and the end the client writes.
	pipe func(t *testing.T) (io.Reader, io.WriteCloser)
}{
	{"pipe", func(t *testing.T) (io.Reader, io.WriteCloser) { return osPipe(t) }},
	{"memory", func(t *testing.T) (io.Reader, io.WriteCloser) { return memPipe(t) }},
	{"pipe-trickle", func(t *testing.T) (io.Reader, io.WriteCloser) {
		r, w := osPipe(t)
		return trickle{r}, w
	}},
	{"memory-trickle", func(t *testing.T) (io.Reader, io.WriteCloser) {
		r, w := memPipe(t)
		return iotest.OneByteReader(r), w
	}},
}

func osPipe(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

func memPipe(t *testing.T) (*io.PipeReader, *io.PipeWriter) {
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	return r, w
}

// trickle reads a pipe at most 7 bytes at a time, its deadline still
// usable.
type trickle struct{ *os.File }

func (t trickle) Read(p []byte) (int, error) { return t.File.Read(p[:min(len(p), 7)]) }

// echoServer is an MCP server with one tool, echo, whose result is its
// argument's text; its session runs over a guarded transport reading in
// and writing out.
func echoServer(t *testing.T, in io.Reader, out io.Writer) *mcp.ServerSession {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		Text string `json:"text"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	ss, err := srv.Connect(t.Context(), GuardedTransport(in, out), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return ss
}

// The go-sdk client and server talk through the transport: messages of
// over a MiB both ways, and many calls at once, each answered with its own.
func TestTransportCarriesTheSDKsMessages(t *testing.T) {
	t.Parallel()
	for _, mode := range readModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			srvIn, cliOut := mode.pipe(t)
			cliIn, srvOut := io.Pipe()
			echoServer(t, srvIn, srvOut)
			client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
			cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: cliIn, Writer: cliOut}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			echo := func(text string) {
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}})
				if err != nil || res.IsError {
					t.Errorf("echo of %d bytes: %v %v", len(text), err, res)
					return
				}
				if got := res.Content[0].(*mcp.TextContent).Text; got != text {
					t.Errorf("echo of %d bytes came back as %d bytes", len(text), len(got))
				}
			}
			big := strings.Repeat("ü\"\\\n0123456789", 1<<20/16) // 0.94 MiB of text, 1.1 MiB as JSON
			if mode.name == "memory-trickle" {
				big = big[:128<<10] // a byte a read: keep it short
			}
			echo(big)
			var wg sync.WaitGroup
			for i := range 20 {
				wg.Go(func() { echo(strings.Repeat("x", i*1000+i)) })
			}
			wg.Wait()
			echo("after")
		})
	}
}

// rawGuarded serves the echo server over mode's reader and returns the end
// a raw client writes lines to, a function that reads the next reply, and
// the session.
func rawGuarded(t *testing.T, pipe func(*testing.T) (io.Reader, io.WriteCloser)) (io.WriteCloser, func() map[string]json.RawMessage, *mcp.ServerSession) {
	t.Helper()
	in, w := pipe(t)
	outR, outW := io.Pipe()
	ss := echoServer(t, in, outW)
	return w, replyReader(t, outR), ss
}

// waitEnded fails the test if the session has not ended (f returned)
// within 30 s, and then ends its input, for the test to end.
func waitEnded(t *testing.T, f func() error, in io.Closer) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		in.Close()
		t.Fatal("the session did not end")
	}
}

func errorCode(m map[string]json.RawMessage) string {
	var e struct {
		Code json.RawMessage `json:"code"`
	}
	json.Unmarshal(m["error"], &e)
	return string(e.Code)
}

const rawInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// A line that is not JSON, a batch and a request without a method are
// answered with an error and the session goes on; a line cut short by the
// end of the input is answered as not JSON, after the requests before it,
// and the session then ends.
func TestTransportAnswersBadLinesAndEndsWithTheInput(t *testing.T) {
	t.Parallel()
	for _, mode := range readModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			w, next, ss := rawGuarded(t, mode.pipe)
			io.WriteString(w, rawInit)
			if m := next(); string(m["id"]) != "1" || m["result"] == nil {
				t.Fatalf("initialize: %s", m)
			}
			for _, c := range []struct{ line, id, code string }{
				{`{"jsonrpc":"2.0","id":2,"method":`, "2", "-32700"},
				{`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, "null", "-32600"},
				{`{"jsonrpc":"2.0","id":4}`, "4", "-32600"},
				{"\x00\xff garbage", "null", "-32700"},
			} {
				io.WriteString(w, c.line+"\n")
				if m := next(); string(m["id"]) != c.id || errorCode(m) != c.code {
					t.Errorf("%q answered %s, want id %s code %s", c.line, m, c.id, c.code)
				}
			}
			io.WriteString(w, "\n  \r\n"+`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`+"\n")
			if m := next(); string(m["id"]) != "5" || !strings.Contains(string(m["result"]), `"hi"`) {
				t.Errorf("the call after the bad lines: %s", m)
			}
			io.WriteString(w, `{"jsonrpc":"2.0","id":6,"method":"ping"}`+"\n"+`{"jsonrpc":"2.0","id":7,"meth`)
			w.Close()
			a, b := next(), next() // in either order: the session answers the ping, the transport the rest
			if string(a["id"]) != "6" {
				a, b = b, a
			}
			if string(a["id"]) != "6" || a["result"] == nil {
				t.Errorf("the ping before the end: %s", a)
			}
			if errorCode(b) != "-32700" {
				t.Errorf("the line the end cut short: %s", b)
			}
			waitEnded(t, ss.Wait, w)
		})
	}
}

// Closing the session ends a read in progress: nothing was sent, or half
// a line.
func TestTransportCloseEndsARead(t *testing.T) {
	t.Parallel()
	for _, mode := range readModes {
		for name, half := range map[string]string{"idle": "", "mid-line": `{"jsonrpc":"2.0","id":9,"met`} {
			t.Run(mode.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				w, next, ss := rawGuarded(t, mode.pipe)
				io.WriteString(w, rawInit+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
				next()
				if m := next(); string(m["id"]) != "2" {
					t.Fatalf("ping: %s", m)
				}
				if half != "" {
					go io.WriteString(w, half) // an io.Pipe write waits for the read
				}
				waitEnded(t, ss.Close, w)
			})
		}
	}
}

// A reply is written as jsonrpc.EncodeMessage writes it, whichever way it
// is encoded.
func TestAppendMessageAsTheSDK(t *testing.T) {
	t.Parallel()
	req, _ := jsonrpc.MakeID(float64(7))
	str, _ := jsonrpc.MakeID("a<b>&\"c\"\u2028")
	for _, msg := range []jsonrpc.Message{
		&jsonrpc.Response{ID: req, Result: json.RawMessage(benchReply)},
		&jsonrpc.Response{ID: req, Result: json.RawMessage(`{"text":"<b>&amp;</b> \u2028 é"}`)},
		&jsonrpc.Response{ID: str, Result: json.RawMessage(`{}`)},
		&jsonrpc.Response{ID: req, Result: json.RawMessage("{\n\"a\": 1}")},
		&jsonrpc.Response{ID: req, Error: &jsonrpc.Error{Code: -32602, Message: "bad <args>"}},
		&jsonrpc.Request{ID: req, Method: "elicitation/create", Params: json.RawMessage(`{"message":"ok?"}`)},
		&jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"progress":1}`)},
	} {
		want, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendMessage([]byte("kept"), msg)
		if err != nil || string(got) != "kept"+string(want) {
			t.Errorf("%+v: written as %s (%v), the SDK writes %s", msg, got, err, want)
		}
	}
}
