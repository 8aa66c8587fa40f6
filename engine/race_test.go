//go:build race

package engine

// raceEnabled says the race detector is on: it multiplies memory use, so
// memory bounds are reported but only asserted without it.
const raceEnabled = true
