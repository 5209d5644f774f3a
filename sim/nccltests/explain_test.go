package nccltests_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/nccltests"
)

func compare(t *testing.T, file string) nccltests.Report {
	t.Helper()
	o := readReal(t, file)
	s, err := nccltests.ShapeOf(o, "", 0, "")
	require.NoError(t, err)
	rep, err := nccltests.Compare(o, s)
	require.NoError(t, err)
	require.Len(t, rep.Lines, len(o.Sizes()))
	return rep
}

func kinds(rep nccltests.Report) map[string]string {
	out := map[string]string{}
	for _, c := range rep.Causes {
		out[c.Kind] = c.Text
	}
	return out
}

// Each published output gets the cause its source established (its
// README or settings: ../shared/nccl-outputs/README.md), and healthy runs
// are called healthy.
func TestExplainNamesTheCause(t *testing.T) {
	t.Run("ring forced on one H100 node", func(t *testing.T) {
		// NCCL_ALGO=RING, NCCL_NVLS_ENABLE=0 in the source's ring config.
		k := kinds(compare(t, "01-h100x8-1node-allreduce-ring.txt"))
		require.Contains(t, k, "algo")
		assert.Contains(t, k["algo"], "NCCL's RING")
		assert.Contains(t, k["algo"], "NCCL_NVLS_ENABLE=0")
		assert.NotContains(t, k, "nvlink", "NVLink is healthy: the ring reaches the ring's figure")
	})
	t.Run("healthy one-node ring and NVLS", func(t *testing.T) {
		for _, f := range []string{"02-h100x8-1node-allgather-nvls.txt", "03-h100x8-1node-reducescatter-ring.txt", "10-h100x16-2node-allreduce-nvls.txt"} {
			k := kinds(compare(t, f))
			assert.Contains(t, k, "bandwidth", f)
			assert.Contains(t, k["bandwidth"], "healthy", f)
		}
	})
	t.Run("four of eight HCAs", func(t *testing.T) {
		// NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_4,mlx5_5 and NCCL_ALGO=TREE.
		k := kinds(compare(t, "05-h100x16-2node-tree-allreduce.txt"))
		require.Contains(t, k, "nics")
		assert.Contains(t, k["nics"], "4 of 8")
		assert.Contains(t, k["nics"], "NCCL_IB_HCA")
	})
	t.Run("GPUDirect RDMA off", func(t *testing.T) {
		k := kinds(compare(t, "07-a100pcie-2node-allreduce-a.txt"))
		require.Contains(t, k, "gdr")
		assert.Contains(t, k["gdr"], "distance 6 > 4")
		assert.Contains(t, k, "unsteady", "busbw halves from 6.8 GB on")
	})
	t.Run("GPU and NIC across the host bridge", func(t *testing.T) {
		k := kinds(compare(t, "08-a100pcie-2node-allreduce-b.txt"))
		assert.NotContains(t, k, "gdr", "GPUDirect RDMA is on in this run")
		require.Contains(t, k, "pcie")
		assert.Contains(t, k["pcie"], "PHB")
	})
	t.Run("EFA's latency", func(t *testing.T) {
		k := kinds(compare(t, "06-h100x16-2node-efa-allreduce.txt"))
		assert.Contains(t, k["latency"], "latency-bound")
		assert.Contains(t, k["bandwidth"], "healthy")
	})
}

// The comparison sets each size beside the same size, and the ratio is
// the measured busbw over the expected.
func TestExplainLinesLineUp(t *testing.T) {
	rep := compare(t, "03-h100x8-1node-reducescatter-ring.txt")
	for _, l := range rep.Lines {
		assert.Equal(t, l.Size, l.Expected.Size)
		if l.Ratio > 0 {
			assert.InDelta(t, l.Measured.BusBw/l.Expected.BusBw, l.Ratio, 1e-12)
		}
	}
	last := rep.Lines[len(rep.Lines)-1]
	assert.InDelta(t, 363.18, last.Measured.BusBw, 1e-9)
}
