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
  (:data:`robolab.views.drawing.frame_pictures.TRIAD_COLOURS`), each named ``{i}``
  (``{s}`` and ``{b}`` for the space and end-effector frames of a screw
  robot);
* optionally the shadow of the links on the floor and the manipulability
  ellipsoid of the end-effector (velocity or force).

Pictures of coordinate frames without a robot are in
:mod:`robolab.views.drawing.frame_pictures` (:func:`robolab.frame_axes`,
:func:`robolab.draw_frame`); what the views need to know about either kind
of robot is in :mod:`robolab.views.drawing.drawable`.

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

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from numpy.typing import ArrayLike

from ...support.arguments import as_figure_size, require_bool, require_choice
from .._fast.lean_lines import lean
from .._fast.partial_redraw import PartialRedraw
from .drawable import RobotAdapter, RobotLike, Skeleton, Snapshot
from .fitting import CAPTION_PAD, LABEL_REACH, TRIAD_SIZE, WorkspaceFit
from .frame_pictures import TRIAD_COLOURS
from .options import ELLIPSOID_CHOICES, ViewOptions
from .text3d import PlacedMarkers, centred_text_path, text_marker

__all__ = [
    "ELLIPSOID_COLOUR",
    "RobotView",
    "Skeleton",
    "plot_robot",
]

#: Colour of the manipulability ellipsoid (reddish purple, Okabe–Ito).
ELLIPSOID_COLOUR = "#CC79A7"
LINK_COLOUR = "#3A3A3A"
JOINT_AXIS_COLOUR = "#7A7A7A"
SHADOW_COLOUR = "#B8B8B8"
FLOOR_COLOUR = "#E4E4E4"

_DECORATION_CHOICES = ("lean", "full")
#: Frames closer than this fraction of the reach share one name; sizes (points) of the names,
#: of the box a triad's letter (a 6-point marker) and a joint marker (8 points, edge) cover.
_MERGE_FRACTION = 0.06
_NAME_SIZE = 8.0
_LETTER_BOX = 6.0
_JOINT_BOX = 10.0


def _text_size(text: str, fontsize: float) -> tuple[float, float]:
    """Width and height (points) of a text marker's glyphs."""
    vertices = centred_text_path(text, fontsize)[0].vertices
    return tuple(2.0 * np.abs(vertices).max(axis=0))  # centred: twice the largest extent


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


class RobotView(WorkspaceFit):
    """A 3D drawing of a robot whose artists are moved in place by :meth:`update`.

    Made by :func:`plot_robot` (which explains the options). Attributes hold
    the artists so that tests and notebooks can read them back: ``links``,
    ``revolute_joints``, ``prismatic_joints``, ``joint_axis_lines``,
    ``triads`` (x, y, z lines), ``triad_labels``, ``frame_labels``,
    ``shadow``, ``ellipsoid`` (a line, hidden when off) and ``caption``
    (drawn at the top-left corner of the view's own axes). ``limits`` is the
    box shown (3×2, metres), ``zoom`` the magnification asked for and
    ``box_zoom`` the zoom of matplotlib's box that results from fitting.

    The six options of the picture (``frames``, ``shadow``, ``elev``,
    ``azim``, ``limits``, ``zoom``) come as one :class:`ViewOptions`
    (``options=``) or as keywords, which replace those of ``options``.
    """

    def __init__(
        self,
        robot: RobotLike,
        q: Any = None,
        *,
        ax: Any,
        options: ViewOptions | None = None,
        frame_names: bool = True,
        ellipsoid: str | None = None,
        decorations: str = "lean",
        **view_options: Any,
    ) -> None:
        options = ViewOptions.from_keywords(options, view_options)
        require_choice(decorations, "decorations", _DECORATION_CHOICES)
        require_choice(ellipsoid, "ellipsoid", ELLIPSOID_CHOICES)
        frame_names = require_bool(frame_names, "frame_names")
        if getattr(ax, "name", None) != "3d":
            raise ValueError(
                f"ax must be a 3D axes (fig.add_subplot(projection='3d')), got {type(ax).__name__}"
            )
        self._adapter = RobotAdapter.of(robot)
        self.robot = self._adapter.robot
        self.options = options
        self.axes = ax
        self.figure: Figure = ax.figure
        self.frames_shown = options.frames
        self.decorations = decorations
        self.zoom = options.zoom
        q = self._adapter.home() if q is None else self._adapter.check_q(q)
        self.snapshot: Snapshot = self._adapter.snapshot(q)

        centre, self.reach, self._z_range = self._adapter.workspace()
        self._centre = centre
        self.limits = self._limits(centre, options.box)
        self._build_axes(decorations, options.elev, options.azim)
        self._fit(explicit_limits=options.limits is not None)
        self._build_artists(options.shadow, frame_names)
        self._partial: PartialRedraw | None = None
        self.ellipsoid_kind: str | None = None
        self.ellipsoid_scale = 1.0
        self.ellipsoid_radii = np.zeros(3)
        self.set_ellipsoid(ellipsoid, draw=False)
        self._place(self.snapshot)

    # --- construction -----------------------------------------------------------------------

    @property
    def q(self) -> np.ndarray:
        """The configuration drawn (radians / metres)."""
        return self.snapshot.q

    @property
    def skeleton(self) -> Skeleton:
        """What is drawn at :attr:`q` (from :attr:`snapshot`)."""
        return self.snapshot.skeleton

    def _limits(self, centre: np.ndarray, box: np.ndarray | None) -> np.ndarray:
        if box is not None:
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
            lean(self.floor)
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
        _, _, text_width = text_marker(text, size)
        if text_width > width_points - 2 * CAPTION_PAD:
            size = max(4.0, round(size * (width_points - 2 * CAPTION_PAD) / text_width, 1))
        marker, marker_size, text_width = text_marker(text, size)
        self.caption_height = 2.0 * float(
            np.abs(centred_text_path(text, size)[0].vertices[:, 1]).max()
        )
        offset = ScaledTranslation(
            (CAPTION_PAD + 0.5 * text_width) / 72.0,
            -(CAPTION_PAD + 0.5 * self.caption_height) / 72.0,
            figure.dpi_scale_trans,
        )
        self.caption = Line2D(
            [0.0],
            [1.0],
            transform=ax.transAxes + offset,
            ls="none",
            marker=marker,
            ms=marker_size,
            mew=0.0,
            color="#555555",
        )
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
        self.triad_size = TRIAD_SIZE * self.reach
        self._axis_length = 0.16 * self.reach
        revolute = np.array([kind == "revolute" for kind in self._adapter.joint_kinds])
        self._revolute = revolute
        # a line without points costs as much to draw as one with: an all-revolute arm has none
        self.revolute_joints.set_visible(bool(revolute.any()))
        self.prismatic_joints.set_visible(bool((~revolute).any()))
        for line in self._moving_lines():
            lean(line)  # one projection per line: the same pixels, a sixth off a pendant step
        # the frame names are placed when drawn, clear of the triads' letters and of each other
        self._label_placement = PlacedMarkers(self.frame_labels)

    def frame_drawer(self) -> Callable[[], None] | None:
        """Draw a frame by redrawing only the moving lines over the saved rest (or None).

        A live figure (the teach pendant) calls it after each :meth:`update`: the
        floor, the background and the caption (blended over the arm, as drawn last)
        stay as drawn (:class:`robolab.views._fast.partial_redraw.PartialRedraw`). None
        when the figure holds anything else (other axes, artists added to this
        view's axes), which may move: then the whole figure is drawn.
        """
        ax, figure = self.axes, self.figure
        own = {id(line) for line in self._moving_lines()} | {id(getattr(self, "floor", None))}
        alone = (
            figure.axes == [ax]
            and list(figure.artists) == [self.caption]
            and not (figure.lines or figure.patches or figure.texts or figure.images)
            and all(id(line) in own for line in ax.lines)
            and not (ax.collections or ax.patches or ax.texts or ax.images or ax.artists)
        )
        if not alone:
            return None
        if self._partial is None:
            self._partial = PartialRedraw(
                figure, moving=self._moving_lines(), layers=[self.caption]
            )
        return self._partial.draw

    def _moving_lines(self) -> list[Any]:
        """The lines that :meth:`update` moves (all but the floor), in drawing order."""
        return [
            self.shadow,
            self.ellipsoid,
            self.joint_axis_lines,
            self.links,
            self.revolute_joints,
            self.prismatic_joints,
            *self.triads,
            *self.triad_labels,
            *self.frame_labels,
        ]

    def _shown_frames(self, skeleton: Skeleton) -> tuple[np.ndarray, tuple[str, ...]]:
        names = self._adapter.frame_names
        if self.frames_shown == "all":
            return skeleton.frames, names
        if self.frames_shown == "ends":
            return skeleton.frames[[0, -1]], (names[0], names[-1])
        return skeleton.frames[:0], ()

    # --- updates ----------------------------------------------------------------------------

    def _place(self, snapshot: Snapshot) -> None:
        skeleton = snapshot.skeleton
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
            _set_line(self.triad_labels[k], origins + LABEL_REACH * self.reach * axes)
        self._place_frame_labels(origins, names)
        if self.ellipsoid_kind is not None:
            self._place_ellipsoid(snapshot)

    def _place_frame_labels(self, origins: np.ndarray, names: tuple[str, ...]) -> None:
        if not self.frame_labels:
            return
        # Frames whose origins are closer than 6 % of the reach share one label: {4,5,6} at the
        # wrist of a Puma, {2,3} where a short offset separates two frames.
        groups: list[list[int]] = []
        tolerance = _MERGE_FRACTION * self.reach
        gaps = origins[:, None, :] - origins[None, :, :]
        close = np.einsum("ijk,ijk->ij", gaps, gaps) < tolerance**2  # all pairs at once
        for k in range(len(origins)):
            near = [g for g in groups if close[k, g].any()]
            merged = [k] + [member for g in near for member in g]
            groups = [g for g in groups if g not in near] + [sorted(merged)]
        groups.sort(key=lambda members: members[0])
        groups = groups[: len(self.frame_labels)]
        sizes = []
        for index, members in enumerate(groups):
            label = self.frame_labels[index]
            text = "{" + ",".join(names[k].strip("{}") for k in members) + "}"
            if text != self.frame_label_texts[index]:
                marker, size, _ = text_marker(text, _NAME_SIZE)
                label.set_marker(marker)
                label.set_markersize(size)
                self.frame_label_texts[index] = text
            sizes.append(_text_size(text, _NAME_SIZE))
            _set_line(label, origins[members].mean(axis=0)[None])
            label.set_visible(True)
        for index in range(len(groups), len(self.frame_labels)):
            self.frame_labels[index].set_visible(False)
            self.frame_label_texts[index] = ""
        self._set_label_scene(origins, groups, np.array(sizes).reshape(-1, 2))

    def _set_label_scene(
        self, origins: np.ndarray, groups: list[list[int]], sizes: np.ndarray
    ) -> None:
        """Tell the frame names what to keep clear of: letters, joints, triads, links."""
        letters = np.vstack([np.column_stack(line.get_data_3d()) for line in self.triad_labels])
        joints = self.skeleton.joint_points
        box_points = np.vstack([letters, joints])
        box_sizes = np.vstack(
            [
                np.tile([_LETTER_BOX, _LETTER_BOX], (len(letters), 1)),
                np.tile([_JOINT_BOX, _JOINT_BOX], (len(joints), 1)),
            ]
        )
        segments = []
        for line in (*self.triads, self.links, self.joint_axis_lines):
            points = np.column_stack(line.get_data_3d())
            pairs = np.stack([points[:-1], points[1:]], axis=1)
            segments.append(pairs[np.all(np.isfinite(pairs), axis=(1, 2))])
        tips = [letters.reshape(3, -1, 3)[:, members].reshape(-1, 3) for members in groups]
        self._label_placement.set_scene(
            np.array([origins[members].mean(axis=0) for members in groups]).reshape(-1, 3),
            sizes,
            box_points=box_points,
            box_sizes=box_sizes,
            segments=np.concatenate(segments) if segments else np.zeros((0, 2, 3)),
            directions=tips,
            clearance=0.5 * _JOINT_BOX,
        )

    def _place_ellipsoid(self, snapshot: Snapshot) -> None:
        pose = snapshot.end_effector_pose
        radii, axes = snapshot.ellipsoid(self.ellipsoid_kind or "velocity")
        self.ellipsoid_radii = radii
        drawn = np.minimum(self.ellipsoid_scale * radii, self.reach)
        points = pose[:3, 3] + (_SPHERE * drawn) @ axes.T
        _set_line(self.ellipsoid, points)

    def update(self, q: ArrayLike, *, draw: bool = True) -> None:
        """Move every artist to configuration ``q`` (radians / metres), in place.

        Parameters
        ----------
        q : array_like, shape (n,)
            Joint positions (real numbers: text, booleans and complex values
            are a ``TypeError``).
        draw : bool
            Ask the canvas to redraw (``draw_idle``); the teach pendant passes
            False and draws itself.

        Examples
        --------
        >>> import robolab
        >>> view = robolab.plot_robot(robolab.load_robot("planar2r"))
        >>> view.update([0.5, -0.5])
        >>> view.update([0.5, True])
        Traceback (most recent call last):
        ...
        TypeError: q must be numeric, got the boolean True at index (1,) ...
        >>> import matplotlib.pyplot as plt; plt.close(view.figure)
        """
        q = self._adapter.check_q(q)
        draw = require_bool(draw, "draw")
        self.show_snapshot(self._adapter.snapshot(q), draw=draw)

    def show_snapshot(self, snapshot: Snapshot, *, draw: bool = True) -> None:
        """Move the artists to a snapshot of this view's robot (frames, pose, Jacobian at q).

        The view keeps it as :attr:`snapshot`: what the teach pendant reads
        its pose, ellipsoid and singularity check from (computed once per q).
        """
        self.snapshot = snapshot
        self._place(snapshot)
        if draw:
            self.figure.canvas.draw_idle()

    def show_skeleton(self, q: np.ndarray, skeleton: Skeleton, *, draw: bool = True) -> None:
        """Move the artists to a precomputed skeleton of configuration ``q`` (animations).

        ``skeleton`` must come from the same robot (``view.skeleton_of(q)``).
        """
        q = np.asarray(q, dtype=float)
        self.show_snapshot(Snapshot(self._adapter, q, skeleton), draw=draw)

    def skeleton_of(self, q: ArrayLike) -> Skeleton:
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
        require_choice(kind, "ellipsoid", ELLIPSOID_CHOICES)
        draw = require_bool(draw, "draw")
        self.ellipsoid_kind = kind
        if kind is None:
            _set_line(self.ellipsoid, np.zeros((0, 3)))
            self.ellipsoid.set_visible(False)
        else:
            radii, _ = self.snapshot.ellipsoid(kind)
            finite = radii[np.isfinite(radii) & (radii > 0)]
            self.ellipsoid_scale = 0.3 * self.reach / finite.max() if finite.size else 1.0
            self.ellipsoid.set_visible(True)
            self._place_ellipsoid(self.snapshot)
        if draw:
            self.figure.canvas.draw_idle()

    @property
    def end_effector_pose(self) -> np.ndarray:
        """``T_0e`` at the current configuration (4×4, base frame, metres)."""
        return self.skeleton.end_effector_pose.copy()

    def __repr__(self) -> str:
        return f"<RobotView of {self._adapter.name!r} at q={np.array2string(self.q, precision=3)}>"


def plot_robot(
    robot: RobotLike,
    q: ArrayLike | None = None,
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
        Name the frames ``{0}``, ``{1}``, ... (frames closer than 6 % of the
        reach share a name, ``{4,5,6}``). Each name is placed beside its
        origin when drawn, clear of the triads' letters and lines, the joints
        and the other names (:class:`robolab.views.drawing.text3d.PlacedMarkers`),
        again whenever the view is turned.
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
    options = ViewOptions(frames, shadow, elev, azim, limits, zoom)
    figsize = as_figure_size(figsize)
    if ax is None:
        import matplotlib.pyplot as plt

        figure = plt.figure(figsize=figsize, dpi=100)
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=1.0)
    return RobotView(
        robot,
        q,
        ax=ax,
        options=options,
        frame_names=frame_names,
        ellipsoid=ellipsoid,
        decorations=decorations,
    )
