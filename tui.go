package main

import (
	"fmt"
	"io"
)

// runTUI is `tend` with no command: the terminal UI hosting the engine and
// the MCP servers. (Being built.)
func runTUI(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "the tend terminal UI is not built yet")
	return 2
}
