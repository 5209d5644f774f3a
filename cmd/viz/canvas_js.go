//go:build js

package main

import (
	"fmt"
	"image/color"
	"syscall/js"
)

// canvas is Ebitengine's canvas element; backdrop the colour its CSS
// background was last given.
var (
	canvas   js.Value
	backdrop *color.RGBA
)

// showBackdrop gives the canvas's CSS background the picture's background
// colour, so that the transparent screen need not be painted with it
// (ebitenrender.Drawer.Backdrop).
func showBackdrop(c color.RGBA) bool {
	if backdrop == nil || *backdrop != c {
		canvas.Get("style").Set("backgroundColor", fmt.Sprintf("rgb(%d, %d, %d)", c.R, c.G, c.B))
		backdrop = &c
	}
	return true
}

// Ebitengine has made its canvas by now (its package initialises first) but
// not yet its WebGL context. The first getContext decides the context's
// attributes; asking here is how they are set. Antialiasing (WebGL's
// default) multisamples the screen that Ebitengine copies its picture onto
// every frame: on software WebGL (SwiftShader) that cost more than the rest
// of the frame, and changed no pixel (the copy is one screen-sized
// rectangle; the picture is drawn, unsampled, into an image before it).
// With alpha, the screen is transparent (Ebitengine clears it before each
// frame) and the picture's background is the canvas's CSS background:
// painting it would be one more pass over every pixel a frame.
func init() {
	doc := js.Global().Get("document")
	if !doc.Truthy() {
		return // Node: no canvas
	}
	cs := doc.Call("getElementsByTagName", "canvas")
	if n := cs.Get("length").Int(); n > 0 {
		attr := js.Global().Get("Object").New()
		attr.Set("alpha", true)
		attr.Set("premultipliedAlpha", true)
		attr.Set("stencil", true)
		attr.Set("antialias", false)
		canvas = cs.Index(n - 1)
		gl := canvas.Call("getContext", "webgl2", attr)
		if gl.Truthy() {
			// Black until the first picture, as an opaque screen was.
			canvas.Get("style").Set("backgroundColor", "#000")
			transparentScreen, screenBackdrop = true, showBackdrop
			// Ebitengine's clear of the transparent screen before each
			// frame, a textured pass over every pixel, done as a gl.clear
			// (embed.js says how; another page may not offer it).
			if f := js.Global().Get("fabriclabClearScreenFast"); f.Type() == js.TypeFunction {
				f.Invoke(gl)
			}
			if b := gl.Call("getParameter", gl.Get("SUBPIXEL_BITS")); b.Type() == js.TypeNumber && b.Int() > 0 {
				subpixelBits = b.Int()
			}
		}
	}
}
