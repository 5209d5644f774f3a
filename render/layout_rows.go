package render

import (
	"fmt"

	"fabriclab/i18n"
	"fabriclab/sim/topo"
)

// Rows of nodes and their labels: what every topology's layout places with.

// nodeSize is a node's largest box for its role.
func (L *Layout) nodeSize(r topo.Role) (w, h float64) {
	u := L.U
	switch r {
	case topo.Host:
		return 44 * u, 26 * u
	case topo.GPU:
		return 40 * u, 30 * u
	case topo.NIC:
		return 18 * u, 9 * u
	case topo.NVSwitch:
		return 0, 18 * u
	}
	return 64 * u, 24 * u
}

// row places ids evenly between x0 and x1 with their centres on y; when boxes
// would get narrower than minW it staggers them over up to four rows going
// down. It returns the height the rows take below y's row centre.
func (L *Layout) row(ids []int, x0, x1, y float64) float64 { return L.rows(ids, x0, x1, y, 4) }

// rows is row with at most maxRows staggered rows.
func (L *Layout) rows(ids []int, x0, x1, y float64, maxRows int) float64 {
	n := len(ids)
	if n == 0 {
		return 0
	}
	role := L.Topo.Nodes[ids[0]].Role
	bw, bh := L.nodeSize(role)
	pitch := (x1 - x0) / float64(n)
	gap := max(2*L.U, pitch*0.18)
	minW := 14 * L.U
	rows := 1
	for rows < maxRows && pitch*float64(rows)-gap < minW && rows < n {
		rows++
	}
	w := min(bw, pitch*float64(rows)-gap)
	if rows > 1 {
		// Staggered boxes are wider than the pitch: keep the outer ones
		// inside [x0, x1] by spreading centres over [x0+w/2, x1-w/2].
		W, r, m := x1-x0, float64(rows), float64(n-1)
		w = min(bw, (r*W/m-gap)/(1+r/m))
		pitch = (W - w) / m
		x0 += w/2 - pitch/2
	}
	w = max(w, 3)
	hh := bh
	if w < bw*0.6 {
		hh = max(bh*0.7, min(bh, w*1.2))
	}
	dy := hh + max(4*L.U, hh*0.35)
	for i, id := range ids {
		x := x0 + (float64(i)+0.5)*pitch
		yy := y + float64(i%rows)*dy
		b := &L.Nodes[id]
		b.Rect = Rect{x - w/2, yy - hh/2, w, hh}
		b.Shown = true
	}
	L.labelRow(ids)
	return float64(rows-1) * dy
}

// labelRow labels the nodes of a row in one style: the longest form of label
// that fits every box, or none.
func (L *Layout) labelRow(ids []int) {
	for form := range 3 {
		ok := true
		for _, id := range ids {
			b := &L.Nodes[id]
			if b.Label = L.label(id, form, b.W, b.H); b.Label == "" {
				ok = false
				break
			}
		}
		if ok {
			return
		}
	}
	for _, id := range ids {
		L.Nodes[id].Label = ""
	}
}

// nodeName is what the canvas calls node id everywhere (its box, the
// tooltip, the charts' keys, a picked flow): "h3" for a host (endpoint 3),
// "GPU 3" for a GPU, "chip 3" for a torus's, else the topology's name.
func nodeName(L *Layout, id int) string {
	nd := &L.Topo.Nodes[id]
	switch nd.Role {
	case topo.Host:
		return i18n.Tf(L.Opt.Lang, "node.host.abbr", L.EP[id])
	case topo.GPU:
		if L.Topo.Torus != nil {
			return i18n.Tf(L.Opt.Lang, "node.chip", nd.Index)
		}
		return fmt.Sprintf("GPU %d", nd.Index)
	case topo.Storage:
		return storageName(L.Opt.Lang, nd.Index)
	case topo.Leaf:
		if L.Topo.Kind == "star" { // the one switch: its box's word, in the canvas's language
			return i18n.T(L.Opt.Lang, "node.switch")
		}
	}
	if id == storageLeaf(L.Topo) {
		return i18n.T(L.Opt.Lang, "node.storage-leaf")
	}
	return nd.Name
}

// linkName is link id as "from→to", in nodeName's names.
func linkName(L *Layout, id int) string {
	l := &L.Topo.Links[id]
	return nodeName(L, l.From) + "→" + nodeName(L, l.To)
}

// fitLabel picks the longest label of a node that fits its box.
func (L *Layout) fitLabel(id int, w, h float64) string {
	for form := range 3 {
		if s := L.label(id, form, w, h); s != "" {
			return s
		}
	}
	return ""
}

// label is a node's label in a form (0 longest … 2 shortest) if it fits a
// w×h box, else "".
func (L *Layout) label(id, form int, w, h float64) string {
	nd := &L.Topo.Nodes[id]
	size := L.Type.Main
	if h < size*1.15 {
		return ""
	}
	var cands []string
	switch nd.Role {
	case topo.Host, topo.GPU:
		if tr := L.Topo.Torus; tr != nil {
			cands = torusLabels(tr, nd.Index)
		} else if nd.Role == topo.GPU {
			cands = []string{fmt.Sprintf("GPU %d", nd.Index), fmt.Sprint(nd.Index)}
		} else {
			cands = []string{nodeName(L, id)} // one name everywhere: "h3"
		}
	case topo.NIC:
		return ""
	case topo.Storage:
		cands = []string{storageName(L.Opt.Lang, nd.Index), fmt.Sprintf("S%d", nd.Index)}
	case topo.NVSwitch:
		cands = []string{"NVSwitch", "NVS"}
	case topo.Leaf:
		switch {
		case L.Topo.Kind == "star":
			cands = []string{i18n.T(L.Opt.Lang, "node.switch"), i18n.T(L.Opt.Lang, "node.sw")}
		case L.Topo.Kind == "fattree":
			cands = []string{fmt.Sprintf("edge%d", nd.Index), fmt.Sprintf("e%d", nd.Index)}
		case id == storageLeaf(L.Topo):
			cands = []string{i18n.T(L.Opt.Lang, "node.storage-leaf"), i18n.T(L.Opt.Lang, "node.storage-leaf.short"), "SL"}
		case len(nd.Name) > 4 && nd.Name[:4] == "rail":
			cands = []string{nd.Name, fmt.Sprintf("r%d", nd.Index)}
		default:
			cands = []string{nd.Name, fmt.Sprintf("L%d", nd.Index)}
		}
	case topo.Spine:
		if L.Topo.Kind == "fattree" {
			cands = []string{fmt.Sprintf("agg%d", nd.Index), fmt.Sprintf("a%d", nd.Index)}
		} else {
			cands = []string{nd.Name, fmt.Sprintf("S%d", nd.Index)}
		}
	case topo.Core:
		cands = []string{nd.Name, fmt.Sprintf("c%d", nd.Index)}
	}
	if len(cands) == 0 {
		return ""
	}
	c := cands[min(form, len(cands)-1)]
	if TextWidth(c, size, 1)+4*L.U <= w {
		return c
	}
	return ""
}
