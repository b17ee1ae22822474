"""Dynamics of open chains (Modern Robotics, chapter 8): inverse dynamics and the mass matrix.

The equations of motion of an n-joint open chain are (eq. 8.1, 8.13)

    τ = M(θ) θ̈ + c(θ, θ̇) + g(θ) + J_bᵀ(θ) F_tip,

with M the mass matrix, c the Coriolis and centripetal (velocity-quadratic)
terms, g the gravity torques and F_tip the wrench the end-effector applies to
the environment, written in the end-effector frame {n+1}. The functions here
take the arrays of the book's library: ``link_frames`` M_{i-1,i} (n+1
transforms between centre-of-mass frames, the last to the end-effector),
``spatial_inertias`` G_i (n 6×6 matrices [[I_c, 0], [0, m·1]] in the [ω; v]
ordering) and ``screw_axes`` S_i (6×n, space frame, as columns), in the
book's argument order. The robot-first forms
(``robolab.inverse_dynamics_rnea(robot, q, qd, qdd)``) live in
:mod:`robolab.screw.robot_first`.

Two forms of each algorithm
---------------------------
* :func:`inverse_dynamics_rnea_textbook` is the book's recursive Newton–Euler
  algorithm (section 8.3.2) line by line: twists, accelerations and wrenches
  in the link frames {i}, carried between neighbours by [Ad_{T_{i,i-1}}].
* :func:`inverse_dynamics_rnea` computes the same torques with the
  recursions written as running sums: in the space frame {s} every link's
  twist is a sum of joint contributions, V_i = Σ_{j≤i} S_j(θ) θ̇_j, its
  acceleration likewise, and the torque of joint i balances the wrenches of
  the links beyond it, a sum from the tip. NumPy then handles all links at
  once; only the product of exponentials along the chain is a loop. It
  accepts a batch of states, ``joint_positions`` of shape (..., n); batches of
  48 states or more go to the structure-of-arrays kernel of
  :mod:`robolab.screw.batched` (Featherstone's recursions in joint-aligned
  frames, many states per NumPy call).
* :func:`mass_matrix_crba` is the composite-rigid-body algorithm: with
  G_k(θ) the spatial inertia of link k and Gc_j = Σ_{k≥j} G_k(θ) the inertia
  of links j..n welded together, M_ij = S_i(θ)ᵀ Gc_j S_j(θ) for i ≤ j.
  :func:`mass_matrix_rnea` is the book's way (section 8.2): column i of M is
  the torque needed for a unit acceleration of joint i alone, one
  inverse-dynamics call per column.

Conventions: twists [ω; v], wrenches [m; f], gravity a 3-vector in {s}
(e.g. (0, 0, -9.81)); the base is given the fictitious acceleration -g, so
gravity enters through the accelerations as in the book.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import cached_property
from typing import Any

import numpy as np

from ..spatial.rigid_body_motions import (
    ad_unchecked,
    adjoint_representation_unchecked,
    matrix_exp6_unchecked,
    transform_inv_unchecked,
    vec_to_se3_unchecked,
)
from ..support.checks import as_float_array
from ..support.docstrings import shared_examples
from . import batched
from .kinematics import (
    _SWAP,
    _inverse_adjoints,
    _joint_array,
    _joint_arrays,
    _poses_space,
    _running_products,
    _running_products_single,
    _screw_axes_array,
    _ScrewChain,
)
from .robot import _check_link_frames, _check_spatial_inertias

__all__ = [
    "end_effector_forces",
    "gravity_forces",
    "inverse_dynamics_rnea",
    "inverse_dynamics_rnea_textbook",
    "kinetic_energy",
    "mass_matrix_crba",
    "mass_matrix_rnea",
    "potential_energy",
    "velocity_quadratic_forces",
]


# --------------------------------------------------------------------------- per-robot constants


class _DynamicsModel:
    """Constants of the space-frame algorithms, computed once per robot.

    * ``chain``: the exponentials of the screw axes (see :class:`_ScrewChain`);
    * ``home_inertias[k]``: G'_k, the inertia G_k written in the frame {k'} that
      is attached to link k and coincides with {s} at home,
      [Ad_{M_0k⁻¹}]ᵀ G_k [Ad_{M_0k⁻¹}]; it is constant, whatever θ;
    * ``inertia_roots[k]``: L_k with L_kᵀ L_k = G'_k;
    * ``tip_transpose``: [Ad_{M_0,n+1⁻¹}]ᵀ, which writes a tip wrench given in
      the end-effector frame at home in {s} at home.
    """

    def __init__(
        self, link_frames: np.ndarray, spatial_inertias: np.ndarray, screw_axes: np.ndarray
    ) -> None:
        self.chain = _ScrewChain(screw_axes)
        n = self.n = self.chain.n
        self._arrays = (link_frames, spatial_inertias, screw_axes)
        self.home_poses = _running_products(np.array(link_frames, dtype=float))  # M_0i, i=1..n+1
        inverse_adjoints = adjoint_representation_unchecked(
            transform_inv_unchecked(self.home_poses)
        )
        self.home_inertias = (
            inverse_adjoints[:n].swapaxes(-1, -2) @ spatial_inertias @ inverse_adjoints[:n]
        )
        self.tip_transpose = inverse_adjoints[n].T.copy()
        self.masses = np.array(spatial_inertias[:, 3, 3])
        self.home_centres = self.home_poses[:n, :3, 3].copy()
        # G'_k = L_kᵀ L_k (a symmetric square root; links may be positive semi-definite).
        eigenvalues, eigenvectors = np.linalg.eigh(self.home_inertias)
        roots = eigenvectors * np.sqrt(np.clip(eigenvalues, 0.0, None))[:, None, :]
        self.inertia_roots = roots.swapaxes(-1, -2).copy()
        # Column i of link k's Jacobian is zero for joints i > k.
        self._mask = np.tril(np.ones((n, n)))[:, None, :]
        self.axis_columns = self.chain.screw_axes.T.reshape(n, 6, 1).copy()
        self.swapped_axis_columns = self.axis_columns[:, _SWAP].copy()

    def inertia_shape(self, batch_ndim: int) -> np.ndarray:
        """G'_k shaped (n, 1, ..., 1, 6, 6) to broadcast over ``batch_ndim`` batch axes."""
        return self.home_inertias.reshape((self.n,) + (1,) * batch_ndim + (6, 6))

    def link_mask(self, batch_ndim: int) -> np.ndarray:
        return self._mask.reshape((self.n,) + (1,) * batch_ndim + (1, self.n))

    @cached_property
    def joint_frames(self) -> batched._JointFrameModel:
        """Constants of the kernels for large batches (:mod:`robolab.screw.batched`)."""
        return batched._JointFrameModel(*self._arrays)


_AD_BASIS = ad_unchecked(np.eye(6)).reshape(6, 36)

_MODEL_CACHE: OrderedDict[tuple[bytes, bytes, bytes], _DynamicsModel] = OrderedDict()
_MODEL_CACHE_SIZE = 16


def _dynamics_model(link_frames: Any, spatial_inertias: Any, screw_axes: Any) -> _DynamicsModel:
    """Validate the book's arrays (once per distinct set) and return their constants."""
    try:
        frames = np.asarray(link_frames, dtype=float)
        inertias = np.asarray(spatial_inertias, dtype=float)
        screws = np.asarray(screw_axes, dtype=float)
        key = (frames.tobytes(), inertias.tobytes(), screws.tobytes())
        if frames.ndim != 3 or inertias.ndim != 3 or screws.ndim != 2:
            key = None
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _MODEL_CACHE:
        return _MODEL_CACHE[key]
    # Full validation, with messages naming the link or joint.
    screws = _screw_axes_array(screw_axes)
    n = screws.shape[1]
    frames = _check_link_frames(link_frames, n)
    inertias = _check_spatial_inertias(spatial_inertias, n)
    model = _DynamicsModel(frames, inertias, screws)
    if key is not None:
        _MODEL_CACHE[key] = model
        if len(_MODEL_CACHE) > _MODEL_CACHE_SIZE:
            _MODEL_CACHE.popitem(last=False)
    return model


def _robot_model(robot: Any) -> _DynamicsModel:
    """The :class:`_DynamicsModel` of a :class:`~robolab.ScrewRobot`, cached on the robot."""
    model = robot._cache.get("dynamics")  # the common case, kept cheap
    if model is None:
        model = robot._derived(
            "dynamics",
            lambda: _DynamicsModel(
                robot.link_frames, robot.spatial_inertias, robot.screw_axes_space
            ),
        )
    return model


# --------------------------------------------------------------------------- the kernel


class _State:
    """Kinematic quantities at θ shared by the algorithms (joint axis first).

    ``inverse_adjoints[k]`` = [Ad_{P_k⁻¹}] with P_k = e^{[S_1]θ_1} ⋯ e^{[S_k]θ_k};
    ``axes[i]`` = S_i(θ) = [Ad_{P_i}] S_i, column i of the space Jacobian;
    ``jacobians[k]`` (6×n) maps θ̇ to the twist of link k written in the frame
    {k'} attached to link k that coincides with {s} at home: column i is
    [Ad_{P_k⁻¹}] S_i(θ) for i ≤ k and zero beyond (joints after k do not move link k).
    """

    __slots__ = ("axes", "batch_ndim", "inverse_adjoints", "jacobians")

    def __init__(self, model: _DynamicsModel, q: np.ndarray) -> None:
        chain = model.chain
        n = chain.n
        self.batch_ndim = q.ndim - 1
        if q.ndim == 1:  # one state: the same steps with as few NumPy calls as possible
            basis = np.multiply(q[:, None], chain._trig_scale)
            basis += chain._trig_offset
            np.sin(basis, out=basis)
            if chain.linear_in_theta:
                basis = np.concatenate([basis, q[:, None] * basis[:, :3]], axis=1)
            # Z [Ad_{P_i}] Z: the adjoints in [v; ω] order, whose transposes are the inverses.
            swapped = (basis[:, None, :] @ chain._adjoint_swapped).reshape(n, 6, 6)
            _running_products_single(swapped)  # in place, by doubling
            self.inverse_adjoints = inverse = swapped.transpose(0, 2, 1)  # [Ad_{P_i⁻¹}]
            # S_i(θ) = Z (Z [Ad_{P_i}] Z)(Z S_i)
            self.axes = axes = (swapped @ model.swapped_axis_columns)[:, _SWAP, 0]
            self.jacobians = (inverse @ axes.T) * model._mask
            return
        adjoints = _running_products(chain.adjoint_exponentials(q))
        self.inverse_adjoints = _inverse_adjoints(adjoints)
        columns = chain.screw_axes.T.reshape((n,) + (1,) * self.batch_ndim + (6, 1))
        self.axes = (adjoints @ columns)[..., 0]  # (n, ..., 6)
        jacobian_space = np.moveaxis(self.axes, 0, -1)
        self.jacobians = (self.inverse_adjoints @ jacobian_space) * model.link_mask(q.ndim - 1)


def _joint_first(values: np.ndarray) -> np.ndarray:
    """(..., n) → (n, ..., 1), ready to scale the (n, ..., 6) twists."""
    return values[:, None] if values.ndim == 1 else np.moveaxis(values, -1, 0)[..., None]


def _link_twists(state: _State, joint_values: np.ndarray) -> np.ndarray:
    """Σ_i jacobians[k][:, i] x_i for every link k, shape (n, ..., 6)."""
    return (state.jacobians @ joint_values[..., None])[..., 0]


def _joint_torques(state: _State, link_wrenches: np.ndarray) -> np.ndarray:
    """τ_i = Σ_k jacobians[k][:, i]ᵀ F_k: the torques that balance link wrenches F_k (in {k'})."""
    if state.batch_ndim == 0:
        n = len(link_wrenches)
        return state.jacobians.reshape(6 * n, n).T @ link_wrenches.ravel()
    return np.einsum("k...ai,k...a->...i", state.jacobians, link_wrenches)


def _tip_wrench_space(model: _DynamicsModel, state: _State, tip_wrench: np.ndarray) -> np.ndarray:
    """F_tip (in {n+1}) written in {s}: [Ad_{P_n⁻¹}]ᵀ [Ad_{M_0,n+1⁻¹}]ᵀ F_tip."""
    at_home = tip_wrench @ model.tip_transpose.T
    return (state.inverse_adjoints[-1].swapaxes(-1, -2) @ at_home[..., None])[..., 0]


def _rnea(
    model: _DynamicsModel,
    state: _State,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> np.ndarray:
    """Newton–Euler with running sums; ``None`` stands for zero. Returns τ, shape (..., n).

    Twists and accelerations are summed along the chain in {s}; each link's
    twist V'_k and acceleration A'_k are then written in its frame {k'}, where
    its spatial inertia G'_k is constant, and the wrench it needs,
    F'_k = G'_k A'_k - [ad_{V'_k}]ᵀ G'_k V'_k, is mapped to joint torques by
    the link Jacobians (τ = Σ_k J_kᵀ F'_k, the running sum from the tip).
    """
    if state.batch_ndim == 0 and qd is not None:
        return _rnea_single(model, state, qd, qdd, gravity, tip_wrench)
    S = state.axes  # (n, ..., 6)
    # A_k in {s}: [0; -g] + Σ_{j≤k} [ad_{V_j}] S_j θ̇_j, plus Σ_{j≤k} S_j θ̈_j (added in {k'}).
    bias = None
    if qd is not None:
        qd_first = _joint_first(qd)
        velocities = np.cumsum(S * qd_first, axis=0)  # V_k = Σ_{j≤k} S_j θ̇_j
        ad_velocities = (velocities @ _AD_BASIS).reshape((*velocities.shape, 6))
        bias = np.cumsum((ad_velocities @ S[..., None])[..., 0] * qd_first, axis=0)
    if gravity is not None:
        if bias is None:
            bias = np.zeros(S.shape)
        bias[..., 3:] -= gravity
    link_accelerations = None
    if bias is not None:
        link_accelerations = (state.inverse_adjoints @ bias[..., None])[..., 0]
    if qdd is not None:
        joint_part = _link_twists(state, qdd)
        link_accelerations = (
            joint_part if link_accelerations is None else link_accelerations + joint_part
        )
    inertias = model.inertia_shape(state.batch_ndim)
    if qd is not None:
        link_velocities = _link_twists(state, qd)
        if link_accelerations is None:
            link_accelerations = np.zeros(link_velocities.shape)
        products = inertias @ np.stack([link_accelerations, link_velocities], axis=-1)
        ad_links = (link_velocities @ _AD_BASIS).reshape((*link_velocities.shape, 6))
        wrenches = products[..., 0] - (ad_links.swapaxes(-1, -2) @ products[..., 1:])[..., 0]
    elif link_accelerations is not None:
        wrenches = (inertias @ link_accelerations[..., None])[..., 0]
    else:
        wrenches = np.zeros(S.shape)
    torques = _joint_torques(state, wrenches)
    if tip_wrench is not None:
        tip = _tip_wrench_space(model, state, tip_wrench)  # (..., 6)
        torques = torques + np.einsum("i...a,...a->...i", S, tip)
    return torques


def _rnea_single(
    model: _DynamicsModel,
    state: _State,
    qd: np.ndarray,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> np.ndarray:
    """:func:`_rnea` for one state with θ̇ given: the same steps, fewer NumPy calls."""
    n = model.n
    S, J = state.axes, state.jacobians
    rates = qd[:, None]
    velocities = np.cumsum(S * rates, axis=0)
    ad_velocities = velocities.dot(_AD_BASIS).reshape(n, 6, 6)
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
    ad_links = link_velocities.dot(_AD_BASIS).reshape(n, 6, 6)
    wrenches = products[:, :, 0] - (ad_links.transpose(0, 2, 1) @ products[:, :, 1:])[:, :, 0]
    torques = J.reshape(6 * n, n).T.dot(wrenches.ravel())
    if tip_wrench is not None:
        torques += S @ _tip_wrench_space(model, state, tip_wrench)
    return torques


def _crba(model: _DynamicsModel, state: _State) -> np.ndarray:
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


# --------------------------------------------------------------------------- dispatch


def _is_large(q: np.ndarray) -> bool:
    """A batch big enough for the structure-of-arrays kernels of :mod:`.batched`."""
    return q.ndim > 1 and q.size >= batched.BATCH_THRESHOLD * q.shape[-1]


def _flat(values: np.ndarray | None, width: int) -> np.ndarray | None:
    return None if values is None else values.reshape(-1, width)


def _flat_tip(tip_wrench: np.ndarray | None, batch: tuple[int, ...]) -> np.ndarray | None:
    if tip_wrench is None:
        return None
    return np.broadcast_to(tip_wrench, (*batch, 6)).reshape(-1, 6)


def _inverse_dynamics(
    model: _DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> np.ndarray:
    """τ for one state or a batch, by the kernel that suits the batch size."""
    if _is_large(q):
        n = model.n
        torques = batched.rnea(
            model.joint_frames, q.reshape(-1, n), _flat(qd, n), _flat(qdd, n), gravity,
            _flat_tip(tip_wrench, q.shape[:-1]),
        )  # fmt: skip
        return torques.reshape(q.shape)
    return _rnea(model, _State(model, q), qd, qdd, gravity, tip_wrench)


def _mass_matrix(model: _DynamicsModel, q: np.ndarray) -> np.ndarray:
    """M(θ) for one state or a batch, by the kernel that suits the batch size."""
    if _is_large(q):
        n = model.n
        return batched.crba(model.joint_frames, q.reshape(-1, n)).reshape(*q.shape, n)
    return _crba(model, _State(model, q))


def _mass_matrix_and_inverse_dynamics(
    model: _DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """M(θ) and τ(θ, θ̇, θ̈), sharing the kinematics of θ."""
    if _is_large(q):
        n = model.n
        frames = model.joint_frames
        flat_q = q.reshape(-1, n)
        joints = batched._Joints(frames, flat_q)
        M = batched.crba(frames, flat_q, joints)
        torques = batched.rnea(
            frames, flat_q, _flat(qd, n), _flat(qdd, n), gravity,
            _flat_tip(tip_wrench, q.shape[:-1]), joints,
        )  # fmt: skip
        return M.reshape(*q.shape, n), torques.reshape(q.shape)
    state = _State(model, q)
    return _crba(model, state), _rnea(model, state, qd, qdd, gravity, tip_wrench)


def _kinetic_energy(model: _DynamicsModel, state: _State, qd: np.ndarray) -> np.ndarray:
    velocities = _link_twists(state, qd)  # V'_k in {k'}
    momenta = (model.inertia_shape(state.batch_ndim) @ velocities[..., None])[..., 0]
    return 0.5 * np.einsum("k...a,k...a->...", velocities, momenta)


def _potential_energy(model: _DynamicsModel, q: np.ndarray, gravity: np.ndarray) -> np.ndarray:
    P = _poses_space(model.chain, q)  # (n, ..., 4, 4)
    centres = np.einsum("i...ab,ib->i...a", P[..., :3, :3], model.home_centres) + P[..., :3, 3]
    heights = centres @ gravity  # g · r_ci
    return -np.einsum("i,i...->...", model.masses, heights)


# --------------------------------------------------------------------------- input checks


def _gravity(gravity: Any) -> np.ndarray:
    return as_float_array(gravity, "gravity", (3,))


def _tip(tip_wrench: Any, batch: tuple[int, ...], name: str = "tip_wrench") -> np.ndarray:
    wrench = as_float_array(tip_wrench, name, (6,), batch=True)
    if wrench.ndim > 1 and wrench.shape[:-1] != batch:
        raise ValueError(
            f"{name} must have shape (6,) or {(*batch, 6)} to match joint_positions, "
            f"got {wrench.shape}"
        )
    return wrench


# --------------------------------------------------------------------------- the book's functions


@shared_examples
def inverse_dynamics_rnea(
    joint_positions: Any,
    joint_velocities: Any,
    joint_accelerations: Any,
    gravity: Any,
    tip_wrench: Any,
    link_frames: Any,
    spatial_inertias: Any,
    screw_axes: Any,
) -> np.ndarray:
    """Joint torques τ = M(θ)θ̈ + c(θ, θ̇) + g(θ) + J_bᵀ F_tip, by Newton–Euler in the space frame.

    The book's ``InverseDynamics``. Computed in {s} with running sums (see
    the module notes); :func:`inverse_dynamics_rnea_textbook` is the book's
    link-frame recursion and gives the same numbers.

    Parameters
    ----------
    joint_positions, joint_velocities, joint_accelerations : array_like, shape (n,) or (..., n)
        θ, θ̇, θ̈ (a batch of states gives a batch of torques).
    gravity : array_like, shape (3,)
        Gravitational acceleration in {s}, e.g. (0, 0, -9.8).
    tip_wrench : array_like, shape (6,) or (..., 6)
        F_tip = [m; f] applied by the end-effector, written in frame {n+1}.
    link_frames : sequence of n+1 array_like, shape (4, 4)
        M_{i-1,i}, the pose of centre-of-mass frame {i} in {i-1} at home.
    spatial_inertias : sequence of n array_like, shape (6, 6)
        G_i in frame {i}.
    screw_axes : array_like, shape (6, n)
        S_i in {s} at home, as columns.

    Returns
    -------
    joint_torques : ndarray, shape (n,) or (..., n)

    Examples
    --------
    The book's three-link example (the first three links of the UR5):

    {book_three_link_arrays}
    >>> inverse_dynamics_rnea([0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [2, 1.5, 1], [0, 0, -9.8],
    ...                       [1, 1, 1, 1, 1, 1], link_frames, spatial_inertias, screw_axes)
    array([ 74.69616155, -33.06766016,  -3.23057314])
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    q, qd, qdd = _joint_arrays(
        model.n, joint_positions, joint_velocities=joint_velocities,
        joint_accelerations=joint_accelerations,
    )  # fmt: skip
    return _inverse_dynamics(model, q, qd, qdd, _gravity(gravity), _tip(tip_wrench, q.shape[:-1]))


def inverse_dynamics_rnea_textbook(
    joint_positions: Any,
    joint_velocities: Any,
    joint_accelerations: Any,
    gravity: Any,
    tip_wrench: Any,
    link_frames: Any,
    spatial_inertias: Any,
    screw_axes: Any,
) -> np.ndarray:
    """Joint torques by the book's recursive Newton–Euler algorithm, in the link frames.

    Section 8.3.2 of the book, written to be read next to it (one
    configuration at a time; :func:`inverse_dynamics_rnea` is the fast,
    batched form and agrees to rounding). With M_i = M_01 ⋯ M_{i-1,i} the home
    pose of frame {i}:

    Forward iterations, i = 1..n (V_0 = 0, V̇_0 = [0; -g]):

        A_i = [Ad_{M_i⁻¹}] S_i                              screw axis of joint i in {i}
        T_{i,i-1} = e^{-[A_i]θ_i} M_{i-1,i}⁻¹
        V_i = [Ad_{T_{i,i-1}}] V_{i-1} + A_i θ̇_i
        V̇_i = [Ad_{T_{i,i-1}}] V̇_{i-1} + [ad_{V_i}] A_i θ̇_i + A_i θ̈_i

    Backward iterations, i = n..1 (F_{n+1} = F_tip, T_{n+1,n} = M_{n,n+1}⁻¹):

        F_i = [Ad_{T_{i+1,i}}]ᵀ F_{i+1} + G_i V̇_i - [ad_{V_i}]ᵀ (G_i V_i)
        τ_i = F_iᵀ A_i

    Parameters and returns are those of :func:`inverse_dynamics_rnea` for a
    single state (shape (n,)).

    Examples
    --------
    >>> import numpy as np
    >>> S = [[0], [0], [1], [0], [0], [0]]      # one revolute joint about z
    >>> x = np.eye(4); x[0, 3] = 1.0            # a point mass 1 m out along x
    >>> G = [np.diag([0, 0, 0, 2.0, 2.0, 2.0])]
    >>> inverse_dynamics_rnea_textbook([0.0], [0.0], [3.0], [0, 0, -9.81],
    ...                                np.zeros(6), [x, np.eye(4)], G, S)  # m r² θ̈
    array([6.])
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    n = model.n
    theta = _joint_array(joint_positions, n, "joint_positions", batch=False)
    dtheta = _joint_array(joint_velocities, n, "joint_velocities", batch=False)
    ddtheta = _joint_array(joint_accelerations, n, "joint_accelerations", batch=False)
    g = _gravity(gravity)
    F = as_float_array(tip_wrench, "tip_wrench", (6,)).copy()
    M = np.asarray(link_frames, dtype=float)
    G = np.asarray(spatial_inertias, dtype=float)
    S = np.asarray(screw_axes, dtype=float)

    Mi = np.eye(4)
    A = np.zeros((n, 6))
    AdT = np.zeros((n + 1, 6, 6))
    V = np.zeros((n + 1, 6))
    Vdot = np.zeros((n + 1, 6))
    Vdot[0, 3:] = -g
    AdT[n] = adjoint_representation_unchecked(transform_inv_unchecked(M[n]))
    for i in range(n):
        Mi = Mi @ M[i]
        A[i] = adjoint_representation_unchecked(transform_inv_unchecked(Mi)) @ S[:, i]
        AdT[i] = adjoint_representation_unchecked(
            matrix_exp6_unchecked(vec_to_se3_unchecked(A[i] * -theta[i]))
            @ transform_inv_unchecked(M[i])
        )
        V[i + 1] = AdT[i] @ V[i] + A[i] * dtheta[i]
        Vdot[i + 1] = (
            AdT[i] @ Vdot[i] + A[i] * ddtheta[i] + ad_unchecked(V[i + 1]) @ A[i] * dtheta[i]
        )
    tau = np.zeros(n)
    for i in range(n - 1, -1, -1):
        F = AdT[i + 1].T @ F + G[i] @ Vdot[i + 1] - ad_unchecked(V[i + 1]).T @ (G[i] @ V[i + 1])
        tau[i] = F @ A[i]
    return tau


@shared_examples
def mass_matrix_crba(
    joint_positions: Any, link_frames: Any, spatial_inertias: Any, screw_axes: Any
) -> np.ndarray:
    """Mass matrix M(θ) by the composite-rigid-body algorithm (the book's ``MassMatrix``).

    With G_k(θ) the spatial inertia of link k in {s}, Gc_j = Σ_{k≥j} G_k(θ)
    the composite inertia of links j..n, and S_i(θ) the columns of the space
    Jacobian, M_ij = S_i(θ)ᵀ Gc_j S_j(θ) for i ≤ j, and M is symmetric.

    Educational note: the book builds M with n inverse-dynamics calls, one
    column per unit joint acceleration; that form is :func:`mass_matrix_rnea`
    and agrees with this one to rounding. CRBA needs no velocities or
    accelerations and shares one pass over the chain for all columns.

    Parameters
    ----------
    joint_positions : array_like, shape (n,) or (..., n)
    link_frames, spatial_inertias, screw_axes
        As in :func:`inverse_dynamics_rnea`.

    Returns
    -------
    M : ndarray, shape (n, n) or (..., n, n)
        Symmetric; positive definite unless links without mass or inertia
        leave some joint motion without inertia.

    Examples
    --------
    The book's three-link example (see :func:`inverse_dynamics_rnea` for the arrays):

    {book_three_link_arrays}
    >>> mass_matrix_crba([0.1, 0.1, 0.1], link_frames, spatial_inertias, screw_axes)
    array([[ 2.25433380e+01, -3.07146754e-01, -7.18426391e-03],
           [-3.07146754e-01,  1.96850717e+00,  4.32157368e-01],
           [-7.18426391e-03,  4.32157368e-01,  1.91630858e-01]])
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    q = _joint_array(joint_positions, model.n, "joint_positions")
    return _mass_matrix(model, q)


@shared_examples
def mass_matrix_rnea(
    joint_positions: Any, link_frames: Any, spatial_inertias: Any, screw_axes: Any
) -> np.ndarray:
    """Mass matrix M(θ) the book's way: column i is the torque for θ̈ = e_i (section 8.2).

    Calls :func:`inverse_dynamics_rnea` n times with zero velocity, zero
    gravity, no tip wrench and a unit acceleration of one joint. Slower than
    :func:`mass_matrix_crba` (n Newton–Euler passes instead of one), and
    equal to it to rounding; it shows what a column of M means.

    Parameters and returns as in :func:`mass_matrix_crba`.

    Examples
    --------
    {planar_2r_arrays}
    >>> mass_matrix_rnea([0.0, 0.0], [x, x, np.eye(4)], G, S)  # planar 2R, unit point masses
    array([[5., 2.],
           [2., 1.]])
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    return _mass_matrix_rnea(model, _joint_array(joint_positions, model.n, "joint_positions"))


def _mass_matrix_rnea(model: _DynamicsModel, q: np.ndarray) -> np.ndarray:
    """Column i of M(θ) is τ for θ̈ = e_i with zero velocity, gravity and tip wrench."""
    columns = []
    for i in range(model.n):
        unit_acceleration = np.zeros(q.shape)
        unit_acceleration[..., i] = 1.0
        columns.append(_inverse_dynamics(model, q, None, unit_acceleration, None, None))
    return np.stack(columns, axis=-1)


@shared_examples
def velocity_quadratic_forces(
    joint_positions: Any,
    joint_velocities: Any,
    link_frames: Any,
    spatial_inertias: Any,
    screw_axes: Any,
) -> np.ndarray:
    """Coriolis and centripetal torques c(θ, θ̇) (the book's ``VelQuadraticForces``).

    Inverse dynamics with zero acceleration, zero gravity and no tip wrench;
    c is quadratic in θ̇ (c(θ, kθ̇) = k² c(θ, θ̇)).

    Parameters
    ----------
    joint_positions, joint_velocities : array_like, shape (n,) or (..., n)
    link_frames, spatial_inertias, screw_axes
        As in :func:`inverse_dynamics_rnea`.

    Returns
    -------
    c : ndarray, shape (n,) or (..., n)

    Examples
    --------
    {planar_2r_arrays}
    >>> c = velocity_quadratic_forces([0.0, np.pi / 2], [1.0, 0.0], [x, x, np.eye(4)], G, S)
    >>> c.round(12) + 0.0  # m2 L1 L2 θ̇1² sin θ2 on joint 2 (book, eq. 8.9)
    array([0., 1.])
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    q, qd = _joint_arrays(model.n, joint_positions, joint_velocities=joint_velocities)
    return _inverse_dynamics(model, q, qd, None, None, None)


@shared_examples
def gravity_forces(
    joint_positions: Any, gravity: Any, link_frames: Any, spatial_inertias: Any, screw_axes: Any
) -> np.ndarray:
    """Gravity torques g(θ) that hold the arm still (the book's ``GravityForces``).

    Inverse dynamics with zero velocity and acceleration and no tip wrench;
    g(θ) = ∂P/∂θ with P the potential energy (see :func:`potential_energy`).

    Parameters
    ----------
    joint_positions : array_like, shape (n,) or (..., n)
    gravity : array_like, shape (3,)
    link_frames, spatial_inertias, screw_axes
        As in :func:`inverse_dynamics_rnea`.

    Returns
    -------
    g : ndarray, shape (n,) or (..., n)

    Examples
    --------
    {planar_2r_arrays}
    >>> gravity_forces([0.0, 0.0], [0, -9.81, 0], [x, x, np.eye(4)], G, S)  # arm horizontal
    array([29.43,  9.81])
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    q = _joint_array(joint_positions, model.n, "joint_positions")
    return _inverse_dynamics(model, q, None, None, _gravity(gravity), None)


@shared_examples
def end_effector_forces(
    joint_positions: Any,
    tip_wrench: Any,
    link_frames: Any,
    spatial_inertias: Any,
    screw_axes: Any,
) -> np.ndarray:
    """Joint torques J_bᵀ(θ) F_tip that create the tip wrench alone (``EndEffectorForces``).

    Parameters
    ----------
    joint_positions : array_like, shape (n,) or (..., n)
    tip_wrench : array_like, shape (6,) or (..., 6)
        F_tip = [m; f] applied by the end-effector, in frame {n+1}.
    link_frames, spatial_inertias, screw_axes
        As in :func:`inverse_dynamics_rnea`.

    Returns
    -------
    joint_torques : ndarray, shape (n,) or (..., n)

    Examples
    --------
    {planar_2r_arrays}
    >>> end_effector_forces([0.0, 0.0], [0, 0, 0, 0, 1.0, 0], [x, x, np.eye(4)], G, S)
    array([2., 1.])
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    q = _joint_array(joint_positions, model.n, "joint_positions")
    return _inverse_dynamics(model, q, None, None, None, _tip(tip_wrench, q.shape[:-1]))


@shared_examples
def kinetic_energy(
    joint_positions: Any,
    joint_velocities: Any,
    link_frames: Any,
    spatial_inertias: Any,
    screw_axes: Any,
) -> np.ndarray | float:
    """Kinetic energy K = ½ θ̇ᵀ M(θ) θ̇ = ½ Σ_i V_iᵀ G_i V_i of the links.

    Parameters
    ----------
    joint_positions, joint_velocities : array_like, shape (n,) or (..., n)
    link_frames, spatial_inertias, screw_axes
        As in :func:`inverse_dynamics_rnea`.

    Returns
    -------
    float, or ndarray of shape (...) for a batch

    Examples
    --------
    {planar_2r_arrays}
    >>> kinetic_energy([0.0, 0.0], [1.0, 0.0], [x, x, np.eye(4)], G, S)  # ½ (1·1² + 1·2²)
    2.5
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    q, qd = _joint_arrays(model.n, joint_positions, joint_velocities=joint_velocities)
    energy = _kinetic_energy(model, _State(model, q), qd)
    return float(energy) if energy.ndim == 0 else energy


@shared_examples
def potential_energy(
    joint_positions: Any, gravity: Any, link_frames: Any, spatial_inertias: Any, screw_axes: Any
) -> np.ndarray | float:
    """Potential energy P = -Σ_i m_i gᵀ r_ci of the links in the gravity field.

    r_ci is the position of link i's centre of mass in {s}; the zero of P is
    at the origin of {s} (see ``docs/conventions.md``).

    Parameters
    ----------
    joint_positions : array_like, shape (n,) or (..., n)
    gravity : array_like, shape (3,)
    link_frames, spatial_inertias, screw_axes
        As in :func:`inverse_dynamics_rnea`.

    Returns
    -------
    float, or ndarray of shape (...) for a batch

    Examples
    --------
    {planar_2r_arrays}
    >>> round(potential_energy([np.pi / 2, 0.0], [0, -9.81, 0], [x, x, np.eye(4)], G, S), 12)
    29.43
    """
    model = _dynamics_model(link_frames, spatial_inertias, screw_axes)
    q = _joint_array(joint_positions, model.n, "joint_positions")
    energy = _potential_energy(model, q, _gravity(gravity))
    return float(energy) if energy.ndim == 0 else energy
