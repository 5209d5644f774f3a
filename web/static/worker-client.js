// The runs' Web Workers (issue 29). The canvas (cmd/viz) computes nothing:
// it sends a worker a command through fabriclabWorker(i, json) and gets the
// worker's messages through fabriclabFrame(i, msg, bytes), a recorded
// frame's bytes beside its message (a transferred ArrayBuffer), or
// fabriclabWorkerFailed(i, why). Worker 0 computes a run, worker 1 a
// comparison's right side. A worker is made on first use from a Blob of
// wasm_exec.js and static/worker.js, fetched (a sandboxed frame's opaque
// origin may not start one from the site's URL; embed.html's policy allows
// blob: workers), and given worker.wasm's address, which it compiles
// itself (worker.js says why). Worker 0 is made before the
// canvas has started, by fabriclabEarlyRun (embed.js), and given the run
// the canvas will begin first (protocol.Early): the run computes while the
// canvas still starts, and the canvas's begin takes it over (cmd/worker).
(() => {
  "use strict";
  const version = (document.querySelector('script[src^="static/worker-client.js"]').src.split("?v=")[1]) || "";
  const at = (p) => new URL(p + (version ? "?v=" + version : ""), location.href).href;
  const get = (p) => fetch(at(p)).then((r) => {
    if (!r.ok) throw new Error(p + ": " + r.status + " " + r.statusText);
    return r;
  });
  const source = Promise.all([get("wasm_exec.js"), get("static/worker.js")].map((p) => p.then((r) => r.text())))
    .then((parts) => URL.createObjectURL(new Blob(parts, { type: "text/javascript" })));
  source.catch(() => {});

  // For tests and stats: workers made, commands sent (by the canvas), frames
  // received, early runs asked for (fabriclabEarlyRun).
  const counts = window.fabriclabWorkerCounts = { made: 0, commands: 0, frames: 0, messages: 0, early: 0 };
  // A failure before the canvas has started (an early worker's) is told
  // when the canvas asks for that worker.
  const failed = [];
  const fail = (i, why) => {
    if (typeof window.fabriclabWorkerFailed === "function") window.fabriclabWorkerFailed(i, String(why));
    else failed[i] = String(why);
  };
  // make starts a worker as soon as its script is here: a worker starts
  // only once the page's thread has taken the browser's answer, which waits
  // while that thread instantiates viz.wasm and starts the canvas (a warm
  // lesson's frame: 1.4 s in one task, in a Chrome trace), so the worker
  // must be asked for before that.
  const make = (i) => source.then((url) => {
    const w = new Worker(url);
    if (!counts.made++) performance.mark("fabriclab-worker-made");
    // The worker sends a slice's messages together: {batch: [{msg, buf}, …]}.
    // Before the canvas has started, only worker_ready comes (an early
    // run's messages wait in the worker for the canvas's begin): dropped.
    const one = (d) => {
      if (d.buf && d.msg.startsWith('{"fabriclab":"recorded"')) counts.frames++; // (a result's buffer is its flows and links)
      if (typeof window.fabriclabFrame === "function") window.fabriclabFrame(i, d.msg, d.buf ? new Uint8Array(d.buf) : null);
    };
    w.onmessage = (e) => {
      const d = e.data;
      if (d.failed) { fail(i, d.failed); return; }
      if (!counts.messages++) performance.mark("fabriclab-worker-first");
      if (Array.isArray(d.batch)) d.batch.forEach(one); else one(d);
    };
    w.onerror = (e) => { e.preventDefault(); fail(i, e.message || "script error"); };
    w.postMessage({ wasm: at("worker.wasm") });
    return w;
  });
  const workers = [];
  let asked = false;
  window.fabriclabWorker = (i, json) => {
    if (!asked) { asked = true; performance.mark("fabriclab-worker-asked"); }
    counts.commands++;
    if (failed[i] !== undefined) { const why = failed[i]; delete failed[i]; fail(i, why); }
    if (!workers[i]) workers[i] = make(i);
    workers[i].then((w) => w.postMessage(json), (err) => fail(i, err && err.message || err));
  };
  // fabriclabEarlyRun(load) makes worker 0 before the canvas has started and
  // sends it an early message: this page's address, and load, the load
  // command the parent sent for the canvas's first run (null: none). The
  // worker begins the run the canvas will begin first (playback.FirstRun)
  // and keeps what it records until the canvas's begin for that run takes
  // it over; a begin for another run drops it. A comparison (compare= in
  // the address, or a load of two sides) begins its left side in worker 0
  // and its right in worker 1, as the canvas will. Once, and only while
  // the canvas has not asked for worker 0.
  window.fabriclabEarlyRun = (load) => {
    if (workers[0]) return;
    counts.early++;
    performance.mark("fabriclab-worker-early");
    const compare = new URLSearchParams(location.search).has("compare") || !!(load && load.left);
    (compare ? ["left", "right"] : [""]).forEach((side, i) => {
      const msg = { fabriclab: "early", query: location.search };
      if (load) msg.load = load;
      if (side) msg.side = side;
      workers[i] = make(i);
      workers[i].then((w) => w.postMessage(JSON.stringify(msg)), () => {}); // a worker not made is said when the canvas asks for it
    });
  };
})();
