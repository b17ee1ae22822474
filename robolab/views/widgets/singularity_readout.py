"""How far an arm is from a singularity, and what it loses there, in words.

The teach pendant watches two Jacobians at the configuration shown: the whole ``J``
(moving and turning the end-effector) and its linear part (moving the end-effector
origin, base frame), each with ``r`` its rank at generic configurations. Both come
from one :class:`robolab.views.drawing.drawable.Decomposition` (one SVD per configuration).

Examples
--------
>>> import numpy as np
>>> from robolab.views.drawing.drawable import decompose
>>> J = np.vstack([np.diag([1.0, 0.5]), np.zeros((4, 2))])
>>> d = decompose(J, J[:3])
>>> singularity_margin(d, (2, 2))
(0.5, 'J')
>>> print(singularity_sentence(d, (2, 2), 0.5, "J", 0.9, "{0}"))
Near a singularity: the arm can hardly move or turn its end-effector in some direction; \
the joint velocity q̇ ∝ (0.00, 1.00) gives it almost none (σ_r/σ_1 of J = 0.5 < 0.9).
"""

from __future__ import annotations

import html
import re

import numpy as np

from ..drawing.drawable import ROUND_OFF_RATIO, Decomposition

__all__ = ["margin_html", "regular_sentence", "singularity_margin", "singularity_sentence"]

LINEAR = "the linear part of J"


def clean_number(value: float, decimals: int) -> float:
    """Round for display, without a negative zero."""
    return float(np.round(value, decimals)) + 0.0


def format_vector(values: np.ndarray, decimals: int) -> str:
    return "(" + ", ".join(f"{clean_number(v, decimals):.{decimals}f}" for v in values) + ")"


def _unbroken_numbers(text: str) -> str:
    """HTML in which a number such as ``1e-12`` is never broken across lines at its hyphen."""
    return re.sub(r"\d+(?:\.\d+)?e-\d+", r'<span style="white-space:nowrap">\g<0></span>', text)


def _ratio_text(ratio: float) -> str:
    """A ratio of singular values as shown: ``< 1e-12`` (round-off) or ``= 0.0042``.

    Below round-off the digits vary between machines, so they are not shown (as
    :func:`robolab.compare_models` shows differences).
    """
    if ratio < ROUND_OFF_RATIO:
        return f"< {ROUND_OFF_RATIO:.0e}"
    return f"= {ratio:.2g}"


def _direction(vector: np.ndarray) -> np.ndarray:
    """A singular vector (its sign is arbitrary) with its first entry that is not 0 positive."""
    significant = np.flatnonzero(np.abs(vector) > 1e-9)
    return -vector if significant.size and vector[significant[0]] < 0 else vector


def _watched(
    decomposition: Decomposition, ranks: tuple[int, int], which: str
) -> tuple[np.ndarray, np.ndarray, int]:
    """Singular values, right singular vectors (rows) and generic rank of ``which``."""
    full_rank, linear_rank = ranks
    if which == "J":
        return decomposition.jacobian_sigma, decomposition.jacobian_vt, full_rank
    return decomposition.linear_sigma, decomposition.linear_vt, linear_rank


def singularity_margin(decomposition: Decomposition, ranks: tuple[int, int]) -> tuple[float, str]:
    """The smallest ratio ``σ_r / σ_1`` of the two watched Jacobians, and which one it is.

    Parameters
    ----------
    decomposition : Decomposition
        Of ``J`` and its linear part at one configuration.
    ranks : (int, int)
        Ranks of ``J`` and of its linear part at generic configurations.

    Returns
    -------
    margin : float
        0 at a singularity.
    which : str
        ``"J"`` or ``"the linear part of J"``.
    """
    margins = []
    for name in (LINEAR, "J"):
        sigma, _, rank = _watched(decomposition, ranks, name)
        ratio = float(sigma[rank - 1] / sigma[0]) if rank > 0 and sigma[0] > 0 else 0.0
        margins.append((ratio, name))
    return min(margins)


def margin_html(sentence: str, near: bool = False) -> str:
    """The pendant's singularity line as HTML: a red warning (``near``) or a grey remark.

    Examples
    --------
    >>> line = margin_html("At a singularity (σ_r/σ_1 of J < 1e-12).", near=True)
    >>> line.endswith('<span style="white-space:nowrap">1e-12</span>).</b></div>')
    True
    """
    if near:
        return (
            '<div class="robolab-singular" style="color:#B00020;line-height:1.35"><b>⚠ '
            f"{_unbroken_numbers(html.escape(sentence))}</b></div>"
        )
    style = "color:#555;line-height:1.35"
    return f'<div class="robolab-regular" style="{style}">{html.escape(sentence)}</div>'


def regular_sentence(margin: float, which: str, threshold: float) -> str:
    """The pendant's line away from singularities: the margin, and what the number means.

    Examples
    --------
    >>> print(regular_sentence(0.0432, "J", 0.01))
    Away from singularities: σ_r/σ_1 of J = 0.043 (smallest singular value over the \
largest; 0 at a singularity, a warning below 0.01).
    """
    return (
        f"Away from singularities: σ_r/σ_1 of {which} {_ratio_text(margin)} "
        f"(smallest singular value over the largest; 0 at a singularity, "
        f"a warning below {threshold:g})."
    )


def singularity_sentence(
    decomposition: Decomposition,
    ranks: tuple[int, int],
    margin: float,
    which: str,
    threshold: float,
    base: str,
) -> str:
    """What is lost at (σ_r/σ_1 below round-off) or near a singularity, in words.

    From the singular value decomposition ``A = U Σ Vᵀ`` of the watched
    Jacobian ``A`` (rank ``r`` at generic configurations): the last
    column of ``V`` that counts, ``v_r``, is the joint velocity that moves
    the end-effector least (not at all at the singularity); it is shown
    when it is the only such direction (as many joints as ``r``, one
    small singular value). For the linear part of a Jacobian of rank 3,
    ``u_r`` is the direction the end-effector origin cannot move along
    (in the frame named ``base``). ``margin`` and ``which`` are those of
    :func:`singularity_margin`; ``threshold`` the ratio below which the arm
    counts as near a singularity.
    """
    at = margin < ROUND_OFF_RATIO
    linear = which != "J"
    sigma, vt, rank = _watched(decomposition, ranks, which)
    rows, columns = (3 if linear else 6), vt.shape[0]
    alone = rank < 2 or sigma[rank - 2] >= threshold * sigma[0]
    cannot = "cannot" if at else "can hardly"
    if linear and alone and rank == rows:
        direction = format_vector(_direction(decomposition.linear_u[:, rank - 1]), 2)
        lost = f"the arm {cannot} move its end-effector origin along ±{direction} in {base}"
    elif linear:
        lost = f"the arm {cannot} move its end-effector origin in some direction"
    else:
        lost = f"the arm {cannot} move or turn its end-effector in some direction"
    if alone and rank == columns:
        joints = format_vector(_direction(vt[rank - 1]), 2)
        velocity = "no velocity" if at else "almost none"
        lost += f"; the joint velocity q̇ ∝ {joints} gives it {velocity}"
    number = f"σ_r/σ_1 of {which} {_ratio_text(margin)}"
    if at:
        return f"At a singularity: {lost} ({number}, zero up to round-off)."
    return f"Near a singularity: {lost} ({number} < {threshold:g})."
