package policy

import "fmt"

// Class is how much harm a command can do. Classes are ordered by severity,
// so the class of a compound command is the maximum over its parts.
type Class int

// The classes, least severe first.
const (
	// ReadOnly commands only read state (ls, cat, git status).
	ReadOnly Class = iota
	// Write commands change files or state in ways that are ordinary work and
	// recoverable (editing inside the project, building, committing).
	Write
	// Destructive commands can lose data or do harm that is hard to undo
	// (rm -rf outside the project, git push --force, DROP TABLE).
	Destructive
	// Unparseable commands could not be understood statically (parse error,
	// dynamic command name, limits exceeded); they are treated like
	// Destructive ones when approval is on.
	Unparseable
)

// String returns "read-only", "write", "destructive" or "unparseable".
func (c Class) String() string {
	switch c {
	case ReadOnly:
		return "read-only"
	case Write:
		return "write"
	case Destructive:
		return "destructive"
	case Unparseable:
		return "unparseable"
	default:
		return fmt.Sprintf("Class(%d)", int(c))
	}
}

// Held reports whether c needs a person when approval is on in the default
// mode: Destructive or Unparseable.
func (c Class) Held() bool { return c >= Destructive }

// Env is what classification may know about where the command runs.
type Env struct {
	Cwd  string // working directory (absolute); "" = unknown
	Home string // $HOME; "" = os.UserHomeDir()
	// Stdin is what the command reads on its standard input, when it is
	// known (terminal_exec's stdin); StdinForwarded says it reads what
	// another program sends it at run time (tend run's caller's stdin),
	// which the policy cannot see: code run from there is held.
	Stdin          []byte
	StdinForwarded bool
}

// stdinSource is what env says the command's stdin carries.
func (env Env) stdinSource() source {
	switch {
	case env.StdinForwarded:
		return source{kind: srcPipe}
	case len(env.Stdin) > 0:
		return source{kind: srcText, text: string(env.Stdin)}
	}
	return source{}
}

// Result is a classification: the most severe class over every simple
// command, with readable reasons.
type Result struct {
	Class Class
	// Reasons explain why the command is Destructive or Unparseable, e.g.
	// "rm -rf outside the working directory: /etc". Empty for ReadOnly and
	// Write results.
	Reasons []string
	// Commands are the simple commands found, outermost first, including
	// those unwrapped from sudo, xargs, bash -c and the like. Rules are
	// matched against them. Empty when the command could not be parsed.
	Commands []Command
}

// Command is one simple command of a classified command line.
type Command struct {
	// Argv is the statically expanded argument vector. A word that cannot be
	// expanded statically ($var, $(…)) is shown as its source text.
	Argv []string
	// Resolved is false when some word of Argv could not be expanded.
	Resolved bool
	// Class is this command's own class; wrappers such as env or bash -c are
	// ReadOnly themselves and the commands they run are listed separately.
	Class   Class
	Reasons []string
	// Dir is the directory it runs in, as tracked through cd; "" when
	// unknown (after cd to a computed directory), and for assignments and
	// redirection pseudo-commands.
	Dir string

	match   []string // Argv with unexpandable words replaced by unknownWord
	dropped int      // reasons past maxReasonsPerCommand

	// Writes are the paths (and all under them) a Destructive command
	// writes, truncates, moves or deletes, when that is all it is held for;
	// loose says it is held for something else too (or instead), which a
	// sandbox that refuses those writes would not stop.
	Writes []string
	loose  bool

	vetted bool   // known to be safe for ModeUnknown (see known.go)
	doubt  string // why not, when vetted is false; "" = see Doubt
}
