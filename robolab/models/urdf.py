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
   *locked* at q = 0 and lumped the same way, and the result says so (a mimic joint
   that follows a chain joint is refused instead: its links would move);
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
joint 'hinge' is continuous: stored as revolute without limits (-inf, inf), null in a model file
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..conventions import (
    DEFAULT_FRICTION_SMOOTHING,
    DEFAULT_GRAVITY,
    DEFAULT_PRISMATIC_LIMITS,
    DEFAULT_REVOLUTE_LIMITS,
)
from ..screw.friction import MAX_FRICTION_COEFFICIENT, JointFriction
from ..screw.robot import too_many_joints
from ..screw.validation import (
    raise_problem,
    screw_axis_problem,
    spatial_inertia_problem,
    transform_problem,
)
from ..spatial.inertia import (
    PlausibilityException,
    as_plausibility_exceptions,
    link_inertia_problem,
)
from ..spatial.rigid_body_motions import (
    matrix_exp3_unchecked,
    transform_inv_unchecked,
    vec_to_so3_unchecked,
)
from ..support.arguments import as_float_array, as_name
from .file_format import RobotModelData, shorten
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
    base_pose : ndarray, shape (4, 4)
        The base link's pose in the URDF's world (its root link's frame).
    world_gravity : ndarray, shape (3,)
        Gravity in that world; ``gravity`` is the same vector in the base frame.
    body_links : tuple of tuple of str
        The URDF links of each chain body, the joint's child link first.
    torque_limits, velocity_limits : ndarray, shape (n,)
        The chain joints' ``<limit effort>`` and ``<limit velocity>`` (inf where none).

    The chain joints' ``<dynamics damping friction>`` are its ``friction``
    (:class:`robolab.JointFriction`, viscous b = damping, Coulomb f_c = friction), used by
    the screw robot's forward dynamics and simulations; None when the URDF gives none.
    notes : tuple of str
        Everything the conversion assumed, lumped, locked or filled in (also the
        ``changes`` of its ``source``).

    ``description`` and ``source`` (the URDF robot, no further citation) are defaults that
    :func:`robolab.models.convert.model_from_chain` replaces with what is known.
    """

    base_link: str = ""
    ee_link: str = ""
    #: The base link's pose in the URDF's world (the root link's frame) at q = 0, joints
    #: above the base frozen: ``gravity`` is ``base_pose[:3, :3].T @ world_gravity``.
    base_pose: np.ndarray = field(default_factory=lambda: np.eye(4))
    #: Gravity in the URDF's world, m/s² (default (0, 0, -9.81)).
    world_gravity: np.ndarray = field(default_factory=lambda: np.array(DEFAULT_GRAVITY))
    #: The URDF links of each chain body (the joint's child link first, then those lumped).
    body_links: tuple[tuple[str, ...], ...] = ()
    #: Each chain joint's ``<limit effort>`` (N·m or N; inf where the URDF gives none): the
    #: torque limits of :func:`robolab.simulate_tracking` (``torque_limits=``) and of a
    #: :class:`robolab.JointActuator` (``torque_limit``) at a direct drive.
    torque_limits: np.ndarray = field(default_factory=lambda: np.zeros(0))
    #: Each chain joint's ``<limit velocity>`` (rad/s or m/s; inf where none).
    velocity_limits: np.ndarray = field(default_factory=lambda: np.zeros(0))


# --------------------------------------------------------------------------- chain extraction


def serial_chain_from_urdf(
    robot: UrdfRobot,
    ee_link: str | None = None,
    base_link: str | None = None,
    *,
    gravity: ArrayLike | None = None,
    plausibility_exceptions: Sequence[Any] | None = None,
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
        above it and everything rigidly attached to it are the fixed world;
        movable joints above it are frozen (listed in ``notes``).
    gravity : array_like, shape (3,), optional
        Gravity in the URDF's world, the frame of its root link, m/s² (default
        ``(0, 0, -9.81)``: down the world's z). The chain's ``gravity`` is this vector
        written in the base link's frame, ``R_wbᵀ g`` with ``R_wb`` the rotation of
        :attr:`SerialChain.base_pose`: a base mounted tilted (a leg's hip, an arm on a
        wall) gets gravity along its own tilted axes.
    plausibility_exceptions : sequence, optional
        Accepted failures of the triangle inequality of a chain body's principal
        moments, each ``(urdf_link, "inertia_triangle", reason)`` or a mapping with the
        keys ``link``, ``check``, ``reason``; ``urdf_link`` names a URDF link of that
        body (the joint's child link or one lumped into it).

    Returns
    -------
    SerialChain
        A checked :class:`robolab.RobotModelData` (Modern Robotics form, ready for
        ``to_screw()`` or :func:`robolab.save_robot`); ``notes`` lists every lumping,
        locking, freezing and default that was applied, and every link off the chain
        whose inertial data was not used because it is implausible.

    Raises
    ------
    ValueError
        For an unknown link, an ``ee_link`` that is not below ``base_link``, a
        branching tree without ``ee_link`` (the message lists the leaves), a chain
        without movable joints, a chain joint that cannot be a serial-chain joint
        (floating, planar, a mimic joint, or a joint whose follower is off the chain),
        or a chain body whose inertial data no rigid body has (a negative mass, an
        indefinite inertia, principal moments breaking the triangle inequality unless
        accepted); each names the URDF joint or link.

    Notes
    -----
    Lumping: a body made of links ``k`` with masses ``m_k``, centres of mass
    ``c_k`` and inertias ``I_k`` (all in the body's reference frame, the
    chain joint's child link frame) has ``m = Σ m_k``, ``c = Σ m_k c_k / m`` and
    ``I_c = Σ [R_k I_k R_kᵀ + m_k (|d_k|² 1 − d_k d_kᵀ)]`` with ``d_k = c_k − c``
    (parallel-axis theorem), where ``R_k`` rotates the link's inertial frame
    into the body frame, so a rotated ``<inertial><origin rpy>`` is honoured.
    A massless body keeps its frame origin as "centre of mass".

    A joint whose ``<limit>`` gives ``lower = upper`` cannot move: it is a fixed joint
    at that position, wherever it is (noted). A joint off the chain is locked at
    q = 0, or at its single position, or (a mimic follower of a locked leader) at
    ``multiplier · q_leader + offset``.

    Examples
    --------
    A pendulum hung from a mount tilted 90° about x: gravity, down the world's z,
    points along the mount's y.

    >>> text = '''<robot name="tilted">
    ...   <link name="world"/><link name="mount"/>
    ...   <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    ...     <inertia ixx="0.08" ixy="0" ixz="0" iyy="0.08" iyz="0" izz="0.001"/></inertial></link>
    ...   <joint name="tilt" type="fixed"><parent link="world"/><child link="mount"/>
    ...     <origin rpy="1.5707963267948966 0 0"/></joint>
    ...   <joint name="hinge" type="revolute"><parent link="mount"/><child link="rod"/>
    ...     <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
    ... </robot>'''
    >>> chain = serial_chain_from_urdf(parse_urdf(text), "rod", base_link="mount")
    >>> chain.gravity.round(12) + 0.0
    array([ 0.  , -9.81,  0.  ])
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
    world_gravity = (
        np.array(DEFAULT_GRAVITY) if gravity is None else as_float_array(gravity, "gravity", (3,))
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
    frozen = [joint for joint in robot.path_to(base_link) if joint.type in MOVABLE]
    if frozen:
        shown = ", ".join(f"{joint.name!r} at {_lock_value(robot, joint):g}" for joint in frozen)
        notes.append(f"joints above the base link frozen (part of the fixed world): {shown}")
    for joint in path:
        if joint.type in ("floating", "planar"):
            raise ValueError(
                f"joint {joint.name!r} on the chain is {joint.type}; a serial chain needs "
                "revolute, continuous, prismatic or fixed joints"
            )
    chain_joints = []
    for joint in path:
        if joint.type not in MOVABLE:
            continue
        if _single_position(joint):
            notes.append(
                f"joint {joint.name!r} has equal limits lower = upper = {joint.lower:g}: "
                "it cannot move, and is a fixed joint at that position"
            )
            continue
        chain_joints.append(joint)
    if not chain_joints:
        raise ValueError(f"no movable joint between {base_link!r} and {ee_link!r}")
    too_many = too_many_joints(
        len(chain_joints),
        f"the chain from {base_link!r} to {ee_link!r} of URDF robot {robot.name!r}",
    )
    if too_many is not None:
        raise ValueError(too_many)
    chain_names = {joint.name for joint in chain_joints}
    _refuse_mimics(robot, chain_joints, chain_names)

    # Poses of every link frame in the world (the root's frame) at q = 0, joints off the
    # chain at their locked positions; then in the base frame.
    world = _world_poses(robot, chain_names)
    base_pose = world[base_link]
    T_bw = transform_inv_unchecked(base_pose)
    poses = {link: T_bw @ pose for link, pose in world.items()}
    gravity_vector = base_pose[:3, :3].T @ world_gravity + 0.0
    tilt = _tilt_degrees(base_pose[:3, :3])
    if tilt > 1e-9:
        notes.append(
            f"base link {base_link!r} is tilted {tilt:.4g}° in the URDF world (root "
            f"{robot.root!r}): gravity {_vector_text(world_gravity)} m/s² in the world is "
            f"{_vector_text(gravity_vector)} m/s² in the base frame"
        )

    n = len(chain_joints)
    screw_axes = np.zeros((6, n))
    com_frames = []
    inertias = np.zeros((n, 6, 6))
    limits = np.zeros((n, 2))
    types = []
    bodies: list[list[str]] = []
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
        bodies.append(members)
        for member in members:
            problem = robot.links[member].problem
            if problem is not None:
                raise ValueError(
                    f"{problem}; link {member!r} is part of the body of chain joint "
                    f"{joint.name!r}, so its inertial data is used and must be a rigid body's"
                )
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
    used = {member for members in bodies for member in members}
    for unused in robot.links.values():
        if unused.problem is not None and unused.name not in used:
            notes.append(
                f"link {unused.name!r} is off the chain and its implausible inertial data is "
                f"not used: {unused.problem}"
            )
    joint_names = tuple(joint.name for joint in chain_joints)
    friction = _friction(chain_joints, notes)
    torque_limits = np.array([_positive_limit(j, "effort", notes) for j in chain_joints])
    velocity_limits = np.array([_positive_limit(j, "velocity", notes) for j in chain_joints])
    exceptions = _link_exceptions(plausibility_exceptions, bodies, joint_names)
    _check_triangles(robot.name, inertias, bodies, joint_names, exceptions)

    home_ee_pose = poses[ee_link]
    frames = [np.eye(4), *com_frames, home_ee_pose]
    link_frames = np.array(
        [transform_inv_unchecked(frames[k]) @ frames[k + 1] for k in range(n + 1)]
    )
    for T in link_frames:  # exact bottom rows, whatever the products left there
        T[3] = (0.0, 0.0, 0.0, 1.0)
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
        gravity=gravity_vector,
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
        plausibility_exceptions=exceptions,
        friction=friction,
        checked=True,
        base_link=base_link,
        ee_link=ee_link,
        notes=tuple(notes),
        base_pose=base_pose + 0.0,
        world_gravity=world_gravity + 0.0,
        body_links=tuple(tuple(members) for members in bodies),
        torque_limits=torque_limits,
        velocity_limits=velocity_limits,
    )


def _friction(joints: list[UrdfJoint], notes: list[str]) -> JointFriction | None:
    """The chain joints' ``<dynamics damping friction>`` as joint friction (None if none)."""
    for joint in joints:
        for what, value in (("damping", joint.damping), ("friction", joint.friction)):
            if not 0.0 <= value <= MAX_FRICTION_COEFFICIENT:
                raise ValueError(
                    f"joint {joint.name!r} <dynamics {what}={value:g}>: expected a number in "
                    f"[0, {MAX_FRICTION_COEFFICIENT:g}] (N·m·s/rad or N·m; N·s/m or N)"
                )
    if not any(joint.damping or joint.friction for joint in joints):
        return None
    viscous = [joint.damping for joint in joints]
    coulomb = [joint.friction for joint in joints]
    notes.append(
        "joint friction from <dynamics>: viscous (damping) "
        f"{_vector_text(np.array(viscous))}, Coulomb (friction) {_vector_text(np.array(coulomb))}"
        f", smoothed with ε = {DEFAULT_FRICTION_SMOOTHING:g}"
    )
    return JointFriction(viscous=viscous, coulomb=coulomb)


def _positive_limit(joint: UrdfJoint, what: str, notes: list[str]) -> float:
    """A chain joint's effort or velocity limit: inf where the URDF gives none (or 0, which
    many URDFs write for "not given"); a negative one is refused."""
    value = getattr(joint, what)
    if value is None:
        return math.inf
    if value < 0:
        raise ValueError(
            f"joint {joint.name!r} <limit {what}={value:g}>: expected a positive number "
            "(or 0 for none)"
        )
    if value == 0:
        notes.append(f"joint {joint.name!r} <limit {what}=0>: read as no limit")
        return math.inf
    return float(value)


def _single_position(joint: UrdfJoint) -> bool:
    """A movable joint whose ``<limit>`` gives lower = upper: it cannot move."""
    return joint.lower is not None and joint.lower == joint.upper


def _lock_value(robot: UrdfRobot, joint: UrdfJoint, depth: int = 0) -> float:
    """The position a joint off the chain is locked at: 0, its single position, or a
    mimic follower's ``multiplier · q_leader + offset`` of its locked leader."""
    if joint.type not in MOVABLE:
        return 0.0
    if _single_position(joint):
        return float(joint.lower)  # type: ignore[arg-type]
    leader = robot.joints.get(joint.mimic) if joint.mimic is not None else None
    if leader is not None and depth < len(robot.joints):
        value = _lock_value(robot, leader, depth + 1)
        return joint.mimic_multiplier * value + joint.mimic_offset
    return 0.0


def _joint_motion(joint: UrdfJoint, q: float) -> np.ndarray:
    """The child link frame in the joint frame at position ``q`` (4×4)."""
    T = np.eye(4)
    if q == 0.0 or joint.type not in MOVABLE:
        return T
    if joint.type == "prismatic":
        T[:3, 3] = joint.axis * q
    else:
        T[:3, :3] = matrix_exp3_unchecked(vec_to_so3_unchecked(joint.axis * q))
    return T


def _world_poses(robot: UrdfRobot, chain_names: set[str]) -> dict[str, np.ndarray]:
    """Every link frame in the root's frame: chain joints at 0, the others locked."""
    poses = {robot.root: np.eye(4)}
    frontier = [robot.root]
    while frontier:
        link = frontier.pop()
        for joint in robot.child_joints(link):
            q = 0.0 if joint.name in chain_names else _lock_value(robot, joint)
            poses[joint.child] = poses[link] @ joint.origin @ _joint_motion(joint, q)
            frontier.append(joint.child)
    return poses


def _refuse_mimics(robot: UrdfRobot, chain: list[UrdfJoint], chain_names: set[str]) -> None:
    """Refuse mimic joints that a serial chain of independent joints cannot model."""
    for joint in chain:
        if joint.mimic is not None:
            raise ValueError(
                f"joint {joint.name!r} on the chain mimics joint {joint.mimic!r} "
                f"(q = {joint.mimic_multiplier:g}·q_{joint.mimic} + {joint.mimic_offset:g}); "
                "a serial chain needs independent joints: choose an ee_link before "
                f"{joint.name!r}, or remove its <mimic> to let it move on its own"
            )
    followers = [
        joint
        for joint in robot.joints.values()
        if joint.mimic in chain_names and joint.name not in chain_names
    ]
    if followers:
        shown = ", ".join(f"{joint.name!r} follows {joint.mimic!r}" for joint in followers)
        raise ValueError(
            f"mimic joints off the chain follow chain joints ({shown}): their links would "
            "move with the chain joint, which a serial chain cannot model (they are not "
            "silently locked); choose an ee_link whose chain does not hold their leaders, or "
            "remove the <mimic> elements to lock the followers at q = 0"
        )


def _tilt_degrees(R: np.ndarray) -> float:
    """The angle between a frame's z axis and the world's, in degrees."""
    return math.degrees(math.acos(max(-1.0, min(1.0, float(R[2, 2])))))


def _vector_text(vector: np.ndarray) -> str:
    """``(0, -4.905, -8.496)``: a vector for a note, 4 significant digits."""
    return "(" + ", ".join(f"{x + 0.0:.4g}" for x in np.round(vector, 12)) + ")"


def _link_exceptions(
    value: Sequence[Any] | None, bodies: list[list[str]], joint_names: tuple[str, ...]
) -> tuple[PlausibilityException, ...]:
    """``plausibility_exceptions`` by URDF link name → by robolab link number (1..n)."""
    if value is None:
        return ()
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise TypeError(
            "plausibility_exceptions must be a sequence of (urdf_link, check, reason) entries, "
            f"got {type(value).__name__}"
        )
    body_of = {member: i + 1 for i, members in enumerate(bodies) for member in members}
    numbered = []
    for k, item in enumerate(value):
        if isinstance(item, Mapping):
            entry = dict(item)
            link = entry.get("link")
        elif isinstance(item, tuple | list) and len(item) == 3:
            link, entry = item[0], {"check": item[1], "reason": item[2]}
        else:
            raise TypeError(
                f"plausibility_exceptions[{k}] must be a tuple (urdf_link, check, reason) or "
                f"a mapping with the keys 'link', 'check', 'reason', got {type(item).__name__}"
            )
        if not isinstance(link, str) or link not in body_of:
            bodies_text = "; ".join(
                f"joint {name!r}: {', '.join(repr(m) for m in members)}"
                for name, members in zip(joint_names, bodies, strict=True)
            )
            raise ValueError(
                f"plausibility_exceptions[{k}]: link must name a URDF link of a chain body, "
                f"got {shorten(repr(link))}; the chain bodies are: {shorten(bodies_text, 300)}"
            )
        numbered.append({**entry, "link": body_of[link]})
    return as_plausibility_exceptions(numbered, len(bodies))


def _check_triangles(
    robot: str,
    inertias: np.ndarray,
    bodies: list[list[str]],
    joint_names: tuple[str, ...],
    exceptions: tuple[PlausibilityException, ...],
) -> None:
    """The plausibility check of load_robot, with the URDF's names: the triangle inequality."""
    exempt = {e.link for e in exceptions if e.check == "inertia_triangle"}
    for i, G in enumerate(inertias):
        if i + 1 in exempt:
            continue
        problem = link_inertia_problem(None, G[:3, :3])
        if problem is not None and problem.check == "inertia_triangle":
            links = ", ".join(repr(m) for m in bodies[i])
            raise ValueError(
                f"URDF robot {robot!r}: body of joint {joint_names[i]!r} (links {links}): "
                f"the rotational inertia must be {problem.expected}, got {problem.found}. No "
                "rigid body has these moments; if they are a published idealisation, accept "
                f"them explicitly with plausibility_exceptions=[({bodies[i][0]!r}, "
                '"inertia_triangle", "why")]'
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
                f"{some_names([joint.child for joint in children])}, with the leaves "
                f"{some_names(leaves, count=30)}; say which chain to keep with ee_link=... "
                f"(a leaf, such as ee_link={leaves[0]!r}, or any link on the way); the other "
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
            f"joint {joint.name!r} is continuous: stored as revolute without limits "
            "(-inf, inf), null in a model file"
        )
        return (-math.inf, math.inf)
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
) -> list[str]:  # the joints off the chain are locked at _lock_value, as in _world_poses
    """Links moving rigidly with ``start`` (fixed children, locked side branches)."""
    members, frontier = [start], deque([start])
    while frontier:
        link = frontier.popleft()
        for joint in robot.child_joints(link):
            if joint.name in chain_names:
                continue
            if joint.type != "fixed" and not _single_position(joint):
                value = _lock_value(robot, joint)
                follows = "" if joint.mimic is None else f" (mimic of {joint.mimic!r})"
                notes.append(
                    f"joint {joint.name!r} ({joint.type}){follows} is off the chain: locked "
                    f"at q = {value:g} and its subtree lumped into the body of link {start!r}"
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
