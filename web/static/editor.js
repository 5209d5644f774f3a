// The embed page's scenario editor (editor=1) and its Export menu (download
// the frame on screen as PNG or SVG, copy the iframe code for it). Loaded
// before embed.js so that its key handler sees keys in the editor first; it
// talks to the canvas through the page's own postMessage channel (embed.js
// relays commands) and hears the canvas's events by wrapping fabriclabEvent.
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  // The page's words, from the catalogue in embed.html (embed.js says more).
  const words = JSON.parse($("words").textContent)[params.get("lang") === "zh" ? "zh" : "en"];
  const t = (key, ...args) => { let i = 0; return (words[key] ?? key).replace(/\{\}/g, () => String(args[i++])); };
  const on = (v) => v !== null && !["0", "false", "no"].includes(v);
  const editing = on(params.get("editor"));
  // The editor and the Export menu follow the canvas's theme (editor.css).
  if (params.get("theme") === "light") for (const id of ["editor", "share-menu"]) $(id).classList.add("light");
  // Commands go through embed.js's message listener, which passes them to the
  // canvas (queued until it is ready). Until embed.js has run (the parser may
  // run tasks before it, while it loads), they wait here: a message posted
  // then would find no listener.
  let pending = [];
  const send = (c) => { if (pending) pending.push(c); else window.postMessage(c, "*"); };

  // What the canvas shows, for the embed code: a built-in with set=, or YAML.
  let shown = params.get("yaml") ? { yaml: decode64(params.get("yaml")), set: params.getAll("set") }
    : { scenario: params.get("scenario") || "incast", set: params.getAll("set") };
  let tUs = 0, loaded = false, name = "";

  function decode64(s) {
    try {
      const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, ""));
      return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    } catch (e) { return ""; }
  }
  const encode64 = (s) => {
    const bytes = new TextEncoder().encode(s);
    let bin = "";
    for (let i = 0; i < bytes.length; i += 8192) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  window.fabriclabEncodeYAML = encode64; // for tests

  // Copying: the clipboard API where the page may use it (a frame needs
  // allow="clipboard-write"), else the selected text and execCommand, else
  // the text stays selected in a field to copy by hand.
  const copy = (text, field) => {
    const byHand = () => {
      field.hidden = false;
      field.value = text;
      field.focus();
      field.select();
      try { if (document.execCommand("copy")) return true; } catch (e) { /* refused */ }
      return false;
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).then(() => true, () => byHand());
    }
    return Promise.resolve(byHand());
  };

  // ---- Export menu ----
  const share = $("share"), menu = $("share-menu");
  const status = $("share-status");
  // refocus: closing gives the focus back to the Export button (not when the focus left by itself).
  const openMenu = (open, refocus = true) => {
    if (open === !menu.hidden) return;
    menu.hidden = !open;
    share.setAttribute("aria-expanded", String(open));
    if (open) { status.textContent = ""; $("share-png").focus(); } else if (refocus) share.focus();
  };
  let wantSnapshot = "", snapId = 0;
  const download = (blob, file) => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = file;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  };
  const fileName = (ext) => (name || "fabriclab").replace(/[^\w.-]+/g, "_") + "-" + (Math.round(tUs * 10) / 10) + "us." + ext;
  const gotSnapshot = (ev) => {
    if (ev.id !== snapId || !wantSnapshot) return;
    const format = wantSnapshot;
    wantSnapshot = "";
    if (format === "svg") {
      download(new Blob([ev.svg], { type: "image/svg+xml" }), fileName("svg"));
      status.textContent = t("editor.downloaded", fileName("svg"));
      window.fabriclabLastExport = { format, bytes: ev.svg.length, width: ev.width, height: ev.height };
      return;
    }
    // PNG: the browser draws the SVG on a 2D canvas at twice the size (or
    // the screen's pixel ratio, if more), so no rasteriser in the WebAssembly.
    // An SVG drawn as an image sees none of the page's fonts, so the canvas's
    // own fonts go into it (else the PNG had the system's, and no Chinese
    // where the system has no CJK font).
    const scale = Math.max(2, window.devicePixelRatio || 1);
    const withFonts = svgWithFonts(ev.svg);
    const img = new Image();
    img.onload = () => {
      const c = document.createElement("canvas");
      c.width = Math.round(ev.width * scale);
      c.height = Math.round(ev.height * scale);
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0, c.width, c.height);
      c.toBlob((blob) => {
        if (!blob) { status.textContent = t("editor.png-failed"); return; }
        download(blob, fileName("png"));
        status.textContent = t("editor.downloaded", fileName("png"));
        window.fabriclabLastExport = { format, bytes: blob.size, width: c.width, height: c.height, fonts: withFonts.fonts, blob, svg: ev.svg };
      }, "image/png");
    };
    img.onerror = () => { status.textContent = t("editor.draw-failed"); };
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(withFonts.svg);
  };
  // The canvas's fonts (embed.js's fabriclabFonts, listed in its
  // fabriclabFontFaces) as @font-face rules in the SVG.
  let fontCSS = null;
  const base64 = (bytes) => {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  };
  const svgWithFonts = (svg) => {
    if (fontCSS === null) {
      const have = globalThis.fabriclabFonts || {};
      fontCSS = (globalThis.fabriclabFontFaces || []).filter(([file]) => have[file]).map(([file, family, weight, kind]) =>
        "@font-face{font-family:'" + family + "';font-weight:" + weight + ";src:url(data:font/" + (kind === "truetype" ? "ttf" : "otf") +
        ";base64," + base64(have[file]) + ") format('" + kind + "')}");
    }
    if (!fontCSS.length) return { svg, fonts: 0 };
    const at = svg.indexOf(">", svg.indexOf("<svg")) + 1;
    return { svg: svg.slice(0, at) + "\n<defs><style>" + fontCSS.join("") + "</style></defs>" + svg.slice(at), fonts: fontCSS.length };
  };
  const snapshot = (format) => {
    if (!loaded) { status.textContent = t("editor.not-loaded"); return; }
    wantSnapshot = format;
    status.textContent = t("editor.preparing", format.toUpperCase());
    send({ fabriclab: "snapshot", id: ++snapId });
  };
  // The iframe code for what is on screen: the scenario (or its YAML), set=,
  // the time shown, and the page's look.
  const embedURL = (extra) => {
    const q = new URLSearchParams();
    if (shown.yaml !== undefined) q.set("yaml", encode64(shown.yaml)); else q.set("scenario", shown.scenario);
    for (const s of shown.set || []) q.append("set", s);
    for (const k of extra) if (params.has(k)) q.set(k, params.get(k));
    return location.origin + location.pathname + "?" + q.toString();
  };
  window.fabriclabEmbedURL = () => embedURL(["theme", "lang", "big", "controls"]); // for tests
  const embedCode = () => {
    let url = embedURL(["theme", "lang", "big", "controls"]);
    if (tUs > 0) url += "&t=" + (Math.round(tUs * 1000) / 1000);
    const title = "fabriclab: " + (name || shown.scenario || "scenario");
    const esc = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
    return '<iframe src="' + esc(url) + '" width="960" height="540" style="border:0" allow="fullscreen" title="' + esc(title) + '"></iframe>';
  };
  share.addEventListener("click", () => openMenu(menu.hidden));
  $("share-png").addEventListener("click", () => snapshot("png"));
  $("share-svg").addEventListener("click", () => snapshot("svg"));
  $("share-embed").addEventListener("click", () => {
    const code = embedCode();
    $("share-code-label").hidden = false;
    copy(code, $("share-code")).then((ok) => {
      $("share-code").hidden = false;
      $("share-code").value = code;
      status.textContent = ok ? t("editor.code-copied") : t("editor.code-copy-self");
    });
  });
  document.addEventListener("pointerdown", (e) => { if (!menu.hidden && !menu.contains(e.target) && !share.contains(e.target)) openMenu(false); }, true);
  // The menu closes when the focus leaves it (Tab past its end, a click elsewhere); a click on
  // its own background focuses the menu itself (tabindex -1), which keeps it open.
  menu.addEventListener("focusout", (e) => {
    const to = e.relatedTarget;
    if (to && (menu.contains(to) || to === share)) return;
    openMenu(false, false);
  });

  // ---- Editor ----
  const text = $("editor-text"), gutter = $("editor-gutter"), marks = $("editor-marks");
  const problemsEl = $("editor-problems"), state = $("editor-state"), note = $("editor-note");
  const lineHeight = 20, pad = 8; // editor.css: the textarea's line height and top padding
  let checkId = 0, checking = 0, runAfterCheck = false, checkTimer = 0, dirty = false, escaped = false;
  let problems = [], lastSaid = -1, sourceId = 0, gutterLines = 0;

  const drawGutter = () => {
    const n = text.value.split("\n").length;
    if (gutterLines !== n) {
      let s = "";
      for (let i = 1; i <= n; i++) s += i + "\n";
      gutter.textContent = s;
      gutterLines = n;
    }
    const bad = new Set(problems.filter((p) => p.line > 0).map((p) => p.line));
    marks.replaceChildren(...[...bad].map((line) => {
      const m = document.createElement("div");
      m.className = "editor-mark";
      m.dataset.line = line;
      m.style.top = (pad + (line - 1) * lineHeight - text.scrollTop) + "px";
      return m;
    }));
    gutter.style.transform = "translateY(" + (-text.scrollTop) + "px)";
  };
  const goToLine = (line) => {
    const lines = text.value.split("\n");
    let at = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
    text.focus();
    text.setSelectionRange(at, at + (lines[line - 1] || "").length);
    text.scrollTop = Math.max(0, (line - 3) * lineHeight);
    drawGutter();
  };
  const showProblems = () => {
    problemsEl.replaceChildren(...problems.map((p) => {
      const li = document.createElement("li");
      if (p.line > 0) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "editor-line";
        b.textContent = t("editor.line", p.line);
        b.addEventListener("click", () => goToLine(p.line));
        li.append(b, " ");
      }
      // The message without "scenario:4: ", which the button says.
      li.append(p.message.replace(/^scenario(:\d+)?: /, ""));
      return li;
    }));
    text.setAttribute("aria-invalid", String(problems.length > 0));
    const n = problems.length;
    state.className = "editor-state " + (n ? "bad" : "good");
    const said = n === 0 ? t("editor.ok") : n === 1 ? t("editor.problem.one") : t("editor.problem.many", n);
    // Say it only when the count changes: typing must not chatter.
    if (n !== lastSaid) { state.textContent = said; lastSaid = n; }
    drawGutter();
  };
  const check = () => {
    clearTimeout(checkTimer);
    checking = ++checkId;
    send({ fabriclab: "check", yaml: text.value, id: checking });
  };
  const run = () => {
    runAfterCheck = true;
    note.textContent = t("editor.checking");
    check();
  };
  const gotChecked = (ev) => {
    if (ev.id !== checking) return; // an older text's answer
    problems = ev.errors || [];
    showProblems();
    if (!runAfterCheck) return;
    runAfterCheck = false;
    if (problems.length) {
      note.textContent = t("editor.not-run");
      return;
    }
    shown = { yaml: text.value, set: [] };
    dirty = false;
    note.textContent = t("editor.running", ev.name || "");
    send({ fabriclab: "load", yaml: text.value, play: true });
  };
  const copyLink = () => {
    if (new TextEncoder().encode(text.value).length > 64 * 1024) {
      note.textContent = t("editor.too-long");
      return;
    }
    const q = new URLSearchParams();
    q.set("yaml", encode64(text.value));
    q.set("editor", "1");
    for (const k of ["theme", "lang", "big"]) if (params.has(k)) q.set(k, params.get(k));
    const url = location.origin + location.pathname + "?" + q.toString();
    window.fabriclabLastLink = url; // for tests
    const field = document.createElement("textarea");
    field.className = "editor-copy";
    field.setAttribute("aria-label", t("editor.link.field"));
    field.readOnly = true;
    note.replaceChildren();
    copy(url, field).then((ok) => {
      if (ok) { field.remove(); note.textContent = t("editor.link-copied"); } else {
        note.replaceChildren(t("editor.link.copy-self"), field);
        field.value = url;
        field.select();
      }
    });
  };
  const gotSource = (ev) => {
    if (ev.id !== sourceId) return;
    text.value = ev.yaml;
    dirty = false;
    check();
  };
  // Ask the canvas for the YAML to edit: a built-in with set= written in.
  const fetchSource = () => {
    const c = shown.yaml !== undefined ? { yaml: shown.yaml } : { scenario: shown.scenario };
    if (shown.set && shown.set.length) c.set = shown.set;
    send(Object.assign({ fabriclab: "source", id: ++sourceId }, c));
  };

  if (editing) {
    document.body.classList.add("editing");
    $("editor").hidden = false;
    text.addEventListener("input", () => {
      dirty = true;
      note.textContent = "";
      drawGutter();
      clearTimeout(checkTimer);
      checkTimer = setTimeout(check, 300);
    });
    text.addEventListener("scroll", drawGutter);
    $("editor-run").addEventListener("click", run);
    $("editor-link").addEventListener("click", copyLink);
    fetchSource();
  }

  // Keys in the editor and the menu are theirs: embed.js (whose listener
  // comes after this one) would take p, f, ?, arrows and Space for the canvas.
  window.addEventListener("keydown", (e) => {
    const el = e.target;
    if (!menu.hidden && e.key === "Escape") { e.preventDefault(); e.stopImmediatePropagation(); openMenu(false); return; }
    if (el === text) {
      e.stopImmediatePropagation();
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); return; }
      if (e.key === "Escape") { escaped = true; note.textContent = t("editor.tab-leaves"); return; }
      if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && !escaped) {
        e.preventDefault();
        if (!document.execCommand("insertText", false, "  ")) text.setRangeText("  ", text.selectionStart, text.selectionEnd, "end");
        return;
      }
      if (e.key !== "Shift") escaped = false;
      return;
    }
    if (menu.contains(el) || (el && el.closest && el.closest("#editor"))) {
      if (e.key === "Enter" || e.key === " " || e.key === "Tab") e.stopImmediatePropagation(); // a button's own keys
    }
  }, true);

  // The canvas's events, after embed.js has handled them (it defines
  // fabriclabEvent when it runs, after this script).
  const hear = (ev) => {
    switch (ev.fabriclab) {
      case "time": tUs = ev.t_us; break;
      case "loaded": loaded = true; name = ev.name; break;
      case "checked": gotChecked(ev); break;
      case "source": gotSource(ev); break;
      case "snapshot": gotSnapshot(ev); break;
      case "error":
        if (ev.command === "snapshot") { wantSnapshot = ""; status.textContent = ev.message; }
        if (ev.command === "source" && editing) note.textContent = ev.message;
        break;
    }
  };
  // A load from the parent (a lesson) changes what is on screen; the editor
  // follows it unless the learner has edited the text.
  window.addEventListener("message", (e) => {
    const d = e.data;
    if (e.source === window || !d || d.fabriclab !== "load") return;
    shown = typeof d.yaml === "string" && d.yaml ? { yaml: d.yaml, set: d.set || [] } : { scenario: d.scenario, set: d.set || [] };
    if (editing && !dirty) fetchSource();
  });
  // embed.js sets fabriclabEvent when it runs (after this script, and after
  // adding its message listener): the first value set is wrapped, so every
  // event is heard however early, and the waiting commands go.
  let handler;
  Object.defineProperty(window, "fabriclabEvent", {
    configurable: true,
    get: () => handler,
    set: (f) => {
      if (handler || typeof f !== "function") { handler = f; return; } // a later wrapper (a test's) wraps this one
      handler = (json) => { f(json); hear(JSON.parse(json)); };
      for (const c of pending) window.postMessage(c, "*"); // embed.js's listener is there now
      pending = null;
    },
  });
})();
