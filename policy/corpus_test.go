package policy

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusRow is one line of a corpus file (testdata/*.tsv).
type corpusRow struct {
	file        string
	line        int
	destructive bool
	cmd, note   string
}

// kind is the row's kind: the tag its note starts with ("[remote] …").
func (r corpusRow) kind() string {
	if k, _, ok := strings.Cut(strings.TrimPrefix(r.note, "["), "]"); ok && strings.HasPrefix(r.note, "[") {
		return k
	}
	return "other"
}

func (r corpusRow) String() string { return fmt.Sprintf("%s:%d", r.file, r.line) }

// testEnv is where corpus commands are imagined to run: a project under
// the home directory, as for most users.
var testEnv = Env{Cwd: "/home/user/project", Home: "/home/user"}

// loadCorpus reads every corpus file in testdata. Encoding (their
// headers): a doubled backslash is one backslash, backslash-n is a
// newline, no other escapes.
func loadCorpus(tb testing.TB) []corpusRow {
	tb.Helper()
	files, err := filepath.Glob("testdata/*.tsv")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no corpus in testdata: %v", err)
	}
	var rows []corpusRow
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		n := 0
		for sc.Scan() {
			n++
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			parts := strings.SplitN(line, "\t", 3)
			if len(parts) != 3 || (parts[0] != "destructive" && parts[0] != "safe") {
				tb.Fatalf("%s line %d: malformed: %q", name, n, line)
			}
			rows = append(rows, corpusRow{file: filepath.Base(name), line: n, destructive: parts[0] == "destructive", cmd: decodeCorpus(parts[1]), note: parts[2]})
		}
		if err := sc.Err(); err != nil {
			tb.Fatal(err)
		}
		f.Close()
	}
	return rows
}

func decodeCorpus(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '\\':
				sb.WriteByte('\\')
				i++
				continue
			case 'n':
				sb.WriteByte('\n')
				i++
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// classifyT is Classify for tests that check a class: on this shared
// 2-core machine under -race a descheduled goroutine can overrun the 50 ms
// budget, which is fail-safe but not what those tests are about, so an
// overrun is logged and retried. TestBudget covers the budget itself.
func classifyT(tb testing.TB, cmd string) Result {
	tb.Helper()
	for try := 0; ; try++ {
		r := Classify(cmd, testEnv)
		if try == 3 || !overran(r) {
			return r
		}
		tb.Logf("budget overrun on %.80q, retrying", cmd)
	}
}

func overran(r Result) bool {
	return len(r.Reasons) > 0 && strings.HasPrefix(r.Reasons[0], "classification took longer than")
}

// maxFalsePositive is the share of safe rows that may be held.
const maxFalsePositive = 0.05

// TestCorpus: every destructive row is held (Destructive or Unparseable);
// at most 5 % of safe rows are.
func TestCorpus(t *testing.T) {
	t.Parallel()
	rows := loadCorpus(t)
	safe, held := 0, 0
	for _, r := range rows {
		got := classifyT(t, r.cmd)
		if r.destructive {
			if !got.Class.Held() {
				t.Errorf("%s: %q classified %v, want held (%s)", r, r.cmd, got.Class, r.note)
			} else if len(got.Reasons) == 0 {
				t.Errorf("%s: %q held without a reason", r, r.cmd)
			}
			continue
		}
		safe++
		if got.Class.Held() {
			held++
			t.Logf("false positive, %s: %q → %v %q", r, r.cmd, got.Class, got.Reasons)
		}
	}
	rate := float64(held) / float64(safe)
	t.Logf("safe rows held: %d of %d (%.1f %%)", held, safe, 100*rate)
	if rate > maxFalsePositive {
		t.Errorf("false positives %.1f %% > %.0f %%", 100*rate, 100*maxFalsePositive)
	}
}

// TestProbe prints the classification of $POLICY_PROBE (newline-separated
// commands); a debugging aid, skipped otherwise.
func TestProbe(t *testing.T) {
	probe := os.Getenv("POLICY_PROBE")
	if probe == "" {
		t.Skip("set POLICY_PROBE")
	}
	for _, c := range strings.Split(probe, "\n") {
		r := Classify(c, testEnv)
		t.Logf("%-50q %v %q", c, r.Class, r.Reasons)
		for _, cmd := range r.Commands {
			t.Logf("    %q %v %q", cmd.Argv, cmd.Class, cmd.Reasons)
		}
	}
}
