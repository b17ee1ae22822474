"""Helpers below the robotics: argument checks, the widget/test-mode switch, progress
reports for slow derivations, shared docstring examples, the physical checks of a link's
inertia (``inertia``) and their accepted exceptions (``plausibility``).

Lowest layer: imports nothing from robolab.
"""

from .widgets import in_test_mode, set_test_mode

__all__ = ["in_test_mode", "set_test_mode"]
