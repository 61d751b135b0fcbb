// The public leaderboard, polled.
"use strict";
showLeaderboard(false);
setInterval(() => showLeaderboard(false), POLL_MS);
