"""Automatic equivalence checks between models of the same robot: DH (standard, modified) and screw.

One robot can be written as a standard-DH table, a modified-DH table
(:meth:`robolab.DHRobot.to_modified`, :meth:`~robolab.DHRobot.to_standard`)
and a screw model (:meth:`robolab.DHRobot.to_screw`, :func:`robolab.load_robot`).
:func:`compare_models` evaluates every model at the same seeded random states
and reports the largest difference of each quantity from the first model:

==========================  ===================================================
quantity                    convention
==========================  ===================================================
end-effector pose T(q)      4×4 transform of the end-effector frame in {0}
Jacobian J(q)               rows [v; ω] (``DHRobot.J``, Moro, Spong): velocity
                            of the end-effector origin and angular velocity,
                            both in {0}; for a screw model computed from the
                            space Jacobian ``J_s = [ω; v]`` as ``v + ω × p``
mass matrix M(q)            n×n, kg·m² (revolute), kg (prismatic)
torques τ(q, q̇, q̈)          inverse dynamics with each model's own gravity
==========================  ===================================================

Configurations: revolute joints uniform in [-π, π), prismatic joints in
[-0.5, 0.5] m; joint velocities and accelerations uniform in [-1, 1]. A
comparison passes when every compared difference is at most ``tolerance``
(absolute, SI units; default 1e-9). The table shows differences below 1e-12
as ``< 1e-12``: their digits are round-off and vary between machines.

M and τ are compared when ``dynamics`` is true and every model has numeric
masses, centres of mass, inertias and gravity (a screw model with only zero
inertias, from ``to_screw(kinematics_only=True)``, has none); otherwise the
report says why not.

Symbolic lengths and angles of a DH table are replaced by seeded random
numbers in [0.5, 2), the same number for the same symbol name in every model
(or by ``values``), so symbolic tables can be checked too.

Examples
--------
>>> from robolab import load_robot
>>> puma = load_robot("puma560", form="dh")
>>> report = compare_models(puma, puma.to_modified(), puma.to_screw(), samples=50)
>>> report.passed
True
>>> print(report)  # doctest: +ELLIPSIS
Model comparison, 50 seeded configurations (seed 0), tolerance 1e-09
  model 1: puma560 (standard DH), the reference
  model 2: puma560 (modified DH)
  model 3: puma560 (screw)
max |difference| from model 1            | model 2 | model 3
end-effector pose T, 4×4 in {0}          | ...
Jacobian J, rows [v; ω] in {0}           | ...
mass matrix M                            | ...
torques τ = M q̈ + C q̇ + G               | ...
PASS: every difference ≤ 1e-09
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..dh.robot import DHRobot
from ..screw.dynamics.mass_matrix import mass_matrix_crba
from ..screw.dynamics.rnea import inverse_dynamics_rnea
from ..screw.kinematics.forward import forward_kinematics_space
from ..screw.kinematics.jacobian import jacobian_space
from ..screw.robot import ScrewRobot
from ..support.arguments import as_real_number

__all__ = ["ComparedQuantity", "ModelComparison", "compare_models"]

#: Range of the prismatic joint positions drawn for a comparison (metres).
PRISMATIC_RANGE = (-0.5, 0.5)
#: Range of the random numbers that stand in for symbolic lengths and angles.
PARAMETER_RANGE = (0.5, 2.0)
#: Differences below this are shown as ``< 1e-12`` (round-off; the exact numbers are in ``rows``).
ROUND_OFF_SHOWN = 1e-12

_QUANTITIES = (
    ("end-effector pose T", ", 4×4 in {0}"),
    ("Jacobian J", ", rows [v; ω] in {0}"),
    ("mass matrix M", ""),
    ("torques τ", " = M q̈ + C q̇ + G"),
)


@dataclass(frozen=True)
class ComparedQuantity:
    """One row of a :class:`ModelComparison`.

    Attributes
    ----------
    name : str
        ``"end-effector pose T"``, ``"Jacobian J"``, ``"mass matrix M"`` or ``"torques τ"``.
    convention : str
        What is compared (frame, row order), e.g. ``", rows [v; ω] in {0}"``.
    differences : tuple of float or None
        For models 2, 3, …: the largest absolute difference from model 1 over
        all samples and entries; None when it could not be compared.
    """

    name: str
    convention: str
    differences: tuple[float | None, ...]

    @property
    def label(self) -> str:
        """``name`` and ``convention`` together, as shown in the table."""
        return self.name + self.convention


@dataclass(frozen=True)
class ModelComparison:
    """The result of :func:`compare_models`: a small table with a verdict.

    Displays itself as an HTML table in notebooks and as text with ``print``.

    Attributes
    ----------
    labels : tuple of str
        The models, ``"name (standard DH)"``, ``"name (modified DH)"`` or
        ``"name (screw)"``; the first is the reference.
    rows : tuple of ComparedQuantity
    tolerance : float
    samples, seed : int
    parameter_values : dict
        The numbers used for symbolic parameters, by symbol name.
    notes : tuple of str
        What was not compared, and why.
    """

    labels: tuple[str, ...]
    rows: tuple[ComparedQuantity, ...]
    tolerance: float
    samples: int
    seed: int
    parameter_values: dict[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def compared(self) -> list[float]:
        """Every difference that was computed."""
        return [d for row in self.rows for d in row.differences if d is not None]

    @property
    def passed(self) -> bool:
        """True if something was compared and every difference is within the tolerance."""
        compared = self.compared
        return bool(compared) and max(compared) <= self.tolerance

    @property
    def max_difference(self) -> float:
        """The largest difference of any quantity and model (nan if nothing was compared)."""
        compared = self.compared
        return max(compared) if compared else math.nan

    def assert_equivalent(self) -> None:
        """Raise ``AssertionError`` with the table unless the comparison :attr:`passed`.

        Examples
        --------
        >>> from robolab import DHRobot
        >>> from robolab.symbols import q1
        >>> compare_models(DHRobot((1.0, 0, 0, q1)), DHRobot((2.0, 0, 0, q1)),
        ...                samples=3).assert_equivalent()
        Traceback (most recent call last):
        ...
        AssertionError: the models differ: ...
        """
        if not self.passed:
            raise AssertionError(f"the models differ: {self.verdict}\n{self}")

    @property
    def verdict(self) -> str:
        """``"PASS: …"`` or ``"FAIL: …"`` with the tolerance and the worst quantity."""
        if not self.compared:
            return "FAIL: nothing could be compared"
        if self.passed:
            return f"PASS: every difference ≤ {self.tolerance:.0e}"
        worst = max(
            (
                (d, row.name, k)
                for row in self.rows
                for k, d in enumerate(row.differences, start=2)
                if d is not None
            ),
        )
        return (
            f"FAIL: {worst[1]} of model {worst[2]} differs by {worst[0]:.2g} "
            f"(tolerance {self.tolerance:.0e})"
        )

    @staticmethod
    def _cell(difference: float | None) -> str:
        """A difference as shown: ``0``, ``< 1e-12`` (round-off) or two digits (``3.2e-05``)."""
        if difference is None:
            return "not compared"
        if difference == 0:
            return "0"
        if difference < ROUND_OFF_SHOWN:
            return f"< {ROUND_OFF_SHOWN:.0e}"
        return f"{difference:.1e}"

    def __str__(self) -> str:
        lines = [
            f"Model comparison, {self.samples} seeded configurations (seed {self.seed}), "
            f"tolerance {self.tolerance:.0e}"
        ]
        for k, label in enumerate(self.labels, start=1):
            lines.append(f"  model {k}: {label}" + (", the reference" if k == 1 else ""))
        header = ["max |difference| from model 1"] + [
            f"model {k}" for k in range(2, len(self.labels) + 1)
        ]
        cells = [header] + [
            [row.label] + [self._cell(d) for d in row.differences] for row in self.rows
        ]
        widths = [max(_width(line[c]) for line in cells) for c in range(len(header))]
        for line in cells:
            padded = [cell + " " * (w - _width(cell)) for cell, w in zip(line, widths, strict=True)]
            lines.append(" | ".join(padded).rstrip())
        lines.append(self.verdict)
        if self.parameter_values:
            values = ", ".join(f"{k} = {v:.4g}" for k, v in self.parameter_values.items())
            lines.append(f"symbolic parameters set to: {values}")
        lines.extend(self.notes)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.passed else "#cf222e"
        models = "".join(
            f"<li>model {k}: {html.escape(label)}{' (reference)' if k == 1 else ''}</li>"
            for k, label in enumerate(self.labels, start=1)
        )
        head = "<th>max |difference| from model 1</th>" + "".join(
            f"<th>model {k}</th>" for k in range(2, len(self.labels) + 1)
        )
        body = "".join(
            f"<tr><td>{html.escape(row.label)}</td>"
            + "".join(f'<td style="text-align:right">{self._cell(d)}</td>' for d in row.differences)
            + "</tr>"
            for row in self.rows
        )
        extra = []
        if self.parameter_values:
            values = ", ".join(
                f"{html.escape(k)} = {v:.4g}" for k, v in self.parameter_values.items()
            )
            extra.append(f"symbolic parameters set to: {values}")
        extra.extend(html.escape(note) for note in self.notes)
        notes = "".join(f"<p><small>{note}</small></p>" for note in extra)
        return (
            f"<div><p><b>Model comparison</b>, {self.samples} seeded configurations "
            f"(seed {self.seed}), tolerance {self.tolerance:.0e}</p><ul>{models}</ul>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f'<p style="color:{colour}"><b>{html.escape(self.verdict)}</b></p>{notes}</div>'
        )


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal: combining dots (q̇, q̈) take none."""
    return sum(1 for character in text if not unicodedata.combining(character))


# --------------------------------------------------------------------------------------
# evaluating one model
# --------------------------------------------------------------------------------------


@dataclass
class _Evaluated:
    label: str
    pose: np.ndarray
    jacobian: np.ndarray
    mass_matrix: np.ndarray | None = None
    torques: np.ndarray | None = None
    why_no_dynamics: str | None = None


def _kind(model: Any) -> str:

    if isinstance(model, DHRobot):
        return "dh"
    if isinstance(model, ScrewRobot):
        return "screw"
    return ""


def _label(model: Any) -> str:
    if _kind(model) == "dh":
        return f"{model.name} ({model.convention} DH)"
    return f"{model.name} (screw)"


def _joint_letters(model: Any) -> str:
    if _kind(model) == "dh":
        return "".join(model.joint_types).upper()
    return "".join("R" if kind == "revolute" else "P" for kind in model.joint_types)


def _evaluate_dh(
    robot: Any, numbers: Mapping[str, float], states: tuple[np.ndarray, ...], dynamics: bool
) -> _Evaluated:
    known = {str(symbol): symbol for symbol in robot.symbolic_parameters(dynamics=True)}
    values = {known[name]: value for name, value in numbers.items() if name in known}
    fast = robot.numeric(values)
    q, qd, qdd = states
    result = _Evaluated(_label(robot), fast.forward_kinematics(q), fast.jacobian(q))
    if not dynamics:
        return result
    if not robot.has_centres_of_mass:
        result.why_no_dynamics = "its centres of mass are missing"
        return result
    symbolic = sorted(name for name in known if name not in numbers)
    if symbolic:
        shown = ", ".join(symbolic[:6]) + (", …" if len(symbolic) > 6 else "")
        result.why_no_dynamics = f"symbolic {shown} (give numbers with values=)"
        return result
    result.mass_matrix = fast.inertia_matrix(q)
    result.torques = fast.inverse_dynamics(q, qd, qdd)
    return result


def _evaluate_screw(robot: Any, states: tuple[np.ndarray, ...], dynamics: bool) -> _Evaluated:

    q, qd, qdd = states
    pose = forward_kinematics_space(robot, q)
    J_s = jacobian_space(robot, q)  # [ω; v]
    p = pose[..., :3, 3]
    omega, v = J_s[..., :3, :], J_s[..., 3:, :]
    linear = v + np.cross(omega, p[..., :, None], axisa=-2, axisb=-2).swapaxes(-1, -2)
    result = _Evaluated(_label(robot), pose, np.concatenate([linear, omega], axis=-2))
    if not dynamics:
        return result
    if not np.any(robot.spatial_inertias):
        result.why_no_dynamics = "it has no inertias (a kinematic model)"
        return result
    result.mass_matrix = mass_matrix_crba(robot, q)
    result.torques = inverse_dynamics_rnea(robot, q, qd, qdd)
    return result


def _parameter_numbers(
    models: tuple[Any, ...], values: Mapping[Any, Any] | None, seed: int
) -> tuple[dict[str, float], dict[str, float]]:
    """Numbers for symbolic parameters by name: given ones, and seeded draws for the geometry."""
    given: dict[str, float] = {}
    for key, value in (values or {}).items():
        name = key if isinstance(key, str) else str(key)
        given[name] = as_real_number(value, f"values[{key!r}]")
    geometric = set()
    for model in models:
        if _kind(model) == "dh":
            geometric |= {str(s) for s in model.symbolic_parameters(dynamics=False)}
    drawn_names = sorted(geometric - set(given))
    rng = np.random.default_rng([seed, 1])
    drawn = {name: float(rng.uniform(*PARAMETER_RANGE)) for name in drawn_names}
    return given | drawn, drawn


def _max_difference(a: np.ndarray | None, b: np.ndarray | None) -> float | None:
    if a is None or b is None:
        return None
    return float(np.abs(a - b).max())


def compare_models(
    *models: Any,
    samples: int = 200,
    seed: int = 0,
    dynamics: bool = True,
    tolerance: float = 1e-9,
    values: Mapping[Any, Any] | None = None,
) -> ModelComparison:
    """Check that several models describe the same robot, at seeded random states.

    Parameters
    ----------
    *models : DHRobot or ScrewRobot
        Two or more models with the same joints (number and types), in any
        mix of standard DH, modified DH and screw form. The first is the
        reference the others are compared with.
    samples : int
        Number of random configurations (and velocities, accelerations).
    seed : int
        Seed of the random numbers (states and stand-ins for symbols).
    dynamics : bool
        Also compare M(q) and τ(q, q̇, q̈) where every model has numeric
        dynamic parameters.
    tolerance : float
        Largest absolute difference (SI units) that still passes.
    values : mapping, optional
        Numbers for symbolic parameters, by symbol or name, used in every
        model that has them (``{"l_1": 0.5, m1: 2.0}``); other symbolic
        lengths and angles get seeded random numbers.

    Returns
    -------
    ModelComparison
        Max differences of T (4×4 in {0}), J (rows [v; ω] in {0}, the
        ``DHRobot.J`` convention), M and τ from model 1, and ``.passed``.

    Raises
    ------
    TypeError
        If a model is neither a DHRobot nor a ScrewRobot.
    ValueError
        For fewer than two models, different numbers or types of joints, or
        bad ``samples``, ``tolerance`` or ``values``.

    Examples
    --------
    A symbolic planar arm, its modified table and a hand-written one that
    forgot the tool:

    >>> from robolab import DHRobot
    >>> from robolab.symbols import q1, q2, l1, l2
    >>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="2R")
    >>> compare_models(arm, arm.to_modified(), samples=20).passed
    True
    >>> no_tool = DHRobot((0, 0, 0, q1), (l1, 0, 0, q2), convention="modified", name="2R")
    >>> report = compare_models(arm, no_tool, samples=20)
    >>> report.verdict
    'FAIL: end-effector pose T of model 2 differs by 1.3 (tolerance 1e-09)'
    >>> report.parameter_values  # the seeded stand-ins for l_1, l_2
    {'l_1': 1.83..., 'l_2': 1.33...}
    """
    if len(models) < 2:
        raise ValueError(f"compare_models needs at least two models, got {len(models)}")
    for k, model in enumerate(models, start=1):
        if not _kind(model):
            raise TypeError(
                f"model {k}: expected a DHRobot or a ScrewRobot, got {type(model).__name__}"
            )
    if isinstance(samples, bool) or not isinstance(samples, int | np.integer) or samples < 1:
        raise ValueError(f"samples: expected a positive integer, got {samples!r}")
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"tolerance: expected a finite number >= 0, got {tolerance!r}")
    joints = [_joint_letters(model) for model in models]
    for k, letters in enumerate(joints[1:], start=2):
        if letters != joints[0]:
            raise ValueError(
                f"model {k} ({_label(models[k - 1])}) has joints {letters!r} but model 1 "
                f"({_label(models[0])}) has {joints[0]!r}: they cannot be the same robot"
            )
    numbers, drawn = _parameter_numbers(models, values, seed)
    rng = np.random.default_rng(seed)
    q = np.empty((samples, len(joints[0])))
    for j, letter in enumerate(joints[0]):
        low, high = (-math.pi, math.pi) if letter == "R" else PRISMATIC_RANGE
        q[:, j] = rng.uniform(low, high, samples)
    qd, qdd = rng.uniform(-1.0, 1.0, (2, samples, len(joints[0])))
    states = (q, qd, qdd)
    evaluated = [
        _evaluate_dh(model, numbers, states, dynamics)
        if _kind(model) == "dh"
        else _evaluate_screw(model, states, dynamics)
        for model in models
    ]
    plain = [item.label for item in evaluated]
    labels = [
        f"{label} #{k}" if plain.count(label) > 1 else label
        for k, label in enumerate(plain, start=1)
    ]
    reference = evaluated[0]
    arrays = ("pose", "jacobian", "mass_matrix", "torques")
    rows = []
    for (name, convention), attribute in zip(_QUANTITIES, arrays, strict=True):
        if attribute in ("mass_matrix", "torques") and not dynamics:
            continue
        differences = tuple(
            _max_difference(getattr(reference, attribute), getattr(other, attribute))
            for other in evaluated[1:]
        )
        rows.append(ComparedQuantity(name, convention, differences))
    notes = [
        f"M and τ not compared for model {k}: {item.why_no_dynamics}."
        for k, item in enumerate(evaluated, start=1)
        if item.why_no_dynamics
    ]
    return ModelComparison(
        labels=tuple(labels),
        rows=tuple(rows),
        tolerance=float(tolerance),
        samples=int(samples),
        seed=seed,
        parameter_values={name: drawn[name] for name in sorted(drawn)},
        notes=tuple(notes),
    )
