package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Limits of one classification. Past any of them the command is
// Unparseable: a person decides (RELIABILITY design rule 1, fail safe).
const (
	maxInput     = 64 << 10              // bytes of command text
	maxDepth     = 4                     // nested re-parses: bash -c, eval, trap, ssh …
	maxUnwrap    = 32                    // nested wrappers: sudo env nice …
	maxFields    = 256                   // brace-expanded fields per word (V12)
	maxCmdFields = 4096                  // expanded fields per simple command
	budget       = 50 * time.Millisecond // wall time per classification (S4)
)

// Classify parses command as bash and classifies every simple command in it.
// It never panics and always returns within about the time budget (50 ms);
// anything it cannot understand — a parse error, NUL bytes or invalid UTF-8,
// more than 64 KiB, re-parsing nested deeper than 4, a brace expansion too
// large to expand, a command name computed at run time — is [Unparseable].
func Classify(command string, env Env) Result {
	return classify(command, env, budget)
}

// classify is Classify with a given time budget (tests use a spent one).
func classify(command string, env Env, budget time.Duration) (res Result) {
	if len(command) > maxInput {
		return unparseable(fmt.Sprintf("command longer than %d KiB", maxInput>>10))
	}
	if strings.IndexByte(command, 0) >= 0 {
		// The parser silently drops NUL (V11), so what we would classify is
		// not what bash would run.
		return unparseable("command contains a NUL byte")
	}
	if !utf8.ValidString(command) {
		return unparseable("command is not valid UTF-8")
	}
	c := newClassifier(env, budget)
	defer func() {
		if r := recover(); r != nil {
			res = unparseable(fmt.Sprintf("internal error while classifying: %v", r))
		}
	}()
	c.script(command, c.top(), nil, env.stdinSource())
	return c.result()
}

// mentions reports whether the whole command line contains s anywhere,
// read once for each s: rules that ask it of every command stay linear.
func (c *classifier) mentions(s string) bool {
	seen, ok := c.mentioned[s]
	if !ok {
		if c.mentioned == nil {
			c.mentioned = map[string]bool{}
		}
		seen = strings.Contains(c.whole, s)
		c.mentioned[s] = seen
	}
	return seen
}

func unparseable(reason string) Result {
	return Result{Class: Unparseable, Reasons: []string{reason}}
}

// classifier holds the state of one classification.
type classifier struct {
	deadline  time.Time
	project   string   // absolute working directory, or a placeholder when unknown
	home      string   // absolute home directory, or a placeholder
	temps     []string // temporary directories, where deleting is fine
	tmpdir    string   // $TMPDIR if it is one of them, for expansion
	cmds      []Command
	budget    time.Duration
	cfgs      map[cfgKey]*expand.Config // see expandConfig
	timedOut  bool
	whole     string               // the whole command line, as given
	mentioned map[string]bool      // see mentions
	joined    map[[2]string]string // see join
	homes     struct {             // see toolHome
		assigned map[string]bool
		written  map[string]int
	}
	prefixEnv   []arg                // the values of VAR=x before the command being run
	written     map[string]source    // files this command writes, by absolute path: what goes into them
	filled      map[string]string    // files it puts secret values in (source.values), by absolute path, sed -i's edits too
	fillLog     []string             // the paths of written's secrets and of filled, in the order they were written
	fillScans   map[string]fillScan  // how far filledWithSecrets has looked through fillLog for each directory (git.go)
	aliases     map[string]string    // aliases the command defines: name → value
	procOut     map[string]source    // what each <(…) of one statement prints, by its text (procScript)
	funcs       map[string]*funcDef  // functions the command defines, by name (call.go: funcDecl)
	uncalled    []*funcDef           // those whose body reads its parameters, judged at their calls (walkUncalled)
	renamed     map[string]string    // executables it copies or links: new path → the program's name
	tunnel      bool                 // it opens a tunnel or proxy from this machine to another (kubectl proxy, ssh -L)
	links       map[string]string    // links it makes (ln, ln -s): the link's path → the path it leads to
	gitAliases  map[string]string    // git aliases it defines (git config alias.x, git -c alias.x=…)
	gitMirror   bool                 // it configures a git remote as a mirror
	gitRemotes  map[string]string    // git remotes it adds or points elsewhere: name → URL
	newBranches map[string]newBranch // branches it creates afresh (git checkout -b, git switch -c), by name
	clones      []string             // the directories it clones repositories into (git clone URL dir)
	worktrees   []string             // the worktrees it adds under a temp dir (git worktree add /tmp/wt HEAD)
	ignore      *gitignore           // the working tree's .gitignore, once read (source.go)
	pos         uint                 // offset in its script of the word being expanded (vars.go)
	readFresh   bool                 // an expansion read a variable holding a part made afresh for this run (vars.go)
	at          int                  // 1 + the offset in its script of the simple command being run
	secretVars  map[string]string    // variables it fills with a secret source's output: name → what (stdin.go: taint)
}

// Placeholders for unknown directories: absolute paths no real path can
// equal or be under, since commands never contain NUL.
const (
	unknownProject = "/\x00cwd"
	unknownHome    = "/\x00home"
	remoteHome     = "/\x00remote"
)

// placeholders makes reasons printable if a placeholder leaks into one.
var placeholders = strings.NewReplacer(containerRoot, "<container>", unknownProject, "<working directory>", unknownHome, "~", remoteHome, "<remote home>", "\x00", "")

// printable is s with placeholders replaced; every placeholder holds a
// NUL, and most strings none, which Replace would copy all the same.
func printable(s string) string {
	if strings.IndexByte(s, 0) < 0 {
		return s
	}
	return placeholders.Replace(s)
}

func newClassifier(env Env, budget time.Duration) *classifier {
	c := &classifier{deadline: time.Now().Add(budget), budget: budget}
	c.project = unknownProject
	if filepath.IsAbs(env.Cwd) {
		c.project = filepath.Clean(env.Cwd)
	}
	home := env.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	c.home = unknownHome
	if filepath.IsAbs(home) {
		c.home = filepath.Clean(home)
	}
	c.temps = []string{"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", containerRoot}
	if t := os.Getenv("TMPDIR"); filepath.IsAbs(t) {
		t = filepath.Clean(t)
		if t != "/" && t != c.home && !isUnder(c.home, t) {
			c.temps = append(c.temps, t)
			c.tmpdir = t
		}
	}
	return c
}

// scope is what a shell knows while it runs one script: its working
// directory (tracked through cd) and how deep in re-parses it is.
type scope struct {
	depth  int
	src    string            // the script text, for heredoc bodies
	cwd    string            // "" = unknown (after cd to a computed directory)
	remote bool              // runs on another machine (ssh, kubectl exec)
	mounts map[string]string // in a container: host path by mount target ("" = a volume of unknown content); nil on the host
	piped  bool              // its output goes into a pipe or a file, not to the agent
	// discards: its output goes to /dev/null.
	discards bool
	stage    int          // 1 + the index in cmds of its pipeline's first command; 0 outside a pipeline
	next     *syntax.Stmt // the pipeline stage its output goes to, if any
	// intoEnv: its output is the words of export $(…), which go into the
	// shell's environment, not to the agent.
	intoEnv bool
	vars    *varTable // the script's variables whose value is certain (vars.go)
	// params: the positional parameters of the function body being
	// judged, where the call gave them all statically ($1, "$@"); nil
	// if not known.
	params *[]string
	// xtrace: the shell prints each command it runs with its words
	// expanded (set -x, bash -x), before running it.
	xtrace bool
	// errexit: the shell ends at the first command that fails (set -e),
	// so what follows a cd runs only where the cd went.
	errexit bool
	// scratch: it runs in a container this command started with nothing
	// of the host's mounted, so the servers in it hold only what the
	// command put there (docker exec redis-test-$$ redis-cli FLUSHALL,
	// docker run --rm redis:7 sh -c '… redis-cli FLUSHALL'), unless it
	// was told of a server elsewhere (-e PGHOST=db.prod, --env-file).
	scratch bool
	// hostEnv: it runs in a container this command started and gave
	// variables of the host's environment or an env file (-e TOKEN,
	// --env-file .env), so its environment holds the host's secrets.
	hostEnv bool
	// localContainer: remote, but in a container of this machine's
	// Docker (docker compose exec app …), where the environment a
	// command names for tests (--env=testing) is the local stack's.
	localContainer bool
	// testContainer: in a container of this machine's Docker, given no
	// environment on the command line, whose name says it is kept for
	// tests (docker exec api-redis-test …): its servers hold test data.
	testContainer bool
	// credUse: its output is a credential handed to a tool that uses it
	// (a variable only the environment passes on, an Authorization header
	// to the host that issued it), not shown to the agent (assignWords,
	// argWords).
	credUse bool
}

func (c *classifier) top() *scope { return &scope{cwd: c.project} }

// sub returns a copy for a subshell: cd inside it does not leak out.
func (sc *scope) sub() *scope {
	s := *sc
	return &s
}

// expired reports whether the time budget is spent; the first time it is,
// it records the reason.
func (c *classifier) expired() bool {
	if c.timedOut {
		return true
	}
	if time.Now().After(c.deadline) {
		c.timedOut = true
		c.global(Unparseable, fmt.Sprintf("classification took longer than %v", c.budget))
		return true
	}
	return false
}

// global records a finding that belongs to no simple command.
func (c *classifier) global(class Class, reason string) {
	c.cmds = append(c.cmds, Command{Class: class, Resolved: true, Reasons: []string{reason}, loose: class >= Destructive})
}

// Bounds on what a classification says: a person reads the reasons, and
// they go into results, records and metadata, so they stay small whatever
// the command.
const (
	maxReasonsPerCommand = 8
	maxReasons           = 16
)

// flag raises command i to class with a reason; a Destructive one is held
// for more than writes a sandbox could refuse (see [Command].Writes).
func (c *classifier) flag(i int, class Class, reason string) {
	c.cmds[i].loose = c.cmds[i].loose || class >= Destructive
	c.raise(i, class, reason)
}

// flagWrite makes command i Destructive for writing, truncating, moving or
// deleting t (and all under it); a t not known is held as loose.
func (c *classifier) flagWrite(i int, t target, reason string) {
	cmd := &c.cmds[i]
	switch {
	case t.path == "":
		cmd.loose = true
	case len(cmd.Writes) >= maxReasonsPerCommand:
		cmd.loose = true // past the bound: not a list a person can check
	case !slices.Contains(cmd.Writes, t.path):
		cmd.Writes = append(cmd.Writes, t.path)
	}
	c.raise(i, Destructive, reason)
}

// raise raises command i to class with a reason. Past the bound, a reason
// that raises the class takes the last one's place: the reason a command is
// held is never the one left out.
func (c *classifier) raise(i int, class Class, reason string) {
	cmd := &c.cmds[i]
	raises := class > cmd.Class
	cmd.Class = max(cmd.Class, class)
	reason = printable(reason)
	switch {
	case reason == "" || slices.Contains(cmd.Reasons, reason):
	case len(cmd.Reasons) < maxReasonsPerCommand:
		cmd.Reasons = append(cmd.Reasons, reason)
	case raises:
		cmd.Reasons[len(cmd.Reasons)-1] = reason
		cmd.dropped++
	default:
		cmd.dropped++
	}
}

// result folds the commands into a Result. Reasons are kept only for held
// commands, so a Write result does not read like a warning.
func (c *classifier) result() Result {
	var r Result
	r.Commands = c.cmds
	for _, cmd := range c.cmds {
		r.Class = max(r.Class, cmd.Class)
	}
	more := 0
	for _, cmd := range c.cmds {
		if cmd.Class < Destructive {
			continue
		}
		more += cmd.dropped
		for _, why := range cmd.Reasons {
			switch {
			case slices.Contains(r.Reasons, why):
			case len(r.Reasons) < maxReasons:
				r.Reasons = append(r.Reasons, why)
			default:
				more++
			}
		}
	}
	if more > 0 {
		r.Reasons = append(r.Reasons, fmt.Sprintf("and %d more reasons", more))
	}
	return r
}

// script parses src and walks it. parent is the command that runs it
// (bash -c, eval, …) or nil at the top; parse failures are recorded there.
// in is what the script reads on its stdin: the runner's.
func (c *classifier) script(src string, sc *scope, parent *int, in source) {
	if c.whole == "" {
		c.whole = src
	}
	fail := func(class Class, why string) {
		if parent != nil {
			c.flag(*parent, class, why)
		} else {
			c.global(class, why)
		}
	}
	if sc.depth > maxDepth {
		fail(Unparseable, fmt.Sprintf("commands nested more than %d levels deep (bash -c, eval …)", maxDepth))
		return
	}
	if c.expired() {
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		fail(Unparseable, "cannot parse: "+err.Error())
		return
	}
	if c.cmds == nil {
		// Most simple commands make one Command, a wrapper or a
		// redirection one more: room for half as many again as there are
		// saves growing a long command line's list a dozen times.
		n := 0
		syntax.Walk(f, func(node syntax.Node) bool {
			if _, ok := node.(*syntax.CallExpr); ok {
				n++
			}
			return true
		})
		c.cmds = make([]Command, 0, n+n/2)
	}
	sc.src = src
	sc.vars = c.scanVars(f, sc)
	seen := map[*syntax.CallExpr]bool{}
	w := &walker{c: c, seen: seen}
	w.stmts(f.Stmts, sc, in)
	w.walkUncalled()
	// Every CallExpr anywhere in the tree must have been classified; a node
	// kind the walker does not know would otherwise hide a command.
	missed := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && !seen[ce] {
			missed = true
		}
		return !missed
	})
	if missed && !c.timedOut {
		fail(Unparseable, "command in a construct the classifier does not understand")
	}
}
