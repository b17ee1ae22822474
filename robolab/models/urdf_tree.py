"""Parse a URDF file into its tree of links and joints (plain data, nothing fetched).

:func:`parse_urdf` reads the kinematic tree and the inertial data of a URDF with the
standard library's XML parser (:mod:`xml.parsers.expat`, into :mod:`xml.etree.ElementTree`
elements), on the file's text only: meshes, ``package://`` URIs and ``<!ENTITY>``
declarations are never resolved, a document with a DOCTYPE is refused, and every error
names the element that is wrong. The parse is bounded: text as long as the largest file
(:data:`robolab.models.file_format.MAX_ROBOT_FILE_BYTES`), at most
:data:`MAX_URDF_ELEMENTS` elements nested at most :data:`MAX_URDF_DEPTH` deep, at most
:data:`MAX_URDF_LINKS` links and as many joints. Names are read in Unicode normal form
NFC and refused with a control or invisible character
(:func:`robolab.support.arguments.as_name`); numbers are decimal numbers in ASCII digits,
as XML writes a double (not ``1_000`` nor ``١``, which Python's ``float`` would take).
:func:`robolab.models.urdf.serial_chain_from_urdf` turns the tree into the one record
between a file and a robot; :mod:`robolab.models.urdf` re-exports the names here.

Examples
--------
>>> robot = parse_urdf('<robot name="r"><link name="a"/><link name="b"/>'
...     '<joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint></robot>')
>>> robot.root, robot.joints["j"].axis
('a', array([1., 0., 0.]))
"""

from __future__ import annotations

import math
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn
from xml.parsers import expat

import numpy as np

from ..spatial.inertia import link_inertia_problem
from ..spatial.transforms import rpy_to_rotation
from ..support.arguments import as_name
from .file_format import check_text_size, read_bounded_text, shorten

__all__ = [
    "MAX_URDF_DEPTH",
    "MAX_URDF_ELEMENTS",
    "MAX_URDF_LINKS",
    "UrdfInertial",
    "UrdfJoint",
    "UrdfLink",
    "UrdfRobot",
    "parse_urdf",
]

MOVABLE = ("revolute", "continuous", "prismatic")
_KNOWN_TYPES = (*MOVABLE, "fixed", "floating", "planar")

#: Deepest nesting of elements :func:`parse_urdf` reads. A URDF nests a few levels
#: (``<robot><link><visual><geometry><mesh>``, a ``<gazebo>`` plugin a few more).
MAX_URDF_DEPTH = 64

#: Most elements :func:`parse_urdf` reads; the bundled Panda URDF has 250.
MAX_URDF_ELEMENTS = 100_000

#: Most ``<link>`` elements (and most ``<joint>`` elements) :func:`parse_urdf` reads: a
#: tree of links many times the joints of a robot (fixed frames, sensors, other branches),
#: of which a chain keeps at most :data:`robolab.screw.robot.MAX_ROBOT_JOINTS` joints.
MAX_URDF_LINKS = 10_000

#: A decimal number as XML writes a double, in ASCII digits (xsd:double without INF, NaN).
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")

#: XML's white space (Python's ``str.split()`` and ``float()`` also take other spaces).
_XML_SPACE = " \t\r\n"

_NUMBER_EXPECTED = "a decimal number in ASCII digits such as 0.25 or -1.5e-3"

#: What XML (INF, NaN) and Python (inf, infinity, nan) write for numbers that are not finite.
_NON_FINITE = ("inf", "infinity", "nan")


@dataclass(frozen=True)
class UrdfInertial:
    """A link's ``<inertial>``: mass, the pose of the inertial frame in the link
    frame (4×4), and the inertia tensor about the centre of mass in that frame's axes."""

    mass: float
    origin: np.ndarray
    inertia: np.ndarray


@dataclass(frozen=True)
class UrdfLink:
    """A ``<link>``; ``inertial`` is None when the link has no ``<inertial>`` (massless).

    ``problem`` says what is physically impossible in its ``<inertial>`` (a negative mass,
    an inertia that is not positive semi-definite), or is None. Such a link is refused
    only where it is used: on the chain, or lumped into a chain body
    (:func:`robolab.models.urdf.serial_chain_from_urdf`); elsewhere it is noted. Its
    ``inertial`` is then None.
    """

    name: str
    inertial: UrdfInertial | None
    problem: str | None = None


@dataclass(frozen=True)
class UrdfJoint:
    """A ``<joint>``: the child link frame is ``origin @ motion(q)`` in the parent link frame.

    ``axis`` is the unit joint axis in the joint frame (URDF default (1, 0, 0));
    ``lower``/``upper`` are None where the file gives no limit. ``mimic`` names the leader
    of a follower joint, whose position is ``mimic_multiplier · q_leader + mimic_offset``.
    ``damping`` and ``friction`` are ``<dynamics>``'s (0 when absent), ``effort`` and
    ``velocity`` the ``<limit>``'s (None when absent); they are checked where they are
    used (on the chain).
    """

    name: str
    type: str
    parent: str
    child: str
    origin: np.ndarray
    axis: np.ndarray
    lower: float | None
    upper: float | None
    mimic: str | None
    mimic_multiplier: float = 1.0
    mimic_offset: float = 0.0
    damping: float = 0.0
    friction: float = 0.0
    effort: float | None = None
    velocity: float | None = None


@dataclass(frozen=True)
class UrdfRobot:
    """The parsed tree: links and joints by name (in file order) and the root link."""

    name: str
    links: dict[str, UrdfLink]
    joints: dict[str, UrdfJoint]
    root: str

    def child_joints(self, link: str) -> list[UrdfJoint]:
        """Joints whose parent is ``link``, in file order."""
        return list(self._child_joints.get(link, ()))

    def parent_joint(self, link: str) -> UrdfJoint | None:
        """The joint whose child is ``link`` (None for the root)."""
        return self._parent_joints.get(link)

    # Indexes built once, so that walking a tree of n joints takes O(n), not O(n²), steps
    # (a 4 MB URDF holds some 40 000 joints).
    @cached_property
    def _child_joints(self) -> dict[str, list[UrdfJoint]]:
        children: dict[str, list[UrdfJoint]] = {}
        for joint in self.joints.values():
            children.setdefault(joint.parent, []).append(joint)
        return children

    @cached_property
    def _parent_joints(self) -> dict[str, UrdfJoint]:
        parents: dict[str, UrdfJoint] = {}
        for joint in self.joints.values():
            parents.setdefault(joint.child, joint)  # the first, as the linear search found
        return parents

    def path_to(self, link: str) -> list[UrdfJoint]:
        """Joints from the root down to ``link``, root side first."""
        path = []
        joint = self.parent_joint(link)
        while joint is not None:
            path.append(joint)
            joint = self.parent_joint(joint.parent)
        return path[::-1]


# --------------------------------------------------------------------------- parsing


def parse_urdf(source: str | os.PathLike, *, file_name: str | None = None) -> UrdfRobot:
    """Parse a URDF from a file path or from its XML text.

    Only the kinematic tree and the inertial data are read (``<visual>`` and
    ``<collision>`` are ignored). Nothing is fetched and no entity is expanded:
    a document with a ``<!DOCTYPE`` is refused, as is a xacro file that has not
    been expanded.

    Parameters
    ----------
    source : str or path-like
        A path to a ``.urdf`` file, or the XML text itself (a string starting
        with ``<``). The file must be a regular UTF-8 file of at most
        :data:`robolab.models.file_format.MAX_ROBOT_FILE_BYTES` bytes; a directory,
        a device, a FIFO or a larger file is refused before it is read. Text is
        held to the same limit (its UTF-8 bytes). Either is parsed to at most
        :data:`MAX_URDF_ELEMENTS` elements, :data:`MAX_URDF_DEPTH` deep, and
        :data:`MAX_URDF_LINKS` links and joints.
    file_name : str, optional
        For text read from a file already (:func:`robolab.load_robot`): the file's name,
        which the messages then give as for a path.

    Returns
    -------
    UrdfRobot

    Raises
    ------
    TypeError
        For a ``source`` that is neither text nor a path.
    ValueError
        For a file that cannot be read as above, malformed XML or a malformed
        URDF; the message names the file (or the robot) and the element
        (``<joint name="elbow">``, ``<origin>`` ...) and what was expected.
        Names with a control or invisible character (``U+XXXX`` in the
        message), two names equal in Unicode normal form NFC, and numbers that
        are not decimal numbers in ASCII digits are refused too.

    Examples
    --------
    >>> parse_urdf('<robot name="r"><link name="a"/></robot>').root
    'a'
    >>> parse_urdf('<robot name="r"><link/></robot>')
    Traceback (most recent call last):
    ...
    ValueError: URDF <robot name="r">: <link> #1 has no name attribute
    """
    text, where = _read_text(source)
    if file_name is not None and where == "URDF text":
        where = f"URDF file {shorten(file_name, keep=100)}"
    root = _parse_xml(text, where)
    if root.tag != "robot":
        raise ValueError(f"{where}: the root element must be <robot>, got <{shorten(root.tag)}>")
    robot_name = _name(root.get("name") or "", "<robot> name", where)
    if robot_name:
        named = f'<robot name="{shorten(robot_name, keep=30)}">'
        where = f"{where}, {named}" if where.startswith("URDF file") else f"URDF {named}"

    link_elements = _named_elements(root, "link", where)
    if len(link_elements) > MAX_URDF_LINKS:
        raise ValueError(
            f"{where}: {len(link_elements)} <link> elements, more than the {MAX_URDF_LINKS} "
            "robolab reads (robolab.models.urdf_tree.MAX_URDF_LINKS)"
        )
    try:  # the element parsers name the element; the prefix names the file or robot
        links = {name: _parse_link(element, name, where) for name, element in link_elements.items()}
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    if not links:
        raise ValueError(f"{where}: no <link> elements")
    joint_elements = _named_elements(root, "joint", where)
    if len(joint_elements) > MAX_URDF_LINKS:
        raise ValueError(
            f"{where}: {len(joint_elements)} <joint> elements, more than the {MAX_URDF_LINKS} "
            "robolab reads (robolab.models.urdf_tree.MAX_URDF_LINKS)"
        )
    try:
        joints = {
            name: _parse_joint(element, name, links) for name, element in joint_elements.items()
        }
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None

    children: dict[str, str] = {}
    for joint in joints.values():
        if joint.child in children:
            raise ValueError(
                f"{where}: link {_shown(joint.child)} is the child of two joints "
                f"({_shown(children[joint.child])} and {_shown(joint.name)}); a URDF must be "
                "a tree"
            )
        children[joint.child] = joint.name
    roots = [name for name in links if name not in children]
    if len(roots) != 1:
        raise ValueError(
            f"{where}: expected exactly one root link (a link that is no joint's child), "
            f"found {len(roots)}: {some_names(roots)}"
        )
    robot = UrdfRobot(robot_name, links, joints, roots[0])
    _require_acyclic(robot, where)
    return robot


def some_names(names: list[str], count: int = 10) -> str:
    """The first ``count`` of ``names`` as a list, and how many more (for an error message).

    Examples
    --------
    >>> some_names([f"link{i}" for i in range(12)], count=2)
    "['link0', 'link1'] and 10 more"
    """
    more = f" and {len(names) - count} more" if len(names) > count else ""
    return f"{[shorten(name) for name in names[:count]]}{more}"


def _shown(name: str) -> str:
    """A name from the file for a message: quoted, its middle left out when long."""
    return repr(shorten(name, keep=30))


def _name(text: str, what: str, where: str) -> str:
    """A name read from the file, in normal form NFC (refused with a hidden character)."""
    try:
        return as_name(text, what)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _named_elements(root: ET.Element, tag: str, where: str) -> dict[str, ET.Element]:
    """The ``<tag>`` children of ``root`` by their (required, distinct) name attribute."""
    elements: dict[str, ET.Element] = {}
    for index, element in enumerate(root.findall(tag), start=1):
        text = element.get("name")
        if not text:
            raise ValueError(f"{where}: <{tag}> #{index} has no name attribute")
        name = _name(text, f"<{tag}> #{index} name", where)
        if name in elements:
            first = elements[name].get("name")
            spelling = "" if first == text else f" ({first!r} and {text!r} in normal form NFC)"
            raise ValueError(f"{where}: two {tag}s are named {_shown(name)}{spelling}")
        elements[name] = element
    return elements


def _read_text(source: str | os.PathLike) -> tuple[str, str]:
    if not isinstance(source, str | os.PathLike):
        raise TypeError(f"source must be a path or URDF text (a str), got {type(source).__name__}")
    if isinstance(source, str) and not source.strip():
        raise ValueError("source must be a path or URDF text, got an empty str")
    if not isinstance(source, str) or not source.lstrip(_XML_SPACE + "\ufeff").startswith("<"):
        # A regular UTF-8 file of at most MAX_ROBOT_FILE_BYTES, or a ValueError naming it.
        path = Path(source)
        shown = shorten(str(path), keep=100)
        return read_bounded_text(path, "URDF file", "a .urdf file"), f"URDF file {shown}"
    # The same limit as a file's, in the same words.
    check_text_size(source, "URDF text", "URDF text")
    return source, "URDF text"


class _Refused(Exception):
    """Raised inside the XML parser's handlers: what is wrong, without the file's name."""


def _parse_xml(text: str, where: str) -> ET.Element:
    """The root element of ``text``: no DOCTYPE, no entity, no xacro, bounded in size.

    Parsed with expat directly (as :mod:`xml.etree.ElementTree` does), so that a DOCTYPE
    is refused where it starts, before any entity is declared, and the depth and number
    of elements are counted as they are read: parsing stops at the first element past
    :data:`MAX_URDF_DEPTH` or :data:`MAX_URDF_ELEMENTS`.
    """
    parser = expat.ParserCreate()
    builder = ET.TreeBuilder()
    depth = count = 0

    def start(tag: str, attributes: dict[str, str]) -> None:
        nonlocal depth, count
        depth += 1
        count += 1
        line = parser.CurrentLineNumber
        if depth > MAX_URDF_DEPTH:
            raise _Refused(
                f"elements nested more than {MAX_URDF_DEPTH} deep (line {line}), more than "
                "robolab reads (robolab.models.urdf_tree.MAX_URDF_DEPTH); expected a URDF, "
                "whose elements nest a few levels deep"
            )
        if count > MAX_URDF_ELEMENTS:
            raise _Refused(
                f"more than {MAX_URDF_ELEMENTS} elements (line {line}), more than robolab "
                "reads (robolab.models.urdf_tree.MAX_URDF_ELEMENTS)"
            )
        if "xacro" in tag:
            raise _Refused(
                f"found a xacro element <{shorten(tag)}>; expand the file with xacro first"
            )
        builder.start(tag, attributes)

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1
        builder.end(tag)

    def refuse_declarations(*_: Any) -> NoReturn:
        raise _Refused(
            "a DOCTYPE or ENTITY declaration was found; robolab reads plain URDF only and "
            "never expands entities"
        )

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = refuse_declarations
    parser.EntityDeclHandler = refuse_declarations
    parser.ExternalEntityRefHandler = refuse_declarations
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(text, True)
    except _Refused as error:
        raise ValueError(f"{where}: {error}") from None
    except expat.ExpatError as error:
        raise ValueError(f"{where}: not well-formed XML ({error})") from None
    except UnicodeEncodeError as error:  # a lone surrogate in a str: not text
        character = error.object[error.start]
        raise ValueError(
            f"{where}: not text: U+{ord(character):04X} at index {error.start} is half of a "
            "character (a lone surrogate); expected URDF text"
        ) from None
    return builder.close()


def _require_acyclic(robot: UrdfRobot, where: str) -> None:
    reached = {robot.root}
    frontier = [robot.root]
    while frontier:
        link = frontier.pop()
        for joint in robot.child_joints(link):
            reached.add(joint.child)
            frontier.append(joint.child)
    unreached = [name for name in robot.links if name not in reached]
    if unreached:
        raise ValueError(
            f"{where}: links {some_names(unreached)} are not connected to the root link"
        )


def decimal_number(text: str) -> float | None:
    """``text`` as a float if it is a decimal number as XML writes a double, else None.

    ASCII digits with an optional sign, point and exponent, and XML's white space around
    it; Python's ``float`` also takes ``1_000``, digits of other scripts (``١``), other
    spaces and ``inf``/``nan``, none of which is a number in a URDF. A number too large
    for a double comes back as ±inf, for the caller to refuse.

    Examples
    --------
    >>> decimal_number(" -1.5e-3 "), decimal_number("1_000"), decimal_number("\u0661")
    (-0.0015, None, None)
    """
    stripped = text.strip(_XML_SPACE)
    return float(stripped) if _DECIMAL.fullmatch(stripped) else None


def _floats(text: str | None, count: int, what: str, default: tuple[float, ...]) -> np.ndarray:
    if text is None:
        return np.array(default, dtype=float)
    parts = re.split(f"[{_XML_SPACE}]+", text.strip(_XML_SPACE))
    values = [decimal_number(part) for part in parts]
    if len(values) != count or any(value is None for value in values):
        raise ValueError(
            f"{what} must hold {count} numbers, each {_NUMBER_EXPECTED}, got {shorten(text)!r}"
        )
    if not all(math.isfinite(value) for value in values if value is not None):
        raise ValueError(f"{what} must hold {count} finite numbers, got {shorten(text)!r}")
    return np.array(values, dtype=float)


def _number(element: ET.Element, attribute: str, what: str, default: float | None = None) -> float:
    text = element.get(attribute)
    if text is None:
        if default is None:
            raise ValueError(f"{what} has no {attribute} attribute")
        return default
    value = decimal_number(text)
    if value is None and text.strip(_XML_SPACE).lstrip("+-").lower() in _NON_FINITE:
        value = math.inf  # XML's INF and NaN, Python's inf: refused below as not finite
    if value is None:
        raise ValueError(
            f"{what}: {attribute}={shorten(text)!r} is not a number; expected {_NUMBER_EXPECTED}"
        )
    if not math.isfinite(value):
        raise ValueError(f"{what}: {attribute}={shorten(text)!r} must be a finite number")
    return value


def _parse_origin(parent: ET.Element, what: str) -> np.ndarray:
    """The 4×4 transform of an ``<origin xyz rpy>`` child (identity when absent)."""
    element = parent.find("origin")
    T = np.eye(4)
    if element is None:
        return T
    xyz = _floats(element.get("xyz"), 3, f"{what} <origin xyz>", (0.0, 0.0, 0.0))
    rpy = _floats(element.get("rpy"), 3, f"{what} <origin rpy>", (0.0, 0.0, 0.0))
    if rpy.any():  # rpy_to_rotation(0, 0, 0) is exactly the identity already in T
        T[:3, :3] = rpy_to_rotation(*rpy)
    T[:3, 3] = xyz
    return T


class _Implausible(ValueError):
    """A link's inertial data that no body has: refused where the link is used."""


def _parse_link(element: ET.Element, name: str, where: str) -> UrdfLink:
    what = f'<link name="{shorten(name, keep=30)}">'
    try:
        return UrdfLink(name, _parse_inertial(element, what))
    except _Implausible as error:
        return UrdfLink(name, None, f"{where}: {error}")


def _parse_inertial(link: ET.Element, what: str) -> UrdfInertial | None:
    element = link.find("inertial")
    if element is None:
        return None
    what = f"{what} <inertial>"
    mass_element = element.find("mass")
    if mass_element is None:
        raise ValueError(f"{what} has no <mass>")
    mass = _number(mass_element, "value", f"{what} <mass>")
    # The physical rules of every door (robolab.spatial.inertia.link_inertia_problem); the triangle
    # inequality is reported by check_plausibility of the model and refused by the robots
    # made from it unless the model file accepts it (plausibility_exceptions).
    if link_inertia_problem(mass, None) is not None:
        raise _Implausible(f"{what} <mass>: value must be >= 0, got {mass}")
    inertia_element = element.find("inertia")
    if inertia_element is None:
        raise ValueError(f"{what} has no <inertia>")
    entries = {
        key: _number(inertia_element, key, f"{what} <inertia>")
        for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    }
    inertia = np.array(
        [
            [entries["ixx"], entries["ixy"], entries["ixz"]],
            [entries["ixy"], entries["iyy"], entries["iyz"]],
            [entries["ixz"], entries["iyz"], entries["izz"]],
        ]
    )
    problem = link_inertia_problem(mass, inertia, triangle=False)
    if problem is not None:  # symmetric by construction: a negative principal moment
        raise _Implausible(
            f"{what} <inertia> must be positive semi-definite, but its smallest "
            f"principal moment is {problem.moments[0]:.6g}"
        )
    return UrdfInertial(mass, _parse_origin(element, what), inertia)


def _parse_joint(element: ET.Element, name: str, links: dict[str, UrdfLink]) -> UrdfJoint:
    what = f'<joint name="{shorten(name, keep=30)}">'
    joint_type = element.get("type")
    if joint_type not in _KNOWN_TYPES:
        raise ValueError(
            f"{what}: type must be one of {list(_KNOWN_TYPES)}, got "
            f"{None if joint_type is None else _shown(joint_type)}"
        )
    ends: dict[str, str] = {}
    for tag in ("parent", "child"):
        end = element.find(tag)
        if end is None or not end.get("link"):
            raise ValueError(f'{what} needs a <{tag} link="..."/> element')
        link = as_name(end.get("link", ""), f"{what} <{tag}> link")
        if link not in links:
            raise ValueError(f"{what}: <{tag}> names link {_shown(link)}, which does not exist")
        ends[tag] = link
    axis_element = element.find("axis")
    axis = _floats(
        None if axis_element is None else axis_element.get("xyz"),
        3,
        f"{what} <axis xyz>",
        (1.0, 0.0, 0.0),
    )
    norm = float(np.linalg.norm(axis))
    if joint_type in MOVABLE:
        if norm < 1e-9:
            raise ValueError(f"{what} <axis xyz> must be a nonzero vector, got {axis.tolist()}")
        axis = axis / norm
    lower = upper = effort = velocity = None
    limit = element.find("limit")
    if limit is not None:
        if limit.get("lower") is not None:
            lower = _number(limit, "lower", f"{what} <limit>")
        if limit.get("upper") is not None:
            upper = _number(limit, "upper", f"{what} <limit>")
        if lower is not None and upper is not None and lower > upper:
            raise ValueError(f"{what} <limit>: lower ({lower}) is above upper ({upper})")
        if limit.get("effort") is not None:
            effort = _number(limit, "effort", f"{what} <limit>")
        if limit.get("velocity") is not None:
            velocity = _number(limit, "velocity", f"{what} <limit>")
    dynamics = element.find("dynamics")
    damping = friction = 0.0
    if dynamics is not None:
        damping = _number(dynamics, "damping", f"{what} <dynamics>", 0.0)
        friction = _number(dynamics, "friction", f"{what} <dynamics>", 0.0)
    mimic = element.find("mimic")
    multiplier, offset = 1.0, 0.0
    if mimic is not None:
        multiplier = _number(mimic, "multiplier", f"{what} <mimic>", 1.0)
        offset = _number(mimic, "offset", f"{what} <mimic>", 0.0)
    return UrdfJoint(
        name=name,
        type=joint_type,
        parent=ends["parent"],
        child=ends["child"],
        origin=_parse_origin(element, what),
        axis=axis,
        lower=lower,
        upper=upper,
        mimic=None if mimic is None else as_name(mimic.get("joint", ""), f"{what} <mimic> joint"),
        mimic_multiplier=multiplier,
        mimic_offset=offset,
        damping=damping,
        friction=friction,
        effort=effort,
        velocity=velocity,
    )
