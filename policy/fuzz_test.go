package policy

import (
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
