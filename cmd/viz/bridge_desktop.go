//go:build !js

package main

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"fabriclab/protocol"
	"fabriclab/sim/scenario"
)

// desktopBridge takes the scenario from the command line: a built-in name or
// a YAML file; events go to standard error.
type desktopBridge struct{ queue *commandQueue }

// heapLimit: a desktop window computes as far as its machine's memory goes.
const heapLimit = 0

func bridge() *desktopBridge { return &desktopBridge{queue: &commandQueue{}} }

func (b *desktopBridge) query() string {
	if len(os.Args) < 2 {
		return "?scenario=incast"
	}
	arg := os.Args[1]
	if strings.HasPrefix(arg, "?") {
		return arg
	}
	if _, err := os.Stat(arg); err == nil { // a file, not a built-in name
		data, err := scenario.ReadFile(arg) // regular files within the loader's limit only
		if err != nil {
			fmt.Fprintf(os.Stderr, "viz: %v\n", err)
			os.Exit(2)
		}
		cmd, _ := protocol.EncodeCommand(protocol.Load{YAML: string(data)}) // strings always encode
		b.queue.push(cmd)
		return ""
	}
	return "?scenario=" + url.QueryEscape(arg)
}

func (b *desktopBridge) commands() *commandQueue { return b.queue }

func (b *desktopBridge) event(ev protocol.Event) {
	if ev.Event() == "time" {
		return
	}
	data, err := protocol.EncodeEvent(ev)
	if err != nil {
		fmt.Fprintln(os.Stderr, "viz:", err)
		return
	}
	fmt.Fprintln(os.Stderr, string(data))
}

func (b *desktopBridge) browser() bool { return false }
