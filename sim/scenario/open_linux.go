package scenario

import (
	"os"
	"syscall"
)

// openRead opens a regular file for reading without the runtime's poller:
// os.Open's first use of it makes an epoll instance and an eventfd and
// tries to register the file (three system calls, refused for a regular
// file), and the idle scheduler then polls it. A regular file never blocks.
func openRead(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil // a blocking descriptor: not put in the poller
	}
}
