package render

import (
	"image/color"
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// PNGs may be made in parallel (TestTextFits with RENDER_LOOK does): the
// shared font faces take turns. Under -race a face used by two goroutines
// at once fails; without it, it used to panic now and then.
func TestPNGInParallel(t *testing.T) {
	var dl DisplayList
	dl.W, dl.H = 200, 100
	for i := range 40 {
		dl.text(LayerLabel, 10, float64(10+i*2), "GPU 0 · 交换机 · reduce-scatter", float64(12+i%10), Start, 0, color.RGBA{200, 200, 200, 255})
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { assert.NoError(t, WritePNG(io.Discard, &dl, 1)) })
	}
	wg.Wait()
}
