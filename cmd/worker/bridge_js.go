//go:build js

package main

import (
	"runtime/debug"
	"syscall/js"
	"time"

	"fabriclab/cmd/internal/wasmheap"
	"fabriclab/protocol"
)

// slice is how long the worker computes between two looks at its messages:
// a command waits at most this and one frame's encoding.
const slice = 25 * time.Millisecond

// memoryLimit is the Go heap's soft limit, and what a run stops short of
// with a message (playback.Recorder.SetHeapLimit is set by a begin's
// heap_limit_mib in a later step).
const memoryLimit = 1 << 30

func main() {
	debug.SetMemoryLimit(memoryLimit)
	inbox := make(chan []byte, 256)
	js.Global().Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			// The canvas's commands: JSON text (Length would panic on a string).
			if d := args[0].Get("data"); d.Type() == js.TypeString {
				select {
				case inbox <- []byte(d.String()): // DecodeWorkerCommand refuses one too long
				default:
					println("fabriclab worker: more than 256 messages waiting; one dropped")
				}
			}
		}
		return nil
	}))
	w := &Worker{post: post}
	w.event(protocol.WorkerReady{Version: version()}, nil)
	turn := make(chan struct{}, 1)
	ch := js.Global().Get("MessageChannel").New()
	ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case turn <- struct{}{}:
		default:
		}
		return nil
	}))
	port := ch.Get("port2")
	for {
		wasmheap.GrowAhead(memoryLimit) // one grow at a time, ahead of the heap (V8 collects on each)
		more := w.Work(slice)
		flush()
		if !more {
			w.Handle(<-inbox) // idle: wait for the page
			flush()
		}
		port.Call("postMessage", nil) // a turn for the event loop: the page's messages
		<-turn
		for len(inbox) > 0 {
			w.Handle(<-inbox)
		}
		flush()
	}
}

// The messages of one slice go to the page together, as one message
// {batch: [{msg, buf}, …]} with every frame's buffer transferred: a run
// records frames far faster than the page draws them (incast sent 7,713
// messages, each a task on the page's thread and a call into the canvas).
var (
	batch     []any // {msg, buf} objects
	transfers []any // their frames' ArrayBuffers
)

// post adds {msg, buf} to the slice's batch.
func post(msg, frame []byte) {
	obj := js.Global().Get("Object").New()
	obj.Set("msg", string(msg))
	if frame != nil {
		buf := js.Global().Get("Uint8Array").New(len(frame))
		js.CopyBytesToJS(buf, frame)
		obj.Set("buf", buf.Get("buffer"))
		transfers = append(transfers, buf.Get("buffer"))
	}
	batch = append(batch, obj)
}

// flush sends the slice's batch, if any.
func flush() {
	if len(batch) == 0 {
		return
	}
	obj := js.Global().Get("Object").New()
	obj.Set("batch", js.ValueOf(batch))
	js.Global().Call("postMessage", obj, transfers)
	batch, transfers = nil, nil
}

// version is the build's revision, for worker_ready.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty {
		v += "+"
	}
	return v
}
