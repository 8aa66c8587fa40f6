package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"tend/vterm"
)

// runReplay is `tend replay`: it writes a raw terminal byte stream (a PTY
// job's log, a recording) through tend's emulator and prints the final
// screen, as text or as screen JSON.
func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cols := fs.Int("cols", 80, "screen width")
	rows := fs.Int("rows", 24, "screen height")
	asJSON := fs.Bool("json", false, "print the screen as JSON (cells with text, width and style; cursor; alternate screen)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tend replay [--cols N --rows M] [--json] [FILE]   (FILE defaults to standard input)")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, stdout); !ok {
		return code
	}
	if *cols < 1 || *rows < 1 || *cols > vterm.MaxSize || *rows > vterm.MaxSize {
		fmt.Fprintf(stderr, "tend replay: size %d×%d is out of range (1 to %d)\n", *cols, *rows, vterm.MaxSize)
		return 2
	}
	in := stdin
	switch fs.NArg() {
	case 0:
	case 1:
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "tend replay: %v\n", err)
			return 1
		}
		defer f.Close()
		in = f
	default:
		fs.Usage()
		return 2
	}
	t, err := vterm.Replay(in, *cols, *rows)
	if err != nil {
		fmt.Fprintf(stderr, "tend replay: %v\n", err)
		return 1
	}
	snap := t.Snapshot()
	if *asJSON {
		b, err := snap.MarshalScreenJSON()
		if err != nil {
			fmt.Fprintf(stderr, "tend replay: %v\n", err)
			return 1
		}
		stdout.Write(append(b, '\n'))
		return 0
	}
	fmt.Fprintln(stdout, snap.Text())
	return 0
}
