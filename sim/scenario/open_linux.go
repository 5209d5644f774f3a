package scenario

import (
	"io/fs"
	"os"
	"syscall"
)

// openRead opens path for reading and says what the open descriptor is.
// O_NONBLOCK keeps the open of a FIFO from waiting for a writer (and
// O_NOCTTY a terminal from becoming ours); the descriptor is made blocking
// again before it is wrapped, so that os.NewFile does not put it in the
// runtime's poller (an epoll instance, an eventfd and a registration that a
// regular file refuses: three system calls for nothing). The caller checks
// the info, from the open descriptor, before reading.
func openRead(path string) (*os.File, fs.FileInfo, error) {
	var fd int
	for {
		var err error
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		break
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, nil, &os.PathError{Op: "fcntl", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	info, err := f.Stat() // the same descriptor: what was opened, not what the path names now
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}
