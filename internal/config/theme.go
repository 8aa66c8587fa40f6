package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// themeLine is a top-level line that sets the theme: what comes before the
// value, the value, and what follows it (a comment).
var themeLine = regexp.MustCompile(`^(\s*theme\s*=\s*)("[^"]*"|'[^']*')(.*)$`)

// SaveTheme sets theme = name in the config file at path, so that the
// next start uses the theme the person switched to. The rest of the file is
// kept as it is, comments and order too: the line that sets the theme is
// changed, or one is added to the top-level settings. A missing file is
// made (0600, in a directory made 0700). The file is written whole and
// renamed over the old one (through a symlink, the file it points to), and
// only if it then reads as the same config but for the theme: a file this
// cannot change safely is left alone, with an error.
func SaveTheme(path, name string) error {
	switch {
	case name != "dark" && name != "light":
		return fmt.Errorf("theme %q: say dark or light", name)
	case path == "":
		return errors.New("no config file")
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	mode := fs.FileMode(0o600)
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("config %s: %w", path, err)
		}
	case err != nil:
		return fmt.Errorf("config %s: %w", path, err)
	default:
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode().Perm()
		}
	}
	text := setTheme(string(old), name)
	var before, after Config
	if _, err := toml.Decode(string(old), &before); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if _, err := toml.Decode(text, &after); err != nil || after.Theme != name {
		return fmt.Errorf("config %s: the theme cannot be set in it safely; set theme = %q there by hand", path, name)
	}
	before.Theme, after.Theme = "", ""
	if !reflect.DeepEqual(before, after) {
		return fmt.Errorf("config %s: the theme cannot be set in it safely; set theme = %q there by hand", path, name)
	}
	return writeFile(path, []byte(text), mode)
}

// setTheme returns config text with its top-level theme set to name.
func setTheme(text, name string) string {
	value := `"` + name + `"`
	lines := strings.SplitAfter(text, "\n")
	lastSetting := -1 // the last top-level line that sets something
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			break // the first table: the top level is over
		}
		if m := themeLine.FindStringSubmatch(strings.TrimRight(l, "\r\n")); m != nil {
			lines[i] = m[1] + value + m[3] + l[len(strings.TrimRight(l, "\r\n")):]
			return strings.Join(lines, "")
		}
		if t != "" && !strings.HasPrefix(t, "#") {
			lastSetting = i
		}
	}
	line := "theme = " + value + "\n"
	if text != "" && !strings.HasSuffix(text, "\n") && lastSetting == len(lines)-1 {
		line = "\n" + line
	}
	return strings.Join(lines[:lastSetting+1], "") + line + strings.Join(lines[lastSetting+1:], "")
}

// writeFile replaces the file at path with data: written to a new file
// beside it, then renamed over it, so a reader never sees half of it.
func writeFile(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // once renamed, there is nothing left to remove
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}
