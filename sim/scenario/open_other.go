//go:build !linux

package scenario

import (
	"io/fs"
	"os"
)

// openRead opens path for reading and says what the open descriptor is
// (the caller checks before reading). Here, unlike on Linux, a FIFO swapped
// in after the caller's Stat blocks the open until a writer comes.
func openRead(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}
