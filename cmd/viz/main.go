// Command viz is fabriclab's canvas: an Ebitengine program that plays a
// scenario. In the browser it runs as WebAssembly inside embed.html (URL
// parameters and postMessage commands drive it); on a desktop,
// `go run ./cmd/viz [NAME|FILE]` opens a window for development.
package main

import (
	"fmt"
	"image/color"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
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
		b.event(map[string]any{"fabriclab": "error", "message": err.Error()})
		fmt.Fprintln(os.Stderr, "viz:", err)
		os.Exit(1)
	}
	g.startComputing() // computing goes on between frames (compute.go)
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
		g.out.event(map[string]any{"fabriclab": "error", "message": err.Error()})
		fmt.Fprintln(os.Stderr, "viz:", err)
		os.Exit(1)
	}
}
