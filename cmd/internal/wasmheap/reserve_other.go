//go:build !js

package wasmheap

func reserve(int) {}
