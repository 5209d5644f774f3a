package main

import (
	"sync"

	"fabriclab/sim/scenario"
)

// readScenario reads a scenario file the user names (a variable so that
// tests can count the reads).
var readScenario = scenario.ReadFile

// readOnce is a reader for scenario.Load that reads the file once, through
// readScenario, and then hands out the same bytes (or error): a command that
// loads one scenario many times with different overrides (sweep, nccl-tests)
// reads it once, and every load sees the same file. Safe for concurrent use.
func readOnce() func(string) ([]byte, error) {
	var (
		mu   sync.Mutex
		read bool
		path string
		data []byte
		err  error
	)
	return func(p string) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		if !read || p != path {
			read, path = true, p
			data, err = readScenario(p)
		}
		return data, err
	}
}
