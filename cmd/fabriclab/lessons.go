package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"

	"fabriclab/lessons"
	"fabriclab/sim/scenario"
)

// cmdLessons is `fabriclab lessons check [DIR]`: load every lesson in DIR
// (default: the lessons that ship) as the site build does, running the
// scenarios its figures quote, and print every problem as file:line: what;
// the fix.
func cmdLessons(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lessons", "fabriclab lessons check [DIR]   check the lessons in DIR (default: the shipped ones)", stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	rest := fs.Args()
	if len(rest) == 0 || rest[0] != "check" || len(rest) > 2 {
		fs.Usage()
		return errUsage
	}
	src, where := lessons.Content(), "the shipped lessons"
	if len(rest) == 2 {
		info, err := os.Stat(rest[1])
		if err != nil || !info.IsDir() {
			return fmt.Errorf("%s is not a directory of lessons; give the directory that holds the .md files, e.g. lessons/content", rest[1])
		}
		// Each file read whole, refused unread if it is not a regular file or holds more than a lesson may.
		src, where = scenario.UserDir(rest[1], lessons.MaxFileBytes), rest[1]
	}
	return checkLessons(src, where, stdout, stderr)
}

func checkLessons(src fs.FS, where string, stdout, stderr io.Writer) error {
	ls, err := lessons.Load(src)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return fmt.Errorf("%s have problems (above)", where)
	}
	if len(ls) == 0 {
		return fmt.Errorf("%s holds no lesson files: lessons check reads the files named <slug>.<lang>.md (e.g. incast.en.md) at the top of the directory; give the directory that holds them, e.g. lessons/content", where)
	}
	steps, knobs := 0, 0
	for _, l := range ls {
		steps += len(l.Steps)
		for _, s := range l.Steps {
			knobs += len(s.Knobs)
		}
	}
	fmt.Fprintf(stdout, "%s: %d lesson files, %d steps, %d knobs: no problems\n", where, len(ls), steps, knobs)
	return nil
}
