//go:build unix

package web

import "syscall"

// openFileLimit is the process's soft limit on open files, or 0 if unknown.
func openFileLimit() uint64 {
	var r syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r) != nil {
		return 0
	}
	return r.Cur
}
