package topo

import (
	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// Storage nodes are NVMe-oF targets on the compute fabric, after the DGX
// SuperPOD's storage fabric (REFERENCE.md, "Storage nodes on the fabric"):
// they sit on a storage leaf of their own, joined to every spine like a rail
// leaf, so that a GPU reaches any of them in the same number of hops and their
// traffic meets the collectives' on the spines and the GPUs' NICs. Each node's
// one link to the leaf runs at its read/write rate (an appliance's NIC ports
// bonded); the leaf's uplink to each spine is one trunk (at least a fabric
// link) that carries its share of all of them at once: parallel links would
// leave static routing's d-mod-k choosing one of them for every storage node.

// MaxStorageNodes bounds storage_nodes.
const MaxStorageNodes = 64

// checkStorage allows storage nodes on shapes with a spine layer.
func checkStorage(s *Shape) *Problem {
	if s.StorageNodes == 0 {
		return nil
	}
	if p := between("storage_nodes", s.StorageNodes, 0, MaxStorageNodes, 4); p != nil {
		return p
	}
	spines := s.Kind == DGX && s.Nodes > 1 || s.Kind == LeafSpine && (s.Leaves > 1 || s.Spines > 0)
	if !spines {
		return &Problem{Field: "storage_nodes", Value: s.StorageNodes,
			Msg: msg.F("needs a fabric with spines (%s has none): storage nodes sit on a storage leaf joined to the spines; use kind: dgx with nodes ≥ 2, or kind: leafspine with spines, or storage_nodes: 0", s.Describe())}
	}
	return nil
}

// storageLeaf adds n storage nodes on a leaf of their own, joined to every
// spine, after every other endpoint.
func (b *builder) storageLeaf(n int) {
	if n == 0 {
		return
	}
	var spines []int
	for i := range b.t.Nodes {
		if b.t.Nodes[i].Role == Spine {
			spines = append(spines, i)
		}
	}
	if len(spines) == 0 {
		panic("topo: storage nodes without spines")
	}
	leaf := b.node(Leaf, 2, -1, 0, "storage-leaf")
	for i := range n {
		id := b.node(Storage, 0, -1, i, name("storage", i))
		b.t.Endpoints = append(b.t.Endpoints, id)
		b.cable(id, leaf, b.fabric, b.storage, b.latency)
	}
	trunk := max(b.rate, unit.Rate(n)*b.storage/unit.Rate(len(spines)))
	for _, sp := range spines {
		b.cable(leaf, sp, b.fabric, trunk, b.latency)
	}
	b.t.Storage = n
	if b.t.LIDs != nil {
		for range n {
			b.t.LIDs = append(b.t.LIDs, int32(len(b.t.LIDs)))
		}
	}
}
