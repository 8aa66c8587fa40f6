package policy

import (
	"slices"
	"strings"
	"testing"
)

// TestModeUnknown: ModeUnknown lets through recognised readers and the
// everyday steps, holds everything else with a reason, and keeps the rules'
// precedence of [Policy.Check].
func TestModeUnknown(t *testing.T) {
	t.Parallel()
	allowed := []string{
		"ls -la",
		"cat go.mod | grep module | head -1",
		"git status && git log --oneline -5 && git diff HEAD~1",
		"git --help",
		"go test ./...",
		"go vet ./... && go build -o bin/tend .",
		"gofmt -l . && go mod tidy && go generate ./...",
		"npm test", "npm run lint", "pnpm install", "yarn", "bun test",
		"npx tsc --noEmit", "npx eslint src", "jest --watch=false",
		"pytest -q tests", "python3 -m pytest -x",
		"cargo build --release", "cargo clippy -- -D warnings", "cargo --version",
		"make", "make test", "make -j8 build lint", "make -j 4 check",
		"git add -A && git commit -m 'wip'",
		"git commit -m \"$(cat <<'EOF'\nfix: a thing\nEOF\n)\"",
		"git push", "git push -u origin feature/x", "git pull --rebase", "git fetch origin",
		"git checkout -b topic", "git switch main", "git stash", "git merge topic", "git rebase main",
		"git tag -l 'v*'",
		"mkdir -p build/out && touch build/out/.keep",
		"echo hello > notes.txt", "printf 'x\\n' >> log.txt 2>/dev/null",
		"cat <<EOF > a.txt\nline\nEOF",
		"{ echo a; echo b; } > both.txt",
		"go test ./... 2>&1 | tee test.log",
		"echo x > /tmp/scratch.txt",
		"cd sub && go test ./...",
		"export CGO_ENABLED=0 && go build ./...",
		"GIT_PAGER=cat git log -3",
		"",
	}
	for _, cmd := range allowed {
		if v := (Policy{Mode: ModeUnknown}).Check(cmd, testEnv); v.Decision != Allow {
			t.Errorf("Check(%q) = %v %q, want allow", cmd, v.Decision, v.Reasons)
		}
	}
	held := []struct{ cmd, why string }{
		// Programs and subcommands the table does not know.
		{"cargo nextest run", "not known to be safe: cargo nextest"},
		{"./run.sh", "not known to be safe: ./run.sh"},
		{"foo --version", "not known to be safe: foo"},
		{"bash build.sh", "not known to be safe: bash"},
		{"python script.py", "not known to be safe: python"},
		{"curl https://example.invalid", "not known to be safe: curl"},
		{"make deploy", "not known to be safe: make deploy"},
		{"make -C /opt/x", "not known to be safe: make -C"},
		{"npm install --prefix /opt/x left-pad", "not known to be safe: npm install --prefix"},
		{"go install ./cmd/x", "not known to be safe: go install"},
		{"go test -exec 'rm -rf ~' ./...", "not known to be safe: go test -exec"},
		{"go build -o /usr/local/bin/x .", "not known to be safe: go build -o /usr/local/bin/x"},
		{"npx -p evil tsc", "not known to be safe: npx -p"},
		{"npx -p", "not known to be safe: npx -p"},
		{"git checkout -m $B", "not known to be safe: git checkout with a word computed at run time: $B"},
		{"ssh host ls", "not known to be safe: ssh host"},
		// Git subcommands and forms the table does not know.
		{"git frobnicate", "not known to be safe: git frobnicate"},
		{"git tag v1.0", "not known to be safe: git tag v1.0"},
		{"git rebase -i HEAD~3", "not known to be safe: git rebase -i"},
		{"git push origin a:b", "not known to be safe: git push a:b"},
		{"git push --tags", "not known to be safe: git push --tags"},
		{"git -C /elsewhere commit -m x", "not known to be safe: git -C"},
		{"git fetch --upload-pack=x", "not known to be safe: git fetch --upload-pack=x"},
		{"git worktree add ../x", "not known to be safe: git worktree"},
		// One unknown part holds the whole line.
		{"ls | frob", "not known to be safe: frob"},
		{"go test ./... && ./deploy", "not known to be safe: ./deploy"},
		{"find . -name '*.go' | xargs frob", "not known to be safe: frob"},
		{"echo $(frob)", "not known to be safe: frob"},
		// Writes and steps outside the working directory.
		{"mkdir /opt/x", "not known to be safe: mkdir /opt/x"},
		{"cd / && make", "not known to be safe: make outside the working directory (in /)"},
		{"cd \"$D\" && go test ./...", "not known to be safe: go test outside the working directory (in a directory computed at run time)"},
		{"go test $PKGS", "not known to be safe: go test with a word computed at run time: $PKGS"},
		// Variables that change how commands run.
		{"LD_PRELOAD=/tmp/x.so ls", "not known to be safe: sets LD_PRELOAD"},
		{"export PATH=/tmp/bin:$PATH && go test", "not known to be safe: sets PATH"},
	}
	for _, tc := range held {
		v := (Policy{Mode: ModeUnknown}).Check(tc.cmd, testEnv)
		if v.Decision != Ask || v.Rule != "" || !slices.ContainsFunc(v.Reasons, func(r string) bool { return strings.HasPrefix(r, tc.why) }) || len(v.Held) == 0 {
			t.Errorf("Check(%q) = %v %q %q held %v, want ask with a reason starting %q", tc.cmd, v.Decision, v.Rule, v.Reasons, v.Held, tc.why)
		}
	}
	// Destructive and unparseable commands are held with their own reasons.
	for _, cmd := range []string{"git push --force origin main", "rm -rf /", "$x -rf /", "make test && rm -rf ~", "sudo make", "echo x > ~/.bashrc", "npm publish"} {
		v := (Policy{Mode: ModeUnknown}).Check(cmd, testEnv)
		if v.Decision != Ask || len(v.Reasons) == 0 || strings.HasPrefix(v.Reasons[0], "not known") {
			t.Errorf("Check(%q) = %v %q, want ask for its class", cmd, v.Decision, v.Reasons)
		}
	}
}

// TestModeUnknownRules: rules keep the precedence of [Policy.Check].
func TestModeUnknownRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		rules    Rules
		cmd      string
		want     Decision
		wantRule string
	}{
		{"allow rule lets an unknown tool through", Rules{Allow: []string{"Bash(cargo nextest:*)"}}, "cargo nextest run", Allow, "Bash(cargo nextest:*)"},
		{"allow rule for one part only", Rules{Allow: []string{"Bash(cargo nextest:*)"}}, "cargo nextest run && ./deploy", Ask, ""},
		{"allow rule for every unknown part", Rules{Allow: []string{"Bash(cargo nextest:*)", "Bash(./deploy)"}}, "go test ./... && cargo nextest run && ./deploy", Allow, "Bash(./deploy)"},
		{"ask rule holds an everyday step", Rules{Ask: []string{"Bash(git push:*)"}}, "git push origin main", Ask, "Bash(git push:*)"},
		{"deny rule refuses an everyday step", Rules{Deny: []string{"Bash(make:*)"}}, "make test", Deny, "Bash(make:*)"},
		{"deny beats allow", Rules{Allow: []string{"Bash"}, Deny: []string{"Bash(frob:*)"}}, "frob", Deny, "Bash(frob:*)"},
		{"catch-all allow", Rules{Allow: []string{"Bash"}}, "frob && rm -rf /", Allow, "Bash"},
	}
	for _, tc := range tests {
		v := Policy{Mode: ModeUnknown, Rules: tc.rules}.Check(tc.cmd, testEnv)
		if v.Decision != tc.want || v.Rule != tc.wantRule {
			t.Errorf("%s: Check(%q) = %v %q, want %v %q (%q)", tc.name, tc.cmd, v.Decision, v.Rule, tc.want, tc.wantRule, v.Reasons)
		}
	}
}

// Held names the commands that made the decision Ask, and only those.
func TestVerdictHeld(t *testing.T) {
	t.Parallel()
	v := Policy{Mode: ModeUnknown, Rules: Rules{Allow: []string{"Bash(frob:*)"}}}.Check("ls && frob && go test && blip x", testEnv)
	var names []string
	for _, i := range v.Held {
		names = append(names, v.Commands[i].Argv[0])
	}
	if v.Decision != Ask || !slices.Equal(names, []string{"blip"}) {
		t.Fatalf("held %q (%v), want blip", names, v.Decision)
	}
	if v := (Policy{Mode: ModeDestructive}).Check("rm -rf / && ls", testEnv); !slices.Equal(v.Held, []int{0}) {
		t.Fatalf("destructive mode held %v, want [0]", v.Held)
	}
	if v := (Policy{Mode: ModeDestructive, Rules: Rules{Ask: []string{"Bash(ls)"}}}).Check("ls", testEnv); v.Held != nil {
		t.Fatalf("an ask rule's verdict held %v", v.Held)
	}
}

// The reasons ModeUnknown adds are bounded like the classifier's.
func TestModeUnknownReasonsBounded(t *testing.T) {
	t.Parallel()
	var parts []string
	for i := range 50 {
		parts = append(parts, "tool"+strings.Repeat("x", i))
	}
	v := Policy{Mode: ModeUnknown}.Check(strings.Join(parts, "; "), testEnv)
	if len(v.Reasons) != maxReasonsPerCommand+1 || !strings.Contains(v.Reasons[maxReasonsPerCommand], "42 more") {
		t.Fatalf("%d reasons: %q", len(v.Reasons), v.Reasons)
	}
}
