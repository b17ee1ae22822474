"""Manipulability (Modern Robotics §5.4; Spong et al. §4.12): how well an arm moves and pushes.

All of it comes from the singular values σ_1 ≥ σ_2 ≥ … ≥ σ_k of a k×n Jacobian (or of
a block of one, e.g. its linear rows): the **velocity ellipsoid** {J θ̇ : ‖θ̇‖ ≤ 1} has
semi-axes σ_i along the left singular vectors u_i, the **force ellipsoid**
{F : ‖Jᵀ F‖ ≤ 1} the same axes with lengths 1/σ_i. The measures by name
(:data:`MANIPULABILITY_MEASURES`), each a single number for "how far from a singularity":

=========================  ==================  =============================================
measure                    value               source
=========================  ==================  =============================================
``"yoshikawa"`` (default)  √det(J Jᵀ) = ∏ σ_i  Yoshikawa 1985; Spong §4.12;
                                               MR §5.4 (μ_3, the ellipsoid's volume factor)
``"condition"``            σ_1 / σ_k ≥ 1       MR §5.4 (μ_1); ∞ at a singularity
``"inverse_condition"``    σ_k / σ_1 ∈ [0, 1]  the isotropy index: 1 isotropic, 0 singular
``"smallest_singular"``    σ_k                 the slowest direction's speed per unit q̇
=========================  ==================  =============================================

With more rows than joints (k > n) σ_k = 0: the arm cannot move in every direction of
the k-dimensional space, so every measure reports a singularity.

Yoshikawa's measure depends on the units and the scale of the arm (it is a volume: a 2R
arm twice as long has 4 times the value); the condition number and its inverse do not.

Examples
--------
The planar 2R arm with links l1, l2 has √det(J Jᵀ) = l1 l2 |sin q2| (Spong §4.12):

>>> import numpy as np
>>> l1, l2, q1, q2 = 1.0, 0.5, 0.3, 1.2
>>> J = [[-l1 * np.sin(q1) - l2 * np.sin(q1 + q2), -l2 * np.sin(q1 + q2)],
...      [l1 * np.cos(q1) + l2 * np.cos(q1 + q2), l2 * np.cos(q1 + q2)]]
>>> bool(np.isclose(manipulability(J), l1 * l2 * abs(np.sin(q2)), atol=1e-12))
True
>>> round(manipulability(np.diag([2.0, 0.5]), measure="condition"), 12)
4.0
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...support.arguments import as_float_array, require_choice, require_int

__all__ = ["MANIPULABILITY_MEASURES", "manipulability", "manipulability_ellipsoid"]

#: The measures :func:`manipulability` knows, by name.
MANIPULABILITY_MEASURES = ("yoshikawa", "condition", "inverse_condition", "smallest_singular")

Measure = Literal["yoshikawa", "condition", "inverse_condition", "smallest_singular"]

#: Singular values below this fraction of the largest count as zero (a singular direction).
SINGULAR_RATIO = 1e-12


def _padded_singular_values(J: NDArray[np.float64]) -> NDArray[np.float64]:
    """The k singular values of each k×n matrix, decreasing, with zeros when k > n."""
    k = J.shape[-2]
    sigma = np.linalg.svd(J, compute_uv=False)
    padded = np.zeros((*J.shape[:-2], k))
    padded[..., : sigma.shape[-1]] = sigma
    return padded


def manipulability(
    jacobian: ArrayLike, measure: Measure = "yoshikawa", rank: int | None = None
) -> NDArray[np.float64] | float:
    """A manipulability measure of a k×n Jacobian (or a block of one), by name.

    The default is Yoshikawa's √det(J Jᵀ), the product of the singular
    values of J: the volume factor of the velocity ellipsoid, zero at a
    singularity (and whenever k > n). Use the block that matters: all of
    J_b, its angular rows ``J[:3]`` (Modern Robotics' [ω; v]) or its linear
    rows ``J[3:]`` (``DHRobot.J[:3]`` in the [v; ω] rows of the DH world).

    Parameters
    ----------
    jacobian : array_like, shape (k, n) or (..., k, n)
    measure : {"yoshikawa", "condition", "inverse_condition", "smallest_singular"}
        ``"yoshikawa"``: √det(J Jᵀ) = σ_1 ⋯ σ_k (Yoshikawa 1985; Spong §4.12);
        ``"condition"``: σ_1/σ_k (MR §5.4's μ_1), ``inf`` where σ_k is below
        1e-12 σ_1; ``"inverse_condition"``: σ_k/σ_1, 0 for a zero matrix;
        ``"smallest_singular"``: σ_k.
    rank : int, optional
        Use only the ``rank`` largest singular values σ_1 … σ_r (default
        all k): the rank of the Jacobian at generic configurations, when some
        of its rows can never be reached, e.g. ``rank=2`` for the three
        linear rows of a planar arm (its hand never moves along z).

    Returns
    -------
    float, or ndarray of shape (...) for a batch

    Raises
    ------
    TypeError, ValueError
        For a Jacobian that is not a finite real array of at least two
        dimensions, or an unknown measure.

    Examples
    --------
    A planar 2R arm with unit links has linear Jacobian block
    [[-sin θ1 - sin(θ1+θ2), -sin(θ1+θ2)], [cos θ1 + cos(θ1+θ2), cos(θ1+θ2)]],
    whose determinant is sin θ2:

    >>> import numpy as np
    >>> t1, t2 = 0.3, np.pi / 2
    >>> J = [[-np.sin(t1) - np.sin(t1 + t2), -np.sin(t1 + t2)],
    ...      [np.cos(t1) + np.cos(t1 + t2), np.cos(t1 + t2)]]
    >>> round(manipulability(J), 12)
    1.0
    >>> round(manipulability([[1.0, 1.0], [0.0, 0.0]]), 12)  # stretched out: singular
    0.0

    The other measures of the same Jacobian:

    >>> for name in ("condition", "inverse_condition", "smallest_singular"):
    ...     print(name, round(manipulability(J, measure=name), 6))
    condition 2.618034
    inverse_condition 0.381966
    smallest_singular 0.618034
    >>> manipulability([[1.0, 1.0], [0.0, 0.0]], measure="condition")
    inf

    A planar arm's three linear rows: z never moves, so only two count:

    >>> J3 = np.vstack([J, np.zeros((1, 2))])
    >>> manipulability(J3), round(manipulability(J3, rank=2), 12)
    (0.0, 1.0)
    >>> manipulability(J, measure="volume")
    Traceback (most recent call last):
    ...
    ValueError: measure must be one of ['yoshikawa', 'condition', 'inverse_condition', \
'smallest_singular'], got 'volume'
    """
    require_choice(measure, "measure", MANIPULABILITY_MEASURES)
    J = as_float_array(jacobian, "jacobian", (None, None), batch=True)
    sigma = _padded_singular_values(J)
    if rank is not None:
        k = J.shape[-2]
        rank = require_int(rank, "rank")
        if not 1 <= rank <= k:
            raise ValueError(f"rank must be 1..{k} (the Jacobian's rows), got {rank}")
        sigma = sigma[..., :rank]
    largest, smallest = sigma[..., 0], sigma[..., -1]
    if measure == "yoshikawa":
        value = np.prod(sigma, axis=-1)
    elif measure == "smallest_singular":
        value = smallest
    else:
        singular = smallest <= SINGULAR_RATIO * largest
        with np.errstate(divide="ignore", invalid="ignore"):
            if measure == "condition":
                value = np.where(singular, np.inf, largest / np.where(singular, 1.0, smallest))
            else:
                value = np.where(
                    largest > 0.0, smallest / np.where(largest > 0.0, largest, 1.0), 0.0
                )
    value = np.asarray(value, dtype=float)
    return float(value) if value.ndim == 0 else value


def manipulability_ellipsoid(
    jacobian: ArrayLike, kind: Literal["velocity", "force"] = "velocity"
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Principal semi-axes of the velocity or force manipulability ellipsoid of a k×n Jacobian.

    The **velocity** ellipsoid {J θ̇ : ‖θ̇‖ ≤ 1} is the set of (end-effector)
    velocities reachable with unit joint speed; its semi-axes point along the
    left singular vectors u_i of J and have lengths σ_i (√ of the eigenvalues
    of J Jᵀ). The **force** ellipsoid {F : ‖Jᵀ F‖ ≤ 1} is the set of wrenches
    (or forces) producible with unit joint torque; same axes, lengths 1/σ_i.
    Velocity and force are dual: the arm moves fast where it pushes weakly
    (Modern Robotics §5.4; Spong et al. §4.12).

    For a 3D drawing at the end-effector use the linear block of the
    Jacobian written in the frame you draw in, e.g. ``R_sb @ J_b[3:]`` for
    the velocity of the end-effector origin expressed in the space frame.

    Parameters
    ----------
    jacobian : array_like, shape (k, n) or (..., k, n)
    kind : {"velocity", "force"}

    Returns
    -------
    radii : ndarray, shape (k,) or (..., k)
        Semi-axis lengths. Velocity radii are the singular values in
        decreasing order (0 in singular directions); force radii are their
        reciprocals in the same order (``inf`` in singular directions, where
        the arm can resist any force without torque).
    axes : ndarray, shape (k, k) or (..., k, k)
        Unit directions as columns: ``axes[..., :, i]`` goes with ``radii[..., i]``.

    Examples
    --------
    >>> import numpy as np
    >>> J = np.diag([2.0, 0.5])
    >>> radii, axes = manipulability_ellipsoid(J)
    >>> radii
    array([2. , 0.5])
    >>> np.abs(axes)
    array([[1., 0.],
           [0., 1.]])
    >>> manipulability_ellipsoid(J, kind="force")[0]
    array([0.5, 2. ])
    """
    if kind not in ("velocity", "force"):
        raise ValueError(f"kind must be 'velocity' or 'force', got {kind!r}")
    J = as_float_array(jacobian, "jacobian", (None, None), batch=True)
    U, sigma, _ = np.linalg.svd(J, full_matrices=True)
    radii = np.zeros((*J.shape[:-2], J.shape[-2]))
    radii[..., : sigma.shape[-1]] = sigma
    if kind == "force":
        largest = radii.max(axis=-1, keepdims=True)
        singular = radii <= SINGULAR_RATIO * largest
        with np.errstate(divide="ignore"):
            radii = np.where(singular, np.inf, 1.0 / np.where(singular, 1.0, radii))
    return radii, U
