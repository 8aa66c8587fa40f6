package policy

import (
	"regexp"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// variant rewrites a command without changing what it does (RELIABILITY S2).
type variant struct {
	name string
	wrap func(tb testing.TB, x string) string
}

func quote(tb testing.TB, x string) string {
	tb.Helper()
	q, err := syntax.Quote(x, syntax.LangBash)
	if err != nil {
		tb.Fatalf("quote %q: %v", x, err)
	}
	return q
}

// after is x followed on its line by s; after a heredoc, whose end must
// stand alone on its line, s goes on the next line.
func after(x, s string) string {
	if strings.Contains(x, "<<") {
		return x + "\n" + strings.TrimLeft(s, "; ")
	}
	return x + s
}

// prefix puts a wrapper before x, unless x starts by setting a variable
// (v=DELETE; curl -X "$v" …): the wrapper would make that assignment a
// command of its own, and the variable unset where it is used.
func prefix(w, x string) string {
	if leadingAssignment.MatchString(x) {
		return x
	}
	return w + x
}

var leadingAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

var destructiveVariants = []variant{
	{"true && X", func(_ testing.TB, x string) string { return "true && " + x }},
	{"X; true", func(_ testing.TB, x string) string { return after(x, "; true") }},
	{"( X)", func(_ testing.TB, x string) string { return "( " + after(x, ")") }}, // "((" would be arithmetic
	{"{ X; }", func(_ testing.TB, x string) string { return "{ " + after(x, "; }") }},
	{"bash -c 'X'", func(tb testing.TB, x string) string { return "bash -c " + quote(tb, x) }},
	{"sh -c 'X'", func(tb testing.TB, x string) string { return "sh -c " + quote(tb, x) }},
	{"sudo X", func(_ testing.TB, x string) string { return prefix("sudo ", x) }},
	{"env X", func(_ testing.TB, x string) string { return prefix("env ", x) }},
	{"timeout 5 X", func(_ testing.TB, x string) string { return prefix("timeout 5 ", x) }},
	{"X # note", func(_ testing.TB, x string) string { return after(x, " # note") }},
	{"X 2>/dev/null", func(_ testing.TB, x string) string { return after(x, " 2>/dev/null") }},
}

var safeVariants = []variant{
	{"time X", func(_ testing.TB, x string) string { return "time " + x }},
	{"X 2>&1", func(_ testing.TB, x string) string { return after(x, " 2>&1") }},
	{"( X)", func(_ testing.TB, x string) string { return "( " + after(x, ")") }}, // "((" would be arithmetic
}

// TestMetamorphic: a variant of a destructive row the classifier holds is
// held too (rewriting a command must not hide it), and each variant of the
// safe rows holds at most 2 % of them.
func TestMetamorphic(t *testing.T) {
	t.Parallel()
	rows := loadCorpus(t)
	var held []corpusRow
	for _, r := range rows {
		if r.destructive && classifyT(t, r.cmd).Class.Held() {
			held = append(held, r)
		}
	}
	for _, v := range destructiveVariants {
		kept := 0
		for _, r := range held {
			cmd := v.wrap(t, r.cmd)
			if got := classifyT(t, cmd); got.Class.Held() {
				kept++
			} else {
				t.Errorf("%s: %s: %q classified %v, want held", v.name, r, cmd, got.Class)
			}
		}
		t.Logf("destructive %-14s held %d/%d", v.name, kept, len(held))
	}
	for _, v := range safeVariants {
		held, total := 0, 0
		for _, r := range rows {
			if r.destructive {
				continue
			}
			total++
			cmd := v.wrap(t, r.cmd)
			if got := classifyT(t, cmd); got.Class.Held() {
				held++
				t.Logf("%s: false positive, %s: %q → %v %q", v.name, r, cmd, got.Class, got.Reasons)
			}
		}
		rate := float64(held) / float64(total)
		t.Logf("safe %-8s held %d/%d (%.1f %%)", v.name, held, total, 100*rate)
		if rate > maxFalsePositive {
			t.Errorf("%s: false positives %.1f %% > %.0f %%", v.name, 100*rate, 100*maxFalsePositive)
		}
	}
}
