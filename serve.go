package main

import (
	"fmt"
	"io"
)

// runServe is `tend serve`: the engine and the MCP server over HTTP and the
// unix socket, headless. (Being built.)
func runServe(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "tend serve is not built yet")
	return 2
}
