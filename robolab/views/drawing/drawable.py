"""What a view needs of a robot, written down once, and its two implementations.

The 3D views (:mod:`robolab.views.drawing.robot_view`), the teach pendant and the animations
draw either kind of robot. They ask it only what :class:`DrawableRobot` lists: the
joints (count, kinds, names, limits), the frames drawn at ``q``, the end-effector pose,
the Jacobian at ``q`` in the robot's own convention, and one :class:`Snapshot` per
configuration that holds those, each computed once (and, when asked, the one singular
value decomposition that the manipulability ellipsoid and the singularity check share).

:class:`DHAdapter` (a :class:`robolab.DHRobot`: its compiled ``numeric()`` functions,
Jacobian rows [v; ω] in the base frame {0}) and :class:`ScrewAdapter` (a
:class:`robolab.ScrewRobot`: a :class:`robolab.screw.kinematics.chain.KinematicChain`,
space Jacobian rows [ω; v] in {s}) implement it; :meth:`RobotAdapter.of` picks one by
the robot's type, once, when a view is made.

Examples
--------
>>> import numpy as np, robolab
>>> arm = RobotAdapter.of(robolab.load_robot("planar2r"))
>>> isinstance(arm, DrawableRobot), arm.joint_kinds, arm.jacobian_rows
(True, ('revolute', 'revolute'), '[ω; v], space frame {s}')
>>> shot = arm.snapshot(np.array([0.0, np.pi / 2]))
>>> shot.end_effector_pose[:3, 3].round(3) + 0.0
array([1., 1., 0.])
>>> shot.jacobian is shot.jacobian  # computed once per configuration
True
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import Any, NamedTuple, Protocol, TypeAlias, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike

from ...dh.robot import DHRobot
from ...screw.kinematics.chain import KinematicChain
from ...screw.robot import ScrewRobot
from ...support.arguments import as_float_array

__all__ = [
    "ROUND_OFF_RATIO",
    "DHAdapter",
    "Decomposition",
    "DrawableRobot",
    "RobotAdapter",
    "RobotLike",
    "ScrewAdapter",
    "Skeleton",
    "Snapshot",
]

#: Prismatic ranges wider than this (metres) are treated as placeholders
#: (Moro's default is (0, 1000)) and shown as the first metre only.
_PLACEHOLDER_SPAN = 10.0
_PLACEHOLDER_SHOWN = 1.0
#: Ratios σ_i/σ_1 below this are round-off: a singular direction (an infinite force radius,
#: as in :func:`robolab.manipulability_ellipsoid`; "At a singularity" on the teach pendant).
ROUND_OFF_RATIO = 1e-12

#: What the views draw: a symbolic DH robot, a screw robot, or the adapter of either.
RobotLike: TypeAlias = "DHRobot | ScrewRobot | RobotAdapter"


class Skeleton(NamedTuple):
    """What a view draws for one configuration (base frame, metres).

    Attributes
    ----------
    link_points : ndarray, shape (m, 3)
        The polyline of the links, from the base to the end-effector.
    joint_points : ndarray, shape (n, 3)
        A point on each joint axis, where the joint marker goes.
    joint_axes : ndarray, shape (n, 3)
        Unit direction of each joint axis (rotation axis or sliding direction).
    frames : ndarray, shape (k, 4, 4)
        The frames drawn as triads, base first, end-effector last.
    end_effector_pose : ndarray, shape (4, 4)
        ``T_0e``, the end-effector pose (including any tool transform).
    """

    link_points: np.ndarray
    joint_points: np.ndarray
    joint_axes: np.ndarray
    frames: np.ndarray
    end_effector_pose: np.ndarray


class Decomposition(NamedTuple):
    """The singular values and vectors of ``J`` and of its linear part, from one SVD.

    ``J`` is the robot's own Jacobian (6×n); its linear part ``L`` (3×n) maps
    joint velocities to the velocity of the end-effector origin in the base
    frame. Both come from one call of :func:`numpy.linalg.svd` on the stack
    of ``J`` and ``L`` (``L`` padded with three zero rows, which adds zero
    singular values only).

    Attributes
    ----------
    jacobian_sigma : ndarray, shape (min(6, n),)
        Singular values of ``J``, descending.
    jacobian_vt : ndarray, shape (n, n)
        Right singular vectors of ``J`` as rows.
    linear_sigma : ndarray, shape (min(3, n),)
        Singular values of ``L``, descending.
    linear_u : ndarray, shape (3, 3)
        Left singular vectors of ``L`` as columns (directions of the end-effector
        origin; those of zero singular values complete an orthonormal basis).
    linear_vt : ndarray, shape (n, n)
        Right singular vectors of ``L`` as rows.
    """

    jacobian_sigma: np.ndarray
    jacobian_vt: np.ndarray
    linear_sigma: np.ndarray
    linear_u: np.ndarray
    linear_vt: np.ndarray


def _orthonormal_completion(columns: list[np.ndarray]) -> np.ndarray:
    """Three orthonormal columns in 3-space: the given ones (at most two used), then the rest."""
    if not columns:
        return np.eye(3)
    first = columns[0]
    if len(columns) == 1:
        pick = np.eye(3)[int(np.argmin(np.abs(first)))]
        second = pick - (pick @ first) * first
        second /= np.linalg.norm(second)
    else:
        second = columns[1]
    (a1, a2, a3), (b1, b2, b3) = first, second
    third = np.array([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1])  # first × second
    return np.column_stack([first, second, third])


def decompose(jacobian: np.ndarray, linear: np.ndarray) -> Decomposition:
    """The :class:`Decomposition` of a 6×n ``jacobian`` and its 3×n linear part (one SVD).

    Examples
    --------
    >>> J = np.vstack([np.diag([2.0, 0.5, 0.0]), np.eye(3)])
    >>> d = decompose(J, J[:3])
    >>> d.linear_sigma.round(3) + 0.0, np.abs(d.linear_u[:, 2]).round(3) + 0.0
    (array([2. , 0.5, 0. ]), array([0., 0., 1.]))
    """
    n = jacobian.shape[1]
    stack = np.zeros((2, 6, n))
    stack[0] = jacobian
    stack[1, :3] = linear
    u, sigma, vt = np.linalg.svd(stack)
    linear_sigma = sigma[1, : min(3, n)]
    # The padding adds zero singular values: left vectors of L's own zero singular values are
    # then any mix with the padded rows, so only the clear ones are kept and completed.
    count = min(2, len(linear_sigma))
    top = u[1, :3, :count]
    norms = np.sqrt(np.einsum("ij,ij->j", top, top))
    top = top / np.where(norms > 0.0, norms, 1.0)
    clear = [top[:, i] for i in range(count) if linear_sigma[i] > ROUND_OFF_RATIO * linear_sigma[0]]
    return Decomposition(sigma[0], vt[0], linear_sigma, _orthonormal_completion(clear), vt[1])


def ellipsoid_of(decomposition: Decomposition, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Radii and axes of the manipulability ellipsoid of the linear part of J.

    The numbers of :func:`robolab.manipulability_ellipsoid` of ``L``: velocity
    radii σ_i (0 in singular directions), force radii 1/σ_i (∞ where σ_i is
    round-off), axes the left singular vectors as columns.

    Examples
    --------
    >>> J = np.vstack([np.diag([2.0, 0.5, 0.0]), np.eye(3)])
    >>> ellipsoid_of(decompose(J, J[:3]), "force")[0]
    array([0.5, 2. , inf])
    """
    radii = np.zeros(3)
    sigma = decomposition.linear_sigma
    radii[: len(sigma)] = sigma
    if kind == "force":
        singular = radii <= ROUND_OFF_RATIO * radii.max()
        with np.errstate(divide="ignore"):
            radii = np.where(singular, np.inf, 1.0 / np.where(singular, 1.0, radii))
    return radii, decomposition.linear_u


class Snapshot:
    """A robot at one configuration: frames, pose and Jacobian, each computed once.

    Made by :meth:`DrawableRobot.snapshot`. The skeleton (frames, pose) is computed
    when the snapshot is made; the Jacobian, its linear part and their
    :class:`Decomposition` on first use, then kept.

    Attributes
    ----------
    q : ndarray, shape (n,)
    skeleton : Skeleton
    """

    def __init__(
        self,
        robot: RobotAdapter,
        q: np.ndarray,
        skeleton: Skeleton,
        jacobian: np.ndarray | None = None,
    ) -> None:
        self.robot = robot
        self.q = np.array(q, dtype=float)  # a copy: the caller's array may move on
        self.skeleton = skeleton
        if jacobian is not None:
            self.__dict__["jacobian"] = jacobian

    @property
    def frames(self) -> np.ndarray:
        """The drawn frames (k, 4, 4), base first, end-effector last."""
        return self.skeleton.frames

    @property
    def end_effector_pose(self) -> np.ndarray:
        """``T_0e`` (4×4, base frame)."""
        return self.skeleton.end_effector_pose

    @cached_property
    def jacobian(self) -> np.ndarray:
        """The robot's own 6×n Jacobian (see :attr:`DrawableRobot.jacobian_rows`)."""
        return self.robot.jacobian(self.q)

    @cached_property
    def linear_jacobian(self) -> np.ndarray:
        """3×n: joint velocities to the velocity of the end-effector origin, base frame."""
        return self.robot.linear_part(self.jacobian, self.end_effector_pose)

    @cached_property
    def decomposition(self) -> Decomposition:
        """The SVD of the Jacobian and of its linear part (one call, see :func:`decompose`)."""
        return decompose(self.jacobian, self.linear_jacobian)

    def ellipsoid(self, kind: str) -> tuple[np.ndarray, np.ndarray]:
        """Radii (3,) and axes (3×3, columns) of the ``"velocity"`` or ``"force"`` ellipsoid."""
        return ellipsoid_of(self.decomposition, kind)


@runtime_checkable
class DrawableRobot(Protocol):
    """What the views ask of a robot (implemented by :class:`DHAdapter` and :class:`ScrewAdapter`).

    Attributes
    ----------
    name, description : str
        The robot's name; its convention and base frame in words.
    dof : int
    joint_kinds : tuple of str
        ``"revolute"`` or ``"prismatic"``, one per joint.
    joint_names : tuple of str
    joint_limits : ndarray, shape (n, 2)
        Radians / metres, as the model gives them.
    frame_names : tuple of str
        Names of the drawn frames, ``{0}`` … (``{s}`` … ``{b}`` for a screw robot).
    jacobian_rows : str
        The Jacobian's convention: ``"[v; ω], base frame {0}"`` (DH) or
        ``"[ω; v], space frame {s}"`` (screw, ``J_s``).
    """

    description: str
    dof: int
    joint_kinds: tuple[str, ...]
    joint_names: tuple[str, ...]
    joint_limits: np.ndarray
    frame_names: tuple[str, ...]
    jacobian_rows: str

    @property
    def name(self) -> str:
        """The robot's name (its class name when it has none)."""

    def frames(self, q: np.ndarray) -> np.ndarray:
        """The drawn frames at ``q``, shape (k, 4, 4), base first, end-effector last."""

    def end_effector_pose(self, q: np.ndarray) -> np.ndarray:
        """``T_0e`` at ``q`` (4×4, base frame, including any tool)."""

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        """The 6×n Jacobian at ``q`` in the convention of :attr:`jacobian_rows`."""

    def snapshot(self, q: np.ndarray) -> Snapshot:
        """Frames, pose and (on first use) Jacobian at ``q``, each computed once."""


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms > 0.0, norms, 1.0)


class RobotAdapter:
    """What both adapters share: joints, limits, home, ranks and the workspace of a robot.

    Use :meth:`of` to get the adapter of a robot; subclasses implement
    :meth:`snapshot` and :meth:`jacobian` (the rest of :class:`DrawableRobot`).
    """

    description = ""
    jacobian_rows = ""
    joint_names: tuple[str, ...]
    frame_names: tuple[str, ...]

    @staticmethod
    def load(robot: object, *, base_link: str | None = None, ee_link: str | None = None) -> Any:
        """``robot`` itself, or the robot a bundled name or a file's path names.

        A name or a path (a model file or a URDF, told apart by content) is loaded with
        :func:`robolab.load_robot`, which takes ``base_link`` and ``ee_link`` for a URDF;
        these are refused with a robot already made.

        Examples
        --------
        >>> RobotAdapter.load("planar2r").joint_names
        ('joint1', 'joint2')
        """
        if isinstance(robot, str | os.PathLike):
            # lazy: the robot files (models, a layer below) are read only for a name or path
            from ...models.library import load_robot

            return load_robot(robot, base_link=base_link, ee_link=ee_link)
        if base_link is not None or ee_link is not None:
            raise TypeError(
                "base_link and ee_link choose the chain of a URDF given by its path; "
                f"got them with a {type(robot).__name__}, a robot already made"
            )
        return robot

    @staticmethod
    def of(robot: object) -> RobotAdapter:
        """The adapter of a :class:`robolab.DHRobot` or :class:`robolab.ScrewRobot` (or itself).

        A bundled robot's name or a robot file's path (a model file or a URDF whose tree
        does not branch) is loaded first (:meth:`load`).

        Examples
        --------
        >>> import robolab
        >>> type(RobotAdapter.of(robolab.load_robot("puma560", form="dh"))).__name__
        'DHAdapter'
        >>> type(RobotAdapter.of("puma560")).__name__
        'ScrewAdapter'
        >>> RobotAdapter.of(3)
        Traceback (most recent call last):
        ...
        TypeError: robot must be a robolab.DHRobot or a robolab.ScrewRobot, ... got int
        """
        robot = RobotAdapter.load(robot)
        if isinstance(robot, RobotAdapter):
            return robot
        if isinstance(robot, ScrewRobot):
            return ScrewAdapter(robot)
        if isinstance(robot, DHRobot):
            return DHAdapter(robot)
        raise TypeError(
            "robot must be a robolab.DHRobot or a robolab.ScrewRobot, a bundled robot's name "
            "or a robot file's path (e.g. robolab.load_robot('puma560'), 'puma560', "
            f"'my_arm.urdf'), got {type(robot).__name__}"
        )

    def __init__(self, robot: Any, dof: int) -> None:
        self.robot = robot
        self.dof = dof
        self._generic_ranks: tuple[int, int] | None = None
        self._workspace_cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        kinds = [str(kind).lower() for kind in robot.joint_types]
        self.joint_kinds = tuple("prismatic" if k.startswith("p") else "revolute" for k in kinds)
        if len(self.joint_kinds) != self.dof:
            raise ValueError(
                f"robot.joint_types must have {self.dof} entries, got {len(self.joint_kinds)}"
            )
        self._revolute_mask = np.array([kind == "revolute" for kind in self.joint_kinds])
        self.joint_limits = self._read_limits()

    @property
    def name(self) -> str:
        return str(getattr(self.robot, "name", "") or type(self.robot).__name__)

    def _read_limits(self) -> np.ndarray:
        raw = getattr(self.robot, "joint_limits", None)
        if raw is None:
            limits = np.array(
                [(-np.pi, np.pi) if kind == "revolute" else (0.0, 1.0) for kind in self.joint_kinds]
            )
        else:
            limits = np.array([[float(lo), float(hi)] for lo, hi in raw], dtype=float)
        if limits.shape != (self.dof, 2):
            raise ValueError(
                f"robot.joint_limits must be {self.dof} (low, high) pairs, got shape {limits.shape}"
            )
        return limits

    @property
    def shown_limits(self) -> np.ndarray:
        """Joint limits for sliders and reach: placeholder prismatic ranges cut to 1 m."""
        limits = self.joint_limits.copy()
        for i, kind in enumerate(self.joint_kinds):
            lo, hi = limits[i]
            if kind == "revolute" and not np.isfinite(hi - lo):  # a continuous joint
                lo = -np.pi if lo == -np.inf else lo
                hi = max(np.pi, lo + 2 * np.pi) if hi == np.inf else hi
                lo = min(lo, hi - 2 * np.pi) if limits[i, 0] == -np.inf else lo
                limits[i] = lo, hi
                continue
            if lo == -np.inf:  # a prismatic joint unbounded below: its metre up to hi
                lo = limits[i, 0] = (hi - _PLACEHOLDER_SHOWN) if np.isfinite(hi) else 0.0
            if kind == "prismatic" and (hi - lo > _PLACEHOLDER_SPAN or not np.isfinite(hi - lo)):
                limits[i, 1] = lo + _PLACEHOLDER_SHOWN
        return limits

    def home(self) -> np.ndarray:
        """Zero configuration, moved into the joint limits where zero is outside them."""
        limits = self.shown_limits
        return np.clip(np.zeros(self.dof), limits[:, 0], limits[:, 1])

    def check_q(self, q: ArrayLike) -> np.ndarray:
        return as_float_array(q, "q", (self.dof,))

    # --- kinematics (DrawableRobot) ---------------------------------------------------------

    def snapshot(self, q: np.ndarray) -> Snapshot:
        raise NotImplementedError

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def linear_part(self, jacobian: np.ndarray, pose: np.ndarray) -> np.ndarray:
        """3×n rows of the end-effector origin's velocity (base frame) from the 6×n ``jacobian``."""
        raise NotImplementedError

    def skeleton(self, q: np.ndarray) -> Skeleton:
        return self.snapshot(q).skeleton

    def frames(self, q: np.ndarray) -> np.ndarray:
        return self.snapshot(q).frames

    def end_effector_pose(self, q: np.ndarray) -> np.ndarray:
        return self.snapshot(q).end_effector_pose

    def linear_jacobian(self, q: np.ndarray, pose: np.ndarray) -> np.ndarray:
        """3×n Jacobian of the end-effector origin's velocity, in the base frame (m/s per unit q̇).

        For a screw robot ``v_p = v_s + ω × p`` (docs/conventions.md).
        """
        return self.linear_part(self.jacobian(q), pose)

    def generic_ranks(self) -> tuple[int, int]:
        """Ranks of J and of its linear part at generic configurations (cached)."""
        if self._generic_ranks is None:
            limits = self.shown_limits
            rng = np.random.default_rng(1)
            low = np.maximum(limits[:, 0], -np.pi)
            high = np.minimum(limits[:, 1], np.pi)
            high = np.where(high > low, high, limits[:, 1])
            full, linear = 0, 0
            for q in rng.uniform(low, high, (8, self.dof)):
                shot = self.snapshot(q)
                full = max(full, int(np.linalg.matrix_rank(shot.jacobian, tol=1e-9)))
                linear = max(linear, int(np.linalg.matrix_rank(shot.linear_jacobian, tol=1e-9)))
            self._generic_ranks = (full, linear)
        return self._generic_ranks

    def workspace_points(self, samples: int = 300, seed: int = 0) -> np.ndarray:
        """Points of the link polylines at ``samples`` random configurations, shape (m, 3).

        The configurations are drawn within the joint limits (seeded, so every
        view of a robot gets the same box), the home configuration first.
        Computed once per adapter and kept, with :meth:`workspace_frames`.
        """
        return self._workspace_skeletons(samples, seed)[0]

    def workspace_frames(self, samples: int = 300, seed: int = 0) -> np.ndarray:
        """The drawn frames at the configurations of :meth:`workspace_points`, (c, k, 4, 4)."""
        return self._workspace_skeletons(samples, seed)[1]

    def _workspace_skeletons(self, samples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        key = (int(samples), int(seed))
        if key not in self._workspace_cache:
            limits = self.shown_limits
            rng = np.random.default_rng(seed)
            low = np.maximum(limits[:, 0], -np.pi)
            high = np.minimum(limits[:, 1], np.pi)
            high = np.where(high > low, high, limits[:, 1])
            configurations = np.vstack([self.home(), rng.uniform(low, high, (samples, self.dof))])
            skeletons = [self.skeleton(q) for q in configurations]
            self._workspace_cache[key] = (
                np.concatenate([skeleton.link_points for skeleton in skeletons]),
                np.stack([skeleton.frames for skeleton in skeletons]),
            )
        return self._workspace_cache[key]

    def workspace(self, samples: int = 300, seed: int = 0) -> tuple[np.ndarray, float, np.ndarray]:
        """Where the arm can be: centre (first joint at home), horizontal radius, z range.

        Estimated from :meth:`workspace_points` (the link polylines at
        ``samples`` random configurations within the joint limits, seeded, and
        at the home configuration).
        """
        points = self.workspace_points(samples, seed)
        centre = self.skeleton(self.home()).joint_points[0]
        radius = float(np.hypot(points[:, 0] - centre[0], points[:, 1] - centre[1]).max())
        z_range = np.array([points[:, 2].min(), points[:, 2].max()])
        return centre, (radius if radius > 0.0 else 1.0), z_range


class DHAdapter(RobotAdapter):
    """A :class:`robolab.DHRobot` for the views: its compiled ``numeric()`` functions.

    Jacobian rows [v; ω] in the base frame {0} (``robot.numeric().jacobian``);
    the drawn frames are {0} … {n}, and {ee} when the robot has a tool.
    """

    jacobian_rows = "[v; ω], base frame {0}"

    def __init__(self, robot: DHRobot) -> None:
        super().__init__(robot, int(robot.dof))
        self.joint_names = tuple(f"q{i + 1}" for i in range(self.dof))
        self.convention = str(robot.convention)
        if self.convention not in ("standard", "modified"):
            raise ValueError(
                f"robot.convention must be 'standard' or 'modified', got {self.convention!r}"
            )
        self.description = f"{self.convention} DH, base frame {{0}}"
        try:
            self._numeric = robot.numeric()
            q = self.home()
            frames = np.asarray(self._numeric.frames(q), dtype=float)
            pose = np.asarray(self._numeric.forward_kinematics(q), dtype=float)
        except ValueError as error:
            raise ValueError(f"cannot draw {self.name!r}: {error}") from error
        self.has_tool = not np.allclose(frames[-1], pose, atol=1e-12)
        names = tuple(f"{{{i}}}" for i in range(self.dof + 1))
        self.frame_names = (*names, "{ee}") if self.has_tool else names

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        """The 6×n Jacobian, rows [v; ω], base frame."""
        return np.asarray(self._numeric.jacobian(q), dtype=float)

    def linear_part(self, jacobian: np.ndarray, pose: np.ndarray) -> np.ndarray:
        return jacobian[:3]

    def snapshot(self, q: np.ndarray) -> Snapshot:
        frames = np.asarray(self._numeric.frames(q), dtype=float)
        origins, x_axes, z_axes = frames[:, :3, 3], frames[:, :3, 0], frames[:, :3, 2]
        steps = origins[1:] - origins[:-1]
        if self.convention == "standard":
            # T_{i-1,i} = Rz(θ) Tz(d) Tx(a) Rx(α): along z_{i-1} by d, then along x_i by a.
            a = np.einsum("ij,ij->i", steps, x_axes[1:])
            corners = origins[1:] - a[:, None] * x_axes[1:]
            joint_points, joint_axes = origins[:-1], z_axes[:-1]
        else:
            # T_{i-1,i} = Rx(α) Tx(a) Rz(θ) Tz(d): along x_{i-1} by a, then along z_i by d.
            a = np.einsum("ij,ij->i", steps, x_axes[:-1])
            corners = origins[:-1] + a[:, None] * x_axes[:-1]
            joint_points, joint_axes = origins[1:], z_axes[1:]
        points = np.empty((2 * self.dof + 1, 3))
        points[0::2] = origins
        points[1::2] = corners
        if self.has_tool:
            pose = np.asarray(self._numeric.forward_kinematics(q), dtype=float)
            points = np.vstack([points, pose[:3, 3]])
            frames = np.concatenate([frames, pose[None]], axis=0)
        else:
            pose = frames[-1]
        skeleton = Skeleton(points, joint_points.copy(), joint_axes.copy(), frames, pose)
        return Snapshot(self, q, skeleton)


class ScrewAdapter(RobotAdapter):
    """A :class:`robolab.ScrewRobot` for the views, through its :class:`KinematicChain`.

    Link frames and space Jacobian ``J_s`` (rows [ω; v], space frame {s}) are
    the numbers of :func:`robolab.link_frames_space` and
    :func:`robolab.jacobian_space`; the drawn frames are {s}, {1} … {n}, {b}.
    """

    description = "product of exponentials, space frame {s}"
    jacobian_rows = "[ω; v], space frame {s}"
    convention = "screw"
    has_tool = False

    def __init__(self, robot: ScrewRobot) -> None:
        super().__init__(robot, int(robot.n_joints))
        names = robot.joint_names or [f"q{i + 1}" for i in range(self.dof)]
        self.joint_names = tuple(str(name) for name in names)
        self._chain = KinematicChain.of(robot)
        self.frame_names = ("{s}", *(f"{{{i}}}" for i in range(1, self.dof + 1)), "{b}")

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        """The space Jacobian J_s, rows [ω; v]."""
        return np.asarray(self._chain.jacobian_space(q), dtype=float)

    def linear_part(self, jacobian: np.ndarray, pose: np.ndarray) -> np.ndarray:
        # v_p = v_s + ω × p for the end-effector origin p
        return jacobian[3:] + np.cross(jacobian[:3].T, pose[:3, 3]).T

    def snapshot(self, q: np.ndarray) -> Snapshot:
        frames = np.asarray(self._chain.link_frames_space(q), dtype=float)
        jacobian = self.jacobian(q)
        omegas, velocities = jacobian[:3].T, jacobian[3:].T
        # Joint i moves link i + 1, whose frame origin is the reference point on its axis.
        references = frames[1 : self.dof + 1, :3, 3]
        revolute = self._revolute_mask
        units = _unit_rows(np.where(revolute[:, None], omegas, velocities))
        # Revolute: S = [ω; v] with v = -ω × p, so ω × v is the point of the axis nearest the
        # origin; the joint marker goes where the axis passes nearest the link's frame.
        nearest = np.cross(units, velocities)
        along = np.einsum("ij,ij->i", references - nearest, units)
        joint_points = np.where(revolute[:, None], nearest + along[:, None] * units, references)
        points = np.vstack([frames[0, :3, 3], joint_points, frames[-1, :3, 3]])
        skeleton = Skeleton(points, joint_points, units, frames, frames[-1])
        return Snapshot(self, q, skeleton, jacobian)


def _conforms(robot: RobotAdapter) -> DrawableRobot:
    return robot  # for the type checker: both adapters implement the protocol
