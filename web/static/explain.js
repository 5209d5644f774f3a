// The explain page (issue 32): an nccl-tests output pasted here is sent to
// the simulation's Web Worker in this page (worker-client.js; cmd/worker
// answers an explain command as fabriclab explain does), and its answer is
// drawn: the two busbw curves over size (an inline SVG), the findings, what
// was assumed, the table, and a link that opens the healthy cluster's
// scenario on the canvas at the size where the curves part the most. An
// optional topology of the user's node (NCCL's dump or nvidia-smi topo -m,
// pasted or read from a file with FileReader) goes with it, as fabriclab
// explain --topo takes it, and the page says what it read. Nothing leaves
// the page.
(() => {
  "use strict";
  const words = JSON.parse(document.getElementById("explain-words").textContent);
  const t = (key, args) => (words[key] || key).replace(/\{(\w+)\}/g, (m, k) => (args && k in args ? String(args[k]) : m));
  const $ = (id) => document.getElementById(id);
  const form = $("explain-form"), output = $("explain-output"), nic = $("explain-nic"), fabric = $("explain-fabric");
  const topo = $("explain-topo"), topoFile = $("explain-topo-file"), nodeLine = $("explain-node");
  const maxTopo = 1 << 20; // protocol.MaxTopo
  const status = $("explain-status"), errorBox = $("explain-error"), result = $("explain-result");
  const embedLang = document.querySelector("main").dataset.embedLang || "";
  const version = (document.currentScript.src.split("?v=")[1]) || "";

  // sizeText is a size in bytes as the lessons write it: 64 KiB, 1 GiB.
  const sizeText = (b) => {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let i = 0;
    while (b >= 1024 && i < units.length - 1) { b /= 1024; i++; }
    return (Number.isInteger(b) ? String(b) : b.toFixed(1)) + " " + units[i];
  };
  const fixed = (v) => v.toFixed(2);
  const pct = (r) => Math.round(100 * r) + " %";
  const seriesName = { measured: t("explain.measured"), expected: t("explain.expected") };

  let latest = 0;
  window.fabriclabFrame = (i, msg) => {
    const e = JSON.parse(msg);
    if (e.fabriclab !== "explained" || e.id !== latest) return;
    result.removeAttribute("aria-busy");
    if (e.error) { showError(e.error, e.error_in); return; }
    show(e);
  };
  window.fabriclabWorkerFailed = (i, why) => showError(t("explain.failed", { why }));

  // showError shows a message about the output, or about the topology
  // when about is "topo" (its own heading).
  const showError = (text, about) => {
    status.textContent = "";
    result.hidden = true;
    const h = errorBox.querySelector("h2");
    h.textContent = about === "topo" ? h.dataset.topo : h.dataset.text;
    errorBox.querySelector("p").textContent = text;
    errorBox.hidden = false;
  };

  // A file picked is read here, into the topology box; nothing is sent.
  topoFile.addEventListener("change", () => {
    const f = topoFile.files && topoFile.files[0];
    if (!f) return;
    errorBox.hidden = true;
    if (f.size > maxTopo) {
      showError(t("explain.topo.big", { name: f.name, kib: Math.ceil(f.size / 1024) }), "topo");
      topoFile.value = "";
      return;
    }
    const r = new FileReader();
    r.onload = () => { topo.value = String(r.result); };
    r.onerror = () => showError(t("explain.topo.unread", { name: f.name, why: String(r.error && r.error.message || r.error) }), "topo");
    r.readAsText(f);
  });

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = output.value;
    errorBox.hidden = true;
    if (!text.trim()) {
      status.textContent = t("explain.empty");
      output.focus();
      return;
    }
    latest++;
    const cmd = { fabriclab: "explain", id: latest, text };
    const rate = nic.valueAsNumber;
    if (nic.value !== "" && !Number.isNaN(rate)) cmd.nic_gbps = rate;
    if (fabric.value) cmd.fabric = fabric.value;
    if (topo.value.trim()) cmd.topo = topo.value;
    status.textContent = t("explain.running");
    result.setAttribute("aria-busy", "true");
    window.fabriclabWorker(0, JSON.stringify(cmd));
  });

  $("explain-example").addEventListener("click", () => {
    fetch("static/explain-example.txt" + (version ? "?v=" + version : "")).then((r) => {
      if (!r.ok) throw new Error(r.status + " " + r.statusText);
      return r.text();
    }).then((text) => {
      output.value = text;
      nic.value = "";
      fabric.value = "";
      topo.value = "";
      topoFile.value = "";
      output.focus();
      output.setSelectionRange(0, 0);
      output.scrollTop = 0;
    }, (err) => showError(String(err && err.message || err)));
  });

  const show = (e) => {
    status.textContent = t("explain.done", { n: e.rows.length });
    const list = (id, items) => {
      const ul = $(id);
      ul.replaceChildren(...items.map((text) => {
        const li = document.createElement("li");
        li.textContent = text;
        return li;
      }));
      return ul;
    };
    list("explain-header", e.header);
    nodeLine.hidden = !e.node;
    nodeLine.textContent = e.node ? nodeText(e.node) : "";
    const findings = list("explain-findings", e.findings.map((f) => f.text));
    e.findings.forEach((f, i) => { findings.children[i].dataset.kind = f.kind; });
    table(e);
    chart(e);
    const open = $("explain-open");
    const yaml = btoa(String.fromCharCode(...new TextEncoder().encode(e.yaml))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const part = e.part_bytes || (e.rows.length ? e.rows[e.rows.length - 1].bytes : 0);
    open.href = "embed.html?yaml=" + yaml + "&set=collective.bytes=" + part + "&play=1" + (embedLang ? "&lang=" + embedLang : "");
    open.textContent = t("explain.open", { size: sizeText(part) });
    $("explain-open-hint").textContent = e.parted ? t("explain.open.hint") : t("explain.open.hint.ok");
    result.hidden = false;
  };

  // nodeText says what the topology gave, in the page's language:
  // "Read from your topology (NCCL topology (XML)): 8 × H100, 4 NICs at
  // 400 Gb/s, each shared by 2 GPUs; GPUDirect RDMA (…)".
  const nodeText = (n) => {
    const rate = (v) => String(+v.toFixed(1));
    let gpu = n.gpu.toUpperCase();
    if (n.gpu_guess) gpu = t("explain.node.guess", { gpu });
    let nics = n.nic_gbps > 0 ? t("explain.node.nics", { n: n.nics, rate: rate(n.nic_gbps) })
      : t("explain.node.nics.none", { n: n.nics, rate: rate(n.rate_gbps) });
    if (n.nics < n.gpus) nics = t("explain.node.shared", { nics, k: n.gpus / n.nics });
    const gdr = n.gdr ? t("explain.node.gdr", { path: n.path }) : t("explain.node.nogdr", { path: n.path });
    return t("explain.node", { format: n.format, gpus: n.gpus, gpu, nics, gdr });
  };

  const cell = (tag, text, cls) => {
    const c = document.createElement(tag);
    c.textContent = text;
    if (cls) c.className = cls;
    return c;
  };
  const table = (e) => {
    const body = $("explain-table").tBodies[0];
    body.replaceChildren(...e.rows.map((r) => {
      const tr = document.createElement("tr");
      const size = cell("th", String(r.bytes));
      size.scope = "row";
      size.append(" ", cell("span", sizeText(r.bytes), "hint"));
      const off = r.ratio > 0 && (r.ratio < 0.85 || r.ratio > 1 / 0.85);
      tr.append(size, cell("td", fixed(r.measured_time_us)), cell("td", fixed(r.expected_time_us)),
        cell("td", fixed(r.measured_busbw)), cell("td", fixed(r.expected_busbw)),
        cell("td", r.ratio > 0 ? fixed(r.ratio) : "-", off ? "off" : ""), cell("td", r.proto ? r.algo + "/" + r.proto : r.algo));
      if (r.bytes === e.part_bytes) tr.className = "part";
      return tr;
    }));
  };

  // chart draws the two busbw curves: log2 size across, busbw up.
  const svgNS = "http://www.w3.org/2000/svg";
  const el = (name, attrs, text) => {
    const n = document.createElementNS(svgNS, name);
    for (const k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  };
  const niceStep = (span, n) => {
    const raw = span / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  };
  const chart = (e) => {
    const W = 760, H = 330, L = 64, R = 20, T = 40, B = 50;
    const rows = e.rows.filter((r) => r.bytes > 0);
    const lx = rows.map((r) => Math.log2(r.bytes));
    let x0 = Math.min(...lx), x1 = Math.max(...lx);
    if (x1 === x0) { x0 -= 1; x1 += 1; }
    const top = Math.max(1e-9, ...rows.map((r) => Math.max(r.measured_busbw, r.expected_busbw)));
    const step = niceStep(top, 5), y1 = Math.ceil(top / step) * step;
    const X = (b) => L + (Math.log2(b) - x0) / (x1 - x0) * (W - L - R);
    const Y = (v) => H - B - v / y1 * (H - T - B);
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "explain-chart-title", "aria-describedby": "explain-chart-desc", class: "chart" });
    svg.append(el("title", { id: "explain-chart-title" }, t("explain.chart")));
    const grid = el("g", { class: "axis" });
    for (let v = 0; v <= y1 + step / 2; v += step) {
      grid.append(el("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: "grid" }),
        el("text", { x: L - 8, y: Y(v) + 4, "text-anchor": "end" }, String(+v.toFixed(2))));
    }
    const every = [1, 2, 3, 4, 5, 10].find((k) => (Math.floor(x1) - Math.ceil(x0)) / k <= 8) || 10;
    for (let p = Math.ceil(x0); p <= x1; p++) {
      if (p % every) continue;
      grid.append(el("line", { x1: X(2 ** p), x2: X(2 ** p), y1: H - B, y2: H - B + 5, class: "tick" }),
        el("text", { x: X(2 ** p), y: H - B + 20, "text-anchor": "middle" }, sizeText(2 ** p).replace(" ", "")));
    }
    grid.append(el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "base" }),
      el("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", class: "label" }, t("explain.size")),
      el("text", { x: 16, y: (T + H - B) / 2, "text-anchor": "middle", class: "label", transform: `rotate(-90 16 ${(T + H - B) / 2})` }, t("explain.axis.busbw")));
    svg.append(grid);
    if (e.part_bytes > 0) {
      const px = X(e.part_bytes);
      svg.append(el("g", { class: "part" }, undefined));
      svg.lastChild.append(el("line", { x1: px, x2: px, y1: T - 6, y2: H - B }),
        el("text", { x: px + (px > W - 160 ? -6 : 6), y: T + 6, "text-anchor": px > W - 160 ? "end" : "start" }, (e.parted ? t("explain.part") + " · " + sizeText(e.part_bytes) : t("explain.part.none"))));
    }
    for (const [key, cls] of [["expected_busbw", "expected"], ["measured_busbw", "measured"]]) {
      const g = el("g", { class: "series " + cls });
      g.append(el("polyline", { points: rows.map((r) => X(r.bytes).toFixed(1) + "," + Y(r[key]).toFixed(1)).join(" ") }));
      for (const r of rows) {
        const dot = cls === "measured" ? el("circle", { cx: X(r.bytes), cy: Y(r[key]), r: 3.5 })
          : el("rect", { x: X(r.bytes) - 3, y: Y(r[key]) - 3, width: 6, height: 6 });
        dot.append(el("title", {}, sizeText(r.bytes) + ": " + seriesName[cls] + " " + fixed(r[key]) + " GB/s"));
        g.append(dot);
      }
      svg.append(g);
    }
    const legend = el("g", { class: "legend" });
    ["measured", "expected"].forEach((cls, i) => {
      const x = L + 8 + i * 150;
      const g = el("g", { class: "series " + cls });
      g.append(el("line", { x1: x, x2: x + 28, y1: 14, y2: 14 }),
        cls === "measured" ? el("circle", { cx: x + 14, cy: 14, r: 3.5 }) : el("rect", { x: x + 11, y: 11, width: 6, height: 6 }));
      legend.append(g, el("text", { x: x + 36, y: 18 }, seriesName[cls]));
    });
    svg.append(legend);
    $("explain-chart").replaceChildren(svg);
    const ratios = rows.find((r) => r.bytes === e.part_bytes);
    const desc = {
      n: rows.length, from: sizeText(rows[0].bytes), to: sizeText(rows[rows.length - 1].bytes),
      measured: fixed(Math.max(...rows.map((r) => r.measured_busbw))), expected: fixed(Math.max(...rows.map((r) => r.expected_busbw))),
      part: sizeText(e.part_bytes), ratio: ratios ? pct(ratios.ratio) : "-",
    };
    $("explain-chart-desc").textContent = e.parted ? t("explain.chart.desc", desc) : t("explain.chart.desc.ok", desc);
  };
})();
