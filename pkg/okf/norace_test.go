//go:build !race

package okf

// raceEnabled is true under the race detector, which slows parsing several
// times over: timing bounds are not checked then.
const raceEnabled = false
