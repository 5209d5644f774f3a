// Package nodefile reads the description of one GPU node that NCCL
// (NCCL_TOPO_DUMP_FILE, XML) or nvidia-smi (`nvidia-smi topo -m`) prints,
// into what fabriclab's dgx node is made of: the GPUs and their NVLinks, the
// NICs, which GPUs share one, their speed, and how far each GPU is from its
// NIC on PCIe.
package nodefile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// MaxBytes is the largest file Parse reads (an NCCL dump of a 16-GPU node
// is tens of KB).
const MaxBytes = 1 << 20

// MaxGPUs and MaxNICs bound what one node may have.
const (
	MaxGPUs = 16
	MaxNICs = 64
)

// Path is how far apart a GPU and a NIC are on PCIe, as NCCL and nvidia-smi
// name it, nearest first.
type Path uint8

// The paths. NCCL uses GPUDirect RDMA (the NIC reads and writes the GPU's
// memory) up to PXB by default (NCCL_NET_GDR_LEVEL); further away it stages
// the data through host memory.
const (
	PIX  Path = iota // at most one PCIe bridge (the same PCIe switch)
	PXB              // several PCIe bridges, no host bridge
	PHB              // through a PCIe host bridge (the CPU)
	NODE             // between host bridges of one NUMA node (nvidia-smi)
	SYS              // across the link between CPUs (QPI/UPI, xGMI)
)

var pathNames = [...]string{"PIX", "PXB", "PHB", "NODE", "SYS"}

func (p Path) String() string {
	if int(p) < len(pathNames) {
		return pathNames[p]
	}
	return fmt.Sprintf("Path(%d)", p)
}

// MarshalText writes the path's name (in the goldens' JSON).
func (p Path) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// GDR reports whether NCCL uses GPUDirect RDMA over this path by default.
func (p Path) GDR() bool { return p <= PXB }

// Node is one node as its file describes it.
type Node struct {
	Format  string // "NCCL topology (XML)" or "nvidia-smi topo -m"
	GPUs    int
	GPU     string // fabriclab's topology.gpu: a100, h100, h200, b200
	GPUFrom string // how GPU was read: "sm 90", "NVIDIA H100 80GB HBM3", "NV18"
	// GPUGuess is set when the file cannot tell two GPUs apart (sm 90 is
	// H100 or H200; NV18 without names is H100, H200 or B200): GPU is the
	// first, and a scenario may name another with the same NVLink.
	GPUGuess bool
	NVLinks  int      // NVLinks per GPU (all GPUs on an NVSwitch)
	NICs     []string // the NICs that serve GPUs, in the file's order
	NICOf    []int    // per GPU: its NIC (an index into NICs)
	// NICGbps is the NICs' speed (NCCL's speed attribute, Mb/s, over
	// 1000); 0 when the file does not say (nvidia-smi).
	NICGbps float64
	// Path is the furthest a GPU is from its NIC, and PathGPU that GPU.
	Path    Path
	PathGPU int
	Unused  []string // NICs no GPU is nearest to (storage or management NICs)
}

// Admits reports whether gpu (a topology.gpu) fits what the file says: its
// GPU, or where the file cannot tell, another with the same SM version (sm
// 90: H100 or H200) or, from NVLinks alone, the same count of them (NV18:
// H100, H200 or B200).
func (n *Node) Admits(gpu string) bool {
	switch {
	case gpu == n.GPU:
		return true
	case !n.GPUGuess:
		return false
	case strings.HasPrefix(n.GPUFrom, "sm "):
		return n.GPU == "h100" && gpu == "h200"
	}
	return slices.Contains([]string{"a100", "h100", "h200", "b200"}, gpu) && NVLinkFull(gpu) == n.NVLinks
}

// NICsPerNode is the number of NICs that serve GPUs.
func (n *Node) NICsPerNode() int { return len(n.NICs) }

// NVLinkFull is the number of NVLinks a GPU of the generation has on an
// HGX board: 12 on A100, 18 on H100, H200 and B200.
func NVLinkFull(gpu string) int {
	if gpu == "a100" {
		return 12
	}
	return 18
}

// Parse reads an NCCL topology dump or nvidia-smi topo -m output, whichever
// data is. Errors name the line and what was expected there.
func Parse(data []byte) (*Node, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("the file has %d bytes; a node's topology has at most %d", len(data), MaxBytes)
	}
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return nil, fmt.Errorf("the file is empty: give NCCL's topology dump (NCCL_TOPO_DUMP_FILE) or the output of nvidia-smi topo -m")
	}
	if t[0] == '<' {
		return ParseNCCL(data)
	}
	return ParseSMI(data)
}

// gpuOfSM is the GPU of an SM version; guess when another GPU has it too.
func gpuOfSM(sm int) (gpu string, guess bool, ok bool) {
	switch sm {
	case 80:
		return "a100", false, true
	case 90:
		return "h100", true, true
	case 100:
		return "b200", false, true
	}
	return "", false, false
}

// GPUOfName is fabriclab's topology.gpu for a device name ("NVIDIA H100
// 80GB HBM3"), "" when none fits; H800 and A800 are their NVLink twins'
// export versions. nccltests reads nccl-tests' device lines with it too.
func GPUOfName(name string) string {
	up := strings.ToUpper(name)
	for _, g := range [][2]string{{"B200", "b200"}, {"H200", "h200"}, {"H100", "h100"}, {"H800", "h100"}, {"A100", "a100"}, {"A800", "a100"}} {
		if strings.Contains(up, g[0]) {
			return g[1]
		}
	}
	return ""
}

// assign gives each GPU its NIC: of the NICs nearest to it, the one fewest
// GPUs have so far (two GPUs and two NICs behind one switch take one each;
// two GPUs and one NIC share it). dist[g][n] is GPU g's path to NIC n;
// where[g] says where GPU g is described, for errors.
func assign(n *Node, names []string, dist [][]Path, where func(g int) string) error {
	load := make([]int, len(names))
	n.NICOf = make([]int, len(dist))
	for g, row := range dist {
		best, pick := SYS+1, -1
		for j, p := range row {
			if p < best || p == best && load[j] < load[pick] {
				best, pick = p, j
			}
		}
		if pick < 0 {
			return fmt.Errorf("%s: GPU %d has no NIC: fabriclab's nodes reach the network through NICs", where(g), g)
		}
		load[pick]++
		n.NICOf[g] = pick
		if g == 0 || best > n.Path {
			n.Path, n.PathGPU = best, g
		}
	}
	// Renumber the NICs that serve GPUs, in the file's order.
	index := make([]int, len(names))
	for j, name := range names {
		if load[j] == 0 {
			n.Unused = append(n.Unused, name)
			index[j] = -1
			continue
		}
		index[j] = len(n.NICs)
		n.NICs = append(n.NICs, name)
	}
	share := len(dist) / len(n.NICs)
	for j, name := range names {
		if load[j] > 0 && (load[j] != share || len(dist)%len(n.NICs) != 0) {
			var gpus []string
			for g := range n.NICOf {
				if n.NICOf[g] == j {
					gpus = append(gpus, fmt.Sprint(g))
				}
			}
			return fmt.Errorf("%s: NIC %s serves GPU %s, and the %d NICs do not serve the %d GPUs evenly: fabriclab models NICs that each serve gpus_per_node/nics_per_node GPUs",
				where(slices.Index(n.NICOf, j)), name, strings.Join(gpus, ", "), len(n.NICs), len(dist))
		}
	}
	for g := range n.NICOf {
		n.NICOf[g] = index[n.NICOf[g]]
	}
	return nil
}
