"""The book's algorithms taking a :class:`~robolab.ScrewRobot` first (as ModernRoboticsBook.jl).

Each function supplies the robot's home pose, screw axes, link frames and
spatial inertias to the chapter algorithm of the same name, and defaults
``gravity`` to ``robot.gravity`` and the tip wrench to zero::

    inverse_dynamics_rnea(robot, q, qd, qdd)            # τ
    mass_matrix_crba(robot, q)                          # M(θ)
    forward_dynamics_crba(robot, q, qd, tau)            # θ̈

They are the fast way to call the algorithms: the constants derived from the
robot (exponential coefficients, inertias at home) are computed once and
cached on the immutable robot, and joint arrays are checked cheaply. Joint
positions of shape (n,) give one result; a batch of shape (..., n) gives a
batch of results (for forward and inverse kinematics and dynamics, Jacobians
and mass matrices).

The array forms of the book's library (arrays passed explicitly, the book's
argument order) are in the chapter modules: :mod:`robolab.screw.kinematics`
(chapter 4), :mod:`robolab.screw.velocity_kinematics` (5),
:mod:`robolab.screw.inverse_kinematics` (6), :mod:`robolab.screw.dynamics`,
:mod:`robolab.screw.forward_dynamics` and :mod:`robolab.screw.simulation` (8),
:mod:`robolab.screw.trajectory_generation` (9) and :mod:`robolab.screw.robot_control` (11).

Conventions: twists and Jacobian rows [ω; v], wrenches [m; f]; the tip
wrench is the wrench the end-effector applies to the environment, written in
the end-effector frame; gravity is a 3-vector in the space frame.

Examples
--------
>>> import numpy as np
>>> from robolab import ScrewRobot, inverse_dynamics_rnea, mass_matrix_crba
>>> x = np.eye(4); x[0, 3] = 1.0                      # planar 2R arm, unit links
>>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
...                  gravity=[0, -9.81, 0])
>>> mass_matrix_crba(arm, [0.0, 0.0])
array([[5., 2.],
       [2., 1.]])
>>> inverse_dynamics_rnea(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])  # holding it horizontal
array([29.43,  9.81])
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ..support.docstrings import shared_examples
from .dynamics import (
    _crba,
    _DynamicsModel,
    _gravity,
    _inverse_dynamics,
    _kinetic_energy,
    _mass_matrix,
    _mass_matrix_rnea,
    _potential_energy,
    _robot_model,
    _State,
    _tip,
)
from .forward_dynamics import _forward_dynamics_aba, _forward_dynamics_crba
from .forward_dynamics import forward_dynamics_rnea as _forward_dynamics_rnea_arrays
from .inverse_kinematics import (
    DEFAULT_MAX_ITERATIONS,
    InverseKinematicsResult,
    _inverse_kinematics,
)
from .kinematics import (
    _forward_kinematics,
    _forward_kinematics_body,
    _joint_array,
    _joint_arrays,
    _link_frames_space,
    _ScrewChain,
)
from .robot import ScrewRobot
from .robot_control import _computed_torque, _simulate_control
from .simulation import (
    _dynamics,
    _forward_dynamics_trajectory,
    _inverse_dynamics_trajectory,
    _step,
    _timestep,
)
from .velocity_kinematics import _jacobian_body, _jacobian_space

__all__ = [
    "computed_torque",
    "end_effector_forces",
    "forward_dynamics_aba",
    "forward_dynamics_crba",
    "forward_dynamics_rnea",
    "forward_dynamics_trajectory",
    "forward_kinematics_body",
    "forward_kinematics_space",
    "gravity_forces",
    "inverse_dynamics_rnea",
    "inverse_dynamics_trajectory",
    "inverse_kinematics_body",
    "inverse_kinematics_space",
    "jacobian_body",
    "jacobian_space",
    "kinetic_energy",
    "link_frames_space",
    "mass_matrix_crba",
    "mass_matrix_rnea",
    "potential_energy",
    "runge_kutta4_step",
    "simulate_control",
    "velocity_quadratic_forces",
]

#: Default Newton–Raphson tolerances of the robot-first inverse kinematics.
DEFAULT_ANGULAR_TOLERANCE = 1e-6
DEFAULT_LINEAR_TOLERANCE = 1e-6


# --------------------------------------------------------------------------- cached constants


def _robot(robot: Any, name: str = "robot") -> ScrewRobot:
    if not isinstance(robot, ScrewRobot):
        raise TypeError(f"{name} must be a ScrewRobot, got {type(robot).__name__}")
    return robot


def _model(robot: Any, name: str = "robot") -> _DynamicsModel:
    """The dynamics constants of a robot (checked to be a ScrewRobot), cached on it."""
    return _robot_model(_robot(robot, name))


def _body_chain(robot: ScrewRobot) -> _ScrewChain:
    return robot._derived("body_chain", lambda: _ScrewChain(robot.screw_axes_body))


def _q(robot: ScrewRobot, value: Any) -> np.ndarray:
    return _joint_array(value, robot.n_joints, "joint_positions")


def _gravity_of(robot: ScrewRobot, gravity: Any) -> np.ndarray:
    return robot.gravity if gravity is None else _gravity(gravity)


def _tip_of(q: np.ndarray, tip_wrench: Any) -> np.ndarray | None:
    return None if tip_wrench is None else _tip(tip_wrench, q.shape[:-1])


def _forward_inputs(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    joint_torques: Any,
    gravity: Any,
    tip_wrench: Any,
) -> tuple[_DynamicsModel, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """The checked arguments of a forward-dynamics call: (model, θ, θ̇, τ, gravity, F_tip)."""
    model = _model(robot)
    q, qd, tau = _joint_arrays(
        model.n, joint_positions, joint_velocities=joint_velocities, joint_torques=joint_torques
    )
    return model, q, qd, tau, _gravity_of(robot, gravity), _tip_of(q, tip_wrench)


# --------------------------------------------------------------------------- kinematics


@shared_examples
def forward_kinematics_space(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """End-effector pose T_sb(θ) = e^{[S_1]θ_1} ⋯ e^{[S_n]θ_n} M, shape (4, 4) or (..., 4, 4).

    See :func:`robolab.screw.kinematics.forward_kinematics_space`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import forward_kinematics_space
    >>> forward_kinematics_space(arm, [np.pi / 2, -np.pi / 2])[:3, 3].round(12) + 0.0
    array([1., 1., 0.])
    """
    chain = _model(robot).chain
    return _forward_kinematics(chain, robot.home_ee_pose, _q(robot, joint_positions))


@shared_examples
def forward_kinematics_body(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """End-effector pose T_sb(θ) = M e^{[B_1]θ_1} ⋯ e^{[B_n]θ_n}, from the body screw axes.

    Equal to :func:`forward_kinematics_space`; see
    :func:`robolab.screw.kinematics.forward_kinematics_body`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import forward_kinematics_body
    >>> forward_kinematics_body(arm, [np.pi / 2, -np.pi / 2])[:3, 3].round(12) + 0.0
    array([1., 1., 0.])
    """
    robot = _robot(robot)
    return _forward_kinematics_body(
        _body_chain(robot), robot.home_ee_pose, _q(robot, joint_positions)
    )


@shared_examples
def link_frames_space(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """Poses of the base, every link's centre-of-mass frame and the end-effector, shape (n+2, 4, 4).

    ``poses[0]`` is the identity (the space frame), ``poses[i]`` the pose
    T_si of centre-of-mass frame {i} of link i, ``poses[n+1]`` the
    end-effector pose. A batch of configurations (..., n) gives (..., n+2, 4, 4).
    See :func:`robolab.screw.kinematics.link_frames_space`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import link_frames_space
    >>> link_frames_space(arm, [np.pi / 2, 0.0])[:, :3, 3].round(12) + 0.0
    array([[0., 0., 0.],
           [0., 1., 0.],
           [0., 2., 0.],
           [0., 2., 0.]])
    """
    model = _model(robot)
    return _link_frames_space(model.chain, model.home_poses, _q(robot, joint_positions))


@shared_examples
def jacobian_space(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """Space Jacobian J_s(θ), rows [ω; v], shape (6, n) or (..., 6, n): V_s = J_s θ̇.

    See :func:`robolab.screw.velocity_kinematics.jacobian_space`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import jacobian_space
    >>> jacobian_space(arm, [np.pi / 2, 0.0]).round(12) + 0.0
    array([[0., 0.],
           [0., 0.],
           [1., 1.],
           [0., 1.],
           [0., 0.],
           [0., 0.]])
    """
    return _jacobian_space(_model(robot).chain, _q(robot, joint_positions))


@shared_examples
def jacobian_body(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """Body Jacobian J_b(θ), rows [ω; v], shape (6, n) or (..., 6, n): V_b = J_b θ̇.

    See :func:`robolab.screw.velocity_kinematics.jacobian_body`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import jacobian_body
    >>> jacobian_body(arm, [0.0, np.pi / 2]).round(12) + 0.0  # the forearm points along y
    array([[0., 0.],
           [0., 0.],
           [1., 1.],
           [1., 0.],
           [1., 1.],
           [0., 0.]])
    """
    robot = _robot(robot)
    return _jacobian_body(_body_chain(robot), _q(robot, joint_positions))


@shared_examples
def inverse_kinematics_body(
    robot: ScrewRobot,
    target_pose: Any,
    initial_guess: Any,
    angular_tolerance: float = DEFAULT_ANGULAR_TOLERANCE,
    linear_tolerance: float = DEFAULT_LINEAR_TOLERANCE,
    *,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
) -> InverseKinematicsResult:
    """Newton–Raphson inverse kinematics with the body Jacobian; unpacks as ``(θ, success)``.

    ``success`` is true only if the returned joint positions reach
    ``target_pose`` within the tolerances (default 1e-6 rad and 1e-6 m).
    See :func:`robolab.screw.inverse_kinematics.inverse_kinematics_body`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import forward_kinematics_space, inverse_kinematics_body
    >>> target = forward_kinematics_space(arm, [0.5, 1.0])
    >>> theta, success = inverse_kinematics_body(arm, target, [0.3, 0.8])
    >>> theta.round(9), success
    (array([0.5, 1. ]), True)
    >>> too_far = x @ x @ x                     # 3 m away: out of reach
    >>> inverse_kinematics_body(arm, too_far, [0.3, 0.8]).success
    False
    """
    robot = _robot(robot)
    return _inverse_kinematics(
        "body", _body_chain(robot), robot.home_ee_pose, target_pose, initial_guess,
        angular_tolerance, linear_tolerance, max_iterations,
    )  # fmt: skip


@shared_examples
def inverse_kinematics_space(
    robot: ScrewRobot,
    target_pose: Any,
    initial_guess: Any,
    angular_tolerance: float = DEFAULT_ANGULAR_TOLERANCE,
    linear_tolerance: float = DEFAULT_LINEAR_TOLERANCE,
    *,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
) -> InverseKinematicsResult:
    """Newton–Raphson inverse kinematics with the space Jacobian; unpacks as ``(θ, success)``.

    See :func:`inverse_kinematics_body` and
    :func:`robolab.screw.inverse_kinematics.inverse_kinematics_space`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import forward_kinematics_space, inverse_kinematics_space
    >>> result = inverse_kinematics_space(arm, forward_kinematics_space(arm, [0.5, 1.0]),
    ...                                   [0.3, 0.8])
    >>> result.joint_positions.round(9), result.success, result.linear_error < 1e-6
    (array([0.5, 1. ]), True, True)
    """
    return _inverse_kinematics(
        "space", _model(robot).chain, robot.home_ee_pose, target_pose, initial_guess,
        angular_tolerance, linear_tolerance, max_iterations,
    )  # fmt: skip


# --------------------------------------------------------------------------- dynamics


@shared_examples
def inverse_dynamics_rnea(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    joint_accelerations: Any,
    gravity: Any = None,
    tip_wrench: Any = None,
) -> np.ndarray:
    """Joint torques τ = M(θ)θ̈ + c(θ, θ̇) + g(θ) + J_bᵀ F_tip (Newton–Euler), shape (n,) or (..., n).

    ``gravity`` defaults to ``robot.gravity``, ``tip_wrench`` (in the
    end-effector frame) to zero. See
    :func:`robolab.screw.dynamics.inverse_dynamics_rnea`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import inverse_dynamics_rnea
    >>> inverse_dynamics_rnea(arm, [0.0, 0.0], [0.0, 0.0], [1.0, 0.0])  # M[:, 0] + g
    array([34.43, 11.81])
    >>> inverse_dynamics_rnea(arm, [[0.0, 0.0], [np.pi / 2, 0.0]], np.zeros((2, 2)),
    ...                       np.zeros((2, 2))).round(12) + 0.0  # a batch of two states
    array([[29.43,  9.81],
           [ 0.  ,  0.  ]])
    """
    model = _model(robot)
    q, qd, qdd = _joint_arrays(
        model.n, joint_positions, joint_velocities=joint_velocities,
        joint_accelerations=joint_accelerations,
    )  # fmt: skip
    return _inverse_dynamics(model, q, qd, qdd, _gravity_of(robot, gravity), _tip_of(q, tip_wrench))


@shared_examples
def mass_matrix_crba(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """Mass matrix M(θ) by the composite-rigid-body algorithm, shape (n, n) or (..., n, n).

    See :func:`robolab.screw.dynamics.mass_matrix_crba` (and :func:`mass_matrix_rnea`
    for the book's column-by-column form).

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import mass_matrix_crba
    >>> mass_matrix_crba(arm, [0.0, np.pi / 2]).round(12)  # m2 L1 L2 cos θ2 terms vanish
    array([[3., 1.],
           [1., 1.]])
    """
    model = _model(robot)
    q = _q(robot, joint_positions)
    if q.ndim == 1:
        return _crba(model, _State(model, q))
    return _mass_matrix(model, q)


@shared_examples
def mass_matrix_rnea(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """Mass matrix M(θ) the book's way: column i is the torque for θ̈ = e_i (n Newton–Euler passes).

    Equal to :func:`mass_matrix_crba`; see :func:`robolab.screw.dynamics.mass_matrix_rnea`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import mass_matrix_rnea
    >>> mass_matrix_rnea(arm, [0.0, 0.0])
    array([[5., 2.],
           [2., 1.]])
    """
    return _mass_matrix_rnea(_model(robot), _q(robot, joint_positions))


@shared_examples
def velocity_quadratic_forces(
    robot: ScrewRobot, joint_positions: Any, joint_velocities: Any
) -> np.ndarray:
    """Coriolis and centripetal torques c(θ, θ̇), shape (n,) or (..., n).

    See :func:`robolab.screw.dynamics.velocity_quadratic_forces`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import velocity_quadratic_forces
    >>> velocity_quadratic_forces(arm, [0.0, np.pi / 2], [1.0, 0.0]).round(12) + 0.0
    array([0., 1.])
    """
    model = _model(robot)
    q, qd = _joint_arrays(model.n, joint_positions, joint_velocities=joint_velocities)
    return _inverse_dynamics(model, q, qd, None, None, None)


@shared_examples
def gravity_forces(robot: ScrewRobot, joint_positions: Any, gravity: Any = None) -> np.ndarray:
    """Gravity torques g(θ) that hold the arm still, shape (n,) or (..., n); gravity from the robot.

    See :func:`robolab.screw.dynamics.gravity_forces`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import gravity_forces
    >>> gravity_forces(arm, [0.0, 0.0])
    array([29.43,  9.81])
    >>> gravity_forces(arm, [0.0, 0.0], gravity=[0, 0, -9.81]) + 0.0  # lying on a table
    array([0., 0.])
    """
    model = _model(robot)
    q = _q(robot, joint_positions)
    return _inverse_dynamics(model, q, None, None, _gravity_of(robot, gravity), None)


@shared_examples
def end_effector_forces(robot: ScrewRobot, joint_positions: Any, tip_wrench: Any) -> np.ndarray:
    """Joint torques J_bᵀ(θ) F_tip that make the end-effector apply ``tip_wrench`` (in its frame).

    See :func:`robolab.screw.dynamics.end_effector_forces`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import end_effector_forces
    >>> end_effector_forces(arm, [0.0, 0.0], [0, 0, 0, 0, 10.0, 0])  # push 10 N along y
    array([20., 10.])
    """
    model = _model(robot)
    q = _q(robot, joint_positions)
    return _inverse_dynamics(model, q, None, None, None, _tip(tip_wrench, q.shape[:-1]))


@shared_examples
def kinetic_energy(
    robot: ScrewRobot, joint_positions: Any, joint_velocities: Any
) -> np.ndarray | float:
    """Kinetic energy ½ θ̇ᵀ M(θ) θ̇ of the links (float, or shape (...) for a batch).

    See :func:`robolab.screw.dynamics.kinetic_energy`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import kinetic_energy
    >>> kinetic_energy(arm, [0.0, 0.0], [1.0, 0.0])
    2.5
    """
    model = _model(robot)
    q, qd = _joint_arrays(model.n, joint_positions, joint_velocities=joint_velocities)
    energy = _kinetic_energy(model, _State(model, q), qd)
    return float(energy) if energy.ndim == 0 else energy


@shared_examples
def potential_energy(
    robot: ScrewRobot, joint_positions: Any, gravity: Any = None
) -> np.ndarray | float:
    """Potential energy -Σ m_i gᵀ r_ci of the links (zero at the space-frame origin).

    See :func:`robolab.screw.dynamics.potential_energy`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import potential_energy
    >>> round(potential_energy(arm, [np.pi / 2, 0.0]), 12)  # standing straight up
    29.43
    """
    model = _model(robot)
    energy = _potential_energy(model, _q(robot, joint_positions), _gravity_of(robot, gravity))
    return float(energy) if energy.ndim == 0 else energy


@shared_examples
def forward_dynamics_crba(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    joint_torques: Any,
    gravity: Any = None,
    tip_wrench: Any = None,
) -> np.ndarray:
    """Joint accelerations θ̈ (mass matrix by CRBA, Cholesky solve), shape (n,) or (..., n).

    Raises ``ValueError`` if M(θ) is singular. See
    :func:`robolab.screw.forward_dynamics.forward_dynamics_crba`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import forward_dynamics_crba
    >>> forward_dynamics_crba(arm, [0.0, 0.0], [0.0, 0.0], [29.43, 9.81]) + 0.0  # held still
    array([0., 0.])
    """
    return _forward_dynamics_crba(
        *_forward_inputs(
            robot, joint_positions, joint_velocities, joint_torques, gravity, tip_wrench
        )
    )


@shared_examples
def forward_dynamics_aba(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    joint_torques: Any,
    gravity: Any = None,
    tip_wrench: Any = None,
) -> np.ndarray:
    """Joint accelerations θ̈ by the articulated-body algorithm, shape (n,) or (..., n).

    See :func:`robolab.screw.forward_dynamics.forward_dynamics_aba`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import forward_dynamics_aba
    >>> forward_dynamics_aba(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])  # dropped from horizontal
    array([-9.81,  9.81])
    """
    return _forward_dynamics_aba(
        *_forward_inputs(
            robot, joint_positions, joint_velocities, joint_torques, gravity, tip_wrench
        )
    )


@shared_examples
def forward_dynamics_rnea(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    joint_torques: Any,
    gravity: Any = None,
    tip_wrench: Any = None,
) -> np.ndarray:
    """Joint accelerations θ̈ = M⁻¹(τ - c - g - J_bᵀF_tip), the book's way.

    See :func:`robolab.screw.forward_dynamics.forward_dynamics_rnea`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import forward_dynamics_rnea
    >>> forward_dynamics_rnea(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]).round(12)
    array([-9.81,  9.81])
    """
    _, q, qd, tau, gravity, tip_wrench = _forward_inputs(
        robot, joint_positions, joint_velocities, joint_torques, gravity, tip_wrench
    )
    return _forward_dynamics_rnea_arrays(
        q, qd, tau, gravity, np.zeros(6) if tip_wrench is None else tip_wrench,
        robot.link_frames, robot.spatial_inertias, robot.screw_axes_space,
    )  # fmt: skip


@shared_examples
def runge_kutta4_step(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    joint_torques: Any,
    timestep: float,
    gravity: Any = None,
    tip_wrench: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """One fourth-order Runge–Kutta step of (θ, θ̇) under constant torques.

    See :func:`robolab.screw.simulation.runge_kutta4_step`; the Euler step is
    :func:`robolab.euler_step`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import runge_kutta4_step
    >>> q, qd = runge_kutta4_step(arm, [0.0, 0.0], [0.0, 0.0], [29.43, 9.81], 0.01)
    >>> q.round(12) + 0.0, qd.round(12) + 0.0
    (array([0., 0.]), array([0., 0.]))
    """
    model, q, qd, tau, gravity, tip_wrench = _forward_inputs(
        robot, joint_positions, joint_velocities, joint_torques, gravity, tip_wrench
    )
    return _step(_dynamics(model, tau, gravity, tip_wrench), q, qd, _timestep(timestep), "rk4")


@shared_examples
def inverse_dynamics_trajectory(
    robot: ScrewRobot,
    joint_position_traj: Any,
    joint_velocity_traj: Any,
    joint_acceleration_traj: Any,
    gravity: Any = None,
    tip_wrench_traj: Any = None,
) -> np.ndarray:
    """Joint torques along a trajectory, shape (N, n) (one batched Newton–Euler call).

    See :func:`robolab.screw.simulation.inverse_dynamics_trajectory`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import inverse_dynamics_trajectory
    >>> inverse_dynamics_trajectory(arm, [[0.0, 0.0], [np.pi / 2, 0.0]], np.zeros((2, 2)),
    ...                             np.zeros((2, 2))).round(12) + 0.0
    array([[29.43,  9.81],
           [ 0.  ,  0.  ]])
    """
    return _inverse_dynamics_trajectory(
        _model(robot), _gravity_of(robot, gravity), joint_position_traj, joint_velocity_traj,
        joint_acceleration_traj, tip_wrench_traj,
    )  # fmt: skip


@shared_examples
def forward_dynamics_trajectory(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    joint_torque_traj: Any,
    timestep: float,
    integration_resolution: int,
    gravity: Any = None,
    tip_wrench_traj: Any = None,
    *,
    integrator: Literal["euler", "rk4"] = "euler",
) -> tuple[np.ndarray, np.ndarray]:
    """Simulate the motion under a torque history; returns (θ trajectory, θ̇ trajectory), (N, n).

    Row 0 is the initial state; a batch of initial states (..., n) with
    torques (N, ..., n) simulates many robots at once. Euler's method as in
    the book, or ``integrator="rk4"``. See
    :func:`robolab.screw.simulation.forward_dynamics_trajectory`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import forward_dynamics_trajectory
    >>> q, qd = forward_dynamics_trajectory(arm, [0.0, 0.0], [0.0, 0.0],
    ...                                     [[29.43, 9.81]] * 3, 0.01, 2)
    >>> q + 0.0
    array([[0., 0.],
           [0., 0.],
           [0., 0.]])
    """
    return _forward_dynamics_trajectory(
        _model(robot), _gravity_of(robot, gravity), joint_positions, joint_velocities,
        joint_torque_traj, tip_wrench_traj, timestep, integration_resolution, integrator,
    )  # fmt: skip


# --------------------------------------------------------------------------- control


@shared_examples
def computed_torque(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    error_integral: Any,
    desired_joint_positions: Any,
    desired_joint_velocities: Any,
    desired_joint_accelerations: Any,
    Kp: Any,
    Ki: Any,
    Kd: Any,
    gravity: Any = None,
) -> np.ndarray:
    """Computed-torque control law with the robot as the model; gravity from the robot.

    τ = M(θ)(θ̈_d + K_p θ_e + K_i (∫θ_e + θ_e) + K_d θ̇_e) + c(θ, θ̇) + g(θ).
    See :func:`robolab.screw.robot_control.computed_torque`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import computed_torque
    >>> computed_torque(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0],
    ...                 [0.0, 0.0], 20, 10, 18)  # on target: just gravity compensation
    array([29.43,  9.81])
    """
    return _computed_torque(
        _model(robot), _gravity_of(robot, gravity), joint_positions, joint_velocities,
        error_integral, desired_joint_positions, desired_joint_velocities,
        desired_joint_accelerations, Kp, Ki, Kd,
    )  # fmt: skip


@shared_examples
def simulate_control(
    robot: ScrewRobot,
    joint_positions: Any,
    joint_velocities: Any,
    tip_wrench_traj: Any,
    desired_joint_position_traj: Any,
    desired_joint_velocity_traj: Any,
    desired_joint_acceleration_traj: Any,
    estimated_robot: ScrewRobot,
    Kp: Any,
    Ki: Any,
    Kd: Any,
    timestep: float,
    integration_resolution: int,
    gravity: Any = None,
    estimated_gravity: Any = None,
    *,
    integrator: Literal["euler", "rk4"] = "euler",
) -> tuple[np.ndarray, np.ndarray]:
    """Simulate computed-torque control of ``robot`` by a controller modelling ``estimated_robot``.

    The controller uses everything from ``estimated_robot`` (link frames,
    inertias, screw axes and, by default, its gravity); the simulation uses
    ``robot`` (and, by default, its gravity). ``tip_wrench_traj`` (N, 6) or
    None for no tip wrench. Returns (torque trajectory, joint position
    trajectory), each (N, n). See :func:`robolab.screw.robot_control.simulate_control`.

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import simulate_control
    >>> lighter = arm.replace(spatial_inertias=[np.diag([0, 0, 0, 0.8, 0.8, 0.8])] * 2)
    >>> hold = np.zeros((100, 2))                    # hold it horizontal for 1 s
    >>> tau, q = simulate_control(arm, [0.0, 0.0], [0.0, 0.0], None, hold, hold, hold,
    ...                           lighter, 20, 10, 18, 0.01, 5)
    >>> tau[0]  # the model's gravity torques, 20 % short of the true [29.43, 9.81]
    array([23.544,  7.848])
    >>> bool(np.abs(q).max() < 0.1)  # the arm sags a little; the feedback holds it
    True
    """
    model, estimated = _model(robot), _model(estimated_robot, "estimated_robot")
    if estimated.n != model.n:
        raise ValueError(f"estimated_robot has {estimated.n} joints, robot has {model.n}")
    return _simulate_control(
        model, estimated, _gravity_of(robot, gravity),
        _gravity_of(estimated_robot, estimated_gravity), joint_positions, joint_velocities,
        tip_wrench_traj, desired_joint_position_traj, desired_joint_velocity_traj,
        desired_joint_acceleration_traj, Kp, Ki, Kd, timestep, integration_resolution, integrator,
    )  # fmt: skip
