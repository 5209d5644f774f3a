// The runs' Web Workers (issue 29). The canvas (cmd/viz) computes nothing:
// it sends a worker a command through fabriclabWorker(i, json) and gets the
// worker's messages through fabriclabFrames(i, [{msg, buf}, …]), a recorded
// frame's bytes beside its message (a transferred ArrayBuffer's), or
// fabriclabWorkerFailed(i, why). Worker 0 computes a run, worker 1 a
// comparison's right side. A worker is made on first use from a Blob that
// imports wasm_exec.js and static/worker.js (a sandboxed frame's opaque
// origin may not start one from the site's URL; embed.html's policy allows
// blob: workers), and given worker.wasm's address, which it compiles
// itself (worker.js says why). Worker 0 is made before the
// canvas has started, by fabriclabEarlyRun (embed.js), and given the run
// the canvas will begin first (protocol.Early): the run computes while the
// canvas still starts, and the canvas's begin takes it over (cmd/worker).
//
// A lesson page loads this script too, with data-spare: there it only starts
// a worker, the one its canvas's frame will take as worker 0 (once), so that
// worker.wasm compiles and its program starts while the frame's page still
// loads (a warm lesson step: the frame's own worker sent its first frame
// 550-750 ms after it was made, the last thing the step's figures waited for).
(() => {
  "use strict";
  const script = document.querySelector('script[src^="static/worker-client.js"]');
  const version = (script.src.split("?v=")[1]) || "";
  const at = (p) => new URL(p + (version ? "?v=" + version : ""), location.href).href;
  // The worker's script is a blob: its two scripts, imported by the worker
  // itself (the page's thread took 200 ms and more to hand over fetches of
  // them while a lesson loaded).
  const source = URL.createObjectURL(new Blob(["importScripts(" + JSON.stringify(at("wasm_exec.js")) + ", " + JSON.stringify(at("static/worker.js")) + ");"], { type: "text/javascript" }));
  // spawn starts a worker: it compiles worker.wasm and starts its program.
  // What it says before a handler is set (make's) waits in early.
  const spawn = () => {
    try {
      const w = new Worker(source), early = [];
      w.onmessage = (e) => early.push(e);
      w.onerror = (e) => { e.preventDefault(); early.push(e); };
      w.postMessage({ wasm: at("worker.wasm") });
      return Promise.resolve({ w, early });
    } catch (err) {
      return Promise.reject(err); // a policy that forbids it
    }
  };
  if (script.hasAttribute("data-spare")) {
    let spare = spawn();
    performance.mark("fabriclab-worker-spare");
    spare.catch(() => {});
    window.fabriclabSpareWorker = () => { const s = spare; spare = null; return s; };
    return;
  }
  // The worker the page around this frame started for it, if it is the
  // site's lesson (another origin's page, or a sandboxed frame, may not look).
  const parentSpare = () => {
    try { return window.parent !== window && typeof window.parent.fabriclabSpareWorker === "function" ? window.parent.fabriclabSpareWorker() : null; } catch (_) { return null; }
  };

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
  const make = (i) => {
    const spare = i === 0 ? parentSpare() : null;
    return (spare || spawn()).then(({ w, early }) => adopt(i, w, early, !!spare));
  };
  const adopt = (i, w, early, spare) => {
    if (!counts.made++) performance.mark("fabriclab-worker-made");
    // The worker sends a slice's messages together: {batch: [{msg, buf}, …]}.
    // Before the canvas has started, only worker_ready comes (an early
    // run's messages wait in the worker for the canvas's begin): dropped.
    // The canvas takes a batch in one call, fabriclabFrames(i, [{msg, buf}, …])
    // with each buf a Uint8Array or null (a call into Go each cost the
    // page's thread 10-25 ms a batch of a slice's frames); another page
    // (explain.js) takes them one by one through fabriclabFrame.
    w.onmessage = (e) => {
      const d = e.data;
      if (d.failed) { fail(i, d.failed); return; }
      if (!counts.messages++) performance.mark("fabriclab-worker-first");
      const list = (Array.isArray(d.batch) ? d.batch : [d]).map((m) => {
        if (m.buf && m.msg.startsWith('{"fabriclab":"recorded"')) counts.frames++; // (a result's buffer is its flows and links)
        return { msg: m.msg, buf: m.buf ? new Uint8Array(m.buf) : null };
      });
      if (typeof window.fabriclabFrames === "function") window.fabriclabFrames(i, list);
      else if (typeof window.fabriclabFrame === "function") list.forEach((m) => window.fabriclabFrame(i, m.msg, m.buf));
    };
    w.onerror = (e) => { e.preventDefault(); fail(i, e.message || "script error"); };
    for (const e of early.splice(0)) (e.type === "error" ? w.onerror : w.onmessage)(e);
    if (spare) window.addEventListener("pagehide", () => w.terminate()); // the lesson's worker ends with this frame's page
    return w;
  };
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
