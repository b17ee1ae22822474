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

This module lists, loads and saves robots; the format itself is in
:mod:`robolab.models.file_format` (constants, data classes, bounded file access),
:mod:`robolab.models.reading`, :mod:`robolab.models.writing` and
:mod:`robolab.models.plausibility`, whose public names are re-exported here.

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

import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..spatial.inertia import (
    PLAUSIBILITY_CHECKS,
    PlausibilityException,
    as_plausibility_exceptions,
)
from .file_format import (
    MAX_ROBOT_FILE_BYTES,
    SCHEMA_VERSION,
    ModelFileDHTable,
    RobotModelData,
    bundled_files,
    write_text,
)
from .plausibility import PlausibilityFinding, check_plausibility
from .reading import check_source, model_from_json, parse_json, read_robot_model
from .writing import TIDY_DIGITS, format_robot_json, model_from_robot, tidy_number

# The format, reading, writing and plausibility live in their own modules; their public
# names are re-exported here, where they have always been.
__all__ = [
    "MAX_ROBOT_FILE_BYTES",
    "PLAUSIBILITY_CHECKS",
    "SCHEMA_VERSION",
    "TIDY_DIGITS",
    "ModelFileDHTable",
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


def list_robots() -> dict[str, str]:
    """Return the bundled robot models: ``{name: one-line description}``, sorted by name.

    Examples
    --------
    >>> print(list_robots()["planar2r"])
    Planar 2R arm in a vertical plane: two uniform 1 m, 1 kg links (Spong's planar elbow)
    """
    robots = {}
    for path in bundled_files():
        data = parse_json(path.read_text(encoding="utf-8"), path.name)
        robots[path.name.removesuffix(".json")] = str(data.get("description", ""))
    return dict(sorted(robots.items()))


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
    >>> import numpy as np
    >>> model = read_robot_model("planar2r")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_robot(model, Path(folder) / "copy.json")
    ...     again = read_robot_model(path)
    >>> bool(np.array_equal(again.spatial_inertias, model.spatial_inertias))
    True
    """
    model = model_from_robot(robot)
    changes: dict[str, Any] = {}
    if description is not None:
        changes["description"] = description
    if source is not None:
        changes["source"] = check_source(dict(source), "source")
    if plausibility_exceptions is not None:
        changes["plausibility_exceptions"] = tuple(
            item if isinstance(item, PlausibilityException) else PlausibilityException(**dict(item))
            for item in plausibility_exceptions
        )
    if changes:
        model = dataclasses.replace(model, **changes)
    text = format_robot_json(model, tidy=tidy)
    # Validate what is written exactly as a reader would.
    model_from_json(parse_json(text, str(path)), str(path))
    path = Path(path)
    write_text(path, text)
    return path
