"""The end-effector twist of an arm, live: joint-velocity sliders and velocity arrows in 3D.

:func:`twist_view` (a :class:`TwistView`) shows an arm at a fixed configuration ``q`` and
one slider per joint *velocity*. Each step of a slider redraws

* the **end-effector twist** as two arrows at the end-effector origin: the angular
  velocity ω (blue) and the velocity ``ṗ`` of the origin (orange);
* each **Jacobian column as a joint screw**: a dashed line along the current axis of
  joint i, and an arrow along it of length ``q̇_i`` (wine red): the screw ``J_i q̇_i``
  that joint i contributes (a turn about the line, or a slide along it);
* with the frame choice ``space``, also the arrow ``v_s`` at the origin of {s}: the
  velocity of the (imagined) body point passing through the fixed origin, which the
  space twist ``[ω; v_s]`` holds;

and a read-out of the chosen Jacobian and of the twist ``J q̇`` in one of three
conventions (``docs/conventions.md``):

====== =================================== =========== =====================================
choice Jacobian                            rows        twist
====== =================================== =========== =====================================
space  ``J_s`` (Modern Robotics eq. 5.11)  [ω; v]      ``V_s``, written in {s}
body   ``J_b = [Ad_T_bs] J_s`` (eq. 5.18)  [ω; v]      ``V_b``, written in the end-effector
                                                       frame
base   ``J`` of ``DHRobot.J`` (Spong)      [v; ω]      ``(ṗ, ω)`` in the base frame {0}
====== =================================== =========== =====================================

The picture does not change with the frame: ω and ``ṗ`` are the same arrows whatever
frame their numbers are written in; only the numbers do. The view is a
:class:`robolab.LiveFigure` over a :class:`robolab.RobotView`, so it has the live
figure's static fallback (picture and read-out) wherever there is no widget front end.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...spatial.rigid_body_motions import adjoint_representation_unchecked, transform_inv_unchecked
from ...support import widgets as _widgets
from ...support.arguments import as_figure_size, as_float_array, as_real_number, require_choice
from ..drawing.drawable import DHAdapter, RobotAdapter
from ..drawing.options import CANVAS_CHOICES, ENDS_ONLY, ViewOptions
from ..drawing.robot_view import RobotView
from ..widgets.controls import choice_buttons, number_slider
from ..widgets.live_figure import LiveFigure, matrix_html

__all__ = ["FRAME_CHOICES", "TwistView", "twist_view"]

#: The conventions of the read-out: space and body twists [ω; v], the base-frame [v; ω].
FRAME_CHOICES = ("space", "body", "base")
OMEGA_COLOUR = "#0072B2"
VELOCITY_COLOUR = "#E69F00"
SCREW_COLOUR = "#882255"
#: Slider range and step of a joint velocity: rad/s (revolute), m/s (prismatic).
_RANGES = {"revolute": (1.0, 0.05, "rad/s"), "prismatic": (0.5, 0.05, "m/s")}
_FRAME_WORDS = {
    "space": ("J_s", "[ω; v], space frame {s}", "V_s", "ω in rad/s, then v in m/s"),
    "body": ("J_b", "[ω; v], end-effector frame", "V_b", "ω in rad/s, then v in m/s"),
    "base": ("J", "[v; ω], base frame {0}", "(ṗ, ω)", "ṗ in m/s, then ω in rad/s"),
}


def arrow(start: np.ndarray, vector: np.ndarray, head: float) -> np.ndarray:
    """Points of an arrow (shaft and two barbs, separated by NaN rows); nothing for ~0."""
    length = float(np.linalg.norm(vector))
    if length < 1e-9:
        return np.full((1, 3), np.nan)
    tip = start + vector
    direction = vector / length
    helper = np.array([0.0, 0.0, 1.0]) if abs(direction[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    side = np.cross(direction, helper)
    side /= np.linalg.norm(side)
    size = min(head, 0.4 * length)
    back = tip - size * direction
    gap = np.full(3, np.nan)
    return np.array([start, tip, gap, back + 0.5 * size * side, tip, back - 0.5 * size * side])


def joined(pieces: list[np.ndarray]) -> np.ndarray:
    gap = np.full((1, 3), np.nan)
    return np.vstack([np.vstack([piece, gap]) for piece in pieces]) if pieces else gap


class TwistView(LiveFigure):
    """Joint-velocity sliders, an arm with its twist and joint screws, a Jacobian read-out.

    Made by :func:`twist_view`. Controls: ``qd1`` … ``qdn`` (rad/s or m/s)
    and ``frame`` (``"space"``, ``"body"`` or ``"base"``).

    Attributes
    ----------
    view : RobotView
        The arm at :attr:`q` (it does not move).
    q : ndarray, shape (n,)
    jacobians : dict of str to ndarray
        ``"space"``: ``J_s`` and ``"body"``: ``J_b`` (rows [ω; v]), ``"base"``:
        ``J`` (rows [v; ω], base frame), each 6×n at :attr:`q`.
    omega_arrow, velocity_arrow, screw_arrows, screw_lines, origin_arrow : Line3D
        The drawn velocity arrows and joint screws, moved in place.
    arrow_scale : float
        Metres of arrow per rad/s or m/s.
    """

    def __init__(
        self,
        robot: Any,
        q: Any,
        qdot: Any = None,
        *,
        frame: str = "space",
        options: ViewOptions | None = None,
        arrow_scale: float | None = None,
        figsize: tuple[float, float] = (4.0, 4.0),
        canvas: str = "auto",
        **view_options: Any,
    ) -> None:
        options = ViewOptions.from_keywords(options, view_options, default=ENDS_ONLY)
        require_choice(frame, "frame", FRAME_CHOICES)
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        figsize = as_figure_size(figsize)
        self._adapter = RobotAdapter.of(robot)
        self.robot = robot
        self.q = self._adapter.check_q(q).copy()
        n = self._adapter.dof
        start = np.zeros(n) if qdot is None else as_float_array(qdot, "qdot", (n,))
        controls: dict[str, Any] = {}
        for i, kind in enumerate(self._adapter.joint_kinds):
            limit, step, unit = _RANGES[kind]
            if abs(start[i]) > limit + 1e-12:
                raise ValueError(
                    f"qdot[{i}] (joint {i + 1}) = {start[i]:g} {unit} is outside the slider's "
                    f"range [-{limit:g}, {limit:g}] {unit}"
                )
            value = round(float(np.round(start[i] / step) * step), 2) + 0.0
            controls[f"qd{i + 1}"] = number_slider(value, -limit, limit, step, unit=unit)
        controls["frame"] = choice_buttons(list(FRAME_CHOICES), frame, label="frame")
        live = _widgets.choose_canvas(canvas) == "ipympl"
        figure = _widgets.new_figure(figsize, 100.0, live=live)
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=1.0)
        self.view = RobotView(self._adapter, self.q, ax=ax, options=options)
        self.arrow_scale = (
            0.5 * self.view.reach
            if arrow_scale is None
            else as_real_number(arrow_scale, "arrow_scale", positive=True)
        )
        self._head = 0.07 * self.view.reach
        self._build_arrows(ax)
        self.jacobians = self._jacobians()
        name = self._adapter.name
        super().__init__(self._draw, self.view, controls, title=f"{name}: joint velocities")

    # --- the numbers ------------------------------------------------------------------------

    def _jacobians(self) -> dict[str, np.ndarray]:
        """``J_s``, ``J_b`` (rows [ω; v]) and the base-frame ``J`` (rows [v; ω]) at :attr:`q`."""
        snapshot = self.view.snapshot
        native = snapshot.jacobian
        omega = native[3:] if isinstance(self._adapter, DHAdapter) else native[:3]
        linear = snapshot.linear_jacobian  # velocity of the end-effector origin, base frame
        pose = snapshot.end_effector_pose
        # v_s = ṗ - ω × p (docs/conventions.md: ṗ = v_s + ω × p)
        space = np.vstack([omega, linear - np.cross(omega.T, pose[:3, 3]).T])
        body = adjoint_representation_unchecked(transform_inv_unchecked(pose)) @ space
        return {"space": space, "body": body, "base": np.vstack([linear, omega])}

    def twist(self, frame: str | None = None) -> np.ndarray:
        """``J q̇`` at the sliders' joint velocities in the convention ``frame`` (default: shown)."""
        frame = self.values["frame"] if frame is None else frame
        require_choice(frame, "frame", FRAME_CHOICES)
        return self.jacobians[frame] @ self.qdot

    @property
    def qdot(self) -> np.ndarray:
        """The joint velocities of the sliders (rad/s, m/s)."""
        values = self.values
        return np.array([values[f"qd{i + 1}"] for i in range(self._adapter.dof)], dtype=float)

    # --- drawing ----------------------------------------------------------------------------

    def _build_arrows(self, ax: Any) -> None:
        empty = np.zeros(0)
        (self.screw_lines,) = ax.plot(
            empty, empty, empty, color=SCREW_COLOUR, lw=0.9, ls=(0, (2, 2)), alpha=0.7, zorder=8
        )
        (self.screw_arrows,) = ax.plot(empty, empty, empty, color=SCREW_COLOUR, lw=2.0, zorder=9)
        (self.origin_arrow,) = ax.plot(
            empty, empty, empty, color=VELOCITY_COLOUR, lw=2.0, ls=(0, (3, 1.5)), zorder=9
        )
        (self.omega_arrow,) = ax.plot(empty, empty, empty, color=OMEGA_COLOUR, lw=2.6, zorder=10)
        (self.velocity_arrow,) = ax.plot(
            empty, empty, empty, color=VELOCITY_COLOUR, lw=2.6, zorder=10
        )

    def _draw(self, frame: str, **speeds: float) -> str:
        """The live figure's update: arrows to the twist at the sliders' q̇, read-out back."""
        qdot = self.qdot
        space = self.jacobians["space"]
        skeleton = self.view.snapshot.skeleton
        scale, head = self.arrow_scale, self._head
        tip = skeleton.end_effector_pose[:3, 3]
        omega = space[:3] @ qdot
        velocity = self.jacobians["base"][:3] @ qdot
        self.omega_arrow.set_data_3d(*arrow(tip, scale * omega, head).T)
        self.velocity_arrow.set_data_3d(*arrow(tip, scale * velocity, head).T)
        origin = skeleton.frames[0, :3, 3]
        v_s = space[3:] @ qdot
        shown = arrow(origin, scale * v_s, head) if frame == "space" else np.full((1, 3), np.nan)
        self.origin_arrow.set_data_3d(*shown.T)
        lines, arrows = [], []
        half = 0.5 * self.view.reach
        for i, point in enumerate(skeleton.joint_points):
            axis = skeleton.joint_axes[i]
            lines.append(np.array([point - half * axis, point + half * axis]))
            arrows.append(arrow(point, scale * qdot[i] * axis, head))
        self.screw_lines.set_data_3d(*joined(lines).T)
        self.screw_arrows.set_data_3d(*joined(arrows).T)
        return self._readout(frame, qdot)

    def _readout(self, frame: str, qdot: np.ndarray) -> str:
        name, rows, twist_name, units = _FRAME_WORDS[frame]
        J = self.jacobians[frame]
        twist = J @ qdot
        legend = (
            f'<span style="color:{OMEGA_COLOUR}">■ ω</span>, '
            f'<span style="color:{VELOCITY_COLOUR}">■ ṗ</span> at the end-effector'
            + (", dashed: v_s at {s}" if frame == "space" else "")
            + f', <span style="color:{SCREW_COLOUR}">■ q̇_i × joint screw i</span>; '
            f"{self.arrow_scale:.2g} m per rad/s or m/s"
        )
        return (
            f"<div><b>{html.escape(name)}</b>, rows {html.escape(rows)}:</div>"
            f"{matrix_html(J, 3)}"
            f"<div>{html.escape(twist_name)} = {html.escape(name)} q̇ ({units}):</div>"
            f"{matrix_html(twist, 3)}"
            f'<div style="font-size:11px;color:#444">{legend}</div>'
        )


def twist_view(
    robot: Any,
    q: Sequence[float] | np.ndarray,
    qdot: Sequence[float] | np.ndarray | None = None,
    *,
    frame: str = "space",
    arrow_scale: float | None = None,
    figsize: tuple[float, float] = (4.0, 4.0),
    canvas: str = "auto",
    options: ViewOptions | None = None,
    **view_options: Any,
) -> TwistView:
    """Joint-velocity sliders on a 3D arm: its end-effector twist and its joint screws.

    See the module documentation for what is drawn. Put it last in a cell.

    Parameters
    ----------
    robot : DHRobot or ScrewRobot
        The arm (numeric parameters).
    q : array_like, shape (n,)
        The configuration shown, radians / metres (it stays fixed).
    qdot : array_like, shape (n,), optional
        Initial joint velocities (default zero): within ±1 rad/s (revolute) or
        ±0.5 m/s (prismatic), rounded to the sliders' step of 0.05.
    frame : {"space", "body", "base"}
        The Jacobian and twist of the read-out: ``J_s`` and ``V_s``, ``J_b``
        and ``V_b`` (both rows [ω; v]), or the base-frame ``J`` of
        ``DHRobot.J`` and ``(ṗ, ω)`` (rows [v; ω]). There are buttons.
    options : robolab.views.ViewOptions, optional
        The view's options; or give them as keywords (``frames``, ``shadow``,
        ``elev``, ``azim``, ``limits``, ``zoom``, see :func:`robolab.plot_robot`).
        ``frames="ends"`` by default, so that the arrows stand out.
    arrow_scale : float, optional
        Metres of arrow per rad/s or m/s (default half the arm's reach).
    figsize : (float, float)
        Inches at 100 dpi.
    canvas : {"auto", "ipympl", "image"}
        See :func:`robolab.teach`.

    Returns
    -------
    TwistView

    Examples
    --------
    A planar 2R arm with unit links, elbow at 90°, turning its shoulder at
    1 rad/s: the hand at (1, 1) moves with ṗ = ω × p = (-1, 1, 0) m/s.

    >>> import numpy as np, robolab
    >>> panel = robolab.twist_view(robolab.load_robot("planar2r"), [0.0, np.pi / 2], [1.0, 0.0])
    >>> panel.twist("base").round(12) + 0.0
    array([-1.,  1.,  0.,  0.,  0.,  1.])
    >>> panel.twist("space").round(12) + 0.0  # the body point at {s}'s origin does not move
    array([0., 0., 1., 0., 0., 0.])
    >>> panel.controls["frame"].value = "body"
    >>> print(panel.readout_text().splitlines()[0])
    J_b, rows [ω; v], end-effector frame:
    >>> panel.controls["qd2"].value = 0.5  # what a drag or an arrow key does
    >>> panel.qdot
    array([1. , 0.5])
    """
    return TwistView(
        robot,
        q,
        qdot,
        frame=frame,
        options=options,
        arrow_scale=arrow_scale,
        figsize=figsize,
        canvas=canvas,
        **view_options,
    )
