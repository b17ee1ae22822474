"""Every default and convention of robolab, written once (see ``docs/conventions.md``).

The lowest layer of the package: it imports nothing of robolab, and every other module
that needs a default (gravity, joint limits), the names of the joint kinds or of the DH
conventions, or a tolerance of the validators imports it from here.

Examples
--------
>>> DEFAULT_GRAVITY
(0.0, 0.0, -9.81)
>>> DEFAULT_PRISMATIC_LIMITS, JOINT_TYPES, DH_CONVENTIONS
((0.0, 1000.0), ('revolute', 'prismatic'), ('standard', 'modified'))
>>> DH_JOINT_LETTERS["prismatic"]
'p'
"""

from __future__ import annotations

import math

__all__ = [
    "DEFAULT_FRICTION_SMOOTHING",
    "DEFAULT_GRAVITY",
    "DEFAULT_INTEGRATOR_ATOL",
    "DEFAULT_INTEGRATOR_RTOL",
    "DEFAULT_PRISMATIC_LIMITS",
    "DEFAULT_REVOLUTE_LIMITS",
    "DH_CONVENTIONS",
    "DH_JOINT_LETTERS",
    "FILE_CONSISTENCY_TOLERANCE",
    "HOME_POSE_TOLERANCE",
    "INERTIA_TOLERANCE",
    "JOINT_TYPES",
    "ROTATION_TOLERANCE",
    "SPATIAL_INERTIA_TOLERANCE",
    "UNIT_AXIS_TOLERANCE",
    "ZERO_OMEGA_TOLERANCE",
]

# --------------------------------------------------------------------------- defaults

#: Gravitational acceleration in the base (space) frame when none is given, m/s²:
#: z points up. Used by DHRobot, ScrewRobot, model files without schema_version and the
#: URDF converter.
DEFAULT_GRAVITY = (0.0, 0.0, -9.81)

#: Velocity scale ε of the smoothed Coulomb friction tanh(θ̇/ε), rad/s (or m/s), when
#: none is given: the friction reaches 76 % of its level at 0.01 rad/s.
DEFAULT_FRICTION_SMOOTHING = 0.01

#: Tolerances of the adaptive integrator (``integrator="rk45"``) unless given: tight
#: enough that a course simulation is as accurate as RK4 at 1 ms.
DEFAULT_INTEGRATOR_RTOL = 1e-9
DEFAULT_INTEGRATOR_ATOL = 1e-9

#: Limits of a revolute joint when none are given, in radians (one full turn).
DEFAULT_REVOLUTE_LIMITS = (-math.pi, math.pi)

#: Limits of a prismatic joint when none are given, in metres: Moro's default for the DH
#: model, a placeholder meaning "not known, practically unlimited". Every door uses it
#: (DHRobot, ScrewRobot, the URDF reader); the views show such a placeholder range as its
#: first metre (``docs/conventions.md``, "Joint limits").
DEFAULT_PRISMATIC_LIMITS = (0.0, 1000.0)

# --------------------------------------------------------------------------- names

#: The two joint kinds of a serial chain, as the screw model and the files spell them.
JOINT_TYPES = ("revolute", "prismatic")

#: The letter of each joint kind in a DH row (``(a, alpha, d, theta, "p")``).
DH_JOINT_LETTERS = {"revolute": "r", "prismatic": "p"}

#: The two Denavit–Hartenberg conventions: standard (Spong, Corke, Moro; the default)
#: and modified (Craig).
DH_CONVENTIONS = ("standard", "modified")

# --------------------------------------------------------------------------- tolerances

#: Allowed |RᵀR - 1| entries (and bottom-row deviation) of a rotation or transform.
ROTATION_TOLERANCE = 1e-6

#: |‖ω‖ - 1| (or |‖v‖ - 1| for a prismatic joint) allowed for a unit screw axis.
UNIT_AXIS_TOLERANCE = 1e-6

#: ‖ω‖ at most this is a prismatic screw axis (ω = 0) for :class:`robolab.ScrewRobot`,
#: which reads the joint kind from the axis; a file names the kind and allows
#: :data:`UNIT_AXIS_TOLERANCE`.
ZERO_OMEGA_TOLERANCE = 1e-9

#: Relative tolerance of the physical checks of a link's inertia (symmetry, positive
#: semi-definiteness, triangle inequality): rounding, not physics.
INERTIA_TOLERANCE = 1e-9

#: Relative tolerance on the block structure of a spatial inertia ``[[I_c, 0], [0, m 1]]``
#: given to :class:`robolab.ScrewRobot` (zero blocks, m·1), relative to max(1, max |G|).
SPATIAL_INERTIA_TOLERANCE = 1e-9

#: Allowed mismatch between ``home_ee_pose`` and the product of the link frames for
#: :class:`robolab.ScrewRobot` (relative to max(1, largest translation)).
HOME_POSE_TOLERANCE = 1e-6

#: Tolerance between redundant fields of a model file (the home pose and the product of
#: the link frames, the DH masses and the spatial inertias), relative to max(1, scale):
#: a file is written by a program, so they agree to rounding.
FILE_CONSISTENCY_TOLERANCE = 1e-9
