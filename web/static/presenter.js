// Presenting a lesson with a clicker or a keyboard (reveal.js's habits):
// PageDown scrolls a long step a screen at a time and goes to the next step
// at its end, PageUp the reverse (to the end of the previous step); Home and
// End; a number then Enter; b (and . in presenter mode) blanks the screen
// until the next key; o or Esc shows the steps' overview; the stage's full
// screen keeps the step's number, title and first sentence above the canvas.
// On a screen too narrow for a comparison beside the text (a 1024×768
// projector), a comparison step takes the lesson's whole width and its text
// is a drawer over the left, which T and the header's Text button close and
// open (presenter.css: body.stage-wide).
// lesson.js calls fabriclabPresenter once and hands it every lesson key.
window.fabriclabPresenter = (lesson) => {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const text = $("text"), stage = document.querySelector(".stage"), overview = $("overview"), blank = $("blank"), jump = $("jump");
  const items = Array.from(overview.querySelectorAll("button[data-step]"));
  let digits = "", before = null;
  const presenting = () => document.body.classList.contains("presenter");
  const full = () => document.fullscreenElement === stage;

  // The element that scrolls the step: the text pane, or the page when it is one column.
  const scroller = () => text.scrollHeight > text.clientHeight + 1 ? text : document.scrollingElement;
  const stepper = () => text.querySelector(".stepper").getBoundingClientRect().height;
  const page = (sc) => Math.max(80, sc.clientHeight - stepper() - 40); // keep a line of overlap
  const atEnd = (sc) => sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 2;
  function pageDown() {
    const sc = scroller();
    if (full() || atEnd(sc)) lesson.show(lesson.current() + 1);
    else sc.scrollTop += page(sc);
  }
  function pageUp() {
    const sc = scroller();
    if (full() || sc.scrollTop <= 0) {
      if (lesson.current() === 0) return;
      lesson.show(lesson.current() - 1);
      if (!full()) { const s = scroller(); s.scrollTop = s.scrollHeight; } // reveal.js: back to the previous step's end
    } else sc.scrollTop = Math.max(0, sc.scrollTop - page(sc));
  }

  // focusBack returns the focus where it was before a dialog took it.
  const remember = (fromCanvas) => { before = fromCanvas ? lesson.toCanvas : document.activeElement; };
  const focusBack = () => { if (before && before.focus) before.focus(); before = null; };
  function setBlank(on, fromCanvas) {
    if (on === blank.open) return;
    if (on) { remember(fromCanvas); blank.showModal(); blank.focus(); } else { blank.close(); focusBack(); }
  }
  blank.addEventListener("cancel", (e) => { e.preventDefault(); setBlank(false); });
  blank.addEventListener("pointerdown", () => setBlank(false));

  function showOverview(on, fromCanvas) {
    if (on === overview.open) return;
    if (!on) { overview.close(); focusBack(); return; }
    remember(fromCanvas);
    const done = lesson.finished();
    items.forEach((b, i) => {
      const finished = done.includes(lesson.steps[i].id);
      b.querySelector(".done").hidden = !finished;
      if (i === lesson.current()) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    overview.showModal();
    items[lesson.current()].focus();
  }
  overview.addEventListener("cancel", (e) => { e.preventDefault(); showOverview(false); });
  items.forEach((b, i) => b.addEventListener("click", () => { showOverview(false); lesson.show(i); }));
  // moveIn moves the overview's focus by d items (its grid: arrows across and down).
  function moveIn(d) {
    const at = Math.max(0, items.indexOf(document.activeElement));
    items[Math.max(0, Math.min(items.length - 1, at + d))].focus();
  }
  const perRow = () => {
    const top = items[0].getBoundingClientRect().top;
    return Math.max(1, items.filter((b) => b.getBoundingClientRect().top === top).length);
  };
  function overviewKey(k) {
    switch (k) {
      case "ArrowRight": moveIn(1); return true;
      case "ArrowLeft": moveIn(-1); return true;
      case "ArrowDown": case "PageDown": moveIn(perRow()); return true;
      case "ArrowUp": case "PageUp": moveIn(-perRow()); return true;
      case "Home": items[0].focus(); return true;
      case "End": items[items.length - 1].focus(); return true;
      case "Enter": case " ": if (items.includes(document.activeElement)) document.activeElement.click(); return true;
      case "o": case "O": case "Escape": showOverview(false); return true;
    }
    return k !== "Tab"; // nothing acts behind the overview
  }

  function typed(d) {
    digits = (digits + d).slice(-3);
    jump.textContent = "→ " + digits;
    jump.hidden = false;
  }
  const clearDigits = () => { digits = ""; jump.hidden = true; };

  // The stage's context in full screen: "3 / 9 · title" and the step's first sentence.
  function shown(i) {
    layout();
    const sec = document.querySelectorAll(".step")[i];
    $("context-title").textContent = (i + 1) + " / " + lesson.steps.length + " · " + lesson.steps[i].title;
    const p = sec && Array.from(sec.querySelectorAll(":scope > p")).find((e) => !e.className && e.textContent.trim());
    const first = p ? p.textContent.trim().split(/(?<=[.!?。！？])\s*/)[0] : "";
    $("context-caption").textContent = first;
  }
  function fullscreen() {
    if (full()) document.exitFullscreen().catch(() => {});
    else if (stage.requestFullscreen) stage.requestFullscreen().catch(() => {});
  }
  document.addEventListener("fullscreenchange", () => lesson.send({ fabriclab: "keys", fullscreen: full() }));

  // wide: presenting a comparison where the stage beside the text would be
  // under 900 px (the panes sit one above the other there, and at the
  // presenter's text size their topologies do not fit).
  const toggle = $("text-toggle");
  const wide = () => presenting() && lesson.compare() && window.innerWidth < 1400;
  function setText(open) {
    document.body.classList.toggle("text-closed", !open);
    toggle.setAttribute("aria-pressed", String(open));
  }
  function layout() {
    const on = wide();
    if (on !== document.body.classList.contains("stage-wide")) setText(true); // each wide step opens with its text
    document.body.classList.toggle("stage-wide", on);
    toggle.hidden = !on;
  }
  toggle.addEventListener("click", () => setText(document.body.classList.contains("text-closed")));
  window.addEventListener("resize", layout);
  document.addEventListener("fabriclab:answered", layout); // a drill's answer shows its two runs
  new MutationObserver(layout).observe(document.body, { attributes: true, attributeFilter: ["class"] }); // presenter mode on or off

  return {
    shown, fullscreen,
    typing: () => digits !== "", // a number waits for its Enter
    open: () => blank.open || overview.open, // a blank screen or the overview takes every key
    // key acts on a lesson key (fromCanvas: pressed on the canvas); it returns whether the key was used.
    key(k, fromCanvas) {
      if (blank.open) { setBlank(false); return true; } // any key brings the lesson back
      if (overview.open) return overviewKey(k);
      if (/^[0-9]$/.test(k)) { typed(k); return true; }
      if (k === "Enter" && digits) { const n = Number(digits); clearDigits(); if (n >= 1) lesson.show(n - 1); return true; }
      clearDigits();
      switch (k) {
        case "PageDown": pageDown(); return true;
        case "PageUp": pageUp(); return true;
        case "Home": lesson.show(0); return true;
        case "End": lesson.show(lesson.steps.length - 1); return true;
        case "b": case "B": setBlank(true, fromCanvas); return true;
        case ".": if (!presenting()) return false; setBlank(true, fromCanvas); return true;
        case "o": case "O": case "Escape": showOverview(true, fromCanvas); return true;
        case "t": case "T": if (!document.body.classList.contains("stage-wide")) return false; setText(document.body.classList.contains("text-closed")); return true;
      }
      return false;
    },
  };
};
