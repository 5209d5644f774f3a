// The canvas page: loads the WebAssembly simulation, wires the playback
// controls and the keys, and relays postMessage commands and events between
// the Go program and a parent page (a lesson, or a doc author's page).
(() => {
  "use strict";
  performance.mark("fabriclab-script");
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  if (params.get("controls") === "0") document.body.classList.add("nocontrols");
  if (params.get("theme") === "light") document.body.classList.add("light"); // the bar and the boxes follow the canvas
  const version = (document.querySelector('script[src^="static/embed.js"]').src.split("?v=")[1]) || "";
  const framed = window.parent !== window;
  // lang=zh: the page's own words in Chinese (the canvas draws its own).
  // They come from the catalogue (package i18n) in embed.html: elements
  // with data-t, data-t-title or data-t-label take theirs; t(key, ...)
  // fills a message's {} holes in order.
  const zh = params.get("lang") === "zh";
  const words = JSON.parse($("words").textContent)[zh ? "zh" : "en"];
  const t = (key, ...args) => { let i = 0; return (words[key] ?? key).replace(/\{\}/g, () => String(args[i++])); };
  if (zh) {
    document.documentElement.lang = "zh-Hans";
    for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
    for (const e of document.querySelectorAll("[data-t-title]")) e.title = t(e.dataset.tTitle);
    for (const e of document.querySelectorAll("[data-t-label]")) e.setAttribute("aria-label", t(e.dataset.tLabel));
    $("loading").querySelector(".box").firstChild.textContent = t("embed.loading");
    $("play-hint").firstChild.textContent = t("embed.play-hint");
  }

  const post = (msg) => { if (framed) window.parent.postMessage(msg, "*"); };

  // What the Go runtime writes to stderr (wasm_exec.js writes through
  // globalThis.fs.writeSync): the last few KiB, to explain a crash.
  let stderr = "";
  if (globalThis.fs && globalThis.fs.writeSync) {
    const write = globalThis.fs.writeSync.bind(globalThis.fs);
    const decoder = new TextDecoder("utf-8");
    globalThis.fs.writeSync = (fd, buf) => {
      if (fd === 2) stderr = (stderr + decoder.decode(buf)).slice(-8192);
      return write(fd, buf);
    };
  }
  const smaller = t("embed.error.smaller");
  // explain turns how the program ended (its stderr, an exception's text,
  // the exit code) into what happened and what to try.
  const explain = (text, code) => {
    const all = text + "\n" + stderr;
    const lines = all.split("\n").filter((l) => /fatal error|panic|out of memory|goroutine \d|memory/i.test(l)).slice(0, 4).join("\n");
    if (/out of memory|cannot allocate|Maximum memory size|Memory\.grow|Out of memory|allocation failed/i.test(all)) {
      return t("embed.error.memory") + "\n" + smaller + (lines ? "\n\n" + t("embed.error.runtime-said") + "\n" + lines : "");
    }
    if (/fatal error|panic:|RuntimeError|unreachable/i.test(all)) {
      return t("embed.error.crash") + "\n" + t("embed.error.reload") + smaller + "\n\n" + t("embed.error.it-said") + "\n" + (lines || text);
    }
    return (code ? t("embed.error.exited.code", code) : t("embed.error.exited")) + "\n" + t("embed.error.again") + smaller;
  };
  window.fabriclabExplain = explain; // for tests

  // An error from the Go program (a bad scenario, one too big for the
  // browser) shows until the next scenario loads; a fatal one (the program
  // could not start, or ended) stays. Every error reaches the parent.
  let stopped = false;
  let exited = false; // the Go program has ended (go.exit)
  const showError = (message, recoverable) => {
    post({ fabriclab: "error", message, fatal: !recoverable });
    if (stopped) return;
    stopped = !recoverable;
    $("loading").hidden = true;
    $("play-hint").hidden = true;
    $("error").querySelector("h2").textContent = recoverable ? t("embed.cannot-play") : t("embed.stopped");
    $("error-text").textContent = message;
    $("error-hint").textContent = recoverable
      ? t("embed.error.recoverable")
      : t("embed.error.fatal");
    $("error").hidden = false;
  };
  // An error in the page stops the canvas only if the program is gone: it
  // exited, or WebAssembly trapped (a RuntimeError, or the error came out of
  // the program's code). Any other is reported to the parent, and the
  // canvas runs on.
  const pageError = (err, text) => {
    const stack = String(err && err.stack || "");
    if (exited || err instanceof WebAssembly.RuntimeError || /wasm-function|wasm:\/\//.test(stack)) {
      showError(explain(text));
      return;
    }
    post({ fabriclab: "error", message: "The page hit an error; the canvas runs on: " + text, fatal: false });
  };
  window.addEventListener("error", (e) => pageError(e.error, String(e.message || e.error || "script error")));
  window.addEventListener("unhandledrejection", (e) => pageError(e.reason, String(e.reason && e.reason.message || e.reason)));

  // Reduced motion: play=1 (or a load that asks to play) waits for a click
  // or Space, with a visible hint. The program reads the address itself, so
  // play=1 leaves it before the program starts.
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let holdPlay = false;
  if (reduced && params.has("play") && !["0", "false", "no"].includes(params.get("play"))) {
    params.delete("play");
    history.replaceState(null, "", location.pathname + "?" + params.toString() + location.hash);
    holdPlay = true;
  }
  // knobs=: the panel (embedknobs.js); a knob without set= puts its first value in the address.
  if (fabriclabEmbedKnobs.setup(params, t, (c) => command(c), (m) => { post({ fabriclab: "error", message: m, notice: true }); fabriclabNotice.show(m); })) {
    history.replaceState(null, "", location.pathname + "?" + params.toString() + location.hash);
  }
  // The canvas's first run, begun in its worker now (worker-client.js),
  // while the canvas's module still compiles and its program starts: the
  // address's run, or with first=load (a lesson's canvas) the parent's first
  // load, as it comes (command, below), before the canvas is ready or after
  // (the canvas, waiting for it, has made no worker). The address is final
  // here (the knobs have written theirs).
  const firstLoad = params.get("first") === "load";
  if (!firstLoad) fabriclabEarlyRun(null);
  const hint = $("play-hint");
  hint.addEventListener("click", () => { hint.hidden = true; command({ fabriclab: "play" }); });

  // encode is a command as the JSON the program reads, or an Error saying
  // which field JSON cannot carry (JSON.stringify throws on a BigInt or a
  // cycle) or that the command is too long. Structured cloning, which
  // postMessage does, keeps both.
  const maxCommand = 128 << 10; // what the program reads (protocol.DecodeCommand)
  const encode = (c) => {
    const within = []; // the objects the walk is inside, to find cycles
    let size = 0;
    const tooLong = (what) => new Error("the command is " + what + ": the canvas takes at most " + (maxCommand >> 10) + " KiB of JSON (a load's yaml at most 64 KiB)");
    const walk = (v, at, depth) => {
      size += 1 + (typeof v === "string" ? v.length : 0);
      if (size > maxCommand) throw tooLong("too long");
      if (depth > 32) throw new Error("its field " + at + " is nested more than 32 deep: send plain data");
      if (typeof v === "bigint") {
        throw new Error("its field " + at + " is a BigInt (" + v + "n), which JSON cannot carry: send a Number, e.g. " + Number(v));
      }
      if (v === null || typeof v !== "object") return;
      if (within.includes(v)) {
        throw new Error("its field " + at + " holds an object it is part of (a cycle), which JSON cannot carry: send plain data (numbers, strings, lists and objects that contain no object twice)");
      }
      within.push(v);
      for (const k of Object.keys(v)) walk(v[k], Array.isArray(v) ? at + "[" + k + "]" : at + "." + k, depth + 1);
      within.pop();
    };
    try {
      walk(c, "command", 0);
      const json = JSON.stringify(c);
      if (json.length > maxCommand) throw tooLong(Math.ceil(json.length / 1024) + " KiB");
      return json;
    } catch (err) {
      const name = typeof c.fabriclab === "string" ? JSON.stringify(c.fabriclab.slice(0, 40)) : "";
      return new Error("Command " + name + " not sent: " + err.message);
    }
  };
  // A command the page cannot send is an error event about it, shown as a
  // notice (notice.js), and the canvas runs on.
  const refuse = (message, name) => {
    post({ fabriclab: "error", message, command: typeof name === "string" ? name : "" });
    fabriclabNotice.show(message);
  };

  // Commands reach Go through fabriclabCommand once it is ready; until then
  // they queue (at most maxQueued: a parent should wait for ready).
  const queue = [];
  const maxQueued = 256;
  let ready = false;
  const command = (c) => {
    const json = encode(c);
    if (json instanceof Error) { refuse(json.message, c.fabriclab); return; }
    if (firstLoad && c.fabriclab === "load") fabriclabEarlyRun(JSON.parse(json)); // the first only: then worker 0 is made
    if (ready && typeof window.fabriclabCommand === "function") window.fabriclabCommand(json);
    else if (queue.length < maxQueued) queue.push(json);
    else refuse("Command not sent: " + maxQueued + " commands already wait for the canvas to start; wait for its ready event.", c.fabriclab);
  };
  window.addEventListener("message", (e) => {
    const d = e.data;
    if (typeof d === "string" && d.includes("fabriclab")) {
      // The example is the command itself, when the text is one.
      let example = "{fabriclab: \"play\"}", name = "";
      try { const o = JSON.parse(d); if (o && typeof o.fabriclab === "string" && d.length <= 200) { example = d; name = o.fabriclab; } } catch (_) { /* not JSON: the general example */ }
      refuse("A message is text, not a command: send the object itself, e.g. postMessage(" + example + ", \"*\"), not JSON text.", name);
      return;
    }
    if (!d || typeof d !== "object" || !("fabriclab" in d)) return; // not for the canvas
    if (typeof d.fabriclab !== "string") {
      refuse("A command's fabriclab field is its name, a string (e.g. {fabriclab: \"play\"}); this one is " + (Array.isArray(d.fabriclab) ? "a list" : d.fabriclab === null ? "null" : "a " + typeof d.fabriclab) + ".");
      return;
    }
    // keys (the page's own, not the program's): {fabriclab: "keys", parent: true} says
    // the parent handles the lesson's keys (lessonKeys, presenterKeys, F and ?), which
    // then go to it as key events. focus: true gives the canvas the focus (after the
    // parent's ? list closes); fullscreen: the parent's full screen is on or off.
    if (d.fabriclab === "keys") {
      if ("parent" in d) { parentKeys = !!d.parent; setArrowsHelp(); }
      if ("fullscreen" in d) fs.setAttribute("aria-pressed", String(!!d.fullscreen));
      if (d.focus && canvas()) canvas().focus();
      return;
    }
    if (d.fabriclab === "load" && d.play && reduced) { d.play = false; holdPlay = true; }
    if (d.fabriclab === "presenter") document.body.classList.toggle("presenter", !!d.on); // big text in the page's parts too
    if (d.fabriclab === "quiz") quizPending = !!d.pending; // the program answers with a time event, shown so
    command(d);
  });
  // A lesson (the same site's page around this frame) sends its first load
  // once asked: now, rather than at this frame's load event, which waits for
  // its fonts and modules (a warm lesson: 50–300 ms later), so that the
  // first run's worker begins sooner. Another origin's page is not asked.
  if (firstLoad && window.parent !== window) {
    try { if (typeof window.parent.fabriclabCanvasListening === "function") window.parent.fabriclabCanvasListening(window); } catch (_) { /* another origin */ }
  }

  const fmtTime = (us) => us >= 1e6 ? (us / 1e6).toFixed(3) + " s" : us >= 1000 ? (us / 1000).toFixed(3) + " ms" : us.toFixed(us < 10 ? 3 : 1) + " µs";
  let endUs = 0, scrubbing = false, scenarioName = "";
  // quiz: the lesson's step has a quiz to answer: the bar's end time shows as "?" (it is often the answer).
  let quizPending = false;
  const fmtEnd = (us) => quizPending ? "?" : fmtTime(us);
  // The canvas Ebitengine made: first in the tab order (tabindex 0, not its
  // 1), with a name, described by the live summary.
  const canvas = () => document.querySelector("canvas");
  const nameCanvas = () => {
    const c = canvas();
    if (!c) return;
    // Into the page's main landmark (display: contents: the layout is the body's), after its heading.
    const stage = $("stage");
    if (c.parentNode !== stage) $("canvas-title").after(c);
    c.setAttribute("tabindex", "0");
    c.setAttribute("role", "img");
    const name = scenarioName ? t("embed.canvas.named", scenarioName) : t("embed.canvas");
    c.setAttribute("aria-label", name);
    $("canvas-title").textContent = name;
    c.inert = !$("loading").hidden || !$("error").hidden;
    c.setAttribute("aria-describedby", "summary");
  };
  // Events from Go: update the controls, then tell the parent.
  // It never throws: an exception here would become a panic in the program.
  window.fabriclabEvent = (json) => {
    try {
      handleEvent(JSON.parse(json));
    } catch (err) {
      console.error(err);
      post({ fabriclab: "error", message: "The page could not handle an event from the canvas: " + err.message, fatal: false });
    }
  };
  const handleEvent = (ev) => {
    // Where the first frame's time goes (performance.getEntriesByType("mark")).
    if (ev.fabriclab === "ready" || ev.fabriclab === "loaded" || ev.fabriclab === "frame") performance.mark("fabriclab-" + ev.fabriclab);
    switch (ev.fabriclab) {
      case "ready":
        ready = true;
        if (!location.search) $("loading").hidden = true; // else the first scenario builds next: hidden once loaded
        nameCanvas();
        while (queue.length && typeof window.fabriclabCommand === "function") window.fabriclabCommand(queue.shift());
        break;
      case "time": {
        endUs = ev.end_us;
        if (!scrubbing) $("timeline").value = endUs > 0 ? Math.round(1000 * ev.t_us / endUs) : 0;
        const computing = !ev.done && typeof ev.progress === "number" && ev.progress < 1;
        let left = "";
        if (computing && typeof ev.eta_s === "number" && ev.eta_s >= 0) left = " · " + t("embed.left", Math.ceil(ev.eta_s));
        // While computing the bar says so (paused, the canvas leaves its progress to this bar),
        // in a line of its own over the timeline, so the bar's buttons keep their room.
        const pct = computing && ev.progress >= 0 ? " " + Math.floor(100 * ev.progress) + " %" : "";
        const time = $("time"), status = $("computing-status");
        time.textContent = fmtTime(ev.t_us) + " / " + fmtEnd(ev.end_us) + (ev.done || computing ? "" : left || " …");
        status.textContent = computing ? t("embed.computing") + pct + left : "";
        status.hidden = !computing;
        $("timeline").setAttribute("aria-valuetext", t("embed.timeline.value", fmtTime(ev.t_us), fmtEnd(ev.end_us)));
        const bar = $("computing");
        bar.hidden = !computing;
        if (computing) {
          bar.classList.toggle("unknown", ev.progress < 0);
          $("computing-bar").style.width = ev.progress < 0 ? "" : Math.round(100 * ev.progress) + "%";
          bar.title = t("embed.computing.title") + (ev.progress >= 0 ? " " + Math.round(100 * ev.progress) + " %" : "") + left;
        }
        $("play-icon").setAttribute("d", ev.playing ? "M3 2h4v12H3zM9 2h4v12H9z" : "M3 2v12l11-6z");
        $("play").setAttribute("aria-label", ev.playing ? t("embed.pause") : t("embed.play"));
        $("speed").textContent = fmtTime(ev.speed_us) + "/s";
        $("faster").title = t("embed.faster.now", fmtTime(ev.speed_us));
        $("slower").title = t("embed.slower.now", fmtTime(ev.speed_us));
        if (ev.playing) hint.hidden = true;
        fabriclabEmbedKnobs.playing(ev.playing);
        fabriclabCanvasTable.playing(ev.playing);
        break;
      }
      case "loaded":
        $("loading").hidden = true;
        if (!stopped) $("error").hidden = true;
        scenarioName = ev.name;
        nameCanvas();
        $("status").textContent = t("embed.loaded", ev.name);
        fabriclabCanvasTable.loaded(!!ev.compare);
        fabriclabEmbedKnobs.loaded();
        if (holdPlay && !stopped) { holdPlay = false; hint.hidden = false; }
        break;
      case "summary": // in the page's language (lang=zh: Chinese), marked so
        $("summary").lang = zh ? "zh-Hans" : "en";
        $("summary").textContent = ev.text;
        fabriclabCanvasTable.summary(ev.text);
        break;
      case "view": fabriclabCanvasTable.view(ev); break; // canvastable.js
      case "tooltip": $("status").textContent = ev.text; inspecting = ev.text !== ""; break; // the keyboard's tooltip, read out
      case "frame":
        window.fabriclabFirstFrameMs = performance.now();
        // On screen: the next animation frame comes once this one's picture
        // has been composited (on software WebGL, read back).
        requestAnimationFrame(() => performance.mark("fabriclab-shown"));
        break;
      case "stats":
        window.fabriclabStats = ev;
        break;
      case "error":
        // A wrong command or parameter (left out): a notice over the canvas, which plays on.
        if (ev.notice || "command" in ev) fabriclabNotice.show(ev.message);
        else { showError(ev.message, true); return; }
        break;
    }
    post(ev);
  };

  const bind = (id, c) => $(id).addEventListener("click", () => command({ fabriclab: c }));
  bind("play", "toggle"); bind("step", "step"); bind("back", "back"); bind("reset", "reset");
  bind("faster", "faster"); bind("slower", "slower");
  const tl = $("timeline");
  tl.addEventListener("input", () => { scrubbing = true; command({ fabriclab: "seek", t_us: endUs * tl.value / 1000 }); });
  tl.addEventListener("change", () => { scrubbing = false; });

  // Full screen: the button, and F.
  const fs = $("fullscreen");
  if (!document.fullscreenEnabled) fs.hidden = true;
  const toggleFullscreen = () => {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (document.fullscreenEnabled) document.documentElement.requestFullscreen().catch(() => {});
  };
  // In a lesson the page's full screen keeps the step's title above the canvas: F goes there.
  fs.addEventListener("click", () => { if (parentKeys) post({ fabriclab: "key", key: "f" }); else toggleFullscreen(); });
  document.addEventListener("fullscreenchange", () => fs.setAttribute("aria-pressed", String(!!document.fullscreenElement)));

  // The ? list of keys, closed by Esc, ? or its button; focus comes back.
  const keys = $("keys");
  let before = null;
  // A modal <dialog>: Tab stays inside; its hidden attribute follows it (for tests).
  const showKeys = (on) => {
    if (on === !keys.hidden) return;
    keys.hidden = !on;
    if (on) { before = document.activeElement; keys.showModal(); $("keys-close").focus(); } else { keys.close(); if (before && before.focus) before.focus(); }
  };
  $("help").addEventListener("click", () => showKeys(true));
  $("keys-close").addEventListener("click", () => showKeys(false));
  keys.addEventListener("cancel", (e) => { e.preventDefault(); showKeys(false); }); // Esc
  let parentKeys = false;
  const setArrowsHelp = () => {
    $("keys-arrows-what").textContent = parentKeys ? t("embed.key.lesson") : t("embed.key.step");
  };
  window.fabriclabKeysShown = () => !keys.hidden; // for tests
  // Nothing under the loading or error overlay takes the focus: the bar, the canvas and its table are inert while one shows.
  const covered = () => {
    const on = !$("loading").hidden || !$("error").hidden;
    for (const el of [document.querySelector(".controls"), canvas(), $("canvas-table")]) if (el) el.inert = on;
  };
  for (const id of ["loading", "error"]) new MutationObserver(covered).observe($(id), { attributes: true, attributeFilter: ["hidden"] });
  covered();

  // Keys. This listener sees every key first (capture on the window) and
  // keeps keys from the canvas, whose Ebitengine handler would swallow them
  // all (Tab included: focus could never leave). Keys on a control (a
  // button, the timeline) do what they do there; the lesson's keys go to
  // the parent page, which acts as if they were pressed there.
  const lessonKeys = ["ArrowLeft", "ArrowRight", "PageUp", "PageDown", "p", "P"];
  // A clicker's and a presenter's keys, for the lesson only: Home End, a step's number
  // then Enter, b and . (blank), o and Esc (the overview), F (full screen with the step's title),
  // T (the step's text over a comparison that takes the whole width).
  const presenterKeys = /^([0-9]|Home|End|Enter|Escape|[bBoO.fFtT])$/;
  const playKeys = { " ": "toggle", ".": "step", ",": "back", "r": "reset", "R": "reset", "+": "faster", "=": "faster", "-": "slower", "]": "nextflow", "[": "prevflow" };
  window.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    const text = tag === "SELECT" || tag === "TEXTAREA";
    if ((e.key === "Escape" || e.key === "?") && !keys.hidden) { e.preventDefault(); showKeys(false); return; }
    if (e.key === "Escape" && fabriclabNotice.shown() && !inspecting && !parentKeys) { e.preventDefault(); fabriclabNotice.hide(); return; }
    if (!fabriclabShortcuts.acts(e.key, e.target)) return; // shortcuts.js: not on a control, and not when turned off
    if (e.key === "?" && parentKeys && keys.hidden) { e.preventDefault(); post({ fabriclab: "key", key: e.key }); return; }
    if (e.key === "?") { e.preventDefault(); showKeys(keys.hidden); return; }
    if (!keys.hidden || e.key === "Tab") return;
    if (inspect(e)) return;
    if (e.key === " " && tag === "BUTTON") return;
    if ((e.key.startsWith("Arrow") || e.key.startsWith("Page") || e.key === "Home" || e.key === "End") && tag === "INPUT") return;
    if (parentKeys && !text && presenterKeys.test(e.key) && !(e.key === "Enter" && (tag === "BUTTON" || tag === "INPUT"))) {
      e.preventDefault();
      post({ fabriclab: "key", key: e.key });
      return;
    }
    if (e.key === "Enter") return;
    if (e.key === "f" || e.key === "F") { e.preventDefault(); toggleFullscreen(); return; }
    if (lessonKeys.includes(e.key)) {
      e.preventDefault();
      if (parentKeys) post({ fabriclab: "key", key: e.key });
      else if (e.key === "ArrowRight" || e.key === "PageDown") command({ fabriclab: "step" });
      else if (e.key === "ArrowLeft" || e.key === "PageUp") command({ fabriclab: "back" });
      return;
    }
    if (playKeys[e.key] && !text) {
      e.preventDefault();
      if (e.key === " ") hint.hidden = true;
      command({ fabriclab: playKeys[e.key] });
    }
  }, true);
  window.addEventListener("keyup", (e) => e.stopPropagation(), true);
  // ↓ ↑ on the canvas highlight its next, previous node or link and show its
  // tooltip (inspect); Esc, or the focus leaving the canvas, closes it (WCAG 1.4.13).
  let inspecting = false;
  const inspect = (e) => {
    if (e.target !== canvas() || e.shiftKey) return false;
    const dir = { ArrowDown: 1, ArrowUp: -1 }[e.key] ?? (e.key === "Escape" && inspecting ? 0 : null);
    if (dir === null) return false;
    e.preventDefault();
    inspecting = dir !== 0;
    command({ fabriclab: "inspect", dir });
    return true;
  };
  window.addEventListener("focusout", (e) => {
    if (inspecting && e.target === canvas()) { inspecting = false; command({ fabriclab: "inspect", dir: 0 }); }
  }, true);
  // The canvas's focus ring shows when the keyboard moved the focus, not after a click or tap.
  window.addEventListener("pointerdown", () => document.body.classList.add("pointer"), true);
  // Clicks and taps on the canvas go to the program as commands: Ebitengine
  // polls input once a frame, and a tap shorter than a frame (frames are slow
  // while a run computes) would be lost.
  window.addEventListener("pointerdown", (e) => {
    const c = canvas();
    if (!c || e.target !== c || e.button > 0) return;
    const r = c.getBoundingClientRect();
    command({ fabriclab: "tap", x: Math.max(0, e.clientX - r.left), y: Math.max(0, e.clientY - r.top), touch: e.pointerType !== "mouse" });
  }, true);
  window.addEventListener("touchstart", () => document.body.classList.add("pointer"), { capture: true, passive: true });
  window.addEventListener("keydown", (e) => { if (e.key === "Tab") document.body.classList.remove("pointer"); }, true);

  // Ebitengine's clear of the canvas as a gl.clear. Before each frame it
  // shows, Ebitengine (v2.10, internal/ui's drawGame) clears the screen by
  // drawing one quad over it that samples a texture: on software WebGL
  // (SwiftShader) a pass over every pixel that cost about 13 ms a frame.
  // gl.clear gives the same pixels (transparent black, within the scissor
  // Ebitengine set to the draw's region) for a fraction of that. A frame's
  // first draw onto the screen is always that clear, so the first draw onto
  // the default framebuffer in an animation frame, if it is one quad, is done
  // as a clear; the Go program hands its context here when its screen is
  // transparent (canvas_js.go). A frame drawn outside an animation frame
  // after one that drew (on input while paused) keeps Ebitengine's clear.
  // requestAnimationFrame is wrapped, to count the animation frames, before
  // the WebAssembly starts: Ebitengine takes the function as it initialises.
  // BENCHMARKS.md, "The canvas's clear as a gl.clear", has the figures.
  let animationFrames = 0;
  const requestFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (f) => requestFrame((t) => { animationFrames++; f(t); });
  window.fabriclabScreenClears = 0; // for the tests
  window.fabriclabClearScreenFast = (gl) => {
    const bind = gl.bindFramebuffer.bind(gl), drawElements = gl.drawElements.bind(gl);
    let screen = true; // the default framebuffer (null) is bound
    let drawn = -1;    // the animation frame of the last draw onto the screen
    gl.bindFramebuffer = (target, fb) => { screen = fb == null; bind(target, fb); };
    gl.drawElements = (mode, count, type, offset) => {
      if (screen) {
        const first = drawn !== animationFrames;
        drawn = animationFrames;
        if (first && count === 6) {
          gl.clearColor(0, 0, 0, 0);
          gl.clear(gl.COLOR_BUFFER_BIT);
          window.fabriclabScreenClears++;
          return;
        }
      }
      drawElements(mode, count, type, offset);
    };
  };

  // Load and start the Go program. It reads the page's parameters from
  // location.search itself: go.argv is capped at 12 KiB by wasm_exec.js, far
  // below what yaml= and set= are documented to take.
  const go = new Go();
  let exitCode = 0;
  const exit = go.exit;
  go.exit = (code) => { exitCode = code; exited = true; exit.call(go, code); };
  const url = "viz.wasm" + (version ? "?v=" + version : ""); // as an error names it
  const start = (instance) => {
    performance.mark("fabriclab-instantiated");
    // The WebAssembly memory's size in bytes, for tests and memory checks (it
    // only ever grows: what matters is that loads reuse it).
    const mem = instance.exports.mem;
    window.fabriclabMemoryBytes = () => mem.buffer.byteLength;
    return go.run(instance).then(() => showError(explain("", exitCode)));
  };
  // viz.wasm has been compiling since the head (modules.js).
  const loading = fabriclabModule("viz.wasm").then((mod) => WebAssembly.instantiate(mod, go.importObject));
  // The canvas's fonts are files beside viz.wasm (assets.WebFontNames), fetched
  // while it compiles; the program reads them from fabriclabFonts as it starts.
  // With their families and weights as render's SVG names them (assets.FontFamily), for
  // editor.js's PNG export.
  const fontFaces = globalThis.fabriclabFontFaces = [["go-regular.ttf", "Go", 400, "truetype"], ["go-medium.ttf", "Go", 500, "truetype"],
    ["go-bold.ttf", "Go", 700, "truetype"], ["noto-sans-sc-subset-regular.otf", "Noto Sans CJK SC", 400, "opentype"],
    ["noto-sans-sc-subset-bold.otf", "Noto Sans CJK SC", 700, "opentype"]];
  const fontNames = fontFaces.map((f) => f[0]);
  const fonts = Promise.all(fontNames.map((n) => fetch("static/fonts/" + n + (version ? "?v=" + version : "")).then((r) => {
    if (!r.ok) throw new Error("static/fonts/" + n + ": " + r.status + " " + r.statusText);
    return r.arrayBuffer();
  }))).then((bufs) => {
    performance.mark("fabriclab-fonts");
    globalThis.fabriclabFonts = Object.fromEntries(bufs.map((b, i) => [fontNames[i], new Uint8Array(b)]));
  });
  $("progress").style.width = "60%";
  loading.then((result) => fonts.then(() => start(result), (err) => showError(t("embed.error.fonts", err.message))))
    .catch((err) => fabriclabHostTrouble(url, err, t).then((why) => showError(why || (/memory/i.test(String(err)) ? explain(String(err)) : t("embed.error.wasm", err)))));
})();
