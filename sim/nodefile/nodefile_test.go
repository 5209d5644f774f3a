package nodefile

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
)

// testFiles are the node files under testdata: made up for these tests in
// the two formats (an H100 HGX, a DGX A100, an H100 node with a NIC per two
// GPUs, a node whose NICs are only across the CPU).
func testFiles(t testing.TB) []string {
	var files []string
	for _, pat := range []string{"testdata/*.xml", "testdata/*.txt"} {
		m, err := filepath.Glob(pat)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	return files
}

// TestGolden reads each file and pins what it says in testdata/NAME.json.
func TestGolden(t *testing.T) {
	for _, f := range testFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			n, err := Parse(data)
			require.NoError(t, err)
			out, err := json.MarshalIndent(n, "", "  ")
			require.NoError(t, err)
			golden.Equal(t, strings.TrimSuffix(f, filepath.Ext(f))+filepath.Ext(f)+".json", append(out, '\n'))
		})
	}
}

// TestWhatTheFilesSay: the points of each file, checked apart from the
// goldens so that a wrong golden cannot pass unseen.
func TestWhatTheFilesSay(t *testing.T) {
	for _, tc := range []struct {
		file      string
		gpu       string
		guess     bool
		nvlinks   int
		nics      int
		gbps      float64
		path      Path
		unused    int
		nicOfGPU1 int
	}{
		{"h100-hgx.xml", "h100", true, 18, 8, 400, PIX, 0, 1},
		{"h100-hgx.txt", "h100", true, 18, 8, 0, PIX, 0, 1},
		{"a100-dgx.xml", "a100", false, 12, 8, 200, PIX, 0, 1}, // each GPU and its NIC on one port of the switch
		{"a100-dgx.txt", "a100", false, 12, 8, 0, PXB, 2, 1},
		{"h100-shared-nic.xml", "h100", true, 18, 4, 400, PIX, 0, 0},
		{"sys-nic.txt", "h100", true, 18, 2, 0, NODE, 0, 0},
	} {
		data, err := os.ReadFile("testdata/" + tc.file)
		require.NoError(t, err)
		n, err := Parse(data)
		require.NoError(t, err, tc.file)
		assert.Equal(t, 8, n.GPUs, tc.file)
		assert.Equal(t, tc.gpu, n.GPU, tc.file)
		assert.Equal(t, tc.guess, n.GPUGuess, tc.file)
		assert.Equal(t, tc.nvlinks, n.NVLinks, tc.file)
		assert.Equal(t, tc.nics, n.NICsPerNode(), tc.file)
		assert.Equal(t, tc.gbps, n.NICGbps, tc.file)
		assert.Equal(t, tc.path, n.Path, tc.file)
		assert.Equal(t, tc.path.GDR(), n.Path <= PXB, tc.file)
		assert.Len(t, n.Unused, tc.unused, tc.file)
		assert.Equal(t, tc.nicOfGPU1, n.NICOf[1], tc.file)
	}
}

// TestAdmits: where the file cannot tell two GPUs apart, the scenario may
// name either; never one the file rules out.
func TestAdmits(t *testing.T) {
	read := func(file string) *Node {
		data, err := os.ReadFile("testdata/" + file)
		require.NoError(t, err)
		n, err := Parse(data)
		require.NoError(t, err)
		return n
	}
	sm90, nv18, a100 := read("h100-hgx.xml"), read("h100-hgx.txt"), read("a100-dgx.txt")
	for _, tc := range []struct {
		n    *Node
		gpu  string
		want bool
	}{
		{sm90, "h100", true}, {sm90, "h200", true}, {sm90, "b200", false}, {sm90, "a100", false},
		{nv18, "h100", true}, {nv18, "h200", true}, {nv18, "b200", true}, {nv18, "a100", false},
		{a100, "a100", true}, {a100, "h100", false}, {a100, "b200", false},
	} {
		assert.Equal(t, tc.want, tc.n.Admits(tc.gpu), "%s from %s", tc.gpu, tc.n.GPUFrom)
	}
}

// TestPathBetween: where a GPU and a NIC meet names their path.
func TestPathBetween(t *testing.T) {
	sys := &element{tag: "system"}
	cpu0 := &element{tag: "cpu", parent: sys}
	cpu1 := &element{tag: "cpu", parent: sys}
	up := &element{tag: "pci", parent: cpu0}
	swA := &element{tag: "pci", parent: up}
	swB := &element{tag: "pci", parent: up}
	gpu := &element{tag: "pci", parent: swA}
	for _, tc := range []struct {
		nic  *element
		want Path
	}{
		{&element{tag: "pci", parent: swA}, PIX},
		{&element{tag: "pci", parent: swB}, PXB},
		{&element{tag: "pci", parent: up}, PXB},
		{&element{tag: "pci", parent: &element{tag: "pci", parent: cpu0}}, PHB},
		{cpu0, PHB},
		{&element{tag: "pci", parent: &element{tag: "pci", parent: cpu1}}, SYS},
	} {
		assert.Equal(t, tc.want, pathBetween(gpu, tc.nic))
	}
}

// TestErrors: bad and truncated files get the line and what was expected.
func TestErrors(t *testing.T) {
	h100, err := os.ReadFile("testdata/h100-hgx.xml")
	require.NoError(t, err)
	smi, err := os.ReadFile("testdata/h100-hgx.txt")
	require.NoError(t, err)
	xml, text := string(h100), string(smi)
	cut := func(s string, lines int) string { return strings.Join(strings.SplitAfter(s, "\n")[:lines], "") }
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "  \n", "the file is empty: give NCCL's topology dump (NCCL_TOPO_DUMP_FILE) or the output of nvidia-smi topo -m"},
		{"xml cut short", cut(xml, 20), "line 20: the file ends inside <gpu> (opened at line 20): it is cut short; dump it again (NCCL_TOPO_DUMP_FILE)"},
		{"xml broken", strings.Replace(xml, `<gpu dev="3"`, `<gpu dev="3`, 1), "line 50: not NCCL's topology XML: invalid XML name: 90"},
		{"not system", "<topology/>", "line 1: <topology> where NCCL's topology starts with <system>"},
		{"sm", strings.Replace(xml, `sm="90" rank="2"`, `sm="75" rank="2"`, 1), "line 35: GPU 2 has sm 75: fabriclab models A100 (sm 80), H100 and H200 (sm 90) and B200 (sm 100)"},
		{"sm mixed", strings.Replace(xml, `sm="90" rank="2"`, `sm="80" rank="2"`, 1), "line 35: GPU 2 has sm 80 and GPU 0 sm 90: fabriclab's nodes have one kind of GPU"},
		{"sm missing", strings.Replace(xml, `sm="90" rank="2"`, `rank="2"`, 1), `line 35: <gpu sm="">: expected the GPU's SM version, e.g. 90`},
		{"dev", strings.Replace(xml, `dev="3" sm`, `dev="9" sm`, 1), `line 50: <gpu dev="9">: expected a device number from 0 to 7`},
		{"dev twice", strings.Replace(xml, `dev="3" sm`, `dev="2" sm`, 1), "line 50: a second GPU with dev=2 (the first at line 35)"},
		{"no nvswitch", strings.ReplaceAll(xml, `tclass="0x068000"`, `tclass="0x030200"`), "line 6: GPU 0 has NVLinks straight to another GPU: fabriclab's dgx node has every GPU on an NVSwitch (NVLink to tclass 0x068000)"},
		{"links differ", strings.Replace(xml, `count="5"`, `count="3"`, 1), "line 20: GPU 1 has 18 NVLinks and GPU 0 16: fabriclab's GPUs are alike"},
		{"count", strings.Replace(xml, `count="5"`, `count="many"`, 1), `line 6: <nvlink count="many">: expected the number of links, 1 to 64`},
		{"speed", strings.Replace(xml, `speed="400000"`, `speed="fast"`, 1), `line 14: <net name="mlx5_0" speed="fast">: expected the port's speed in Mb/s, e.g. 400000 for 400 Gb/s`},
		{"speeds differ", strings.Replace(xml, `speed="400000"`, `speed="200000"`, 1), "line 29: NIC mlx5_1 runs at 400 Gb/s and mlx5_0 at 200: fabriclab's NICs are alike"},
		{"no gpu", "<system version=\"1\"><cpu numaid=\"0\"/></system>", "the file has no <gpu>: dump the topology on a GPU node (NCCL_TOPO_DUMP_FILE)"},
		{"smi no header", "GPU0 X\n", "no header of GPU0, GPU1, … columns: not nvidia-smi topo -m output (nor NCCL's topology XML, which starts with <system>)"},
		{"smi cut short", cut(text, 5), "line 5: no row for GPU4: the matrix is cut short"},
		{"smi row cut", cut(text, 3) + "GPU2\tNV18\tNV18\n", "line 4: row GPU2 has 2 cells where the header (line 1) has 16 devices: the matrix is cut short"},
		{"smi cell", strings.Replace(text, "PIX", "PCI", 1), `line 2: GPU0 to NIC0 is "PCI": expected PIX, PXB, PHB, NODE or SYS`},
		{"smi no nvlink", strings.Replace(text, "NV18", "SYS", 1), "line 2: GPU0 and GPU1 are joined by SYS, not NVLink: fabriclab's dgx node has every GPU on an NVSwitch"},
		{"smi nv differ", strings.Replace(text, "NV18", "NV12", 1), "line 2: GPU0 to GPU2 is NV18 and GPU0 to GPU1 NV12: fabriclab's dgx node has every GPU on one NVSwitch, each with the same links"},
		{"smi self", strings.Replace(text, " X ", "NV18", 1), `line 2: GPU0's cell for itself is "NV18": expected X`},
		{"smi uneven", setCell(setCell(text, 3, 11, "SYS"), 3, 10, "PIX"),
			"line 2: NIC mlx5_0 serves GPU 0, 1, and the 7 NICs do not serve the 8 GPUs evenly: fabriclab models NICs that each serve gpus_per_node/nics_per_node GPUs"},
		{"smi gpu name", "GPU 0: Tesla V100-SXM2-32GB (UUID: GPU-1)\n" + text, "line 1: GPU 0 is Tesla V100-SXM2-32GB: fabriclab models A100, H100, H200 and B200 (and A800, H800)"},
	} {
		_, err := Parse([]byte(tc.in))
		if assert.Error(t, err, tc.name) {
			assert.Equal(t, tc.want, err.Error(), tc.name)
		}
	}
}

// setCell sets the tab-separated cell col of line (both from 1) of text.
func setCell(text string, line, col int, v string) string {
	lines := strings.Split(text, "\n")
	cells := strings.Split(lines[line-1], "\t")
	cells[col-1] = v
	lines[line-1] = strings.Join(cells, "\t")
	return strings.Join(lines, "\n")
}

// FuzzParseNCCL: no input makes the XML reader panic, and what it accepts
// is a node fabriclab can build.
func FuzzParseNCCL(f *testing.F) {
	for _, file := range testFiles(f) {
		if strings.HasSuffix(file, ".xml") {
			data, err := os.ReadFile(file)
			require.NoError(f, err)
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := ParseNCCL(data)
		if err == nil {
			checkNode(t, n)
		}
	})
}

// FuzzParseSMI: likewise for nvidia-smi topo -m.
func FuzzParseSMI(f *testing.F) {
	for _, file := range testFiles(f) {
		if strings.HasSuffix(file, ".txt") {
			data, err := os.ReadFile(file)
			require.NoError(f, err)
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := ParseSMI(data)
		if err == nil {
			checkNode(t, n)
		}
	})
}

func checkNode(t *testing.T, n *Node) {
	require.GreaterOrEqual(t, n.GPUs, 1)
	require.LessOrEqual(t, n.GPUs, MaxGPUs)
	require.NotEmpty(t, n.NICs)
	require.Zero(t, n.GPUs%len(n.NICs), "the NICs serve the GPUs evenly")
	require.Len(t, n.NICOf, n.GPUs)
	for _, j := range n.NICOf {
		require.True(t, j >= 0 && j < len(n.NICs))
	}
	require.Contains(t, []string{"a100", "h100", "h200", "b200"}, n.GPU)
	require.LessOrEqual(t, n.Path, SYS)
}

// Older nvidia-smi names the NIC columns by device (mlx5_0) and prints no
// NIC legend; a copy from a terminal may have spaces where the tabs were.
// Both read as the original.
func TestSMIVariants(t *testing.T) {
	data, err := os.ReadFile("testdata/h100-hgx.txt")
	require.NoError(t, err)
	want, err := Parse(data)
	require.NoError(t, err)
	text, _, _ := strings.Cut(string(data), "\nLegend:")
	for j := 7; j >= 0; j-- {
		n := strconv.Itoa(j)
		text = strings.ReplaceAll(text, "NIC"+n, "mlx5_"+n)
	}
	got, err := Parse([]byte(text))
	require.NoError(t, err)
	assert.Equal(t, want, got, "NICs named in the columns")
	got, err = Parse([]byte(strings.ReplaceAll(text, "\t", "   ")))
	require.NoError(t, err)
	assert.Equal(t, want, got, "spaces for tabs")
}

// TestMutations runs the parsers on a few thousand seeded mutations of the
// test files (bytes changed, cut, repeated) in every test run, for what the
// fuzz targets look for: no panic, and only nodes fabriclab can build.
func TestMutations(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, file := range testFiles(t) {
		seed, err := os.ReadFile(file)
		require.NoError(t, err)
		for range 500 {
			d := append([]byte(nil), seed...)
			for range 1 + r.IntN(4) {
				a := r.IntN(len(d))
				switch r.IntN(3) {
				case 0:
					d[a] = byte(r.IntN(256))
				case 1:
					d = append(d[:a], d[min(len(d), a+r.IntN(64)):]...)
				default:
					b := min(len(d), a+r.IntN(256))
					d = append(d[:b:b], append(append([]byte(nil), d[a:b]...), d[b:]...)...)
				}
				if len(d) == 0 {
					d = []byte{'<'}
				}
			}
			if n, err := Parse(d); err == nil {
				checkNode(t, n)
			}
		}
	}
}
