package web_test

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// traceTo records Chromium's performance trace of the tab of ctx (the
// main thread's tasks, animation frames, V8, the GPU process) until the
// returned func runs, which writes it to file as a JSON trace that
// chrome://tracing and Perfetto open.
func traceTo(t *testing.T, ctx context.Context, file string) (stop func()) {
	t.Helper()
	var mu sync.Mutex
	var events []json.RawMessage
	done := make(chan struct{})
	tctx, cancel := context.WithCancel(ctx)
	go func() {
		for ev, err := range chromedp.Events(tctx, tracing.DataCollected) {
			if err != nil {
				return
			}
			mu.Lock()
			for _, v := range ev.Value {
				events = append(events, json.RawMessage(v))
			}
			mu.Unlock()
		}
	}()
	go func() {
		for _, err := range chromedp.Events(tctx, tracing.TracingComplete) {
			if err == nil {
				close(done)
			}
			return
		}
	}()
	tgt := chromedp.FromContext(ctx).Target
	_, err := cdp.Call(ctx, tgt, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: []string{
		"devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
		"blink.user_timing", "toplevel", "v8.execute", "v8", "v8.wasm", "gpu", "cc", "viz", "blink", "loading", "netlog",
	}}})
	require.NoError(t, err)
	return func() {
		_, err := cdp.Call(ctx, tgt, tracing.End, cdp.Empty{})
		require.NoError(t, err)
		<-done
		cancel()
		mu.Lock()
		defer mu.Unlock()
		data, err := json.Marshal(map[string]any{"traceEvents": events})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(file, data, 0o644))
	}
}
