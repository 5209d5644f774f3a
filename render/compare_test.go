package render

import (
	"image/color"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitCanvas(t *testing.T) {
	s := SplitCanvas(1280, 672, false)
	assert.Equal(t, Rect{0, CompareStrip, 640, 672 - CompareStrip}, s.Panes[0])
	assert.Equal(t, Rect{640, CompareStrip, 640, 672 - CompareStrip}, s.Panes[1])
	s = SplitCanvas(400, 800, false) // tall: one above the other
	assert.Equal(t, 400.0, s.Panes[0].W)
	assert.Equal(t, s.Panes[0].Y+s.Panes[0].H, s.Panes[1].Y)
	assert.Equal(t, 800.0, s.Panes[1].Y+s.Panes[1].H)
}

// SideBySide moves each scene into its pane: points, line ends and
// polylines' point ranges included.
func TestSideBySideMoves(t *testing.T) {
	var a, b DisplayList
	a.Reset(100, 100)
	a.line(LayerLink, 1, 2, 3, 4, 1, color.RGBA{1, 0, 0, 255})
	b.Reset(100, 100)
	b.Points = append(b.Points, 10, 20, 30, 40)
	b.polyline(LayerLink, 0, 1, color.RGBA{2, 0, 0, 255})
	b.text(LayerLabel, 5, 6, "x", 10, Start, 0, color.RGBA{3, 0, 0, 255})
	s := Split{Strip: Rect{0, 0, 200, 30}, Panes: [2]Rect{{0, 30, 100, 100}, {100, 30, 100, 100}}}
	var dl DisplayList
	SideBySide(&dl, s, true, false, "t = 1 µs", "summary", [2]*DisplayList{&a, &b})
	require.GreaterOrEqual(t, len(dl.Prims), 4)
	assert.Equal(t, float32(200), dl.W)
	assert.Equal(t, float32(130), dl.H)
	line := dl.Prims[1]
	assert.Equal(t, [4]float32{1, 32, 3, 34}, [4]float32{line.X, line.Y, line.W, line.H})
	poly := dl.Prims[2]
	require.Equal(t, KindPolyline, poly.Kind)
	assert.Equal(t, []float32{110, 50, 130, 70}, dl.Pts(&poly))
	text := dl.Prims[3]
	assert.Equal(t, [2]float32{105, 36}, [2]float32{text.X, text.Y})
	var strs []string
	for _, p := range dl.Prims {
		if p.Kind == KindText {
			strs = append(strs, p.Str)
		}
	}
	assert.Equal(t, []string{"x", "t = 1 µs", "summary"}, strs)
}
