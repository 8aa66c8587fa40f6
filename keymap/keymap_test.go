package keymap

import (
	"reflect"
	"testing"

	"charm.land/bubbles/v2/key"
)

// allBindings returns every key.Binding field of a group struct, so a
// binding left out of FullHelp is still checked.
func allBindings(t *testing.T, g any) map[string]key.Binding {
	t.Helper()
	out := map[string]key.Binding{}
	v := reflect.ValueOf(g)
	for i := range v.NumField() {
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out[v.Type().Field(i).Name] = b
		}
	}
	return out
}

func checkNoDuplicates(t *testing.T, groups ...any) {
	t.Helper()
	seen := map[string]string{}
	for _, g := range groups {
		for name, b := range allBindings(t, g) {
			for _, k := range b.Keys() {
				if other, ok := seen[k]; ok {
					t.Errorf("key %q is bound to both %s and %s", k, other, name)
				}
				seen[k] = name
			}
		}
	}
}

func TestNoDuplicateKeysInAGroup(t *testing.T) {
	t.Parallel()
	km := Default()
	v := reflect.ValueOf(km)
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkNoDuplicates(t, v.Field(i).Interface())
		})
	}
}

// Groups that are active at the same time must not share a key either.
func TestNoDuplicateKeysAcrossActiveGroups(t *testing.T) {
	t.Parallel()
	km := Default()
	for _, tc := range []struct {
		name   string
		groups []any
	}{
		{"jobs view", []any{km.Global, km.Jobs, km.Pane}},
		{"activity view", []any{km.Global, km.Activity}},
		{"approvals view", []any{km.Global, km.Approve, km.Queue}},
		{"approval selected in the job list", []any{km.Global, km.Jobs, km.Approve}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkNoDuplicates(t, tc.groups...)
		})
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
		for name, b := range allBindings(t, g.Keys) {
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

// Only deliberate keys settle an approval: never enter, space, esc or a
// key an attached job or a paste is likely to send on its own.
func TestApprovalKeysAreDeliberate(t *testing.T) {
	t.Parallel()
	for name, b := range allBindings(t, Default().Approve) {
		for _, k := range b.Keys() {
			switch k {
			case "enter", "space", " ", "esc", "tab", "ctrl+c", "ctrl+d", "ctrl+j", "ctrl+m":
				t.Errorf("Approve.%s is bound to %q", name, k)
			}
		}
	}
}
