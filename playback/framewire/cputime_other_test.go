//go:build !unix && !js

package framewire_test

import "time"

// cpuTime is 0 here: the benchmarks report cpu-ns/frame on Unix and under Node.
func cpuTime() time.Duration { return 0 }
