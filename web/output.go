package web

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Marker is the file fabriclab leaves in every site it writes. It lists the
// files it wrote, one slash-separated path per line after the header; a later
// build removes only files on that list, and writes only into a directory that
// is missing, empty, or carries this marker.
const Marker = ".fabriclab-site"

const markerHeader = "# written by fabriclab build: a rebuild replaces and removes only the files listed below\n"

// CheckOut reports whether a site may be written to dir, without touching it:
// dir must be missing, an empty directory, or a directory with fabriclab's
// marker from an earlier build. The error says why not and what to do.
func CheckOut(dir string) error {
	_, err := outState(dir)
	return err
}

// outState checks dir as CheckOut does and returns the files the marker lists
// (nil when dir is missing or empty).
func outState(dir string) ([]string, error) {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("output directory %s is a symbolic link: give the directory it points to, or a new directory", dir)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("output directory %s is a file, not a directory: choose a new directory with --out", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, Marker))
	if errors.Is(err, fs.ErrNotExist) {
		names := make([]string, 0, 4)
		for _, e := range entries[:min(3, len(entries))] {
			n := e.Name()
			if e.IsDir() {
				n += "/"
			}
			names = append(names, n)
		}
		if len(entries) > 3 {
			names = append(names, fmt.Sprintf("and %d more", len(entries)-3))
		}
		return nil, fmt.Errorf("output directory %s is not empty (%s) and was not written by fabriclab, so nothing was written or removed: "+
			"choose a new or empty directory with --out, or empty this one yourself", dir, strings.Join(names, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("output directory %s: reading %s: %w", dir, Marker, err)
	}
	return parseMarker(string(data)), nil
}

// parseMarker returns the marker's file list, keeping only clean relative
// paths that stay inside the directory.
func parseMarker(text string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		name := strings.TrimSpace(sc.Text())
		if name == "" || strings.HasPrefix(name, "#") || !fs.ValidPath(name) || name == "." || name == Marker {
			continue
		}
		out = append(out, name)
	}
	return out
}

func formatMarker(names []string) []byte {
	var b strings.Builder
	b.WriteString(markerHeader)
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	return []byte(b.String())
}

// writeFiles writes files (slash paths → contents) into dir as CheckOut
// allows, then removes the files an earlier build listed that this one did
// not write, and directories left empty by that. Files it did not write are
// never touched; every path is confined to dir (os.Root), so a symbolic link
// inside the site cannot send a write or a removal elsewhere.
func writeFiles(dir string, files map[string][]byte) error {
	old, err := outState(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating output directory %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	defer root.Close()

	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	// The marker lists old and new files until the build is complete, so an
	// interrupted build can still be cleaned up by the next one.
	all := append(append([]string(nil), old...), names...)
	if err := root.WriteFile(Marker, formatMarker(all), 0o644); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	for _, n := range names {
		if d := path.Dir(n); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("writing %s: %w", filepath.Join(dir, n), err)
			}
		}
		if err := root.WriteFile(n, files[n], 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dir, n), err)
		}
	}
	for _, n := range old {
		if _, keep := files[n]; keep {
			continue
		}
		if st, err := root.Lstat(n); err != nil || !st.Mode().IsRegular() {
			continue // gone already, or not a file fabriclab writes
		}
		if err := root.Remove(n); err != nil {
			return fmt.Errorf("removing %s from an earlier build: %w", filepath.Join(dir, n), err)
		}
		for d := path.Dir(n); d != "."; d = path.Dir(d) {
			if root.Remove(d) != nil { // stops at the first directory that is not empty
				break
			}
		}
	}
	if err := root.WriteFile(Marker, formatMarker(names), 0o644); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	return nil
}
