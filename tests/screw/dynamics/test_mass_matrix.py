"""The mass matrix (Modern Robotics, sections 8.2 and 8.4): ``screw/dynamics/mass_matrix.py``.

References: the printed example of the book library's MassMatrix (the three-link arm);
Pinocchio's crba for the book's UR5, a Panda-like 7-DOF arm and a SCARA-like arm with a
prismatic joint at 25 random states (``reference/generate_pinocchio_screw_reference.py``),
one at a time, as a small batch and as a batch above ``BATCH_THRESHOLD``; ``modern_robotics``
on random robots is in ``test_rnea.py``, with the torques. Identities: M symmetric positive
definite, the CRBA equal to the book's n inverse-dynamics calls and to the composite loop
as written.
"""

from pathlib import Path

import numpy as np
import pytest
from reference.screw_arms import ARMS, three_link_book, ur5

import robolab as rl
from robolab.screw._fast.batched import BATCH_THRESHOLD
from robolab.screw.dynamics import mass_matrix as mm
from robolab.screw.dynamics.model import robot_model

REFERENCE = np.load(Path(__file__).parents[2] / "reference" / "pinocchio_screw_reference.npz")
GRAVITY = REFERENCE["gravity"]
FRAMES, INERTIAS, SCREWS = three_link_book()
Q3 = [0.1, 0.1, 0.1]


def test_book_mass_matrix_example_crba_and_rnea():
    expected = [
        [2.25433380e01, -3.07146754e-01, -7.18426391e-03],
        [-3.07146754e-01, 1.96850717e00, 4.32157368e-01],
        [-7.18426391e-03, 4.32157368e-01, 1.91630858e-01],
    ]
    for mass_matrix in (mm.mass_matrix_crba, mm.mass_matrix_rnea):
        np.testing.assert_allclose(mass_matrix(Q3, FRAMES, INERTIAS, SCREWS), expected, atol=5e-9)


@pytest.mark.parametrize("name", sorted(ARMS))
@pytest.mark.parametrize("tiles", [None, 1, 3], ids=["one at a time", "small batch", "large batch"])
def test_mass_matrix_matches_pinocchio(name, tiles):
    robot = ARMS[name](gravity=GRAVITY)
    q, expected = REFERENCE[f"{name}__q"], REFERENCE[f"{name}__mass_matrix"]
    if tiles is None:
        for i in range(0, 25, 4):
            np.testing.assert_allclose(rl.mass_matrix_crba(robot, q[i]), expected[i], atol=1e-9)
        return
    assert (25 * tiles >= BATCH_THRESHOLD) == (tiles == 3)
    np.testing.assert_allclose(
        rl.mass_matrix_crba(robot, np.tile(q, (tiles, 1))),
        np.tile(expected, (tiles, 1, 1)),
        atol=1e-9,
    )


def test_mass_matrix_is_symmetric_positive_definite_and_crba_equals_rnea():
    robot = ur5()
    rng = np.random.default_rng(0)
    arrays = (robot.link_frames, robot.spatial_inertias, robot.screw_axes_space)
    for count in (1, 7, BATCH_THRESHOLD):
        q = rng.uniform(-3, 3, (count, 6))
        M = rl.mass_matrix_crba(robot, q)
        np.testing.assert_array_equal(M, M.swapaxes(-1, -2))
        assert np.all(np.linalg.eigvalsh(M) > 0)
        np.testing.assert_allclose(rl.mass_matrix_rnea(robot, q), M, atol=1e-12)
        np.testing.assert_allclose(mm.mass_matrix_rnea(q, *arrays), M, atol=1e-12)


@pytest.mark.parametrize("name", sorted(ARMS))
def test_the_composite_loop_as_written_equals_the_book_and_pinocchio(name):
    robot = ARMS[name](gravity=GRAVITY)
    q = REFERENCE[f"{name}__q"][:5]
    M = mm.composite_rigid_body_algorithm(robot_model(robot), q)
    np.testing.assert_allclose(M, REFERENCE[f"{name}__mass_matrix"][:5], atol=1e-9)
    np.testing.assert_array_equal(M, M.swapaxes(-1, -2))
    np.testing.assert_allclose(M[0], rl.mass_matrix_rnea(robot, q[0]), atol=1e-12)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: mm.mass_matrix_crba(Q3, FRAMES, INERTIAS[:2], SCREWS),
            ValueError,
            r"spatial_inertias must hold 3 matrices \(one per link\), got 2",
        ),
        (
            lambda: mm.mass_matrix_crba(
                Q3, FRAMES, INERTIAS * np.r_[1, -1, 1][:, None, None], SCREWS
            ),
            ValueError,
            r"spatial_inertias\[1\] \(link 2\): the mass must be non-negative",
        ),
        (
            lambda: rl.mass_matrix_crba(None, np.zeros(6)),
            TypeError,
            "robot must be a ScrewRobot, got NoneType",
        ),
        (
            lambda: rl.mass_matrix_rnea(ur5(), np.zeros(5)),
            ValueError,
            r"joint_positions must have shape \(6,\) or \(\.\.\., 6\)",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()
