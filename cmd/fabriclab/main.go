// The runtime would start a goroutine at every start (a thread woken, two
// context switches) to follow changes of the CPU limit during the run;
// GOMAXPROCS is still set from the limit at start. (A short run's fixed
// costs are what the incast against htsim measures: BENCHMARKS.md.)
//go:debug updatemaxprocs=0

// Command fabriclab runs AI-cluster network scenarios from the command line.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `fabriclab — an interactive lab for the networks inside AI clusters

usage:
  fabriclab run FILE|NAME [--set key.path=value]... [--seed N] [--json]
  fabriclab sweep FILE|NAME --vary key=v1,v2,... [--csv]   run a scenario over values, on all cores
  fabriclab nccl-tests FILE|NAME [-b 8] [-e 8G] [-f 2]   a collective over sizes, as nccl-tests print it
  fabriclab explain FILE|-              an nccl-tests output beside a healthy cluster of its shape
  fabriclab export FILE|NAME [--t 500us] [--format svg|png|gif] [--out FILE]   the canvas as a picture or GIF
  fabriclab serve [--addr localhost:8080]   build what is missing and serve the site
  fabriclab build [--out dist/site]   write the static site (precompressed)
  fabriclab scenarios                 list the built-in scenarios
  fabriclab lessons check [DIR]       check lessons (default: the shipped ones): every problem with file:line
  fabriclab bench [--only NAME]       time the benchmark scenarios

Run 'fabriclab COMMAND -h' for a command's flags.
`

func main() {
	if len(os.Args) > 1 && collectsLate[os.Args[1]] {
		deferGC(firstGC)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "run":
		err = cmdRun(args[1:], stdout, stderr)
	case "sweep":
		err = cmdSweep(args[1:], stdout, stderr)
	case "nccl-tests":
		err = cmdNCCLTests(args[1:], stdout, stderr)
	case "explain":
		err = cmdExplain(args[1:], stdout, stderr)
	case "export":
		err = cmdExport(args[1:], stdout, stderr)
	case "scenarios":
		err = cmdScenarios(stdout)
	case "bench":
		err = cmdBench(args[1:], stdout, stderr)
	case "serve":
		err = cmdServe(args[1:], stdout, stderr)
	case "build":
		err = cmdBuild(args[1:], stdout, stderr)
	case "lessons":
		err = cmdLessons(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "fabriclab: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	return exitStatus(args[0], err, stderr)
}
