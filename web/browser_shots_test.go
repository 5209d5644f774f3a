package web_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserScreenshots writes a screenshot of every view at 1280×720 and
// 1920×1080 to $FABRICLAB_SCREENSHOTS, for people to look at.
func TestBrowserScreenshots(t *testing.T) {
	t.Parallel()
	if os.Getenv("FABRICLAB_SCREENSHOTS") == "" {
		t.Skip("set FABRICLAB_SCREENSHOTS=DIR to write screenshots of every view")
	}
	ctx, base, _ := browser(t)
	shot := func(name string) {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		keep(t, name, png)
	}
	for _, size := range [][2]int64{{1280, 720}, {1920, 1080}} {
		w := size[0]
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1])))
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/index.html")))
		shot(fmt.Sprintf("view-index-%d.png", w))
		for _, page := range []string{"incast.en.html#pfc", "incast.zh.html#lossy"} {
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/"+page)))
			poll(t, ctx, `window.fabriclabCanvas && fabriclabCanvas.ready && fabriclabCanvas.step !== ""`, 60*time.Second)
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")))
			time.Sleep(3 * time.Second)
			shot(fmt.Sprintf("view-%s-%d.png", page[:9], w))
			if w == 1920 {
				require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("p")))
				time.Sleep(500 * time.Millisecond)
				shot(fmt.Sprintf("view-%s-%d-presenter.png", page[:9], w))
				require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("p")))
			}
		}
		for _, sc := range embedViews {
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?play=1&scenario="+sc)))
			poll(t, ctx, `window.fabriclabFirstFrameMs > 0`, 60*time.Second)
			time.Sleep(4 * time.Second)
			name := sc
			if i := len(sc); i > 20 {
				name = sc[:16]
			}
			shot(fmt.Sprintf("view-embed-%s-%d.png", name, w))
		}
	}
}

var embedViews = []string{"ecmp-collisions", "permutation", "ring-allreduce-8&set=collective.bytes=64MiB", "perm-1024",
	"hierarchical-allreduce", "alltoall-moe", "dp-resnet50&set=sim.fidelity=flow", "incast-lossy", "incast-dcqcn"}

// FABRICLAB_VIEWS=lessons skips the scenario views; a comma-separated list of
// scenarios takes only those (and the lessons).
func init() {
	switch v := os.Getenv("FABRICLAB_VIEWS"); v {
	case "":
	case "lessons":
		embedViews = nil
	default:
		embedViews = strings.Split(v, ",")
	}
}
