// The lesson page: shows one step at a time beside the canvas, loads each
// step's scenario into the canvas iframe, and handles the keyboard: its own
// keys, and the lesson keys the canvas forwards when it has the focus.
(() => {
  "use strict";
  const steps = JSON.parse(document.getElementById("steps").textContent);
  const frame = document.getElementById("canvas");
  const sections = Array.from(document.querySelectorAll(".step"));
  const links = Array.from(document.querySelectorAll(".stepper ol a"));
  const intro = document.querySelector(".text .intro");
  let current = -1, ready = false, loadedYAML = null;

  const send = (msg) => frame.contentWindow && frame.contentWindow.postMessage(msg, "*");
  const scenarioFor = (i) => { for (let k = i; k >= 0; k--) if (steps[k].scenario) return steps[k].scenario; return null; };

  function show(i, push) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (i === current) return;
    current = i;
    sections.forEach((s, k) => s.classList.toggle("current", k === i));
    links.forEach((a, k) => { if (k === i) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current"); });
    document.getElementById("count").textContent = (i + 1) + " / " + steps.length;
    document.getElementById("prev").disabled = i === 0;
    document.getElementById("next").disabled = i === steps.length - 1;
    // The intro leads into the first step only: later steps start with their heading.
    if (intro) intro.hidden = i !== 0;
    const id = steps[i].id;
    if (push) history.replaceState(null, "", "#" + id);
    document.querySelectorAll("[data-alternate]").forEach((a) => { a.hash = id; });
    document.getElementById("text").scrollTop = 0;
    window.scrollTo(0, 0); // a #step link must not scroll the page past its header
    progress.shown(i); // before the load: is the canvas still at the end of this step's run?
    loadScenario();
  }
  function loadScenario() {
    const yaml = scenarioFor(current);
    if (!ready || !yaml || yaml === loadedYAML) return;
    loadedYAML = yaml;
    send({ fabriclab: "load", yaml: yaml, step: steps[current].id });
  }

  // What the canvas last said, for scripts and tests: window.fabriclabCanvas.
  const canvas = window.fabriclabCanvas = { ready: false, loaded: "", step: "", playing: false, t_us: 0, end_us: 0, error: "", summary: "", ended: 0 };
  window.addEventListener("message", (e) => {
    if (e.source !== frame.contentWindow || !e.data || typeof e.data.fabriclab !== "string") return;
    const ev = e.data;
    switch (ev.fabriclab) {
      case "ready":
        ready = canvas.ready = true; loadedYAML = null;
        send({ fabriclab: "keys", parent: true }); // the canvas passes the lesson's keys here
        loadScenario();
        if (document.body.classList.contains("presenter")) send({ fabriclab: "presenter", on: true });
        break;
      case "loaded": canvas.loaded = ev.name; canvas.step = ev.step || ""; canvas.error = ""; break;
      case "time": canvas.playing = ev.playing; canvas.t_us = ev.t_us; canvas.end_us = ev.end_us; break;
      case "summary": canvas.summary = ev.text; break;
      case "ended": canvas.ended++; progress.ended(); break;
      case "error": canvas.error = ev.message; break;
      case "key": key(ev.key, null); break; // a lesson key pressed on the canvas
    }
  });

  document.getElementById("prev").addEventListener("click", () => show(current - 1, true));
  document.getElementById("next").addEventListener("click", () => show(current + 1, true));
  links.forEach((a, k) => a.addEventListener("click", (e) => { e.preventDefault(); show(k, true); }));
  const presenter = document.getElementById("presenter");
  const togglePresenter = () => {
    const on = document.body.classList.toggle("presenter");
    presenter.setAttribute("aria-pressed", String(on));
    send({ fabriclab: "presenter", on: on });
    try { localStorage.setItem("fabriclab.presenter", on ? "1" : ""); } catch (_) {}
  };
  presenter.addEventListener("click", togglePresenter);
  try { if (localStorage.getItem("fabriclab.presenter")) togglePresenter(); } catch (_) {}

  // The ? list of keys: Esc, ? or its button close it, and focus goes back.
  const keys = document.getElementById("keys");
  let before = null;
  // Opened from the canvas, closing gives the canvas back its focus.
  const toCanvas = { focus: () => { frame.focus(); send({ fabriclab: "keys", focus: true }); } };
  const showKeys = (on, fromCanvas) => {
    if (on === !keys.hidden) return;
    keys.hidden = !on;
    if (on) {
      before = fromCanvas ? toCanvas : document.activeElement;
      document.getElementById("keys-close").focus();
    } else if (before && before.focus) before.focus();
  };
  document.getElementById("keys-button").addEventListener("click", () => showKeys(true));
  document.getElementById("keys-close").addEventListener("click", () => showKeys(false));
  keys.addEventListener("click", (e) => { if (e.target === keys) showKeys(false); });

  // key acts on a lesson key; target is where it was pressed (null: on the
  // canvas). It returns whether the key was used.
  function key(k, target) {
    if (k === "Escape" && !keys.hidden) { showKeys(false); return true; }
    if (k === "?") { showKeys(keys.hidden, target === null); return true; }
    if (!keys.hidden) return false;
    switch (k) {
      case "ArrowRight": case "PageDown": show(current + 1, true); return true;
      case "ArrowLeft": case "PageUp": show(current - 1, true); return true;
      case " ": send({ fabriclab: "toggle" }); return true;
      case ".": send({ fabriclab: "step" }); return true;
      case ",": send({ fabriclab: "back" }); return true;
      case "]": send({ fabriclab: "nextflow" }); return true; // the routing view's next flow
      case "[": send({ fabriclab: "prevflow" }); return true;
      case "r": case "R": send({ fabriclab: "reset" }); return true;
      case "+": case "=": send({ fabriclab: "faster" }); return true;
      case "-": send({ fabriclab: "slower" }); return true;
      case "p": case "P": togglePresenter(); return true;
      case "f": case "F": if (frame.requestFullscreen) frame.requestFullscreen().catch(() => {}); return true;
    }
    return false;
  }
  window.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target, tag = t && t.tagName;
    // Text fields take every key; in a quiz (or on any input) arrows, Space
    // and Enter do what they do natively (choose an answer, pick, check), and
    // Space and Enter press a focused button or follow a link.
    if (tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && !["radio", "checkbox", "button", "submit", "range"].includes(t.type)) || (t && t.isContentEditable)) return;
    const inForm = !!(t && t.closest && t.closest("form"));
    if (e.key.startsWith("Arrow") && (tag === "INPUT" || inForm)) return;
    if ((e.key === " " || e.key === "Enter") && (tag === "INPUT" || tag === "BUTTON" || tag === "A" || inForm)) return;
    if (key(e.key, t)) e.preventDefault();
  });

  // Quizzes: predict, then watch.
  document.querySelectorAll("form.lesson-quiz").forEach((form) => {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const picked = form.querySelector("input[type=radio]:checked");
      if (!picked) return;
      const right = picked.value === form.dataset.answer;
      form.dataset.result = right ? "right" : "wrong";
      form.querySelector(".lesson-quiz-verdict").textContent = right ? form.dataset.right : form.dataset.wrong;
      form.querySelector(".lesson-quiz-explain").hidden = false;
    });
  });

  // ---- Progress (read by the index, static/index.js) ----
  // A step is finished once, while it is shown, its quiz is answered (right
  // or wrong) or the canvas plays its scenario to the end (or already stands
  // at the end of it, for a step that keeps the previous step's run). The
  // finished step ids are kept in localStorage "fabriclab.progress.<slug>"
  // as a JSON array; without localStorage they last as long as the page.
  const progress = (() => {
    const slug = decodeURIComponent(location.pathname.split("/").pop() || "").split(".")[0];
    const storeKey = "fabriclab.progress." + slug;
    let done = [];
    try {
      const v = JSON.parse(localStorage.getItem(storeKey) || "[]");
      if (Array.isArray(v)) done = v.filter((id) => typeof id === "string");
    } catch (_) {}
    const mark = (i) => {
      const id = steps[i] && steps[i].id;
      if (!id || done.includes(id)) return;
      done.push(id);
      try { localStorage.setItem(storeKey, JSON.stringify(done)); } catch (_) {}
    };
    const runIsCurrent = (i) => loadedYAML !== null && loadedYAML === scenarioFor(i);
    const atEnd = () => canvas.end_us > 0 && canvas.t_us >= canvas.end_us;
    document.querySelectorAll("form.lesson-quiz").forEach((form) => {
      form.addEventListener("submit", () => {
        const k = sections.indexOf(form.closest(".step"));
        if (k >= 0 && form.querySelector("input[type=radio]:checked")) mark(k);
      });
    });
    window.fabriclabProgress = { finished: () => done.slice() };
    return {
      shown: (i) => { if (runIsCurrent(i) && atEnd()) mark(i); },
      ended: () => { if (current >= 0 && runIsCurrent(current)) mark(current); },
    };
  })();

  const byHash = steps.findIndex((s) => "#" + s.id === location.hash);
  show(byHash >= 0 ? byHash : 0, false);
  window.addEventListener("hashchange", () => {
    const k = steps.findIndex((s) => "#" + s.id === location.hash);
    if (k >= 0) show(k, false);
  });
})();
