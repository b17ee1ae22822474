"""Helpers with no robotics in them: argument checks, the widget/test-mode switch,
progress reports for slow derivations, shared docstring examples, the accepted
exceptions to the physics checks of link inertias (``plausibility``).

Lowest layer: imports nothing from robolab.
"""

from .widgets import in_test_mode, set_test_mode

__all__ = ["in_test_mode", "set_test_mode"]
