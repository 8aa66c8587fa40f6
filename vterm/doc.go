// Package vterm is tend's terminal screen: a stream layer in front of vt10x
// that absorbs its quirks, with snapshots, scrollback and key encoding. It is
// the only importer of vt10x and imports nothing of tend's; engine/ (for PTY
// jobs), the TUI and the MCP tools import it.
//
// # Contract
//
//   - [Term.Write] always consumes all of p and never returns an error. Bytes
//     may arrive split anywhere (a UTF-8 rune, an escape sequence, an OSC
//     string across writes): the screen is the same however the stream is cut.
//     A panic inside the emulator is recovered and counted ([Term.Panics]).
//   - Work per byte is bounded: parameters are clamped (CHT/CBT, ICH, ECH,
//     REP … never loop more than the screen's width or height), OSC payloads
//     are cut at 4 KiB and DCS/APC/PM strings are swallowed without being kept,
//     so a 1 MiB unterminated OSC costs no memory and no time beyond reading it.
//   - [Term.Snapshot] never waits for a busy emulator: while a Write holds
//     the lock it returns the previous snapshot. Snapshots are immutable.
//   - Answers to queries (DA1, DA2, DSR, CPR, DECRQM, XTVERSION, OSC 10/11,
//     the window size) go to the [WithReplies] callback on a goroutine of the
//     Term's own, in order, never under the emulator lock; a bounded queue
//     drops replies nobody collects rather than blocking the emulator.
//   - Lines leaving the top of the primary screen (line feeds, SU, a resize
//     that drops rows) go into a bounded scrollback ([WithScrollback]); the
//     alternate screen and scroll regions not starting at the top never add
//     to it. Lines are stored packed (text, a byte per cell, style runs).
//   - [Term.Resize] rejects sizes below 1x1 or above [MaxSize]x[MaxSize].
//
// # How vt10x is used
//
// vt10x never sees the application's bytes. A DEC-style parser (parser.go)
// reads them and hands vt10x only printable runes, CR, BS, LF, HT and
// canonical sequences with clamped parameters (one left out only where it is
// vt10x's default), so vt10x's own parser stays in its ground state and none
// of its parsing bugs apply. vt10x keeps the grid and moves cells (scrolls,
// inserts, deletes, the alternate screen); vterm keeps what vt10x cannot
// store in a cell:
//
//   - the style: vterm keeps a table of full styles (faint, strike, true
//     colour kept apart from palette colours …) and gives vt10x only the
//     style's number, as a cell's true-colour foreground (style.go);
//   - the text: the right half of a wide character holds a placeholder rune,
//     and a grapheme cluster (a base with combining marks) a private-use rune
//     that indexes a cluster table (cluster.go);
//   - the modes vt10x does not track (bracketed paste, synchronized output,
//     mouse, focus, cursor style, application keypad), and DECSC's rendition.
//
// Both tables are bounded and collect ids no visible or hidden cell uses.
//
// vt10x's parser costs per rune, so vterm hands it as few as it can: a
// cursor move is worked out by vterm and handed on as the shortest sequence
// from where the cursor is (none if it stays; two moves in a row become
// one), text the cells already hold is moved over (print.go), and lines that
// scroll straight through the screen go to the scrollback from their text,
// the screenful that stays being printed only when the screen is looked at
// or written to otherwise (flood.go).
//
// # The vt10x quirks absorbed, each with a test named after it
//
// A UTF-8 rune split across writes is carried; DA1/DA2/DSR/CPR are answered;
// kitty keyboard (CSI ? u, CSI > 1 u, CSI < u, CSI = … u) and modifyOtherKeys
// (CSI > 4;2 m) sequences are swallowed; a second ?1049l no longer swaps into
// the alternate screen; negative and huge parameters are clamped; REP is
// expanded; IRM inserts; colon SGR forms are read; ESC[;5H keeps its column;
// RIS clears the whole screen, and in the alternate screen returns to the
// primary one; ED 1 on the second row clears the first; true colour with
// r=g=0 stays true colour; wide characters take two cells and wrap first at
// the margin; combining marks attach to their base; erases keep only the
// background colour (BCE).
//
// Snapshots report colours as the application set them: reverse video is a
// flag, not applied, and bold with palette colours 0–7 is reported as 8–15
// only in the screen JSON ([Snapshot.MarshalScreenJSON]), whose format is
// documented in docs/screen-json.md.
//
// # Testing against tmux
//
// diff_test.go replays programs recorded inside tmux (vim, less, htop, dialog,
// whiptail, vttest, colours, CJK and emoji, scrolling, RIS) and compares every
// cell with tmux's screen, in 4096-byte and in 1-byte chunks. The recordings
// and tmux's screens are in testdata/diff; scripts/record-vterm-screens.sh
// makes them again. Where tmux is the odd one out (it lacks CHT, parks a
// pending-wrap cursor past the last column, homes DECSTBM outside the origin,
// stays in the alternate screen after RIS) the test says so.
package vterm
