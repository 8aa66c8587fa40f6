package policy

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// arg is one expanded field of a command. A word that cannot be expanded
// statically ($var, $(…), an unset variable) becomes one arg with ok false;
// src keeps its source text for display.
type arg struct {
	s    string
	ok   bool
	src  string
	item bool // unknown, but an operand: items xargs reads (file names, not options)
}

// shown is the argument as written, cut for a reason a person reads: a
// word can hold a whole command substitution, and a reason quoting each
// nested one whole would grow with the square of the command.
func (a arg) shown() string { return cutText(a.src) }

// maxShown is the most of a written word a reason quotes.
const maxShown = 160

// cutText cuts s to about maxShown bytes, on a rune boundary, saying how
// much was left out.
func cutText(s string) string {
	if len(s) <= maxShown {
		return s
	}
	i := maxShown
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return fmt.Sprintf("%s…[%d more bytes]", s[:i], len(s)-i)
}

// unknownWord stands for an unexpandable word when matching rules: it
// contains NUL, which no command or rule can, so it equals nothing.
const unknownWord = "\x00?"

var errProcSubst = errors.New("process substitution is not expanded statically")

// expandConfig is the static expansion environment: only the variables we
// know (HOME and PWD), NoUnset so that any other variable is an error
// instead of "", and a ProcSubst handler because expand calls it without a
// nil check (V9). CmdSubst stays nil, which makes $(…) an error.
//
// Configs are cached per (cwd, remote): building one allocates, and a
// classification reuses a handful of them many times (one at a time: a
// Config is not safe for concurrent use, nor is a classifier).
func (c *classifier) expandConfig(sc *scope) *expand.Config {
	key := cfgKey{sc.cwd, sc.remote, sc.vars, sc.params}
	if cfg, ok := c.cfgs[key]; ok {
		return cfg
	}
	if c.cfgs == nil {
		c.cfgs = map[cfgKey]*expand.Config{}
	}
	cfg := c.newExpandConfig(sc)
	c.cfgs[key] = cfg
	return cfg
}

type cfgKey struct {
	cwd    string
	remote bool
	vars   *varTable
	params *[]string
}

func (c *classifier) newExpandConfig(sc *scope) *expand.Config {
	home := c.home
	if sc.remote {
		home = remoteHome
	}
	vars := []string{"HOME=" + home}
	if sc.cwd != "" && !sc.remote {
		vars = append(vars, "PWD="+sc.cwd)
	}
	if t := c.tmpdir; t != "" && !sc.remote {
		vars = append(vars, "TMPDIR="+t)
	}
	cfg := &expand.Config{
		Env:       freshEnv{expand.ListEnviron(vars...), c},
		NoUnset:   true,
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "", errProcSubst },
	}
	if sc.vars != nil {
		cfg.Env = scriptEnv{cfg.Env, c, sc.vars}
	}
	if sc.params != nil {
		cfg.Env = paramEnv{cfg.Env, *sc.params}
	}
	at := *sc
	cfg.CmdSubst = c.staticSubst(&at)
	return cfg
}

// freshEnv is the static environment with the parameters the shell makes
// afresh for each run ($$, $BASHPID, $RANDOM, $SRANDOM, $EPOCHSECONDS,
// $EPOCHREALTIME) expanding to themselves as written: digits (and a
// decimal point) whatever they are, never a / or .., so /tmp/x-$$ is a
// path in /tmp and a name made with them is this run's own (vars.go).
type freshEnv struct {
	expand.Environ
	c *classifier
}

func (e freshEnv) Get(name string) expand.Variable {
	switch {
	case name == "$":
		e.c.readFresh = true
		return expand.Variable{Set: true, Kind: expand.String, Str: "$$"}
	case freshParams[name]:
		e.c.readFresh = true
		return expand.Variable{Set: true, Kind: expand.String, Str: "${" + name + "}"}
	}
	return e.Environ.Get(name)
}

// errBraces means a word would expand to too many fields (V12: 18 chained
// {a,b} allocate 82 MiB inside expand before its own limit refuses).
var errBraces = errors.New("brace expansion too large")

// fields expands each word on its own, so one unexpandable word does not
// hide the others. It fails only with errBraces.
func (c *classifier) fields(sc *scope, words []*syntax.Word) ([]arg, error) {
	out := make([]arg, 0, len(words))
	total := 0
	var cfg *expand.Config
	for _, w := range words {
		if s, ok := plainWord(w); ok {
			out = append(out, arg{s: s, ok: true, src: s})
			total++
			continue
		}
		if cfg == nil {
			cfg = c.expandConfig(sc)
		}
		n := braceCount(w)
		total += n
		if n > maxFields || total > maxCmdFields {
			return nil, errBraces
		}
		if a, ok := listingWord(sc, w); ok { // rm $(git ls-files '*.py'): the tree's files
			out = append(out, a)
			continue
		}
		if !boundedWord(w, sc.vars) {
			out = append(out, arg{src: wordSource(sc.src, w)})
			continue
		}
		c.pos = w.Pos().Offset()
		fs, err := expand.Fields(cfg, w)
		if err != nil {
			out = append(out, arg{src: wordSource(sc.src, w)})
			continue
		}
		src := ""
		if len(fs) == 1 {
			src = wordSource(sc.src, w) // reasons show what was written
		}
		for _, f := range fs {
			if n > 1 && strings.HasPrefix(f, "~") && unquotedBraceTilde(w) {
				f = braceTilde(cfg, f)
			}
			out = append(out, arg{s: f, ok: true, src: cmp.Or(src, f)})
		}
	}
	return out, nil
}

// boundedWord reports whether expanding w statically is cheap. Parameter
// expansions with operators can nest into an exponential string bomb:
// ${HOME//?/${HOME//?/…}} eight deep took 114 s and 5.8 GiB inside expand.
// Only $NAME, ${NAME}, ${#NAME}, ${NAME:?msg} and a known array's elements by number
// (${f[0]}, "${f[@]}") are expanded; any other form is left
// unexpanded (unknown), which is the conservative answer anyway.
//
// arrays, when not nil, holds the script's arrays whose elements are
// known (vars.go): only their elements are taken by index, since an array
// no one assigned expands to nothing ("${dirs[@]}" after mapfile).
func boundedWord(w *syntax.Word, arrays *varTable) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false // an error for expand, and walked separately
		case *syntax.ParamExp:
			if x.Excl && !knownIndirect(x, arrays, w.Pos().Offset()) {
				ok = false
			}
			if x.Param == nil || x.Flags != nil || x.Width || x.IsSet || x.NestedParam != nil ||
				x.Index != nil && !(plainIndex(x.Index) && arrays.array(x.Param.Value, w.Pos().Offset())) || len(x.Modifiers) > 0 ||
				x.Slice != nil && !plainSlice(x.Slice) || x.Repl != nil || x.Names != 0 || x.Exp != nil && !guardOnly(x.Exp) && !knownDefault(x, arrays, w.Pos().Offset()) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// knownIndirect reports whether ${!ref} names, by the value the script
// gives ref, a variable of the script whose value is known there
// (ref=cmd; ${!ref}): expand takes any other name as empty.
func knownIndirect(x *syntax.ParamExp, vars *varTable, pos uint) bool {
	if x.Param == nil || x.Names != 0 || x.Index != nil || x.Slice != nil || x.Repl != nil || x.Exp != nil || x.Length || len(x.Modifiers) > 0 {
		return false
	}
	ref, ok := vars.at(x.Param.Value, pos)
	if !ok || ref.list != nil || ref.fresh || !syntax.ValidName(ref.value) {
		return false
	}
	v, ok := vars.at(ref.value, pos)
	return ok && v.list == nil
}

// plainSlice reports whether a substring or array slice's offset and
// length are numbers written out: ${a[@]:2}, ${s:0:7}.
func plainSlice(sl *syntax.Slice) bool {
	digits := func(e syntax.ArithmExpr) bool {
		w, ok := e.(*syntax.Word)
		s := ""
		if ok {
			s = litOf(w)
		}
		return s != "" && len(s) <= 4 && strings.Trim(s, "0123456789") == ""
	}
	return sl.Offset != nil && digits(sl.Offset) && (sl.Length == nil || digits(sl.Length))
}

// guardOnly reports whether a parameter operator only stops the shell
// when the variable is unset or empty, with a message written out
// (${BUILD_DIR:?}, ${x?not set}): the word is the variable's value or
// nothing runs. An unknown variable stays unknown (expand fails on it).
func guardOnly(e *syntax.Expansion) bool {
	if e.Op != syntax.ErrorUnsetOrNull && e.Op != syntax.ErrorUnset {
		return false
	}
	if e.Word == nil {
		return true
	}
	_, ok := plainWord(e.Word)
	return ok || len(e.Word.Parts) == 0
}

// knownDefault reports whether x is ${v:-word} or ${v-word} (or :+, +)
// with v a variable the script sets to a value known where x is read
// (c=rm; ${c:-rm}): which of the two it gives is known, and expand picks
// it.
func knownDefault(x *syntax.ParamExp, vars *varTable, pos uint) bool {
	switch x.Exp.Op {
	case syntax.DefaultUnsetOrNull, syntax.DefaultUnset, syntax.AlternateUnsetOrNull, syntax.AlternateUnset:
	default:
		return false
	}
	v, ok := vars.at(x.Param.Value, pos)
	return ok && v.list == nil && (x.Exp.Word == nil || boundedWord(x.Exp.Word, vars))
}

// plainIndex reports whether an array index is a number written out, @ or
// *: ${f[0]}, "${f[@]}"; nothing to compute.
func plainIndex(ix syntax.ArithmExpr) bool {
	w, ok := ix.(*syntax.Word)
	if !ok {
		return false
	}
	s := litOf(w)
	return s == "@" || s == "*" || s != "" && len(s) <= 4 && strings.Trim(s, "0123456789") == ""
}

// literal expands w to one string (no field splitting), as for assignment
// values and here-strings, with the same bounds as fields.
func (c *classifier) literal(sc *scope, w *syntax.Word) (string, bool) {
	if braceCount(w) > 1 || !boundedWord(w, sc.vars) {
		return "", false
	}
	c.pos = w.Pos().Offset()
	s, err := expand.Literal(c.expandConfig(sc), w)
	return s, err == nil
}

// plainWords are the values of words that are all plain (plainWord).
func plainWords(ws []*syntax.Word) ([]string, bool) {
	words := make([]string, 0, len(ws))
	for _, w := range ws {
		lit, ok := plainWord(w)
		if !ok {
			return nil, false
		}
		words = append(words, lit)
	}
	return words, true
}

// plainWord is the fast path of fields: a word that is one literal with
// nothing to expand (no escapes, braces or leading tilde), or one
// single-quoted string, is its own value.
func plainWord(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		if strings.ContainsAny(p.Value, "\\{~") {
			return "", false
		}
		return p.Value, true
	case *syntax.SglQuoted:
		if p.Dollar {
			return "", false
		}
		return p.Value, true
	}
	return "", false
}

// wordSource is the text of w in src, or a printed form if positions do not
// fit (a word built by us).
func wordSource(src string, w *syntax.Word) string {
	a, b := int(w.Pos().Offset()), int(w.End().Offset())
	if 0 <= a && a <= b && b <= len(src) {
		return src[a:b]
	}
	var sb strings.Builder
	_ = syntax.NewPrinter().Print(&sb, w)
	return sb.String()
}

// braceCount returns how many fields brace expansion makes of w, capped
// just above maxFields. It splits a shallow copy, as expand does, so the
// parsed tree never holds BraceExp nodes (syntax.Walk panics on them, V10).
func braceCount(w *syntax.Word) int {
	cp := *w
	if !syntax.SplitBraces(&cp) {
		return 1
	}
	return countParts(cp.Parts)
}

func countParts(parts []syntax.WordPart) int {
	n := 1
	for _, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		m := 0
		if br.Sequence {
			m = seqLen(br)
		} else {
			for _, e := range br.Elems {
				m += countParts(e.Parts)
				if m > maxFields {
					break
				}
			}
		}
		n *= max(m, 1)
		if n > maxFields {
			return maxFields + 1
		}
	}
	return n
}

// seqLen is the length of {x..y[..step]}.
func seqLen(br *syntax.BraceExp) int {
	if len(br.Elems) < 2 {
		return 1
	}
	from, to := litOf(br.Elems[0]), litOf(br.Elems[1])
	a, err1 := strconv.ParseInt(from, 10, 64)
	b, err2 := strconv.ParseInt(to, 10, 64)
	if err1 != nil || err2 != nil {
		if from == "" || to == "" {
			return 1
		}
		a, b = int64(from[0]), int64(to[0])
	}
	d := b - a
	if d < 0 {
		d = -d
	}
	step := int64(1)
	if len(br.Elems) > 2 {
		if s, err := strconv.ParseInt(litOf(br.Elems[2]), 10, 64); err == nil && s != 0 {
			step = max(s, -s)
		}
	}
	if d/step > maxFields {
		return maxFields + 1
	}
	return int(d/step) + 1
}

// litOf is the literal text of a word made only of *syntax.Lit parts.
func litOf(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			return l.Value // most words: no copy
		}
	}
	var sb strings.Builder
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			return ""
		}
		sb.WriteString(l.Value)
	}
	return sb.String()
}

// strs returns the values of args and whether all were known.
func strs(args []arg) ([]string, bool) {
	out := make([]string, len(args))
	ok := true
	for i, a := range args {
		out[i] = a.s
		ok = ok && a.ok
	}
	return out, ok
}

// argsOf wraps known strings as args.
func argsOf(ss ...string) []arg {
	out := make([]arg, len(ss))
	for i, s := range ss {
		out[i] = arg{s: s, ok: true, src: s}
	}
	return out
}

// holds reports whether some node under w matches.
func holds(w *syntax.Word, match func(syntax.Node) bool) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		found = found || match(n)
		return !found
	})
	return found
}

// isSubst reports whether n is a command or process substitution.
func isSubst(n syntax.Node) bool {
	switch n.(type) {
	case *syntax.CmdSubst, *syntax.ProcSubst:
		return true
	}
	return false
}

// unquotedBraceTilde reports whether w opens with an unquoted brace
// expansion ({~,/tmp}/.ssh): bash expands braces before tildes, so a
// field it makes that starts with ~ is the home directory, which
// expand.Fields leaves as written.
func unquotedBraceTilde(w *syntax.Word) bool {
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(l.Value, "{")
}

// braceTilde expands the tilde prefix of a field brace expansion made (~/.ssh,
// ~user/.ssh) as bash does; a field it cannot expand stays as it was.
func braceTilde(cfg *expand.Config, f string) string {
	end := strings.IndexByte(f, '/')
	if end < 0 {
		end = len(f)
	}
	if strings.ContainsAny(f[:end], "*?[$'\"\\") {
		return f
	}
	s, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: f[:end]}}})
	if err != nil || strings.HasPrefix(s, "~") {
		return f
	}
	return s + f[end:]
}

// paramEnv gives a function's body the positional parameters its call
// passed, all known statically (f(){ rm "$@"; }; f -rf ~/.ssh is rm -rf
// ~/.ssh): "$@", $*, $#, $1 … $9; one past the last is unset, as it is.
type paramEnv struct {
	expand.Environ
	params []string
}

func (e paramEnv) Get(name string) expand.Variable {
	switch {
	case name == "@" || name == "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: e.params}
	case name == "#":
		return expand.Variable{Set: true, Kind: expand.String, Str: strconv.Itoa(len(e.params))}
	case len(name) == 1 && name[0] >= '1' && name[0] <= '9':
		if i := int(name[0] - '1'); i < len(e.params) {
			return expand.Variable{Set: true, Kind: expand.String, Str: e.params[i]}
		}
	}
	return e.Environ.Get(name)
}
