package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// versionCache knows the version of the site being served: the ?v= the build
// put on every asset URL, a hash of the WebAssembly (viz.wasm, worker.wasm), wasm_exec.js and static/
// (Site's contentHash). Only a request carrying that version is cached as
// immutable, so a stale or made-up ?v= never pins other content in a browser.
// The files are hashed again when their sizes or times change (a rebuild
// while the server runs).
type versionCache struct {
	site    fs.FS
	mu      sync.Mutex
	stamp   string
	version string
}

// current returns the version, or "" when the site has none (no viz.wasm).
func (c *versionCache) current() string {
	names, stamp := versionedFiles(c.site)
	c.mu.Lock()
	defer c.mu.Unlock()
	if stamp != c.stamp {
		c.stamp, c.version = stamp, hashFiles(c.site, names)
	}
	return c.version
}

// versionedFiles lists the files the version covers, sorted as contentHash
// sorts them, and a stamp of their names, sizes and modification times.
func versionedFiles(site fs.FS) (names []string, stamp string) {
	var b strings.Builder
	add := func(name string, info fs.FileInfo) {
		names = append(names, name)
		b.WriteString(name + " " + strconv.FormatInt(info.Size(), 10) + " " + strconv.FormatInt(info.ModTime().UnixNano(), 10) + "\n")
	}
	for _, name := range []string{"viz.wasm", "worker.wasm", "wasm_exec.js"} {
		if info, err := fs.Stat(site, name); err == nil && info.Mode().IsRegular() {
			add(name, info)
		}
	}
	fs.WalkDir(site, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || hidden(p) || isTwin(site, p) {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			add(p, info)
		}
		return nil
	})
	sort.Strings(names)
	return names, b.String()
}

// isTwin reports whether p is a compressed twin the build added (x.br or x.gz
// beside x); the version is taken before they exist.
func isTwin(site fs.FS, p string) bool {
	for _, ext := range []string{".br", ".gz"} {
		if orig, ok := strings.CutSuffix(p, ext); ok {
			if _, err := fs.Stat(site, orig); err == nil {
				return true
			}
		}
	}
	return false
}

// hashFiles is contentHash over files read from site, streamed.
func hashFiles(site fs.FS, names []string) string {
	if len(names) == 0 {
		return ""
	}
	h := sha256.New()
	for _, n := range names {
		f, err := site.Open(n)
		if err != nil {
			return ""
		}
		h.Write([]byte(n))
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return ""
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
