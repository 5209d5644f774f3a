package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/andybalholm/brotli"
)

// Recompress gives the WebAssembly of the site in dir brotli's best quality
// (11), which serve's quick build leaves at quality 9 (viz.wasm: 3.4 against
// 2.99 MB). Quality 11 takes one to three minutes of a core, so serve runs this
// after it starts listening: the work runs on a thread at the lowest priority,
// its result is kept in cache (by the file's SHA-256; "" keeps nothing), where
// the next build of the same program finds it at once, and each file is put in
// place by a rename, so a request gets the old file or the new, never half of
// one. It reports what it replaced on log, and leaves a build that is not
// complete alone.
func Recompress(dir, cache string, log io.Writer) error {
	st, err := outState(dir)
	if err != nil || !st.complete {
		return err // an unfinished build: the next one is recompressed
	}
	names := st.files
	for _, name := range names {
		if !strings.HasSuffix(name, ".wasm") || !slices.Contains(names, name+".br") {
			continue
		}
		if err := recompress(dir, name, cache, log); err != nil {
			return fmt.Errorf("recompressing %s: %w", filepath.Join(dir, name), err)
		}
	}
	return nil
}

func recompress(dir, name, cache string, log io.Writer) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	raw, err := root.ReadFile(name)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(raw)
	cached := cacheFile(cache, sum)
	best, ok := readCached(cached, raw)
	if !ok {
		if best, err = lowPriority(func() ([]byte, error) { return brotli11(raw) }); err != nil {
			return err
		}
		if cached != "" {
			writeCached(cached, best) // a cache that cannot be written only costs time next run
		}
	}
	old, err := root.ReadFile(name + ".br")
	if err != nil || len(best) >= len(old) {
		return err // nothing to gain (or the file is gone)
	}
	if now, err := root.ReadFile(name); err != nil || sha256.Sum256(now) != sum {
		return err // rebuilt meanwhile: the next run compresses the new file
	}
	if err := installFile(dir, root, name+".br", best); err != nil {
		return err
	}
	fmt.Fprintf(log, "%s.br: brotli 11, %.2f MB (was %.2f MB)\n", name, float64(len(best))/1e6, float64(len(old))/1e6)
	return nil
}

// cacheFile is where cache keeps the brotli 11 encoding of the file with
// SHA-256 sum ("" for no cache).
func cacheFile(cache string, sum [sha256.Size]byte) string {
	if cache == "" {
		return ""
	}
	return filepath.Join(cache, "brotli11w24-"+hex.EncodeToString(sum[:])+".br")
}

// KeepBrotli puts the brotli 11 encodings of a site that build wrote at its
// best into cache, so that serving it later finds them there instead of
// spending minutes compressing again to learn nothing.
func KeepBrotli(dir, cache string) error {
	st, err := outState(dir)
	if err != nil || cache == "" {
		return err
	}
	names := st.files
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, name := range names {
		if !strings.HasSuffix(name, ".wasm") || !slices.Contains(names, name+".br") {
			continue
		}
		raw, err := root.ReadFile(name)
		if err != nil {
			return err
		}
		br, err := root.ReadFile(name + ".br")
		if err != nil {
			return err
		}
		writeCached(cacheFile(cache, sha256.Sum256(raw)), br)
	}
	return nil
}

// brotli11 is brotli's best quality with its largest standard window (16 MiB,
// which every browser's decoder takes): about 1 % smaller than at the
// default 4 MiB window.
func brotli11(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// readCached returns the cached encoding of raw, if there is one and it
// decodes to raw (a damaged cache file is ignored).
func readCached(file string, raw []byte) ([]byte, bool) {
	if file == "" {
		return nil, false
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, false
	}
	got, err := io.ReadAll(io.LimitReader(brotli.NewReader(bytes.NewReader(data)), int64(len(raw))+1))
	if err != nil || !bytes.Equal(got, raw) {
		return nil, false
	}
	return data, true
}

func writeCached(file string, data []byte) {
	if os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".brotli11-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil && cerr == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// installFile replaces the site's file name with data through a temporary
// file and a rename (writeAtomic). The marker lists the temporary file while
// it exists, so that a build after an interrupted run removes it.
func installFile(dir string, root *os.Root, name string, data []byte) error {
	st, err := outState(dir)
	if err != nil {
		return err
	}
	if err := clearParts(dir, root, []string{name}, st.files); err != nil {
		return err
	}
	part := partName(name)
	if err := writeMarker(root, append(slices.Clone(st.files), part), st.complete); err != nil {
		return err
	}
	if err := writeAtomic(root, name, data); err != nil {
		return err
	}
	return writeMarker(root, slices.DeleteFunc(st.files, func(n string) bool { return n == part }), st.complete)
}
