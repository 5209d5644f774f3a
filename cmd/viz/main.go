// Command viz is fabriclab's canvas: an Ebitengine program that plays a
// scenario. In the browser it runs as WebAssembly inside embed.html (URL
// parameters and postMessage commands drive it); on a desktop,
// `go run ./cmd/viz [NAME|FILE]` opens a window for development. Commands
// and events are package protocol's types: protocol.DecodeCommand reads
// every command (game.go's handleAll; the editor's in editor.go), and each
// event is sent as a protocol type through the host (bridge_js.go,
// bridge_desktop.go), which writes it with protocol.EncodeEvent.
//
// In the browser Go has one thread, the page's, and on software WebGL every
// frame presented costs that thread a read-back of the canvas. So:
//
//   - The canvas computes nothing: each run is computed in a Web Worker
//     (cmd/worker, by worker-client.js), which sends the frames it records;
//     the canvas plays them (remote.go). A comparison's sides are two
//     workers. On a desktop, Update computes (budget).
//   - Frames run only when asked for (frames.go: FPSModeVsyncOffMinimum and
//     ScheduleFrame): while playback moves, for a command, a worker's
//     message, input or a resize.
//   - A picture is three draw calls or fewer straight onto the screen
//     (final.go), which is transparent over a CSS background of the
//     picture's colour; the WebGL context is made without antialiasing
//     (canvas_js.go). Opaque shapes go first, with shaders that read no
//     texture and do not blend, then the rest from one atlas image
//     (render/ebitenrender).
//   - Memory: the WebAssembly memory is grown 512 MiB at start and then
//     32 MiB at a time ahead of the heap (memory.go, cmd/internal/wasmheap),
//     since V8 answers each growth with a collection of its own heap.
package main

import (
	"fmt"
	"image/color"
	"os"

	"github.com/hajimehoshi/ebiten/v2"

	"fabriclab/protocol"
)

// transparentScreen makes Ebitengine clear the screen to transparent (not
// black) before each frame; screenBackdrop, when set, shows a colour under
// it (the browser's canvas, canvas_js.go).
var (
	transparentScreen bool
	screenBackdrop    func(color.RGBA) bool
)

func main() {
	b := bridge()
	g, err := newGame(b)
	if err != nil {
		b.event(protocol.Error{Message: err.Error()})
		fmt.Fprintln(os.Stderr, "viz:", err)
		os.Exit(1)
	}
	g.framesOnDemand() // in the browser (frames.go)
	ebiten.SetWindowTitle("fabriclab")
	ebiten.SetWindowSize(1280, 720)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	// One Update per frame: a tick that computes for long must not make
	// Ebitengine run more Updates to catch up.
	ebiten.SetTPS(ebiten.SyncWithFPS)
	// Draw skips a picture it has drawn already; the screen keeps it.
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetRunnableOnUnfocused(true) // a lesson page keeps the focus; the canvas must still play
	if err := ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{ScreenTransparent: transparentScreen}); err != nil {
		g.out.event(protocol.Error{Message: err.Error()})
		fmt.Fprintln(os.Stderr, "viz:", err)
		os.Exit(1)
	}
}
