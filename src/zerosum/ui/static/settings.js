// zerosum's page: the game settings -- the game and its options, the opponents and sides, the names people
// read for them -- and the address that holds them all (with the tree's lines, tree.js), so a link opens the
// same game, position and players.  The functions here use app.js's state (`ui`), which is loaded after
// this file; none of them runs before the page starts.
"use strict";

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
  sel.replaceChildren(...games.map((g) => { const o = el("option", "", { value: g.spec }); o.textContent = g.label; return o; }));
}

// the spec's name and options: "connectx:rows=6,cols=7,k=4" -> ["connectx", {rows: "6", cols: "7", k: "4"}]
function splitSpec(spec) {
  const [name, rest] = spec.split(":");
  const options = {};
  for (const part of (rest || "").split(",").filter(Boolean)) { const [k, v] = part.split("="); options[k] = v; }
  return [name, options];
}

// the controls set to the game `info` shows; kept as they are where they name it already (a size field's game:
// "ConnectX, any size" at 8 x 8 stays so, rather than becoming its preset, and the field keeps the focus)
function controlsFromInfo(info) {
  if (selectedGame() && specFromControls() === info.game) return;
  const preset = (ui.games || []).find((g) => !Object.keys(g.options).length && g.game === info.game);
  const [name, options] = splitSpec(info.game);
  $("#game-select").value = preset ? preset.spec : name;
  sizeControls(options);
}

// the size fields of the game the menu names, set to `values` (else its defaults); the same game's fields are
// only set, not drawn anew, so the one being changed keeps the keyboard's focus
function sizeControls(values) {
  const box = $("#game-options"), chosen = selectedGame();
  const options = chosen ? Object.entries(chosen.options) : [];
  const value = (key, o) => (values && values[key] !== undefined ? values[key] : String(o.default));
  if (chosen && box.dataset.spec === chosen.spec) {
    for (const [key, o] of options) $(`#opt-${key}`).value = value(key, o);
    return;
  }
  box.dataset.spec = chosen ? chosen.spec : "";
  box.innerHTML = "";
  box.hidden = !options.length;
  for (const [key, o] of options) {
    const label = el("label", "", { title: o.help });
    label.append(`${key} `);
    const input = el("input", "", { id: `opt-${key}`, type: "number", min: String(o.lo), max: String(o.hi) });
    input.value = value(key, o);
    label.appendChild(input);
    box.appendChild(label);
  }
}

function fillOpponents() {
  for (const id of ["#opponent", "#opponent2"]) {
    const sel = $(id);
    for (const { spec, label } of ui.opponents) {
      const option = el("option", "", { value: spec });
      option.textContent = label;
      sel.appendChild(option);
    }
  }
}

// an opponent the address names that the list lacks (another budget): added under its spec
function addOpponent(sel, spec) {
  if (spec && !Array.from(sel.options).some((o) => o.value === spec)) {
    const option = el("option", "", { value: spec });
    option.textContent = spec;
    sel.appendChild(option);
  }
}

function setOpponent(spec, spec2) {
  ui.opponent = spec;
  addOpponent($("#opponent"), spec);
  $("#opponent").value = spec;
  if (spec2 !== undefined) {
    ui.opponent2 = spec2;
    addOpponent($("#opponent2"), spec2 || spec);
  }
  $("#opponent2").value = ui.opponent2 || (spec === "person" ? "" : spec);
}

function setSide(side) {
  ui.human = side;
  $("#side").value = String(side);
  $("#opponent2-label").hidden = $("#watch").hidden = side !== 0;
  if (side !== 0) ui.paused = false;
  $("#pause").textContent = ui.paused ? "Play" : "Pause";
  $("#pause").setAttribute("aria-pressed", String(ui.paused));
}

// an opponent that plays only some boards itself (the solver) says so where it hands its moves to another
function labelOpponents(info) {
  for (const sel of [$("#opponent"), $("#opponent2")]) {
    for (const o of ui.opponents) {
      const option = Array.from(sel.options).find((n) => n.value === o.spec);
      if (option && o.elsewhere) option.textContent = info.solver ? o.label : o.elsewhere;
    }
  }
}

// the strongest opponent that plays this board itself
function defaultOpponent(solver) {
  const chosen = ui.opponents.find((o) => solver || !o.elsewhere);
  return chosen ? chosen.spec : "person";
}

// the address holds every setting, so a link opens the same game, position and players
function updateAddress() {
  const params = [];
  params.push(["game", shownSpec()]);  // "connect4" rather than its full spec
  treeParams(params);  // moves=, v=, line=, ply= (tree.js)
  params.push(["opponent", ui.opponent]);
  params.push(["side", String(ui.human)]);
  if (ui.human === 0 && ui.opponent2 && ui.opponent2 !== ui.opponent) params.push(["opponent2", ui.opponent2]);
  if (ui.human === 0 && ui.paused) params.push(["paused", "1"]);
  params.push(["analysis", $("#analysis").checked ? "1" : "0"]);
  // specs keep their ":", "," and "=" readable (connectx:rows=6,cols=7,k=4); everything else is escaped
  const text = params.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%3A/gi, ":").replace(/%2C/gi, ",").replace(/%3D/gi, "=")}`);
  recordHistory(`?${text.join("&")}`);  // a new position: a new entry of the browser's history (tree.js)
}

// an engine named for people by the label the server offers it under ("the solver (perfect play)", "alpha-beta,
// 1 s a move"); another budget of an offered engine: its label's name and the budget ("alpha-beta (depth=3)")
function agentLabel(spec) {
  const name = spec.split(":")[0], options = spec.split(":").slice(1).join(":");
  const offered = ui.opponents.find((o) => o.spec === spec) || ui.opponents.find((o) => o.spec.split(":")[0] === name);
  if (!offered) return spec;
  if (offered.spec === spec || !offered.spec.includes(":")) return offered.label;
  return `${offered.label.split(",")[0]} (${options})`;
}

// the game shown as people spell it: its preset's spec ("connect4", "connect4-8x8"), else its full spec
function shownSpec() {
  const preset = (ui.games || []).find((g) => !Object.keys(g.options).length && g.game === ui.game);
  return preset ? preset.spec : ui.game;
}

// the game shown as a file name: its spec as people spell it, the options run together ("connect4",
// "connect4-8x8", "connectx-rows5-cols9-k4"); a saved record is `zerosum-NAME.pgn`
function gameFileName() { return shownSpec().replace(":", "-").replace(/=/g, "").replace(/,/g, "-"); }
