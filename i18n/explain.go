package i18n

// explainWords are the explain page's words (web/templates/explain.html and
// web/static/explain.js): an nccl-tests output set beside a healthy
// cluster's figures. What the comparison says (its header, findings and
// errors) comes from sim/nccltests, in English, as fabriclab explain prints it.
func explainWords() map[string]Text {
	return map[string]Text{
		"explain.title": {"Is my number normal?", "我的数字正常吗？"},
		"explain.lede": {"Paste what an nccl-tests program printed (all_reduce_perf and its siblings): the page builds a healthy cluster of the same shape, runs the same sizes and sets its busbw beside yours, with the likely causes where they part. " +
			"It runs in this page: nothing you paste leaves your browser.",
			"粘贴 nccl-tests 程序（all_reduce_perf 等）的输出：本页会搭建一个形状相同的健康集群，跑同样的消息大小，把它的 busbw 和你的放在一起比较，并在两者分开的地方给出可能的原因。" +
				"一切都在本页内运行：你粘贴的内容不会离开浏览器。"},
		"explain.link":        {"Is my number normal? Explain an nccl-tests output", "我的数字正常吗？解读 nccl-tests 输出"},
		"explain.output":      {"nccl-tests output", "nccl-tests 输出"},
		"explain.output.hint": {"From the \"# nThread\" line to \"# Avg bus bandwidth\"; mpirun's tags and NCCL's INFO lines may stay in.", "从 “# nThread” 行到 “# Avg bus bandwidth” 行；mpirun 的前缀和 NCCL 的 INFO 行可以保留。"},
		"explain.example":     {"Load an example", "载入示例"},
		"explain.nic":         {"NIC rate per GPU (Gb/s)", "每个 GPU 的网卡速率（Gb/s）"},
		"explain.nic.hint":    {"Empty: from your topology, else NCCL's topology lines, else 400 (200 on A100). With a topology, each NIC's rate.", "留空：取你的拓扑文件中的值，否则取 NCCL 拓扑行中的值，否则为 400（A100 为 200）。给了拓扑文件时，为每块网卡的速率。"},
		"explain.topo":        {"Your node's topology (optional)", "你的节点拓扑（可选）"},
		"explain.topo.hint": {"NCCL's topology dump (run with NCCL_TOPO_DUMP_FILE=topo.xml) or what nvidia-smi topo -m prints, from one node: the expected curve is then that node's — its GPU, its NICs, which GPUs share one and their speed — as fabriclab explain --topo does.",
			"一个节点的 NCCL 拓扑转储（运行时设 NCCL_TOPO_DUMP_FILE=topo.xml）或 nvidia-smi topo -m 的输出：预期曲线随之按这个节点计算——它的 GPU、网卡、哪些 GPU 共用一块网卡及网卡速率——与 fabriclab explain --topo 相同。"},
		"explain.topo.file":      {"Or read a file from this computer (it stays in the page):", "或从本机读取文件（文件不会离开本页）："},
		"explain.topo.big":       {"{name} is {kib} KiB: a node's topology is at most 1024 KiB. Pick NCCL's topology dump or nvidia-smi topo -m's output.", "{name} 有 {kib} KiB：节点拓扑文件最多 1024 KiB。请选择 NCCL 的拓扑转储或 nvidia-smi topo -m 的输出。"},
		"explain.topo.unread":    {"{name} could not be read: {why}", "无法读取 {name}：{why}"},
		"explain.error.topo":     {"This topology cannot be read", "无法读取这个拓扑"},
		"explain.node":           {"Read from your topology ({format}): {gpus} × {gpu}, {nics}; {gdr}. The expected curve and the canvas use this node.", "从你的拓扑读到（{format}）：{gpus} × {gpu}，{nics}；{gdr}。预期曲线和画布都使用这个节点。"},
		"explain.node.guess":     {"{gpu} (or another GPU of its NVLink: the file does not say)", "{gpu}（也可能是 NVLink 相同的其他 GPU：文件未注明）"},
		"explain.node.nics":      {"{n} NICs at {rate} Gb/s", "{n} 块网卡，每块 {rate} Gb/s"},
		"explain.node.nics.none": {"{n} NICs (the file gives no speed: {rate} Gb/s taken)", "{n} 块网卡（文件未给出速率，按 {rate} Gb/s 计）"},
		"explain.node.shared":    {"{nics}, each shared by {k} GPUs", "{nics}，每块由 {k} 个 GPU 共用"},
		"explain.node.gdr":       {"GPUDirect RDMA (each GPU at most {path} from its NIC)", "GPUDirect RDMA（每个 GPU 到其网卡最远为 {path}）"},
		"explain.node.nogdr":     {"no GPUDirect RDMA by default: a GPU is {path} from its NIC, so NCCL stages the data through host memory", "默认不用 GPUDirect RDMA：有 GPU 到其网卡为 {path}，NCCL 经主机内存中转数据"},
		"explain.fabric":         {"Fabric", "网络"},
		"explain.fabric.auto":    {"From the output (RoCE if NCCL names it, else InfiniBand)", "按输出判断（NCCL 提到 RoCE 则为 RoCE，否则为 InfiniBand）"},
		"explain.run":            {"Explain", "解读"},
		"explain.running":        {"Running a healthy cluster of the same shape at every size…", "正在用形状相同的健康集群跑每个消息大小……"},
		"explain.done":           {"Explained {n} sizes.", "已解读 {n} 个消息大小。"},
		"explain.empty":          {"Paste an nccl-tests output first, or load the example.", "请先粘贴一段 nccl-tests 输出，或载入示例。"},
		"explain.error":          {"This output cannot be explained", "无法解读这段输出"},
		"explain.failed":         {"The simulation could not start in this page: {why}", "仿真无法在本页内启动：{why}"},
		"explain.result":         {"Measured against expected", "实测与预期对比"},
		"explain.assumed":        {"What the comparison assumed", "对比所做的假设"},
		"explain.chart":          {"busbw by message size", "各消息大小的 busbw"},
		"explain.chart.desc":     {"busbw (GB/s) against message size (log scale) for {n} sizes from {from} to {to}: measured up to {measured} GB/s, expected up to {expected} GB/s; they part the most at {part} (measured {ratio} of expected). The table below has every figure.", "busbw（GB/s）随消息大小（对数刻度）变化，共 {n} 个大小，从 {from} 到 {to}：实测最高 {measured} GB/s，预期最高 {expected} GB/s；两者在 {part} 相差最大（实测为预期的 {ratio}）。下表列出全部数值。"},
		"explain.measured":       {"measured", "实测"},
		"explain.expected":       {"expected", "预期"},
		"explain.size":           {"message size", "消息大小"},
		"explain.axis.busbw":     {"busbw (GB/s)", "busbw（GB/s）"},
		"explain.part":           {"part the most", "相差最大"},
		"explain.findings":       {"What the comparison says", "对比结论"},
		"explain.table":          {"Every size", "每个消息大小"},
		"explain.table.caption": {"Time and busbw per size, measured (out of place) and expected of a healthy cluster, and what NCCL would pick there.",
			"每个消息大小的时间和 busbw：实测（out-of-place）与健康集群的预期，以及 NCCL 在该大小会选择的算法和协议。"},
		"explain.col.size":  {"size (B)", "大小（B）"},
		"explain.col.time":  {"time (µs)", "时间（µs）"},
		"explain.col.busbw": {"busbw (GB/s)", "busbw（GB/s）"},
		"explain.col.ratio": {"ratio", "比值"},
		"explain.col.pick":  {"NCCL would pick", "NCCL 会选择"},
		"explain.open":      {"Open on the canvas at {size}", "在画布上打开（{size}）"},
		"explain.open.hint": {"The healthy cluster's scenario, at the size where the two curves part the most.", "健康集群的场景，消息大小取两条曲线相差最大处。"},
		"explain.english":   {"The comparison's sentences are in English, as fabriclab explain prints them.", "对比的结论为英文，与 fabriclab explain 的输出一致。"},
	}
}
