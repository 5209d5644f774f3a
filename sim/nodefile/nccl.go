package nodefile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// An NCCL topology dump (NCCL_TOPO_DUMP_FILE) is a tree: <system> holds a
// <cpu> per NUMA node, each a tree of <pci> devices under it (class
// 0x0604xx a PCIe bridge or switch, 0x03xxxx a GPU, 0x02xxxx a NIC). A GPU's
// <pci> holds <gpu dev sm> with an <nvlink target count tclass> per peer
// (tclass 0x068000: an NVSwitch); a NIC's holds <nic> with a <net name
// speed> per port (speed in Mb/s). NCCL names the path between two devices
// by where they meet: under one bridge PIX, under several PXB, at a CPU PHB,
// across CPUs SYS (src/graph/topo.h).

// element is one <cpu>, <pci>, <gpu> or <net> of the tree.
type element struct {
	tag    string
	line   int
	parent *element
	attrs  map[string]string
}

func (e *element) attr(name string) string { return e.attrs[name] }

// ParseNCCL reads an NCCL topology dump.
func ParseNCCL(data []byte) (*Node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var (
		stack  []*element
		gpus   []*element // the <gpu> elements
		nets   []*element
		links  = map[*element]int{} // NVLinks per <gpu>
		direct = map[*element]int{} // a <gpu>'s line with an NVLink to another GPU
		system bool
	)
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				return nil, fmt.Errorf("line %d: the file ends inside <%s> (opened at line %d): it is cut short; dump it again (NCCL_TOPO_DUMP_FILE)", line, top.tag, top.line)
			}
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) && se.Msg == "unexpected EOF" && len(stack) > 0 {
				top := stack[len(stack)-1]
				last := bytes.Count(data, []byte("\n"))
				if !bytes.HasSuffix(data, []byte("\n")) {
					last++
				}
				return nil, fmt.Errorf("line %d: the file ends inside <%s> (opened at line %d): it is cut short; dump it again (NCCL_TOPO_DUMP_FILE)", last, top.tag, top.line)
			}
			if errors.As(err, &se) {
				return nil, fmt.Errorf("line %d: not NCCL's topology XML: %s", se.Line, se.Msg)
			}
			return nil, fmt.Errorf("line %d: not NCCL's topology XML: %v", line, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &element{tag: t.Name.Local, line: line, attrs: map[string]string{}}
			for _, a := range t.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				e.parent = stack[len(stack)-1]
			} else if e.tag != "system" {
				return nil, fmt.Errorf("line %d: <%s> where NCCL's topology starts with <system>", line, e.tag)
			} else {
				if system {
					return nil, fmt.Errorf("line %d: a second <system>: give one node's topology", line)
				}
				system = true
			}
			if len(stack) > 64 {
				return nil, fmt.Errorf("line %d: elements nested %d deep: not NCCL's topology", line, len(stack))
			}
			stack = append(stack, e)
			switch e.tag {
			case "gpu":
				if e.parent.tag != "pci" {
					return nil, fmt.Errorf("line %d: <gpu> inside <%s>: NCCL puts a GPU inside its <pci>", line, e.parent.tag)
				}
				if len(gpus) == MaxGPUs {
					return nil, fmt.Errorf("line %d: more than %d GPUs in one node", line, MaxGPUs)
				}
				gpus = append(gpus, e)
			case "nvlink":
				g := e.parent
				if g.tag != "gpu" {
					continue // an NVSwitch's or CPU's own links
				}
				c, err := strconv.Atoi(e.attr("count"))
				if err != nil || c < 1 || c > 64 {
					return nil, fmt.Errorf("line %d: <nvlink count=%q>: expected the number of links, 1 to 64", line, e.attr("count"))
				}
				switch tc := e.attr("tclass"); {
				case strings.HasPrefix(tc, "0x0680"):
					links[g] += c
				case strings.HasPrefix(tc, "0x03"):
					if direct[g] == 0 {
						direct[g] = line
					}
				}
			case "net":
				if e.parent.tag != "nic" {
					return nil, fmt.Errorf("line %d: <net> inside <%s>: NCCL puts a network port inside <nic>", line, e.parent.tag)
				}
				if len(nets) == MaxNICs {
					return nil, fmt.Errorf("line %d: more than %d NICs in one node", line, MaxNICs)
				}
				nets = append(nets, e)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if !system {
		return nil, fmt.Errorf("line 1: no <system>: not NCCL's topology XML")
	}
	if len(gpus) == 0 {
		return nil, fmt.Errorf("the file has no <gpu>: dump the topology on a GPU node (NCCL_TOPO_DUMP_FILE)")
	}
	n := &Node{Format: "NCCL topology (XML)", GPUs: len(gpus)}
	// GPUs in the order of their dev numbers, 0 to n−1.
	devs := make([]int, len(gpus))
	for i, g := range gpus {
		dev, err := strconv.Atoi(g.attr("dev"))
		if err != nil || dev < 0 || dev >= len(gpus) {
			return nil, fmt.Errorf("line %d: <gpu dev=%q>: expected a device number from 0 to %d", g.line, g.attr("dev"), len(gpus)-1)
		}
		if j := slices.Index(devs[:i], dev); j >= 0 && i > 0 {
			return nil, fmt.Errorf("line %d: a second GPU with dev=%d (the first at line %d)", g.line, dev, gpus[j].line)
		}
		devs[i] = dev
	}
	byDev := make([]*element, len(gpus))
	for i, g := range gpus {
		byDev[devs[i]] = g
	}
	for dev, g := range byDev {
		sm, err := strconv.Atoi(g.attr("sm"))
		if err != nil {
			return nil, fmt.Errorf("line %d: <gpu sm=%q>: expected the GPU's SM version, e.g. 90", g.line, g.attr("sm"))
		}
		gpu, guess, ok := gpuOfSM(sm)
		if !ok {
			return nil, fmt.Errorf("line %d: GPU %d has sm %d: fabriclab models A100 (sm 80), H100 and H200 (sm 90) and B200 (sm 100)", g.line, dev, sm)
		}
		if dev == 0 {
			n.GPU, n.GPUGuess, n.GPUFrom = gpu, guess, "sm "+strconv.Itoa(sm)
		} else if gpu != n.GPU {
			return nil, fmt.Errorf("line %d: GPU %d has sm %d and GPU 0 %s: fabriclab's nodes have one kind of GPU", g.line, dev, sm, n.GPUFrom)
		}
		switch l := links[g]; {
		case direct[g] != 0:
			return nil, fmt.Errorf("line %d: GPU %d has NVLinks straight to another GPU: fabriclab's dgx node has every GPU on an NVSwitch (NVLink to tclass 0x068000)", direct[g], dev)
		case l == 0:
			return nil, fmt.Errorf("line %d: GPU %d has no NVLink to an NVSwitch: fabriclab's dgx node has every GPU on one (its GPUs talk over NVLink, not PCIe)", g.line, dev)
		case dev == 0:
			n.NVLinks = l
		case l != n.NVLinks:
			return nil, fmt.Errorf("line %d: GPU %d has %d NVLinks and GPU 0 %d: fabriclab's GPUs are alike", g.line, dev, l, n.NVLinks)
		}
	}
	if len(nets) == 0 {
		return nil, fmt.Errorf("the file has no <net>: no NIC serves the GPUs (NCCL lists a NIC's ports as <nic><net name=… speed=…/></nic>)")
	}
	names := make([]string, len(nets))
	speeds := make([]float64, len(nets))
	for j, e := range nets {
		names[j] = e.attr("name")
		if names[j] == "" {
			names[j] = "net" + strconv.Itoa(j)
		}
		mbps, err := strconv.ParseFloat(e.attr("speed"), 64)
		if err != nil || !(mbps >= 1000 && mbps <= 100_000_000) || math.IsInf(mbps, 0) {
			return nil, fmt.Errorf("line %d: <net name=%q speed=%q>: expected the port's speed in Mb/s, e.g. 400000 for 400 Gb/s", e.line, names[j], e.attr("speed"))
		}
		speeds[j] = mbps / 1000
	}
	dist := make([][]Path, len(byDev))
	for g, ge := range byDev {
		dist[g] = make([]Path, len(nets))
		for j, ne := range nets {
			dist[g][j] = pathBetween(ge.parent, ne.parent.parent)
		}
	}
	if err := assign(n, names, dist, func(g int) string { return "line " + strconv.Itoa(byDev[g].line) }); err != nil {
		return nil, err
	}
	first := -1
	for j, name := range names {
		if !slices.Contains(n.NICs, name) {
			continue
		}
		if first < 0 {
			first, n.NICGbps = j, speeds[j]
		} else if speeds[j] != n.NICGbps {
			return nil, fmt.Errorf("line %d: NIC %s runs at %g Gb/s and %s at %g: fabriclab's NICs are alike", nets[j].line, name, speeds[j], names[first], n.NICGbps)
		}
	}
	return n, nil
}

// pathBetween is NCCL's name for the path between the devices a and b (the
// <pci> of a GPU, the element holding a NIC's <nic>): where they meet.
func pathBetween(a, b *element) Path {
	up := map[*element]int{} // a's ancestors: bridges crossed to reach them
	bridges := 0
	for e := a.parent; e != nil; e = e.parent {
		up[e] = bridges
		if e.tag == "pci" {
			bridges++
		}
	}
	bridges = 0
	for e := b; e != nil; e = e.parent {
		if crossed, ok := up[e]; ok {
			switch {
			case e.tag == "pci" && crossed+bridges == 0:
				return PIX
			case e.tag == "pci":
				return PXB
			case e.tag == "cpu":
				return PHB
			}
			return SYS
		}
		if e != b && e.tag == "pci" {
			bridges++
		}
	}
	return SYS
}
