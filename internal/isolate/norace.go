//go:build !race

package isolate

// raceDataFactor is 1 outside -race builds: the worker's data segment is
// capped at the configured size (see race.go).
const raceDataFactor = 1
