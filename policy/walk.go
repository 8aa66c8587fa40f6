package policy

import (
	"mvdan.cc/sh/v3/syntax"
)

// walker visits the statements of one parsed script in execution order, so
// that cd can be tracked, and hands every simple command to the catalogue.
type walker struct {
	c    *classifier
	seen map[*syntax.CallExpr]bool // every CallExpr classified, checked after the walk
}

// stmts walks a list; in is the stdin they share (a block or subshell in
// a pipeline, "curl … | { sh; }", passes its stdin to every statement).
func (w *walker) stmts(list []*syntax.Stmt, sc *scope, in source) {
	for _, st := range list {
		w.stmt(st, sc, in)
	}
}

// stmt walks one statement. in is what its standard input carries when it is
// a pipeline stage.
func (w *walker) stmt(st *syntax.Stmt, sc *scope, in source) {
	if w.c.expired() {
		markAll(st, w.seen)
		return
	}
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
		piped := sc.piped
		sc.piped = piped || toFile(st) // env > vars.txt prints nothing
		idx = w.call(x, sc, in)
		sc.piped = piped
	case *syntax.BinaryCmd:
		w.binary(x, sc, in)
	case *syntax.Subshell:
		w.stmts(x.Stmts, sc.sub(), in)
	case *syntax.Block:
		w.stmts(x.Stmts, sc, in)
	case *syntax.IfClause:
		for cl := x; cl != nil; cl = cl.Else {
			w.stmts(cl.Cond, sc, in)
			w.stmts(cl.Then, sc, in)
		}
	case *syntax.WhileClause:
		w.stmts(x.Cond, sc, in)
		w.stmts(x.Do, sc, in)
	case *syntax.ForClause:
		w.nodeWords(x.Loop, sc)
		if !w.eachItem(x, sc, in) {
			w.stmts(x.Do, sc, in)
		}
	case *syntax.CaseClause:
		w.words(sc, x.Word)
		for _, it := range x.Items {
			w.words(sc, it.Patterns...)
			w.stmts(it.Stmts, sc, in)
		}
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

// binary walks && || ; and pipelines. Pipeline stages run in subshells and
// each stage's stdin is described by the stage before it.
func (w *walker) binary(b *syntax.BinaryCmd, sc *scope, in source) {
	switch b.Op {
	case syntax.Pipe, syntax.PipeAll:
		stages := pipeline(b)
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
		w.stmt(b.X, sc, in)
		w.stmt(b.Y, sc, in)
	}
}

// pipeline flattens a | b | c into its stages.
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
		if wd != nil {
			w.nodeWords(wd, sc)
		}
	}
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
	for _, item := range items {
		inner := *sc
		inner.vars = sc.vars.with(it.Name.Value, item.s)
		w.stmts(x.Do, &inner, in)
	}
	return true
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
