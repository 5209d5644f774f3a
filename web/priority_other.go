//go:build !linux

package web

// lowPriority runs f; only Linux lowers a thread's priority.
func lowPriority(f func() ([]byte, error)) ([]byte, error) { return f() }
