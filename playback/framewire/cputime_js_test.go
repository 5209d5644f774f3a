//go:build js

package framewire_test

import (
	"syscall/js"
	"time"
)

// cpuTime is Node's process.cpuUsage(), user and system (0 in a browser).
func cpuTime() time.Duration {
	p := js.Global().Get("process")
	if p.IsUndefined() {
		return 0
	}
	u := p.Call("cpuUsage")
	return time.Duration(u.Get("user").Int()+u.Get("system").Int()) * time.Microsecond
}
