//go:build !race

package ingest

// raceSlowdown is 1 outside -race builds (see race_test.go).
const raceSlowdown = 1
