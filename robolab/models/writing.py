"""Writing a robot file: tidy numbers and the format's JSON layout.

:func:`format_robot_json` writes what :func:`robolab.models.reading.read_robot_model` reads
back unchanged; :func:`tidy_number` rounds away float noise (``0.30000000000000004``) so
that files stay readable and diffs small.
"""

from __future__ import annotations

import json
import math
from decimal import Context, Decimal
from typing import Any

import numpy as np

from ..conventions import DH_CONVENTIONS
from .file_format import SCHEMA_VERSION, UNITS, ModelFileDHTable, RobotModelData

__all__ = ["TIDY_DIGITS", "format_robot_json", "tidy_number"]


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
        "joint_limits": [  # null: unbounded on that side (a continuous joint)
            [clean(x) if math.isfinite(x) else None for x in row]
            for row in np.asarray(model.joint_limits, dtype=float).tolist()
        ],
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
    if model.friction is not None:
        content["friction"] = {
            "viscous": numbers(model.friction.viscous),
            "coulomb": numbers(model.friction.coulomb),
            "smoothing": clean(model.friction.smoothing),
        }
    if model.dh:
        content["dh"] = {}
        for convention in DH_CONVENTIONS:
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


def model_from_robot(robot: Any) -> RobotModelData:
    if isinstance(robot, RobotModelData):
        return robot
    unknown_source = {
        "citation": "not recorded",
        "document": "written by robolab.save_robot without a source",
        "changes": [],
    }
    if hasattr(robot, "to_screw") and hasattr(robot, "dh_parameters"):
        dh_table = _dh_table_from_robot(robot)
        screw_model = model_from_robot(robot.to_screw())
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
        friction=getattr(robot, "friction", None),
    )


def _dh_table_from_robot(robot: Any) -> ModelFileDHTable:
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
    return ModelFileDHTable(
        convention=convention,
        rows=tuple(rows),
        masses=np.array([float(m) for m in robot.masses]),
        cm_positions=np.array([[float(x) for x in r] for r in robot.cm_positions]),
        inertia_tensors=np.array([np.array(t, dtype=float) for t in robot.inertia_tensors]),
        tool=tool,
    )
