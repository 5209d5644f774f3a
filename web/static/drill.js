// Drills, "find the fault" (lessons/drill.go): a quiz about a run with one
// thing set wrong, under a hidden name, whose options are fixes. quiz.js asks
// it (a wrong fix says why it does not help; the learner tries again); once
// it is answered, right or by Show me, the step's canvas shows the faulty
// run beside the fixed one: the step's "drill" comparison, which lesson.js
// loads as it loads a compare step.
(() => {
  "use strict";
  const answered = (form) => form.dataset.result === "right" || form.dataset.result === "shown";
  window.fabriclabDrill = {
    // compare is what step (steps[i], shown in section) compares now: its
    // drill's two runs once the drill is answered, else null.
    compare(step, section) {
      const form = section && section.querySelector("form.lesson-drill");
      return step.drill && form && answered(form) ? step.drill : null;
    },
  };
})();
