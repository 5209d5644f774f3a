//go:build !linux

package scenario

import "os"

func openRead(path string) (*os.File, error) { return os.Open(path) }
