// The Letter Boxed page: four sides in; the box drawn, the fewest-word answers, counts by
// number of words; a generated puzzle on request.
"use strict";
(() => {
  const { $, el } = CP;
  const sideIds = ["side-1", "side-2", "side-3", "side-4"];
  const sides = () => sideIds.map((id) => $(id).value.trim().toLowerCase());
  const chain = (words) => words.map((w) => w.toUpperCase()).join(" → ");

  /** What one solve shows: the box with the best answer, then (when given) every fewest-word
   *  answer and the counts by number of words. */
  function render(answer, extra = {}) {
    const r = answer.result;
    if (r.task === "generate") return generated(answer);
    const out = [CP.verdict(r)];
    const pics = CP.pictures(answer, "the box and its answer");
    if (pics) out.push(pics);
    if (r.task === "count" && r.stats.count_by_words) out.push(counts(r.stats.count_by_words));
    else if (r.solutions.length) {
      const best = r.solutions[0];
      out.push(el("p", { class: "best" }, el("strong", {}, `${CP.counted(best.words.length, "word")}: `),
        el("span", { class: "chain" }, chain(best.words)), el("span", { class: "rareness" }, ` · ${CP.counted(best.letters, "letter")}`)));
      if (r.task === "enumerate") out.push(answers(r, r.solutions));
    }
    if (extra.fewest) out.push(answers(extra.fewest.result, extra.fewest.result.solutions));
    if (extra.counts && extra.counts.result.stats.count_by_words) out.push(counts(extra.counts.result.stats.count_by_words));
    return out;
  }

  function answers(result, list) {
    const n = list.length ? list[0].words.length : 0;
    const total = result.count ?? list.length;
    return el("section", { class: "fewest" },
      el("h3", {}, `Every answer of ${n} word${n === 1 ? "" : "s"}: ${total.toLocaleString()}`),
      el("ul", { class: "chips" }, list.slice(0, 200).map((s) => el("li", {}, chain(s.words)))));
  }

  function counts(byWords) {
    return el("section", { class: "counts" }, el("h3", {}, "Answers by number of words"),
      el("table", { class: "plain" },
        el("thead", {}, el("tr", {}, el("th", { class: "num" }, "words"), el("th", { class: "num" }, "answers"))),
        el("tbody", {}, Object.entries(byWords).map(([k, v]) =>
          el("tr", {}, el("td", { class: "num" }, k), el("td", { class: "num" }, Number(v).toLocaleString()))))));
  }

  function generated(answer) {
    const r = answer.result;
    const s = r.solutions[0];
    if (!s) return [CP.verdict(r)];
    s.sides.forEach((side, i) => { if ($(sideIds[i])) $(sideIds[i]).value = side; });
    const out = [el("p", { class: "verdict good" }, `A new puzzle: ${s.sides.map((x) => x.toUpperCase()).join(" · ")}. ` +
      `It needs ${CP.counted(s.words.length, "word")} (${CP.counted(s.answers_at_par, "answer")} of ${CP.counted(s.words.length, "word")}). Press Solve to see them.`)];
    const pics = CP.pictures(answer, "the generated box");
    if (pics) out.push(pics);
    return out;
  }

  CP.register({ render });

  async function solveBox() {
    const base = { kind: "letter_boxed", sides: sides(), dictionary: CP.dictionary(), rank: $("rank").value };
    const answer = await CP.run(async () => {
      const best = await CP.solve({ ...base, task: "min_words" });
      if (!best.result.solutions.length) return { best };
      const n = best.result.solutions[0].words.length;
      const [fewest, counts] = await Promise.all([
        CP.solve({ ...base, task: "enumerate", max_words: n, limit: 200 }),
        CP.solve({ ...base, task: "count", max_words: Math.min(n + 1, 5) }),
      ]);
      return { best, fewest, counts };
    }, "Solving the box…");
    if (!answer) return;
    CP.show(answer.best, (a) => render(a, answer));
  }

  async function generate() {
    const spec = { kind: "letter_boxed", task: "generate", par: Number($("par").value), puzzles: 1,
      dictionary: { name: "common-20k", exclude: $("keep-offensive").checked ? [] : ["offensive"] }, seed: CP.seed() };
    const answer = await CP.run(() => CP.solve(spec, { blank: true }), "Generating a puzzle…");
    if (answer) CP.show(answer);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("box-form").addEventListener("submit", (event) => { event.preventDefault(); solveBox(); });
    $("box-generate").addEventListener("click", generate);
  });
})();
