package web

import (
	"runtime"
	"syscall"
)

// lowPriority runs f on an OS thread of its own at the lowest scheduling
// priority (nice 19), so that background work leaves the cores to the
// browser and the server. The thread ends with f: it is never unlocked.
func lowPriority(f func() ([]byte, error)) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result)
	go func() {
		runtime.LockOSThread()
		syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19) // best effort
		data, err := f()
		done <- result{data, err}
	}()
	r := <-done
	return r.data, r.err
}
