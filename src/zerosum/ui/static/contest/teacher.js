// The teacher's page: everything (every submission and its code, every game, the leaderboard with forfeit
// reasons), the freeze button and the final's command.  Hooks: #freeze #frozen #people #submissions #games #code.
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
    fill("#leaderboard", all.leaderboard.length ? leaderboardTable(all.leaderboard, true) : el("p", {}, "no games yet"));
    fill("#people", table("students", ["name", "submissions"], all.people.map((p) => [p.name, String(p.submissions)])));
    fill("#submissions", submissionsTable(all.submissions, true));
    fill("#games", all.games.length ? gamesTable(all.games, false) : el("p", {}, "no games yet"));
    $("#error").textContent = "";
  } catch (e) { $("#error").textContent = e.message; }
}

$("#freeze").addEventListener("click", async () => {
  if (!confirm("Freeze the entries? No student can submit afterwards.")) return;
  try { await api("/api/freeze", { method: "POST" }); } catch (e) { $("#error").textContent = e.message; }
  refresh();
});

refresh();
setInterval(refresh, POLL_MS);
