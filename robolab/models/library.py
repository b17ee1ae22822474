"""The robot model library: a versioned JSON format, loading, saving and plausibility checks.

A robot model file holds one serial robot in the Modern Robotics form used by
ModernRoboticsBook.jl (``name, n_joints, home_ee_pose, screw_axes_space,
screw_axes_body, link_frames, spatial_inertias, joint_names, joint_types,
joint_limits``), so files can be exchanged with it, plus what makes a model
trustworthy: ``schema_version``, ``units``, ``gravity``, a ``source`` (citation,
the document or URDF it came from, what was changed), the accepted
``plausibility_exceptions`` with their reasons, and optionally a ``dh`` section
(standard and/or modified Denavit–Hartenberg tables with masses, centres of
mass and inertia tensors in the DH frames) so the same robot also loads as a
symbolic :class:`robolab.DHRobot`. The format is documented in
``robots/README.md`` and ``robots/robot.schema.json``.

Files are read with :func:`json.loads` only: nothing in a file is ever
evaluated, and SymPy numbers for the DH form are built from the parsed floats.
Every error names the file, the JSON path of the bad field and what was
expected, e.g. ``ur5.json: $.link_frames[2][1]: expected a row of 4 numbers,
got a list of 3 items``.

Examples
--------
>>> sorted(list_robots())
['panda', 'planar2r', 'planar3r', 'puma560', 'scara', 'stanford', 'ur5']
>>> model = read_robot_model("ur5")
>>> model.n_joints, model.joint_types[0]
(6, 'revolute')
>>> model.source["citation"][:40]
'K. M. Lynch and F. C. Park, Modern Robot'
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Context, Decimal
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..dh import symbols
from ..dh.robot import DHRobot
from ..screw.robot import ScrewRobot
from ..spatial.rigid_body_motions import adjoint_representation_unchecked, transform_inv_unchecked
from ..support.checks import as_float_array, link_inertia_problem
from ..support.plausibility import (
    PLAUSIBILITY_CHECKS,
    PlausibilityException,
    as_plausibility_exceptions,
)

__all__ = [
    "MAX_ROBOT_FILE_BYTES",
    "PLAUSIBILITY_CHECKS",
    "SCHEMA_VERSION",
    "TIDY_DIGITS",
    "DHTable",
    "PlausibilityException",
    "PlausibilityFinding",
    "RobotModelData",
    "as_plausibility_exceptions",
    "check_plausibility",
    "format_robot_json",
    "list_robots",
    "load_robot",
    "read_robot_model",
    "save_robot",
    "tidy_number",
]

#: Version of the file format written by this module (``schema_version`` in the files).
SCHEMA_VERSION = 1
#: The only units the format accepts (SI, radians).
UNITS = {"length": "m", "angle": "rad", "mass": "kg", "time": "s"}
#: Largest robot file robolab reads, in bytes: model files (:func:`read_robot_model`,
#: :func:`load_robot`) and URDF files (:func:`robolab.models.urdf.parse_urdf`,
#: ``python -m robolab.models.convert``). 4 MiB is generous: the bundled Panda model is 11 kB,
#: its URDF 15 kB. A larger file, and anything that is not a regular file (a directory,
#: a device such as ``/dev/zero``, a FIFO), is refused before it is read.
#:
#: >>> MAX_ROBOT_FILE_BYTES
#: 4194304
MAX_ROBOT_FILE_BYTES = 4 * 1024 * 1024

_JOINT_TYPES = ("revolute", "prismatic")
_DH_TYPE_LETTER = {"revolute": "r", "prismatic": "p"}
_CONVENTIONS = ("standard", "modified")
_TOP_KEYS = (
    "schema_version",
    "name",
    "description",
    "source",
    "units",
    "gravity",
    "n_joints",
    "joint_names",
    "joint_types",
    "joint_limits",
    "home_ee_pose",
    "screw_axes_space",
    "screw_axes_body",
    "link_frames",
    "spatial_inertias",
    "plausibility_exceptions",
    "dh",
)
#: Keys a file may leave out (screw_axes_body is then computed from the space screw axes).
_OPTIONAL_KEYS = ("screw_axes_body", "plausibility_exceptions", "dh")
# A file without schema_version is read as a ModernRoboticsBook.jl model (its robots/models/).
_EXCHANGE_KEYS = (
    "name",
    "n_joints",
    "home_ee_pose",
    "screw_axes_space",
    "screw_axes_body",
    "link_frames",
    "spatial_inertias",
    "joint_names",
    "joint_types",
    "joint_limits",
)
_DH_KEYS = ("rows", "masses", "cm_positions", "inertia_tensors", "tool")
_SOURCE_KEYS = ("citation", "document", "changes")
_DEFAULT_GRAVITY = (0.0, 0.0, -9.81)
# Tolerances of the consistency checks between redundant fields of a file.
_UNIT_TOLERANCE = 1e-6
_CONSISTENCY_TOLERANCE = 1e-9


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class DHTable:
    """One Denavit–Hartenberg table of a model file, with the link inertial data in its frames.

    Attributes
    ----------
    convention : {"standard", "modified"}
        See ``docs/conventions.md``.
    rows : tuple of (a, alpha, d, theta, joint_type)
        Constant parts of each row; the joint variable ``q_i`` is added to
        ``theta`` for a revolute joint (``"r"``) and to ``d`` for a prismatic one
        (``"p"``). In the modified convention row i holds ``a_{i-1}, α_{i-1}``.
    masses : ndarray, shape (n,)
    cm_positions : ndarray, shape (n, 3)
        Centre of mass of link i in frame {i}.
    inertia_tensors : ndarray, shape (n, 3, 3)
        Inertia of link i about its centre of mass, axes of frame {i}.
    tool : ndarray, shape (4, 4) or None
        Fixed transform ``T_n,ee`` after frame {n}.
    """

    convention: str
    rows: tuple[tuple[float, float, float, float, str], ...]
    masses: np.ndarray
    cm_positions: np.ndarray
    inertia_tensors: np.ndarray
    tool: np.ndarray | None = None


@dataclass(frozen=True)
class PlausibilityFinding:
    """A failed plausibility check; ``accepted`` is the recorded reason, or None."""

    link: int
    check: str
    detail: str
    accepted: str | None

    def __str__(self) -> str:
        verdict = f"accepted: {self.accepted}" if self.accepted else "NOT ACCEPTED"
        return f"link {self.link}, {self.check}: {self.detail} ({verdict})"


@dataclass(frozen=True)
class RobotModelData:
    """Everything a robot model file holds, as validated plain arrays.

    The screw part follows the Modern Robotics book: ``screw_axes_space`` has
    shape (6, n) (one column ``[ω; v]`` per joint; the file stores n rows),
    ``link_frames`` (n + 1, 4, 4) are ``M_{i-1,i}`` between centre-of-mass
    frames, ``spatial_inertias`` (n, 6, 6) are ``G_i = [[I_c, 0], [0, m 1]]``.

    Build robots from it with :meth:`to_screw` and :meth:`to_dh`.
    """

    name: str
    description: str
    home_ee_pose: np.ndarray
    screw_axes_space: np.ndarray
    link_frames: np.ndarray
    spatial_inertias: np.ndarray
    gravity: np.ndarray
    joint_names: tuple[str, ...]
    joint_types: tuple[str, ...]
    joint_limits: np.ndarray
    source: dict[str, Any]
    plausibility_exceptions: tuple[PlausibilityException, ...] = ()
    dh: dict[str, DHTable] = field(default_factory=dict)
    #: Body screw axes ``B = [Ad_{M⁻¹}] S``, shape (6, n): computed when not given,
    #: kept as read from a file (so that writing it back is exact).
    screw_axes_body: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.screw_axes_body is None:
            body = (
                adjoint_representation_unchecked(transform_inv_unchecked(self.home_ee_pose))
                @ self.screw_axes_space
            )
            object.__setattr__(self, "screw_axes_body", body)

    @property
    def n_joints(self) -> int:
        """Number of joints n."""
        return len(self.joint_names)

    @property
    def masses(self) -> np.ndarray:
        """Link masses read from the spatial inertias, shape (n,)."""
        return self.spatial_inertias[:, 3, 3].copy()

    def to_screw(self, gravity: Sequence[float] | None = None):
        """Return the model as a :class:`robolab.ScrewRobot` (gravity defaults to the file's).

        The file's ``plausibility_exceptions`` go with it: the robot accepts
        the published idealisations they name (and no other).
        """

        return ScrewRobot(
            self.name,
            self.home_ee_pose.copy(),
            self.screw_axes_space.copy(),
            self.link_frames.copy(),
            self.spatial_inertias.copy(),
            gravity=self._gravity(gravity),
            joint_names=list(self.joint_names),
            joint_types=list(self.joint_types),
            joint_limits=[tuple(limits) for limits in self.joint_limits.tolist()],
            plausibility_exceptions=self.plausibility_exceptions,
        )

    def to_dh(self, convention: str | None = None, gravity: Sequence[float] | None = None):
        """Return the model as a symbolic :class:`robolab.DHRobot` with the file's numbers.

        Joint variables are ``q1 .. qn`` from :mod:`robolab.symbols`; every
        other entry is a SymPy number built from the parsed float (multiples
        of π/12 become exact multiples of ``sympy.pi``, integers exact
        integers), never by evaluating text.

        Parameters
        ----------
        convention : {"standard", "modified"}, optional
            Which table to use; default ``"standard"`` when the file has it,
            else the only table there is.
        gravity : array_like, shape (3,), optional
            Overrides the file's gravity.
        """
        table = self._dh_table(convention)

        rows = []
        for i, (a, alpha, d, theta, letter) in enumerate(table.rows):
            q = getattr(symbols, f"q{i + 1}")
            if letter == "r":
                rows.append((_sym(a), _sym(alpha, angle=True), _sym(d), _offset(q, theta), "r"))
            else:
                alpha_s, theta_s = _sym(alpha, angle=True), _sym(theta, angle=True)
                rows.append((_sym(a), alpha_s, _offset(q, d, angle=False), theta_s, "p"))
        tool = None if table.tool is None else _sym_matrix(table.tool)
        robot = DHRobot(*rows, convention=table.convention, tool=tool, name=self.name)
        robot.plausibility_exceptions = self.plausibility_exceptions  # before the inertias
        robot.masses = [_sym(m) for m in table.masses]
        robot.cm_positions = [[_sym(x) for x in r] for r in table.cm_positions]
        robot.inertia_tensors = [_sym_matrix(inertia) for inertia in table.inertia_tensors]
        robot.gravity = [_sym(g) for g in self._gravity(gravity)]
        robot.joint_limits = [tuple(limits) for limits in self.joint_limits.tolist()]
        return robot

    def _gravity(self, gravity: Sequence[float] | None) -> np.ndarray:
        if gravity is None:
            return self.gravity.copy()
        return _array(gravity, "gravity", (3,))

    def _dh_table(self, convention: str | None) -> DHTable:
        if not self.dh:
            raise ValueError(
                f"robot {self.name!r} has no DH table (its file has no 'dh' section); "
                "load it with form='screw'"
            )
        if convention is None:
            convention = "standard" if "standard" in self.dh else next(iter(self.dh))
        if convention not in _CONVENTIONS:
            raise ValueError(f"convention must be 'standard' or 'modified', got {convention!r}")
        if convention not in self.dh:
            raise ValueError(
                f"robot {self.name!r} has no {convention} DH table; it has: {sorted(self.dh)}"
            )
        return self.dh[convention]


# --------------------------------------------------------------------------- public API


def list_robots() -> dict[str, str]:
    """Return the bundled robot models: ``{name: one-line description}``, sorted by name.

    Examples
    --------
    >>> print(list_robots()["planar2r"])
    Planar 2R arm in a vertical plane: two uniform 1 m, 1 kg links (Spong's planar elbow)
    """
    robots = {}
    for path in _bundled_files():
        data = _parse_json(path.read_text(encoding="utf-8"), path.name)
        robots[path.name.removesuffix(".json")] = str(data.get("description", ""))
    return dict(sorted(robots.items()))


def read_robot_model(name_or_path: str | os.PathLike) -> RobotModelData:
    """Read and validate a robot model file: a bundled name or a path to a ``.json`` file.

    Parameters
    ----------
    name_or_path : str or path-like
        A bundled model name (see :func:`list_robots`) or a file path. A file
        without ``schema_version`` is read as a ModernRoboticsBook.jl model
        (its keys only, no provenance).

    Returns
    -------
    RobotModelData

    Raises
    ------
    ValueError
        For an unknown name (the message lists the bundled ones) or a malformed
        file (the message gives the JSON path of the bad field and what was
        expected).

    Examples
    --------
    >>> read_robot_model("puma")
    Traceback (most recent call last):
    ...
    ValueError: unknown robot 'puma'; the bundled robots are: panda, planar2r, planar3r, \
puma560, scara, stanford, ur5 (or pass the path of a .json model file)
    """
    text, where = _read_source(name_or_path)
    return _model_from_json(_parse_json(text, where), where)


def load_robot(
    name_or_path: str | os.PathLike,
    gravity: Sequence[float] | None = None,
    form: str = "screw",
    convention: str | None = None,
):
    """Load a robot model by bundled name or from a JSON file.

    Parameters
    ----------
    name_or_path : str or path-like
        A bundled model name (see :func:`list_robots`) or the path of a model file.
    gravity : array_like, shape (3,), optional
        Gravity in the base frame, m/s²; default: the file's ``gravity``
        (``(0, 0, -9.81)`` unless the file says otherwise).
    form : {"screw", "dh"}
        ``"screw"`` returns a numeric :class:`robolab.ScrewRobot` (Modern
        Robotics form, [ω; v]); ``"dh"`` a symbolic :class:`robolab.DHRobot`
        with the file's numbers and joint variables ``q1..qn``.
    convention : {"standard", "modified"}, optional
        For ``form="dh"``: which DH table (default standard where the file has it).

    Returns
    -------
    ScrewRobot or DHRobot

    Examples
    --------
    >>> robot = load_robot("ur5")
    >>> robot.n_joints, robot.gravity.tolist()
    (6, [0.0, 0.0, -9.81])
    >>> load_robot("ur5", form="dh")
    Traceback (most recent call last):
    ...
    ValueError: robot 'ur5' has no DH table (its file has no 'dh' section); load it with ...
    """
    if form not in ("screw", "dh"):
        raise ValueError(f"form must be 'screw' or 'dh', got {form!r}")
    if form == "screw" and convention is not None:
        raise ValueError("convention applies to form='dh' only")
    model = read_robot_model(name_or_path)
    if form == "screw":
        return model.to_screw(gravity)
    return model.to_dh(convention, gravity)


def save_robot(
    robot: Any,
    path: str | os.PathLike,
    *,
    description: str | None = None,
    source: Mapping[str, Any] | None = None,
    plausibility_exceptions: Sequence[PlausibilityException | Mapping[str, Any]] | None = None,
    tidy: bool = False,
) -> Path:
    """Write a robot to a model file (one matrix row per line) and return the path.

    Parameters
    ----------
    robot : RobotModelData, ScrewRobot or DHRobot
        A :class:`RobotModelData` is written completely. A ``ScrewRobot``
        gives the screw part. A ``DHRobot`` (numeric parameters) gives its DH
        table and the screw part from ``robot.to_screw()``.
    path : str or path-like
        The ``.json`` file to write (parent folders must exist).
    description, source, plausibility_exceptions : optional
        Provenance to record; for a ``RobotModelData`` they default to its own,
        otherwise to "not recorded".
    tidy : bool
        Remove float noise first (see :func:`tidy_number`: ``|x| < 1e-12`` is
        written as 0, whole degrees exactly, other numbers rounded to 12
        significant digits), so that the file does not depend on the CPU. Off by
        default so that a round trip is exact: ``read_robot_model(save_robot(m,
        p))`` gives back the very same numbers.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import tempfile
    >>> model = read_robot_model("planar2r")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_robot(model, Path(folder) / "copy.json")
    ...     again = read_robot_model(path)
    >>> bool(np.array_equal(again.spatial_inertias, model.spatial_inertias))
    True
    """
    model = _model_from_robot(robot)
    changes: dict[str, Any] = {}
    if description is not None:
        changes["description"] = description
    if source is not None:
        changes["source"] = _check_source(dict(source), "source")
    if plausibility_exceptions is not None:
        changes["plausibility_exceptions"] = tuple(
            item if isinstance(item, PlausibilityException) else PlausibilityException(**dict(item))
            for item in plausibility_exceptions
        )
    if changes:
        model = RobotModelData(**{**model.__dict__, **changes})
    text = format_robot_json(model, tidy=tidy)
    # Validate what is written exactly as a reader would.
    _model_from_json(_parse_json(text, str(path)), str(path))
    path = Path(path)
    _write_text(path, text)
    return path


def check_plausibility(model: Any) -> list[PlausibilityFinding]:
    """Run the per-link plausibility checks and return every failure.

    Checks (links numbered 1..n):

    * ``mass``: ``m_i > 0``;
    * ``inertia_triangle``: the principal moments of ``I_c`` satisfy the
      triangle inequality ``I_a ≤ I_b + I_c`` for every permutation (true for
      every real body; equality for a thin rod or plate), decided by
      :func:`robolab.support.checks.link_inertia_problem` as in every other check.

    A failure that the model accepts in ``plausibility_exceptions`` carries its
    reason in ``accepted``. (Negative masses and indefinite inertias never get
    here: reading the file refuses them, and so does every robot.) A
    :class:`robolab.ScrewRobot` or :class:`robolab.DHRobot` refuses an
    inertia that breaks the triangle inequality unless it is accepted this
    way, so a robot's report lists only accepted failures (and zero masses).

    Parameters
    ----------
    model : RobotModelData, ScrewRobot or DHRobot
        A DH robot needs numeric masses and inertia tensors.

    Examples
    --------
    >>> for finding in check_plausibility(read_robot_model("puma560")):
    ...     print(finding.link, finding.check, finding.accepted is not None)
    1 mass True
    1 inertia_triangle True
    3 inertia_triangle True
    >>> print(check_plausibility(load_robot("stanford"))[0])  # doctest: +ELLIPSIS
    link 5, inertia_triangle: principal moments 0, 0.0004, 0.003 kg·m²: ... (accepted: Published...
    """
    if hasattr(model, "spatial_inertias"):
        inertias = np.asarray(model.spatial_inertias, dtype=float)
        masses, tensors = inertias[:, 3, 3], inertias[:, :3, :3]
    elif hasattr(model, "inertia_tensors") and hasattr(model, "masses"):
        try:
            masses = np.array([float(m) for m in model.masses])
            tensors = np.array([np.array(t.tolist(), dtype=float) for t in model.inertia_tensors])
        except TypeError:
            raise ValueError(
                "check_plausibility needs numeric masses and inertia tensors; "
                "this DH robot's are symbolic"
            ) from None
    else:
        raise TypeError(
            f"model must be a RobotModelData, a ScrewRobot or a DHRobot, got {type(model).__name__}"
        )
    exceptions = getattr(model, "plausibility_exceptions", ())
    accepted = {(e.link, e.check): e.reason for e in exceptions}
    findings = []
    for i, (mass, tensor) in enumerate(zip(masses, tensors, strict=True)):
        link = i + 1
        if not mass > 0:
            findings.append(
                PlausibilityFinding(link, "mass", f"m = {mass:g} kg", accepted.get((link, "mass")))
            )
        problem = link_inertia_problem(None, tensor)
        if problem is not None and problem.check == "inertia_triangle":
            findings.append(
                PlausibilityFinding(
                    link,
                    "inertia_triangle",
                    problem.found,
                    accepted.get((link, "inertia_triangle")),
                )
            )
    return findings


#: Significant digits of every number in a tidy file (:func:`tidy_number`).
TIDY_DIGITS = 12
# π to 60 digits: whole multiples of a degree are rounded correctly without SymPy.
_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494")
_DECIMAL = Context(prec=40)


def tidy_number(value: float) -> float:
    """The number as a tidy file stores it: independent of the CPU that computed it.

    The rule, applied in this order:

    1. ``|x| < 1e-12`` becomes 0 (float noise around zero);
    2. a whole multiple of one degree, ``k·π/180`` to 12 digits, becomes that
       multiple correctly rounded (so ``π/2``, ``-π`` and ``170°`` keep every
       digit and a DH angle reads back as an exact ``k·π/12``);
    3. every other number is rounded to :data:`TIDY_DIGITS` (12) significant
       digits (``0.39499999999999996 → 0.395``, ``1/12 → 0.0833333333333``).

    The last bits of a computed number depend on the BLAS kernel and the CPU
    (a 4×4 product differs by an ulp between OpenBLAS's Haswell and Prescott
    kernels); 12 digits lie far above that noise, so a file regenerated on any
    machine is the same file. Tidying twice changes nothing.

    Examples
    --------
    >>> tidy_number(0.39499999999999996), tidy_number(6.123233995736766e-17), tidy_number(-0.0)
    (0.395, 0.0, 0.0)
    >>> tidy_number(1.5707963267948966), tidy_number(0.014107248642161837)
    (1.5707963267948966, 0.0141072486422)
    """
    value = float(value)
    if abs(value) < 1e-12:
        return 0.0
    degrees = round(value * 180 / math.pi)
    if degrees != 0 and abs(degrees) <= 3600:
        multiple = float(_DECIMAL.divide(_DECIMAL.multiply(_PI, degrees), 180))
        if abs(value - multiple) <= 1e-12 * abs(multiple):
            return multiple + 0.0
    return float(f"{value:.{TIDY_DIGITS - 1}e}") + 0.0


def format_robot_json(model: RobotModelData, tidy: bool = False) -> str:
    """Return the file text of ``model``: JSON with one matrix row per line.

    Numbers are written in the shortest form that reads back exactly
    (integral values without a decimal point); with ``tidy=True`` every number
    first goes through :func:`tidy_number`.
    """
    clean = tidy_number if tidy else float

    def numbers(array: np.ndarray) -> Any:
        return np.vectorize(clean, otypes=[float])(np.asarray(array, dtype=float)).tolist()

    content: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "name": model.name,
        "description": model.description,
        "source": model.source,
        "units": dict(UNITS),
        "gravity": numbers(model.gravity),
        "n_joints": model.n_joints,
        "joint_names": list(model.joint_names),
        "joint_types": list(model.joint_types),
        "joint_limits": numbers(model.joint_limits),
        "home_ee_pose": numbers(model.home_ee_pose),
        "screw_axes_space": numbers(model.screw_axes_space.T),
        "screw_axes_body": numbers(model.screw_axes_body.T),
        "link_frames": numbers(model.link_frames),
        "spatial_inertias": numbers(model.spatial_inertias),
    }
    if model.plausibility_exceptions:
        content["plausibility_exceptions"] = [
            {"link": e.link, "check": e.check, "reason": e.reason}
            for e in model.plausibility_exceptions
        ]
    if model.dh:
        content["dh"] = {}
        for convention in _CONVENTIONS:
            if convention not in model.dh:
                continue
            table = model.dh[convention]
            section: dict[str, Any] = {
                "rows": [[*numbers(np.array(row[:4])), row[4]] for row in table.rows],
                "masses": numbers(table.masses),
                "cm_positions": numbers(table.cm_positions),
                "inertia_tensors": numbers(table.inertia_tensors),
            }
            if table.tool is not None:
                section["tool"] = numbers(table.tool)
            content["dh"][convention] = section
    return _dump(content, 0) + "\n"


# --------------------------------------------------------------------------- reading


def _bundled_files() -> list[Any]:
    folder = resources.files("robolab.robots")
    return sorted(
        (
            entry
            for entry in folder.iterdir()
            if entry.name.endswith(".json") and not entry.name.endswith(".schema.json")
        ),
        key=lambda entry: entry.name,
    )


def _read_source(name_or_path: str | os.PathLike) -> tuple[str, str]:
    if not isinstance(name_or_path, str | os.PathLike):
        raise TypeError(
            f"name_or_path must be a robot name or a file path, got {type(name_or_path).__name__}"
        )
    text = os.fspath(name_or_path)
    looks_like_path = (
        isinstance(name_or_path, os.PathLike)
        or text.endswith(".json")
        or os.sep in text
        or "/" in text
    )
    if looks_like_path:
        path = Path(text)
        return _read_bounded_text(path, "robot model file", "a .json model file"), str(path)
    for entry in _bundled_files():
        if entry.name == f"{text}.json":
            return entry.read_text(encoding="utf-8"), entry.name
    names = ", ".join(entry.name.removesuffix(".json") for entry in _bundled_files())
    raise ValueError(
        f"unknown robot {text!r}; the bundled robots are: {names} "
        "(or pass the path of a .json model file)"
    )


#: What ``os.stat`` says a path is, for the error refusing anything but a regular file.
_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def _file_kind(mode: int) -> str:
    for test, kind in _FILE_KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def _read_bounded_text(path: Path, what: str, expected: str) -> str:
    """The UTF-8 text of a regular file of at most :data:`MAX_ROBOT_FILE_BYTES` bytes.

    ``what`` names the file in errors ("robot model file", "URDF file"),
    ``expected`` says what should have been given ("a .json model file").
    Anything else is refused before a byte is read: ``os.stat`` must say it
    is a regular file (a symbolic link counts as what it points to) no larger
    than the limit. The file is opened with ``O_NONBLOCK`` (a FIFO swapped in
    after the check cannot block the open), checked again on the open
    descriptor, and at most limit + 1 bytes are read, so a file that grows in
    the meantime is refused too.
    """
    limit = MAX_ROBOT_FILE_BYTES
    prefix = f"cannot read {what} {path}"
    try:
        info = os.stat(path)
    except OSError as error:
        raise ValueError(f"{prefix}: {error.strerror}") from None
    except ValueError as error:  # an embedded NUL character
        raise ValueError(f"{prefix}: {error}") from None

    def refuse_kind(mode: int) -> None:
        if not stat.S_ISREG(mode):
            link = " (through a symbolic link)" if path.is_symlink() else ""
            raise ValueError(
                f"{prefix}: it is {_file_kind(mode)}{link}, not a regular file; expected {expected}"
            )

    def refuse_size(size: str) -> None:
        raise ValueError(
            f"{prefix}: it {size}, more than the {limit} bytes robolab reads "
            f"(robolab.models.library.MAX_ROBOT_FILE_BYTES); expected {expected} "
            "no larger than that"
        )

    refuse_kind(info.st_mode)
    if info.st_size > limit:
        refuse_size(f"has {info.st_size} bytes")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise ValueError(f"{prefix}: {error.strerror}") from None
    with open(descriptor, "rb", closefd=True) as file:
        refuse_kind(os.fstat(descriptor).st_mode)  # replaced since the check?
        try:
            data = file.read(limit + 1)
        except OSError as error:
            raise ValueError(f"{prefix}: {error.strerror}") from None
    if len(data) > limit:
        refuse_size("grew while it was read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{prefix}: it is not UTF-8 text (byte {data[error.start]:#04x} at offset "
            f"{error.start}: {error.reason}); expected {expected} saved as UTF-8"
        ) from None


def _write_text(path: Path, text: str) -> None:
    """Write a model file; a FIFO, device or directory in its place is refused, never waited on."""
    prefix = f"cannot write robot model file {path}"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise ValueError(f"{prefix}: {error.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise ValueError(
            f"{prefix}: it is {_file_kind(mode)}, not a regular file; expected the path of "
            "a .json file to write"
        )
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    try:
        # O_NONBLOCK: a FIFO that appeared since the check fails to open instead of waiting.
        descriptor = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o666)
    except OSError as error:
        raise ValueError(f"{prefix}: {error.strerror}") from None
    with open(descriptor, "wb", closefd=True) as file:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(f"{prefix}: it is {_file_kind(mode)}, not a regular file")
        file.write(text.encode("utf-8"))


class _OutOfRange:
    """A number in a file that no double holds (``1e999``, an integer of 400 digits).

    The JSON reader keeps it in place of the number, so that the validator
    refuses it with the JSON path of the field like any other wrong value.
    """

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"_OutOfRange({_shorten(self.text)!r})"

    def describe(self) -> str:
        return (
            f"the number {_shorten(self.text)}, which is out of the range of a "
            "double-precision float (|x| < 1.8e308)"
        )


def _shorten(text: str, keep: int = 12) -> str:
    """``text``, its middle left out when long (``100000000000…000000000000 (5001 digits)``)."""
    if len(text) <= 2 * keep + 10:
        return text
    digits = text.lstrip("+-")
    count = f"{len(digits)} digits" if digits.isdigit() else f"{len(text)} characters"
    return f"{text[:keep]}…{text[-keep:]} ({count})"


def _parse_int(text: str) -> int | _OutOfRange:
    # Python refuses to convert more than 4300 digits (a ValueError of its own, without
    # the file's name), and an integer beyond ±1.8e308 cannot become a float: keep a marker.
    if len(text.lstrip("-")) > 309:
        return _OutOfRange(text)
    value = int(text)
    try:
        float(value)
    except OverflowError:
        return _OutOfRange(text)
    return value


def _parse_float(text: str) -> float | _OutOfRange:
    value = float(text)
    return value if math.isfinite(value) else _OutOfRange(text)


class _DuplicateKeys(dict):
    """A JSON object in which some key appeared more than once (the last value is kept)."""

    duplicates: dict[str, int]


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for key, _ in pairs:
        counts[key] = counts.get(key, 0) + 1
    if len(counts) == len(pairs):
        return dict(pairs)
    result = _DuplicateKeys(pairs)
    result.duplicates = {key: count for key, count in counts.items() if count > 1}
    return result


def _json_path(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _first_duplicate(data: Any) -> tuple[str, str, int] | None:
    """(JSON path of the object, key, count) of the first repeated key, in file order."""
    stack: list[tuple[str, Any]] = [("$", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _DuplicateKeys):
            key, count = next(iter(value.duplicates.items()))
            return path, key, count
        if isinstance(value, dict):
            items = [(_json_path(path, key), item) for key, item in value.items()]
        elif isinstance(value, list):
            items = [(_json_path(path, k), item) for k, item in enumerate(value)]
        else:
            continue
        stack.extend(reversed(items))
    return None


def _parse_json(text: str, where: str) -> dict[str, Any]:
    def no_constants(name: str) -> float:
        raise ValueError(f"{where}: {name} is not valid JSON; write finite numbers only")

    try:
        data = json.loads(
            text,
            parse_constant=no_constants,
            parse_int=_parse_int,
            parse_float=_parse_float,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{where}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise ValueError(
            f"{where}: brackets nested too deeply to read (beyond Python's recursion limit "
            f"of {sys.getrecursionlimit()}); expected a model file, whose deepest field "
            "(an inertia tensor of a DH table) is 6 brackets deep"
        ) from None
    if not isinstance(data, dict):
        raise ValueError(f"{where}: $: expected a JSON object, got {_kind(data)}")
    duplicate = _first_duplicate(data)
    if duplicate is not None:
        path, key, count = duplicate
        raise ValueError(
            f"{where}: {path}: expected each key of an object once, got the key {key!r} "
            f"{count} times (JSON readers differ on which value counts)"
        )
    return data


def _model_from_json(data: dict[str, Any], where: str) -> RobotModelData:
    fail = _Failer(where)
    exchange = "schema_version" not in data
    allowed = _EXCHANGE_KEYS if exchange else _TOP_KEYS
    unknown = [key for key in data if key not in allowed]
    if unknown:
        hint = (
            " (a file without schema_version is read as a ModernRoboticsBook.jl model)"
            if exchange
            else ""
        )
        fail(f"$.{unknown[0]}", f"one of the keys {list(allowed)}{hint}", _Said("an unknown key"))
    required = [key for key in allowed if key not in _OPTIONAL_KEYS]
    if not exchange:
        version = data["schema_version"]
        if not _is_int(version) or version < 1:
            fail("$.schema_version", "a positive integer", version)
        if version > SCHEMA_VERSION:
            fail(
                "$.schema_version",
                f"a version up to {SCHEMA_VERSION} (a newer robolab wrote this file)",
                version,
            )
    missing = [key for key in required if key not in data]
    if missing:
        fail(f"$.{missing[0]}", "this required key", _Said("nothing (the key is missing)"))

    name = _string(data["name"], "$.name", fail)
    n = data["n_joints"]
    if not _is_int(n) or n < 1:
        fail("$.n_joints", "a positive integer", n)

    joint_names = tuple(
        _string(v, f"$.joint_names[{i}]", fail)
        for i, v in enumerate(_list(data["joint_names"], "$.joint_names", n, fail))
    )
    if len(set(joint_names)) != n:
        fail("$.joint_names", "distinct names", joint_names)
    joint_types = tuple(_list(data["joint_types"], "$.joint_types", n, fail))
    for i, joint_type in enumerate(joint_types):
        if joint_type not in _JOINT_TYPES:
            fail(f"$.joint_types[{i}]", '"revolute" or "prismatic"', joint_type)
    joint_limits = _matrix(data["joint_limits"], "$.joint_limits", (n, 2), fail)
    for i, (lower, upper) in enumerate(joint_limits):
        if lower > upper:
            fail(f"$.joint_limits[{i}]", "[lower, upper] with lower <= upper", [lower, upper])

    home_ee_pose = _transform(data["home_ee_pose"], "$.home_ee_pose", fail)
    screw_rows = _matrix(data["screw_axes_space"], "$.screw_axes_space", (n, 6), fail)
    for i, (screw, joint_type) in enumerate(zip(screw_rows, joint_types, strict=True)):
        _check_screw(screw, joint_type, f"$.screw_axes_space[{i}]", fail, joint_names[i])
    screw_axes_space = screw_rows.T.copy()
    link_frames = np.array(
        [
            _transform(frame, f"$.link_frames[{k}]", fail)
            for k, frame in enumerate(_list(data["link_frames"], "$.link_frames", n + 1, fail))
        ]
    )
    spatial_inertias = np.array(
        [
            _spatial_inertia(G, f"$.spatial_inertias[{i}]", fail)
            for i, G in enumerate(_list(data["spatial_inertias"], "$.spatial_inertias", n, fail))
        ]
    )
    product = np.linalg.multi_dot([np.eye(4), *link_frames])
    scale = max(1.0, float(np.abs(home_ee_pose).max()))
    if np.abs(product - home_ee_pose).max() > _CONSISTENCY_TOLERANCE * scale:
        fail(
            "$.home_ee_pose",
            "the product of the link frames M_01 M_12 ... M_n,n+1 (within 1e-9)",
            _Said(f"a pose differing from it by {np.abs(product - home_ee_pose).max():.3g}"),
        )
    body = None
    if "screw_axes_body" in data:
        body = _matrix(data["screw_axes_body"], "$.screw_axes_body", (n, 6), fail).T.copy()
        expected = (
            adjoint_representation_unchecked(transform_inv_unchecked(home_ee_pose))
            @ screw_axes_space
        )
        error = float(np.abs(body - expected).max())
        if error > 1e-8 * scale:
            fail(
                "$.screw_axes_body",
                "[Ad_(M^-1)] S, the space screw axes seen from the home pose (within 1e-8)",
                _Said(f"axes differing from it by {error:.3g}"),
            )

    screw_form = {
        "name": name,
        "home_ee_pose": home_ee_pose,
        "screw_axes_space": screw_axes_space,
        "link_frames": link_frames,
        "spatial_inertias": spatial_inertias,
        "joint_names": joint_names,
        "joint_types": joint_types,
        "joint_limits": joint_limits,
        "screw_axes_body": body,
    }
    if exchange:
        return RobotModelData(
            **screw_form,
            description=f"{name} (ModernRoboticsBook.jl model file; no provenance recorded)",
            gravity=np.array(_DEFAULT_GRAVITY),
            source={
                "citation": "not recorded",
                "document": f"{where} (ModernRoboticsBook.jl format, without schema_version)",
                "changes": [],
            },
        )

    description = _string(data["description"], "$.description", fail)
    if "\n" in description:
        fail("$.description", "a one-line description", _Said("text with a line break"))
    source = _check_source(data["source"], "$.source", fail)
    units = data["units"]
    if units != UNITS:
        fail("$.units", f"the SI units {json.dumps(UNITS)}", units)
    gravity = _matrix(data["gravity"], "$.gravity", (3,), fail)
    exceptions = tuple(
        _plausibility_exception(item, f"$.plausibility_exceptions[{k}]", n, fail)
        for k, item in enumerate(
            _list(data.get("plausibility_exceptions", []), "$.plausibility_exceptions", None, fail)
        )
    )
    dh = _dh_section(data["dh"], joint_types, spatial_inertias, fail) if "dh" in data else {}
    return RobotModelData(
        **screw_form,
        description=description,
        gravity=gravity,
        source=source,
        plausibility_exceptions=exceptions,
        dh=dh,
    )


class _Said(str):
    """A description of what was found, used as is in an error message."""


class _Failer:
    """Raise ``ValueError("<file>: <json path>: expected <what>, got <value>")``."""

    def __init__(self, where: str):
        self.where = where

    def __call__(self, path: str, expected: str, got: Any) -> None:
        described = got if isinstance(got, _Said) else _kind(got)
        raise ValueError(f"{self.where}: {path}: expected {expected}, got {described}")


def _kind(value: Any) -> str:
    if isinstance(value, _OutOfRange):
        return value.describe()
    if isinstance(value, bool):
        return f"the boolean {json.dumps(value)}"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        return f"an object with keys {list(value)}"
    return f"a {type(value).__name__}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _string(value: Any, path: str, fail: _Failer) -> str:
    if not isinstance(value, str) or not value.strip():
        fail(path, "a non-empty string", value)
    return value


def _list(value: Any, path: str, length: int | None, fail: _Failer) -> list[Any]:
    if not isinstance(value, list):
        fail(path, "a list" if length is None else f"a list of {length} items", value)
    if length is not None and len(value) != length:
        fail(path, f"a list of {length} items", value)
    return value


def _matrix(value: Any, path: str, shape: tuple[int, ...], fail: _Failer) -> np.ndarray:
    """A nested list of numbers of exactly ``shape``, checked level by level."""

    def walk(item: Any, item_path: str, dims: tuple[int, ...]) -> None:
        if len(dims) == 1:
            if not isinstance(item, list) or len(item) != dims[0]:
                what = "a row" if len(shape) > 1 else "a list"
                fail(item_path, f"{what} of {dims[0]} numbers", item)
            for k, entry in enumerate(item):
                if not _is_number(entry):
                    fail(f"{item_path}[{k}]", "a finite number", entry)
            return
        if not isinstance(item, list) or len(item) != dims[0]:
            inner = "×".join(str(d) for d in dims[1:])
            fail(
                item_path,
                f"a list of {dims[0]} rows" + ("" if len(dims) == 2 else f" ({inner})"),
                item,
            )
        for k, entry in enumerate(item):
            walk(entry, f"{item_path}[{k}]", dims[1:])

    walk(value, path, shape)
    return np.array(value, dtype=float).reshape(shape)


def _transform(value: Any, path: str, fail: _Failer) -> np.ndarray:
    T = _matrix(value, path, (4, 4), fail)
    if np.abs(T[3] - (0.0, 0.0, 0.0, 1.0)).max() > _UNIT_TOLERANCE:
        fail(f"{path}[3]", "the bottom row [0, 0, 0, 1] of a homogeneous transform", T[3].tolist())
    R = T[:3, :3]
    if np.abs(R.T @ R - np.eye(3)).max() > _UNIT_TOLERANCE or np.linalg.det(R) < 0:
        fail(
            path,
            "a rotation part that is orthonormal with det +1 (within 1e-6)",
            _Said("a matrix that is not"),
        )
    return T


def _non_unit_axis(norm: float) -> str:
    """Why a revolute screw axis needs |ω| = 1 and how to make it so.

    The same words end the error of :class:`robolab.ScrewRobot` for such an axis.
    """
    return (
        f"the joint variable would not be an angle in radians (the joint would turn {norm:.6g} "
        f"rad per unit of q); normalise the axis by dividing it (ω and v) by the length of ω, "
        f"{norm:.6g}: the joint variable then becomes {norm:.6g}·q"
    )


def _check_screw(
    screw: np.ndarray, joint_type: str, path: str, fail: _Failer, joint_name: str
) -> None:
    omega, v = screw[:3], screw[3:]
    if joint_type == "revolute":
        norm = float(np.linalg.norm(omega))
        if abs(norm - 1.0) > _UNIT_TOLERANCE:
            if norm <= _UNIT_TOLERANCE:  # nothing to normalise: ω = 0 turns about no axis
                fail(
                    path,
                    f"a revolute screw axis [ω; v] with |ω| = 1 (joint {joint_name!r})",
                    _Said(f"a screw axis with |ω| = {norm:.6g}"),
                )
            fail(
                path,
                f"a revolute screw axis [ω; v] with |ω| = 1 (joint {joint_name!r})",
                _Said(f"|ω| = {norm:.6g}: {_non_unit_axis(norm)}"),
            )
        if abs(omega @ v) > _UNIT_TOLERANCE:
            fail(
                path,
                "a revolute screw axis of zero pitch (ω·v = 0)",
                _Said(f"a screw axis with ω·v = {omega @ v:.6g}"),
            )
    else:
        if np.linalg.norm(omega) > _UNIT_TOLERANCE or abs(np.linalg.norm(v) - 1) > _UNIT_TOLERANCE:
            fail(
                path,
                "a prismatic screw axis [0; v] with |v| = 1",
                _Said(
                    f"a screw axis with |ω| = {np.linalg.norm(omega):.6g}, |v| = "
                    f"{np.linalg.norm(v):.6g}"
                ),
            )


def _check_inertia(inertia: np.ndarray, path: str, fail: _Failer) -> None:
    # The physical rules of every door (robolab.support.checks.link_inertia_problem). The triangle
    # inequality is not enforced here: check_plausibility reports it, and the robots made
    # from the file (to_screw, to_dh) refuse it unless plausibility_exceptions accepts it.
    problem = link_inertia_problem(None, inertia, triangle=False)
    if problem is not None:
        fail(path, f"a {problem.expected} inertia tensor", _Said(problem.found))


def _spatial_inertia(value: Any, path: str, fail: _Failer) -> np.ndarray:
    G = _matrix(value, path, (6, 6), fail)
    mass = G[3, 3]
    scale = max(1e-12, float(np.abs(G).max()))
    if np.abs(G[:3, 3:]).max() > 1e-12 * scale or np.abs(G[3:, :3]).max() > 1e-12 * scale:
        fail(
            path,
            "G = [[I_c, 0], [0, m 1]] in the centre-of-mass frame (zero off-diagonal blocks)",
            _Said("nonzero entries in the off-diagonal blocks"),
        )
    if np.abs(G[3:, 3:] - mass * np.eye(3)).max() > 1e-12 * scale:
        fail(
            f"{path}[3..5]",
            "the lower-right block m·1 (the same mass three times on the "
            "diagonal, zeros elsewhere)",
            _Said(f"{G[3:, 3:].tolist()}"),
        )
    if link_inertia_problem(mass, None) is not None:
        fail(f"{path}[3][3]", "a mass >= 0", float(mass))
    _check_inertia(G[:3, :3], f"{path} (I_c block)", fail)
    return G


def _check_source(value: Any, path: str, fail: _Failer | None = None) -> dict[str, Any]:
    fail = fail or _Failer("source")
    if not isinstance(value, dict):
        fail(path, f"an object with keys {list(_SOURCE_KEYS)}", value)
    for key in value:
        if key not in _SOURCE_KEYS:
            fail(f"{path}.{key}", f"one of the keys {list(_SOURCE_KEYS)}", _Said("an unknown key"))
    for key in ("citation", "document"):
        if key not in value:
            fail(f"{path}.{key}", "this required key", _Said("nothing (the key is missing)"))
        _string(value[key], f"{path}.{key}", fail)
    changes = value.get("changes", [])
    for k, change in enumerate(_list(changes, f"{path}.changes", None, fail)):
        _string(change, f"{path}.changes[{k}]", fail)
    return {"citation": value["citation"], "document": value["document"], "changes": list(changes)}


def _plausibility_exception(value: Any, path: str, n: int, fail: _Failer) -> PlausibilityException:
    if not isinstance(value, dict) or set(value) != {"link", "check", "reason"}:
        fail(path, 'an object with exactly the keys "link", "check", "reason"', value)
    if not _is_int(value["link"]) or not 1 <= value["link"] <= n:
        fail(f"{path}.link", f"a link number 1..{n}", value["link"])
    if value["check"] not in PLAUSIBILITY_CHECKS:
        fail(f"{path}.check", f"one of {list(PLAUSIBILITY_CHECKS)}", value["check"])
    return PlausibilityException(
        value["link"], value["check"], _string(value["reason"], f"{path}.reason", fail)
    )


def _dh_section(
    section: Any, joint_types: tuple[str, ...], spatial_inertias: np.ndarray, fail: _Failer
) -> dict[str, DHTable]:
    """The ``dh`` object of a file: its tables by convention."""
    if not isinstance(section, dict) or not section:
        fail("$.dh", 'an object with "standard" and/or "modified" tables', section)
    tables = {}
    for convention, table in section.items():
        if convention not in _CONVENTIONS:
            fail(f"$.dh.{convention}", 'the key "standard" or "modified"', _Said("an unknown key"))
        tables[convention] = _dh_table(
            table, convention, f"$.dh.{convention}", joint_types, spatial_inertias, fail
        )
    return tables


def _dh_table(
    value: Any,
    convention: str,
    path: str,
    joint_types: tuple[str, ...],
    spatial_inertias: np.ndarray,
    fail: _Failer,
) -> DHTable:
    n = len(joint_types)
    if not isinstance(value, dict):
        fail(path, f"an object with keys {list(_DH_KEYS)}", value)
    for key in value:
        if key not in _DH_KEYS:
            fail(f"{path}.{key}", f"one of the keys {list(_DH_KEYS)}", _Said("an unknown key"))
    for key in _DH_KEYS[:4]:
        if key not in value:
            fail(f"{path}.{key}", "this required key", _Said("nothing (the key is missing)"))
    rows = []
    for i, row in enumerate(_list(value["rows"], f"{path}.rows", n, fail)):
        row_path = f"{path}.rows[{i}]"
        if not isinstance(row, list) or len(row) != 5:
            fail(row_path, 'a row [a, alpha, d, theta, "r" or "p"]', row)
        for k in range(4):
            if not _is_number(row[k]):
                fail(f"{row_path}[{k}]", "a finite number", row[k])
        letter = _DH_TYPE_LETTER[joint_types[i]]
        if row[4] != letter:
            fail(f"{row_path}[4]", f'"{letter}" (joint_types[{i}] is {joint_types[i]})', row[4])
        rows.append((float(row[0]), float(row[1]), float(row[2]), float(row[3]), letter))
    masses = _matrix(value["masses"], f"{path}.masses", (n,), fail)
    for i, mass in enumerate(masses):
        if link_inertia_problem(mass, None) is not None:
            fail(f"{path}.masses[{i}]", "a mass >= 0", float(mass))
        if abs(mass - spatial_inertias[i, 3, 3]) > _CONSISTENCY_TOLERANCE * max(1.0, mass):
            fail(
                f"{path}.masses[{i}]",
                f"the mass in spatial_inertias[{i}] ({float(spatial_inertias[i, 3, 3])!r})",
                float(mass),
            )
    cm_positions = _matrix(value["cm_positions"], f"{path}.cm_positions", (n, 3), fail)
    inertia_tensors = _matrix(value["inertia_tensors"], f"{path}.inertia_tensors", (n, 3, 3), fail)
    for i, inertia in enumerate(inertia_tensors):
        _check_inertia(inertia, f"{path}.inertia_tensors[{i}]", fail)
    tool = _transform(value["tool"], f"{path}.tool", fail) if "tool" in value else None
    return DHTable(convention, tuple(rows), masses, cm_positions, inertia_tensors, tool)


# --------------------------------------------------------------------------- writing


def _dump(value: Any, indent: int) -> str:
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{json.dumps(key)}: {_dump(item, indent + 1)}" for key, item in value.items()]
        flat = "{" + ", ".join(items) + "}"
        if all(_is_scalar(item) for item in value.values()) and len(flat) + len(pad) < 100:
            return flat
        return "{\n" + ",\n".join(inner + item for item in items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(_is_scalar(item) for item in value):
            flat = "[" + ", ".join(_dump(item, 0) for item in value) + "]"
            if len(flat) + len(pad) < 100 or all(not isinstance(i, str) for i in value):
                return flat
        return (
            "[\n" + ",\n".join(inner + _dump(item, indent + 1) for item in value) + "\n" + pad + "]"
        )
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return str(value)
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"cannot write the non-finite number {number} to a model file")
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return repr(number)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list)


# --------------------------------------------------------------------------- robots → data


def _model_from_robot(robot: Any) -> RobotModelData:
    if isinstance(robot, RobotModelData):
        return robot
    unknown_source = {
        "citation": "not recorded",
        "document": "written by robolab.save_robot without a source",
        "changes": [],
    }
    if hasattr(robot, "to_screw") and hasattr(robot, "dh_parameters"):
        dh_table = _dh_table_from_robot(robot)
        screw_model = _model_from_robot(robot.to_screw())
        return RobotModelData(**{**screw_model.__dict__, "dh": {dh_table.convention: dh_table}})
    required = ("name", "home_ee_pose", "screw_axes_space", "link_frames", "spatial_inertias")
    if not all(hasattr(robot, attribute) for attribute in required):
        raise TypeError(
            f"robot must be a RobotModelData, a ScrewRobot or a DHRobot, got {type(robot).__name__}"
        )
    n = np.asarray(robot.screw_axes_space).shape[1]
    types = tuple(robot.joint_types) if robot.joint_types is not None else ("revolute",) * n
    names = (
        tuple(robot.joint_names)
        if robot.joint_names is not None
        else tuple(f"joint{i + 1}" for i in range(n))
    )
    return RobotModelData(
        name=str(robot.name),
        description=f"{robot.name} (saved by robolab.save_robot)",
        home_ee_pose=np.array(robot.home_ee_pose, dtype=float),
        screw_axes_space=np.array(robot.screw_axes_space, dtype=float),
        link_frames=np.array(robot.link_frames, dtype=float),
        spatial_inertias=np.array(robot.spatial_inertias, dtype=float),
        gravity=np.array(robot.gravity, dtype=float),
        joint_names=names,
        joint_types=types,
        joint_limits=np.array(robot.joint_limits, dtype=float),
        source=unknown_source,
        plausibility_exceptions=tuple(getattr(robot, "plausibility_exceptions", ())),
    )


def _dh_table_from_robot(robot: Any) -> DHTable:
    """Read the numeric DH table of a DHRobot (joint variables subtracted out)."""
    import sympy as sp

    rows = []
    for i, row in enumerate(robot.dh_parameters):
        a, alpha, d, theta = (sp.sympify(x) for x in row[:4])
        q = robot.qs[i] if hasattr(robot, "qs") else None
        letter = "p" if robot.joint_type(i + 1) in ("p", "prismatic") else "r"
        if letter == "r":
            theta = theta - q
        else:
            d = d - q
        values = []
        for name, value in (("a", a), ("alpha", alpha), ("d", d), ("theta", theta)):
            value = sp.simplify(value)
            if value.free_symbols:
                raise ValueError(
                    f"row {i + 1} of the DH table has a symbolic {name} ({value}); give the "
                    "robot numeric parameters before saving it"
                )
            values.append(float(value))
        rows.append((*values, letter))
    convention = getattr(robot, "convention", "standard")
    tool = getattr(robot, "tool", None)
    if tool is not None:
        tool = np.array(tool, dtype=float)
        if np.array_equal(tool, np.eye(4)):
            tool = None
    return DHTable(
        convention=convention,
        rows=tuple(rows),
        masses=np.array([float(m) for m in robot.masses]),
        cm_positions=np.array([[float(x) for x in r] for r in robot.cm_positions]),
        inertia_tensors=np.array([np.array(t, dtype=float) for t in robot.inertia_tensors]),
        tool=tool,
    )


# --------------------------------------------------------------------------- SymPy numbers


def _sym(value: float, angle: bool = False):
    """An exact SymPy number for a parsed float (k·π/12 for angles, integers exactly)."""
    import sympy as sp

    value = float(value)
    if value.is_integer():
        return sp.Integer(int(value))
    if angle:
        k = round(value / (math.pi / 12))
        if k != 0 and float(sp.pi * k / 12) == value:
            return sp.pi * sp.Rational(k, 12)
    return sp.Float(value)


def _offset(q, value: float, angle: bool = True):
    return q + _sym(value, angle=angle) if value != 0 else q


def _sym_matrix(array: np.ndarray):
    import sympy as sp

    return sp.Matrix([[_sym(x) for x in row] for row in np.asarray(array)])


def _array(value: Any, name: str, shape: tuple[int, ...]) -> np.ndarray:

    return as_float_array(value, name, shape)
