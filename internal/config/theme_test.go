package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The theme the person switches to is written to the config file, and the
// next Load reads it; the rest of the file stays as it was, comments too.
func TestSaveTheme(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, before, after string
	}{
		{"no file", "", "theme = \"light\"\n"},
		{"empty file", "\n", "theme = \"light\"\n\n"},
		{
			"the line is changed, its comment kept",
			"port = 7878\ntheme = \"dark\"                 # or \"light\"\nfps = 60\n\n[approval]\nmode = \"all\"\n",
			"port = 7878\ntheme = \"light\"                 # or \"light\"\nfps = 60\n\n[approval]\nmode = \"all\"\n",
		},
		{"a literal string", "theme='dark'\n", "theme=\"light\"\n"},
		{
			"added after the top-level settings",
			"# my tend\nport = 9000\n\n# approvals\n[approval]\nmode = \"all\"\n[keys.jobs]\nkill = [\"X\"]\n",
			"# my tend\nport = 9000\ntheme = \"light\"\n\n# approvals\n[approval]\nmode = \"all\"\n[keys.jobs]\nkill = [\"X\"]\n",
		},
		{"added at the top", "[approval]\nmode = \"all\"\n", "theme = \"light\"\n[approval]\nmode = \"all\"\n"},
		{"no newline at the end", "port = 9000", "port = 9000\ntheme = \"light\"\n"},
		{"a theme in a table is not the theme", "[x]\ntheme = \"dark\"\n", "theme = \"light\"\n[x]\ntheme = \"dark\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "tend", "config.toml")
			if tc.name != "no file" {
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := SaveTheme(path, "light"); err != nil {
				if tc.name == "a theme in a table is not the theme" && strings.Contains(err.Error(), "safely") {
					return // [x] is no table of tend's: Load refuses the file anyway
				}
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.after {
				t.Errorf("the file is\n%q\nwant\n%q", got, tc.after)
			}
			want := os.FileMode(0o644)
			if tc.name == "no file" {
				want = 0o600
			}
			if st, err := os.Stat(path); err != nil || st.Mode().Perm() != want {
				t.Errorf("mode %v (%v), want %v", st.Mode().Perm(), err, want)
			}
			if tc.name == "a theme in a table is not the theme" {
				return
			}
			c, err := Load(path)
			if err != nil || c.Theme != "light" {
				t.Fatalf("the next start reads theme %q (%v), want light", c.Theme, err)
			}
			if err := SaveTheme(path, "dark"); err != nil {
				t.Fatal(err)
			}
			if c, err := Load(path); err != nil || c.Theme != "dark" {
				t.Fatalf("after switching back: theme %q (%v)", c.Theme, err)
			}
		})
	}
}

// A config file that is a symlink (dotfiles) stays one: the file it points
// to is changed. A file SaveTheme cannot change safely is left alone.
func TestSaveThemeLeavesWhatItCannotChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "tend.toml")
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("port = 9000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := SaveTheme(link, "light"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", fi.Mode(), err)
	}
	if c, err := Load(link); err != nil || c.Theme != "light" || c.Port != 9000 {
		t.Fatalf("through the link: %+v %v", c, err)
	}

	for _, bad := range []string{"port = \n", "theme = \"dark\" \"x\"\n", `"theme" = "dark"` + "\n"} {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := SaveTheme(path, "light"); err == nil {
			t.Errorf("%q: saved", bad)
		}
		if got, _ := os.ReadFile(path); string(got) != bad {
			t.Errorf("%q: the file became %q", bad, got)
		}
	}
	if err := SaveTheme(filepath.Join(t.TempDir(), "c.toml"), "blue"); err == nil {
		t.Error("saved the theme blue")
	}
}
