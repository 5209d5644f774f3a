package render

import (
	"cmp"
	"slices"
	"strings"

	"fabriclab/protocol"
	"fabriclab/sim/snap"
	"fabriclab/sim/topo"
)

// The canvas as text: View reads what the last Scene drew (the link loads
// its colours show, the lines its charts drew, the words in its panels)
// into a protocol.View for the page's "Canvas as a table"; Tooltip is the
// tooltip it drew, for the keyboard's highlight (Inspectable).

// Caps on a View's lists: the busiest come first, More* count the rest.
const (
	viewNodes = 48
	viewLinks = 24
	viewFlows = 24
	viewRows  = 8 // rows of a chart's table
)

// chartText is a word a chart panel drew: its title, or a note.
type chartText struct {
	chart int
	title bool
	s     string
}

// chartWord records s, drawn at (x, y), as the title or a note of the chart
// whose panel holds that point (none: not a chart's).
func (b *Builder) chartWord(x, y float64, s string, title bool) {
	for i, r := range b.layout.Charts {
		if r.Contains(x, y) {
			b.ch.words = append(b.ch.words, chartText{i, title, s})
			return
		}
	}
}

// View is what the last scene showed, as text in the canvas's language;
// nil before a scene with a snapshot.
func (b *Builder) View() *protocol.View {
	f := &b.drawn
	if f.Cur == nil || f.Layout == nil || len(b.util) != len(f.Cur.Links) {
		return nil
	}
	b.f = f
	v := &protocol.View{TUs: f.Cur.Time.Micros(), Nodes: []protocol.ViewNode{}, Links: []protocol.ViewLink{}, Flows: []protocol.ViewFlow{}}
	v.Nodes, v.MoreNodes = b.viewNodes()
	v.Links, v.MoreLinks = b.viewLinks()
	v.Flows, v.MoreFlows = b.viewFlows()
	v.Charts = b.viewCharts()
	return v
}

func (b *Builder) viewNodes() ([]protocol.ViewNode, int) {
	L := b.layout
	group := make(map[int]string)
	for _, p := range L.Pods {
		for _, id := range p.Nodes {
			group[id] = p.Label
		}
	}
	out := []protocol.ViewNode{}
	t := L.Topo
	// the storage nodes first: they come last, past the rows a big topology lists
	ids := slices.Clone(t.Endpoints[len(t.Endpoints)-t.Storage:])
	for id := range t.Nodes {
		if t.Nodes[id].Role != topo.Storage {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		if len(out) == viewNodes {
			return out, len(t.Nodes) - viewNodes
		}
		out = append(out, protocol.ViewNode{Name: nodeName(L, id), Kind: b.nodeRole(id), Group: group[id]})
	}
	return out, 0
}

// viewLinks are the links down or degraded first, then by load (as their
// colours show), then queue.
func (b *Builder) viewLinks() ([]protocol.ViewLink, int) {
	L, cur := b.layout, b.drawn.Cur
	ids := make([]int, len(L.Topo.Links))
	faulted := make([]int, len(ids))
	for i := range ids {
		ids[i] = i
		if cur.Faults.LinkDown(i) || cur.Faults.LinkGbps(i) > 0 {
			faulted[i] = 1
		}
	}
	slices.SortStableFunc(ids, func(i, j int) int {
		return cmp.Or(faulted[j]-faulted[i], cmp.Compare(b.util[j], b.util[i]), cmp.Compare(cur.Links[j].QueueBytes, cur.Links[i].QueueBytes))
	})
	out := []protocol.ViewLink{}
	for _, id := range ids[:min(len(ids), viewLinks)] {
		l, s := &L.Topo.Links[id], &cur.Links[id]
		out = append(out, protocol.ViewLink{From: nodeName(L, l.From), To: nodeName(L, l.To), LoadPct: int(b.util[id]*100 + 0.5),
			QueueBytes: s.QueueBytes, Queue: fmtBytes(float64(s.QueueBytes)), Paused: s.Paused, State: b.faultLinkLine(id)})
	}
	return out, len(ids) - len(out)
}

// viewFlows are the flows by their rate since the frame the link loads are
// measured against (Frame.Prev), the finished last.
func (b *Builder) viewFlows() ([]protocol.ViewFlow, int) {
	cur, prev := b.drawn.Cur, b.drawn.Prev
	rates := make([]float64, len(cur.Flows))
	if prev != nil && prev.Time < cur.Time && len(prev.Flows) == len(cur.Flows) {
		dt := (cur.Time - prev.Time).Seconds()
		for i := range cur.Flows {
			rates[i] = float64(cur.Flows[i].Delivered-prev.Flows[i].Delivered) * 8 / dt
		}
	}
	ids := make([]int, len(cur.Flows))
	for i := range ids {
		ids[i] = i
	}
	done := func(i int) int {
		if cur.Flows[i].Done {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(ids, func(i, j int) int { return cmp.Or(done(i)-done(j), cmp.Compare(rates[j], rates[i])) })
	out := []protocol.ViewFlow{}
	for _, i := range ids[:min(len(ids), viewFlows)] {
		fl := &cur.Flows[i]
		vf := protocol.ViewFlow{Name: b.flowText(fl), RateGbps: rates[i] / 1e9, Rate: fmtRate(rates[i]), Done: fl.Done}
		if int(fl.Class) < len(cur.Classes) && len(cur.Classes) > 1 {
			vf.Class = cur.Classes[fl.Class]
		}
		out = append(out, vf)
	}
	return out, len(ids) - len(out)
}

// flowText names a flow as the charts do: "h0→h8".
func (b *Builder) flowText(fl *snap.Flow) string {
	return b.tf("chart.flow.hosts", b.hostName(fl.Src), b.hostName(fl.Dst))
}

// viewCharts are the charts the scene drew, each as a table: the lines it
// drew (at up to viewRows of their times) and its words.
func (b *Builder) viewCharts() []protocol.ViewChart {
	out := []protocol.ViewChart{}
	for ci := range b.layout.Charts {
		c := protocol.ViewChart{Columns: []string{"t"}, Rows: [][]string{}, Notes: []string{}}
		for _, w := range b.ch.words {
			switch {
			case w.chart != ci:
			case w.title && c.Title == "":
				c.Title = w.s
			case !w.title:
				c.Notes = append(c.Notes, w.s)
			}
		}
		var lines []*chartLine
		for i := range b.ch.lines {
			if ln := &b.ch.lines[i]; ln.chart == ci {
				lines = append(lines, ln)
				c.Columns = append(c.Columns, ln.name)
			}
		}
		c.Rows = b.chartRows(lines)
		if c.Title != "" || len(c.Notes) > 0 || len(c.Rows) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// chartRows samples the lines' times (up to viewRows, the last always) and
// gives each line's value at each, "—" where a line has none.
func (b *Builder) chartRows(lines []*chartLine) [][]string {
	var times []float64
	for _, ln := range lines {
		for k := range ln.n {
			times = append(times, b.ch.vals[ln.v0+2*k])
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	rows := [][]string{}
	for k := range min(len(times), viewRows) {
		i := k
		if len(times) > viewRows {
			i = k * (len(times) - 1) / (viewRows - 1)
		}
		t := times[i]
		row := []string{fmtMicros(t)}
		for _, ln := range lines {
			cell := "—"
			for p := range ln.n {
				if b.ch.vals[ln.v0+2*p] == t {
					cell = ln.unit(b.ch.vals[ln.v0+2*p+1])
				}
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return rows
}

// Tooltip is the tooltip the last scene drew for h, its lines joined with
// " · "; false when the last scene was not drawn with h under the cursor.
func (b *Builder) Tooltip(h Hover) (string, bool) {
	f := &b.drawn
	if f.Cur == nil || f.Layout == nil || f.Hover != h || h.Kind == HoverNone || h.Kind == HoverChart || len(b.util) != len(f.Cur.Links) {
		return "", false
	}
	b.f = f
	return strings.Join(b.tooltipLines(), " · "), true
}

// Inspectable is what the keyboard's highlight steps through: the nodes
// drawn on their own, the condensed pods, the links shown and the bundles,
// each at its centre (where its tooltip shows).
func Inspectable(L *Layout) []Hover {
	var out []Hover
	for id := range L.Nodes {
		if nb := &L.Nodes[id]; nb.Shown && nb.W > 0 {
			x, y := nb.Center()
			out = append(out, Hover{Kind: HoverNode, ID: id, X: x, Y: y})
		}
	}
	for i := range L.Pods {
		if len(L.Bundles) > 0 {
			x, y := L.Pods[i].Center()
			out = append(out, Hover{Kind: HoverPod, ID: i, X: x, Y: y})
		}
	}
	for id := range L.Links {
		if ln := &L.Links[id]; ln.Shown {
			out = append(out, Hover{Kind: HoverLink, ID: id, X: (ln.X1 + ln.X2) / 2, Y: (ln.Y1 + ln.Y2) / 2})
		}
	}
	for i := range L.Bundles {
		bd := &L.Bundles[i].Up
		out = append(out, Hover{Kind: HoverBundle, ID: i, X: (bd.X1 + bd.X2) / 2, Y: (bd.Y1 + bd.Y2) / 2})
	}
	return out
}

// NextInspected is the item dir (1 or -1) after h in Inspectable(L): the
// first (or last) when h is none of them.
func NextInspected(L *Layout, h Hover, dir int) Hover {
	items := Inspectable(L)
	if len(items) == 0 {
		return Hover{}
	}
	at := slices.IndexFunc(items, func(it Hover) bool { return it.Kind == h.Kind && it.ID == h.ID })
	switch {
	case at < 0 && dir < 0:
		return items[len(items)-1]
	case at < 0:
		return items[0]
	}
	return items[(at+dir+len(items))%len(items)]
}
