"""Former home of the dynamics kernels, kept for the modules that still import from it.

The per-robot constants are now in :mod:`robolab.screw.dynamics.model`, the engines in
:mod:`robolab.screw._fast.space_frame`. This module only re-imports the names other
modules take from here (``screw/control/laws.py``, ``screw/control/tracking.py``,
``screw/simulation/dynamics_trajectory.py``, ``screw/simulation/free_motion.py``) and goes
once they import from those modules.
"""

from .._fast.space_frame import inverse_dynamics as inverse_dynamics_kernel
from .._fast.space_frame import (
    mass_matrix_and_inverse_dynamics as mass_matrix_and_inverse_dynamics_kernel,
)
from .model import DynamicsModel, dynamics_model, gravity_of, model_of

__all__ = [
    "DynamicsModel",
    "dynamics_model",
    "gravity_of",
    "inverse_dynamics_kernel",
    "mass_matrix_and_inverse_dynamics_kernel",
    "model_of",
]
