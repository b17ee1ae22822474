"""The symbolic Denavit–Hartenberg robot: kinematics and Lagrangian dynamics with SymPy.

:class:`DHRobot` has everything Moro's ``Robot`` has, with the same names and
meanings (frames and links numbered 1..n, {0} the base), in both DH
conventions, and fast enough for 6–7 joint arms:

* **One description.** The robot holds a :class:`robolab.dh.model.DHModel`
  (:attr:`DHRobot.model`), immutable; each setter checks its value and puts a new
  description in place, and the results cached with the old one go with it.
* **Kinematics by construction** (:mod:`robolab.dh.kinematics`). Rotations about
  parallel consecutive z axes are merged while the chain is multiplied out
  (``Rz(q2) Rz(q3) = Rz(q2 + q3)``), so the poses ``T_0i`` come out compact
  without any simplifier.
* **Dynamics from small pieces** (:mod:`robolab.dh.lagrangian`):
  ``M = Σ_i m_i J_vᵀJ_v + J_ωᵀ I_i J_ω`` with each link's Jacobian written in
  its own frame {i}, where it depends only on the joints between, each piece
  reduced by :func:`robolab.dh.simplify.simplify_trig` (Pythagoras and angle
  sums by hashed look-up; never one global ``trigsimp``). The n²(n+1)/2
  derivatives ∂M_ab/∂q_c are taken once and cached; every Christoffel symbol
  c_ijk, hence C (with Ṁ − 2C skew-symmetric), comes from them. G is the
  gradient of the potential energy.
* **Symbols that cannot go wrong.** Joint variables are functions of time
  ``q_i(t)`` in every result, so velocity terms are never lost; internally
  the work is done with plain real symbols and converted back at the end.

Numbers for simulation come from :meth:`DHRobot.numeric` (compiled functions
with common-subexpression elimination and a symbolic Newton–Euler for τ).

Every method of the robot is written in this class (no base classes): a kinematic or
dynamic one calls the function of :mod:`robolab.dh.kinematics` or :mod:`robolab.dh.lagrangian`
that computes it from the robot's description :attr:`DHRobot.model` (and checks the link
or frame numbers).

Examples
--------
The planar 2R arm of Spong, Hutchinson and Vidyasagar (section 7.3), with the
centre of mass of link i at distance l_ci from joint i:

>>> from robolab.symbols import q1, q2, l1, l2, lc1, lc2, m1, m2, g
>>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
>>> arm.cm_positions = [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)]
>>> arm.gravity = (0, -g, 0)
>>> arm.T[:2, 3]
Matrix([
[l_1*cos(q_1(t)) + l_2*cos(q_1(t) + q_2(t))],
[l_1*sin(q_1(t)) + l_2*sin(q_1(t) + q_2(t))]])
>>> arm.mass_matrix()[1, 1]
I_zz2 + l_c2**2*m_2
>>> arm.gravity_forces()[1]
g*l_c2*m_2*cos(q_1(t) + q_2(t))
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sympy as sp
from numpy.typing import ArrayLike

from ..screw.robot import ScrewRobot
from ..spatial.inertia import as_plausibility_exceptions
from . import kinematics, lagrangian
from .derivation import Derivation
from .lagrangian import EquationOfMotion
from .model import DHModel, refuse_joint_names
from .parameters import (
    DEFAULT_GRAVITY,
    check_centres_of_mass,
    check_gravity,
    check_inertia_tensors,
    check_joint_limits,
    check_masses,
    check_substituted_dynamics,
    default_joint_limits,
    placeholder_centres_of_mass,
    placeholder_inertia_tensors,
    placeholder_masses,
)
from .standard_modified import modified_model, standard_model
from .table import DHTable

if TYPE_CHECKING:  # numeric is loaded on first use (see numeric())
    from .numeric import NumericDHRobot

__all__ = ["DHRobot"]


class DHRobot:
    """A serial robot from a Denavit–Hartenberg table, with symbolic kinematics and dynamics.

    Parameters
    ----------
    *rows : tuple
        One row per joint, ``(a, alpha, d, theta[, joint_type])`` with
        ``joint_type`` ``"r"`` (revolute, the default) or ``"p"`` (prismatic).
        Standard convention: ``a_i, α_i, d_i, θ_i``; modified (Craig):
        ``a_{i-1}, α_{i-1}, d_i, θ_i``. Entries are numbers or SymPy
        expressions; the joint variable (``robolab.symbols.q1`` …, or a plain
        symbol, made a function of time with a
        :class:`robolab.dh.table.PlainSymbolWarning`) must be in θ (revolute) or
        d (prismatic), plus a constant, and nowhere else: a symbol has one
        meaning (``(l1, 0, 0, l1)`` is an error naming both places).
    convention : {"standard", "modified"}
        The DH convention of the rows (``docs/conventions.md``).
    tool : array_like (4, 4), optional
        A constant transform ``T_n,ee`` from frame {n} to the end-effector;
        identity by default. :attr:`T` and :attr:`J` refer to the end-effector.
    name : str, optional
        Shown in displays; the joint types (``"RRP"``) by default.

    Notes
    -----
    Frames and links are numbered as in the textbooks and Moro: {0} is the
    base, link i is moved by joint i and carries frame {i}. Centres of mass and
    inertia tensors of link i are given in frame {i} (inertia about the centre
    of mass, axes parallel to {i}). Geometric Jacobians are in the base frame
    with rows ``[v; ω]`` (Moro, Spong); the Modern Robotics ``[ω; v]`` twists
    are in :mod:`robolab.screw.robot`.

    Numbers keep their type: floats stay floats (Moro turns them into
    15-digit fractions), except that a float angle within 1e-12 of a multiple
    of π/2 (``np.pi / 2``) becomes exact, so numeric tables give clean matrices.
    Angles are radians: a numeric α or θ offset above a full turn (|value| > 2π,
    ``alpha=90``) gives a ``UserWarning`` naming the row and the field, since it
    is almost always in degrees (:mod:`robolab.dh.table`).

    The same robot in the other convention comes from :meth:`to_modified` /
    :meth:`to_standard`, its screw form from :meth:`to_screw`; check any of
    them against each other with :func:`robolab.compare_models`.

    Results are computed on first use and cached. When one takes longer than
    0.75 s (M, C, G of a 6–7 joint arm, the first call of a compiled
    function of :meth:`numeric`), a notebook shows a progress bar naming the
    link, joint or stage being worked on, and removes it at the end; a script
    in a terminal shows one line on stderr, erased at the end; test runs,
    nbval and pipes show nothing (:mod:`robolab.support.progress`).

    Parameters not given are **assumed** (masses ``m_i``, diagonal inertia
    tensors ``diag(I_xx_i, I_yy_i, I_zz_i)``, gravity ``(0, 0, -9.81)``, default
    joint limits) or **missing** (centres of mass), see :meth:`model_summary`.
    The placeholders are the symbols of :mod:`robolab.symbols`.

    **Moro's names.** Every name of Moro's ``Robot`` is here with its meaning
    (``T``, ``Ts``, ``T_i0``, ``J``, ``J_cm_i``, ``r_cm``, ``christoffel_symbols``,
    ``dynamic_model`` ...; ``tests/dh/test_robot.py`` checks the numbers against Moro's).
    Four of them name what robolab (like its screw side) calls otherwise; both names
    work, without a warning, and give the same result:

    * :attr:`n_joints`, Moro's :attr:`dof`: the number of joints n;
    * :meth:`mass_matrix`, Moro's :meth:`inertia_matrix`: M(q);
    * :meth:`gravity_forces`, Moro's :meth:`gravity_vector`: G(q);
    * :meth:`dynamic_model`, also Moro's :meth:`dynamic_model_matrix_form`: M q̈ + C q̇ + G = τ.

    :attr:`joint_limits` are the limits of the joints; Moro's :attr:`qis_range`, the
    ranges a workspace plot samples, are the joint limits unless set apart.

    Examples
    --------
    >>> import sympy as sp
    >>> from robolab.symbols import q1, q2, q3, l1, l2
    >>> scara = DHRobot((l1, 0, 0, q1), (l2, sp.pi, 0, q2), (0, 0, q3, 0, "p"), name="SCARA")
    >>> scara
    DHRobot('SCARA', joints='RRP', convention='standard')
    >>> scara.joint_types
    ['r', 'r', 'p']
    >>> scara.T[0, 3], scara.T[2, 3]
    (l_1*cos(q_1(t)) + l_2*cos(q_1(t) + q_2(t)), -q_3(t))
    """

    def __init__(
        self,
        *rows: Sequence[Any],
        convention: str = "standard",
        tool: Any = None,
        name: str | None = None,
    ) -> None:
        self._model = DHModel.new(rows, convention, tool, name)

    @classmethod
    def from_model(cls, model: DHModel) -> DHRobot:
        """Return a robot whose description is ``model`` (a :class:`robolab.dh.model.DHModel`).

        The way the conversions build their results: the description is checked
        already, so nothing is checked again.

        Examples
        --------
        >>> from robolab.symbols import q1, l1
        >>> arm = DHRobot((l1, 0, 0, q1), name="pendulum")
        >>> twin = DHRobot.from_model(arm.model)
        >>> twin.model is arm.model, twin.T == arm.T
        (True, True)
        """
        if not isinstance(model, DHModel):
            raise TypeError(f"model: expected a DHModel, got {type(model).__name__}")
        robot = cls.__new__(cls)
        robot._model = model
        return robot

    @property
    def model(self) -> DHModel:
        """The robot's description (:class:`robolab.dh.model.DHModel`), immutable.

        Each setter puts a new description in place of this one, so a description
        read before a setter still holds the old values:

        >>> from robolab.symbols import q1, l1
        >>> arm = DHRobot((l1, 0, 0, q1))
        >>> before = arm.model
        >>> arm.masses = [2]
        >>> before.inertial.masses, arm.model.inertial.masses
        ((m_1,), (2,))
        """
        return self._model

    def _replace(self, given: str | None = None, is_given: bool = False, **changes: Any) -> None:
        """Put a new description in place: ``changes`` of the model, ``given`` flagged or not."""
        model = self._model
        if given is not None:
            changes["given"] = model.given | {given} if is_given else model.given - {given}
        self._model = dataclasses.replace(model, **changes)

    # ----------------------------------------------------------------------------------
    # structure
    # ----------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The robot's name, used in displays."""
        return self._model.name

    @property
    def convention(self) -> str:
        """``"standard"`` or ``"modified"``: the DH convention of the table."""
        return self._model.chain.convention

    @property
    def n_joints(self) -> int:
        """The number of joints n (Moro's name: :attr:`dof`).

        >>> from robolab.symbols import q1, q2
        >>> DHRobot((1, 0, 0, q1), (1, 0, 0, q2)).n_joints
        2
        """
        return self._model.chain.dof

    @property
    def tool(self) -> sp.Matrix:
        """The constant end-effector transform ``T_n,ee`` (identity unless given)."""
        return sp.Matrix(self._model.chain.tool)

    @property
    def qs(self) -> list[sp.Expr]:
        """The joint variables ``[q_1(t), …, q_n(t)]``."""
        return [row.variable for row in self._model.chain.rows]

    def q(self, i: int) -> sp.Expr:
        """Return the variable ``q_i(t)`` of joint ``i`` (1..n)."""
        chain = self._model.chain
        return chain.rows[chain.check_link(i, "joint") - 1].variable

    def q_dot(self, i: int) -> sp.Expr:
        """Return the velocity ``dq_i/dt`` of joint ``i`` (1..n)."""
        return self.q(i).diff(self._model.chain.time)

    def joint_type(self, i: int) -> str:
        """Return ``"r"`` (revolute) or ``"p"`` (prismatic) for joint ``i`` (1..n)."""
        chain = self._model.chain
        return chain.rows[chain.check_link(i, "joint") - 1].joint_type

    @property
    def joint_types(self) -> list[str]:
        """The joint types, ``"r"`` or ``"p"``, joint 1 first."""
        return list(self._model.chain.joint_types)

    @property
    def dh_parameters(self) -> list[tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]]:
        """The rows ``(a, alpha, d, theta)`` as checked (floats near kπ/2 made exact)."""
        return [row.entries for row in self._model.chain.rows]

    @property
    def dh_table(self) -> DHTable:
        """The DH table; displays itself with its convention named."""
        chain = self._model.chain
        return DHTable(list(chain.rows), chain.convention, chain.tool)

    @property
    def joint_limits(self) -> list[tuple[float, float]]:
        """``(lower, upper)`` per joint; default (-π, π) revolute, (0, 1000) prismatic."""
        return list(self._model.joint_limits)

    @joint_limits.setter
    def joint_limits(self, limits: ArrayLike) -> None:
        # limits change no symbolic result and no compiled function: the chain and the
        # dynamic parameters stay, and with them every cache
        if limits is None:
            limits, given = default_joint_limits(self.joint_types), False
        else:
            limits, given = check_joint_limits(limits, self.joint_types), True
        self._replace("joint_limits", given, joint_limits=tuple(limits))

    @property
    def qis_range(self) -> list[tuple[float, float]]:
        """Ranges of the joint variables for sampling (Moro's name); the joint limits unless set.

        A workspace plot samples the joints in these ranges; set them to sample a part of
        the joints' travel without changing the limits.
        """
        ranges = self._model.qis_range
        return list(ranges) if ranges is not None else self.joint_limits

    @qis_range.setter
    def qis_range(self, ranges: Any) -> None:
        if ranges is not None:
            ranges = tuple(check_joint_limits(ranges, self.joint_types, "qis_range"))
        self._replace(qis_range=ranges)

    # ----------------------------------------------------------------------------------
    # dynamic parameters
    # ----------------------------------------------------------------------------------

    @property
    def masses(self) -> list[sp.Expr]:
        """Link masses ``[m_1, …, m_n]``; symbolic placeholders unless set."""
        return list(self._model.inertial.masses)

    @masses.setter
    def masses(self, masses: ArrayLike) -> None:
        if masses is None:
            checked, given = placeholder_masses(self.n_joints), False
        else:
            checked, given = check_masses(masses, self.n_joints), True
            refuse_joint_names(self._model.chain, checked, "masses")
        self._replace_inertial("masses", given, masses=tuple(checked))

    def _replace_inertial(
        self, given: str, is_given: bool, assumed_in: str | None = None, **changes: Any
    ) -> None:
        """New dynamic parameters (a new DHInertial: empty memo); the field assumed_in cleared."""
        inertial = dataclasses.replace(self._model.inertial, **changes)
        cleared = {assumed_in: None} if assumed_in is not None else {}
        self._replace(given, is_given, inertial=inertial, **cleared)

    def m(self, i: int) -> sp.Expr:
        """Return the mass of link ``i`` (1..n)."""
        return self._model.inertial.masses[self._model.chain.check_link(i) - 1]

    @property
    def cm_positions(self) -> list[sp.Matrix]:
        """Centre of mass of each link in its own frame {i}, as 3×1 matrices."""
        return [sp.Matrix(c) for c in self._model.inertial.centres_of_mass()]

    @property
    def has_centres_of_mass(self) -> bool:
        """False while the centres of mass are missing (then :attr:`cm_positions` raises)."""
        return self._model.inertial.centres is not None

    @cm_positions.setter
    def cm_positions(self, positions: ArrayLike) -> None:
        if positions is None:
            checked, given = placeholder_centres_of_mass(self.n_joints), False
        else:
            checked, given = check_centres_of_mass(positions, self.n_joints), True
            refuse_joint_names(self._model.chain, checked, "cm_positions")
        self._replace_inertial("cm_positions", given, "centres_assumed_in", centres=tuple(checked))

    @property
    def inertia_tensors(self) -> list[sp.Matrix]:
        """Inertia tensor of each link about its centre of mass, axes parallel to {i}."""
        return [sp.Matrix(tensor) for tensor in self._model.inertial.inertias]

    @inertia_tensors.setter
    def inertia_tensors(self, tensors: ArrayLike) -> None:
        if tensors is None:
            checked, given = placeholder_inertia_tensors(self.n_joints), False
        else:
            exempt = self._model.triangle_exempt()
            checked, given = check_inertia_tensors(tensors, self.n_joints, exempt), True
            refuse_joint_names(self._model.chain, checked, "inertia_tensors")
        self._replace_inertial(
            "inertia_tensors", given, "inertias_assumed_in", inertias=tuple(checked)
        )

    @property
    def plausibility_exceptions(self) -> tuple[Any, ...]:
        """Published idealisations this robot accepts (``PlausibilityException``).

        Each is a :class:`robolab.spatial.inertia.PlausibilityException`. A
        numeric inertia tensor whose principal moments break the triangle
        inequality (no rigid body has them) is refused unless its link is
        named here with ``"inertia_triangle"``; set this before
        :attr:`inertia_tensors`. Entries are ``PlausibilityException`` or
        tuples ``(link, check, reason)``; :func:`robolab.check_plausibility`
        names them, :meth:`to_screw` and the conversions keep them. The
        bundled models bring their own (``load_robot("puma560", form="dh")``).

        Examples
        --------
        >>> import sympy as sp
        >>> from robolab.symbols import q1
        >>> arm = DHRobot((0, 0, 0, q1))
        >>> arm.inertia_tensors = [sp.diag(0, 0, 0.35)]
        Traceback (most recent call last):
        ...
        ValueError: link 1, inertia tensor: expected a rigid body's inertia ...
        >>> arm.plausibility_exceptions = [(1, "inertia_triangle", "only I_zz is published")]
        >>> arm.inertia_tensors = [sp.diag(0, 0, 0.35)]
        >>> arm.I_cm(1)[2, 2]
        0.350000000000000
        """
        return self._model.plausibility_exceptions

    @plausibility_exceptions.setter
    def plausibility_exceptions(self, exceptions: object) -> None:
        checked = as_plausibility_exceptions(exceptions, self.n_joints)
        exempt = {e.link for e in checked if e.check == "inertia_triangle"}
        if "inertia_tensors" in self._model.given:  # what is set must pass without the old ones
            check_inertia_tensors(self._model.inertial.inertias, self.n_joints, exempt)
        self._replace(plausibility_exceptions=checked)

    @property
    def gravity(self) -> sp.Matrix:
        """The gravity vector in the base frame {0}; ``(0, 0, -9.81)`` unless set."""
        return sp.Matrix(self._model.inertial.gravity)

    @gravity.setter
    def gravity(self, gravity: ArrayLike) -> None:
        if gravity is None:
            checked, given = check_gravity(DEFAULT_GRAVITY), False
        else:
            checked, given = check_gravity(gravity), True
            refuse_joint_names(self._model.chain, [checked], "gravity")
        self._replace_inertial("gravity", given, gravity=checked)

    def I_cm(self, i: int) -> sp.Matrix:
        """Return the inertia tensor of link ``i`` about its centre of mass, axes of {i}."""
        return sp.Matrix(self._model.inertial.inertias[self._model.chain.check_link(i) - 1])

    def I_cm0(self, i: int) -> sp.Matrix:
        """Return the inertia tensor of link ``i`` about its centre of mass, axes of {0}.

        ``R_0i I_i R_0iᵀ``, which depends on the configuration.
        """
        return lagrangian.inertia_in_base_frame(self._model, i)

    # ----------------------------------------------------------------------------------
    # kinematics: robolab.dh.kinematics
    # ----------------------------------------------------------------------------------

    @property
    def Ts(self) -> list[sp.Matrix]:
        """The link transforms ``A_i = T_{i-1,i}``, i = 1..n."""
        return kinematics.link_transforms(self._model)

    def T_i0(self, i: int) -> sp.Matrix:
        """Return ``T_0i``, the pose of frame {i} in the base frame (Moro's T_i^0), i = 0..n."""
        return kinematics.frame_pose(self._model, i)

    def T_ij(self, i: int, j: int) -> sp.Matrix:
        """Return the pose of frame {i} in frame {j} (Moro's T_i^j, our ``T_ji``), 0..n."""
        return kinematics.relative_frame_pose(self._model, i, j)

    def R_i0(self, i: int) -> sp.Matrix:
        """Return ``R_0i``, the orientation of frame {i} in the base frame, i = 0..n."""
        return kinematics.frame_rotation(self._model, i)

    def r_o(self, i: int) -> sp.Matrix:
        """Return the position of the origin of frame {i} in the base frame, i = 0..n."""
        return kinematics.frame_origin(self._model, i)

    def z(self, i: int) -> sp.Matrix:
        """Return the direction of the axis z_i of frame {i} in the base frame, i = 0..n."""
        return kinematics.frame_z_axis(self._model, i)

    @property
    def T(self) -> sp.Matrix:
        """The end-effector pose ``T_0n · tool`` in the base frame (Moro's T when no tool).

        Rotations about parallel z axes are merged as the chain is multiplied,
        so no simplifier is needed:

        >>> from robolab.symbols import q1, q2, l1, l2
        >>> DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2)).T[:2, :2]
        Matrix([
        [cos(q_1(t) + q_2(t)), -sin(q_1(t) + q_2(t))],
        [sin(q_1(t) + q_2(t)),  cos(q_1(t) + q_2(t))]])
        """
        return kinematics.end_effector_pose(self._model)

    def J_point(self, point: ArrayLike, i: int) -> sp.Matrix:
        """Return the 6×n geometric Jacobian ``[v; ω]`` of a point fixed in link ``i``.

        Parameters
        ----------
        point : array_like (3,)
            The point's coordinates in frame {i}.
        i : int
            The link (1..n) that carries the point; joints after i do not move it.

        Returns
        -------
        sympy.Matrix (6, n)
            Rows ``[v; ω]`` in the base frame: ``v = J[:3] q̇`` is the point's
            velocity, ``ω = J[3:] q̇`` the angular velocity of link i. Column j
            is ``[z × (p − o); z]`` for a revolute joint (z, o its axis and a
            point of it: z_{j-1}, o_{j-1} standard, z_j, o_j modified) and
            ``[z; 0]`` for a prismatic joint.

        Examples
        --------
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
        >>> arm.J_point((0, 0, 0), 1)[:, 0].T
        Matrix([[-l_1*sin(q_1(t)), l_1*cos(q_1(t)), 0, 0, 0, 1]])
        """
        return kinematics.point_jacobian(self._model, point, i)

    @property
    def J(self) -> sp.Matrix:
        """The 6×n geometric Jacobian ``[v; ω]`` of the end-effector origin, base frame.

        Moro's and Spong's J (see :meth:`J_point`); with a tool, the origin of
        the tool frame. The Modern Robotics ``[ω; v]`` Jacobians are
        ``robolab.jacobian_space`` / ``jacobian_body`` of the screw model.

        >>> from robolab.symbols import q1, q2, l1, l2
        >>> DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2)).J[:, 1].T
        Matrix([[-l_2*sin(q_1(t) + q_2(t)), l_2*cos(q_1(t) + q_2(t)), 0, 0, 0, 1]])
        """
        return kinematics.end_effector_jacobian(self._model)

    def J_cm_i(self, i: int) -> sp.Matrix:
        """Return the 6×n Jacobian ``[v; ω]`` of the centre of mass of link ``i``."""
        return kinematics.centre_of_mass_jacobian(self._model, i)

    def Jv_cm_i(self, i: int) -> sp.Matrix:
        """Return the 3×n linear-velocity Jacobian of the centre of mass of link ``i``."""
        return self.J_cm_i(i)[:3, :]

    def Jw_cm_i(self, i: int) -> sp.Matrix:
        """Return the 3×n angular-velocity Jacobian of link ``i``."""
        return self.J_cm_i(i)[3:, :]

    def w_rel0(self, i: int) -> sp.Matrix:
        """Return ``q̇_i z`` along joint i's axis (zero if prismatic): ω of link i w.r.t. i-1."""
        return kinematics.joint_angular_velocity(self._model, i)

    def w(self, i: int) -> sp.Matrix:
        """Return the angular velocity of link ``i`` in the base frame, ``Σ_{k≤i} ω_{k-1,k}``."""
        return kinematics.link_angular_velocity(self._model, i)

    def r_cm(self, i: int) -> sp.Matrix:
        """Return the position of the centre of mass of link ``i`` in the base frame.

        ``r_ci = R_0i c_i + p_0i``, each coordinate collected and reduced (like
        terms added, Pythagoras and angle sums), so a centre of mass given as
        ``(l_c1 - l_1, 0, 0)`` comes out as ``l_c1 cos q_1``:

        >>> from robolab.symbols import q1, l1, lc1
        >>> arm = DHRobot((l1, 0, 0, q1))
        >>> arm.cm_positions = [(lc1 - l1, 0, 0)]
        >>> arm.r_cm(1).T
        Matrix([[l_c1*cos(q_1(t)), l_c1*sin(q_1(t)), 0]])
        """
        return lagrangian.centre_of_mass_position(self._model, i)

    def v_cm(self, i: int) -> sp.Matrix:
        """Return the velocity of the centre of mass of link ``i`` in the base frame."""
        return kinematics.centre_of_mass_velocity(self._model, i)

    # ----------------------------------------------------------------------------------
    # dynamics: robolab.dh.lagrangian
    # ----------------------------------------------------------------------------------

    def link_kinetic_energy(self, i: int) -> sp.Expr:
        """Return ``K_i = ½ m_i v_ciᵀ v_ci + ½ ω_iᵀ R_0i I_i R_0iᵀ ω_i`` (a scalar)."""
        return lagrangian.link_kinetic_energy(self._model, i)

    def kinetic_energy(self) -> sp.Expr:
        """Return the total kinetic energy ``K = Σ K_i = ½ q̇ᵀ M(q) q̇``."""
        return lagrangian.kinetic_energy(self._model)

    def link_potential_energy(self, i: int) -> sp.Expr:
        """Return ``P_i = -m_i gᵀ r_ci`` (gravity g in the base frame)."""
        return lagrangian.link_potential_energy(self._model, i)

    def potential_energy(self) -> sp.Expr:
        """Return the total potential energy ``P = Σ P_i``."""
        return lagrangian.potential_energy(self._model)

    def lagrangian(self) -> sp.Expr:
        """Return the Lagrangian ``L = K - P``."""
        return self.kinetic_energy() - self.potential_energy()

    def mass_matrix(self) -> sp.Matrix:
        """Return the n×n mass matrix M(q) (Moro's name: :meth:`inertia_matrix`).

        ``M = Σ_i m_i J_v,iᵀ J_v,i + J_ω,iᵀ R_0i I_i R_0iᵀ J_ω,i``, each link's share
        computed in its own frame {i} and simplified before the sum.

        Examples
        --------
        A pendulum of length l with its mass at the tip, ``M = m l² + I_zz``:

        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.mass_matrix()
        Matrix([[I_zz1 + l_1**2*m_1]])
        """
        return lagrangian.mass_matrix(self._model)

    def christoffel_symbols(self, i: int, j: int, k: int, M: Any = None) -> sp.Expr:
        """Return the Christoffel symbol of the first kind c_ijk (indices 1..n).

        ``c_ijk = ½ (∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i)``, from the cached
        derivatives of the robot's M; pass ``M`` to use another inertia matrix.
        The first index is the equation (row of C), as in Moro; Spong writes
        the same symbol c_jki.

        Examples
        --------
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
        >>> arm.cm_positions = [(0, 0, 0), (0, 0, 0)]
        >>> arm.christoffel_symbols(1, 1, 2)
        -l_1*l_2*m_2*sin(q_2(t))
        """
        return lagrangian.christoffel_symbol(self._model, i, j, k, M)

    def coriolis_matrix(self) -> sp.Matrix:
        """Return C(q, q̇) with ``C_ij = Σ_k c_ijk q̇_k``; Ṁ − 2C is skew-symmetric.

        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
        >>> arm.cm_positions = [(0, 0, 0), (0, 0, 0)]
        >>> arm.coriolis_matrix()[1, 0]
        l_1*l_2*m_2*sin(q_2(t))*Derivative(q_1(t), t)
        """
        return lagrangian.coriolis_matrix(self._model)

    def gravity_forces(self) -> sp.Matrix:
        """Return the gravity torques ``G(q) = ∂P/∂q`` (n×1, Moro's name: :meth:`gravity_vector`).

        P is the potential energy.

        >>> from robolab.symbols import q1, l1, g
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.gravity = (0, -g, 0)
        >>> pendulum.gravity_forces()
        Matrix([[g*l_1*m_1*cos(q_1(t))]])
        """
        return lagrangian.gravity_forces(self._model)

    def dynamic_model(self) -> EquationOfMotion:
        """Return the unevaluated equation ``M(q) q̈ + C(q, q̇) q̇ + G(q) = τ``.

        The left side is a matrix expression (``.lhs.doit()`` evaluates it);
        the right side holds the torque symbols ``tau_i`` of :mod:`robolab.symbols`.
        It is a SymPy ``Eq`` (an :class:`robolab.dh.lagrangian.EquationOfMotion`) that
        prints its three terms in the textbook order M q̈, C q̇, G, in LaTeX as in text.

        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.dynamic_model().rhs
        Matrix([[tau_1]])
        """
        return lagrangian.equation_of_motion(self._model)

    def euler_lagrange_equations(self) -> list[sp.Eq]:
        """Return ``d/dt(∂L/∂q̇_i) − ∂L/∂q_i = τ_i``, one equation per joint.

        Derived from the Lagrangian itself (chain rule for d/dt), so they can be
        compared with the matrix form ``M q̈ + C q̇ + G``.
        """
        return lagrangian.euler_lagrange_equations(self._model)

    # ----------------------------------------------------------------------------------
    # Moro's names of four things robolab names otherwise (listed in the class docstring)
    # ----------------------------------------------------------------------------------

    @property
    def dof(self) -> int:
        """The number of joints n, degrees of freedom: Moro's name of :attr:`n_joints`.

        >>> from robolab.symbols import q1
        >>> DHRobot((1, 0, 0, q1)).dof
        1
        """
        return self.n_joints

    def inertia_matrix(self) -> sp.Matrix:
        """Return the inertia matrix M(q): Moro's name of :meth:`mass_matrix`, the same matrix.

        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.inertia_matrix() == pendulum.mass_matrix()
        True
        """
        return self.mass_matrix()

    def gravity_vector(self) -> sp.Matrix:
        """Return the gravity vector G(q): Moro's name of :meth:`gravity_forces`, the same vector.

        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.gravity_vector() == pendulum.gravity_forces()
        True
        """
        return self.gravity_forces()

    def dynamic_model_matrix_form(self) -> EquationOfMotion:
        r"""Return the matrix equation of motion: Moro's second name of :meth:`dynamic_model`.

        >>> from robolab import to_latex
        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.gravity = (0, -9.81, 0)
        >>> text = to_latex(pendulum.dynamic_model_matrix_form())
        >>> for line in text.split(r" \\ "):  # one term per line
        ...     print(line[:50])
        \begin{aligned} & \left[\begin{matrix}I_{zz1} + l_
        &+ \left[\begin{matrix}0\end{matrix}\right] \left[
        &+ \left[\begin{matrix}9.81 l_{1} m_{1} \cos{\left
        >>> M_term, G_term = text.index("I_{zz1}"), text.index(r"9.81 l_{1} m_{1}")
        >>> M_term < G_term  # SymPy alone would print G first
        True
        """
        return self.dynamic_model()

    # ----------------------------------------------------------------------------------
    # numbers, screw form, derivations
    # ----------------------------------------------------------------------------------

    def numeric(self, values: Mapping[Any, Any] | None = None) -> NumericDHRobot:
        """Return compiled numeric functions of this robot (built once and cached).

        Parameters
        ----------
        values : mapping, optional
            Numbers for parameters that are still symbolic, keyed by symbol or
            by name (``{l1: 0.5, "m_1": 2.0}``).

        Returns
        -------
        robolab.dh.numeric.NumericDHRobot
            With ``forward_kinematics(q)``, ``frames(q)``, ``jacobian(q)``,
            ``inertia_matrix(q)``, ``coriolis_matrix(q, qd)``,
            ``gravity_vector(q)``, ``inverse_dynamics(q, qd, qdd)``; each takes
            ``(n,)`` arrays or batches ``(B, n)``. Kinematic functions need a
            numeric table only; dynamic ones name any parameter still symbolic.

        Examples
        --------
        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> fast = pendulum.numeric({"l_1": 0.5, "m_1": 2.0, "I_xx1": 0, "I_yy1": 0, "I_zz1": 0})
        >>> fast.inverse_dynamics([0.0], [0.0], [1.0])  # m l² q̈
        array([0.5])
        """
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .numeric import NumericDHRobot, normalise_values

        model = self._model
        substitutions = normalise_values(model, values)
        # with the dynamic parameters like M, C, G (a setter: an empty memo); per robot (setters)
        key = ("numeric", model.chain, self, frozenset(substitutions.items()))
        found = model.inertial.memo.get(key)
        if found is None:
            # masses and inertias that the values make numeric: the setters' physical checks
            inertial = model.inertial
            check_substituted_dynamics(
                inertial.masses, inertial.inertias, substitutions, model.triangle_exempt()
            )
            found = model.inertial.memo[key] = NumericDHRobot(self, substitutions)
        return found

    def to_screw(
        self, values: Mapping[Any, Any] | None = None, kinematics_only: bool = False
    ) -> ScrewRobot:
        """Return the screw (product-of-exponentials) model of this robot, a ``ScrewRobot``.

        Home pose, space screw axes ``[ω; v]``, centre-of-mass link frames
        and spatial inertias at q = 0 (:mod:`robolab.dh.to_screw`). Both models
        give the same forward kinematics and dynamics (tested; check any pair
        with :func:`robolab.compare_models`).

        Parameters
        ----------
        values : mapping, optional
            Numbers for parameters that are still symbolic, keyed by symbol or
            by name (as in :meth:`numeric`).
        kinematics_only : bool
            False (default): every parameter must be numeric (or in
            ``values``). True: only the DH table and the tool must be; the
            result has the right home pose and screw axes, zero spatial
            inertias and link frames at the DH frames {i}, and gravity as
            given (or (0, 0, -9.81) if symbolic). Its kinematics are exact;
            its mass matrix is zero, so forward dynamics refuses it (singular
            M), as the Clarifications in the product notes allow.

        Examples
        --------
        >>> from robolab.symbols import q1, q2
        >>> arm = DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2), name="2R")
        >>> arm.masses, arm.cm_positions = [1.0, 1.0], [(0, 0, 0), (0, 0, 0)]
        >>> arm.inertia_tensors = [[[0] * 3] * 3] * 2
        >>> screw = arm.to_screw()
        >>> screw.screw_axes_space[:, 1]
        array([ 0.,  0.,  1.,  0., -1.,  0.])
        >>> screw.home_ee_pose[:3, 3]
        array([1.5, 0. , 0. ])

        Without dynamic parameters, the kinematic model only:

        >>> kinematic = DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2)).to_screw(kinematics_only=True)
        >>> kinematic.home_ee_pose[0, 3], kinematic.spatial_inertias.max()
        (np.float64(1.5), np.float64(0.0))
        """
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .to_screw import screw_parameters

        parameters = screw_parameters(self, values, kinematics_only)
        return ScrewRobot(**parameters, plausibility_exceptions=self.plausibility_exceptions)

    def to_modified(self) -> DHRobot:
        """Return the same robot as a modified-DH (Craig) table, dynamics re-expressed exactly.

        The columns a, α move down one row (row 1 gets ``a_0 = α_0 = 0``),
        ``Tx(a_n) Rx(α_n)`` joins the tool, and each centre of mass and inertia
        tensor is re-expressed in the new frame {i}: ``c → Rx(α_i) c + (a_i, 0, 0)``,
        ``I → Rx(α_i) I Rx(α_i)ᵀ`` (:mod:`robolab.dh.standard_modified`). Symbols stay
        symbols. A modified robot gives an independent copy of itself.

        The bundled ``puma560`` file's modified table (Craig's frames, derived by
        the same rules) is exactly ``load_robot("puma560", form="dh").to_modified()``:
        rows, tool, centres of mass and inertias (tested).

        Examples
        --------
        >>> import sympy as sp
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((0, sp.pi / 2, l1, q1), (l2, 0, 0, q2), name="RR")
        >>> arm.cm_positions = [(0, 0, 0), (-l2 / 2, 0, 0)]
        >>> craig = arm.to_modified()
        >>> print(craig.dh_table)
        modified DH (Craig): T_{i-1,i} = Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)
        i | a_{i-1} | α_{i-1} | d_i | θ_i | joint
        1 | 0       | 0       | l_1 | q_1 | revolute
        2 | 0       | pi/2    | 0   | q_2 | revolute
        tool T_n,ee = [[1, 0, 0, l_2], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
        >>> craig.cm_positions[1].T  # the middle of link 2, now measured from joint 2
        Matrix([[l_2/2, 0, 0]])
        """
        return DHRobot.from_model(modified_model(self._model))

    def to_standard(self, last_link: Sequence[Any] | None = None) -> DHRobot:
        """Return the same robot as a standard-DH table, dynamics re-expressed exactly.

        The inverse of :meth:`to_modified`: a, α move up one row. The standard
        table needs ``a_n, α_n``, which a modified table does not hold: from
        ``last_link`` if given, else remembered by a robot made with
        :meth:`to_modified` (an exact round trip), else read from a tool that
        is exactly ``Tx(a) Rx(α)``, else 0
        (:func:`robolab.dh.standard_modified.modified_to_standard`).
        A modified table whose first row has ``a_0 ≠ 0`` or ``α_0 ≠ 0`` has no
        standard form with the same base frame: ``ValueError``.

        Examples
        --------
        >>> from robolab import transl
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> craig = DHRobot((0, 0, 0, q1), (l1, 0, 0, q2), convention="modified",
        ...                 tool=transl(l2, 0, 0))
        >>> craig.to_standard().dh_parameters
        [(l_1, 0, 0, q_1(t)), (l_2, 0, 0, q_2(t))]
        """
        return DHRobot.from_model(standard_model(self._model, last_link))

    def forward_kinematics_derivation(self) -> Derivation:
        """Return the forward kinematics step by step (a :class:`robolab.Derivation`)."""
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .worked_derivations import forward_kinematics_derivation

        return forward_kinematics_derivation(self)

    def lagrangian_derivation(self) -> Derivation:
        """Return the Lagrangian dynamics step by step (a :class:`robolab.Derivation`)."""
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .worked_derivations import lagrangian_derivation

        return lagrangian_derivation(self)

    # ----------------------------------------------------------------------------------
    # summary and display
    # ----------------------------------------------------------------------------------

    def symbolic_parameters(self, dynamics: bool = True) -> dict[sp.Symbol, list[str]]:
        """Return every symbol other than the joint variables, with where it appears.

        Examples
        --------
        >>> from robolab.symbols import q1, l1
        >>> DHRobot((l1, 0, 0, q1)).symbolic_parameters(dynamics=False)
        {l_1: ['row 1, a']}
        """
        return self._model.symbolic_parameters(dynamics)

    def model_summary(self) -> str:
        """Return what was given, what is assumed and what is missing, one line per item.

        Examples
        --------
        >>> from robolab.symbols import q1, l1
        >>> print(DHRobot((l1, 0, 0, q1), name="pendulum").model_summary())
        DHRobot 'pendulum': 1 joint (R), standard DH (Spong, Corke, Moro)
          DH table         : given; symbolic: l_1
          tool             : none (end-effector = frame {1})
          joint limits     : assumed (defaults: (-π, π) revolute, (0, 1000) prismatic)
          masses           : assumed (symbolic m_1)
          centres of mass  : MISSING (set robot.cm_positions)
          inertia tensors  : assumed (diagonal I_xx_i, I_yy_i, I_zz_i: zero products of inertia)
          gravity          : assumed ((0, 0, -9.81) m/s² in {0})
        """
        return self._model.summary()

    def __repr__(self) -> str:
        joints = "".join(self.joint_types).upper()
        return f"DHRobot({self.name!r}, joints={joints!r}, convention={self.convention!r})"

    def _repr_html_(self) -> str:
        title = (
            f"<p><b>DHRobot {html.escape(repr(self.name))}</b>: {self.n_joints} joints "
            f"({''.join(self.joint_types).upper()})</p>"
        )
        return f"<div>{title}{self.dh_table._repr_html_()}</div>"

    def _repr_latex_(self) -> str:
        name = self.name.replace("_", r"\_").replace("{", "").replace("}", "")
        return rf"$$\text{{DHRobot {name}}}\quad {self.dh_table._latex_body()}$$"
