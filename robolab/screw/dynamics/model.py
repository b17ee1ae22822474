"""What the dynamics algorithms read: a robot's constants, and its kinematics at θ.

:mod:`robolab.screw.dynamics.rnea`, :mod:`~robolab.screw.dynamics.mass_matrix`,
:mod:`~robolab.screw.dynamics.energy` and :mod:`~robolab.screw.dynamics.forward` check
their arguments with the helpers here and compute from:

* :class:`DynamicsModel`: the constants of one robot (its screw-axis chain, the link
  inertias written in frames that coincide with {s} at home), computed once per robot
  (cached on a :class:`~robolab.ScrewRobot`, or by the bytes of the book's arrays);
* :class:`KinematicState`: the kinematics at θ that the algorithms share (the joint
  screw axes S_i(θ) in {s}, the adjoints that write a twist of {s} in a link's frame, the
  link Jacobians).

The fast engines of the same algorithms (:mod:`robolab.screw._fast`) read the same model.

Conventions as in :mod:`robolab.screw.dynamics.rnea`: twists [ω; v], wrenches [m; f],
gravity a 3-vector in {s} entering as the base's fictitious acceleration -g.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import cached_property
from typing import Any

import numpy as np

from ...spatial.rigid_body_motions import (
    ad_unchecked,
    adjoint_representation_unchecked,
    transform_inv_unchecked,
)
from ...support.arguments import as_float_array
from .._fast.batched import JointFrameModel
from .._fast.compiled import CompiledDynamics
from ..book_form import BookArrays
from ..kinematics.forward import (
    SWAP,
    ScrewChain,
    inverse_adjoints_of,
    running_products,
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
      the end-effector frame at home in {s} at home;
    * ``mask``: (n, 1, n), ``mask[k, 0, i]`` = 1 where joint i moves link k (i ≤ k).
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
        self.mask = np.tril(np.ones((n, n)))[:, None, :]
        # The screw axes as columns in [v; ω] order (the one-state kinematics of the engines).
        self.swapped_axis_columns = self.chain.screw_axes.T.reshape(n, 6, 1)[:, SWAP].copy()

    def inertia_shape(self, batch_ndim: int) -> np.ndarray:
        """G'_k shaped (n, 1, ..., 1, 6, 6) to broadcast over ``batch_ndim`` batch axes."""
        return self.home_inertias.reshape((self.n,) + (1,) * batch_ndim + (6, 6))

    def link_mask(self, batch_ndim: int) -> np.ndarray:
        """``mask`` shaped (n, 1, ..., 1, 1, n) to broadcast over ``batch_ndim`` batch axes."""
        return self.mask.reshape((self.n,) + (1,) * batch_ndim + (1, self.n))

    @cached_property
    def compiled(self) -> CompiledDynamics:
        """Straight-line Python for one state (:mod:`robolab.screw._fast.compiled`).

        Shared by every model of the same numbers (:func:`compiled_dynamics`): chapter 13's
        widget builds the true arm afresh at every slider step, and writing its code again
        would cost more than the step's simulation of a small arm.
        """
        return compiled_dynamics(*self.arrays)

    @cached_property
    def joint_frames(self) -> JointFrameModel:
        """Constants of the kernels for large batches (:mod:`robolab.screw._fast.batched`)."""
        return JointFrameModel(*self.arrays)


#: Up to this many robots' constants and generated code are kept, keyed by their numbers.
_CACHE_SIZE = 16
_COMPILED_CACHE: OrderedDict[tuple[bytes, ...], CompiledDynamics] = OrderedDict()
_MODEL_CACHE: OrderedDict[tuple[bytes, ...], DynamicsModel] = OrderedDict()


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


def compiled_dynamics(
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


def robot_model(robot: Any) -> DynamicsModel:
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


# --------------------------------------------------------------------------- kinematics at θ


class KinematicState:
    """Kinematic quantities at θ shared by the algorithms (joint axis first).

    ``inverse_adjoints[k]`` = [Ad_{P_k⁻¹}] with P_k = e^{[S_1]θ_1} ⋯ e^{[S_k]θ_k};
    ``axes[i]`` = S_i(θ) = [Ad_{P_i}] S_i, column i of the space Jacobian;
    ``jacobians[k]`` (6×n) maps θ̇ to the twist of link k written in the frame
    {k'} attached to link k that coincides with {s} at home: column i is
    [Ad_{P_k⁻¹}] S_i(θ) for i ≤ k and zero beyond (joints after k do not move link k).
    Shapes (n, ..., 6), (n, ..., 6, 6) and (n, ..., 6, n) for θ of shape (..., n).

    :meth:`at` computes them; :func:`robolab.screw._fast.space_frame.one_state_kinematics`
    does the same for one state with fewer NumPy calls.
    """

    __slots__ = ("axes", "batch_ndim", "inverse_adjoints", "jacobians")

    def __init__(
        self, axes: np.ndarray, inverse_adjoints: np.ndarray, jacobians: np.ndarray
    ) -> None:
        self.axes = axes
        self.inverse_adjoints = inverse_adjoints
        self.jacobians = jacobians
        self.batch_ndim = axes.ndim - 2

    @classmethod
    def at(cls, model: DynamicsModel, q: np.ndarray) -> KinematicState:
        """The kinematics of ``model`` at θ = ``q``, shape (..., n)."""
        n = model.n
        batch_ndim = q.ndim - 1
        adjoints = running_products(model.chain.adjoint_exponentials(q))  # [Ad_{P_i}]
        columns = model.chain.screw_axes.T.reshape((n,) + (1,) * batch_ndim + (6, 1))
        axes = (adjoints @ columns)[..., 0]  # (n, ..., 6)
        inverse_adjoints = inverse_adjoints_of(adjoints)
        jacobian_space = np.moveaxis(axes, 0, -1)
        jacobians = (inverse_adjoints @ jacobian_space) * model.link_mask(batch_ndim)
        return cls(axes, inverse_adjoints, jacobians)

    def link_twists(self, joint_values: np.ndarray) -> np.ndarray:
        """Σ_i jacobians[k][:, i] x_i for every link k, shape (n, ..., 6)."""
        return (self.jacobians @ joint_values[..., None])[..., 0]


#: [ad_V] is linear in V: the 36 entries of [ad_V] of many twists V at once are V @ AD_BASIS.
AD_BASIS = ad_unchecked(np.eye(6)).reshape(6, 36)


def ad_of(twists: np.ndarray) -> np.ndarray:
    """[ad_V] of twists V of shape (..., 6), shape (..., 6, 6), in one product (see AD_BASIS)."""
    return (twists @ AD_BASIS).reshape((*twists.shape, 6))


def joint_first(values: np.ndarray) -> np.ndarray:
    """(..., n) → (n, ..., 1), ready to scale the (n, ..., 6) twists."""
    return values[:, None] if values.ndim == 1 else np.moveaxis(values, -1, 0)[..., None]


def tip_wrench_space(
    model: DynamicsModel, state: KinematicState, tip_wrench: np.ndarray
) -> np.ndarray:
    """F_tip (in {n+1}) written in {s}: [Ad_{P_n⁻¹}]ᵀ [Ad_{M_0,n+1⁻¹}]ᵀ F_tip."""
    at_home = tip_wrench @ model.tip_transpose.T
    return (state.inverse_adjoints[-1].swapaxes(-1, -2) @ at_home[..., None])[..., 0]


# --------------------------------------------------------------------------- arguments


def model_of(robot: ScrewRobot | BookArrays, name: str = "robot") -> DynamicsModel:
    """The constants of a robot (cached on it) or of the book's arrays (checked, cached)."""
    if type(robot) is BookArrays:
        return dynamics_model(robot.link_frames, robot.spatial_inertias, robot.screw_axes)
    if not isinstance(robot, ScrewRobot):
        raise TypeError(f"{name} must be a ScrewRobot, got {type(robot).__name__}")
    return robot_model(robot)


def _gravity(gravity: Any) -> np.ndarray:
    return as_float_array(gravity, "gravity", (3,))


def gravity_of(robot: ScrewRobot | BookArrays, gravity: Any) -> np.ndarray:
    """``gravity`` checked, or by default the robot's (or the book's argument, checked)."""
    if gravity is not None:
        return _gravity(gravity)
    if type(robot) is BookArrays:
        return _gravity(robot.gravity)
    return robot.gravity


def tip_wrench_array(
    tip_wrench: Any, batch: tuple[int, ...], name: str = "tip_wrench"
) -> np.ndarray:
    """The tip wrench checked: shape (6,), or the batch's shape and 6."""
    wrench = as_float_array(tip_wrench, name, (6,), batch=True)
    if wrench.ndim > 1 and wrench.shape[:-1] != batch:
        raise ValueError(
            f"{name} must have shape (6,) or {(*batch, 6)} to match joint_positions, "
            f"got {wrench.shape}"
        )
    return wrench


def tip_of(q: np.ndarray, tip_wrench: Any) -> np.ndarray | None:
    """The tip wrench checked against the batch of ``q``; None (no wrench) stays None."""
    return None if tip_wrench is None else tip_wrench_array(tip_wrench, q.shape[:-1])
