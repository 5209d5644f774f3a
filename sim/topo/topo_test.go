package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/link"
	"fabriclab/sim/unit"
)

// wiring is 400G RoCE with ideal NVLink.
var wiring = Wiring{Fabric: link.RoCE, Rate: 400 * unit.Gbps, Latency: unit.Microsecond, NVLink: link.NVLink4Rate}

// build builds a shape that must pass Check; oversubscription 0 means 1.
func build(t *testing.T, s Shape) *Topology {
	t.Helper()
	if s.Oversub == 0 {
		s.Oversub = 1
	}
	require.Empty(t, s.Check())
	return Build(s, wiring)
}

func count(tp *Topology, r Role) int {
	n := 0
	for _, nd := range tp.Nodes {
		if nd.Role == r {
			n++
		}
	}
	return n
}

func TestShapes(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		shape                       Shape
		endpoints, switches, cables int
	}{
		{"star", Shape{Kind: Star, Hosts: 9}, 9, 1, 9},
		{"one dgx", Shape{Kind: DGX, Nodes: 1, GPUsPerNode: 8}, 8, 1, 16}, // 8 NVLink + 8 PCIe
		{"4 dgx", Shape{Kind: DGX, Nodes: 4, GPUsPerNode: 8, Spines: 4}, 32, 4 + 8 + 4, 4*16 + 32 + 8*4},
		{"leafspine", Shape{Kind: LeafSpine, Leaves: 8, HostsPerLeaf: 8, Spines: 8, GPUsPerNode: 1}, 64, 16, 64 + 64},
		{"leafspine 2:1", Shape{Kind: LeafSpine, Leaves: 4, HostsPerLeaf: 8, Spines: 2, GPUsPerNode: 1, Oversub: 2}, 32, 6, 32 + 4*4},
		{"fattree k=4", Shape{Kind: FatTree, K: 4}, 16, 20, 16 + 16 + 16},
		{"fattree k=16", Shape{Kind: FatTree, K: 16}, 1024, 320, 3 * 1024},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tp := build(t, tc.shape)
			assert.Equal(t, tc.endpoints, tc.shape.Endpoints())
			assert.Len(t, tp.Endpoints, tc.endpoints)
			sw := 0
			for _, nd := range tp.Nodes {
				if nd.Role.IsSwitch() {
					sw++
				}
			}
			assert.Equal(t, tc.switches, sw, "switches")
			assert.Len(t, tp.Links, 2*tc.cables, "two directed links per cable")
			for _, l := range tp.Links {
				r := tp.Links[l.Reverse]
				require.Equal(t, l.From, r.To)
				require.Equal(t, l.To, r.From)
				require.Equal(t, l.ID, r.Reverse)
			}
		})
	}
}

func TestDGXLinks(t *testing.T) {
	tp := build(t, Shape{Kind: DGX, Nodes: 2, GPUsPerNode: 8, Spines: 2})
	gpu := tp.Nodes[tp.Endpoints[9]]
	assert.Equal(t, "n1.gpu1", gpu.Name)
	require.Len(t, gpu.Out, 2)
	nv, pcie := tp.Links[gpu.Out[0]], tp.Links[gpu.Out[1]]
	assert.Equal(t, link.NVLink4, nv.Kind)
	assert.InDelta(t, 450, nv.Rate.GBps(), 1e-9, "NVLink 4: 450 GB/s per direction per GPU")
	assert.Equal(t, link.PCIe5, pcie.Kind)
	// NIC 1 of every node sits on rail 1.
	nic := tp.Nodes[pcie.To]
	require.Len(t, nic.Out, 2)
	assert.Equal(t, "rail1", tp.Nodes[tp.Links[nic.Out[1]].To].Name)
}

func TestRailOptimisedOrder(t *testing.T) {
	tp := build(t, Shape{Kind: LeafSpine, Leaves: 4, HostsPerLeaf: 2, Spines: 2, GPUsPerNode: 4, RailOptimized: true})
	require.Len(t, tp.Endpoints, 8)
	// Endpoints go node by node, GPU by GPU; GPU i's NIC is on leaf i.
	for e, id := range tp.Endpoints {
		g := tp.Nodes[id]
		assert.Equal(t, e/4, g.Group, "node of endpoint %d", e)
		assert.Equal(t, e%4, g.Index, "GPU of endpoint %d", e)
		nic := tp.Nodes[tp.Links[g.Out[1]].To]
		leaf := tp.Nodes[tp.Links[nic.Out[1]].To]
		assert.Equal(t, e%4, leaf.Index, "rail of endpoint %d", e)
	}
}

func TestLeafSpineOrder(t *testing.T) {
	tp := build(t, Shape{Kind: LeafSpine, Leaves: 3, HostsPerLeaf: 4, Spines: 2, GPUsPerNode: 1})
	for e, id := range tp.Endpoints {
		h := tp.Nodes[id]
		assert.Equal(t, e/4, h.Group, "endpoints go leaf by leaf")
		assert.Equal(t, e%4, h.Index)
	}
}

func TestHopsTo(t *testing.T) {
	tp := build(t, Shape{Kind: FatTree, K: 4})
	for _, tc := range []struct{ src, dst, hops int }{
		{0, 1, 2},  // same edge switch
		{0, 2, 4},  // same pod
		{0, 15, 6}, // across the core
	} {
		h := tp.HopsTo(tp.Endpoints[tc.dst])
		assert.EqualValues(t, tc.hops, h[tp.Endpoints[tc.src]], "%d→%d", tc.src, tc.dst)
	}
	// GPUs do not forward: in a DGX node, another GPU is two hops away over NVSwitch.
	dgx := build(t, Shape{Kind: DGX, Nodes: 1, GPUsPerNode: 8})
	h := dgx.HopsTo(dgx.Endpoints[3])
	assert.EqualValues(t, 2, h[dgx.Endpoints[0]])
}

// FuzzShape holds Check and Build to each other on any shape, including ones
// a scenario cannot write: a shape Check accepts builds without panicking,
// with Endpoints endpoints.
func FuzzShape(f *testing.F) {
	f.Add(uint8(0), 9, 0, 0, 0, 0, 0, 0, 1.0, false)
	f.Add(uint8(1), 0, 4, 8, 0, 4, 0, 0, 1.0, false)
	f.Add(uint8(1), 0, 6, 8, 0, 2, 0, 0, 3.0, false)
	f.Add(uint8(2), 0, 0, 8, 8, 2, 4, 0, 1.0, true)
	f.Add(uint8(2), 0, 0, 1, 4, 2, 8, 0, 2.0, false)
	f.Add(uint8(3), 0, 0, 0, 0, 0, 0, 8, 1.0, false)
	f.Fuzz(func(t *testing.T, kind uint8, hosts, nodes, gpus, leaves, spines, perLeaf, k int, oversub float64, rail bool) {
		s := Shape{Kind: []string{Star, DGX, LeafSpine, FatTree, "ring"}[int(kind)%5], Hosts: hosts, Nodes: nodes, GPUsPerNode: gpus,
			Leaves: leaves, Spines: spines, HostsPerLeaf: perLeaf, K: k, Oversub: oversub, RailOptimized: rail}
		problems := s.Check()
		for _, p := range problems {
			require.NotEmpty(t, p.Field)
			require.NotEmpty(t, p.Msg)
		}
		if len(problems) > 0 || s.Endpoints() > 2048 {
			return
		}
		require.GreaterOrEqual(t, s.Endpoints(), 2)
		tp := Build(s, wiring)
		require.Len(t, tp.Endpoints, s.Endpoints())
	})
}

// TestCheck shows what a Problem carries; the located messages built from
// them are pinned in sim/scenario/testdata/errors/topology.txtar.
func TestCheck(t *testing.T) {
	ps := Shape{Kind: LeafSpine, Leaves: 4, HostsPerLeaf: 8, GPUsPerNode: 1, Oversub: 1}.Check()
	require.Len(t, ps, 1)
	assert.Equal(t, "spines: 0 is not allowed: leaves need spines to join them (e.g. spines: 8)", ps[0].Error())
	assert.Equal(t, "not set: 4 leaves need spines to join them (e.g. spines: 8)", ps[0].Unset.String(), "when spines is not written")

	ps = Shape{Kind: DGX, Nodes: 0, GPUsPerNode: 17, Oversub: 0.5}.Check()
	var got []string
	for _, p := range ps {
		got = append(got, p.Error())
	}
	assert.Equal(t, []string{
		"oversubscription: 0.5 is not allowed: it must be ≥ 1 (1: no oversubscription)",
		"nodes: 0 is not allowed: nodes must be at least 1 (e.g. nodes: 4)",
		"gpus_per_node: 17 is too many: gpus_per_node must be at most 16 (e.g. gpus_per_node: 8)",
	}, got, "every field's problem, in order")

	ps = Shape{Kind: "ring"}.Check()
	require.Len(t, ps, 1)
	assert.Equal(t, `kind: "ring" is not a topology kind; use star, dgx, leafspine, fattree or torus`, ps[0].Error())
	assert.Zero(t, Shape{Kind: "ring"}.Endpoints())
	assert.Panics(t, func() { Build(Shape{Kind: "ring"}, wiring) })
}

// TestOut: each node's Out lists the links leaving it in ID order, and an
// append to one node's Out leaves the next node's alone. Names as they were.
func TestOut(t *testing.T) {
	for _, tc := range []struct {
		shape Shape
		names []string
	}{
		{Shape{Kind: Star, Hosts: 9}, []string{"switch", "host0", "host8"}},
		{Shape{Kind: DGX, Nodes: 4, GPUsPerNode: 8, Spines: 4}, []string{"n0.nvswitch", "n3.gpu7", "n2.nic5", "rail0", "rail7", "spine0", "spine3"}},
		{Shape{Kind: LeafSpine, Leaves: 8, HostsPerLeaf: 16, Spines: 2, GPUsPerNode: 8, RailOptimized: true}, []string{"leaf7", "n15.gpu7", "spine1"}},
		{Shape{Kind: LeafSpine, Leaves: 4, HostsPerLeaf: 8, Spines: 2, GPUsPerNode: 1, Oversub: 2}, []string{"leaf0", "leaf3.host7"}},
		{Shape{Kind: FatTree, K: 8}, []string{"pod7.agg3", "pod0.edge2", "pod5.host15", "core15"}},
	} {
		tp := build(t, tc.shape)
		want := make([][]int, len(tp.Nodes))
		names := map[string]bool{}
		for _, l := range tp.Links {
			want[l.From] = append(want[l.From], l.ID)
		}
		for i, nd := range tp.Nodes {
			require.Equal(t, want[i], nd.Out, "%s: %s", tc.shape, nd.Name)
			names[nd.Name] = true
		}
		for _, n := range tc.names {
			assert.True(t, names[n], "%s: no node %s", tc.shape, n)
		}
		n0 := &tp.Nodes[0]
		next := append([]int(nil), tp.Nodes[1].Out...)
		n0.Out = append(n0.Out, -1)
		assert.Equal(t, next, tp.Nodes[1].Out, "%s", tc.shape)
	}
}

// Static routing numbers a rail-optimised cluster's GPUs rail by rail, as a
// subnet manager numbers a leaf's ports, so the destinations on one rail
// spread over every spine (by endpoint ID, GPU j of every node would share
// the spine j mod spines). A leaf-spine's hosts keep their order.
func TestDModKSpreadsOneRail(t *testing.T) {
	tp := build(t, Shape{Kind: DGX, Nodes: 4, GPUsPerNode: 8, Spines: 4})
	leaf := -1
	for _, n := range tp.Nodes {
		if n.Role == Leaf && n.Name == "rail0" {
			leaf = n.ID
		}
	}
	require.GreaterOrEqual(t, leaf, 0)
	for j := range 8 {
		spines := map[int]bool{}
		for node := range 4 {
			spines[tp.DModK(leaf, int32(node*8+j), 4)] = true
		}
		assert.Len(t, spines, 4, "rail %d's destinations", j)
	}
	ls := build(t, Shape{Kind: LeafSpine, Leaves: 2, HostsPerLeaf: 4, Spines: 4, GPUsPerNode: 1})
	assert.Nil(t, ls.LIDs)
	assert.Equal(t, 3, ls.DModK(ls.Endpoints[0], 7, 4))
}

// Storage nodes come after the GPUs, each on the storage leaf at its own
// rate; the leaf reaches every spine by one trunk carrying its share of
// them all (REFERENCE.md, "Storage on the fabric (issue 30)").
func TestStorageLeaf(t *testing.T) {
	w := wiring
	w.Storage = 800 * unit.Gbps
	s := Shape{Kind: DGX, Nodes: 2, GPUsPerNode: 8, Spines: 2, Oversub: 1, StorageNodes: 3}
	require.Empty(t, s.Check())
	tp := Build(s, w)
	require.Len(t, tp.Endpoints, 16+3)
	assert.Equal(t, 3, tp.Storage)
	leaf := -1
	for e, id := range tp.Endpoints[16:] {
		nd := tp.Nodes[id]
		assert.Equal(t, Storage, nd.Role)
		assert.Equal(t, name("storage", e), nd.Name)
		require.Len(t, nd.Out, 1)
		l := tp.Links[nd.Out[0]]
		assert.Equal(t, w.Storage, l.Rate)
		leaf = l.To
	}
	assert.Equal(t, "storage-leaf", tp.Nodes[leaf].Name)
	var trunks []unit.Rate
	for _, l := range tp.Nodes[leaf].Out {
		if tp.Nodes[tp.Links[l].To].Role == Spine {
			trunks = append(trunks, tp.Links[l].Rate)
		}
	}
	assert.Equal(t, []unit.Rate{1200 * unit.Gbps, 1200 * unit.Gbps}, trunks, "3 × 800 Gb/s over 2 spines")
	assert.False(t, Storage.Forwards())
	assert.Len(t, tp.LIDs, 19, "static routing addresses the storage nodes too")
	s.Nodes = 1
	assert.NotEmpty(t, s.Check(), "one node has no spines")
}

// TestSharedNICs: with nics_per_node below gpus_per_node each NIC serves a
// run of GPUs. Each GPU keeps a slice of its NIC (its PCIe link and its port
// to the rail at 1/share of the NIC's rates), all of a NIC's slices on that
// NIC's rail, and a GPU's way to another GPU of its node is still the
// NVSwitch (two hops, never through a NIC).
func TestSharedNICs(t *testing.T) {
	tp := build(t, Shape{Kind: DGX, Nodes: 2, GPUsPerNode: 8, NICsPerNode: 4, Spines: 2})
	assert.Equal(t, 4, count(tp, Leaf), "a rail per NIC")
	assert.Equal(t, 16, count(tp, NIC), "a slice per GPU")
	byName := map[string]int{}
	for _, nd := range tp.Nodes {
		byName[nd.Name] = nd.ID
	}
	rail := map[string]string{}
	for _, l := range tp.Links {
		from, to := tp.Nodes[l.From], tp.Nodes[l.To]
		switch {
		case from.Role == GPU && to.Role == NIC:
			assert.Equal(t, link.PCIe5Rate/2, l.Rate, "%s: half the PCIe link", tp.LinkName(l.ID))
		case from.Role == NIC && to.Role == Leaf:
			assert.Equal(t, 200*unit.Gbps, l.Rate, "%s: half the port", tp.LinkName(l.ID))
			rail[from.Name] = to.Name
		case from.Role == Leaf && to.Role == Spine:
			assert.Equal(t, 400*unit.Gbps, l.Rate, "%s: uplinks at the full rate", tp.LinkName(l.ID))
		}
	}
	assert.Equal(t, map[string]string{
		"n0.nic0.0": "rail0", "n0.nic0.1": "rail0", "n0.nic1.0": "rail1", "n0.nic1.1": "rail1",
		"n0.nic2.0": "rail2", "n0.nic2.1": "rail2", "n0.nic3.0": "rail3", "n0.nic3.1": "rail3",
		"n1.nic0.0": "rail0", "n1.nic0.1": "rail0", "n1.nic1.0": "rail1", "n1.nic1.1": "rail1",
		"n1.nic2.0": "rail2", "n1.nic2.1": "rail2", "n1.nic3.0": "rail3", "n1.nic3.1": "rail3",
	}, rail)
	// Rail by rail: rail 0 holds GPUs 0 and 1 of both nodes.
	assert.Equal(t, []int32{0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15}, tp.LIDs)
	h := tp.HopsTo(byName["n0.gpu1"])
	assert.EqualValues(t, 2, h[byName["n0.gpu0"]])
	assert.EqualValues(t, 1, h[byName["n0.nvswitch"]])
	assert.EqualValues(t, 3, h[byName["n0.nic0.0"]], "the NIC slice of GPU 0 is no shortcut to GPU 1")
	// Two uplinks per rail at oversubscription 1: one per node's port.
	up := 0
	for _, l := range tp.Links {
		if tp.Nodes[l.From].Name == "rail0" && tp.Nodes[l.To].Role == Spine {
			up++
		}
	}
	assert.Equal(t, 2, up)

	for _, tc := range []struct {
		nics int
		want string
	}{
		{3, "nics_per_node: 3 does not divide the 8 GPUs of a node: each NIC serves the same number of GPUs; use 1, 2, 4 or 8"},
		{9, "nics_per_node: 9 is not allowed: a node of 8 GPUs has from 1 to 8 NICs (e.g. nics_per_node: 8)"},
		{-1, "nics_per_node: -1 is not allowed: a node of 8 GPUs has from 1 to 8 NICs (e.g. nics_per_node: 8)"},
	} {
		ps := Shape{Kind: DGX, Nodes: 2, GPUsPerNode: 8, NICsPerNode: tc.nics, Spines: 2, Oversub: 1}.Check()
		require.Len(t, ps, 1)
		assert.Equal(t, tc.want, ps[0].Error())
	}
	tp = build(t, Shape{Kind: DGX, Nodes: 2, GPUsPerNode: 8, NICsPerNode: 8, Spines: 2})
	def := build(t, Shape{Kind: DGX, Nodes: 2, GPUsPerNode: 8, Spines: 2})
	assert.Equal(t, def, tp, "nics_per_node = gpus_per_node is the default node, link for link")
}
