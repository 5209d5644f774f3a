//go:build js

package main

import "syscall/js"

// Ebitengine has made its canvas by now (its package initialises first) but
// not yet its WebGL context. The first getContext decides the context's
// attributes; asking here is how they are set. Antialiasing (WebGL's
// default) multisamples the screen that Ebitengine copies its picture onto
// every frame: on software WebGL (SwiftShader) that cost more than the rest
// of the frame, and changed no pixel (the copy is one screen-sized
// rectangle; the picture is drawn, unsampled, into an image before it). No
// alpha: the picture is opaque (Ebitengine fills the screen black under it),
// so the page's compositor need not blend it.
func init() {
	doc := js.Global().Get("document")
	if !doc.Truthy() {
		return // Node: no canvas
	}
	cs := doc.Call("getElementsByTagName", "canvas")
	if n := cs.Get("length").Int(); n > 0 {
		attr := js.Global().Get("Object").New()
		attr.Set("alpha", false)
		attr.Set("premultipliedAlpha", true)
		attr.Set("stencil", true)
		attr.Set("antialias", false)
		if gl := cs.Index(n-1).Call("getContext", "webgl2", attr); gl.Truthy() {
			if b := gl.Call("getParameter", gl.Get("SUBPIXEL_BITS")); b.Type() == js.TypeNumber && b.Int() > 0 {
				subpixelBits = b.Int()
			}
		}
	}
}
