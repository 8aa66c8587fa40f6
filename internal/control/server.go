package control

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"tend/engine"
)

// Server serves the protocol over an engine.
type Server struct {
	Engine *engine.Engine
	// Check answers a tend/check: it classifies the command and, when it
	// is held and a person watches, waits for their decision (or ctx).
	Check func(ctx context.Context, p CheckParams) CheckResult
}

// maxLine bounds one message; a bigger one ends the connection.
const maxLine = 4 << 20

// Serve serves one connection: in is what the client sent (its first line
// included), out where replies go. It returns when the request is
// answered or the client goes away; ctx ending ends it too.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &writer{w: out}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	if !sc.Scan() {
		return
	}
	var req message
	if err := json.Unmarshal(sc.Bytes(), &req); err != nil || req.ID == nil {
		w.fail(nil, -32600, "the first message must be a request with an id")
		return
	}
	// Whatever the client sends next is for the request in flight; the
	// connection closing withdraws it.
	// Signals go apart from stdin, so that one waiting behind a job that
	// does not read its input still reaches it.
	msgs, sigs := make(chan message, 64), make(chan message, 8)
	go func() {
		defer cancel()
		defer close(msgs)
		defer close(sigs)
		for sc.Scan() {
			var m message
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			to := msgs
			if m.Method == "tend/signal" {
				to = sigs
			}
			select {
			case to <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	switch req.Method {
	case "tend/check":
		var p CheckParams
		if err := s.params(req, &p, &p.Version); err != nil {
			w.fail(req.ID, -32602, err.Error())
			return
		}
		w.reply(req.ID, s.Check(ctx, p))
	case "tend/run":
		var p RunParams
		if err := s.params(req, &p, &p.Version); err != nil {
			w.fail(req.ID, -32602, err.Error())
			return
		}
		s.run(ctx, req.ID, p, msgs, sigs, w)
	case "tend/wait":
		var p WaitParams
		if err := s.params(req, &p, &p.Version); err != nil {
			w.fail(req.ID, -32602, err.Error())
			return
		}
		res, err := s.wait(ctx, p)
		if err != nil {
			w.fail(req.ID, -32000, err.Error())
			return
		}
		w.reply(req.ID, res)
	default:
		w.fail(req.ID, -32601, fmt.Sprintf("no method %q: this tend speaks tend/check, tend/run and tend/wait", req.Method))
	}
}

// params decodes req's params into p and checks the version it names.
func (s *Server) params(req message, p any, version *int) error {
	if err := json.Unmarshal(req.Params, p); err != nil {
		return fmt.Errorf("bad params: %v", err)
	}
	if *version != Version {
		return fmt.Errorf("this tend speaks version %d of its local protocol, the client %d: use the same tend binary for both", Version, *version)
	}
	return nil
}

// run starts p as a job, streams its output, forwards stdin and signals,
// and answers with how it ended. The client going away kills the job.
func (s *Server) run(ctx context.Context, id *int, p RunParams, msgs, sigs <-chan message, w *writer) {
	env := map[string]string{}
	for _, kv := range p.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && validName(k) && !strings.HasPrefix(k, "TEND_") {
			env[k] = v
		}
	}
	spec := engine.Spec{
		Command: p.Command, Cwd: p.Cwd, Env: env, Interactive: true, Foreground: true,
		Origin:         engine.Origin{Client: p.Origin.Client, Session: p.Origin.Session, Tool: "tend run"},
		StdinForwarded: p.Stdin != "terminal" && p.Stdin != "none",
	}
	j, err := s.Engine.Start(ctx, spec)
	var denied *engine.DeniedError
	switch {
	case errors.As(err, &denied):
		w.reply(id, RunResult{Status: "denied", Denied: denied.Reason})
		return
	case err != nil:
		w.fail(id, -32000, err.Error())
		return
	}
	w.notify("tend/started", Started{Job: string(j.ID)})
	go forward(j, msgs)
	go signal(j, sigs)
	lost, err := s.stream(ctx, j, w)
	if err != nil {
		// The client went away: the job goes with it, as on a hangup.
		j.Kill("its tend run went away")
		return
	}
	st, code, sig := j.Exit()
	res := RunResult{Job: string(j.ID), Status: st.String(), Signal: sig, Lost: lost}
	if sig == "" {
		res.ExitCode = &code
	}
	res.Note = j.Info().SandboxedNote(sig != "" || code != 0)
	w.reply(id, res)
}

// stream sends the job's output, stdout and stderr in the order they were
// written, until the job's output ends. It returns the bytes it could not
// send (dropped before they were read), or an error when ctx ends or the
// client cannot be written to.
func (s *Server) stream(ctx context.Context, j *engine.Job, w *writer) (lost int64, err error) {
	send := func(stream engine.Stream, data []byte) bool {
		name := "stdout"
		if stream == engine.Stderr {
			name = "stderr"
		}
		err = w.notify("tend/output", Output{Stream: name, Data: data})
		return err == nil
	}
	ferr := j.Follow(ctx, engine.Merged, 0, 256<<10, func(c engine.Chunk) bool {
		lost += c.Dropped
		if c.Spans == nil { // one stream: a terminal's, or stderr merged
			return len(c.Data) == 0 || send(engine.Stdout, c.Data)
		}
		data := c.Data
		for _, sp := range c.Spans {
			if !send(sp.Stream, data[:sp.Len]) {
				return false
			}
			data = data[sp.Len:]
		}
		return true
	})
	if err != nil {
		return lost, err
	}
	return lost, ferr
}

// forward gives the job the client's stdin. Bytes the job's stdin queue
// cannot take yet are offered again until it takes them or the job ends.
func forward(j *engine.Job, msgs <-chan message) {
	for m := range msgs {
		var in Stdin
		if m.Method != "tend/stdin" || json.Unmarshal(m.Params, &in) != nil {
			continue
		}
		for data := in.Data; len(data) > 0 && !j.Done(); {
			n, _ := j.Input(data)
			data = data[n:]
			if len(data) > 0 {
				time.Sleep(5 * time.Millisecond) // the job has not read its queue yet
			}
		}
		if in.EOF {
			j.CloseInput()
		}
	}
}

// signal passes the signals the client's user sent to the job.
func signal(j *engine.Job, sigs <-chan message) {
	for m := range sigs {
		var sg Signal
		if json.Unmarshal(m.Params, &sg) != nil {
			continue
		}
		if sig := unix.SignalNum(sg.Signal); sig != 0 && allowedSignal(sig) {
			j.Signal(sig)
		}
	}
}

// allowedSignal: the signals a terminal's user can send its foreground
// command, which tend run passes on.
func allowedSignal(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGCONT, syscall.SIGWINCH, syscall.SIGUSR1, syscall.SIGUSR2:
		return true
	}
	return false
}

func validName(k string) bool {
	if k == "" {
		return false
	}
	for i, r := range k {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// writer writes whole messages, one at a time.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) send(m message) error {
	m.JSONRPC = "2.0"
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.w.Write(append(b, '\n'))
	return err
}

func (w *writer) reply(id *int, result any) error {
	b, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return w.send(message{ID: id, Result: b})
}

func (w *writer) notify(method string, params any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return w.send(message{Method: method, Params: b})
}

func (w *writer) fail(id *int, code int, text string) error {
	return w.send(message{ID: id, Error: &rpcError{Code: code, Message: text}})
}

// wait waits for job p.Job to end, or for its output to match p.For.
func (s *Server) wait(ctx context.Context, p WaitParams) (WaitResult, error) {
	var re *regexp.Regexp
	if p.For != "" {
		var err error
		if re, err = regexp.Compile(p.For); err != nil {
			return WaitResult{}, fmt.Errorf("-for %q: %v", p.For, err)
		}
	}
	j, err := s.Engine.Job(engine.JobID(p.Job))
	if err != nil {
		return WaitResult{}, err
	}
	var res WaitResult
	if re != nil {
		res.Match, res.Matched, err = watch(ctx, j, re)
	} else {
		err = j.Wait(ctx)
	}
	if err != nil {
		return WaitResult{}, err
	}
	in := j.Info()
	res.Command, res.Status, res.ExitCode, res.Signal, res.RuntimeMs = in.Command, in.Status.String(), in.ExitCode, in.Signal, in.RuntimeMs
	res.Tail = tail(j, max(p.Lines, 5))
	return res, nil
}

// watch reads the job's output from its start until re matches a whole
// line of it (a line still being written is not matched until it ends) or
// the output ends.
func watch(ctx context.Context, j *engine.Job, re *regexp.Regexp) (string, bool, error) {
	var line []byte // the unfinished last line, kept to match whole lines
	var match []byte
	err := j.Follow(ctx, engine.Merged, 0, 256<<10, func(c engine.Chunk) bool {
		data := append(line, c.Data...)
		for {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				break
			}
			if match = re.Find(data[:i]); match != nil {
				return false
			}
			data = data[i+1:]
		}
		line = append([]byte(nil), data[max(len(data)-64<<10, 0):]...)
		return true
	})
	if err == nil && match == nil {
		// The output ended: its last line, if it has no newline, is whole.
		match = re.Find(line)
	}
	return string(match), match != nil, err
}

// tail is the job's last n lines of output.
func tail(j *engine.Job, n int) []string {
	end, err := j.Len(engine.Merged)
	if err != nil {
		return nil
	}
	c, err := j.Read(engine.Merged, max(end-8<<10, 0), 8<<10)
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(bytes.ToValidUTF8(c.Data, []byte("?"))), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines[max(len(lines)-n, 0):]
}
