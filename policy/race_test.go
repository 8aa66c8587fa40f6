//go:build race

package policy

// raceEnabled says the race detector is on: it makes the classifier's
// regular expressions many times slower, so TestGridInterp then checks
// a sample of its cells.
const raceEnabled = true
