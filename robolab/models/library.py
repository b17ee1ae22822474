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
from ..support.renames import renamed_keywords
from .file_format import (
    MAX_ROBOT_FILE_BYTES,
    SCHEMA_VERSION,
    ModelFileDHTable,
    RobotModelData,
    bundled_files,
    file_kind,
    read_source,
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


@renamed_keywords(name_or_path="path_or_name")
def load_robot(
    path_or_name: str | os.PathLike,
    *,
    base_link: str | None = None,
    ee_link: str | None = None,
    gravity: Sequence[float] | None = None,
    form: str = "screw",
    convention: str | None = None,
    plausibility_exceptions: Sequence[Any] | None = None,
):
    """Load a robot: a bundled name, a model file (JSON) or a URDF, told apart by content.

    Parameters
    ----------
    path_or_name : str or path-like
        A bundled model name (see :func:`list_robots`) or the path of a robot file: a
        model file (a JSON object) or a URDF (XML), whatever its name ends with. A
        file is read only if it is a regular UTF-8 file of at most
        :data:`MAX_ROBOT_FILE_BYTES` bytes.
    base_link, ee_link : str, optional
        For a URDF: the fixed base link (default: the root) and the end-effector link,
        which says which chain to keep (needed where the tree branches: the error then
        lists the leaves). See :func:`robolab.models.urdf.serial_chain_from_urdf`.
    gravity : array_like, shape (3,), optional
        m/s². For a model file: gravity in the base frame (default: the file's
        ``gravity``, ``(0, 0, -9.81)`` unless the file says otherwise). For a URDF:
        gravity in the URDF's world, the root link's frame (default ``(0, 0, -9.81)``),
        which the robot gets written in its base frame (a tilted base sees it tilted;
        the robot's :meth:`~robolab.ScrewRobot.summary` says which way it points).
    form : {"screw", "dh"}
        ``"screw"`` returns a numeric :class:`robolab.ScrewRobot` (Modern
        Robotics form, [ω; v]); ``"dh"`` a symbolic :class:`robolab.DHRobot`
        with the file's numbers and joint variables ``q1..qn`` (model files with a
        DH table only).
    convention : {"standard", "modified"}, optional
        For ``form="dh"``: which DH table (default standard where the file has it).
    plausibility_exceptions : sequence, optional
        For a URDF: accepted failures of the triangle inequality, by URDF link name,
        ``[(urdf_link, "inertia_triangle", reason)]``.

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

    A URDF, here written to a file whose name says nothing:

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "pendulum.txt"
    >>> _ = path.write_text('''<robot name="pendulum"><link name="base"/>
    ...   <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    ...   <inertia ixx="0.08" ixy="0" ixz="0" iyy="0.08" iyz="0" izz="0.001"/></inertial></link>
    ...   <joint name="hinge" type="revolute"><parent link="base"/><child link="rod"/>
    ...   <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    ... </robot>''')
    >>> load_robot(path, ee_link="rod").joint_names
    ('hinge',)
    """
    if form not in ("screw", "dh"):
        raise ValueError(f"form must be 'screw' or 'dh', got {form!r}")
    if form == "screw" and convention is not None:
        raise ValueError("convention applies to form='dh' only")
    text, where = read_source(path_or_name)
    if file_kind(text) == "urdf":
        # lazy: the URDF reader (and its XML parser) loads only when a URDF is read
        from .urdf import parse_urdf, serial_chain_from_urdf

        chain = serial_chain_from_urdf(
            parse_urdf(text, file_name=where),
            ee_link,
            base_link,
            gravity=gravity,
            plausibility_exceptions=plausibility_exceptions,
        )
        if form == "dh":
            raise ValueError(
                f"{where} is a URDF: it has no DH table, so it loads as a screw robot only "
                "(form='screw')"
            )
        return chain.to_screw()
    given = [
        name
        for name, value in (
            ("base_link", base_link),
            ("ee_link", ee_link),
            ("plausibility_exceptions", plausibility_exceptions),
        )
        if value is not None
    ]
    if given:
        raise ValueError(
            f"{', '.join(given)} appl{'y' if len(given) > 1 else 'ies'} to a URDF only; "
            f"{where} is a robot model file (JSON), whose chain and exceptions are in the file"
        )
    model = model_from_json(parse_json(text, where), where)
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
