"""One interface over DHRobot and ScrewRobot for the views.

The 3D views (:mod:`robolab.views.robot_view`), the teach pendant and the animations
draw either kind of robot. :class:`RobotAdapter` turns "a robot and q" into
what is drawn (a :class:`Skeleton`: the link polyline, the joint points and
axes, the frames, the end-effector pose), the robot's Jacobian in its own
convention and the extent of its workspace.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..screw.kinematic_chain import KinematicChain
from ..support.checks import as_float_array

__all__ = ["RobotAdapter", "Skeleton"]

#: Prismatic ranges wider than this (metres) are treated as placeholders
#: (Moro's default is (0, 1000)) and shown as the first metre only.
_PLACEHOLDER_SPAN = 10.0
_PLACEHOLDER_SHOWN = 1.0


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


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms > 0.0, norms, 1.0)


class RobotAdapter:
    """The one place that turns "a robot and q" into what is drawn.

    Works for a DH robot (``robot.numeric()`` with ``frames``,
    ``forward_kinematics`` and ``jacobian``, rows [v; ω]) and for a screw
    robot (``screw_axes_space``, ``home_ee_pose``; its link frames and space
    Jacobian, rows [ω; v], come from a
    :class:`robolab.screw.kinematic_chain.KinematicChain`: the numbers of
    :func:`robolab.link_frames_space` and :func:`robolab.jacobian_space`). The
    manipulability ellipsoid comes from
    :func:`robolab.manipulability_ellipsoid` of the linear part of the Jacobian.
    """

    def __init__(self, robot: Any) -> None:
        self.robot = robot
        self._generic_ranks: tuple[int, int] | None = None
        self._workspace_cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        if hasattr(robot, "screw_axes_space") and hasattr(robot, "home_ee_pose"):
            self.kind = "screw"
            self.dof = int(robot.n_joints)
            names = getattr(robot, "joint_names", None) or [f"q{i + 1}" for i in range(self.dof)]
            self.joint_names = tuple(str(name) for name in names)
            self.convention = "screw"
            self.description = "product of exponentials, space frame {s}"
            chain = KinematicChain.of(robot)
            self._link_frames = chain.link_frames_space
            self._jacobian_space = chain.jacobian_space
            self.has_tool = False
        elif hasattr(robot, "numeric") and hasattr(robot, "dof"):
            self.kind = "dh"
            self.dof = int(robot.dof)
            self.joint_names = tuple(f"q{i + 1}" for i in range(self.dof))
            self.convention = str(getattr(robot, "convention", "standard"))
            if self.convention not in ("standard", "modified"):
                raise ValueError(
                    f"robot.convention must be 'standard' or 'modified', got {self.convention!r}"
                )
            self.description = f"{self.convention} DH, base frame {{0}}"
            try:
                self._numeric = robot.numeric()
            except ValueError as error:
                raise ValueError(f"cannot draw {self.name!r}: {error}") from error
        else:
            raise TypeError(
                "robot must be a robolab.DHRobot or a robolab.ScrewRobot "
                f"(e.g. robolab.load_robot('puma560')), got {type(robot).__name__}"
            )
        kinds = [str(kind).lower() for kind in robot.joint_types]
        self.joint_kinds = tuple("prismatic" if k.startswith("p") else "revolute" for k in kinds)
        if len(self.joint_kinds) != self.dof:
            raise ValueError(
                f"robot.joint_types must have {self.dof} entries, got {len(self.joint_kinds)}"
            )
        self._revolute_mask = np.array([kind == "revolute" for kind in self.joint_kinds])
        self.joint_limits = self._read_limits()
        if self.kind == "dh":
            q = self.home()
            try:
                frames = np.asarray(self._numeric.frames(q), dtype=float)
                pose = np.asarray(self._numeric.forward_kinematics(q), dtype=float)
            except ValueError as error:
                raise ValueError(f"cannot draw {self.name!r}: {error}") from error
            self.has_tool = not np.allclose(frames[-1], pose, atol=1e-12)
        self.frame_names = self._frame_names()

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

    def _frame_names(self) -> tuple[str, ...]:
        if self.kind == "screw":
            return ("{s}", *(f"{{{i}}}" for i in range(1, self.dof + 1)), "{b}")
        names = tuple(f"{{{i}}}" for i in range(self.dof + 1))
        return (*names, "{ee}") if self.has_tool else names

    @property
    def shown_limits(self) -> np.ndarray:
        """Joint limits for sliders and reach: placeholder prismatic ranges cut to 1 m."""
        limits = self.joint_limits.copy()
        for i, kind in enumerate(self.joint_kinds):
            lo, hi = limits[i]
            if kind == "prismatic" and (hi - lo > _PLACEHOLDER_SPAN or not np.isfinite(hi - lo)):
                limits[i, 1] = lo + _PLACEHOLDER_SHOWN
        return limits

    def home(self) -> np.ndarray:
        """Zero configuration, moved into the joint limits where zero is outside them."""
        limits = self.shown_limits
        return np.clip(np.zeros(self.dof), limits[:, 0], limits[:, 1])

    def check_q(self, q: Any) -> np.ndarray:
        return as_float_array(q, "q", (self.dof,))

    # --- kinematics -------------------------------------------------------------------------

    def skeleton(self, q: np.ndarray) -> Skeleton:
        if self.kind == "dh":
            return self._dh_skeleton(q)
        return self._screw_skeleton(q)

    def _dh_skeleton(self, q: np.ndarray) -> Skeleton:
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
        return Skeleton(points, joint_points.copy(), joint_axes.copy(), frames, pose)

    def _screw_skeleton(self, q: np.ndarray) -> Skeleton:
        frames = np.asarray(self._link_frames(q), dtype=float)
        jacobian = np.asarray(self._jacobian_space(q), dtype=float)
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
        return Skeleton(points, joint_points, units, frames, frames[-1])

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        """The robot's own 6×n Jacobian: DH rows [v; ω] (base frame), screw J_s rows [ω; v]."""
        if self.kind == "dh":
            return np.asarray(self._numeric.jacobian(q), dtype=float)
        return np.asarray(self._jacobian_space(q), dtype=float)

    def linear_jacobian(self, q: np.ndarray, pose: np.ndarray) -> np.ndarray:
        """3×n Jacobian of the end-effector origin's velocity, in the base frame (m/s per unit q̇).

        For a screw robot ``v_p = v_s + ω × p`` (docs/conventions.md).
        """
        jacobian = self.jacobian(q)
        if self.kind == "dh":
            return jacobian[:3]
        p = pose[:3, 3]
        return jacobian[3:] + np.cross(jacobian[:3].T, p).T

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
                pose = self.skeleton(q).end_effector_pose
                full = max(full, int(np.linalg.matrix_rank(self.jacobian(q), tol=1e-9)))
                linear = max(
                    linear, int(np.linalg.matrix_rank(self.linear_jacobian(q, pose), tol=1e-9))
                )
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
