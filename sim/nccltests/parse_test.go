package nccltests_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/coll"
	"fabriclab/sim/golden"
	"fabriclab/sim/nccltests"
)

// realDir holds published nccl-tests outputs beside the project
// (../shared/nccl-outputs, see its README); the tests that read them skip
// where it is missing.
const realDir = "../../../shared/nccl-outputs"

func readReal(t *testing.T, name string) *nccltests.Output {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realDir, name))
	if os.IsNotExist(err) {
		t.Skipf("%s is not beside the project: the published outputs are read from there", realDir)
	}
	require.NoError(t, err)
	o, err := nccltests.Parse(strings.NewReader(string(data)))
	require.NoError(t, err, name)
	return o
}

// Every published output reads whole: its ranks, hosts and rows, and the
// footer's average, which nccl-tests takes over both halves of every row
// (so a column read wrong, or a row lost, moves it).
func TestParseRealOutputs(t *testing.T) {
	cases := []struct {
		file         string
		test         string
		ranks, hosts int
		rows         int
		first, last  int64
		avgOverRows  bool // false where two processes printed every row
	}{
		{"01-h100x8-1node-allreduce-ring.txt", "all_reduce", 8, 1, 31, 8, 8 << 30, true},
		{"02-h100x8-1node-allgather-nvls.txt", "all_gather", 8, 1, 31, 0, 8 << 30, true},
		{"03-h100x8-1node-reducescatter-ring.txt", "reduce_scatter", 8, 1, 31, 0, 8 << 30, true},
		{"04-a100x16-2node-roce-allreduce.txt", "", 16, 2, 31, 8, 8 << 30, true},
		{"05-h100x16-2node-tree-allreduce.txt", "", 16, 2, 5, 512 << 20, 8 << 30, true},
		{"06-h100x16-2node-efa-allreduce.txt", "", 16, 2, 32, 8, 16 << 30, true},
		{"07-a100pcie-2node-allreduce-a.txt", "all_reduce", 2, 2, 23, 1 << 30, 12608077824, true},
		{"08-a100pcie-2node-allreduce-b.txt", "all_reduce", 2, 2, 23, 1 << 30, 12608077824, true},
		{"09-a100pcie-2node-alltoall.txt", "alltoall", 2, 2, 23, 1 << 30, 12608077824, true},
		{"10-h100x16-2node-allreduce-nvls.txt", "all_reduce", 16, 2, 14, 1 << 20, 8 << 30, false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			o := readReal(t, c.file)
			hosts := map[string]bool{}
			for _, d := range o.Devices {
				hosts[d.Host] = true
			}
			assert.Equal(t, c.test, o.Test)
			assert.Len(t, o.Devices, c.ranks)
			assert.Len(t, hosts, c.hosts)
			require.Len(t, o.Rows, c.rows)
			assert.Equal(t, c.first, o.Rows[0].Size)
			assert.Equal(t, c.last, o.Rows[len(o.Rows)-1].Size)
			if c.avgOverRows {
				sum := 0.0
				for _, r := range o.Rows {
					sum += r.Out.BusBw + r.In.BusBw
				}
				assert.InDelta(t, o.AvgBusBw, sum/float64(2*len(o.Rows)), 0.01, "the footer's average over both halves of the rows read")
			}
		})
	}
}

// The in-place #wrong of all-to-all is N/A in nccl-tests; it reads.
func TestParseKeepsNotApplicable(t *testing.T) {
	o := readReal(t, "09-a100pcie-2node-alltoall.txt")
	assert.Equal(t, "N/A", o.Rows[0].In.Wrong)
	assert.Equal(t, "0", o.Rows[0].Out.Wrong)
	assert.InDelta(t, 61267.7, o.Rows[0].Out.TimeUs, 1e-9)
}

// An output without its program's name gets its collective from its
// columns; the flag wins.
func TestShapeReadsTheCollective(t *testing.T) {
	o := readReal(t, "05-h100x16-2node-tree-allreduce.txt")
	s, err := nccltests.ShapeOf(o, "", 0, "")
	require.NoError(t, err)
	assert.Equal(t, coll.AllReduce, s.Op)
	assert.True(t, s.OpAssumed)
	assert.Equal(t, 2, s.Hosts)
	assert.Equal(t, 8, s.GPUsPerHost)
	assert.Equal(t, "h100", s.GPU)
	assert.Equal(t, 400.0, s.NICGbps)
	s, err = nccltests.ShapeOf(o, coll.AllGather, 800, "roce")
	require.NoError(t, err)
	assert.Equal(t, coll.AllGather, s.Op)
	assert.Equal(t, 800.0, s.NICGbps)
	assert.Equal(t, "roce", s.Fabric)

	a := readReal(t, "08-a100pcie-2node-allreduce-b.txt")
	s, err = nccltests.ShapeOf(a, "", 0, "")
	require.NoError(t, err)
	assert.Equal(t, "a100", s.GPU)
	assert.Equal(t, 200.0, s.NICGbps, "NET[25.0] in NCCL's topology lines: 25 GB/s")
	assert.Equal(t, "NCCL's topology", s.NICFrom)
}

// Every bad output gets an error naming its line and what to do.
func TestParseErrors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "bad.txtar"))
	require.NoError(t, err)
	_, files := golden.Archive(string(data))
	require.NotEmpty(t, files)
	var out strings.Builder
	for _, f := range files {
		o, err := nccltests.Parse(strings.NewReader(f.Text))
		if err == nil {
			_, err = nccltests.ShapeOf(o, "", 0, "")
		}
		if assert.Error(t, err, f.Name) {
			out.WriteString(f.Name + ": " + err.Error() + "\n")
		}
	}
	golden.Equal(t, filepath.Join("testdata", "bad.golden"), []byte(out.String()))
}

func FuzzParse(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "bad.txtar"))
	require.NoError(f, err)
	_, files := golden.Archive(string(data))
	for _, file := range files {
		f.Add(file.Text)
	}
	f.Add("[1,0]<stdout>:#  Rank  0 Group  0 Pid 1 on a device 0 [0x1] GPU\n[1,0]<stdout>: 8 2 float sum -1[1,0]<stdout>: 1 0 0 0[1,0]<stdout>: 1 0 0 N/A\n")
	f.Fuzz(func(t *testing.T, s string) {
		o, err := nccltests.Parse(strings.NewReader(s))
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		assert.NotEmpty(t, o.Rows)
		assert.NotEmpty(t, o.Devices)
		if sh, err := nccltests.ShapeOf(o, "", 0, ""); err == nil {
			assert.GreaterOrEqual(t, sh.Ranks(), 2)
			assert.NotEmpty(t, sh.YAML(""))
		}
	})
}
