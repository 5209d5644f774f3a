//go:build windows || wasip1

package main

import "time"

// processCPU is not measured here: bench's CPU column reads 0.
func processCPU() time.Duration { return 0 }
