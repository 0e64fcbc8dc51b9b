// The word-grid page: type letters into the grid; generate, fill or unscramble it (the swaps
// are shown one by one); make a puzzle (a coloured board, the answer behind a Reveal button).
"use strict";
(() => {
  const { $, el } = CP;
  // The Gridle game's own example (examples/word_grid_unscramble.yaml).
  const SCRAMBLED = ["aobut", "g#t#a", "auhes", "i#e#t", "nsrse"];
  let rows = [];  // the shape: strings of "." (open) and "#" (black)

  async function loadShape(name) {
    const shape = await CP.call("GET", `/api/models/grids/${encodeURIComponent(name)}`);
    rows = shape.rows;
    const editor = $("grid-editor");
    editor.className = `board cols-${rows[0].length}`;
    editor.style.gridTemplateColumns = `repeat(${rows[0].length}, auto)`;
    editor.replaceChildren(...rows.flatMap((row, r) => [...row].map((ch, c) => ch === "#"
      ? el("div", { class: "cell black", "aria-hidden": "true" })
      : el("input", { class: "letter", maxlength: 1, "data-r": r, "data-c": c, autocapitalize: "off", spellcheck: "false",
        "aria-label": `row ${r + 1}, column ${c + 1}` }))));
  }

  const cells = () => [...$("grid-editor").querySelectorAll("input.letter")];

  /** The typed grid as rows: letters, "?" for an empty open cell, "#" for black. */
  function typed() {
    const out = rows.map((row) => [...row].map((ch) => (ch === "#" ? "#" : "?")));
    for (const input of cells()) {
      const ch = input.value.trim().toLowerCase();
      if (/^[a-z]$/.test(ch)) out[input.dataset.r][input.dataset.c] = ch;
    }
    return out.map((r) => r.join(""));
  }

  function put(grid) {
    for (const input of cells()) input.value = (grid[input.dataset.r] || "")[input.dataset.c] || "";
  }

  function spec(task) {
    const s = { kind: "word_grid", shape: $("shape").value, task, dictionary: CP.dictionary() };
    // Generate draws by seed (a fresh grid each time); "common" would give the one best grid every time.
    if (task === "fill") s.objective = $("common").checked ? "common" : "none";
    if (task === "fill") s.given = typed();
    if (task === "unscramble") s.scrambled = typed();
    if (task === "generate") s.seed = CP.seed();
    if (task === "puzzle") {
      delete s.dictionary;  // the puzzle's own default: common words
      if ($("keep-offensive").checked) s.dictionary = { name: "common-10k", exclude: [] };
      s.seed = CP.seed();
      const par = parseInt($("par").value, 10);
      if (par > 0) s.par = par;
    }
    return s;
  }

  /** The unscramble answer: the grid as it is after each swap, stepped through with buttons. */
  function stepper(solution, scrambled) {
    const swaps = solution.swaps || [];
    const start = scrambled.map((row) => [...row]);
    const states = [start.map((r) => [...r])];
    for (const [[r1, c1], [r2, c2]] of swaps) {
      const g = states[states.length - 1].map((r) => [...r]);
      [g[r1 - 1][c1 - 1], g[r2 - 1][c2 - 1]] = [g[r2 - 1][c2 - 1], g[r1 - 1][c1 - 1]];
      states.push(g);
    }
    let step = 0;
    const board = el("div", { class: `board cols-${start[0].length}`, id: "swap-board", "aria-live": "polite" });
    board.style.gridTemplateColumns = `repeat(${start[0].length}, auto)`;
    const label = el("span", { id: "swap-label" });
    const back = el("button", { type: "button", class: "secondary", id: "swap-back", onclick: () => go(step - 1) }, "◀ Back");
    const next = el("button", { type: "button", id: "swap-next", onclick: () => go(step + 1) }, "Next swap ▶");
    function go(k) {
      step = Math.max(0, Math.min(swaps.length, k));
      const swap = step ? swaps[step - 1] : null;
      const hot = new Set(swap ? swap.map(([r, c]) => `${r - 1},${c - 1}`) : []);
      board.replaceChildren(...states[step].flatMap((row, r) => row.map((ch, c) => el("div",
        { class: `cell${ch === "#" ? " black" : ""}${hot.has(`${r},${c}`) ? " swap" : ""}` }, ch === "#" ? "" : ch.toUpperCase()))));
      label.textContent = step === 0 ? `The scrambled grid: ${swaps.length} swap${swaps.length === 1 ? "" : "s"} to go.`
        : `Swap ${step} of ${swaps.length}: row ${swap[0][0]} column ${swap[0][1]} ↔ row ${swap[1][0]} column ${swap[1][1]}` +
          (step === swaps.length ? " — solved." : "");
      back.disabled = step === 0;
      next.disabled = step === swaps.length;
    }
    go(0);
    return el("section", { class: "unscramble" }, el("h3", {}, `Solved in ${swaps.length} swap${swaps.length === 1 ? "" : "s"}`),
      el("div", { class: "stepper" }, back, next, label), board,
      el("p", { class: "hint" }, `Words: ${solution.words.map((w) => w.toUpperCase()).join(", ")}`));
  }

  /** A made puzzle: the player's coloured board, par and difficulty; Reveal shows the answer's swaps. */
  function puzzle(solution) {
    const tiles = { g: "tile-g", y: "tile-y", "-": "tile-grey" };
    const board = el("div", { class: `board cols-${solution.scrambled[0].length}`, id: "puzzle-board" });
    board.style.gridTemplateColumns = `repeat(${solution.scrambled[0].length}, auto)`;
    board.replaceChildren(...solution.scrambled.flatMap((row, r) => [...row].map((ch, c) => (ch === "#"
      ? el("div", { class: "cell black", "aria-hidden": "true" })
      : el("div", { class: `cell ${tiles[solution.colors[r][c]]}`, "data-color": solution.colors[r][c],
        "aria-label": `row ${r + 1}, column ${c + 1}: ${ch.toUpperCase()}, ${{ g: "green", y: "yellow", "-": "grey" }[solution.colors[r][c]]}` },
      ch.toUpperCase())))));
    const d = solution.difficulty;
    const reveal = el("button", { type: "button", id: "puzzle-reveal" }, "Reveal");
    const box = el("section", { class: "puzzle" },
      el("h3", {}, `Par ${CP.counted(solution.par, "swap")}` + (d ? ` · ${d.level} (${d.score})` : "")), board,
      el("p", { class: "hint" }, "The answer is the only grid of dictionary words with these letters that keeps the green cells."),
      el("div", { class: "row" }, reveal));
    reveal.addEventListener("click", () => {
      reveal.remove();
      box.append(stepper(solution, solution.scrambled));
    });
    return box;
  }

  function render(answer) {
    const r = answer.result;
    if (r.task === "puzzle" && r.solutions.length) return [CP.verdict(r), puzzle(r.solutions[0])];
    if (r.task === "unscramble" && r.solutions.length && answer.spec.scrambled) {
      return [CP.verdict(r), stepper(r.solutions[0], answer.spec.scrambled)];
    }
    const out = [CP.verdict(r)];
    if (r.count !== null && r.count !== undefined) out.push(el("p", {}, `Grids: ${r.count.toLocaleString()}`));
    const pics = CP.pictures(answer, "the filled grid");
    if (pics) out.push(pics);
    if (r.solutions.length) {
      if (answer.spec.shape === $("shape").value) put(r.solutions[0].rows);
      out.push(el("p", { class: "hint" }, `Words: ${r.solutions[0].words.map((w) => w.toUpperCase()).join(", ")}` +
        (r.solutions[0].rareness !== null && r.solutions[0].rareness !== undefined ? ` · rareness ${r.solutions[0].rareness}` : "")));
    }
    return out;
  }

  CP.register({ render });

  async function go(task) {
    const message = { unscramble: "Looking for the fewest swaps…", puzzle: "Making a puzzle and proving it…" }[task];
    const answer = await CP.run(() => CP.solve(spec(task)), message || "Solving…");
    if (answer) CP.show(answer);
  }

  document.addEventListener("DOMContentLoaded", async () => {
    try {
      const shapes = await CP.call("GET", "/api/models/grids");
      $("shape").replaceChildren(...shapes.names.map((n) => el("option", { value: n, selected: n === "gridle-5x5" }, n)));
      await loadShape($("shape").value);
    } catch (err) {
      CP.fail(err);
    }
    $("shape").addEventListener("change", () => loadShape($("shape").value).catch(CP.fail));
    $("grid-generate").addEventListener("click", () => go("generate"));
    $("grid-fill").addEventListener("click", () => go("fill"));
    $("grid-unscramble").addEventListener("click", () => go("unscramble"));
    $("grid-puzzle").addEventListener("click", () => go("puzzle"));
    $("grid-clear").addEventListener("click", () => put([]));
    $("grid-example").addEventListener("click", async () => {
      if ($("shape").value !== "gridle-5x5") {
        $("shape").value = "gridle-5x5";
        await loadShape("gridle-5x5");
      }
      put(SCRAMBLED);
    });
    $("grid-editor").addEventListener("input", (event) => {
      const input = event.target;
      input.value = input.value.replace(/[^a-z]/gi, "").slice(-1).toLowerCase();
      if (input.value) {
        const all = cells();
        const next = all[all.indexOf(input) + 1];
        if (next) next.focus();
      }
    });
  });
})();
