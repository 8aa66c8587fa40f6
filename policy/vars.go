package policy

import (
	"errors"
	"io"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Variables a script sets are expanded where their value is certain: the
// script assigns the variable exactly once, to a value known statically,
// and nothing else in it (read, for, let, declare, ${x:=…}, a word equal
// to the name, here or in code eval or trap runs, however quoted) might
// bind it; and the use comes after the assignment in the text. a=power; b=off; systemctl "$a$b" is systemctl poweroff. A
// value assembled over several statements of one list the shell runs in
// order (the script's, a { … } or ( … ) one's), assignments and appends
// (t=$HOME/.ss; t+=h/x; d=~; d="$d/.ssh"), is as certain: each of them
// runs, in order, and the use sees the value of the last one before it.
// The first may stand after && as a lone assignment may; the rest stand
// alone: after && or in a branch, a loop or a function, a step may not run,
// or run again. export X=v is an assignment as X=v is; where it stands
// as a statement of the script, or leads an && chain there, the commands
// after it are given X (environ). Any other variable stays unknown, as
// before, and is judged as such.
//
// The parameters the shell makes afresh for each run ($$, $RANDOM …)
// expand to themselves as written (freshEnv), so a value made of them and
// literals is known (name=bench-$$ gives "/tmp/$name" the value
// /tmp/bench-$$): they stand for digits, never a / or .., so a path built
// so lies where its literals put it. A name made so, or with $(date +%s)
// (whose text stays unknown but is kept, see freshValue), is this run's
// own (see inv.fresh).

// varTable is what one script sets: name → its values, each with the
// offset in the script after which it holds, in order.
type varTable struct{ known map[string][]knownVar }

type knownVar struct {
	value string
	list  []string // an indexed array's elements (f=(~/a b)): value is unused
	from  uint
	to    uint   // a local's: the end of its function's body, past which it is not known; 0 if none
	lost  bool   // from here on the value is not known (t+=$(…))
	fresh bool   // it holds a part made afresh for this run ($$, $RANDOM): see freshValue
	text  string // a fresh value not known (lost): as written, literals and fresh parts (x-$(date +%s))
	temp  bool   // the value is a temporary file or directory mktemp made for this run (d=$(mktemp -d))
	// exported: the script certainly exported it by here (see environ), so
	// the commands after are given it.
	exported bool
}

// scanVars finds the variables of f whose value is certain; nil if none.
func (c *classifier) scanVars(f *syntax.File, sc *scope) *varTable {
	var (
		names  = map[*syntax.Lit]bool{} // Lits that name a variable being used or assigned
		steps  []*syntax.Assign         // plain assignments and appends that are whole statements, in order
		calls  []syntax.Command         // the statement of each step
		bound  = map[string]int{}       // how many times each name may be bound, other than by steps
		plain  = map[string]int{}       // how many of its steps are assignments, not appends
		inFunc = map[string]bool{}      // names used in a function's body, which runs when it is called
		others = map[string]bool{}      // names written as words elsewhere (read x, for x in)
	)
	export := map[*syntax.Assign]syntax.Command{} // the steps that export X=v, and their statement
	var localEnd map[*syntax.Assign]uint          // local X=v in a function: where the body ends
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			syntax.Walk(x.Body, func(n syntax.Node) bool {
				if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil {
					inFunc[p.Param.Value] = true
				}
				if d, ok := n.(*syntax.DeclClause); ok && d.Variant.Value == "local" {
					for _, a := range d.Args {
						if localEnd == nil {
							localEnd = map[*syntax.Assign]uint{}
						}
						localEnd[a] = x.End().Offset() // its value holds to the end of the body
					}
				}
				return true
			})
		case *syntax.ParamExp:
			if x.Param != nil {
				names[x.Param] = true
				if x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
					bound[x.Param.Value] += 2 // ${x:=…}
				}
			}
		case *syntax.CallExpr:
			if len(x.Args) > 1 && (litOf(x.Args[0]) == "eval" || litOf(x.Args[0]) == "trap") {
				codeNames(x.Args[1:], others, 0) // eval 'd=~': bound in quoted code
			}
			if a := printfAssign(x); a != nil { // printf -v p '%s' go: p=go
				names[a.Name] = true
				steps, calls = append(steps, a), append(calls, x)
				plain[a.Name.Value]++
			}
			for _, a := range x.Assigns {
				if a.Name == nil {
					continue
				}
				names[a.Name] = true
				if len(x.Args) == 0 && (a.Value != nil || a.Array != nil && !a.Append) && !a.Naked && a.Index == nil {
					steps, calls = append(steps, a), append(calls, x)
					if !a.Append {
						plain[a.Name.Value]++
					}
					if a.Value != nil && len(a.Value.Parts) == 1 {
						if l, ok := a.Value.Parts[0].(*syntax.Lit); ok {
							names[l] = true // ref=cmd: a value, which ${!ref} reads, binds no name
						}
					}
				} else {
					bound[a.Name.Value] += 2 // x=1 cmd, x[i]=…: not a plain value
				}
			}
		case *syntax.DeclClause:
			// export, local, declare, typeset and readonly X=v, without
			// options, assign X as X=v does
			plainDecl := plainDecls[x.Variant.Value] && !slices.ContainsFunc(x.Args, func(a *syntax.Assign) bool { return a.Name == nil })
			for _, a := range x.Args {
				switch {
				case a.Name == nil:
				case plainDecl && a.Value != nil && !a.Naked && !a.Append && a.Index == nil && a.Array == nil &&
					(x.Variant.Value != "local" || localEnd[a] > 0):
					names[a.Name] = true
					steps, calls = append(steps, a), append(calls, x)
					plain[a.Name.Value]++
					if x.Variant.Value == "export" {
						export[a] = x
					}
				default:
					names[a.Name] = true
					bound[a.Name.Value] += 2
				}
			}
		case *syntax.Lit:
			if !names[x] {
				name := x.Value
				if i := strings.IndexAny(name, "=+["); i > 0 {
					name = name[:i]
				}
				others[name] = true
			}
		}
		return true
	})
	count := map[string]int{}
	var places map[syntax.Command]place
	for _, a := range steps {
		count[a.Name.Value]++
		if count[a.Name.Value] == 2 && places == nil {
			places = stepPlaces(f)
		}
	}
	nested := map[string]bool{} // names with a step after the first that may not run, or run again
	if places != nil {
		first := map[string]place{}
		for i, a := range steps {
			at, ok := places[calls[i]]
			if prev, seen := first[a.Name.Value]; !seen {
				first[a.Name.Value] = at
				nested[a.Name.Value] = !ok
			} else if !ok || at.cond || at.list != prev.list {
				nested[a.Name.Value] = true
			}
		}
	}
	var vars *varTable
	var leading map[syntax.Command]bool
	for _, a := range steps {
		name := a.Name.Value
		switch {
		case bound[name] > 0 || others[name] || plain[name] == 0:
			continue
		case count[name] > 1 && (nested[name] || inFunc[name]):
			continue // steps that may or may not run, or run again and again; a body that runs after any of them
		case a.Array != nil && count[name] > 1:
			continue
		}
		if vars == nil {
			vars = &varTable{known: map[string][]knownVar{}}
		}
		prev := vars.known[name]
		if a.Append && (len(prev) == 0 || prev[len(prev)-1].lost) {
			continue // before an assignment, or after the value was lost
		}
		inner := *sc
		inner.vars = vars // earlier variables, and this one's earlier value, hold in this value
		if a.Array != nil {
			vars.known[name] = []knownVar{c.arrayValue(&inner, a.Array, a.End().Offset())}
			continue
		}
		c.readFresh = false
		s, ok := c.literal(&inner, a.Value)
		fresh := ok && c.readFresh
		text := ""
		if !ok {
			s, ok, fresh, text = c.freshValue(&inner, a.Value)
		}
		temp := !ok && madeTemp(a.Value)
		fresh = fresh || temp
		if a.Append && ok {
			s = prev[len(prev)-1].value + s
			fresh = fresh || prev[len(prev)-1].fresh
		}
		exported := len(prev) > 0 && prev[len(prev)-1].exported
		if d, ok := export[a]; ok && !exported {
			if leading == nil {
				leading = leadingCommands(f)
			}
			exported = leading[d]
		}
		vars.known[name] = append(prev, knownVar{value: s, from: a.End().Offset(), to: localEnd[a], lost: !ok, fresh: fresh, exported: exported, text: text, temp: temp})
	}
	if vars == nil || len(vars.known) == 0 {
		return nil
	}
	return vars
}

// printfAssign is printf -v NAME '%s' WORD, or printf -v NAME TEXT with
// no % or \ in TEXT, read as the assignment NAME=WORD (or NAME=TEXT) it
// makes; nil for any other printf.
func printfAssign(x *syntax.CallExpr) *syntax.Assign {
	if len(x.Args) < 4 || len(x.Args) > 5 || litOf(x.Args[0]) != "printf" || litOf(x.Args[1]) != "-v" {
		return nil
	}
	name, ok := x.Args[2].Parts[0].(*syntax.Lit)
	if !ok || len(x.Args[2].Parts) != 1 || !syntax.ValidName(name.Value) {
		return nil
	}
	format, ok := plainWord(x.Args[3])
	switch {
	case !ok:
		return nil
	case len(x.Args) == 5 && format == "%s":
		for _, part := range x.Args[4].Parts {
			switch part.(type) {
			case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
				return nil // unquoted, it may split into more words than one %s takes
			}
		}
		return &syntax.Assign{Name: name, Value: x.Args[4]}
	case len(x.Args) == 4 && !strings.ContainsAny(format, "%\\"):
		return &syntax.Assign{Name: name, Value: x.Args[3]}
	}
	return nil
}

// plainDecls are the declaration builtins that, given only NAME=value
// words, assign each as NAME=value does (local's scope aside: its value
// holds where the function body reads it after the assignment).
var plainDecls = map[string]bool{"export": true, "local": true, "declare": true, "typeset": true, "readonly": true}

// codeNames adds to names the words of code that eval or trap runs, in any
// quoting: a variable assigned there (eval 'd=~'; eval "x=1; d=~"), read
// or looped over is not certain, as a word equal to its name outside is
// not. Code that does not parse gives every name-like word in it.
func codeNames(words []*syntax.Word, names map[string]bool, depth int) {
	var sb strings.Builder
	for _, w := range words {
		for _, p := range w.Parts {
			switch x := p.(type) {
			case *syntax.Lit:
				sb.WriteString(x.Value)
			case *syntax.SglQuoted:
				sb.WriteString(x.Value)
			case *syntax.DblQuoted:
				for _, q := range x.Parts {
					if l, ok := q.(*syntax.Lit); ok {
						sb.WriteString(l.Value)
					} else {
						sb.WriteString("x") // $v, $(…): filled in before eval reads it
					}
				}
			}
		}
		sb.WriteByte(' ')
	}
	code := sb.String()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(code), "")
	if err != nil || depth >= maxDepth {
		for _, m := range nameWord.FindAllString(code, -1) {
			names[m] = true
		}
		return
	}
	used := map[*syntax.Lit]bool{} // $d: a use, not a binding
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil {
				names[x.Name.Value] = true
			}
		case *syntax.ParamExp:
			if x.Param != nil {
				used[x.Param] = x.Exp == nil || (x.Exp.Op != syntax.AssignUnset && x.Exp.Op != syntax.AssignUnsetOrNull)
			}
		case *syntax.Lit:
			if used[x] {
				break
			}
			name := x.Value
			if i := strings.IndexAny(name, "=+["); i > 0 {
				name = name[:i]
			}
			names[name] = true
		case *syntax.CallExpr:
			if len(x.Args) > 1 && (litOf(x.Args[0]) == "eval" || litOf(x.Args[0]) == "trap") {
				codeNames(x.Args[1:], names, depth+1)
			}
		}
		return true
	})
}

var nameWord = lazyRE(`[A-Za-z_][A-Za-z0-9_]*`)

// leadingCommands are the commands of a script that run whatever else
// does: its statements, and the first command of each && or || chain
// among them (export X=v && cmd). Not in a pipeline, where each runs in a
// subshell, nor in the background.
func leadingCommands(f *syntax.File) map[syntax.Command]bool {
	out := map[syntax.Command]bool{}
	for _, st := range f.Stmts {
		for !st.Background && !st.Negated {
			b, ok := st.Cmd.(*syntax.BinaryCmd)
			if !ok || b.Op != syntax.AndStmt && b.Op != syntax.OrStmt {
				out[st.Cmd] = true
				break
			}
			st = b.X
		}
	}
	return out
}

// environ is what the script certainly exported with a value known by
// offset pos, as NAME=value (s the value), for the environment of a
// command there. t may be nil.
func (t *varTable) environ(pos uint) []arg {
	if t == nil {
		return nil
	}
	var out []arg
	for name := range t.known {
		if v, ok := t.at(name, pos); ok && v.exported && v.list == nil {
			out = append(out, arg{s: v.value, ok: true, src: name + "=" + v.value})
		}
	}
	slices.SortFunc(out, func(a, b arg) int { return strings.Compare(a.src, b.src) })
	return out
}

// place is where a statement stands: the list the shell runs it in (one
// for the script and one for each ( … ); a { … } runs in its enclosing
// one), and whether it stands in an && chain there.
type place struct {
	list int
	cond bool
}

// stepPlaces finds the places of the simple commands that stand as
// statements of lists the shell runs in order, or in an && chain there:
// not in a branch, a loop, a function, a pipeline or the background.
func stepPlaces(f *syntax.File) map[syntax.Command]place {
	places := map[syntax.Command]place{}
	lists := 0
	var seq func(stmts []*syntax.Stmt, list int)
	var and func(st *syntax.Stmt, list int)
	and = func(st *syntax.Stmt, list int) {
		switch x := st.Cmd.(type) {
		case *syntax.CallExpr, *syntax.DeclClause:
			if !st.Background && !st.Negated {
				places[x] = place{list, true}
			}
		case *syntax.BinaryCmd:
			if x.Op == syntax.AndStmt {
				and(x.X, list)
				and(x.Y, list)
			}
		}
	}
	seq = func(stmts []*syntax.Stmt, list int) {
		for _, st := range stmts {
			if st.Background || st.Negated {
				continue
			}
			switch x := st.Cmd.(type) {
			case *syntax.CallExpr, *syntax.DeclClause:
				places[x] = place{list, false}
			case *syntax.Block:
				seq(x.Stmts, list)
			case *syntax.Subshell:
				lists++
				seq(x.Stmts, lists)
			case *syntax.BinaryCmd:
				if x.Op == syntax.AndStmt {
					and(st, list)
				}
			}
		}
	}
	seq(f.Stmts, 0)
	return places
}

// arrayValue is the value of an indexed array assigned its elements as
// words (f=(~/.aws/credentials "$d"/x)): each expanded as a command's
// words are; lost if any is not known or has an index of its own.
func (c *classifier) arrayValue(sc *scope, arr *syntax.ArrayExpr, from uint) knownVar {
	v := knownVar{list: []string{}, from: from}
	for _, e := range arr.Elems {
		if e.Index != nil || e.Value == nil {
			return knownVar{from: from, lost: true}
		}
		fs, err := c.fields(sc, []*syntax.Word{e.Value})
		if err != nil || !allKnown(fs) || len(v.list)+len(fs) > maxFields {
			return knownVar{from: from, lost: true}
		}
		for _, f := range fs {
			v.list = append(v.list, f.s)
		}
	}
	return v
}

// array reports whether name is an array whose elements are known at
// offset pos. t may be nil.
func (t *varTable) array(name string, pos uint) bool {
	if t == nil {
		return false
	}
	vals := t.known[name]
	for i := len(vals) - 1; i >= 0; i-- {
		if vals[i].from <= pos {
			return vals[i].list != nil
		}
	}
	return false
}

// with is t with name set to value from the start: a for loop's variable
// in its body. t may be nil.
func (t *varTable) with(name, value string) *varTable {
	out := &varTable{known: map[string][]knownVar{name: {{value: value}}}}
	if t != nil {
		for k, v := range t.known {
			if k != name {
				out.known[k] = v
			}
		}
	}
	return out
}

// scriptEnv is the static environment with a script's certain variables,
// each from its assignment on (c.pos is where the word being expanded is).
type scriptEnv struct {
	expand.Environ
	c    *classifier
	vars *varTable
}

func (e scriptEnv) Get(name string) expand.Variable {
	if v, ok := e.vars.at(name, e.c.pos); ok {
		if v.list != nil {
			return expand.Variable{Set: true, Kind: expand.Indexed, List: v.list}
		}
		e.c.readFresh = e.c.readFresh || v.fresh
		return expand.Variable{Set: true, Kind: expand.String, Str: v.value}
	}
	return e.Environ.Get(name)
}

// at is the value of name at offset pos, if it is known there. t may be
// nil.
func (t *varTable) at(name string, pos uint) (knownVar, bool) {
	if t == nil {
		return knownVar{}, false
	}
	vals := t.known[name]
	for i := len(vals) - 1; i >= 0; i-- {
		if v := vals[i]; pos >= v.from {
			return v, !v.lost && (v.to == 0 || pos < v.to)
		}
	}
	return knownVar{}, false
}

// fresh reports whether every value the script gives name holds a part
// made afresh for the run, its text known or not. t may be nil.
func (t *varTable) fresh(name string) bool {
	return t.every(name, func(v knownVar) bool { return v.fresh })
}

// temp reports whether name holds, wherever the script reads it, a
// temporary file or directory mktemp made for this run. t may be nil.
func (t *varTable) temp(name string) bool {
	return t.every(name, func(v knownVar) bool { return v.temp })
}

// every reports whether the script gives name values, all of them ok.
func (t *varTable) every(name string, ok func(knownVar) bool) bool {
	return t != nil && len(t.known[name]) > 0 && !slices.ContainsFunc(t.known[name], func(v knownVar) bool { return !ok(v) })
}

// madeTemp reports whether w is the output of mktemp alone ($(mktemp -d),
// "$(mktemp)"): a new file or directory, empty, made for this run and no
// one else's; or a name in such a directory ("$(mktemp -d)/test.sqlite3"),
// which nothing else has. mktemp -u only prints a name, which may be
// taken by then.
func madeTemp(w *syntax.Word) bool {
	cs := substOf(w)
	if cs == nil {
		cs = inMadeTemp(w)
	}
	if cs == nil || len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 || cs.Stmts[0].Background || cs.Stmts[0].Negated {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return false
	}
	for i, wd := range call.Args {
		lit, ok := plainWord(wd)
		switch {
		case i == 0 && lit != "mktemp":
			return false
		case ok && (lit == "-u" || lit == "--dry-run" || strings.HasPrefix(lit, "-") && !strings.HasPrefix(lit, "--") && strings.Contains(lit, "u")):
			return false
		}
	}
	return true
}

// freshText is the text of a variable assigned once to a value not known
// but fresh (d=x-$(date +%s)): literals and fresh parts as written; ""
// for any other. t may be nil.
func (t *varTable) freshText(name string) string {
	if t == nil || len(t.known[name]) != 1 {
		return ""
	}
	if v := t.known[name][0]; v.lost && v.fresh {
		return v.text
	}
	return ""
}

// freshValue is the value of an assignment's word made of literals, the
// script's known variables and at least one part the shell makes afresh
// for each run — $$, $BASHPID, $RANDOM, $SRANDOM, $EPOCHSECONDS,
// $EPOCHREALTIME, $(date +FMT) with a format of digits, letters and
// separators that holds the seconds ($(date +%s), $(date +%Y%m%d%H%M%S)),
// $(uuidgen) — and whether it is made so. None of those parts can expand
// to a / or to .., nor to nothing. A parameter is kept as written; a
// command substitution leaves the value unknown (its text is code, which
// a tool given the value must not be taken to run), though still made
// afresh, and is given as text: as written, literals and fresh parts.
// Not fresh for any other word.
func (c *classifier) freshValue(sc *scope, w *syntax.Word) (value string, known, fresh bool, text string) {
	var sb, tb strings.Builder
	known = true
	var part func(p syntax.WordPart) bool
	part = func(p syntax.WordPart) bool {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "\\~") {
				return false
			}
			sb.WriteString(x.Value)
			tb.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar || strings.ContainsAny(x.Value, "$\"'`") {
				return false
			}
			sb.WriteString(x.Value)
			tb.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if !part(q) {
					return false
				}
			}
		case *syntax.ParamExp:
			if x.Param == nil || x.Flags != nil || x.Excl || x.Length || x.Width || x.IsSet || x.NestedParam != nil || x.Index != nil ||
				len(x.Modifiers) > 0 || x.Slice != nil || x.Repl != nil || x.Names != 0 || x.Exp != nil {
				return false
			}
			if name := x.Param.Value; name == "$" {
				sb.WriteString("$$")
				tb.WriteString("$$")
				fresh = true
			} else if freshParams[name] {
				sb.WriteString("${" + name + "}")
				tb.WriteString("${" + name + "}")
				fresh = true
			} else if v, ok := sc.vars.at(name, x.Pos().Offset()); ok && v.list == nil {
				sb.WriteString(v.value)
				tb.WriteString(v.value)
				fresh = fresh || v.fresh
			} else {
				return false
			}
		case *syntax.CmdSubst:
			a, b := int(x.Pos().Offset()), int(x.End().Offset())
			if !freshCommand(x) || a < 0 || a > b || b > len(sc.src) {
				return false
			}
			tb.WriteString(sc.src[a:b])
			known, fresh = false, true
		default:
			return false
		}
		return true
	}
	for _, p := range w.Parts {
		if !part(p) {
			return "", false, false, ""
		}
	}
	return sb.String(), known && fresh, fresh, tb.String()
}

// freshParams are the shell's parameters, other than $$, that differ from
// one run to the next and expand to digits (and a decimal point).
var freshParams = map[string]bool{"BASHPID": true, "RANDOM": true, "SRANDOM": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true}

// freshCommand reports whether a command substitution prints a name of
// this moment with neither / nor a lone . or ..: $(date +%s), $(date -u
// +%Y%m%dT%H%M%S), $(uuidgen).
func freshCommand(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 || cs.Stmts[0].Background || cs.Stmts[0].Negated {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return false
	}
	var words []string
	for _, wd := range call.Args {
		lit, ok := plainWord(wd)
		if !ok {
			if dq, isDq := wd.Parts[0].(*syntax.DblQuoted); len(wd.Parts) == 1 && isDq && len(dq.Parts) == 1 {
				l, isLit := dq.Parts[0].(*syntax.Lit)
				lit, ok = "", isLit
				if isLit {
					lit = l.Value
				}
			}
		}
		if !ok {
			return false
		}
		words = append(words, lit)
	}
	switch {
	case len(words) == 1 && words[0] == "uuidgen":
		return true
	case words[0] != "date" || len(words) < 2:
		return false
	}
	for _, w := range words[1 : len(words)-1] {
		if w != "-u" && w != "--utc" {
			return false
		}
	}
	return dateStamp.MatchString(words[len(words)-1])
}

// dateStamp is a date format that holds the seconds or finer and prints
// only digits, letters and - _ . : between them.
var dateStamp = lazyRE(`^\+(?:[A-Za-z0-9_.:-]|%[YymdHMjFuVGz])*%[sNST](?:[A-Za-z0-9_.:-]|%[YymdHMSsNjFTuVGz])*$`)

var errCmdSubst = errors.New("command substitution is not expanded statically")

// staticSubst writes the output of $(printf …) or $(echo …) when every
// word of it is known: names assembled with printf are names all the same.
// Anything else is an error, which leaves the word unknown.
//
// Its words are expanded with a config of their own: an expand.Config is
// not re-entrant, and this runs inside an expansion with the scope's.
func (c *classifier) staticSubst(sc *scope) func(io.Writer, *syntax.CmdSubst) error {
	var inner *expand.Config
	return func(w io.Writer, cs *syntax.CmdSubst) error {
		if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 || cs.Stmts[0].Background || cs.Stmts[0].Negated {
			return errCmdSubst
		}
		stages := []*syntax.Stmt{cs.Stmts[0]}
		if b, ok := cs.Stmts[0].Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe { // $(echo hss | rev)
			stages = pipeline(b)
		}
		call, ok := stages[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Assigns) > 0 || len(call.Args) < 2 {
			return errCmdSubst
		}
		if where := lookupWord(call.Args); where != "" && len(stages) == 1 { // $(command -v rm): where the program is
			_, err := io.WriteString(w, where)
			return err
		}
		if name, _ := plainWord(call.Args[0]); name != "echo" && name != "printf" {
			return errCmdSubst
		}
		var argv []string
		for _, wd := range call.Args {
			if holds(wd, isSubst) { // one level only: nesting would expand each level again
				return errCmdSubst
			}
			if braceCount(wd) > 1 || !boundedWord(wd, sc.vars) {
				return errCmdSubst
			}
			if inner == nil {
				inner = c.newExpandConfig(sc)
				inner.CmdSubst = nil
			}
			c.pos = wd.Pos().Offset()
			s, err := expand.Literal(inner, wd)
			if err != nil {
				return errCmdSubst
			}
			argv = append(argv, s)
		}
		var out string
		switch argv[0] {
		case "echo":
			args, nl := argv[1:], "\n"
			if args[0] == "-n" {
				args, nl = args[1:], ""
			}
			for _, a := range args {
				if strings.HasPrefix(a, "-") || strings.Contains(a, `\`) {
					return errCmdSubst
				}
			}
			out = strings.Join(args, " ") + nl
		case "printf":
			if out, ok = printf(inner, argv[1], argv[2:]); !ok {
				return errCmdSubst
			}
		default:
			return errCmdSubst
		}
		for _, st := range stages[1:] { // decoders only
			f, ok := st.Cmd.(*syntax.CallExpr)
			if !ok || len(st.Redirs) > 0 || len(f.Args) == 0 {
				return errCmdSubst
			}
			words, ok := plainWords(f.Args)
			if !ok {
				return errCmdSubst
			}
			if out, ok = decode(words[0], words[1:], out); !ok {
				return errCmdSubst
			}
		}
		_, err := io.WriteString(w, out)
		return err
	}
}

// lookupWord is where a command that finds a program on the PATH (command
// -v rm, which rm, type -P rm) says it is: a path ending in its name, or "".
func lookupWord(args []*syntax.Word) string {
	words, ok := plainWords(args)
	if !ok {
		return ""
	}
	switch {
	case len(words) == 3 && words[0] == "command" && words[1] == "-v",
		len(words) == 3 && words[0] == "type" && words[1] == "-P",
		len(words) == 2 && words[0] == "which":
		if name := words[len(words)-1]; !strings.ContainsAny(name, "/-") {
			return "/usr/bin/" + name
		}
	}
	return ""
}

// printf formats as the shell's printf does, reusing the format while
// arguments remain; false for a format too large or wrong to format.
func printf(cfg *expand.Config, format string, args []string) (string, bool) {
	if printfBomb.MatchString(format) {
		return "", false
	}
	var sb strings.Builder
	for {
		s, n, err := expand.Format(cfg, format, args)
		if err != nil || sb.Len()+len(s) > maxPrintf {
			return "", false
		}
		sb.WriteString(s)
		args = args[n:]
		if n == 0 || len(args) == 0 {
			return sb.String(), true
		}
	}
}

// maxPrintf bounds what printf writes: it can repeat its format.
const maxPrintf = 4 << 10

// inMadeTemp is the command substitution of a word that is a name
// under it, a literal path ($(mktemp -d)/db.sqlite3), or nil.
func inMadeTemp(w *syntax.Word) *syntax.CmdSubst {
	parts := w.Parts
	if dq, ok := parts[0].(*syntax.DblQuoted); len(parts) == 1 && ok {
		parts = dq.Parts
	}
	if len(parts) < 2 {
		return nil
	}
	cs, _ := parts[0].(*syntax.CmdSubst)
	rest := ""
	for _, p := range parts[1:] {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return nil
		}
		rest += lit.Value
	}
	if !strings.HasPrefix(rest, "/") || strings.Contains(rest+"/", "/../") || strings.ContainsAny(rest, "*?[{}\\~") {
		return nil
	}
	return cs
}
