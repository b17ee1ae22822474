"""Helpers below the robotics: argument checks (``arguments``), the widget/test-mode switch
(``widgets``), progress reports for slow derivations (``progress``) and the one step that
writes, compiles and caches generated Python (``codegen``).

Lowest layer: imports nothing from robolab but ``conventions``.
"""

from .._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
