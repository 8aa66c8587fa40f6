package main

import (
	"io"
	"path/filepath"
	"testing"
)

// The theme the person switches to with the theme key is what the next
// start of the TUI uses; -theme still wins.
func TestThemeSwitchKeptForNextStart(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "tend", "config.toml")
	f, _, ok := parseTUI([]string{"-config", cfg}, io.Discard, io.Discard)
	if !ok || f.theme != "" {
		t.Fatalf("first start: theme %q", f.theme)
	}
	if err := f.saveTheme("light"); err != nil { // what the UI calls on the key
		t.Fatal(err)
	}
	if f, _, ok = parseTUI([]string{"-config", cfg}, io.Discard, io.Discard); !ok || f.theme != "light" {
		t.Fatalf("next start: theme %q, want light", f.theme)
	}
	if f, _, ok = parseTUI([]string{"-config", cfg, "-theme", "dark"}, io.Discard, io.Discard); !ok || f.theme != "dark" {
		t.Fatalf("with -theme dark: theme %q", f.theme)
	}
}
