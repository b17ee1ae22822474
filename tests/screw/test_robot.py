"""ScrewRobot: the fields of ModernRoboticsBook.jl's Robot, validation, immutability, copies.

References: the book's body screw axes B_i = [Ad_{M⁻¹}] S_i (eq. 4.16) computed
by the ``modern_robotics`` package; the UR5 data of the book (see
``reference/screw_arms.py``).
"""

import math

import modern_robotics as mr
import numpy as np
import pytest
from reference.screw_arms import UR5_LINK_FRAMES, UR5_SCREW_AXES, UR5_SPATIAL_INERTIAS, ur5

import robolab as rl
from robolab import ScrewRobot


def translation(x: float) -> np.ndarray:
    T = np.eye(4)
    T[0, 3] = x
    return T


POINT_MASS = np.diag([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
NOT_SYMMETRIC = np.diag([1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
NOT_SYMMETRIC[0, 1] = 0.5


def planar_2r(**changes) -> ScrewRobot:
    """Two unit links with point masses at their tips (the book's section 8.1.1 arm)."""
    arguments = {
        "name": "planar 2R",
        "home_ee_pose": translation(2.0),
        "screw_axes_space": [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
        "link_frames": [translation(1.0), translation(1.0), np.eye(4)],
        "spatial_inertias": [POINT_MASS, POINT_MASS],
    }
    arguments.update(changes)
    return ScrewRobot(**arguments)


# --------------------------------------------------------------------------- fields


def test_fields_of_the_book_ur5():
    robot = ur5()
    assert robot.name == "UR5 (Modern Robotics)"
    assert robot.n_joints == 6
    assert robot.link_frames.shape == (7, 4, 4)
    assert robot.spatial_inertias.shape == (6, 6, 6)
    np.testing.assert_array_equal(robot.screw_axes_space, UR5_SCREW_AXES)
    np.testing.assert_array_equal(robot.link_frames, UR5_LINK_FRAMES)
    np.testing.assert_array_equal(robot.spatial_inertias, UR5_SPATIAL_INERTIAS)
    np.testing.assert_array_equal(robot.gravity, [0.0, 0.0, -9.81])
    assert robot.joint_names == tuple(f"joint{i}" for i in range(1, 7))
    assert robot.joint_types == ("revolute",) * 6
    assert robot.joint_limits == ((-math.pi, math.pi),) * 6
    # Book, Example 4.5: M = [[-1, 0, 0, L1 + L2], [0, 0, 1, W1 + W2], [0, 1, 0, H1 - H2]].
    np.testing.assert_allclose(
        robot.home_ee_pose,
        [
            [-1, 0, 0, 0.425 + 0.39225],
            [0, 0, 1, 0.10915 + 0.0823],
            [0, 1, 0, 0.089159 - 0.09465],
            [0, 0, 0, 1],
        ],
        atol=1e-12,
    )


def test_body_screw_axes_are_the_space_axes_seen_from_the_end_effector():
    robot = ur5()
    expected = mr.Adjoint(mr.TransInv(robot.home_ee_pose)) @ robot.screw_axes_space
    np.testing.assert_allclose(robot.screw_axes_body, expected, atol=1e-15)


def test_joint_types_are_read_from_the_screw_axes():
    robot = ScrewRobot(
        "RP",
        translation(1.0),
        [[0, 0], [0, 0], [1, 0], [0, 1], [0, 0], [0, 0]],
        [np.eye(4), np.eye(4), translation(1.0)],
        [POINT_MASS, POINT_MASS],
    )
    assert robot.joint_types == ("revolute", "prismatic")
    assert robot.joint_limits == (
        rl.screw.robot.DEFAULT_REVOLUTE_LIMITS,
        rl.screw.robot.DEFAULT_PRISMATIC_LIMITS,
    )


def test_names_types_and_limits_given_explicitly():
    robot = planar_2r(
        joint_names=["shoulder", "elbow"],
        joint_types=["revolute", "revolute"],
        joint_limits=[(-1, 1), (-math.inf, math.inf)],
        gravity=(0, -9.81, 0),
    )
    assert robot.joint_names == ("shoulder", "elbow")
    assert robot.joint_limits == ((-1.0, 1.0), (-math.inf, math.inf))
    np.testing.assert_array_equal(robot.gravity, [0, -9.81, 0])


def test_published_idealisations_are_accepted():
    # Zero mass with an inertia about the joint axis only (Corke's Puma link 1),
    # and a point mass (zero rotational inertia): positive semi-definite, allowed. The
    # axis-only inertia breaks the triangle inequality, so it needs an explicit exception.
    axis_only = np.diag([0.0, 0.0, 0.35, 0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"link 1\).*principal moments 0, 0, 0.35 kg·m²"):
        planar_2r(spatial_inertias=[axis_only, POINT_MASS])
    robot = planar_2r(
        spatial_inertias=[axis_only, POINT_MASS],
        plausibility_exceptions=[(1, "inertia_triangle", "Corke's Puma link 1")],
    )
    assert robot.spatial_inertias[0, 3, 3] == 0.0
    M = rl.mass_matrix_crba(robot, [0.3, 0.4])
    assert np.all(np.linalg.eigvalsh(M) > 0)


# ---------------------------------------------------------------- immutability and copies


def test_robot_is_immutable():
    robot = planar_2r()
    with pytest.raises(AttributeError, match="ScrewRobot is immutable"):
        robot.name = "other"
    with pytest.raises(ValueError, match="read-only"):
        robot.screw_axes_space[0, 0] = 5.0
    with pytest.raises(ValueError, match="read-only"):
        robot.link_frames[0][0, 3] = 5.0
    with pytest.raises(AttributeError, match="immutable"):
        del robot.gravity


def test_the_robot_keeps_its_own_copies_of_the_arrays():
    screws = np.array([[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]], dtype=float)
    robot = planar_2r(screw_axes_space=screws)
    screws[2, 0] = 7.0
    assert robot.screw_axes_space[2, 0] == 1.0


def test_with_gravity_copies_and_shares_the_cached_constants():
    robot = planar_2r()
    rl.mass_matrix_crba(robot, [0.1, 0.2])  # fills the cache
    moon = robot.with_gravity([0, 0, -1.62])
    np.testing.assert_array_equal(moon.gravity, [0, 0, -1.62])
    np.testing.assert_array_equal(robot.gravity, [0, 0, -9.81])
    assert moon._cache is robot._cache
    np.testing.assert_allclose(
        rl.gravity_forces(moon, [0.0, 0.0]),
        rl.gravity_forces(robot, [0.0, 0.0]) * 1.62 / 9.81,
        atol=1e-10,
    )
    with pytest.raises(ValueError, match=r"gravity must have shape \(3,\), got shape \(2,\)"):
        robot.with_gravity([0, 1])


def test_replace_validates_the_new_robot():
    robot = planar_2r()
    heavier = robot.replace(spatial_inertias=[2 * POINT_MASS, POINT_MASS], name="heavier")
    assert heavier.name == "heavier" and heavier.spatial_inertias[0, 3, 3] == 2.0
    assert robot.spatial_inertias[0, 3, 3] == 1.0
    with pytest.raises(ValueError, match=r"spatial_inertias\[0\] \(link 1\): the mass"):
        robot.replace(spatial_inertias=[-POINT_MASS, POINT_MASS])
    with pytest.raises(TypeError, match=r"unknown field\(s\) \['colour'\]"):
        robot.replace(colour="red")


def test_equality_compares_every_field():
    assert planar_2r() == planar_2r()
    assert planar_2r() != planar_2r(name="other")
    assert planar_2r() != planar_2r(gravity=(0, 0, -1))
    assert planar_2r() != "planar 2R"


def test_repr_and_html_say_what_the_robot_is():
    robot = planar_2r()
    assert repr(robot) == (
        "ScrewRobot('planar 2R', n_joints=2, joint_types=('revolute', 'revolute'), "
        "gravity=(0.0, 0.0, -9.81))"
    )
    page = robot._repr_html_()
    assert "<table>" in page and "[ω; v]" in page and "joint2" in page


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"name": 5}, TypeError, "name must be a str, got int 5"),
        ({"home_ee_pose": np.eye(3)}, ValueError, r"home_ee_pose must have shape \(4, 4\)"),
        (
            {"home_ee_pose": np.diag([1, 1, -1, 1.0])},
            ValueError,
            "home_ee_pose must be a homogeneous transform|rotation part of home_ee_pose",
        ),
        (
            {"home_ee_pose": translation(2.5)},
            ValueError,
            r"home_ee_pose must equal the product M_01 M_12 ⋯ M_\{n,n\+1\} of link_frames .* "
            r"differ by up to 0.5",
        ),
        (
            {"screw_axes_space": np.zeros((5, 2))},
            ValueError,
            r"screw_axes_space must have shape \(6, n\), got shape \(5, 2\)",
        ),
        (
            {
                "screw_axes_space": np.zeros((6, 0)),
                "link_frames": [np.eye(4)],
                "spatial_inertias": [],
            },
            ValueError,
            "at least one column",
        ),
        (
            {"screw_axes_space": [[0, 0], [0, 0], [2, 1], [0, 0], [0, -1], [0, 0]]},
            ValueError,
            r"screw_axes_space\[:, 0\] \(joint 'joint1'\): a screw axis needs ‖ω‖ = 1 "
            r".*got ‖ω‖ = 2",
        ),
        (
            {"screw_axes_space": [[0, 0], [0, 0], [0, 1], [0.5, 0], [0, -1], [0, 0]]},
            ValueError,
            r"\(joint 'joint1'\).*got ‖ω‖ = 0 and ‖v‖ = 0.5",
        ),
        (
            {"screw_axes_space": [[0, 0], [0, 0], [1, np.nan], [0, 0], [0, -1], [0, 0]]},
            ValueError,
            "screw_axes_space contains a non-finite value",
        ),
        (
            {"link_frames": [translation(1.0), translation(1.0)]},
            ValueError,
            r"link_frames must hold n \+ 1 = 3 transforms .* got 2",
        ),
        ({"link_frames": 5}, ValueError, "link_frames must be a sequence of 3 transforms"),
        (
            {"link_frames": [translation(1.0), np.diag([1, -1, 1, 1.0]), np.eye(4)]},
            ValueError,
            r"link_frames\[1\] \(M_1,2, link 2\)",
        ),
        (
            {"link_frames": [translation(1.0), translation(1.0), np.ones((3, 3))]},
            ValueError,
            r"link_frames\[2\] \(M_2,3, from link 2 to the end-effector frame\) must have shape",
        ),
        (
            {"spatial_inertias": [POINT_MASS]},
            ValueError,
            r"spatial_inertias must hold 2 matrices \(one per link\), got 1",
        ),
        (
            {"spatial_inertias": [POINT_MASS, np.eye(5)]},
            ValueError,
            r"spatial_inertias\[1\] \(link 2\) must have shape \(6, 6\)",
        ),
        (
            {"spatial_inertias": [POINT_MASS, -POINT_MASS]},
            ValueError,
            r"spatial_inertias\[1\] \(link 2\): the mass must be non-negative, got m = -1",
        ),
        (
            {"spatial_inertias": [np.diag([1, 1, 1, 1, 2, 1.0]), POINT_MASS]},
            ValueError,
            r"spatial_inertias\[0\] \(link 1\): the lower-right block must be m·1",
        ),
        (
            {"spatial_inertias": [POINT_MASS + np.eye(6, k=3), POINT_MASS]},
            ValueError,
            r"spatial_inertias\[0\] \(link 1\) must have the form \[\[I_c, 0\], \[0, m·1\]\]",
        ),
        (
            {"spatial_inertias": [NOT_SYMMETRIC, POINT_MASS]},
            ValueError,
            r"spatial_inertias\[0\] \(link 1\): the rotational inertia I_c .* symmetric",
        ),
        (
            {"spatial_inertias": [np.diag([1.0, -0.5, 1.0, 1.0, 1.0, 1.0]), POINT_MASS]},
            ValueError,
            r"spatial_inertias\[0\] \(link 1\): the rotational inertia I_c must be positive "
            r"semi-definite, got eigenvalues \[-0.5, 1, 1\] \(indefinite\)",
        ),
        ({"gravity": [0, 0]}, ValueError, r"gravity must have shape \(3,\)"),
        ({"gravity": [0, 0, np.inf]}, ValueError, "gravity contains a non-finite value"),
        ({"joint_names": ["a"]}, ValueError, r"joint_names must have 2 entries \(one per joint\)"),
        ({"joint_names": "ab"}, TypeError, "joint_names must be a sequence of 2 str"),
        ({"joint_names": ["a", 3]}, TypeError, r"joint_names\[1\] \(joint 2\) must be a str"),
        (
            {"joint_names": ["a", "a"]},
            ValueError,
            r"joint_names\[1\] \(joint 2\): the name 'a' is already used by joint 1",
        ),
        (
            {"joint_names": ["c\u00f4te", "co\u0302te"]},
            ValueError,
            r"^joint_names\[1\] \(joint 2\): the name 'co\u0302te' is already used by joint 1 "
            r"\(as 'c\u00f4te': the same name in Unicode normal form NFC\); joint names must be "
            "distinct$",
        ),
        (
            {"joint_names": ["elbow", "elbow\u200b"]},
            ValueError,
            r"^joint_names\[1\] \(joint 2\) must be a name of at most 1000 characters without "
            r"control or invisible characters \(Unicode categories Cc, Cf, Cs, Zl, Zp\), got the "
            r"text 'elbow\\u200b', which holds U\+200B ZERO WIDTH SPACE \(an invisible format "
            r"character\) at index 5$",
        ),
        (
            {"joint_names": ["a", "\x1b[2Jb"]},
            ValueError,
            r"joint_names\[1\] \(joint 2\) must be a name .* U\+001B \(a control character\)",
        ),
        (
            {"joint_names": ["a\u202eb", "b"]},
            ValueError,
            r"joint_names\[0\] \(joint 1\) must be a name .* U\+202E RIGHT-TO-LEFT OVERRIDE",
        ),
        ({"name": "arm\x00"}, ValueError, r"^name must be a name .* U\+0000 \(a control"),
        ({"name": "arm\n2"}, ValueError, r"^name must be a name .* U\+000A \(a control"),
        ({"joint_types": ["revolute"]}, ValueError, "joint_types must have 2 entries"),
        (
            {"joint_types": ["revolute", "hinge"]},
            ValueError,
            r"joint_types\[1\] \(joint 'joint2'\) must be 'revolute' or 'prismatic', got 'hinge'",
        ),
        (
            {"joint_types": ["revolute", "prismatic"]},
            ValueError,
            r"joint_types\[1\] \(joint 'joint2'\) is 'prismatic', but its screw axis "
            r"screw_axes_space\[:, 1\] is revolute",
        ),
        ({"joint_limits": [(-1, 1)]}, ValueError, r"joint_limits must have shape \(2, 2\)"),
        (
            {"joint_limits": [(-1, 1), (1, -1)]},
            ValueError,
            r"joint_limits\[1\] \(joint 'joint2'\): lower limit must be less than the upper limit, "
            r"got \(1, -1\)",
        ),
        (
            {"joint_limits": [(-1, 1), (np.nan, 1)]},
            ValueError,
            r"joint_limits\[1\] \(joint 'joint2'\) contains NaN",
        ),
        (
            {"joint_limits": [(-1, 1), ("low", 1)]},
            TypeError,
            r"joint_limits must be numeric, got the text 'low' at index \(1, 0\)",
        ),
    ],
)
def test_every_invalid_field_is_refused_with_a_message_naming_it(changes, error, message):
    with pytest.raises(error, match=message):
        planar_2r(**changes)


def test_prismatic_joint_declared_revolute_is_refused():
    with pytest.raises(ValueError, match=r"is 'revolute', but its screw axis .* is prismatic"):
        ScrewRobot(
            "P",
            translation(1.0),
            [[0], [0], [0], [1], [0], [0]],
            [np.eye(4), translation(1.0)],
            [POINT_MASS],
            joint_types=["revolute"],
        )


# ------------------------------------------------------------------ one place for conventions


def test_every_door_has_the_defaults_of_robolab_conventions():
    from robolab import conventions
    from robolab.models import urdf

    assert conventions.DEFAULT_PRISMATIC_LIMITS == (0.0, 1000.0)  # Moro's, for every door
    slider = ScrewRobot(
        "slider", np.eye(4), [[0], [0], [0], [1], [0], [0]], [np.eye(4)] * 2, [POINT_MASS]
    )
    assert slider.joint_limits == (conventions.DEFAULT_PRISMATIC_LIMITS,)
    assert tuple(slider.gravity) == conventions.DEFAULT_GRAVITY
    dh = rl.DHRobot((0, 0, 0, rl.symbols.q1), (0, 0, rl.symbols.q2, 0, "p"))
    assert dh.joint_limits == [
        conventions.DEFAULT_REVOLUTE_LIMITS,
        conventions.DEFAULT_PRISMATIC_LIMITS,
    ]
    assert urdf.DEFAULT_PRISMATIC_LIMITS is conventions.DEFAULT_PRISMATIC_LIMITS
    assert rl.screw.robot.JOINT_TYPES is conventions.JOINT_TYPES


def test_from_checked_keeps_the_checks_a_record_does_not_guarantee():
    rod = np.diag([0, 0, 0.35, 1, 1, 1.0])  # breaks the triangle inequality
    arrays = (
        "rod",
        np.eye(4),
        np.array([[0.0], [0], [1], [0], [0], [0]]),
        np.array([np.eye(4)] * 2),
        np.array([rod]),
        np.array([0, 0, -9.81]),
        ["joint1"],
        ["revolute"],
    )
    with pytest.raises(ValueError, match=r"spatial_inertias\[0\] \(link 1\).*sum of the others"):
        ScrewRobot.from_checked(*arrays, [(-1.0, 1.0)])
    with pytest.raises(ValueError, match=r"lower limit must be less than the upper limit"):
        ScrewRobot.from_checked(*arrays, [(1.0, 1.0)], [(1, "inertia_triangle", "textbook")])
    robot = ScrewRobot.from_checked(*arrays, [(-1.0, 1.0)], [(1, "inertia_triangle", "textbook")])
    assert robot == ScrewRobot(
        *arrays[:6],
        joint_limits=[(-1, 1)],
        plausibility_exceptions=[(1, "inertia_triangle", "textbook")],
    )
    assert not robot.home_ee_pose.flags.writeable


def test_names_are_kept_in_unicode_normal_form_nfc():
    robot = planar_2r(name="Bra\u0303o", joint_names=["e\u0301paule", "coude"])  # decomposed
    assert robot.name == "Br\u00e3o"
    assert robot.joint_names == ("\u00e9paule", "coude")


def test_at_most_max_robot_joints_joints():
    assert rl.screw.robot.MAX_ROBOT_JOINTS == 1000

    def chain(n: int) -> dict:
        home = translation(0.1 * (n + 1))
        screws = np.zeros((6, n))
        screws[2] = 1.0
        screws[4] = -0.1 * np.arange(1, n + 1)
        return {
            "home_ee_pose": home,
            "screw_axes_space": screws,
            "link_frames": [translation(0.1)] * (n + 1),
            "spatial_inertias": [POINT_MASS] * n,
        }

    assert planar_2r(**chain(1000)).n_joints == 1000
    with pytest.raises(
        ValueError,
        match=r"^screw_axes_space has 1001 columns: 1001 joints, more than the 1000 a robot may "
        r"have \(robolab\.screw\.robot\.MAX_ROBOT_JOINTS\)$",
    ):
        planar_2r(**chain(1001))
    big = chain(1001)
    with pytest.raises(ValueError, match=r"^joint_names holds 1001 names: 1001 joints, more than"):
        ScrewRobot.from_checked(
            "snake",
            big["home_ee_pose"],
            big["screw_axes_space"],
            np.array(big["link_frames"]),
            np.array(big["spatial_inertias"]),
            np.array([0, 0, -9.81]),
            [f"j{i}" for i in range(1001)],
            ["revolute"] * 1001,
            [(-1.0, 1.0)] * 1001,
        )
