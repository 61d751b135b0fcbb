// zerosum's page: the board, the engine's answers and the analysis, all from the JSON API of `zerosum serve`.
// No build step and no outside assets.  Hooks for tests: [data-column=N] columns (0-based), #status, #moves,
// [data-score-column=N] analysis scores (Connect-X), [data-cell=N] / [data-score-cell=N] (Tic-Tac-Toe),
// [data-stone="x,y"] / [data-score-stone="x,y"] (Migration).
"use strict";

const $ = (sel) => document.querySelector(sel);

const OPPONENTS = [
  ["solver", "the solver (perfect play)"],
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

function specFromControls() {
  const kind = $("#game-select").value;
  if (kind === "connectx") return `connectx:rows=${$("#rows").value},cols=${$("#cols").value},k=${$("#k").value}`;
  if (kind === "migration") return `migration:n=${$("#mig-n").value}`;
  return kind;
}

function controlsFromInfo(info) {
  const sel = $("#game-select");
  if (info.kind === "connectx") {
    const preset = { "6x7x4": "connect4", "8x8x4": "connect4-8x8", "5x7x4": "connect4-5x7" }[`${info.rows}x${info.cols}x${info.k}`];
    sel.value = preset || "connectx";
    $("#rows").value = info.rows; $("#cols").value = info.cols; $("#k").value = info.k;
  } else if (info.kind === "migration") {
    sel.value = "migration"; $("#mig-n").value = info.n;
  } else {
    sel.value = "tictactoe";
  }
  sizeControls();
}

function sizeControls() {
  const kind = $("#game-select").value;
  $("#connectx-size").hidden = kind !== "connectx";
  $("#migration-size").hidden = kind !== "migration";
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

function defaultOpponent(kind) {
  const names = Array.from($("#opponent").options).map((o) => o.value);
  const wanted = kind === "connectx" ? ["solver", "alphabeta:time=1", "mcts:time=1", "random"] : ["alphabeta:time=1", "mcts:time=1", "random"];
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
    if (reply.words) details.push(reply.words);
    if (reply.nodes !== null && reply.nodes !== undefined) details.push(`${reply.nodes.toLocaleString("en")} nodes`);
    details.push(`${reply.elapsed.toFixed(2)} s`);
    $("#engine-info").textContent = `${facts}: ${details.join(" · ")}` + (reply.note ? ` (${reply.note})` : "");
    $("#board").classList.remove("waiting");
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

function el(tag, cls, attrs) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function render(info) {
  $("#status").textContent = statusSentence(info);
  $("#moves").textContent = info.moves;
  $("#undo").disabled = info.ply === 0;
  const board = $("#board");
  board.innerHTML = "";
  board.style.setProperty("--cols", info.cols);
  board.style.setProperty("--rows", info.rows);
  const win = new Set(info.winning_line.map(([r, c]) => `${r},${c}`));
  const last = info.last_cell ? `${info.last_cell[0]},${info.last_cell[1]}` : null;
  if (info.kind === "connectx") renderConnectX(board, info, win, last);
  else if (info.kind === "tictactoe") renderTicTacToe(board, info, win, last);
  else renderMigration(board, info, last);
}

function renderConnectX(board, info, win, last) {
  const wrap = el("div", "cx");
  const header = el("div", "cx-header");
  const lastCol = info.last_cell ? info.last_cell[1] : -1;
  for (let c = 0; c < info.cols; c++) {
    const label = el("span", c === lastCol ? "last" : "");
    label.textContent = String(c + 1);
    header.appendChild(label);
  }
  const scores = el("div", "cx-scores");
  for (let c = 0; c < info.cols; c++) scores.appendChild(el("span", "score", { "data-score-column": String(c) }));
  const grid = el("div", "cx-grid");
  for (let c = 0; c < info.cols; c++) {
    const playable = info.legal.includes(String(c + 1));
    const col = el("div", `col ${playable ? "playable" : "full"}`, {
      "data-column": String(c), role: "button", tabindex: "0", "aria-label": `column ${c + 1}`,
    });
    for (let r = 0; r < info.rows; r++) {
      const hole = el("div", "hole", { "data-row": String(r) });
      const who = info.board[r][c];
      if (who) {
        const key = `${r},${c}`;
        let cls = `disc p${who}`;
        if (win.has(key)) cls += " win";
        if (key === last) cls += " last drop";
        const disc = el("div", cls);
        disc.style.setProperty("--fall", String(r + 1));
        hole.appendChild(disc);
      }
      col.appendChild(hole);
    }
    col.addEventListener("click", () => play(String(c + 1)));
    col.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") play(String(c + 1)); });
    grid.appendChild(col);
  }
  wrap.append(header, scores, grid);
  board.appendChild(wrap);
}

function renderTicTacToe(board, info, win, last) {
  const grid = el("div", "ttt");
  for (let i = 0; i < 9; i++) {
    const r = Math.floor(i / 3), c = i % 3, who = info.board[r][c], key = `${r},${c}`;
    let cls = "ttt-cell" + (who ? ` p${who}` : "");
    if (win.has(key)) cls += " win";
    if (key === last) cls += " last";
    const cell = el("button", cls, { "data-cell": String(i), type: "button", "aria-label": `cell ${i + 1}` });
    cell.textContent = who ? "XO"[who - 1] : "";
    if (!who) {
      const score = el("span", "score", { "data-score-cell": String(i) });
      cell.appendChild(score);
    }
    cell.addEventListener("click", () => play(String(i + 1)));
    grid.appendChild(cell);
  }
  board.appendChild(grid);
}

function renderMigration(board, info, last) {
  const grid = el("div", "mig");
  grid.appendChild(el("span", "label"));
  for (let y = 0; y < info.n; y++) { const s = el("span", "label"); s.textContent = String(y); grid.appendChild(s); }
  const legal = new Set(info.legal);
  for (let x = 0; x < info.n; x++) {
    const label = el("span", "label"); label.textContent = String(x); grid.appendChild(label);
    for (let y = 0; y < info.n; y++) {
      const who = info.board[x][y], key = `${x},${y}`;
      let cls = "mig-cell" + (who ? ` p${who}` : "");
      const movable = legal.has(key) && !busy() && !engineToMove(info);
      if (movable) cls += " movable";
      if (key === last) cls += " last";
      const cell = el("button", cls, { "data-stone": key, type: "button", "aria-label": `cell ${key}` });
      cell.textContent = who === 1 ? "▶" : who === 2 ? "▲" : "";
      if (legal.has(key)) cell.appendChild(el("span", "score", { "data-score-stone": key }));
      cell.addEventListener("click", () => { if (legal.has(key)) play(key); });
      grid.appendChild(cell);
    }
  }
  board.appendChild(grid);
}

// ---- analysis -------------------------------------------------------------------------------------

// "wins in 11" -> "W11", "loses in 4" -> "L4" (narrow Connect-X columns; the full words are the tooltip)
function compact(words) {
  const m = /^(wins|loses) in (\d+)$/.exec(words);
  return m ? `${m[1] === "wins" ? "W" : "L"}${m[2]}` : words === "even" || words === "draw" ? "0" : words;
}

function clearScores() {
  for (const node of document.querySelectorAll(".score")) { node.textContent = ""; node.title = ""; }
  $("#analysis-info").textContent = "";
}

async function analyse(token) {
  const info = ui.info;
  if (!$("#analysis").checked || !info || info.over) return;
  $("#analysis-info").textContent = "Analysing…";
  let reply;
  try {
    reply = await api(`/api/analyze?${new URLSearchParams({ game: ui.game, moves: info.moves })}`);
  } catch (err) {
    if (token === ui.token) $("#analysis-info").textContent = `No analysis: ${err.message}`;
    return;
  }
  if (token !== ui.token || !$("#analysis").checked) return;
  if (!reply.source) { $("#analysis-info").textContent = `No analysis: ${reply.note}`; return; }
  for (const [move, score] of Object.entries(reply.scores)) {
    let node;
    if (info.kind === "connectx") node = document.querySelector(`[data-score-column="${Number(move) - 1}"]`);
    else if (info.kind === "tictactoe") node = document.querySelector(`[data-score-cell="${Number(move) - 1}"]`);
    else node = document.querySelector(`[data-score-stone="${move}"]`);
    if (!node) continue;
    const words = reply.score_words[move];
    node.textContent = reply.source === "solver" ? (score > 0 ? `+${score}` : String(score))
      : info.kind === "connectx" ? compact(words) : words;
    node.title = words;
    node.classList.remove("pos", "neg", "zero", "best");
    node.classList.add(score > 0 ? "pos" : score < 0 ? "neg" : "zero");
    if (move === reply.best) node.classList.add("best");
  }
  const engine = reply.source === "solver" ? "Solver" : reply.source;
  const nodes = reply.nodes ? ` · ${reply.nodes.toLocaleString("en")} nodes` : "";
  const note = reply.note ? ` (${reply.note})` : "";
  $("#analysis-info").textContent = `${engine}: best ${reply.best} (${reply.words}) · ${reply.elapsed.toFixed(2)} s${nodes}${note}`;
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
    controlsFromInfo(info);
    ui.opponent = params.get("opponent") || defaultOpponent(info.kind);
    ensureOpponent(ui.opponent);
    await show(info.game, info.moves);
  } catch (err) {
    showError(`${err.message} — starting a new game instead.`);
    ui.opponent = params.get("opponent") || defaultOpponent("connectx");
    ensureOpponent(ui.opponent);
    await show("connect4", "");
  }
}

$("#game-select").addEventListener("change", () => {
  sizeControls();
  const value = $("#game-select").value;
  // the solver plays Connect-X only: pick the best other engine when it is chosen for another game
  if ($("#opponent").value === "solver" && !value.startsWith("connect")) ensureOpponent(defaultOpponent(value));
});
$("#new-game").addEventListener("click", newGame);
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
  else if (/^[1-9]$/.test(e.key) && ui.info && ui.info.kind !== "migration") play(e.key);
});
start();
