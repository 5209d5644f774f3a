package web_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
)

// One headless Chromium serves every browser test of the binary: starting one
// costs seconds, and each test gets a browser context of its own anyway.
var shared struct {
	once    sync.Once
	ctx     context.Context
	err     error
	dir     string
	cleanup func()
}

// browserShared is the context of the test binary's Chromium, started on
// first use; TestMain stops it.
func browserShared(t *testing.T, path string) context.Context {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "fabriclab-chromium")
		if shared.err != nil {
			return
		}
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromiumOptions(path, shared.dir)...)
		ctx, cancelB := chromedp.NewContext(actx)
		shared.ctx = ctx
		shared.cleanup = func() { cancelB(); cancelA(); os.RemoveAll(shared.dir) }
		shared.err = chromedp.Do(ctx) // starts the browser
	})
	require.NoError(t, shared.err, "starting Chromium")
	return shared.ctx
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.cleanup != nil {
		shared.cleanup()
	}
	if site != "" {
		os.RemoveAll(filepath.Dir(site))
	}
	os.Exit(code)
}

// shippedLessons loads the shipped lessons once for the tests that walk them
// (loading runs every scenario a figure quotes; the tests only read them).
var shippedLessons = sync.OnceValues(func() ([]*lessons.Lesson, error) { return lessons.Load(lessons.Content()) })
