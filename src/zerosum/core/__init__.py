"""The core floor's helpers that every other floor may use: files in and out and user code loading
(:mod:`.files`), worker processes and cores (:mod:`.processes`), the checks of what callers hand a game
(:mod:`.checks`), the records a game hands out (:mod:`.game_types`: ``Origin``, ``Outcome``, ``GameOption``,
``BoardView``), board pictures (:mod:`.svg`), what one thread prints and
imports without touching the others (:mod:`.per_thread`) and zerosum's version (:mod:`.version`)."""
