"""The recursive Newton–Euler algorithm one link at a time: a pass stepper on a 3D arm.

:func:`rnea_stepper` (a :class:`RneaStepper`) shows an arm at the configuration of one
Newton–Euler run and walks through the run's 2n steps: the **forward pass** (link 1 to n:
each link's twist V_i and acceleration V̇_i), then the **backward pass** (link n to 1: the
wrench F_i through joint i and the torque τ_i). *Next* and *Back* (or the ``step`` slider)
add or remove one step. Drawn at each link's centre of mass (the origin of its frame {i}):

* the **velocity** of that point, R_si v_i (blue),
* the linear part of the **acceleration** V̇_i, R_si v̇_i (orange): with the book's
  fictitious base acceleration V̇_0 = [0; -g] it points up by g when the arm is at rest;
  it is v̇ written in {i}, not the point's acceleration (that would add ω × v),
* the **force** f_i of the wrench F_i = [m_i; f_i] that link i-1 applies to link i
  (wine red),

with the link of the current step ringed, and a read-out: what the step computes, and
the table of the values so far, in the link frames (the book's numbers).

The table calls the two halves of V̇_i "dω" and "dv". The view draws; it computes no
dynamics. Its data is the record of one run, with the fields of :class:`robolab.RneaSteps`
(``frame == "link"``, ``joint_positions``, and per link ``link``, ``pose``, ``twist``,
``acceleration``, ``wrench`` and ``torque``): pass
``robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd)``. Without a widget front end it
shows the last step (every arrow and the whole table) as PNG and HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import ipywidgets as widgets
import numpy as np
from numpy.typing import NDArray

from ...support import widgets as _widgets
from ...support.arguments import as_figure_size, as_float_array, require_choice, require_int
from ..drawing.drawable import RobotAdapter, RobotLike
from ..drawing.options import CANVAS_CHOICES, ENDS_ONLY, ViewOptions
from ..drawing.robot_view import RobotView
from ..widgets.controls import number_slider
from ..widgets.live_figure import LiveFigure
from .twist_view import arrow, joined

__all__ = ["RneaStepper", "rnea_stepper"]

VELOCITY_COLOUR = "#0072B2"
ACCELERATION_COLOUR = "#E69F00"
FORCE_COLOUR = "#882255"
#: The longest arrow of each kind, as a fraction of the arm's reach.
_LONGEST = 0.45


class _LinkValues(Protocol):
    """What the stepper reads of one link's record (a :class:`robolab.RneaLinkStep`)."""

    link: int
    pose: NDArray[np.float64]
    twist: NDArray[np.float64]
    acceleration: NDArray[np.float64]
    wrench: NDArray[np.float64]
    torque: float


class _RunValues(Protocol):
    """What the stepper reads of one run (a :class:`robolab.RneaSteps`)."""

    frame: str
    joint_positions: NDArray[np.float64]
    links: Sequence[_LinkValues]


def _checked_links(steps: Any, n: int) -> list[dict[str, Any]]:
    """The per-link values of ``steps``, checked: shapes, finite numbers, link order."""
    frame = getattr(steps, "frame", None)
    if frame != "link":
        raise ValueError(
            "steps must be written in the link frames (steps.frame == 'link'), got "
            f"{frame!r}: pass robolab.inverse_dynamics_rnea_steps(robot, q, qd, qdd)"
        )
    links = list(getattr(steps, "links", ()))
    if len(links) != n:
        raise ValueError(f"steps has {len(links)} links, the robot {n} joints")
    checked = []
    for i, record in enumerate(links):
        if getattr(record, "link", None) != i + 1:
            raise ValueError(f"steps.links[{i}] must be link {i + 1}")
        checked.append(
            {
                "pose": as_float_array(record.pose, f"steps.links[{i}].pose", (4, 4)),
                "twist": as_float_array(record.twist, f"steps.links[{i}].twist", (6,)),
                "acceleration": as_float_array(
                    record.acceleration, f"steps.links[{i}].acceleration", (6,)
                ),
                "wrench": as_float_array(record.wrench, f"steps.links[{i}].wrench", (6,)),
                "torque": float(as_float_array(record.torque, f"steps.links[{i}].torque", ())),
            }
        )
    return checked


def _pair(vector: np.ndarray, top: str, bottom: str) -> str:
    """A 6-vector as two lines of a table cell: its angular (or moment) part, then the rest."""

    def line(part: np.ndarray) -> str:
        return " ".join(f"{float(np.round(v, 2)) + 0.0:6.2f}" for v in part)

    return (
        f'<span style="color:#666">{top}</span> {line(vector[:3])} <br>'
        f'<span style="color:#666">{bottom}</span> {line(vector[3:])}'
    )


class RneaStepper(LiveFigure):
    """Next/Back through one Newton–Euler run on a 3D arm (made by :func:`rnea_stepper`).

    Controls: ``step`` (0 to 2n; 1..n are the forward pass, n+1..2n the
    backward pass, from link n down to link 1), driven by the buttons.

    Attributes
    ----------
    view : RobotView
        The arm at the run's joint positions (it does not move).
    n : int
        Number of links.
    next_button, back_button : ipywidgets.Button
        One step forward or back.
    velocity_arrows, acceleration_arrows, force_arrows, centres, current : Line3D
        The drawn arrows, the centres of mass and the ring on the current link.
    scales : dict of str to float
        Metres of arrow per m/s, m/s² and N.
    """

    def __init__(
        self,
        robot: RobotLike,
        steps: _RunValues,
        *,
        step: int = 0,
        options: ViewOptions | None = None,
        figsize: tuple[float, float] = (3.8, 3.8),
        canvas: str = "auto",
        **view_options: Any,
    ) -> None:
        options = ViewOptions.from_keywords(options, view_options, default=ENDS_ONLY)
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        figsize = as_figure_size(figsize)
        self._adapter = RobotAdapter.of(robot)
        self.robot = robot
        self.n = n = self._adapter.dof
        self._links = _checked_links(steps, n)
        self.q = self._adapter.check_q(np.asarray(steps.joint_positions)).copy()
        start = require_int(step, "step")
        if not 0 <= start <= 2 * n:
            raise ValueError(f"step must be between 0 and {2 * n} (2n for {n} links), got {step}")
        live = _widgets.choose_canvas(canvas) == "ipympl"
        figure = _widgets.new_figure(figsize, 100.0, live=live)
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=1.0)
        self.view = RobotView(self._adapter, self.q, ax=ax, options=options)
        self._head = 0.06 * self.view.reach
        self.centre_points = np.array([values["pose"][:3, 3] for values in self._links])
        self._vectors = {
            "velocity": self._in_space("twist"),
            "acceleration": self._in_space("acceleration"),
            "force": self._in_space("wrench"),
        }
        self.scales = {
            kind: _LONGEST * self.view.reach / max(float(np.linalg.norm(v, axis=1).max()), 1e-9)
            for kind, v in self._vectors.items()
        }
        self._build_artists(ax)
        controls = {"step": number_slider(start, 0, 2 * n, 1)}
        name = self._adapter.name
        super().__init__(
            self._draw, self.view, controls, title=f"{name}: Newton–Euler, step by step"
        )

    def _in_space(self, name: str) -> np.ndarray:
        """The linear (or force) part of each link's ``name`` vector, turned into {s}: (n, 3)."""
        return np.array([values["pose"][:3, :3] @ values[name][3:] for values in self._links])

    # --- buttons ----------------------------------------------------------------------------

    def _layout(self) -> widgets.Box:
        self.back_button = widgets.Button(
            description="Back", icon="arrow-left", tooltip="undo the last step"
        )
        self.next_button = widgets.Button(
            description="Next", icon="arrow-right", tooltip="the next link of the pass"
        )
        self.back_button.on_click(self.on_back_click)
        self.next_button.on_click(self.on_next_click)
        for button in (self.back_button, self.next_button, self.reset_button):
            button.layout = widgets.Layout(width="92px")
        row = super()._layout()  # figures, then the panel of controls and read-out
        panel = row.children[-1]
        buttons = widgets.HBox([self.back_button, self.next_button, self.reset_button])
        self.guide = widgets.HTML(self._guide())
        kept = [child for child in panel.children if child is not self.readout]
        panel.children = [buttons if child is self.reset_button else child for child in kept]
        panel.children = (*panel.children, self.guide)
        # The table needs the whole width: it goes under the figure and the buttons.
        widget = widgets.VBox([row, self.readout])
        widget.add_class("robolab-rnea-stepper")
        return widget

    def on_next_click(self, _button: Any = None) -> None:
        """*Next*: one step on (nothing after the last step)."""
        self.controls["step"].value = min(self.values["step"] + 1, 2 * self.n)

    def on_back_click(self, _button: Any = None) -> None:
        """*Back*: one step back (nothing before the start)."""
        self.controls["step"].value = max(self.values["step"] - 1, 0)

    # --- drawing ----------------------------------------------------------------------------

    def _build_artists(self, ax: Any) -> None:
        empty = np.zeros(0)
        (self.centres,) = ax.plot(
            *self.centre_points.T, "o", ms=4, color="#333333", zorder=9, ls="none"
        )
        (self.current,) = ax.plot(
            empty, empty, empty, "o", ms=13, mfc="none", mec="#009E73", mew=2.2, zorder=12
        )
        self.velocity_arrows, self.acceleration_arrows, self.force_arrows = (
            ax.plot(empty, empty, empty, color=colour, lw=2.4, zorder=10)[0]
            for colour in (VELOCITY_COLOUR, ACCELERATION_COLOUR, FORCE_COLOUR)
        )

    def shown(self, step: int | None = None) -> tuple[list[int], list[int]]:
        """Links (1..n) whose forward values, and whose backward values, are known at ``step``."""
        step = self.values["step"] if step is None else step
        forward = list(range(1, min(step, self.n) + 1))
        backward = list(range(self.n, self.n - max(step - self.n, 0), -1))
        return forward, backward

    def _draw(self, step: int) -> str:
        forward, backward = self.shown(step)
        arrows = {
            self.velocity_arrows: ("velocity", forward),
            self.acceleration_arrows: ("acceleration", forward),
            self.force_arrows: ("force", backward),
        }
        for artist, (kind, links) in arrows.items():
            pieces = [
                arrow(
                    self.centre_points[i - 1],
                    self.scales[kind] * self._vectors[kind][i - 1],
                    self._head,
                )
                for i in links
            ]
            artist.set_data_3d(*joined(pieces).T)
        link = self._current_link(step)
        point = self.centre_points[link - 1 : link] if link else np.full((1, 3), np.nan)
        self.current.set_data_3d(*point.T)
        return self._readout(step, forward, backward)

    def _current_link(self, step: int) -> int:
        if step == 0:
            return 0
        return step if step <= self.n else 2 * self.n + 1 - step

    # --- read-out ---------------------------------------------------------------------------

    def _step_text(self, step: int) -> str:
        n, i = self.n, self._current_link(step)
        if step == 0:
            return (
                "Start: V<sub>0</sub> = 0, V̇<sub>0</sub> = [0; −g] (gravity as an upward "
                f"acceleration of the base), F<sub>{n + 1}</sub> = F<sub>tip</sub>. Click Next."
            )
        if step <= n:
            return (
                f"Forward pass, link {i}: V<sub>{i}</sub> = [Ad<sub>T{i},{i - 1}</sub>] "
                f"V<sub>{i - 1}</sub> + A<sub>{i}</sub> θ̇<sub>{i}</sub>, V̇<sub>{i}</sub> = "
                f"[Ad<sub>T{i},{i - 1}</sub>] V̇<sub>{i - 1}</sub> + [ad<sub>V{i}</sub>] "
                f"A<sub>{i}</sub> θ̇<sub>{i}</sub> + A<sub>{i}</sub> θ̈<sub>{i}</sub>"
            )
        return (
            f"Backward pass, link {i}: F<sub>{i}</sub> = [Ad<sub>T{i + 1},{i}</sub>]<sup>T</sup> "
            f"F<sub>{i + 1}</sub> + G<sub>{i}</sub> V̇<sub>{i}</sub> − [ad<sub>V{i}</sub>]"
            f"<sup>T</sup> G<sub>{i}</sub> V<sub>{i}</sub>, τ<sub>{i}</sub> = "
            f"F<sub>{i}</sub><sup>T</sup> A<sub>{i}</sub>"
        )

    def _readout(self, step: int, forward: list[int], backward: list[int]) -> str:
        cell = 'style="padding:1px 6px;text-align:right;white-space:pre"'
        head = 'style="padding:1px 6px;text-align:center"'
        current = self._current_link(step)
        rows = []
        for i, values in enumerate(self._links, start=1):
            known, back = i in forward, i in backward
            blank = '<span style="color:#999">·</span>'
            twist = _pair(values["twist"], "ω", "v") if known else blank
            accel = _pair(values["acceleration"], "dω", "dv") if known else blank
            wrench = _pair(values["wrench"], "m", "f") if back else blank
            torque = f"{values['torque'] + 0.0:.2f}" if back else blank
            shade = ' style="background:#e6f5ef"' if i == current else ""
            rows.append(
                f"<tr{shade}><td {cell}>{i}</td><td {cell}>{twist}</td><td {cell}>{accel}</td>"
                f"<td {cell}>{wrench}</td><td {cell}>{torque}</td></tr>"
            )
        table = (
            '<table style="font-family:monospace;font-size:11px;border-collapse:collapse">'
            f"<tr><th {head}>i</th><th {head}>V<sub>i</sub></th><th {head}>V̇<sub>i</sub></th>"
            f"<th {head}>F<sub>i</sub></th><th {head}>τ<sub>i</sub></th></tr>"
            + "".join(rows)
            + "</table>"
        )
        return (
            f"<div><b>Step {step} of {2 * self.n}.</b> {self._step_text(step)}</div>"
            f"<div>In the link frames {{i}}, [ω; v], [m; f] (SI units):</div>{table}"
        )

    def _guide(self) -> str:
        """What the arrows are (beside the figure; their scales are fixed for the run)."""
        s = self.scales
        items = (
            (
                VELOCITY_COLOUR,
                "v",
                "velocity of the centre of mass",
                f"{s['velocity']:.2g} m per m/s",
            ),
            (
                ACCELERATION_COLOUR,
                "v̇",
                "linear part of V̇<sub>i</sub> (with g up)",
                f"{s['acceleration']:.2g} m per m/s²",
            ),
            (
                FORCE_COLOUR,
                "f",
                "force of F<sub>i</sub>, from link i−1",
                f"{s['force']:.2g} m per N",
            ),
        )
        lines = "".join(
            f'<div><span style="color:{colour}">■ {name}</span>: {what} ({scale})</div>'
            for colour, name, what, scale in items
        )
        return (
            '<div style="font-size:12px;line-height:1.4;max-width:360px">'
            "<div>Next: one link. Forward pass, link 1 → n: twist V<sub>i</sub> and "
            "acceleration V̇<sub>i</sub>; backward pass, link n → 1: wrench F<sub>i</sub> "
            "and torque τ<sub>i</sub>.</div>"
            f"{lines}<div>Arrows at each centre of mass, in {{s}}; ◯ the current link."
            "</div></div>"
        )

    # --- display: the static part shows the whole run ---------------------------------------

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        shown = self.values["step"]
        if shown == 2 * self.n:
            return super()._repr_mimebundle_(include, exclude)
        self.set_values(step=2 * self.n)
        try:
            static = super()._repr_mimebundle_(include, exclude)
        finally:
            self.set_values(step=shown)
        view = _widgets.widget_bundle(self.widget, {})
        return {**static, **{k: v for k, v in view.items() if k not in static}}

    def __repr__(self) -> str:
        return f"<RneaStepper {self._adapter.name!r} at step {self.values['step']} of {2 * self.n}>"


def rnea_stepper(
    robot: RobotLike,
    steps: _RunValues,
    *,
    step: int = 0,
    options: ViewOptions | None = None,
    figsize: tuple[float, float] = (3.8, 3.8),
    canvas: str = "auto",
    **view_options: Any,
) -> RneaStepper:
    """Step through one Newton–Euler run on a 3D arm: forward pass, then backward pass.

    The module documentation says what the arrows and the table show; the
    panel is displayed when it is the last value of a notebook cell.

    Parameters
    ----------
    robot : ScrewRobot or DHRobot
        The arm of the run (numbers, no symbols).
    steps : RneaSteps
        One run, in the link frames: ``robolab.inverse_dynamics_rnea_steps(robot, q, qd,
        qdd)`` (the view reads its ``joint_positions`` and per link ``pose``, ``twist``,
        ``acceleration``, ``wrench`` and ``torque``).
    step : int
        The step shown first, 0 (nothing computed yet) to 2n (the whole run).
    options : robolab.views.ViewOptions, optional
        How the arm is drawn (default: only the base and end-effector frames,
        ``frames="ends"``); the same options may be given as keywords, as for
        :func:`robolab.plot_robot` (``elev=25, azim=-60``).
    figsize : (float, float)
        Size of the 3D picture in inches (100 pixels each).
    canvas : {"auto", "ipympl", "image"}
        The live ipympl canvas or PNG pixels, as for :func:`robolab.teach`.

    Returns
    -------
    RneaStepper
        The panel (``next_button``, ``back_button``, ``controls["step"]``).

    Examples
    --------
    >>> import robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> run = robolab.inverse_dynamics_rnea_steps(arm, [0.0, 0.0], [1.0, 0.0], [0.0, 0.0])
    >>> panel = robolab.rnea_stepper(arm, run)
    >>> print(panel.readout_text().splitlines()[0][:12])
    Step 0 of 4.
    >>> panel.next_button.click(); panel.next_button.click(); panel.next_button.click()
    >>> panel.shown()  # links with V, V̇ known; links with F, τ known
    ([1, 2], [2])
    >>> panel.back_button.click()
    >>> panel.values
    {'step': 2}
    """
    return RneaStepper(
        robot,
        steps,
        step=step,
        options=options,
        figsize=figsize,
        canvas=canvas,
        **view_options,
    )
