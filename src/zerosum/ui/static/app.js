// zerosum's page: the board, the engine's answers and the analysis, all from the JSON API of `zerosum serve`.
// No build step and no outside assets.  It knows no game: it draws the board the server describes (`view`:
// cells, labels, highlights; `targets`: the move a click on each cell means) and lists the games the server
// offers (`games`).  Boards whose moves are columns (`view.gravity`) are drawn by column, others by cell.
// Hooks for tests: #status, #moves, [data-column=N] columns (0-based) and [data-score-column=N] their scores;
// [data-cell=N] cells (row-major from the top left, 0-based), [data-at="r,c"] the same cell by row and column,
// [data-score-cell=N] their scores; #pass the pass button.  Pieces take the colours the view names
// (`view.colors`); an analysis says itself who answered (`engine`) and which scores are estimates.
"use strict";

const $ = (sel) => document.querySelector(sel);

// [spec, label, what the game must offer for it (a flag of the server's game catalogue)]
const OPPONENTS = [
  ["solver", "the solver (perfect play)", "solver"],
  ["alphabeta:time=1", "alpha-beta, 1 s a move"],
  ["mcts:time=1", "MCTS, 1 s a move"],
  ["minimax:depth=4", "minimax, depth 4"],
  ["random", "random moves"],
  ["first", "first legal move"],
];

const ui = {
  game: "connect4",     // the game spec as the server spells it
  info: null,           // the last /api/state answer
  opponent: "person",   // an agent spec, or "person"
  human: 1,             // the player the person plays against an engine
  busyToken: -1,        // the position (token) an engine is thinking about
  token: 0,             // counts positions shown, so late answers for old positions are dropped
  agents: [],
  lastEngine: null,     // the engine's last move: {agent, before, after, move} (what "why?" explains)
};

async function api(path, options) {
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function showError(message) { $("#error").textContent = message || ""; }

// ---- the game settings ------------------------------------------------------------------------

function selectedGame() {
  const spec = $("#game-select").value;
  return (ui.games || []).find((g) => g.spec === spec);
}

function specFromControls() {
  const chosen = selectedGame();
  if (!chosen) return $("#game-select").value;
  const options = Object.keys(chosen.options).map((key) => `${key}=${$(`#opt-${key}`).value}`);
  return options.length ? `${chosen.spec}:${options.join(",")}` : chosen.spec;
}

function fillGames(games) {
  if (ui.games) return;
  ui.games = games;
  const sel = $("#game-select");
  sel.innerHTML = "";
  for (const g of games) {
    const option = document.createElement("option");
    option.value = g.spec; option.textContent = g.label;
    sel.appendChild(option);
  }
}

// the spec's name and options: "connectx:rows=6,cols=7,k=4" -> ["connectx", {rows: "6", cols: "7", k: "4"}]
function splitSpec(spec) {
  const [name, rest] = spec.split(":");
  const options = {};
  for (const part of (rest || "").split(",").filter(Boolean)) { const [k, v] = part.split("="); options[k] = v; }
  return [name, options];
}

function controlsFromInfo(info) {
  const sel = $("#game-select");
  const preset = (ui.games || []).find((g) => !Object.keys(g.options).length && g.game === info.game);
  const [name, options] = splitSpec(info.game);
  sel.value = preset ? preset.spec : name;
  sizeControls(options);
}

function sizeControls(values) {
  const box = $("#game-options");
  box.innerHTML = "";
  const chosen = selectedGame();
  const options = chosen ? Object.entries(chosen.options) : [];
  box.hidden = !options.length;
  for (const [key, o] of options) {
    const label = el("label", "", { title: o.help });
    label.append(`${key} `);
    const input = el("input", "", { id: `opt-${key}`, type: "number", min: String(o.lo), max: String(o.hi) });
    input.value = values && values[key] !== undefined ? values[key] : String(o.default);
    label.appendChild(input);
    box.appendChild(label);
  }
}

function fillOpponents() {
  const sel = $("#opponent");
  for (const [spec, label] of OPPONENTS) {
    if (!ui.agents.includes(spec.split(":")[0])) continue;
    const option = document.createElement("option");
    option.value = spec; option.textContent = label;
    sel.appendChild(option);
  }
}

function defaultOpponent(solver) {
  const names = Array.from($("#opponent").options).map((o) => o.value);
  const wanted = solver ? ["solver", "alphabeta:time=1", "mcts:time=1", "random"] : ["alphabeta:time=1", "mcts:time=1", "random"];
  return wanted.find((w) => names.includes(w)) || "person";
}

function ensureOpponent(spec) {
  const sel = $("#opponent");
  if (!Array.from(sel.options).some((o) => o.value === spec)) {
    const option = document.createElement("option");
    option.value = spec; option.textContent = spec;
    sel.appendChild(option);
  }
  sel.value = spec;
}

function updateAddress() {
  const params = new URLSearchParams();
  params.set("game", ui.game);
  params.set("moves", ui.info ? ui.info.moves : "");
  params.set("opponent", ui.opponent);
  params.set("side", String(ui.human));
  history.replaceState(null, "", `?${params.toString()}`);
}

// ---- whose turn ---------------------------------------------------------------------------------

function engineToMove(info) {
  return !info.over && ui.opponent !== "person" && info.to_move !== ui.human;
}

function statusSentence(info) {
  let text = info.status;
  if (!info.over && ui.opponent !== "person") {
    text += engineToMove(info) ? ` ${ui.opponent} is thinking…` : " Your turn.";
  } else if (info.over && ui.opponent !== "person" && info.winner) {
    text += info.winner === ui.human ? " You win!" : " The engine wins.";
  }
  return text;
}

// ---- positions ------------------------------------------------------------------------------------

async function show(game, moves) {
  const token = ++ui.token;
  $("#board").classList.remove("waiting");
  const params = new URLSearchParams({ game, moves });
  const info = await api(`/api/state?${params}`);
  if (token !== ui.token) return;
  ui.game = info.game;
  ui.info = info;
  render(info);
  updateAddress();
  clearScores();
  if (!ui.lastEngine || ui.lastEngine.after !== info.moves) { ui.lastEngine = null; $("#why-panel").hidden = true; }
  $("#why").hidden = !ui.lastEngine;
  if (engineToMove(info)) {
    await engineMove(token);
  } else {
    analyse(token);
  }
}

function busy() { return ui.busyToken === ui.token; }

async function engineMove(token) {
  const info = ui.info;
  ui.busyToken = token;
  $("#board").classList.add("waiting");
  try {
    const reply = await api("/api/move", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: ui.game, moves: info.moves, agent: ui.opponent }),
    });
    if (token !== ui.token) return;
    let facts = `${reply.agent} played ${reply.move}`;
    const details = [];
    if (reply.words) details.push(reply.exact || reply.proof ? reply.words : `${reply.words} (estimate)`);
    if (reply.nodes !== null && reply.nodes !== undefined) details.push(`${reply.nodes.toLocaleString("en")} nodes`);
    details.push(`${reply.elapsed.toFixed(2)} s`);
    $("#engine-info").textContent = `${facts}: ${details.join(" · ")}` + (reply.note ? ` (${reply.note})` : "");
    $("#board").classList.remove("waiting");
    ui.lastEngine = { agent: reply.agent, before: info.moves, after: reply.moves, move: reply.move };
    await show(ui.game, reply.moves);
  } catch (err) {
    if (token !== ui.token) return;
    showError(`The engine could not move: ${err.message}`);
    $("#status").textContent = ui.info.status;
  } finally {
    if (token === ui.token) {
      ui.busyToken = -1;
      $("#board").classList.remove("waiting");
    }
  }
}

function play(move) {
  const info = ui.info;
  if (!info || info.over || busy() || engineToMove(info)) return;
  if (!info.legal.includes(move)) {
    showError(`${move} is not a legal move here.`);
    return;
  }
  showError("");
  const moves = info.move_list.concat([move]).join(info.separator);
  show(ui.game, moves).catch((err) => showError(err.message));
}

function undo() {
  const info = ui.info;
  if (!info || busy()) return;
  const list = info.move_list.slice();
  if (!list.length) { showError("Nothing to undo."); return; }
  list.pop();
  if (ui.opponent !== "person") {
    // back to the person's turn: the side to move after n moves is 1 when n is even
    while (list.length && (list.length % 2 === 0 ? 1 : 2) !== ui.human) list.pop();
  }
  showError("");
  $("#engine-info").textContent = "";
  show(ui.game, list.join(info.separator)).catch((err) => showError(err.message));
}

function newGame() {
  showError("");
  $("#engine-info").textContent = "";
  ui.opponent = $("#opponent").value;
  ui.human = Number($("#side").value);
  show(specFromControls(), "").catch((err) => showError(err.message));
}

// ---- drawing ------------------------------------------------------------------------------------

// the page's shades of the colours a board description names (others are used as CSS colours as they are)
const SHADES = { red: "#ef4444", yellow: "#facc15", black: "#0f0f10", white: "#f8fafc" };

function el(tag, cls, attrs) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function render(info) {
  $("#status").textContent = statusSentence(info);
  $("#moves").textContent = info.moves;
  $("#moves-help").textContent = info.moves_help;
  $("#undo").disabled = info.ply === 0;
  const view = info.view;
  const pass = $("#pass");
  pass.hidden = !view.pass_action;
  pass.disabled = !view.pass_action || !info.legal.includes(view.pass_action);
  const board = $("#board");
  board.innerHTML = "";
  board.style.setProperty("--cols", view.cols);
  board.style.setProperty("--rows", view.rows);
  (view.colors || []).forEach((color, i) => board.style.setProperty(`--p${i + 1}`, SHADES[color] || color));
  const win = new Set(view.highlight.map(([r, c]) => `${r},${c}`));
  const last = new Set(view.last.map(([r, c]) => `${r},${c}`));
  if (view.gravity) renderColumns(board, info, win, last);
  else renderCells(board, info, win, last);
}

// a board whose moves are columns: a click anywhere in a column plays it; pieces drop in
function renderColumns(board, info, win, last) {
  const view = info.view;
  const wrap = el("div", "cx");
  const header = el("div", "cx-header");
  const lastCol = view.last.length ? view.last[0][1] : -1;
  for (let c = 0; c < view.cols; c++) {
    const label = el("span", c === lastCol ? "last" : "");
    label.textContent = view.col_labels[c] || "";
    header.appendChild(label);
  }
  const scores = el("div", "cx-scores");
  const grid = el("div", "cx-grid");
  for (let c = 0; c < view.cols; c++) {
    const move = info.targets[0][c];
    scores.appendChild(el("span", "score", { "data-score-column": String(c), ...(move ? { "data-score-move": move } : {}) }));
    const col = el("div", `col ${move ? "playable" : "full"}`, {
      "data-column": String(c), role: "button", tabindex: "0", "aria-label": `column ${view.col_labels[c] || c + 1}`,
    });
    for (let r = 0; r < view.rows; r++) {
      const hole = el("div", "hole", { "data-row": String(r) });
      const who = view.cells[r][c];
      if (who) {
        const key = `${r},${c}`;
        let cls = `disc p${who}`;
        if (win.has(key)) cls += " win";
        if (last.has(key)) cls += " last drop";
        const disc = el("div", cls);
        disc.style.setProperty("--fall", String(r + 1));
        hole.appendChild(disc);
      }
      col.appendChild(hole);
    }
    // a full column still "plays" its label, so the person is told it is not a legal move
    const wanted = () => move || view.col_labels[c] || String(c + 1);
    col.addEventListener("click", () => play(wanted()));
    col.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") play(wanted()); });
    grid.appendChild(col);
  }
  wrap.append(header, scores, grid);
  board.appendChild(wrap);
}

// a board whose moves are cells: a click on a cell plays the move the server says it means
function renderCells(board, info, win, last) {
  const view = info.view;
  const labelled = view.row_labels.length > 0;
  const grid = el("div", `cells${labelled ? " labelled" : ""}`);
  if (view.col_labels.length) {
    if (labelled) grid.appendChild(el("span", "label"));
    for (const text of view.col_labels) { const s = el("span", "label"); s.textContent = text; grid.appendChild(s); }
  }
  const waiting = busy() || engineToMove(info);
  for (let r = 0; r < view.rows; r++) {
    if (labelled) { const s = el("span", "label"); s.textContent = view.row_labels[r]; grid.appendChild(s); }
    for (let c = 0; c < view.cols; c++) {
      const who = view.cells[r][c], key = `${r},${c}`, move = info.targets[r][c];
      let cls = "cell" + (who ? ` p${who}` : "");
      if (move && who && !waiting) cls += " movable";
      if (win.has(key)) cls += " win";
      if (last.has(key)) cls += " last";
      const index = r * view.cols + c;
      const cell = el("button", cls, {
        "data-cell": String(index), "data-at": key, type: "button",
        "aria-label": move ? `move ${move}` : `cell ${key}`,
      });
      cell.textContent = who ? view.glyphs[who - 1] : "";
      if (move) cell.appendChild(el("span", "score", { "data-score-cell": String(index), "data-score-move": move }));
      cell.addEventListener("click", () => { if (move) play(move); else if (!info.over) showError("That is not a legal move here."); });
      grid.appendChild(cell);
    }
  }
  board.appendChild(grid);
}

// ---- analysis -------------------------------------------------------------------------------------

function clearScores() {
  for (const node of document.querySelectorAll(".score")) {
    node.textContent = ""; node.title = ""; node.classList.remove("pos", "neg", "zero", "best", "estimate", "proven");
  }
  $("#analysis-info").textContent = "";
}

async function analyse(token) {
  const info = ui.info;
  if (!$("#analysis").checked || !info || info.over) return;
  $("#analysis-info").textContent = "Analysing…";
  // where the solver plays, the analysis fills in: each slice says what is proven so far (win/draw/loss
  // first, then exact scores) until it is done; elsewhere one answer
  const params = { game: ui.game, moves: info.moves };
  if (info.solver) params.budget = "0.5";
  for (;;) {
    let reply;
    try {
      reply = await api(`/api/analyze?${new URLSearchParams(params)}`);
    } catch (err) {
      if (token === ui.token) $("#analysis-info").textContent = `No analysis: ${err.message}`;
      return;
    }
    if (token !== ui.token || !$("#analysis").checked) return;
    showAnalysis(info, reply);
    if (reply.done !== false) return;
  }
}

function showAnalysis(info, reply) {
  if (!reply.engine) { $("#analysis-info").textContent = `No analysis: ${reply.note}`; return; }
  const classes = reply.classes || {};
  // the reply's own word: short figures under columns, words on cells; an estimate is marked "≈"
  const estimates = new Set(reply.estimates);
  const nodes = new Map(Array.from(document.querySelectorAll("[data-score-move]")).map((n) => [n.dataset.scoreMove, n]));
  for (const [move, score] of Object.entries(reply.scores)) {
    const node = nodes.get(move);
    if (!node) continue;
    const words = reply.score_words[move], guess = estimates.has(move), proven = move in classes;
    node.textContent = (guess ? "≈" : "") + (info.view.gravity ? reply.points[move] : words);
    node.title = guess ? `estimate: ${words}` : proven ? `proven ${classes[move]}; distance not yet known` : words;
    node.classList.remove("pos", "neg", "zero", "best", "estimate", "proven");
    node.classList.add(score > 0 ? "pos" : score < 0 ? "neg" : "zero");
    if (guess) node.classList.add("estimate");
    if (proven) node.classList.add("proven");
    if (move === reply.best && reply.done !== false) node.classList.add("best");
  }
  if (reply.done === false) {
    for (const [move, node] of nodes) if (!(move in reply.scores) && info.legal.includes(move)) node.textContent = "?";
    const proven = Object.keys(reply.scores).length;
    $("#analysis-info").textContent = `Proving, the solver: ${proven} of ${info.legal.length} columns known`
      + ` (W / L: proven, distance to come; ?: not yet) · ${reply.elapsed.toFixed(2)} s`;
    return;
  }
  const kind = reply.exact ? "Exact" : "Estimate";
  const counted = reply.nodes ? ` · ${reply.nodes.toLocaleString("en")} nodes` : "";
  const note = reply.note ? ` (${reply.note})` : "";
  const legend = info.view.gravity && reply.legend ? ` · ${reply.legend}` : "";
  $("#analysis-info").textContent = `${kind}, from ${reply.engine}: best ${reply.best} (${reply.words}) · `
    + `${reply.elapsed.toFixed(2)} s${counted}${note}${legend}`;
}

// ---- why? (#why): the engine's last move in #why-panel (tr[data-why-move]): a traced search, or the solver's exact scores
async function why() {
  const last = ui.lastEngine, panel = $("#why-panel"), params = { game: ui.game, moves: last.before };
  Object.assign(panel, { hidden: false, textContent: "Explaining…" });
  let rows, lines;
  try {
    const e = await api(`/api/explain?${new URLSearchParams({ ...params, agent: last.agent })}`);
    rows = e.rows.map((r) => [r.move, r.score ?? "–", r.bound || (r.kind === "mean" ? `mean of ${r.visits}` : r.kind),
      r.chosen, r.chosen && !r.why.startsWith("exact") ? "chosen" : r.why]);
    lines = [e.verdict, `line: ${e.pv.join(" ")} · ${(e.nodes || 0).toLocaleString("en")} ${e.search === "mcts" ? "simulations" : "nodes"}`
      + ` · scores from ${e.side}'s view`, e.note, e.move !== last.move && `(this search chose ${e.move}; the engine played ${last.move})`];
  } catch (err) { rows = []; lines = [`No explanation: ${err.message}`]; }
  if (ui.lastEngine !== last) return;
  const table = el("table"); table.innerHTML = "<tr><th>move</th><th>score</th><th></th><th>why</th></tr>";
  for (const [move, score, kind, chosen, text] of rows) {
    const tr = table.appendChild(el("tr", chosen ? "chosen" : "", { "data-why-move": move }));
    for (const t of [(chosen ? "▶ " : "") + move, score, kind, text]) tr.appendChild(el("td")).textContent = t;
  }
  panel.replaceChildren(...(rows.length ? [table] : []), ...lines.filter(Boolean).map((t) => { const p = el("p"); p.textContent = t; return p; }));
}

// ---- start ------------------------------------------------------------------------------------------

async function start() {
  try {
    const health = await api("/api/health");
    ui.agents = health.agents;
  } catch (err) { showError(`The server does not answer: ${err.message}`); }
  fillOpponents();
  const params = new URLSearchParams(location.search);
  const game = params.get("game") || "connect4";
  const moves = params.get("moves") || "";
  ui.human = params.get("side") === "2" ? 2 : 1;
  $("#side").value = String(ui.human);
  $("#analysis").checked = params.get("analysis") === "1";
  try {
    const info = await api(`/api/state?${new URLSearchParams({ game, moves })}`);
    fillGames(info.games);
    controlsFromInfo(info);
    ui.opponent = params.get("opponent") || defaultOpponent(info.solver);
    ensureOpponent(ui.opponent);
    await show(info.game, info.moves);
  } catch (err) {
    showError(`${err.message} — starting a new game instead.`);
    const info = await api("/api/state?game=connect4");
    fillGames(info.games);
    controlsFromInfo(info);
    ui.opponent = params.get("opponent") || defaultOpponent(info.solver);
    ensureOpponent(ui.opponent);
    await show(info.game, "");
  }
}

$("#game-select").addEventListener("change", () => {
  sizeControls();
  // the solver plays only some games (the server says which): pick the best other engine when it cannot
  const chosen = selectedGame();
  const offers = chosen && chosen.game === (ui.info && ui.info.game) ? ui.info : chosen;
  const needs = (OPPONENTS.find(([spec]) => spec === $("#opponent").value) || [])[2];
  if (needs && !(offers && offers[needs])) ensureOpponent(defaultOpponent(false));
});
$("#pass").addEventListener("click", () => { if (ui.info && ui.info.view.pass_action) play(ui.info.view.pass_action); });
$("#new-game").addEventListener("click", newGame);
$("#why").addEventListener("click", why);
$("#undo").addEventListener("click", undo);
$("#opponent").addEventListener("change", () => { ui.opponent = $("#opponent").value; if (ui.info) show(ui.game, ui.info.moves).catch((e) => showError(e.message)); });
$("#side").addEventListener("change", () => { ui.human = Number($("#side").value); if (ui.info) show(ui.game, ui.info.moves).catch((e) => showError(e.message)); });
$("#analysis").addEventListener("change", () => { clearScores(); if ($("#analysis").checked && !busy()) analyse(ui.token); });
$("#copy-link").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(location.href); $("#copied").textContent = "copied"; }
  catch (e) { $("#copied").textContent = location.href; }
});
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.key === "u") undo();
  else if (ui.info && ui.info.legal.includes(e.key)) play(e.key);
});
start();
