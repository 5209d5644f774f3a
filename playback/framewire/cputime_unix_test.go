//go:build unix

package framewire_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system): on a
// machine shared with other work it counts what the benchmark did, not
// the time it waited for a core.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
