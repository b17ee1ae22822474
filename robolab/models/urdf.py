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

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from ..conventions import DEFAULT_GRAVITY, DEFAULT_PRISMATIC_LIMITS, DEFAULT_REVOLUTE_LIMITS
from ..screw.robot import too_many_joints
from ..screw.validation import (
    raise_problem,
    screw_axis_problem,
    spatial_inertia_problem,
    transform_problem,
)
from ..spatial.rigid_body_motions import transform_inv_unchecked
from ..support.arguments import as_name
from .file_format import RobotModelData
from .urdf_tree import (
    MOVABLE,
    UrdfInertial,
    UrdfJoint,
    UrdfLink,
    UrdfRobot,
    parse_urdf,
    some_names,
)

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
# robolab.conventions, re-exported here. The parsing (UrdfRobot, parse_urdf) is
# robolab.models.urdf_tree, re-exported here too.


@dataclass(frozen=True)
class SerialChain(RobotModelData):
    """One serial chain of a URDF: a :class:`robolab.RobotModelData`, and where it came from.

    The record between a file and a robot (Modern Robotics form, [ω; v] ordering; see
    :class:`robolab.RobotModelData` for the arrays), checked by
    :mod:`robolab.screw.validation` like every other door's, with what the URDF adds:

    Attributes
    ----------
    base_link, ee_link : str
        The links the chain starts and ends at.
    notes : tuple of str
        Everything the conversion assumed, lumped, locked or filled in (also the
        ``changes`` of its ``source``).

    ``description``, ``gravity`` (:data:`robolab.conventions.DEFAULT_GRAVITY`) and
    ``source`` (the URDF robot, no further citation) are defaults that
    :func:`robolab.models.convert.model_from_chain` replaces with what is known.
    """

    base_link: str = ""
    ee_link: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)


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
        A checked :class:`robolab.RobotModelData` (Modern Robotics form, ready for
        ``to_screw()`` or :func:`robolab.save_robot`); ``notes`` lists every lumping,
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
    if not isinstance(robot, UrdfRobot):
        raise TypeError(f"robot must be a UrdfRobot (from parse_urdf), got {type(robot).__name__}")
    # The links' names are in normal form NFC (parse_urdf): so are the names asked for.
    base_link = robot.root if base_link is None else as_name(base_link, "base_link")
    ee_link = None if ee_link is None else as_name(ee_link, "ee_link")
    for role, link in (("base_link", base_link), ("ee_link", ee_link)):
        if link is not None and link not in robot.links:
            raise ValueError(
                f"{role} {link!r} is not a link of URDF robot {robot.name!r}; "
                f"links: {some_names(sorted(robot.links), count=50)}"
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
    chain_joints = [joint for joint in path if joint.type in MOVABLE]
    if not chain_joints:
        raise ValueError(f"no movable joint between {base_link!r} and {ee_link!r}")
    too_many = too_many_joints(
        len(chain_joints),
        f"the chain from {base_link!r} to {ee_link!r} of URDF robot {robot.name!r}",
    )
    if too_many is not None:
        raise ValueError(too_many)
    for joint in path:
        if joint.type in ("floating", "planar"):
            raise ValueError(
                f"joint {joint.name!r} on the chain is {joint.type}; a serial chain needs "
                "revolute, continuous, prismatic or fixed joints"
            )
        if joint.mimic is not None and joint.type in MOVABLE:
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
    joint_names = tuple(joint.name for joint in chain_joints)
    _check_chain(robot.name, screw_axes, link_frames, inertias, joint_names, types)
    label = f"URDF robot {robot.name!r}"
    return SerialChain(  # "+ 0.0" turns the -0.0 that cross products leave into 0.0
        name=robot.name,
        description=f"{robot.name or 'robot'}: {n}-joint chain {base_link} → {ee_link} "
        "converted from URDF",
        home_ee_pose=home_ee_pose + 0.0,
        screw_axes_space=screw_axes + 0.0,
        link_frames=link_frames + 0.0,
        spatial_inertias=inertias,
        gravity=np.array(DEFAULT_GRAVITY),
        joint_names=joint_names,
        joint_types=tuple(types),
        joint_limits=limits,
        source={
            "citation": f"{label} (no further citation given)",
            "document": label,
            "changes": [
                f"Converted by robolab.models.convert: chain {base_link!r} → {ee_link!r}.",
                *notes,
            ],
        },
        checked=True,
        base_link=base_link,
        ee_link=ee_link,
        notes=tuple(notes),
    )


def _check_chain(
    robot: str,
    screws: np.ndarray,
    frames: np.ndarray,
    inertias: np.ndarray,
    names: tuple[str, ...],
    types: list[str],
) -> None:
    """The screw data of the chain through the one validation of every door."""

    def where(field: str, index: int | None) -> str:
        k = 0 if index is None else index
        if field == "spatial_inertias":
            return f"URDF robot {robot!r}: body of joint {names[k]!r}"
        if field == "link_frames":
            return f"URDF robot {robot!r}: link frame M_{k},{k + 1}"
        return f"URDF robot {robot!r}: joint {names[k]!r}"

    for i, joint_type in enumerate(types):
        problem = screw_axis_problem(screws[:, i], i, names[i], joint_type)
        if problem is not None:
            raise_problem(problem, where)
    for k, frame in enumerate(frames):
        problem = transform_problem(frame, "link_frames", k)
        if problem is not None:
            raise_problem(problem, where)
    for i, G in enumerate(inertias):
        # The triangle inequality: reported by check_plausibility, refused by the robots.
        problem = spatial_inertia_problem(G, i, triangle=False)
        if problem is not None:
            raise_problem(problem, where)


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
                f"{some_names([joint.child for joint in children])}; say which chain to keep "
                f"with ee_link (one of {some_names(leaves)}, or any link on the way); the other "
                "branches are then locked at q = 0 and lumped into the chain"
            )
        link = children[0].child


def _leaves(robot: UrdfRobot, start: str) -> list[str]:
    leaves, frontier = [], deque([start])
    while frontier:
        link = frontier.popleft()
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
    members, frontier = [start], deque([start])
    while frontier:
        link = frontier.popleft()
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
