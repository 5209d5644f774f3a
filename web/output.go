package web

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"fabriclab/sim/scenario"
)

// Marker is the file fabriclab leaves in every site it writes. It lists the
// files it wrote, one slash-separated path per line after the header, and
// says whether the build that wrote it finished; a later build removes only
// files on that list, and writes only into a directory that is missing,
// empty, or carries this marker.
const Marker = ".fabriclab-site"

const (
	markerHeader = "# written by fabriclab build: a rebuild replaces and removes only the files listed below\n"
	// The second line: a build writes it last, so a site without it was
	// interrupted (or is being written) and the next build redoes it.
	markerComplete   = "# complete\n"
	markerIncomplete = "# incomplete: being written, or interrupted; the next build finishes it\n"
	maxMarker        = 4 << 20 // far more than a site's few hundred names
)

// CheckOut reports whether a site may be written to dir, without touching it:
// dir must be missing, an empty directory, or a directory with fabriclab's
// marker from an earlier build, with no symbolic link where that build wrote
// (a build never writes through one). The error says why not and what to do.
func CheckOut(dir string) error {
	_, err := outState(dir)
	return err
}

// Complete reports whether dir holds a fabriclab build that ran to its end
// (serve rebuilds one that did not).
func Complete(dir string) bool {
	st, err := outState(dir)
	return err == nil && st.complete
}

// siteState is what a site's marker says.
type siteState struct {
	files    []string // listed, clean relative paths
	complete bool     // the build that wrote it finished
}

// outState checks dir as CheckOut does and returns what its marker says
// (nothing when dir is missing or empty).
func outState(dir string) (siteState, error) {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return siteState{}, nil
	}
	if err != nil {
		return siteState{}, fmt.Errorf("output directory %s: %w", dir, err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return siteState{}, fmt.Errorf("output directory %s is a symbolic link: give the directory it points to, or a new directory", dir)
	}
	if !st.IsDir() {
		return siteState{}, fmt.Errorf("output directory %s is a file, not a directory: choose a new directory with --out", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return siteState{}, fmt.Errorf("output directory %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return siteState{}, nil
	}
	text, err := readMarker(dir)
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
		return siteState{}, fmt.Errorf("output directory %s is not empty (%s) and was not written by fabriclab, so nothing was written or removed: "+
			"choose a new or empty directory with --out, or empty this one yourself", dir, strings.Join(names, ", "))
	}
	if err != nil {
		return siteState{}, fmt.Errorf("output directory %s: reading %s: %w", dir, Marker, err)
	}
	state := siteState{files: parseMarker(text), complete: strings.HasPrefix(text, markerHeader+markerComplete)}
	return state, checkLinks(dir, state.files)
}

// readMarker reads dir's marker, refusing anything but a regular file of a
// marker's size.
func readMarker(dir string) (string, error) {
	name := filepath.Join(dir, Marker)
	st, err := os.Lstat(name)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() || st.Size() > maxMarker {
		return "", fmt.Errorf("%s is not a file fabriclab wrote (a link, a device or over %d MiB): remove it, or choose a new directory with --out", name, maxMarker>>20)
	}
	data, err := scenario.ReadUserFile(name, maxMarker) // what was opened is checked again
	return string(data), err
}

// checkLinks refuses a symbolic link at a listed file or at a directory above
// one, inside the site or leading out of it: a build writes only real files
// and directories, never through a link, and says so before compiling.
func checkLinks(dir string, files []string) error {
	seen := map[string]bool{}
	for _, f := range files {
		parts := strings.Split(f, "/")
		for i := range parts { // outermost first, so no Lstat goes through a link
			p := strings.Join(parts[:i+1], "/")
			if seen[p] {
				continue
			}
			seen[p] = true
			st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
			if err != nil || !st.IsDir() && st.Mode()&fs.ModeSymlink == 0 {
				break // missing, or a file: nothing below it to check
			}
			if st.Mode()&fs.ModeSymlink != 0 {
				return linkError(dir, p)
			}
		}
	}
	return nil
}

func linkError(dir, name string) error {
	link := filepath.Join(dir, filepath.FromSlash(name))
	target, _ := os.Readlink(link)
	return fmt.Errorf("output directory %s holds a symbolic link %s (-> %s) where the site is written; a build never writes through a link, "+
		"so nothing was written or removed: remove the link %s (what it points to stays), or choose a new directory with --out", dir, link, target, link)
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

func formatMarker(names []string, complete bool) []byte {
	var b strings.Builder
	b.WriteString(markerHeader)
	if complete {
		b.WriteString(markerComplete)
	} else {
		b.WriteString(markerIncomplete)
	}
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	return []byte(b.String())
}

// partName is where name is written before it is renamed into place: beside
// it, a dot file, so the server never hands it out.
func partName(name string) string {
	return path.Join(path.Dir(name), "."+path.Base(name)+".part")
}

// writeMarker replaces the site's marker.
func writeMarker(root *os.Root, names []string, complete bool) error {
	// Its temporary name is fabriclab's alone (it is derived from the marker's).
	if err := root.Remove(partName(Marker)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return writeAtomic(root, Marker, formatMarker(names, complete))
}

// writeAtomic replaces name with data: it writes a temporary file it creates
// itself (O_EXCL: a link or file planted there fails it, never followed)
// and renames it over name, which replaces a link at name rather than
// writing through it. A reader sees the old file or the new, never half.
// The caller makes sure nothing is at partName(name).
func writeAtomic(root *os.Root, name string, data []byte) error {
	part := partName(name)
	f, err := root.OpenFile(part, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(part, name)
	}
	if err != nil {
		root.Remove(part)
	}
	return err
}

// clearParts makes way for the temporary files of names: a leftover the
// marker lists (an interrupted build's) is removed; anything else there is
// someone else's, and refused.
func clearParts(dir string, root *os.Root, names, listed []string) error {
	ours := make(map[string]bool, len(listed))
	for _, n := range listed {
		ours[n] = true
	}
	for _, n := range names {
		part := partName(n)
		if _, err := root.Lstat(part); err != nil {
			continue // nothing there (or no directory yet)
		}
		if !ours[part] {
			return fmt.Errorf("%s exists and was not written by fabriclab, so nothing was written: remove it, or choose a new directory with --out",
				filepath.Join(dir, filepath.FromSlash(part)))
		}
		if err := root.Remove(part); err != nil {
			return fmt.Errorf("removing %s left by an interrupted build: %w", filepath.Join(dir, filepath.FromSlash(part)), err)
		}
	}
	return nil
}

// makeDirs creates the directory d of the site and those above it, refusing
// a symbolic link or a file on the way; done caches what was checked.
func makeDirs(dir string, root *os.Root, d string, done map[string]bool) error {
	if d == "." || done[d] {
		return nil
	}
	if err := makeDirs(dir, root, path.Dir(d), done); err != nil {
		return err
	}
	st, err := root.Lstat(d)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = root.Mkdir(d, 0o755)
	case err != nil:
	case st.Mode()&fs.ModeSymlink != 0:
		return linkError(dir, d)
	case !st.IsDir():
		return fmt.Errorf("%s is a file where the site has a directory, so the build stopped: remove it, or choose a new directory with --out",
			filepath.Join(dir, filepath.FromSlash(d)))
	}
	if err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Join(dir, filepath.FromSlash(d)), err)
	}
	done[d] = true
	return nil
}

// writeFiles writes files (slash paths → contents) into dir as CheckOut
// allows, then removes the files an earlier build listed that this one did
// not write, and directories left empty by that. Files it did not write are
// never touched. Every file goes through a temporary file and a rename, in
// directories that are not links, confined to dir (os.Root); the marker
// says "complete" only once all is done.
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
	if err := clearParts(dir, root, names, old.files); err != nil {
		return err
	}
	// Until the build is complete the marker lists old and new files and the
	// temporary ones, so that the next build can clean up after this one.
	all := slices.Clone(old.files)
	for _, n := range names {
		all = append(all, n, partName(n))
	}
	slices.Sort(all)
	if err := writeMarker(root, slices.Compact(all), false); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	dirs := map[string]bool{}
	for _, n := range names {
		if err := makeDirs(dir, root, path.Dir(n), dirs); err != nil {
			return err
		}
		if err := writeAtomic(root, n, files[n]); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dir, n), err)
		}
	}
	for _, n := range old.files {
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
	if err := writeMarker(root, names, true); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	return nil
}
