// The canvas as a table (WCAG 1.1.1): a disclosure under the canvas with the
// summary, the links (down and degraded ones, then the busiest) first, the flows, the nodes and a data table per
// chart, from the canvas's view events (protocol.View, at most one a second).
// The tables are drawn only while it is open, without moving the focus; the
// status line says when they changed, only while playback stands still.
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const root = $("canvas-table");
  if (!root) return;
  const zh = new URLSearchParams(location.search).get("lang") === "zh";
  const words = JSON.parse($("words").textContent)[zh ? "zh" : "en"];
  const t = (key, ...args) => { let i = 0; return (words[key] ?? key).replace(/\{\}/g, () => String(args[i++])); };
  if (zh) root.lang = "zh-Hans";
  const fmtTime = (us) => us >= 1e6 ? +(us / 1e6).toFixed(3) + " s" : us >= 1000 ? +(us / 1000).toFixed(3) + " ms" : +us.toFixed(1) + " µs";
  let view = null, playing = false, shown = null;

  // table is a <table> with a caption, column headers and rows whose first
  // cell heads its row; more counts the rows left out.
  const table = (caption, heads, rows, more) => {
    const tb = document.createElement("table");
    tb.createCaption().textContent = caption + (more > 0 ? " (" + t("embed.table.more", more) + ")" : "");
    const hr = tb.createTHead().insertRow();
    for (const h of heads) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      hr.append(th);
    }
    const body = tb.createTBody();
    for (const r of rows) {
      const tr = body.insertRow();
      r.forEach((c, i) => {
        const cell = document.createElement(i === 0 ? "th" : "td");
        if (i === 0) cell.scope = "row";
        cell.textContent = c;
        tr.append(cell);
      });
    }
    return tb;
  };

  // flowTable lists the flows, with their traffic class when the run has several.
  const flowTable = (view, at) => {
    const classes = view.flows.some((f) => f.class);
    const heads = [t("embed.table.flow"), t("embed.table.rate"), t("embed.table.state")].concat(classes ? [t("embed.table.class")] : []);
    return table(t("embed.table.flows", at), heads, view.flows.map((f) =>
      [f.name, f.rate, f.done ? t("embed.table.done") : t("embed.table.running")].concat(classes ? [f.class || ""] : [])), view.more_flows);
  };

  const draw = () => {
    if (!root.open || !view || shown === view) return;
    shown = view;
    const at = fmtTime(view.t_us);
    const out = [];
    for (const v of view.sides || [view]) { // a comparison: each run under its name
      if (view.sides) {
        const h = document.createElement("h3");
        h.textContent = v.label;
        out.push(h);
      }
      out.push(...runTables(v, at, view.sides ? (c) => t("embed.table.side", v.label, c) : (c) => c));
    }
    $("canvas-table-tables").replaceChildren(...out.filter((el) => el.tagName !== "TABLE" || el.tBodies[0].rows.length));
    if (!playing) $("canvas-table-status").textContent = t("embed.table.updated", at);
  };

  // runTables are one run's tables; named(caption) puts its name in a comparison.
  const runTables = (view, at, named) => {
    const yes = (b) => b ? t("embed.table.yes") : t("embed.table.no");
    const faults = view.links.some((l) => l.state); // a column for down and degraded links when there are some
    const out = [
      table(faults ? t("embed.table.links.faults", at) : t("embed.table.links", at), [t("embed.table.from"), t("embed.table.to"), t("embed.table.load"), t("embed.table.queue"), t("embed.table.paused")].concat(faults ? [t("embed.table.fault")] : []),
        view.links.map((l) => [l.from, l.to, l.load_pct + " %", l.queue, yes(l.paused)].concat(faults ? [l.state || t("embed.table.up")] : [])), view.more_links),
      flowTable(view, at),
    ];
    for (const c of view.charts) { // a table of its lines, or its title and words
      const p = document.createElement("p");
      p.textContent = c.notes.join(" · ");
      if (c.rows.length) out.push(table(t("embed.table.chart", c.title), [t("embed.table.time")].concat(c.columns.slice(1)), c.rows, 0));
      else p.textContent = c.notes.length ? t("embed.table.chart.notes", c.title, p.textContent) : t("embed.table.chart", c.title);
      if (p.textContent) out.push(p);
    }
    out.push(table(t("embed.table.nodes"), [t("embed.table.node"), t("embed.table.kind"), t("embed.table.group")],
      view.nodes.map((n) => [n.name, n.kind, n.group]), view.more_nodes));
    for (const el of out) if (el.tagName === "TABLE") el.caption.textContent = named(el.caption.textContent);
    return out;
  };
  root.addEventListener("toggle", draw);

  // Hooks for embed.js: view and summary events, and whether playback plays.
  window.fabriclabCanvasTable = {
    view(ev) { view = ev; draw(); },
    // A new run: no tables until its first view.
    loaded(compare) {
      view = shown = null;
      const p = document.createElement("p");
      p.textContent = compare ? t("embed.table.compare") : t("embed.table.empty");
      $("canvas-table-tables").replaceChildren(p);
    },
    summary(text) { $("canvas-table-summary").textContent = text; },
    playing(on) { playing = on; },
  };
})();
