package policy

import (
	"mvdan.cc/sh/v3/syntax"
)

// walker visits the statements of one parsed script in execution order, so
// that cd can be tracked, and hands every simple command to the catalogue.
type walker struct {
	c    *classifier
	seen map[*syntax.CallExpr]bool // every CallExpr classified, checked after the walk
	// ok is the working directory the statement walked last leaves the
	// shell in when it succeeds; sc.cwd is where it leaves it whichever
	// way it ends. They differ after && and ||: in cd a && make && cd ..
	// && rm -rf x the rm runs in the first directory, but after it the
	// shell may be in a, if make failed.
	ok string
	// twice: the statements after a cd on its own are being walked a
	// second time, as if it failed (see stmts).
	twice bool
	// allPiped holds the pipeline stages whose stderr goes down the pipe
	// too (cmd |& next): what they log is what the next stage reads.
	allPiped map[*syntax.Stmt]bool
}

// stmts walks a list; in is the stdin they share (a block or subshell in
// a pipeline, "curl … | { sh; }", passes its stdin to every statement).
//
// After a cd on its own (cd build/tmp; rm -rf *), what follows runs in
// the new directory, or, when the cd failed, in the one before it: the
// rest is walked in both, and its commands are listed for each (once per
// list; a later cd is walked as usual).
// set -e, or cd x || exit, makes the failure end the script instead.
func (w *walker) stmts(list []*syntax.Stmt, sc *scope, in source) {
	for i, st := range list {
		before := sc.cwd
		w.stmt(st, sc, in)
		if i+1 < len(list) && !w.twice && !sc.errexit && before != "" && sc.cwd != "" && sc.cwd != before && bareCd(st) {
			w.stmts(list[i+1:], sc, in)
			w.twice = true
			failed := sc.sub()
			failed.cwd = before
			w.stmts(list[i+1:], failed, in)
			w.twice = false
			return
		}
	}
}

// bareCd reports whether st is a simple command on its own (cd x, or
// one a wrapper runs, which never moves the shell), which may fail and
// let the script go on where it was.
func bareCd(st *syntax.Stmt) bool {
	_, ok := st.Cmd.(*syntax.CallExpr)
	return ok && !st.Background && !st.Negated
}

// stmt walks one statement. in is what its standard input carries when it is
// a pipeline stage.
func (w *walker) stmt(st *syntax.Stmt, sc *scope, in source) {
	if w.c.expired() {
		markAll(st, w.seen)
		return
	}
	outer := sc
	if st.Background {
		// A background job runs in a subshell: its cd does not leak.
		sc = sc.sub()
	}
	for _, r := range st.Redirs {
		w.words(sc, r.Word, r.Hdoc)
		if s := w.redirIn(r, sc); s.kind != srcNone {
			in = s
		}
	}
	idx := -1 // the Command redirect findings attach to
	switch x := st.Cmd.(type) {
	case nil:
		// Only redirections, such as "> ~/.bashrc".
	case *syntax.CallExpr:
		piped, discards := sc.piped, sc.discards
		sc.piped = piped || toFile(st) // env > vars.txt prints nothing
		sc.discards = discards || toNull(st)
		idx = w.call(x, sc, in)
		sc.piped, sc.discards = piped, discards
	case *syntax.BinaryCmd:
		w.binary(x, sc, in)
	case *syntax.Subshell:
		w.stmts(x.Stmts, sc.sub(), in)
	case *syntax.Block:
		w.stmts(x.Stmts, sc, in)
	case *syntax.IfClause:
		w.ifClause(x, sc, in)
	case *syntax.WhileClause:
		w.loop(sc, in, x.Cond, x.Do)
	case *syntax.ForClause:
		w.nodeWords(x.Loop, sc)
		if !w.eachItem(x, sc, in) {
			w.loop(sc, in, nil, x.Do)
		}
	case *syntax.CaseClause:
		w.caseClause(x, sc, in)
	case *syntax.FuncDecl:
		w.funcDecl(x, sc)
	case *syntax.TimeClause:
		if x.Stmt != nil {
			w.stmt(x.Stmt, sc, in)
		}
	case *syntax.CoprocClause:
		w.words(sc, x.Name)
		w.stmt(x.Stmt, sc.sub(), in)
	case *syntax.DeclClause:
		idx = w.decl(x, sc)
	default:
		// ArithmCmd, TestClause, LetClause, TestDecl: only the command
		// substitutions inside them run commands.
		w.nodeWords(x, sc)
	}
	if len(st.Redirs) > 0 {
		w.redirects(st, sc, idx, in)
	}
	if b, ok := st.Cmd.(*syntax.BinaryCmd); !ok || b.Op == syntax.Pipe || b.Op == syntax.PipeAll || st.Negated || st.Background {
		w.ok = outer.cwd
	}
}

// toFile reports whether st sends its standard output to a file.
func toFile(st *syntax.Stmt) bool {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.AppOut, syntax.AppClob, syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
			if lit := litOf(r.Word); (r.N == nil || r.N.Value == "1") && lit != "/dev/stdout" && lit != "/dev/tty" {
				return true
			}
		}
	}
	return false
}

// toNull reports whether st sends its standard output to /dev/null, the
// last such redirection winning.
func toNull(st *syntax.Stmt) bool {
	null := false
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.AppOut, syntax.AppClob, syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
			if r.N == nil || r.N.Value == "1" {
				null = litOf(r.Word) == "/dev/null"
			}
		}
	}
	return null
}

// binary walks && || ; and pipelines. Pipeline stages run in subshells and
// each stage's stdin is described by the stage before it.
func (w *walker) binary(b *syntax.BinaryCmd, sc *scope, in source) {
	switch b.Op {
	case syntax.Pipe, syntax.PipeAll:
		stages := pipeline(b)
		markPipedAll(b, w) // only its pipe operators: as cheap as pipeline
		stdin := in
		first := len(w.c.cmds) + 1
		for i, st := range stages {
			if i > 0 {
				stdin = w.describe(stages[i-1], sc, stdin)
			}
			sub := sc.sub()
			sub.stage = first
			sub.piped = sub.piped || i < len(stages)-1 // its output goes to the next stage
			sub.next = nil
			if i < len(stages)-1 {
				sub.next = stages[i+1]
			}
			w.stmt(st, sub, stdin)
		}
	default:
		// Y runs after X, maybe: where the shell is after them depends
		// on which ran and which succeeded (see ok).
		w.stmt(b.X, sc, in)
		okX, endX := w.ok, sc.cwd
		if b.Op == syntax.AndStmt {
			sc.cwd = okX
		}
		w.stmt(b.Y, sc, in)
		okY, endY := w.ok, sc.cwd
		switch {
		case exits(b.Y) && b.Op == syntax.AndStmt: // cd x && exit: the rest runs when X failed
			w.ok, sc.cwd = endX, endX
		case exits(b.Y): // cd build || exit 1: the rest runs in build
			w.ok, sc.cwd = okX, okX
		case b.Op == syntax.AndStmt: // cd sub && make && cd ..: on success, Y's
			w.ok, sc.cwd = okY, join(endX, endY)
		default:
			w.ok, sc.cwd = join(okX, okY), join(okX, endY)
		}
	}
}

// Control flow and the working directory: a part of a script that may not
// run, or may run more than once (a branch of && || if case, a loop body),
// leaves the shell in one of several directories. After it the directory
// is known only if all of them agree (join); otherwise it is unknown, as
// after cd "$x", and relative paths with it. A branch that ends the shell
// (exit, return) is not among them: what follows runs only when it did not.

// join is the working directory after parts of which any one may have
// run: known only when they all agree.
func join(dirs ...string) string {
	for _, d := range dirs[1:] {
		if d != dirs[0] {
			return ""
		}
	}
	return dirs[0]
}

// exits reports whether st ends the shell or the function when it runs:
// exit or return, or a block whose last statement does
// (cd build || { echo no build; exit 1; }).
func exits(st *syntax.Stmt) bool {
	if st == nil || st.Background {
		return false
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) > 0 {
			switch litOf(x.Args[0]) {
			case "exit", "return":
				return true
			}
		}
	case *syntax.Block:
		return exitsList(x.Stmts)
	}
	return false
}

func exitsList(list []*syntax.Stmt) bool {
	return len(list) > 0 && exits(list[len(list)-1])
}

// ifClause walks if/elif/else: the conditions run in turn, each branch
// maybe; with no else, maybe none.
func (w *walker) ifClause(x *syntax.IfClause, sc *scope, in source) {
	var ends []string
	for cl := x; cl != nil; cl = cl.Else {
		w.stmts(cl.Cond, sc, in)
		before := sc.cwd
		w.stmts(cl.Then, sc, in)
		if !exitsList(cl.Then) {
			ends = append(ends, sc.cwd)
		}
		sc.cwd = before
		if cl.Else == nil && len(cl.Cond) > 0 {
			ends = append(ends, before) // no branch taken
		}
	}
	if len(ends) > 0 {
		sc.cwd = join(ends...)
	}
}

// caseClause walks case: any one item, or none unless a pattern is *;
// an item ending ;& or ;;& may go on into the next.
func (w *walker) caseClause(x *syntax.CaseClause, sc *scope, in source) {
	w.words(sc, x.Word)
	start, next := sc.cwd, sc.cwd
	ends, all := []string(nil), false
	for _, it := range x.Items {
		w.words(sc, it.Patterns...)
		sc.cwd = next
		w.stmts(it.Stmts, sc, in)
		if !exitsList(it.Stmts) {
			ends = append(ends, sc.cwd)
		}
		next = start
		if it.Op != syntax.Break {
			next = join(start, sc.cwd)
		}
		for _, p := range it.Patterns {
			all = all || litOf(p) == "*"
		}
	}
	if !all {
		ends = append(ends, start)
	}
	sc.cwd = start
	if len(ends) > 0 {
		sc.cwd = join(ends...)
	}
}

// loop walks a while or until loop (cond, body, cond, …) or a for loop
// whose items are not known (body, body, …). When a pass ends in another
// directory than it began, the next begins there: the body is judged again
// in an unknown directory, and the loop ends in one.
func (w *walker) loop(sc *scope, in source, cond, body []*syntax.Stmt) {
	start := sc.cwd
	w.stmts(cond, sc, in)
	w.stmts(body, sc, in)
	if sc.cwd != start {
		sc.cwd = ""
		w.stmts(cond, sc, in)
		w.stmts(body, sc, in)
		sc.cwd = ""
	}
}

// pipeline flattens a | b | c into its stages.
// markPipedAll records the stages of a pipeline that |& joins to the next.
func markPipedAll(b *syntax.BinaryCmd, w *walker) {
	if b.Op == syntax.PipeAll {
		if w.allPiped == nil {
			w.allPiped = map[*syntax.Stmt]bool{}
		}
		last := b.X
		for {
			x, ok := last.Cmd.(*syntax.BinaryCmd)
			if !ok || x.Op != syntax.Pipe && x.Op != syntax.PipeAll || len(last.Redirs) > 0 {
				break
			}
			last = x.Y
		}
		w.allPiped[last] = true
	}
	for _, st := range []*syntax.Stmt{b.X, b.Y} {
		if x, ok := st.Cmd.(*syntax.BinaryCmd); ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) {
			markPipedAll(x, w)
		}
	}
}

func pipeline(b *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	var add func(st *syntax.Stmt)
	add = func(st *syntax.Stmt) {
		if x, ok := st.Cmd.(*syntax.BinaryCmd); ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && len(st.Redirs) == 0 && !st.Negated && !st.Background {
			add(x.X)
			add(x.Y)
			return
		}
		out = append(out, st)
	}
	add(b.X)
	add(b.Y)
	return out
}

// words walks command and process substitutions inside words: they run
// before the command that contains them.
func (w *walker) words(sc *scope, ws ...*syntax.Word) {
	for _, wd := range ws {
		if wd != nil && !quotedLiteral(wd) {
			w.nodeWords(wd, sc)
		}
	}
}

// quotedLiteral reports whether w is made only of literal text and
// single quotes, which hold no substitution (most words).
func quotedLiteral(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			return false
		}
	}
	return true
}

// nodeWords finds every $(…), `…` and <(…) under n and walks its
// statements in a subshell scope.
func (w *walker) nodeWords(n syntax.Node, sc *scope) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			sub := sc.sub()
			sub.next = nil // its output is a word of the command, which may print it
			w.stmts(x.Stmts, sub, source{})
			return false
		case *syntax.ProcSubst:
			// >(…) reads what the command writes, which we cannot describe:
			// echo 'rm -rf /' > >(sh) must not look like an idle shell.
			in := source{}
			if x.Op == syntax.CmdOut {
				in = source{kind: srcPipe}
			}
			w.stmts(x.Stmts, sc.sub(), in)
			if x.Op == syntax.CmdIn && len(x.Stmts) == 1 {
				if w.c.procOut == nil {
					w.c.procOut = map[string]source{}
				}
				w.c.procOut[sc.src[x.Pos().Offset():x.End().Offset()]] = w.output(x.Stmts[0], sc.sub(), source{})
			}
			return false
		}
		return true
	})
}

// markAll marks every CallExpr under n as seen; used once the time budget
// is spent, when the result is already Unparseable.
func markAll(n syntax.Node, seen map[*syntax.CallExpr]bool) {
	syntax.Walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok {
			seen[ce] = true
		}
		return true
	})
}

// eachItem judges a for loop's body once for each item it gets, when they
// are known (for f in ~/.ssh/*; do : > "$f"; done: a glob stands for what
// it matches), and reports whether it did.
func (w *walker) eachItem(x *syntax.ForClause, sc *scope, in source) bool {
	it, ok := x.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil || len(it.Items) == 0 {
		return false
	}
	items, err := w.c.fields(sc, it.Items)
	if err != nil || len(items) > maxLoopItems || !allKnown(items) {
		return false
	}
	start, moved := sc.cwd, false
	for _, item := range items {
		inner := *sc // the next item begins where this one's pass ends
		inner.vars = sc.vars.with(it.Name.Value, item.s)
		w.stmts(x.Do, &inner, in)
		moved = moved || inner.cwd != start
		sc.cwd = inner.cwd
	}
	if moved && breaks(x.Do) {
		sc.cwd = "" // a pass may stop part way
	}
	return true
}

// breaks reports whether a loop body holds break or continue.
func breaks(list []*syntax.Stmt) bool {
	found := false
	for _, st := range list {
		syntax.Walk(st, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
				found = found || litOf(ce.Args[0]) == "break" || litOf(ce.Args[0]) == "continue"
			}
			return !found
		})
	}
	return found
}

// maxLoopItems bounds how many items of a for loop its body is judged for.
const maxLoopItems = 8

func allKnown(args []arg) bool {
	for _, a := range args {
		if !a.ok {
			return false
		}
	}
	return true
}
