package sandbox

import (
	"reflect"
	"testing"
)

func TestCommandAndParseArgs(t *testing.T) {
	t.Parallel()
	argv := Command("/bin/tend", Workspace, "/w", []string{"/c"}, []string{"sh", "-c", "-mode x -- y"})
	if argv[0] != "/bin/tend" || argv[1] != Arg {
		t.Fatalf("argv %q", argv)
	}
	mode, rw, cmd, err := parseArgs(argv[2:])
	if err != nil || mode != Workspace || !reflect.DeepEqual(rw, []string{"/w", "/c"}) || !reflect.DeepEqual(cmd, []string{"sh", "-c", "-mode x -- y"}) {
		t.Fatalf("parsed %s %q %q %v", mode, rw, cmd, err)
	}
	if _, rw, _, _ := parseArgs(Command("t", ReadOnly, "/w", nil, []string{"true"})[2:]); len(rw) != 0 {
		t.Fatalf("readonly may write its cwd: %q", rw)
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
