package nodefile

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// nvidia-smi topo -m prints a matrix: a header of columns (GPU0 … GPUn,
// then the NICs, as NIC0 … with a "NIC Legend:" naming them, or by name in
// older versions; then CPU Affinity and the like), a row per GPU and per
// NIC, each cell the path between the two: X (itself), NV# (# bonded
// NVLinks), PIX, PXB, PHB, NODE or SYS. The GPUs' names are not in it;
// nvidia-smi -L's lines ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: …)") may be
// put in the same file to give them.

var (
	smiGPUCol  = regexp.MustCompile(`^GPU(\d+)$`)
	smiNVCell  = regexp.MustCompile(`^NV(\d+)$`)
	smiListRe  = regexp.MustCompile(`^GPU (\d+): (.+?)(?: \(UUID: [^)]*\))?$`)
	smiLegend  = regexp.MustCompile(`^(NIC\d+): (\S+)$`)
	smiPathsOf = map[string]Path{"PIX": PIX, "PXB": PXB, "PHB": PHB, "NODE": NODE, "SYS": SYS}
)

// smiCells splits a row into its cells: by tabs when it has them, else by
// runs of spaces.
func smiCells(line string) []string {
	var cells []string
	if strings.Contains(line, "\t") {
		cells = strings.Split(line, "\t")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
	} else {
		cells = append([]string{""}, strings.Fields(line)...)
		if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
			cells = cells[1:]
		}
	}
	return cells
}

// ParseSMI reads nvidia-smi topo -m output.
func ParseSMI(data []byte) (*Node, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxBytes)
	var (
		cols     []string // the device columns: GPU0…, then the NICs
		gpus     int
		header   int
		rows     = map[string][]string{}
		rowLine  = map[string]int{}
		legend   = map[string]string{}
		names    = map[int]string{}
		nameLine = map[int]int{}
		line     int
	)
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		trim := strings.TrimSpace(text)
		if m := smiListRe.FindStringSubmatch(trim); m != nil {
			i, _ := strconv.Atoi(m[1])
			names[i], nameLine[i] = m[2], line
			continue
		}
		if m := smiLegend.FindStringSubmatch(trim); m != nil {
			legend[m[1]] = m[2]
			continue
		}
		cells := smiCells(text)
		if cols == nil {
			if len(cells) > 1 && cells[0] == "" && smiGPUCol.MatchString(cells[1]) {
				header = line
				for _, c := range cells[1:] {
					if c == "" || strings.Contains(c, " ") || strings.HasSuffix(c, "Affinity") || strings.HasPrefix(c, "CPU") || strings.HasPrefix(c, "NUMA") {
						break
					}
					if len(cols) == MaxGPUs+MaxNICs {
						return nil, fmt.Errorf("line %d: more than %d columns of devices", line, len(cols))
					}
					cols = append(cols, c)
					if m := smiGPUCol.FindStringSubmatch(c); m != nil {
						if len(cols) != gpus+1 || m[1] != strconv.Itoa(gpus) {
							return nil, fmt.Errorf("line %d: column %s where GPU%d was expected: the GPUs come first, in order", line, c, gpus)
						}
						gpus++
					}
				}
			}
			continue
		}
		if len(cells) == 0 || cells[0] == "" || !contains(cols, cells[0]) {
			continue
		}
		if _, dup := rows[cells[0]]; dup {
			return nil, fmt.Errorf("line %d: a second row for %s (the first at line %d): give one matrix", line, cells[0], rowLine[cells[0]])
		}
		if len(cells)-1 < len(cols) {
			return nil, fmt.Errorf("line %d: row %s has %d cells where the header (line %d) has %d devices: the matrix is cut short", line, cells[0], len(cells)-1, header, len(cols))
		}
		rows[cells[0]], rowLine[cells[0]] = cells[1:len(cols)+1], line
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", line+1, err)
	}
	if cols == nil {
		return nil, fmt.Errorf("no header of GPU0, GPU1, … columns: not nvidia-smi topo -m output (nor NCCL's topology XML, which starts with <system>)")
	}
	if gpus > MaxGPUs {
		return nil, fmt.Errorf("line %d: %d GPUs in one node; at most %d", header, gpus, MaxGPUs)
	}
	n := &Node{Format: "nvidia-smi topo -m", GPUs: gpus}
	nics := cols[gpus:]
	if len(nics) == 0 {
		return nil, fmt.Errorf("line %d: no NIC columns after GPU%d: no NIC serves the GPUs", header, gpus-1)
	}
	dist := make([][]Path, gpus)
	nvFirst := ""
	for g := range gpus {
		r, ok := rows[cols[g]]
		if !ok {
			return nil, fmt.Errorf("line %d: no row for %s: the matrix is cut short", line, cols[g])
		}
		dist[g] = make([]Path, len(nics))
		for i, c := range r {
			switch m := smiNVCell.FindStringSubmatch(c); {
			case i == g:
				if c != "X" {
					return nil, fmt.Errorf("line %d: %s's cell for itself is %q: expected X", rowLine[cols[g]], cols[g], c)
				}
			case i < gpus && m != nil:
				l, err := strconv.Atoi(m[1])
				if err != nil || l < 1 || l > 64 {
					return nil, fmt.Errorf("line %d: %s to %s: %s: expected NV and a number of links, 1 to 64", rowLine[cols[g]], cols[g], cols[i], c)
				}
				if n.NVLinks == 0 {
					n.NVLinks, nvFirst = l, cols[g]+" to "+cols[i]
				} else if l != n.NVLinks {
					return nil, fmt.Errorf("line %d: %s to %s is %s and %s NV%d: fabriclab's dgx node has every GPU on one NVSwitch, each with the same links", rowLine[cols[g]], cols[g], cols[i], c, nvFirst, n.NVLinks)
				}
			case i < gpus:
				if _, ok := smiPathsOf[c]; ok {
					return nil, fmt.Errorf("line %d: %s and %s are joined by %s, not NVLink: fabriclab's dgx node has every GPU on an NVSwitch", rowLine[cols[g]], cols[g], cols[i], c)
				}
				return nil, fmt.Errorf("line %d: %s to %s is %q: expected NV#, or X for itself", rowLine[cols[g]], cols[g], cols[i], c)
			default:
				p, ok := smiPathsOf[c]
				if !ok {
					return nil, fmt.Errorf("line %d: %s to %s is %q: expected PIX, PXB, PHB, NODE or SYS", rowLine[cols[g]], cols[g], cols[i], c)
				}
				dist[g][i-gpus] = p
			}
		}
	}
	if gpus > 1 && n.NVLinks == 0 {
		return nil, fmt.Errorf("line %d: no NVLink between the GPUs", header)
	}
	names0 := make([]string, len(nics))
	for i, c := range nics {
		names0[i] = c
		if name, ok := legend[c]; ok {
			names0[i] = name
		}
	}
	if err := assign(n, names0, dist, func(g int) string { return "line " + strconv.Itoa(rowLine[cols[g]]) }); err != nil {
		return nil, err
	}
	if name, ok := names[0]; ok {
		n.GPU, n.GPUFrom = GPUOfName(name), name
		if n.GPU == "" {
			return nil, fmt.Errorf("line %d: GPU 0 is %s: fabriclab models A100, H100, H200 and B200 (and A800, H800)", nameLine[0], name)
		}
		for i, other := range names {
			if GPUOfName(other) != n.GPU {
				return nil, fmt.Errorf("line %d: GPU %d is %s and GPU 0 %s: fabriclab's nodes have one kind of GPU", nameLine[i], i, other, name)
			}
		}
	} else {
		// NV12 is an A100's; NV18 an H100's, an H200's or a B200's.
		n.GPU, n.GPUFrom = "h100", "NV"+strconv.Itoa(n.NVLinks)
		if n.NVLinks == 12 {
			n.GPU = "a100"
		}
		n.GPUGuess = n.GPU != "a100"
	}
	return n, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
