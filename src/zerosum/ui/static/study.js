// zerosum's page as a study board: the review of the main line (GET /api/review, filled in progressively),
// drawn as an evaluation graph over the plies (#eval-graph: win/draw/loss bands where values are exact, a
// line where they are estimates; a click on a point shows that position), an evaluation bar beside the board
// (#eval-bar), the best move marked on the board and the best line written out (#best-line), and the
// review's marks in the move list (?, ??, !).  Shown while "Analysis" is on.
// Every word comes from the server (zerosum.core.words); nothing here knows a game or an engine.
// Hooks for tests: #eval-graph [data-graph-ply=N] (a point: the position after N moves; .graph-now and the
// point's class "now": the position shown, while it is on the main line), #review-info (the summary), #eval-bar
// (role meter, aria-valuenow -100..100: the first player's share), #best-line, [data-best] on the board's
// column button or cell of the best move, #move-list [data-mark] (the review's class of a move).
"use strict";

const REVIEW_SLICE = "0.5";  // seconds of review a request (the server's slice)
const FIRST_SLICE = "0.1";  // the first request's: the first marks show at once
const RETRY_WAIT = 2000;  // ms between tries of a review while the server is away (restarting, unreachable)
const SVG = "http://www.w3.org/2000/svg";

ui.review = null;  // {moves: the main line reviewed, positions: [...], marks: [...], done, away}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

const studying = () => $("#analysis").checked;
const mainLine = () => (ui.root ? treeLines()[0] : []);

// the review of the main line, asked slice by slice until it is done; a main line that goes on from the one
// reviewed (a game being played) keeps the marks of the moves they share and goes on from there.  A review
// cut short because the server went away (stopped, restarted, not reached: `serverAway`) is `away`: it is
// asked again, from the marks it has, after a pause and at the next position shown (where the analysis is
// asked again too); one the server refused (a bad line) is done, and says why
async function review() {
  if (!studying() || !ui.info) { showStudy(); return; }
  const line = mainLine(), moves = line.join(ui.sep), game = ui.game, old = ui.review;
  if (old && old.game === game && old.moves === moves && !old.away) { showStudy(); return; }
  // a move's mark depends only on the position before it and the move: those of the shared moves stand
  const kept = old && old.game === game && old.line.every((m, i) => line[i] === m) ? old.marks.length : 0;
  if (old && old.controller) old.controller.abort();  // the line reviewed before is not wanted any more
  const again = old && old.away && old.game === game && old.moves === moves;  // it keeps saying so until answered
  const mine = ui.review = { game, moves, line, done: false, summary: again ? old.summary : "Reviewing…",
    controller: new AbortController(),
    positions: kept ? old.positions.filter((p) => p.ply < kept) : [], marks: kept ? old.marks.slice(0, kept) : [] };
  showStudy();
  const params = { game, moves, budget: FIRST_SLICE };
  if (kept) params.resume = String(kept);
  for (;;) {
    let reply;
    try {
      reply = await api(`/api/review?${new URLSearchParams(params)}`, undefined, mine.controller.signal);
    } catch (err) {
      if (ui.review !== mine || err.aborted) return;  // another line, or analysis off
      const away = serverAway(err);
      Object.assign(mine, { away, done: !away, summary: away
        ? `Review paused: ${err instanceof TypeError ? "the server cannot be reached" : err.message}; trying again…`
        : `No review: ${err.message}` });
      showStudy();
      if (away) {
        await sleep(RETRY_WAIT);
        if (ui.review === mine) review();  // unless another line, analysis off, or a step asked again already
      }
      return;
    }
    if (ui.review !== mine) return;  // another line, or analysis off
    mine.positions.push(...reply.positions);  // each slice answers the moves it judged
    mine.marks.push(...reply.marks);
    Object.assign(mine, { done: reply.done, summary: reply.summary + (reply.done ? playersSummary(mine.marks) : "") });
    showStudy();
    if (reply.done) return;
    params.resume = reply.resume;
    params.budget = REVIEW_SLICE;
  }
}

// whether a request failed because the server went away rather than refused it: the browser could not reach
// it (api(): "the server cannot be reached"; fetch's own TypeError), it was stopping (a restart: 503 "the
// server is stopping"), a proxy could not reach it (an answer that is not the server's JSON), or it asked to
// be asked again (its engines busy)
function serverAway(err) {
  const away = /^the server cannot be reached|^the (server|pool) is stopping|try again in a moment$|^HTTP 50[234]$/;
  return err instanceof TypeError || away.test(err.message);
}

function stopReview() {
  if (ui.review && ui.review.controller) ui.review.controller.abort();
  ui.review = null;
  showStudy();
}

// per player: the share of moves that kept the theoretical result (best or good) and the first decisive error,
// numbered as the move list numbers it, with its ply as `zerosum review` counts them ("a mistake at move 2
// (2... 3, ply 4)"); as `zerosum review`'s summary (zerosum.reviewer.Review.summary), that is the first move
// that lost the result whose mark is proven: a mistake judged by estimates (`?!`) is nobody's
function playersSummary(marks) {
  const view = ui.info ? ui.info.view : null, said = [];
  for (const player of [1, 2]) {
    const mine = marks.filter((m) => (m.ply % 2 ? 1 : 2) === player);
    if (!mine.length) continue;
    const kept = mine.filter((m) => m.class === "best" || m.class === "good").length;
    const error = mine.find((m) => (m.class === "mistake" || m.class === "blunder") && m.proven);
    const estimated = mine.filter((m) => m.exact === false).length;  // only a proven result can be lost there
    const who = view ? pieceName(view, player) : `player ${player}`;
    said.push(`${who[0].toUpperCase()}${who.slice(1)} kept the result with ${kept} of ${mine.length} moves`
      + (estimated ? ` (${estimated} judged by estimates)` : "")
      + (error ? `, first decisive error: a ${error.class} at move ${fullMove(error.ply)}`
        + ` (${moveNumbered(error.ply, error.move)}, ply ${error.ply})` : ", no decisive error"));
  }
  return said.length ? `. ${said.join("; ")}.` : "";
}

// whether the position shown is one of the main line's (a variation's are not: nor reviewed, nor on the graph)
function onMainLine() {
  const main = mainLine();
  return ui.ply <= main.length && ui.line.slice(0, ui.ply).every((m, i) => main[i] === m);
}

// the review's figures for the position shown, when it is on the main line and reviewed
function reviewedHere() {
  const r = ui.review;
  if (!r || !onMainLine()) return null;
  return r.positions.find((p) => p.ply === ui.ply) || null;
}

function showStudy() {
  const on = studying();
  $("#study").hidden = !on;
  $("#eval-bar").hidden = !on;
  drawGraph();
  drawBar(barHere());
  drawBest();
  renderMoveList();
  renderVariations();  // tree.js: its moves' marks are the move list's
}

// ---- the graph: the first player's view over the plies ------------------------------------------------

function drawGraph() {
  const box = $("#eval-graph"), r = ui.review, now = onMainLine() ? ui.ply : null;  // no "now" in a variation
  box.replaceChildren();
  const plies = mainLine().length, W = 600, H = 120, mid = H / 2, pad = 6;
  const x = (ply) => pad + (W - 2 * pad) * (plies ? ply / plies : 0);
  const y = (bar) => mid - (mid - pad) * bar;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", "aria-hidden": "true" });
  chart.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, class: "graph-bg" }));
  chart.appendChild(svg("line", { x1: 0, x2: W, y1: mid, y2: mid, class: "graph-axis" }));
  const positions = r ? r.positions.slice().sort((a, b) => a.ply - b.ply) : [];
  // exact values: a band from the middle, up for a first player's win, down for a loss, a thin bar for a draw
  for (const p of positions) {
    if (p.kind !== "exact" || !p.result) continue;
    const w = (W - 2 * pad) / Math.max(plies, 1), h = p.result === "draw" ? 3 : mid - pad;
    const top = p.result === "win" ? mid - h : p.result === "loss" ? mid : mid - 1.5;
    chart.appendChild(svg("rect", { x: x(p.ply) - w / 2, y: top, width: w, height: h, class: `band ${p.result}`, "data-band-ply": String(p.ply) }));
  }
  // estimates: a line through their points
  const guessed = positions.filter((p) => p.kind !== "exact");
  if (guessed.length > 1) {
    chart.appendChild(svg("polyline", { class: "graph-line",
      points: guessed.map((p) => `${x(p.ply)},${y(p.bar)}`).join(" ") }));
  }
  if (now !== null) chart.appendChild(svg("line", { x1: x(now), x2: x(now), y1: 0, y2: H, class: "graph-now" }));
  chart.addEventListener("click", (e) => {
    const rect = chart.getBoundingClientRect();
    const ply = Math.round(((e.clientX - rect.left) / rect.width * W - pad) / (W - 2 * pad) * plies);
    showMainPly(Math.max(0, Math.min(plies, ply)));
  });
  box.appendChild(chart);
  // a point per reviewed position: a button for the keyboard and for screen readers
  const points = el("div", "graph-points");
  for (const p of positions) {
    const mark = r.marks.find((m) => m.ply === p.ply);
    const dot = el("button", `graph-point ${p.result || "estimate"}${p.ply === now ? " now" : ""}`, {
      type: "button", "data-graph-ply": String(p.ply),
      "aria-label": `${p.ply ? `after ${moveNumbered(p.ply, r.line[p.ply - 1])} (ply ${p.ply})` : "the start"}: ${p.words}${mark && mark.mark ? `; ${mark.words}` : ""}` });
    dot.title = dot.getAttribute("aria-label");
    dot.style.left = `${(x(p.ply) / W) * 100}%`;
    dot.style.top = `${(y(p.bar) / H) * 100}%`;
    dot.addEventListener("click", (e) => { e.stopPropagation(); showMainPly(p.ply); });
    points.appendChild(dot);
  }
  box.appendChild(points);
  $("#review-info").textContent = r ? r.summary : "";
}

// the position after `ply` moves of the main line
function showMainPly(ply) {
  ui.line = mainLine();
  go(ply).catch((err) => showError(err.message));
}

// ---- the bar beside the board, the best move on the board and the best line ---------------------------

// a position's figures for the bar from the analysis of the position shown (a variation's positions are not
// reviewed): exact results fill it, an estimate tanh(value / 200), as the review's do
function analysedPosition(info, reply) {
  if (!reply.best || reply.done === false || !(reply.best in reply.scores)) return null;
  const exact = !reply.estimates.includes(reply.best), sign = info.to_move === 1 ? 1 : -1;
  const v = reply.scores[reply.best] * sign;
  return { moves: info.moves, bar: exact ? Math.sign(v) : Math.tanh(v / 200), short: "",
    words: `${pieceName(info.view, info.to_move)} to move: ${reply.words}` };
}

// the bar's figures for the position shown: the review's, else the analysis's
function barHere() {
  const a = ui.analysedBar;
  return reviewedHere() || (a && ui.info && a.moves === ui.info.moves ? a : null);
}

function drawBar(p) {
  const bar = $("#eval-bar");
  const share = p ? Math.round(p.bar * 100) : 0;
  bar.style.setProperty("--share", `${50 + share / 2}%`);
  bar.setAttribute("aria-valuenow", String(share));
  bar.setAttribute("aria-valuetext", p ? p.words : "not known yet");
  bar.title = p ? p.words : "not known yet";
  bar.classList.toggle("unknown", !p);
  $("#eval-bar .bar-text").textContent = p ? p.short : "";
}

// the best move marked on the board: an arrow over its column, a ring on its cell
function markBest(move) {
  for (const node of document.querySelectorAll("[data-best]")) { node.removeAttribute("data-best"); node.classList.remove("best-move"); }
  if (!move) return;
  const target = document.querySelector(`[data-play][data-move="${CSS.escape(move)}"], [data-cell][data-move="${CSS.escape(move)}"]`);
  if (target) { target.setAttribute("data-best", move); target.classList.add("best-move"); }
}

// the best line from the position shown (GET /api/line), asked once the analysis has found the best move
// (`analysed`: its answer): the line starts with that move and is worded as the analysis words it, so the
// arrow, the line and the scores under the board agree
async function bestLine(token, analysed) {
  const info = ui.info, signal = ui.controller.signal;  // aborted once another position is shown
  ui.bestLine = null;
  drawBest();
  if (!studying() || !info || info.over || !analysed.best) return;
  try {
    const reply = await api(`/api/line?${new URLSearchParams({ game: ui.game, moves: info.moves, first: analysed.best })}`,
      undefined, signal);
    if (token !== ui.token || !studying()) return;
    const exact = analysed.exact && !analysed.estimates.includes(analysed.best);
    // the solver proves the first move; where it could not prove the next ones in time, alpha-beta went on
    ui.bestLine = { ...reply, words: analysed.words, exact, guessedTail: exact && !reply.exact };
  } catch (err) {
    if (token === ui.token) ui.bestLine = { moves: info.moves, line: [], error: err.message };
  }
  drawBest();
}

function drawBest() {
  const text = $("#best-line"), found = ui.bestLine, info = ui.info;
  if (!studying() || !found || !info || found.moves !== info.moves) { text.textContent = ""; return; }
  if (found.error) { text.textContent = `No best line: ${found.error}`; return; }
  markBest(found.line[0]);
  const who = pieceName(info.view, info.to_move);
  text.textContent = `Best line: ${found.line.join(" ")} (${who} to move: ${found.words}${found.exact ? "" : ", an estimate"}`
    + `${found.guessedTail ? "; past its first move, alpha-beta's line" : ""})`;
}

// ---- saving the tree as a record (POST /api/export): the main line, with the review's marks when it is
// done, and every other line of the tree as a variation; a record opened keeps its own marks and comments on
// every line (panels.js: recordMarksSent), and its Annotator ----------------------------------------------

// who judged the marks of the page's review (zerosum.ui.study.PAGE_ANNOTATOR: the server's word when no
// annotator is sent); MAX_TAG: the longest tag value a record holds (zerosum.records)
const PAGE_ANNOTATOR = "zerosum serve, the page's review", MAX_TAG = 4096;

// who judged the marks sent: the record's Annotator when they are all the record's ("?", PGN's unknown, for a
// record that names none), the record's and the page's review when the review judged the main line again
// (cut to fit a tag), null (the server's default: the page's review) when none is the record's
function annotatorOf(ownSent, reviewSent) {
  if (!ownSent) return null;
  const theirs = ui.recordShown.annotator || "?";
  if (!reviewSent || theirs.split("; ").includes(PAGE_ANNOTATOR)) return theirs;
  const room = MAX_TAG - PAGE_ANNOTATOR.length - 3, chars = Array.from(theirs);  // whole characters, no half pair
  return `${chars.length > room ? `${chars.slice(0, room).join("")}…` : theirs}; ${PAGE_ANNOTATOR}`;
}

async function saveRecord() {
  const main = mainLine(), r = ui.review, variations = ui.root ? treeLines().slice(1).map((l) => l.join(ui.sep)) : [];
  const reviewed = r && r.done && r.game === ui.game && r.moves === main.join(ui.sep);
  // as `zerosum review -o` writes them: a suffix on mistakes, blunders and only moves; a verdict on each move
  // that is not the best, and on each only move
  const marks = reviewed ? r.marks.filter((m) => m.mark || m.class !== "best").map((m) => ({
    ply: m.ply, mark: m.mark || null, comment: m.class !== "best" || m.only ? m.words : null })) : [];
  const own = recordMarksSent(reviewed), annotator = annotatorOf(own.length, marks.length);
  const body = { game: ui.game, moves: main.join(ui.sep), variations, marks: marks.concat(own) };
  if (annotator !== null) body.annotator = annotator;
  try {
    const reply = await api("/api/export", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    const link = el("a", "", { href: URL.createObjectURL(new Blob([reply.text], { type: "text/plain" })),
      download: `zerosum-${gameFileName()}.pgn` });
    document.body.appendChild(link);
    link.click();
    link.remove();
    $("#save-info").textContent = `Saved ${reviewed ? "the main line, with the review's marks" : "the main line"}`
      + (variations.length ? `, and ${variations.length} variation${variations.length > 1 ? "s" : ""}` : "")
      + (own.length ? `; the record's marks and comments on ${own.length} move${own.length > 1 ? "s" : ""}` : "") + ".";
  } catch (err) { $("#save-info").textContent = `Not saved: ${err.message}`; }
}

$("#save-record").addEventListener("click", saveRecord);

// the review's mark of move `ply` of the line shown (only for moves of the main line): {mark, class, words}
function markOf(ply) {
  const r = ui.review, main = mainLine();
  if (!r || !studying() || ply > main.length || ui.line[ply - 1] !== main[ply - 1]) return null;
  if (!ui.line.slice(0, ply).every((m, i) => main[i] === m)) return null;
  return r.marks.find((m) => m.ply === ply) || null;
}
