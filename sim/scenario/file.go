package scenario

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"fabriclab/sim/msg"
)

// ErrTooBig is what ReadUserFile wraps when a file holds more bytes than it may.
var ErrTooBig = msg.Errorf("is too big")

// A NotRegularError is a path ReadUserFile refuses before any read: a
// device, a FIFO, a socket or a directory.
type NotRegularError struct {
	Path string
	Kind string // "a device", "a named pipe (FIFO)", …
}

func (e *NotRegularError) Error() string { return e.Path + " is " + e.Kind + ", not a regular file" }

// ReadUserFile is the one way the project reads a file the user names: the
// regular file at path, whole, if it holds at most limit bytes. Devices,
// FIFOs, sockets and directories are refused (a *NotRegularError) before
// any read, by what the open descriptor is, so that one swapped in after a
// check does not block or stream; a file is never read more than one byte
// past limit (ErrTooBig), whatever size it claims. Symbolic links are
// followed: what counts is the file they lead to.
func ReadUserFile(path string, limit int64) ([]byte, error) {
	info, err := os.Stat(path) // refuses most devices without opening them
	if err != nil {
		return nil, err
	}
	if err := checkRegular(path, info, limit); err != nil {
		return nil, err
	}
	f, info, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := checkRegular(path, info, limit); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1)) // the size may be wrong (/proc) or the file may grow
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, tooBigFor(path, limit)
	}
	return data, nil
}

// checkRegular refuses what is not a regular file of at most limit bytes.
func checkRegular(path string, info fs.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return &NotRegularError{Path: path, Kind: fileKind(info.Mode())}
	}
	if info.Size() > limit {
		return tooBigFor(path, limit)
	}
	return nil
}

func tooBigFor(path string, limit int64) error {
	return msg.Errorf("%s %w: it has more than %d bytes", path, ErrTooBig, limit)
}

// UserDir is the directory dir as a file system whose files are read as
// ReadUserFile reads them, at most limit bytes each: for a directory of the
// user's (lesson files) where os.DirFS would read a FIFO or /dev/zero.
// Errors name the file's whole path.
func UserDir(dir string, limit int64) fs.FS { return userDir{dir, limit} }

type userDir struct {
	dir   string
	limit int64
}

func (d userDir) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(d.dir, filepath.FromSlash(name)), nil
}

// ReadFile reads one file of the directory.
func (d userDir) ReadFile(name string) ([]byte, error) {
	p, err := d.path("read", name)
	if err != nil {
		return nil, err
	}
	return ReadUserFile(p, d.limit)
}

// ReadDir lists a directory of the directory.
func (d userDir) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := d.path("readdir", name)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(p)
}

// Open opens a directory as os.Open does, and a file by reading it whole
// through ReadUserFile.
func (d userDir) Open(name string) (fs.File, error) {
	p, err := d.path("open", name)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		f, info, err := openRead(p)
		if err != nil {
			return nil, err
		}
		if info.IsDir() {
			return f, nil
		}
		f.Close() // no longer a directory: read what it is now
	}
	data, err := ReadUserFile(p, d.limit)
	if err != nil {
		return nil, err
	}
	return &memFile{bytes.NewReader(data), info}, nil
}

// memFile is a file of a userDir, read whole.
type memFile struct {
	*bytes.Reader
	info fs.FileInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

// ReadFile reads a scenario file for Load (the CLI and the desktop viewer
// use it): ReadUserFile with the limit of MaxSourceBytes, and errors that
// say what to give instead.
func ReadFile(path string) ([]byte, error) {
	data, err := ReadUserFile(path, MaxSourceBytes)
	var nr *NotRegularError
	switch {
	case errors.As(err, &nr):
		return nil, msg.Errorf("%w: give the path of a scenario YAML file (or a built-in name)", err)
	case errors.Is(err, ErrTooBig):
		return nil, tooBig(path)
	}
	return data, err // fs.ErrNotExist lets Load list the built-ins
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
	return msg.Errorf("%s %w: a scenario file may have at most %d bytes (8 MiB); generate flows with traffic.pattern instead of listing them",
		path, ErrTooBig, MaxSourceBytes)
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
