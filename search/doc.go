// Package search finds code for tend's agents: [Grep] searches file contents
// for a regular expression and [Glob] lists files whose path matches a glob.
//
// Both leave out what .gitignore, .ignore and .rgignore exclude, .git, and
// dependency and build directories such as node_modules and target, as
// ripgrep does (see ignore.go for the rules). Grep runs ripgrep when it is
// installed and a Go walk otherwise; the two engines take the same options to
// the same matches in the same order, so a caller never needs to know which
// one ran. Results are capped and each call has a time limit ([Config]); what
// a cap or the limit leaves out is said in the result's note, and an invalid
// option is an error whose sentence says how to fix it, fit to be shown to an
// agent as is.
//
// It imports no other tend package; only mcpserver, which serves Grep and
// Glob as the terminal_rg and terminal_glob tools, imports it.
package search
