package policy

import (
	"errors"
	"strings"
	"testing"
)

// TestCheck pins the precedence documented on [Policy.Check].
func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		mode     Mode
		rules    Rules
		cmd      string
		want     Decision
		wantRule string
	}{
		{"off allows destructive", ModeOff, Rules{}, "rm -rf /", Allow, ""},
		{"off still denies", ModeOff, Rules{Deny: []string{"Bash(rm:*)"}}, "rm -rf /", Deny, "Bash(rm:*)"},
		{"read-only allowed", ModeDestructive, Rules{}, "ls", Allow, ""},
		{"write allowed in destructive mode", ModeDestructive, Rules{}, "touch x", Allow, ""},
		{"destructive asks", ModeDestructive, Rules{}, "rm -rf /", Ask, ""},
		{"unparseable asks", ModeDestructive, Rules{}, "$x -rf /", Ask, ""},
		{"allow prefix", ModeDestructive, Rules{Allow: []string{"Bash(rm -rf:*)"}}, "rm -rf /", Allow, "Bash(rm -rf:*)"},
		{"allow exact does not cover more args", ModeDestructive, Rules{Allow: []string{"Bash(git push)"}}, "git push --force origin main", Ask, ""},
		{"allow prefix covers more args", ModeDestructive, Rules{Allow: []string{"Bash(git push:*)"}}, "git push --force origin main", Allow, "Bash(git push:*)"},
		{"allowed part does not cover the rest", ModeDestructive, Rules{Allow: []string{"Bash(git status)"}}, "git status && rm -rf /", Ask, ""},
		{"every held part allowed", ModeDestructive, Rules{Allow: []string{"Bash(git reset --hard)", "Bash(git clean -fd)"}}, "git reset --hard && git clean -fd", Allow, "Bash(git clean -fd)"},
		{"prefix is word-bounded", ModeAll, Rules{Allow: []string{"Bash(npm run test:*)"}}, "npm run testing", Ask, ""},
		{"prefix alone matches", ModeAll, Rules{Allow: []string{"Bash(npm run test:*)"}}, "npm run test", Allow, "Bash(npm run test:*)"},
		{"prefix with args", ModeAll, Rules{Allow: []string{"Bash(npm run test:*)"}}, "npm run test -- --watch", Allow, "Bash(npm run test:*)"},
		{"all mode asks for write", ModeAll, Rules{}, "touch x", Ask, ""},
		{"all mode allows read-only", ModeAll, Rules{}, "git log", Allow, ""},
		{"all mode allow rule", ModeAll, Rules{Allow: []string{"Bash(touch:*)"}}, "touch x", Allow, "Bash(touch:*)"},
		{"ask rule forces ask", ModeDestructive, Rules{Ask: []string{"Bash(git push:*)"}}, "git push origin main", Ask, "Bash(git push:*)"},
		{"ask beats allow", ModeDestructive, Rules{Ask: []string{"Bash(git push:*)"}, Allow: []string{"Bash"}}, "git push origin main", Ask, "Bash(git push:*)"},
		{"deny beats allow", ModeDestructive, Rules{Allow: []string{"Bash"}, Deny: []string{"Bash(rm:*)"}}, "rm x", Deny, "Bash(rm:*)"},
		{"deny beats ask", ModeDestructive, Rules{Ask: []string{"Bash"}, Deny: []string{"Bash(rm:*)"}}, "rm x", Deny, "Bash(rm:*)"},
		{"deny any part", ModeDestructive, Rules{Deny: []string{"Bash(curl:*)"}}, "ls && curl https://example.invalid", Deny, "Bash(curl:*)"},
		{"deny under sudo", ModeDestructive, Rules{Deny: []string{"Bash(rm:*)"}}, "sudo rm -rf /tmp/x", Deny, "Bash(rm:*)"},
		{"deny under bash -c", ModeDestructive, Rules{Deny: []string{"Bash(rm:*)"}}, "bash -c 'rm x'", Deny, "Bash(rm:*)"},
		{"deny under xargs", ModeDestructive, Rules{Deny: []string{"Bash(rm:*)"}}, "echo x | xargs rm", Deny, "Bash(rm:*)"},
		{"deny the wrapper", ModeDestructive, Rules{Deny: []string{"Bash(sudo:*)"}}, "sudo ls", Deny, "Bash(sudo:*)"},
		{"catch-all allow covers unparseable", ModeDestructive, Rules{Allow: []string{"Bash"}}, "$x -rf /", Allow, "Bash"},
		{"parse error only matches Bash", ModeDestructive, Rules{Allow: []string{"Bash(rm:*)"}}, "rm -rf (", Ask, ""},
		{"parse error, catch-all deny", ModeDestructive, Rules{Deny: []string{"Bash"}}, "rm -rf (", Deny, "Bash"},
		{"Bash(*) is catch-all", ModeAll, Rules{Allow: []string{"Bash(*)"}}, "touch x", Allow, "Bash(*)"},
		{"quoted rule matches expanded argv", ModeAll, Rules{Allow: []string{`Bash(git commit -m "wip")`}}, "git commit -m 'wip'", Allow, `Bash(git commit -m "wip")`},
		{"unexpandable word never matches exactly", ModeAll, Rules{Allow: []string{"Bash(rm $f)"}}, "rm $f", Ask, ""},
		{"allowing a command does not allow its destructive redirect", ModeDestructive, Rules{Allow: []string{"Bash(echo:*)"}}, "echo x >> ~/.bashrc", Ask, ""},
		{"bad rules are ignored", ModeDestructive, Rules{Deny: []string{"Bash(", "Read(./x)"}}, "ls", Allow, ""},
	}
	for _, tc := range tests {
		p := Policy{Mode: tc.mode, Rules: tc.rules}
		got := p.Check(tc.cmd, testEnv)
		for try := 0; try < 3 && overran(got.Result); try++ {
			got = p.Check(tc.cmd, testEnv) // see classifyT
		}
		if got.Decision != tc.want || got.Rule != tc.wantRule {
			t.Errorf("%s: Check(%q) = %v %q, want %v %q (class %v %q)", tc.name, tc.cmd, got.Decision, got.Rule, tc.want, tc.wantRule, got.Class, got.Reasons)
		}
	}
}

func TestParseRule(t *testing.T) {
	t.Parallel()
	good := []string{"Bash", "Bash(*)", "Bash(ls)", "Bash(npm run test:*)", " Bash(git  status) ", `Bash(git commit -m "a b":*)`}
	for _, s := range good {
		if _, err := ParseRule(s); err != nil {
			t.Errorf("ParseRule(%q): %v", s, err)
		}
	}
	bad := []string{"", "Bash(", "Bash()", "Bash(:*)", "Bash(ls) x", "Bash(a:*b)", "Bash (ls)", "(ls)", "Bash(ls *)"}
	for _, s := range bad {
		if _, err := ParseRule(s); err == nil || errors.Is(err, ErrNotBash) {
			t.Errorf("ParseRule(%q) = %v, want a syntax error", s, err)
		}
	}
	for _, s := range []string{"Read(./src/**)", "WebFetch"} {
		if _, err := ParseRule(s); !errors.Is(err, ErrNotBash) {
			t.Errorf("ParseRule(%q) = %v, want ErrNotBash", s, err)
		}
	}
	if err := (Rules{Allow: []string{"Bash(ls)", "Read(x)"}}).Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if err := (Rules{Deny: []string{"Bash("}}).Validate(); err == nil {
		t.Error("Validate accepted Bash(")
	}
}

func TestStrings(t *testing.T) {
	t.Parallel()
	for _, m := range []Mode{ModeOff, ModeDestructive, ModeAll, ModeUnknown} {
		got, err := ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	if ModeUnknown.String() != "unknown" {
		t.Errorf("ModeUnknown is %q", ModeUnknown)
	}
	if _, err := ParseMode("sometimes"); err == nil || !strings.Contains(err.Error(), "off, destructive, all and unknown") {
		t.Errorf("ParseMode(sometimes): %v, want an error listing the four modes", err)
	}
	want := map[string]string{
		ReadOnly.String(): "read-only", Write.String(): "write", Destructive.String(): "destructive", Unparseable.String(): "unparseable",
		Allow.String(): "allow", Ask.String(): "ask", Deny.String(): "deny",
	}
	for got, w := range want {
		if got != w {
			t.Errorf("String = %q, want %q", got, w)
		}
	}
}

// Command.Dir follows cd.
func TestCommandDir(t *testing.T) {
	t.Parallel()
	r := Classify(`cd / && rm -rf usr; (cd tmp; ls); cd "$x"; ls`, Env{Cwd: "/home/u/proj", Home: "/home/u"})
	var got []string
	for _, c := range r.Commands {
		got = append(got, c.Argv[0]+"@"+c.Dir)
	}
	// ls after cd tmp; runs in / too when the cd fails: it is listed for both.
	want := []string{"cd@/home/u/proj", "rm@/", "cd@/", "ls@/tmp", "ls@/", "cd@/", "ls@"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("dirs %q, want %q", got, want)
	}
}
