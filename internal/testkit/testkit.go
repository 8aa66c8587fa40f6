// Package testkit holds the helpers tend's tests share: private state
// dirs, polling for a condition, a scratch git repository, go-sdk clients
// (in memory or over HTTP), MCP calls decoded into Go values, and processes
// that try to escape their job, counted from /proc. Only tests import it.
package testkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PrivateDir is a new directory, mode 0700, as tend requires of its state
// dir (t.TempDir's own are 0755 under umask 022).
func PrivateDir(t testing.TB) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "st")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}

// WriteFile writes text to a new file name in a new temporary directory,
// mode 0600, and returns its path.
func WriteFile(t testing.TB, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// WaitUntil polls cond every few milliseconds until it holds, and fails
// the test if it does not within d. Use it for what nothing tells of.
func WaitUntil(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ScratchRepo is a git work tree whose origin is a local bare repository:
// main was pushed, then the local commit was rewritten, so only a force
// push moves the remote. git runs a git command in the work tree.
func ScratchRepo(t testing.TB) (dir string, git func(args ...string) string) {
	t.Helper()
	dir = t.TempDir()
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "--bare", "remote.git")
	git("init", "-q", "work")
	dir = filepath.Join(dir, "work")
	git("commit", "-q", "--allow-empty", "-m", "one")
	git("remote", "add", "origin", "../remote.git")
	git("push", "-q", "origin", "HEAD:main")
	git("commit", "-q", "--amend", "--allow-empty", "-m", "rewritten")
	return dir, git
}

// Call calls a tool and, unless the result is a tool error, decodes its
// structured content into out (which may be nil). A protocol error fails
// the test; a tool error is returned for the test to look at.
func Call(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if out != nil && !res.IsError {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: decode %s: %v", tool, b, err)
		}
	}
	return res
}

// CallOK is [Call] for a call that must succeed: a tool error fails the
// test.
func CallOK(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res := Call(t, cs, tool, args, out)
	if res.IsError {
		t.Fatalf("%s: tool error: %s", tool, Text(res))
	}
	return res
}

// Text is the text content of a result: a tool error's sentence.
func Text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// Connect connects a go-sdk client named name (with options opts, which
// may be nil) to server over in-memory transports; both ends close when
// the test ends.
func Connect(t testing.TB, server *mcp.Server, name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "9"}, opts)
	CheckResults(t, client)
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// ConnectHTTP connects a go-sdk client named name to the Streamable HTTP
// endpoint url, sending token as its bearer token on every request; the
// session closes when the test ends.
func ConnectHTTP(t testing.TB, url, token, name string) *mcp.ClientSession {
	t.Helper()
	return ConnectHTTPVersion(t, url, token, name, "")
}

// ConnectHTTPVersion is [ConnectHTTP] speaking protocol revision version
// ("": the newest the SDK speaks).
func ConnectHTTPVersion(t testing.TB, url, token, name, version string) *mcp.ClientSession {
	t.Helper()
	return ConnectHTTPWith(t, url, token, name, version, nil)
}

// ConnectHTTPWith is [ConnectHTTPVersion] with client options (an
// elicitation handler …).
func ConnectHTTPWith(t testing.TB, url, token, name, version string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: bearer(token)}
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "9"}, copts)
	CheckResults(t, client)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, opts)
	if err != nil {
		t.Fatalf("connect %s over HTTP: %v", name, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// bearer is a round tripper that adds itself as the bearer token.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// Escapes is a command line that starts processes leaving their job every
// way known: a new session without the job's environment (env -i setsid),
// the markers unset and a forked session (setsid -f), a double fork,
// nohup, a new session without environment that ignores TERM and HUP, and
// a new session with a forged marker, orphaned. Each sleeps for mark
// seconds (see [NewMark]); it prints "started".
func Escapes(mark string) string {
	return fmt.Sprintf(`env -i setsid sleep %[1]s & `+
		`(unset TEND_JOB TEND_ENGINE; setsid -f sleep %[1]s) & `+
		`(sleep %[1]s &) ; nohup sleep %[1]s >/dev/null 2>&1 & `+
		`env -i setsid sh -c 'trap "" TERM HUP; sleep %[1]s' & `+
		`(TEND_JOB=999 TEND_ENGINE=forged setsid sleep %[1]s &) ; `+
		`echo started`, mark)
}

// EscapesPerJob is how many processes [Escapes] leaves running, at least.
const EscapesPerJob = 6

// NewMark is a sleep length no other process has: 600 seconds and a random
// fraction. [CountMarked] finds the processes sleeping it.
func NewMark() string { return fmt.Sprintf("600.%07d", rand.IntN(10_000_000)) }

// CountMarked counts the live processes whose command line holds mark,
// from /proc: no marker, session or cgroup of tend's is needed to see them.
func CountMarked(mark string) int { return len(Marked(mark)) }

// Marked lists the pids of the live processes whose command line holds
// mark.
func Marked(mark string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Contains(b, []byte(mark)) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil && !zombie(st) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// zombie reports whether /proc/<pid>/stat says the process is a zombie.
func zombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
