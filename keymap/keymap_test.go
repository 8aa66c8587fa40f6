package keymap

import (
	"reflect"
	"strings"
	"testing"
)

func TestDefaultPassesCheck(t *testing.T) {
	t.Parallel()
	if err := Default().Check(); err != nil {
		t.Fatal(err)
	}
}

func TestEveryBindingHasHelpAndIsListed(t *testing.T) {
	t.Parallel()
	km := Default()
	for _, g := range km.Groups() {
		listed := map[string]bool{}
		for _, b := range g.Bindings() {
			listed[b.Help().Key+"|"+b.Help().Desc] = true
		}
		for name, b := range bindings(g.Keys) {
			h := b.Help()
			if h.Key == "" || h.Desc == "" {
				t.Errorf("%s.%s has no help", g.Name, name)
			}
			if len(b.Keys()) == 0 {
				t.Errorf("%s.%s has no keys", g.Name, name)
			}
			if !listed[h.Key+"|"+h.Desc] {
				t.Errorf("%s.%s is missing from FullHelp", g.Name, name)
			}
		}
	}
}

// ctrl+c must reach an attached job: the only key the terminal group takes
// is the detach prefix.
func TestTermTakesOnlyThePrefix(t *testing.T) {
	t.Parallel()
	term := Default().Term
	if got := term.Detach.Keys(); !reflect.DeepEqual(got, []string{"ctrl+b"}) {
		t.Errorf("Term.Detach keys = %v, want [ctrl+b]", got)
	}
}

func TestOverride(t *testing.T) {
	t.Parallel()
	km := Default()
	err := km.Override(map[string]map[string][]string{
		"jobs": {"Kill": {"X", "delete"}},
		"Term": {"detach": {"ctrl+a"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := km.Jobs.Kill.Keys(); !reflect.DeepEqual(got, []string{"X", "delete"}) {
		t.Errorf("Jobs.Kill keys = %v", got)
	}
	if h := km.Jobs.Kill.Help(); h.Key != "X/delete" || h.Desc != "kill" {
		t.Errorf("Jobs.Kill help = %+v", h)
	}
	if got := km.Term.Detach.Keys(); !reflect.DeepEqual(got, []string{"ctrl+a"}) {
		t.Errorf("Term.Detach keys = %v", got)
	}
	if got := km.Jobs.Zoom.Keys(); !reflect.DeepEqual(got, []string{"z"}) {
		t.Errorf("an action not named changed: Jobs.Zoom keys = %v", got)
	}
}

// A bad [keys] table is an error that names what is wrong, and leaves the
// key map as it was.
func TestOverrideRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		keys map[string]map[string][]string
		want string
	}{
		{"unknown group", map[string]map[string][]string{"nope": {"kill": {"X"}}}, `no group "nope"`},
		{"unknown action", map[string]map[string][]string{"jobs": {"explode": {"X"}}}, `no action "explode"`},
		{"no keys", map[string]map[string][]string{"jobs": {"kill": {}}}, "at least one key"},
		{"clash in one view", map[string]map[string][]string{"jobs": {"kill": {"z"}}}, `key "z" is bound to both`},
		{"clash with a global key", map[string]map[string][]string{"jobs": {"kill": {"q"}}}, `key "q" is bound to both`},
		{"enter approves", map[string]map[string][]string{"approve": {"approve": {"enter"}}}, `Approve cannot be "enter"`},
		{"esc detaches", map[string]map[string][]string{"term": {"detach": {"esc"}}}, `Detach cannot be "esc"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			km := Default()
			err := km.Override(tc.keys)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
			if !reflect.DeepEqual(km.Jobs.Kill.Keys(), []string{"x"}) || !reflect.DeepEqual(km.Approve.Approve.Keys(), []string{"y"}) {
				t.Fatal("a refused override changed the key map")
			}
		})
	}
}
