//go:build !js && !windows && !wasip1

package main

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, all its threads (the
// collector's workers too).
func processCPU() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
