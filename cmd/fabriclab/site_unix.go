//go:build unix

package main

import (
	"os"
	"syscall"
)

// execSite replaces this process with the site program; it returns only if
// that fails (run then starts it as a child).
func execSite(bin string, args []string) {
	syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
}
