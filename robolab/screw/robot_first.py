"""The old module path of the robot-first forms: now the chapter modules' functions themselves.

Each algorithm of the book is defined once, in its chapter module, and takes either a
:class:`~robolab.ScrewRobot` or the book's arrays first (see
:mod:`robolab.screw.two_forms`). This module only re-exports the 23 names that used to be
defined here, for code that still imports them from this path; import them from
``robolab`` or ``robolab.screw`` instead.

Examples
--------
>>> import robolab
>>> from robolab.screw.robot_first import inverse_dynamics_rnea
>>> inverse_dynamics_rnea is robolab.inverse_dynamics_rnea
True
"""

from __future__ import annotations

# ruff: noqa: F401 (re-exports, listed in __all__ below)
from .dynamics import (
    end_effector_forces,
    gravity_forces,
    inverse_dynamics_rnea,
    kinetic_energy,
    mass_matrix_crba,
    mass_matrix_rnea,
    potential_energy,
    velocity_quadratic_forces,
)
from .forward_dynamics import forward_dynamics_aba, forward_dynamics_crba, forward_dynamics_rnea
from .inverse_kinematics import inverse_kinematics_body, inverse_kinematics_space
from .kinematics import forward_kinematics_body, forward_kinematics_space, link_frames_space
from .robot_control import computed_torque, simulate_control
from .simulation import (
    forward_dynamics_trajectory,
    inverse_dynamics_trajectory,
    runge_kutta4_step,
)
from .velocity_kinematics import jacobian_body, jacobian_space

#: The names re-exported (every public name imported above).
__all__ = sorted(name for name in dict(globals()) if not name.startswith("_"))
__all__.remove("annotations")
