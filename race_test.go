//go:build race

package main

// raceEnabled says the race detector is on: memory bounds are then reported,
// not asserted, and the binary under test is built with -race too.
const raceEnabled = true
