package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestCommandAndParseArgs(t *testing.T) {
	t.Parallel()
	argv := Command("/bin/tend", Workspace, "/w", []string{"/c"}, []string{"sh", "-c", "-mode x -- y"})
	if argv[0] != "/bin/tend" || argv[1] != Arg {
		t.Fatalf("argv %q", argv)
	}
	mode, rw, cmd, err := parseArgs(argv[2:])
	if err != nil || mode != Workspace || !reflect.DeepEqual(rw, Writable(Workspace, "/w", []string{"/c"})) || !reflect.DeepEqual(cmd, []string{"sh", "-c", "-mode x -- y"}) {
		t.Fatalf("parsed %s %q %q %v", mode, rw, cmd, err)
	}
	if !slices.Contains(rw, "/w") || !slices.Contains(rw, "/c") || !slices.Contains(rw, "/tmp") {
		t.Fatalf("workspace may not write its cwd, the config's paths and /tmp: %q", rw)
	}
	if _, rw, _, _ := parseArgs(Command("t", ReadOnly, "/w", nil, []string{"true"})[2:]); slices.Contains(rw, "/w") || !slices.Contains(rw, "/tmp") {
		t.Fatalf("readonly may write its cwd, or not /tmp: %q", rw)
	}
	for _, bad := range [][]string{{}, {"--"}, {"-mode", "everywhere", "--", "true"}, {"-x", "--", "true"}, {"-mode"}} {
		if _, _, _, err := parseArgs(bad); err == nil {
			t.Errorf("parseArgs(%q) accepted", bad)
		}
	}
	for _, s := range []string{"", "off", "workspace", "workspace-offline", "readonly"} {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
}

// Refuses is true only where the mode lets nothing at the path, nor under
// it, be written, links followed.
func TestRefuses(t *testing.T) {
	t.Setenv("TMPDIR", "")
	for _, tc := range []struct {
		mode Mode
		path string
		want bool
	}{
		{Workspace, "/etc/passwd", true},
		{WorkspaceOffline, "/etc", true},
		{Workspace, "/", false}, // holds every writable dir
		{Workspace, "/etc/../tmp/x", false},
		{Workspace, "/dev/sda", false}, // devices are written as terminals are
		{Workspace, "/proc/sys/kernel/x", false},
		{Workspace, "/var/tmp/x", false},
		{Workspace, "relative/path", false},
		{Off, "/etc/passwd", false},
		{ReadOnly, "/etc/passwd", true},
		{ReadOnly, "/opt/tend-test-cwd/x", true}, // readonly does not let its tree be written
		{Workspace, "/opt/tend-test-cwd/x", false},
		{Workspace, "/opt", false}, // a parent of the tree
		{Workspace, "/opt/other", true},
	} {
		if got := Refuses(tc.mode, "/opt/tend-test-cwd", nil, tc.path); got != tc.want {
			t.Errorf("Refuses(%s, %s) = %v", tc.mode, tc.path, got)
		}
	}
	if Refuses(Workspace, "/opt/tend-test-cwd", []string{"/srv/cache"}, "/srv/cache/x") {
		t.Error("a path the config lets be written is refused")
	}

	// Links, in a directory outside every temp dir: a path through a link
	// into the tree is in the tree, and so is a tree named by its link.
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	base, err := os.MkdirTemp(home, ".tend-refuses-test-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	tree, link := filepath.Join(base, "tree"), filepath.Join(base, "link")
	if err := os.Mkdir(tree, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(tree, link); err != nil {
		t.Fatal(err)
	}
	if !Refuses(Workspace, tree, nil, filepath.Join(base, "other")) {
		t.Error("a path beside the tree is not refused")
	}
	if Refuses(Workspace, tree, nil, filepath.Join(link, "x")) || Refuses(Workspace, link, nil, filepath.Join(tree, "x")) {
		t.Error("a link into the tree is not seen through")
	}
}
