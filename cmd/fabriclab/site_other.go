//go:build !unix

package main

// execSite cannot replace the process here: run starts the site program as a child.
func execSite(string, []string) {}
