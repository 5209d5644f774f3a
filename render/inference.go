package render

import (
	"image/color"
	"strconv"

	"fabriclab/assets"
	"fabriclab/sim/snap"
)

// chartRequests marks the inference view's panel, in the place of the queue
// chart: where the requests are, and the service's figures so far.
// Every bit of Charts is taken: a kind is a value compared, never a mask,
// and this one is no other kind's.
const chartRequests Charts = chartIteration | chartRoute

// inferenceKinds are what an inference view's chart slots show, in order:
// the requests, the KV caches crossing the fabric, and their transfer times.
var inferenceKinds = []Charts{chartRequests, ChartThroughput, ChartFCT}

func (b *Builder) inferenceShown() bool {
	return len(b.layout.Charts) > 0 && b.f.Cur != nil && b.f.Cur.Inference != nil
}

// inferenceCharts draws the inference view's panel and charts.
func (b *Builder) inferenceCharts() {
	L := b.layout
	cp := *L
	cp.Kinds = inferenceKinds[:min(len(L.Charts), len(inferenceKinds))]
	b.layout = &cp
	b.charts() // the other charts, and an empty panel for the requests
	b.layout = L
	b.requests(L.Charts[0], b.f.Cur.Inference)
}

// requests is a bar per place a request can be, with its count, and the
// service's figures: tokens made, the median time to first token, the KV
// cache each request sends.
func (b *Builder) requests(r Rect, in *snap.Inference) {
	L, th, dl := b.layout, b.th, &b.dl
	u, ts := L.U, &L.Type
	x, w := r.X+10*u, r.W-20*u
	y := r.Y + ts.Body*1.1
	title := b.tf("infer.title", in.Arrived, in.Requests)
	mid := func(text string, isTitle bool) { b.chartWord(r.X+r.W/2, r.Y+r.H/2, text, isTitle) } // for the canvas's table (view.go)
	mid(title, true)
	dl.text(LayerChart, x, y, shorten(title, ts.Body, assets.Medium, w), ts.Body, Start, assets.Medium, th.Text)
	rows := []struct {
		n    int
		c    color.RGBA
		name string
	}{
		{in.Queued, th.Idle, b.t("infer.queued")},
		{in.Prefilling, th.Compute, b.t("infer.prefill")},
		{in.Sending, th.Comm, b.t("infer.sending")},
		{in.Decoding, th.Compute, b.t("infer.decode")},
		{in.Done, th.Muted, b.t("infer.done")},
	}
	y += ts.Body * 1.3
	label := w * 0.5
	for _, row := range rows {
		if y+ts.Small > r.Y+r.H-ts.Main*2 {
			break
		}
		mid(b.tf("infer.row", row.name, row.n), false)
		dl.text(LayerChart, x, y, shorten(row.name, ts.Small, assets.Regular, label-4*u), ts.Small, Start, assets.Regular, th.Text)
		bw := w - label - ts.Small*2.5
		if row.n > 0 && in.Requests > 0 {
			dl.rect(LayerChart, x+label, y-ts.Small*0.45, max(bw*float64(row.n)/float64(in.Requests), 2*u), ts.Small*0.9, 2*u, row.c, th.NodeEdge, 1*u)
		}
		dl.text(LayerChart, x+w, y, strconv.Itoa(row.n), ts.Small, End, assets.Regular, th.Text)
		y += ts.Small * 1.5
	}
	if in.TTFTP50 > 0 && y+ts.Main < r.Y+r.H {
		y += ts.Main * 0.4
		mid(b.tf("infer.ttft", fmtMicros(in.TTFTP50)), false)
		dl.text(LayerChart, x, y, shorten(b.tf("infer.ttft", fmtMicros(in.TTFTP50)), ts.Main, assets.Bold, w), ts.Main, Start, assets.Bold, th.Text) // the key figure
		y += ts.Main * 1.2
	}
	for _, line := range []string{b.tf("infer.tokens", in.Tokens), b.tf("infer.kv", fmtBytes(float64(in.KVBytes)))} {
		if y+ts.Small > r.Y+r.H-4*u {
			break
		}
		mid(line, false)
		dl.text(LayerChart, x, y, shorten(line, ts.Small, assets.Regular, w), ts.Small, Start, assets.Regular, th.Muted)
		y += ts.Small * 1.4
	}
}
