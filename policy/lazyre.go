package policy

import (
	"regexp"
	"strings"
	"sync"
)

// lazyRegexp is a regular expression compiled when first used. Every tend
// process links the policy, most never classify a command (a sandboxed
// job's first process, tend attach), and compiling its ~80 expressions at
// start cost each of them 1.5 ms.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
	need func(string) bool // if set, true of every string the expression matches
}

// lazyRE is [regexp.MustCompile], at first use.
func lazyRE(src string) *lazyRegexp { return &lazyRegexp{src: src} }

// lazyREIf is lazyRE for an expression tried on most words of most
// commands, with need, a cheap test true of every string it can match:
// the many words need rules out never reach the regexp engine. Every
// expression made so is checked against need over the corpus
// (TestRegexpNeeds).
func lazyREIf(need func(string) bool, src string) *lazyRegexp {
	l := &lazyRegexp{src: src, need: need}
	prefiltered = append(prefiltered, l)
	return l
}

var prefiltered []*lazyRegexp

func (l *lazyRegexp) can(s string) bool { return l.need == nil || l.need(s) }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) MatchString(s string) bool { return l.can(s) && l.get().MatchString(s) }
func (l *lazyRegexp) FindString(s string) string {
	if !l.can(s) {
		return ""
	}
	return l.get().FindString(s)
}
func (l *lazyRegexp) FindStringIndex(s string) []int {
	if !l.can(s) {
		return nil
	}
	return l.get().FindStringIndex(s)
}
func (l *lazyRegexp) FindStringSubmatch(s string) []string {
	if !l.can(s) {
		return nil
	}
	return l.get().FindStringSubmatch(s)
}
func (l *lazyRegexp) FindAllString(s string, n int) []string {
	if !l.can(s) {
		return nil
	}
	return l.get().FindAllString(s, n)
}
func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	if !l.can(s) {
		return nil
	}
	return l.get().FindAllStringIndex(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	if !l.can(s) {
		return nil
	}
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !l.can(s) {
		return nil
	}
	return l.get().FindAllStringSubmatchIndex(s, n)
}
func (l *lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}
func (l *lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(src, repl)
}
func (l *lazyRegexp) Split(s string, n int) []string { return l.get().Split(s, n) }

// containsFold reports whether s holds sub, an ASCII word, in any case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i]|0x20 == sub[0] && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s begins with prefix, an ASCII word, in
// any case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
