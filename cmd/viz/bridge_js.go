//go:build js

package main

import (
	"fmt"
	"runtime/debug"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"fabriclab/protocol"
)

// jsBridge talks to embed.js: commands arrive through window.fabriclabCommand
// (a js.FuncOf callback that only queues: it must never block) and events
// leave through window.fabriclabEvent.
type jsBridge struct {
	queue *commandQueue
	// port and turn: a MessageChannel whose message comes back as soon as
	// the event loop has run what waits before it (no setTimeout clamp).
	port js.Value
	turn chan struct{}
}

// maxCommand is the longest command protocol.DecodeCommand reads, in bytes.
const maxCommand = protocol.MaxCommand

// memoryLimit is the Go heap's soft limit in the browser: near it the
// collector works harder rather than let WebAssembly memory (which never
// shrinks, and tops out at 4 GiB) grow.
const memoryLimit = 1 << 30

// heapLimit is what the player stops computing short of (see
// playback.SetHeapLimit), with a message, rather than crash the tab.
const heapLimit = memoryLimit

func bridge() *jsBridge {
	debug.SetMemoryLimit(memoryLimit)
	b := &jsBridge{queue: &commandQueue{}, turn: make(chan struct{}, 1)}
	ch := js.Global().Get("MessageChannel").New()
	ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case b.turn <- struct{}{}:
		default:
		}
		return nil
	}))
	b.port = ch.Get("port2")
	stringType := js.Global().Get("String")
	js.Global().Set("fabriclabCommand", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		c := args[0]
		if c.Type() == js.TypeString {
			// Of a longer one, enough for DecodeCommand to refuse it as
			// too long, without copying it all into the Go heap.
			if s := stringType.New(c); s.Length() > maxCommand { // Length needs an object
				c = s.Call("slice", 0, maxCommand+1)
			}
		}
		b.queue.push([]byte(c.String()))
		return nil
	}))
	return b
}

// query is the page's parameters, read from location.search here rather than
// passed as a command-line argument: wasm_exec.js caps go.argv at 12 KiB.
func (b *jsBridge) query() string {
	return js.Global().Get("location").Get("search").String()
}

func (b *jsBridge) commands() *commandQueue { return b.queue }

// event hands ev to the page. An exception in the page's handler is the
// page's, not the program's: it is printed, never a panic here.
func (b *jsBridge) event(ev protocol.Event) {
	data, err := protocol.EncodeEvent(ev)
	if err != nil {
		println("fabriclab:", err.Error())
		return
	}
	defer func() {
		if r := recover(); r != nil {
			println("fabriclab: the page's fabriclabEvent threw:", fmt.Sprint(r))
		}
	}()
	if f := js.Global().Get("fabriclabEvent"); f.Type() == js.TypeFunction {
		f.Invoke(string(data))
	}
}

func (b *jsBridge) browser() bool { return true }

// yield gives the page's event loop a turn: a frame due, input, commands.
func (b *jsBridge) yield() {
	b.port.Call("postMessage", nil)
	<-b.turn
}

// framesOnDemand: Ebitengine runs a frame only once asked (scheduleFrame),
// or for input on the canvas and resizes (frames.go).
func (b *jsBridge) framesOnDemand() { ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum) }

func (b *jsBridge) scheduleFrame() { ebiten.ScheduleFrame() }
