// cpwords serve: what every page shares. Talks to the JSON API, runs jobs with a progress bar,
// shows errors and pictures, offers downloads and the YAML panel. A kind's page script
// (/pages/<kind>.js) registers how its answers are shown: CP.register({render(answer) {...}}).
// Every text a user or the server gives is put in with textContent, never as HTML.
"use strict";

const CP = (() => {
  const $ = (id) => document.getElementById(id);
  const kind = document.body.dataset.kind;
  const table = JSON.parse(($("puzzle") && $("puzzle").dataset.table) || "{}");

  /** An element: el("li", {class: "x", onclick: f}, "text", child, …). */
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  class ApiError extends Error {
    constructor(body, status, retryAfter) {
      super(body.error || `error ${status}`);
      this.body = body;
      this.status = status;
      this.retryAfter = retryAfter;
    }
  }

  /** Call the API; JSON in and out. `yaml` sends text instead. Throws ApiError on 4xx/5xx. */
  async function call(method, path, { json, yaml } = {}) {
    const headers = { Accept: "application/json" };
    let body;
    if (json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(json);
    } else if (yaml !== undefined) {
      headers["Content-Type"] = "application/yaml";
      body = yaml;
    }
    let response;
    try {
      response = await fetch(path, { method, headers, body, credentials: "same-origin" });
    } catch (err) {
      throw new ApiError({ error: "the server cannot be reached" }, 0);
    }
    let data;
    try {
      data = await response.json();
    } catch (err) {
      data = { error: `${response.status} ${response.statusText}` };
    }
    if (!response.ok) throw new ApiError(data, response.status, response.headers.get("Retry-After"));
    return data;
  }

  const specBody = (spec) => (typeof spec === "string" ? { yaml: spec } : { json: spec });

  /** Solve a spec (an object, or YAML text) and wait for the answer {spec, result, pictures};
   *  `blank`: pictures of the player's view, without the answer. */
  const solve = (spec, { blank = false } = {}) =>
    call("POST", `/api/solve?pictures=true${blank ? "&blank=true" : ""}`, specBody(spec));

  // ------------------------------------------------------------ status line and busy state

  function say(text, tone = "info") {
    const box = $("status");
    box.className = `status ${tone}`;
    box.replaceChildren(text ? el("span", {}, text) : "");
  }

  function fail(err) {
    const box = $("status");
    box.className = "status error";
    const body = (err && err.body) || {};
    const parts = [el("strong", {}, "Error: "), el("span", { class: "message" }, err.message || String(err))];
    if (err.status === 429 && err.retryAfter) parts.push(el("span", { class: "where" }, `Try again in ${err.retryAfter} s.`));
    else if (body.field) parts.push(el("span", { class: "where" }, `field: ${body.field}`));
    box.replaceChildren(...parts);
  }

  let busyCount = 0;
  function busy(on) {
    busyCount += on ? 1 : -1;
    for (const b of document.querySelectorAll("#puzzle button, #yaml-panel button")) b.disabled = busyCount > 0;
    document.body.setAttribute("aria-busy", busyCount > 0 ? "true" : "false");
  }

  /** Run an API call with the page busy and errors shown; returns its value or undefined. */
  async function run(task, message = "Solving…") {
    busy(true);
    say(message);
    try {
      const value = await task();
      say("");
      return value;
    } catch (err) {
      fail(err);
      return undefined;
    } finally {
      busy(false);
    }
  }

  // ------------------------------------------------------------ jobs

  /** Start a job and follow its events; resolves with the final job (status done, failed or cancelled). */
  async function job(spec, label = "Working") {
    const started = await call("POST", "/api/jobs?pictures=true", specBody(spec));
    const panel = $("job"), bar = $("job-progress"), text = $("job-text"), cancel = $("job-cancel");
    panel.hidden = false;
    panel.dataset.job = started.id;
    bar.removeAttribute("value");
    text.textContent = `${label}: waiting for a worker…`;
    cancel.disabled = false;
    cancel.focus();
    return new Promise((resolve) => {
      const source = new EventSource(started.events);
      const finish = async () => {
        source.close();
        cancel.onclick = null;
        let final;
        try {
          final = await call("GET", started.url);
        } catch (err) {
          final = { status: "failed", error: err.body || { error: err.message } };
        }
        panel.hidden = true;
        delete panel.dataset.job;
        resolve(final);
      };
      cancel.onclick = async () => {
        cancel.disabled = true;
        text.textContent = `${label}: cancelling…`;
        try { await call("DELETE", started.url); } catch (err) { /* the end event comes anyway */ }
      };
      source.addEventListener("state", (event) => {
        const state = JSON.parse(event.data);
        const p = state.progress;
        if (state.status === "running") {
          if (p && p.total) {
            bar.max = p.total;
            bar.value = Math.min(p.done, p.total);
            text.textContent = `${label}: ${p.description}, ${p.done.toLocaleString()} of ${p.total.toLocaleString()}`;
          } else {
            bar.removeAttribute("value");
            text.textContent = `${label}: ${p ? p.description : "running"}…`;
          }
        }
      });
      source.addEventListener("end", finish);
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) finish();
      };
    });
  }

  /** Run a job with the page busy; shows the answer (through `render`) or why there is none. */
  async function runJob(spec, label, render) {
    busy(true);
    say("");
    $("answer").replaceChildren();  // an older answer beside a running job would read as its result
    $("downloads").hidden = true;
    try {
      const final = await job(spec, label);
      if (final.status === "done") show(final, render);
      else if (final.status === "cancelled") say("The job was cancelled." + (final.result ? " What was found so far is shown." : ""), "info");
      else fail(new ApiError(final.error || { error: "the job failed" }, 500));
      if (final.status === "cancelled" && final.result) show(final, render, false);
      return final;
    } catch (err) {
      fail(err);
      return undefined;
    } finally {
      busy(false);
      $("job").hidden = true;
    }
  }

  // ------------------------------------------------------------ answers

  function svgUrl(svg) {
    return URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  }

  /** The answer's SVG pictures as images (never inlined: an image cannot run scripts). */
  function pictures(answer, alt) {
    const pics = (answer && answer.pictures) || [];
    if (!pics.length) return null;
    return el("div", { class: "pictures" },
      pics.map((svg, i) => el("img", { src: svgUrl(svg), alt: `${alt || "picture"}${pics.length > 1 ? ` ${i + 1}` : ""}` })));
  }

  function downloads(answer) {
    const box = $("downloads");
    const name = (answer.spec && answer.spec.kind) || kind || "cpwords";
    // A result too big for one answer is a download of the server's own (every answer in it).
    const href = answer.full_result ? answer.full_result.url
      : URL.createObjectURL(new Blob([JSON.stringify(answer.result, null, 2)], { type: "application/json" }));
    const links = [el("a", { class: "button secondary", href, download: `${name}.json` }, "Download JSON")];
    const pics = answer.pictures || [];
    if (pics.length)
      links.push(el("a", { class: "button secondary", href: svgUrl(pics[0]), download: `${name}${pics.length > 1 ? "-1" : ""}.svg` },
        pics.length > 1 ? "Download SVG 1" : "Download SVG"));
    if (pics.length > 1)  // the other pictures as small links: one button a picture would crowd the page
      links.push(el("span", { class: "more-svg" }, "more SVG:", pics.slice(1, 20).map((svg, i) =>
        el("a", { href: svgUrl(svg), download: `${name}-${i + 2}.svg` }, String(i + 2)))));
    box.replaceChildren(...links);
    box.hidden = false;
  }

  /** A number and its noun, agreeing in number (cpwords/wording.py): counted(1, "word") is "1 word". */
  const counted = (n, noun, many) => `${n.toLocaleString()} ${n === 1 ? noun : many || noun + "s"}`;

  /** The status of a result in words: solved, infeasible (and why), stopped early. */
  function verdict(result) {
    const good = result.status === "optimal" || result.status === "feasible";
    const parts = [];
    if (result.title) parts.push(el("span", { class: "title" }, result.title + " · "));
    parts.push(result.message || (good ? "Solved." : `No answer (${result.status}).`));
    return el("p", { class: `verdict ${good ? "good" : "bad"}` }, parts);
  }

  /** One solution of any kind in a line: its words, else its plain fields ("score: 12 · path: …"). */
  function solutionText(s) {
    if (Array.isArray(s.words) && s.words.every((w) => typeof w === "string")) return s.words.join(" ");
    const plain = (v) => v === null || typeof v !== "object" || (Array.isArray(v) && v.every((x) => typeof x !== "object"));
    return Object.entries(s).filter(([, v]) => plain(v))
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(" ") : v}`).join(" · ");
  }

  /** The answer of any kind: verdict, count, pictures and every solution's words. */
  function genericRender(answer) {
    const r = answer.result;
    const out = [verdict(r)];
    if (r.count !== null && r.count !== undefined)
      out.push(el("p", {}, `Count: ${r.count.toLocaleString()}${r.count_exact === false ? " (at least)" : ""}`));
    const pics = pictures(answer, r.kind);
    if (pics) out.push(pics);
    if (r.solutions.length) {
      out.push(el("h3", {}, counted(r.solutions.length, "answer")));
      out.push(el("ol", { class: "generic" }, r.solutions.slice(0, 500).map((s) => el("li", {}, solutionText(s)))));
    }
    return out;
  }

  let page = { render: genericRender };
  function register(description) {
    page = { ...page, ...description };
  }

  /** Show an answer: the page's own view when the spec is of this page's kind, else the generic one. */
  function show(answer, render, clearStatus = true) {
    const view = render || (answer.spec && answer.spec.kind !== kind ? genericRender : page.render);
    $("answer").replaceChildren(...[].concat(view(answer)).filter(Boolean));
    downloads(answer);
    const full = answer.full_result;
    if (clearStatus && full && answer.result)
      say(`The first ${answer.result.solutions.length.toLocaleString()} of the ${full.solutions.toLocaleString()} answers ` +
          "are shown; Download JSON has every one.");
  }

  // ------------------------------------------------------------ the YAML panel

  function wireYaml() {
    const text = $("yaml-text");
    if (!text) return;
    const example = $("yaml-example");
    // The box starts with the kind and comments naming the required fields; a page with an example
    // of its own shows that instead, until the user has typed something.
    const untouched = text.value.split("\n").every((l) => !l.trim() || l.startsWith("#") || l.trim() === `kind: ${kind}`);
    if (example && untouched) text.value = example.content.textContent.trim() + "\n";
    $("yaml-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      if (file.size > 1024 * 1024) return fail(new ApiError({ error: "the file is larger than 1 MiB" }, 413));
      text.value = await file.text();
    });
    $("yaml-solve").addEventListener("click", async () => {
      const answer = await run(() => solve(text.value));
      if (answer) show(answer);
    });
    $("yaml-job").addEventListener("click", () => runJob(text.value, "Job"));
  }

  /** The name of the dictionary a page's select names, with offensive words left out unless asked. */
  function dictionary(selectId = "dictionary", keepId = "keep-offensive") {
    const keep = $(keepId);
    return { name: $(selectId).value, exclude: keep && keep.checked ? [] : ["offensive"] };
  }

  /** A fresh random seed (the server reports it in stats; the same seed gives the same answer). */
  const seed = () => Math.floor(Math.random() * 2 ** 31);

  document.addEventListener("DOMContentLoaded", wireYaml);

  return { $, el, call, solve, job, runJob, run, say, fail, show, register, pictures, verdict, genericRender, downloads,
           dictionary, seed, kind, table, counted, ApiError };
})();
