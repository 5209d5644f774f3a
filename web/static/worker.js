// The start of a run's Web Worker (cmd/worker). worker-client.js makes the
// worker from a Blob that imports wasm_exec.js, then this file, and posts it
// {wasm: URL}, worker.wasm's address, and the page's commands. The worker
// compiles worker.wasm itself, streamed from a fetch of its own, so that it
// starts computing without the page's thread: that thread instantiates
// viz.wasm and starts the canvas in one long task (1.4 s in a warm lesson's
// frame), which held back a module compiled by the page and posted from
// there. V8's code cache holds worker.wasm either way: never (modules.js).
// Commands that come before the Go program runs wait here for it; the
// program sets self.onmessage to its own as it starts.
(() => {
  "use strict";
  const waiting = [];
  const failed = (err) => self.postMessage({ failed: String(err && err.message || err) });
  self.onmessage = (e) => {
    const url = e.data && typeof e.data === "object" ? e.data.wasm : undefined;
    if (typeof url !== "string") { waiting.push(e); return; }
    // As modules.js: a host that sends it with another type than
    // application/wasm (which compileStreaming refuses) has it fetched again
    // and compiled whole.
    const get = () => fetch(url).then((r) => {
      if (!r.ok) throw new Error("worker.wasm: " + r.status + " " + r.statusText);
      return r;
    });
    const whole = () => get().then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b));
    const compiled = WebAssembly.compileStreaming ? WebAssembly.compileStreaming(get()).catch(whole) : whole();
    const go = new Go();
    compiled.then((mod) => WebAssembly.instantiate(mod, go.importObject)).then((instance) => {
      go.run(instance).then(() => failed("the program ended"), failed);
      for (const w of waiting.splice(0)) self.onmessage(w);
    }, failed);
  };
})();
