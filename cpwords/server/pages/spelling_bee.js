// The Spelling Bee page: seven letters and a centre in; the hive drawn (centre marked), every
// word with its score, pangrams marked, the ranks from Beginner to Queen Bee; a generated hive.
"use strict";
(() => {
  const { $, el } = CP;
  const SVG = "http://www.w3.org/2000/svg";
  const R = 34;  // a hexagon's radius in SVG units

  const letters = () => $("letters").value.trim().toLowerCase();
  const center = () => ($("center").value.trim().toLowerCase() || letters()[0] || "");

  function svg(tag, attrs = {}, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A flat-topped hexagon at (x, y) with its letter; the centre one filled in the game's yellow. */
  function hex(x, y, letter, isCenter) {
    const points = [0, 60, 120, 180, 240, 300].map((a) => {
      const t = (a * Math.PI) / 180;
      return `${(x + R * Math.cos(t)).toFixed(1)},${(y + R * Math.sin(t)).toFixed(1)}`;
    }).join(" ");
    const g = svg("g", { class: isCenter ? "hex center" : "hex", "data-letter": letter });
    g.append(svg("polygon", { points }), svg("text", { x, y: y + 1, "text-anchor": "middle", "dominant-baseline": "central" },
      letter.toUpperCase()));
    return g;
  }

  /** The hive: the centre letter in the middle, the other six around it. */
  function hive(all, middle) {
    const others = [...all].filter((c) => c !== middle);
    const d = R * Math.sqrt(3);
    const box = svg("svg", { viewBox: `${-2.6 * R} ${-2.6 * R} ${5.2 * R} ${5.2 * R}`, class: "hive", role: "img",
      "aria-label": `Hive: centre ${middle.toUpperCase()}, around it ${others.map((c) => c.toUpperCase()).join(" ")}` });
    box.append(hex(0, 0, middle, true));
    others.slice(0, 6).forEach((c, i) => {
      const t = ((-90 + 60 * i) * Math.PI) / 180;
      box.append(hex(d * Math.cos(t), d * Math.sin(t), c, false));
    });
    return box;
  }

  function preview() {
    const all = letters();
    const mid = center();
    $("hive-preview").replaceChildren(all.length === 7 && all.includes(mid) ? hive(all, mid) : el("p", { class: "hint" },
      "Type seven different letters and a centre letter that is one of them."));
  }

  function render(answer) {
    const r = answer.result;
    const s = r.solutions[0];
    if (!s) return [CP.verdict(r)];
    const out = [];
    if (r.task === "generate") {
      $("letters").value = s.letters;
      $("center").value = s.center;
      preview();
      out.push(el("p", { class: "verdict good" }, `A new hive: ${s.letters.toUpperCase()}, centre ${s.center.toUpperCase()}.`));
    } else out.push(CP.verdict(r));
    const pangrams = new Set(s.pangrams);
    out.push(el("div", { class: "columns bee" },
      el("div", {}, hive(s.letters, s.center),
        el("p", { class: "bee-summary" }, el("strong", {}, `${CP.counted(s.words.length, "word")} · ${CP.counted(s.total, "point")}`),
          ` · ${s.pangrams.length} pangram${s.pangrams.length === 1 ? "" : "s"}`),
        ranks(s.ranks)),
      el("section", { class: "bee-words" }, el("h3", {}, "Words and their scores"),
        el("ul", { class: "chips bee-list" }, s.words.map((w, i) => el("li", pangrams.has(w) ? { class: "pangram" } : {},
          pangrams.has(w) ? el("span", { class: "star", "aria-label": "pangram" }, "★ ") : null,
          el("span", { class: "word" }, w), el("span", { class: "points" }, ` ${s.points[i]}`)))))));
    return out;
  }

  function ranks(table) {
    return el("table", { class: "plain ranks" },
      el("thead", {}, el("tr", {}, el("th", {}, "rank"), el("th", { class: "num" }, "points"))),
      el("tbody", {}, Object.entries(table).map(([name, points]) =>
        el("tr", {}, el("td", {}, name), el("td", { class: "num" }, Number(points).toLocaleString())))));
  }

  CP.register({ render });

  async function findWords() {
    const spec = { kind: "spelling_bee", letters: letters(), center: center(), dictionary: CP.dictionary() };
    const answer = await CP.run(() => CP.solve(spec), "Finding the words…");
    if (answer) CP.show(answer);
  }

  async function generate() {
    // A hive players know the words of: common-20k (offensive words out unless kept), 20-60 words.
    const spec = { kind: "spelling_bee", task: "generate", puzzles: 1, min_words: 20, max_words: 60, seed: CP.seed(),
      dictionary: { name: "common-20k", exclude: $("keep-offensive").checked ? [] : ["offensive"] } };
    const answer = await CP.run(() => CP.solve(spec), "Generating a hive…");
    if (answer) CP.show(answer);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("bee-form").addEventListener("submit", (event) => { event.preventDefault(); findWords(); });
    $("bee-generate").addEventListener("click", generate);
    $("letters").addEventListener("input", preview);
    $("center").addEventListener("input", preview);
    preview();
  });
})();
