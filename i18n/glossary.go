package i18n

// Term is one concept of the course with the one word each language uses
// for it. The Chinese word is the field's (NVIDIA's and Huawei's Chinese
// documentation, the canvas's labels); Avoid lists the other Chinese words
// seen for the same concept, which no lesson, catalogue entry or index may
// use (TestGlossaryAvoided).
type Term struct {
	Concept string // a stable name
	EN, ZH  string // the word in each language
	Def     Text   // what it means, one sentence
	Avoid   []string
}

// Glossary is the course's vocabulary, in the order a learner meets it.
var Glossary = []Term{
	{Concept: "reduce", EN: "reduce", ZH: "规约",
		Def:   Text{"Combine the same piece of data from every GPU into one, usually by summing it.", "把每张 GPU 上同一块数据合成一份，通常是求和。"},
		Avoid: []string{"归约"}},
	{Concept: "reduce-scatter", EN: "reduce-scatter", ZH: "规约散射",
		Def:   Text{"A collective that leaves each GPU with the sum of one slice of everyone's data.", "一种集合通信：结束时每张 GPU 持有所有人数据中某一块的总和。"},
		Avoid: []string{"规约-散播", "规约分散", "规约散播", "归约散射", "归约分散"}},
	{Concept: "all-gather", EN: "all-gather", ZH: "全收集",
		Def:   Text{"A collective that gives every GPU every other GPU's slice.", "一种集合通信：每张 GPU 都拿到其他所有 GPU 的那一块。"},
		Avoid: []string{"全聚集", "全局收集"}},
	{Concept: "leaf", EN: "leaf switch", ZH: "Leaf 交换机",
		Def:   Text{"The switch the hosts connect to in a leaf-spine fabric.", "Leaf-Spine 网络中主机直接连接的交换机。"},
		Avoid: []string{"叶交换机", "叶子交换机", "枝叶交换机", "叶脊"}},
	{Concept: "spine", EN: "spine switch", ZH: "Spine 交换机",
		Def:   Text{"A switch that connects the leaves to each other; traffic between leaves crosses one.", "把各台 Leaf 交换机连在一起的交换机；Leaf 之间的流量要经过一台 Spine。"},
		Avoid: []string{"脊交换机", "骨干交换机", "主干交换机", "脊柱交换机", "脊链路", "脊层"}},
	{Concept: "oversubscription", EN: "oversubscription", ZH: "收敛比",
		Def:   Text{"How much more bandwidth a leaf's hosts can send than its uplinks carry (2:1 halves it).", "Leaf 下主机能发出的带宽与其上行链路带宽之比（2:1 即上行只有一半）。"},
		Avoid: []string{"超额订阅", "超订", "超分比", "过载比"}},
	{Concept: "victim", EN: "victim flow", ZH: "受害流",
		Def:   Text{"A flow that is slowed by congestion it did not cause.", "被并非由它造成的拥塞拖慢的流。"},
		Avoid: []string{"无辜的流", "无辜流", "受害者流"}},
	{Concept: "head-of-line", EN: "head-of-line blocking", ZH: "队头阻塞",
		Def:   Text{"Packets wait behind a packet at the head of the queue that cannot move.", "队首的数据包走不了，后面的数据包只能跟着等。"},
		Avoid: []string{"线头阻塞", "队首阻塞", "头端阻塞"}},
	{Concept: "congestion-tree", EN: "congestion tree", ZH: "拥塞树",
		Def:   Text{"Pauses spreading hop by hop from a hot port back to the senders.", "暂停从热点端口逐跳向上游扩散，一直到发送方。"},
		Avoid: []string{"拥塞扩散树"}},
	{Concept: "virtual-lane", EN: "virtual lane", ZH: "虚拟通道",
		Def:   Text{"One of several queues sharing a physical link, each with its own buffer and credits (InfiniBand's VL).", "共享一条物理链路的几个队列之一，各有自己的缓冲和信用（InfiniBand 的 VL）。"},
		Avoid: []string{"虚通道", "虚拟信道", "虚拟车道", "虚拟链路", "虚拟管道"}},
	{Concept: "tail-latency", EN: "tail latency", ZH: "尾延迟",
		Def:   Text{"The time of the slowest transfers, which a collective waits for.", "最慢那部分传输所用的时间；集合通信要等它们。"},
		Avoid: []string{"尾部延迟", "长尾延迟", "尾时延"}},
	{Concept: "adaptive-routing", EN: "adaptive routing", ZH: "自适应路由",
		Def:   Text{"Switches pick each packet's next hop by how full the queues are, not by a fixed hash.", "交换机按队列的占用为每个数据包选下一跳，而不是按固定的哈希。"},
		Avoid: []string{"适应性路由", "自适应选路"}},
	{Concept: "rail", EN: "rail", ZH: "轨道",
		Def:   Text{"The NICs of the same number in every node and the leaf they share: NCCL's rings stay on one rail.", "每个节点里编号相同的网卡及它们共用的 Leaf：NCCL 的环只在一条轨道上走。"},
		Avoid: []string{"导轨", "轨线"}},
	{Concept: "selective-repeat", EN: "selective repeat", ZH: "选择性重传",
		Def:   Text{"Loss recovery that resends only the packets lost, where go-back-N resends everything after the gap.", "只重发丢掉的包的丢包恢复方式；go-back-N 则重发缺口之后的全部。"},
		Avoid: []string{"选择重传"}},
}

// glossaryWords are the glossary page's own words (web/templates/glossary.html).
func glossaryWords() map[string]Text {
	return map[string]Text{
		"glossary.title": {"Glossary", "术语表"},
		"glossary.lede":  {"The words the lessons, the canvas and the index use, one per concept, in English and Chinese.", "课程、画布和目录所用的术语，每个概念一个词，中英对照。"},
	}
}
