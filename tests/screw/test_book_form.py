"""One function per name: each algorithm takes a ScrewRobot or the book's arrays first.

The book's algorithms are defined once, in their chapter modules; ``robolab.<name>`` is
that function, and it dispatches on its first argument (a robot, or the first of the
book's arguments) as ModernRoboticsBook.jl does by multiple dispatch. The textbook twins
(RNEA as written in the book, the mass matrix from RNEA) are public beside the fast ones.
"""

import inspect
import re

import numpy as np
import pytest
from reference.screw_arms import panda_like, ur5

import robolab as rl
from robolab.screw.book_form import BookArrays
from robolab.screw.control import laws, tracking
from robolab.screw.dynamics import energy, mass_matrix
from robolab.screw.dynamics import forward as forward_dynamics
from robolab.screw.dynamics import rnea as dynamics
from robolab.screw.kinematics import forward as kinematics
from robolab.screw.kinematics import inverse as inverse_kinematics
from robolab.screw.kinematics import jacobian
from robolab.screw.simulation import dynamics_trajectory as simulation
from robolab.screw.simulation import integrators

CHAPTERS = {
    kinematics: ["forward_kinematics_space", "forward_kinematics_body", "link_frames_space"],
    jacobian: ["jacobian_space", "jacobian_body"],
    inverse_kinematics: ["inverse_kinematics_space", "inverse_kinematics_body"],
    dynamics: [
        "inverse_dynamics_rnea",
        "inverse_dynamics_rnea_textbook",
        "inverse_dynamics_rnea_steps",
        "velocity_quadratic_forces",
        "gravity_forces",
        "end_effector_forces",
    ],
    mass_matrix: ["mass_matrix_crba", "mass_matrix_rnea"],
    energy: ["kinetic_energy", "potential_energy"],
    forward_dynamics: ["forward_dynamics_crba", "forward_dynamics_aba", "forward_dynamics_rnea"],
    integrators: ["runge_kutta4_step"],
    simulation: ["inverse_dynamics_trajectory", "forward_dynamics_trajectory"],
    laws: ["computed_torque"],
    tracking: ["simulate_control"],
}
NAMES = [(module, name) for module, names in CHAPTERS.items() for name in names]


@pytest.mark.parametrize(("module", "name"), NAMES, ids=[name for _, name in NAMES])
def test_each_name_is_one_function_defined_in_its_chapter(module, name):
    function = getattr(rl, name)
    assert function is getattr(module, name) is getattr(rl.screw, name)
    assert function.__module__ == module.__name__


@pytest.mark.parametrize(("module", "name"), NAMES, ids=[name for _, name in NAMES])
def test_one_docstring_shows_both_forms(module, name):
    doc = getattr(rl, name).__doc__
    # the {forms} line, filled in: both calls, as a literal block
    assert "Call it with a robot, or with the book's arguments::" in doc
    assert re.search(rf"^ +{name}\(robot, ", doc, flags=re.M)
    first_book_argument = next(iter(inspect.signature(getattr(rl, name).book_form).parameters))
    assert re.search(rf"^ +{name}\({first_book_argument}, ", doc, flags=re.M)
    calls = re.findall(rf"^\s*(?:>>>|\.\.\.).*?\b{name}\((\w+)", doc, flags=re.M)
    calls += re.findall(rf"^\s*(?:>>>|\.\.\.).*?\b{name}\((\[)", doc, flags=re.M)
    assert "arm" in calls, f"no example of {name}(robot, ...)"
    assert any(first != "arm" for first in calls), f"no example of {name} with the book's arrays"


ROBOT = panda_like(gravity=(0.3, -0.2, -9.7))
ARRAYS = (ROBOT.link_frames, ROBOT.spatial_inertias, ROBOT.screw_axes_space)
RNG = np.random.default_rng(7)
Q, QD, QDD = RNG.uniform(-1.5, 1.5, (3, 7))
TIP = RNG.normal(size=6)


def test_the_book_form_works_at_the_face():
    # The example: as a user of the book (or of ModernRoboticsBook.jl) writes it.
    np.testing.assert_allclose(
        rl.forward_kinematics_space(ROBOT.home_ee_pose, ROBOT.screw_axes_space, Q),
        rl.forward_kinematics_space(ROBOT, Q),
        atol=1e-12,
    )
    np.testing.assert_allclose(
        rl.inverse_dynamics_rnea(Q, QD, QDD, ROBOT.gravity, TIP, *ARRAYS),
        rl.inverse_dynamics_rnea(ROBOT, Q, QD, QDD, tip_wrench=TIP),
        atol=1e-10,
    )


def test_the_book_form_takes_its_arguments_by_name_too():
    by_name = rl.inverse_dynamics_rnea(
        joint_positions=Q,
        joint_velocities=QD,
        joint_accelerations=QDD,
        gravity=[0, 0, -9.81],
        tip_wrench=TIP,
        link_frames=ARRAYS[0],
        spatial_inertias=ARRAYS[1],
        screw_axes=ARRAYS[2],
    )
    np.testing.assert_allclose(
        by_name, rl.inverse_dynamics_rnea(ROBOT, Q, QD, QDD, [0, 0, -9.81], TIP), atol=1e-10
    )
    robot = ur5()
    target = rl.forward_kinematics_space(robot, [0.3, -0.5, 0.4, 0.2, 0.1, 0.0])
    result = rl.inverse_kinematics_space(
        robot.screw_axes_space,
        robot.home_ee_pose,
        target,
        np.zeros(6),
        1e-9,
        1e-9,
        max_iterations=0,
    )
    assert result.iterations == 0 and not result.success


def test_the_robot_form_takes_the_robot_by_name():
    np.testing.assert_allclose(
        rl.mass_matrix_crba(robot=ROBOT, joint_positions=Q), rl.mass_matrix_crba(ROBOT, Q)
    )
    with pytest.raises(TypeError, match="robot must be a ScrewRobot, got str"):
        rl.mass_matrix_crba(robot="panda", joint_positions=Q)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rl.mass_matrix_crba("ur5", np.zeros(6)), "robot must be a ScrewRobot, got str"),
        (
            lambda: rl.inverse_dynamics_rnea(None, 1, 2, 3),
            r"robot must be a ScrewRobot, got NoneType \(or call inverse_dynamics_rnea\(",
        ),
        (
            lambda: rl.forward_kinematics_space(np.eye(4), [[0], [0], [1], [0], [0]], [0.0]),
            r"screw_axes must have shape \(6, n\)",
        ),
        (
            lambda: rl.gravity_forces(np.zeros(7), None, *ARRAYS),
            r"gravity must be numeric, got None",
        ),
    ],
)
def test_a_call_in_neither_form_says_what_was_expected(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_batches_work_in_both_forms():
    batch = RNG.uniform(-1, 1, (5, 4, 7))
    robot_form = rl.inverse_dynamics_rnea(ROBOT, batch, batch, batch)
    book_form = rl.inverse_dynamics_rnea(batch, batch, batch, ROBOT.gravity, TIP * 0, *ARRAYS)
    assert robot_form.shape == (5, 4, 7)
    np.testing.assert_allclose(robot_form, book_form, atol=1e-9)
    np.testing.assert_allclose(
        rl.jacobian_body(ROBOT, batch), rl.jacobian_body(ROBOT.screw_axes_body, batch), atol=1e-12
    )


@pytest.mark.parametrize("robot", [ur5(), ROBOT], ids=["ur5", "panda-like"])
def test_the_textbook_twins_agree_with_the_fast_algorithms(robot):
    arrays = (robot.link_frames, robot.spatial_inertias, robot.screw_axes_space)
    rng = np.random.default_rng(3)
    for _ in range(5):
        q, qd, qdd = rng.uniform(-2, 2, (3, robot.n_joints))
        tip = rng.normal(size=6)
        fast = rl.inverse_dynamics_rnea(robot, q, qd, qdd, tip_wrench=tip)
        scale = max(1.0, float(np.abs(fast).max()))
        np.testing.assert_allclose(
            rl.inverse_dynamics_rnea_textbook(robot, q, qd, qdd, tip_wrench=tip),
            fast,
            atol=1e-10 * scale,
        )
        np.testing.assert_allclose(
            rl.inverse_dynamics_rnea_textbook(q, qd, qdd, robot.gravity, tip, *arrays),
            fast,
            atol=1e-10 * scale,
        )
        np.testing.assert_allclose(
            rl.mass_matrix_rnea(robot, q), rl.mass_matrix_crba(robot, q), atol=1e-10
        )
        np.testing.assert_allclose(
            rl.mass_matrix_rnea(q, *arrays), rl.mass_matrix_crba(robot, q), atol=1e-10
        )


def test_the_fast_functions_point_at_their_textbook_twins():
    assert "Educational note" in rl.inverse_dynamics_rnea.__doc__
    assert ":func:`inverse_dynamics_rnea_textbook`" in rl.inverse_dynamics_rnea.__doc__
    assert "Educational note" in rl.mass_matrix_crba.__doc__
    assert ":func:`mass_matrix_rnea`" in rl.mass_matrix_crba.__doc__
    assert "inverse_dynamics_rnea_textbook" in rl.__all__


def test_a_book_call_fills_a_stand_in_for_the_robot():
    seen = []

    def book(joint_positions, gravity, link_frames):
        return probe(BookArrays(gravity=gravity, link_frames=link_frames), joint_positions)

    @rl.screw.book_form.robot_or_arrays(book)
    def probe(robot, joint_positions, gravity=None):
        seen.append((robot, joint_positions, gravity))

    probe([0.0], [0, 0, -1], "frames")
    stand_in, q, gravity = seen[-1]
    assert isinstance(stand_in, BookArrays) and q == [0.0] and gravity is None
    assert (stand_in.gravity, stand_in.link_frames, stand_in.screw_axes) == (
        [0, 0, -1],
        "frames",
        None,
    )
    probe(ROBOT, [0.0])
    assert seen[-1] == (ROBOT, [0.0], None)


def test_the_estimated_model_of_the_book_form_defaults_to_the_true_screw_axes():
    robot = ur5()
    hold = np.zeros((3, 6))
    arrays = (robot.link_frames, robot.spatial_inertias, robot.screw_axes_space)
    book = rl.simulate_control(
        np.zeros(6),
        np.zeros(6),
        robot.gravity,
        None,
        *arrays,
        hold,
        hold,
        hold,
        robot.gravity,
        robot.link_frames,
        robot.spatial_inertias,
        20,
        10,
        18,
        0.01,
        2,
    )
    ours = rl.simulate_control(
        robot, np.zeros(6), np.zeros(6), None, hold, hold, hold, robot, 20, 10, 18, 0.01, 2
    )
    for a, b in zip(book, ours, strict=True):
        np.testing.assert_allclose(a, b, atol=1e-12)
