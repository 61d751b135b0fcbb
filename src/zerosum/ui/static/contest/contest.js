// The contest pages' shared parts (student.html, teacher.html, public.html): the token of the address, the
// API with it, and building the page from data.  Every name and message goes in as text (el's strings become
// text nodes, never HTML), so nothing a student wrote reaches another browser as markup.
"use strict";

const $ = (sel) => document.querySelector(sel);
const POLL_MS = 5000;

// the token of the personal link: /s/TOKEN or /?token=TOKEN
function pageToken() {
  const match = location.pathname.match(/^\/s\/([^/]+)$/);
  if (match) return decodeURIComponent(match[1]);
  return new URLSearchParams(location.search).get("token") || "";
}

async function api(path, options = {}) {
  const token = pageToken();
  const headers = Object.assign({}, options.headers || {});
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, Object.assign({}, options, { headers, referrerPolicy: "no-referrer" }));
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// el("td", {class: "x"}, "text", otherNode): an element; strings are text, never markup
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// a table: header names, rows of cells (strings or nodes)
function table(label, headers, rows) {
  return el("table", { "aria-label": label },
    el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows.map((cells) => el("tr", {}, ...cells.map((c) => el("td", {}, c))))));
}

function fill(sel, ...nodes) { const box = $(sel); box.replaceChildren(...nodes); }

function when(seconds) { return seconds ? new Date(seconds * 1000).toLocaleString() : ""; }

function number(x, places) { return x === null || x === undefined ? "" : Number(x).toFixed(places); }

// a replay link of the board viewer (only the server's own /board addresses)
function replayLink(game) {
  if (!game.replay || !game.replay.startsWith("/board?")) return "";
  return el("a", { href: game.replay, target: "_blank", rel: "noopener noreferrer" }, "replay");
}

function leaderboardTable(rows, reasons) {
  const headers = ["rank", "name", "rating", "95% interval", "score", "games", "W-D-L", "forfeits"];
  if (reasons) headers.push("forfeit reasons");
  return table("leaderboard", headers, rows.map((r) => {
    const cells = [String(r.rank), r.kind === "reference" ? `${r.name} (reference)` : r.name,
      number(r.rating, 0), r.rating === null ? "" : `${number(r.rating_low, 0)} .. ${number(r.rating_high, 0)}`,
      number(r.score, 3), String(r.games), `${r.wins}-${r.draws}-${r.losses}`, String(r.forfeits)];
    if (reasons) cells.push((r.forfeit_reasons || []).map((f) => `${f.count} x ${f.reason}`).join("; "));
    return cells;
  }));
}

async function showLeaderboard(reasons) {
  try {
    const board = reasons ? (await api("/api/teacher")).leaderboard : (await api("/api/leaderboard")).rows;
    fill("#leaderboard", board.length ? leaderboardTable(board, reasons) : el("p", {}, "no games yet"));
  } catch (e) {
    fill("#leaderboard", el("p", { class: "error" }, e.message));
  }
}

function statusText(sub) {
  const at = sub.ply ? ` (at ply ${sub.ply})` : "";
  return `${sub.status}${sub.message ? ": " + sub.message : ""}${at}`;
}

function gamesTable(games, own) {
  const headers = own ? ["game", "you", "opponent", "opening", "result", "reason", ""]
    : ["game", "first", "second", "opening", "result", "reason", ""];
  return table("games", headers, games.map((g) => {
    const seat = own ? (g.seat === 1 ? "first" : "second") : g.first;
    const other = own ? (g.seat === 1 ? g.second : g.first) : g.second;
    return [`${g.stage} ${g.id}`, seat, other, g.opening || "", g.result || g.status, g.reason || "", replayLink(g)];
  }));
}

// the code of a submission (one's own, or any for the teacher) in #code
async function showCode(id) {
  try {
    const reply = await api(`/api/code/${id}`);
    const box = $("#code");
    box.textContent = `${reply.name}: ${reply.filename} (${reply.kind})\n\n${reply.code}`;
    box.hidden = false;
  } catch (e) { $("#error").textContent = e.message; }
}

// submissions (newest first) with their answers and a button for their code; `withName`: the teacher's view
function submissionsTable(subs, withName) {
  if (!subs.length) return el("p", {}, "nothing submitted yet");
  const headers = ["#", ...(withName ? ["name"] : []), "sent", "file", "kind", "answer", "active", ""];
  return table("submissions", headers, subs.map((s) => [String(s.id), ...(withName ? [s.name] : []),
    when(s.created), s.filename, s.kind, el("span", { class: s.status }, statusText(s)), s.active ? "yes" : "",
    el("button", { type: "button", onclick: () => showCode(s.id) }, "code")]));
}
