"""Standard ↔ modified DH: the same robot written in the other convention, exactly.

Write ``Z_i = Rz(θ_i) Tz(d_i)`` for the screw motion along joint i and
``X_i = Tx(a_i) Rx(α_i)`` for the one along the common normal of link i. The
standard chain (Spong, Corke, Moro) and the modified one (Craig) group the same
factors differently (``docs/conventions.md``)::

    standard:  T = (Z_1 X_1) (Z_2 X_2) ⋯ (Z_n X_n) · tool_std
    modified:  T = (X_0 Z_1) (X_1 Z_2) ⋯ (X_{n-1} Z_n) · tool_mod,  X_0 = I

so the modified table is the standard one with the columns a, α **moved down
one row** (row 1 gets a_0 = α_0 = 0), d and θ unchanged, and the last factor
``X_n`` no longer fits in a row: it goes into the tool,
``tool_mod = X_n · tool_std``. Frame {i} of the modified table is frame
{i-1} of the standard one moved along joint i, ``F_i^mod = F_i^std · X_i⁻¹``,
so the centre of mass and the inertia tensor of link i, given in frame {i},
are re-expressed with ``X_i``:

* ``c_mod = Rx(α_i) c_std + (a_i, 0, 0)``,
* ``I_mod = Rx(α_i) I_std Rx(α_i)ᵀ`` (the inertia stays about the centre of mass).

Masses, gravity (in the base frame {0}, which both tables share), joint
limits and joint variables are unchanged. Everything is exact: symbols stay
symbols, exact angles (``sympy.pi / 2``, and floats within 1e-12 of a multiple
of π/2) give exact entries; only float angles such as ``0.3`` carry float
round-off (about 1e-16) into the re-expressed centres of mass and inertias.

The way back needs ``a_n, α_n``, which a modified table does not hold (see
:func:`modified_to_standard`), and a modified table whose first row has
``a_0 ≠ 0`` or ``α_0 ≠ 0`` has no standard form with the same base frame.

Examples
--------
>>> from robolab import DHRobot
>>> from robolab.symbols import q1, q2, l1, l2
>>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
>>> modified = standard_to_modified(arm)
>>> modified.dh_parameters
[(0, 0, 0, q_1(t)), (l_1, 0, 0, q_2(t))]
>>> modified.tool[:3, 3].T
Matrix([[l_2, 0, 0]])
>>> modified_to_standard(modified).dh_parameters == arm.dh_parameters
True
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from typing import Any

import sympy as sp

from .model import DHInertial, DHModel
from .parameters import as_sympy_scalar, placeholder_centres_of_mass, placeholder_inertia_tensors
from .simplify import simplify_trig

__all__ = [
    "ROUND_OFF",
    "modified_model",
    "modified_to_standard",
    "normal_screw",
    "standard_model",
    "standard_to_modified",
]

#: Float terms below this times the largest float in a re-expressed matrix are round-off.
ROUND_OFF = 1e-13


def normal_screw(a: Any, alpha: Any) -> sp.Matrix:
    """Return ``X = Tx(a) Rx(α)``, the motion along the common normal of a link (4×4, SymPy).

    Examples
    --------
    >>> normal_screw(1, sp.pi / 2)
    Matrix([
    [1, 0,  0, 1],
    [0, 0, -1, 0],
    [0, 1,  0, 0],
    [0, 0,  0, 1]])
    """
    a, alpha = sp.sympify(a), sp.sympify(alpha)
    c, s = sp.cos(alpha), sp.sin(alpha)
    return sp.Matrix([[1, 0, 0, a], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])


def _inverse_normal_screw(a: sp.Expr, alpha: sp.Expr) -> sp.Matrix:
    """``X⁻¹ = Rx(-α) Tx(-a)``."""
    c, s = sp.cos(alpha), sp.sin(alpha)
    return sp.Matrix([[1, 0, 0, -a], [0, c, s, 0], [0, -s, c, 0], [0, 0, 0, 1]])


def _tidy(matrix: sp.MatrixBase) -> sp.ImmutableMatrix:
    """Entries with sines, cosines or floats reduced, others left as they are.

    :func:`robolab.dh.simplify.simplify_trig` adds like terms, applies
    Pythagoras and the angle sums, and drops float round-off (terms below
    1e-13 of the largest float coefficient, e.g. ``1.6e-17*I_zz`` left by
    ``cos(0.3)² + sin(0.3)²``); then terms below ``ROUND_OFF`` times the
    largest float of the whole matrix, so an entry that is round-off alone
    (``5.6e-17*I_yy``) becomes 0.
    """
    memo: dict = {}
    entries = [
        simplify_trig(entry, None, memo) if entry.has(sp.sin, sp.cos, sp.Float) else entry
        for entry in matrix
    ]
    floats = [abs(float(f)) for entry in entries for f in entry.atoms(sp.Float)]
    if floats:  # round-off relative to the whole matrix (an entry may be round-off only)
        limit = ROUND_OFF * max(floats)

        def kept(term: sp.Expr) -> bool:
            coefficient = term.as_coeff_Mul()[0]
            return not (isinstance(coefficient, sp.Float) and abs(coefficient) < limit)

        entries = [sp.Add(*filter(kept, sp.Add.make_args(entry))) for entry in entries]
    return sp.ImmutableMatrix(matrix.rows, matrix.cols, entries)


def _moved_centre(centre: sp.MatrixBase, X: sp.MatrixBase) -> sp.ImmutableMatrix:
    """The point ``centre`` (3×1) after the transform ``X``: ``R c + p``."""
    return _tidy(X[:3, :3] * sp.Matrix(centre) + X[:3, 3])


def _turned_inertia(tensor: sp.MatrixBase, X: sp.MatrixBase) -> sp.ImmutableMatrix:
    """The inertia tensor written in axes turned by ``X``'s rotation: ``R I Rᵀ``."""
    R = X[:3, :3]
    return _tidy(R * sp.Matrix(tensor) * R.T)


def _new_model(
    source: DHModel,
    rows: Sequence[tuple[Any, ...]],
    convention: str,
    tool: sp.MatrixBase,
    screws: Sequence[sp.MatrixBase],
) -> DHModel:
    """A description with ``rows``; dynamic parameters of ``source`` re-expressed by ``screws``.

    ``screws[i]`` maps coordinates in the old frame {i+1} to the new one. ``source`` is
    not changed (it cannot be: descriptions are immutable).
    """

    with warnings.catch_warnings():
        # the angles are the source's own: any warning about them was given when it was built
        warnings.simplefilter("ignore", UserWarning)
        fresh = DHModel.new(rows, convention=convention, tool=tool, name=source.name)
    n = fresh.chain.dof
    inertial, old_convention, given = source.inertial, source.chain.convention, source.given
    centres, centres_assumed_in = None, None
    if inertial.centres is not None:
        centres = tuple(_moved_centre(c, X) for c, X in zip(inertial.centres, screws, strict=True))
        if "cm_positions" not in given and list(centres) != placeholder_centres_of_mass(n):
            centres_assumed_in = source.centres_assumed_in or old_convention
    tensors = tuple(
        _turned_inertia(tensor, X) for tensor, X in zip(inertial.inertias, screws, strict=True)
    )
    inertias_assumed_in = None
    if "inertia_tensors" not in given and list(tensors) != placeholder_inertia_tensors(n):
        inertias_assumed_in = source.inertias_assumed_in or old_convention
    return dataclasses.replace(
        fresh,
        inertial=DHInertial(inertial.masses, centres, tensors, inertial.gravity),
        given=given,
        centres_assumed_in=centres_assumed_in,
        inertias_assumed_in=inertias_assumed_in,
        joint_limits=source.joint_limits,
        qis_range=source.qis_range,
        plausibility_exceptions=source.plausibility_exceptions,  # the same links
    )


def modified_model(model: DHModel) -> DHModel:
    """Return the same robot's description as a modified-DH table (:func:`standard_to_modified`).

    Examples
    --------
    >>> from robolab.symbols import q1, l1
    >>> standard = DHModel.new([(l1, 0, 0, q1)])
    >>> modified = modified_model(standard)
    >>> modified.chain.convention, modified.chain.tool[0, 3], standard.chain.convention
    ('modified', l_1, 'standard')
    """
    chain = model.chain
    if chain.convention == "modified":
        same = [(*row.entries, row.joint_type) for row in chain.rows]
        copy = _new_model(model, same, "modified", chain.tool, [sp.eye(4)] * chain.dof)
        return dataclasses.replace(copy, standard_form=model.standard_form)
    rows = chain.rows
    shifted = []
    for i, row in enumerate(rows):
        a, alpha = (rows[i - 1].a, rows[i - 1].alpha) if i > 0 else (0, 0)
        shifted.append((a, alpha, row.d, row.theta, row.joint_type))
    a_n, alpha_n = rows[-1].a, rows[-1].alpha
    tool = _tidy(normal_screw(a_n, alpha_n) * chain.tool)
    screws = [normal_screw(row.a, row.alpha) for row in rows]
    modified = _new_model(model, shifted, "modified", tool, screws)
    return dataclasses.replace(modified, standard_form=(a_n, alpha_n, chain.tool))


def standard_to_modified(robot: Any) -> Any:
    """Return the same robot as a modified-DH (Craig) table: :meth:`DHRobot.to_modified`.

    Row i of the result is ``(a_{i-1}, α_{i-1}, d_i, θ_i)`` with the standard
    a, α moved down one row (``a_0 = α_0 = 0``); the tool becomes
    ``Tx(a_n) Rx(α_n) · tool``; centres of mass and inertia tensors are
    re-expressed in the modified frames (module docstring). A modified robot
    is returned as an independent copy.

    Parameters
    ----------
    robot : DHRobot

    Returns
    -------
    DHRobot
        Convention ``"modified"``; same name, masses, gravity, joint limits.
        It remembers ``a_n, α_n`` and the standard tool, so
        :func:`modified_to_standard` gives the original table back exactly.

    Examples
    --------
    The Puma's first link: α_1 = π/2 turns the axes of frame {1}, so link 1's
    inertia about the joint axis (I_yy in the standard frame) becomes I_zz:

    >>> from robolab import load_robot
    >>> puma = load_robot("puma560", form="dh")
    >>> puma.I_cm(1).diagonal(), puma.to_modified().I_cm(1).diagonal()
    (Matrix([[0, 0.350000000000000, 0]]), Matrix([[0, 0, 0.350000000000000]]))
    """
    # type(robot) is DHRobot (or a subclass): this module builds descriptions, not robots
    return type(robot).from_model(modified_model(robot.model))


def _pure_normal_screw(tool: sp.MatrixBase) -> tuple[sp.Expr, sp.Expr] | None:
    """``(a, α)`` if ``tool`` is exactly ``Tx(a) Rx(α)``, else None."""
    if list(tool[:3, 0]) != [1, 0, 0] or tool[0, 1] != 0 or tool[0, 2] != 0:
        return None
    if tool[1, 3] != 0 or tool[2, 3] != 0:
        return None
    c, s = tool[1, 1], tool[2, 1]
    if tool[2, 2] != c or tool[1, 2] != -s:
        return None
    if isinstance(c, sp.cos) and isinstance(s, sp.sin) and c.args == s.args:
        alpha = c.args[0]
    elif c.is_number and s.is_number:
        alpha = sp.atan2(s, c)
    else:
        return None
    return tool[0, 3], alpha


def modified_to_standard(robot: Any, last_link: Sequence[Any] | None = None) -> Any:
    """Return the same robot as a standard-DH table: :meth:`DHRobot.to_standard`.

    Row i of the result is ``(a_i, α_i, d_i, θ_i)``: a, α move up one row. The
    standard table also needs ``a_n, α_n`` (the common normal after the last
    joint), which a modified table does not hold; they are taken from

    1. ``last_link``, if given;
    2. else, for a robot made by :func:`standard_to_modified`, the values it
       came from (and its standard tool), so a round trip is exact;
    3. else the tool, when it is exactly ``Tx(a) Rx(α)`` (then the standard
       tool is the identity);
    4. else ``a_n = α_n = 0``: standard frame {n} is the modified frame {n}.

    The tool becomes ``(Tx(a_n) Rx(α_n))⁻¹ · tool``; centres of mass and
    inertia tensors are re-expressed in the standard frames.

    Parameters
    ----------
    robot : DHRobot
        Its first row must have ``a_0 = α_0 = 0``: a standard table has no
        base transform, its z_0 lies along joint 1.
    last_link : (a_n, alpha_n), optional
        The length and twist of the last link in the standard table.

    Returns
    -------
    DHRobot
        Convention ``"standard"``; same name, masses, gravity, joint limits.

    Raises
    ------
    ValueError
        If row 1 has a non-zero ``a_0`` or ``α_0``, or ``last_link`` is not a
        pair of numbers or expressions.

    Examples
    --------
    >>> from robolab import DHRobot, transl
    >>> from robolab.symbols import q1, q2, l1, l2
    >>> craig = DHRobot((0, 0, 0, q1), (l1, 0, 0, q2), convention="modified",
    ...                 tool=transl(l2, 0, 0))
    >>> standard = modified_to_standard(craig)
    >>> standard.dh_parameters, standard.tool == sp.eye(4)
    ([(l_1, 0, 0, q_1(t)), (l_2, 0, 0, q_2(t))], True)
    """
    # type(robot) is DHRobot (or a subclass): this module builds descriptions, not robots
    return type(robot).from_model(standard_model(robot.model, last_link))


def standard_model(model: DHModel, last_link: Sequence[Any] | None = None) -> DHModel:
    """Return the same robot's description as a standard-DH table (:func:`modified_to_standard`).

    Examples
    --------
    >>> from robolab.symbols import q1, l1
    >>> craig = modified_model(DHModel.new([(l1, 0, 0, q1)]))
    >>> standard_model(craig).chain.rows[0].a
    l_1
    """
    chain = model.chain
    if chain.convention == "standard":
        if last_link is not None:
            raise ValueError("last_link: only a modified table needs it; this robot is standard")
        return _new_model(
            model,
            [(*row.entries, row.joint_type) for row in chain.rows],
            "standard",
            chain.tool,
            [sp.eye(4)] * chain.dof,
        )
    rows = chain.rows
    first = rows[0]
    if first.a != 0 or first.alpha != 0:
        raise ValueError(
            f"row 1: a_0 = {first.a}, alpha_0 = {first.alpha}; a standard DH table starts with "
            "z_0 along joint 1 and has no base transform, so this modified table has no standard "
            "form with the same base frame {0}. Choose the base frame with z_0 along joint 1 "
            "(a_0 = alpha_0 = 0) to convert it"
        )
    tool = chain.tool
    if last_link is not None:
        if isinstance(last_link, str) or len(last_link) != 2:
            raise ValueError(f"last_link: expected a pair (a_n, alpha_n), got {last_link!r}")
        a_n = as_sympy_scalar(last_link[0], "last_link, a_n")
        alpha_n = as_sympy_scalar(last_link[1], "last_link, alpha_n", angle=True)
        standard_tool = _tidy(_inverse_normal_screw(a_n, alpha_n) * tool)
    elif model.standard_form is not None:
        a_n, alpha_n, standard_tool = model.standard_form
    elif (pair := _pure_normal_screw(tool)) is not None:
        a_n = as_sympy_scalar(pair[0], "tool, a")
        alpha_n = as_sympy_scalar(pair[1], "tool, alpha", angle=True)
        standard_tool = sp.eye(4)
    else:
        a_n, alpha_n, standard_tool = sp.S.Zero, sp.S.Zero, tool
    lifted = []
    for i, row in enumerate(rows):
        a, alpha = (rows[i + 1].a, rows[i + 1].alpha) if i + 1 < len(rows) else (a_n, alpha_n)
        lifted.append((a, alpha, row.d, row.theta, row.joint_type))
    screws = [_inverse_normal_screw(a, alpha) for a, alpha, *_ in lifted]
    return _new_model(model, lifted, "standard", standard_tool, screws)
