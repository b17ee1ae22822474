"""The space-frame kernel of the dynamics algorithms: per-robot constants, RNEA and CRBA.

:mod:`robolab.screw.dynamics.rnea`, :mod:`~robolab.screw.dynamics.forward`,
:mod:`~robolab.screw.simulation.dynamics_trajectory` and :mod:`~robolab.screw.control.laws`
check their arguments and call the kernels here, which take checked arrays:

* :class:`DynamicsModel`: the constants of one robot (its screw-axis chain, the link
  inertias written in frames that coincide with {s} at home), computed once per robot
  (cached on a :class:`~robolab.ScrewRobot`, or by the bytes of the book's arrays);
* :class:`KinematicState`: the kinematics at θ shared by the algorithms;
* :func:`_rnea` (Newton–Euler with running sums in {s}) and :func:`_crba`
  (composite-rigid-body mass matrix), and :func:`inverse_dynamics_kernel`,
  :func:`mass_matrix_kernel` choosing between them and the structure-of-arrays kernels of
  :mod:`robolab.screw._fast.batched` by batch size.

Conventions as in :mod:`robolab.screw.dynamics.rnea`: twists [ω; v], wrenches [m; f],
gravity a 3-vector in {s} entering as the base's fictitious acceleration -g.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import cached_property
from math import isfinite
from typing import Any

import numpy as np

from ...spatial.rigid_body_motions import (
    ad_unchecked,
    adjoint_representation_unchecked,
    transform_inv_unchecked,
)
from ...support.arguments import as_float_array
from .._fast import batched
from .._fast.compiled import CompiledDynamics
from ..book_form import BookArrays
from ..kinematics.forward import (
    SWAP,
    ScrewChain,
    inverse_adjoints_of,
    poses_space,
    running_products,
    running_products_single,
    screw_axes_array,
    space_chain,
)
from ..robot import ScrewRobot, check_link_frames, check_spatial_inertias

__all__: list[str] = []


# --------------------------------------------------------------------------- per-robot constants


class DynamicsModel:
    """Constants of the space-frame algorithms, computed once per robot.

    * ``chain``: the exponentials of the screw axes (see :class:`ScrewChain`);
    * ``home_inertias[k]``: G'_k, the inertia G_k written in the frame {k'} that
      is attached to link k and coincides with {s} at home,
      [Ad_{M_0k⁻¹}]ᵀ G_k [Ad_{M_0k⁻¹}]; it is constant, whatever θ;
    * ``inertia_roots[k]``: L_k with L_kᵀ L_k = G'_k;
    * ``tip_transpose``: [Ad_{M_0,n+1⁻¹}]ᵀ, which writes a tip wrench given in
      the end-effector frame at home in {s} at home.
    """

    def __init__(
        self,
        link_frames: np.ndarray,
        spatial_inertias: np.ndarray,
        screw_axes: np.ndarray,
        chain: ScrewChain | None = None,
    ) -> None:
        self.chain = ScrewChain(screw_axes) if chain is None else chain
        n = self.n = self.chain.n
        self.arrays = (link_frames, spatial_inertias, screw_axes)  # as checked
        self.home_poses = running_products(np.array(link_frames, dtype=float))  # M_0i, i=1..n+1
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
        self.swapped_axis_columns = self.axis_columns[:, SWAP].copy()

    def inertia_shape(self, batch_ndim: int) -> np.ndarray:
        """G'_k shaped (n, 1, ..., 1, 6, 6) to broadcast over ``batch_ndim`` batch axes."""
        return self.home_inertias.reshape((self.n,) + (1,) * batch_ndim + (6, 6))

    def link_mask(self, batch_ndim: int) -> np.ndarray:
        return self._mask.reshape((self.n,) + (1,) * batch_ndim + (1, self.n))

    @cached_property
    def compiled(self) -> CompiledDynamics:
        """Straight-line Python for one state (:mod:`robolab.screw._fast.compiled`).

        Shared by every model of the same numbers (:func:`_compiled_dynamics`): chapter 13's
        widget builds the true arm afresh at every slider step, and writing its code again
        would cost more than the step's simulation of a small arm.
        """
        return _compiled_dynamics(*self.arrays)

    @cached_property
    def joint_frames(self) -> batched._JointFrameModel:
        """Constants of the kernels for large batches (:mod:`robolab.screw._fast.batched`)."""
        return batched._JointFrameModel(*self.arrays)


AD_BASIS = ad_unchecked(np.eye(6)).reshape(6, 36)

#: Up to this many robots' constants and generated code are kept, keyed by their numbers.
_CACHE_SIZE = 16
_COMPILED_CACHE: OrderedDict[tuple[bytes, ...], CompiledDynamics] = OrderedDict()


def _kept(cache: OrderedDict, key: tuple[bytes, ...], make: Any) -> Any:
    """``cache[key]``, made by ``make()`` when missing; the least recently used entries go."""
    value = cache.get(key)
    if value is None:
        value = cache[key] = make()
        if len(cache) > _CACHE_SIZE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return value


def _compiled_dynamics(
    link_frames: np.ndarray, spatial_inertias: np.ndarray, screw_axes: np.ndarray
) -> CompiledDynamics:
    """The generated one-state dynamics of these (checked) arrays, kept for the last 16 robots.

    Keyed by the arrays' bytes: two robots with the same numbers share their generated
    functions, whatever objects hold them.
    """
    arrays = [
        np.ascontiguousarray(a, dtype=float) for a in (link_frames, spatial_inertias, screw_axes)
    ]
    key = tuple(a.tobytes() for a in arrays)
    return _kept(_COMPILED_CACHE, key, lambda: CompiledDynamics(*arrays))


_MODEL_CACHE: OrderedDict[tuple[bytes, ...], DynamicsModel] = OrderedDict()


def dynamics_model(link_frames: Any, spatial_inertias: Any, screw_axes: Any) -> DynamicsModel:
    """Validate the book's arrays (once per distinct set) and return their constants."""
    key: tuple[bytes, bytes, bytes] | None
    try:
        frames = np.asarray(link_frames, dtype=float)
        inertias = np.asarray(spatial_inertias, dtype=float)
        screws = np.asarray(screw_axes, dtype=float)
        key = (frames.tobytes(), inertias.tobytes(), screws.tobytes())
        if frames.ndim != 3 or inertias.ndim != 3 or screws.ndim != 2:
            key = None
    except (TypeError, ValueError):
        key = None

    def make() -> DynamicsModel:  # full validation, with messages naming the link or joint
        screws = screw_axes_array(screw_axes)
        n = screws.shape[1]
        frames = check_link_frames(link_frames, n)
        inertias = check_spatial_inertias(spatial_inertias, n)
        return DynamicsModel(frames, inertias, screws)

    return make() if key is None else _kept(_MODEL_CACHE, key, make)


def _robot_model(robot: Any) -> DynamicsModel:
    """The :class:`DynamicsModel` of a :class:`~robolab.ScrewRobot`, cached on the robot."""
    model = robot._cache.get("dynamics")  # the common case, kept cheap
    if model is None:
        model = robot._derived(
            "dynamics",
            lambda: DynamicsModel(
                robot.link_frames,
                robot.spatial_inertias,
                robot.screw_axes_space,
                space_chain(robot),  # the kinematics' chain of the same robot
            ),
        )
    return model


# --------------------------------------------------------------------------- the kernel


class KinematicState:
    """Kinematic quantities at θ shared by the algorithms (joint axis first).

    ``inverse_adjoints[k]`` = [Ad_{P_k⁻¹}] with P_k = e^{[S_1]θ_1} ⋯ e^{[S_k]θ_k};
    ``axes[i]`` = S_i(θ) = [Ad_{P_i}] S_i, column i of the space Jacobian;
    ``jacobians[k]`` (6×n) maps θ̇ to the twist of link k written in the frame
    {k'} attached to link k that coincides with {s} at home: column i is
    [Ad_{P_k⁻¹}] S_i(θ) for i ≤ k and zero beyond (joints after k do not move link k).
    """

    __slots__ = ("axes", "batch_ndim", "inverse_adjoints", "jacobians")

    def __init__(self, model: DynamicsModel, q: np.ndarray) -> None:
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
            running_products_single(swapped)  # in place, by doubling
            self.inverse_adjoints = inverse = swapped.transpose(0, 2, 1)  # [Ad_{P_i⁻¹}]
            # S_i(θ) = Z (Z [Ad_{P_i}] Z)(Z S_i)
            self.axes = axes = (swapped @ model.swapped_axis_columns)[:, SWAP, 0]
            self.jacobians = (inverse @ axes.T) * model._mask
            return
        adjoints = running_products(chain.adjoint_exponentials(q))
        self.inverse_adjoints = inverse_adjoints_of(adjoints)
        columns = chain.screw_axes.T.reshape((n,) + (1,) * self.batch_ndim + (6, 1))
        self.axes = (adjoints @ columns)[..., 0]  # (n, ..., 6)
        jacobian_space = np.moveaxis(self.axes, 0, -1)
        self.jacobians = (self.inverse_adjoints @ jacobian_space) * model.link_mask(q.ndim - 1)


def joint_first(values: np.ndarray) -> np.ndarray:
    """(..., n) → (n, ..., 1), ready to scale the (n, ..., 6) twists."""
    return values[:, None] if values.ndim == 1 else np.moveaxis(values, -1, 0)[..., None]


def _link_twists(state: KinematicState, joint_values: np.ndarray) -> np.ndarray:
    """Σ_i jacobians[k][:, i] x_i for every link k, shape (n, ..., 6)."""
    return (state.jacobians @ joint_values[..., None])[..., 0]


def _joint_torques(state: KinematicState, link_wrenches: np.ndarray) -> np.ndarray:
    """τ_i = Σ_k jacobians[k][:, i]ᵀ F_k: the torques that balance link wrenches F_k (in {k'})."""
    if state.batch_ndim == 0:
        n = len(link_wrenches)
        return state.jacobians.reshape(6 * n, n).T @ link_wrenches.ravel()
    return np.einsum("k...ai,k...a->...i", state.jacobians, link_wrenches)


def tip_wrench_space(
    model: DynamicsModel, state: KinematicState, tip_wrench: np.ndarray
) -> np.ndarray:
    """F_tip (in {n+1}) written in {s}: [Ad_{P_n⁻¹}]ᵀ [Ad_{M_0,n+1⁻¹}]ᵀ F_tip."""
    at_home = tip_wrench @ model.tip_transpose.T
    return (state.inverse_adjoints[-1].swapaxes(-1, -2) @ at_home[..., None])[..., 0]


def _rnea(
    model: DynamicsModel,
    state: KinematicState,
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
        qd_first = joint_first(qd)
        velocities = np.cumsum(S * qd_first, axis=0)  # V_k = Σ_{j≤k} S_j θ̇_j
        ad_velocities = (velocities @ AD_BASIS).reshape((*velocities.shape, 6))
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
        ad_links = (link_velocities @ AD_BASIS).reshape((*link_velocities.shape, 6))
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


def _rnea_single(
    model: DynamicsModel,
    state: KinematicState,
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


def _crba(model: DynamicsModel, state: KinematicState) -> np.ndarray:
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


def is_large(q: np.ndarray) -> bool:
    """A batch big enough for the structure-of-arrays kernels of :mod:`.batched`."""
    return q.ndim > 1 and q.size >= batched.BATCH_THRESHOLD * q.shape[-1]


def _flat(values: np.ndarray | None, width: int) -> np.ndarray | None:
    return None if values is None else values.reshape(-1, width)


def flat_tip(tip_wrench: np.ndarray | None, batch: tuple[int, ...]) -> np.ndarray | None:
    if tip_wrench is None:
        return None
    return np.broadcast_to(tip_wrench, (*batch, 6)).reshape(-1, 6)


def inverse_dynamics_kernel(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> np.ndarray:
    """τ for one state or a batch, by the kernel that suits the batch size.

    One state goes to the straight-line code generated for the robot
    (:mod:`robolab.screw._fast.compiled`), equal to :func:`_rnea` to rounding.
    """
    if q.ndim == 1:
        torques = model.compiled.inverse_dynamics(q, qd, qdd, gravity, tip_wrench)
        if torques is not None:
            return torques
    elif is_large(q):
        n = model.n
        torques = batched.rnea(
            model.joint_frames, q.reshape(-1, n), _flat(qd, n), _flat(qdd, n), gravity,
            flat_tip(tip_wrench, q.shape[:-1]),
        )  # fmt: skip
        return torques.reshape(q.shape)
    return _rnea(model, KinematicState(model, q), qd, qdd, gravity, tip_wrench)


def mass_matrix_kernel(model: DynamicsModel, q: np.ndarray) -> np.ndarray:
    """M(θ) for one state or a batch, by the kernel that suits the batch size."""
    if q.ndim == 1:
        M = model.compiled.mass_matrix(q)
        if M is not None:
            return M
    elif is_large(q):
        n = model.n
        return batched.crba(model.joint_frames, q.reshape(-1, n)).reshape(*q.shape, n)
    return _crba(model, KinematicState(model, q))


def mass_matrix_and_inverse_dynamics_kernel(
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
        frames = model.joint_frames
        flat_q = q.reshape(-1, n)
        joints = batched._Joints(frames, flat_q)
        M = batched.crba(frames, flat_q, joints)
        torques = batched.rnea(
            frames, flat_q, _flat(qd, n), _flat(qdd, n), gravity,
            flat_tip(tip_wrench, q.shape[:-1]), joints,
        )  # fmt: skip
        return M.reshape(*q.shape, n), torques.reshape(q.shape)
    state = KinematicState(model, q)
    return _crba(model, state), _rnea(model, state, qd, qdd, gravity, tip_wrench)


def kinetic_energy_kernel(
    model: DynamicsModel, state: KinematicState, qd: np.ndarray
) -> np.ndarray:
    velocities = _link_twists(state, qd)  # V'_k in {k'}
    momenta = (model.inertia_shape(state.batch_ndim) @ velocities[..., None])[..., 0]
    return 0.5 * np.einsum("k...a,k...a->...", velocities, momenta)


def potential_energy_kernel(model: DynamicsModel, q: np.ndarray, gravity: np.ndarray) -> np.ndarray:
    P = poses_space(model.chain, q)  # (n, ..., 4, 4)
    centres = np.einsum("i...ab,ib->i...a", P[..., :3, :3], model.home_centres) + P[..., :3, 3]
    heights = centres @ gravity  # g · r_ci
    return -np.einsum("i,i...->...", model.masses, heights)


# --------------------------------------------------------------------------- input checks

_FLOAT64 = np.dtype(float)


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


def _gravity(gravity: Any) -> np.ndarray:
    return as_float_array(gravity, "gravity", (3,))


def tip_wrench_array(
    tip_wrench: Any, batch: tuple[int, ...], name: str = "tip_wrench"
) -> np.ndarray:
    wrench = as_float_array(tip_wrench, name, (6,), batch=True)
    if wrench.ndim > 1 and wrench.shape[:-1] != batch:
        raise ValueError(
            f"{name} must have shape (6,) or {(*batch, 6)} to match joint_positions, "
            f"got {wrench.shape}"
        )
    return wrench


# --------------------------------------------------------------------------- robot or arrays


def model_of(robot: ScrewRobot | BookArrays, name: str = "robot") -> DynamicsModel:
    """The constants of a robot (cached on it) or of the book's arrays (checked, cached)."""
    if type(robot) is BookArrays:
        return dynamics_model(robot.link_frames, robot.spatial_inertias, robot.screw_axes)
    if not isinstance(robot, ScrewRobot):
        raise TypeError(f"{name} must be a ScrewRobot, got {type(robot).__name__}")
    return _robot_model(robot)


def gravity_of(robot: ScrewRobot | BookArrays, gravity: Any) -> np.ndarray:
    """``gravity`` checked, or by default the robot's (or the book's argument, checked)."""
    if gravity is not None:
        return _gravity(gravity)
    if type(robot) is BookArrays:
        return _gravity(robot.gravity)
    return robot.gravity


def tip_of(q: np.ndarray, tip_wrench: Any) -> np.ndarray | None:
    """The tip wrench checked against the batch of ``q``; None (no wrench) stays None."""
    return None if tip_wrench is None else tip_wrench_array(tip_wrench, q.shape[:-1])
