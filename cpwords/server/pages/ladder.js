// The word-ladder page: two words in, the shortest and the common-words ladders out; or a
// ladder puzzle made for a player (start, target, par; the answer behind a Reveal button).
"use strict";
(() => {
  const { $, el } = CP;

  /** A word with the letter changed from the previous word marked. */
  function marked(previous, word) {
    return el("span", { class: "ladder-word" },
      [...word].map((ch, i) => (previous && previous[i] !== ch ? el("mark", { title: "changed letter" }, ch) : ch)));
  }

  async function toggleDefinition(item, button, word, dictionary) {
    const open = item.querySelector(".definition");
    if (open) {
      open.remove();
      button.setAttribute("aria-expanded", "false");
      return;
    }
    button.setAttribute("aria-expanded", "true");
    const box = el("div", { class: "definition", role: "region", "aria-label": `About ${word}` }, "Looking it up…");
    item.append(box);
    try {
      const facts = await CP.call("GET", `/api/dict/${encodeURIComponent(dictionary)}/${encodeURIComponent(word)}`);
      const lines = [el("strong", {}, word.toUpperCase()),
        ` · level ${facts.level ?? "?"} · rareness ${facts.rareness ?? "?"}`];
      const defs = facts.definitions || [];
      const more = (facts.more || []).map(([label, text]) => el("div", { class: "rareness" }, `${label}: ${text}`));
      box.replaceChildren(el("div", {}, lines),
        defs.length ? el("ol", {}, defs.slice(0, 6).map((d) => el("li", {}, d))) : el("div", {}, "No definition known."),
        ...more);
    } catch (err) {
      box.replaceChildren(`No definition: ${err.message}`);
    }
  }

  function ladder(solution, heading, dictionary) {
    const words = solution.words;
    const list = el("ol", { class: "ladder" }, words.map((word, i) => {
      const item = el("li");
      const button = el("button", { type: "button", class: "link", "aria-expanded": "false",
        title: `Definitions of ${word}`, onclick: () => toggleDefinition(item, button, word, dictionary) },
      marked(words[i - 1], word));
      item.append(button, el("span", { class: "rareness" }, `rareness ${solution.word_rareness[i]}`));
      return item;
    }));
    return el("section", { class: "ladder-box", "data-mode": solution.mode }, el("h3", {}, heading), list);
  }

  function noLadder(result) {
    const s = result.stats;
    const out = [el("p", { class: "verdict bad" }, "No ladder: the two words are in different groups.")];
    if (s.target_group !== undefined) {
      out.push(el("table", { class: "plain groups" },
        el("thead", {}, el("tr", {}, el("th", {}, "word"), el("th", { class: "num" }, "group"), el("th", { class: "num" }, "words in its group"))),
        el("tbody", {},
          el("tr", {}, el("td", {}, $("start").value.toUpperCase()), el("td", { class: "num" }, s.group), el("td", { class: "num" }, s.group_size.toLocaleString())),
          el("tr", {}, el("td", {}, $("target").value.toUpperCase()), el("td", { class: "num" }, s.target_group), el("td", { class: "num" }, s.target_group_size.toLocaleString())))));
      out.push(el("p", { class: "hint" }, "A ladder only joins words of one group: every word of a group can reach every other one step at a time."));
    }
    if (result.message) out.push(el("p", { class: "hint" }, result.message));
    return out;
  }

  /** A made ladder puzzle: start, target and par; Reveal shows the least-rare shortest ladder. */
  function puzzle(solution, dictionary) {
    const words = solution.words;
    const d = solution.difficulty;
    const reveal = el("button", { type: "button", id: "puzzle-reveal" }, "Reveal");
    const box = el("section", { class: "ladder-puzzle" },
      el("h3", { id: "puzzle-pair" }, `${words[0].toUpperCase()} → ${words[words.length - 1].toUpperCase()}`),
      el("p", {}, `Par ${CP.counted(solution.steps, "step")} · ${CP.counted(solution.ladders, "shortest ladder")}` +
        (d ? ` · ${d.level} (${d.score})` : "")),
      el("div", { class: "row" }, reveal));
    reveal.addEventListener("click", () => {
      reveal.remove();
      box.append(ladder(solution, `The least-rare shortest ladder (${CP.counted(solution.steps, "step")})`, dictionary));
    });
    return box;
  }

  function render(answer) {
    const r = answer.result;
    if (answer.spec.mode === "generate") {
      if (!r.solutions.length) return [CP.verdict(r)];
      return [puzzle(r.solutions[0], "common-20k")];
    }
    const dictionary = (answer.spec.dictionary && answer.spec.dictionary.name) || "scowl-70";
    if (r.status === "infeasible") return noLadder(r);
    const out = [];
    if (r.title) out.push(el("p", { class: "title" }, r.title));
    const shortest = r.solutions.filter((s) => s.mode === "shortest");
    const common = r.solutions.filter((s) => s.mode === "common");
    const columns = [];
    shortest.slice(0, 20).forEach((s, i) => columns.push(ladder(s,
      `Shortest${shortest.length > 1 ? ` #${i + 1}` : ""}: ${CP.counted(s.steps, "step")}`, dictionary)));
    common.forEach((s) => columns.push(ladder(s, `Common words: ${CP.counted(s.steps, "step")}, rareness ${s.rareness}`, dictionary)));
    out.push(el("div", { class: "columns" }, columns));
    if (r.count !== null && r.count !== undefined) out.push(el("p", { class: "hint" }, `${CP.counted(r.count, "shortest ladder")} in all.`));
    if (r.message) out.push(el("p", { class: "hint" }, r.message));
    return out;
  }

  CP.register({ render });

  document.addEventListener("DOMContentLoaded", () => {
    $("ladder-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const spec = { kind: "ladder", start: $("start").value.trim(), target: $("target").value.trim(), mode: "both",
        dictionary: CP.dictionary() };
      const answer = await CP.run(() => CP.solve(spec), "Finding ladders…");
      if (answer) CP.show(answer);
    });
    $("ladder-puzzle-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const spec = { kind: "ladder", mode: "generate", length: parseInt($("puzzle-length").value, 10),
        par: parseInt($("puzzle-par").value, 10) || 5, seed: CP.seed() };
      if ($("keep-offensive").checked) spec.dictionary = { name: "common-20k", exclude: [] };
      const answer = await CP.run(() => CP.solve(spec), "Making a ladder puzzle…");
      if (answer) CP.show(answer);
    });
  });
})();
