package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// reliabilityID is an entry of docs/RELIABILITY.md cited in a comment:
	// a measured fact (V3), a reliability scenario (R2.1), a security one
	// (S5), or a design rule.
	reliabilityID = regexp.MustCompile(`\b(V[0-9]{1,2}|R[0-9]\.[0-9]{1,2}|S[0-9]{1,2})\b|design rule [0-9]+`)
	// architectureRef is a section of docs/ARCHITECTURE.md: "ARCHITECTURE.md §3.2".
	architectureRef = regexp.MustCompile(`ARCHITECTURE\.md §([0-9]+(\.[0-9]+)?)`)
	// outside are citations of documents the repository does not have.
	outside = regexp.MustCompile(`\b(DESIGN|STYLE) ?§|\.\./shared|RELIABILITY\.md §`)
	// mdFile is a Markdown file a comment or a link names: it must be in
	// the repository.
	mdFile = regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_./-]*\.md\b`)
	// mdLink is the target of a Markdown link.
	mdLink = regexp.MustCompile(`\]\(([^)#]+)`)
)

// Every document a comment cites is in the repository, and every entry or
// section it names is in that document.
func TestCitationsResolve(t *testing.T) {
	t.Parallel()
	reliability := readDoc(t, "docs/RELIABILITY.md")
	architecture := readDoc(t, "docs/ARCHITECTURE.md")
	out, err := exec.Command("git", "ls-files", "*.go", "*.sh", "*.md", ".ci/run").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, file := range strings.Fields(string(out)) {
		b, err := os.ReadFile(file)
		if err != nil {
			continue // deleted in the working tree
		}
		for n, line := range strings.Split(string(b), "\n") {
			at := func(format string, args ...any) {
				t.Errorf("%s:%d: "+format, append([]any{file, n + 1}, args...)...)
			}
			if m := outside.FindString(line); m != "" {
				at("cites %q, which is not in the repository", m)
			}
			for _, m := range mdFile.FindAllString(prose(file, line), -1) {
				if !exists(m) && !exists(filepath.Join(filepath.Dir(file), m)) && !exists(filepath.Join("docs", m)) {
					at("names %s, which is not in the repository", m)
				}
			}
			for _, m := range architectureRef.FindAllStringSubmatch(line, -1) {
				if !regexp.MustCompile(`(?m)^#+ ` + regexp.QuoteMeta(m[1]) + `[. ]`).MatchString(architecture) {
					at("cites docs/ARCHITECTURE.md §%s, which has no such section", m[1])
				}
			}
			if !strings.Contains(file, "_test.go") && !strings.Contains(line, "RELIABILITY") || file == "docs/RELIABILITY.md" {
				continue // bare IDs are cited in tests; elsewhere only after "RELIABILITY"
			}
			for _, id := range reliabilityID.FindAllString(line, -1) {
				entry := "| " + id + " |" // a row of one of its tables
				if n, ok := strings.CutPrefix(id, "design rule "); ok {
					entry = "\n" + n + ". **" // an item of its list of design rules
				}
				if !strings.Contains(reliability, entry) {
					at("cites RELIABILITY %s, which docs/RELIABILITY.md does not have", id)
				}
			}
		}
	}
}

// prose is the part of a line that speaks of documents: a Go or shell
// comment, or a Markdown file's link targets (test data and code may name
// files that are not there).
func prose(file, line string) string {
	switch {
	case strings.HasSuffix(file, ".md"):
		var links []string
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			links = append(links, m[1])
		}
		return strings.Join(links, " ")
	case strings.HasSuffix(file, ".go"):
		if i := strings.Index(line, "//"); i >= 0 && !strings.Contains(line[:i], "\"") {
			return line[i:]
		}
	default: // shell
		if i := strings.Index(line, "#"); i >= 0 {
			return line[i:]
		}
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
