// Package policy classifies shell commands (read-only, write, destructive,
// unparseable) by parsing them with mvdan.cc/sh, and decides allow, ask or
// deny under the user's rules. It imports nothing of tend's.
package policy
