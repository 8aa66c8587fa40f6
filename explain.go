package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tend/policy"
)

// explainWidth is the width tend check --explain writes to.
const explainWidth = 80

// explain writes what tend check --explain shows: each simple command
// found (outermost first) with its class and reasons, marked when it is
// held; then the overall class, the decision and what decided it.
func explain(w io.Writer, p policy.Policy, command, dir string, v policy.Verdict) {
	put := func(label, text string) {
		for i, l := range wrapWords(text, explainWidth-12) {
			if i > 0 {
				label = ""
			}
			fmt.Fprintf(w, "%-12s%s\n", label, l)
		}
	}
	put("command:", oneLine(command))
	put("in:", dir)
	fmt.Fprintln(w)
	if len(v.Commands) == 0 {
		fmt.Fprintln(w, "no simple command could be read from it")
	} else {
		fmt.Fprintln(w, "simple commands, outermost first (* = held for a person):")
	}
	const indent = 15 // "* " and the class column
	for i, c := range v.Commands {
		mark := "  "
		if slices.Contains(v.Held, i) {
			mark = "* "
		}
		argv := "(the command line as a whole)"
		if len(c.Argv) > 0 {
			argv = quoteArgv(c.Argv)
		}
		if c.Dir != "" && c.Dir != dir {
			argv += "   (in " + c.Dir + ")"
		}
		for j, l := range wrapWords(argv, explainWidth-indent) {
			if j == 0 {
				fmt.Fprintf(w, "%s%-13s%s\n", mark, c.Class, l)
			} else {
				fmt.Fprintf(w, "%*s%s\n", indent, "", l)
			}
		}
		why := c.Reasons
		if d := c.Doubt(); p.Mode == policy.ModeUnknown && d != "" && !c.Class.Held() {
			why = append(slices.Clip(why), d)
		}
		for _, r := range why {
			for j, l := range wrapWords(r, explainWidth-indent-2) {
				lead := "- "
				if j > 0 {
					lead = "  "
				}
				fmt.Fprintf(w, "%*s%s%s\n", indent, "", lead, l)
			}
		}
	}
	if len(v.Commands) == 0 {
		for _, r := range v.Reasons {
			put("", "- "+r)
		}
	}
	fmt.Fprintln(w)
	put("class:", v.Class.String())
	put("decision:", v.Decision.String())
	put("decided by:", decidedBy(p.Mode, v))
}

// decidedBy names the rule or the mode that decided v, and why.
func decidedBy(m policy.Mode, v policy.Verdict) string {
	switch {
	case v.Decision == policy.Deny:
		return "rule deny " + v.Rule
	case v.Decision == policy.Ask && v.Rule != "":
		return "rule ask " + v.Rule
	case v.Decision == policy.Allow && v.Rule != "":
		return "rule allow " + v.Rule
	}
	why := map[policy.Mode][2]string{ // allow, ask
		policy.ModeOff:         {"nothing waits for a person; the class is only a warning", ""},
		policy.ModeDestructive: {"nothing in it is destructive or unparseable", "destructive and unparseable commands wait for a person"},
		policy.ModeAll:         {"everything in it is read-only", "every command that is not read-only waits for a person"},
		policy.ModeUnknown:     {"everything in it is a known reader or an everyday step", "commands not known to be safe wait for a person"},
	}[m]
	text := why[0]
	if v.Decision == policy.Ask {
		text = why[1]
	}
	return fmt.Sprintf("mode %q (%s)", m.String(), text)
}

// quoteArgv joins argv for reading: a word with spaces or shell syntax in
// it is single-quoted, one with control characters Go-quoted. Words that
// hold $ are shown as written, on one line (they could not be expanded).
func quoteArgv(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case strings.ContainsAny(a, "$`"):
			words[i] = oneLine(a)
		case strings.IndexFunc(a, unicode.IsControl) >= 0:
			words[i] = strconv.Quote(a)
		case a == "":
			words[i] = "''"
		case strings.ContainsAny(a, " \t'\"\\|&;<>()*?[]{}#!"):
			words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		default:
			words[i] = a
		}
	}
	return strings.Join(words, " ")
}

// oneLine shows s on one line, its newlines as ⏎.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", " ⏎ ")
}

// wrapWords breaks s into lines of at most width characters, at spaces;
// a longer word is cut.
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for utf8.RuneCountInString(word) > width {
			if line != "" {
				lines, line = append(lines, line), ""
			}
			cut := []rune(word)
			lines, word = append(lines, string(cut[:width])), string(cut[width:])
		}
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}
