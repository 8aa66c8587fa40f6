package policy

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// ErrNotBash is returned (wrapped) by [ParseRule] for a well-formed rule that
// names another tool, such as "Read(./src/**)". Callers that share a Claude
// Code settings file can skip such rules with errors.Is.
var ErrNotBash = errors.New("not a Bash rule")

// Rule is a parsed Claude Code permission rule for the Bash tool:
// "Bash" or "Bash(*)" matches every command, "Bash(npm run test:*)" matches
// a simple command whose argv joined with spaces is "npm run test" or
// starts with "npm run test ", and "Bash(git status)" matches exactly.
type Rule struct {
	raw    string
	all    bool
	prefix bool
	text   string // expected argv joined with single spaces
}

// ParseRule parses and validates one permission rule.
func ParseRule(s string) (Rule, error) {
	raw := s
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	tool := s
	if open >= 0 {
		tool = s[:open]
	}
	if tool == "" || strings.ContainsAny(tool, " \t)") {
		return Rule{}, fmt.Errorf("rule %q: want Bash or Bash(pattern)", raw)
	}
	if tool != "Bash" {
		return Rule{}, fmt.Errorf("rule %q: %w", raw, ErrNotBash)
	}
	if open < 0 {
		return Rule{raw: raw, all: true}, nil
	}
	if !strings.HasSuffix(s, ")") {
		return Rule{}, fmt.Errorf("rule %q: missing closing parenthesis", raw)
	}
	pat := strings.TrimSpace(s[open+1 : len(s)-1])
	if pat == "" {
		return Rule{}, fmt.Errorf("rule %q: empty pattern", raw)
	}
	if pat == "*" {
		return Rule{raw: raw, all: true}, nil
	}
	r := Rule{raw: raw}
	if p, ok := strings.CutSuffix(pat, ":*"); ok {
		r.prefix = true
		pat = strings.TrimSpace(p)
		if pat == "" {
			return Rule{}, fmt.Errorf("rule %q: empty prefix before :*", raw)
		}
	}
	if strings.Contains(pat, "*") {
		return Rule{}, fmt.Errorf("rule %q: the only wildcard is a trailing :*", raw)
	}
	text, err := ruleText(pat)
	if err != nil {
		return Rule{}, fmt.Errorf("rule %q: %w", raw, err)
	}
	r.text = text
	return r, nil
}

// String returns the rule as it was written.
func (r Rule) String() string { return r.raw }

// Match reports whether the rule matches the simple command c, one of
// [Result.Commands]. A command with no argv (a parse failure, a fork bomb)
// and a word that could not be expanded are matched only by the catch-all.
func (r Rule) Match(c Command) bool {
	if r.all {
		return true
	}
	if len(c.match) == 0 {
		return false
	}
	got := strings.Join(c.match, " ")
	if got == r.text {
		return true
	}
	return r.prefix && strings.HasPrefix(got, r.text+" ")
}

// Validate parses every rule and returns the first error. Rules naming other
// tools (see [ErrNotBash]) are not errors.
func (rs Rules) Validate() error {
	for _, list := range [][]string{rs.Allow, rs.Ask, rs.Deny} {
		for _, s := range list {
			if _, err := ParseRule(s); err != nil && !errors.Is(err, ErrNotBash) {
				return err
			}
		}
	}
	return nil
}

// compile parses a list, dropping rules that do not parse (see [Policy.Check]).
func compile(list []string) []Rule {
	out := make([]Rule, 0, len(list))
	for _, s := range list {
		if r, err := ParseRule(s); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// ruleText turns a rule's command pattern into the argv text it matches,
// by parsing it as shell words, so that Bash(git commit -m "wip") matches
// the command git commit -m "wip". A pattern that is not a plain command
// (or uses $vars) is compared as written, with runs of spaces collapsed.
func ruleText(pat string) (string, error) {
	if strings.ContainsRune(pat, 0) {
		return "", errors.New("pattern contains a NUL byte")
	}
	if f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(pat), ""); err == nil &&
		len(f.Stmts) == 1 && len(f.Stmts[0].Redirs) == 0 {
		if ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Assigns) == 0 {
			cfg := &expand.Config{NoUnset: true, ProcSubst: func(*syntax.ProcSubst) (string, error) { return "", errProcSubst }}
			var out []string
			ok := true
			for _, w := range ce.Args {
				if braceCount(w) > 1 || !boundedWord(w, nil) {
					ok = false
					break
				}
				fs, err := expand.Fields(cfg, w)
				if err != nil {
					ok = false
					break
				}
				out = append(out, fs...)
			}
			if ok && len(out) > 0 {
				return strings.Join(out, " "), nil
			}
		}
	}
	return strings.Join(strings.Fields(pat), " "), nil
}
