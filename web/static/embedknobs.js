// An embed's knobs (knobs=key1,key2 with knob.KEY=values): a lesson's knob
// controls (the same markup and styles: lessons/knob.go) over the canvas.
// Moving one loads the scenario again with key=value, as a lesson's knob
// re-runs its step. embed.js calls setup before the program starts (a knob
// starts where the address's set= puts it, else at its first value, which
// the address then sets) and tells playing.
const fabriclabEmbedKnobs = (() => {
  "use strict";
  const maxPositions = 64; // as a lesson's knob (lessons.MaxKnobPositions)
  const keyPattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$/;

  // parse reads knob.KEY's values: a..b (whole numbers, a step of 1), or a
  // list a,b,c; true,false (either order) is a toggle; a list of numbers a
  // slider, of words a select. It throws an Error saying what to write.
  const parse = (key, text) => {
    const how = "write knob." + key + "=1..16 (whole numbers), knob." + key + "=2,4,8 or knob." + key + "=ecmp,adaptive (2 to " + maxPositions + " values), or knob." + key + "=false,true";
    if (!keyPattern.test(key)) throw new Error("knobs=: " + JSON.stringify(key) + " is not a scenario key; name keys as set= does, e.g. knobs=traffic.senders");
    if (text === null) throw new Error("knob " + key + " has no values; " + how);
    let values;
    const range = /^(-?\d+)\.\.(-?\d+)$/.exec(text);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (!(b > a) || b - a + 1 > maxPositions) throw new Error("knob." + key + "=" + text + ": a range goes up, with 2 to " + maxPositions + " positions; " + how);
      values = Array.from({ length: b - a + 1 }, (_, i) => String(a + i));
    } else {
      values = text.split(",").map((v) => v.trim());
      if (values.length < 2 || values.length > maxPositions || values.some((v) => v === "" || /[=&]/.test(v))) {
        throw new Error("knob." + key + "=" + text + ": " + how);
      }
      if (new Set(values).size !== values.length) throw new Error("knob." + key + "=" + text + " gives a value twice; give each once");
    }
    const toggle = values.length === 2 && values.includes("true") && values.includes("false");
    const numeric = values.every((v) => v !== "" && isFinite(Number(v)));
    return { key, values, control: toggle ? "toggle" : numeric ? "range" : "select" };
  };

  // control builds a knob's markup as lessons/knob.go renders it.
  const control = (k, n) => {
    const div = document.createElement("div");
    div.className = "lesson-knob lesson-knob-" + k.control;
    div.dataset.key = k.key;
    const id = "embed-knob-" + n;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = k.key;
    let input;
    if (k.control === "range") {
      input = Object.assign(document.createElement("input"), { type: "range", id, min: 0, max: k.values.length - 1, step: 1, value: k.at });
      const out = document.createElement("output");
      out.htmlFor = id;
      out.setAttribute("aria-hidden", "true");
      div.append(label, input, out);
    } else if (k.control === "select") {
      input = Object.assign(document.createElement("select"), { id });
      for (const v of k.values) input.append(new Option(v, v));
      div.append(label, input);
    } else {
      input = Object.assign(document.createElement("input"), { type: "checkbox", id });
      div.append(input, label);
    }
    k.input = input;
    return div;
  };

  // show puts a knob's position into its control.
  const show = (k) => {
    const v = k.values[k.at];
    if (k.control === "range") {
      k.input.value = k.at;
      k.input.setAttribute("aria-valuetext", v);
      k.input.nextElementSibling.textContent = v;
    } else if (k.control === "select") k.input.value = v;
    else k.input.checked = v === "true";
  };
  const read = (k) => k.control === "range" ? Number(k.input.value) : k.values.indexOf(k.control === "select" ? k.input.value : String(k.input.checked));

  // setup reads the knobs from params (a URLSearchParams, changed in place:
  // a knob without set= gets its first value's) and builds the panel.
  // command sends the canvas a command; notice shows what was wrong. It
  // returns whether params changed.
  let shown = null; // says what the canvas shows, once a knob's load is built
  const setup = (params, t, command, notice) => {
    if (!params.has("knobs")) return false;
    const keys = params.get("knobs").split(",").map((k) => k.trim()).filter((k) => k);
    if (params.get("compare") === "1" || params.has("left")) { notice(t("embed.knobs.compare")); return false; }
    const knobs = [];
    for (const key of keys.slice(0, 8)) {
      try {
        const k = parse(key, params.get("knob." + key));
        const set = params.getAll("set").find((s) => s.split("=")[0] === key);
        k.at = set === undefined ? 0 : k.values.indexOf(set.slice(key.length + 1));
        if (k.at < 0) throw new Error("knob." + key + ": the address's set=" + set + " is not one of its values (" + k.values.join(", ") + "); give set=" + key + "= one of them, or leave it out to start at the first");
        knobs.push(k);
      } catch (err) { notice(err.message); }
    }
    if (keys.length > 8) notice(t("embed.knobs.many", keys.length));
    if (!knobs.length) return false;

    const panel = document.getElementById("embed-knobs");
    const group = panel.querySelector(".lesson-knobs");
    knobs.forEach((k, n) => { group.insertBefore(control(k, n + 1), group.lastElementChild); show(k); });
    panel.hidden = false;
    document.body.classList.add("with-knobs"); // a notice goes beside the panel (site.css)
    const status = panel.querySelector(".lesson-knobs-status");
    // What the canvas loads: the address's scenario (or yaml) with its set=, the knobs' in place of theirs.
    const ownSets = params.getAll("set").filter((s) => !knobs.some((k) => s.split("=")[0] === k.key));
    const yaml = params.get("yaml");
    const base = yaml ? { yaml: new TextDecoder().decode(Uint8Array.from(atob(yaml.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "")), (c) => c.charCodeAt(0))) }
      : { scenario: params.get("scenario") || "incast" };
    let timer = 0;
    shown = () => { status.textContent = t("embed.knobs.shown", knobs.map((k) => k.key + " = " + k.values[k.at]).join(", ")); };
    const load = () => {
      const set = ownSets.concat(knobs.map((k) => k.key + "=" + k.values[k.at]));
      command(Object.assign({ fabriclab: "load", set, play: playing }, base));
      status.textContent = t("embed.knobs.running", knobs.map((k) => k.key + " = " + k.values[k.at]).join(", "));
    };
    for (const k of knobs) {
      k.input.addEventListener(k.control === "range" ? "input" : "change", () => {
        k.at = read(k);
        show(k);
        clearTimeout(timer);
        timer = setTimeout(load, 250); // once the knob rests
      });
    }
    panel.querySelector(".lesson-knobs-reset").addEventListener("click", () => {
      for (const k of knobs) { k.at = k.first; show(k); }
      load();
    });
    for (const k of knobs) k.first = k.at;
    // The canvas plays the knobs' positions from the start: the address says them.
    let changed = false;
    for (const k of knobs) {
      if (!params.getAll("set").some((s) => s.split("=")[0] === k.key)) { params.append("set", k.key + "=" + k.values[k.at]); changed = true; }
    }
    return changed;
  };
  let playing = false;
  return { setup, parse, playing: (on) => { playing = on; }, loaded: () => { if (shown) shown(); } };
})();
