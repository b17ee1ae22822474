"""Accepted exceptions to the physical plausibility checks of link inertias.

A published model sometimes breaks a physical rule on purpose (the triangle inequality of
the principal moments, for an idealised link). :class:`robolab.ScrewRobot`,
:class:`robolab.DHRobot` and the robot files accept such a break only when it is named
here, with its reason: a :class:`PlausibilityException`. The checks themselves are
:func:`robolab.spatial.inertia.link_inertia_problem` and
:func:`robolab.check_plausibility`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .arguments import require_int

__all__ = ["PLAUSIBILITY_CHECKS", "PlausibilityException", "as_plausibility_exceptions"]

#: Names of the per-link plausibility checks (see :func:`check_plausibility`).
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
    semi-definite). :func:`check_plausibility` names every accepted failure.

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
        result.append(PlausibilityException(link, check, reason))
    return tuple(result)
