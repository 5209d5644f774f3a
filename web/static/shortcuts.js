// Single-key shortcuts (letters and symbols: P, R, ., ?, …), WCAG 2.1.4:
// they act only while the canvas or the lesson text has the focus (not on a
// link, a button or a form), and the ? list's checkbox turns them off for
// this browser (localStorage "fabriclab.keys.single" = "off"; the lesson and
// its canvas share it). Space, arrows and Page keys are not single-key
// shortcuts and stay on.
(() => {
  "use strict";
  const store = "fabriclab.keys.single";
  const on = () => { try { return localStorage.getItem(store) !== "off"; } catch (_) { return true; } };
  const box = document.getElementById("keys-single");
  if (box) {
    box.checked = on();
    box.addEventListener("change", () => {
      try { if (box.checked) localStorage.removeItem(store); else localStorage.setItem(store, "off"); } catch (_) {}
    });
  }
  // Where a single key may act: not on a control (a link, a button, a field, a form): nothing
  // focused, the page, the lesson text, the canvas, a closed dialog the focus was left on.
  const quiet = (el) => !el || !el.closest || !el.closest("a[href], button, input, select, textarea, summary, form, [contenteditable]");
  // A modal dialog keeps Tab inside: past its last control back to its first, and the other way.
  window.addEventListener("keydown", (e) => {
    const d = e.key === "Tab" && document.querySelector("dialog:modal");
    if (!d) return;
    const stops = Array.from(d.querySelectorAll("button, input, select, textarea, a[href], [tabindex]")).filter((el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length);
    if (!stops.length) return;
    const first = stops[0], last = stops[stops.length - 1];
    if (e.shiftKey ? document.activeElement === first || !d.contains(document.activeElement) : document.activeElement === last) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    }
  }, true);
  window.fabriclabShortcuts = {
    on,
    // acts says whether key k, pressed on target (null: on the canvas), may act.
    acts: (k, target) => k.length !== 1 || k === " " || (on() && (target === null || quiet(target))),
  };
})();
