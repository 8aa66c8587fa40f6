package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOwnWorkGitignore: what the working tree's .gitignore names is made
// by tools, not the user's own work, once the file exists on disk; the
// file is read again when it changes.
func TestOwnWorkGitignore(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ignore := filepath.Join(dir, ".gitignore")
	write := func(text string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(ignore, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(ignore, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	env := Env{Cwd: dir, Home: "/home/user"}
	check := func(cmd string, want Class) {
		t.Helper()
		if got := Classify(cmd, env); got.Class != want {
			t.Errorf("Classify(%q) = %v %q, want %v", cmd, got.Class, got.Reasons, want)
		}
	}
	check("rm -rf lib", Destructive) // no .gitignore yet
	write("# outputs\nlib/\n/api-client\n*.sqlite-wal\ndocs/_build\n*\n!src\n!docs\n", time.Unix(1_700_000_000, 0))
	check("rm -rf lib", Write)
	check("rm -rf api-client", Write)
	check("rm -rf src", Destructive)    // re-included after *
	check("rm -rf docs", Destructive)   // re-included after *
	check("rm -rf scripts", Write)      // * ignores it
	check("rm -rf packages/lib", Write) // a name pattern matches at any depth
	check("unzip -o x.zip -d lib", Write)
	write("lib-old/\n", time.Unix(1_700_000_100, 0))
	check("rm -rf lib", Destructive)
	check("rm -rf lib-old", Write)
	write(strings.Repeat("#\n", maxIgnoreBytes)+"lib\n", time.Unix(1_700_000_200, 0))
	check("rm -rf lib", Destructive) // past the bound: not read
}

// TestParseGitignore pins how patterns are read.
func TestParseGitignore(t *testing.T) {
	t.Parallel()
	g := parseGitignore(strings.NewReader("node_modules/\n/out\nbuild/**\n**/gen\nweb/dist\n!keep\n\n# c\n"))
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"node_modules", true},
		{"web/node_modules", true},
		{"out", true},
		{"web/out", false},
		{"build", true},
		{"proto/gen", true},
		{"web/dist", true},
		{"dist", false},
		{"keep", false},
		{"src", false},
	} {
		if got := g.match(tc.path); got != tc.want {
			t.Errorf("match(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

// TestLocalSettingsMadeOrReplaced: writing the checkout's own settings
// (.env) is held when the disk shows one there, whose other keys the
// write loses, and not when it makes the first one (cp .env.example .env
// in a fresh checkout).
func TestLocalSettingsMadeOrReplaced(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := Env{Cwd: dir, Home: "/home/user"}
	cmds := []string{"cp .env.example .env", "echo DEBUG=1 > .env", "cp config/settings.example.yaml config/settings.yaml"}
	check := func(want Class) {
		t.Helper()
		for _, cmd := range cmds {
			if got := Classify(cmd, env); got.Class != want {
				t.Errorf("Classify(%q) = %v %q, want %v", cmd, got.Class, got.Reasons, want)
			}
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	check(Write)
	for _, f := range []string{".env", "config/settings.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("KEY=1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	check(Destructive)
}
