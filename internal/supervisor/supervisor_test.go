package supervisor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"tend/engine"
	"tend/internal/testkit"
	"tend/policy"
	"tend/vterm"
)

// served is an engine behind a Server, reached over in-memory pipes that
// the test can cut.
type served struct {
	e   *engine.Engine
	a   *policy.Approvals
	srv *Server

	mu     sync.Mutex
	conns  []net.Conn
	paused chan struct{} // not nil: new connections wait until it is closed
}

func serve(t *testing.T) *served {
	t.Helper()
	e, err := engine.New(engine.Config{StateDir: testkit.PrivateDir(t), Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	s := &served{e: e, a: policy.NewApprovals()}
	s.srv = &Server{Engine: e, Approvals: s.a, Welcome: Welcome{Host: "test"}}
	return s
}

// dial is a Dialer to s; every connection it makes can be cut.
func (s *served) dial(ctx context.Context) (io.ReadWriteCloser, error) {
	s.mu.Lock()
	paused := s.paused
	s.mu.Unlock()
	if paused != nil {
		select {
		case <-paused:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	a, b := net.Pipe()
	s.mu.Lock()
	s.conns = append(s.conns, a)
	s.mu.Unlock()
	go func() {
		s.srv.Serve(context.Background(), b, b)
		b.Close()
	}()
	return a, nil
}

// cut closes every connection made so far; new ones wait until the
// returned function is called.
func (s *served) cut() (resume func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.Close()
	}
	p := make(chan struct{})
	s.paused = p
	return func() {
		s.mu.Lock()
		s.paused = nil
		s.mu.Unlock()
		close(p)
	}
}

func connect(t *testing.T, s *served) *Client {
	t.Helper()
	c, err := Connect(t.Context(), "test", s.dial, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestRefusesAnotherVersion(t *testing.T) {
	t.Parallel()
	s := serve(t)
	a, b := net.Pipe()
	defer a.Close()
	go s.srv.Serve(t.Context(), b, b)
	go fmt.Fprintln(a, `{"jsonrpc":"2.0","id":1,"method":"supervisor/hello","params":{"version":99}}`)
	line, err := bufio.NewReader(a).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, "speaks version 1 of the supervisor protocol, the other end 99") {
		t.Errorf("reply %s does not say which versions", line)
	}
}

func TestFirstRequestMustBeHello(t *testing.T) {
	t.Parallel()
	s := serve(t)
	a, b := net.Pipe()
	defer a.Close()
	go s.srv.Serve(t.Context(), b, b)
	go fmt.Fprintln(a, `{"jsonrpc":"2.0","id":1,"method":"supervisor/decide","params":{"id":1,"answer":{"Approve":true}}}`)
	line, _ := bufio.NewReader(a).ReadString('\n')
	if !strings.Contains(line, "the first request must be supervisor/hello") {
		t.Errorf("reply %s", line)
	}
}

func TestJobsOverTheProtocol(t *testing.T) {
	t.Parallel()
	s := serve(t)
	c := connect(t, s)
	_, events, stop := c.Subscribe()
	defer stop()
	j, err := c.Start(t.Context(), engine.Spec{Command: "cat", Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	ev := <-events
	if ev.Kind != engine.JobStarted || !ev.Info.Origin.IsPerson() {
		t.Fatalf("first event %v %+v: want a start of the person's job", ev.Kind, ev.Info.Origin)
	}
	if _, err := j.Input([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	testkit.WaitUntil(t, 10*time.Second, "the echo", func() bool {
		ch, err := j.Read(engine.Merged, 0, 100)
		return err == nil && string(ch.Data) == "hello\n"
	})
	if err := j.CloseInput(); err != nil {
		t.Fatal(err)
	}
	for ev := range events {
		if ev.Kind == engine.JobExited {
			break
		}
	}
	if _, err := c.Job("nope"); !errors.Is(err, engine.ErrNoSuchJob) {
		t.Errorf("unknown job: %v", err)
	}
	if _, err := j.Input([]byte("x")); !errors.Is(err, engine.ErrNotRunning) {
		t.Errorf("input to an ended job: %v, want ErrNotRunning through the wire", err)
	}
}

func TestScreenTravelsWhole(t *testing.T) {
	t.Parallel()
	s := serve(t)
	c := connect(t, s)
	j, err := c.Start(t.Context(), engine.Spec{Command: `printf '\033[1;31mred\033[0m wide:世界 e\xcc\x81\n'; sleep 30`, PTY: true, Cols: 40, Rows: 5})
	if err != nil {
		t.Fatal(err)
	}
	local, _ := s.e.Job(j.id)
	testkit.WaitUntil(t, 10*time.Second, "the screen", func() bool {
		snap, err := local.Screen()
		return err == nil && strings.Contains(snap.Text(), "wide")
	})
	want, _ := local.Screen()
	got, err := j.Screen()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("screen differs:\n got %v\nwant %v", got, want)
	}
	again, err := j.Screen() // unchanged: not sent again, the same one
	if err != nil || again != got {
		t.Errorf("second screen %p (%v), want the cached %p", again, err, got)
	}
	lines, snap, err := j.Scrollback()
	if err != nil || snap == nil || len(lines) != 0 {
		t.Errorf("scrollback: %d lines, %v, %v", len(lines), snap, err)
	}
	j.Kill("test")
	if in := j.Info(); in.Status == engine.Running {
		t.Errorf("killed job is %v", in.Status)
	}
}

func TestRowsPack(t *testing.T) {
	t.Parallel()
	term := vterm.New(20, 3)
	term.Write([]byte("\x1b[4mab\x1b[0m 世 e\xcc\x81\r\n\x1b[42mgreen"))
	snap := term.Snapshot()
	back := packScreen(snap).snapshot()
	if fmt.Sprint(back) != fmt.Sprint(snap) {
		t.Errorf("unpacked\n%v\nwant\n%v", back, snap)
	}
}

func TestApprovalsAndActions(t *testing.T) {
	t.Parallel()
	s := serve(t)
	c := connect(t, s)
	answered := make(chan policy.Answer, 1)
	go func() {
		ans, _ := s.a.Ask(context.Background(), policy.Request{Command: "rm -rf /", Client: "agent"})
		answered <- ans
	}()
	testkit.WaitUntil(t, 10*time.Second, "the request to reach the client", func() bool { return len(c.Pending()) == 1 })
	r := c.Pending()[0]
	if err := c.Decide(r.ID, policy.Answer{Approve: false, Reason: "no", By: "person"}); err != nil {
		t.Fatal(err)
	}
	if ans := <-answered; ans.Approve || ans.Reason != "no" {
		t.Errorf("answer %+v", ans)
	}
	testkit.WaitUntil(t, 10*time.Second, "the outcome", func() bool { return c.Outcome(r.ID) == policy.Decided })
	if err := c.Decide(r.ID, policy.Answer{Approve: true}); !errors.Is(err, policy.ErrNoRequest) {
		t.Errorf("second decision: %v", err)
	}
}

// TestReconnectResumes cuts the connection while a job floods: the client
// says it is lost, reconnects, and reading on by offset gets every byte.
func TestReconnectResumes(t *testing.T) {
	t.Parallel()
	s := serve(t)
	c := connect(t, s)
	links, stop := c.WatchLink()
	defer stop()
	j, err := c.Start(t.Context(), engine.Spec{Command: "seq 1 300000"})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	var off int64
	read := func() (eof bool) {
		ch, err := j.Read(engine.Merged, off, 64<<10)
		if err != nil {
			return false
		}
		got.Write(ch.Data)
		off = ch.Next
		return ch.EOF
	}
	read()
	resume := s.cut()
	for c.Link().Up {
		<-links
	}
	if _, err := j.Read(engine.Merged, off, 10); !errors.Is(err, ErrLost) {
		t.Errorf("read while lost: %v, want ErrLost", err)
	}
	resume()
	for !c.Link().Up {
		<-links
	}
	for !read() {
	}
	var want bytes.Buffer
	for i := 1; i <= 300000; i++ {
		fmt.Fprintln(&want, i)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("read %d bytes across the reconnection, want %d, byte for byte", got.Len(), want.Len())
	}
}

// TestEventsAcrossReconnection: a job that ends while the connection is
// lost is reported as ended once it is back.
func TestEventsAcrossReconnection(t *testing.T) {
	t.Parallel()
	s := serve(t)
	c := connect(t, s)
	_, events, stop := c.Subscribe()
	defer stop()
	links, stopLinks := c.WatchLink()
	defer stopLinks()
	j, err := c.Start(t.Context(), engine.Spec{Command: "cat", Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-events; ev.Kind != engine.JobStarted {
		t.Fatalf("event %v", ev.Kind)
	}
	local, _ := s.e.Job(j.id)
	resume := s.cut()
	for c.Link().Up {
		<-links
	}
	local.CloseInput()
	local.Wait(t.Context())
	resume()
	for ev := range events {
		if ev.Kind == engine.JobExited && ev.Job == j.id {
			break
		}
	}
}

// TestRetryStartsLost: a client whose first connection failed starts lost
// and reconnects; the engine's jobs then come as events.
func TestRetryStartsLost(t *testing.T) {
	t.Parallel()
	s := serve(t)
	if _, err := s.e.Start(t.Context(), engine.Spec{Command: "cat", Interactive: true}); err != nil {
		t.Fatal(err)
	}
	resume := s.cut() // nothing reaches it until resume
	c := Retry(t.Context(), "test", s.dial, nil, errors.New("unreachable"))
	t.Cleanup(c.Close)
	infos, events, stop := c.Subscribe()
	defer stop()
	links, stopLinks := c.WatchLink()
	defer stopLinks()
	if l := c.Link(); l.Up || !strings.Contains(l.Note, "unreachable") || len(infos) != 0 {
		t.Fatalf("link %+v, jobs %v: want lost, saying why, and no jobs", l, infos)
	}
	resume()
	for !c.Link().Up {
		<-links
	}
	if ev := <-events; ev.Kind != engine.JobStarted {
		t.Fatalf("event %v, want the engine's job", ev.Kind)
	}
}

// TestActivityBounded: a client keeps the most recent calls of the
// Activity record, however many the engine sends over time.
func TestActivityBounded(t *testing.T) {
	t.Parallel()
	c := newClient(t.Context(), "test", nil, nil)
	defer c.cancel()
	for seq := uint64(1); seq <= 3*keepCalls; {
		var a Activity
		for range 100 {
			a.Calls = append(a.Calls, Call{Seq: seq, Tool: "terminal_exec"})
			seq++
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		c.note(message{Method: mActivity, Params: b})
	}
	calls := c.Since(0)
	if len(calls) > keepCalls+keepCalls/4 || calls[len(calls)-1].Seq != 3*keepCalls {
		t.Fatalf("kept %d calls, the last %d: want at most %d, the most recent", len(calls), calls[len(calls)-1].Seq, keepCalls+keepCalls/4)
	}
}
