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
	"error.title":        {"The canvas stopped", "画布已停止"},
	"progress.computing": {"computing %s of %s", "正在计算 %s / %s"},
	"progress.left":      {"about %s left", "约剩 %s"},
	"progress.done":      {"computed", "计算完成"},
}
