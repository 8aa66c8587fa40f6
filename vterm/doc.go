// Package vterm is tend's terminal screen: a stream layer in front of vt10x
// that absorbs its quirks, with snapshots, scrollback and key encoding. It is
// the only importer of vt10x and imports nothing of tend's.
package vterm
