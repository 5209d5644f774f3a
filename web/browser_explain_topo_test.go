package web_test

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/nccltests"
	"fabriclab/sim/nodefile"
)

// TestBrowserExplainTopo: the explain page takes the user's node beside the
// output, pasted or read from a file in the page (FileReader), as fabriclab
// explain --topo does: the expected column is that node's, the page says
// what it read, the canvas's link writes the keys the file gave (and the
// canvas loads it), a wrong file gets its own heading and the message
// naming the line; the Chinese page words the node in Chinese.
func TestBrowserExplainTopo(t *testing.T) {
	ctx, base, console := browser(t)
	text := explainSample()
	nodeFile := func(name string) string { return filepath.Join("..", "sim", "nodefile", "testdata", name) }
	xml, err := os.ReadFile(nodeFile("h100-shared-nic.xml"))
	require.NoError(t, err)
	o, s, err := nccltests.Read([]byte(text), nccltests.Options{})
	require.NoError(t, err)
	n, err := nodefile.Parse(xml)
	require.NoError(t, err)
	require.NoError(t, s.UseNode(n, 0))
	rep, err := nccltests.Compare(o, s)
	require.NoError(t, err)

	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/explain.html"), chromedp.WaitReady("#explain-run")))
	set := func(id, value string) {
		t.Helper()
		eval[bool](t, ctx, fmt.Sprintf(`(() => { const o = document.getElementById(%q); o.value = %q; o.dispatchEvent(new Event("input")); return true })()`, id, value))
	}
	run := func() {
		t.Helper()
		eval[bool](t, ctx, `(() => { document.getElementById("explain-result").hidden = true; document.getElementById("explain-error").hidden = true; return true })()`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click("#explain-run")))
		poll(t, ctx, `!document.getElementById("explain-result").hidden || !document.getElementById("explain-error").hidden`, time.Minute)
	}
	assert.Equal(t, "Your node's topology (optional)", eval[string](t, ctx, `document.querySelector("label[for=explain-topo]").textContent`))
	set("explain-output", text)
	set("explain-topo", string(xml))
	run()
	require.True(t, eval[bool](t, ctx, `document.getElementById("explain-error").hidden`), eval[string](t, ctx, `document.querySelector("#explain-error p").textContent`))

	// What it read, and the expected column of that node.
	node := eval[string](t, ctx, `document.getElementById("explain-node").textContent`)
	assert.Equal(t, "Read from your topology (NCCL topology (XML)): 8 × H100, 4 NICs at 400 Gb/s, each shared by 2 GPUs; GPUDirect RDMA (each GPU at most PIX from its NIC). The expected curve and the canvas use this node.", node)
	assert.Equal(t, rep.Header(o), eval[[]string](t, ctx, `[...document.querySelectorAll("#explain-header li")].map((li) => li.textContent)`))
	expected := eval[[]string](t, ctx, `[...document.querySelectorAll("#explain-table tbody tr")].map((tr) => tr.cells[4].textContent)`)
	require.Len(t, expected, len(rep.Lines))
	for i, l := range rep.Lines {
		assert.Equal(t, fmt.Sprintf("%.2f", l.Expected.BusBw), expected[i], "expected busbw at %d, with 4 NICs", l.Size)
	}
	href := eval[string](t, ctx, `document.getElementById("explain-open").href`)
	u, err := url.Parse(href)
	require.NoError(t, err)
	yaml, err := base64.RawURLEncoding.DecodeString(u.Query().Get("yaml"))
	require.NoError(t, err)
	assert.Equal(t, s.YAML(""), string(yaml))
	assert.Contains(t, string(yaml), "  nics_per_node: 4\n  gpu: h100\n")
	assert.NotContains(t, string(yaml), "from:", "the browser has no file for topology.from")
	eval[bool](t, ctx, `(() => { document.getElementById("explain-topo").scrollIntoView({block: "start"}); return true })()`)
	keep(t, "explain-topo-form-1280x900.png", screenshot(t, ctx, "", "the explain page with a topology pasted"))
	eval[bool](t, ctx, `(() => { document.getElementById("explain-result").scrollIntoView({block: "start"}); return true })()`)
	keep(t, "explain-topo-result-1280x900.png", screenshot(t, ctx, "", "the result with the node read"))

	// A file picked is read in the page into the box: nvidia-smi's matrix,
	// with no speed and a GPU across the CPU from its NIC.
	smiPath, err := filepath.Abs(nodeFile("sys-nic.txt"))
	require.NoError(t, err)
	smi, err := os.ReadFile(smiPath)
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetUploadFiles("#explain-topo-file", []string{smiPath})))
	poll(t, ctx, `document.getElementById("explain-topo").value.length > 0 && document.getElementById("explain-topo").value !== `+fmt.Sprintf("%q", string(xml)), 10*time.Second)
	assert.Equal(t, string(smi), eval[string](t, ctx, `document.getElementById("explain-topo").value`))
	run()
	node = eval[string](t, ctx, `document.getElementById("explain-node").textContent`)
	assert.Contains(t, node, "Read from your topology (nvidia-smi topo -m): 8 × H100, 2 NICs (the file gives no speed: 400 Gb/s taken), each shared by 4 GPUs;")
	assert.Contains(t, node, "no GPUDirect RDMA by default: a GPU is NODE from its NIC")

	// A wrong file: its own heading, the message naming the line, no result.
	lines := strings.Split(string(smi), "\n")
	lines[3] = strings.Replace(lines[3], "NV18", "NV99", 1)
	set("explain-topo", strings.Join(lines, "\n"))
	run()
	require.False(t, eval[bool](t, ctx, `document.getElementById("explain-error").hidden`))
	assert.Equal(t, "This topology cannot be read", eval[string](t, ctx, `document.querySelector("#explain-error h2").textContent`))
	_, cliErr := nodefile.Parse([]byte(strings.Join(lines, "\n")))
	require.ErrorContains(t, cliErr, "line 4")
	assert.Equal(t, "your topology: "+cliErr.Error(), eval[string](t, ctx, `document.querySelector("#explain-error p").textContent`))
	assert.True(t, eval[bool](t, ctx, `document.getElementById("explain-result").hidden`))
	keep(t, "explain-topo-error-1280x900.png", screenshot(t, ctx, "", "a wrong topology"))
	// The output's own error keeps the output's heading.
	set("explain-output", "hello\n")
	run()
	assert.Equal(t, "This output cannot be explained", eval[string](t, ctx, `document.querySelector("#explain-error h2").textContent`))
	// A file of another node: the GPUs disagree.
	a100, err := os.ReadFile(nodeFile("a100-dgx.txt"))
	require.NoError(t, err)
	set("explain-output", text)
	set("explain-topo", string(a100))
	run()
	assert.Contains(t, eval[string](t, ctx, `document.querySelector("#explain-error p").textContent`), "your topology: the output's GPUs are NVIDIA H100 80GB HBM3 and the topology file's A100")

	// The canvas opens the node the file described, without the file.
	set("explain-topo", string(xml))
	run()
	require.NoError(t, chromedp.Do(ctx, chromedp.Click("#explain-open")))
	poll(t, ctx, `location.pathname === "/embed.html" && (window.fabriclabFirstFrameMs > 0 || !document.getElementById("error").hidden)`, 90*time.Second)
	assert.Equal(t, "", eval[string](t, ctx, `document.getElementById("error-text").textContent`))
	keep(t, "explain-topo-canvas-1280x900.png", screenshot(t, ctx, "", "the canvas on the user's node"))

	// The Chinese page words the node in Chinese.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/explain.zh.html"), chromedp.WaitReady("#explain-run")))
	set("explain-output", text)
	set("explain-topo", string(xml))
	run()
	assert.Equal(t, "从你的拓扑读到（NCCL topology (XML)）：8 × H100，4 块网卡，每块 400 Gb/s，每块由 2 个 GPU 共用；GPUDirect RDMA（每个 GPU 到其网卡最远为 PIX）。预期曲线和画布都使用这个节点。",
		eval[string](t, ctx, `document.getElementById("explain-node").textContent`))
	assert.Equal(t, "你的节点拓扑（可选）", eval[string](t, ctx, `document.querySelector("label[for=explain-topo]").textContent`))
	eval[bool](t, ctx, `(() => { document.getElementById("explain-topo").scrollIntoView({block: "start"}); return true })()`)
	keep(t, "explain-topo-zh-1280x900.png", screenshot(t, ctx, "", "the Chinese page"))
	assert.Empty(t, errors(console()))
}
