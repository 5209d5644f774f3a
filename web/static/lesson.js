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
  let current = -1, ready = false, early = false, loadedYAML = null, loadedPlain = null;
  let knobs = { load: () => null, moved: () => [], shown() {}, figures() {}, failed() {} }; // set below

  const send = (msg) => frame.contentWindow && frame.contentWindow.postMessage(msg, "*");
  // The canvas page takes commands once its script runs, and keeps them until
  // its program is ready (embed.js): the step's load sent then is the
  // canvas's first run, begun at once in its worker while the program still
  // starts (embed.js, worker-client.js). The canvas's address says
  // first=load: it waits for a load, so one is always sent, for a step
  // without a scenario too (the default's). early: sent so.
  const sendable = () => ready || early;
  const sendEarly = (when) => {
    if (ready || early) return;
    early = true;
    canvas.firstLoad = when;
    loadScenario();
  };
  // The canvas page asks as soon as it listens (embed.js); its load event is
  // the fallback.
  window.fabriclabCanvasListening = (w) => { if (w === frame.contentWindow) sendEarly("script"); };
  frame.addEventListener("load", () => {
    let embed = false;
    try { embed = typeof frame.contentWindow.fabriclabEvent === "function"; } catch (_) { /* not the canvas page: wait for ready */ }
    if (embed) sendEarly("load");
  });
  const scenarioFor = (i) => { for (let k = i; k >= 0; k--) if (steps[k].scenario) return steps[k].scenario; return null; };
  // A compare step (and the steps after it, until a scenario block) shows two scenarios side by side.
  // An answered drill (drill.js) shows its faulty and fixed runs side by side.
  const compareFor = (i) => steps[i].compare || window.fabriclabDrill.compare(steps[i], sections[i]);

  function show(i, push) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (i === current) return;
    current = i;
    sections.forEach((s, k) => s.classList.toggle("current", k === i));
    links.forEach((a, k) => { if (k === i) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current"); });
    document.getElementById("count").textContent = (i + 1) + " / " + steps.length;
    const prev = document.getElementById("prev"), next = document.getElementById("next");
    // A button that disables itself under the focus hands it to the other one
    // (asked before: a browser may drop the focus as the button disables).
    const had = document.activeElement;
    prev.disabled = i === 0;
    next.disabled = i === steps.length - 1;
    if (next.disabled && had === next) prev.focus();
    if (prev.disabled && had === prev) next.focus();
    // The intro leads into the first step only: later steps start with their heading.
    if (intro) intro.hidden = i !== 0;
    const id = steps[i].id;
    if (push) history.replaceState(null, "", "#" + id);
    knobs.shown(i); // the address carries this step's knob settings
    document.querySelectorAll("[data-alternate]").forEach((a) => { a.hash = id; });
    document.getElementById("text").scrollTop = 0;
    window.scrollTo(0, 0); // a #step link must not scroll the page past its header
    progress.shown(i); // a recap is finished when shown
    clicker.shown(i);
    loadScenario();
  }
  // The canvas keeps back what gives a quiz away (the run's end, a comparison's
  // difference) while the step shown has one to answer.
  const tellQuiz = () => {
    if (sendable()) send({ fabriclab: "quiz", pending: !!sections[current].querySelector('form.lesson-quiz:not([data-result="right"]):not([data-result="shown"])') });
  };
  function loadScenario() {
    tellQuiz();
    const cmp = compareFor(current);
    if (cmp) {
      const ckey = JSON.stringify(cmp);
      if (!sendable()) return;
      if (ckey === loadedYAML) { progress.kept(); return; }
      loadedYAML = ckey; loadedPlain = null;
      progress.loading();
      send({ fabriclab: "load", step: steps[current].id, left: { label: cmp.left.label, yaml: cmp.left.scenario }, right: { label: cmp.right.label, yaml: cmp.right.scenario } });
      return;
    }
    const yaml = scenarioFor(current);
    const extra = knobs.load(current); // the step's knob settings and figures, or null
    const key = extra ? yaml + "\n" + JSON.stringify(extra.set) : yaml;
    if (!sendable()) return;
    if (!yaml) {
      // No scenario yet: the canvas waits for a first load (first=load in
      // its address), so it gets the default's, once.
      if (loadedYAML !== null) return;
      loadedYAML = loadedPlain = "";
      progress.loading();
      send({ fabriclab: "load", scenario: "incast", step: steps[current].id });
      return;
    }
    // A step without knobs after one with the same scenario at its knobs'
    // defaults (the recap after a knob step) keeps the canvas as it is.
    if (key === loadedYAML || (!extra && loadedPlain === yaml)) { progress.kept(); return; }
    loadedYAML = key;
    progress.loading();
    loadedPlain = !extra || !knobs.moved(current).length ? yaml : null;
    send(Object.assign({ fabriclab: "load", yaml: yaml, step: steps[current].id }, extra));
  }

  // A comparison's one-line difference goes under the step's compare caption.
  function showDifference(text) {
    canvas.difference = text;
    const cap = sections[current] && sections[current].querySelector(".lesson-compare, .lesson-drill-beside");
    if (!cap) return;
    let d = cap.querySelector(".lesson-compare-diff");
    if (!d) {
      d = document.createElement("span"); d.className = "lesson-compare-diff"; cap.append(document.createElement("br"), d);
      window.fabriclabQuiz.hold(sections[current], d); // hidden until the step's quiz is answered (quiz.js)
    }
    d.textContent = text;
  }

  // What the canvas last said, for scripts and tests: window.fabriclabCanvas.
  // firstLoad: what had the first load sent, "script" (the canvas page's call) or "load" (its load event).
  const canvas = window.fabriclabCanvas = { ready: false, loaded: "", step: "", playing: false, t_us: 0, end_us: 0, error: "", summary: "", ended: 0, firstLoad: "" };
  window.addEventListener("message", (e) => {
    if (e.source !== frame.contentWindow || !e.data || typeof e.data.fabriclab !== "string") return;
    const ev = e.data;
    switch (ev.fabriclab) {
      case "ready":
        ready = canvas.ready = true;
        if (!early) loadedYAML = loadedPlain = null; // else the canvas has the step's load already
        early = false;
        send({ fabriclab: "keys", parent: true }); // the canvas passes the lesson's keys here
        loadScenario();
        if (document.body.classList.contains("presenter")) send({ fabriclab: "presenter", on: true });
        break;
      case "loaded": progress.loaded(); canvas.loaded = ev.name; canvas.step = ev.step || ""; canvas.error = ""; canvas.compare = !!ev.compare; canvas.difference = ""; break;
      case "time": canvas.playing = ev.playing; canvas.t_us = ev.t_us; canvas.end_us = ev.end_us; break;
      case "summary": canvas.summary = ev.text; if (ev.difference) showDifference(ev.difference); break;
      case "ended": canvas.ended++; progress.ended(); break;
      case "error":
        if (ev.notice || ev.command !== undefined) break; // a notice or a wrong command: the run goes on
        progress.loaded(); canvas.error = ev.message; knobs.failed(ev.message); break;
      case "figures": knobs.figures(ev); break;
      case "key": key(ev.key, null); break; // a lesson key pressed on the canvas
    }
  });

  document.addEventListener("fabriclab:answered", () => { if (steps[current].drill) loadScenario(); else tellQuiz(); });
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
  // A modal <dialog>: Tab stays inside; its hidden attribute follows it (for tests).
  const showKeys = (on, fromCanvas) => {
    if (on === !keys.hidden) return;
    keys.hidden = !on;
    if (on) {
      before = fromCanvas ? toCanvas : document.activeElement;
      keys.showModal();
      document.getElementById("keys-close").focus();
    } else {
      keys.close();
      if (before && before.focus) before.focus();
    }
  };
  document.getElementById("keys-button").addEventListener("click", () => showKeys(true));
  document.getElementById("keys-close").addEventListener("click", () => showKeys(false));
  keys.addEventListener("click", (e) => { if (e.target === keys) showKeys(false); });
  // The clicker's keys, the overview, blanking and full screen: static/presenter.js.
  const clicker = window.fabriclabPresenter({ steps, send, toCanvas, current: () => current, show: (i) => show(i, true), compare: () => !!compareFor(current),
    finished: () => (window.fabriclabProgress ? window.fabriclabProgress.finished() : []) });
  keys.addEventListener("cancel", (e) => { e.preventDefault(); showKeys(false); }); // Esc

  // key acts on a lesson key; target is where it was pressed (null: on the
  // canvas). It returns whether the key was used.
  function key(k, target) {
    if ((k === "Escape" || k === "?") && !keys.hidden) { showKeys(false); return true; }
    if (keys.hidden && clicker.open()) return clicker.key(k, target === null); // any key un-blanks
    if (!fabriclabShortcuts.acts(k, target)) return false; // shortcuts.js
    if (keys.hidden && clicker.key(k, target === null)) return true;
    if (k === "?") { showKeys(keys.hidden, target === null); return true; }
    if (!keys.hidden) return false;
    switch (k) {
      case "ArrowRight": show(current + 1, true); return true;
      case "ArrowLeft": show(current - 1, true); return true;
      case " ": send({ fabriclab: "toggle" }); return true;
      case ".": send({ fabriclab: "step" }); return true;
      case ",": send({ fabriclab: "back" }); return true;
      case "]": send({ fabriclab: "nextflow" }); return true; // the routing view's next flow
      case "[": send({ fabriclab: "prevflow" }); return true;
      case "r": case "R": send({ fabriclab: "reset" }); return true;
      case "+": case "=": send({ fabriclab: "faster" }); return true;
      case "-": send({ fabriclab: "slower" }); return true;
      case "p": case "P": togglePresenter(); return true;
      case "f": case "F": clicker.fullscreen(); return true;
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
    // On a control, arrows and Home, End, PageUp, PageDown move it (a slider's ends and steps).
    if ((e.key.startsWith("Arrow") || ["Home", "End", "PageUp", "PageDown"].includes(e.key)) && (tag === "INPUT" || inForm)) return;
    if ((e.key === " " || (e.key === "Enter" && !clicker.typing())) && (tag === "INPUT" || tag === "BUTTON" || tag === "A" || inForm)) return;
    if (key(e.key, t)) e.preventDefault();
  });

  // Knobs: lessons/knob.go describes each (data-knob: its values, their
  // texts, what it changes; data-status: the status line's figures and
  // sentences, in the page's language); this only shows them. Moving one
  // re-runs the step in the canvas with what every knob sets and, once the
  // run is done, puts the canvas's figures (computed as the build computes
  // them) into the step's text. The settings of the step shown live in the
  // address: ?traffic.senders=4#pfc.
  function lessonKnobs() {
    const parse = (s) => { try { return JSON.parse(s); } catch (_) { return null; } };
    const perStep = sections.map((sec) => Array.from(sec.querySelectorAll(".lesson-knob")).map((el) => {
      const k = Object.assign({ values: [], texts: [], sets: [] }, parse(el.dataset.knob), { el, input: el.querySelector("input, select") });
      k.def = Math.max(0, k.values.indexOf(k.default));
      k.at = k.def;
      return k;
    }));
    const allKeys = new Set(perStep.flat().map((k) => k.key));
    const wait = { step: -1, set: null, moved: null }; // the run whose figures are awaited
    const shownFor = perStep.map((ks) => JSON.stringify(ks.flatMap((k) => k.sets[k.def])));
    const state = window.fabriclabKnobs = { runs: 0, pending: false, last: null };
    let timer = 0;

    const setOf = (k) => k.sets[k.at]; // what the knob sets where it stands: key=value, or a toggle's list
    const setsOf = (i) => perStep[i].flatMap(setOf);
    const figuresOf = (i) => Array.from(sections[i].querySelectorAll(".lesson-figure[data-figure]"));
    const statusOf = (i) => Array.from(sections[i].querySelectorAll(".lesson-knobs-status")).map((el) => ({ el, s: parse(el.dataset.status) || {} }));
    const text = (k) => k.texts[k.at];
    // display puts a knob's position into its control.
    const display = (k) => {
      const t = text(k);
      if (k.control === "toggle") k.input.checked = k.at === 1;
      else if (k.control === "select") k.input.selectedIndex = k.at;
      else {
        k.input.value = String(k.at);
        k.input.setAttribute("aria-valuetext", t);
        const out = k.el.querySelector("output");
        if (out) out.textContent = t;
      }
    };
    const read = (k) => k.control === "toggle" ? (k.input.checked ? 1 : 0) : k.control === "select" ? k.input.selectedIndex : Number(k.input.value);
    // pending dims the step's figures while the run they will come from computes.
    const pending = (i, on) => {
      figuresOf(i).forEach((f) => { f.classList.toggle("pending", on); if (on) f.classList.remove("failed"); f.setAttribute("aria-busy", String(on)); });
      state.pending = on;
    };
    // url writes the step's settings that differ from the defaults into the address.
    const url = (i) => {
      const q = new URLSearchParams(location.search);
      allKeys.forEach((key) => q.delete(key));
      perStep[i].forEach((k) => { if (k.at !== k.def) q.set(k.key, k.values[k.at]); });
      const qs = q.toString().replace(/%2C/g, ",").replace(/%5B/g, "[").replace(/%5D/g, "]");
      history.replaceState(null, "", location.pathname + (qs ? "?" + qs : "") + location.hash);
      // A translation has the same knobs: its link keeps the settings.
      document.querySelectorAll("[data-alternate]").forEach((a) => { a.search = qs ? "?" + qs : ""; });
    };
    // The address's settings belong to the step it opens on.
    const opened = steps.findIndex((st) => "#" + st.id === location.hash);
    const q = new URLSearchParams(location.search);
    (perStep[opened >= 0 ? opened : 0] || []).forEach((k) => {
      const v = q.get(k.key);
      if (v !== null && k.values.indexOf(v) >= 0) k.at = k.values.indexOf(v);
    });
    // rerun loads the step with its settings, now or after the knob rests.
    const rerun = (i, moved, soon) => {
      clearTimeout(timer);
      // Figures still to come for the settings before (a run's figures come
      // again once its flows and links are in) are not this setting's.
      wait.set = null;
      wait.moved = moved;
      pending(i, JSON.stringify(setsOf(i)) !== shownFor[i]);
      statusOf(i).forEach(({ el, s }) => { el.textContent = s.running || ""; });
      url(i);
      timer = setTimeout(() => { loadedYAML = null; loadScenario(); }, soon ? 0 : 250);
    };
    perStep.forEach((ks, i) => {
      ks.forEach((k) => {
        display(k);
        const moved = () => { k.at = read(k); display(k); rerun(i, k, false); };
        k.input.addEventListener("input", moved);
        k.input.addEventListener("change", moved);
      });
      sections[i].querySelectorAll(".lesson-knobs-reset").forEach((b) => b.addEventListener("click", () => {
        ks.forEach((k) => { k.at = k.def; display(k); });
        rerun(i, null, true);
      }));
    });
    // showWhen shows, of each {{ if }} text, the first variant whose
    // condition the canvas found true ("if …" → "true"), or its {{ else }}.
    const showWhen = (sec, values) => sec.querySelectorAll(".lesson-when").forEach((w) => {
      let shown = false;
      Array.from(w.children).forEach((b) => {
        const holds = !b.dataset.when || values[b.dataset.when] === "true";
        b.hidden = shown || !holds;
        shown = shown || holds;
      });
    });
    // said is a status line's sentence for the run's figures.
    const said = (s, values, k) => {
      let outcome = values[s.figure] ? s.sentence.replace("{}", values[s.figure]).replace("{last}", values[s.last] || "—") : "";
      const done = values[s.done], all = values[s.all];
      if (s.unfinished && done !== undefined && all !== undefined && done !== all && values[s.end]) {
        outcome = s.unfinished.replace("{done}", done).replace("{all}", all).replace("{end}", values[s.end]);
      }
      return k && outcome ? s.said.replace("{label}", k.label).replace("{value}", text(k)).replace("{outcome}", outcome) : outcome;
    };
    return {
      moved: (i) => (perStep[i] || []).filter((k) => k.at !== k.def).map((k) => k.key), // the knobs moved from their defaults
      load(i) {
        if (!perStep[i] || !perStep[i].length) return null;
        const set = setsOf(i);
        // The settings that only change the report: the canvas works the report out again for the run on screen.
        const report = perStep[i].filter((k) => k.changes === "report").flatMap(setOf);
        const specs = new Set(figuresOf(i).map((f) => f.dataset.figure));
        sections[i].querySelectorAll(".lesson-when-branch[data-when]").forEach((b) => specs.add(b.dataset.when));
        statusOf(i).forEach(({ s }) => [s.figure, s.last, s.done, s.all, s.end].forEach((f) => f && specs.add(f)));
        sections[i].querySelectorAll(".lesson-goal[data-show]").forEach((g) => specs.add(g.dataset.show)); // goal.js shows it
        wait.step = i; wait.set = JSON.stringify(set);
        if (wait.set !== shownFor[i]) pending(i, true);
        return Object.assign({ set, figures: Array.from(specs) }, report.length ? { report } : {});
      },
      shown(i) { if (allKeys.size) url(i); },
      figures(ev) {
        const i = steps.findIndex((st) => st.id === ev.step);
        if (i !== wait.step || JSON.stringify(ev.set) !== wait.set) return; // an earlier setting's
        const values = ev.values || {}, errors = ev.errors || {};
        figuresOf(i).forEach((f) => {
          const spec = f.dataset.figure;
          if (spec in values) { f.textContent = values[spec]; f.removeAttribute("title"); f.classList.remove("failed"); }
          else { f.textContent = "—"; f.title = errors[spec] || ""; f.classList.add("failed"); }
        });
        showWhen(sections[i], values);
        pending(i, false);
        shownFor[i] = wait.set;
        state.runs++; state.last = ev;
        statusOf(i).forEach(({ el, s }) => { el.textContent = said(s, values, wait.moved); });
      },
      failed(message) {
        const i = wait.step;
        if (i < 0 || !state.pending) return;
        pending(i, false);
        figuresOf(i).forEach((f) => { f.textContent = "—"; f.title = message; f.classList.add("failed"); });
        statusOf(i).forEach(({ el, s }) => { el.textContent = (s.failed || "{}").replace("{}", message); });
      },
    };
  }

  knobs = lessonKnobs();
  // ---- Progress (read by the index, static/index.js) ----
  // A step is finished once, while it is shown, its quiz is answered (right,
  // or by Show me: quiz.js) or the canvas reaches the end of the step's run
  // (at any knob position; or already stands there, for a step that keeps
  // the previous step's run). A step with neither a quiz nor a scenario,
  // comparison or knob of its own (a recap) is finished when shown. The
  // finished step ids are kept in localStorage "fabriclab.progress.<slug>"
  // as a JSON array; without localStorage they last as long as the page.
  const progress = (() => {
    const slug = decodeURIComponent(location.pathname.split("/").pop() || "").split(".")[0];
    const storeKey = "fabriclab.progress." + slug;
    let done = [], loading = false; // loading: a load is sent, the canvas has not answered yet
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
    const atEnd = () => canvas.end_us > 0 && canvas.t_us >= canvas.end_us;
    const textOnly = (i) => !sections[i].querySelector("form.lesson-quiz, .lesson-scenario, .lesson-compare, .lesson-knob");
    document.addEventListener("fabriclab:answered", (e) => {
      const k = sections.indexOf(e.target.closest(".step"));
      if (k >= 0) mark(k);
    });
    window.fabriclabProgress = { finished: () => done.slice() };
    return {
      shown: (i) => { if (textOnly(i)) mark(i); },
      loading: () => { loading = true; },
      loaded: () => { loading = false; },
      kept: () => { if (!loading && atEnd()) mark(current); }, // the step keeps the run on the canvas
      ended: () => { if (!loading && current >= 0) mark(current); },
    };
  })();

  const byHash = steps.findIndex((s) => "#" + s.id === location.hash);
  show(byHash >= 0 ? byHash : 0, false);
  window.addEventListener("hashchange", () => {
    const k = steps.findIndex((s) => "#" + s.id === location.hash);
    if (k >= 0) show(k, false);
  });
})();
