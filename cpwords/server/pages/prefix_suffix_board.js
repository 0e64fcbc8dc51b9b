// The prefix/suffix board page: the player's view (suffixes) in, prefixes out; generate a
// board; count every board as a job with a progress bar.
"use strict";
(() => {
  const { $, el } = CP;
  const EXAMPLE = { s_n: "nd", s_e: "th", s_s: "ss", s_w: "ll" };
  let nodes = {};

  /** Lay the slots out at their board coordinates (x right, y up): suffix slots are inputs. */
  async function loadBoard(name) {
    const board = await CP.call("GET", `/api/models/boards/${encodeURIComponent(name)}`);
    nodes = board.nodes;
    const xs = Object.values(nodes).map((n) => n.at[0]), ys = Object.values(nodes).map((n) => n.at[1]);
    const minX = Math.min(...xs), maxY = Math.max(...ys);
    const box = $("slots");
    box.style.gridTemplateColumns = `repeat(${Math.max(...xs) - minX + 1}, auto)`;
    box.replaceChildren(...Object.entries(nodes).map(([slot, node]) => {
      const item = node.kind === "suffix"
        ? el("input", { class: "slot suffix", id: `slot-${slot}`, "data-slot": slot, maxlength: 8, value: name === "okwddm" ? EXAMPLE[slot] || "" : "",
          "aria-label": `suffix of slot ${slot}`, autocapitalize: "off", spellcheck: "false" })
        : el("div", { class: "slot prefix", id: `slot-${slot}`, "data-slot": slot, title: `prefix slot ${slot}` }, "?");
      item.style.gridColumn = String(node.at[0] - minX + 1);
      item.style.gridRow = String(maxY - node.at[1] + 1);
      return item;
    }));
  }

  function suffixes() {
    const out = {};
    for (const input of $("slots").querySelectorAll("input.suffix")) out[input.dataset.slot] = input.value.trim().toLowerCase();
    return out;
  }

  /** Show one board's tokens of one kind of slot ("prefix" or "suffix") in the slots. */
  function place(tokens, which) {
    for (const [slot, token] of Object.entries(tokens || {})) {
      const node = $(`slot-${slot}`);
      if (!node || !nodes[slot] || nodes[slot].kind !== which) continue;
      if (node.tagName === "INPUT") node.value = token;
      else node.textContent = `${token}-`;
    }
  }

  function clearPrefixes() {
    for (const node of $("slots").querySelectorAll(".prefix")) node.textContent = "?";
  }

  /** The answers as a list; choosing one puts its prefixes on the board and shows its picture. */
  function answerList(answer) {
    const r = answer.result;
    const picture = el("img", { class: "board-picture", alt: "the chosen board" });
    const buttons = r.solutions.slice(0, 20).map((s, i) => el("button", { type: "button", class: "link", "aria-pressed": "false",
      onclick: () => choose(i) }, `Board ${i + 1}`));
    function choose(i) {
      buttons.forEach((b, k) => b.setAttribute("aria-pressed", String(k === i)));
      if (answer.spec.board === $("board").value) place(r.solutions[i].tokens, "prefix");
      const svg = (answer.pictures || [])[i];
      picture.hidden = !svg;
      if (svg) picture.src = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    }
    const list = el("ol", { class: "boards" }, r.solutions.slice(0, 20).map((s, i) => {
      const prefixes = Object.entries(s.tokens).filter(([slot]) => nodes[slot] && nodes[slot].kind === "prefix");
      return el("li", {}, buttons[i], ": ", prefixes.map(([, t]) => `${t}-`).join(" "),
        el("div", { class: "rareness" }, s.words.join(", ")));
    }));
    choose(0);
    return el("div", { class: "columns" }, list, el("div", { class: "pictures" }, picture));
  }

  function render(answer) {
    const r = answer.result;
    const out = [CP.verdict(r)];
    if (r.count !== null && r.count !== undefined) {
      const what = { count_suffix_sets: "suffix sets", solve: "ways to fill the prefixes" }[r.task] || "boards";
      const note = r.count_exact === false ? " (at least: the count stopped early)"
        : r.task === "solve" ? "" : " (modulo rotation and mirroring)";
      out.push(el("p", { class: "count" }, el("strong", {}, `${r.count.toLocaleString()} ${what}`), note));
    }
    if (r.solutions.length && r.task === "generate" && answer.spec.board === $("board").value) {
      place(r.solutions[0].tokens, "suffix");
      out.push(el("p", {}, "A new board: its suffixes are in the slots. ",
        el("button", { type: "button", class: "secondary", id: "board-reveal", onclick: () => place(r.solutions[0].tokens, "prefix") },
          "Show the prefixes")));
      const pics = CP.pictures(answer, "the player's view");
      if (pics) out.push(pics);
    } else if (r.solutions.length) {
      out.push(answerList(answer));
    }
    return out;
  }

  CP.register({ render });

  const base = () => ({ kind: "prefix_suffix_board", board: $("board").value, dictionary: CP.dictionary() });

  document.addEventListener("DOMContentLoaded", async () => {
    try {
      const boards = await CP.call("GET", "/api/models/boards");
      $("board").replaceChildren(...boards.names.map((n) => el("option", { value: n, selected: n === "okwddm" }, n)));
      await loadBoard($("board").value);
    } catch (err) {
      CP.fail(err);
    }
    $("board").addEventListener("change", () => loadBoard($("board").value).catch(CP.fail));
    $("board-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      clearPrefixes();
      const answer = await CP.run(() => CP.solve({ ...base(), task: "solve", suffixes: suffixes(), limit: 10 }), "Finding the prefixes…");
      if (answer) CP.show(answer);
    });
    $("board-generate").addEventListener("click", async () => {
      clearPrefixes();
      const answer = await CP.run(() => CP.solve({ ...base(), task: "generate", count: 1, seed: CP.seed() }, { blank: true }),
        "Drawing a board…");
      if (answer) CP.show(answer);
    });
    $("board-count").addEventListener("click", () => CP.runJob({ ...base(), task: "count_boards" }, "Counting boards"));
  });
})();
