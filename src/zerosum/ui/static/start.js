// zerosum's page: its start -- the address's settings, each checked (a bad one is said and a sane one used) --
// and its waits: any wait over a second says what it waits for in #wait (an engine thinking, or the engines
// starting up: "preparing the engine (the solver), first run only: 12 s", from /api/health).  The functions
// here use app.js's (loaded after this file), and app.js calls start() once every script is in.
"use strict";

const WAIT_NOTE = 1000;  // ms: a wait longer than this says what it waits for

// ---- waits: one over a second says what is happening ----------------------------------------------

function showWait(text) {
  $("#wait").textContent = text || "";
  $("#wait").hidden = !text;
}

// what the engines are doing while none is ready ("preparing the engine (the solver), first run only:
// 12 s"), from /api/health; null once they are ready (or when the server does not say)
async function preparing() {
  try {
    const health = await api("/api/health");
    return health.ready === false ? health.preparing || "starting the engine" : null;
  } catch (e) { return null; }
}

// while the engines start, say so until they are ready (the page's first analysis waits for them too)
async function watchEngines(health) {
  let text = health.ready === false ? health.preparing || "starting the engine" : null;
  while (text) {
    showWait(text);
    await sleep(WAIT_NOTE);
    text = await preparing();
  }
  if (!ui.waiting) showWait("");
}

// say what a request waits for once it has waited a second, each second until `stop()` (what it returns)
function waitNote(doing) {
  const started = Date.now(), mine = {};
  ui.waiting = mine;
  let stopped = false;
  const timer = setInterval(async () => {
    const text = (await preparing()) || `${doing}: ${Math.round((Date.now() - started) / 1000)} s`;
    if (!stopped) showWait(text);
  }, WAIT_NOTE);
  return () => {
    stopped = true;
    clearInterval(timer);
    if (ui.waiting === mine) { ui.waiting = null; showWait(""); }
  };
}

// ---- start: the address's settings, each checked; a bad one is said and a sane one used -------------

// an engine the address names, as the server plays it on `game`: one it refuses (alphabeta:depth=100) gives
// way to the nearest it plays (alphabeta:depth=8), else to `instead` ("" for opponent2: the first engine)
async function playable(name, spec, game, instead, problems) {
  if (spec === "person") return spec;
  let reason;
  try {
    const reply = await api(`/api/agent?${new URLSearchParams({ game, agent: spec })}`);
    if (reply.accepted) return spec;
    reason = reply.error;
    instead = reply.nearest || instead;
  } catch (err) { reason = err.message; }
  problems.push(`${name}=${spec}: ${reason}: ${instead ? `${instead} plays instead` : "the first engine plays both sides"}`);
  return instead;
}

async function start() {
  try {
    const health = await api("/api/health");
    ui.agents = health.agents;
    ui.opponents = health.opponents || [];
    watchEngines(health);
  } catch (err) { showError(`The server does not answer: ${err.message}`); }
  fillOpponents();
  const params = new URLSearchParams(location.search), problems = [];
  const known = (spec) => spec === "person" || ui.agents.includes(spec.split(":")[0]);
  const side = params.get("side") ?? "1";
  if (!["0", "1", "2"].includes(side)) problems.push(`side=${side} is not 1 (you play first), 2 (second) or 0 (engines play both)`);
  setSide(["0", "2"].includes(side) ? Number(side) : 1);
  const analysis = params.get("analysis") ?? "0";
  if (!["0", "1"].includes(analysis)) problems.push(`analysis=${analysis} is not 0 or 1`);
  $("#analysis").checked = analysis === "1";
  ui.paused = ui.human === 0 && params.get("paused") === "1";
  setSide(ui.human);
  let game = params.get("game") || "connect4", moves = params.get("moves") || "";
  if (params.has("pos")) {  // Pascal Pons' solver: ?pos=4453, the 1-based columns of 7 x 6 Connect Four
    if (params.has("moves")) problems.push("the address has both moves= and pos=: moves= is used");
    else if (params.has("game") && !["connect4", "connectx:rows=6,cols=7,k=4"].includes(game)) {
      problems.push(`pos= is Pons' form for 7 x 6 Connect Four, not game=${game}: Connect Four is opened`);
      game = "connect4"; moves = params.get("pos");
    } else moves = params.get("pos");
  }
  let info;
  try {
    info = await api(`/api/state?${new URLSearchParams({ game, moves })}`);
  } catch (err) {
    try {  // the game is fine and the moves are not: that game from its start
      info = await api(`/api/state?${new URLSearchParams({ game })}`);
      problems.push(`${err.message}: the game starts from the beginning instead`);
    } catch (e) {
      problems.push(`${e.message}: Connect Four is opened instead`);
      info = await api("/api/state?game=connect4");
    }
  }
  fillGames(info.games);
  let opponent = params.get("opponent") || defaultOpponent(info.solver), opponent2 = params.get("opponent2") || "";
  if (!known(opponent)) { problems.push(`opponent=${opponent} is not one of ${["person", ...ui.agents].join(", ")}`); opponent = defaultOpponent(info.solver); }
  if (opponent2 && !known(opponent2)) { problems.push(`opponent2=${opponent2} is not one of ${ui.agents.join(", ")}`); opponent2 = ""; }
  opponent = await playable("opponent", opponent, info.game, defaultOpponent(info.solver), problems);
  if (opponent2) opponent2 = await playable("opponent2", opponent2, info.game, "", problems);
  setOpponent(opponent, opponent2);
  // the variations (tree.js): v=K.MOVES each, line=I the line shown
  const [found, bad] = await addressLines(info.game, info.move_list, params.getAll("v"), info.separator);
  problems.push(...bad);
  const lineText = params.get("line");
  let shown = 0;
  if (lineText !== null) {
    if (/^\d+$/.test(lineText) && Number(lineText) < found.length) shown = Number(lineText);
    else problems.push(`line=${lineText} is not a line of the address 0..${found.length - 1}: the main line is shown`);
  }
  if (!found[shown]) { problems.push(`line=${lineText} names the v= left out: the main line is shown`); shown = 0; }
  const lines = found.filter(Boolean);  // the lines kept; the one shown keeps its place among them
  shown = found.slice(0, shown).filter(Boolean).length;
  const plyText = params.get("ply");
  let ply = lines[shown].length;
  if (plyText !== null) {
    if (/^\d+$/.test(plyText) && Number(plyText) <= ply) ply = Number(plyText);
    else problems.push(`ply=${plyText} is not a number of moves 0..${ply}: the last position is shown`);
  }
  showError(problems.join(" · "));
  ui.quiet = true;  // the address the page opened with is the history's entry, not a new one
  try { await loadLine(info.game, info.move_list, ply, info.separator, lines, shown); } finally { ui.quiet = false; }
}
