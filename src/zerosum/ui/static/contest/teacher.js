// The teacher's page: everything (every submission and its code, every game, the leaderboard with forfeit
// reasons), the freeze button, the final's command and, once it was played, its results.  Hooks: #freeze #frozen
// #final-results #people #submissions #games #code.
"use strict";

async function refresh() {
  try {
    const all = await api("/api/teacher");
    const c = all.config;
    const limits = Object.entries(c.limits || {}).filter(([, v]) => v !== null).map(([k, v]) => `${k} ${v}`);
    $("#about").textContent = `${c.game} -- ${all.people.length} students -- ${limits.join(", ") || "no limits"} -- ` +
      `deadline ${c.deadline || "none"} -- references ${(c.references || []).map((r) => r.name).join(", ")}`;
    $("#frozen").textContent = c.frozen ? "the entries are frozen" : "";
    $("#freeze").disabled = Boolean(c.frozen);
    $("#final-command").textContent = all.final;
    showFinal(all.results);
    fill("#leaderboard", all.leaderboard.length ? leaderboardTable(all.leaderboard, true) : el("p", {}, "no games yet"));
    fill("#people", table("students", ["name", "submissions"], all.people.map((p) => [p.name, String(p.submissions)])));
    fill("#submissions", submissionsTable(all.submissions, true));
    fill("#games", all.games.length ? gamesTable(all.games, false) : el("p", {}, "no games yet"));
    $("#error").textContent = "";
  } catch (e) { $("#error").textContent = e.message; }
}

// the final's results.json once the final was played: its standings and points, what graded them
function showFinal(results) {
  if (!results) { fill("#final-results"); return; }
  if (results.error) { fill("#final-results", el("p", { class: "error" }, results.error)); return; }
  const g = results.grade || {};
  const rule = g.rule === "bands" ? `points in bands from ${g.low} to ${g.high}` : g.rule ? `points by a ${g.rule}` : "no points";
  const notes = [el("p", {}, `The final was played: ${results.games} games; ${rule} (results.csv and results.json ` +
    "in the contest folder).")];
  for (const said of [g.ungraded && `Not graded: ${g.ungraded}.`, g.warning && `Warning: ${g.warning}.`]) {
    if (said) notes.push(el("p", { class: "error" }, said));
  }
  const rows = results.rows.map((r) => [r.rank === null ? "-" : String(r.rank),
    r.kind === "reference" ? `${r.name} (reference)` : r.name, r.rating === null ? "unranked" : number(r.rating, 0),
    r.rating === null ? "" : `${number(r.rating_low, 0)} .. ${number(r.rating_high, 0)}`, String(r.games),
    r.points === null ? "" : String(r.points)]);
  fill("#final-results", ...notes, table("the final's results", ["rank", "name", "rating", "95% interval", "games",
    "points"], rows));
}

$("#freeze").addEventListener("click", async () => {
  if (!confirm("Freeze the entries? No student can submit afterwards.")) return;
  try { await api("/api/freeze", { method: "POST" }); } catch (e) { $("#error").textContent = e.message; }
  refresh();
});

refresh();
setInterval(refresh, POLL_MS);
