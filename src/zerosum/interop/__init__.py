"""zerosum in other ecosystems, each an optional extra imported only when its adapter is used.

* :mod:`zerosum.interop.kaggle`: zerosum agents as Kaggle ConnectX agents, and single-file submissions
  (``zerosum kaggle-agent SPEC -o main.py``).  Needs ``kaggle-environments`` only to run Kaggle games.
* :mod:`zerosum.interop.pettingzoo`: policies for PettingZoo's ``connect_four_v3`` and ``tictactoe_v3``,
  and zerosum games as AEC environments (``pip install 'zerosum[pettingzoo]'``).
* :mod:`zerosum.interop.openspiel`: games and states both ways with ``pyspiel``, zerosum bots for OpenSpiel,
  OpenSpiel bots as zerosum agents (the ``openspiel-mcts`` spec) (``pip install 'zerosum[openspiel]'``).

Importing this package imports none of them.
"""
