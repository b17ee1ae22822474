"""A DH robot in screw form: home pose, screw axes, link frames and inertias give the same numbers.

The screw parameters are checked with the Python Modern Robotics library
(``modern_robotics``, the book's own code): its product of exponentials
``FKinSpace(M, S, q)`` must equal the DH forward kinematics, and its
``InverseDynamics`` with our ``Mlist`` (link frames between centres of mass)
and ``Glist`` (spatial inertias ``[[I_c, 0], [0, m 1]]``) must equal the DH
robot's τ. Twists and screw axes are ``[ω; v]`` in both.
"""

from __future__ import annotations

import modern_robotics as mr
import numpy as np
import pytest
import sympy as sp
from reference.dh_arms import PUMA_560_ROWS

import robolab as rl
from robolab import DHRobot
from robolab.dh.to_screw import home_ee_pose, screw_axes_space, screw_parameters
from robolab.spatial.rigid_body_motions import matrix_exp6, vec_to_se3
from robolab.symbols import l1, l2, q1, q2, q3, q4


def _dynamic(robot: DHRobot, seed: int = 0) -> DHRobot:
    rng = np.random.default_rng(seed)
    n = robot.dof
    robot.masses = rng.uniform(0.5, 3.0, n).tolist()
    robot.cm_positions = rng.uniform(-0.1, 0.1, (n, 3)).tolist()
    tensors = []
    for _ in range(n):
        A = rng.uniform(-0.1, 0.1, (3, 3))
        S = A @ A.T  # second moments of a cloud of points: its inertia is physical
        tensors.append((np.trace(S) * np.eye(3) - S + 0.01 * np.eye(3)).tolist())
    robot.inertia_tensors = tensors
    return robot


def _arms() -> dict[str, DHRobot]:
    tool = np.eye(4)
    tool[:3, 3] = [0.0, 0.02, 0.1]
    return {
        "puma": _dynamic(DHRobot(*PUMA_560_ROWS, name="puma")),
        "puma_tool": _dynamic(DHRobot(*PUMA_560_ROWS, tool=tool, name="puma with tool"), 1),
        "modified_rrp": _dynamic(
            DHRobot(
                (0, 0, 0.3, q1 + 0.2),
                (0.4, sp.pi / 2, 0, q2),
                (0.1, -sp.pi / 2, q3 + 0.05, sp.pi / 2, "p"),
                convention="modified",
                name="modified RRP",
            ),
            2,
        ),
        "scara": _dynamic(
            DHRobot((0.35, 0, 0, q1), (0.3, sp.pi, 0, q2), (0, 0, q3, 0, "p"), (0, 0, 0.1, q4)), 3
        ),
    }


ARMS = _arms()


@pytest.mark.parametrize("name", sorted(ARMS))
def test_product_of_exponentials_equals_dh_forward_kinematics(name):
    robot = ARMS[name]
    M, S = home_ee_pose(robot), screw_axes_space(robot)
    fast = robot.numeric()
    np.testing.assert_allclose(M, fast.forward_kinematics(np.zeros(robot.dof)), atol=1e-14)
    rng = np.random.default_rng(5)
    for q in rng.uniform(-np.pi, np.pi, (4, robot.dof)):
        expected = fast.forward_kinematics(q)
        np.testing.assert_allclose(mr.FKinSpace(M, S, q), expected, atol=1e-12)
        product = np.eye(4)
        for j in range(robot.dof):
            product = product @ matrix_exp6(vec_to_se3(S[:, j] * q[j]))
        np.testing.assert_allclose(product @ M, expected, atol=1e-12)


@pytest.mark.parametrize("name", ["puma", "modified_rrp", "scara"])  # a tool changes no dynamics
def test_screw_form_gives_the_same_dynamics(name):
    robot = ARMS[name]
    parameters = screw_parameters(robot)
    fast = robot.numeric()
    rng = np.random.default_rng(8)
    for _ in range(3):
        q, qd, qdd = rng.uniform(-2, 2, (3, robot.dof))
        tau = mr.InverseDynamics(
            q,
            qd,
            qdd,
            parameters["gravity"],
            np.zeros(6),
            list(parameters["link_frames"]),
            list(parameters["spatial_inertias"]),
            parameters["screw_axes_space"],
        )
        np.testing.assert_allclose(fast.inverse_dynamics(q, qd, qdd), tau, atol=1e-10)
        np.testing.assert_allclose(
            fast.inertia_matrix(q),
            mr.MassMatrix(
                q,
                list(parameters["link_frames"]),
                list(parameters["spatial_inertias"]),
                parameters["screw_axes_space"],
            ),
            atol=1e-10,
        )


def test_screw_parameters_describe_the_robot():
    robot = ARMS["scara"]
    parameters = screw_parameters(robot)
    assert parameters["joint_types"] == ["revolute", "revolute", "prismatic", "revolute"]
    assert parameters["joint_names"] == ["q_1", "q_2", "q_3", "q_4"]
    assert parameters["joint_limits"][2] == (0.0, 1000.0)
    assert parameters["link_frames"].shape == (5, 4, 4)
    assert parameters["spatial_inertias"].shape == (4, 6, 6)
    G = parameters["spatial_inertias"][0]
    np.testing.assert_allclose(G[3:, 3:], float(robot.m(1)) * np.eye(3), atol=1e-12)
    np.testing.assert_allclose(G[:3, :3], np.array(robot.I_cm(1).tolist(), dtype=float))
    product = np.eye(4)
    for frame in parameters["link_frames"]:
        product = product @ frame
    np.testing.assert_allclose(product, parameters["home_ee_pose"], atol=1e-14)
    # the prismatic quill points down (alpha_2 = pi): its screw axis is [0; -z]
    np.testing.assert_allclose(
        parameters["screw_axes_space"][:, 2], [0, 0, 0, 0, 0, -1], atol=1e-15
    )


def test_screw_form_needs_numbers():
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    with pytest.raises(ValueError, match=r"still symbolic: l_1 \(row 1, a\), l_2 \(row 2, a\)"):
        screw_axes_space(robot)
    axes = screw_axes_space(robot, {l1: 1.0, "l_2": 0.5})
    np.testing.assert_allclose(axes[:, 1], [0, 0, 1, 0, -1, 0], atol=1e-12)
    robot = DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2))
    robot.cm_positions = [(0, 0, 0), (0, 0, 0)]
    with pytest.raises(
        ValueError,
        match=r"still symbolic: m_1 \(mass of link 1\), I_xx1 \(inertia tensor of link 1\)",
    ):
        screw_parameters(robot)


@pytest.mark.parametrize("name", sorted(ARMS))
def test_to_screw_gives_a_screw_robot_with_the_same_numbers(name):
    # the DH model and robolab's screw model (ScrewRobot and its algorithms) side by side
    robot = ARMS[name]
    screw = robot.to_screw()
    assert isinstance(screw, rl.ScrewRobot)
    assert screw.name == robot.name
    assert tuple(screw.joint_types) == tuple(
        "revolute" if kind == "r" else "prismatic" for kind in robot.joint_types
    )
    np.testing.assert_allclose(screw.gravity, [0, 0, -9.81])
    fast = robot.numeric()
    rng = np.random.default_rng(13)
    q, qd, qdd = rng.uniform(-1.5, 1.5, (3, 5, robot.dof))
    np.testing.assert_allclose(
        rl.forward_kinematics_space(screw, q), fast.forward_kinematics(q), atol=1e-12
    )
    # [ω; v] space Jacobian vs the DH [v; ω] Jacobian of the end-effector origin p:
    # J_DH = [[-[p], I], [I, 0]] J_s (docs/conventions.md)
    J_s = rl.jacobian_space(screw, q)
    p = fast.forward_kinematics(q)[..., :3, 3]
    linear = J_s[..., 3:, :] + np.cross(
        J_s[..., :3, :], p[..., :, None], axisa=-2, axisb=-2
    ).swapaxes(-1, -2)
    np.testing.assert_allclose(
        np.concatenate([linear, J_s[..., :3, :]], axis=-2), fast.jacobian(q), atol=1e-12
    )
    if name == "puma_tool":
        return  # a tool changes no dynamics: checked on "puma"
    np.testing.assert_allclose(
        rl.inverse_dynamics_rnea(screw, q, qd, qdd), fast.inverse_dynamics(q, qd, qdd), atol=1e-10
    )
    np.testing.assert_allclose(rl.mass_matrix_crba(screw, q), fast.inertia_matrix(q), atol=1e-10)
    np.testing.assert_allclose(rl.gravity_forces(screw, q), fast.gravity_vector(q), atol=1e-10)


# --- the kinematic screw model: geometry numeric, dynamics not needed ---------------------------


def test_kinematic_screw_model_needs_only_the_geometry():
    full = ARMS["scara"]
    rows = zip(full.dh_parameters, full.joint_types, strict=True)
    geometry = DHRobot(*[(*row, kind) for row, kind in rows])
    kinematic = geometry.to_screw(kinematics_only=True)  # masses, centres, inertias unknown
    reference = full.to_screw()
    np.testing.assert_allclose(kinematic.home_ee_pose, reference.home_ee_pose, atol=1e-15)
    np.testing.assert_allclose(kinematic.screw_axes_space, reference.screw_axes_space, atol=1e-15)
    assert not kinematic.spatial_inertias.any()
    q = np.random.default_rng(2).uniform(-1.5, 1.5, (5, 4))
    np.testing.assert_allclose(
        rl.forward_kinematics_space(kinematic, q), full.numeric().forward_kinematics(q), atol=1e-12
    )
    # the link frames are the DH frames {i} at q = 0 (their product is still the home pose)
    frames = full.numeric().frames(np.zeros(4))
    np.testing.assert_allclose(kinematic.link_frames[0], frames[1], atol=1e-15)
    # no inertia, no mass matrix: forward dynamics says so when it is used
    with pytest.raises(ValueError, match=r"the mass matrix M\(θ\) is singular"):
        rl.forward_dynamics_crba(kinematic, q[0], np.zeros(4), np.ones(4))


def test_symbolic_dynamics_point_at_the_kinematic_option():
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    robot.cm_positions = [(0, 0, 0), (0, 0, 0)]
    values = {l1: 1.0, l2: 0.5}
    with pytest.raises(
        ValueError,
        match=r"still symbolic: m_1 .*For the kinematic model alone \(home pose and screw axes, "
        r"zero inertias\) use robot.to_screw\(kinematics_only=True\)",
    ):
        robot.to_screw(values)
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))  # centres of mass missing
    robot.masses, robot.inertia_tensors = [1.0, 1.0], [np.eye(3)] * 2
    with pytest.raises(
        ValueError, match=r"needs the centres of mass, which are missing.*kinematics_only=True"
    ):
        robot.to_screw(values)
    kinematic = robot.to_screw(values, kinematics_only=True)
    np.testing.assert_allclose(kinematic.screw_axes_space[:, 1], [0, 0, 1, 0, -1, 0], atol=1e-12)
    np.testing.assert_allclose(kinematic.gravity, [0, 0, -9.81], atol=1e-12)
    # a symbolic length is not helped by the option: it says what is missing
    with pytest.raises(
        ValueError, match=r"the kinematic screw form needs numbers .* l_2 \(row 2, a\)"
    ):
        robot.to_screw({l1: 1.0}, kinematics_only=True)
    # a symbolic length without the option: no hint about kinematics_only
    with pytest.raises(ValueError) as caught:
        robot.to_screw({l1: 1.0})
    assert "kinematics_only" not in str(caught.value)
