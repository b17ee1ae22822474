"""Target-pose sliders and every inverse-kinematics solution: :class:`InverseKinematicsExplorer`.

:func:`explore_inverse_kinematics` makes one. Six sliders set the target pose T_sd
(position x, y, z in metres; orientation as roll, pitch, yaw,
``R = Rz(yaw) Ry(pitch) Rx(roll)``). After every move

* the closed-form solver (:func:`robolab.inverse_kinematics_analytic`, when the arm
  has a closed form) gives every branch: the first one within the joint limits is
  drawn as the arm, the others as ghost arms, one colour per branch;
* the numerical solvers (:func:`robolab.inverse_kinematics_body`, Newton–Raphson and
  damped least squares) start from one fixed guess, and their error ‖V_b‖ per
  iteration is plotted beside the arm (log scale), with the tolerance;
* the read-out lists the branches (joint angles in degrees, which lie within the
  limits) and which branch each numerical solver ended on, or, for a target out of
  reach, by how much, while the numerical solvers report failure and their
  remaining error.

The panel is a :class:`robolab.LiveFigure`: the static fallback (figure and read-out
as PNG and HTML) is built in, and a slider's ``value`` set kernel-side is what a
browser does.
"""

from __future__ import annotations

import html
import math
from typing import Any

import ipywidgets as widgets
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...screw.kinematics.forward import forward_kinematics_space
from ...screw.kinematics.inverse import InverseKinematicsResult, inverse_kinematics_body
from ...screw.kinematics.inverse_analytic import (
    AnalyticInverseKinematicsResult,
    OutOfReachError,
    arm_family,
    inverse_kinematics_analytic,
)
from ...screw.robot import ScrewRobot
from ...spatial.transforms import rotation_to_rpy, rpy_to_rotation
from ...support import widgets as _widgets
from ...support.arguments import as_figure_size, as_float_array, as_real_number, require_choice
from ...support.renames import renamed_keywords
from ..drawing.drawable import RobotAdapter
from ..drawing.frame_pictures import draw_frame
from ..drawing.options import CANVAS_CHOICES, ENDS_ONLY, ViewOptions
from ..drawing.robot_view import RobotView
from ..widgets.controls import angle_slider, number_slider
from ..widgets.live_figure import LiveFigure

__all__ = ["InverseKinematicsExplorer", "explore_inverse_kinematics"]

#: One colour per branch (Okabe–Ito, apart for readers with colour-vision deficiencies).
GHOST_COLOURS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)
#: The numerical solvers compared, with their line styles in the error plot.
SOLVERS = (
    ("newton", "Newton–Raphson", "#0072B2"),
    ("damped_least_squares", "damped LS", "#D55E00"),
)
#: Tolerances of the numerical solvers (rad, m) and the plot's error range.
TOLERANCE = 1e-6
_ERROR_FLOOR, _ERROR_CEILING = 1e-12, 1e1


def _rounded(value: float, step: float) -> float:
    return round(round(value / step) * step, 6)


def _branch_words(label: str) -> list[str]:
    """``"shoulder right, elbow up, wrist flipped"`` → ``["right", "up", "flipped"]``."""
    return [part.split(" ", 1)[1].replace("not flipped", "—") for part in label.split(", ")]


class InverseKinematicsExplorer(LiveFigure):
    """Target-pose sliders, the arm and its ghost branches, the numerical error per iteration.

    Made by :func:`explore_inverse_kinematics` (which explains the options).

    Attributes
    ----------
    view : RobotView
        The arm, at the first analytic solution within the limits (or, without
        one, at the damped least-squares result).
    q0 : ndarray, shape (n,)
        The configuration whose end-effector pose is the first target (the ``q`` given).
    ghosts : list of matplotlib Line3D
        One polyline per analytic branch (hidden when unused).
    target_frame : FrameTriad
        The target pose {d}.
    error_lines : dict of str to Line2D
        ‖V_b‖ per iteration of each numerical solver, by method.
    analytic : AnalyticInverseKinematicsResult or None
        The closed-form solutions of the current target (None if out of reach or
        the arm has no closed form).
    numerical : dict of str to InverseKinematicsResult
        The numerical results from :attr:`initial_guess`, by method.
    out_of_reach : str
        Why the closed form found nothing ("" when it did).
    """

    label_minimum = 70
    reset_tooltip = "back to the initial target"

    @renamed_keywords(q0="q")
    def __init__(
        self,
        robot: ScrewRobot,
        q: ArrayLike | None = None,
        *,
        initial_guess: ArrayLike | None = None,
        damping: float = 0.05,
        options: ViewOptions | None = None,
        figsize: tuple[float, float] = (8.0, 3.3),
        canvas: str = "auto",
        **view_options: Any,
    ) -> None:
        if not isinstance(robot, ScrewRobot):
            raise TypeError(
                "robot must be a robolab.ScrewRobot (e.g. robolab.load_robot('puma560')), "
                f"got {type(robot).__name__}"
            )
        options = ViewOptions.from_keywords(options, view_options, default=ENDS_ONLY)
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        canvas = _widgets.choose_canvas(canvas)
        figsize = as_figure_size(figsize)
        self.damping = as_real_number(damping, "damping", positive=True)
        self.robot = robot
        self._adapter = RobotAdapter.of(robot)
        self.q0 = self._adapter.home() if q is None else self._adapter.check_q(q)
        self.initial_guess = (
            self.q0.copy()
            if initial_guess is None
            else as_float_array(initial_guess, "initial_guess", (robot.n_joints,))
        )
        self.family = arm_family(robot)
        self.analytic: AnalyticInverseKinematicsResult | None = None
        self.numerical: dict[str, InverseKinematicsResult] = {}
        self.out_of_reach = ""

        figure = _widgets.new_figure(figsize, 100.0, live=canvas == "ipympl")
        ax = figure.add_axes((0.0, 0.0, 0.55, 1.0), projection="3d", computed_zorder=False)
        self.view = RobotView(self._adapter, self.q0, ax=ax, options=options)
        self.ghosts: list[Any] = [
            ax.plot([], [], [], color=c, lw=3.0, alpha=0.8, zorder=3)[0] for c in GHOST_COLOURS
        ]
        start = forward_kinematics_space(robot, self.q0)
        self.target_frame = draw_frame(
            ax, start, "d", length=0.15 * self.view.reach, labels="origin", linewidth=1.6
        )
        self._build_error_plot(figure)
        super().__init__(self._solve, self.view.figure, self._pose_controls(start), canvas=canvas)

    # --- construction -----------------------------------------------------------------------

    def _build_error_plot(self, figure: Any) -> None:
        ax = figure.add_axes((0.65, 0.15, 0.33, 0.74))
        ax.set_yscale("log")
        ax.set_ylim(_ERROR_FLOOR, _ERROR_CEILING)
        ax.set_xlim(0, 20)
        ax.set_xlabel("iteration", fontsize=9)
        ax.set_ylabel("‖V_b‖ (error twist)", fontsize=9)
        ax.set_title("numerical IK from one start", fontsize=9)
        ax.tick_params(labelsize=8)
        ax.axhline(TOLERANCE, color="#777777", lw=0.8, ls="--")
        ax.text(
            0.98,
            TOLERANCE * 2,
            "tolerance",
            transform=ax.get_yaxis_transform(),
            ha="right",
            va="bottom",
            fontsize=7,
            color="#555555",
        )
        self.error_axes = ax
        self.error_lines = {
            method: ax.plot([], [], marker="o", ms=3, lw=1.2, color=colour, label=label)[0]
            for method, label, colour in SOLVERS
        }
        ax.legend(fontsize=7, loc="upper right")

    def _pose_controls(self, start: NDArray[np.float64]) -> dict[str, Any]:
        centre, reach, z_range = self._adapter.workspace()
        x, y, z = start[:3, 3]
        roll, pitch, yaw = np.degrees(rotation_to_rpy(start[:3, :3]))
        controls: dict[str, Any] = {}
        for name, value, low, high in (
            ("x", x, centre[0] - reach, centre[0] + reach),
            ("y", y, centre[1] - reach, centre[1] + reach),
            ("z", z, min(z_range[0], centre[2] - reach), max(z_range[1], centre[2] + reach)),
        ):
            low, high = _rounded(low - 0.1, 0.1), _rounded(high + 0.1, 0.1)
            controls[name] = number_slider(_rounded(value, 0.01), low, high, 0.01, unit="m")
        for name, value, limit in (("roll", roll, 180), ("pitch", pitch, 90), ("yaw", yaw, 180)):
            controls[name] = angle_slider(min(max(round(value), -limit), limit), -limit, limit, 1)
        return controls

    def _layout(self) -> widgets.Box:
        """The figure on top; below it the sliders and Reset, and the read-out beside them."""
        self.readout = widgets.HTML(layout=widgets.Layout(overflow="auto", flex="1 1 300px"))
        self.readout.add_class("robolab-live-readout")
        sliders = widgets.VBox(
            [*self.controls.values(), self.reset_button], layout=widgets.Layout(flex="0 0 auto")
        )
        below = widgets.HBox(
            [sliders, self.readout], layout=widgets.Layout(align_items="flex-start")
        )
        widget = widgets.VBox([*self.figure_widgets, below])
        widget.add_class("robolab-live-figure")
        widget.add_class("robolab-ik-explorer")
        return widget

    # --- the update ------------------------------------------------------------------------

    def target_pose(self) -> NDArray[np.float64]:
        """T_sd of the sliders now."""
        values = self.values
        T = np.eye(4)
        T[:3, :3] = rpy_to_rotation(values["roll"], values["pitch"], values["yaw"])
        T[:3, 3] = values["x"], values["y"], values["z"]
        return T

    def _solve(self, x: float, y: float, z: float, roll: float, pitch: float, yaw: float) -> str:
        T = np.eye(4)
        T[:3, :3] = rpy_to_rotation(roll, pitch, yaw)
        T[:3, 3] = x, y, z
        self.target_frame.set_pose(T)
        self.analytic, self.out_of_reach = None, ""
        if self.family is not None:
            try:
                # A planar 2R arm's position fixes its orientation: solve for the position.
                target = T[:3, 3] if self.family == "planar 2R" else T
                self.analytic = inverse_kinematics_analytic(self.robot, target)
            except OutOfReachError as error:
                self.out_of_reach = str(error)
        self.numerical = {
            method: inverse_kinematics_body(
                self.robot,
                T,
                self.initial_guess,
                TOLERANCE,
                TOLERANCE,
                method=method,
                damping=self.damping,
            )
            for method, _, _ in SOLVERS
        }
        self._draw_arms()
        self._draw_errors()
        return self._readout()

    def shown_branch(self) -> int | None:
        """Index of the analytic solution drawn as the arm (None: none is drawn)."""
        if self.analytic is None or not len(self.analytic):
            return None
        inside = np.flatnonzero(self.analytic.within_limits)
        return int(inside[0]) if len(inside) else 0

    def _draw_arms(self) -> None:
        shown = self.shown_branch()
        solutions = [] if self.analytic is None else list(self.analytic.solutions)
        for index, ghost in enumerate(self.ghosts):
            visible = index < len(solutions) and index != shown
            if visible:
                ghost.set_data_3d(*self._adapter.skeleton(solutions[index]).link_points.T)
            ghost.set_visible(visible)
        q = solutions[shown] if shown is not None else self.numerical[SOLVERS[1][0]].joint_positions
        self.view.update(q, draw=False)

    def _draw_errors(self) -> None:
        longest = 5
        for method, line in self.error_lines.items():
            history = self.numerical[method].error_history
            errors = np.clip(np.hypot(history[:, 0], history[:, 1]), _ERROR_FLOOR, None)
            line.set_data(np.arange(len(errors)), errors)
            longest = max(longest, len(errors) - 1)
        self.error_axes.set_xlim(0, longest + 1)

    # --- read-outs ----------------------------------------------------------------------------

    def branch_of(self, q: NDArray[np.float64]) -> str | None:
        """The label of the analytic solution equal to ``q`` (angles mod 2π), or None."""
        if self.analytic is None:
            return None
        for row, label in zip(self.analytic.solutions, self.analytic.branches, strict=True):
            if np.abs(np.remainder(q - row + np.pi, 2 * np.pi) - np.pi).max() < 1e-4:
                return label
        return None

    @staticmethod
    def _branch_columns(result: AnalyticInverseKinematicsResult) -> tuple[str, ...]:
        return ("elbow",) if result.family == "planar 2R" else ("shoulder", "elbow", "wrist")

    def _readout(self) -> str:
        lines = []
        if self.family is None:
            lines.append(f"<b>{html.escape(self.robot.name)}</b> has no closed form in robolab.")
        elif self.analytic is None:
            lines.append(f"<b>Closed form:</b> {html.escape(self.out_of_reach)}.")
        else:
            result = self.analytic
            lines.append(
                f"<b>Closed form:</b> {len(result)} solutions, "
                f"{int(result.within_limits.sum())} within the joint limits (degrees):"
            )
            cell = '<td style="text-align:right;padding:0 0 0 6px">'
            header = "".join(f"{cell}{name}</td>" for name in self._branch_columns(result))
            header += "".join(f"{cell}q{i + 1}</td>" for i in range(self.robot.n_joints))
            rows = "".join(
                f'<tr><td style="color:{GHOST_COLOURS[i]}">■</td>'
                + "".join(f"{cell}{html.escape(word)}</td>" for word in _branch_words(label))
                + "".join(f"{cell}{np.degrees(a) + 0.0:.0f}</td>" for a in row)
                + f"<td>{'' if inside else ' ✗'}</td></tr>"
                for i, (row, label, inside) in enumerate(
                    zip(result.solutions, result.branches, result.within_limits, strict=True)
                )
            )
            lines.append(
                '<table style="font-family:monospace;font-size:11px;line-height:1.2;'
                f'border-collapse:collapse"><tr><td></td>{header}<td></td></tr>{rows}</table>'
                "✗ outside the joint limits; the arm shows the first row within them."
            )
        for method, label, _ in SOLVERS:
            found = self.numerical[method]
            error = math.hypot(found.angular_error, found.linear_error)
            if found.success:
                branch = self.branch_of(found.joint_positions)
                where = f", branch “{branch}”" if branch else ""
                text = f"converged in {found.iterations} iterations{where}"
            else:
                text = f"failed after {found.iterations} iterations, error {error:.2g} left"
            lines.append(f"<b>{label}:</b> {html.escape(text)}")
        return "<br>".join(lines)


@renamed_keywords(q0="q")
def explore_inverse_kinematics(
    robot: ScrewRobot,
    q: ArrayLike | None = None,
    *,
    initial_guess: ArrayLike | None = None,
    damping: float = 0.05,
    frames: str = "ends",
    shadow: bool = True,
    elev: float = 35.0,
    azim: float = -110.0,
    limits: tuple[float, ...] | None = None,
    zoom: float = 1.2,
    figsize: tuple[float, float] = (8.0, 3.3),
    canvas: str = "auto",
) -> InverseKinematicsExplorer:
    """Sliders for a target pose; every analytic branch as a ghost arm; the numerical error.

    Put it last in a cell. See the module documentation for what is drawn.

    Parameters
    ----------
    robot : ScrewRobot
        The arm (``robolab.load_robot("puma560")``). Arms without a closed form
        (:func:`robolab.arm_family` is None) show the numerical solvers only.
    q : array_like, shape (n,), optional
        The first target is the end-effector pose at ``q`` (rounded to the
        sliders' steps: 1 cm, 1°); default the home configuration. (``q0=`` is its
        old name.)
    initial_guess : array_like, shape (n,), optional
        Where both numerical solvers start (default ``q``).
    damping : float
        λ of the damped least-squares solver.
    frames, shadow, elev, azim, limits, zoom
        The picture's options, as in :func:`robolab.plot_robot` (default: the
        base and end-effector triads only, seen from the front left and above,
        where the branches of a Puma stand apart, magnified 1.2 times).
    figsize : (float, float)
        Figure size in inches at 100 dpi (default 800 × 330 pixels: the panel fits a
        1024 × 768 screen in JupyterLab).
    canvas : {"auto", "ipympl", "image"}
        As in :func:`robolab.teach`.

    Returns
    -------
    InverseKinematicsExplorer

    Examples
    --------
    >>> import robolab
    >>> puma = robolab.load_robot("puma560")
    >>> explorer = explore_inverse_kinematics(puma, [0.3, 0.5, -0.9, 0.6, 0.8, 0.2])
    >>> len(explorer.analytic), int(explorer.analytic.within_limits.sum())
    (8, 2)
    >>> print(explorer.readout_text().splitlines()[-1])
    damped LS: converged in 5 iterations, branch “shoulder right, elbow down, wrist not flipped”
    >>> explorer.controls["x"].value = 1.0          # what a drag or an arrow key does
    >>> print(explorer.readout_text().splitlines()[0])
    Closed form: the wrist centre of the target is out of reach by 0.2884 m ...
    >>> explorer.numerical["newton"].success, sum(g.get_visible() for g in explorer.ghosts)
    (False, 0)
    """
    options = ViewOptions(frames, shadow, elev, azim, limits, zoom)
    return InverseKinematicsExplorer(
        robot,
        q,
        initial_guess=initial_guess,
        damping=damping,
        options=options,
        figsize=figsize,
        canvas=canvas,
    )
