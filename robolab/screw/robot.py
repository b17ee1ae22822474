"""The screw (product-of-exponentials) robot model of Modern Robotics.

:class:`ScrewRobot` holds the kinematic and dynamic parameters of a serial
chain in the conventions of the book and of ModernRoboticsBook.jl's ``Robot``:

* ``home_ee_pose`` M: the end-effector pose T_sb at the home configuration q = 0;
* ``screw_axes_space`` (6, n): joint screw axes S_i = [ω; v] in the space frame {s}
  at home, one per column; ``screw_axes_body`` (6, n) the same axes in the
  end-effector frame, B_i = [Ad_{M⁻¹}] S_i (derived);
* ``link_frames`` (n+1, 4, 4): M_{i-1,i}, the pose of the centre-of-mass frame
  {i} of link i in frame {i-1} at home; M_{0,1} starts at the base {0} = {s},
  M_{n,n+1} goes from the last centre-of-mass frame to the end-effector frame;
* ``spatial_inertias`` (n, 6, 6): G_i = [[I_c, 0], [0, m·1]] in frame {i};
* ``gravity`` (3,) in {s}, ``joint_names``, ``joint_types``, ``joint_limits``.

The robot is immutable: its arrays are read-only, so constants derived from
them are computed once and cached for the fast algorithms. A copy with other
gravity (the same robot on the Moon, or mounted on a wall) comes from
:meth:`ScrewRobot.with_gravity`; any other change from :meth:`ScrewRobot.replace`.

Everything is checked on construction, and every violation raises
:class:`ValueError` naming the field and the joint or link (:class:`TypeError`
for something that is not a number at all: text, booleans, complex numbers,
None, dicts, see :mod:`robolab.support.arguments`). A link may have zero mass or a
positive semi-definite rotational inertia (a point mass, a thin rod). The
principal moments of every link must satisfy the triangle inequality, as for
every rigid body; a published idealisation that breaks it (Corke's Puma link 1,
which only has an inertia about its joint axis) is accepted only when it is
named in ``plausibility_exceptions``, as the bundled model files do. Whether
the mass matrix is then singular depends on the configuration; forward
dynamics says so when it is. The physical rules are those of
:func:`robolab.spatial.inertia.link_inertia_problem`, shared by every door through
which inertial data enters (DH robots, model files, URDF files); the checks of the
screw data (unit screw axes, transforms, spatial inertias) are those of
:mod:`robolab.screw.validation`, shared with the model-file and URDF readers. The
defaults (gravity, joint limits) are :mod:`robolab.conventions`'.

Examples
--------
A planar 2R arm with unit links and 1 kg point masses at the link tips
(the example of MR §8.1.1):

>>> import numpy as np
>>> def translation(x):
...     T = np.eye(4); T[0, 3] = x; return T
>>> point_mass = np.diag([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
>>> robot = ScrewRobot(
...     "planar 2R",
...     home_ee_pose=translation(2.0),
...     screw_axes_space=[[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
...     link_frames=[translation(1.0), translation(1.0), np.eye(4)],
...     spatial_inertias=[point_mass, point_mass],
... )
>>> robot
ScrewRobot('planar 2R', n_joints=2, joint_types=('revolute', 'revolute'),
           gravity=(0.0, 0.0, -9.81))
>>> robot.screw_axes_body[:, 0]
array([0., 0., 1., 0., 2., 0.])
>>> robot.with_gravity([0, -9.81, 0]).gravity
array([ 0.  , -9.81,  0.  ])
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from ..conventions import (
    DEFAULT_GRAVITY,
    DEFAULT_PRISMATIC_LIMITS,
    DEFAULT_REVOLUTE_LIMITS,
    HOME_POSE_TOLERANCE,
    JOINT_TYPES,
)
from ..spatial.inertia import PlausibilityException, as_plausibility_exceptions
from ..spatial.rigid_body_motions import adjoint_representation_unchecked, transform_inv_unchecked
from ..support.arguments import as_float_array, as_name, repeated_name
from .friction import JointFriction, as_joint_friction
from .validation import (
    raise_problem,
    screw_axis_kind,
    screw_axis_problem,
    spatial_inertia_problem,
    transform_problem,
)

__all__ = [
    "DEFAULT_PRISMATIC_LIMITS",
    "DEFAULT_REVOLUTE_LIMITS",
    "JOINT_TYPES",
    "MAX_ROBOT_JOINTS",
    "ScrewRobot",
]

# JOINT_TYPES, DEFAULT_REVOLUTE_LIMITS and DEFAULT_PRISMATIC_LIMITS are robolab.conventions'
# (re-exported here, where they have always been importable). The checks of the screw
# data are robolab.screw.validation's, shared with the file and URDF readers.

_T = TypeVar("_T")

#: Most joints a robot may have: :class:`ScrewRobot` and the robot files (model files and
#: the chain of a URDF, :mod:`robolab.models`) refuse more. Real serial arms have up to a
#: few dozen joints (a snake robot some hundreds); 1000 keeps reading, checking and building
#: a robot well under a second, and every algorithm of robolab linear or better in them.
#:
#: >>> MAX_ROBOT_JOINTS
#: 1000
MAX_ROBOT_JOINTS = 1000


def too_many_joints(n: int, what: str) -> str | None:
    """Why ``n`` joints are too many (``what`` names where they were counted), or None.

    Examples
    --------
    >>> print(too_many_joints(5000, "screw_axes_space has 5000 columns"))
    screw_axes_space has 5000 columns: 5000 joints, more than the 1000 a robot may have \
(robolab.screw.robot.MAX_ROBOT_JOINTS)
    """
    if n <= MAX_ROBOT_JOINTS:
        return None
    return (
        f"{what}: {n} joints, more than the {MAX_ROBOT_JOINTS} a robot may have "
        "(robolab.screw.robot.MAX_ROBOT_JOINTS)"
    )


def _read_only(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=float)  # a private copy
    array.setflags(write=False)
    return array


class ScrewRobot:
    """A serial-chain robot in the product-of-exponentials form (Modern Robotics).

    Parameters
    ----------
    name : str
        The robot's name, kept in Unicode normal form NFC; control and invisible
        characters are refused (:func:`robolab.support.arguments.as_name`).
    home_ee_pose : array_like, shape (4, 4)
        M = T_sb(0), the end-effector pose at the home configuration. Must
        equal the product M_01 M_12 ⋯ M_{n,n+1} of ``link_frames`` (to 1e-6).
    screw_axes_space : array_like, shape (6, n)
        Screw axes S_i = [ω; v] of the joints in the space frame at home, as
        columns: ‖ω‖ = 1 for a revolute joint, ω = 0 and ‖v‖ = 1 for a
        prismatic joint; 1 ≤ n ≤ :data:`MAX_ROBOT_JOINTS` (1000).
    link_frames : sequence of n+1 array_like, shape (4, 4)
        M_{i-1,i}: the pose of centre-of-mass frame {i} in frame {i-1} at
        home; ``link_frames[0]`` = M_01 from the base, ``link_frames[n]`` =
        M_{n,n+1} from frame {n} to the end-effector frame.
    spatial_inertias : sequence of n array_like, shape (6, 6)
        G_i = [[I_c, 0], [0, m·1]] of link i in its centre-of-mass frame {i},
        [ω; v] ordering; m ≥ 0 and I_c symmetric positive semi-definite.
    gravity : array_like, shape (3,)
        Gravitational acceleration in the space frame, default (0, 0, -9.81).
    joint_names : sequence of n str, optional
        Default ``"joint1"``, ..., ``"jointn"``. Names as ``name``, and distinct once
        in normal form NFC (``"é"`` written precomposed or with a combining accent is one
        name).
    joint_types : sequence of n str, optional
        ``"revolute"`` or ``"prismatic"``; by default read from the screw
        axis (ω = 0 means prismatic). Given types must match the axes.
    joint_limits : sequence of n (lower, upper), optional
        Joint position limits with lower < upper (±inf allowed). Default
        ``DEFAULT_REVOLUTE_LIMITS`` = (-π, π) rad for a revolute joint and
        ``DEFAULT_PRISMATIC_LIMITS`` = (0, 1000) m for a prismatic joint, the
        defaults of :mod:`robolab.conventions` (the DH model's, Moro's: the
        prismatic one is a placeholder, and the views show its first metre).
    plausibility_exceptions : sequence of (link, check, reason), optional
        Published idealisations to accept, each a
        :class:`robolab.spatial.inertia.PlausibilityException` or a tuple such as
        ``(5, "inertia_triangle", "Paul 1981: the only published data")``
        (links 1..n): a link named with ``"inertia_triangle"`` may have
        principal moments that break the triangle inequality.
        :func:`robolab.check_plausibility` lists them with their reasons.
        Masses and inertias must always be non-negative and positive
        semi-definite; nothing accepts those.
    friction : robolab.JointFriction or dict, optional
        Viscous and smoothed Coulomb joint friction, used by forward dynamics and the
        simulations (:mod:`robolab.screw.friction`); default None, none.
    notes : sequence of str, optional
        What the model assumed where it came from (a URDF chain's lumped links, frozen
        joints, tilted base ...); shown by :meth:`summary`. They describe the robot and
        take no part in its equality.

    Attributes
    ----------
    name, n_joints, home_ee_pose, screw_axes_space, screw_axes_body,
    link_frames, spatial_inertias, gravity, joint_names, joint_types, joint_limits
        The fields of ModernRoboticsBook.jl's ``Robot``. Arrays are read-only;
        ``link_frames`` has shape (n+1, 4, 4), ``spatial_inertias`` (n, 6, 6),
        ``screw_axes_body`` = [Ad_{M⁻¹}] ``screw_axes_space``.
    plausibility_exceptions : tuple of PlausibilityException
        The accepted idealisations (empty unless given).

    Raises
    ------
    TypeError
        For a field that is not numbers at all (text, booleans, complex
        numbers, None, a dict, ...) or not text where text is expected.
    ValueError
        For any inconsistent or physically impossible field, naming the
        field and the joint or link.

    Examples
    --------
    >>> import numpy as np
    >>> robot = ScrewRobot("slider", np.eye(4), [[0], [0], [0], [1], [0], [0]],
    ...                    [np.eye(4), np.eye(4)], [np.diag([0, 0, 0, 2, 2, 2])])
    >>> robot.joint_types, robot.joint_limits
    (('prismatic',), ((0.0, 1000.0),))
    >>> rod = np.diag([0, 0, 0.35, 0, 0, 0])  # only a moment about the joint axis (Puma link 1)
    >>> ScrewRobot("rod", np.eye(4), [[0], [0], [1], [0], [0], [0]], [np.eye(4)] * 2, [rod])
    Traceback (most recent call last):
    ...
    ValueError: spatial_inertias[0] (link 1): the rotational inertia I_c must be a rigid body's
    inertia (each principal moment at most the sum of the other two), got principal moments 0, 0,
    0.35 kg·m²: the largest exceeds the sum of the others by 0.35. No rigid body has these
    moments; if they are a published idealisation, accept them explicitly with
    plausibility_exceptions=[(1, "inertia_triangle", "why")]
    >>> accepted = ScrewRobot("rod", np.eye(4), [[0], [0], [1], [0], [0], [0]], [np.eye(4)] * 2,
    ...                       [rod], plausibility_exceptions=[(1, "inertia_triangle", "textbook")])
    >>> accepted.plausibility_exceptions[0].reason
    'textbook'
    >>> ScrewRobot("bad", np.eye(4), [[0], [0], [2], [0], [0], [0]],
    ...            [np.eye(4), np.eye(4)], [np.eye(6)])
    Traceback (most recent call last):
    ...
    ValueError: screw_axes_space[:, 0] (joint 'joint1'): a screw axis needs ‖ω‖ = 1
    (revolute) or ω = 0 and ‖v‖ = 1 (prismatic), got ‖ω‖ = 2: the joint variable would
    not be an angle in radians (the joint would turn 2 rad per unit of q); normalise the
    axis by dividing it (ω and v) by the length of ω, 2: the joint variable then becomes 2·q
    """

    name: str
    n_joints: int
    home_ee_pose: np.ndarray
    screw_axes_space: np.ndarray
    screw_axes_body: np.ndarray
    link_frames: np.ndarray
    spatial_inertias: np.ndarray
    gravity: np.ndarray
    joint_names: tuple[str, ...]
    joint_types: tuple[str, ...]
    joint_limits: tuple[tuple[float, float], ...]
    friction: JointFriction | None = None  # the class's default: robots from files have none
    plausibility_exceptions: tuple[PlausibilityException, ...]
    notes: tuple[str, ...] = ()  # the class's default: what the model assumed

    def __init__(
        self,
        name: str,
        home_ee_pose: Any,
        screw_axes_space: Any,
        link_frames: Any,
        spatial_inertias: Any,
        gravity: Any = DEFAULT_GRAVITY,
        joint_names: Sequence[str] | None = None,
        joint_types: Sequence[str] | None = None,
        joint_limits: Sequence[tuple[float, float]] | None = None,
        plausibility_exceptions: Sequence[Any] | None = None,
        friction: JointFriction | Mapping[str, Any] | None = None,
        notes: Sequence[str] | None = None,
    ) -> None:
        name = as_name(name, "name")
        screws = _check_screw_axes(screw_axes_space)
        n = screws.shape[1]
        names = _check_joint_names(joint_names, n)
        types = _check_joint_types(joint_types, screws, names)
        limits = _check_joint_limits(joint_limits, types, names)
        frames = check_link_frames(link_frames, n)
        exceptions = as_plausibility_exceptions(plausibility_exceptions, n)
        exempt = {e.link for e in exceptions if e.check == "inertia_triangle"}
        inertias = check_spatial_inertias(spatial_inertias, n, triangle_exempt=exempt)
        home = _transform(home_ee_pose, "home_ee_pose", "home_ee_pose")
        _check_home_pose(home, frames)
        gravity_vector = as_float_array(gravity, "gravity", (3,))
        self._store(name, home, screws, frames, inertias, gravity_vector, names, types, limits)
        self.__dict__["plausibility_exceptions"] = exceptions
        self.__dict__["friction"] = as_joint_friction(friction, n, names)
        self.__dict__["notes"] = _check_notes(notes)

    @classmethod
    def from_checked(
        cls,
        name: str,
        home_ee_pose: np.ndarray,
        screw_axes_space: np.ndarray,
        link_frames: np.ndarray,
        spatial_inertias: np.ndarray,
        gravity: np.ndarray,
        joint_names: Sequence[str],
        joint_types: Sequence[str],
        joint_limits: Sequence[tuple[float, float]],
        plausibility_exceptions: Sequence[PlausibilityException] = (),
        notes: Sequence[str] = (),
    ) -> ScrewRobot:
        """Build a robot from screw data that :mod:`robolab.screw.validation` has passed.

        For the one record between a file and a robot,
        :class:`robolab.RobotModelData` (its :meth:`~robolab.RobotModelData.to_screw`):
        its reader already checked the arrays (shapes, finite numbers, unit screw axes
        of the named joint types, transforms, spatial inertias, the home pose, distinct
        names), so they are not checked again. Only what a record does not guarantee is
        checked here: the accepted ``plausibility_exceptions``, the triangle inequality
        of every link they do not exempt (a file may hold such a link; check_plausibility
        reports it) and strictly ordered joint limits (a file allows lower = upper).
        Anything else should be built with ``ScrewRobot(...)``, which checks everything.

        Examples
        --------
        >>> import numpy as np
        >>> robot = ScrewRobot.from_checked(
        ...     "slider", np.eye(4), np.array([[0.0], [0], [0], [1], [0], [0]]),
        ...     np.array([np.eye(4), np.eye(4)]), np.array([np.diag([0, 0, 0, 2, 2, 2.0])]),
        ...     np.array([0, 0, -9.81]), ["x"], ["prismatic"], [(0.0, 0.5)])
        >>> robot == ScrewRobot("slider", np.eye(4), [[0], [0], [0], [1], [0], [0]],
        ...     [np.eye(4)] * 2, [np.diag([0, 0, 0, 2, 2, 2])], joint_names=["x"],
        ...     joint_limits=[(0, 0.5)])
        True
        """
        n = len(joint_names)
        too_many = too_many_joints(n, f"joint_names holds {n} names")
        if too_many is not None:
            raise ValueError(too_many)
        names, types = tuple(joint_names), tuple(joint_types)
        exceptions = as_plausibility_exceptions(plausibility_exceptions, n)
        exempt = {e.link for e in exceptions if e.check == "inertia_triangle"}
        for i in range(n):
            if i + 1 not in exempt:
                name_i = f"spatial_inertias[{i}] (link {i + 1})"
                _check_spatial_inertia(spatial_inertias[i], name_i, link=i + 1, triangle=True)
        limits = _check_joint_limits(joint_limits, types, names)
        robot = object.__new__(cls)
        robot._store(
            name,
            home_ee_pose,
            screw_axes_space,
            link_frames,
            spatial_inertias,
            gravity,
            names,
            types,
            limits,
        )
        robot.__dict__["plausibility_exceptions"] = exceptions
        robot.__dict__["notes"] = _check_notes(notes)
        return robot

    def _store(
        self,
        name: str,
        home: np.ndarray,
        screws: np.ndarray,
        frames: np.ndarray,
        inertias: np.ndarray,
        gravity_vector: np.ndarray,
        names: tuple[str, ...],
        types: tuple[str, ...],
        limits: tuple[tuple[float, float], ...],
    ) -> None:
        n = screws.shape[1]
        body = adjoint_representation_unchecked(transform_inv_unchecked(home)) @ screws
        fields = {
            "name": name,
            "n_joints": n,
            "home_ee_pose": _read_only(home),
            "screw_axes_space": _read_only(screws),
            "screw_axes_body": _read_only(body),
            "link_frames": _read_only(frames),
            "spatial_inertias": _read_only(inertias),
            "gravity": _read_only(gravity_vector),
            "joint_names": names,
            "joint_types": types,
            "joint_limits": limits,
            "_cache": {},
        }
        self.__dict__.update(fields)

    # ------------------------------------------------------------------ immutability

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(
            f"ScrewRobot is immutable; use robot.replace({key}=...) or robot.with_gravity(...)"
        )

    def __delattr__(self, key: str) -> None:
        raise AttributeError("ScrewRobot is immutable")

    def _derived(self, key: str, compute: Callable[[], _T]) -> _T:
        """Return the constant ``key`` derived from the robot, computing it once.

        The algorithm modules store their per-robot constants here (screw-axis
        tables, spatial inertias at home, ...). Copies made by
        :meth:`with_gravity` share the cache, since gravity enters no constant.
        """
        cache = self.__dict__["_cache"]
        try:
            return cache[key]
        except KeyError:
            value = cache[key] = compute()
            return value

    # ------------------------------------------------------------------ copies

    def replace(self, **changes: Any) -> ScrewRobot:
        """Return a new, validated robot with some fields changed.

        Accepts the constructor's parameters as keywords. Use it to build a
        robot model with estimation errors for :func:`robolab.simulate_control`.
        The accepted ``plausibility_exceptions`` are kept unless changed.

        Examples
        --------
        >>> import numpy as np
        >>> robot = ScrewRobot("slider", np.eye(4), [[0], [0], [0], [1], [0], [0]],
        ...                    [np.eye(4), np.eye(4)], [np.diag([0, 0, 0, 2, 2, 2])])
        >>> heavier = robot.replace(spatial_inertias=[np.diag([0, 0, 0, 3, 3, 3])])
        >>> float(heavier.spatial_inertias[0, 3, 3])
        3.0
        >>> robot.replace(colour="red")
        Traceback (most recent call last):
        ...
        TypeError: ScrewRobot.replace() got unknown field(s) ['colour']; expected some of
        ['name', 'home_ee_pose', 'screw_axes_space', 'link_frames', 'spatial_inertias',
        'gravity', 'joint_names', 'joint_types', 'joint_limits', 'plausibility_exceptions',
        'friction', 'notes']
        """
        arguments = {
            "name": self.name,
            "home_ee_pose": self.home_ee_pose,
            "screw_axes_space": self.screw_axes_space,
            "link_frames": self.link_frames,
            "spatial_inertias": self.spatial_inertias,
            "gravity": self.gravity,
            "joint_names": self.joint_names,
            "joint_types": self.joint_types,
            "joint_limits": self.joint_limits,
            "plausibility_exceptions": self.plausibility_exceptions,
            "friction": self.friction,
            "notes": self.notes,
        }
        unknown = sorted(set(changes) - set(arguments))
        if unknown:
            raise TypeError(
                f"ScrewRobot.replace() got unknown field(s) {unknown}; "
                f"expected some of {list(arguments)}"
            )
        arguments.update(changes)
        return ScrewRobot(**arguments)

    def with_gravity(self, gravity: ArrayLike) -> ScrewRobot:
        """Return the same robot with another gravity vector (in the space frame).

        The copy shares the cached constants of this robot.

        Examples
        --------
        >>> import numpy as np
        >>> robot = ScrewRobot("slider", np.eye(4), [[0], [0], [0], [1], [0], [0]],
        ...                    [np.eye(4), np.eye(4)], [np.diag([0, 0, 0, 2, 2, 2])])
        >>> robot.with_gravity([0, 0, -1.62]).gravity  # on the Moon
        array([ 0.  ,  0.  , -1.62])
        """
        gravity_vector = as_float_array(gravity, "gravity", (3,))
        copy = object.__new__(ScrewRobot)
        copy.__dict__.update(self.__dict__)
        copy.__dict__["gravity"] = _read_only(gravity_vector)
        return copy

    # ------------------------------------------------------------------ display

    def __repr__(self) -> str:
        gravity = tuple(float(g) for g in self.gravity)
        return (
            f"ScrewRobot({self.name!r}, n_joints={self.n_joints}, "
            f"joint_types={self.joint_types}, gravity={gravity})"
        )

    def summary(self) -> str:
        """Return the robot in a few lines: joints, which way gravity points, the notes.

        Examples
        --------
        >>> import numpy as np
        >>> robot = ScrewRobot("slider", np.eye(4), [[0], [0], [0], [1], [0], [0]],
        ...                    [np.eye(4), np.eye(4)], [np.diag([0, 0, 0, 2, 2, 2])],
        ...                    notes=["a test robot"])
        >>> print(robot.summary())
        ScrewRobot 'slider': 1 joint (P)
          gravity: 9.81 m/s² along -z of the base frame {0}
          note: a test robot
        >>> print(robot.with_gravity([0, 4.905, -8.496]).summary().splitlines()[1])
          gravity: 9.81 m/s² along (0, 0.5, -0.866) of the base frame {0}
        """
        n = self.n_joints
        letters = "".join(kind[0].upper() for kind in self.joint_types)
        lines = [
            f"ScrewRobot {self.name!r}: {n} joint{'s' if n != 1 else ''} ({letters})",
            f"  gravity: {_gravity_direction(self.gravity)}",
        ]
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for i in range(self.n_joints):
            axis = ", ".join(f"{x:.4g}" for x in self.screw_axes_space[:, i])
            lower, upper = self.joint_limits[i]
            G = self.spatial_inertias[i]
            rows.append(
                f"<tr><td>{i + 1}</td><td>{html.escape(self.joint_names[i])}</td>"
                f"<td>{self.joint_types[i]}</td><td>[{axis}]</td>"
                f"<td>[{lower:.4g}, {upper:.4g}]</td><td>{G[3, 3]:.4g}</td></tr>"
            )
        gravity = ", ".join(f"{g:.4g}" for g in self.gravity)
        accepted = "".join(
            f"<li>link {e.link}, {html.escape(e.check)}: {html.escape(e.reason)}</li>"
            for e in self.plausibility_exceptions
        )
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in self.notes)
        return (
            f"<p><b>ScrewRobot {html.escape(self.name)}</b>: {self.n_joints} joints, "
            f"gravity ({gravity}) m/s² in the space frame "
            f"({html.escape(_gravity_direction(self.gravity))}); screw axes [ω; v] in the space "
            "frame at home.</p><table><tr><th>i</th><th>name</th><th>type</th>"
            "<th>S_i = [ω; v]</th><th>limits</th><th>mass of link i (kg)</th></tr>"
            + "".join(rows)
            + "</table>"
            + (f"<p>Accepted idealisations:</p><ul>{accepted}</ul>" if accepted else "")
            + (f"<p>Notes:</p><ul>{notes}</ul>" if notes else "")
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScrewRobot):
            return NotImplemented
        return (
            self.name == other.name
            and self.joint_names == other.joint_names
            and self.joint_types == other.joint_types
            and self.joint_limits == other.joint_limits
            and self.plausibility_exceptions == other.plausibility_exceptions
            and self.friction == other.friction
            and all(
                np.array_equal(getattr(self, key), getattr(other, key))
                for key in (
                    "home_ee_pose",
                    "screw_axes_space",
                    "link_frames",
                    "spatial_inertias",
                    "gravity",
                )
            )
        )

    __hash__ = None  # type: ignore[assignment]


# --------------------------------------------------------------------------- validation


def _gravity_direction(gravity: np.ndarray) -> str:
    """Which way gravity points in the base frame, in words (for a robot's summary).

    Examples
    --------
    >>> _gravity_direction(np.array([0.0, -9.81, 0.0]))
    '9.81 m/s² along -y of the base frame {0}'
    >>> _gravity_direction(np.zeros(3))
    'none (g = 0)'
    """
    size = float(np.linalg.norm(gravity))
    if size == 0.0:
        return "none (g = 0)"
    unit = np.asarray(gravity, dtype=float) / size
    axis = int(np.argmax(np.abs(unit)))
    if abs(abs(unit[axis]) - 1.0) < 1e-12:
        direction = ("-" if unit[axis] < 0 else "+") + "xyz"[axis]
    else:
        direction = "(" + ", ".join(f"{x + 0.0:.3g}" for x in np.round(unit, 12)) + ")"
    return f"{size:.4g} m/s² along {direction} of the base frame {{0}}"


def _check_notes(notes: Sequence[str] | None) -> tuple[str, ...]:
    if notes is None:
        return ()
    if isinstance(notes, str) or not isinstance(notes, Sequence):
        raise TypeError(f"notes must be a sequence of str, got {type(notes).__name__}")
    for k, note in enumerate(notes):
        if not isinstance(note, str):
            raise TypeError(f"notes[{k}] must be a str, got {type(note).__name__}")
    return tuple(notes)


def _joint(names: Sequence[str] | None, i: int) -> str:
    return f"joint '{names[i]}'" if names is not None else f"joint {i + 1}"


def _check_screw_axes(screw_axes_space: Any) -> np.ndarray:
    screws = as_float_array(screw_axes_space, "screw_axes_space", (6, None))
    if screws.shape[1] == 0:
        raise ValueError("screw_axes_space must have at least one column (one joint), got none")
    too_many = too_many_joints(screws.shape[1], f"screw_axes_space has {screws.shape[1]} columns")
    if too_many is not None:
        raise ValueError(too_many)
    return screws


def _check_joint_names(joint_names: Sequence[str] | None, n: int) -> tuple[str, ...]:
    if joint_names is None:
        return tuple(f"joint{i + 1}" for i in range(n))
    if isinstance(joint_names, str):
        raise TypeError(f"joint_names must be a sequence of {n} str, got the single str")
    names = tuple(joint_names)
    if len(names) != n:
        raise ValueError(f"joint_names must have {n} entries (one per joint), got {len(names)}")
    for i, joint_name in enumerate(names):
        if not isinstance(joint_name, str):
            raise TypeError(
                f"joint_names[{i}] (joint {i + 1}) must be a str, "
                f"got {type(joint_name).__name__} {joint_name!r}"
            )
    normalised = tuple(
        as_name(joint_name, f"joint_names[{i}] (joint {i + 1})")
        for i, joint_name in enumerate(names)
    )
    repeat = repeated_name(normalised)
    if repeat is not None:
        first, i = repeat
        spelling = (
            ""
            if names[i] == names[first]
            else f" (as {names[first]!r}: the same name in Unicode normal form NFC)"
        )
        raise ValueError(
            f"joint_names[{i}] (joint {i + 1}): the name {names[i]!r} is already "
            f"used by joint {first + 1}{spelling}; joint names must be distinct"
        )
    return normalised


def _check_joint_types(
    joint_types: Sequence[str] | None, screws: np.ndarray, names: tuple[str, ...]
) -> tuple[str, ...]:
    n = screws.shape[1]
    kinds: list[str] = []
    for i in range(n):
        problem = screw_axis_problem(screws[:, i], i, names[i])
        if problem is not None:
            raise ValueError(f"screw_axes_space[:, {i}] ({_joint(names, i)})" + problem.sentence)
        kinds.append(str(screw_axis_kind(screws[:, i])[0]))
    if joint_types is None:
        return tuple(kinds)
    if isinstance(joint_types, str):
        raise TypeError(f"joint_types must be a sequence of {n} str, got the single str")
    types = tuple(joint_types)
    if len(types) != n:
        raise ValueError(f"joint_types must have {n} entries (one per joint), got {len(types)}")
    for i, (given, kind) in enumerate(zip(types, kinds, strict=True)):
        if not isinstance(given, str):
            raise TypeError(
                f"joint_types[{i}] ({_joint(names, i)}) must be 'revolute' or 'prismatic' (a str), "
                f"got {type(given).__name__} {given!r}"
            )
        if given not in JOINT_TYPES:
            raise ValueError(
                f"joint_types[{i}] ({_joint(names, i)}) must be 'revolute' or 'prismatic', "
                f"got {given!r}"
            )
        if given != kind:
            raise ValueError(
                f"joint_types[{i}] ({_joint(names, i)}) is {given!r}, but its screw axis "
                f"screw_axes_space[:, {i}] is {kind} "
                f"({'ω = 0' if kind == 'prismatic' else '‖ω‖ = 1'})"
            )
    return types


def _check_joint_limits(
    joint_limits: Sequence[tuple[float, float]] | None,
    types: tuple[str, ...],
    names: tuple[str, ...],
) -> tuple[tuple[float, float], ...]:
    n = len(types)
    if joint_limits is None:
        return tuple(
            DEFAULT_REVOLUTE_LIMITS if kind == "revolute" else DEFAULT_PRISMATIC_LIMITS
            for kind in types
        )
    if isinstance(joint_limits, Mapping):  # a dict would give its keys
        raise TypeError(
            f"joint_limits must be {n} pairs (lower, upper) of numbers, "
            f"got {type(joint_limits).__name__} {joint_limits!r}"
        )
    try:
        limits = as_float_array(joint_limits, "joint_limits", finite=False)  # ±inf allowed
    except ValueError as error:
        raise ValueError(
            f"joint_limits must be {n} pairs (lower, upper) of numbers, got {joint_limits!r}"
        ) from error
    if limits.shape != (n, 2):
        raise ValueError(
            f"joint_limits must have shape ({n}, 2): one (lower, upper) pair per joint, "
            f"got shape {limits.shape}"
        )
    result = []
    for i, (lower, upper) in enumerate(limits.tolist()):
        if math.isnan(lower) or math.isnan(upper):
            raise ValueError(f"joint_limits[{i}] ({_joint(names, i)}) contains NaN")
        if not lower < upper:
            raise ValueError(
                f"joint_limits[{i}] ({_joint(names, i)}): lower limit must be less than the "
                f"upper limit, got ({lower:g}, {upper:g})"
            )
        result.append((lower, upper))
    return tuple(result)


def _frame_label(i: int, n: int) -> str:
    if i == n:
        return f"M_{n},{n + 1}, from link {n} to the end-effector frame"
    return f"M_{i},{i + 1}, link {i + 1}"


def _length(sequence: Any, name: str, expected: str) -> int:
    """``len(sequence)``, or an error saying that ``name`` must be ``expected``.

    Text, dicts and sets have a length but hold no matrices (a dict would be
    indexed by its keys): ``TypeError``; so is a bare number, ``ValueError``
    (as it always was).
    """
    if isinstance(sequence, str | bytes | Mapping | AbstractSet):
        raise TypeError(f"{name} must be {expected}, got {type(sequence).__name__}")
    try:
        return len(sequence)
    except TypeError:
        raise ValueError(f"{name} must be {expected}, got {type(sequence).__name__}") from None


def check_link_frames(link_frames: Any, n: int) -> np.ndarray:
    """The n + 1 link frames M_{i-1,i} as an (n+1, 4, 4) array; errors name the frame."""
    count = _length(
        link_frames, "link_frames", f"a sequence of {n + 1} transforms M_01, ..., M_{n},{n + 1}"
    )
    if count != n + 1:
        raise ValueError(
            f"link_frames must hold n + 1 = {n + 1} transforms (M_01, ..., M_{n},{n + 1}, the "
            f"last to the end-effector frame) for {n} joints, got {count}"
        )
    frames = np.empty((n + 1, 4, 4))
    for i in range(n + 1):
        name = f"link_frames[{i}] ({_frame_label(i, n)})"
        frames[i] = _transform(link_frames[i], name, "link_frames", i)
    return frames


def check_spatial_inertias(
    spatial_inertias: Any, n: int, triangle_exempt: AbstractSet[int] | None = None
) -> np.ndarray:
    """The n spatial inertias G_i as an (n, 6, 6) array; errors name the link.

    With ``triangle_exempt`` (a set of link numbers 1..n, the accepted
    plausibility exceptions) the principal moments of every other link must
    satisfy the triangle inequality; None (the book's functions of
    :mod:`robolab.screw.dynamics.rnea`, which take bare arrays) checks the mass and
    positive semi-definiteness only.
    """
    count = _length(spatial_inertias, "spatial_inertias", f"a sequence of {n} 6×6 matrices")
    if count != n:
        raise ValueError(f"spatial_inertias must hold {n} matrices (one per link), got {count}")
    inertias = np.empty((n, 6, 6))
    for i in range(n):
        name = f"spatial_inertias[{i}] (link {i + 1})"
        G = as_float_array(spatial_inertias[i], name, (6, 6))
        triangle = triangle_exempt is not None and i + 1 not in triangle_exempt
        _check_spatial_inertia(G, name, link=i + 1, triangle=triangle)
        inertias[i] = G
    return inertias


def _check_spatial_inertia(G: np.ndarray, name: str, link: int = 0, triangle: bool = False) -> None:
    problem = spatial_inertia_problem(G, link - 1, triangle=triangle)
    if problem is not None:
        raise_problem(problem, lambda field, index: name)


def _transform(value: Any, name: str, field: str, index: int | None = None) -> np.ndarray:
    """``value`` as a 4×4 rigid-body transform, or an error naming it ``name``."""
    T = as_float_array(value, name, (4, 4))
    problem = transform_problem(T, field, index)
    if problem is not None:
        raise_problem(problem, lambda field, index: name)
    return T


def _check_home_pose(home: np.ndarray, frames: np.ndarray) -> None:
    product = np.eye(4)
    for frame in frames:
        product = product @ frame
    difference = float(np.abs(product - home).max())
    if difference > HOME_POSE_TOLERANCE * max(1.0, float(np.abs(home[:3, 3]).max())):
        raise ValueError(
            "home_ee_pose must equal the product M_01 M_12 ⋯ M_{n,n+1} of link_frames "
            f"(both describe the end-effector at home), but they differ by up to {difference:.3g}"
        )
