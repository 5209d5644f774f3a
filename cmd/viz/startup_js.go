//go:build js

package main

import "syscall/js"

// yieldFrame: an animation frame, then a message (the frame's rendering is
// done by the time it comes).
func (b *jsBridge) yieldFrame() {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		b.port.Call("postMessage", nil)
		return nil
	})
	js.Global().Call("requestAnimationFrame", cb)
	<-b.turn
}
