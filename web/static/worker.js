// The start of a run's Web Worker (cmd/worker). worker-client.js makes the
// worker from a Blob of wasm_exec.js followed by this file, then posts it
// worker.wasm compiled (a WebAssembly.Module) and the canvas's commands.
// Commands that come before the Go program runs wait here for it; the
// program sets self.onmessage to its own as it starts.
(() => {
  "use strict";
  const waiting = [];
  self.onmessage = (e) => {
    if (!(e.data instanceof WebAssembly.Module)) { waiting.push(e); return; }
    const go = new Go();
    WebAssembly.instantiate(e.data, go.importObject).then((instance) => {
      const ended = (why) => self.postMessage({ failed: why });
      go.run(instance).then(() => ended("the program ended"), (err) => ended(String(err && err.message || err)));
      for (const w of waiting.splice(0)) self.onmessage(w);
    }, (err) => self.postMessage({ failed: String(err && err.message || err) }));
  };
})();
