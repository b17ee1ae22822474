"""Joint friction (viscous and smoothed Coulomb) on the robot model, chapter 10.

References, none computed by robolab: the formula b q̇ + f_c tanh(q̇/ε) by hand;
``mr.ForwardDynamics`` of the frictionless arm with τ - τ_f as the torques; the damped
linear oscillator θ(t) = θ0 e^{-ζω t}(cos ω_d t + ζω/ω_d sin ω_d t) for a pendulum's small
swings; the energy balance dE/dt = -q̇ᵀτ_f integrated by the trapezoidal rule.
"""

import math

import modern_robotics as mr
import numpy as np
import pytest
from reference.screw_arms import ur5

import robolab as rl
from robolab.screw.friction import as_joint_friction

G = 9.81


def pendulum(friction=None, length=1.0, mass=1.0):
    x = np.eye(4)
    x[0, 3] = length
    return rl.ScrewRobot(
        "pendulum",
        x,
        [[0], [0], [1], [0], [0], [0]],
        [x, np.eye(4)],
        [np.diag([0, 0, 0, mass, mass, mass])],
        gravity=[0, -G, 0],
        friction=friction,
    )


def book_arrays(robot):
    """The book's ``g, F_tip, Mlist, Glist, Slist`` of ``robot`` (no tip wrench)."""
    return (
        robot.gravity,
        np.zeros(6),
        robot.link_frames,
        robot.spatial_inertias,
        robot.screw_axes_space,
    )


def test_torques_are_the_formula():
    friction = rl.JointFriction(viscous=[0.5, 1.0], coulomb=[2.0, 0.0], smoothing=0.1)
    qd = np.array([[0.3, -0.2], [-1.0, 0.05]])
    by_hand = np.array(
        [[0.5 * 0.3 + 2.0 * math.tanh(3.0), -0.2], [-0.5 - 2.0 * math.tanh(10.0), 0.05]]
    )
    np.testing.assert_allclose(friction.torques(qd), by_hand, atol=1e-15)


def test_smoothed_coulomb_tends_to_the_sign():
    for epsilon in (1e-2, 1e-4, 1e-6):
        torque = rl.JointFriction(coulomb=1.5, smoothing=epsilon).torques([-0.1, 0.1])
        np.testing.assert_allclose(torque, [-1.5, 1.5], atol=1.5 * 2 * math.exp(-0.2 / epsilon))


def test_friction_takes_power_never_gives_it():
    rng = np.random.default_rng(3)
    friction = rl.JointFriction(viscous=rng.uniform(0, 2, 4), coulomb=rng.uniform(0, 2, 4))
    qd = rng.normal(size=(200, 4))
    assert (np.einsum("ki,ki->k", qd, friction.torques(qd)) >= 0).all()


@pytest.mark.parametrize("algorithm", ["crba", "aba", "rnea"])
def test_forward_dynamics_subtract_the_friction(algorithm):
    friction = rl.JointFriction(
        viscous=[0.4, 0.3, 0.2, 0.1, 0.1, 0.05],
        coulomb=[1.0, 2.0, 1.5, 0.5, 0.2, 0.1],
        smoothing=0.05,
    )
    robot = ur5().replace(friction=friction)
    q = np.array([0.2, -0.6, 0.9, 0.1, -0.3, 0.4])
    qd = np.array([0.5, -0.02, 0.3, -1.0, 0.01, 0.2])
    tau = np.array([3.0, -5.0, 2.0, 0.5, 0.1, -0.1])
    tau_f = np.array(
        [
            b * v + c * math.tanh(v / 0.05)
            for b, c, v in zip(friction.viscous, friction.coulomb, qd, strict=True)
        ]
    )
    expected = mr.ForwardDynamics(
        q,
        qd,
        tau - tau_f,
        robot.gravity,
        np.zeros(6),
        robot.link_frames,
        robot.spatial_inertias,
        robot.screw_axes_space,
    )
    got = getattr(rl, f"forward_dynamics_{algorithm}")(robot, q, qd, tau)
    np.testing.assert_allclose(got, expected, atol=1e-9)


def test_small_swings_of_a_viscously_damped_pendulum_are_the_damped_oscillator():
    b, theta0 = 0.4, 0.002
    # gravity along +x: the point mass at (L, 0), θ = 0, hangs at its stable equilibrium
    robot = pendulum(rl.JointFriction(viscous=b)).with_gravity([G, 0, 0])
    run = rl.simulate(robot, [theta0], duration=3.0, timestep=0.001, integrator="rk4")
    omega, zeta = math.sqrt(G), b / (2 * math.sqrt(G))  # I = m L² = 1, k = m g L = G
    damped = omega * math.sqrt(1 - zeta**2)
    t = run.times
    linear = (
        theta0
        * np.exp(-zeta * omega * t)
        * (np.cos(damped * t) + zeta * omega / damped * np.sin(damped * t))
    )
    np.testing.assert_allclose(run.joint_positions[:, 0], linear, atol=2e-9)


def test_energy_lost_equals_the_work_of_friction():
    friction = rl.JointFriction(viscous=[0.2] * 6, coulomb=[0.5] * 6, smoothing=0.05)
    robot = ur5().replace(friction=friction)
    run = rl.simulate(robot, [0.0, -0.5, 0.8, -0.3, 0.6, 0.0], duration=1.0, timestep=0.001)
    qd = run.joint_velocities
    power = np.einsum("ki,ki->k", qd, friction.torques(qd))
    work = np.concatenate([[0.0], np.cumsum(0.5 * (power[1:] + power[:-1]) * 0.001)])
    assert run.friction
    assert (np.diff(run.energy) <= 1e-9).all()  # never rises
    assert run.energy[0] - run.energy[-1] > 1.0  # and really falls
    np.testing.assert_allclose(run.energy[0] - run.energy, work, atol=2e-4)


def test_the_field_on_the_robot():
    robot = ur5()
    assert robot.friction is None and rl.load_robot("ur5").friction is None
    damped = robot.replace(friction={"viscous": 0.5})
    assert damped.friction == rl.JointFriction(viscous=0.5)
    assert damped != robot and damped.with_gravity([0, 0, -1.62]).friction == damped.friction
    assert damped.replace(name="copy").friction == damped.friction
    assert repr(rl.JointFriction([1, 2], 0.5)) == (
        "JointFriction(viscous=[1, 2], coulomb=0.5, smoothing=0.01)"
    )
    with pytest.raises(AttributeError, match="immutable"):
        damped.friction.smoothing = 1.0


def test_book_arrays_carry_no_friction():
    robot = ur5().replace(friction=rl.JointFriction(viscous=5.0))
    q, qd, tau = np.zeros(6), np.ones(6), np.zeros(6)
    arrays = book_arrays(robot)
    np.testing.assert_allclose(
        rl.forward_dynamics_crba(q, qd, tau, *arrays),
        mr.ForwardDynamics(q, qd, tau, *arrays),
        atol=1e-9,
    )


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: rl.JointFriction(viscous=-0.1), ValueError, "viscous coefficients b must be ≥ 0"),
        (lambda: rl.JointFriction(coulomb=[1, -2]), ValueError, "f_c must be ≥ 0"),
        (lambda: rl.JointFriction(smoothing=0.0), ValueError, "smoothing ε must be positive"),
        (lambda: rl.JointFriction(viscous=[[1.0]]), ValueError, "one number or one per joint"),
        (lambda: rl.JointFriction(viscous="lots"), TypeError, "friction viscous"),
        (lambda: rl.JointFriction(viscous=math.nan), ValueError, "friction viscous"),
        (lambda: as_joint_friction(0.5, 2, ("a", "b")), TypeError, "must be a robolab.Joint"),
        (
            lambda: ur5().replace(friction=rl.JointFriction(viscous=[1.0, 2.0])),
            ValueError,
            r"one per joint \(6: 'joint1'",
        ),
    ],
)
def test_bad_friction_is_refused(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_trajectories_and_the_rk4_step_feel_the_friction():
    """forward_dynamics_trajectory and runge_kutta4_step against RK4 written over mr."""
    friction = rl.JointFriction(viscous=0.3, coulomb=0.4, smoothing=0.1)
    robot = ur5().replace(friction=friction)
    arrays = book_arrays(robot)
    tau = np.array([1.0, -3.0, 2.0, 0.2, 0.1, 0.0])

    def rate(q, qd):
        return mr.ForwardDynamics(q, qd, tau - friction.torques(qd), *arrays)

    q, qd, dt = np.array([0.1, -0.4, 0.5, 0.0, 0.3, 0.0]), np.full(6, 0.4), 0.002
    expected = [q]
    for _ in range(5):
        k1q, k1v = qd, rate(q, qd)
        k2q, k2v = qd + dt / 2 * k1v, rate(q + dt / 2 * k1q, qd + dt / 2 * k1v)
        k3q, k3v = qd + dt / 2 * k2v, rate(q + dt / 2 * k2q, qd + dt / 2 * k2v)
        k4q, k4v = qd + dt * k3v, rate(q + dt * k3q, qd + dt * k3v)
        q, qd = (
            q + dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q),
            qd + dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v),
        )
        expected.append(q)
    q_traj, _ = rl.forward_dynamics_trajectory(
        robot, expected[0], np.full(6, 0.4), np.tile(tau, (6, 1)), dt, 1, integrator="rk4"
    )
    np.testing.assert_allclose(q_traj, expected, atol=1e-11)
    q_step, _ = rl.runge_kutta4_step(robot, expected[0], np.full(6, 0.4), tau, dt)
    np.testing.assert_allclose(q_step, expected[1], atol=1e-12)


# --- friction in model files ------------------------------------------------------------------


def test_a_model_file_carries_the_friction(tmp_path):
    friction = rl.JointFriction(
        viscous=[0.5, 0.4, 0.3, 0.1, 0.1, 0.05], coulomb=1.5, smoothing=0.02
    )
    robot = rl.load_robot("ur5").replace(friction=friction)
    path = rl.save_robot(robot, tmp_path / "ur5_with_friction.json")
    text = path.read_text()
    assert '"viscous": [0.5, 0.4, 0.3, 0.1, 0.1, 0.05],\n    "coulomb": 1.5,' in text
    again = rl.load_robot(path)
    assert again.friction == friction
    assert rl.read_robot_model(path).friction == friction
    # and the bundled files, which have none, still read as before
    assert rl.load_robot("ur5").friction is None and rl.read_robot_model("ur5").friction is None


@pytest.mark.parametrize(
    ("friction", "words"),
    [
        ({"viscous": -1.0}, r"\$\.friction\.viscous: expected coefficients from 0"),
        ({"coulomb": 1e9}, r"\$\.friction\.coulomb: expected coefficients from 0 .* to 1e\+06"),
        ({"viscous": [0.1, 0.2]}, r"\$\.friction\.viscous: expected a list of 6 numbers"),
        ({"smoothing": 0}, r"\$\.friction\.smoothing: expected a number from 1e-06 to 1000"),
        ({"smoothing": 1e-9}, r"\$\.friction\.smoothing: expected a number from 1e-06 to 1000"),
        ({"stiction": 1.0}, r"\$\.friction: expected an object with some of the keys"),
        ([0.1], r"\$\.friction: expected an object"),
    ],
)
def test_bad_friction_in_a_file_is_refused_with_its_path(tmp_path, friction, words):
    import json

    path = rl.save_robot(rl.load_robot("ur5"), tmp_path / "ur5.json")
    data = json.loads(path.read_text())
    data["friction"] = friction
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=words):
        rl.read_robot_model(path)


def test_a_saved_file_with_friction_passes_the_published_schema(tmp_path):
    import json

    jsonschema = pytest.importorskip("jsonschema")
    from pathlib import Path

    schema_path = Path(__file__).resolve().parents[2] / "robots" / "robot.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    robot = rl.load_robot("ur5").replace(friction=rl.JointFriction(viscous=[0.1] * 6, coulomb=0.3))
    data = json.loads(rl.save_robot(robot, tmp_path / "ur5.json").read_text())
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)
    data["friction"]["viscous"] = -1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)


# --------------------------------------------------------- issue 29: what the doors refuse


@pytest.mark.parametrize(
    ("velocities", "error", "words"),
    [
        (None, TypeError, r"joint_velocities must be numeric, got None"),
        ("fast", TypeError, r"joint_velocities must be numeric, got the text 'fast'"),
        ([math.nan, 0.0], ValueError, r"joint_velocities contains a non-finite value \(nan\)"),
        ([1.0, 2.0, 3.0], ValueError, r"joint_velocities must have shape \(2,\) or \(\.\.\., 2\)"),
        (1.0, ValueError, r"joint_velocities must have shape \(2,\) or \(\.\.\., 2\)"),
        ([1e308, 0.0], ValueError, r"the friction torque overflows at joint_velocities\[0\]"),
        ([True, 0.0], TypeError, r"got the boolean True at index \(0,\)"),
    ],
)
def test_friction_torques_check_the_velocities(velocities, error, words):
    """JointFriction.torques(None) returned NaN (issue 29, item 8)."""
    with pytest.raises(error, match=words):
        rl.JointFriction(viscous=[10.0, 1.0], coulomb=1.0).torques(velocities)


def test_one_coefficient_for_all_joints_takes_any_shape():
    friction = rl.JointFriction(viscous=2.0)
    assert friction.torques(0.5) == 1.0
    np.testing.assert_array_equal(friction.torques([[0.5], [-1.0]]), [[1.0], [-2.0]])


@pytest.mark.parametrize(
    ("keywords", "words"),
    [
        (
            {"smoothing": 1e-9},
            r"smoothing ε must lie in \[1e-06, 1000\] rad/s \(m/s\), got 1e-09: "
            r"below it the smoothed Coulomb friction is so steep",
        ),
        ({"smoothing": 1e300}, r"smoothing ε must lie in \[1e-06, 1000\] .* got 1e\+300: above it"),
        ({"viscous": 1e300}, r"friction viscous coefficients b must be at most 1e\+06"),
        ({"coulomb": [1.0, 2e6]}, r"friction Coulomb coefficients f_c must be at most 1e\+06"),
        ({"viscous": [1.0, 2.0], "coulomb": [1.0, 2.0, 3.0]}, r"must be as many .* got 2 and 3"),
    ],
)
def test_friction_out_of_range_is_refused(keywords, words):
    """A smoothing of 1e-9 was accepted and hung the adaptive integrator (issue 29, item 7)."""
    with pytest.raises(ValueError, match=words):
        rl.JointFriction(**keywords)


def test_the_ends_of_the_ranges_are_accepted():
    for smoothing in (1e-6, 1e3):
        assert rl.JointFriction(coulomb=1.0, smoothing=smoothing).smoothing == smoothing
    assert rl.JointFriction(viscous=1e6, coulomb=1e6).torques([1.0])[0] == pytest.approx(2e6)
