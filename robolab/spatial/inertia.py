"""The physical checks of a link's inertia, the same at every door, and their accepted exceptions.

Every door through which inertial data enters (:class:`robolab.ScrewRobot`,
the setters and ``numeric(values)`` of :class:`robolab.DHRobot`, model files,
URDF files) asks :func:`link_inertia_problem` (or :func:`check_link_inertia`,
which raises): a mass ``m >= 0``, a symmetric, positive semi-definite inertia
tensor, and principal moments that satisfy the triangle inequality
``I_a <= I_b + I_c`` (true of every rigid body). The tolerance is
:data:`robolab.conventions.INERTIA_TOLERANCE` times the size of the numbers
compared (:func:`inertia_tolerance`).

A published model sometimes breaks a physical rule on purpose (the triangle
inequality of the principal moments, for an idealised link). The robots and the
robot files accept such a break only when it is named, with its reason: a
:class:`PlausibilityException` (:func:`as_plausibility_exceptions` reads every
spelling of one). :func:`robolab.check_plausibility` reports the checks for a
whole robot file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..conventions import INERTIA_TOLERANCE
from ..support.arguments import hidden_character_problem, require_int

__all__ = [
    "INERTIA_CHECKS",
    "PLAUSIBILITY_CHECKS",
    "InertiaProblem",
    "PlausibilityException",
    "as_plausibility_exceptions",
    "check_link_inertia",
    "inertia_tolerance",
    "link_inertia_problem",
    "principal_moments",
]

#: The checks of :func:`link_inertia_problem`, by the name its problems carry.
INERTIA_CHECKS = ("mass", "symmetric", "positive_semidefinite", "inertia_triangle")


@dataclass(frozen=True)
class InertiaProblem:
    """A physical impossibility in a link's mass or inertia (see :func:`link_inertia_problem`).

    Attributes
    ----------
    check : str
        One of :data:`INERTIA_CHECKS`.
    expected : str
        What the value must be, an adjective phrase ("non-negative", "symmetric", ...).
    found : str
        What it is, with its numbers ("m = -1", "principal moments 0, 0, 0.35 kg·m²: ...").
    moments : tuple of float
        The principal moments of inertia (ascending), empty for a mass problem.
    """

    check: str
    expected: str
    found: str
    moments: tuple[float, ...] = ()


def inertia_tolerance(inertia: np.ndarray | None, mass: float | None = None) -> float:
    """The rounding tolerance of the physical checks: 1e-9 times the largest entry (at least 1).

    Examples
    --------
    >>> inertia_tolerance(np.diag([0.1, 0.2, 0.3]), 5.0)
    5e-09
    """
    scale = 1.0
    if inertia is not None and np.size(inertia):
        scale = max(scale, float(np.abs(inertia).max()))
    if mass is not None:
        scale = max(scale, abs(float(mass)))
    return INERTIA_TOLERANCE * scale


def principal_moments(inertia: ArrayLike) -> np.ndarray:
    """The principal moments of inertia (eigenvalues of the symmetric part), ascending.

    Examples
    --------
    >>> principal_moments([[2, 0, 0], [0, 1, 0], [0, 0, 3]])
    array([1., 2., 3.])
    """
    tensor = np.asarray(inertia, dtype=float)
    return np.linalg.eigvalsh(0.5 * (tensor + tensor.T))


def _moments_text(moments: Iterable[float]) -> str:
    return ", ".join(f"{m + 0.0:.6g}" for m in moments)


def link_inertia_problem(
    mass: float | None, inertia: ArrayLike | None, *, triangle: bool = True
) -> InertiaProblem | None:
    """The first physical impossibility of a link's mass and rotational inertia, or None.

    The one place where robolab decides whether inertial data is physical;
    :class:`robolab.ScrewRobot`, :class:`robolab.DHRobot` (setters and
    ``numeric(values)``), the model-file reader, the URDF reader and
    :func:`robolab.check_plausibility` all ask it. In order:

    1. ``mass``: ``m >= 0`` (zero is allowed: a massless link or a point at a joint);
    2. ``symmetric``: ``|I - Iᵀ|`` at most the tolerance;
    3. ``positive_semidefinite``: no principal moment below ``-tolerance``
       (singular inertias are allowed: a point mass, a thin rod);
    4. ``inertia_triangle`` (with ``triangle=True``): each principal moment
       at most the sum of the other two, as for every rigid body (equality
       for a thin rod or a flat plate).

    The tolerance (:func:`inertia_tolerance`) is 1e-9 times the largest of
    1, ``|m|`` and the entries of ``I``: rounding, not physics.

    Parameters
    ----------
    mass : float or None
        The link's mass in kg (None: not checked).
    inertia : array_like (3, 3) or None
        Its rotational inertia about the centre of mass, kg·m² (None: not checked).
    triangle : bool
        Check the triangle inequality too.

    Examples
    --------
    >>> link_inertia_problem(2.0, np.diag([0.1, 0.1, 0.02])) is None
    True
    >>> link_inertia_problem(1.0, np.diag([0.0, 0.0, 0.35])).found
    'principal moments 0, 0, 0.35 kg·m²: the largest exceeds the sum of the others by 0.35'
    >>> link_inertia_problem(-1.0, None).found
    'm = -1'
    """
    if mass is not None:
        m = float(mass)
        if not m >= 0:
            return InertiaProblem("mass", "non-negative", f"m = {m:g}")
    if inertia is None:
        return None
    tensor = np.asarray(inertia, dtype=float)
    tolerance = inertia_tolerance(tensor, mass)
    asymmetry = float(np.abs(tensor - tensor.T).max())
    if asymmetry > tolerance:
        return InertiaProblem("symmetric", "symmetric", f"max |I - Iᵀ| = {asymmetry:.3g}")
    moments = principal_moments(tensor)
    shown = tuple(float(m) for m in moments)
    if moments[0] < -tolerance:
        return InertiaProblem(
            "positive_semidefinite",
            "positive semi-definite",
            f"principal moments {_moments_text(moments)} kg·m² (indefinite)",
            shown,
        )
    if triangle:
        excess = float(moments[2] - moments[0] - moments[1])
        if excess > tolerance:
            return InertiaProblem(
                "inertia_triangle",
                "a rigid body's inertia (each principal moment at most the sum of the other two)",
                f"principal moments {_moments_text(moments)} kg·m²: the largest exceeds the sum "
                f"of the others by {excess:.3g}",
                shown,
            )
    return None


def check_link_inertia(
    mass: float | None,
    inertia: ArrayLike | None,
    where: str,
    *,
    link: int | None = None,
    triangle: bool = True,
) -> None:
    """Raise ``ValueError`` naming ``where`` if :func:`link_inertia_problem` finds a problem.

    A triangle-inequality failure says how to accept a published
    idealisation explicitly (``plausibility_exceptions``).

    Examples
    --------
    >>> check_link_inertia(1.0, np.diag([0.0, 0.0003, 0.003]), "link 5", link=5)
    Traceback (most recent call last):
    ...
    ValueError: link 5: the rotational inertia must be a rigid body's inertia (each principal
    moment at most the sum of the other two), got principal moments 0, 0.0003, 0.003 kg·m²: the
    largest exceeds the sum of the others by 0.0027. No rigid body has these moments; if they are
    a published idealisation, accept them explicitly with
    plausibility_exceptions=[(5, "inertia_triangle", "why")]
    """
    problem = link_inertia_problem(mass, inertia, triangle=triangle)
    if problem is None:
        return
    subject = "mass" if problem.check == "mass" else "rotational inertia"
    message = f"{where}: the {subject} must be {problem.expected}, got {problem.found}"
    if problem.check == "inertia_triangle":
        message += (
            ". No rigid body has these moments; if they are a published idealisation, accept "
            "them explicitly with plausibility_exceptions="
            f'[({link if link is not None else "link"}, "inertia_triangle", "why")]'
        )
    raise ValueError(message)


# ------------------------------------------------------------ accepted exceptions


#: The checks a :class:`PlausibilityException` may accept (a subset of :data:`INERTIA_CHECKS`;
#: :func:`robolab.check_plausibility` reports them for a robot file).
PLAUSIBILITY_CHECKS = ("mass", "inertia_triangle")


@dataclass(frozen=True)
class PlausibilityException:
    """An accepted failure of a plausibility check, recorded in the file with its reason.

    ``link`` is numbered 1..n as in the textbooks; ``check`` is one of
    :data:`PLAUSIBILITY_CHECKS`.
    """

    link: int
    check: str
    reason: str


def as_plausibility_exceptions(
    value: object, n: int, name: str = "plausibility_exceptions"
) -> tuple[PlausibilityException, ...]:
    """Check and normalise accepted plausibility failures for a robot of ``n`` links.

    The explicit option of :class:`robolab.ScrewRobot` and
    :class:`robolab.DHRobot` that lets a published idealisation through a
    physical check that it breaks (the triangle inequality of the principal
    moments; masses and inertias must always be non-negative and positive
    semi-definite). :func:`robolab.check_plausibility` names every accepted failure.

    Parameters
    ----------
    value : sequence or None
        Each entry a :class:`PlausibilityException`, a mapping with the keys
        ``link``, ``check``, ``reason``, or a tuple ``(link, check, reason)``;
        ``link`` is 1..n, ``check`` one of :data:`PLAUSIBILITY_CHECKS`,
        ``reason`` a non-empty text (the source and why the data is kept).
    n : int
        Number of links.

    Returns
    -------
    tuple of PlausibilityException

    Examples
    --------
    >>> as_plausibility_exceptions([(5, "inertia_triangle", "Paul 1981, as published")], 6)
    (PlausibilityException(link=5, check='inertia_triangle', reason='Paul 1981, as published'),)
    >>> as_plausibility_exceptions([(7, "inertia_triangle", "x")], 6)
    Traceback (most recent call last):
    ...
    ValueError: plausibility_exceptions[0]: link must be a link number 1..6, got 7
    """
    if value is None:
        return ()
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be a sequence of (link, check, reason) entries, "
            f"got {type(value).__name__} {value!r}"
        )
    result = []
    for k, item in enumerate(value):
        where = f"{name}[{k}]"
        if isinstance(item, PlausibilityException):
            link, check, reason = item.link, item.check, item.reason
        elif isinstance(item, Mapping):
            if set(item) != {"link", "check", "reason"}:
                raise ValueError(
                    f"{where}: expected exactly the keys 'link', 'check', 'reason', "
                    f"got {sorted(map(str, item))}"
                )
            link, check, reason = item["link"], item["check"], item["reason"]
        elif isinstance(item, tuple | list) and len(item) == 3:
            link, check, reason = item
        else:
            raise TypeError(
                f"{where} must be a PlausibilityException or a tuple (link, check, reason), "
                f"got {type(item).__name__} {item!r}"
            )
        link = require_int(link, f"{where}: link")
        if not 1 <= link <= n:
            raise ValueError(f"{where}: link must be a link number 1..{n}, got {link}")
        if not isinstance(check, str):
            raise TypeError(f"{where}: check must be a str, got {type(check).__name__} {check!r}")
        if check not in PLAUSIBILITY_CHECKS:
            raise ValueError(
                f"{where}: check must be one of {list(PLAUSIBILITY_CHECKS)}, got {check!r}"
            )
        if not isinstance(reason, str):
            raise TypeError(
                f"{where}: reason must be a str, got {type(reason).__name__} {reason!r}"
            )
        if not reason.strip():
            raise ValueError(f"{where}: reason must say why the data is kept, got an empty text")
        hidden = hidden_character_problem(reason)
        if hidden is not None:
            raise ValueError(
                f"{where}: reason must be text without control or invisible characters, "
                f"got {hidden}"
            )
        result.append(PlausibilityException(link, check, reason))
    return tuple(result)
