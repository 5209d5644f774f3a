package scenario

import (
	"fmt"
	"io"
	"os"
)

// ReadFile reads a scenario file for Load (the CLI and the desktop viewer use it): a regular file of
// at most MaxSourceBytes, read through a limited reader, so that
// neither a device such as /dev/zero nor a huge file is read without end.
// Devices, pipes, sockets and directories are refused before any read.
func ReadFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err // fs.ErrNotExist lets Load list the built-ins
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file: give the path of a scenario YAML file (or a built-in name)", path, fileKind(info.Mode()))
	}
	if info.Size() > MaxSourceBytes {
		return nil, tooBig(path)
	}
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLimited(f, path) // the size Stat gave may be wrong (/proc) or the file may grow
}

// ReadLimited reads r whole if it holds at most MaxSourceBytes, and
// never reads more than one byte past that.
func ReadLimited(r io.Reader, path string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSourceBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSourceBytes {
		return nil, tooBig(path)
	}
	return data, nil
}

func tooBig(path string) error {
	return fmt.Errorf("%s is too big: a scenario file may have at most %d bytes (8 MiB); generate flows with traffic.pattern instead of listing them",
		path, MaxSourceBytes)
}

// fileKind names what a non-regular file is.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
