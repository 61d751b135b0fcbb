// A student's page: the upload form, their own submissions and games, the public leaderboard (polled).
// Hooks for tests: #file #send #answer (the validation's answer), #accepts (what to send), #submissions #games
// #leaderboard #code.
"use strict";

// what to send on this contest's game: me.contracts are the functions a Python file may play by there
function accepts(me) {
  const functions = me.contracts.flatMap((c, i) => [i ? " or " : "", el("code", {}, c)]);
  const board = me.contracts.includes("player(board)") ? [] :
    [" (not ", el("code", {}, "player(board)"), ", the homework's: it plays Connect-X boards only)"];
  return ["A Python file with ", ...functions, ...board, ", a notebook whose cell starts with the line ",
    el("code", {}, "# submission"), " and holds such a function, or a program speaking the engine protocol."];
}

async function refresh() {
  try {
    const me = await api("/api/me");
    const deadline = me.deadline ? `deadline ${me.deadline}` : "no deadline";
    $("#about").textContent = `${me.name} -- ${me.game} -- ${deadline}${me.closed ? " -- " + me.closed : ""}`;
    $("#send").disabled = Boolean(me.closed);
    if (me.contracts && !$("#accepts").dataset.filled) {  // once: the game does not change
      fill("#accepts", ...accepts(me));
      $("#accepts").dataset.filled = "1";
    }
    fill("#submissions", submissionsTable(me.submissions, false));
    fill("#games", me.games.length ? gamesTable(me.games, true) : el("p", {}, "no games yet"));
    $("#error").textContent = "";
  } catch (e) { $("#error").textContent = e.message; }
}

$("#upload").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("#file").files[0];
  if (!file) { $("#answer").textContent = "choose a file first"; return; }
  const form = new FormData();
  form.append("file", file);
  $("#send").disabled = true;
  $("#answer").className = "";
  $("#answer").textContent = `checking ${file.name}...`;
  try {
    let sub = await api("/api/submit", { method: "POST", body: form });
    while (sub.status === "validating") {  // a busy server answered before its check was done: ask again
      $("#answer").textContent = `${sub.filename}: waiting for its check...`;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      sub = (await api("/api/me")).submissions.find((s) => s.id === sub.id) || sub;
    }
    $("#answer").className = sub.status;
    $("#answer").textContent = `${sub.filename}: ${statusText(sub)}`;
  } catch (e) {
    $("#answer").className = "failed";
    $("#answer").textContent = `refused: ${e.message}`;
  }
  $("#send").disabled = false;
  refresh();
});

refresh();
showLeaderboard(false);
setInterval(() => { refresh(); showLeaderboard(false); }, POLL_MS);
