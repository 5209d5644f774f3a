package render

// The canvas's words, in English and Simplified Chinese.
//
// Every string the canvas draws comes from the catalogue below, so that a
// Chinese page gets a Chinese canvas (Options.Lang) and the CJK subset font
// (assets/fonts) has every glyph it needs. To add a string:
//
//   - add a line to catalogue: "area.what": {"English", "中文"}. A key names
//     where the text is used ("chart.queues", "tip.load"); a format string
//     takes the same verbs in both languages (use %[2]d to reorder);
//   - draw it with T(lang, "area.what"), or Tf(lang, "area.what", args...)
//     for a format; inside a Builder, b.t("key") and b.tf("key", args...);
//   - run `make fonts` (assets/fonts/subset.sh) when the Chinese text has a
//     character the subset lacks: TestCatalogueGlyphs says which.
//
// Figures and units (µs, ms, Gb/s, MiB) are the same in both languages, as in
// the lessons. An unknown key draws as itself, so a mistake shows on the
// canvas rather than crashing it; TestCatalogueKeys finds the keys that
// render's code uses and the catalogue lacks.

import "fmt"

// Lang is the language of the canvas's text: "" or "en" English, "zh"
// Simplified Chinese.
type Lang string

// Languages.
const (
	EN Lang = "en"
	ZH Lang = "zh"
)

// Text is one string in each language.
type Text struct{ EN, ZH string }

// In returns the text in lang (English for any other).
func (t Text) In(lang Lang) string {
	if lang == ZH && t.ZH != "" {
		return t.ZH
	}
	return t.EN
}

// T returns the catalogue's text for key in lang; the key itself if it has none.
func T(lang Lang, key string) string {
	if t, ok := catalogue[key]; ok {
		return t.In(lang)
	}
	return key
}

// Tf formats the catalogue's format string for key in lang with args.
func Tf(lang Lang, key string, args ...any) string {
	return fmt.Sprintf(T(lang, key), args...)
}

func (b *Builder) t(key string) string { return T(b.layout.Opt.Lang, key) }

func (b *Builder) tf(key string, args ...any) string { return Tf(b.layout.Opt.Lang, key, args...) }

// Keys returns the catalogue's keys, for tests and tools.
func Keys() []string {
	keys := make([]string, 0, len(catalogue))
	for k := range catalogue {
		keys = append(keys, k)
	}
	return keys
}

var catalogue = map[string]Text{
	// header
	"head.gpus":      {"%d GPUs on %d NVSwitch", "%d 张 GPU，%d 台 NVSwitch"},
	"head.gpus.many": {"%d GPUs on %d NVSwitches", "%d 张 GPU，%d 台 NVSwitch"},
	"head.hosts":     {"%d hosts", "%d 台主机"},
	"head.switch":    {" · 1 switch", " · 1 台交换机"},
	"head.switches":  {" · %d switches", " · %d 台交换机"},
	"head.fabric":    {" · %g Gb/s %s", " · %g Gb/s %s"},
	"head.finished":  {"finished", "已结束"},

	// topology labels
	"node.host":      {"host %d", "%d 号主机"},
	"node.host.abbr": {"h%d", "%d号"},
	"node.switch":    {"switch", "交换机"},
	"node.sw":        {"sw", "交换机"},
	"node.dgx":       {"node %d", "节点 %d"},
	"node.pod":       {"pod %s", "Pod %s"},

	// legend
	"legend.load":      {"link load", "链路负载"},
	"legend.idle-link": {"no traffic", "无流量"},
	"legend.comm":      {"communicating", "通信中"},
	"legend.compute":   {"computing", "计算中"},
	"legend.idle":      {"idle", "空闲"},
	"legend.queue":     {"queue", "队列"},
	"legend.drop":      {"drop", "丢包"},
	"legend.pause":     {"PFC pause", "PFC 暂停"},
	"legend.by-shard":  {"packets, by shard", "数据包（按分片）"},
	"legend.by-flow":   {"packets, by flow", "数据包（按流）"},
	"legend.ecn":       {"ECN-marked", "ECN 标记"},
	"legend.cnp":       {"CNP / BECN", "CNP / BECN"},

	// activities (snap.Activity)
	"act.idle":          {"idle", "空闲"},
	"act.communicating": {"communicating", "通信中"},
	"act.computing":     {"computing", "计算中"},

	// charts
	"chart.throughput":       {"Throughput, all flows", "吞吐量（全部流）"},
	"chart.throughput.flow":  {"Throughput per flow", "每条流的吞吐量"},
	"chart.throughput.shard": {"Throughput per shard", "每个分片的吞吐量"},
	"chart.rates":            {"Sender rates (congestion control, log scale)", "发送速率（拥塞控制，对数坐标）"},
	"chart.queues":           {"Queue depth, busiest ports", "队列深度（最忙的端口）"},
	"chart.fct":              {"Flow completion times", "流完成时间"},
	"chart.waiting":          {"waiting for data", "等待数据"},
	"chart.no-queues":        {"no queues yet", "尚无排队"},
	"chart.no-traffic":       {"no traffic yet", "尚无流量"},
	"chart.none-done":        {"0 of %d flows finished", "%d 条流均未完成"},
	"chart.no-flows":         {"no flows yet", "尚无流"},
	"chart.fct.figures":      {"%d of %d done · median %s · p99 %s", "%[2]d 条中已完成 %[1]d 条 · 中位数 %[3]s · p99 %[4]s"},
	"chart.fct.short":        {"%d/%d · med %s", "%d/%d · 中位数 %s"},
	"chart.all":              {"all flows", "全部流"},
	"chart.flow.hosts":       {"%s→%s", "%s→%s"},
	"chart.shard":            {"shard", "分片"},
	"chart.more":             {"+%d more", "另有 %d 条"},
	"chart.to":               {"to %s:", "发往 %s："},
	"chart.in-node":          {"within nodes (NVLink)", "节点内（NVLink）"},
	"chart.between-nodes":    {"between nodes (network)", "节点间（网络）"},

	// tooltips
	"tip.bundle":       {"pod %d ⇄ core group %d", "Pod %d ⇄ 核心组 %d"},
	"tip.bundle.links": {"%d links each way", "每个方向 %d 条链路"},
	"tip.bundle.up":    {"up: %s mean load", "上行：平均负载 %s"},
	"tip.bundle.down":  {"down: %s mean load", "下行：平均负载 %s"},
	"tip.load":         {"load %s (%s)", "负载 %s（%s）"},
	"tip.queue":        {"queue %s", "队列 %s"},
	"tip.queue.of":     {" of %s", " / %s"},
	"tip.drops.pauses": {"drops %d · pause frames %d", "丢包 %d · 暂停帧 %d"},
	"tip.ecn":          {"ECN marks %d", "ECN 标记 %d"},
	"tip.paused":       {"paused by PFC now", "正被 PFC 暂停"},
	"tip.on-wire":      {"on the wire: ", "线路上："},
	"tip.endpoint":     {"%s, endpoint %d · %s", "%s，端点 %d · %s"},
	"tip.sends":        {"→ %s: %s", "→ %s：%s"},
	"tip.receives":     {"← %s: %s", "← %s：%s"},
	"tip.of":           {"%s of %s", "%s / %s"},
	"tip.finished":     {"%d flows finished", "已完成 %d 条流"},
	"tip.ports":        {"%s, %d ports", "%s，%d 个端口"},
	"tip.queued":       {"queued %s", "排队 %s"},
	"tip.busiest":      {"busiest port %s", "最忙端口 %s"},
	"tip.drops":        {"drops %d", "丢包 %d"},
	"tip.ports-paused": {"%d ports paused by PFC", "%d 个端口被 PFC 暂停"},
	"tip.pod":          {"pod %s", "Pod %s"},
	"tip.pod.hosts":    {"%d hosts · mean host load %s", "%d 台主机 · 主机平均负载 %s"},

	// roles (topo.Role)
	"role.host":     {"host", "主机"},
	"role.gpu":      {"GPU", "GPU"},
	"role.nic":      {"NIC", "网卡"},
	"role.nvswitch": {"NVSwitch", "NVSwitch"},
	"role.leaf":     {"leaf switch", "Leaf 交换机"},
	"role.spine":    {"spine switch", "Spine 交换机"},
	"role.core":     {"core switch", "核心交换机"},

	// the picture shown instead of the scene when the canvas fails, and progress
	"error.title":         {"The canvas stopped", "画布已停止"},
	"progress.computed":   {"computed to %s", "已计算到 %s"},
	"progress.going":      {"going to %s · ", "前往 %s · "},
	"progress.estimating": {" · estimating time left", " · 正在估计剩余时间"},
	"progress.secs":       {"about %.0f s left", "约剩 %.0f 秒"},
	"progress.mins":       {"about %.0f min left", "约剩 %.0f 分钟"},
	"progress.under":      {"under 1 s left", "不到 1 秒"},

	// the collective view: operations, algorithms and the phases sim/coll names
	"op.allreduce":                             {"all-reduce", "all-reduce"},
	"op.reducescatter":                         {"reduce-scatter", "规约散射"},
	"op.allgather":                             {"all-gather", "全收集"},
	"op.alltoall":                              {"all-to-all", "all-to-all"},
	"op.broadcast":                             {"broadcast", "广播"},
	"algo.ring":                                {"ring", "环形"},
	"algo.tree":                                {"double binary tree", "双二叉树"},
	"algo.rabenseifner":                        {"Rabenseifner", "Rabenseifner"},
	"algo.hierarchical":                        {"hierarchical", "分层"},
	"algo.innetwork":                           {"in-network (NVLS)", "网内（NVLS）"},
	"algo.nvlstree":                            {"NVLS tree", "NVLS 树"},
	"algo.direct":                              {"direct", "直接"},
	"algo.pairwise":                            {"pairwise", "成对"},
	"phase.reduce-scatter":                     {"reduce-scatter", "规约散射"},
	"phase.all-gather":                         {"all-gather", "全收集"},
	"phase.all-to-all":                         {"all-to-all", "all-to-all"},
	"phase.broadcast":                          {"broadcast", "广播"},
	"phase.reduce at switch":                   {"reduce at switch", "在交换机上规约"},
	"phase.multicast from switch":              {"multicast from switch", "由交换机组播"},
	"phase.reduce at switch and multicast":     {"reduce at switch and multicast", "在交换机上规约并组播"},
	"phase.reduce-scatter (halving)":           {"reduce-scatter (halving)", "规约散射（减半）"},
	"phase.all-gather (doubling)":              {"all-gather (doubling)", "全收集（倍增）"},
	"phase.reduce-scatter in node (NVLink)":    {"reduce-scatter in node (NVLink)", "节点内规约散射（NVLink）"},
	"phase.reduce-scatter across nodes (rail)": {"reduce-scatter across nodes (rail)", "跨节点规约散射（轨道）"},
	"phase.all-gather across nodes (rail)":     {"all-gather across nodes (rail)", "跨节点全收集（轨道）"},
	"phase.all-gather in node (NVLink)":        {"all-gather in node (NVLink)", "节点内全收集（NVLink）"},
	"phase.broadcast down the trees":           {"broadcast down the trees", "沿树向下广播"},
	"phase.reduce up the trees":                {"reduce up the trees", "沿树向上规约"},
	"phase.reduce in node (NVLS)":              {"reduce in node (NVLS)", "节点内规约（NVLS）"},
	"phase.reduce across nodes (rail)":         {"reduce across nodes (rail)", "跨节点规约（轨道）"},
	"phase.broadcast across nodes (rail)":      {"broadcast across nodes (rail)", "跨节点广播（轨道）"},
	"phase.broadcast in node (NVLS)":           {"broadcast in node (NVLS)", "节点内广播（NVLS）"},

	// the collective view
	"coll.finished":    {" · finished in %s", " · 用时 %s 完成"},
	"coll.pipelined":   {" · %d phases at once, pipelined · %s moved", " · %d 个阶段流水并行 · 已传输 %s"},
	"coll.phase-of":    {" · phase %d of %d: %s", " · 第 %d/%d 阶段：%s"},
	"coll.all-at-once": {" · every GPU sends to every other at once", " · 每张 GPU 同时向其他所有 GPU 发送"},
	"coll.step-of":     {" · step %d of %d", " · 第 %d/%d 步"},
	"coll.round-of":    {" · round %d of %d", " · 第 %d/%d 轮"},
	"coll.rail":        {"on rail %d", "使用轨道 %d"},
	"coll.rails":       {"on rails %d–%d", "使用轨道 %d–%d"},
	"coll.rails.n":     {"on %d rails", "使用 %d 条轨道"},
	"coll.chunks":      {"Chunks on each GPU, how far reduced", "各 GPU 上的数据块及其规约进度"},
	"coll.received":    {"What each GPU has received", "各 GPU 已收到的数据"},
	"coll.held":        {"Chunks each GPU holds", "各 GPU 持有的数据块"},
	"coll.bw":          {"algbw %s · busbw %s", "algbw %s · busbw %s"},
	"coll.bw.final":    {"final algbw %s · busbw %s", "最终 algbw %s · busbw %s"},
	"coll.so-far":      {"so far: %s of %s in %s", "目前：%[3]s 内已传输 %[2]s 的 %[1]s"},
	"coll.as-reported": {"%s in %s, as fabriclab run reports", "%s 用时 %s，与 fabriclab run 的报告一致"},
	"coll.too-many":    {"too many ranks to draw their chunks", "GPU 太多，画不下各自的数据块"},
	"coll.all-pieces":  {"all pieces", "全部分块"},
	"coll.gpu":         {"GPU %d", "GPU %d"},
	"coll.none":        {"none", "无"},
	"coll.has":         {"held", "持有"},
	"coll.col.from":    {"column: from GPU", "列：来源 GPU"},
	"coll.col.chunk":   {"column: chunk", "列：数据块"},
	"coll.col.row-own": {"column: chunk the row's GPUs end up owning", "列：本行 GPU 最终负责的数据块"},
	"coll.col.gpu-own": {"column: chunk GPU n ends up owning", "列：GPU n 最终负责的数据块"},
	"coll.col.buffer":  {"column: chunk of the buffer", "列：缓冲区的数据块"},
	"coll.steps":       {"Steps over time", "各步的时间跨度"},
	"coll.phases":      {"Phases over time", "各阶段的时间跨度"},
	"coll.bar-key":     {"bar: first to latest transfer · solid: share done", "条：从首个到最后一个传输 · 实心：已完成比例"},
	"coll.solid":       {"solid: share done", "实心：已完成比例"},
	"coll.waiting":     {"waiting for the first transfer", "等待第一次传输"},
	"coll.step":        {"step %d", "第 %d 步"},
	"coll.phase":       {"phase %d", "第 %d 阶段"},
	"coll.moved":       {"Bytes moved over time", "已传输的字节"},
	"coll.moved.of":    {"%s of %s", "%[2]s 的 %[1]s"},

	// the training view
	"train.title":            {"GPU timelines", "GPU 时间线"},
	"train.ctx":              {"%s · %d GPUs · %s", "%s · %d 张 GPU · %s"},
	"train.ctx.short":        {"%s · %d GPUs", "%s · %d 张 GPU"},
	"train.ctx.tp":           {" · tensor parallel %d", " · 张量并行 %d"},
	"train.ctx.rows":         {" · a row per node of %d", " · 每行一个节点（%d 张 GPU）"},
	"train.ctx.iter":         {" · iteration %d of %d", " · 第 %d/%d 次迭代"},
	"train.now":              {"now: %s", "当前：%s"},
	"train.on-wire":          {" · on the wire: %s", " · 传输中：%s"},
	"train.computing":        {"computing %s", "计算中：%s"},
	"train.forward":          {"forward", "前向"},
	"train.backward":         {"backward", "反向"},
	"train.optimizer":        {"optimizer", "优化器"},
	"train.opt-step":         {"optimizer step", "优化器更新"},
	"train.bucket":           {"%s (bucket %d)", "%s（桶 %d）"},
	"train.unit":             {"%s (unit %d)", "%s（单元 %d）"},
	"train.wait":             {"waiting", "等待"},
	"train.wait.short":       {"wait", "等"},
	"train.wait.for":         {"waiting for %s", "等待%s"},
	"train.wait.grads":       {"waiting for gradients", "等待梯度"},
	"train.wait.params":      {"waiting for parameters", "等待参数"},
	"train.wait.tp":          {"waiting for tensor-parallel all-reduce", "等待张量并行 all-reduce"},
	"train.comm.bucket":      {"%s bucket %d", "%s（桶 %d）"},
	"train.comm.unit":        {"%s unit %d", "%s（单元 %d）"},
	"train.comm.params":      {"all-gather parameters", "参数全收集"},
	"train.comm.tp":          {"tensor-parallel all-reduce", "张量并行 all-reduce"},
	"train.tp":               {"TP", "TP"},
	"train.ag":               {"AG", "收集"},
	"train.row.gpu":          {"GPU %d", "GPU %d"},
	"train.row.node":         {"node %d", "节点 %d"},
	"train.more.gpus":        {"… %d more GPUs", "… 另有 %d 张 GPU"},
	"train.more.nodes":       {"… %d more nodes (%d GPUs)", "… 另有 %d 个节点（%d 张 GPU）"},
	"train.fwd":              {"fwd %d", "前向 %d"},
	"train.bwd":              {"bwd %d", "反向 %d"},
	"train.fwd.short":        {"fwd", "前"},
	"train.bwd.short":        {"bwd", "反"},
	"train.opt.short":        {"opt", "优"},
	"train.fwd.letter":       {"F", "F"},
	"train.bwd.letter":       {"B", "B"},
	"train.opt.letter":       {"O", "O"},
	"train.iteration":        {"iteration %d", "第 %d 次迭代"},
	"train.micro":            {"micro-batch %d", "微批次 %d"},
	"train.micro.short":      {"µb %d", "µb %d"},
	"train.first":            {"iteration 1 under way · compute %s per iteration; its time, exposed communication and GPU utilisation follow when it ends", "第 1 次迭代进行中 · 每次迭代计算 %s；迭代结束后给出耗时、暴露的通信时间和 GPU 利用率"},
	"train.first.mid":        {"iteration 1 under way · compute %s per iteration", "第 1 次迭代进行中 · 每次迭代计算 %s"},
	"train.first.short":      {"iteration 1 under way", "第 1 次迭代进行中"},
	"train.final":            {" (final)", "（最终）"},
	"train.under-way":        {" (iteration %d under way)", "（第 %d 次迭代进行中）"},
	"train.figures":          {"iteration %d: %s · exposed communication %s · GPU utilisation %s%s", "第 %d 次迭代：%s · 暴露的通信时间 %s · GPU 利用率 %s%s"},
	"train.figures.mid":      {"iteration %d: %s · exposed comm. %s · GPU util. %s%s", "第 %d 次迭代：%s · 暴露通信 %s · 利用率 %s%s"},
	"train.figures.short":    {"iter. %d: %s · exposed %s · util. %s", "迭代 %d：%s · 暴露 %s · 利用率 %s"},
	"train.legend.bwd":       {"backward (shades: layer groups)", "反向（深浅：层组）"},
	"train.legend.bwd.units": {"backward (shades: units)", "反向（深浅：单元）"},
	"train.legend.ar":        {"all-reduce of gradients (number: bucket)", "梯度 all-reduce（数字：桶）"},
	"train.legend.rs":        {"reduce-scatter of gradients (number: bucket)", "梯度规约散射（数字：桶）"},
	"train.legend.rs.units":  {"reduce-scatter of gradients (number: unit)", "梯度规约散射（数字：单元）"},
	"train.legend.gather":    {"all-gather of parameters", "参数全收集"},

	// the routing view
	"route.title":       {"flows per uplink", "每条上行链路的流数"},
	"route.none":        {"none yet", "尚无"},
	"route.range":       {"%d–%d flows' packets on each", "每条承载 %d–%d 条流的数据包"},
	"route.each":        {"%d flows' packets on each", "每条承载 %d 条流的数据包"},
	"route.spread":      {"per-packet routing: flows spread", "逐包路由：流被分散"},
	"route.flow":        {"flow %d", "流 %d"},
	"route.named":       {"%s (flow %d)", "%s（流 %d）"},
	"route.waiting":     {"waiting to start", "等待开始"},
	"route.finished":    {"finished in %s", "用时 %s 完成"},
	"route.sending":     {"sending", "发送中"},
	"route.sending.at":  {"sending at %s", "正以 %s 发送"},
	"route.delivered":   {"%s of %s (%s)", "%[2]s 中已送达 %[1]s（%[3]s）"},
	"route.unrecorded":  {"links not recorded: too big a run", "未记录链路：运行规模太大"},
	"route.spread.n":    {"packets spread over %d links", "数据包分散在 %d 条链路上"},
	"route.via":         {"via %s", "经过 %s"},
	"route.reordered":   {"reordered %s of packets (%d)", "乱序数据包 %s（%d 个）"},
	"route.total":       {"· reordered %s of packets", "· 乱序数据包 %s"},
	"route.badge.pod":   {"badge over a pod: most on one uplink", "Pod 上方的标记：单条上行链路的最多流数"},
	"route.badge.link":  {"badge: flows on each uplink", "标记：每条上行链路上的流数"},
	"route.badge.core":  {"badge: flows into each core switch", "标记：进入每台核心交换机的流数"},
	"route.badge.spine": {"badge: flows into each spine", "标记：进入每台 Spine 的流数"},
}
