// The lesson page: shows one step at a time beside the canvas, loads each
// step's scenario into the canvas iframe, and handles the keyboard (the canvas
// is in an iframe, which only gets keys after a click, so shortcuts live here).
(() => {
  "use strict";
  const steps = JSON.parse(document.getElementById("steps").textContent);
  const frame = document.getElementById("canvas");
  const sections = Array.from(document.querySelectorAll(".step"));
  const links = Array.from(document.querySelectorAll(".stepper ol a"));
  let current = -1, ready = false, loadedYAML = null;

  const send = (msg) => frame.contentWindow && frame.contentWindow.postMessage(msg, "*");
  const scenarioFor = (i) => { for (let k = i; k >= 0; k--) if (steps[k].scenario) return steps[k].scenario; return null; };

  function show(i, push) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (i === current) return;
    current = i;
    sections.forEach((s, k) => s.classList.toggle("current", k === i));
    links.forEach((a, k) => a.toggleAttribute("aria-current", k === i) || (k === i && a.setAttribute("aria-current", "step")));
    links.forEach((a, k) => { if (k === i) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current"); });
    document.getElementById("count").textContent = (i + 1) + " / " + steps.length;
    document.getElementById("prev").disabled = i === 0;
    document.getElementById("next").disabled = i === steps.length - 1;
    const id = steps[i].id;
    if (push) history.replaceState(null, "", "#" + id);
    document.querySelectorAll("[data-alternate]").forEach((a) => { a.hash = id; });
    document.getElementById("text").scrollTop = 0;
    window.scrollTo(0, 0); // a #step link must not scroll the page past its header
    loadScenario();
  }
  function loadScenario() {
    const yaml = scenarioFor(current);
    if (!ready || !yaml || yaml === loadedYAML) return;
    loadedYAML = yaml;
    send({ fabriclab: "load", yaml: yaml, step: steps[current].id });
  }

  // What the canvas last said, for scripts and tests: window.fabriclabCanvas.
  const canvas = window.fabriclabCanvas = { ready: false, loaded: "", step: "", playing: false, t_us: 0, end_us: 0, error: "" };
  window.addEventListener("message", (e) => {
    if (e.source !== frame.contentWindow || !e.data || typeof e.data.fabriclab !== "string") return;
    const ev = e.data;
    switch (ev.fabriclab) {
      case "ready":
        ready = canvas.ready = true; loadedYAML = null; loadScenario();
        if (document.body.classList.contains("presenter")) send({ fabriclab: "presenter", on: true });
        break;
      case "loaded": canvas.loaded = ev.name; canvas.step = ev.step || ""; break;
      case "time": canvas.playing = ev.playing; canvas.t_us = ev.t_us; canvas.end_us = ev.end_us; break;
      case "error": canvas.error = ev.message; break;
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

  window.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA") && t.type !== "radio") return;
    switch (e.key) {
      case "ArrowRight": case "PageDown": e.preventDefault(); show(current + 1, true); break;
      case "ArrowLeft": case "PageUp": e.preventDefault(); show(current - 1, true); break;
      case " ": e.preventDefault(); send({ fabriclab: "toggle" }); break;
      case ".": send({ fabriclab: "step" }); break;
      case ",": send({ fabriclab: "back" }); break;
      case "r": send({ fabriclab: "reset" }); break;
      case "+": case "=": send({ fabriclab: "faster" }); break;
      case "-": send({ fabriclab: "slower" }); break;
      case "p": togglePresenter(); break;
      case "f": if (frame.requestFullscreen) frame.requestFullscreen(); break;
    }
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

  const byHash = steps.findIndex((s) => "#" + s.id === location.hash);
  show(byHash >= 0 ? byHash : 0, false);
  window.addEventListener("hashchange", () => {
    const k = steps.findIndex((s) => "#" + s.id === location.hash);
    if (k >= 0) show(k, false);
  });
})();
