// Package cmdline is what fabriclab's commands share on the command line.
package cmdline

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// ErrUsage is a command's error when its flag set has printed the usage.
var ErrUsage = errors.New("usage")

// Flags is the flag set of a command whose usage line is usage.
func Flags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: "+usage)
		fs.PrintDefaults()
	}
	return fs
}

// Status is the exit status of command cmd that returned err, which it
// prints as "fabriclab CMD: err" (ErrUsage's usage is printed already).
func Status(cmd string, err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if err != ErrUsage {
		fmt.Fprintf(stderr, "fabriclab %s: %v\n", cmd, err)
	}
	return 1
}
