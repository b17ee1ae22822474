"""Former home of :func:`~robolab.inverse_dynamics_rnea_steps`, now in
:mod:`robolab.screw.dynamics.rnea` (the one Newton–Euler recursion). Kept for
``tests/screw/test_book_form.py``, which imports this module; it goes once that imports
:mod:`robolab.screw.dynamics.rnea`.
"""

from .rnea import RNEA_FRAMES, RneaLinkStep, RneaSteps, inverse_dynamics_rnea_steps

__all__ = ["RNEA_FRAMES", "RneaLinkStep", "RneaSteps", "inverse_dynamics_rnea_steps"]
