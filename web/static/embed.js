// The canvas page: loads the WebAssembly simulation, wires the playback
// controls, and relays postMessage commands and events between the Go program
// and a parent page (a lesson, or a doc author's page embedding this one).
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  if (params.get("controls") === "0") document.body.classList.add("nocontrols");
  const version = (document.querySelector('script[src^="static/embed.js"]').src.split("?v=")[1]) || "";

  const post = (msg) => { if (window.parent !== window) window.parent.postMessage(msg, "*"); };
  // An error from the Go program (a bad scenario, one too big for the
  // browser) shows until the next scenario loads; a fatal one (the program
  // could not start, or exited) stays.
  let stopped = false;
  const showError = (message, recoverable) => {
    if (stopped) return;
    stopped = !recoverable;
    $("loading").hidden = true;
    $("error-text").textContent = message;
    $("error-hint").textContent = recoverable
      ? "The message above says what to fix; the next scenario loaded replaces this one."
      : "Reload the page to try again. If it happens again, the message above says what to fix.";
    $("error").hidden = false;
    post({ fabriclab: "error", message });
  };
  window.addEventListener("error", (e) => showError(String(e.message || e.error || "script error")));
  window.addEventListener("unhandledrejection", (e) => showError(String(e.reason && e.reason.message || e.reason)));

  // Commands reach Go through fabriclabCommand once it is ready; until then they queue.
  const queue = [];
  const command = (c) => {
    if (typeof window.fabriclabCommand === "function") window.fabriclabCommand(JSON.stringify(c));
    else queue.push(c);
  };
  window.addEventListener("message", (e) => {
    const d = e.data;
    if (d && typeof d.fabriclab === "string") command(d);
  });

  const fmtTime = (us) => us >= 1e6 ? (us / 1e6).toFixed(3) + " s" : us >= 1000 ? (us / 1000).toFixed(3) + " ms" : us.toFixed(us < 10 ? 3 : 1) + " µs";
  let endUs = 0, scrubbing = false;
  // Events from Go: update the controls, then tell the parent.
  window.fabriclabEvent = (json) => {
    const ev = JSON.parse(json);
    switch (ev.fabriclab) {
      case "ready":
        $("loading").hidden = true;
        while (queue.length) command(queue.shift());
        break;
      case "time":
        endUs = ev.end_us;
        if (!scrubbing) $("timeline").value = endUs > 0 ? Math.round(1000 * ev.t_us / endUs) : 0;
        $("time").textContent = fmtTime(ev.t_us) + " / " + fmtTime(ev.end_us) + (ev.done ? "" : "…");
        $("play-icon").setAttribute("d", ev.playing ? "M3 2h4v12H3zM9 2h4v12H9z" : "M3 2v12l11-6z");
        $("play").setAttribute("aria-label", ev.playing ? "Pause" : "Play");
        $("speed").textContent = fmtTime(ev.speed_us) + "/s";
        break;
      case "loaded":
        if (!stopped) $("error").hidden = true;
        $("status").textContent = "Loaded scenario " + ev.name;
        break;
      case "frame":
        window.fabriclabFirstFrameMs = performance.now();
        break;
      case "stats":
        window.fabriclabStats = ev;
        break;
      case "error":
        showError(ev.message, true);
        return;
    }
    post(ev);
  };

  const bind = (id, c) => $(id).addEventListener("click", () => command({ fabriclab: c }));
  bind("play", "toggle"); bind("step", "step"); bind("back", "back"); bind("reset", "reset");
  bind("faster", "faster"); bind("slower", "slower");
  const tl = $("timeline");
  tl.addEventListener("input", () => { scrubbing = true; command({ fabriclab: "seek", t_us: endUs * tl.value / 1000 }); });
  tl.addEventListener("change", () => { scrubbing = false; });
  window.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT" && e.key !== " ") return;
    const keys = { " ": "toggle", ".": "step", ",": "back", "r": "reset", "+": "faster", "=": "faster", "-": "slower" };
    if (keys[e.key]) { e.preventDefault(); command({ fabriclab: keys[e.key] }); }
  });

  // Load and start the Go program. It reads the page's parameters from
  // location.search itself: go.argv is capped at 12 KiB by wasm_exec.js, far
  // below what yaml= and set= are documented to take.
  const go = new Go();
  const url = "viz.wasm" + (version ? "?v=" + version : "");
  const start = (result) => {
    // The WebAssembly memory's size in bytes, for tests and memory checks (it
    // only ever grows: what matters is that loads reuse it).
    const mem = result.instance.exports.mem;
    window.fabriclabMemoryBytes = () => mem.buffer.byteLength;
    return go.run(result.instance).then(() => showError("The simulation program exited."));
  };
  let loading;
  if (WebAssembly.instantiateStreaming) {
    loading = WebAssembly.instantiateStreaming(fetch(url), go.importObject).catch(() =>
      fetch(url).then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject)));
  } else {
    loading = fetch(url).then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject));
  }
  $("progress").style.width = "60%";
  loading.then(start).catch((err) => showError("Could not load viz.wasm: " + err));
})();
