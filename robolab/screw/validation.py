"""The one validation of screw data: screw axes, link frames, spatial inertias, home pose.

Every door through which screw data enters asks these functions: :class:`robolab.ScrewRobot`,
the model-file reader (:mod:`robolab.models.reading`) and the URDF reader
(:mod:`robolab.models.urdf`). Each function decides once, with the tolerances of
:mod:`robolab.conventions`, and returns a :class:`ScrewDataProblem` (or None) that names
the failure in the words of both kinds of door:

* a robot names the field as its argument (``spatial_inertias[0] (link 1)``) and appends
  :attr:`ScrewDataProblem.sentence`;
* a file names it by its JSON path (``$.spatial_inertias[0]``), appends
  :attr:`ScrewDataProblem.part` and says ``expected <expected>, got <found>``.

Which name a door gives a field is its own location-naming function, ``where(field,
index) -> str``; :func:`raise_problem` joins the two.

The physical rules of a link's mass and inertia are
:func:`robolab.spatial.inertia.link_inertia_problem` (shared with the DH robots).

Examples
--------
>>> import numpy as np
>>> problem = screw_axis_problem(np.array([0, 0, 2.0, 0, 0, 0]), 0, "elbow", "revolute")
>>> problem.expected
"a revolute screw axis [ω; v] with |ω| = 1 (joint 'elbow')"
>>> raise_problem(problem, lambda field, index: f"{field}[:, {index}]")
Traceback (most recent call last):
...
ValueError: screw_axes_space[:, 0]: a screw axis needs ‖ω‖ = 1 (revolute) or ω = 0 and ‖v‖ = 1
(prismatic), got ‖ω‖ = 2: the joint variable would not be an angle in radians (the joint would
turn 2 rad per unit of q); normalise the axis by dividing it (ω and v) by the length of ω, 2: the
joint variable then becomes 2·q
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import numpy as np

from ..conventions import (
    ROTATION_TOLERANCE,
    SPATIAL_INERTIA_TOLERANCE,
    UNIT_AXIS_TOLERANCE,
    ZERO_OMEGA_TOLERANCE,
)
from ..spatial.inertia import link_inertia_problem

__all__ = [
    "ScrewDataProblem",
    "raise_problem",
    "screw_axis_kind",
    "screw_axis_problem",
    "spatial_inertia_problem",
    "transform_problem",
]

#: A door's name for a field: ``where("spatial_inertias", 0)`` → ``"$.spatial_inertias[0]"``.
Where = Callable[[str, int | None], str]


@dataclass(frozen=True)
class ScrewDataProblem:
    """One refused piece of screw data, described for a robot and for a file.

    Attributes
    ----------
    field : str
        ``"screw_axes_space"``, ``"link_frames"``, ``"home_ee_pose"`` or ``"spatial_inertias"``.
    index : int or None
        The joint, frame or link (0-based); None for a single matrix.
    part : str
        Where inside the entry, in JSON-path style (``""``, ``"[3]"``, ``"[3..5]"``,
        ``"[3][3]"``, ``" (I_c block)"``).
    expected, found : str
        A file's words: ``expected <expected>, got <found>``.
    sentence : str
        A robot's words, appended to its name of the field (starts with ``": "`` or ``" "``).
    """

    field: str
    index: int | None
    part: str
    expected: str
    found: str
    sentence: str


def raise_problem(problem: ScrewDataProblem, where: Where) -> NoReturn:
    """Raise ``ValueError(where(field, index) + sentence)``: a robot's message."""
    raise ValueError(where(problem.field, problem.index) + problem.sentence)


def non_unit_axis_advice(norm: float) -> str:
    """Why a revolute screw axis needs ‖ω‖ = 1 and how to make it so (both doors say it)."""
    return (
        f"the joint variable would not be an angle in radians (the joint would turn {norm:.6g} "
        f"rad per unit of q); normalise the axis by dividing it (ω and v) by the length of ω, "
        f"{norm:.6g}: the joint variable then becomes {norm:.6g}·q"
    )


def screw_axis_kind(screw: np.ndarray) -> tuple[str | None, float, float]:
    """``"revolute"``, ``"prismatic"`` or None (not a unit screw axis), with ‖ω‖ and ‖v‖.

    Examples
    --------
    >>> import numpy as np
    >>> screw_axis_kind(np.array([0, 0, 0, 0, 1.0, 0]))
    ('prismatic', 0.0, 1.0)
    """
    omega_norm = float(np.linalg.norm(screw[:3]))
    v_norm = float(np.linalg.norm(screw[3:]))
    if abs(omega_norm - 1.0) <= UNIT_AXIS_TOLERANCE:
        return "revolute", omega_norm, v_norm
    if omega_norm <= ZERO_OMEGA_TOLERANCE and abs(v_norm - 1.0) <= UNIT_AXIS_TOLERANCE:
        return "prismatic", omega_norm, v_norm
    return None, omega_norm, v_norm


def screw_axis_problem(
    screw: np.ndarray, index: int, joint_name: str, joint_type: str | None = None
) -> ScrewDataProblem | None:
    """What is wrong with the screw axis ``[ω; v]`` of a joint, or None.

    Without ``joint_type`` (a robot reads the kind from the axis) the axis must be a
    unit screw axis of either kind; with it (a file names the kind) it must be one of
    that kind, and a revolute one of zero pitch (ω·v = 0).

    Examples
    --------
    >>> import numpy as np
    >>> screw_axis_problem(np.array([0, 0, 1.0, 0, 0, 0]), 0, "j1") is None
    True
    >>> screw_axis_problem(np.array([0, 0, 1.0, 0, 0, 0.5]), 0, "j1", "revolute").expected
    'a revolute screw axis of zero pitch (ω·v = 0)'
    """
    kind, omega_norm, v_norm = screw_axis_kind(screw)
    got = f"‖ω‖ = {omega_norm:.6g}"
    if omega_norm <= ZERO_OMEGA_TOLERANCE:
        got += f" and ‖v‖ = {v_norm:.6g}"
    elif kind is None:
        got += f": {non_unit_axis_advice(omega_norm)}"
    sentence = (
        ": a screw axis needs ‖ω‖ = 1 (revolute) or ω = 0 and ‖v‖ = 1 (prismatic), got " + got
    )
    if joint_type is None:
        return (
            None
            if kind is not None
            else ScrewDataProblem("screw_axes_space", index, "", "a unit screw axis", got, sentence)
        )
    omega, v = screw[:3], screw[3:]
    if joint_type == "revolute":
        expected = f"a revolute screw axis [ω; v] with |ω| = 1 (joint {joint_name!r})"
        if kind != "revolute":
            if omega_norm <= UNIT_AXIS_TOLERANCE:  # nothing to normalise: ω = 0 turns about no axis
                found = f"a screw axis with |ω| = {omega_norm:.6g}"
            else:
                found = f"|ω| = {omega_norm:.6g}: {non_unit_axis_advice(omega_norm)}"
            return ScrewDataProblem("screw_axes_space", index, "", expected, found, sentence)
        pitch = float(omega @ v)
        if abs(pitch) > UNIT_AXIS_TOLERANCE:
            return ScrewDataProblem(
                "screw_axes_space",
                index,
                "",
                "a revolute screw axis of zero pitch (ω·v = 0)",
                f"a screw axis with ω·v = {pitch:.6g}",
                f": a revolute screw axis must have zero pitch (ω·v = 0), got ω·v = {pitch:.6g}",
            )
        return None
    if kind != "prismatic":
        return ScrewDataProblem(
            "screw_axes_space",
            index,
            "",
            "a prismatic screw axis [0; v] with |v| = 1",
            f"a screw axis with |ω| = {omega_norm:.6g}, |v| = {v_norm:.6g}",
            sentence,
        )
    return None


def transform_problem(
    T: np.ndarray, field: str, index: int | None = None
) -> ScrewDataProblem | None:
    """What keeps the 4×4 matrix ``T`` from being a rigid-body transform, or None.

    Examples
    --------
    >>> import numpy as np
    >>> transform_problem(np.diag([1, 1, -1, 1.0]), "home_ee_pose").sentence
    ' must be a homogeneous transform whose rotation part R is a rotation matrix (orthonormal \
with det +1), but det(R) = -1'
    """
    bottom = T[3]
    if np.abs(bottom - (0.0, 0.0, 0.0, 1.0)).max() > ROTATION_TOLERANCE:
        row = ", ".join(f"{float(x):g}" for x in bottom)
        return ScrewDataProblem(
            field,
            index,
            "[3]",
            "the bottom row [0, 0, 0, 1] of a homogeneous transform",
            f"the row [{row}]",
            f" must be a homogeneous transform with bottom row [0, 0, 0, 1], got [{row}]",
        )
    R = T[:3, :3]
    gram_error = float(np.abs(R.T @ R - np.eye(3)).max())
    det = float(np.linalg.det(R))
    if gram_error > ROTATION_TOLERANCE or abs(det - 1.0) > ROTATION_TOLERANCE:
        if abs(det + 1.0) < 1e-3 and gram_error < 1e-3:
            what = "det(R) = -1"
        else:
            what = f"max |RᵀR - I| = {gram_error:.3g}, det = {det:.6g}"
        return ScrewDataProblem(
            field,
            index,
            "",
            "a rotation part that is orthonormal with det +1 (within 1e-6)",
            "a matrix that is not",
            " must be a homogeneous transform whose rotation part R is a rotation matrix "
            f"(orthonormal with det +1), but {what}",
        )
    return None


def spatial_inertia_problem(
    G: np.ndarray, index: int, *, triangle: bool = False
) -> ScrewDataProblem | None:
    """What keeps ``G`` from being a link's spatial inertia ``[[I_c, 0], [0, m 1]]``, or None.

    Checked in order: zero off-diagonal blocks, the lower-right block m·1, m ≥ 0, and the
    rules of :func:`robolab.spatial.inertia.link_inertia_problem` for ``I_c`` (symmetric,
    positive semi-definite, and with ``triangle`` the triangle inequality of the principal
    moments, which an accepted plausibility exception lifts). Tolerance:
    :data:`robolab.conventions.SPATIAL_INERTIA_TOLERANCE` times max(1, max |G|).

    Examples
    --------
    >>> import numpy as np
    >>> spatial_inertia_problem(np.diag([0, 0, 0.35, 1, 1, 1.0]), 0, triangle=True).part
    ' (I_c block)'
    >>> spatial_inertia_problem(np.diag([0, 0, 0.35, 1, 1, 1.0]), 0) is None
    True
    """
    link = index + 1
    tolerance = SPATIAL_INERTIA_TOLERANCE * max(1.0, float(np.abs(G).max()))
    off_diagonal = max(float(np.abs(G[:3, 3:]).max()), float(np.abs(G[3:, :3]).max()))
    if off_diagonal > tolerance:
        return ScrewDataProblem(
            "spatial_inertias",
            index,
            "",
            "G = [[I_c, 0], [0, m 1]] in the centre-of-mass frame (zero off-diagonal blocks)",
            "nonzero entries in the off-diagonal blocks",
            " must have the form [[I_c, 0], [0, m·1]] in its centre-of-mass frame, but an "
            f"off-diagonal 3×3 block is not zero (max |entry| = {off_diagonal:.3g})",
        )
    mass_block = G[3:, 3:]
    mass = float(G[3, 3])
    if np.abs(mass_block - mass * np.eye(3)).max() > tolerance:
        rows = "; ".join(", ".join(f"{x:g}" for x in row) for row in mass_block)
        return ScrewDataProblem(
            "spatial_inertias",
            index,
            "[3..5]",
            "the lower-right block m·1 (the same mass three times on the diagonal, zeros "
            "elsewhere)",
            f"{mass_block.tolist()}",
            f": the lower-right block must be m·1 (the mass times the 3×3 identity), got [{rows}]",
        )
    problem = link_inertia_problem(mass, G[:3, :3], triangle=triangle)
    if problem is None:
        return None
    if problem.check == "mass":
        return ScrewDataProblem(
            "spatial_inertias",
            index,
            "[3][3]",
            "a mass >= 0",
            f"the number {mass!r}",
            f": the mass must be non-negative, got {problem.found}",
        )
    if problem.check == "symmetric":
        sentence = (
            ": the rotational inertia I_c (upper-left block) must be symmetric, "
            f"but {problem.found.replace('I', 'I_c')}"
        )
    elif problem.check == "positive_semidefinite":
        eigenvalues = ", ".join(f"{x:.6g}" for x in problem.moments)
        sentence = (
            ": the rotational inertia I_c must be positive semi-definite, "
            f"got eigenvalues [{eigenvalues}] (indefinite)"
        )
    else:
        sentence = (
            f": the rotational inertia I_c must be {problem.expected}, got {problem.found}. "
            "No rigid body has these moments; if they are a published idealisation, accept "
            f'them explicitly with plausibility_exceptions=[({link}, "inertia_triangle", "why")]'
        )
    return ScrewDataProblem(
        "spatial_inertias",
        index,
        " (I_c block)",
        f"a {problem.expected} inertia tensor",
        problem.found,
        sentence,
    )
