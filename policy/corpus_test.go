package policy

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
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

// overran reports whether classification ran out of its time budget: the
// reason says so, after any the classifier had found by then.
func overran(r Result) bool {
	return slices.ContainsFunc(r.Reasons, func(why string) bool { return strings.HasPrefix(why, "classification took longer than") })
}

// The bounds the corpus holds the classifier to: the share of destructive
// rows it must hold, and of safe rows it may.
const (
	minRecall        = 0.99
	maxFalsePositive = 0.02
)

// TestCorpus: at least 99 % of destructive rows are held (Destructive or
// Unparseable), each with a reason, and at most 2 % of safe rows are; the
// figures for each kind of row are logged, and every miss.
func TestCorpus(t *testing.T) {
	t.Parallel()
	type tally struct{ held, total int }
	kinds := map[string]*tally{}
	var destructive, safe tally
	for _, r := range loadCorpus(t) {
		got := classifyT(t, r.cmd)
		label := "safe " + r.kind()
		if r.destructive {
			label = "destructive " + r.kind()
		}
		k := kinds[label]
		if k == nil {
			k = &tally{}
			kinds[label] = k
		}
		k.total++
		all := &safe
		if r.destructive {
			all = &destructive
		}
		all.total++
		if !got.Class.Held() {
			if r.destructive {
				t.Logf("miss, %s: %q classified %v (%s)", r, r.cmd, got.Class, r.note)
			}
			continue
		}
		k.held++
		all.held++
		switch {
		case !r.destructive:
			t.Logf("false positive, %s: %q → %v %q", r, r.cmd, got.Class, got.Reasons)
		case len(got.Reasons) == 0:
			t.Errorf("%s: %q held without a reason", r, r.cmd)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(kinds)) {
		k := kinds[name]
		t.Logf("%-24s held %3d of %3d (%.1f %%)", name, k.held, k.total, 100*float64(k.held)/float64(k.total))
	}
	recall := float64(destructive.held) / float64(destructive.total)
	rate := float64(safe.held) / float64(safe.total)
	t.Logf("destructive rows held: %d of %d (%.1f %%); safe rows held: %d of %d (%.1f %%)",
		destructive.held, destructive.total, 100*recall, safe.held, safe.total, 100*rate)
	if recall < minRecall {
		t.Errorf("recall %.1f %% < %.0f %%", 100*recall, 100*minRecall)
	}
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
