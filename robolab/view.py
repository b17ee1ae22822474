"""3D views of robot arms in matplotlib, built once and updated in place.

:func:`plot_robot` draws a DH robot (:class:`robolab.DHRobot`) or a screw
robot (:class:`robolab.ScrewRobot`) at a configuration ``q`` and returns a
:class:`RobotView`. Its :meth:`RobotView.update` moves the existing artists
to a new configuration; the figure is never re-created, which is what makes
the teach pendant (:func:`robolab.teach`) and the animations
(:func:`robolab.animate`) fast.

What is drawn, all in the base frame and in metres:

* the links as a polyline through the joints; for a DH robot each link goes
  first along the joint axis by the offset ``d`` and then along the common
  normal by the length ``a``, so the DH parameters can be read off the
  picture;
* the joints as markers (circle: revolute, square: prismatic) with a short
  line along each joint axis;
* the link frames as small triads with labelled axes, coloured so that
  readers with any common colour-vision deficiency can tell them apart
  (:data:`TRIAD_COLOURS`), each named ``{i}`` (``{s}`` and ``{b}`` for the
  space and end-effector frames of a screw robot);
* optionally the shadow of the links on the floor and the manipulability
  ellipsoid of the end-effector (velocity or force).

Pictures of coordinate frames without a robot (chapter 1's rotations, one DH
row, a frame moving along a screw) use :func:`frame_axes` (a 3D box with equal
scales and lean ticks) and :func:`draw_frame`, which draws a pose as a
labelled triad (:class:`FrameTriad`) that :meth:`FrameTriad.set_pose` moves
in place; ``draw_frame`` also works on a robot view's ``view.axes``.
:func:`robolab.live_figure` puts sliders around such pictures.

The decorations of a 3D axes (ticks, panes, grids) cost more than the robot
itself, so the default look is lean: no axes box, a light floor grid, and a
caption that states the frame and the units. ``decorations="full"`` brings
the matplotlib axes back.

Examples
--------
>>> import numpy as np, robolab
>>> from robolab.symbols import q1, q2
>>> arm = robolab.DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2), name="2R arm")
>>> view = robolab.plot_robot(arm, [0.0, np.pi / 2])
>>> view.end_effector_pose[:3, 3].round(3) + 0.0
array([1. , 0.5, 0. ])
>>> links = view.links
>>> view.update([np.pi / 2, 0.0])  # moves the same artists
>>> view.links is links, view.links.get_data_3d()[1][-1].round(3)
(True, np.float64(1.5))
>>> import matplotlib.pyplot as plt; plt.close(view.figure)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.markers import MarkerStyle
from matplotlib.path import Path
from matplotlib.textpath import TextPath

from . import _widgets
from ._checks import as_float_array, require_rotation, require_transform
from .screw_robot_algorithms import jacobian_space, link_frames_space
from .velocity_kinematics import manipulability_ellipsoid

__all__ = [
    "ELLIPSOID_COLOUR",
    "TRIAD_COLOURS",
    "FrameTriad",
    "RobotView",
    "Skeleton",
    "draw_frame",
    "frame_axes",
    "plot_robot",
]

#: Colours of the x, y and z axes of every triad: vermillion (Okabe–Ito),
#: teal and indigo (Paul Tol). Unlike red/green/blue they stay far apart
#: (CIELAB ΔE > 40) under simulated protanopia, deuteranopia and tritanopia;
#: the axes are also labelled x, y, z.
TRIAD_COLOURS: tuple[str, str, str] = ("#D55E00", "#44AA99", "#332288")
#: Colour of the manipulability ellipsoid (reddish purple, Okabe–Ito).
ELLIPSOID_COLOUR = "#CC79A7"
LINK_COLOUR = "#3A3A3A"
JOINT_AXIS_COLOUR = "#7A7A7A"
SHADOW_COLOUR = "#B8B8B8"
FLOOR_COLOUR = "#E4E4E4"

_FRAME_CHOICES = ("all", "ends", "none")
#: Space (points) around the caption and between the picture and the edges of its axes.
_CAPTION_PAD = 4.0
_FIT_PAD_POINTS = 6.0
#: Triads are TRIAD_SIZE × reach long; their x, y, z labels sit 1.3 triad lengths out.
_TRIAD_SIZE = 0.12
_LABEL_REACH = 1.3 * _TRIAD_SIZE
_DECORATION_CHOICES = ("lean", "full")
_ELLIPSOID_CHOICES = (None, "velocity", "force")
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


class _RobotAdapter:
    """The one place that turns "a robot and q" into what is drawn.

    Works for a DH robot (``robot.numeric()`` with ``frames``,
    ``forward_kinematics`` and ``jacobian``, rows [v; ω]) and for a screw
    robot (``screw_axes_space``, ``home_ee_pose``; its link frames and space
    Jacobian, rows [ω; v], come from :func:`robolab.link_frames_space` and
    :func:`robolab.jacobian_space`). The manipulability ellipsoid comes from
    :func:`robolab.manipulability_ellipsoid` of the linear part of the Jacobian.
    """

    def __init__(self, robot: Any) -> None:
        self.robot = robot
        self._generic_ranks: tuple[int, int] | None = None
        self._workspace_cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        if hasattr(robot, "screw_axes_space") and hasattr(robot, "home_ee_pose"):
            self.kind = "screw"
            self.dof = int(robot.n_joints)
            kinds = [str(kind).lower() for kind in robot.joint_types]
            self.joint_kinds = tuple(
                "prismatic" if k.startswith("p") else "revolute" for k in kinds
            )
            names = getattr(robot, "joint_names", None) or [f"q{i + 1}" for i in range(self.dof)]
            self.joint_names = tuple(str(name) for name in names)
            self.convention = "screw"
            self.description = "product of exponentials, space frame {s}"
            self._link_frames = lambda q: link_frames_space(robot, q)
            self._jacobian_space = lambda q: jacobian_space(robot, q)
            self.has_tool = False
        elif hasattr(robot, "numeric") and hasattr(robot, "dof"):
            self.kind = "dh"
            self.dof = int(robot.dof)
            kinds = [str(kind).lower() for kind in robot.joint_types]
            self.joint_kinds = tuple(
                "prismatic" if k.startswith("p") else "revolute" for k in kinds
            )
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


def _unit_sphere_wireframe(meridians: int = 6, samples: int = 37) -> np.ndarray:
    """Points of great circles and three parallels on the unit sphere, NaN between curves."""
    t = np.linspace(0.0, 2.0 * np.pi, samples)
    curves = []
    for k in range(meridians):
        phi = np.pi * k / meridians
        curves.append(np.stack([np.cos(phi) * np.sin(t), np.sin(phi) * np.sin(t), np.cos(t)], 1))
    for polar in (np.pi / 4, np.pi / 2, 3 * np.pi / 4):
        curves.append(
            np.stack(
                [
                    np.sin(polar) * np.cos(t),
                    np.sin(polar) * np.sin(t),
                    np.full_like(t, np.cos(polar)),
                ],
                1,
            )
        )
    gap = np.full((1, 3), np.nan)
    return np.vstack([np.vstack([curve, gap]) for curve in curves])


_SPHERE = _unit_sphere_wireframe()


def _segments(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Stack segments as start, end, NaN rows so that one Line3D draws them all."""
    out = np.full((3 * len(starts), 3), np.nan)
    out[0::3] = starts
    out[1::3] = ends
    return out


def _set_line(line: Any, points: np.ndarray) -> None:
    line.set_data_3d(points[:, 0], points[:, 1], points[:, 2])


@lru_cache(maxsize=512)
def _centred_text_path(text: str, fontsize: float) -> tuple[Path, float]:
    """The glyph outlines of ``text`` (mathtext allowed) centred at 0, in points; its width."""
    path = TextPath((0.0, 0.0), text, prop=FontProperties(size=fontsize))
    extents = path.get_extents()
    centre = np.array([extents.x0 + extents.x1, extents.y0 + extents.y1]) / 2.0
    return Path(path.vertices - centre, path.codes), float(extents.width)


@lru_cache(maxsize=256)
def _text_marker(text: str, fontsize: float) -> tuple[MarkerStyle, float, float]:
    """A marker that draws ``text``, its marker size and its width in points.

    Text objects cost about a millisecond each to draw (glyph layout and
    rendering every time); a marker is rasterised once and stamped, so the
    labels of a view cost almost nothing per update.
    """
    centred, width = _centred_text_path(text, fontsize)
    size = 2.0 * float(np.abs(centred.vertices).max())
    return MarkerStyle(centred), size, width


class _Labels3D(PathCollection):
    """Short texts at 3D points drawn as ONE artist: a collection of glyph outlines.

    Each Text or marker line is one more artist to project and draw (about
    0.2–1 ms each in 3D); this draws all its labels in one call. Unlike
    matplotlib's ``Path3DCollection`` it keeps its items in order (that one
    sorts the points by depth but not the paths, which would swap labels).
    """

    def __init__(
        self,
        points: np.ndarray,
        texts: Sequence[str],
        colours: Sequence[str],
        fontsize: float,
        ax: Any,
        zorder: float,
    ) -> None:
        from matplotlib.transforms import IdentityTransform

        self.points = np.asarray(points, dtype=float).reshape(-1, 3)
        self.texts = tuple(texts)
        super().__init__(
            [_centred_text_path(text, fontsize)[0] for text in texts],
            sizes=[1.0],  # the outlines are in points already
            offsets=self.points[:, :2],
            offset_transform=ax.transData,
            transform=IdentityTransform(),
            facecolors=list(colours),
            edgecolors="none",
            linewidths=0.0,
            zorder=zorder,
        )

    def set_points(self, points: np.ndarray) -> None:
        """Move the labels (one point per label, in data coordinates)."""
        self.points = np.asarray(points, dtype=float).reshape(-1, 3)
        self.stale = True

    def do_3d_projection(self) -> float:
        from mpl_toolkits.mplot3d import proj3d

        x, y, z = proj3d.proj_transform(*self.points.T, self.axes.M)
        self.set_offsets(np.column_stack([x, y]))
        return float(np.min(z)) if len(z) else np.inf


def _text_collection(
    ax: Any,
    points: np.ndarray,
    texts: Sequence[str],
    colours: Sequence[str],
    fontsize: float,
    zorder: float,
) -> _Labels3D:
    """Add :class:`_Labels3D` to a 3D axes; move them with :func:`_move_texts`."""
    labels = _Labels3D(points, texts, colours, fontsize, ax, zorder)
    ax.add_collection(labels, autolim=False)
    return labels


def _move_texts(labels: _Labels3D, points: np.ndarray) -> None:
    labels.set_points(points)


def _check_choice(value: Any, name: str, choices: Sequence[Any]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")


class RobotView:
    """A 3D drawing of a robot whose artists are moved in place by :meth:`update`.

    Made by :func:`plot_robot` (which explains the options). Attributes hold
    the artists so that tests and notebooks can read them back: ``links``,
    ``revolute_joints``, ``prismatic_joints``, ``joint_axis_lines``,
    ``triads`` (x, y, z lines), ``triad_labels``, ``frame_labels``,
    ``shadow``, ``ellipsoid`` (a line, hidden when off) and ``caption``
    (drawn at the top-left corner of the view's own axes). ``limits`` is the
    box shown (3×2, metres), ``zoom`` the magnification asked for and
    ``box_zoom`` the zoom of matplotlib's box that results from fitting.
    """

    def __init__(
        self,
        robot: Any,
        q: Any = None,
        *,
        ax: Any,
        frames: str = "all",
        frame_names: bool = True,
        shadow: bool = True,
        ellipsoid: str | None = None,
        limits: Sequence[float] | None = None,
        decorations: str = "lean",
        elev: float = 25.0,
        azim: float = -55.0,
        zoom: float = 1.0,
    ) -> None:
        _check_choice(frames, "frames", _FRAME_CHOICES)
        _check_choice(decorations, "decorations", _DECORATION_CHOICES)
        _check_choice(ellipsoid, "ellipsoid", _ELLIPSOID_CHOICES)
        if getattr(ax, "name", None) != "3d":
            raise ValueError(
                f"ax must be a 3D axes (fig.add_subplot(projection='3d')), got {type(ax).__name__}"
            )
        for name, value in (("elev", elev), ("azim", azim)):
            if not (isinstance(value, float | int) and np.isfinite(value)):
                raise ValueError(f"{name} must be an angle in degrees, got {value!r}")
        if not (isinstance(zoom, float | int) and np.isfinite(zoom) and zoom > 0):
            raise ValueError(
                f"zoom must be a positive number (1 fits the workspace, 2 is twice as close), "
                f"got {zoom!r}"
            )
        self._adapter = robot if isinstance(robot, _RobotAdapter) else _RobotAdapter(robot)
        self.robot = self._adapter.robot
        self.axes = ax
        self.figure: Figure = ax.figure
        self.frames_shown = frames
        self.decorations = decorations
        self.zoom = float(zoom)
        self.q = self._adapter.home() if q is None else self._adapter.check_q(q)
        self.skeleton = self._adapter.skeleton(self.q)

        centre, self.reach, self._z_range = self._adapter.workspace()
        self._centre = centre
        self.limits = self._limits(centre, limits)
        self._build_axes(decorations, elev, azim)
        self._fit(explicit_limits=limits is not None)
        self._build_artists(shadow, frame_names)
        self.ellipsoid_kind: str | None = None
        self.ellipsoid_scale = 1.0
        self.ellipsoid_radii = np.zeros(3)
        self.set_ellipsoid(ellipsoid, draw=False)
        self._place(self.skeleton)

    # --- construction -----------------------------------------------------------------------

    def _limits(self, centre: np.ndarray, limits: Sequence[float] | None) -> np.ndarray:
        if limits is not None:
            box = as_float_array(limits, "limits", (6,)).reshape(3, 2)
            if np.any(box[:, 1] <= box[:, 0]):
                raise ValueError(
                    "limits must be (xmin, xmax, ymin, ymax, zmin, zmax) with min < max, "
                    f"got {tuple(box.ravel())}"
                )
            return box
        # x and y: the first joint ± the horizontal reach (so the floor disc fits); z: what the
        # arm can reach, the base included, at least a quarter of the width high.
        low = np.array([centre[0] - self.reach, centre[1] - self.reach, self._z_range[0]])
        high = np.array([centre[0] + self.reach, centre[1] + self.reach, self._z_range[1]])
        low[2] = min(low[2], float(self.skeleton.frames[0, 2, 3]))
        height = high[2] - low[2]
        if height < 0.5 * self.reach:
            middle = 0.5 * (high[2] + low[2])
            low[2], high[2] = middle - 0.25 * self.reach, middle + 0.25 * self.reach
        margin = 0.04 * self.reach
        return np.stack([low - margin, high + margin], axis=1)

    def _build_axes(self, decorations: str, elev: float, azim: float) -> None:
        ax = self.axes
        ax.computed_zorder = False
        self._set_box(1.0)
        ax.view_init(elev=elev, azim=azim)
        ax.set_autoscale_on(False)
        self.floor_height = min(float(self.skeleton.frames[0, 2, 3]), float(self.limits[2, 1]))
        self._floor_points = self._floor_curves()
        if decorations == "lean":
            ax.set_axis_off()
            (self.floor,) = ax.plot(*self._floor_points.T, color=FLOOR_COLOUR, lw=0.8, zorder=0)
        else:
            ax.set_xlabel("x (m)")
            ax.set_ylabel("y (m)")
            ax.set_zlabel("z (m)")
        self._add_caption(f"{self._adapter.name} · {self._adapter.description} · metres")

    def _add_caption(self, text: str) -> None:
        """The caption as a text marker at the top-left corner of this view's axes.

        Its position is ``ax.transAxes`` plus an offset in points, so two views
        in one figure (subplots) each carry their own caption, and it follows
        the axes when the figure is laid out again. The font shrinks to fit the
        axes' width.
        """
        from matplotlib.transforms import ScaledTranslation

        ax, figure = self.axes, self.figure
        ax.apply_aspect()
        width_points = ax.bbox.width * 72.0 / figure.dpi
        size = 8.0
        _, _, text_width = _text_marker(text, size)
        if text_width > width_points - 2 * _CAPTION_PAD:
            size = max(4.0, round(size * (width_points - 2 * _CAPTION_PAD) / text_width, 1))
        marker, marker_size, text_width = _text_marker(text, size)
        self.caption_height = 2.0 * float(
            np.abs(_centred_text_path(text, size)[0].vertices[:, 1]).max()
        )
        offset = ScaledTranslation(
            (_CAPTION_PAD + 0.5 * text_width) / 72.0,
            -(_CAPTION_PAD + 0.5 * self.caption_height) / 72.0,
            figure.dpi_scale_trans,
        )
        self.caption = Line2D(
            [0.0], [1.0], transform=ax.transAxes + offset, ls="none",
            marker=marker, ms=marker_size, mew=0.0, color="#555555",
        )  # fmt: skip
        self.caption.set_gid("robolab-view-caption")
        self.caption_text = text
        self.figure.add_artist(self.caption)

    def _floor_curves(self) -> np.ndarray:
        """A disc of the reach's radius around the first joint, two diameters (NaN between)."""
        centre = self._centre
        z = self.floor_height
        t = np.linspace(0.0, 2.0 * np.pi, 73)
        curves = []
        for radius in (self.reach, 0.5 * self.reach):
            curves.append(
                np.column_stack(
                    [
                        centre[0] + radius * np.cos(t),
                        centre[1] + radius * np.sin(t),
                        np.full_like(t, z),
                    ]
                )
            )
        for direction in ((1.0, 0.0), (0.0, 1.0)):
            d = self.reach * np.array(direction)
            curves.append(
                np.array(
                    [
                        [centre[0] - d[0], centre[1] - d[1], z],
                        [centre[0] + d[0], centre[1] + d[1], z],
                    ]
                )
            )
        gap = np.full((1, 3), np.nan)
        return np.vstack([np.vstack([curve, gap]) for curve in curves])

    # --- fitting the picture to the axes ----------------------------------------------------

    def _set_box(self, box_zoom: float) -> None:
        ax = self.axes
        ax.set_xlim(*self.limits[0])
        ax.set_ylim(*self.limits[1])
        ax.set_zlim(*self.limits[2])
        ax.set_box_aspect(self.limits[:, 1] - self.limits[:, 0], zoom=box_zoom)
        self.box_zoom = float(box_zoom)

    def _content(self, explicit_limits: bool) -> np.ndarray:
        """The points that must stay in the picture, whatever the configuration."""
        if self.decorations == "full":  # the box itself is drawn, with ticks
            box = self.limits
            return np.array(list(itertools.product(box[0], box[1], box[2])), dtype=float)
        links = self._adapter.workspace_points()
        # Where the triads and their labels reach: origin + 1.3 triad lengths along each axis.
        frames = self._adapter.workspace_frames()
        if self.frames_shown == "ends":
            frames = frames[:, [0, -1]]
        elif self.frames_shown == "none":
            frames = frames[:, :0]
        origins = frames[..., :3, 3]
        tips = origins[..., None, :] + _LABEL_REACH * self.reach * np.swapaxes(
            frames[..., :3, :3], -1, -2
        )
        floor = self._floor_points[np.all(np.isfinite(self._floor_points), axis=1)]
        points = np.vstack([links, tips.reshape(-1, 3), floor])
        if explicit_limits:
            points = np.clip(points, self.limits[:, 0], self.limits[:, 1])
        return points

    def _projected(self, points: np.ndarray) -> np.ndarray:
        """Pixel positions of 3D points (display coordinates of the figure)."""
        from mpl_toolkits.mplot3d import proj3d

        ax = self.axes
        ax.apply_aspect()
        x, y, _ = proj3d.proj_transform(*points.T, ax.get_proj())
        return ax.transData.transform(np.column_stack([x, y]))

    def _room(self) -> np.ndarray:
        """The pixel rectangle (x0, y0, x1, y1) the picture may fill: the axes minus the caption."""
        box = self.axes.bbox
        pad = _FIT_PAD_POINTS * self.figure.dpi / 72.0
        band = (self.caption_height + 2 * _CAPTION_PAD) * self.figure.dpi / 72.0
        return np.array([box.x0 + pad, box.y0 + pad, box.x1 - pad, box.y1 - band])

    def _screen_jacobian(self) -> np.ndarray:
        """Pixels per metre of a point at the box centre moving along x, y, z (2 × 3)."""
        centre = self.limits.mean(axis=1)
        step = 1e-3 * self.reach
        base = self._projected(centre[None])[0]
        return np.column_stack(
            [(self._projected((centre + step * unit)[None])[0] - base) / step for unit in np.eye(3)]
        )

    def _move_box(self, miss: np.ndarray) -> None:
        """Extend the box on one side per axis so that the picture moves by ``-miss`` pixels."""
        # Moving the box centre by w moves the picture by -J w (the box centre stays at the
        # centre of the axes); extending one side of an axis by 2 w moves the centre by w.
        shift = np.linalg.pinv(self._screen_jacobian()) @ miss
        self.limits = self.limits.copy()
        for axis in range(3):
            self.limits[axis, 1 if shift[axis] > 0 else 0] += 2.0 * shift[axis]

    def _arm_centre(self) -> np.ndarray:
        """Pixel position of the middle of the arm as drawn now (links and triad tips)."""
        frames = self._shown_frames(self.skeleton)[0]
        tips = frames[:, None, :3, 3] + _LABEL_REACH * self.reach * np.swapaxes(
            frames[:, :3, :3], -1, -2
        )
        points = np.vstack([self.skeleton.link_points, tips.reshape(-1, 3)])
        pixels = self._projected(points)
        return 0.5 * (pixels.min(axis=0) + pixels.max(axis=0))

    def _magnify_about_the_arm(self, box_zoom: float) -> None:
        """Apply ``self.zoom`` about the arm at the first configuration, not the axes centre.

        The arm keeps its place in the picture while it grows, so a close-up
        (``zoom > 1``) still shows it whole; the box is extended to move the
        picture, as when centring the workspace.
        """
        self._set_box(box_zoom)
        fixed = self._arm_centre()
        wanted = self.zoom * float(np.linalg.norm(self._screen_jacobian(), 2))
        current = box_zoom * self.zoom
        for _ in range(12):
            self._set_box(current)
            miss = self._arm_centre() - fixed
            ratio = wanted / float(np.linalg.norm(self._screen_jacobian(), 2))
            if np.all(np.abs(miss) < 0.5) and abs(ratio - 1.0) < 2e-3:
                break
            if np.any(np.abs(miss) >= 0.5):
                self._move_box(miss)
            current *= wanted / float(np.linalg.norm(self._screen_jacobian(), 2))
        self._set_box(current)

    def _fit(self, explicit_limits: bool) -> None:
        """Choose the box (unless given) and matplotlib's zoom so that the workspace fills the axes.

        matplotlib centres the box of a 3D axes in the axes and scales it to
        leave room for ticks, which leaves an arm small and low in its
        picture. The workspace (link polylines at many configurations, the
        floor disc, room for the triads) is projected for the view angles;
        without explicit ``limits`` the box is first extended on one side so
        that the projected workspace is centred in the free part of the axes
        (the box still holds every reachable point); then the zoom is set
        so that the workspace just fits. ``zoom`` then magnifies about the
        arm at its first configuration (about the axes centre when the
        limits are given, since the box stays as given).
        """
        content = self._content(explicit_limits)
        centring = not explicit_limits and self.decorations == "lean"
        fill = 0.97 if self.decorations == "lean" else 0.8
        box_zoom = 1.0
        for _ in range(12):
            self._set_box(box_zoom)
            room = self._room()
            pixels = self._projected(content)
            low, high = pixels.min(axis=0), pixels.max(axis=0)
            miss = 0.5 * (low + high) - 0.5 * (room[:2] + room[2:])
            if centring and np.any(np.abs(miss) > 0.5):
                self._move_box(miss)
                continue
            # matplotlib scales the picture about the centre of the axes.
            bbox = self.axes.bbox
            centre = np.array([bbox.x0 + bbox.x1, bbox.y0 + bbox.y1]) / 2.0
            ratios = np.concatenate(
                [(centre - room[:2]) / np.maximum(centre - low, 1e-9),
                 (room[2:] - centre) / np.maximum(high - centre, 1e-9)]
            )  # fmt: skip
            factor = fill * float(ratios.min())
            if abs(factor - 1.0) < 2e-3:
                break
            box_zoom *= factor
        self.fitted_box_zoom = box_zoom
        if centring and self.zoom != 1.0:
            self._magnify_about_the_arm(box_zoom)
        else:
            self._set_box(box_zoom * self.zoom)

    def _build_artists(self, shadow: bool, frame_names: bool) -> None:
        ax = self.axes
        empty = np.zeros(0)
        kw = {"zorder": 1}
        (self.shadow,) = ax.plot(empty, empty, empty, color=SHADOW_COLOUR, lw=4, alpha=0.7, **kw)
        self.shadow.set_visible(shadow)
        (self.ellipsoid,) = ax.plot(empty, empty, empty, color=ELLIPSOID_COLOUR, lw=0.9, zorder=2)
        (self.joint_axis_lines,) = ax.plot(
            empty, empty, empty, color=JOINT_AXIS_COLOUR, lw=1.2, ls=(0, (4, 2)), zorder=3
        )
        (self.links,) = ax.plot(
            empty, empty, empty, color=LINK_COLOUR, lw=4, solid_capstyle="round", zorder=4
        )
        joint_style = {"ls": "none", "mfc": "white", "mec": LINK_COLOUR, "mew": 1.5, "zorder": 5}
        (self.revolute_joints,) = ax.plot(empty, empty, empty, marker="o", ms=8, **joint_style)
        (self.prismatic_joints,) = ax.plot(empty, empty, empty, marker="s", ms=8, **joint_style)
        self.triads = tuple(
            ax.plot(empty, empty, empty, color=colour, lw=1.8, zorder=6)[0]
            for colour in TRIAD_COLOURS
        )
        # Mathtext markers draw all the labels of one axis letter in one call (Text objects
        # cost ~0.4 ms each to draw).
        self.triad_labels = tuple(
            ax.plot(
                empty, empty, empty, ls="none", marker=f"${letter}$", ms=6, color=colour, zorder=7
            )[0]
            for letter, colour in zip("xyz", TRIAD_COLOURS, strict=True)
        )
        count = {"all": len(self.skeleton.frames), "ends": 2, "none": 0}[self.frames_shown]
        self.frame_labels = [
            ax.plot(empty, empty, empty, ls="none", mew=0.0, color="#222222", zorder=8)[0]
            for _ in range(count if frame_names else 0)
        ]
        self.frame_label_texts = ["" for _ in self.frame_labels]
        self.triad_size = _TRIAD_SIZE * self.reach
        self._axis_length = 0.16 * self.reach
        revolute = np.array([kind == "revolute" for kind in self._adapter.joint_kinds])
        self._revolute = revolute

    def _shown_frames(self, skeleton: Skeleton) -> tuple[np.ndarray, tuple[str, ...]]:
        names = self._adapter.frame_names
        if self.frames_shown == "all":
            return skeleton.frames, names
        if self.frames_shown == "ends":
            return skeleton.frames[[0, -1]], (names[0], names[-1])
        return skeleton.frames[:0], ()

    # --- updates ----------------------------------------------------------------------------

    def _place(self, skeleton: Skeleton) -> None:
        points = skeleton.link_points
        _set_line(self.links, points)
        floor = points.copy()
        floor[:, 2] = self.floor_height
        _set_line(self.shadow, floor)
        joints = skeleton.joint_points
        _set_line(self.revolute_joints, joints[self._revolute])
        _set_line(self.prismatic_joints, joints[~self._revolute])
        half = 0.5 * self._axis_length * skeleton.joint_axes
        _set_line(self.joint_axis_lines, _segments(joints - half, joints + half))

        frames, names = self._shown_frames(skeleton)
        origins = frames[:, :3, 3]
        for k in range(3):
            axes = frames[:, :3, k]
            _set_line(self.triads[k], _segments(origins, origins + self.triad_size * axes))
            _set_line(self.triad_labels[k], origins + _LABEL_REACH * self.reach * axes)
        self._place_frame_labels(origins, names)
        if self.ellipsoid_kind is not None:
            self._place_ellipsoid(skeleton)

    def _place_frame_labels(self, origins: np.ndarray, names: tuple[str, ...]) -> None:
        if not self.frame_labels:
            return
        # Frames whose origins coincide (the wrist of a Puma) share one label: {3,4,5}.
        groups: list[tuple[np.ndarray, list[str]]] = []
        tolerance = 1e-3 * self.reach
        for origin, name in zip(origins, names, strict=True):
            for position, members in groups:
                if np.linalg.norm(position - origin) < tolerance:
                    members.append(name.strip("{}"))
                    break
            else:
                groups.append((origin, [name.strip("{}")]))
        offset = -0.07 * self.reach * np.ones(3) / np.sqrt(3.0)
        for index, (position, members) in enumerate(groups[: len(self.frame_labels)]):
            label = self.frame_labels[index]
            text = "{" + ",".join(members) + "}"
            if text != self.frame_label_texts[index]:
                marker, size, _ = _text_marker(text, 8.0)
                label.set_marker(marker)
                label.set_markersize(size)
                self.frame_label_texts[index] = text
            _set_line(label, (position + offset)[None])
            label.set_visible(True)
        for index in range(len(groups), len(self.frame_labels)):
            self.frame_labels[index].set_visible(False)
            self.frame_label_texts[index] = ""

    def _place_ellipsoid(self, skeleton: Skeleton) -> None:
        pose = skeleton.end_effector_pose
        jacobian = self._adapter.linear_jacobian(self.q, pose)
        radii, axes = manipulability_ellipsoid(jacobian, self.ellipsoid_kind or "velocity")
        self.ellipsoid_radii = radii
        drawn = np.minimum(self.ellipsoid_scale * radii, self.reach)
        points = pose[:3, 3] + (_SPHERE * drawn) @ axes.T
        _set_line(self.ellipsoid, points)

    def update(self, q: Any, *, draw: bool = True) -> None:
        """Move every artist to configuration ``q`` (radians / metres), in place.

        Parameters
        ----------
        q : array_like, shape (n,)
            Joint positions.
        draw : bool
            Ask the canvas to redraw (``draw_idle``); the teach pendant passes
            False and draws itself.
        """
        q = self._adapter.check_q(q)
        self.show_skeleton(q, self._adapter.skeleton(q), draw=draw)

    def show_skeleton(self, q: np.ndarray, skeleton: Skeleton, *, draw: bool = True) -> None:
        """Move the artists to a precomputed skeleton of configuration ``q`` (animations).

        ``skeleton`` must come from the same robot (``view.skeleton_of(q)``).
        """
        self.q = np.asarray(q, dtype=float)
        self.skeleton = skeleton
        self._place(skeleton)
        if draw:
            self.figure.canvas.draw_idle()

    def skeleton_of(self, q: Any) -> Skeleton:
        """What this view would draw at configuration ``q`` (precompute it for animations)."""
        return self._adapter.skeleton(self._adapter.check_q(q))

    def set_ellipsoid(self, kind: str | None, *, draw: bool = True) -> None:
        """Show the manipulability ellipsoid (``"velocity"`` or ``"force"``) or hide it (None).

        The ellipsoid belongs to the linear part of the Jacobian, the velocity
        of the end-effector origin in the base frame. It is drawn centred on
        the end-effector with a scale fixed when it is switched on
        (:attr:`ellipsoid_scale`, drawn metres per unit of radius; the
        largest radius is then 30 % of the reach), so that it visibly shrinks
        or grows as the arm moves. Radii are drawn at most as long as the
        reach (infinite force radii at a singularity).
        """
        _check_choice(kind, "ellipsoid", _ELLIPSOID_CHOICES)
        self.ellipsoid_kind = kind
        if kind is None:
            _set_line(self.ellipsoid, np.zeros((0, 3)))
            self.ellipsoid.set_visible(False)
        else:
            jacobian = self._adapter.linear_jacobian(self.q, self.skeleton.end_effector_pose)
            radii, _ = manipulability_ellipsoid(jacobian, kind)
            finite = radii[np.isfinite(radii) & (radii > 0)]
            self.ellipsoid_scale = 0.3 * self.reach / finite.max() if finite.size else 1.0
            self.ellipsoid.set_visible(True)
            self._place_ellipsoid(self.skeleton)
        if draw:
            self.figure.canvas.draw_idle()

    @property
    def end_effector_pose(self) -> np.ndarray:
        """``T_0e`` at the current configuration (4×4, base frame, metres)."""
        return self.skeleton.end_effector_pose.copy()

    def __repr__(self) -> str:
        return f"<RobotView of {self._adapter.name!r} at q={np.array2string(self.q, precision=3)}>"


def plot_robot(
    robot: Any,
    q: Any = None,
    *,
    ax: Any = None,
    frames: str = "all",
    frame_names: bool = True,
    shadow: bool = True,
    ellipsoid: str | None = None,
    limits: Sequence[float] | None = None,
    decorations: str = "lean",
    elev: float = 25.0,
    azim: float = -55.0,
    zoom: float = 1.0,
    figsize: tuple[float, float] = (5.0, 5.0),
) -> RobotView:
    """Draw a robot in 3D and return a view that :meth:`RobotView.update` moves in place.

    Parameters
    ----------
    robot : DHRobot or ScrewRobot
        The arm (numeric parameters; joint variables may stay symbolic).
    q : array_like, shape (n,), optional
        Configuration (radians, metres); default zero, moved into the limits.
    ax : mpl_toolkits.mplot3d.Axes3D, optional
        Draw here; default a new pyplot figure (shown by whichever backend is
        active: inline or ``%matplotlib widget``).
    frames : {"all", "ends", "none"}
        Triads of every link frame, of the base and end-effector only, or none.
    frame_names : bool
        Name the frames ``{0}``, ``{1}``, ... (coinciding frames share a name).
    shadow : bool
        Draw the links' shadow on the floor.
    ellipsoid : {None, "velocity", "force"}
        Manipulability ellipsoid of the end-effector origin (see
        :meth:`RobotView.set_ellipsoid`).
    limits : (xmin, xmax, ymin, ymax, zmin, zmax), optional
        Axis limits in metres, with equal scales. Default: a box around the
        whole workspace (the first joint ± the horizontal reach, the heights
        the arm can reach), extended on one side so that the workspace is
        centred in the picture for the view angles.
    decorations : {"lean", "full"}
        ``"lean"`` (fast: no axes box, a floor grid) or matplotlib's 3D axes
        with ticks and labels (about 25 ms more per redraw).
    elev, azim : float
        Viewing angles in degrees (drag the figure to turn it under
        ``%matplotlib widget``).
    zoom : float
        Magnification of the picture. At 1 (default) the workspace (every
        configuration within the joint limits, the floor disc, the frames)
        just fills the axes below the caption, whatever the arm's size and
        the view angles. Above 1 the picture is magnified about the arm at
        ``q``, which keeps its place (a close-up: the floor disc and far
        poses may leave the picture); with ``limits`` given, about the
        centre of the axes.
    figsize : (float, float)
        Size of a new figure in inches (at 100 dpi).

    Returns
    -------
    RobotView

    See Also
    --------
    robolab.teach : sliders around the same view.

    Examples
    --------
    >>> import robolab
    >>> puma = robolab.load_robot("puma560", form="dh")
    >>> view = robolab.plot_robot(puma, [0.3, 0.5, -0.9, 0.6, 0.8, 0.2], ellipsoid="velocity")
    >>> view.caption_text
    'puma560 · standard DH, base frame {0} · metres'
    >>> view.update([0.0, 0.5, -0.9, 0.6, 0.8, 0.2])  # same figure, same artists
    >>> import matplotlib.pyplot as plt; plt.close(view.figure)
    """
    if ax is None:
        import matplotlib.pyplot as plt

        figure = plt.figure(figsize=figsize, dpi=100)
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=1.0)
    return RobotView(
        robot,
        q,
        ax=ax,
        frames=frames,
        frame_names=frame_names,
        shadow=shadow,
        ellipsoid=ellipsoid,
        limits=limits,
        decorations=decorations,
        elev=elev,
        azim=azim,
        zoom=zoom,
    )


# --- pictures of coordinate frames ------------------------------------------------------------

_FRAME_AXES_DECORATIONS = ("lean", "full", "none")
_TRIAD_LABEL_CHOICES = ("tips", "origin", "none")
TICK_COLOUR = "#555555"
GRID_COLOUR = "#E0E0E0"
EDGE_COLOUR = "#9A9A9A"


def _axes_box(limits: Any) -> np.ndarray:
    """``limits`` as a (3, 2) array of (low, high) per axis, checked."""
    array = as_float_array(limits, "limits", (None,) if np.ndim(limits) == 1 else (3, 2))
    if array.ndim == 1:
        if array.shape == (2,):
            array = np.tile(array, (3, 1))
        elif array.shape == (6,):
            array = array.reshape(3, 2)
        else:
            raise ValueError(
                "limits must be (low, high) for all three axes, ((xmin, xmax), (ymin, ymax), "
                f"(zmin, zmax)) or (xmin, xmax, ymin, ymax, zmin, zmax), got {array.shape[0]} "
                "numbers"
            )
    bad = np.flatnonzero(array[:, 1] <= array[:, 0])
    if bad.size:
        axis = "xyz"[int(bad[0])]
        low, high = array[bad[0]]
        raise ValueError(f"limits of the {axis} axis must have low < high, got ({low:g}, {high:g})")
    return array


def _tick_label(value: float) -> str:
    return f"{float(np.round(value, 6)) + 0.0:g}"


def _lean_decorations(
    ax: Any, box: np.ndarray, ticks: int, elev: float, azim: float, unit: str | None
) -> None:
    """A light floor grid, a vertical edge and tick labels drawn as cheap artists.

    matplotlib's 3D axes (panes, grids, tick labels as Text) cost about
    20–40 ms per redraw; these lines and text markers cost about 1 ms. The
    labels sit on the edges nearest the viewer for the initial view angles.
    """
    ax.set_axis_off()
    (x0, x1), (y0, y1), (z0, z1) = box
    # Corners nearest to and farthest from the eye, seen from (azim, elev).
    towards_x, towards_y = np.cos(np.radians(azim)), np.sin(np.radians(azim))
    back_x, front_x = (x0, x1) if towards_x >= 0 else (x1, x0)
    back_y, front_y = (y0, y1) if towards_y >= 0 else (y1, y0)
    values = [np.linspace(low, high, ticks) if ticks >= 2 else np.zeros(0) for low, high in box]
    gap = np.full((1, 3), np.nan)
    grid = []
    for x in values[0]:
        grid += [np.array([[x, y0, z0], [x, y1, z0]]), gap]
    for y in values[1]:
        grid += [np.array([[x0, y, z0], [x1, y, z0]]), gap]
    outline = np.array(
        [[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0], [x0, y0, z0]], dtype=float
    )
    floor = np.vstack([*grid, outline]) if grid else outline
    (grid_line,) = ax.plot(*floor.T, color=GRID_COLOUR, lw=0.8, zorder=0)
    grid_line.set_gid("robolab-frame-axes-grid")
    (edge,) = ax.plot(
        [back_x, back_x], [back_y, back_y], [z0, z1], color=EDGE_COLOUR, lw=0.8, zorder=0
    )
    edge.set_gid("robolab-frame-axes-edge")
    span = box[:, 1] - box[:, 0]
    out_x = np.sign(front_x - back_x) * 0.07 * span[0]
    out_y = np.sign(front_y - back_y) * 0.07 * span[1]
    positions: list[tuple[np.ndarray, str]] = []
    for x in values[0]:
        positions.append((np.array([x, front_y + out_y, z0]), _tick_label(x)))
    for y in values[1]:
        positions.append((np.array([front_x + out_x, y, z0]), _tick_label(y)))
    for z in values[2]:
        positions.append((np.array([back_x - out_x, back_y + out_y, z]), _tick_label(z)))
    suffix = f" ({unit})" if unit else ""
    middle = box.mean(axis=1)
    names = [
        (np.array([middle[0], front_y + 2.6 * out_y, z0]), "x" + suffix),
        (np.array([front_x + 2.6 * out_x, middle[1], z0]), "y" + suffix),
        (np.array([back_x, back_y, z1 + 0.08 * span[2]]), "z" + suffix),
    ]
    ticks_and_names = _text_collection(
        ax,
        np.array([point for point, _ in positions + names]).reshape(-1, 3),
        [text for _, text in positions + names],
        [TICK_COLOUR],
        7.5,
        0.0,
    )
    ticks_and_names.set_gid("robolab-frame-axes-labels")


def frame_axes(
    limits: Any = (-1.0, 1.0),
    *,
    title: str | None = None,
    elev: float = 20.0,
    azim: float = -60.0,
    ticks: int = 3,
    unit: str | None = None,
    decorations: str = "lean",
    zoom: float | None = None,
    figsize: tuple[float, float] = (5.0, 4.5),
    dpi: float = 80.0,
    ax: Any = None,
) -> Any:
    """A 3D axes for pictures of coordinate frames: equal scales, fixed limits, lean ticks.

    Draw frames on it with :func:`draw_frame`; put it in a
    :func:`robolab.live_figure` to move them with sliders.

    Parameters
    ----------
    limits : (low, high), ((xmin, xmax), (ymin, ymax), (zmin, zmax)) or 6 numbers
        The box shown, the same for all axes or one range per axis; the three
        axes keep equal scales (a unit is as long along x as along z).
    title : str, optional
        Written above the picture.
    elev, azim : float
        Viewing angles in degrees (drag the figure to turn it under
        ``%matplotlib widget``).
    ticks : int
        Labelled ticks per axis, evenly spread from low to high (0: none).
    unit : str, optional
        Appended to the axis names: ``unit="m"`` gives ``x (m)``.
    decorations : {"lean", "full", "none"}
        ``"lean"`` (default, fast): a light floor grid at the ticks, one
        vertical edge, tick labels and axis names as cheap markers (about
        2 ms per redraw). ``"full"``: matplotlib's own 3D axes with the same
        ticks (about 25 ms more per redraw). ``"none"``: nothing but what
        you draw.
    zoom : float, optional
        Enlarge (> 1) or shrink the box within the figure; default 1.2
        (0.9 with ``decorations="full"``, whose labels need the room).
    figsize : (float, float)
        Figure size in inches; ``dpi`` its resolution.
    ax : mpl_toolkits.mplot3d.Axes3D, optional
        Set up this 3D axes instead of making a new figure.

    Returns
    -------
    mpl_toolkits.mplot3d.Axes3D
        ``ax.figure`` is a pyplot figure, shown at the end of the cell by the
        active backend (inline, or a live canvas under ``%matplotlib widget``);
        a :func:`robolab.live_figure` that takes it over shows it itself.

    Examples
    --------
    >>> import numpy as np, robolab
    >>> ax = robolab.frame_axes((-1, 1), title="{b} in {a}")
    >>> ax.get_xlim(), ax.get_zlim()
    ((np.float64(-1.0), np.float64(1.0)), (np.float64(-1.0), np.float64(1.0)))
    >>> a = robolab.draw_frame(ax, np.eye(4), "a", style="--")
    >>> b = robolab.draw_frame(ax, robolab.rotz(np.pi / 6), "b")
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    _check_choice(decorations, "decorations", _FRAME_AXES_DECORATIONS)
    box = _axes_box(limits)
    if not isinstance(ticks, int | np.integer) or ticks < 0 or ticks == 1:
        raise ValueError(f"ticks must be 0 or a whole number >= 2, got {ticks!r}")
    if ax is None:
        import matplotlib.pyplot as plt

        figure = plt.figure(figsize=figsize, dpi=dpi)
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        top = 1.0 - 16.0 / (72.0 * figure.get_figheight()) if title else 1.0  # room for it
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=top)
        _widgets.plain_canvas(figure.canvas)  # under %matplotlib widget
    elif getattr(ax, "name", None) != "3d":
        raise ValueError(
            f"ax must be a 3D axes (fig.add_subplot(projection='3d')), got {type(ax).__name__}"
        )
    ax.set_xlim(*box[0])
    ax.set_ylim(*box[1])
    ax.set_zlim(*box[2])
    if zoom is None:
        zoom = 0.9 if decorations == "full" else 1.05
    ax.set_box_aspect(box[:, 1] - box[:, 0], zoom=zoom)
    ax.view_init(elev=elev, azim=azim)
    ax.set_autoscale_on(False)
    if decorations == "lean":
        _lean_decorations(ax, box, int(ticks), elev, azim, unit)
    elif decorations == "none":
        ax.set_axis_off()
    else:
        for axis, (low, high) in zip((ax.xaxis, ax.yaxis, ax.zaxis), box, strict=True):
            axis.set_ticks(np.linspace(low, high, ticks) if ticks else [])
        suffix = f" ({unit})" if unit else ""
        ax.set(xlabel="x" + suffix, ylabel="y" + suffix, zlabel="z" + suffix)
        ax.tick_params(labelsize=7, pad=0)
    if title:
        _figure_title(ax, title)
    return ax


def _figure_title(ax: Any, title: str) -> None:
    """The title as a text marker above the axes (an axes title costs ~9 ms per redraw).

    The marker is centred over the axes' horizontal extent in the figure and
    shrunk to fit its width.
    """
    figure = ax.figure
    box = ax.get_position(original=True)
    if box.y1 < 1.0 and ax.figure.subplotpars.top == box.y1:  # frame_axes made room above
        box = box.from_extents(box.x0, box.y0, box.x1, 1.0)
    width_points = box.width * figure.get_figwidth() * 72.0
    size = 10.0
    _, _, text_width = _text_marker(title, size)
    if text_width > 0.96 * width_points:
        size *= 0.96 * width_points / text_width
    size = round(size, 1)
    marker, marker_size, _ = _text_marker(title, size)
    text_height = 2.0 * float(np.abs(_centred_text_path(title, size)[0].vertices[:, 1]).max())
    height_points = figure.get_figheight() * 72.0
    y = box.y1 - (0.5 * text_height + 4.0) / height_points
    label = Line2D(
        [box.x0 + 0.5 * box.width], [y], transform=figure.transFigure, ls="none",
        marker=marker, ms=marker_size, mew=0.0, color="#222222",
    )  # fmt: skip
    label.set_gid("robolab-frame-axes-title")
    figure.add_artist(label)


class FrameTriad:
    """A coordinate frame drawn as three coloured axes, moved in place by :meth:`set_pose`.

    Made by :func:`draw_frame` (which explains the options). The x, y and z
    axes are drawn in :data:`TRIAD_COLOURS`; their labels are text markers,
    and all the labels of a triad are one artist, so a triad adds about
    0.7 ms to a redraw and moving it costs microseconds.

    Attributes
    ----------
    axes : Axes3D
        Where it is drawn.
    lines : tuple of 3 Line3D
        The x, y and z axes (from the origin to ``length`` along each axis).
    labels : Path3DCollection or None
        The tip labels (three) or the name at the origin (one), drawn as
        one artist; None with ``labels="none"``.
    label_texts : tuple of str
        What the labels say (mathtext), e.g. ``("$x_{b}$", "$y_{b}$", "$z_{b}$")``.
    label_points : ndarray, shape (k, 3)
        Where the labels are, in the coordinates of the axes.
    name : str
    length : float
    """

    def __init__(
        self,
        ax: Any,
        T: Any = None,
        name: str = "",
        *,
        length: float | None = None,
        style: str = "-",
        labels: str = "tips",
        linewidth: float = 2.2,
        fontsize: float = 10.0,
        zorder: float = 6.0,
    ) -> None:
        if getattr(ax, "name", None) != "3d":
            raise ValueError(
                f"ax must be a 3D axes (robolab.frame_axes() or a RobotView's view.axes), "
                f"got {type(ax).__name__}"
            )
        _check_choice(labels, "labels", _TRIAD_LABEL_CHOICES)
        if not isinstance(name, str):
            raise TypeError(f"name must be a string such as 'b', got {name!r}")
        if length is None:
            spans = [abs(high - low) for low, high in (ax.get_xlim(), ax.get_ylim(), ax.get_zlim())]
            length = 0.3 * min(spans)
        if not (isinstance(length, float | int) and np.isfinite(length) and length > 0):
            raise ValueError(f"length must be a positive number, got {length!r}")
        self.axes = ax
        self.name = name
        self.length = float(length)
        self.labels_shown = labels
        empty = np.zeros(0)
        self.lines = tuple(
            ax.plot(
                empty, empty, empty, style, color=colour, lw=linewidth,
                solid_capstyle="round", zorder=zorder,
            )[0]
            for colour in TRIAD_COLOURS
        )  # fmt: skip
        bare = name.strip("{}")
        if labels == "tips":
            texts = [f"${letter}_{{{bare}}}$" if bare else f"${letter}$" for letter in "xyz"]
            colours: tuple[str, ...] = TRIAD_COLOURS
        elif labels == "origin":
            texts, colours = [f"{{{bare}}}"], ("#222222",)
        else:
            texts, colours = [], ()
        self.labels = (
            _text_collection(ax, np.zeros((len(texts), 3)), texts, colours, fontsize, zorder + 1)
            if texts
            else None
        )
        self.label_texts = tuple(texts)
        self.label_points = np.zeros((len(texts), 3))
        self._pose = np.eye(4)
        self.set_pose(np.eye(4) if T is None else T)

    @property
    def pose(self) -> np.ndarray:
        """The pose drawn, ``T`` (4×4, in the coordinates of the axes)."""
        return self._pose.copy()

    def set_pose(self, T: Any, *, draw: bool = False) -> None:
        """Move the triad to pose ``T``, in place (no new artists).

        Parameters
        ----------
        T : array_like, shape (4, 4) or (3, 3)
            A homogeneous transform, or a rotation matrix (origin at 0).
        draw : bool
            Ask the canvas to redraw (``draw_idle``). A
            :func:`robolab.live_figure` redraws by itself after its update
            function, so the default is False.
        """
        array = as_float_array(T, "T", (None, None))
        if array.shape == (3, 3):
            require_rotation(array, "T")
            pose = np.eye(4)
            pose[:3, :3] = array
        elif array.shape == (4, 4):
            require_transform(array, "T")
            pose = array.copy()
        else:
            raise ValueError(
                f"T must be a 4×4 transform or a 3×3 rotation matrix, got shape {array.shape}"
            )
        self._pose = pose
        origin = pose[:3, 3]
        tips = origin + self.length * pose[:3, :3].T  # row k: tip of axis k
        for line, tip in zip(self.lines, tips, strict=True):
            line.set_data_3d(*np.column_stack([origin, tip]))
        if self.labels_shown == "tips":
            self.label_points = origin + 1.18 * self.length * pose[:3, :3].T
        elif self.labels_shown == "origin":
            self.label_points = (origin - 0.16 * self.length * np.ones(3) / np.sqrt(3.0))[None]
        if self.labels is not None:
            _move_texts(self.labels, self.label_points)
        if draw:
            self.axes.figure.canvas.draw_idle()

    def _artists(self) -> tuple[Any, ...]:
        return (*self.lines, self.labels) if self.labels is not None else self.lines

    def set_visible(self, visible: bool) -> None:
        """Show or hide the triad and its labels."""
        for artist in self._artists():
            artist.set_visible(bool(visible))

    def remove(self) -> None:
        """Take the triad off its axes."""
        for artist in self._artists():
            artist.remove()
        self.lines, self.labels = (), None

    def __repr__(self) -> str:
        origin = ", ".join(f"{float(np.round(v, 3)) + 0.0:g}" for v in self._pose[:3, 3])
        return f"<FrameTriad {{{self.name.strip('{}')}}} at origin ({origin})>"


def draw_frame(
    ax: Any,
    T: Any = None,
    name: str = "",
    *,
    length: float | None = None,
    style: str = "-",
    labels: str = "tips",
    linewidth: float = 2.2,
    fontsize: float = 10.0,
    zorder: float = 6.0,
) -> FrameTriad:
    """Draw the frame of pose ``T`` as a labelled triad; :meth:`FrameTriad.set_pose` moves it.

    The columns of the rotation part of ``T`` are drawn from its origin as
    the x, y and z axes, coloured :data:`TRIAD_COLOURS` (vermillion, teal,
    indigo: apart for readers with any common colour-vision deficiency).

    Parameters
    ----------
    ax : Axes3D
        A 3D axes: :func:`frame_axes`, or a robot view's ``view.axes``
        (a target frame beside the arm, say).
    T : array_like, shape (4, 4) or (3, 3), optional
        Pose in the coordinates of the axes (a rotation matrix puts the
        origin at 0); default the identity.
    name : str
        The frame's name: ``"b"`` labels the axis tips ``x_b, y_b, z_b``.
    length : float, optional
        Length of each axis; default 30 % of the smallest axis range.
    style : str
        Line style: ``"-"`` (solid) or ``"--"`` (dashed, e.g. a fixed frame).
    labels : {"tips", "origin", "none"}
        Axis names at the tips, the frame's name ``{b}`` next to the origin
        (for many frames in one picture), or no labels.
    linewidth, fontsize, zorder : float
        Line width (points), label size (points), drawing order.

    Returns
    -------
    FrameTriad

    Examples
    --------
    >>> import numpy as np, robolab
    >>> ax = robolab.frame_axes((-1, 1))
    >>> b = robolab.draw_frame(ax, np.eye(4), "b", length=1.0)
    >>> b.set_pose(robolab.trotz(np.pi / 2) @ robolab.transl(0.5, 0, 0))
    >>> x_axis = np.array(b.lines[0].get_data_3d())  # from the origin to the tip of x_b
    >>> x_axis.T.round(3) + 0.0
    array([[0. , 0.5, 0. ],
           [0. , 1.5, 0. ]])
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    return FrameTriad(
        ax,
        T,
        name,
        length=length,
        style=style,
        labels=labels,
        linewidth=linewidth,
        fontsize=fontsize,
        zorder=zorder,
    )
