package keymap

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Override rebinds actions from the config file's [keys] tables: group
// ("jobs") → action ("kill") → the keys that replace its defaults (["X"]).
// Group and action names are those of [KeyMap]'s fields, in any case. The
// result must pass [KeyMap.Check]; on an error m is left unchanged.
func (m *KeyMap) Override(groups map[string]map[string][]string) error {
	next := *m
	v := reflect.ValueOf(&next).Elem()
	for gname, actions := range groups {
		g, ok := field(v, gname)
		if !ok {
			return fmt.Errorf("keys: no group %q (groups: %s)", gname, names(v))
		}
		for aname, keys := range actions {
			f, ok := field(g, aname)
			if !ok {
				return fmt.Errorf("keys.%s: no action %q (actions: %s)", gname, aname, names(g))
			}
			if len(keys) == 0 || slices.Contains(keys, "") {
				return fmt.Errorf("keys.%s.%s: give at least one key, none empty", gname, aname)
			}
			b := f.Interface().(key.Binding)
			b.SetKeys(keys...)
			b.SetHelp(strings.Join(keys, "/"), b.Help().Desc)
			f.Set(reflect.ValueOf(b))
		}
	}
	if err := next.Check(); err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	*m = next
	return nil
}

// Action is one binding with the names the config file's [keys] tables
// give it: group "jobs", action "kill".
type Action struct {
	Group, Name string
	Binding     key.Binding
}

// Actions lists every binding of m in the order of its groups and fields.
func (m KeyMap) Actions() []Action {
	var out []Action
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		g := v.Field(i)
		for j := range g.NumField() {
			if b, ok := g.Field(j).Interface().(key.Binding); ok {
				out = append(out, Action{strings.ToLower(v.Type().Field(i).Name), strings.ToLower(g.Type().Field(j).Name), b})
			}
		}
	}
	return out
}

// field finds a struct field by name, in any case.
func field(v reflect.Value, name string) (reflect.Value, bool) {
	for i := range v.NumField() {
		if strings.EqualFold(v.Type().Field(i).Name, name) {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func names(v reflect.Value) string {
	var out []string
	for i := range v.NumField() {
		out = append(out, strings.ToLower(v.Type().Field(i).Name))
	}
	return strings.Join(out, ", ")
}

// bindings returns every key.Binding field of a group struct by name, so a
// binding left out of FullHelp is still checked.
func bindings(g any) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(g)
	for i := range v.NumField() {
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out[v.Type().Field(i).Name] = b
		}
	}
	return out
}

// accidental are keys a person presses without deciding anything, or a job,
// a paste or a terminal sends on its own: none of them may settle an
// approval or take the keyboard back from an attached job.
var accidental = []string{"enter", "space", " ", "esc", "tab", "ctrl+c", "ctrl+d", "ctrl+j", "ctrl+m"}

// Check reports a binding with no keys, a key bound twice among the groups
// that are active together, and an approval (or detach) key a person could
// press by accident.
func (m KeyMap) Check() error {
	var errs []error
	for _, g := range m.Groups() {
		for name, b := range bindings(g.Keys) {
			if len(b.Keys()) == 0 {
				errs = append(errs, fmt.Errorf("%s.%s has no keys", g.Name, name))
			}
		}
	}
	for _, set := range []struct {
		what   string
		groups []Group
	}{
		{"the job list", []Group{{"Global", m.Global}, {"Jobs", m.Jobs}, {"Pane", m.Pane}}},
		{"the Activity view", []Group{{"Global", m.Global}, {"Activity", m.Activity}}},
		{"the Approvals view", []Group{{"Global", m.Global}, {"Approve", m.Approve}, {"Queue", m.Queue}}},
		{"an approval selected in the job list", []Group{{"Global", m.Global}, {"Jobs", m.Jobs}, {"Approve", m.Approve}}},
		{"copy mode", []Group{{"Copy", m.Copy}}},
		{"the signal picker", []Group{{"Picker", m.Picker}}},
		{"a question", []Group{{"Confirm", m.Confirm}}},
	} {
		seen := map[string]string{}
		for _, g := range set.groups {
			for name, b := range bindings(g.Keys) {
				for _, k := range b.Keys() {
					if other, ok := seen[k]; ok && other != g.Name+"."+name {
						errs = append(errs, fmt.Errorf("key %q is bound to both %s and %s in %s", k, other, g.Name+"."+name, set.what))
					}
					seen[k] = g.Name + "." + name
				}
			}
		}
	}
	deliberate := bindings(m.Approve)
	deliberate["Detach"] = m.Term.Detach
	for name, b := range deliberate {
		for _, k := range b.Keys() {
			if slices.Contains(accidental, k) {
				errs = append(errs, fmt.Errorf("%s cannot be %q: it could be pressed or sent by accident", name, k))
			}
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
}
