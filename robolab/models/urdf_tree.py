"""Parse a URDF file into its tree of links and joints (plain data, nothing fetched).

:func:`parse_urdf` reads the kinematic tree and the inertial data of a URDF with the
standard library's :mod:`xml.etree.ElementTree`, on the file's text only: meshes,
``package://`` URIs and ``<!ENTITY>`` declarations are never resolved, a document with a
DOCTYPE is refused, and every error names the element that is wrong.
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
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from ..spatial.inertia import link_inertia_problem
from ..spatial.transforms import rpy_to_rotation
from .file_format import read_bounded_text, shorten

__all__ = ["UrdfInertial", "UrdfJoint", "UrdfLink", "UrdfRobot", "parse_urdf"]

MOVABLE = ("revolute", "continuous", "prismatic")
_KNOWN_TYPES = (*MOVABLE, "fixed", "floating", "planar")


@dataclass(frozen=True)
class UrdfInertial:
    """A link's ``<inertial>``: mass, the pose of the inertial frame in the link
    frame (4×4), and the inertia tensor about the centre of mass in that frame's axes."""

    mass: float
    origin: np.ndarray
    inertia: np.ndarray


@dataclass(frozen=True)
class UrdfLink:
    """A ``<link>``; ``inertial`` is None when the link has no ``<inertial>`` (massless)."""

    name: str
    inertial: UrdfInertial | None


@dataclass(frozen=True)
class UrdfJoint:
    """A ``<joint>``: the child link frame is ``origin @ motion(q)`` in the parent link frame.

    ``axis`` is the unit joint axis in the joint frame (URDF default (1, 0, 0));
    ``lower``/``upper`` are None where the file gives no limit.
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


def parse_urdf(source: str | Path) -> UrdfRobot:
    """Parse a URDF from a file path or from its XML text.

    Only the kinematic tree and the inertial data are read (``<visual>`` and
    ``<collision>`` are ignored). Nothing is fetched and no entity is expanded:
    a document with a ``<!DOCTYPE`` is refused, as is a xacro file that has not
    been expanded.

    Parameters
    ----------
    source : str or pathlib.Path
        A path to a ``.urdf`` file, or the XML text itself (a string starting
        with ``<``). The file must be a regular UTF-8 file of at most
        :data:`robolab.models.file_format.MAX_ROBOT_FILE_BYTES` bytes; a directory,
        a device, a FIFO or a larger file is refused before it is read.

    Returns
    -------
    UrdfRobot

    Raises
    ------
    ValueError
        For a file that cannot be read as above, malformed XML or a malformed
        URDF; the message names the file (or the robot) and the element
        (``<joint name="elbow">``, ``<origin>`` ...) and what was expected.

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
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise ValueError(
            f"{where}: a DOCTYPE or ENTITY declaration was found; robolab reads plain URDF "
            "only and never expands entities"
        )
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise ValueError(f"{where}: not well-formed XML ({error})") from error
    if root.tag != "robot":
        raise ValueError(f"{where}: the root element must be <robot>, got <{root.tag}>")
    for element in root.iter():
        if isinstance(element.tag, str) and "xacro" in element.tag:
            raise ValueError(
                f"{where}: found a xacro element <{element.tag}>; expand the file with xacro first"
            )
    robot_name = root.get("name") or ""
    if robot_name:
        named = f'<robot name="{robot_name}">'
        where = f"{where}, {named}" if where.startswith("URDF file") else f"URDF {named}"

    link_elements = _named_elements(root, "link", where)
    try:  # the element parsers name the element; the prefix names the file or robot
        links = {
            name: UrdfLink(name, _parse_inertial(element, f'<link name="{name}">'))
            for name, element in link_elements.items()
        }
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    if not links:
        raise ValueError(f"{where}: no <link> elements")
    joint_elements = _named_elements(root, "joint", where)
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
                f"{where}: link {joint.child!r} is the child of two joints "
                f"({children[joint.child]!r} and {joint.name!r}); a URDF must be a tree"
            )
        children[joint.child] = joint.name
    roots = [name for name in links if name not in children]
    if len(roots) != 1:
        raise ValueError(
            f"{where}: expected exactly one root link (a link that is no joint's child), "
            f"found {len(roots)}: {roots}"
        )
    robot = UrdfRobot(robot_name, links, joints, roots[0])
    _require_acyclic(robot, where)
    return robot


def _named_elements(root: ET.Element, tag: str, where: str) -> dict[str, ET.Element]:
    """The ``<tag>`` children of ``root`` by their (required, distinct) name attribute."""
    elements: dict[str, ET.Element] = {}
    for index, element in enumerate(root.findall(tag), start=1):
        name = element.get("name")
        if not name:
            raise ValueError(f"{where}: <{tag}> #{index} has no name attribute")
        if name in elements:
            raise ValueError(f"{where}: two {tag}s are named {name!r}")
        elements[name] = element
    return elements


def _read_text(source: str | Path) -> tuple[str, str]:
    if isinstance(source, Path) or not str(source).lstrip().startswith("<"):
        # A regular UTF-8 file of at most MAX_ROBOT_FILE_BYTES, or a ValueError naming it.
        path = Path(source)
        return read_bounded_text(path, "URDF file", "a .urdf file"), f"URDF file {path}"
    if not isinstance(source, str):
        raise TypeError(f"source must be a path or XML text, got {type(source).__name__}")
    return source, "URDF text"


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
        raise ValueError(f"{where}: links {unreached} are not connected to the root link")


def _floats(text: str | None, count: int, what: str, default: tuple[float, ...]) -> np.ndarray:
    if text is None:
        return np.array(default, dtype=float)
    parts = text.split()
    try:
        values = [float(part) for part in parts]
    except ValueError:
        raise ValueError(f"{what} must hold {count} numbers, got {shorten(text)!r}") from None
    if len(values) != count or not all(math.isfinite(v) for v in values):
        raise ValueError(f"{what} must hold {count} finite numbers, got {shorten(text)!r}")
    return np.array(values)


def _number(element: ET.Element, attribute: str, what: str, default: float | None = None) -> float:
    text = element.get(attribute)
    if text is None:
        if default is None:
            raise ValueError(f"{what} has no {attribute} attribute")
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what}: {attribute}={shorten(text)!r} is not a number") from None
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
    T[:3, :3] = rpy_to_rotation(*rpy)
    T[:3, 3] = xyz
    return T


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
        raise ValueError(f"{what} <mass>: value must be >= 0, got {mass}")
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
        raise ValueError(
            f"{what} <inertia> must be positive semi-definite, but its smallest "
            f"principal moment is {problem.moments[0]:.6g}"
        )
    return UrdfInertial(mass, _parse_origin(element, what), inertia)


def _parse_joint(element: ET.Element, name: str, links: dict[str, UrdfLink]) -> UrdfJoint:
    what = f'<joint name="{name}">'
    joint_type = element.get("type")
    if joint_type not in _KNOWN_TYPES:
        raise ValueError(f"{what}: type must be one of {list(_KNOWN_TYPES)}, got {joint_type!r}")
    ends: dict[str, str] = {}
    for tag in ("parent", "child"):
        end = element.find(tag)
        if end is None or not end.get("link"):
            raise ValueError(f'{what} needs a <{tag} link="..."/> element')
        if end.get("link") not in links:
            raise ValueError(
                f"{what}: <{tag}> names link {end.get('link')!r}, which does not exist"
            )
        ends[tag] = end.get("link", "")
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
    lower = upper = None
    limit = element.find("limit")
    if limit is not None:
        if limit.get("lower") is not None:
            lower = _number(limit, "lower", f"{what} <limit>")
        if limit.get("upper") is not None:
            upper = _number(limit, "upper", f"{what} <limit>")
        if lower is not None and upper is not None and lower > upper:
            raise ValueError(f"{what} <limit>: lower ({lower}) is above upper ({upper})")
    mimic = element.find("mimic")
    return UrdfJoint(
        name=name,
        type=joint_type,
        parent=ends["parent"],
        child=ends["child"],
        origin=_parse_origin(element, what),
        axis=axis,
        lower=lower,
        upper=upper,
        mimic=None if mimic is None else mimic.get("joint", ""),
    )
