package main

import (
	"bytes"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
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
