package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// errUsage is a command's error when its flag set has printed the usage.
var errUsage = errors.New("usage")

// newFlags is the flag set of a command whose usage line is usage.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: "+usage)
		fs.PrintDefaults()
	}
	return fs
}

// exitStatus is the exit status of command cmd that returned err, which it
// prints as "fabriclab CMD: err" (errUsage's usage is printed already).
func exitStatus(cmd string, err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if err != errUsage {
		fmt.Fprintf(stderr, "fabriclab %s: %v\n", cmd, err)
	}
	return 1
}
