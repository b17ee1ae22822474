"""Newton–Euler and composite rigid bodies as running sums in {s}, and the choice of engine.

The readable algorithms are :func:`~robolab.inverse_dynamics_rnea_steps` (the book's
recursion link by link, whose torques are :func:`~robolab.inverse_dynamics_rnea_textbook`)
and :func:`~robolab.screw.dynamics.mass_matrix.composite_rigid_body_algorithm`. The
public functions :func:`~robolab.inverse_dynamics_rnea`, :func:`~robolab.mass_matrix_crba`
and their relatives check their arguments and call the engines here, which give the same
numbers to rounding, faster:

* :func:`rnea` and :func:`crba`: the same recursions written as running sums in the space
  frame {s}. Every link's twist is a sum of joint contributions, V_k = Σ_{j≤k} S_j(θ) θ̇_j,
  its acceleration likewise, and the torque of joint i balances the wrenches of the links
  beyond it, a sum from the tip; NumPy then handles all links (and a batch of states) at
  once. :func:`rnea_one_state` and :func:`one_state_kinematics` are the same steps for
  one state with fewer NumPy calls;
* :func:`inverse_dynamics`, :func:`mass_matrix` and :func:`mass_matrix_and_inverse_dynamics`
  choose by the size of the batch: one state goes to the straight-line code generated for
  the robot (:mod:`robolab.screw._fast.compiled`), a batch of ``BATCH_THRESHOLD`` states
  or more to the structure-of-arrays kernels of :mod:`robolab.screw._fast.batched`, the
  rest to the running sums;
* :func:`one_state_floats` recognises one state given as float64 arrays, already fit for
  the generated code, so that the public functions skip their slower checks, and
  :func:`one_state_inverse_dynamics` and :func:`one_state_mass_matrix` take it there.

``None`` stands for a zero argument (no velocity, no gravity, ...) throughout.
"""

from __future__ import annotations

from math import isfinite
from typing import Any

import numpy as np

from ..dynamics.model import (
    AD_BASIS,
    DynamicsModel,
    KinematicState,
    ad_of,
    joint_first,
    tip_wrench_space,
)
from ..kinematics.forward import SWAP, running_products_single
from . import batched

__all__: list[str] = []

_FLOAT64 = np.dtype(float)


# --------------------------------------------------------------------------- one state, quickly


def one_state_floats(n: int, *arrays: Any) -> list[float] | None:
    """The entries of float64 arrays of shape (n,), all finite, as one list of floats.

    The fast check of a single state for the generated code; None for anything else
    (lists, other shapes, a batch, NaN or inf), which the caller then checks the usual
    way, with its messages.
    """
    values: list[float] = []
    for array in arrays:
        if type(array) is not np.ndarray or array.dtype is not _FLOAT64 or array.shape != (n,):
            return None
        values += array.tolist()
    return values if isfinite(sum(values)) else None


def one_state_inverse_dynamics(model: DynamicsModel, values: list[float]) -> np.ndarray:
    """τ of one state given as the floats θ, θ̇, θ̈, g (from :func:`one_state_floats`)."""
    torques = model.compiled.call((True, True, True, False), values)
    if torques is None:  # a number overflowed: NumPy's arithmetic says inf or NaN as it did
        n = model.n
        q, qd, qdd = np.array(values[: 3 * n]).reshape(3, n)
        torques = rnea(model, one_state_kinematics(model, q), qd, qdd, np.array(values[3 * n :]))
    return torques


def one_state_mass_matrix(model: DynamicsModel, values: list[float]) -> np.ndarray:
    """M(θ) of one state given as the floats θ (from :func:`one_state_floats`)."""
    M = model.compiled.call(("mass",), values)
    if M is None:  # a number overflowed
        M = crba(model, one_state_kinematics(model, np.array(values)))
    return M


def one_state_kinematics(model: DynamicsModel, q: np.ndarray) -> KinematicState:
    """``KinematicState.at(model, q)`` for one state, q of shape (n,), in fewer NumPy calls."""
    chain = model.chain
    n = chain.n
    basis = np.multiply(q[:, None], chain.trig_scale)
    basis += chain.trig_offset
    np.sin(basis, out=basis)
    if chain.linear_in_theta:
        basis = np.concatenate([basis, q[:, None] * basis[:, :3]], axis=1)
    # Z [Ad_{P_i}] Z: the adjoints in [v; ω] order, whose transposes are the inverses.
    swapped = (basis[:, None, :] @ chain.adjoint_swapped).reshape(n, 6, 6)
    running_products_single(swapped)  # in place, by doubling
    inverse = swapped.transpose(0, 2, 1)  # [Ad_{P_i⁻¹}]
    # S_i(θ) = Z (Z [Ad_{P_i}] Z)(Z S_i)
    axes = (swapped @ model.swapped_axis_columns)[:, SWAP, 0]
    return KinematicState(axes, inverse, (inverse @ axes.T) * model.mask)


def kinematics(model: DynamicsModel, q: np.ndarray) -> KinematicState:
    """The kinematics at θ of shape (..., n), by :func:`one_state_kinematics` for one state."""
    return one_state_kinematics(model, q) if q.ndim == 1 else KinematicState.at(model, q)


# --------------------------------------------------------------------------- the running sums


def _joint_torques(state: KinematicState, link_wrenches: np.ndarray) -> np.ndarray:
    """τ_i = Σ_k jacobians[k][:, i]ᵀ F_k: the torques that balance link wrenches F_k (in {k'})."""
    if state.batch_ndim == 0:
        n = len(link_wrenches)
        return state.jacobians.reshape(6 * n, n).T @ link_wrenches.ravel()
    return np.einsum("k...ai,k...a->...i", state.jacobians, link_wrenches)


def rnea(
    model: DynamicsModel,
    state: KinematicState,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None = None,
) -> np.ndarray:
    """Newton–Euler with running sums; ``None`` stands for zero. Returns τ, shape (..., n).

    Twists and accelerations are summed along the chain in {s}; each link's
    twist V'_k and acceleration A'_k are then written in its frame {k'}, where
    its spatial inertia G'_k is constant, and the wrench it needs,
    F'_k = G'_k A'_k - [ad_{V'_k}]ᵀ G'_k V'_k, is mapped to joint torques by
    the link Jacobians (τ = Σ_k J_kᵀ F'_k, the running sum from the tip).
    """
    if state.batch_ndim == 0 and qd is not None:
        return rnea_one_state(model, state, qd, qdd, gravity, tip_wrench)
    S = state.axes  # (n, ..., 6)
    # A_k in {s}: [0; -g] + Σ_{j≤k} [ad_{V_j}] S_j θ̇_j, plus Σ_{j≤k} S_j θ̈_j (added in {k'}).
    bias = None
    if qd is not None:
        qd_first = joint_first(qd)
        velocities = np.cumsum(S * qd_first, axis=0)  # V_k = Σ_{j≤k} S_j θ̇_j
        ad_velocities = ad_of(velocities)
        bias = np.cumsum((ad_velocities @ S[..., None])[..., 0] * qd_first, axis=0)
    if gravity is not None:
        if bias is None:
            bias = np.zeros(S.shape)
        bias[..., 3:] -= gravity
    link_accelerations = None
    if bias is not None:
        link_accelerations = (state.inverse_adjoints @ bias[..., None])[..., 0]
    if qdd is not None:
        joint_part = state.link_twists(qdd)
        link_accelerations = (
            joint_part if link_accelerations is None else link_accelerations + joint_part
        )
    inertias = model.inertia_shape(state.batch_ndim)
    if qd is not None:
        link_velocities = state.link_twists(qd)
        if link_accelerations is None:
            link_accelerations = np.zeros(link_velocities.shape)
        products = inertias @ np.stack([link_accelerations, link_velocities], axis=-1)
        ad_links = ad_of(link_velocities)
        wrenches = products[..., 0] - (ad_links.swapaxes(-1, -2) @ products[..., 1:])[..., 0]
    elif link_accelerations is not None:
        wrenches = (inertias @ link_accelerations[..., None])[..., 0]
    else:
        wrenches = np.zeros(S.shape)
    torques = _joint_torques(state, wrenches)
    if tip_wrench is not None:
        tip = tip_wrench_space(model, state, tip_wrench)  # (..., 6)
        torques = torques + np.einsum("i...a,...a->...i", S, tip)
    return torques


def rnea_one_state(
    model: DynamicsModel,
    state: KinematicState,
    qd: np.ndarray,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`rnea` for one state with θ̇ given: the same steps, fewer NumPy calls."""
    n = model.n
    S, J = state.axes, state.jacobians
    rates = qd[:, None]
    velocities = np.cumsum(S * rates, axis=0)
    ad_velocities = velocities.dot(AD_BASIS).reshape(n, 6, 6)
    bias = np.cumsum((ad_velocities @ S[:, :, None])[:, :, 0] * rates, axis=0)
    if gravity is not None:
        bias[:, 3:] -= gravity
    # Link accelerations and twists in {k'}, as the two columns of one (n, 6, 2) array.
    carried = (state.inverse_adjoints @ bias[:, :, None])[:, :, 0]
    if qdd is None:
        motion = np.empty((n, 6, 2))
        motion[:, :, 0] = carried
        motion[:, :, 1] = J.dot(qd)
    else:
        motion = J.dot(np.stack([qdd, qd], axis=1))
        motion[:, :, 0] += carried
    link_velocities = motion[:, :, 1]
    products = model.home_inertias @ motion
    ad_links = link_velocities.dot(AD_BASIS).reshape(n, 6, 6)
    wrenches = products[:, :, 0] - (ad_links.transpose(0, 2, 1) @ products[:, :, 1:])[:, :, 0]
    torques = J.reshape(6 * n, n).T.dot(wrenches.ravel())
    if tip_wrench is not None:
        torques += S @ tip_wrench_space(model, state, tip_wrench)
    return torques


def crba(model: DynamicsModel, state: KinematicState) -> np.ndarray:
    """Composite-rigid-body mass matrix M(θ), shape (..., n, n), exactly symmetric.

    M_ij = S_i(θ)ᵀ (Σ_{k ≥ max(i,j)} G_k(θ)) S_j(θ): the composite inertia of
    the links beyond both joints. Written with the link Jacobians in {k'} and
    square roots G'_k = L_kᵀ L_k of the constant link inertias, it is
    M = Σ_k (L_k J_k)ᵀ (L_k J_k): one product HᵀH (symmetric by construction).
    """
    n = model.n
    if state.batch_ndim == 0:
        H = (model.inertia_roots @ state.jacobians).reshape(6 * n, n)
        return H.T.dot(H)  # (ndarray.dot: less overhead than @ for one small product)
    roots = model.inertia_roots.reshape((n,) + (1,) * state.batch_ndim + (6, 6))
    H = roots @ state.jacobians  # (n, ..., 6, n)
    H = np.moveaxis(H, 0, -3)  # (..., n, 6, n)
    H = H.reshape(*H.shape[:-3], 6 * n, n)
    return H.swapaxes(-1, -2) @ H


# --------------------------------------------------------------------------- by batch size


def is_large(q: np.ndarray) -> bool:
    """A batch big enough for the structure-of-arrays kernels of :mod:`.batched`."""
    return q.ndim > 1 and q.size >= batched.BATCH_THRESHOLD * q.shape[-1]


def _flat(values: np.ndarray | None, width: int) -> np.ndarray | None:
    return None if values is None else values.reshape(-1, width)


def _flat_tip(tip_wrench: np.ndarray | None, batch: tuple[int, ...]) -> np.ndarray | None:
    if tip_wrench is None:
        return None
    return np.broadcast_to(tip_wrench, (*batch, 6)).reshape(-1, 6)


def inverse_dynamics(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> np.ndarray:
    """τ for one state or a batch (checked arrays), by the engine that suits the batch size.

    One state goes to the straight-line code generated for the robot
    (:mod:`robolab.screw._fast.compiled`), equal to :func:`rnea` to rounding.
    """
    if q.ndim == 1:
        torques = model.compiled.inverse_dynamics(q, qd, qdd, gravity, tip_wrench)
        if torques is not None:
            return torques
    elif is_large(q):
        return _batched_rnea(model, q, qd, qdd, gravity, tip_wrench)
    return rnea(model, kinematics(model, q), qd, qdd, gravity, tip_wrench)


def _batched_rnea(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
    joints: batched.Joints | None = None,
) -> np.ndarray:
    """:func:`batched.rnea` on a batch of any shape (..., n)."""
    n = model.n
    torques = batched.rnea(
        model.joint_frames,
        q.reshape(-1, n),
        _flat(qd, n),
        _flat(qdd, n),
        gravity,
        _flat_tip(tip_wrench, q.shape[:-1]),
        joints,
    )
    return torques.reshape(q.shape)


def mass_matrix(model: DynamicsModel, q: np.ndarray) -> np.ndarray:
    """M(θ) for one state or a batch, by the engine that suits the batch size."""
    if q.ndim == 1:
        M = model.compiled.mass_matrix(q)
        if M is not None:
            return M
    elif is_large(q):
        n = model.n
        return batched.crba(model.joint_frames, q.reshape(-1, n)).reshape(*q.shape, n)
    return crba(model, kinematics(model, q))


def mass_matrix_and_inverse_dynamics(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """M(θ) and τ(θ, θ̇, θ̈), sharing the kinematics of θ."""
    if q.ndim == 1:
        compiled = model.compiled
        if qd is not None and qdd is not None and gravity is not None and tip_wrench is None:
            both = compiled.mass_matrix_and_inverse_dynamics(q, qd, qdd, gravity)
        else:
            M = compiled.mass_matrix(q)
            torques = compiled.inverse_dynamics(q, qd, qdd, gravity, tip_wrench)
            both = None if M is None or torques is None else (M, torques)
        if both is not None:
            return both
    elif is_large(q):
        n = model.n
        flat_q = q.reshape(-1, n)
        joints = batched.Joints(model.joint_frames, flat_q)  # cos, sin of θ for both
        M = batched.crba(model.joint_frames, flat_q, joints)
        torques = _batched_rnea(model, q, qd, qdd, gravity, tip_wrench, joints)
        return M.reshape(*q.shape, n), torques
    state = kinematics(model, q)
    return crba(model, state), rnea(model, state, qd, qdd, gravity, tip_wrench)


def forward_dynamics_aba(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
    pivot_tolerance: float,
) -> np.ndarray | tuple[int, ...]:
    """θ̈ of a large batch (:func:`is_large`) by the articulated-body algorithm of
    :mod:`.batched`; where M is singular, (batch index..., joint) of the first such state."""
    n = model.n
    qdd, bad = batched.aba(
        model.joint_frames,
        q.reshape(-1, n),
        np.broadcast_to(qd, q.shape).reshape(-1, n),
        np.broadcast_to(tau, q.shape).reshape(-1, n),
        gravity,
        _flat_tip(tip_wrench, q.shape[:-1]),
        pivot_tolerance,
    )
    if bad is not None:
        return _where(bad, q)
    return qdd.reshape(q.shape)


def solve_mass_matrix(
    M: np.ndarray, rhs: np.ndarray, q: np.ndarray, pivot_tolerance: float
) -> np.ndarray | tuple[int, ...]:
    """M⁻¹ rhs for a large batch by the Cholesky factorisation of :mod:`.batched`; where a
    pivot d has d² ≤ ``pivot_tolerance`` max diag(M), (batch index..., joint) instead."""
    n = q.shape[-1]
    solution, bad = batched.cholesky_solve(M.reshape(-1, n, n), rhs.reshape(-1, n), pivot_tolerance)
    if bad is not None:
        return _where(bad, q)
    return solution.reshape(q.shape)


def _where(bad: tuple[int, int], q: np.ndarray) -> tuple[int, ...]:
    """(state in the flat batch, joint) → (batch index..., joint) in the batch of ``q``."""
    index = np.unravel_index(bad[0], q.shape[:-1])
    return (*(int(k) for k in index), int(bad[1]))
