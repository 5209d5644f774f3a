//go:build !unix

package web

// openFileLimit is the process's soft limit on open files: unknown here.
func openFileLimit() uint64 { return 0 }
