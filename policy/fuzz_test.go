package policy

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzClassify: any input classifies without a panic or a hang, to a valid
// class, with reasons for held results (RELIABILITY S3). Seeded with the
// corpus; crashers live in testdata/fuzz/FuzzClassify.
//
//	go test -run='^$' -fuzz=FuzzClassify -fuzztime=30s ./policy
func FuzzClassify(f *testing.F) {
	for _, r := range loadCorpus(f) {
		f.Add(r.cmd)
	}
	for _, s := range []string{"echo ${HOME//?/x}", "rm -rf ${HOME:-/}", "printf '%5s' x | sh", "cd .. && rm -rf *", "find . -exec rm {} +", "cat <(id)", "echo {a,b}{c,d}{e,f}", "bash -c \"bash -c 'ls'\"", "f(){ f|f& };f", "> ~/.bashrc", "x=1", "git -c core.pager='less' log"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		start := time.Now()
		r := Classify(cmd, testEnv)
		// The budget is 50 ms between steps; one step that runs for seconds
		// (an expansion bomb) is a bug even though the result is fail-safe.
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("Classify(%.200q) took %v", cmd, d)
		}
		if r.Class < ReadOnly || r.Class > Unparseable {
			t.Fatalf("Classify(%q) = invalid class %d", cmd, r.Class)
		}
		if r.Class.Held() && len(r.Reasons) == 0 {
			t.Fatalf("Classify(%q) = %v without a reason", cmd, r.Class)
		}
		for _, c := range r.Commands {
			if c.Class > r.Class {
				t.Fatalf("Classify(%q): command %q is %v, above the result %v", cmd, c.Argv, c.Class, r.Class)
			}
		}
		// Check must agree with the classification in the default mode.
		v := Policy{Mode: ModeDestructive}.Check(cmd, testEnv)
		if (v.Decision == Ask) != v.Class.Held() {
			t.Fatalf("Check(%q) = %v for class %v", cmd, v.Decision, v.Class)
		}
	})
}

// TestCostLinear: for inputs that grow in every direction a command can
// (nesting, length, pipelines, heredocs, expansions), classifying four
// times the input allocates at most about four times as much, and the
// reasons stay bounded (RELIABILITY S3). Counted in allocations, not time,
// so it holds on any machine; not parallel, as allocations are counted
// process-wide.
func TestCostLinear(t *testing.T) {
	shapes := map[string]func(n int) string{
		"nested substitutions": func(n int) string {
			return strings.Repeat("rm -rf /a$(", n) + "x" + strings.Repeat(")", n)
		},
		"pipeline into a shell": func(n int) string { return strings.Repeat("cat f | tee x | ", n) + "sh" },
		"sequence":              func(n int) string { return strings.Repeat("rm -rf ~/x && git push -f; ", n) },
		"long word":             func(n int) string { return "rm -rf ~/" + strings.Repeat("x", 16*n) },
		"heredocs": func(n int) string {
			return strings.Repeat("bash <<EOF\nrm -rf ~/x\nEOF\n", n)
		},
		"wrappers":    func(n int) string { return strings.Repeat("sudo env timeout 5 nice ", n) + "rm -rf /" },
		"braces":      func(n int) string { return "echo " + strings.Repeat("{a,b}", n) },
		"quoted -c":   func(n int) string { return "bash -c " + strconv.Quote(strings.Repeat("rm -rf ~/y; ", n)) },
		"sql":         func(n int) string { return "psql -c '" + strings.Repeat("DROP TABLE t; ", n) + "'" },
		"interp":      func(n int) string { return "python3 -c '" + strings.Repeat("os.remove(\"/etc/x\"); ", n) + "'" },
		"unknown cli": func(n int) string { return "vendorcli " + strings.Repeat("delete-thing ", n) },
	}
	for name, shape := range shapes {
		small, large := shape(60), shape(240)
		if len(large) > maxInput {
			t.Fatalf("%s: %d bytes is over the input limit", name, len(large))
		}
		allocs := func(cmd string) float64 {
			return testing.AllocsPerRun(3, func() { Classify(cmd, testEnv) })
		}
		a, b := allocs(small), allocs(large)
		t.Logf("%s: %.0f → %.0f", name, a, b)
		if b > 6*a+200 {
			t.Errorf("%s: %d bytes allocate %.0f times, %d bytes %.0f times: more than linear", name, len(small), a, len(large), b)
		}
		size := 0
		for _, why := range Classify(large, testEnv).Reasons {
			size += len(why)
		}
		if size > 8<<10 {
			t.Errorf("%s: %d bytes of reasons", name, size)
		}
	}
}
