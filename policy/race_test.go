//go:build race

package policy

const raceEnabled = true
