"""``robolab.symbols``: the standard SymPy symbols (q1, qd1, m1, l1, g, t, ...).

The notebooks import them from here (``from robolab.symbols import q1, l1, g``); they are
defined in :mod:`robolab.dh.symbols` and re-exported unchanged (the same Symbol objects).
"""

from .dh.symbols import *  # noqa: F403  (every public name, as before the move)
