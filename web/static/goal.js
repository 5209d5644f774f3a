// Goals (lessons/goal.go): a box under a step's knobs that says, after each
// re-run the learner asked for, whether the knob now stands at the goal's
// answer, how close it is, or that another knob has moved. The build ran
// every position and wrote, in data-goal, what each sets and whether it
// meets the goal; this only compares the run's settings with them and fills
// in the canvas's figure.
(() => {
  "use strict";
  const frame = document.getElementById("canvas");
  const parse = (s) => { try { return JSON.parse(s); } catch (_) { return null; } };
  const goals = Array.from(document.querySelectorAll(".lesson-goal")).map((el) => {
    const step = el.closest(".step"), h = step && step.querySelector("h2[id]");
    const g = parse(el.dataset.goal) || {};
    return { el, g, step: h ? h.id : "", status: el.querySelector(".lesson-goal-status"), touched: false,
      sets: (g.positions || []).map((p) => JSON.stringify(p.set)) };
  });
  // Only a run the learner asked for is judged: the step's first load is not an attempt.
  goals.forEach((goal) => {
    const step = goal.el.closest(".step");
    if (!step) return;
    const touch = () => { goal.touched = true; };
    step.querySelectorAll(".lesson-knob input, .lesson-knob select").forEach((c) => c.addEventListener("input", touch));
    step.querySelectorAll(".lesson-knob input, .lesson-knob select").forEach((c) => c.addEventListener("change", touch));
  });
  // judge is the goal's line and its result for a run with settings set and figures values.
  const judge = (goal, set, values) => {
    const g = goal.g, w = g.words || {}, at = goal.sets.indexOf(JSON.stringify(set));
    if (at < 0) return ["other", w.other || ""];
    const p = g.positions[at], figure = values[g.show] !== undefined ? values[g.show] : "—";
    const measure = (g.measure || "{}").replace("{}", figure);
    if (g.pick === "any" ? p.met : at === g.answer) return ["found", (w.found_it || "{}").replace("{}", g.found.replace("{}", p.text))];
    const line = p.met ? w.over : w.not_yet;
    return [p.met ? "over" : "not-yet", (line || "").replace("{value}", p.text).replace("{measure}", measure)];
  };
  window.addEventListener("message", (e) => {
    if (!frame || e.source !== frame.contentWindow || !e.data || e.data.fabriclab !== "figures") return;
    goals.forEach((goal) => {
      if (goal.step !== e.data.step || !goal.touched) return;
      const [result, text] = judge(goal, e.data.set || [], e.data.values || {});
      goal.el.dataset.result = result;
      goal.status.textContent = text;
    });
  });
})();
