// The index: shows, per lesson, how many of its steps this browser has
// finished (localStorage "fabriclab.progress.<slug>", written by lesson.js)
// and a link to the first unfinished step. Without localStorage (private
// mode, a sandboxed frame) it shows nothing extra.
(() => {
  "use strict";
  const list = document.querySelector(".cards.course");
  if (!list) return;
  const finished = (slug) => {
    try {
      const v = JSON.parse(localStorage.getItem("fabriclab.progress." + slug) || "[]");
      return Array.isArray(v) ? v : [];
    } catch (_) { return []; }
  };
  list.querySelectorAll(".card[data-slug]").forEach((card) => {
    const ids = (card.dataset.steps || "").split(" ").filter(Boolean);
    const done = new Set(finished(card.dataset.slug));
    const n = ids.filter((id) => done.has(id)).length;
    if (n === 0 || ids.length === 0) return;
    const box = card.querySelector(".course-progress");
    box.hidden = false;
    box.querySelector(".bar > span").style.width = Math.round(100 * n / ids.length) + "%";
    const all = n === ids.length;
    box.querySelector(".done").textContent = all ? list.dataset.finishedText
      : list.dataset.progressText.replace("{done}", n).replace("{total}", ids.length);
    card.classList.toggle("finished", all);
    const next = ids.find((id) => !done.has(id));
    if (next) {
      const a = box.querySelector(".continue");
      a.hidden = false;
      a.href = card.dataset.href + "#" + next;
      a.textContent = list.dataset.continueText + " →";
    }
  });
})();
