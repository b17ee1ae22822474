"""A waypoint editor: a planned joint motion as q, q̇, q̈ plots with the limits, and the arm.

:func:`trajectory_view` (a :class:`TrajectoryView`) plans a joint-space motion through
waypoints (a start, via points, an end, reached at given times) and shows

* the **arm** at the time ``t`` of a scrubbing slider (3D, on the left);
* **q(t), q̇(t), q̈(t)** of the joints shown (right, one colour per joint), with the
  joint limits on the q plot and the velocity and acceleration limits as dashed lines,
  and a cursor at ``t``;
* a **read-out**: the peak |q̇| and |q̈| of each joint (exact, from the plan) beside its
  limits, and which limit the plan breaks, if any.

The controls: a **time scaling** selector, from stopping at every waypoint
(:func:`robolab.rest_to_rest_trajectory` with a cubic, quintic or trapezoidal scaling,
MR §9.2) to passing through them (:func:`robolab.via_point_trajectory`: cubic segments
with continuous velocity, or the spline with continuous acceleration, MR §9.3); one
**slider per edited joint and via point** (the waypoint editor: degrees for a revolute
joint, metres for a prismatic one); and the **time** ``t``. The view is a
:class:`robolab.LiveFigure`, so it has its static fallback (picture and read-out)
wherever there is no widget front end.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...screw.trajectories.via_points import rest_to_rest_trajectory, via_point_trajectory
from ...support import widgets as _widgets
from ...support.arguments import as_figure_size, as_float_array, require_choice, require_int
from ..drawing.drawable import RobotAdapter
from ..drawing.options import CANVAS_CHOICES, ENDS_ONLY, ViewOptions
from ..drawing.robot_view import RobotView
from ..widgets.controls import TRACK_WIDTH, Control, angle_slider, number_slider
from ..widgets.live_figure import LiveFigure

__all__ = ["TIME_SCALINGS", "TrajectoryView", "plan_trajectory", "trajectory_view"]

#: The selector's choices: (label, value); the value names the planner.
TIME_SCALINGS = (
    ("cubic, stop at each", "cubic"),
    ("quintic, stop at each", "quintic"),
    ("trapezoid, stop at each", "trapezoidal"),
    ("cubic through vias (C¹)", "via-velocity"),
    ("spline through vias (C²)", "via-acceleration"),
)
_SCALING_VALUES = tuple(value for _, value in TIME_SCALINGS)
#: ``planner(points, times, scaling) -> plan``: a plan is called as ``plan(t, derivative)``.
Planner = Callable[[NDArray[np.float64], NDArray[np.float64], str], Any]
#: Joint colours (Okabe–Ito), cycled.
_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
#: Samples of the plotted curves.
_SAMPLES = 241
#: Steps of the time slider tried in turn: the first that divides the duration.
_TIME_STEPS = (0.05, 0.02, 0.01)


def plan_trajectory(points: ArrayLike, times: ArrayLike, scaling: str) -> Any:
    """The plan of one choice of the selector: a rest-to-rest or a via-point trajectory.

    Parameters
    ----------
    points : array_like, shape (k, n)
    times : array_like, shape (k,)
    scaling : {"cubic", "quintic", "trapezoidal", "via-velocity", "via-acceleration"}

    Returns
    -------
    RestToRestTrajectory or ViaPointTrajectory
        Callable as ``plan(t, derivative)``, with ``peaks()``.

    Examples
    --------
    >>> plan = plan_trajectory([[0.0], [1.0], [0.0]], [0.0, 1.0, 2.0], "via-acceleration")
    >>> plan.continuity, plan(1.0, 1)  # turning back: the spline stops at the via
    ('acceleration', array([0.]))
    """
    require_choice(scaling, "scaling", _SCALING_VALUES)
    if scaling.startswith("via-"):
        return via_point_trajectory(points, times, continuity=scaling[4:])
    return rest_to_rest_trajectory(points, times, scaling)


def _time_step(duration: float) -> float:
    for step in _TIME_STEPS:
        count = duration / step
        if abs(count - round(count)) < 1e-9 * max(1.0, count):
            return step
    raise ValueError(
        f"times[-1] - times[0] = {duration:g} s must be a whole number of hundredths of a second "
        "(the time slider's steps)"
    )


class TrajectoryView(LiveFigure):
    """Waypoint sliders, a time-scaling selector, q/q̇/q̈ plots with limits and the arm at t.

    Made by :func:`trajectory_view` (which names the arguments grouped here:
    ``plan_data`` = waypoints, times and the two limits, ``shown`` = edit and
    joints, ``looks`` = view options, figure size and canvas). Controls:
    ``scaling``, ``via{j}_q{i}`` (joint i at via point j, in degrees or
    metres) and ``t`` (seconds).

    Attributes
    ----------
    view : RobotView
        The arm at the time ``t``.
    waypoints : ndarray, shape (k, n)
        The waypoints as the sliders set them (radians, metres).
    times : ndarray, shape (k,)
    plan : RestToRestTrajectory or ViaPointTrajectory
        The current plan (see :func:`plan_trajectory`).
    max_velocity, max_acceleration : ndarray, shape (n,)
    joints : tuple of int
        The joints plotted, numbered 1..n.
    axes : list of matplotlib Axes
        The q, q̇ and q̈ plots.
    curves, markers : list of list of Line2D
        Per plot, per joint shown: the planned curve and the dot at ``t``.
    cursors : list of Line2D
        The vertical line at ``t`` on each plot.
    """

    def __init__(
        self,
        robot: Any,
        plan_data: tuple[ArrayLike, ArrayLike, ArrayLike, ArrayLike],
        shown: tuple[Sequence[int] | None, Sequence[int] | None],
        scaling: str,
        planner: Planner | None,
        looks: tuple[ViewOptions | None, tuple[float, float], str],
    ) -> None:
        waypoints, times, max_velocity, max_acceleration = plan_data
        edit, joints = shown
        options, figsize, canvas = looks
        require_choice(scaling, "scaling", _SCALING_VALUES)
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        if planner is not None and not callable(planner):
            raise TypeError(
                f"planner must be a function (points, times, scaling) -> plan, got "
                f"{type(planner).__name__}"
            )
        self._planner = planner or plan_trajectory
        self._adapter = RobotAdapter.of(robot)
        self.robot = robot
        n = self._adapter.dof
        points = as_float_array(waypoints, "waypoints", (None, n))
        k = points.shape[0]
        if k < 2:
            raise ValueError(f"waypoints must hold at least two rows (start and end), got {k}")
        for row in points:
            self._adapter.check_q(row)
        self.times = as_float_array(times, "times", (k,))
        self.max_velocity = self._limit(max_velocity, "max_velocity", n)
        self.max_acceleration = self._limit(max_acceleration, "max_acceleration", n)
        self.edit = self._joint_numbers(edit, "edit", n, default=tuple(range(1, min(n, 2) + 1)))
        self.joints = self._joint_numbers(joints, "joints", n, default=self.edit)
        self._revolute = [kind == "revolute" for kind in self._adapter.joint_kinds]
        controls: dict[str, Any] = {"scaling": self._scaling_control(scaling)}
        self._base = points.copy()
        for j in range(1, k - 1):
            for i in self.edit:
                controls[f"via{j}_q{i}"] = self._via_slider(points[j, i - 1], i, j)
                self._base[j, i - 1] = controls[f"via{j}_q{i}"].value
        self.waypoints = self._base.copy()
        self.plan = self._planner(self.waypoints, self.times, scaling)
        first, last = float(self.times[0]), float(self.times[-1])
        controls["t"] = number_slider(first, first, last, _time_step(last - first), unit="s")
        live = _widgets.choose_canvas(canvas) == "ipympl"
        self._build_figure(as_figure_size(figsize), live, options)
        self._planned: tuple[Any, ...] | None = None
        name = self._adapter.name
        super().__init__(self._draw, self.figure, controls, title=f"{name}: trajectory")

    # --- arguments ---------------------------------------------------------------------------

    @staticmethod
    def _limit(value: ArrayLike, name: str, n: int) -> NDArray[np.float64]:
        limits = as_float_array(value, name)
        if limits.ndim == 0:
            limits = np.full(n, float(limits))
        if limits.shape != (n,):
            raise ValueError(
                f"{name} must be a number or one per joint, shape ({n},), got {limits.shape}"
            )
        if np.any(limits <= 0.0):
            raise ValueError(f"{name} must be positive, got {limits}")
        return limits

    @staticmethod
    def _joint_numbers(
        value: Sequence[int] | None, name: str, n: int, default: tuple[int, ...]
    ) -> tuple[int, ...]:
        if value is None:
            return default
        if isinstance(value, str) or not isinstance(value, Sequence) or not value:
            raise TypeError(f"{name} must be a list of joint numbers 1..{n}, got {value!r}")
        numbers = tuple(require_int(j, name) for j in value)
        if any(not 1 <= j <= n for j in numbers) or len(set(numbers)) != len(numbers):
            raise ValueError(f"{name} must be different joint numbers 1..{n}, got {value!r}")
        return numbers

    @staticmethod
    def _scaling_control(scaling: str) -> Control:
        dropdown = widgets.Dropdown(
            options=list(TIME_SCALINGS),
            value=scaling,
            description="scaling",
            layout=widgets.Layout(width="330px"),
        )
        dropdown.add_class("robolab-scaling")
        names = {value: label for label, value in TIME_SCALINGS}
        return Control(dropdown, describe=lambda value: names.get(value, str(value)))

    def _via_slider(self, value: float, joint: int, via: int) -> Control:
        low, high = self._adapter.joint_limits[joint - 1]
        label = f"via {via} q{joint}"
        if self._revolute[joint - 1]:
            degrees = float(np.round(np.degrees(value)))
            lo, hi = float(np.ceil(np.degrees(low))), float(np.floor(np.degrees(high)))
            return angle_slider(min(max(degrees, lo), hi), lo, hi, 1.0, label=label)
        lo, hi = np.ceil(low * 100) / 100, np.floor(high * 100) / 100
        metres = min(max(round(float(value), 2), lo), hi)
        return number_slider(metres, float(lo), float(hi), 0.01, unit="m", label=label)

    # --- drawing ----------------------------------------------------------------------------

    def _build_figure(
        self, figsize: tuple[float, float], live: bool, options: ViewOptions | None
    ) -> None:
        figure = _widgets.new_figure(figsize, 100.0, live=live)
        grid = figure.add_gridspec(
            3,
            2,
            width_ratios=(1.0, 1.9),
            left=0.0,
            right=0.985,
            top=0.91,
            bottom=0.12,
            hspace=0.14,
            wspace=0.12,
        )
        arm_axes = figure.add_subplot(grid[:, 0], projection="3d", computed_zorder=False)
        self.view = RobotView(self._adapter, self.waypoints[0], ax=arm_axes, options=options)
        self.figure = figure
        self.axes = [figure.add_subplot(grid[row, 1]) for row in range(3)]
        kinds = {self._revolute[j - 1] for j in self.joints}
        names = [name for name, kind in (("rad", True), ("m", False)) if kind in kinds]
        for ax, label, per in zip(self.axes, ("q", "q̇", "q̈"), ("", "/s", "/s²"), strict=True):
            unit = ", ".join(f"{name}{per}" for name in names)
            ax.set_ylabel(f"{label} ({unit})", fontsize=9, labelpad=2)
            ax.tick_params(labelsize=8, pad=1)
            ax.grid(alpha=0.3)
            ax.set_xlim(self.times[0], self.times[-1])
        for ax in self.axes[:2]:
            ax.tick_params(labelbottom=False)
        self.axes[2].set_xlabel("t (s)", fontsize=9, labelpad=1)
        self.curves: list[list[Any]] = [[], [], []]
        self.markers: list[list[Any]] = [[], [], []]
        for index, joint in enumerate(self.joints):
            colour = _COLOURS[index % len(_COLOURS)]
            i = joint - 1
            low, high = self._adapter.joint_limits[i]
            bounds = (
                (low, high),
                (-self.max_velocity[i], self.max_velocity[i]),
                (-self.max_acceleration[i], self.max_acceleration[i]),
            )
            for row, ax in enumerate(self.axes):
                (curve,) = ax.plot([], [], color=colour, lw=1.6, label=f"q{joint}")
                (marker,) = ax.plot([], [], "o", color=colour, ms=5)
                self.curves[row].append(curve)
                self.markers[row].append(marker)
                for bound in bounds[row]:
                    ax.axhline(bound, color=colour, lw=1.0, ls=(0, (4, 3)), alpha=0.8)
        self.axes[0].legend(
            fontsize=8,
            loc="lower left",
            bbox_to_anchor=(0.0, 1.0),
            ncols=len(self.joints),
            frameon=False,
            handlelength=1.2,
            borderpad=0.1,
            borderaxespad=0.1,
        )
        self.axes[0].set_title("dashed: limits", fontsize=8, loc="right", pad=3)
        self.cursors = [ax.axvline(self.times[0], color="#444", lw=0.9) for ax in self.axes]
        self._waypoint_dots = [
            self.axes[0].plot([], [], "s", color=_COLOURS[index % len(_COLOURS)], ms=4)[0]
            for index in range(len(self.joints))
        ]

    def _layout(self) -> widgets.Box:
        """The figure across the top; below it the controls and, beside them, the read-out.

        A wide figure and the read-out beside the sliders keep the whole editor within a
        1024×768 screen (JupyterLab's notebook column is about 850 px wide there).
        """
        self.readout = widgets.HTML(layout=widgets.Layout(overflow="auto", max_width="100%"))
        self.readout.add_class("robolab-live-readout")
        header = [widgets.HTML(f"<b>{html.escape(self.title)}</b>")] if self.title else []
        controls = widgets.VBox(
            [*header, *self.controls.values(), self.reset_button],
            layout=widgets.Layout(min_width=f"{self.label_width + TRACK_WIDTH + 10}px"),
        )
        below = widgets.HBox(
            [controls, self.readout],
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        widget = widgets.VBox([*self.figure_widgets, below])
        widget.add_class("robolab-live-figure")
        return widget

    def _replan(self, scaling: str) -> None:
        key = (scaling, self.waypoints.tobytes())
        if key == self._planned:
            return
        self._planned = key
        self.plan = self._planner(self.waypoints, self.times, scaling)
        t = np.linspace(self.times[0], self.times[-1], _SAMPLES)
        samples = [np.asarray(self.plan(t, order)) for order in (0, 1, 2)]
        self.peaks = tuple(np.asarray(p, dtype=float) for p in self.plan.peaks())
        for row, ax in enumerate(self.axes):
            for index, joint in enumerate(self.joints):
                self.curves[row][index].set_data(t, samples[row][:, joint - 1])
            self._fit_y(ax, row, samples[row])
        for index, joint in enumerate(self.joints):
            self._waypoint_dots[index].set_data(self.times, self.waypoints[:, joint - 1])

    def _fit_y(self, ax: Any, row: int, values: NDArray[np.float64]) -> None:
        shown = [j - 1 for j in self.joints]
        data = values[:, shown]
        if row == 0:
            limits = np.asarray(self._adapter.joint_limits)[shown]
            low = min(float(data.min()), float(limits[:, 0].min()))
            high = max(float(data.max()), float(limits[:, 1].max()))
        else:
            bound = self.max_velocity if row == 1 else self.max_acceleration
            top = max(float(np.abs(data).max()), float(bound[shown].max()))
            low, high = -top, top
        pad = 0.08 * (high - low or 1.0)
        ax.set_ylim(low - pad, high + pad)

    def _draw(self, scaling: str, t: float, **vias: float) -> str:
        """The live figure's update: re-plan if a waypoint or the scaling changed, move to t."""
        self.waypoints = self._base.copy()
        for name, value in vias.items():
            j, i = (int(part) for part in name[3:].split("_q"))
            self.waypoints[j, i - 1] = value
        self._replan(scaling)
        q = np.asarray(self.plan(t, 0), dtype=float)
        rates = [q, np.asarray(self.plan(t, 1)), np.asarray(self.plan(t, 2))]
        for row, cursor in enumerate(self.cursors):
            cursor.set_xdata([t, t])
            for index, joint in enumerate(self.joints):
                self.markers[row][index].set_data([t], [rates[row][joint - 1]])
        self.view.update(q, draw=False)
        return self._readout(scaling, t, rates)

    def _readout(self, scaling: str, t: float, rates: list[NDArray[np.float64]]) -> str:
        speed, accel = self.peaks
        label = dict((value, text) for text, value in TIME_SCALINGS)[scaling]
        rows = []
        broken = []
        for joint in self.joints:
            i = joint - 1
            cells = []
            for peak, limit, what in (
                (speed[i], self.max_velocity[i], "q̇"),
                (accel[i], self.max_acceleration[i], "q̈"),
            ):
                over = peak > limit * (1 + 1e-9)
                if over:
                    broken.append(f"{what}{joint}")
                colour = "#B00020" if over else "inherit"
                cells.append(
                    f'<td style="padding:0 6px;text-align:right;color:{colour}">'
                    f"{peak:.2f} / {limit:g}</td>"
                )
            rows.append(f"<tr><td>q{joint}</td>{''.join(cells)}</tr>")
        verdict = (
            f'<span style="color:#B00020">exceeds the limits: {", ".join(broken)}</span>'
            if broken
            else '<span style="color:#1B7F3B">within the limits</span>'
        )
        shown = ", ".join(f"{rates[0][j - 1]:.3f}" for j in self.joints)
        header = (
            '<tr><th></th><th style="padding:0 6px">peak |q̇| / limit</th>'
            '<th style="padding:0 6px">peak |q̈| / limit</th></tr>'
        )
        return (
            f"<div><b>{html.escape(label)}</b>, {self.plan.duration:.2f} s: {verdict}</div>"
            f'<table style="font-family:monospace;font-size:12px;border-collapse:collapse">'
            f"{header}{''.join(rows)}</table>"
            f"<div>t = {t:.2f} s: q = ({shown})</div>"
        )


def trajectory_view(
    robot: Any,
    waypoints: ArrayLike,
    times: ArrayLike,
    *,
    max_velocity: ArrayLike,
    max_acceleration: ArrayLike,
    edit: Sequence[int] | None = None,
    joints: Sequence[int] | None = None,
    scaling: str = "via-velocity",
    planner: Planner | None = None,
    figsize: tuple[float, float] = (8.2, 3.4),
    canvas: str = "auto",
    options: ViewOptions | None = None,
    **view_options: Any,
) -> TrajectoryView:
    """A waypoint editor: plan a joint motion, plot q, q̇, q̈ with the limits, scrub the arm.

    See the module documentation for what is drawn. Put it last in a cell.

    Parameters
    ----------
    robot : DHRobot or ScrewRobot
    waypoints : array_like, shape (k, n)
        Start, via points and end (k ≥ 2), radians / metres; the via values of
        the edited joints are rounded to the sliders' steps (1°, 1 cm).
    times : array_like, shape (k,)
        When each waypoint is reached, strictly increasing, seconds; the
        duration must be a whole number of hundredths of a second.
    max_velocity, max_acceleration : float or array_like, shape (n,)
        The limits drawn and checked (rad/s, rad/s²; m/s, m/s²).
    edit : sequence of int, optional
        The joints (1..n) whose via values get sliders (default joints 1 and 2).
    joints : sequence of int, optional
        The joints plotted (default the edited ones).
    scaling : str
        The selector's first choice: ``"cubic"``, ``"quintic"``,
        ``"trapezoidal"`` (stopping at each waypoint), ``"via-velocity"`` or
        ``"via-acceleration"`` (through the vias); see :data:`TIME_SCALINGS`.
    planner : callable, optional
        ``planner(points, times, scaling) -> plan`` instead of
        :func:`plan_trajectory`: a plan is called as ``plan(t, derivative)``
        (shape (n,) per time) and has ``peaks()`` and ``duration``.
    figsize : (float, float)
        Inches at 100 dpi (arm and plots in one figure, above the controls).
    canvas : {"auto", "ipympl", "image"}
    options : robolab.views.ViewOptions, optional
        The arm view's options, or give them as keywords (``elev``, ``azim``, ...).

    Returns
    -------
    TrajectoryView

    Examples
    --------
    The planar 2R arm through one via point, 1 s and 2 s later:

    >>> import numpy as np, robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> panel = robolab.trajectory_view(
    ...     arm, np.radians([[0, 0], [45, 45], [90, 90]]), [0, 1, 2],
    ...     max_velocity=2.0, max_acceleration=5.0)
    >>> list(panel.controls)
    ['scaling', 'via1_q1', 'via1_q2', 't']
    >>> print(panel.readout_text().splitlines()[0])
    cubic through vias (C¹), 2.00 s: within the limits
    >>> panel.set_values(scaling="cubic", via1_q2=120)  # stop at the via, elbow further
    >>> print(panel.readout_text().splitlines()[0])
    cubic, stop at each, 2.00 s: exceeds the limits: q̇2, q̈2
    >>> panel.controls["t"].value = 1.0
    >>> np.degrees(panel.view.q).round(6)
    array([ 45., 120.])
    """
    looks = ViewOptions.from_keywords(options, view_options, default=ENDS_ONLY)
    return TrajectoryView(
        robot,
        (waypoints, times, max_velocity, max_acceleration),
        (edit, joints),
        scaling,
        planner,
        (looks, figsize, canvas),
    )
