"""Checking and normalising the parameters of a DH robot.

Every value a user gives to :class:`robolab.DHRobot` (a DH table entry, a
mass, a centre of mass, an inertia tensor, gravity, joint limits, a tool
transform) passes through one of these functions. They return SymPy objects
(or floats for joint limits) and raise an exception with a message that
names the row or link, the field, what was expected and what was given:
:class:`TypeError` for what is neither a real number nor a SymPy expression
(text, booleans, complex numbers, None, dicts, sets, lists where one entry is
expected; text is never given to ``sympify``), :class:`ValueError` for the
rest (wrong sizes, non-finite numbers, negative masses, inertias that no body
has).

The physical checks of masses and numeric inertia tensors are those of every
other door (:func:`robolab.spatial.inertia.link_inertia_problem`): m ≥ 0, I
symmetric and positive semi-definite, principal moments that satisfy the
triangle inequality unless the link is accepted in the robot's
``plausibility_exceptions``. Symbolic values are checked once they are numbers:
when ``DHRobot.numeric(values)`` substitutes them
(:func:`check_substituted_dynamics`).

Numbers keep their type: an ``int`` becomes an exact SymPy ``Integer`` and a
``float`` stays a ``Float`` (Moro turns floats into 15-digit fractions). Two
exceptions make numeric tables give clean symbolic matrices:

* a float that is exactly zero becomes the exact ``0``;
* in an angle (α, and the constant part of θ), a float within 1e-12 of a
  multiple of π/2 becomes that exact multiple, so ``np.pi / 2`` gives
  ``cos(α) = 0`` rather than ``6.1e-17``.

Examples
--------
>>> as_sympy_scalar(1.5707963267948966, "row 1, alpha", angle=True)
pi/2
>>> as_sympy_scalar(0.4318, "row 2, a")
0.431800000000000
>>> as_sympy_scalar("l1", "row 2, a")
Traceback (most recent call last):
...
TypeError: row 2, a: expected a number or a SymPy expression, got the text 'l1' ...
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from decimal import Decimal
from typing import Any

import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef

from ..conventions import DEFAULT_GRAVITY, DEFAULT_PRISMATIC_LIMITS, DEFAULT_REVOLUTE_LIMITS
from ..spatial.inertia import link_inertia_problem
from ..support.arguments import scalar_problem
from . import symbols as predefined

__all__ = [
    "ANGLE_SNAP_TOLERANCE",
    "DEFAULT_GRAVITY",
    "DEFAULT_PRISMATIC_LIMITS",
    "DEFAULT_REVOLUTE_LIMITS",
    "as_sympy_scalar",
    "check_centres_of_mass",
    "check_gravity",
    "check_inertia_tensors",
    "check_joint_limits",
    "check_masses",
    "check_substituted_dynamics",
    "check_tool",
    "textbook_text",
]

#: A float angle this close to a multiple of π/2 is made exact.
ANGLE_SNAP_TOLERANCE = 1e-12
# DEFAULT_GRAVITY, DEFAULT_REVOLUTE_LIMITS, DEFAULT_PRISMATIC_LIMITS: robolab.conventions.


def _describe(value: object) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def _snap_float(value: float, angle: bool) -> sp.Expr:
    if value == 0.0:
        return sp.S.Zero
    if angle:
        quarter_turns = round(value / (math.pi / 2))
        if abs(value - quarter_turns * math.pi / 2) <= ANGLE_SNAP_TOLERANCE:
            return sp.Rational(quarter_turns, 2) * sp.pi
    return sp.Float(value)


def as_sympy_scalar(value: object, where: str, angle: bool = False) -> sp.Expr:
    """Return ``value`` as a real SymPy scalar, or raise an error naming ``where``.

    Parameters
    ----------
    value : int, float, numpy scalar, Fraction, Decimal or sympy.Expr
        What the user gave.
    where : str
        Where it was given, e.g. ``"row 2, alpha"``, used in messages.
    angle : bool
        Snap floats within 1e-12 of a multiple of π/2 to the exact multiple.

    Returns
    -------
    sympy.Expr

    Raises
    ------
    TypeError
        For text (never given to ``sympify``), booleans, complex numbers
        (also SymPy's ``I``), None, containers and other objects.
    ValueError
        For NaN and infinities.

    Examples
    --------
    >>> as_sympy_scalar(True, "link 1, mass")
    Traceback (most recent call last):
    ...
    TypeError: link 1, mass: expected a number or a SymPy expression, got the boolean True
    >>> as_sympy_scalar(1 + 2j, "row 1, a")
    Traceback (most recent call last):
    ...
    TypeError: row 1, a: expected a real number or a real SymPy expression, got the complex
    number (1+2j)
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, bool | np.bool_):
        raise TypeError(
            f"{where}: expected a number or a SymPy expression, got the boolean {bool(value)!r}"
        )
    if isinstance(value, sp.Expr) and not isinstance(value, sp.MatrixBase):
        if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise ValueError(f"{where}: expected a finite value, got {textbook_text(value)}")
        if value.is_real is False:
            raise TypeError(f"{where}: expected a real value, got {textbook_text(value)}")
        floats = {f: _snap_float(float(f), angle) for f in value.atoms(sp.Float)}
        return value.xreplace(floats) if floats else value
    if isinstance(value, numbers.Integral):
        return sp.Integer(int(value))
    if isinstance(value, float | np.floating | Decimal):
        if not math.isfinite(value):
            raise ValueError(f"{where}: expected a finite number, got {value!r}")
        return _snap_float(float(value), angle)
    if isinstance(value, numbers.Rational):  # fractions.Fraction: exact
        return sp.Rational(int(value.numerator), int(value.denominator))
    if isinstance(value, str | bytes):
        raise TypeError(
            f"{where}: expected a number or a SymPy expression, got the text {value!r} "
            f"(use sympy.Symbol({str(value)!r}) or robolab.symbols)"
        )
    if isinstance(value, numbers.Complex):
        raise TypeError(
            f"{where}: expected a real number or a real SymPy expression, "
            f"got the complex number {value!r}"
        )
    if isinstance(value, numbers.Real):  # another real number type
        return as_sympy_scalar(float(value), where, angle)
    raise TypeError(f"{where}: expected a number or a SymPy expression, got {_describe(value)}")


def _refuse_non_container(value: Any, where: str, expected: str) -> None:
    """``TypeError`` for text, booleans, None, dicts and sets where a vector or matrix is due."""
    if (
        isinstance(value, str | bytes | Mapping | AbstractSet | bool | np.bool_)
        or value is None
        or (isinstance(value, sp.Basic) and not isinstance(value, sp.MatrixBase))
    ):
        what = "the text" if isinstance(value, str | bytes) else type(value).__name__
        raise TypeError(f"{where}: expected {expected}, got {what} {value!r}")


_DOTS = {1: "\u0307", 2: "\u0308"}  # combining dot and two dots above: q̇, q̈


def textbook_text(value: object) -> str:
    """One line of text for messages, symbols written as :func:`robolab.to_text` writes them.

    A joint variable ``q_1(t)`` reads q₁, its derivatives q̇₁ and q̈₁, and
    other symbols get their subscripts (``l_1`` reads l₁), as in every
    other output of robolab; the rest is SymPy's one-line form with short
    floats (``pi/2``, ``2*q₁``, ``0.25``).

    Examples
    --------
    >>> from robolab.symbols import q1, q2, l2, t
    >>> textbook_text(q1 + sp.pi / 2), textbook_text(2 * q2 + l2), textbook_text(q1.diff(t))
    ('q₁ + pi/2', 'l₂ + 2*q₂', 'q̇₁')
    """
    from sympy.printing.pretty.pretty_symbology import pretty_symbol

    if not isinstance(value, sp.Basic):
        return str(value)
    names: dict[sp.Basic, sp.Symbol] = {}
    for derivative in value.atoms(sp.Derivative):
        (variable, order), function = derivative.variable_count[0], derivative.expr
        if len(derivative.variable_count) == 1 and order in _DOTS and function.args == (variable,):
            base, _, subscript = type(function).__name__.partition("_")
            name = base + _DOTS[order] + (f"_{subscript}" if subscript else "")
            names[derivative] = sp.Symbol(pretty_symbol(name))
    value = value.xreplace(names)
    names = {f: sp.Symbol(pretty_symbol(type(f).__name__)) for f in value.atoms(AppliedUndef)}
    names.update({s: sp.Symbol(pretty_symbol(s.name)) for s in value.atoms(sp.Symbol)})
    return sp.sstr(value.xreplace(names), full_prec=False)


def _require_constant(value: sp.Expr, where: str) -> None:
    functions = value.atoms(AppliedUndef, sp.Derivative)
    if functions:
        raise ValueError(
            f"{where}: expected a constant parameter, got {textbook_text(value)}, which depends "
            f"on {', '.join(sorted(textbook_text(f) for f in functions))}"
        )


def _sequence(value: Any, what: str, n: int) -> list[Any]:
    # A dict would be read as its keys, a text as its characters, a set in any order.
    if isinstance(value, str | bytes | Mapping | AbstractSet) or not hasattr(value, "__len__"):
        raise TypeError(
            f"{what}: expected a list with one entry per link ({n}), got {_describe(value)}"
        )
    if isinstance(value, sp.MatrixBase):
        value = list(value)
    items = list(value)
    if len(items) != n:
        raise ValueError(f"{what}: expected {n} entries (one per link), got {len(items)}")
    return items


def check_masses(value: object, n: int) -> list[sp.Expr]:
    """Return the ``n`` link masses as SymPy scalars; a mass must not be negative.

    Examples
    --------
    >>> check_masses([1, 2.5], 2)
    [1, 2.50000000000000]
    >>> check_masses([1, -2.5], 2)
    Traceback (most recent call last):
    ...
    ValueError: link 2, mass: expected a non-negative mass, got -2.50000000000000
    """
    masses = []
    for i, item in enumerate(_sequence(value, "masses", n), start=1):
        where = f"link {i}, mass"
        mass = as_sympy_scalar(item, where)
        _require_constant(mass, where)
        negative = (
            link_inertia_problem(float(mass), None) is not None
            if mass.is_number
            else mass.is_negative
        )
        if negative:
            raise ValueError(f"{where}: expected a non-negative mass, got {mass}")
        masses.append(mass)
    return masses


def vector3(value: Any, where: str, frame: str) -> sp.ImmutableMatrix:
    _refuse_non_container(value, where, f"3 coordinates (x, y, z){frame}")
    try:
        entries = list(np.asarray(value, dtype=object).reshape(-1))
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{where}: expected 3 coordinates (x, y, z){frame}, got {_describe(value)}"
        ) from error
    if isinstance(value, str) or len(entries) != 3:
        count = "a text" if isinstance(value, str) else f"{len(entries)} values"
        raise ValueError(
            f"{where}: expected 3 coordinates (x, y, z){frame}, got {count}: {_describe(value)}"
        )
    coordinates = [
        as_sympy_scalar(x, f"{where}, {axis}") for x, axis in zip(entries, "xyz", strict=True)
    ]
    for coordinate in coordinates:
        _require_constant(coordinate, where)
    return sp.ImmutableMatrix(coordinates)


def check_centres_of_mass(value: object, n: int) -> list[sp.ImmutableMatrix]:
    """Return the ``n`` centres of mass, each a 3×1 matrix in its link frame {i}.

    Examples
    --------
    >>> check_centres_of_mass([(0, 0, 0.1), (0.2, 0, 0)], 2)[0].T
    Matrix([[0, 0, 0.100000000000000]])
    >>> check_centres_of_mass([(0, 0, 0.1), (0.2, 0)], 2)
    Traceback (most recent call last):
    ...
    ValueError: link 2, centre of mass: expected 3 coordinates (x, y, z) in frame {2}, got 2 ...
    """
    return [
        vector3(item, f"link {i}, centre of mass", f" in frame {{{i}}}")
        for i, item in enumerate(_sequence(value, "cm_positions", n), start=1)
    ]


def check_inertia_tensors(
    value: object, n: int, triangle_exempt: AbstractSet[int] = frozenset()
) -> list[sp.ImmutableMatrix]:
    """Return the ``n`` inertia tensors (3×3, symmetric; physical when numeric).

    Each tensor is about the link's centre of mass, with axes parallel to
    frame {i}. Zero and singular tensors (point masses, thin rods) are
    accepted; non-symmetric or indefinite ones are not, and neither are
    numeric ones whose principal moments break the triangle inequality,
    unless the link number is in ``triangle_exempt`` (the robot's accepted
    ``plausibility_exceptions``).

    Examples
    --------
    >>> check_inertia_tensors([[[1, 0.5, 0], [0.2, 1, 0], [0, 0, 1]]], 1)
    Traceback (most recent call last):
    ...
    ValueError: link 1, inertia tensor: expected a symmetric matrix,...
    got I[0, 1] = 0.5... but I[1, 0] = 0.2...
    >>> check_inertia_tensors([sp.diag(0, 0, 0.35)], 1)
    Traceback (most recent call last):
    ...
    ValueError: link 1, inertia tensor: expected a rigid body's inertia (each principal moment at
    most the sum of the other two), got principal moments 0, 0, 0.35 kg·m²: ... accept them
    explicitly with robot.plausibility_exceptions = [(1, "inertia_triangle", "why")]
    """
    tensors = []
    for i, item in enumerate(_sequence(value, "inertia_tensors", n), start=1):
        where = f"link {i}, inertia tensor"
        _refuse_non_container(item, where, "a 3×3 matrix")
        try:
            array = np.asarray(item, dtype=object)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{where}: expected a 3×3 matrix, got {_describe(item)}") from error
        if isinstance(item, sp.MatrixBase):
            array = np.asarray(item.tolist(), dtype=object)
        if array.shape != (3, 3):
            raise ValueError(f"{where}: expected a 3×3 matrix, got shape {array.shape}")
        tensor = sp.Matrix(3, 3, [as_sympy_scalar(x, where) for x in array.reshape(-1)])
        for entry in tensor:
            _require_constant(entry, where)
        for r, c in ((0, 1), (0, 2), (1, 2)):
            if sp.expand(tensor[r, c] - tensor[c, r]) != 0 and not _close(
                tensor[r, c], tensor[c, r]
            ):
                raise ValueError(
                    f"{where}: expected a symmetric matrix, got I[{r}, {c}] = {tensor[r, c]} "
                    f"but I[{c}, {r}] = {tensor[c, r]}"
                )
        tensor = (tensor + tensor.T) / 2 if tensor != tensor.T else tensor
        if not tensor.free_symbols:
            _check_numeric_tensor(
                np.array(tensor.tolist(), dtype=float), where, i, i not in triangle_exempt
            )
        tensors.append(sp.ImmutableMatrix(tensor))
    return tensors


def _check_numeric_tensor(tensor: np.ndarray, where: str, link: int, triangle: bool) -> None:
    """The physical checks of every door (support.inertia.link_inertia_problem), DH words."""
    problem = link_inertia_problem(None, tensor, triangle=triangle)
    if problem is None:
        return
    if problem.check == "positive_semidefinite":
        raise ValueError(
            f"{where}: expected a positive semi-definite matrix, got eigenvalues "
            f"{', '.join(f'{e:.6g}' for e in problem.moments)}"
        )
    message = f"{where}: expected {'a ' if problem.check == 'symmetric' else ''}"
    message += f"{problem.expected}{' matrix' if problem.check == 'symmetric' else ''}, "
    message += f"got {problem.found}"
    if problem.check == "inertia_triangle":
        message += (
            ". No rigid body has these moments; if they are a published idealisation, accept "
            f'them explicitly with robot.plausibility_exceptions = [({link}, "inertia_triangle", '
            '"why")]'
        )
    raise ValueError(message)


def check_substituted_dynamics(
    masses: Sequence[sp.Expr],
    tensors: Sequence[sp.MatrixBase],
    values: Mapping[sp.Basic, Any],
    triangle_exempt: AbstractSet[int] = frozenset(),
) -> None:
    """Check the masses and inertia tensors that ``values`` turns into numbers.

    The door ``DHRobot.numeric(values)``: a symbolic ``m_1`` or ``I_xx1`` is
    checked once a number is given for it, with the same rules as a number
    given to the setters (m ≥ 0, symmetric positive semi-definite inertia,
    triangle inequality unless the link is in ``triangle_exempt``). Entries
    that stay symbolic are not checked; a tensor that was numeric already
    was checked by the setter.

    Examples
    --------
    >>> from robolab.symbols import m1, Ixx1, Iyy1, Izz1
    >>> check_substituted_dynamics([m1], [sp.diag(Ixx1, Iyy1, Izz1)], {m1: -2.0})
    Traceback (most recent call last):
    ...
    ValueError: values: with these numbers link 1 has the mass -2, expected a non-negative mass
    >>> check_substituted_dynamics(
    ...     [m1], [sp.diag(Ixx1, Iyy1, Izz1)], {Ixx1: 1.0, Iyy1: -1.0, Izz1: 1.0})
    Traceback (most recent call last):
    ...
    ValueError: values: with these numbers link 1, inertia tensor: expected a positive
    semi-definite matrix, got eigenvalues -1, 1, 1
    """
    if not values:
        return
    values = {k: v if isinstance(v, sp.Basic) else sp.Float(float(v)) for k, v in values.items()}
    given = set(values)
    for i, (mass, tensor) in enumerate(zip(masses, tensors, strict=True), start=1):
        if mass.free_symbols & given:  # a SymPy object, checked by the setter
            number = mass.xreplace(values)
            if number.is_number and link_inertia_problem(float(number), None) is not None:
                raise ValueError(
                    f"values: with these numbers link {i} has the mass {float(number):g}, "
                    "expected a non-negative mass"
                )
        if tensor.free_symbols & given:
            numeric = sp.Matrix(tensor).xreplace(values)
            if not numeric.free_symbols:
                try:
                    _check_numeric_tensor(
                        np.array(numeric.tolist(), dtype=float),
                        f"link {i}, inertia tensor",
                        i,
                        i not in triangle_exempt,
                    )
                except ValueError as error:
                    raise ValueError(f"values: with these numbers {error}") from None


def _close(a: sp.Expr, b: sp.Expr) -> bool:
    if a.free_symbols or b.free_symbols:
        return False
    return abs(float(a) - float(b)) <= 1e-12 * max(1.0, abs(float(a)))


def check_gravity(value: object) -> sp.ImmutableMatrix:
    """Return gravity as a 3×1 matrix in the base frame {0}.

    Examples
    --------
    >>> check_gravity((0, 0, -9.81)).T
    Matrix([[0, 0, -9.81]])
    """
    return vector3(value, "gravity", " in the base frame {0}")


def check_joint_limits(
    value: object, joint_types: Sequence[str], what: str = "joint_limits"
) -> list[tuple[float, float]]:
    """Return ``n`` pairs ``(lower, upper)`` of finite floats with ``lower <= upper``.

    Examples
    --------
    >>> check_joint_limits([(-1, 1), (0, 0.5)], ["r", "p"])
    [(-1.0, 1.0), (0.0, 0.5)]
    >>> check_joint_limits([(1, -1)], ["r"])
    Traceback (most recent call last):
    ...
    ValueError: joint_limits, joint 1: expected lower <= upper, got (1.0, -1.0)
    """
    limits = []
    for i, item in enumerate(_sequence(value, what, len(joint_types)), start=1):
        where = f"{what}, joint {i}"
        # "12" would be read as the pair ("1", "2"), a dict as its keys
        _refuse_non_container(item, where, "a pair of numbers (lower, upper)")
        try:
            entries = list(item)
        except TypeError:
            raise TypeError(
                f"{where}: expected a pair of numbers (lower, upper), got {_describe(item)}"
            ) from None
        for entry in entries:
            problem = scalar_problem(entry)
            if problem is not None:
                raise TypeError(
                    f"{where}: expected a pair of numbers (lower, upper), got {problem[0]}"
                )
        pair = [float(x) for x in entries]
        if len(pair) != 2:
            raise ValueError(f"{where}: expected a pair (lower, upper), got {len(pair)} values")
        if not all(math.isfinite(x) for x in pair):
            raise ValueError(f"{where}: expected finite numbers, got {tuple(pair)}")
        if pair[0] > pair[1]:
            raise ValueError(f"{where}: expected lower <= upper, got {tuple(pair)}")
        limits.append((pair[0], pair[1]))
    return limits


def default_joint_limits(joint_types: Sequence[str]) -> list[tuple[float, float]]:
    """Return the default limits: (-π, π) for revolute, (0, 1000) for prismatic joints."""
    return [
        DEFAULT_REVOLUTE_LIMITS if kind == "r" else DEFAULT_PRISMATIC_LIMITS for kind in joint_types
    ]


def _snap_unit(value: sp.Expr) -> sp.Expr:
    if isinstance(value, sp.Float):
        for exact in (0, 1, -1):
            if abs(float(value) - exact) <= ANGLE_SNAP_TOLERANCE:
                return sp.Integer(exact)
    return value


def check_tool(value: object) -> sp.ImmutableMatrix:
    """Return the constant tool transform T_{n,ee} (4×4), identity if ``value`` is None.

    Float entries within 1e-12 of 0 or ±1 become exact, so a tool rotated by
    ``np.pi / 2`` gives clean symbolic poses.

    Examples
    --------
    >>> check_tool(None) == sp.eye(4)
    True
    >>> check_tool(np.eye(3))
    Traceback (most recent call last):
    ...
    ValueError: tool: expected a 4×4 homogeneous transform T_n,ee, got shape (3, 3)
    """
    if value is None:
        return sp.ImmutableMatrix(sp.eye(4))
    _refuse_non_container(value, "tool", "a 4×4 homogeneous transform T_n,ee")
    try:
        array = np.asarray(
            value.tolist() if isinstance(value, sp.MatrixBase) else value, dtype=object
        )
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"tool: expected a 4×4 homogeneous transform T_n,ee, got {_describe(value)}"
        ) from error
    if array.shape != (4, 4):
        raise ValueError(
            f"tool: expected a 4×4 homogeneous transform T_n,ee, got shape {array.shape}"
        )
    tool = sp.Matrix(4, 4, [_snap_unit(as_sympy_scalar(x, "tool")) for x in array.reshape(-1)])
    for entry in tool:
        _require_constant(entry, "tool")
    if list(tool[3, :]) != [0, 0, 0, 1]:
        raise ValueError(f"tool: expected the bottom row [0, 0, 0, 1], got {list(tool[3, :])}")
    if not tool.free_symbols:
        R = np.array(tool[:3, :3].tolist(), dtype=float)
        error = np.abs(R.T @ R - np.eye(3)).max()
        if error > 1e-6 or abs(np.linalg.det(R) - 1.0) > 1e-6:
            raise ValueError(
                f"tool: expected a rotation in the upper-left 3×3 block (orthonormal, det +1), "
                f"got max |RᵀR - I| = {error:.3g}, det = {np.linalg.det(R):.6g}"
            )
    return sp.ImmutableMatrix(tool)


def placeholder_masses(n: int) -> list[sp.Expr]:
    """Return the assumed masses ``m_1 … m_n`` (the symbols of :mod:`robolab.symbols`)."""
    return [predefined.mass(i) for i in range(1, n + 1)]


def placeholder_inertia_tensors(n: int) -> list[sp.ImmutableMatrix]:
    """Return the assumed diagonal inertia tensors ``diag(I_xx_i, I_yy_i, I_zz_i)``."""
    return [sp.ImmutableMatrix(predefined.inertia_tensor(i)) for i in range(1, n + 1)]


def placeholder_centres_of_mass(n: int) -> list[sp.ImmutableMatrix]:
    """Return general symbolic centres of mass ``(x_ci, y_ci, z_ci)`` in frames {i}."""
    return [sp.ImmutableMatrix(predefined.centre_of_mass(i)) for i in range(1, n + 1)]
