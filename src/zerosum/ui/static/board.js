// zerosum's page: drawing the board the server describes (`view`: cells, labels, highlights, colours;
// `targets`: the move a click on each cell means).  Boards whose moves are columns (`view.gravity`) are drawn
// by column with a button per column above them; others by cell, each cell a button.
// Every cell has an accessible name: "column 4, row 2: red" (rows counted from the bottom where pieces
// drop), "cell 5: X", "column f, row 5: empty, plays f5"; with the analysis on, a move's button or cell says
// its score too ("play column 4: win in 7 moves": panels.js), and the figures drawn under the columns are
// hidden from screen readers (they would be a run of numbers belonging to no column).
// The board is drawn anew for every position: the control that had the keyboard's focus (a column's button,
// a cell) keeps it, so Tab, Enter, Enter plays on.
// Hooks for tests: [data-column=N] columns (0-based), [data-play=N] their buttons and [data-score-column=N]
// their scores, [data-move=M] on the button or cell that plays M; [data-cell=N] cells (row-major from the top left, 0-based), [data-at="r,c"] the same cell by
// row and column, [data-score-cell=N] their scores; data-name on each button and cell: its accessible name
// without a score (panels.js adds the score to it).
"use strict";

// the page's shades of the colours a board description names (others are used as CSS colours as they are)
const SHADES = { red: "#ef4444", yellow: "#facc15", black: "#0f0f10", white: "#f8fafc" };

function el(tag, cls, attrs) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

// a player's piece in words, as the server names it (zerosum.ui.position.player_name): its glyph where that
// is a letter (X, O), else its colour (red, black)
function pieceName(view, player) {
  return (view.names || [])[player - 1] || `player ${player}`;
}

// where a cell is, in words: "column 4, row 2" (rows from the bottom where pieces drop), or "cell 5"
function cellName(view, r, c) {
  if (view.cell_labels && view.cell_labels.length) return `cell ${view.cell_labels[r][c]}`;
  const col = view.col_labels[c] || String(c + 1);
  const row = view.gravity ? String(view.rows - r) : (view.row_labels[r] || String(r + 1));
  return `column ${col}, row ${row}`;
}

// the control of the board that has the keyboard's focus, as a selector that finds it again once redrawn
function focusedControl(board) {
  const node = document.activeElement;
  if (!node || !board.contains(node)) return null;
  const key = ["data-play", "data-cell"].find((k) => node.hasAttribute(k));
  return key ? `[${key}="${node.getAttribute(key)}"]` : null;
}

function render(info) {
  const view = info.view;
  const board = $("#board");
  const focused = focusedControl(board);
  board.innerHTML = "";
  board.style.setProperty("--cols", view.cols);
  board.style.setProperty("--rows", view.rows);
  board.setAttribute("aria-label", `${info.name}: ${view.cols} columns by ${view.rows} rows`);
  (view.colors || []).forEach((color, i) => board.style.setProperty(`--p${i + 1}`, SHADES[color] || color));
  const win = new Set(view.highlight.map(([r, c]) => `${r},${c}`));
  const last = new Set(view.last.map(([r, c]) => `${r},${c}`));
  if (view.gravity) renderColumns(board, info, win, last);
  else renderCells(board, info, win, last);
  const again = focused && board.querySelector(focused);
  if (again) again.focus({ preventScroll: true });
}

// a board whose moves are columns: a click anywhere in a column (or its button, or its key) plays it
function renderColumns(board, info, win, last) {
  const view = info.view;
  const wrap = el("div", "cx");
  const header = el("div", "cx-header");
  const lastCol = view.last.length ? view.last[0][1] : -1;
  const scores = el("div", "cx-scores", { "aria-hidden": "true" });  // each column's button says its own score
  const grid = el("div", "cx-grid", { role: "group", "aria-label": "the board, top row first" });
  for (let c = 0; c < view.cols; c++) {
    const move = info.targets[0][c], label = view.col_labels[c] || String(c + 1);
    // a full column still "plays" its label, so the person is told it is not a legal move
    const wanted = () => move || label;
    const name = move ? `play column ${label}` : `column ${label} is full`;
    const button = el("button", `colbtn${c === lastCol ? " last" : ""}`, {
      type: "button", "data-play": String(c), "aria-label": name, "data-name": name,  // data-name: without a score
      ...(move ? { "data-move": move } : {}),
    });
    button.textContent = label;
    button.addEventListener("click", () => play(wanted()));
    header.appendChild(button);
    scores.appendChild(el("span", "score", { "data-score-column": String(c), ...(move ? { "data-score-move": move } : {}) }));
    const col = el("div", `col ${move ? "playable" : "full"}`, { "data-column": String(c) });
    for (let r = 0; r < view.rows; r++) {
      const who = view.cells[r][c], key = `${r},${c}`;
      const hole = el("div", "hole", { "data-row": String(r), role: "img",
        "aria-label": `${cellName(view, r, c)}: ${who ? pieceName(view, who) : "empty"}` });
      if (who) {
        let cls = `disc p${who}`;
        if (win.has(key)) cls += " win";
        if (last.has(key)) cls += " last drop";
        const disc = el("div", cls);
        disc.style.setProperty("--fall", String(r + 1));
        hole.appendChild(disc);
      }
      col.appendChild(hole);
    }
    col.addEventListener("click", () => play(wanted()));
    grid.appendChild(col);
  }
  wrap.append(header, scores, grid);
  board.appendChild(wrap);
}

// a board whose moves are cells: a click on a cell plays the move the server says it means
function renderCells(board, info, win, last) {
  const view = info.view;
  const labelled = view.row_labels.length > 0;
  const grid = el("div", `cells${labelled ? " labelled" : ""}`, { role: "group", "aria-label": "the board" });
  if (view.col_labels.length) {
    if (labelled) grid.appendChild(el("span", "label"));
    for (const text of view.col_labels) { const s = el("span", "label", { "aria-hidden": "true" }); s.textContent = text; grid.appendChild(s); }
  }
  const waiting = busy() || engineToMove(info);
  for (let r = 0; r < view.rows; r++) {
    if (labelled) { const s = el("span", "label", { "aria-hidden": "true" }); s.textContent = view.row_labels[r]; grid.appendChild(s); }
    for (let c = 0; c < view.cols; c++) {
      const who = view.cells[r][c], key = `${r},${c}`, move = info.targets[r][c];
      let cls = "cell" + (who ? ` p${who}` : "");
      if (move && who && !waiting) cls += " movable";
      if (win.has(key)) cls += " win";
      if (last.has(key)) cls += " last";
      const index = r * view.cols + c;
      const name = `${cellName(view, r, c)}: ${who ? pieceName(view, who) : "empty"}${move ? `, plays ${move}` : ""}`;
      const cell = el("button", cls, {
        "data-cell": String(index), "data-at": key, type: "button", ...(move ? { "data-move": move } : {}),
        "aria-label": name, "data-name": name,  // data-name: the name without a score
      });
      cell.textContent = who ? view.glyphs[who - 1] : "";
      if (move) cell.appendChild(el("span", "score", { "data-score-cell": String(index), "data-score-move": move }));
      // a click that plays nothing: the game's own reason, as for a key (refuse: "cell 5 is taken")
      const named = (info.cell_moves || [])[r]?.[c];
      cell.addEventListener("click", () => {
        if (move) play(move);
        else if (info.over || busy() || (engineToMove(info) && !ui.paused)) return;
        else if (named) { showError(""); refuse(named); }
        else showError("That is not a legal move here.");
      });
      grid.appendChild(cell);
    }
  }
  board.appendChild(grid);
}
