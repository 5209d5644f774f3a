package main

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
	"fabriclab/sim/scenario"
)

// exportFile runs export with args and returns the file it wrote.
func exportFile(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	code, stdout, stderr := cli(append([]string{"export", "--out", out}, args...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote "+out)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	return data
}

// TestExportSVG: the canvas at a moment, byte for byte, in both themes and
// languages (the SVG carries the text, so a label that moves or changes
// language shows in the diff).
func TestExportSVG(t *testing.T) {
	for _, tc := range []struct {
		golden, scenario string
		args             []string
	}{
		{"export-incast-500us.svg", "incast", []string{"--t", "500us", "--size", "960x540"}},
		{"export-ring-light-zh.svg", "ring-allreduce-8", []string{"--t", "150us", "--size", "800x600", "--theme", "light", "--lang", "zh", "--set", "collective.bytes=64MiB"}},
	} {
		svg := exportFile(t, "x.svg", append([]string{tc.scenario}, tc.args...)...)
		assert.True(t, bytes.HasPrefix(svg, []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="`)), tc.golden)
		golden.Equal(t, "testdata/"+tc.golden, svg)
	}
	svg := exportFile(t, "x.svg", "incast", "--t", "500us", "--size", "960x540", "--theme", "light")
	assert.Contains(t, string(svg), `width="960.0" height="540.0"`)
	assert.NotEqual(t, exportFile(t, "y.svg", "incast", "--t", "500us", "--size", "960x540"), svg, "the theme changes the picture")
	assert.NotEqual(t, exportFile(t, "y.svg", "incast", "--t", "200us", "--size", "960x540", "--theme", "light"), svg, "the time changes the picture")
}

func TestExportPNG(t *testing.T) {
	data := exportFile(t, "x.png", "incast", "--t", "500us", "--size", "640x400")
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, 640, img.Bounds().Dx())
	assert.Equal(t, 400, img.Bounds().Dy())
	// Something is drawn: the picture has more than the background colour.
	colours := map[[3]uint32]bool{}
	for y := 0; y < 400; y += 4 {
		for x := 0; x < 640; x += 4 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r, g, b}] = true
		}
	}
	assert.Greater(t, len(colours), 20, "a drawn canvas, not a blank")
	// The format comes from --out's extension; --format overrides it.
	assert.True(t, bytes.HasPrefix(exportFile(t, "x.svg", "incast", "--format", "png", "--t", "10us"), []byte("\x89PNG")))
}

func TestExportGIF(t *testing.T) {
	data := exportFile(t, "x.gif", "incast", "--set", "traffic.bytes=1MiB", "--size", "400x240", "--frames", "12")
	g, err := gif.DecodeAll(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, 400, g.Config.Width)
	assert.Equal(t, 240, g.Config.Height)
	require.Len(t, g.Image, 12)
	assert.Equal(t, 10, g.Delay[0], "ten frames a second")
	assert.Equal(t, 300, g.Delay[11], "the end is held")
	for _, im := range g.Image {
		assert.Equal(t, 400, im.Bounds().Dx())
		assert.LessOrEqual(t, len(im.Palette), 256)
	}
	// Frames differ (the run moves); unchanged pixels are left transparent.
	assert.NotEqual(t, g.Image[0].Pix, g.Image[11].Pix)
	assert.Contains(t, g.Image[11].Pix, uint8(len(g.Image[11].Palette)-1), "pixels that did not change are transparent")

	g, err = gif.DecodeAll(bytes.NewReader(exportFile(t, "a.gif", "incast", "--set", "traffic.bytes=1MiB", "--size", "300x200", "--frames", "3")))
	require.NoError(t, err)
	assert.Len(t, g.Image, 3)
	assert.Equal(t, 300, g.Config.Width)

	// Byte for byte: the golden file was made when the GIF was encoded
	// whole (gif.EncodeAll), before it was written a frame at a time.
	golden.Equal(t, "testdata/export-incast-320x200.gif", exportFile(t, "b.gif", "incast", "--set", "traffic.bytes=1MiB", "--size", "320x200", "--frames", "5"))
}

// TestExportPastTheEnd: a --t past the run's end exports the end, and says so.
func TestExportPastTheEnd(t *testing.T) {
	dir := t.TempDir()
	end := filepath.Join(dir, "end.svg")
	code, _, stderr := cli("export", "incast", "--set", "traffic.bytes=1MiB", "--size", "640x360", "--out", end)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr)
	past := filepath.Join(dir, "past.svg")
	code, _, stderr = cli("export", "incast", "--set", "traffic.bytes=1MiB", "--size", "640x360", "--t", "1s", "--out", past)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "--t 1s is past the run's end (")
	assert.Contains(t, stderr, "exported the end")
	a, _ := os.ReadFile(end)
	b, _ := os.ReadFile(past)
	assert.Equal(t, string(a), string(b))
	assert.Contains(t, string(a), ">finished</text>", "the end is the finished run")
	code, _, stderr = cli("export", "incast", "--set", "traffic.bytes=1MiB", "--size", "640x360", "--t", "0", "--out", end)
	require.Equal(t, 0, code, stderr)
	start, _ := os.ReadFile(end)
	assert.NotContains(t, string(start), ">finished</text>")
}

func TestExportErrors(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "keep.svg")
	require.NoError(t, os.WriteFile(existing, []byte("mine"), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"incast", "--t", "soon"}, `--t "soon": give a simulated time from 0, e.g. --t 500us`},
		{[]string{"incast", "--t", "-5us"}, `--t "-5us"`},
		{[]string{"incast", "--format", "jpeg"}, `--format "jpeg": use svg, png (a picture at --t) or gif (the whole run)`},
		{[]string{"incast", "--format", "gif", "--t", "1us"}, "a gif shows the whole run; drop --t"},
		{[]string{"incast", "--size", "big"}, `--size "big": give WIDTHxHEIGHT in px, each 200 to 8192`},
		{[]string{"incast", "--size", "100x100"}, `--size "100x100"`},
		{[]string{"incast", "--size", "9000x720"}, `--size "9000x720"`},
		{[]string{"incast", "--theme", "blue"}, `--theme "blue": use dark or light`},
		{[]string{"incast", "--lang", "fr"}, `--lang "fr": use en`},
		{[]string{"incast", "--frames", "500", "--format", "gif"}, "--frames 500: give 2 to 120"},
		{[]string{"incast", "--out", filepath.Join(dir, "no", "such", "dir", "x.svg")}, "cannot write there"},
		{[]string{"incast", "--out", dir}, "is not a regular file"},
		{[]string{"nosuch"}, "neither a file nor a built-in"},
		{[]string{"incast", "--set", "topology.hosts=0", "--out", existing}, "topology.hosts"},
	} {
		code, _, stderr := cli(append([]string{"export"}, tc.args...)...)
		assert.Equal(t, 1, code, "%q", tc.args)
		assert.Contains(t, stderr, tc.want, "%q", tc.args)
		assert.True(t, strings.HasPrefix(stderr, "fabriclab export: "), "%q: %s", tc.args, stderr)
	}
	data, err := os.ReadFile(existing)
	require.NoError(t, err)
	assert.Equal(t, "mine", string(data), "a failed export leaves the file it would have replaced")
	left, err := filepath.Glob(filepath.Join(dir, ".fabriclab-export-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "no temporary file is left behind")
}

func TestExportStdout(t *testing.T) {
	code, out, stderr := cli("export", "incast", "--t", "5us", "--size", "400x300", "--out", "-")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasPrefix(out, "<svg "), "--out - writes the picture to stdout")
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"1280x720", "200X200", "x", "8193x10", "-1x-1", "1e3x500", " 640x480", "640x480x2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, h, err := parseSize(s)
		if err != nil {
			assert.Contains(t, err.Error(), "--size")
			return
		}
		assert.True(t, w >= minExportSide && w <= maxExportSide && h >= minExportSide && h <= maxExportSide, "%q: %dx%d", s, w, h)
	})
}

// TestExportFileName: a default file name made from a scenario's name stays
// in the current directory, visible, and of bounded length.
func TestExportFileName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"incast", "incast"},
		{"../../victim", "victim"},
		{"/tmp/abs", "tmp-abs"},
		{"a/b", "a-b"},
		{`C:\Users\x`, "C-Users-x"},
		{"..", "scenario"},
		{".", "scenario"},
		{".hidden", "hidden"},
		{"-rf", "rf"},
		{"   ", "scenario"},
		{"/", "scenario"},
		{"a / b", "a-b"},
		{"x.", "x"},
		{"a\x00b\nc", "a-b-c"},
		{"\xff\xfe", "scenario"},
		{"环形 全归约", "环形-全归约"},
		{"café_v2.1", "café_v2.1"},
		{strings.Repeat("a", 300), strings.Repeat("a", 100)},
		{strings.Repeat("环", 50), strings.Repeat("环", 33)}, // 3 bytes each: cut at a whole letter
		{strings.Repeat("a", 99) + "/b", strings.Repeat("a", 99)},
	} {
		got := fileName(tc.name)
		assert.Equal(t, tc.want, got, "%q", tc.name)
		assert.Equal(t, filepath.Base(got), got, "%q", tc.name)
		assert.LessOrEqual(t, len(got), maxFileName, "%q", tc.name)
		assert.True(t, utf8.ValidString(got), "%q", tc.name)
	}
}

// TestExportDefaultOut: without --out the file goes to the current
// directory whatever the scenario's name (issue 24: name: ../../victim
// overwrote ../../victim.svg).
func TestExportDefaultOut(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "a", "b")
	require.NoError(t, os.MkdirAll(cwd, 0o755))
	victim := filepath.Join(root, "victim.svg")
	require.NoError(t, os.WriteFile(victim, []byte("mine"), 0o644))
	abs := filepath.Join(root, "abs")
	t.Chdir(cwd)
	for _, tc := range []struct{ name, want string }{
		{"../../victim", "victim.svg"},
		{abs, fileName(abs) + ".svg"},
		{"..", "scenario.svg"},
	} {
		code, stdout, stderr := cli("export", "incast", "--set", "name="+tc.name, "--t", "1us", "--size", "200x200")
		require.Equal(t, 0, code, stderr)
		assert.Equal(t, "wrote "+tc.want+" (svg, 200x200)\n", stdout, tc.name)
		assert.FileExists(t, filepath.Join(cwd, tc.want), tc.name)
	}
	data, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "mine", string(data), "the file the name points at is untouched")
	assert.NoFileExists(t, abs+".svg")
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "only a/ and victim.svg are in the parent: %v", entries)
}

// TestExportOutSymlink: --out naming a symbolic link is refused; the link
// and what it points to are left as they were.
func TestExportOutSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(target, []byte("mine"), 0o644))
	link := filepath.Join(dir, "pic.svg")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	code, _, stderr := cli("export", "incast", "--t", "1us", "--size", "200x200", "--out", link)
	assert.Equal(t, 1, code)
	assert.Equal(t, "fabriclab export: --out "+link+": is a symbolic link (to "+target+"); export replaces files, not links: name the file itself, or remove the link\n", stderr)
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "mine", string(data))
	st, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&os.ModeSymlink, "the link is still a link")
	left, err := filepath.Glob(filepath.Join(dir, ".fabriclab-export-*"))
	require.NoError(t, err)
	assert.Empty(t, left)
}

// TestExportKeepsMode: replacing a file keeps its permissions.
func TestExportKeepsMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	out := filepath.Join(t.TempDir(), "x.svg")
	require.NoError(t, os.WriteFile(out, []byte("old"), 0o600))
	code, _, stderr := cli("export", "incast", "--t", "1us", "--size", "200x200", "--out", out)
	require.Equal(t, 0, code, stderr)
	st, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(data, []byte("<svg ")))
}

// TestGIFWriter: the frame-at-a-time writer gives gif.EncodeAll's bytes,
// for colour tables of every size.
func TestGIFWriter(t *testing.T) {
	for _, colours := range []int{1, 2, 3, 17, 128, 255} {
		pal := color.Palette{}
		for i := range colours {
			pal = append(pal, color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 0xff})
		}
		pal = append(pal, color.RGBA{})
		anim := gif.GIF{Config: image.Config{ColorModel: pal, Width: 23, Height: 9}}
		for i := range 4 {
			pm := image.NewPaletted(image.Rect(0, 0, 23, 9), pal)
			for k := range pm.Pix {
				pm.Pix[k] = uint8((k*k + i*31) % len(pal))
			}
			anim.Image = append(anim.Image, pm)
			anim.Delay = append(anim.Delay, 10+i*100)
			anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		}
		var want bytes.Buffer
		require.NoError(t, gif.EncodeAll(&want, &anim))
		var got bytes.Buffer
		g := gifWriter{w: &got, config: anim.Config}
		for i, pm := range anim.Image {
			require.NoError(t, g.frame(pm, anim.Delay[i]))
		}
		require.NoError(t, g.close())
		assert.Equal(t, want.Bytes(), got.Bytes(), "%d colours", colours)
	}
}

// heapWatcher is a writer that measures the live heap every few writes.
type heapWatcher struct {
	writes int
	peak   uint64
}

func (h *heapWatcher) Write(p []byte) (int, error) {
	if h.writes%8 == 0 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		h.peak = max(h.peak, m.HeapAlloc)
	}
	h.writes++
	return len(p), nil
}

// TestExportGIFHoldsOneFrame: a GIF is written while it is drawn, so the
// memory it holds does not grow with its frames (issue 24: 1920×1080 × 120
// frames held 1.73 GB).
func TestExportGIFHoldsOneFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	const w, h = 640, 360
	peak := func(frames string) uint64 {
		hw := &heapWatcher{}
		var stderr bytes.Buffer
		code := run([]string{"export", "incast", "--set", "traffic.bytes=1MiB", "--format", "gif", "--size", "640x360", "--frames", frames, "--out", "-"}, hw, &stderr)
		require.Equal(t, 0, code, stderr.String())
		return hw.peak
	}
	two, many := peak("2"), peak("120")
	// Holding every frame would be 118 × 230 KB more.
	assert.Less(t, many, two+4*w*h, "the live heap while writing 120 frames against 2")
}

// TestExportInterrupted: an export stopped (Ctrl-C) leaves no temporary
// file and the file it would have replaced as it was.
func TestExportInterrupted(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "keep.gif")
	require.NoError(t, os.WriteFile(out, []byte("mine"), 0o644))
	o, err := parseExport([]string{"incast", "--out", out, "--size", "200x200", "--frames", "4"}, io.Discard)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err = exportTo(ctx, o, &stdout, &stderr)
	require.Error(t, err)
	assert.Equal(t, "interrupted: wrote nothing, "+out+" is as it was", err.Error())
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "mine", string(data))
	left, err := filepath.Glob(filepath.Join(dir, ".fabriclab-export-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "no temporary file is left behind")
	assert.Empty(t, stdout.String())

	// Stopped while the frames are drawn: the next frame is not.
	sc, err := scenario.Load("incast", scenario.ReadFile, []string{"traffic.bytes=1MiB"})
	require.NoError(t, err)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	cw := &cancellingWriter{cancel: cancel}
	_, err = export(ctx, cw, sc, o)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 3, cw.writes, "the header, the loop and the first frame; the second frame is not drawn")
}

// cancellingWriter cancels a context when it is first written to.
type cancellingWriter struct {
	cancel context.CancelFunc
	writes int
}

func (c *cancellingWriter) Write(p []byte) (int, error) {
	c.writes++
	c.cancel()
	return len(p), nil
}

// TestExportSignal: Ctrl-C during an export ends it with a message and
// removes the temporary file (issue 24: interrupted exports left
// .fabriclab-export-NNN files). The export runs in a child process (this
// test binary) that is sent SIGINT once its temporary file exists.
func TestExportSignal(t *testing.T) {
	if os.Getenv("FABRICLAB_EXPORT_CHILD") == "1" {
		os.Exit(run([]string{"export", "incast", "--format", "gif", "--size", "1920x1080", "--frames", "120", "--out", "x.gif"}, os.Stdout, os.Stderr))
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no SIGINT to send")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	cmd := exec.Command(self, "-test.run=^TestExportSignal$")
	cmd.Env = append(os.Environ(), "FABRICLAB_EXPORT_CHILD=1")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		left, err := filepath.Glob(filepath.Join(dir, ".fabriclab-export-*"))
		require.NoError(t, err)
		if len(left) > 0 {
			break
		}
		select {
		case err := <-exited:
			require.FailNow(t, "the export ended before its temporary file was seen", "%v: %s", err, stderr.String())
		default:
			time.Sleep(time.Millisecond)
		}
	}
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	err = <-exited
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, stderr.String())
	assert.Equal(t, 1, exit.ExitCode(), "an exit, not a death by the signal: %s", stderr.String())
	assert.Equal(t, "fabriclab export: interrupted: wrote nothing, x.gif is as it was\n", stderr.String())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "no temporary file, no x.gif")
}
