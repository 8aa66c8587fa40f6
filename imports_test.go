package main

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// importRule is what one of tend's packages may import of tend's own:
// docs/ARCHITECTURE.md draws the same map. Package main ("tend") may import
// everything and is not listed.
var importRule = map[string][]string{
	"tend/vterm":              nil,
	"tend/policy":             nil,
	"tend/keymap":             nil,
	"tend/themes":             nil,
	"tend/search":             nil,
	"tend/sandbox":            nil,
	"tend/internal/discovery": nil,
	"tend/internal/testkit":   nil,
	"tend/engine":             {"tend/vterm", "tend/sandbox"},
	"tend/internal/audit":     {"tend/engine"},
	"tend/internal/config":    {"tend/engine", "tend/keymap", "tend/policy", "tend/sandbox"},
	"tend/mcpserver":          {"tend/engine", "tend/vterm", "tend/policy", "tend/search", "tend/sandbox"},
	"tend/ui":                 {"tend/engine", "tend/vterm", "tend/keymap", "tend/themes", "tend/policy"},
	"tend/internal/app": {"tend/engine", "tend/vterm", "tend/policy", "tend/mcpserver", "tend/sandbox",
		"tend/internal/audit", "tend/internal/config", "tend/internal/discovery", "tend/internal/control", "tend/internal/supervisor"},
	"tend/internal/control":    {"tend/engine", "tend/internal/discovery"},
	"tend/internal/supervisor": {"tend/engine", "tend/vterm", "tend/policy", "tend/internal/discovery"},
}

// onlyIn names third-party packages and the tend packages that alone may
// depend on them, directly or not.
var onlyIn = map[string][]string{
	"charm.land/bubbletea/v2":                    {"tend", "tend/ui"},
	"charm.land/lipgloss/v2":                     {"tend", "tend/ui", "tend/themes"},
	"github.com/modelcontextprotocol/go-sdk/mcp": {"tend", "tend/mcpserver", "tend/internal/app", "tend/internal/testkit"},
}

// directOnly names packages that only the listed ones may import directly:
// vt10x stays behind vterm's sealed boundary.
var directOnly = map[string][]string{
	"github.com/hinshun/vt10x": {"tend/vterm"},
}

type listedPackage struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	for dec := json.NewDecoder(strings.NewReader(string(out))); ; {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// The import rule: each package imports only what the map allows, nothing
// below ui speaks Bubble Tea, and only vterm imports vt10x.
func TestImportRule(t *testing.T) {
	t.Parallel()
	for _, p := range listPackages(t) {
		if p.ImportPath == "tend" {
			continue
		}
		allowed, known := importRule[p.ImportPath]
		if !known {
			t.Errorf("%s is not in the import rule: add it (and to docs/ARCHITECTURE.md)", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "tend/") && !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s, which the import rule does not allow", p.ImportPath, imp)
			}
			if only, ok := directOnly[imp]; ok && !slices.Contains(only, p.ImportPath) {
				t.Errorf("%s imports %s: only %v may", p.ImportPath, imp, only)
			}
		}
		for _, dep := range p.Deps {
			if only, ok := onlyIn[dep]; ok && !slices.Contains(only, p.ImportPath) {
				t.Errorf("%s depends on %s: only %v may", p.ImportPath, dep, only)
			}
		}
	}
}
