// zerosum's page: the board, the engine's answers and the analysis, all from the JSON API of `zerosum serve`.
// No build step and no outside assets (board.js draws, panels.js holds the move list, analysis, why? and
// records, settings.js the game's settings and the address; this file the game's positions and the keys).
// It knows no game: it draws the board the server describes and lists the games (`games`) and opponents
// (`/api/health`) the server offers.
// The game is a tree of lines (tree.js): the line shown is `line` and the position shown is after the first
// `ply` of its moves: back and forward step through it (the moves past `ply` are the redo), a move that is not
// the next one opens a variation from the position shown.  An engine moves only at the end of the line.
// An engine's move answers with the position after it, which the page shows without asking again.  The start
// (the address's settings) and the waits (#wait) are in start.js.
// Requests made for a position are aborted once another is shown (or the tab is closed): the server then drops
// their engine work (zerosum.ui.engines).  The keys step from the position asked for last (`target`), not the
// one shown, so quick presses all count and the last one wins.
// Hooks for tests: #status, #moves (the moves up to the position shown), #announce (the live region),
// #first #back #forward #last #undo #redo, #pause #step (engines on both sides), #pass, #wait.
"use strict";

const $ = (sel) => document.querySelector(sel);
const WATCH_DELAY = 600;  // ms between the moves of two engines, so a person can follow

const ui = {
  game: "connect4",     // the game spec as the server spells it
  info: null,           // the /api/state answer for the position shown
  line: [],             // the line shown: its moves from the start, as far as it goes (tree.js)
  root: null,           // the tree of every line (tree.js)
  quiet: false,         // the address is replaced, not pushed onto the history (start, Back and Forward)
  entryShown: null,     // the history entry's index (tree.js) of the position shown
  returning: false,     // a step the server could not show is going back to entryShown (tree.js)
  ply: 0,               // the position shown: after line[0 .. ply)
  sep: "",              // the game's move separator
  opponent: "person",   // an agent spec, or "person"
  opponent2: "",        // the second player's engine when engines play both sides ("" = the same as opponent)
  human: 1,             // the player the person plays against an engine; 0: engines play both
  paused: false,        // engines wait (both sides engines): #step plays one move
  busyToken: -1,        // the position (token) an engine is thinking about
  token: 0,             // counts positions shown, so late answers for old positions are dropped
  controller: new AbortController(),  // aborts the requests made for the position (token) once another is shown
  target: 0,            // the ply go() was asked for last: shown, or on its way (the keys step from it)
  agents: [],
  opponents: [],
  lastEngine: null,     // the engine's last move: {agent, before, after, move} (what "why?" explains)
  record: [],           // the games of the record opened last
  recordShown: null,    // the record's game on the board: its line, lines, marks (every line's) and Annotator
  waiting: null,        // the request whose wait #wait describes, if any
  kept: null,           // the tree, line and engine's move of the position shown: a game refused leaves them
};

// `signal`: the AbortSignal that ends the request (an answer no longer wanted): it then throws an Error whose
// `aborted` is true; a server that cannot be reached (stopped, or the network down) throws "the server cannot
// be reached" (the browser's own words, "Failed to fetch", say nothing to a person)
async function api(path, options, signal) {
  let response, data;
  try {
    response = await fetch(path, signal ? { ...options, signal } : options);
    try { data = await response.json(); } catch (e) {
      if (signal && signal.aborted) throw e;
      data = { error: `HTTP ${response.status}` };
    }
  } catch (err) {
    if (!signal || !signal.aborted) throw err instanceof TypeError ? new Error("the server cannot be reached") : err;
    const aborted = new Error("the request was cancelled");
    aborted.aborted = true;
    throw aborted;
  }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// another position is shown (or an engine asked to move): the requests made for the one before are aborted
function nextToken() {
  ui.controller.abort();
  ui.controller = new AbortController();
  return ++ui.token;
}

function showError(message) { $("#error").textContent = message || ""; }
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- numbering: the move list's, by full move, as a saved record (PGN) numbers them ----------------------
// Every place that names a move of a line (the move list's accessible names, the status line, the live
// region, the review's summary and graph, the variations) numbers it so: the number the move list shows.
// Where a count of plies is meant (the status line's place in the line, the review's plies as
// `zerosum review` lists them), it says "ply".

// the full move of ply `ply` (1, 1, 2, 2, ...): the number the move list and a saved record give it
function fullMove(ply) { return Math.ceil(ply / 2); }

// move `ply` as the move list and a saved record write it: "9. 7" a first player's, "2... 3" a second's
function moveNumbered(ply, move) { return `${fullMove(ply)}${ply % 2 ? "." : "..."} ${move}`; }

// ---- whose turn ---------------------------------------------------------------------------------

// the engine that plays `player`, or null for a person
function engineFor(player) {
  if (ui.opponent === "person") return null;
  if (ui.human === 0) return player === 1 ? ui.opponent : ui.opponent2 || ui.opponent;
  return player === ui.human ? null : ui.opponent;
}

const atEnd = () => ui.ply >= ui.line.length;

function engineToMove(info) {
  return !info.over && atEnd() && engineFor(info.to_move) !== null;
}

function statusSentence(info) {
  let text = info.status;
  if (!atEnd()) {
    // the place in the line counts plies, and says so; the move shown is numbered as the move list numbers it
    const here = ui.ply ? `After ${moveNumbered(ui.ply, ui.line[ui.ply - 1])}` : "The start";
    text += ` ${here} (ply ${ui.ply} of ${ui.line.length}): → steps forward.`;
  } else if (!info.over && ui.opponent !== "person") {
    const engine = engineFor(info.to_move);
    if (!engine) text += " Your turn.";
    else text += ui.paused ? ` Paused: Step plays ${agentLabel(engine)}'s move.` : ` ${agentLabel(engine)} is thinking…`;
  } else if (info.over && ui.opponent !== "person" && info.winner && ui.human) {
    text += info.winner === ui.human ? " You win!" : " The engine wins.";
  }
  return text;
}

function announce(info) {
  const view = info.view;
  const said = ui.ply ? `Move ${fullMove(ui.ply)}: ${pieceName(view, ui.ply % 2 ? 1 : 2)} played ${info.last}. ` : "The start. ";
  $("#announce").textContent = said + info.status;
}

// ---- positions ------------------------------------------------------------------------------------

// show the position after `ply` moves of the line (an engine to move at the end of the line moves);
// `known`: that position as the server described it already (an engine's move answers with it); `line`: the
// line to show it on, when it is not the line shown (a move that opens a variation): it joins the tree only
// once the server has answered, so a move the server never saw leaves no trace
async function go(ply, known, line) {
  const token = nextToken(), signal = ui.controller.signal;
  ui.target = ply;
  $("#board").classList.remove("waiting");
  const moves = (line || ui.line).slice(0, ply).join(ui.sep);
  let info;
  try {
    info = known && known.moves === moves ? known
      : await api(`/api/state?${new URLSearchParams({ game: ui.game, moves })}`, undefined, signal);
  } catch (err) {
    if (token !== ui.token) return;  // another position was asked for meanwhile: it is the one shown
    ui.target = ui.ply;
    throw err;
  }
  if (token !== ui.token) return;
  if (line) { addLine(line); ui.line = line; }  // the move's line joins the tree (tree.js)
  const gameChanged = !ui.info || ui.info.game !== info.game;
  Object.assign(ui, { game: info.game, info, ply, sep: info.separator });
  if (gameChanged) controlsFromInfo(info);
  labelOpponents(info);
  $("#status").textContent = statusSentence(info);
  $("#moves").textContent = info.moves;
  $("#moves-help").textContent = info.moves_help;
  const pass = $("#pass");
  pass.hidden = !info.view.pass_action;
  pass.disabled = !info.view.pass_action || !info.legal.includes(info.view.pass_action);
  render(info);
  renderMoveList();
  renderVariations();
  announce(info);
  updateAddress();
  clearScores();
  review();  // the study board (study.js): the graph, the bar, the best line, the marks
  if (!ui.lastEngine || ui.lastEngine.after !== info.moves) { ui.lastEngine = null; $("#why-panel").hidden = true; }
  ui.kept = { root: ui.root, line: ui.line, lastEngine: ui.lastEngine };
  $("#why").hidden = !ui.lastEngine;
  if (engineToMove(info) && !ui.paused) {
    if (ui.human === 0) await sleep(WATCH_DELAY);  // engines on both sides: a pace a person can follow
    if (token === ui.token && !ui.paused) await engineMove(token);
  } else {
    analyse(token);
  }
}

// open a game's line at a ply (a record, a link, a new game); `sep`: the game's move separator; `lines`: the
// tree's lines when it has variations (the first is `line`), `shown` the index of the line shown.  A game the
// server refuses (Othello on 9 x 9, or no server) throws, and the game shown stays as it was, and playable.
async function loadLine(game, line, ply, sep, lines, shown) {
  ui.game = game;
  plantTree(lines || [line]);
  ui.line = (lines && lines[shown || 0] || line).slice();
  ui.sep = sep;
  ui.lastEngine = null;
  try { await go(Math.min(ply, ui.line.length)); } catch (err) {
    if (ui.info) Object.assign(ui, { game: ui.info.game, sep: ui.info.separator }, ui.kept);
    throw err;
  }
}

function busy() { return ui.busyToken === ui.token; }

// a move from the position shown: the next one of the line (redo), else a variation from here (`known`: the
// position after it, when the server sent it)
function advance(move, known) {
  return go(ui.ply + 1, known, lineAfter(move));  // tree.js
}

async function engineMove(token) {
  const info = ui.info, agent = engineFor(info.to_move) || ui.opponent;
  ui.busyToken = token;
  $("#board").classList.add("waiting");
  const stopNote = waitNote(`${agentLabel(agent)} is thinking`);
  try {
    const reply = await api("/api/move", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: ui.game, moves: info.moves, agent }),
    }, ui.controller.signal);
    stopNote();
    if (token !== ui.token) return;
    const details = [];
    if (reply.words) details.push(reply.words);  // the server's words: an estimate says "est." itself
    if (reply.nodes !== null && reply.nodes !== undefined) details.push(`${reply.nodes.toLocaleString("en")} nodes`);
    details.push(`${reply.elapsed.toFixed(2)} s`);
    $("#engine-info").textContent = `${agentLabel(reply.agent)} played ${reply.move}: ${details.join(" · ")}` + (reply.note ? ` (${reply.note})` : "");
    $("#board").classList.remove("waiting");
    ui.busyToken = -1;
    // the search that chose the move is kept with it: "why?" says what it found, and that it searches again
    ui.lastEngine = { agent: reply.agent, before: info.moves, after: reply.moves, move: reply.move, words: reply.words,
      exact: reply.exact, pv: reply.pv || [] };
    await advance(reply.move, reply.state);
  } catch (err) {
    if (token !== ui.token) return;
    showError(`The engine could not move: ${err.message}`);
    $("#status").textContent = ui.info.status;
  } finally {
    stopNote();
    if (token === ui.token) {
      ui.busyToken = -1;
      $("#board").classList.remove("waiting");
    }
  }
}

function play(move) {
  const info = ui.info;
  if (!info || info.over || busy() || (engineToMove(info) && !ui.paused)) return;
  showError("");  // each move's own message: a refused key pressed again is said again
  if (!info.legal.includes(move)) { refuse(move); return; }
  advance(move).catch((err) => showError(`${err.message}: your move was not played.`));
}

// a move that is not legal here: the game's own reason, as the server words it (GET /api/state?move=, as the
// terminal says it: "column 4 is full", "column 9 is outside 1..7"; alone where it says so itself: "a1 is not
// legal: it flips no disc; ..."); nothing is played
async function refuse(move) {
  const token = ui.token, params = new URLSearchParams({ game: ui.game, moves: ui.info.moves, move });
  let why = "";  // none when the server took it: the position changed meanwhile
  try { await api(`/api/state?${params}`, undefined, ui.controller.signal); } catch (err) {
    if (err.aborted) return;
    why = err.message;
  }
  if (token !== ui.token) return;
  const said = /\bis not (a )?legal\b/.test(why);
  showError(said ? `${why.replace(/\.$/, "")}.` : `${move} is not a legal move here${why ? `: ${why}` : ""}.`);
}

// a key that names a move on boards whose moves are one key (a column, a cell: a digit), legal or not
const moveKey = (key) => /^[0-9]$/.test(key) && ui.info.legal.some((m) => m.length === 1);

function step(ply) {
  if (!ui.info || ply < 0 || ply > ui.line.length || ply === ui.target) return;
  showError("");
  go(ply).catch((err) => showError(err.message));
}

// the player to move after `ply` moves; against an engine undo and redo stop only where it is the person
const turnAt = (ply) => (ply % 2 === 0 ? 1 : 2);
const facingEngine = () => ui.opponent !== "person" && ui.human !== 0;

// the position undo goes back to from `from`: the person's turn before it against an engine (else one move
// back); null when there is none (the second player before their first move: the engine's first is no undo)
function undoPly(from) {
  let ply = from - 1;
  if (facingEngine()) while (ply > 0 && turnAt(ply) !== ui.human) ply--;
  return ply < 0 || (facingEngine() && turnAt(ply) !== ui.human) ? null : ply;
}

// undo: back to the person's turn against an engine (else one move); the moves taken back stay as the redo
function undo() {
  const ply = ui.info ? undoPly(ui.target) : null;
  if (ply === null) { showError("Nothing to undo."); return; }
  $("#engine-info").textContent = "";
  step(ply);
}

// redo: forward to the person's next turn against an engine (else one move)
function redo() {
  if (!ui.info || ui.target >= ui.line.length) { showError("Nothing to redo."); return; }
  let ply = ui.target + 1;
  if (facingEngine()) while (ply < ui.line.length && turnAt(ply) !== ui.human) ply++;
  step(ply);
}

// a new game of the game the controls name: New game, the Game menu and its size fields.  The game left is an
// entry of the browser's history (Back brings it back).  One the server refuses is said and the game shown goes
// on; `fromMenu` (the Game menu's choice): the menu then names the game shown again, so it never names a game
// not played (a size refused keeps what was typed, so it can be mended, and the error says the game goes on)
function newGame(fromMenu) {
  const said = $("#engine-info").textContent, shown = ui.info;
  showError("");
  $("#engine-info").textContent = "";
  ui.opponent = $("#opponent").value;
  ui.opponent2 = $("#opponent2").value;
  setSide(Number($("#side").value));
  loadLine(specFromControls(), [], 0, "").catch((err) => {
    if (!shown) { showError(err.message); return; }
    if (fromMenu === true) controlsFromInfo(shown);
    $("#engine-info").textContent = said;
    showError(`${err.message}: the game shown goes on.`);
  });
}

// ---- the controls and keys ------------------------------------------------------------------------

const reshow = () => { if (ui.info) go(ui.ply).catch((e) => showError(e.message)); };
// the Game menu starts the game it names at once, as the Opponent and You play menus apply at once (a game of
// any size at its default size); a size field starts a game of its size once changed (Enter, leaving the field,
// its arrows), keeping the keyboard's focus (settings.js)
$("#game-select").addEventListener("change", () => { sizeControls(); newGame(true); });
$("#game-options").addEventListener("change", (e) => { if (e.target instanceof HTMLInputElement) newGame(false); });
$("#pass").addEventListener("click", () => { if (ui.info && ui.info.view.pass_action) play(ui.info.view.pass_action); });
$("#new-game").addEventListener("click", () => newGame(false));
$("#why").addEventListener("click", why);
$("#undo").addEventListener("click", undo);
$("#redo").addEventListener("click", redo);
$("#first").addEventListener("click", () => step(0));
$("#back").addEventListener("click", () => step(ui.target - 1));
$("#forward").addEventListener("click", () => step(ui.target + 1));
$("#last").addEventListener("click", () => step(ui.line.length));
$("#pause").addEventListener("click", () => { ui.paused = !ui.paused; setSide(ui.human); reshow(); });
$("#step").addEventListener("click", () => {
  if (!ui.info || ui.info.over || busy() || !engineFor(ui.info.to_move)) return;
  showError("");
  engineMove(nextToken()).catch((e) => showError(e.message));
});
$("#opponent").addEventListener("change", () => { setOpponent($("#opponent").value); reshow(); });
$("#opponent2").addEventListener("change", () => { ui.opponent2 = $("#opponent2").value; reshow(); });
$("#side").addEventListener("change", () => { setSide(Number($("#side").value)); reshow(); });
$("#analysis").addEventListener("change", () => {
  clearScores(); updateAddress();
  if ($("#analysis").checked) { review(); if (!busy()) analyse(ui.token); } else stopReview();
});
$("#copy-link").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(location.href); $("#copied").textContent = "copied"; }
  catch (e) { $("#copied").textContent = location.href; }
});
$("#record-open").addEventListener("click", () => openRecord());
$("#record-file").addEventListener("change", () => readRecordFile().catch((e) => recordInfo(e.message)));
$("#record-games").addEventListener("change", () => loadRecordGame(Number($("#record-games").value)));
const KEYS = { ArrowLeft: () => step(ui.target - 1), ArrowRight: () => step(ui.target + 1), Home: () => step(0),
  End: () => step(ui.line.length), u: undo };
document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (KEYS[e.key]) { e.preventDefault(); KEYS[e.key](); }
  else if (ui.info && (ui.info.legal.includes(e.key) || moveKey(e.key))) play(e.key);
});
// a closed tab (or one put away): nothing it asked for is wanted any more; shown again from the browser's cache,
// it asks again
window.addEventListener("pagehide", () => { nextToken(); stopReview(); });
window.addEventListener("pageshow", (e) => { if (e.persisted) reshow(); });
// the page starts once every script is in: study.js comes after this file, and a slow one (a loaded machine, a
// slow network) arrived after start()'s first answers ("markOf is not defined")
const begin = () => start().catch((err) => showError(`The page could not start: ${err.message}`));
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
else begin();
