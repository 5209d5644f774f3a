package topo

import (
	"fmt"
	"strconv"
	"strings"

	"fabriclab/sim/link"
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Topology kinds.
const (
	Star      = "star"
	DGX       = "dgx"
	LeafSpine = "leafspine"
	FatTree   = "fattree"
	TorusKind = "torus"
)

// Limits on shapes.
const (
	MaxEndpoints   = 65536 // any topology
	MaxGPUsPerNode = 16    // dgx and leafspine nodes
)

// Shape is a topology's kind and the dimensions that kind uses; the field
// comments name the scenario keys they come from. Each kind's file says which
// shapes are allowed (Check), how many endpoints they have and how they are
// built.
type Shape struct {
	Kind          string  // kind: star | dgx | leafspine | fattree
	Hosts         int     // hosts: star
	Nodes         int     // nodes: dgx
	GPUsPerNode   int     // gpus_per_node: dgx, leafspine
	NICsPerNode   int     // nics_per_node: dgx (0: one per GPU)
	Leaves        int     // leaves: leafspine
	Spines        int     // spines: leafspine, dgx with several nodes
	HostsPerLeaf  int     // hosts_per_leaf: leafspine
	K             int     // k: fattree
	Oversub       float64 // oversubscription: dgx, leafspine
	RailOptimized bool    // rail_optimized: leafspine
	Dims          []int   // dims: torus
	StorageNodes  int     // storage_nodes: dgx with several nodes, leafspine with spines
}

// kind is what a topology kind knows about its shapes.
type kind struct {
	name      string
	sizeField string // the field that sets the endpoint count
	check     func(s *Shape) []*Problem
	endpoints func(s *Shape) int
	describe  func(s *Shape) msg.Text // how the endpoint count comes about
	build     func(b *builder, s *Shape)
}

// kinds in the order messages list them.
var kinds = []*kind{&starKind, &dgxKind, &leafSpineKind, &fatTreeKind, &torusKind}

func kindOf(name string) *kind {
	for _, k := range kinds {
		if k.name == name {
			return k
		}
	}
	return nil
}

// Problem is one thing wrong with a Shape: the field, what is wrong and what
// would work.
type Problem struct {
	Field string // the scenario key, e.g. "hosts_per_leaf"
	// Value is the field's value when Msg follows it ("0 is not allowed: …"
	// is Value, a space and Msg); nil when Msg stands alone.
	Value any
	Msg   msg.Text
	// Unset, when not empty, is the whole message instead when the field was
	// not written and its zero value applies.
	Unset msg.Text
}

func (p *Problem) Error() string {
	if p.Value == nil {
		return p.Field + ": " + p.Msg.String()
	}
	return fmt.Sprintf("%s: %v %s", p.Field, p.Value, p.Msg)
}

// Check lists what is wrong with the shape, in a fixed order; none means
// Endpoints and Build may be used.
func (s Shape) Check() []*Problem {
	k := kindOf(s.Kind)
	if k == nil {
		names := make([]string, len(kinds))
		for i, k := range kinds {
			names[i] = k.name
		}
		return []*Problem{{Field: "kind", Msg: msg.F("%q is not a topology kind; use %s", s.Kind, orList(names))}}
	}
	if ps := k.check(&s); len(ps) > 0 {
		return ps
	}
	return problems(checkStorage(&s))
}

// Endpoints is the number of traffic endpoints: hosts, or GPUs in dgx and
// multi-GPU leafspine topologies; 0 for an unknown kind. It is meaningful for
// a shape that passes Check.
func (s Shape) Endpoints() int {
	if k := kindOf(s.Kind); k != nil {
		return k.endpoints(&s)
	}
	return 0
}

// SizeField is the field that sets the endpoint count ("hosts" for a star).
func (s Shape) SizeField() string {
	if k := kindOf(s.Kind); k != nil {
		return k.sizeField
	}
	return "kind"
}

// String says how the endpoint count comes about, e.g. "a k=8 fat tree".
func (s Shape) String() string { return s.Describe().String() }

// Describe is String as a msg.Text, for messages.
func (s Shape) Describe() msg.Text {
	if k := kindOf(s.Kind); k != nil {
		return k.describe(&s)
	}
	return msg.F("a %q topology", s.Kind)
}

// Wiring is what a topology's links are: the fabric's kind and rate for host
// and switch links, their propagation, and the NVLink rate inside nodes.
type Wiring struct {
	Fabric  link.Kind
	Rate    unit.Rate
	Latency unit.Time
	NVLink  unit.Rate
	// NIC is the rate of each GPU's link to its NIC (PCIe); 0 means PCIe
	// Gen5 x16. Scenarios set it to what NCCL gets through a NIC.
	NIC unit.Rate
	// Storage is each storage node's read and write rate, its link to the
	// storage leaf (0: the fabric's Rate).
	Storage unit.Rate
}

// Build lays out the topology: its nodes, links and endpoints, numbered in a
// fixed order. The shape must pass Check; an impossible shape panics.
func Build(s Shape, w Wiring) *Topology {
	k := kindOf(s.Kind)
	if k == nil {
		panic(fmt.Sprintf("topo: unknown kind %q", s.Kind))
	}
	// Room for every kind's nodes and links up front (a dgx has about 2.3 nodes
	// and 8 links an endpoint, a fat tree 1.3 and 6): grown by append, the 16k-GPU
	// fabric's 131 k links were copied over and over, 35 MB in all.
	e := k.endpoints(&s)
	t := &Topology{Kind: s.Kind, Nodes: make([]Node, 0, 3*e+64), Links: make([]Link, 0, 8*e+64), Endpoints: make([]int, 0, e)}
	b := &builder{t: t, fabric: w.Fabric, rate: w.Rate, latency: w.Latency, nvlink: w.NVLink, nic: w.NIC, storage: w.Storage}
	if b.nic <= 0 {
		b.nic = link.PCIe5Rate
	}
	if b.storage <= 0 {
		b.storage = w.Rate
	}
	k.build(b, &s)
	b.storageLeaf(s.StorageNodes)
	b.t.wireOut()
	return b.t
}

// between is a Problem unless lo ≤ v ≤ hi; example is a value that works.
func between(field string, v, lo, hi, example int) *Problem {
	switch {
	case v < lo:
		return &Problem{Field: field, Value: v, Msg: msg.F("is not allowed: %s must be at least %d (e.g. %s: %d)", field, lo, field, example)}
	case v > hi:
		return &Problem{Field: field, Value: v, Msg: msg.F("is too many: %s must be at most %d (e.g. %s: %d)", field, hi, field, example)}
	}
	return nil
}

// problems drops the nil entries of ps.
func problems(ps ...*Problem) []*Problem {
	var out []*Problem
	for _, p := range ps {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

// divisors lists the divisors of n ("1, 2, 4 or 8"), at most a dozen of them.
func divisors(n int) msg.Text {
	var ds []string
	for d := 1; d <= n && len(ds) < 12; d++ {
		if n%d == 0 {
			ds = append(ds, strconv.Itoa(d))
		}
	}
	return orList(ds)
}

// orList prints words as "a, b or c".
func orList(words []string) msg.Text {
	if len(words) < 2 {
		return msg.F("%s", strings.Join(words, ""))
	}
	head := msg.F("%s", words[0])
	for _, w := range words[1 : len(words)-1] {
		head = msg.F("%s, %s", head, w)
	}
	return msg.F("%s or %s", head, words[len(words)-1])
}
