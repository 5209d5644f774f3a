package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"fabriclab/lessons"
)

// lessons check reports every problem of a directory with file:line and the
// fix, and exits 1; good lessons pass with a count.
func TestLessonsCheck(t *testing.T) {
	code, out, errOut := cli("lessons", "check", "../../lessons/testdata/errors/knob-errors")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "knobs.en.md:29: knob block: key traffic.sendrs: unknown key;")
	assert.Contains(t, errOut, "knobs.en.md:77: knob block: range: 4096..1024 runs backwards;")
	assert.Greater(t, strings.Count(errOut, "knobs.en.md:"), 20, "every problem, not the first")

	code, out, errOut = cli("lessons", "check", "../../lessons/testdata/golden")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "../../lessons/testdata/golden: 11 lesson files, 25 steps, 19 knobs: no problems")

	code, out, _ = cli("lessons", "check")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "the shipped lessons: ")

	code, _, errOut = cli("lessons", "check", "nonexistent")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "nonexistent is not a directory of lessons; give")
	code, _, errOut = cli("lessons")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "usage: fabriclab lessons check [DIR]")
}

// A lesson file that is a FIFO, a device or too big is refused by name
// before any read (os.DirFS waited for a FIFO's writer forever and read
// /dev/zero until memory ran out).
func TestLessonsCheckRefusesSpecialAndHugeFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(path string) error
		want string
	}{
		{"fifo", mkfifo, "x.en.md: is a named pipe (FIFO), not a regular file: a lesson is a regular .md file; replace it with one or remove it"},
		{"device", func(p string) error { return os.Symlink("/dev/zero", p) }, "x.en.md: is a device, not a regular file"},
		{"5GiB", func(p string) error { return sparse(p, 5<<30) }, "x.en.md: has more than 1048576 bytes, the most a lesson may have: split it into two lessons"},
		{"1MiB+1", func(p string) error { return sparse(p, lessons.MaxFileBytes+1) }, "x.en.md: has more than 1048576 bytes, the most a lesson may have"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tc.make(filepath.Join(dir, "x.en.md")); err != nil {
				t.Skip(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code, out, errOut := cli("lessons", "check", dir)
			runtime.ReadMemStats(&after)
			assert.Equal(t, 1, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "refused before reading")
		})
	}
}

// sparse makes a file of size bytes that takes no disk.
func sparse(path string, size int64) error {
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		return err
	}
	return os.Truncate(path, size)
}

// A directory without lesson files is an error saying what was looked for,
// not a check that passes having checked nothing.
func TestLessonsCheckOfADirectoryWithoutLessons(t *testing.T) {
	dirs := []string{t.TempDir()}
	if _, err := os.Stat("/dev"); err == nil {
		dirs = append(dirs, "/dev")
	}
	for _, dir := range dirs {
		code, out, errOut := cli("lessons", "check", dir)
		assert.Equal(t, 1, code, dir)
		assert.Empty(t, out, dir)
		assert.Contains(t, errOut, dir+" holds no lesson files: lessons check reads the files named <slug>.<lang>.md (e.g. incast.en.md) at the top of the directory", dir)
	}
}
