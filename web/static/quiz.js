// Quizzes: predict, then watch. A wrong answer is marked ✗ and says why that
// option is wrong (its input's data-why); the learner tries again. A right
// answer or "Show me" marks the answer ✓, shows the explanation and reveals
// what the step kept back until then (data-quiz="N" hidden: the text after
// the quiz, the knobs' status lines, the comparison's difference), then
// tells the page (event "fabriclab:answered"). Answered quizzes are kept in
// localStorage "fabriclab.quiz.<page>" as {N: "right" | "shown"}.
(() => {
  "use strict";
  const page = decodeURIComponent(location.pathname.split("/").pop() || "").replace(/\.html$/, "");
  const storeKey = "fabriclab.quiz." + page;
  let answered = {};
  try {
    const v = JSON.parse(localStorage.getItem(storeKey) || "{}");
    if (v && typeof v === "object" && !Array.isArray(v)) answered = v;
  } catch (_) {}
  const save = () => { try { localStorage.setItem(storeKey, JSON.stringify(answered)); } catch (_) {} };

  // mark puts a visible mark (✓ or ✗ and a word) after an option's text.
  const mark = (label, text, cls) => {
    let m = label.querySelector(".lesson-quiz-mark");
    if (!m) { m = document.createElement("span"); m.className = "lesson-quiz-mark"; label.append(" ", m); }
    m.textContent = text;
    label.classList.add(cls);
  };
  const isAnswered = (form) => form.dataset.result === "right" || form.dataset.result === "shown";

  function reveal(form, result, restored) {
    form.dataset.result = result;
    form.querySelector(".lesson-quiz-verdict").textContent = result === "right" ? form.dataset.right : form.dataset.shown;
    form.querySelector(".lesson-quiz-hint").textContent = "";
    form.querySelector(".lesson-quiz-explain").hidden = false;
    const right = form.querySelector('input[type=radio][value="' + form.dataset.answer + '"]');
    if (right) { right.checked = true; mark(right.closest("label"), "✓ " + form.dataset.mark, "answer"); }
    const show = form.querySelector(".lesson-quiz-show");
    if (show) show.hidden = true;
    const step = form.closest(".step") || document;
    step.querySelectorAll('[data-quiz="' + form.dataset.quiz + '"][hidden]').forEach((el) => { el.hidden = false; });
    answered[form.dataset.quiz] = result;
    if (!restored) {
      save();
      form.dispatchEvent(new CustomEvent("fabriclab:answered", { bubbles: true, detail: { result } }));
    }
  }

  document.querySelectorAll("form.lesson-quiz").forEach((form) => {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const picked = form.querySelector("input[type=radio]:checked");
      if (!picked || isAnswered(form)) return;
      if (picked.value === form.dataset.answer) { reveal(form, "right"); return; }
      form.dataset.result = "wrong";
      mark(picked.closest("label"), "✗ " + form.dataset.tried, "tried");
      const hint = [form.dataset.wrong, picked.dataset.why || "", form.dataset.again].join(" ");
      form.querySelector(".lesson-quiz-hint").textContent = hint.replace(/([。！？])\s+/g, "$1"); // no space after a Chinese full stop
    });
    const show = form.querySelector(".lesson-quiz-show");
    if (show) show.addEventListener("click", () => { if (!isAnswered(form)) reveal(form, "shown"); });
    const was = answered[form.dataset.quiz];
    if (was === "right" || was === "shown") reveal(form, was, true);
  });

  window.fabriclabQuiz = {
    // hold hides el (something the page adds to a step, such as the
    // comparison's difference) until the step's quiz is answered.
    hold(step, el) {
      const form = step && Array.from(step.querySelectorAll("form.lesson-quiz")).find((f) => !isAnswered(f));
      if (!form) return;
      el.dataset.quiz = form.dataset.quiz;
      el.hidden = true;
    },
  };
})();
