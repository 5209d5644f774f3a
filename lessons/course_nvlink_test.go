package lessons

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// courseDump prints a lesson's text with its figures filled in
// (COURSE_DUMP=slug go test ./lessons -run TestCourseDump -v), for reading.
func TestCourseDump(t *testing.T) {
	slug := os.Getenv("COURSE_DUMP")
	if slug == "" {
		t.Skip("set COURSE_DUMP=slug to print a lesson's rendered text")
	}
	ls, err := courseLessons()
	require.NoError(t, err)
	tags := regexp.MustCompile(`<[^>]+>`)
	for _, lang := range []string{"en", "zh"} {
		if l := Find(ls, slug, lang); l != nil {
			for _, s := range l.Steps {
				t.Log("\n" + tags.ReplaceAllString(string(s.HTML), ""))
			}
		}
	}
}

// TestCourseNVLinkClaims pins what nvlink-vs-ib.*.md says to its scenarios.
func TestCourseNVLinkClaims(t *testing.T) {
	node := stepRun(t, "nvlink-vs-ib", "node").Collective
	require.NotNil(t, node)
	// "about 370 GB/s is what nccl-tests measure on a DGX H100"
	assert.InDelta(t, 370, node.BusBwGBps, 15, "one node's ring busbw")

	// The size knob: from 64 MiB busbw is close to the measured 370 GB/s, under it well under; the
	// header counts 7 + 7 steps at every size.
	for _, b := range []string{"1MiB", "4MiB", "16MiB", "64MiB", "256MiB", "1GiB"} {
		r := stepRun(t, "nvlink-vs-ib", "node", "collective.bytes="+b)
		c := r.Collective
		assert.Equal(t, 14, c.Steps, b)
		if c.Bytes >= 64<<20 {
			assert.Equal(t, []int{0}, whenShown(t, "nvlink-vs-ib", "node", r), b)
			assert.InDelta(t, 370, c.BusBwGBps, 0.06*370, "%s: close to the measured busbw", b)
		} else {
			assert.Equal(t, []int{1}, whenShown(t, "nvlink-vs-ib", "node", r), b)
			assert.Less(t, c.BusBwGBps, 0.7*370, "%s: well under the measured busbw", b)
		}
	}

	// "about an eighth of one node's" and "under 50 GB/s" (the quiz's answer)
	across := stepRun(t, "nvlink-vs-ib", "across").Collective
	assert.Less(t, across.BusBwGBps, 50.0)
	assert.InDelta(t, 1.0/8, across.BusBwGBps/node.BusBwGBps, 0.03, "one GPU per node gets about an eighth")
	// "A 200G HDR NIC halves the busbw"; "An 800G NIC does not double it"
	hdr := stepRun(t, "nvlink-vs-ib", "across", "topology.link_gbps=200").Collective
	assert.InDelta(t, 0.5, hdr.BusBwGBps/across.BusBwGBps, 0.03)
	xdr := stepRun(t, "nvlink-vs-ib", "across", "topology.link_gbps=800").Collective
	assert.Less(t, xdr.BusBwGBps, 1.5*across.BusBwGBps, "PCIe caps an 800G NIC")
	assert.Greater(t, xdr.BusBwGBps, across.BusBwGBps)
	// The sentence on the GPU's link to its NIC names the PCIe cap only where it binds (800G and
	// up), and its 63 GB/s is PCIe Gen5 x16's raw rate. The next sentence: a 100G NIC quarters the
	// busbw, 200G halves it (the NIC sets the rate), from 800G the PCIe link is the limit.
	for _, c := range []struct {
		gbps      string
		pcie, nic int // the branch each sentence shows
		of400     float64
	}{{"100", 1, 0, 0.25}, {"200", 1, 1, 0.5}, {"400", 1, 3, 1}, {"800", 0, 2, 0}, {"1600", 0, 2, 0}} {
		r := stepRun(t, "nvlink-vs-ib", "across", "topology.link_gbps="+c.gbps)
		pcie := courseLink(t, r, "n0.gpu0→n0.nic0").Gbps
		port := courseLink(t, r, "n0.nic0→rail0").Gbps
		if c.pcie == 0 {
			assert.InDelta(t, 63, pcie/8, 0.1, "the raw PCIe Gen5 x16 rate")
		} else {
			assert.InDelta(t, 0.966, pcie/port, 0.015, "%s G: about 97 %% of the wire's rate", c.gbps)
		}
		if c.of400 > 0 {
			assert.InDelta(t, c.of400, r.Collective.BusBwGBps/across.BusBwGBps, 0.02, "%s G against 400G", c.gbps)
		}
		assert.Equal(t, []int{c.pcie, c.nic}, whenShown(t, "nvlink-vs-ib", "across", r), "%s G", c.gbps)
		assert.Less(t, r.Collective.BusBwGBps, 0.25*node.BusBwGBps, "%s G: a fraction of one node's busbw", c.gbps)
	}

	// "Near one node's, about 370 GB/s"; "the busbw hardly moves" at 8 nodes
	two := stepRun(t, "nvlink-vs-ib", "two-nodes").Collective
	assert.InDelta(t, node.BusBwGBps, two.BusBwGBps, 0.05*node.BusBwGBps, "two nodes' rings match one node's")
	assert.Equal(t, 16, two.Channels)
	// "Move the knob to 8 nodes: busbw slips by under a tenth"; the NICs and NVLinks stay nearly full.
	for _, n := range []int{2, 4, 8} {
		r := stepRun(t, "nvlink-vs-ib", "two-nodes", fmt.Sprintf("topology.nodes=%d", n))
		assert.Equal(t, 8*n, r.Collective.Ranks, "%d nodes: the text's GPU count", n)
		assert.LessOrEqual(t, r.Collective.BusBwGBps, two.BusBwGBps, "%d nodes", n)
		assert.Greater(t, r.Collective.BusBwGBps, 0.9*two.BusBwGBps, "%d nodes: under a tenth less", n)
		assert.Greater(t, courseLink(t, r, "n0.nic0→rail0").Util, 0.8, "%d nodes: the NIC nearly full", n)
		assert.Greater(t, courseLink(t, r, "n0.gpu0→n0.nvswitch").Util, 0.8, "%d nodes: the NVLink nearly full", n)
	}
}

// TestCourseNVLinkTensorParallel: tensor parallelism across nodes roughly
// doubles the iteration (the quiz's answer), and its 128 blocking all-reduces
// per iteration are what the GPUs wait for.
func TestCourseNVLinkTensorParallel(t *testing.T) {
	in := stepRun(t, "nvlink-vs-ib", "tp-node").Training
	out := stepRun(t, "nvlink-vs-ib", "tp-spread").Training
	require.NotNil(t, in)
	require.NotNil(t, out)
	ratio := out.IterationUs / in.IterationUs
	assert.Greater(t, ratio, 1.7, "spread tensor parallelism roughly doubles the iteration")
	assert.Less(t, ratio, 2.5)
	assert.Less(t, out.GPUUtil, 0.5, "the GPUs spend most of the time waiting")
	assert.Greater(t, out.ExposedCommUs, out.IterationUs/2)

	tpAllReduces := 0
	for _, iv := range in.Timeline[0].Intervals {
		if iv.Kind == "communicate" && strings.Contains(iv.Label, "tensor-parallel") {
			tpAllReduces++
		}
	}
	assert.Equal(t, 128, tpAllReduces, "two blocks × 32 layers × forward and backward")
	// the gradients' reduce-scatters mostly hide under the backward pass
	var waitGrad float64
	for _, iv := range in.Timeline[0].Intervals {
		if iv.Label == "waiting for gradients" {
			waitGrad += iv.EndUs - iv.StartUs
		}
	}
	assert.Less(t, waitGrad, 0.05*in.IterationUs)
	// The degree knob (inside the node): 128 tensor-parallel all-reduces the GPUs wait for, and the
	// gradients' reduce-scatters barely delay the backward pass, at every degree.
	for _, tp := range []string{"2", "4", "8"} {
		r := stepRun(t, "nvlink-vs-ib", "tp-node", "training.tp="+tp).Training
		waits, grad := 0, 0.0
		for _, iv := range r.Timeline[0].Intervals {
			if iv.Label == "waiting for tensor-parallel all-reduce" {
				waits++
			}
			if iv.Label == "waiting for gradients" {
				grad += iv.EndUs - iv.StartUs
			}
		}
		assert.Equal(t, 128, waits, "tp %s: the GPUs wait for each tensor-parallel all-reduce", tp)
		assert.Less(t, grad, 0.05*r.IterationUs, "tp %s: the gradients barely delay it", tp)
	}

	// tp-spread's placement knob: spread, the waits take more than twice the compute; node, the
	// other sentence, with tp-node's figures.
	spread := stepRun(t, "nvlink-vs-ib", "tp-spread")
	assert.Equal(t, []int{0}, whenShown(t, "nvlink-vs-ib", "tp-spread", spread))
	assert.Greater(t, out.ExposedCommUs, 2*out.GPUUtil*out.IterationUs, "the waits take more than twice the compute")
	back := stepRun(t, "nvlink-vs-ib", "tp-spread", "training.tp_layout=node")
	assert.Equal(t, []int{1}, whenShown(t, "nvlink-vs-ib", "tp-spread", back))
	assert.Equal(t, in.IterationUs, back.Training.IterationUs, "node placement is tp-node's run")
}
