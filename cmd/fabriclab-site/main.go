// Command fabriclab-site is fabriclab's serve, build and lessons commands.
// fabriclab builds it from the source tree and runs it for them
// (cmd/fabriclab/site.go), so that a scenario run does not link, or
// initialise at every start, the web server, the templates and the Markdown
// renderer.
package main

import (
	"fmt"
	"io"
	"os"

	"fabriclab/cmd/internal/cmdline"
)

const usage = `usage (as fabriclab runs it):
  fabriclab serve [--addr localhost:8080]   build what is missing and serve the site
  fabriclab build [--out dist/site]   write the static site (precompressed)
  fabriclab lessons check [DIR]       check lessons (default: the shipped ones): every problem with file:line
`

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
	return cmdline.Status(args[0], err, stderr)
}
