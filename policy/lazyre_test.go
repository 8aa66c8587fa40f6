package policy

import (
	"strings"
	"testing"
)

// TestRegexpNeeds checks each prefiltered expression's need against
// every corpus command and each of its words: a string the expression
// matches that need rules out would be a match silently lost.
func TestRegexpNeeds(t *testing.T) {
	if len(prefiltered) == 0 {
		t.Fatal("no prefiltered expressions")
	}
	var tried []string
	for _, r := range loadCorpus(t) {
		tried = append(tried, r.cmd)
		for _, f := range strings.Fields(r.cmd) {
			tried = append(tried, f, strings.Trim(f, `"'`))
		}
	}
	for _, l := range prefiltered {
		matched := 0
		for _, s := range tried {
			if l.get().MatchString(s) {
				matched++
				if !l.need(s) {
					t.Errorf("%s matches %q, which its need rules out", l.src, s)
				}
			}
		}
		if matched == 0 {
			t.Errorf("%s matches nothing in the corpus: its need is untested", l.src)
		}
	}
}
