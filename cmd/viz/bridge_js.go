//go:build js

package main

import (
	"fmt"
	"runtime/debug"
	"sync"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"fabriclab/protocol"
)

// jsBridge talks to embed.js: commands arrive through window.fabriclabCommand
// (a js.FuncOf callback that only queues: it must never block) and events
// leave through window.fabriclabEvent. The runs' workers (worker-client.js)
// get commands through window.fabriclabWorker and send back through
// window.fabriclabFrames and fabriclabWorkerFailed, queued likewise; a
// frame's bytes are copied into Go when Update takes them.
type jsBridge struct {
	queue *commandQueue
	mu    sync.Mutex
	inbox []jsArrival
}

// jsArrival is a worker's message as it came: the bytes still JavaScript's.
type jsArrival struct {
	worker int
	msg    string
	frame  js.Value // a Uint8Array, or null
	failed string
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
	b := &jsBridge{queue: &commandQueue{}}
	js.Global().Set("fabriclabFrames", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 || args[1].Type() != js.TypeObject {
			return nil
		}
		i, list := args[0].Int(), args[1]
		in := make([]jsArrival, 0, list.Length())
		for k := range list.Length() {
			m := list.Index(k)
			if msg := m.Get("msg"); msg.Type() == js.TypeString {
				in = append(in, jsArrival{worker: i, msg: msg.String(), frame: m.Get("buf")})
			}
		}
		b.arrive(in...)
		return nil
	}))
	js.Global().Set("fabriclabWorkerFailed", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 2 {
			b.arrive(jsArrival{worker: args[0].Int(), failed: args[1].String()})
		}
		return nil
	}))
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

// arrive queues workers' messages and asks for the frame that takes them.
func (b *jsBridge) arrive(a ...jsArrival) {
	b.mu.Lock()
	b.inbox = append(b.inbox, a...)
	b.mu.Unlock()
	ebiten.ScheduleFrame()
}

// toWorker hands a command to worker i (worker-client.js).
func (b *jsBridge) toWorker(i int, c protocol.WorkerCommand) {
	data, err := protocol.EncodeWorkerCommand(c)
	if err != nil {
		println("fabriclab:", err.Error())
		return
	}
	js.Global().Call("fabriclabWorker", i, string(data))
}

// fromWorkers takes the workers' messages, their frames copied into Go.
func (b *jsBridge) fromWorkers() []arrival {
	b.mu.Lock()
	in := b.inbox
	b.inbox = nil
	b.mu.Unlock()
	out := make([]arrival, len(in))
	for i, a := range in {
		out[i] = arrival{worker: a.worker, failed: a.failed}
		if a.failed == "" {
			out[i].msg = []byte(a.msg)
		}
		if a.frame.Type() == js.TypeObject {
			out[i].frame = make([]byte, a.frame.Length())
			js.CopyBytesToGo(out[i].frame, a.frame)
		}
	}
	return out
}

// framesOnDemand: Ebitengine runs a frame only once asked (scheduleFrame),
// or for input on the canvas and resizes (frames.go).
func (b *jsBridge) framesOnDemand() { ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum) }

func (b *jsBridge) scheduleFrame() { ebiten.ScheduleFrame() }
