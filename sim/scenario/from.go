package scenario

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"

	"fabriclab/sim/msg"
)

// topology.from names a file that describes the user's own node: NCCL's
// topology dump (NCCL_TOPO_DUMP_FILE) or nvidia-smi topo -m's output
// (sim/nodefile reads both). The scenario's node is then that one: the file
// sets topology.kind (dgx), gpus_per_node, nics_per_node, gpu and, when it
// says the NICs' speed (NCCL's does), link_gbps — each unless the scenario
// writes it, and a written value the file contradicts is an error naming
// both. How far each GPU is from its NIC (GPUDirect RDMA or staging through
// host memory) is kept in Topology.Node for explain; the model does not
// change with it.

// A TopologyReader reads the file topology.from names, as written (a path
// relative to the scenario's file); nil where there are no files (the
// browser, lessons, built-ins).
type TopologyReader func(name string) ([]byte, error)

// relativeReader reads topology.from relative to the scenario file at path
// through read.
func relativeReader(path string, read func(string) ([]byte, error)) TopologyReader {
	if read == nil {
		return nil
	}
	return func(name string) ([]byte, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(path), name)
		}
		return read(name)
	}
}

// fromFile reads topology.from and lays what it says over the keys the
// document did not write, marking them present (at the file) so that the
// defaults that follow them (nvlink follows gpu) and the checks see them.
func (d *decoder) fromFile(s *Scenario, read TopologyReader) {
	t := &s.Topology
	at := d.at["topology.from"]
	fail := func(format string, args ...any) {
		d.errs.add(newError(at.source, at.line, "topology.from", format, args...))
	}
	if _, ok := d.at["topology.kind"]; !ok {
		t.Kind = DGX // whatever the file says: a file that fails still describes a GPU node, not the default star
	}
	if read == nil {
		fail("%s: reading a node's topology needs a file system, and this scenario has none (the browser, a lesson or a built-in): run it with fabriclab run, or write the keys the file would set (topology.kind: dgx, gpus_per_node, nics_per_node, gpu, link_gbps)", strconv.Quote(t.From))
		return
	}
	data, err := read(t.From)
	var nr *NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fail("%s: no such file (a path relative to the scenario's file): give NCCL's topology dump (NCCL_TOPO_DUMP_FILE) or nvidia-smi topo -m's output", strconv.Quote(t.From))
		return
	case errors.As(err, &nr):
		fail("%v: give NCCL's topology dump or nvidia-smi topo -m's output", err)
		return
	case err != nil:
		fail("%s: %v", strconv.Quote(t.From), err)
		return
	}
	n, err := parseNode(data)
	if err != nil {
		fail("%s: %v", t.From, err)
		return
	}
	t.Node = n
	set := func(key string, written, want any, describe msg.Text, apply func()) {
		if p, ok := d.at[key]; ok {
			if fmt.Sprint(written) != fmt.Sprint(want) {
				d.errs.add(newError(p.source, p.line, key, "%s, but topology.from (%s) %s: remove one of them", p.text, t.From, describe))
			}
			return
		}
		apply()
		d.at[key] = place{source: t.From, text: fmt.Sprint(want)}
	}
	set("topology.kind", t.Kind, DGX, msg.F("describes a dgx node (GPUs on an NVSwitch)"), func() { t.Kind = DGX })
	set("topology.gpus_per_node", t.GPUsPerNode, n.GPUs, msg.F("has %d GPUs", n.GPUs), func() { t.GPUsPerNode = n.GPUs })
	set("topology.nics_per_node", t.NICsPerNode, n.NICsPerNode(), msg.F("has %d NICs that serve them", n.NICsPerNode()), func() { t.NICsPerNode = n.NICsPerNode() })
	gpu := n.GPU
	if _, ok := d.at["topology.gpu"]; ok && n.Admits(t.GPU) {
		gpu = t.GPU // sm 90 is an H100's or an H200's, NV18 theirs or a B200's: the scenario says which
	}
	gpus := msg.F("has %s GPUs (%s)", gpu, n.GPUFrom)
	if n.GPUGuess {
		var fit []string
		for _, g := range []string{"a100", "h100", "h200", "b200"} {
			if n.Admits(g) {
				fit = append(fit, g)
			}
		}
		gpus = msg.F("has GPUs of %s: %s", n.GPUFrom, orList(fit))
	}
	set("topology.gpu", t.GPU, gpu, gpus, func() { t.GPU = gpu })
	if n.NICGbps > 0 {
		set("topology.link_gbps", t.LinkGbps, n.NICGbps, msg.F("has NICs at %g Gb/s", n.NICGbps), func() { t.LinkGbps = n.NICGbps })
	}
}
