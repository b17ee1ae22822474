"""A manipulability map: a measure over two joints as an image, the configuration marked.

How close an arm is to a singularity depends on where it is. For two chosen joints
(the Puma's shoulder and elbow, q2 and q3) :func:`manipulability_map` computes a
measure of :func:`robolab.manipulability` on a grid of their values, the other joints
held at ``q``, and draws it as an image with a marker at ``q``: the dark valleys are the
singular configurations. All the Jacobians of the grid come from one batched call.

The Jacobian is the one of the DH world, rows [v; ω] of the end-effector origin in the
base frame (``DHRobot.J``; a screw robot's space Jacobian is converted, ``v = v_s + ω × p``,
docs/conventions.md): ``rows="linear"`` uses its 3 linear rows (how well the hand
*moves*), ``rows="full"`` all 6 (moves and turns). The measure counts the r largest
singular values, r the rank of those rows at generic configurations (as the teach
pendant's singularity warning does): 2 for the linear rows of a planar arm.

Put the map in :func:`robolab.live_figure` and move its marker from the update function
with :meth:`ManipulabilityMap.set_q` (``draw=False``): a slider step moves the marker
only; the image is recomputed when one of the other joints changes.

Examples
--------
A planar 2R arm with unit links: √det(J Jᵀ) = |sin q2| (Spong §4.12), whatever q1:

>>> import numpy as np, robolab
>>> arm = robolab.load_robot("planar2r")
>>> view = manipulability_map(arm, [0.3, np.pi / 2], joints=(1, 2), resolution=5)
>>> view.values.shape  # one row per value of the second joint
(5, 5)
>>> round(view.value(), 12)  # at the marked configuration
1.0
>>> view.set_q([0.3, 0.0])
>>> round(view.value(), 12)  # stretched out: singular
0.0
>>> import matplotlib.pyplot as plt; plt.close(view.figure)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...screw.kinematics.chain import KinematicChain
from ...screw.kinematics.manipulability import MANIPULABILITY_MEASURES, Measure, manipulability
from ...support import widgets as _widgets
from ...support.arguments import as_figure_size, as_float_array, require_choice, require_int
from ..drawing.drawable import DHAdapter, RobotAdapter

__all__ = ["ManipulabilityMap", "manipulability_map"]

_ROWS = ("linear", "full")

#: How the colour bar names each measure.
_MEASURE_LABELS = {
    "yoshikawa": "Yoshikawa's √det(J Jᵀ)",
    "condition": "condition number σ_max/σ_min",
    "inverse_condition": "inverse condition σ_min/σ_max",
    "smallest_singular": "smallest singular value σ_min",
}


def point_jacobian_function(
    adapter: RobotAdapter,
) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
    """A function of a batch (..., n) of q: Jacobians [v; ω] of the end-effector origin, base frame.

    A DH robot's compiled ``numeric().jacobian``; a screw robot's space Jacobian moved to
    the end-effector origin, ``v = v_s + ω × p`` (its chain prepared once).
    """
    if isinstance(adapter, DHAdapter):
        numeric = adapter.robot.numeric()
        return lambda q: np.asarray(numeric.jacobian(q), dtype=float)
    chain = KinematicChain.of(adapter.robot)

    def jacobians(q: NDArray[np.float64]) -> NDArray[np.float64]:
        space = chain.jacobian_space(q)
        origin = chain.link_frames_space(q)[..., -1, :3, 3]
        omega, v_s = space[..., :3, :], space[..., 3:, :]
        linear = v_s + np.cross(omega, origin[..., :, None], axis=-2)
        return np.concatenate([linear, omega], axis=-2)

    return jacobians


class ManipulabilityMap:
    """A measure of manipulability over a grid of two joints, drawn, with ``q`` marked.

    Build it with :func:`manipulability_map`. Attributes: ``figure``, ``ax``,
    ``image`` (the ``AxesImage``), ``marker`` (the ``Line2D`` at ``q``), ``values``
    (the measure on the grid, one row per value of the second joint), ``grid``
    (the two joints' values, radians or metres), ``joints`` (their numbers,
    1..n), ``measure``, ``rows`` and ``q``.
    """

    def __init__(
        self,
        robot: Any,
        q: ArrayLike | None,
        joints: tuple[int, int],
        measure: Measure,
        rows: str,
        resolution: int,
        ranges: ArrayLike | None,
        ax: Any,
        figsize: tuple[float, float],
        title: str | None,
    ) -> None:
        self._adapter = RobotAdapter.of(robot)
        self._jacobians = point_jacobian_function(self._adapter)
        n = self._adapter.dof
        require_choice(measure, "measure", MANIPULABILITY_MEASURES)
        require_choice(rows, "rows", _ROWS)
        self.measure, self.rows = measure, rows
        self.joints = self._check_joints(joints, n)
        resolution = require_int(resolution, "resolution")
        if not 2 <= resolution <= 400:
            raise ValueError(f"resolution must be 2..400 grid points per joint, got {resolution}")
        if ranges is None:
            box = self._adapter.shown_limits[[j - 1 for j in self.joints]]
        else:
            box = as_float_array(ranges, "ranges", (2, 2))
            if np.any(box[:, 1] <= box[:, 0]):
                raise ValueError(f"ranges must be two (low, high) pairs with low < high, got {box}")
        self.grid = tuple(np.linspace(low, high, resolution) for low, high in box)
        self.q = self._adapter.home() if q is None else self._adapter.check_q(q).copy()
        self._shown = [self._shown_value(j, g) for j, g in zip(self.joints, self.grid, strict=True)]
        self.values = self._compute()
        self._draw(ax, figsize, title)

    @staticmethod
    def _check_joints(joints: Any, n: int) -> tuple[int, int]:
        if not isinstance(joints, tuple | list) or len(joints) != 2:
            raise TypeError(f"joints must be two joint numbers 1..{n}, e.g. (2, 3), got {joints!r}")
        numbers = tuple(require_int(j, "joints") for j in joints)
        if any(not 1 <= j <= n for j in numbers) or numbers[0] == numbers[1]:
            raise ValueError(f"joints must be two different joint numbers 1..{n}, got {joints!r}")
        return numbers[0], numbers[1]

    def _shown_value(self, joint: int, value: Any) -> Any:
        """Degrees for a revolute joint, metres for a prismatic one."""
        revolute = self._adapter.joint_kinds[joint - 1] == "revolute"
        return np.degrees(value) if revolute else value

    def _axis_label(self, joint: int) -> str:
        revolute = self._adapter.joint_kinds[joint - 1] == "revolute"
        return f"q{joint} ({'°' if revolute else 'm'})"

    def _measure_of(self, jacobians: NDArray[np.float64]) -> NDArray[np.float64] | float:
        full_rank, linear_rank = self._adapter.generic_ranks()
        if self.rows == "linear":
            return manipulability(jacobians[..., :3, :], self.measure, rank=linear_rank)
        return manipulability(jacobians, self.measure, rank=full_rank)

    def _compute(self) -> NDArray[np.float64]:
        first, second = np.meshgrid(*self.grid)  # rows: the second joint
        configurations = np.broadcast_to(self.q, (*first.shape, self.q.size)).copy()
        configurations[..., self.joints[0] - 1] = first
        configurations[..., self.joints[1] - 1] = second
        return np.asarray(self._measure_of(self._jacobians(configurations)))

    def value(self) -> float:
        """The measure at the marked configuration ``q``."""
        return float(self._measure_of(self._jacobians(self.q)))

    def _draw(self, ax: Any, figsize: tuple[float, float], title: str | None) -> None:
        if ax is None:
            import matplotlib.pyplot as plt

            figure = plt.figure(figsize=as_figure_size(figsize), dpi=80, layout="constrained")
            ax = figure.add_subplot()
            _widgets.plain_canvas(figure.canvas)  # under %matplotlib widget
        self.ax, self.figure = ax, ax.figure
        (x0, x1), (y0, y1) = ((s[0], s[-1]) for s in self._shown)
        finite = self.values[np.isfinite(self.values)]
        top = float(finite.max()) if finite.size else 1.0
        self.image = ax.imshow(
            np.where(np.isfinite(self.values), self.values, top),
            origin="lower",
            extent=(x0, x1, y0, y1),
            aspect="auto",
            cmap="viridis",
            interpolation="nearest",
        )
        bar = self.figure.colorbar(self.image, ax=ax)
        block = "linear rows of J" if self.rows == "linear" else "J"
        bar.set_label(f"{_MEASURE_LABELS[self.measure]}, {block}", fontsize=9)
        (self.marker,) = ax.plot([], [], "o", ms=9, mfc="white", mec="#D55E00", mew=2.5)
        ax.set_xlabel(self._axis_label(self.joints[0]))
        ax.set_ylabel(self._axis_label(self.joints[1]))
        others = [i + 1 for i in range(self._adapter.dof) if i + 1 not in self.joints]
        if title is None:
            held = ", ".join(f"q{i}" for i in others)
            title = (
                f"{self._adapter.name}: manipulability over q{self.joints[0]}, q{self.joints[1]}"
            )
            title += f" ({held} held)" if held else ""
        ax.set_title(title, fontsize=10)
        self._move_marker()

    def _move_marker(self) -> None:
        a, b = (self._shown_value(j, self.q[j - 1]) for j in self.joints)
        self.marker.set_data([a], [b])

    def set_q(self, q: ArrayLike, draw: bool = True) -> None:
        """Mark the configuration ``q``; recompute the image if another joint moved.

        Parameters
        ----------
        q : array_like, shape (n,)
        draw : bool
            Redraw the figure now (False inside a :func:`robolab.live_figure`
            update, which redraws once afterwards).
        """
        new = self._adapter.check_q(q).copy()  # the caller may change its array later
        others = [i for i in range(new.size) if i + 1 not in self.joints]
        changed = not np.array_equal(new[others], self.q[others])
        self.q = new
        if changed:
            self.values = self._compute()
            finite = self.values[np.isfinite(self.values)]
            top = float(finite.max()) if finite.size else 1.0
            self.image.set_data(np.where(np.isfinite(self.values), self.values, top))
            self.image.autoscale()
        self._move_marker()
        if draw:
            self.figure.canvas.draw_idle()


def manipulability_map(
    robot: Any,
    q: ArrayLike | None = None,
    *,
    joints: tuple[int, int] = (2, 3),
    measure: Measure = "yoshikawa",
    rows: str = "linear",
    resolution: int = 81,
    ranges: ArrayLike | None = None,
    ax: Any = None,
    figsize: tuple[float, float] = (5.2, 4.0),
    title: str | None = None,
) -> ManipulabilityMap:
    """Draw a manipulability measure over a grid of two joints, the configuration ``q`` marked.

    Parameters
    ----------
    robot : DHRobot or ScrewRobot
    q : array_like, shape (n,), optional
        The configuration marked; the joints not mapped are held at its values
        (default: zero, moved into the joint limits).
    joints : (int, int)
        The two joints mapped, numbered 1..n (x axis, y axis); default (2, 3).
    measure : {"yoshikawa", "condition", "inverse_condition", "smallest_singular"}
        See :func:`robolab.manipulability`. A condition number that is
        infinite (at a singularity) is drawn as the largest finite value.
    rows : {"linear", "full"}
        The linear rows of the Jacobian [v; ω] of the end-effector origin
        (base frame), or all six.
    resolution : int
        Grid points per joint (2..400).
    ranges : array_like, shape (2, 2), optional
        (low, high) of each mapped joint in radians (metres); default its limits.
    ax : matplotlib Axes, optional
        Draw here instead of in a new figure.
    figsize : (float, float)
        Size of a new figure, in inches (80 dpi).
    title : str, optional
        Default: the robot, the joints mapped and those held.

    Returns
    -------
    ManipulabilityMap

    Examples
    --------
    >>> import numpy as np, robolab
    >>> view = robolab.manipulability_map(robolab.load_robot("puma560"), resolution=21)
    >>> view.values.shape, view.joints
    ((21, 21), (2, 3))
    >>> robolab.manipulability_map(robolab.load_robot("planar2r"), joints=(2, 3))
    Traceback (most recent call last):
    ...
    ValueError: joints must be two different joint numbers 1..2, got (2, 3)
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    return ManipulabilityMap(
        robot, q, joints, measure, rows, resolution, ranges, ax, figsize, title
    )
