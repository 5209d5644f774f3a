package main

import (
	"syscall/js"
	"time"
)

// processCPU is the CPU time the process has used, all its threads (V8's
// compiler and collector threads too), from Node's process.cpuUsage; 0
// where there is no Node (a browser).
func processCPU() time.Duration {
	p := js.Global().Get("process")
	if p.Type() != js.TypeObject || p.Get("cpuUsage").Type() != js.TypeFunction {
		return 0
	}
	u := p.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
