package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/BurntSushi/toml"

	"tend/keymap"
	"tend/policy"
)

// config is $XDG_CONFIG_HOME/tend/config.toml (DESIGN §7). Every field is
// optional; flags given on the command line win over it.
//
//	port = 7878
//	theme = "dark"                 # or "light"
//	fps = 60                       # most frames a second (1–120)
//
//	[approval]
//	mode = "destructive"           # off | destructive | all
//	timeout = "10m"                # no answer by then is a denial
//	headless = "warn"              # with no person watching: warn (run it) or deny
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
//
//	[keys.jobs]                    # group → action → keys (the README lists them)
//	kill = ["X"]
//	[keys.term]
//	detach = ["ctrl+a"]
type config struct {
	Port     int                            `toml:"port"`
	Theme    string                         `toml:"theme"`
	FPS      int                            `toml:"fps"`
	Approval approvalConfig                 `toml:"approval"`
	Rules    policy.Rules                   `toml:"rules"`
	Jobs     jobsConfig                     `toml:"jobs"`
	Keys     map[string]map[string][]string `toml:"keys"` // group → action → keys

	path string // where it was read from ("" if there was no file)
}

type approvalConfig struct {
	Mode     string   `toml:"mode"`
	Timeout  duration `toml:"timeout"`
	Headless string   `toml:"headless"`
}

type jobsConfig struct {
	Grace   duration `toml:"grace"`
	MaxJobs int      `toml:"max_jobs"`
	MaxPTYs int      `toml:"max_ptys"`
}

// duration reads "5s", "10m" and the like.
type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
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

// defaultConfigPath is $XDG_CONFIG_HOME/tend/config.toml, or
// ~/.config/tend/config.toml.
func defaultConfigPath() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "tend", "config.toml")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "tend", "config.toml")
}

// loadConfig reads and checks the config file at path. A missing file is
// the defaults; a file with an error is an error that says where.
func loadConfig(path string) (config, error) {
	var c config
	if path == "" {
		return c, nil
	}
	md, err := toml.DecodeFile(path, &c)
	if errors.Is(err, fs.ErrNotExist) {
		return config{}, nil
	}
	if err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	c.path = path
	if und := md.Undecoded(); len(und) > 0 {
		return c, fmt.Errorf("config %s: unknown setting %q", path, und[0].String())
	}
	if _, err := c.policy(); err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	switch c.Approval.Headless {
	case "", "warn", "deny":
	default:
		return c, fmt.Errorf("config %s: approval.headless is %q: say warn or deny", path, c.Approval.Headless)
	}
	switch c.Theme {
	case "", "dark", "light":
	default:
		return c, fmt.Errorf("config %s: theme is %q: say dark or light", path, c.Theme)
	}
	if _, err := c.keys(); err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	if c.FPS < 0 || c.FPS > 120 {
		return c, fmt.Errorf("config %s: fps %d is out of range (1 to 120)", path, c.FPS)
	}
	if c.Port < 0 || c.Port > 65535 {
		return c, fmt.Errorf("config %s: port %d is out of range", path, c.Port)
	}
	return c, nil
}

// policy is the approval mode and rules of the config.
func (c config) policy() (policy.Policy, error) {
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

// keys is the default key map with the config's [keys] applied.
func (c config) keys() (keymap.KeyMap, error) {
	km := keymap.Default()
	err := km.Override(c.Keys)
	return km, err
}

// gate is the config's gate; approvals is nil when no person is watching.
func (c config) gate(approvals *policy.Approvals) *gate {
	p, _ := c.policy() // checked by loadConfig
	if approvals != nil && c.Approval.Timeout.Duration > 0 {
		approvals.Timeout = c.Approval.Timeout.Duration
	}
	return &gate{policy: p, approvals: approvals, denyAlone: c.Approval.Headless == "deny"}
}

// fillFlags sets grace, maxJobs and port (any may be nil) from the config
// where the command line did not; it returns the flags that were set there.
func (c config) fillFlags(fs *flag.FlagSet, grace *time.Duration, maxJobs, port *int) map[string]bool {
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
