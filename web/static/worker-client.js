// The runs' Web Workers (issue 29). The canvas (cmd/viz) computes nothing:
// it sends a worker a command through fabriclabWorker(i, json) and gets the
// worker's messages through fabriclabFrame(i, msg, bytes), a recorded
// frame's bytes beside its message (a transferred ArrayBuffer), or
// fabriclabWorkerFailed(i, why). Worker 0 computes a run, worker 1 a
// comparison's right side. A worker is made on first use from a Blob of
// wasm_exec.js and static/worker.js, fetched (a sandboxed frame's opaque
// origin may not start one from the site's URL; embed.html's policy allows
// blob: workers), and handed worker.wasm, compiled once (modules.js) while
// the canvas's own module still compiles. (Worker 0 made as the page
// starts, to be running by the canvas's first run, measured no faster at
// load 10-28 on two cores: BENCHMARKS.md, issue 29.)
(() => {
  "use strict";
  const version = (document.querySelector('script[src^="static/worker-client.js"]').src.split("?v=")[1]) || "";
  const at = (p) => new URL(p + (version ? "?v=" + version : ""), location.href).href;
  const get = (p) => fetch(at(p)).then((r) => {
    if (!r.ok) throw new Error(p + ": " + r.status + " " + r.statusText);
    return r;
  });
  const module = window.fabriclabModule("worker.wasm"); // modules.js, which the page has started already
  const source = Promise.all([get("wasm_exec.js"), get("static/worker.js")].map((p) => p.then((r) => r.text())))
    .then((parts) => URL.createObjectURL(new Blob(parts, { type: "text/javascript" })));
  module.then(() => performance.mark("fabriclab-worker-compiled"), () => {}); // a failure is reported when a worker is asked for
  source.catch(() => {});

  // For tests and stats: workers made, commands sent, frames received.
  const counts = window.fabriclabWorkerCounts = { made: 0, commands: 0, frames: 0, messages: 0 };
  const fail = (i, why) => {
    if (typeof window.fabriclabWorkerFailed === "function") window.fabriclabWorkerFailed(i, String(why));
  };
  const make = (i) => Promise.all([source, module]).then(([url, mod]) => {
    const w = new Worker(url);
    if (!counts.made++) performance.mark("fabriclab-worker-made");
    // The worker sends a slice's messages together: {batch: [{msg, buf}, …]}.
    const one = (d) => {
      if (d.buf) counts.frames++;
      if (typeof window.fabriclabFrame === "function") window.fabriclabFrame(i, d.msg, d.buf ? new Uint8Array(d.buf) : null);
    };
    w.onmessage = (e) => {
      const d = e.data;
      if (d.failed) { fail(i, d.failed); return; }
      if (!counts.messages++) performance.mark("fabriclab-worker-first");
      if (Array.isArray(d.batch)) d.batch.forEach(one); else one(d);
    };
    w.onerror = (e) => { e.preventDefault(); fail(i, e.message || "script error"); };
    w.postMessage(mod);
    return w;
  });
  const workers = [];
  let asked = false;
  window.fabriclabWorker = (i, json) => {
    if (!asked) { asked = true; performance.mark("fabriclab-worker-asked"); }
    counts.commands++;
    if (!workers[i]) workers[i] = make(i);
    workers[i].then((w) => w.postMessage(json), (err) => fail(i, err && err.message || err));
  };
})();
