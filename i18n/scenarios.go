package i18n

// scenarioSummaries are the built-in scenarios' one-line summaries, as the
// index lists them: the English is each YAML file's first comment line
// (web's TestScenarioSummaries keeps them equal), the Chinese is ours.
func scenarioSummaries() map[string]Text {
	return map[string]Text{
		"scenario.summary.alltoall-moe": {"Mixture-of-experts all-to-all: 16 GPUs on 2 DGX nodes each send 8 MiB to every other GPU over 400G RoCE rails.",
			"混合专家（MoE）的 all-to-all：2 台 DGX 节点上的 16 张 GPU，经 400G RoCE 轨道给其他每张 GPU 各发 8 MiB。"},
		"scenario.summary.dp-llama3-8b-1024": {"Llama 3 8B on 128 DGX H100 nodes (1,024 GPUs), FSDP as torchtitan runs it: parameters all-gathered and bf16 gradients reduce-scattered per block, inside each node over NVLink then across nodes over InfiniBand (flow level).",
			"Llama 3 8B 跑在 128 台 DGX H100 节点（1,024 张 GPU）上，按 torchtitan 的方式用 FSDP：每个块先全收集参数，再对 bf16 梯度做规约散射，节点内走 NVLink，节点间走 InfiniBand（流级仿真）。"},
		"scenario.summary.dp-resnet50": {"Data-parallel ResNet-50 on 4 DGX H100 nodes (32 GPUs): 256 images per GPU at MLPerf's measured H100 efficiency, DDP buckets all-reduced during the backward pass over InfiniBand rails.",
			"4 台 DGX H100 节点（32 张 GPU）上的数据并行 ResNet-50：每张 GPU 256 张图片，按 MLPerf 实测的 H100 效率计算；反向传播期间，DDP 的各个桶经 InfiniBand 轨道做 all-reduce。"},
		"scenario.summary.ecmp-collisions": {"64 flows from leaf 0 to leaf 1 hash onto 64 spines with ECMP: some spines get several, some none.",
			"64 条流从 Leaf 0 发往 Leaf 1，由 ECMP 哈希到 64 台 Spine 上：有的 Spine 分到好几条，有的一条也没有。"},
		"scenario.summary.hierarchical-allreduce": {"Hierarchical all-reduce of 1 GiB on 4 DGX nodes (32 GPUs): NVLink inside nodes, 8 × 400G InfiniBand rails across (flow level; scales to nodes=2048; collective.algo=ring runs NCCL's rail-aligned rings).",
			"4 台 DGX 节点（32 张 GPU）上 1 GiB 的分层 all-reduce：节点内走 NVLink，节点间走 8 条 400G InfiniBand 轨道（流级仿真；可扩展到 nodes=2048；collective.algo=ring 改跑 NCCL 按轨道对齐的环）。"},
		"scenario.summary.ib-vs-roce-incast": {"The 8 → 1 incast at 400G on InfiniBand with credits; --set switches it to RoCE with PFC alone or PFC + DCQCN to compare the three.",
			"400G 下的 8 打 1 incast，跑在使用信用流控的 InfiniBand 上；用 --set 可换成只开 PFC 或 PFC + DCQCN 的 RoCE，三者对比。"},
		"scenario.summary.incast-dcqcn": {"The incast with DCQCN: switches mark ECN, receivers send CNPs, senders slow down, so the queue stays short and PFC rarely pauses.",
			"开启 DCQCN 的 incast：交换机打 ECN 标记，接收方回 CNP，发送方降速，队列因此保持很短，PFC 很少需要暂停。"},
		"scenario.summary.incast-ibcc": {"The incast on 400G NDR InfiniBand with credits and IB congestion control: the switch marks FECN, receivers return BECNs, senders back off by the CCT, so the queue stays near the threshold.",
			"400G NDR InfiniBand 上的 incast，使用信用流控和 IB 拥塞控制：交换机打 FECN 标记，接收方回 BECN，发送方按 CCT 退让，队列因此停在阈值附近。"},
		"scenario.summary.incast-lossy": {"The same incast without flow control and a shallow buffer: drops, go-back-N retransmissions, goodput collapse (stops at 20 ms).",
			"同样的 incast，但没有流控、缓冲又浅：丢包、go-back-N 重传、有效吞吐崩溃（运行到 20 ms 停止）。"},
		"scenario.summary.incast": {"Eight senders overwhelm one receiver through a lossless (PFC) RoCE switch.",
			"八个发送方经一台无损（PFC）RoCE 交换机同时打向一个接收方，把它压垮。"},
		"scenario.summary.noisy-neighbor": {"A ring all-reduce beside an 8→1 storage incast on a leaf-spine, in its own traffic class; --set collective.class=storage shares the class and shows the slowdown",
			"Leaf-Spine 网络上，一个环形 all-reduce 与一个 8 打 1 的存储 incast 并存，各用自己的流量类别；--set collective.class=storage 让两者共用一个类别，可以看到 all-reduce 变慢"},
		"scenario.summary.pp-gpt-1f1b": {"Pipeline and tensor parallelism on 2 DGX H100 nodes (16 GPUs): GPT-2 1.5B cut into 4 stages of 12 layers, each split over 2 GPUs by tensor parallelism, 2 data-parallel replicas; 8 micro-batches run Megatron-LM's 1F1B schedule, activations passed stage to stage over NVLink (flow level).",
			"2 台 DGX H100 节点（16 张 GPU）上的流水线并行加张量并行：GPT-2 1.5B 切成 4 个流水线阶段，每段 12 层，每段再用张量并行分到 2 张 GPU 上，共 2 个数据并行副本；8 个微批次按 Megatron-LM 的 1F1B 调度执行，激活值经 NVLink 在相邻阶段之间逐段传递（流级仿真）。"},
		"scenario.summary.perm-1024": {"Benchmark: a random permutation among 1024 hosts of a k=16 fat tree with packet spraying.",
			"基准测试：k=16 胖树的 1024 台主机之间做随机置换流量，使用逐包喷洒。"},
		"scenario.summary.permutation": {"Every host sends to one other host across an 8×8 leaf-spine with ECMP.",
			"每台主机经一张 8×8 的 Leaf-Spine 网络（ECMP）发给另一台主机。"},
		"scenario.summary.ring-allreduce-8": {"Ring all-reduce of 1 GiB on the 8 GPUs of one DGX H100 node over NVSwitch: about 370 GB/s busbw, as nccl-tests measure.",
			"一台 DGX H100 节点的 8 张 GPU 经 NVSwitch 做 1 GiB 的环形 all-reduce：busbw 约 370 GB/s，与 nccl-tests 实测一致。"},
		"scenario.summary.victim-flow": {"PFC's side effect: an incast's pauses spread upstream and stall an unrelated flow that only shares uplinks with it; --set network.cc=dcqcn frees it.",
			"PFC 的副作用：incast 引发的暂停向上游扩散，卡住一条只是与它共用上行链路、毫不相干的受害流；--set network.cc=dcqcn 可以解救它。"},
		"scenario.summary.inference-llama3-8b": {"Llama 3 8B served disaggregated on 2 DGX H100 nodes: 8 GPUs prefill 2,048-token prompts, 8 decode 128 tokens each, and every request's 256 MiB KV cache crosses the InfiniBand rails from one node to the other.",
			"在 2 台 DGX H100 上分离式部署 Llama 3 8B：8 张 GPU 做 2,048 token 提示词的预填充，8 张做解码、每个请求生成 128 个 token；每个请求 256 MiB 的 KV 缓存经 InfiniBand 轨道跨节点传输。"},
		"scenario.summary.victim-flow-lossy": {"The victim-flow fabric without PFC, as lossy RoCE runs it: the incast drops packets instead of pausing, selective repeat resends only those, and the victim runs at line rate.",
			"去掉 PFC 的 victim-flow 网络，即有损 RoCE 的跑法：incast 丢包而不暂停，选择性重传只重发丢掉的包，受害流以线速运行。"},
		"scenario.summary.checkpoint-llama3-8b": {"Llama 3 8B (FSDP) on 2 DGX H100 nodes writing a 96 GB checkpoint while it trains: after iteration 2 every GPU streams its share of the weights and Adam state over its rail NIC to 4 NVMe-oF storage nodes of 50 GB/s on a storage leaf, beside FSDP's collectives (flow level).",
			"2 台 DGX H100 节点上用 FSDP 训练 Llama 3 8B，边训练边写一份 96 GB 的检查点：第 2 次迭代结束后，每张 GPU 把自己那份权重和 Adam 状态经所在轨道的网卡写到存储 Leaf 交换机下的 4 台 NVMe-oF 存储节点（每台 50 GB/s），与 FSDP 的集合通信共用网络（流级仿真）。"},
	}
}
