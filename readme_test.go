package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"tend/keymap"
)

// keyTable is the README's table of every key binding, from the code.
func keyTable() string {
	var b strings.Builder
	b.WriteString("| group | action | keys | what it does |\n|---|---|---|---|\n")
	for _, a := range keymap.Default().Actions() {
		keys := make([]string, len(a.Binding.Keys()))
		for i, k := range a.Binding.Keys() {
			keys[i] = "`" + strings.ReplaceAll(k, "|", `\|`) + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", a.Group, a.Name, strings.Join(keys, " "), a.Binding.Help().Desc)
	}
	return b.String()
}

// The README's key table is the code's: a binding changed in keymap/ and
// not in the README fails here, with the table to paste.
func TestREADMEKeyTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(b), "<!-- keys:begin -->\n")
	got, _, ok2 := strings.Cut(rest, "<!-- keys:end -->")
	if !ok1 || !ok2 {
		t.Fatal("README.md has no <!-- keys:begin --> … <!-- keys:end --> section")
	}
	if want := keyTable(); got != want {
		t.Errorf("README.md's key table is out of date; put this between the markers:\n%s", want)
	}
}
