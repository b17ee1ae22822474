"""Reading a robot file: JSON (never evaluated) → a checked :class:`RobotModelData`.

Every error names the file, the JSON path of the bad field and what was expected, e.g.
``ur5.json: $.link_frames[2][1]: expected a row of 4 numbers, got a list of 3 items``.

A file describes at most :data:`robolab.screw.robot.MAX_ROBOT_JOINTS` joints, and is read
in time linear in them. The robot's and the joints' names are read in Unicode normal form
NFC, distinct in that form, and refused with a control or invisible character, as
:func:`robolab.support.arguments.as_name` says; the description and the source's texts
are refused with such a character too. A number is JSON's (ASCII digits), and one no
double holds is refused at its JSON path.

Examples
--------
>>> model = read_robot_model("ur5")
>>> model.n_joints, model.joint_types[0]
(6, 'revolute')
"""

from __future__ import annotations

import json
import math
import os
import sys
import unicodedata
from itertools import islice
from typing import Any

import numpy as np

from ..conventions import (
    DEFAULT_GRAVITY,
    DH_CONVENTIONS,
    DH_JOINT_LETTERS,
    FILE_CONSISTENCY_TOLERANCE,
    JOINT_TYPES,
)
from ..screw.friction import MAX_FRICTION_COEFFICIENT, SMOOTHING_RANGE, JointFriction
from ..screw.robot import MAX_ROBOT_JOINTS
from ..screw.validation import (
    ScrewDataProblem,
    screw_axis_problem,
    spatial_inertia_problem,
    transform_problem,
)
from ..spatial.inertia import (
    PLAUSIBILITY_CHECKS,
    PlausibilityException,
    link_inertia_problem,
)
from ..spatial.rigid_body_motions import adjoint_representation_unchecked, transform_inv_unchecked
from ..support.arguments import (
    NAME_EXPECTED,
    hidden_character_problem,
    name_problem,
    repeated_name,
)
from .file_format import (
    DH_KEYS,
    EXCHANGE_KEYS,
    FRICTION_KEYS,
    OPTIONAL_KEYS,
    SCHEMA_VERSION,
    SOURCE_KEYS,
    TOP_KEYS,
    UNITS,
    ModelFileDHTable,
    RobotModelData,
    file_kind,
    read_source,
    shorten,
)

__all__ = ["read_robot_model"]

_JOINT_LIMIT = "robolab.screw.robot.MAX_ROBOT_JOINTS, the most a robot may have"


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
puma560, scara, stanford, ur5 (or pass the path of a .json model file or a .urdf file)
    """
    text, where = read_source(name_or_path)
    if file_kind(text) == "urdf":
        raise ValueError(
            f"{where} is a URDF, not a robot model file; load it with "
            "robolab.load_robot(path, ee_link=...) or read its chain with "
            "robolab.models.urdf.serial_chain_from_urdf"
        )
    return model_from_json(parse_json(text, where), where)


class _OutOfRange:
    """A number in a file that no double holds (``1e999``, an integer of 400 digits).

    The JSON reader keeps it in place of the number, so that the validator
    refuses it with the JSON path of the field like any other wrong value.
    """

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"_OutOfRange({shorten(self.text)!r})"

    def describe(self) -> str:
        return (
            f"the number {shorten(self.text)}, which is out of the range of a "
            "double-precision float (|x| < 1.8e308)"
        )


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
    if not isinstance(key, str):  # a key of a dict handed to save_robot (source=...)
        return f"{path}[{shorten(repr(key))}]"
    if key.isidentifier() and key.isascii():
        return f"{path}.{key}"
    # escaped: a key is shown, never obeyed (no control, bidi or invisible character)
    return f"{path}[{json.dumps(shorten(key))}]"


def _first_duplicate(data: Any) -> tuple[str, str, int] | None:
    """(JSON path of the object, key, count) of the first repeated key, in file order."""
    stack: list[tuple[str, Any]] = [("$", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _DuplicateKeys):
            key, count = next(iter(value.duplicates.items()))
            return path, key, count
        if isinstance(value, dict):
            pairs: Any = value.items()
        elif isinstance(value, list):
            pairs = enumerate(value)
        else:
            continue
        # only the objects and lists inside: a list of a million numbers is one step
        items = [
            (_json_path(path, key), item) for key, item in pairs if isinstance(item, dict | list)
        ]
        stack.extend(reversed(items))
    return None


def parse_json(text: str, where: str) -> dict[str, Any]:
    def no_constants(name: str) -> float:
        raise ValueError(f"{where}: {name} is not valid JSON; write finite numbers only")

    if text.startswith("\ufeff"):
        raise ValueError(
            f"{where}: not valid JSON: it starts with a byte-order mark (U+FEFF); expected "
            "JSON text without one (save the file as UTF-8 without BOM)"
        )
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


def model_from_json(data: dict[str, Any], where: str) -> RobotModelData:
    fail = _Failer(where)
    exchange = "schema_version" not in data
    allowed = EXCHANGE_KEYS if exchange else TOP_KEYS
    unknown = [key for key in data if key not in allowed]
    if unknown:
        hint = (
            " (a file without schema_version is read as a ModernRoboticsBook.jl model)"
            if exchange
            else ""
        )
        fail(
            _json_path("$", unknown[0]),
            f"one of the keys {list(allowed)}{hint}",
            _Said("an unknown key"),
        )
    required = [key for key in allowed if key not in OPTIONAL_KEYS]
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

    name = _name(data["name"], "$.name", fail)
    n = data["n_joints"]
    if not _is_int(n) or n < 1:
        fail("$.n_joints", "a positive integer", n)
    if n > MAX_ROBOT_JOINTS:
        fail("$.n_joints", f"at most {MAX_ROBOT_JOINTS} joints ({_JOINT_LIMIT})", n)

    written = _list(data["joint_names"], "$.joint_names", n, fail)
    joint_names = tuple(_name(v, f"$.joint_names[{i}]", fail) for i, v in enumerate(written))
    repeat = repeated_name(joint_names)
    if repeat is not None:
        first, i = repeat
        spelling = (
            f" (written {written[first]!r} and {written[i]!r}: the same in normal form NFC)"
            if written[i] != written[first]
            else ""
        )
        fail(
            "$.joint_names",
            "distinct names",
            _Said(f"{joint_names[i]!r} twice, at [{first}] and [{i}]{spelling}"),
        )
    joint_types = tuple(_list(data["joint_types"], "$.joint_types", n, fail))
    for i, joint_type in enumerate(joint_types):
        if joint_type not in JOINT_TYPES:
            fail(f"$.joint_types[{i}]", '"revolute" or "prismatic"', joint_type)
    # null: unbounded on that side (a continuous joint), -inf or +inf
    raw_limits, unbounded = data["joint_limits"], []
    if isinstance(raw_limits, list):
        rows = []
        for i, row in enumerate(raw_limits):
            if isinstance(row, list) and len(row) == 2 and None in row:
                unbounded += [(i, k) for k in (0, 1) if row[k] is None]
                row = [0.0 if value is None else value for value in row]
            rows.append(row)
        raw_limits = rows
    joint_limits = _matrix(raw_limits, "$.joint_limits", (n, 2), fail)
    for i, k in unbounded:
        joint_limits[i, k] = -math.inf if k == 0 else math.inf
    for i, (lower, upper) in enumerate(joint_limits):
        if lower > upper:
            fail(f"$.joint_limits[{i}]", "[lower, upper] with lower <= upper", [lower, upper])

    home_ee_pose = _transform(data["home_ee_pose"], "$.home_ee_pose", fail)
    screw_rows = _matrix(data["screw_axes_space"], "$.screw_axes_space", (n, 6), fail)
    for i, (screw, joint_type) in enumerate(zip(screw_rows, joint_types, strict=True)):
        problem = screw_axis_problem(screw, i, joint_names[i], joint_type)
        _refuse(problem, f"$.screw_axes_space[{i}]", fail)
    screw_axes_space = screw_rows.T.copy()
    link_frames = np.array(
        [
            _transform(frame, f"$.link_frames[{k}]", fail)
            for k, frame in enumerate(_list(data["link_frames"], "$.link_frames", n + 1, fail))
        ]
    )
    spatial_inertias = np.array(
        [
            _spatial_inertia(G, f"$.spatial_inertias[{i}]", i, fail)
            for i, G in enumerate(_list(data["spatial_inertias"], "$.spatial_inertias", n, fail))
        ]
    )
    product = np.eye(4)
    for frame in link_frames:  # in order: multi_dot would search an order in O(n³) steps
        product = product @ frame
    scale = max(1.0, float(np.abs(home_ee_pose).max()))
    if np.abs(product - home_ee_pose).max() > FILE_CONSISTENCY_TOLERANCE * scale:
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
        "checked": True,
    }
    if exchange:
        return RobotModelData(
            **screw_form,
            description=f"{name} (ModernRoboticsBook.jl model file; no provenance recorded)",
            gravity=np.array(DEFAULT_GRAVITY),
            source={
                "citation": "not recorded",
                "document": f"{where} (ModernRoboticsBook.jl format, without schema_version)",
                "changes": [],
            },
        )

    description = _string(data["description"], "$.description", fail)
    if "\n" in description:
        fail("$.description", "a one-line description", _Said("text with a line break"))
    _refuse_hidden(description, "$.description", fail)
    source = check_source(data["source"], "$.source", fail)
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
    friction = _friction(data["friction"], n, fail) if "friction" in data else None
    return RobotModelData(
        **screw_form,
        description=description,
        gravity=gravity,
        source=source,
        plausibility_exceptions=exceptions,
        dh=dh,
        friction=friction,
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
        return f"the text {shorten(value)!r}"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        keys = [shorten(key) if isinstance(key, str) else key for key in islice(value, 10)]
        more = f" and {len(value) - 10} more" if len(value) > 10 else ""
        return f"an object with keys {keys}{more}"
    return f"a {type(value).__name__}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _string(value: Any, path: str, fail: _Failer) -> str:
    if not isinstance(value, str) or not value.strip():
        fail(path, "a non-empty string", value)
    return value


def _refuse_hidden(text: str, path: str, fail: _Failer) -> None:
    """Refuse text holding a control or invisible character (robolab.support.arguments)."""
    problem = hidden_character_problem(text)
    if problem is not None:
        fail(path, "text without control or invisible characters", _Said(problem))


def _name(value: Any, path: str, fail: _Failer) -> str:
    """A robot's or a joint's name: non-empty text as :func:`robolab.support.arguments.as_name`
    takes it, in normal form NFC."""
    text = _string(value, path, fail)
    problem = name_problem(text)
    if problem is not None:
        fail(path, NAME_EXPECTED, _Said(problem))
    return unicodedata.normalize("NFC", text)


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


def _refuse(problem: ScrewDataProblem | None, path: str, fail: _Failer) -> None:
    """Refuse screw data as robolab.screw.validation judged it, at its JSON path."""
    if problem is not None:
        fail(path + problem.part, problem.expected, _Said(problem.found))


def _transform(value: Any, path: str, fail: _Failer) -> np.ndarray:
    T = _matrix(value, path, (4, 4), fail)
    _refuse(transform_problem(T, "transform"), path, fail)
    return T


def _check_inertia(inertia: np.ndarray, path: str, fail: _Failer) -> None:
    # The physical rules of every door (robolab.spatial.inertia.link_inertia_problem). The triangle
    # inequality is not enforced here: check_plausibility reports it, and the robots made
    # from the file (to_screw, to_dh) refuse it unless plausibility_exceptions accepts it.
    problem = link_inertia_problem(None, inertia, triangle=False)
    if problem is not None:
        fail(path, f"a {problem.expected} inertia tensor", _Said(problem.found))


def _spatial_inertia(value: Any, path: str, index: int, fail: _Failer) -> np.ndarray:
    G = _matrix(value, path, (6, 6), fail)
    # The triangle inequality is reported by check_plausibility, refused by the robots.
    _refuse(spatial_inertia_problem(G, index, triangle=False), path, fail)
    return G


def check_source(value: Any, path: str, fail: _Failer | None = None) -> dict[str, Any]:
    fail = fail or _Failer("source")
    if not isinstance(value, dict):
        fail(path, f"an object with keys {list(SOURCE_KEYS)}", value)
    for key in value:
        if key not in SOURCE_KEYS:
            fail(
                _json_path(path, key),
                f"one of the keys {list(SOURCE_KEYS)}",
                _Said("an unknown key"),
            )
    for key in ("citation", "document"):
        if key not in value:
            fail(f"{path}.{key}", "this required key", _Said("nothing (the key is missing)"))
        _refuse_hidden(_string(value[key], f"{path}.{key}", fail), f"{path}.{key}", fail)
    changes = value.get("changes", [])
    for k, change in enumerate(_list(changes, f"{path}.changes", None, fail)):
        _refuse_hidden(_string(change, f"{path}.changes[{k}]", fail), f"{path}.changes[{k}]", fail)
    return {"citation": value["citation"], "document": value["document"], "changes": list(changes)}


def _plausibility_exception(value: Any, path: str, n: int, fail: _Failer) -> PlausibilityException:
    if not isinstance(value, dict) or set(value) != {"link", "check", "reason"}:
        fail(path, 'an object with exactly the keys "link", "check", "reason"', value)
    if not _is_int(value["link"]) or not 1 <= value["link"] <= n:
        fail(f"{path}.link", f"a link number 1..{n}", value["link"])
    if value["check"] not in PLAUSIBILITY_CHECKS:
        fail(f"{path}.check", f"one of {list(PLAUSIBILITY_CHECKS)}", value["check"])
    reason = _string(value["reason"], f"{path}.reason", fail)
    _refuse_hidden(reason, f"{path}.reason", fail)
    return PlausibilityException(value["link"], value["check"], reason)


def _friction(value: Any, n: int, fail: _Failer) -> JointFriction:
    """The optional ``friction`` object: viscous and Coulomb (a number or n), smoothing."""
    if not isinstance(value, dict) or not value or set(value) - set(FRICTION_KEYS):
        fail("$.friction", f"an object with some of the keys {list(FRICTION_KEYS)}", value)
    parameters: dict[str, Any] = {}
    for key in ("viscous", "coulomb"):
        if key not in value:
            continue
        item = value[key]
        if _is_number(item):
            parameters[key] = float(item)
        else:
            parameters[key] = _matrix(item, f"$.friction.{key}", (n,), fail)
        coefficients = np.asarray(parameters[key])
        if (coefficients < 0).any() or (coefficients > MAX_FRICTION_COEFFICIENT).any():
            fail(
                f"$.friction.{key}",
                f"coefficients from 0 (friction takes energy) to {MAX_FRICTION_COEFFICIENT:g}",
                item,
            )
    if "smoothing" in value:
        low, high = SMOOTHING_RANGE
        smoothing = value["smoothing"]
        if not _is_number(smoothing) or not low <= smoothing <= high:
            fail(
                "$.friction.smoothing",
                f"a number from {low:g} to {high:g} (rad/s or m/s)",
                smoothing,
            )
        parameters["smoothing"] = float(smoothing)
    return JointFriction(**parameters)


def _dh_section(
    section: Any, joint_types: tuple[str, ...], spatial_inertias: np.ndarray, fail: _Failer
) -> dict[str, ModelFileDHTable]:
    """The ``dh`` object of a file: its tables by convention."""
    if not isinstance(section, dict) or not section:
        fail("$.dh", 'an object with "standard" and/or "modified" tables', section)
    tables = {}
    for convention, table in section.items():
        if convention not in DH_CONVENTIONS:
            fail(
                _json_path("$.dh", convention),
                'the key "standard" or "modified"',
                _Said("an unknown key"),
            )
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
) -> ModelFileDHTable:
    n = len(joint_types)
    if not isinstance(value, dict):
        fail(path, f"an object with keys {list(DH_KEYS)}", value)
    for key in value:
        if key not in DH_KEYS:
            fail(_json_path(path, key), f"one of the keys {list(DH_KEYS)}", _Said("an unknown key"))
    for key in DH_KEYS[:4]:
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
        letter = DH_JOINT_LETTERS[joint_types[i]]
        if row[4] != letter:
            fail(f"{row_path}[4]", f'"{letter}" (joint_types[{i}] is {joint_types[i]})', row[4])
        rows.append((float(row[0]), float(row[1]), float(row[2]), float(row[3]), letter))
    masses = _matrix(value["masses"], f"{path}.masses", (n,), fail)
    for i, mass in enumerate(masses):
        if link_inertia_problem(mass, None) is not None:
            fail(f"{path}.masses[{i}]", "a mass >= 0", float(mass))
        if abs(mass - spatial_inertias[i, 3, 3]) > FILE_CONSISTENCY_TOLERANCE * max(1.0, mass):
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
    return ModelFileDHTable(convention, tuple(rows), masses, cm_positions, inertia_tensors, tool)
