package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tend/internal/testkit"
	"tend/policy"
)

func TestConfig(t *testing.T) {
	t.Parallel()
	c, err := Load(testkit.WriteFile(t, "config.toml", `
port = 9000
theme = "light"
job_colours = "theme"
fps = 20
[approval]
mode = "all"
timeout = "2m"
headless = "deny"
[rules]
allow = ["Bash(npm run test:*)"]
deny = ["Bash(curl:*)"]
[jobs]
grace = "2s"
max_jobs = 8
[keys.jobs]
kill = ["X"]
`))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.Policy()
	if c.Port != 9000 || c.Theme != "light" || c.FPS != 20 || p.Mode != policy.ModeAll || c.Approval.Timeout.Duration != 2*time.Minute || c.Jobs.Grace.Duration != 2*time.Second || c.Jobs.MaxJobs != 8 {
		t.Fatalf("config %+v", c)
	}
	if !c.ThemeJobColours() {
		t.Fatalf("job_colours %q: not the theme's", c.JobColours)
	}
	for text, want := range map[string]bool{"": false, `job_colours = "terminal"`: false, `job_colours = "theme"`: true} {
		if c, err := Load(testkit.WriteFile(t, "config.toml", text)); err != nil || c.ThemeJobColours() != want {
			t.Errorf("%q: ThemeJobColours %v (%v), want %v", text, c.ThemeJobColours(), err, want)
		}
	}
	if !c.Approval.DenyAlone() || len(p.Rules.Deny) != 1 {
		t.Fatalf("approval %+v, rules %+v", c.Approval, p.Rules)
	}
	if km, err := c.KeyMap(); err != nil || km.Jobs.Kill.Help().Key != "X" {
		t.Fatalf("keys: %v %v", km.Jobs.Kill.Keys(), err)
	}
	if c, err := Load(filepath.Join(t.TempDir(), "missing.toml")); err != nil || c.Path != "" {
		t.Fatalf("missing file: %+v %v", c, err)
	}
	for _, bad := range []struct{ text, want string }{
		{`[approval]` + "\n" + `mode = "sometimes"`, "approval.mode"},
		{`[approval]` + "\n" + `mode = "unkown"`, `approval.mode: policy: there is no mode "unkown": the modes are off, destructive, all and unknown`},
		{`[rules]` + "\n" + `deny = ["Bash(curl"]`, "rules"},
		{`[jobs]` + "\n" + `grace = "soon"`, "duration"},
		{`colour = "red"`, "unknown setting"},
		{`theme = "neon"`, "theme"},
		{`job_colours = "rainbow"`, `job_colours is "rainbow": say terminal or theme`},
		{`port = 70000`, "port"},
		{`fps = 500`, "fps"},
		{"[jobs]\ncontainment = \"jail\"", "jobs.containment"},
		{"[jobs]\nsandbox = \"jail\"", "jobs.sandbox"},
		{"[jobs]\nsandbox_fallback = \"warn\"", "jobs.sandbox_fallback"},
		{"[approval]\nsandbox = \"readonly\"", "approval.sandbox"},
		{`port = `, "config"},
		{"[keys.jobs]\nkill = [\"z\"]", `key "z" is bound to both`},
		{"[keys.jobs]\nexplode = [\"e\"]", `no action "explode"`},
		{"[keys.approve]\napprove = [\"enter\"]", "by accident"},
	} {
		if _, err := Load(testkit.WriteFile(t, "config.toml", bad.text)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want one about %s", bad.text, err, bad.want)
		}
	}
}

// Each of the four approval modes can be set.
func TestApprovalModes(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]policy.Mode{"off": policy.ModeOff, "destructive": policy.ModeDestructive, "all": policy.ModeAll, "unknown": policy.ModeUnknown} {
		c, err := Load(testkit.WriteFile(t, "config.toml", "[approval]\nmode = \""+name+"\"\n"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p, err := c.Policy(); err != nil || p.Mode != want {
			t.Errorf("%s: mode %v, %v", name, p.Mode, err)
		}
	}
}
