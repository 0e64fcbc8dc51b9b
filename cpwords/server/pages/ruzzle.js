// The Ruzzle / Boggle page: a board to type into; every word with its score; clicking a word
// highlights its path on the board; a search for a richer board as a job.
"use strict";
(() => {
  const { $, el } = CP;
  const START = { 4: ["cats", "dogs", "quite", "emus"], 5: ["stran", "enilg", "aqest", "riond", "metal"] };
  // Letter frequencies of English text, for random boards that have words in them.
  const FREQUENT = "eeeeeeeeeeeeaaaaaaaaaiiiiiiiiioooooooonnnnnnrrrrrrttttttllllssssuuuuddddgggbbccmmppffhhvvwwyykjxqz";
  // The same for the other languages' dictionaries (letter, weight): their own letters, ñ and ä ö ü included.
  const bag = (spec) => spec.split(" ").map((p) => p[0].repeat(Number(p.slice(1)))).join("");
  const BAGS = {
    italian: bag("e12 a12 i11 o10 n7 l7 r6 t6 s5 c5 d4 p3 u3 m3 v2 g2 h1 f1 b1 z1 q1"),
    spanish: bag("e14 a12 o9 s8 r7 n7 i6 d6 l5 c5 t5 u4 m3 p3 b1 g1 v1 y1 q1 h1 f1 z1 j1 ñ1"),
    german: bag("e16 n10 i8 s7 r7 a6 t6 d5 h5 u4 l3 c3 g3 m3 o3 b2 w2 f2 k1 z1 p1 v1 ü1 ä1 ö1"),
    french: bag("e15 a8 s8 i7 t7 n7 r7 u6 l5 o5 d4 c3 p3 m3 v1 q1 f1 b1 g1 h1 j1 x1 y1 z1"),
  };
  // English Boggle boards are rolled from the game's dice (models/dice/): the 1987 set, Big Boggle 5x5.
  const DICE_SETS = { 4: "boggle-new", 5: "big-boggle" };
  const diceSets = {};
  async function rollDice() {
    const name = DICE_SETS[size];
    if (!diceSets[name]) diceSets[name] = (await CP.call("GET", `/api/models/dice/${name}`)).dice.map((d) => d.split(" "));
    const dice = [...diceSets[name]];
    for (let i = dice.length - 1; i > 0; i--) {  // each die to a random cell …
      const j = Math.floor(Math.random() * (i + 1));
      [dice[i], dice[j]] = [dice[j], dice[i]];
    }
    return dice.map((faces) => faces[Math.floor(Math.random() * faces.length)]);  // … showing a random face
  }
  let size = 4;
  let layout = {};  // "r,c" (1-based) -> DL | TL | DW | TW

  /** A row typed as a string, cut into tiles ("qu" is one tile), as the spec reads it. */
  function tilesOf(row) {
    const out = [];
    for (let i = 0; i < row.length; i++) {
      if (row[i] === "q" && row[i + 1] === "u") { out.push("qu"); i++; } else out.push(row[i]);
    }
    return out;
  }

  function build(rows) {
    const box = $("tiles");
    box.className = `board cols-${size}`;
    box.style.gridTemplateColumns = `repeat(${size}, auto)`;
    box.replaceChildren(...rows.flatMap((row, r) => tilesOf(row).slice(0, size).map((tile, c) => {
      const bonus = layout[`${r + 1},${c + 1}`];
      return el("div", { class: "cell-wrap", style: null },
        el("input", { class: "tile", id: `tile-${r + 1}-${c + 1}`, value: tile, maxlength: 2, "data-r": r + 1, "data-c": c + 1,
          autocapitalize: "off", spellcheck: "false", "aria-label": `row ${r + 1}, column ${c + 1}${bonus ? `, ${bonus}` : ""}` }),
        bonus ? el("span", { class: "bonus", "aria-hidden": "true" }, bonus) : null);
    })));
  }

  const tiles = () => [...$("tiles").querySelectorAll("input.tile")];
  const grid = () => {
    const rows = [];
    for (const t of tiles()) {
      const r = Number(t.dataset.r) - 1;
      (rows[r] = rows[r] || []).push(t.value.trim().toLowerCase());
    }
    return rows;
  };
  const current = () => grid().map((row) => row.join(""));

  async function loadLayout() {
    const name = $("bonuses").value;
    layout = {};
    if (name && size === 4) {
      const data = await CP.call("GET", `/api/models/ruzzle/${encodeURIComponent(name)}`);
      for (const [bonus, cells] of Object.entries(data.bonuses || {})) for (const [r, c] of cells) layout[`${r},${c}`] = bonus;
    }
    build(current().length === size ? current() : START[size]);
  }

  function spec(task) {
    const s = { kind: "ruzzle", task, grid: grid(), scoring: $("scoring").value, dictionary: CP.dictionary() };
    if ($("bonuses").value && size === 4 && s.scoring === "ruzzle") s.bonuses = $("bonuses").value;
    if (task === "best_board") Object.assign(s, { iterations: 20000, seed: CP.seed() });
    return s;
  }

  /** Highlight a path ([row, col] pairs, 1-based) on the board, numbering its cells. */
  function highlight(path) {
    for (const t of tiles()) {
      t.classList.remove("on", "first");
      const old = t.parentNode.querySelector(".step");
      if (old) old.remove();
    }
    path.forEach(([r, c], i) => {
      const t = $(`tile-${r}-${c}`);
      if (!t) return;
      t.classList.add("on");
      if (i === 0) t.classList.add("first");
      t.parentNode.append(el("span", { class: "step", "aria-hidden": "true" }, i + 1));
    });
  }

  function render(answer) {
    const r = answer.result;
    if (r.task === "count_paths") return CP.genericRender(answer);
    const board = r.solutions.length && r.solutions[0].grid ? r.solutions[0].grid : null;
    if (board) build(board);  // best_board: the board found
    else if (answer.spec.grid && answer.spec.grid.length === size) build(answer.spec.grid.map((row) => (Array.isArray(row) ? row.join("") : row)));
    const total = r.solutions.reduce((sum, s) => sum + (s.score || 0), 0);
    const out = [CP.verdict(r), el("p", { class: "totals" }, el("strong", {}, CP.counted(r.solutions.length, "word")),
      answer.spec.scoring !== "none" ? `, ${CP.counted(total, "point")} in all` : "",
      board ? ` · board ${board.map((x) => x.toUpperCase()).join(" ")}` : "")];
    let pressed = null;
    const list = el("ul", { class: "words", id: "word-list", "aria-label": "Words, best first" },
      r.solutions.map((s) => el("li", {}, el("button", { type: "button", "aria-pressed": "false", "data-word": s.word,
        "data-path": JSON.stringify(s.path), onclick: (event) => {
          if (pressed) pressed.setAttribute("aria-pressed", "false");
          pressed = event.currentTarget;
          pressed.setAttribute("aria-pressed", "true");
          highlight(s.path);
          $("tiles").scrollIntoView({ block: "nearest" });
        } }, el("span", {}, s.word), el("span", { class: "score" }, s.score)))));
    out.push(list);
    return out;
  }

  CP.register({ render });

  function moveFocus(from, dr, dc) {
    const r = Number(from.dataset.r) + dr, c = Number(from.dataset.c) + dc;
    const target = $(`tile-${r}-${c}`);
    if (target) { target.focus(); target.select(); return true; }
    return false;
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("size").addEventListener("change", () => {
      size = Number($("size").value);
      $("bonuses").disabled = size !== 4;
      loadLayout().catch(CP.fail);
    });
    $("bonuses").addEventListener("change", () => loadLayout().catch(CP.fail));
    await loadLayout().catch(CP.fail);
    $("tiles").addEventListener("input", (event) => {
      const t = event.target;
      let v = t.value.toLowerCase().replace(/[^\p{L}]/gu, "");  // any alphabet's letters (ñ, ü …)
      if (v.length > 1 && v !== "qu") v = v.slice(-1);
      t.value = v;
      if (v && v !== "q") {
        const all = tiles();
        const next = all[all.indexOf(t) + 1];
        if (next) { next.focus(); next.select(); }
      }
    });
    $("tiles").addEventListener("keydown", (event) => {
      const t = event.target;
      const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
      if (moves[event.key] && moveFocus(t, ...moves[event.key])) event.preventDefault();
      else if (event.key === "Backspace" && !t.value) {
        const all = tiles();
        const prev = all[all.indexOf(t) - 1];
        if (prev) { prev.focus(); event.preventDefault(); }
      }
    });
    $("ruzzle-random").addEventListener("click", async () => {
      const bag = BAGS[$("dictionary").value];
      if (!bag && $("scoring").value === "boggle" && DICE_SETS[size]) {
        const faces = await rollDice();
        tiles().forEach((t, i) => { t.value = faces[i]; });
      } else {
        const letters = bag || FREQUENT;
        const pick = () => letters[Math.floor(Math.random() * letters.length)];
        for (const t of tiles()) t.value = pick().replace("q", "qu");
      }
      highlight([]);
    });
    $("ruzzle-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const answer = await CP.run(() => CP.solve(spec("words")), "Finding every word…");
      if (answer) CP.show(answer);
    });
    $("ruzzle-best").addEventListener("click", () => CP.runJob(spec("best_board"), "Searching for a richer board"));
  });
})();
