""" "Drop the arm": simulate with a chosen integrator, step and friction, scrub the motion.

:func:`drop_the_arm` returns a :class:`DropTheArm`, a :class:`robolab.LiveFigure` of four
controls and one figure:

* **integrator** (Euler, semi-implicit Euler, RK4, RK45), **step** Δt and **friction**
  (a viscous coefficient b): a change runs the simulation again (results are kept, so
  going back to a choice is instant);
* **t**, a time slider that scrubs the motion: the arm (left) at θ(t), and a marker on the
  energy plot (right), which shows the kinetic energy K, the potential energy P and their
  sum E along the whole run; without friction the exact E is a horizontal line, so what
  the line does is the integrator's error;
* a read-out: E(t), the drift max |E - E(0)| and, when the simulation diverged, what the
  integrator said.

The view draws; it does not simulate (the view layer never imports the dynamics,
docs/architecture.md): you pass ``simulate(integrator, timestep, friction)``, which
returns anything with ``times``, ``joint_positions`` and ``energy`` (and optionally
``kinetic_energy`` and ``potential_energy``) — a :class:`robolab.SimulationResult`. A
:class:`ValueError` it raises (:class:`robolab.SimulationDiverged` is one) is shown in
the read-out instead of a motion. Like every live figure, it has a static fallback (the
picture and the read-out) where there is no widget front end.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...support import widgets as _widgets
from ...support.arguments import as_figure_size, as_float_array, require_choice
from ...support.renames import renamed_keywords
from ..drawing.drawable import RobotAdapter, RobotLike
from ..drawing.options import CANVAS_CHOICES, ENDS_ONLY, ViewOptions
from ..drawing.robot_view import RobotView
from ..widgets.controls import choice_buttons, number_slider
from ..widgets.kept_runs import KeptRuns
from ..widgets.live_figure import LiveFigure

__all__ = ["DropTheArm", "drop_the_arm"]

#: The integrators' names and the labels of their buttons.
_INTEGRATOR_LABELS = {
    "euler": "Euler",
    "semi_implicit_euler": "semi-implicit",
    "rk4": "RK4",
    "rk45": "RK45",
}
ENERGY_COLOUR, KINETIC_COLOUR, POTENTIAL_COLOUR = "#000000", "#D55E00", "#0072B2"


def _step_label(timestep: float) -> str:
    return f"{timestep * 1000:g} ms"


class DropTheArm(LiveFigure):
    """An arm simulated with a chosen integrator, step and friction, and a time slider.

    Made by :func:`drop_the_arm`; controls ``integrator``, ``timestep``, ``friction``
    and ``t``.

    Attributes
    ----------
    view : RobotView
        The arm at θ(t).
    energy_axes : matplotlib.axes.Axes
    energy_line, kinetic_line, potential_line, marker, cursor : Line2D
        E, K and P along the run; the point (t, E(t)) and the vertical line at t.
    simulation : object or None
        The run shown (what ``simulate`` returned), None if it failed.
    error : str or None
        The message of the failed run.
    runs : int
        How many times ``simulate`` was called (a choice seen before is not run again).
    """

    @renamed_keywords(time_step="slider_step")
    def __init__(
        self,
        robot: RobotLike,
        simulate: Callable[[str, float, float], Any],
        *,
        duration: float,
        integrators: Sequence[str] = tuple(_INTEGRATOR_LABELS),
        timesteps: Sequence[float] = (0.001, 0.005, 0.01, 0.02),
        frictions: tuple[float, float, float] = (0.0, 2.0, 0.1),
        integrator: str = "rk4",
        timestep: float = 0.005,
        friction: float = 0.0,
        slider_step: float = 0.05,
        friction_unit: str = "N·m·s/rad",
        figsize: tuple[float, float] = (7.6, 3.6),
        canvas: str = "auto",
        options: ViewOptions | None = None,
    ) -> None:
        self._cache = KeptRuns(simulate)
        for name in integrators:
            require_choice(name, "integrators", tuple(_INTEGRATOR_LABELS))
        require_choice(integrator, "integrator", tuple(integrators))
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        steps = [float(x) for x in as_float_array(timesteps, "timesteps", (None,))]
        if min(steps) <= 0:
            raise ValueError(f"timesteps must be positive, got {steps}")
        if float(timestep) not in steps:
            raise ValueError(f"timestep must be one of timesteps {steps}, got {timestep!r}")
        self.duration = float(as_float_array(duration, "duration", ()))
        if self.duration <= 0:
            raise ValueError(f"duration must be positive, got {self.duration:g}")
        self.friction_unit = str(friction_unit)
        self.simulation: Any = None
        self.error: str | None = None
        self._adapter = RobotAdapter.of(robot)
        self.robot = robot
        live = _widgets.choose_canvas(canvas) == "ipympl"
        figure = _widgets.new_figure(as_figure_size(figsize), 100.0, live=live)
        ax = figure.add_axes((0.0, 0.0, 0.46, 1.0), projection="3d", computed_zorder=False)
        options = ViewOptions.from_keywords(options, {}, default=ENDS_ONLY)
        self.view = RobotView(self._adapter, None, ax=ax, options=options)
        self._build_energy_axes(figure)
        low, high, step = frictions
        controls = {
            "integrator": choice_buttons(
                [(_INTEGRATOR_LABELS[name], name) for name in integrators],
                integrator,
                label="integrator",
            ),
            "timestep": choice_buttons(
                [(_step_label(x), x) for x in steps], float(timestep), label="step Δt"
            ),
            "friction": number_slider(
                friction, low, high, step, unit=friction_unit, label="friction b"
            ),
            "t": number_slider(0.0, 0.0, self.duration, slider_step, unit="s", label="time t"),
        }
        controls["integrator"].widget.style.button_width = "104px"  # "semi-implicit" whole
        name = self._adapter.name
        super().__init__(self._draw, figure, controls, title=f"{name}: drop the arm")

    # --- drawing ----------------------------------------------------------------------------

    def _build_energy_axes(self, figure: Any) -> None:
        ax = figure.add_axes((0.57, 0.15, 0.40, 0.74))
        self.energy_axes = ax
        empty: list[float] = []
        (self.kinetic_line,) = ax.plot(empty, empty, color=KINETIC_COLOUR, lw=1.0, label="K")
        (self.potential_line,) = ax.plot(empty, empty, color=POTENTIAL_COLOUR, lw=1.0, label="P")
        (self.energy_line,) = ax.plot(empty, empty, color=ENERGY_COLOUR, lw=2.0, label="E = K + P")
        self.cursor = ax.axvline(0.0, color="#888888", lw=0.8)
        (self.marker,) = ax.plot([0.0], [0.0], "o", color=ENERGY_COLOUR, ms=5)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("energy (J)")
        ax.set_xlim(0.0, self.duration)
        ax.legend(loc="upper right", fontsize=8, frameon=False, ncol=3)
        ax.grid(alpha=0.3)

    @property
    def runs(self) -> int:
        """How many times ``simulate`` ran (a choice seen before is not run again)."""
        return self._cache.calls

    def _show_run(self, run: Any) -> None:
        lines = (
            (self.energy_line, "energy"),
            (self.kinetic_line, "kinetic_energy"),
            (self.potential_line, "potential_energy"),
        )
        if run is None:
            for line, _ in lines:
                line.set_data([], [])
            return
        times = np.asarray(run.times, dtype=float)
        shown = []
        for line, attribute in lines:
            values = getattr(run, attribute, None)
            if values is None:
                line.set_data([], [])
                continue
            values = np.asarray(values, dtype=float)
            line.set_data(times, values)
            shown.append(values)
        data = np.concatenate(shown)
        low, high = float(data.min()), float(data.max())
        margin = 0.08 * max(high - low, 1e-6)
        self.energy_axes.set_ylim(low - margin, high + 2.5 * margin)

    def _draw(self, integrator: str, timestep: float, friction: float, t: float) -> str:
        run, error = self._cache.run(integrator, timestep, friction)
        if run is not self.simulation or error != self.error or self.updates == 0:
            self._show_run(run)
        self.simulation, self.error = run, error
        self.cursor.set_xdata([t, t])
        words = html.escape(
            f"{_INTEGRATOR_LABELS[integrator]}, Δt = {_step_label(timestep)}, "
            f"b = {friction:g} {self.friction_unit}"
        )
        if run is None:
            self.marker.set_data([], [])
            self.view.update(self._adapter.home(), draw=False)
            return (
                f"<div><b>{words}</b>: no motion.</div>"
                f'<div style="color:#a00;max-width:420px">{html.escape(str(error))}</div>'
            )
        times = np.asarray(run.times, dtype=float)
        row = int(np.clip(np.searchsorted(times, t - 1e-9), 0, len(times) - 1))
        energy = np.asarray(run.energy, dtype=float)
        self.marker.set_data([times[row]], [energy[row]])
        self.view.update(np.asarray(run.joint_positions)[row], draw=False)
        drift = float(np.abs(energy - energy[0]).max())
        return (
            f"<div><b>{words}</b></div>"
            f"<div>t = {times[row]:.2f} s: E = {energy[row]:.4f} J "
            f"(E(0) = {energy[0]:.4f} J)</div>"
            f"<div>drift max|E − E(0)| = {drift:.3g} J over {times[-1]:g} s</div>"
        )


@renamed_keywords(time_step="slider_step")
def drop_the_arm(
    robot: RobotLike,
    simulate: Callable[[str, float, float], Any],
    *,
    duration: float,
    integrators: Sequence[str] = tuple(_INTEGRATOR_LABELS),
    timesteps: Sequence[float] = (0.001, 0.005, 0.01, 0.02),
    frictions: tuple[float, float, float] = (0.0, 2.0, 0.1),
    integrator: str = "rk4",
    timestep: float = 0.005,
    friction: float = 0.0,
    slider_step: float = 0.05,
    friction_unit: str = "N·m·s/rad",
    figsize: tuple[float, float] = (7.6, 3.6),
    canvas: str = "auto",
    options: ViewOptions | None = None,
) -> DropTheArm:
    """Pick an integrator, a step and friction, simulate, and scrub the motion beside its energy.

    See the module documentation for what is shown. Put it last in a cell.

    Parameters
    ----------
    robot : DHRobot or ScrewRobot
        The arm drawn.
    simulate : callable
        ``simulate(integrator, timestep, friction)`` returning an object with ``times``
        (N,), ``joint_positions`` (N, n) and ``energy`` (N,) (optionally
        ``kinetic_energy`` and ``potential_energy``): a :class:`robolab.SimulationResult`. A
        ``ValueError`` it raises is shown in the read-out.
    duration : float
        Seconds simulated (the range of the time slider).
    integrators : sequence of str
        Buttons, from ``"euler"``, ``"semi_implicit_euler"``, ``"rk4"``, ``"rk45"``.
    timesteps : sequence of float
        The step buttons, seconds.
    frictions : (low, high, step)
        The range of the friction slider.
    integrator, timestep, friction : optional
        The initial choices.
    slider_step : float
        Step of the time slider, seconds (``duration`` must be a whole number of them);
        ``time_step=`` is its old name.
    friction_unit : str
        Shown with the friction slider.
    figsize : (float, float)
        Inches at 100 dpi (the default, 760 × 360 px, fits JupyterLab's notebook column on a
        1024 × 768 screen and leaves the controls room below it).
    canvas : {"auto", "ipympl", "image"}
        See :func:`robolab.teach`.
    options : robolab.views.ViewOptions, optional
        Of the arm's view (default ``frames="ends"``).

    Returns
    -------
    DropTheArm

    Examples
    --------
    A stand-in for a simulation: the 2R arm turning its shoulder at 1 rad/s with a
    constant energy.

    >>> import numpy as np, robolab
    >>> from types import SimpleNamespace
    >>> def run(integrator, timestep, friction):
    ...     t = np.arange(0, 1.0 + timestep / 2, timestep)
    ...     q = np.stack([t, 0 * t], axis=1)
    ...     return SimpleNamespace(times=t, joint_positions=q, energy=np.full(t.shape, 2.0))
    >>> panel = drop_the_arm(robolab.load_robot("planar2r"), run, duration=1.0)
    >>> panel.controls["t"].value = 0.5  # what the arrow keys do
    >>> print(panel.readout_text().splitlines()[1])
    t = 0.50 s: E = 2.0000 J (E(0) = 2.0000 J)
    >>> panel.view.q.round(3) + 0.0
    array([0.5, 0. ])
    >>> panel.controls["integrator"].value = "euler"
    >>> panel.runs
    2
    """
    return DropTheArm(
        robot,
        simulate,
        duration=duration,
        integrators=integrators,
        timesteps=timesteps,
        frictions=frictions,
        integrator=integrator,
        timestep=timestep,
        friction=friction,
        slider_step=slider_step,
        friction_unit=friction_unit,
        figsize=figsize,
        canvas=canvas,
        options=options,
    )
