package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine is the largest JSON-RPC message accepted on a stream transport.
const MaxLine = 4 << 20

// GuardedTransport is a newline-delimited JSON-RPC transport over r and w
// that answers a malformed line itself (-32700 parse error, -32600 invalid
// request, or a line over [MaxLine]) and goes on, where the SDK's stdio
// transport would end the session (RELIABILITY V14).
func GuardedTransport(r io.Reader, w io.Writer) mcp.Transport {
	pr, pw := io.Pipe()
	lw := &lockedWriter{w: w}
	go guard(r, pw, lw)
	return &mcp.IOTransport{Reader: pr, Writer: lw, MaxLineLength: MaxLine + 1}
}

// lockedWriter serialises whole messages from the SDK and from the guard.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// guard copies valid messages from r to the SDK and answers the rest.
func guard(r io.Reader, to *io.PipeWriter, w io.Writer) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br, MaxLine)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			switch {
			case tooLong:
				reply(w, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over %d bytes: ignored", MaxLine))
			default:
				if code, msg := check(line); code != 0 {
					reply(w, idOf(line), code, msg)
				} else if _, werr := to.Write(append(line, '\n')); werr != nil {
					return
				}
			}
		}
		if err != nil {
			to.CloseWithError(err)
			if errors.Is(err, io.EOF) {
				to.Close()
			}
			return
		}
	}
}

// readLine reads one line without its newline; a line over max is consumed
// and reported as too long rather than buffered.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		frag, e := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, e
	}
}

// check says whether line is a JSON-RPC message the SDK will accept.
func check(line []byte) (code int64, msg string) {
	if !json.Valid(line) {
		return -32700, "parse error: the line is not valid JSON"
	}
	if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
		return jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported: send one message per line"
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return 0, ""
}

// idOf extracts the id of a malformed request, if it has a usable one.
func idOf(line []byte) json.RawMessage {
	var v struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &v) != nil || len(v.ID) == 0 {
		return nil
	}
	switch v.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return v.ID
	}
	return nil
}

func reply(w io.Writer, id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	w.Write(append(b, '\n'))
}
