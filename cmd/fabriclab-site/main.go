// Command fabriclab-site is fabriclab's serve, build and lessons commands.
// fabriclab builds it from the source tree and runs it for them
// (cmd/fabriclab/site.go), so that a scenario run does not link, or
// initialise at every start, the web server, the templates and the Markdown
// renderer.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage (as fabriclab runs it):
  fabriclab serve [--addr localhost:8080]   build what is missing and serve the site
  fabriclab build [--out dist/site]   write the static site (precompressed)
  fabriclab lessons check [DIR]       check lessons (default: the shipped ones): every problem with file:line
`

var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the exit status, as fabriclab's
// own run does.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = cmdServe(args[1:], stdout, stderr)
	case "build":
		err = cmdBuild(args[1:], stdout, stderr)
	case "lessons":
		err = cmdLessons(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "fabriclab-site: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		if err != errUsage {
			fmt.Fprintf(stderr, "fabriclab %s: %v\n", args[0], err)
		}
		return 1
	}
	return 0
}

// commandFlags is the flag set of a command whose usage line is usage.
func commandFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: "+usage)
		fs.PrintDefaults()
	}
	return fs
}
