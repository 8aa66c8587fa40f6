// Package config reads tend's config file and knows where tend keeps its
// files: $XDG_CONFIG_HOME/tend/config.toml and $XDG_STATE_HOME/tend.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/BurntSushi/toml"

	"tend/engine"
	"tend/keymap"
	"tend/policy"
	"tend/sandbox"
)

// Config is the config file. Every field is optional; flags given on the
// command line win over it.
//
//	port = 7878
//	theme = "dark"                 # or "light"
//	job_colours = "terminal"       # a job's 16 colours: the terminal's own, or "theme"
//	fps = 60                       # most frames a second (1–120)
//
//	[approval]
//	mode = "destructive"           # off | destructive | all | unknown
//	timeout = "10m"                # no answer by then is a denial
//	headless = "warn"              # with no person watching: warn (run it) or deny
//	sandbox = "off"                # off | workspace | workspace-offline: a command held only for
//	                               # writing outside its working tree runs so confined instead of asking
//
//	[rules]                        # Claude Code's permission syntax
//	allow = ["Bash(npm run test:*)", "Bash(git status)"]
//	ask   = ["Bash(git push:*)"]
//	deny  = ["Bash(curl:*)"]
//
//	[jobs]
//	grace = "5s"                   # SIGTERM → SIGKILL
//	max_jobs = 64
//	max_ptys = 16
//	containment = "auto"           # auto | cgroup | subreaper (tend doctor says which is in force)
//	sandbox = "off"                # an agent's command: off | workspace | workspace-offline | readonly
//	writable = ["/home/me/.cache"] # a sandboxed command may write here too
//	sandbox_fallback = "refuse"    # a kernel that cannot enforce the sandbox: refuse | unconfined (with a warning)
//
//	[keys.jobs]                    # group → action → keys (the README lists them)
//	kill = ["X"]
//	[keys.term]
//	detach = ["ctrl+a"]
type Config struct {
	Port     int                            `toml:"port"`
	Theme    string                         `toml:"theme"`
	FPS      int                            `toml:"fps"`
	Approval Approval                       `toml:"approval"`
	Rules    policy.Rules                   `toml:"rules"`
	Jobs     Jobs                           `toml:"jobs"`
	Keys     map[string]map[string][]string `toml:"keys"` // group → action → keys
	Notify   Notify                         `toml:"notify"`
	Hook     Hook                           `toml:"hook"`

	// JobColours says whose a job's colours 0–15 are on screen:
	// "terminal" (the default: the terminal's own palette, so a job looks
	// as it does in a plain terminal) or "theme" (remapped to the theme's).
	JobColours string `toml:"job_colours"`

	// Path is where the config was read from ("" if there was no file).
	Path string `toml:"-"`
}

// Approval is the [approval] table: how held commands are decided.
type Approval struct {
	Mode     string   `toml:"mode"`
	Timeout  Duration `toml:"timeout"`
	Headless string   `toml:"headless"`
	// Sandbox, when workspace or workspace-offline, runs a command held
	// only for what it would write, move or delete outside its working
	// tree (and the temp dirs) in that sandbox instead of asking a person:
	// the sandbox refuses exactly what it was held for.
	Sandbox string `toml:"sandbox"`
}

// DenyAlone reports whether a held command is denied when no person is
// watching (rather than run with a warning).
func (a Approval) DenyAlone() bool { return a.Headless == "deny" }

// Notify is the [notify] table: a command run when something waits for
// the person (an approval, a job's prompt), besides the terminal's bell.
type Notify struct {
	// Command is the program and its first arguments; tend adds the
	// event's title and body as two more, and writes the event as JSON on
	// its stdin. Empty: none.
	Command []string `toml:"command"`
}

// Hook is the [hook] table: what `tend hook` answers an agent's own shell.
type Hook struct {
	// Route rewrites every allowed command to run through `tend run`, so
	// it is a job the person sees and can kill.
	Route bool `toml:"route"`
	// Fallback is the answer, with no tend running, for a command tend's
	// policy holds: "ask" (the agent's own prompt, the default), "deny",
	// or "none" (say nothing: the agent's own rules decide).
	Fallback string `toml:"fallback"`
}

// Jobs is the [jobs] table.
type Jobs struct {
	Grace       Duration `toml:"grace"`
	MaxJobs     int      `toml:"max_jobs"`
	MaxPTYs     int      `toml:"max_ptys"`
	Containment string   `toml:"containment"`
	// Sandbox is how an agent's command is confined unless its call says
	// (off, workspace, workspace-offline, readonly); Writable are paths a
	// confined command may write besides its working tree and temp dirs.
	Sandbox  string   `toml:"sandbox"`
	Writable []string `toml:"writable"`
	// SandboxFallback is what a sandbox this kernel cannot enforce does:
	// "refuse" the command (the default) or run it "unconfined", saying so.
	SandboxFallback string `toml:"sandbox_fallback"`
}

// Duration reads "5s", "10m" and the like.
type Duration struct{ time.Duration }

// UnmarshalText reads a duration that is not negative.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration (say 5s, 10m, 1h)", b)
	}
	if v < 0 {
		return fmt.Errorf("%q is negative", b)
	}
	d.Duration = v
	return nil
}

// DefaultPath is $XDG_CONFIG_HOME/tend/config.toml, or
// ~/.config/tend/config.toml.
func DefaultPath() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "tend", "config.toml")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "tend", "config.toml")
}

// DefaultStateDir is $XDG_STATE_HOME/tend, or ~/.local/state/tend: job
// logs, the audit log, the socket and the discovery file live there.
func DefaultStateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "tend")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "tend-state")
	}
	return filepath.Join(home, ".local", "state", "tend")
}

// Load reads and checks the config file at path. A missing file is the
// defaults; a file with an error is an error that says where.
func Load(path string) (Config, error) {
	var c Config
	if path == "" {
		return c, nil
	}
	md, err := toml.DecodeFile(path, &c)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	c.Path = path
	if und := md.Undecoded(); len(und) > 0 {
		return c, fmt.Errorf("config %s: unknown setting %q", path, und[0].String())
	}
	if err := c.check(); err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

func (c Config) check() error {
	if _, err := c.Policy(); err != nil {
		return err
	}
	switch c.Approval.Headless {
	case "", "warn", "deny":
	default:
		return fmt.Errorf("approval.headless is %q: say warn or deny", c.Approval.Headless)
	}
	switch c.Hook.Fallback {
	case "", "ask", "deny", "none":
	default:
		return fmt.Errorf("hook.fallback is %q: say ask, deny or none", c.Hook.Fallback)
	}
	switch c.Theme {
	case "", "dark", "light":
	default:
		return fmt.Errorf("theme is %q: say dark or light", c.Theme)
	}
	switch c.JobColours {
	case "", "terminal", "theme":
	default:
		return fmt.Errorf("job_colours is %q: say terminal or theme", c.JobColours)
	}
	if _, err := c.KeyMap(); err != nil {
		return err
	}
	if len(c.Notify.Command) > 0 && c.Notify.Command[0] == "" {
		return fmt.Errorf("notify.command starts with an empty program name")
	}
	if c.FPS < 0 || c.FPS > 120 {
		return fmt.Errorf("fps %d is out of range (1 to 120)", c.FPS)
	}
	if c.Port < 0 || c.Port > 65535 {
		return fmt.Errorf("port %d is out of range", c.Port)
	}
	if _, err := engine.ParseContainment(c.Jobs.Containment); err != nil {
		return fmt.Errorf("jobs.%w", err)
	}
	if _, err := sandbox.Parse(c.Jobs.Sandbox); err != nil {
		return fmt.Errorf("jobs.%w", err)
	}
	if m, err := sandbox.Parse(c.Approval.Sandbox); err != nil || m == sandbox.ReadOnly {
		return fmt.Errorf("approval.sandbox %q: use off, workspace or workspace-offline", c.Approval.Sandbox)
	}
	if f := c.Jobs.SandboxFallback; f != "" && f != "refuse" && f != "unconfined" {
		return fmt.Errorf("jobs.sandbox_fallback %q: use refuse or unconfined", f)
	}
	for _, p := range c.Jobs.Writable {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("jobs.writable: %q is not an absolute path", p)
		}
	}
	return nil
}

// ThemeJobColours reports whether a job's colours 0–15 are drawn in the
// theme's colours rather than the terminal's.
func (c Config) ThemeJobColours() bool { return c.JobColours == "theme" }

// Policy is the approval mode and rules of the config.
func (c Config) Policy() (policy.Policy, error) {
	mode := policy.ModeDestructive
	if c.Approval.Mode != "" {
		m, err := policy.ParseMode(c.Approval.Mode)
		if err != nil {
			return policy.Policy{}, fmt.Errorf("approval.mode: %w", err)
		}
		mode = m
	}
	if err := c.Rules.Validate(); err != nil {
		return policy.Policy{}, fmt.Errorf("rules: %w", err)
	}
	return policy.Policy{Mode: mode, Rules: c.Rules}, nil
}

// KeyMap is the default key map with the config's [keys] applied.
func (c Config) KeyMap() (keymap.KeyMap, error) {
	km := keymap.Default()
	err := km.Override(c.Keys)
	return km, err
}

// FillFlags sets grace, maxJobs and port (any may be nil) from the config
// where the command line did not; it returns the flags that were set there.
func (c Config) FillFlags(fs *flag.FlagSet, grace *time.Duration, maxJobs, port *int) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if grace != nil && !set["grace"] && c.Jobs.Grace.Duration > 0 {
		*grace = c.Jobs.Grace.Duration
	}
	if maxJobs != nil && !set["max-jobs"] && c.Jobs.MaxJobs > 0 {
		*maxJobs = c.Jobs.MaxJobs
	}
	if port != nil && !set["port"] && c.Port > 0 {
		*port = c.Port
	}
	return set
}
