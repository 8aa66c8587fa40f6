package policy

import (
	"fmt"
	"slices"
	"strings"
)

// Mode says which commands wait for a person.
type Mode int

// The modes.
const (
	// ModeOff runs everything; the classification is only a warning.
	ModeOff Mode = iota
	// ModeDestructive holds Destructive and Unparseable commands.
	ModeDestructive
	// ModeAll holds every command that is not ReadOnly.
	ModeAll
	// ModeUnknown holds every command not known to be safe: only readers
	// the classifier recognises and a short table of everyday build, test
	// and git steps run without a person (see [Command.Doubt]).
	ModeUnknown
)

// String returns "off", "destructive", "all" or "unknown".
func (m Mode) String() string {
	switch m {
	case ModeOff:
		return "off"
	case ModeDestructive:
		return "destructive"
	case ModeAll:
		return "all"
	case ModeUnknown:
		return "unknown"
	default:
		return fmt.Sprintf("Mode(%d)", int(m))
	}
}

// ParseMode parses the result of [Mode.String].
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off":
		return ModeOff, nil
	case "destructive":
		return ModeDestructive, nil
	case "all":
		return ModeAll, nil
	case "unknown":
		return ModeUnknown, nil
	}
	return 0, fmt.Errorf("policy: there is no mode %q: the modes are off, destructive, all and unknown", s)
}

// holds reports whether m holds c for a person, rules aside.
func (m Mode) holds(c Command) bool {
	switch m {
	case ModeOff:
		return false
	case ModeAll:
		return c.Class >= Write
	case ModeUnknown:
		return c.Class >= Destructive || !c.vetted
	}
	return c.Class >= Destructive
}

// Decision is what happens to a command.
type Decision int

// The decisions.
const (
	Allow Decision = iota // run it
	Ask                   // wait for a person
	Deny                  // refuse at once
)

// String returns "allow", "ask" or "deny".
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	default:
		return fmt.Sprintf("Decision(%d)", int(d))
	}
}

// Rules are Claude Code permission-syntax patterns: "Bash(npm run test:*)",
// "Bash(git status)", "Bash" (all). See [Rule].
type Rules struct{ Allow, Ask, Deny []string }

// Policy is a mode plus the user's rules.
type Policy struct {
	Mode  Mode
	Rules Rules
}

// Verdict is the decision for one command.
type Verdict struct {
	Result
	Decision Decision
	Rule     string // the rule that decided, if any
	// Held are the indexes in Commands of the commands the mode held and no
	// allow rule let through: when there are any, they made the decision Ask.
	Held []int
}

// Check classifies command and decides what to do with it. Rules are matched
// against every simple command of the command line (see [Result.Commands]),
// including those run through wrappers (sudo, xargs, bash -c, …). Precedence:
//
//  1. A deny rule matching any simple command: Deny, in every mode.
//  2. ModeOff: Allow (the Result still carries the warnings).
//  3. An ask rule matching any simple command: Ask.
//  4. The held commands are those of class Destructive or Unparseable
//     (ModeDestructive), of any class but ReadOnly (ModeAll), or Destructive,
//     Unparseable or not known to be safe (ModeUnknown, see [Command.Doubt]);
//     a command that could not be parsed at all counts as one held command
//     with no argv, which only the rule "Bash" matches. No held command: Allow.
//  5. Every held command matched by an allow rule: Allow (Rule names the
//     allow rule of the last one). Otherwise Ask, and Held lists the others;
//     in ModeUnknown, Reasons then also say why they are not known to be safe.
//
// Rules that [ParseRule] rejects are ignored here; validate them when they
// are loaded with [Rules.Validate]. A deny rule cannot match a command whose
// name is dynamic ($cmd …); such commands are Unparseable and so are held in
// every mode but ModeOff.
func (p Policy) Check(command string, env Env) Verdict {
	r := Classify(command, env)
	v := Verdict{Result: r, Decision: Allow}
	cmds := r.Commands
	if len(cmds) == 0 {
		// Nothing parsed (or an empty command): one pseudo-command that only
		// the catch-all rule matches, known to be safe only if nothing runs.
		cmds = []Command{{Class: r.Class, Reasons: r.Reasons, vetted: r.Class == ReadOnly}}
	}
	if rule, ok := firstMatch(compile(p.Rules.Deny), cmds); ok {
		v.Decision, v.Rule = Deny, rule
		return v
	}
	if p.Mode == ModeOff {
		return v
	}
	if rule, ok := firstMatch(compile(p.Rules.Ask), cmds); ok {
		v.Decision, v.Rule = Ask, rule
		return v
	}
	allow := compile(p.Rules.Allow)
	held := false
	var doubts []string
	// A redirect or a fork bomb is recorded on a pseudo-command of its
	// own, so looking at each of cmds covers the overall class too.
	for i, c := range cmds {
		if !p.Mode.holds(c) {
			continue
		}
		if rule, ok := firstMatch(allow, []Command{c}); ok {
			v.Rule = rule
			continue
		}
		held = true
		if len(r.Commands) > 0 {
			v.Held = append(v.Held, i)
		}
		if why := c.Doubt(); p.Mode == ModeUnknown && !c.Class.Held() && !slices.Contains(doubts, why) {
			doubts = append(doubts, why)
		}
	}
	if !held {
		return v
	}
	v.Decision, v.Rule = Ask, ""
	if len(doubts) > maxReasonsPerCommand {
		doubts = append(doubts[:maxReasonsPerCommand], fmt.Sprintf("and %d more commands not known to be safe", len(doubts)-maxReasonsPerCommand))
	}
	v.Reasons = append(slices.Clip(v.Reasons), doubts...)
	return v
}

// Confinable returns the paths the command is held for writing, moving or
// deleting, when nothing else holds it: a sandbox that lets none of them
// (nor anything under them) be written keeps it from what it is held for.
// It is false when a rule decided, or some held command is held for
// anything else (code it runs, the network, the machine, a path not known
// statically) or could not be parsed.
func (v Verdict) Confinable() (paths []string, ok bool) {
	if v.Decision != Ask || v.Rule != "" || len(v.Held) == 0 {
		return nil, false
	}
	for _, i := range v.Held {
		c := v.Commands[i]
		if c.Class != Destructive || c.loose || len(c.Writes) == 0 {
			return nil, false
		}
		paths = append(paths, c.Writes...)
	}
	return paths, true
}

// firstMatch returns the first rule that matches any of cmds.
func firstMatch(rules []Rule, cmds []Command) (string, bool) {
	for _, r := range rules {
		for _, c := range cmds {
			if r.Match(c) {
				return r.String(), true
			}
		}
	}
	return "", false
}
