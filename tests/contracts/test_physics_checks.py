"""Physics checks everywhere inertial data enters (issue item 5).

One function decides (``robolab.spatial.inertia.link_inertia_problem``, tested on its own in
tests/spatial/test_inertia.py): m >= 0, the rotational inertia symmetric and positive
semi-definite (zero masses and singular inertias are allowed: point masses, thin rods), and
principal moments that satisfy the triangle inequality unless a published idealisation is
accepted explicitly (``plausibility_exceptions``). Every door is tested here: ``ScrewRobot``,
the DH setters, ``DHRobot.numeric(values)``, ``to_screw``, model files
(``read_robot_model``/``load_robot``) and URDF files.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from robot_files import bundled, write

import robolab as rl
from robolab.models.library import (
    PlausibilityException,
    check_plausibility,
    list_robots,
    load_robot,
    read_robot_model,
    save_robot,
)
from robolab.models.urdf import parse_urdf, serial_chain_from_urdf
from robolab.symbols import Ixx1, Iyy1, Izz1, l1, m1, q1, q2

#: A thin rod along x: I_xx = 0, I_yy = I_zz (the triangle inequality with equality).
ROD = np.diag([0.0, 1.0 / 12.0, 1.0 / 12.0])
#: Only a moment about the joint axis (Corke's Puma link 1): no rigid body has it.
AXIS_ONLY = np.diag([0.0, 0.0, 0.35])


def translation(x: float) -> np.ndarray:
    T = np.eye(4)
    T[0, 3] = x
    return T


def spatial(mass: float, inertia: np.ndarray) -> np.ndarray:
    G = np.zeros((6, 6))
    G[:3, :3] = inertia
    G[3:, 3:] = mass * np.eye(3)
    return G


def screw_arm(inertia: np.ndarray, mass: float = 1.0, **options) -> rl.ScrewRobot:
    """A 2R arm whose first link has ``mass`` and ``inertia``; the second a point mass."""
    return rl.ScrewRobot(
        "2R",
        translation(2.0),
        [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
        [translation(1.0), translation(1.0), np.eye(4)],
        [spatial(mass, inertia), spatial(1.0, np.zeros((3, 3)))],
        **options,
    )


def dh_arm() -> rl.DHRobot:
    arm = rl.DHRobot((1.0, 0, 0, q1), (1.0, 0, 0, q2), name="2R")
    arm.cm_positions = [(-0.5, 0, 0), (-0.5, 0, 0)]
    return arm


# ------------------------------------------------------------------ ScrewRobot


@pytest.mark.parametrize(
    ("mass", "inertia", "message"),
    [
        (
            -1.0,
            np.eye(3),
            r"spatial_inertias\[0\] \(link 1\): the mass must be non-negative, got m = -1",
        ),
        (
            1.0,
            [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]],
            r"spatial_inertias\[0\] \(link 1\): the rotational inertia I_c \(upper-left block\) "
            r"must be symmetric, but max \|I_c - I_cᵀ\| = 0.5",
        ),
        (
            1.0,
            np.diag([1.0, -0.5, 1.0]),
            r"spatial_inertias\[0\] \(link 1\): the rotational inertia I_c must be positive "
            r"semi-definite, got eigenvalues \[-0.5, 1, 1\] \(indefinite\)",
        ),
        (
            0.0,
            AXIS_ONLY,
            r"spatial_inertias\[0\] \(link 1\): .* principal moments 0, 0, 0.35 kg·m²: the largest "
            r"exceeds the sum of the others by 0.35",
        ),
    ],
)
def test_screw_robot_refuses_impossible_links(mass, inertia, message):
    with pytest.raises(ValueError, match=message):
        screw_arm(np.asarray(inertia, dtype=float), mass)


def test_screw_robot_accepts_a_named_idealisation_and_the_report_names_it():
    robot = screw_arm(AXIS_ONLY, 0.0, plausibility_exceptions=[(1, "inertia_triangle", "Corke")])
    assert robot.plausibility_exceptions == (PlausibilityException(1, "inertia_triangle", "Corke"),)
    findings = check_plausibility(robot)
    assert [(f.link, f.check, f.accepted) for f in findings] == [
        (1, "mass", None),
        (1, "inertia_triangle", "Corke"),
    ]
    # kept by replace and with_gravity, dropped when changed, refused again without it
    assert robot.replace(name="copy").plausibility_exceptions == robot.plausibility_exceptions
    assert (
        robot.with_gravity([0, 0, -1.62]).plausibility_exceptions == robot.plausibility_exceptions
    )
    with pytest.raises(ValueError, match=r"\(link 1\).*triangle|\(link 1\).*sum of the others"):
        robot.replace(plausibility_exceptions=None)
    assert "Accepted idealisations" in robot._repr_html_()
    # an exception for another link does not help link 1
    with pytest.raises(ValueError, match=r"\(link 1\)"):
        screw_arm(AXIS_ONLY, plausibility_exceptions=[(2, "inertia_triangle", "other link")])


def test_the_option_never_accepts_negative_masses_or_indefinite_inertias():
    accepted = [(1, "inertia_triangle", "x"), (1, "mass", "x")]
    with pytest.raises(ValueError, match=r"mass must be non-negative"):
        screw_arm(np.eye(3), -1.0, plausibility_exceptions=accepted)
    with pytest.raises(ValueError, match=r"positive semi-definite"):
        screw_arm(np.diag([1.0, -0.5, 1.0]), plausibility_exceptions=accepted)


@pytest.mark.parametrize(
    ("exceptions", "error", "message"),
    [
        (
            "link 1",
            TypeError,
            r"plausibility_exceptions must be a sequence of \(link, check, reason\)",
        ),
        ([(3, "inertia_triangle", "x")], ValueError, r"link must be a link number 1..2, got 3"),
        (
            [(True, "inertia_triangle", "x")],
            TypeError,
            r"link must be an int, got the boolean True",
        ),
        ([(1.0, "inertia_triangle", "x")], TypeError, r"link must be an int, got float 1.0"),
        (
            [(1, "triangle", "x")],
            ValueError,
            r"check must be one of \['mass', 'inertia_triangle'\]",
        ),
        ([(1, "inertia_triangle", " ")], ValueError, r"reason must say why the data is kept"),
        ([(1, "inertia_triangle", 7)], TypeError, r"reason must be a str, got int 7"),
        ([{"link": 1, "check": "mass"}], ValueError, r"expected exactly the keys"),
        ([1], TypeError, r"plausibility_exceptions\[0\] must be a PlausibilityException"),
    ],
)
def test_bad_plausibility_exceptions_are_named(exceptions, error, message):
    with pytest.raises(error, match=message):
        screw_arm(ROD, plausibility_exceptions=exceptions)


def test_the_book_functions_on_bare_arrays_keep_accepting_published_data():
    # robolab.screw.dynamics.rnea mirrors the book's library: bare arrays, no exception
    # mechanism, so only the mandatory checks (mass, positive semi-definite) apply there.
    robot = screw_arm(AXIS_ONLY, 0.0, plausibility_exceptions=[(1, "inertia_triangle", "x")])
    M = rl.screw.dynamics.mass_matrix.mass_matrix_crba(
        [0.2, 0.3], robot.link_frames, robot.spatial_inertias, robot.screw_axes_space
    )
    np.testing.assert_allclose(M, rl.mass_matrix_crba(robot, [0.2, 0.3]), atol=1e-12)


# ------------------------------------------------------------------ DHRobot: setters


def test_dh_setters_refuse_impossible_links_with_the_link_named():
    arm = dh_arm()
    with pytest.raises(ValueError, match=r"link 2, mass: expected a non-negative mass, got -1"):
        arm.masses = [1.0, -1.0]
    with pytest.raises(
        ValueError,
        match=r"link 1, inertia tensor: expected a rigid body's inertia .* principal moments "
        r"0, 0, 0.35 kg·m².*robot\.plausibility_exceptions = \[\(1, \"inertia_triangle\"",
    ):
        arm.inertia_tensors = [AXIS_ONLY, ROD]
    with pytest.raises(ValueError, match=r"link 2, inertia tensor: expected a positive semi-def"):
        arm.inertia_tensors = [ROD, np.diag([1.0, -1.0, 1.0])]
    arm.masses = [0, m1]  # zero and symbolic masses are fine
    arm.inertia_tensors = [np.zeros((3, 3)), ROD]


def test_dh_robot_accepts_a_named_idealisation_before_the_inertias():
    arm = dh_arm()
    arm.plausibility_exceptions = [(1, "inertia_triangle", "only I_zz published")]
    arm.masses = [1.0, 1.0]
    arm.inertia_tensors = [AXIS_ONLY, ROD]
    assert [(f.link, f.check) for f in check_plausibility(arm)] == [(1, "inertia_triangle")]
    # the screw form and the other convention keep the accepted exception
    assert arm.to_screw().plausibility_exceptions == arm.plausibility_exceptions
    assert arm.to_modified().plausibility_exceptions == arm.plausibility_exceptions
    assert arm.to_modified().to_screw().plausibility_exceptions == arm.plausibility_exceptions
    # withdrawing it while the tensor is set is refused
    with pytest.raises(ValueError, match=r"link 1, inertia tensor: expected a rigid body's"):
        arm.plausibility_exceptions = None
    assert arm.plausibility_exceptions[0].reason == "only I_zz published"


# ------------------------------------------------------------------ DHRobot: numeric(values)


def test_numeric_values_are_checked_once_they_make_the_dynamics_numeric():
    arm = rl.DHRobot((l1, 0, 0, q1))
    arm.cm_positions = [(0, 0, 0)]
    good = {"l_1": 0.5, "m_1": 2.0, "I_xx1": 0.0, "I_yy1": 0.1, "I_zz1": 0.1}
    np.testing.assert_allclose(arm.numeric(good).inverse_dynamics([0.0], [0.0], [1.0]), [0.6])
    with pytest.raises(
        ValueError, match=r"values: with these numbers link 1 has the mass -2, expected a non-neg"
    ):
        arm.numeric(good | {"m_1": -2.0})
    with pytest.raises(
        ValueError,
        match=r"values: with these numbers link 1, inertia tensor: expected a positive "
        r"semi-definite matrix, got eigenvalues -0.1, 0, 0.1",
    ):
        arm.numeric(good | {"I_yy1": -0.1})
    with pytest.raises(
        ValueError, match=r"values: with these numbers link 1, inertia tensor: .* 0, 0, 0.35 kg·m²"
    ):
        arm.numeric(good | {"I_yy1": 0.0, "I_zz1": 0.35})
    # kinematics only, or values that leave the inertia symbolic: nothing to check yet
    assert arm.numeric({l1: 0.5}).forward_kinematics([0.0])[0, 3] == pytest.approx(0.5)
    arm.numeric({m1: 1.0, Ixx1: 1.0})
    # the accepted idealisation passes here too
    arm.plausibility_exceptions = [(1, "inertia_triangle", "textbook pendulum")]
    arm.numeric(good | {"I_yy1": 0.0, "I_zz1": 0.35})
    assert Iyy1 in arm.symbolic_parameters() and Izz1 in arm.symbolic_parameters()


def test_to_screw_with_values_is_checked_too():
    arm = rl.DHRobot((l1, 0, 0, q1))
    arm.cm_positions = [(0, 0, 0)]
    with pytest.raises(ValueError, match=r"link 1 has the mass -1, expected a non-negative"):
        arm.to_screw({"l_1": 1.0, "m_1": -1.0, "I_xx1": 0, "I_yy1": 0, "I_zz1": 0})


# ------------------------------------------------------------------ model files


@pytest.mark.parametrize("name", sorted(list_robots()))
def test_every_bundled_model_still_loads(name):
    robot = load_robot(name)
    assert all(f.accepted for f in check_plausibility(robot))
    if read_robot_model(name).dh:
        for convention in read_robot_model(name).dh:
            dh = load_robot(name, form="dh", convention=convention)
            assert dh.plausibility_exceptions == robot.plausibility_exceptions
            assert dh.to_screw().plausibility_exceptions == robot.plausibility_exceptions


def test_stanford_and_puma_load_with_their_published_idealisations_named():
    stanford = load_robot("stanford")
    (finding,) = check_plausibility(stanford)
    assert (finding.link, finding.check) == (5, "inertia_triangle")
    assert "Paul 1981" in finding.accepted
    puma = load_robot("puma560", form="dh")
    assert [(f.link, f.check) for f in check_plausibility(puma)] == [
        (1, "mass"),
        (1, "inertia_triangle"),
        (3, "inertia_triangle"),
    ]
    assert float(puma.inertia_tensors[0][1, 1]) == pytest.approx(0.35)  # Iyy about joint 1


def test_a_file_without_its_exception_reads_but_does_not_make_a_robot(tmp_path):
    data = bundled("stanford")
    data.pop("plausibility_exceptions")
    path = write(tmp_path, data)
    model = read_robot_model(path)  # the data loads: check_plausibility reports it
    assert "NOT ACCEPTED" in str(check_plausibility(model)[0])
    with pytest.raises(
        ValueError,
        match=r"spatial_inertias\[4\] \(link 5\): .* principal moments 0, 0\.0004, 0\.003 kg·m²",
    ):
        load_robot(path)
    with pytest.raises(ValueError, match=r"link 5, inertia tensor: .* 0, 0\.0004, 0\.003 kg·m²"):
        load_robot(path, form="dh")


def test_saving_a_robot_keeps_its_accepted_exceptions(tmp_path):
    robot = load_robot("puma560")
    again = load_robot(save_robot(robot, tmp_path / "copy.json"))
    assert again.plausibility_exceptions == robot.plausibility_exceptions
    dh = load_robot("stanford", form="dh")
    assert load_robot(save_robot(dh, tmp_path / "dh.json")).plausibility_exceptions == (
        dh.plausibility_exceptions
    )


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (
            lambda d: d["spatial_inertias"][0][3].__setitem__(3, -1.0),
            r"\$\.spatial_inertias\[0\]",
        ),
        (
            lambda d: d["dh"]["standard"]["inertia_tensors"][1][0].__setitem__(0, -1.0),
            r"\$\.dh\.standard\.inertia_tensors\[1\]: expected a positive semi-definite inertia "
            r"tensor, got principal moments -1",
        ),
        (
            lambda d: d["dh"]["standard"]["masses"].__setitem__(0, -1.0),
            r"\$\.dh\.standard\.masses\[0\]: expected a mass >= 0",
        ),
    ],
)
def test_the_file_reader_applies_the_same_rules(tmp_path, corrupt, message):
    data = bundled("planar2r")
    corrupt(data)
    with pytest.raises(ValueError, match=message):
        read_robot_model(write(tmp_path, data))


# ------------------------------------------------------------------ URDF


@pytest.mark.parametrize(
    ("inertial", "message"),
    [
        (
            "<mass value='-1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/>",
            r"<mass>: value must be >= 0, got -1",
        ),
        (
            "<mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='-1' iyz='0' izz='1'/>",
            r"<inertia> must be positive semi-definite, but its smallest principal moment is -1",
        ),
    ],
)
def test_the_urdf_reader_applies_the_same_rules(inertial, message):
    # Applied where the link is used, on the chain (a link off it is noted, not refused:
    # issue 28, TIAGo's antenna).
    text = (
        f"<robot name='r'><link name='base'/><link name='a'><inertial>{inertial}</inertial>"
        "</link><joint name='j' type='continuous'><parent link='base'/><child link='a'/>"
        "</joint></robot>"
    )
    robot = parse_urdf(text)
    with pytest.raises(ValueError, match=message):
        serial_chain_from_urdf(robot, "a")


def test_the_urdf_reader_keeps_zero_masses_and_singular_inertias():
    text = (
        "<robot name='r'><link name='a'><inertial><mass value='0'/>"
        "<inertia ixx='0' ixy='0' ixz='0' iyy='0' iyz='0' izz='0.35'/></inertial></link></robot>"
    )
    assert parse_urdf(text).links["a"].inertial.mass == 0.0


def test_symbolic_inertias_are_checked_only_when_they_are_numbers():
    arm = dh_arm()
    arm.inertia_tensors = [sp.diag(Ixx1, 0, 0), ROD]  # cannot be checked yet
    with pytest.raises(ValueError, match=r"link 1, inertia tensor: .* 0, 0, 2 kg·m²"):
        arm.numeric({Ixx1: 2.0, "m_1": 1.0, "m_2": 1.0})
