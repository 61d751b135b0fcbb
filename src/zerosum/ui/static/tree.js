// zerosum's page: the game as a tree of variations, in the address and in the browser's history.
// A move from an earlier position that is not the next one of the line opens a branch (a variation) beside
// it; nothing is cut.  `ui.root` is the tree (nodes {move, parent, children}; a node's first child is its main
// continuation), `ui.line` the line shown (the moves from the start to a leaf) and `ui.ply` how far along it
// the position is.  The main line is the chain of first children from the start.
//
// The address (documented in docs/page.md, "Variations"): `moves=` the main line, then one `v=K.MOVES` per
// other line in the tree's order (depth first, first children first): the first K moves of the line listed
// before it, then MOVES; `line=I` the line shown (0 the main line, 1 the first v=, ...) and `ply=N` the
// position on it.  For example `moves=4453&v=2.1&v=3.7&line=1&ply=3` is the main line 4 4 5 3 with the
// branches 4 4 1 and 4 4 1 7, showing 4 4 1.
// History: each new position or tree pushes an entry (history.pushState), holding the tree's lines, so the
// browser's Back and Forward step through what was shown (the tree from the entry, the position from the server).
// Hooks for tests: #variations (accessible name "variations") button[data-node] (the moves of the tree:
// data-moves the moves from the start joined by the game's separator, aria-current on the one shown; data-mark
// and the title: a move's mark and comment, the review's or the opened record's, as in the move list).
"use strict";

function treeNode(move, parent) { return { move, parent, children: [] }; }

// the node reached by `moves` from the start, each missing move added as a new branch (a variation)
function addLine(moves) {
  let node = ui.root;
  for (const move of moves) {
    let child = node.children.find((c) => c.move === move);
    if (!child) { child = treeNode(move, node); node.children.push(child); }
    node = child;
  }
  return node;
}

function pathOf(node) {
  const moves = [];
  for (let n = node; n && n.parent; n = n.parent) moves.push(n.move);
  return moves.reverse();
}

// the moves after `node` along its first children (its main continuation)
function continuation(node) {
  const moves = [];
  for (let n = node; n.children.length; n = n.children[0]) moves.push(n.children[0].move);
  return moves;
}

// a new tree from its lines (the first is the main line)
function plantTree(lines) {
  ui.root = treeNode(null, null);
  for (const line of lines) addLine(line);
}

// every line of the tree, from the start to each leaf, depth first (the main line first)
function treeLines() {
  if (!ui.root) return [ui.line.slice()];  // before the first game is open
  const lines = [];
  const walk = (node, moves) => {
    if (!node.children.length) { lines.push(moves); return; }
    for (const child of node.children) walk(child, moves.concat([child.move]));
  };
  walk(ui.root, []);
  return lines;
}

const hasBranches = () => treeLines().length > 1;

// the line shown: the moves from the start to `node`, then its main continuation
function lineThrough(node) { return pathOf(node).concat(continuation(node)); }

// the index of the line shown among treeLines() (the first line that holds it)
function lineIndex(lines) {
  const i = lines.findIndex((l) => l.length >= ui.line.length && ui.line.every((m, k) => l[k] === m));
  return Math.max(i, 0);
}

// the node reached by `moves` from the start, or null where no line of the tree goes
function nodeAt(moves) {
  let node = ui.root;
  for (const move of moves) node = node && node.children.find((c) => c.move === move);
  return node || null;
}

// the line shown once `move` is played from the position shown: the line itself when it is its next move,
// else a variation: an existing branch (through its own continuation), or a new one.  The tree is left as it
// is: the page adds the line (addLine) once the server has taken the move
function lineAfter(move) {
  if (ui.line[ui.ply] === move) return ui.line;
  const head = ui.line.slice(0, ui.ply).concat([move]), node = nodeAt(head);
  return node ? lineThrough(node) : head;
}

const sharedPrefix = (a, b) => { let k = 0; while (k < a.length && k < b.length && a[k] === b[k]) k++; return k; };

// the address's tree: [["moves", MAIN], ["v", "K.MOVES"], ...], ["line", I] when not the main line
function treeParams(params) {
  const lines = treeLines(), sep = ui.sep;
  params.push(["moves", lines[0].join(sep)]);
  for (let i = 1; i < lines.length; i++) {
    const k = sharedPrefix(lines[i - 1], lines[i]);
    params.push(["v", `${k}.${lines[i].slice(k).join(sep)}`]);
  }
  const index = lineIndex(lines);
  if (index) params.push(["line", String(index)]);
  if (ui.ply < ui.line.length) params.push(["ply", String(ui.ply)]);
}

// the lines of the address's `v=` values after the main line, each checked by the server (it splits the
// moves): [lines, problems], `lines[i]` the line of the address's line=i, null for a v= left out (one the page
// cannot read, or one that names no variation: its moves are all in a line before it, or it goes on past a
// line's end, which would lengthen that line rather than branch from it)
async function addressLines(game, main, values, sep) {
  const lines = [main], problems = [];
  const kept = () => lines.filter(Boolean);
  const starts = (line, head) => head.length <= line.length && head.every((m, k) => line[k] === m);
  for (const value of values) {
    const m = /^(\d+)\.(.*)$/.exec(value), prev = kept()[kept().length - 1];
    lines.push(null);
    if (!m || Number(m[1]) > prev.length) {
      problems.push(`v=${value} is not K.MOVES (K: moves shared with the line before it, 0..${prev.length})`);
      continue;
    }
    const head = prev.slice(0, Number(m[1]));
    const moves = head.join(sep) + (head.length && m[2] && sep ? sep : "") + m[2];
    let line;
    try {
      line = (await api(`/api/state?${new URLSearchParams({ game, moves })}`)).move_list;
    } catch (err) { problems.push(`v=${value}: ${err.message}`); continue; }
    const within = kept().some((l) => starts(l, line)), past = kept().some((l) => starts(line, l));
    if (within || past) {
      const why = within ? "its moves are all in the line before it" : "it goes on past the end of a line before it";
      problems.push(`v=${value}: no variation found (${why}): left out`);
    } else lines[lines.length - 1] = line;
  }
  return [lines, problems];
}

// ---- the browser's history: Back and Forward step through what was shown --------------------------

function historyEntry() {
  const lines = treeLines();
  return { game: ui.game, sep: ui.sep, lines, line: lineIndex(lines), ply: ui.ply };
}

// the address for what is shown: pushed as a new history entry when the position or the tree changed
// (`ui.quiet`: replaced, as when the page starts or Back/Forward brought it).  Each entry holds its place in the
// history (`index`, 0 for the page's first), so that a step the server cannot show can go back to the entry shown
function recordHistory(url) {
  const entry = historyEntry(), old = history.state;
  const same = old && old.game === entry.game && old.ply === entry.ply && old.line === entry.line
    && JSON.stringify(old.lines) === JSON.stringify(entry.lines);
  const at = old && Number.isInteger(old.index) ? old.index : 0;
  entry.index = ui.quiet || !old || same ? at : at + 1;
  if (entry.index === at) history.replaceState(entry, "", url);
  else history.pushState(entry, "", url);
  ui.entryShown = entry.index;
}

// a step the server cannot show (no server) leaves the position shown as it was (app.js's loadLine keeps it),
// and the history goes back to the entry of that position (`ui.returning`: that step is not loaded again), so
// the address, the board and the move list agree and the entry stepped to is kept for a later step; where the
// entry shown is not known, the entry stepped to names the position shown instead (replaced)
window.addEventListener("popstate", (event) => {
  const entry = event.state;
  if (ui.returning) { ui.returning = false; ui.entryShown = entry && entry.index; return; }
  if (!entry || !entry.lines) return;
  const from = ui.entryShown;
  ui.quiet = true;
  loadLine(entry.game, entry.lines[0], entry.ply, entry.sep, entry.lines, entry.line).catch((err) => {
    if (!ui.info) { showError(err.message); return; }
    if (Number.isInteger(from) && Number.isInteger(entry.index) && from !== entry.index) {
      ui.returning = true;
      history.go(from - entry.index);
    } else updateAddress();  // settings.js
    showError(`${err.message}: the game shown goes on.`);
  }).finally(() => { ui.quiet = false; });
});

// ---- the tree in the side panel (#variations): the main line, each variation in brackets where it branches

function renderVariations() {
  const box = $("#variations"), focused = box.contains(document.activeElement) ? document.activeElement.dataset.moves : null;
  box.replaceChildren();
  $("#variations-box").hidden = !hasBranches();
  if (!hasBranches()) return;
  const view = ui.info ? ui.info.view : null, record = recordTree();  // panels.js: the record opened, if it is this tree
  const shown = ui.line.slice(0, ui.ply).join("\u0001");
  const button = (node, depth, opens) => {
    const moves = pathOf(node), mark = treeMark(moves, record);  // the review's or the record's, as the move list's
    const who = view ? pieceName(view, depth % 2 ? 1 : 2) : `player ${depth % 2 ? 1 : 2}`;
    const label = `move ${fullMove(depth)}, ${who}: ${node.move}`;
    const b = el("button", "", { type: "button", "data-node": "", "data-moves": moves.join(ui.sep),
      "aria-label": mark ? `${label}, ${mark.words}` : label });
    if (moves.join("\u0001") === shown) b.setAttribute("aria-current", "step");
    // numbered as in PGN: the first player's moves "3. 4", the second's where a variation opens or was closed
    // just before it "3... 1" (`opens`)
    b.textContent = (depth % 2 ? `${(depth + 1) / 2}. ` : opens ? `${depth / 2}... ` : "") + node.move;
    if (mark) {
      b.title = mark.words;
      b.dataset.mark = mark.class;
      if (mark.mark) b.appendChild(el("span", `mark ${mark.class}`, { "aria-hidden": "true" })).textContent = mark.mark;
    }
    b.addEventListener("click", () => { ui.line = lineThrough(node); go(depth).catch((e) => showError(e.message)); });
    return b;
  };
  // a line from `node` on: its main continuation, each other child in a group of its own where it branches;
  // the move after a group resumes the line with its number, as PGN writes "7. 5 (7. 2 3) 7... 3"
  const line = (node, depth, into) => {
    for (let n = node, d = depth; n.children.length; n = n.children[0], d++) {
      into.appendChild(button(n.children[0], d + 1, n !== node && n.parent.children.length > 1));
      for (const other of n.children.slice(1)) {
        const group = el("span", "variation", { role: "group", "aria-label": `variation from ${moveNumbered(d + 1, other.move)}` });
        group.appendChild(button(other, d + 1, true));
        line(other, d + 1, group);
        into.appendChild(group);
      }
    }
  };
  line(ui.root, 0, box);
  if (typeof focused === "string") {  // drawn again (a step, the review's marks): the keyboard stays
    const again = box.querySelector(`button[data-moves="${CSS.escape(focused)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}
