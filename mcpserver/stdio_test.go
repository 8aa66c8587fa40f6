package mcpserver

import (
	"bufio"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"tend/engine"
)

// rawSession serves a fresh server over GuardedTransport and returns a
// function that sends a line and one that reads the next reply.
func rawSession(t *testing.T) (send func(string), next func() map[string]json.RawMessage) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := New(newEngine(t, engine.Config{}), Options{Version: "test"})
	ss, err := srv.Connect(t.Context(), GuardedTransport(inR, outW), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inW.Close(); ss.Close() })
	send = func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	return send, replyReader(t, outR)
}

// replyReader reads the server's reply lines from r and returns a
// function that gives the next one, decoded (a line that is not JSON as
// {"unparsable": true}), and fails the test if none comes within 30 s.
func replyReader(t *testing.T, r io.Reader) func() map[string]json.RawMessage {
	replies := make(chan map[string]json.RawMessage, 16)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var m map[string]json.RawMessage
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				m = map[string]json.RawMessage{"unparsable": json.RawMessage(`true`)}
			}
			replies <- m
		}
	}()
	return func() map[string]json.RawMessage {
		t.Helper()
		select {
		case m := <-replies:
			return m
		case <-time.After(30 * time.Second):
			t.Fatal("no reply")
		}
		return nil
	}
}

// Every request is answered, with its id exactly as the client wrote it,
// whatever the SDK would make of it; a cancellation that names such an id
// still reaches its call.
func TestIDsAsWritten(t *testing.T) {
	t.Parallel()
	send, next := rawSession(t)
	send(`{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if id := string(next()["id"]); id != "1.5" {
		t.Fatalf("initialize answered with id %s, want 1.5", id)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, id := range []string{`9007199254740993`, `1e2`, `-0`, `"abc"`, `42`, `"tend-id-x-1"`} {
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got := string(next()["id"]); got != id {
			t.Errorf("ping with id %s answered with id %s", id, got)
		}
	}
	send(`{"jsonrpc":"2.0","id":7}`)
	if m := next(); string(m["id"]) != "7" || !strings.Contains(string(m["error"]), "needs a method") {
		t.Errorf("a request without a method: %s", m)
	}
	send(`{"jsonrpc":"2.0","id":2.5,"method":"tools/call","params":{"name":"terminal_exec","arguments":{"command":"sleep 60","auto_background_after_sec":0}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2.5}}`)
	m := next()
	if string(m["id"]) != "2.5" {
		t.Fatalf("the cancelled call answered with id %s: %s", m["id"], m)
	}
	if !strings.Contains(string(m["result"]), "cancel") && !strings.Contains(string(m["error"]), "cancel") { // tend's result or the SDK's error, whichever comes first
		t.Errorf("the call did not end cancelled: %s", m)
	}
	send(`{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"x":"` + strings.Repeat("a", MaxLine+10) + `"}}`)
	if m := next(); string(m["id"]) != "77" {
		t.Errorf("an oversized request answered with id %s", m["id"])
	}
}

// The guard's own decoding of a request gives the SDK the very message its
// decoder would have made, and leaves to it every line it might read
// otherwise (a response, an odd id, a key in another case, depth).
func FuzzDecodeRequest(f *testing.F) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"terminal_exec","arguments":{"command":"echo hi"},"_meta":{"progressToken":1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"abc","method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping","params":null}`,
		`{"jsonrpc":"2.0","id":1e2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":""}`,
		`{"jsonrpc":"2.0","id":1,"method":null}`,
		`{"jsonrpc":"2.0","id":1,"method":5}`,
		`{"jsonrpc":"2.0","id":1,"method":"\u0070ing"}`,
		`{"jsonrpc":"2.0","ID":1,"Method":"ping"}`,
		`{"JSONRPC":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"jsonrpc":2.0,"id":1,"method":"ping"}`,
		`{"jsonrpc":"2\u002e0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","error":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,2]}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"\"]}"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"} trailing`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
	} {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		f, _, _ := topLevel(line)
		got, ok := decodeRequest(line, f)
		if again, ok2 := decodeRequest(line, nil); ok2 != ok || !reflect.DeepEqual(again, got) {
			t.Fatalf("%s: decoded as %+v from its top level, as %+v alone", line, got, again)
		}
		if !ok {
			return
		}
		want, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			t.Fatalf("%s: decoded as %+v, the SDK refuses it: %v", line, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: decoded as %+v, the SDK decodes %+v", line, got, want)
		}
	})
}

// The messages a client sends on every call are decoded by the guard, not
// handed to the SDK's decoder.
func TestDecodeRequestTakesTheCommonMessages(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"terminal_exec","arguments":{"command":"echo hi"}}}`,
		`{"jsonrpc":"2.0","id":"x-7","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
	} {
		if _, ok := decodeRequest([]byte(line), nil); !ok {
			t.Errorf("%s: left to the SDK", line)
		}
	}
}
