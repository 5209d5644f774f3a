// The page's WebAssembly modules, compiled from the page's start (issue 29:
// a lesson step's figures within 1 s of a warm load). The script tag names
// them, data-modules="viz.wasm worker.wasm", and is the first in the head,
// so their downloads start with the page; fabriclabModule(name) is a
// module's compiled WebAssembly.Module (a promise), compiled once. In a
// frame whose parent page has started the module (a lesson starts viz.wasm
// for its canvas, before the frame's page has even parsed), the frame takes
// the parent's.
//
// Not <link rel=preload>: a module compiled from a preloaded response never
// finds V8's code cache (measured with Chromium 148: a warm embed compiled
// viz.wasm again and compiled its functions lazily on the page's thread,
// 460-850 ms; compiled from a fetch of its own it took the cached code,
// 84 ms). V8 caches a streamed module's optimised code as it runs, keyed by
// its URL in the HTTP cache, so the next visit starts with it. Not
// worker.wasm's, whose code runs in a worker: with Chromium 148 the
// profile's code cache held viz.wasm alone after 20 s of a run, whether
// worker.wasm was compiled here or by compileStreaming in the worker
// (BENCHMARKS.md, issue 29).
(() => {
  "use strict";
  const script = document.currentScript;
  const version = (script && script.src.split("?v=")[1]) || "";
  const at = (p) => new URL(p + (version ? "?v=" + version : ""), location.href).href;
  const compiled = new Map();
  // compile streams the module in as it downloads; if the host sends it
  // with another type than application/wasm (which compileStreaming
  // refuses) it is fetched again and compiled whole. A rejection is the
  // second fetch's error (a TypeError when the fetch itself failed: see
  // hosting.js; an Error naming the status) or the compiler's.
  const compile = (name) => {
    const get = () => fetch(at(name)).then((r) => {
      if (!r.ok) throw new Error(name + ": " + r.status + " " + r.statusText);
      return r;
    });
    const whole = () => get().then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b));
    const m = WebAssembly.compileStreaming ? WebAssembly.compileStreaming(get()).catch(whole) : whole();
    m.catch(() => {}); // reported by whoever asks for it
    return m;
  };
  // The parent's modules, when it is the site's page (a cross-origin or
  // sandboxed frame may not look: then none).
  const parents = () => {
    try { return window.parent !== window && window.parent.fabriclabModules instanceof window.parent.Map ? window.parent.fabriclabModules : null; } catch (_) { return null; }
  };
  window.fabriclabModules = compiled;
  window.fabriclabModule = (name) => {
    if (!compiled.has(name)) {
      const p = parents();
      compiled.set(name, p && p.has(name) ? p.get(name) : compile(name));
    }
    return compiled.get(name);
  };
  for (const name of ((script && script.dataset.modules) || "").split(/\s+/)) if (name) window.fabriclabModule(name);
})();
