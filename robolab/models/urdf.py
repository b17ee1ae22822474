"""Read a URDF file and extract one serial chain in Modern Robotics form (plain arrays).

A URDF describes a robot as a tree of links joined by joints. robolab's screw
model (:class:`robolab.ScrewRobot`) is a *serial chain*: one moving body per
actuated joint. :func:`serial_chain_from_urdf` turns the tree into that chain:

1. the chain is the path of joints from ``base_link`` (the root unless told
   otherwise) to ``ee_link``; its revolute, continuous and prismatic joints are
   the robot's joints, in order;
2. every link attached to a chain body by a ``fixed`` joint is *lumped* into
   that body (masses added, centre of mass and inertia combined with the
   parallel-axis theorem);
3. side branches with movable joints (the two fingers of a gripper, say) are
   *locked* at q = 0 and lumped the same way, and the result says so;
4. a tree that branches is refused unless ``ee_link`` says which chain to keep.

The output follows the Modern Robotics book (chapter 8): screw axes in the
base frame ``[ω; v]``, link frames ``M_{i-1,i}`` between the centre-of-mass
frames {i} (origin at the lumped body's centre of mass, axes parallel to the
joint's child link frame), spatial inertias ``G_i = [[I_c, 0], [0, m 1]]``.

Parsing uses the standard library's :mod:`xml.etree.ElementTree` on the file's
text only: nothing is fetched (meshes, ``package://`` URIs and ``<!ENTITY>``
declarations are never resolved; a document with a DOCTYPE is refused), and
every error names the element that is wrong.

Examples
--------
>>> text = '''<robot name="pendulum">
...   <link name="base"/>
...   <link name="rod">
...     <inertial><origin xyz="0 0 -0.5"/><mass value="2"/>
...       <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.01"/></inertial>
...   </link>
...   <joint name="hinge" type="continuous">
...     <parent link="base"/><child link="rod"/><axis xyz="0 1 0"/>
...   </joint>
... </robot>'''
>>> chain = serial_chain_from_urdf(parse_urdf(text), ee_link="rod")
>>> chain.joint_names, chain.joint_types
(('hinge',), ('revolute',))
>>> chain.screw_axes_space[:, 0]
array([0., 1., 0., 0., 0., 0.])
>>> chain.link_frames[0][:3, 3]            # M_01: base to the rod's centre of mass
array([ 0. ,  0. , -0.5])
>>> print(chain.notes[0])
joint 'hinge' is continuous: stored as revolute with limits (-π, π), which cover every angle
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from ..conventions import DEFAULT_PRISMATIC_LIMITS, DEFAULT_REVOLUTE_LIMITS
from ..spatial.rigid_body_motions import transform_inv_unchecked
from ..spatial.transforms import rpy_to_rotation
from ..support.checks import link_inertia_problem
from .file_format import _read_bounded_text, _shorten

__all__ = [
    "DEFAULT_PRISMATIC_LIMITS",
    "DEFAULT_REVOLUTE_LIMITS",
    "SerialChain",
    "UrdfInertial",
    "UrdfJoint",
    "UrdfLink",
    "UrdfRobot",
    "parse_urdf",
    "serial_chain_from_urdf",
]

# DEFAULT_REVOLUTE_LIMITS, DEFAULT_PRISMATIC_LIMITS (for joints whose URDF gives none):
# robolab.conventions, re-exported here.

_MOVABLE = ("revolute", "continuous", "prismatic")
_KNOWN_TYPES = (*_MOVABLE, "fixed", "floating", "planar")


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


@dataclass(frozen=True)
class SerialChain:
    """One serial chain of a URDF in Modern Robotics form (plain arrays, [ω; v] ordering).

    Attributes
    ----------
    name : str
        The URDF's robot name.
    base_link, ee_link : str
        The links the chain starts and ends at.
    home_ee_pose : ndarray, shape (4, 4)
        ``M``: the pose of ``ee_link`` in the base link frame at q = 0.
    screw_axes_space : ndarray, shape (6, n)
        Joint screw axes ``S_i = [ω; v]`` in the base frame at q = 0.
    link_frames : ndarray, shape (n + 1, 4, 4)
        ``M_{i-1,i}``: centre-of-mass frame {i} in {i-1} at q = 0 ({0} = base,
        {n+1} = end effector).
    spatial_inertias : ndarray, shape (n, 6, 6)
        ``G_i = [[I_c, 0], [0, m 1]]`` of each lumped body in its frame {i}.
    joint_names, joint_types : tuple of str
        Types are ``"revolute"`` (URDF revolute or continuous) or ``"prismatic"``.
    joint_limits : ndarray, shape (n, 2)
        (lower, upper) per joint; defaults where the URDF gives none (see ``notes``).
    notes : tuple of str
        Everything the conversion assumed, lumped, locked or filled in.
    """

    name: str
    base_link: str
    ee_link: str
    home_ee_pose: np.ndarray
    screw_axes_space: np.ndarray
    link_frames: np.ndarray
    spatial_inertias: np.ndarray
    joint_names: tuple[str, ...]
    joint_types: tuple[str, ...]
    joint_limits: np.ndarray
    notes: tuple[str, ...] = field(default_factory=tuple)


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
        return _read_bounded_text(path, "URDF file", "a .urdf file"), f"URDF file {path}"
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
        raise ValueError(f"{what} must hold {count} numbers, got {_shorten(text)!r}") from None
    if len(values) != count or not all(math.isfinite(v) for v in values):
        raise ValueError(f"{what} must hold {count} finite numbers, got {_shorten(text)!r}")
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
        raise ValueError(f"{what}: {attribute}={_shorten(text)!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{what}: {attribute}={_shorten(text)!r} must be a finite number")
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
    # The physical rules of every door (robolab.support.checks.link_inertia_problem); the triangle
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
    ends = {}
    for tag in ("parent", "child"):
        end = element.find(tag)
        if end is None or not end.get("link"):
            raise ValueError(f'{what} needs a <{tag} link="..."/> element')
        if end.get("link") not in links:
            raise ValueError(
                f"{what}: <{tag}> names link {end.get('link')!r}, which does not exist"
            )
        ends[tag] = end.get("link")
    axis_element = element.find("axis")
    axis = _floats(
        None if axis_element is None else axis_element.get("xyz"),
        3,
        f"{what} <axis xyz>",
        (1.0, 0.0, 0.0),
    )
    norm = float(np.linalg.norm(axis))
    if joint_type in _MOVABLE:
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


# --------------------------------------------------------------------------- chain extraction


def serial_chain_from_urdf(
    robot: UrdfRobot, ee_link: str | None = None, base_link: str | None = None
) -> SerialChain:
    """Extract the serial chain from ``base_link`` to ``ee_link`` with fixed parts lumped.

    Parameters
    ----------
    robot : UrdfRobot
        From :func:`parse_urdf`.
    ee_link : str, optional
        The end-effector link; it says which chain to keep. It may be omitted
        only when the tree below ``base_link`` does not branch.
    base_link : str, optional
        The link taken as the fixed base frame {0} (default: the root). Links
        above it and everything rigidly attached to it are the fixed world.

    Returns
    -------
    SerialChain
        Plain arrays in Modern Robotics form; ``notes`` lists every lumping,
        locking and default that was applied.

    Raises
    ------
    ValueError
        For an unknown link, an ``ee_link`` that is not below ``base_link``, a
        branching tree without ``ee_link``, a chain without movable joints, or a
        chain joint that cannot be a serial-chain joint (mimic, floating, planar).

    Notes
    -----
    Lumping: a body made of links ``k`` with masses ``m_k``, centres of mass
    ``c_k`` and inertias ``I_k`` (all in the body's reference frame, the
    chain joint's child link frame) has ``m = Σ m_k``, ``c = Σ m_k c_k / m`` and
    ``I_c = Σ [R_k I_k R_kᵀ + m_k (|d_k|² 1 − d_k d_kᵀ)]`` with ``d_k = c_k − c``
    (parallel-axis theorem), where ``R_k`` rotates the link's inertial frame
    into the body frame, so a rotated ``<inertial><origin rpy>`` is honoured.
    A massless body keeps its frame origin as "centre of mass".
    """
    if base_link is None:
        base_link = robot.root
    for role, link in (("base_link", base_link), ("ee_link", ee_link)):
        if link is not None and link not in robot.links:
            raise ValueError(
                f"{role} {link!r} is not a link of URDF robot {robot.name!r}; "
                f"links: {sorted(robot.links)}"
            )
    notes: list[str] = []
    if ee_link is None:
        ee_link = _single_leaf(robot, base_link)

    full_path = robot.path_to(ee_link)
    above_base = [joint.name for joint in robot.path_to(base_link)]
    if [joint.name for joint in full_path[: len(above_base)]] != above_base or (
        ee_link != base_link and base_link not in [joint.parent for joint in full_path]
    ):
        raise ValueError(f"ee_link {ee_link!r} is not below base_link {base_link!r}")
    path = full_path[len(above_base) :]
    if base_link != robot.root:
        notes.append(
            f"base link {base_link!r}: the links above it (from root {robot.root!r}) are "
            "taken as the fixed world"
        )
    chain_joints = [joint for joint in path if joint.type in _MOVABLE]
    if not chain_joints:
        raise ValueError(f"no movable joint between {base_link!r} and {ee_link!r}")
    for joint in path:
        if joint.type in ("floating", "planar"):
            raise ValueError(
                f"joint {joint.name!r} on the chain is {joint.type}; a serial chain needs "
                "revolute, continuous, prismatic or fixed joints"
            )
        if joint.mimic is not None and joint.type in _MOVABLE:
            raise ValueError(
                f"joint {joint.name!r} on the chain mimics joint {joint.mimic!r}; a serial "
                "chain needs independent joints"
            )

    # Poses of every link frame in the base frame at q = 0 (locked joints at q = 0 too).
    poses = {base_link: np.eye(4)}
    frontier = [base_link]
    while frontier:
        link = frontier.pop()
        for joint in robot.child_joints(link):
            poses[joint.child] = poses[link] @ joint.origin
            frontier.append(joint.child)

    chain_names = {joint.name for joint in chain_joints}
    n = len(chain_joints)
    screw_axes = np.zeros((6, n))
    com_frames = []
    inertias = np.zeros((n, 6, 6))
    limits = np.zeros((n, 2))
    types = []
    for i, joint in enumerate(chain_joints):
        T_0j = poses[joint.child]  # joint frame = child link frame at q = 0
        omega = T_0j[:3, :3] @ joint.axis
        if joint.type == "prismatic":
            screw_axes[:, i] = np.concatenate([np.zeros(3), omega])
            types.append("prismatic")
        else:
            screw_axes[:, i] = np.concatenate([omega, -np.cross(omega, T_0j[:3, 3])])
            types.append("revolute")
        limits[i] = _joint_limits(joint, notes)

        members = _rigid_members(robot, joint.child, chain_names, notes)
        mass, com, inertia = _lump(robot, joint.child, members, poses)
        names = ", ".join(repr(m) for m in members)
        if len(members) > 1:
            notes.append(f"body of joint {joint.name!r}: links {names} lumped into one body")
        if mass == 0.0:
            notes.append(f"body of joint {joint.name!r} (links {names}) has no mass")
        C = T_0j.copy()
        C[:3, 3] = T_0j[:3, :3] @ com + T_0j[:3, 3]
        com_frames.append(C)
        inertias[i, :3, :3] = inertia + 0.0
        inertias[i, 3:, 3:] = mass * np.eye(3)

    home_ee_pose = poses[ee_link]
    frames = [np.eye(4), *com_frames, home_ee_pose]
    link_frames = np.array(
        [transform_inv_unchecked(frames[k]) @ frames[k + 1] for k in range(n + 1)]
    )
    for T in link_frames:  # exact bottom rows, whatever the products left there
        T[3] = (0.0, 0.0, 0.0, 1.0)
    return SerialChain(  # "+ 0.0" turns the -0.0 that cross products leave into 0.0
        name=robot.name,
        base_link=base_link,
        ee_link=ee_link,
        home_ee_pose=home_ee_pose + 0.0,
        screw_axes_space=screw_axes + 0.0,
        link_frames=link_frames + 0.0,
        spatial_inertias=inertias,
        joint_names=tuple(joint.name for joint in chain_joints),
        joint_types=tuple(types),
        joint_limits=limits,
        notes=tuple(notes),
    )


def _single_leaf(robot: UrdfRobot, base_link: str) -> str:
    link = base_link
    while True:
        children = robot.child_joints(link)
        if not children:
            return link
        if len(children) > 1:
            leaves = _leaves(robot, base_link)
            raise ValueError(
                f"the URDF tree branches at link {link!r} into "
                f"{[joint.child for joint in children]}; say which chain to keep with "
                f"ee_link (one of {leaves}, or any link on the way); the other branches are "
                "then locked at q = 0 and lumped into the chain"
            )
        link = children[0].child


def _leaves(robot: UrdfRobot, start: str) -> list[str]:
    leaves, frontier = [], [start]
    while frontier:
        link = frontier.pop(0)
        children = robot.child_joints(link)
        if not children:
            leaves.append(link)
        frontier.extend(joint.child for joint in children)
    return leaves


def _joint_limits(joint: UrdfJoint, notes: list[str]) -> tuple[float, float]:
    if joint.type == "continuous":
        notes.append(
            f"joint {joint.name!r} is continuous: stored as revolute with limits (-π, π), "
            "which cover every angle"
        )
        return DEFAULT_REVOLUTE_LIMITS
    default = DEFAULT_PRISMATIC_LIMITS if joint.type == "prismatic" else DEFAULT_REVOLUTE_LIMITS
    lower = default[0] if joint.lower is None else joint.lower
    upper = default[1] if joint.upper is None else joint.upper
    if joint.lower is None or joint.upper is None:
        unit = "m" if joint.type == "prismatic" else "rad"
        if joint.lower is None and joint.upper is None:
            missing = "limits"
        else:
            missing = "lower limit" if joint.lower is None else "upper limit"
        notes.append(
            f"joint {joint.name!r} has no {missing} in the URDF: used ({lower:g}, {upper:g}) {unit}"
        )
    if lower > upper:
        raise ValueError(f"joint {joint.name!r}: limits ({lower}, {upper}) are not ordered")
    return (lower, upper)


def _rigid_members(
    robot: UrdfRobot, start: str, chain_names: set[str], notes: list[str]
) -> list[str]:
    """Links moving rigidly with ``start`` (fixed children, locked side branches)."""
    members, frontier = [start], [start]
    while frontier:
        link = frontier.pop(0)
        for joint in robot.child_joints(link):
            if joint.name in chain_names:
                continue
            if joint.type != "fixed":
                notes.append(
                    f"joint {joint.name!r} ({joint.type}) is off the chain: locked at q = 0 "
                    f"and its subtree lumped into the body of link {start!r}"
                )
            members.append(joint.child)
            frontier.append(joint.child)
    return members


def _lump(
    robot: UrdfRobot, reference: str, members: list[str], poses: dict[str, np.ndarray]
) -> tuple[float, np.ndarray, np.ndarray]:
    """Mass, centre of mass and inertia about it of ``members``, in ``reference``'s frame."""
    T_ref_inv = transform_inv_unchecked(poses[reference])
    parts = []
    for name in members:
        inertial = robot.links[name].inertial
        if inertial is None:
            continue
        T = T_ref_inv @ poses[name] @ inertial.origin  # inertial frame in the reference frame
        R = T[:3, :3]
        parts.append((inertial.mass, T[:3, 3], R @ inertial.inertia @ R.T))
    mass = float(sum(part[0] for part in parts))
    com = sum(m * c for m, c, _ in parts) / mass if mass > 0 else np.zeros(3)
    inertia = np.zeros((3, 3))
    for m, c, inertia_k in parts:
        d = c - com
        inertia += inertia_k + m * (d @ d * np.eye(3) - np.outer(d, d))
    return mass, np.asarray(com, dtype=float), 0.5 * (inertia + inertia.T)
