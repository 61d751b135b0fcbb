// zerosum's page: the panels beside the board -- the move list, the analysis, "why?" and opening a record.
// Every value is shown in the words the server sends (zerosum.core.words: distances in moves; an estimate
// marked "est." or "≈"); no engine or game is named here.
// Hooks for tests: #move-list button[data-ply=N] (data-mark: the review's class of that move) (N: the position after N moves; 0 the start), the one shown
// has aria-current="step", moves past it (redo) class "future"; #record-text, #record-open, #record-games.
"use strict";

// ---- the move list (#move-list): every move of the line, a click shows the position after it ---------------

function renderMoveList() {
  const list = $("#move-list");
  list.replaceChildren();
  const view = ui.info ? ui.info.view : null;
  const entry = (ply, text, label) => {
    const cls = ply > ui.ply ? "future" : "";
    const mark = ply ? (markOf(ply) || recordMark(ply)) : null;  // the review's mark (study.js), else the record's, on any line
    const button = el("button", cls, { type: "button", "data-ply": String(ply),
      "aria-label": mark ? `${label}, ${mark.words}` : label });
    if (ply === ui.ply) button.setAttribute("aria-current", "step");
    button.textContent = text;
    if (mark) {
      button.dataset.mark = mark.class;
      button.title = mark.words;
      if (mark.mark) button.appendChild(el("span", `mark ${mark.class}`, { "aria-hidden": "true" })).textContent = mark.mark;
    }
    button.addEventListener("click", () => go(ply));
    return button;
  };
  const start = el("li", "start");
  start.appendChild(entry(0, "start", "the start position"));
  list.appendChild(start);
  for (let i = 0; i < ui.line.length; i += 2) {
    const li = el("li");
    const number = el("span", "number");
    number.textContent = `${i / 2 + 1}.`;
    li.appendChild(number);
    for (const ply of [i + 1, i + 2]) {
      if (ply > ui.line.length) break;
      const who = view ? pieceName(view, ply % 2 ? 1 : 2) : `player ${ply % 2 ? 1 : 2}`;
      li.appendChild(entry(ply, ui.line[ply - 1], `move ${fullMove(ply)}, ${who}: ${ui.line[ply - 1]}`));
    }
    list.appendChild(li);
  }
  // the list scrolls to the move shown, the page does not: on a phone the list is under the board, and
  // scrollIntoView took the board out of sight at every move
  const current = list.querySelector('[aria-current="step"]');
  if (current) {
    const box = list.getBoundingClientRect(), at = current.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  }
  $("#first").disabled = $("#back").disabled = ui.ply === 0;
  $("#forward").disabled = $("#last").disabled = ui.ply >= ui.line.length;
  $("#undo").disabled = undoPly(ui.ply) === null;  // app.js: the second player has nothing to undo before their move
  $("#redo").disabled = ui.ply >= ui.line.length;
}

// ---- analysis -------------------------------------------------------------------------------------

function clearScores() {
  for (const node of document.querySelectorAll(".score")) {
    node.textContent = ""; node.title = ""; node.classList.remove("pos", "neg", "zero", "best", "estimate", "proven");
    delete node.dataset.short;
  }
  for (const control of document.querySelectorAll("[data-name]")) {
    control.setAttribute("aria-label", control.dataset.name);  // its name without a score
  }
  $("#analysis-info").textContent = "";
}

// a figure's width in em, at most (the bold glyphs of a wide sans, DejaVu's): the figures' font is sized so
// the widest of them fits its column or cell whole (style.css: --fig), never cut into another number
const GLYPH_EM = { W: 1.1, "+": 0.84, "≈": 0.84, "-": 0.42, ".": 0.38 };
const figureEm = (text) => Array.from(text).reduce((sum, ch) => sum + (GLYPH_EM[ch] || 0.7), 0);
// what a narrow column or cell leaves out of a figure, the same number still: an estimate's ≈ (its italics
// say it) and a positive figure's + (its green says it)
const WIDE_ONLY = /^(≈?)(\+?)/;
const narrow = (point) => point.replace(WIDE_ONLY, "");

// a column's figure, its ≈ and + apart so a narrow column drops them (style.css) and shows the number whole
function drawFigure(node, point) {
  const [, approx, plus] = WIDE_ONLY.exec(point), figure = el("span", "figure");
  if (approx) figure.appendChild(el("span", "approx")).textContent = approx;
  if (plus) figure.appendChild(el("span", "plus")).textContent = plus;
  figure.append(point.slice(approx.length + plus.length));
  node.replaceChildren(figure);
}

async function analyse(token) {
  const info = ui.info, signal = ui.controller.signal;  // aborted once another position is shown
  if (!$("#analysis").checked || !info || info.over) return;
  $("#analysis-info").textContent = "Analysing…";
  // where the solver plays, the analysis fills in: each slice says what is proven so far (win/draw/loss
  // first, then exact scores) until it is done; elsewhere one answer
  const params = { game: ui.game, moves: info.moves };
  if (info.solver) params.budget = "0.5";
  let restarts = 0;  // an analysis whose resume a (restarted) server refuses starts again, a few times at most
  for (;;) {
    let reply;
    try {
      reply = await api(`/api/analyze?${new URLSearchParams(params)}`, undefined, signal);
    } catch (err) {
      if (params.resume && !err.aborted && restarts++ < 3 && /^resume is not one this server handed out/.test(err.message)) {
        delete params.resume;  // a server restarted (or another one answered): start the analysis again
        if (token === ui.token) continue;
      }
      if (token === ui.token) $("#analysis-info").textContent = `No analysis: ${err.message}`;
      return;
    }
    if (token !== ui.token || !$("#analysis").checked) return;
    showAnalysis(info, reply);
    if (reply.done !== false) {  // study.js: the line from the best move; the bar where the review is not
      bestLine(token, reply);
      ui.analysedBar = analysedPosition(info, reply);
      drawBar(barHere());
      return;
    }
    params.resume = reply.resume;  // the next slice goes on where this one stopped, whichever worker answers
  }
}

function showAnalysis(info, reply) {
  $("#analysis-info").textContent = reply.summary;  // the server's line: who answered, the best, its words
  if (!reply.engine) return;
  const classes = reply.classes || {}, sign = { win: 1, draw: 0, loss: -1 };
  // the reply's own words: short figures under columns, words on cells (an estimate's say so themselves);
  // every move with a value has a point: a score, or only its proven class (no score yet: "W", "L")
  const estimates = new Set(reply.estimates), byMove = (sel) => new Map(Array.from(document.querySelectorAll(sel))
    .map((n) => [n.dataset.scoreMove || n.dataset.move, n]));
  const nodes = byMove("[data-score-move]"), controls = byMove("[data-name][data-move]");
  const points = Object.values(reply.points), board = $("#board");
  board.style.setProperty("--fig", String(Math.max(1, ...points.map((p) => figureEm(narrow(p))))));
  board.style.setProperty("--fig-wide", String(Math.max(1, ...points.map(figureEm))));
  for (const move of Object.keys(reply.points)) {
    const node = nodes.get(move), control = controls.get(move);
    if (!node) continue;
    const scored = move in reply.scores, score = scored ? reply.scores[move] : sign[classes[move]];
    const words = reply.score_words[move], guess = estimates.has(move), proven = !scored && move in classes;
    if (info.view.gravity) drawFigure(node, reply.points[move]);
    else { node.textContent = words; node.dataset.short = narrow(reply.points[move]); }  // words, or in short (style.css)
    node.title = words;
    // the move's button or cell says its score: "play column 4: win in 7 moves" (the figures are not read)
    if (control) control.setAttribute("aria-label", `${control.dataset.name}: ${words}`);
    node.classList.remove("pos", "neg", "zero", "best", "estimate", "proven");
    node.classList.add(score > 0 ? "pos" : score < 0 ? "neg" : "zero");
    if (guess) node.classList.add("estimate");
    if (proven) node.classList.add("proven");
    if (move === reply.best && reply.done !== false) node.classList.add("best");
  }
  if (reply.best && reply.done !== false) markBest(reply.best);  // study.js: the best move on the board
  if (reply.done === false) {
    for (const [move, node] of nodes) if (!(move in reply.points) && info.legal.includes(move)) node.textContent = "?";
  }
}

// ---- why? (#why): the engine's last move in #why-panel (tr[data-why-move]): a traced search, or the solver's exact scores
async function why() {
  const last = ui.lastEngine, panel = $("#why-panel"), params = { game: ui.game, moves: last.before };
  Object.assign(panel, { hidden: false, textContent: "Explaining…" });
  let rows, lines;
  try {
    const e = await api(`/api/explain?${new URLSearchParams({ ...params, agent: last.agent })}`);
    // a bound is shown as one ("at most +80"): only the chosen move's score is exact in alpha-beta's search
    rows = e.rows.map((r) => [r.move, r.score === null || r.score === undefined ? "–" : r.bound ? `${r.bound} ${r.score}` : r.score,
      r.bound ? "bound" : r.kind === "mean" ? `mean of ${r.visits}` : r.kind,
      r.chosen, r.chosen && !r.why.startsWith("exact") ? "chosen" : r.why]);
    // the move was chosen by its own search; "why?" asks again and says how, as the answer says it was made: a
    // search run again and traced, or (the solver) its exact analysis, else its stand-in's estimates
    const own = `${agentLabel(last.agent)} chose ${last.move} with ${last.words || "no score"}`
      + (last.pv.length ? ` (its line: ${last.pv.join(" ")})` : "");
    const exact = !e.traced && e.rows.every((r) => r.kind === "exact");
    const again = e.traced ? "why? searched again, traced, with the same engine and budget: its figures below can differ from the move's own search"
      : exact ? `why? asked again for the exact scores below (${last.exact ? "exact values do not change"
        : "the move's own search, within its time, proved less than these"})`
      : "why? asked again, within the same time: the estimates below can differ from the move's own search";
    lines = [`${own}. ${again}.`, e.verdict, `line: ${e.pv.join(" ")} · ${(e.nodes || 0).toLocaleString("en")} ${e.counts || "nodes"}`
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

// ---- opening a record (#record-box): paste or choose a file, send it, pick a game, step through it ------

const MAX_RECORD = 256 * 1024;  // bytes: the server's limit (zerosum.ui.record_api.MAX_RECORD)

// a file is read as bytes and sent as zerosum.records.read takes a file (zerosum.ui.record_api.record_fields):
// its UTF-8 text, or null where its bytes are not UTF-8, and whether a byte is 0, so the server refuses a file
// that is no text in the words of `zerosum replay` ("record file 'x.pgn' is not UTF-8 text")
async function readRecordFile() {
  const file = $("#record-file").files[0];
  if (!file) return;
  if (file.size > MAX_RECORD) { recordInfo(`${file.name} is larger than 256 KiB.`); return; }
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = null;
  try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (e) { /* not UTF-8: the server says so */ }
  $("#record-text").value = text === null ? "" : text;
  await openRecord({ file: file.name, text, nul: bytes.includes(0) });
}

// the record box's line, with no list of games under it: a record that could not be read (the list shown was
// the last record's), or one being read; the board stays as it was
function recordInfo(message) {
  ui.record = [];
  $("#record-games").replaceChildren();
  $("#record-games").hidden = true;
  $("#record-info").textContent = message;
}

// `read`: a file's fields (readRecordFile), else the text pasted is sent
async function openRecord(read) {
  const body = read || { text: $("#record-text").value };
  const info = $("#record-info"), select = $("#record-games");
  if (!read && !body.text.trim()) { recordInfo("Paste a record, or choose a file."); return; }
  if (body.text && new Blob([body.text]).size > MAX_RECORD) { recordInfo("The record is larger than 256 KiB."); return; }
  recordInfo("Reading…");  // the last record's games are not this one's
  let reply;
  try {
    reply = await api("/api/record", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
  } catch (err) { recordInfo(`Not a record: ${err.message}`); return; }
  ui.record = reply.games;
  select.replaceChildren();
  reply.games.forEach((g, i) => {
    const t = g.tags, option = el("option", "", { value: String(i) });
    const who = [t.First, t.Second].filter(Boolean).join(" – ");
    option.textContent = `${i + 1}. ${who || t.Event || "game"} ${g.result} (${g.moves.length} moves)${g.error ? " — cannot be shown" : ""}`;
    select.appendChild(option);
  });
  select.hidden = !reply.games.length;
  info.textContent = reply.games.length ? `${reply.games.length} game${reply.games.length > 1 ? "s" : ""}` + (reply.note ? ` (${reply.note})` : "")
    : "The record holds no game.";
  if (reply.games.length) loadRecordGame(0);
}

// what was said about the game shown before: the engine's last move, its "why?", the best line
function clearLines() {
  $("#engine-info").textContent = "";
  $("#why-panel").replaceChildren();
  $("#why-panel").hidden = true;
  $("#analysis-info").textContent = "";
  ui.lastEngine = null;
  ui.bestLine = null;
}

// an opened record's game (ui.recordShown): its game, main line, lines and Annotator, and the mark and comment
// of every move of its tree that has one (zerosum review -o: 4??, {blunder: ...}; the variations' too), by
// the move's moves from the start (`notes`: key, the moves joined by U+0001 -> {moves, mark, comment})
const RECORD_CLASS = { "??": "blunder", "?": "mistake", "?!": "mistake", "!": "best", "!!": "best", "!?": "good" };
const pathKey = (moves) => moves.join("\u0001");
function recordShown(g) {
  const notes = new Map(), note = (moves, m) => notes.set(pathKey(moves), { moves, mark: m.mark || null, comment: m.comment || null });
  for (const m of g.marks || []) note(g.line.slice(0, m.ply), m);
  for (const m of g.variation_marks || []) note(g.lines[m.line].slice(0, m.ply), m);
  return { game: g.game, line: g.line, lines: g.lines, annotator: g.tags.Annotator, notes };
}

// the opened record while the tree on the board is still its tree, grown or not: the record's game, whose
// main line begins with the record's (a new game, or a tree Back brought from before it, is not; a move the
// person added carries no mark of the record's), else null
function recordTree() {
  const r = ui.recordShown;
  if (!r || !ui.root || ui.game !== r.game) return null;
  const main = continuation(ui.root);  // tree.js: the main line
  return r.line.every((m, i) => main[i] === m) ? r : null;
}

// the record's mark of the move reached by `moves` (any line of its tree): {mark, class, words} as the review's
// marks are; `r`: recordTree()
function recordNote(moves, r) {
  const n = r && moves.length ? r.notes.get(pathKey(moves)) : null;
  return n ? { mark: n.mark || "", class: RECORD_CLASS[n.mark] || "good", words: n.comment || `marked ${n.mark}` } : null;
}
function recordMark(ply) { return recordNote(ui.line.slice(0, ply), recordTree()); }  // of move `ply` of the line shown

// the mark of the move reached by `moves`, as the move list shows it: the review's (study.js) where the move is
// one of the line it reviewed, else the record's; `r`: recordTree()
function treeMark(moves, r) {
  const rv = ui.review, n = moves.length;
  if (rv && studying() && n && n <= rv.line.length && moves.every((m, i) => rv.line[i] === m)) {
    const m = rv.marks.find((x) => x.ply === n);
    if (m) return m;
  }
  return recordNote(moves, r);
}

// the record's marks of the moves still in the tree, as POST /api/export takes them ({line, ply, mark, comment}):
// `line` the first of the tree's lines through the move, in the page's order (treeLines(), which can differ
// from the record's: moves added make lines of their own); a move no longer in the tree (Back) is left out,
// and so is a move of the main line when `reviewed` (the page's review judged it again, and its marks stand)
function recordMarksSent(reviewed) {
  const r = recordTree(), first = new Map();
  if (!r) return [];
  let lines = 0;
  const walk = (node) => {  // depth first, first children first, as treeLines() lists the lines
    first.set(node, lines);
    if (!node.children.length) lines++;
    for (const child of node.children) walk(child);
  };
  walk(ui.root);
  const sent = [];
  for (const n of r.notes.values()) {
    const node = nodeAt(n.moves), line = node ? first.get(node) : null;
    if (node && !(reviewed && line === 0)) sent.push({ line, ply: n.moves.length, mark: n.mark, comment: n.comment });
  }
  return sent;
}

function loadRecordGame(index) {
  const g = ui.record[index];
  ui.recordShown = g.error ? null : recordShown(g);
  const t = g.tags;
  if (g.error) { $("#record-info").textContent = `Game ${index + 1} cannot be shown: ${g.error}`; return; }
  $("#record-info").textContent = `Game ${index + 1}: ${[t.First, t.Second].filter(Boolean).join(" – ")} ${g.result}`
    + `${t.Termination ? ` (${t.Termination})` : ""} · ← → step through it`;
  // a record is watched, not played: two people (no engine moves at its end unless one is chosen)
  setOpponent("person");
  clearLines();  // the previous game's engine line is not this game's
  // the record's tree of variations, as the server listed its lines (the main line first)
  const lines = g.lines && g.lines.length > 1 ? g.lines : null;
  loadLine(g.game, g.line, 0, g.separator, lines, 0).catch((err) => showError(err.message));
}
