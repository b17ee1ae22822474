"""robolab.compare_models: equivalence checks between DH (both conventions) and screw models.

References: a screw model written by hand from the Modern Robotics book
(section 8.1.1, planar 2R with point masses at the link tips), deliberate
model errors whose size is known in closed form (a tool offset, a wrong mass),
and the bundled model files.
"""

from __future__ import annotations

import numpy as np
import pytest

import robolab as rl
from robolab import DHRobot, ModelComparison, ScrewRobot, compare_models, load_robot, transl
from robolab.symbols import l1, l2, lc1, lc2, m2, q1, q2, q3

GRAVITY = (0.0, -9.81, 0.0)


def book_arm(mass_2: float = 2.0) -> ScrewRobot:
    """Modern Robotics §8.1.1: L1 = L2 = 1 m, point masses 1 kg and ``mass_2`` kg at the tips."""

    def x(length: float) -> np.ndarray:
        T = np.eye(4)
        T[0, 3] = length
        return T

    return ScrewRobot(
        "book 2R",
        home_ee_pose=x(2.0),
        screw_axes_space=[[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
        link_frames=[x(1.0), x(1.0), np.eye(4)],
        spatial_inertias=[np.diag([0, 0, 0, 1.0, 1.0, 1.0]), np.diag([0, 0, 0, *[mass_2] * 3])],
        gravity=GRAVITY,
    )


def dh_arm(mass_2: float = 2.0, **options) -> DHRobot:
    robot = DHRobot((1.0, 0, 0, q1), (1.0, 0, 0, q2), name="DH 2R", **options)
    robot.masses = [1.0, mass_2]
    robot.cm_positions = [(0, 0, 0), (0, 0, 0)]  # standard frame {i} sits at the tip of link i
    robot.inertia_tensors = [np.zeros((3, 3))] * 2
    robot.gravity = GRAVITY
    return robot


def test_dh_model_and_the_books_screw_model_agree():
    report = compare_models(dh_arm(), book_arm(), dh_arm().to_modified())
    assert isinstance(report, ModelComparison)
    assert report.passed, str(report)
    assert report.labels == ("DH 2R (standard DH)", "book 2R (screw)", "DH 2R (modified DH)")
    assert report.samples == 200 and report.seed == 0 and report.tolerance == 1e-9
    assert report.max_difference < 1e-12
    assert report.notes == () and report.parameter_values == {}


def test_a_tool_offset_shows_in_pose_and_jacobian_by_its_size():
    # a 0.1 m tool along x_2 moves the end-effector origin by exactly 0.1 m: |Δp| = 0.1
    report = compare_models(dh_arm(), dh_arm(tool=transl(0.1, 0, 0)), dynamics=False)
    pose, jacobian = report.rows
    assert 0.09 < pose.differences[0] <= 0.1 + 1e-12
    assert 0.09 < jacobian.differences[0] <= 0.1 + 1e-12
    assert not report.passed
    assert report.verdict.startswith("FAIL: end-effector pose T of model 2 differs by 0.1")
    with pytest.raises(AssertionError, match=r"the models differ: FAIL"):
        report.assert_equivalent()


def test_a_wrong_mass_shows_in_m_and_tau_only():
    # the tip mass m2 contributes m2 |J_v|²; M_11 = ... + m2 (2 + 2 cos q2): ΔM_11 up to 4 Δm
    report = compare_models(dh_arm(mass_2=2.0), book_arm(mass_2=2.5), samples=400)
    pose, jacobian, mass_matrix, torques = report.rows
    assert pose.differences[0] < 1e-12 and jacobian.differences[0] < 1e-12
    assert 0.5 * 3.9 < mass_matrix.differences[0] <= 0.5 * 4 + 1e-12
    assert torques.differences[0] > 0.1
    assert report.verdict.startswith("FAIL: torques τ of model 2 differs by")  # the largest


def test_displays_as_a_table():
    puma = load_robot("puma560", form="dh")
    report = compare_models(puma, puma.to_modified(), puma.to_screw(), samples=20, seed=3)
    text = str(report)
    assert text == repr(report)
    lines = text.splitlines()
    assert lines[0] == "Model comparison, 20 seeded configurations (seed 3), tolerance 1e-09"
    assert lines[1:4] == [
        "  model 1: puma560 (standard DH), the reference",
        "  model 2: puma560 (modified DH)",
        "  model 3: puma560 (screw)",
    ]
    assert lines[4].split(" | ") == ["max |difference| from model 1  ", "model 2", "model 3"]
    assert lines[5].startswith("end-effector pose T, 4×4 in {0}")
    # round-off is shown as such (its digits differ between machines), real differences in full
    assert {cell.strip() for line in lines[5:9] for cell in line.split(" | ")[1:]} <= {
        "0",
        "< 1e-12",
    }
    assert [ModelComparison._cell(x) for x in (None, 0.0, 3e-13, 3.25e-5)] == [
        "not compared",
        "0",
        "< 1e-12",
        "3.2e-05",
    ]
    assert lines[6].startswith("Jacobian J, rows [v; ω] in {0}")
    assert lines[-1] == "PASS: every difference ≤ 1e-09"
    # the columns line up, combining dots (q̈) taking no room
    plain = [line.replace("q̈", "q").replace("q̇", "q") for line in lines[4:9]]
    bars = {tuple(i for i in range(len(line)) if line.startswith(" | ", i)) for line in plain}
    assert len(bars) == 1
    page = report._repr_html_()
    assert "<table>" in page and "<th>model 3</th>" in page and "PASS" in page
    assert "puma560 (screw)" in page and "rows [v; ω] in {0}" in page


def test_symbolic_tables_get_the_same_random_numbers_in_every_model():
    arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="2R")
    report = compare_models(arm, arm.to_modified(), samples=10)
    assert report.passed
    assert sorted(report.parameter_values) == ["l_1", "l_2"]
    assert all(0.5 <= v < 2.0 for v in report.parameter_values.values())
    assert "symbolic parameters set to: l_1 = " in str(report)
    # the same seed gives the same numbers; another seed others
    assert compare_models(arm, arm, samples=10).parameter_values == report.parameter_values
    assert compare_models(arm, arm, samples=10, seed=1).parameter_values != report.parameter_values
    # given values are used as given, in every model that has the symbol
    screw = arm.to_screw({"l_1": 0.7, l2: 0.4}, kinematics_only=True)
    assert compare_models(arm, screw, values={"l_1": 0.7, l2: 0.4}, samples=10).passed
    assert not compare_models(arm, screw, samples=10).passed


def test_what_is_not_compared_is_said():
    arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="2R")
    report = compare_models(arm, arm.to_modified(), samples=5)
    assert [row.differences for row in report.rows[2:]] == [(None,), (None,)]
    assert "not compared" in str(report)
    assert report.notes == (
        "M and τ not compared for model 1: its centres of mass are missing.",
        "M and τ not compared for model 2: its centres of mass are missing.",
    )
    arm.cm_positions = [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)]
    report = compare_models(arm, arm.to_modified(), samples=5)
    assert report.notes[0].startswith("M and τ not compared for model 1: symbolic I_xx1, I_xx2")
    assert report.passed  # pose and Jacobian agree
    values = {"m_1": 1.0, m2: 2.0, "l_c1": 0.4, lc2: 0.3}  # by name or by symbol
    values |= {f"I_{axis}{i}": 0.01 for axis in ("xx", "yy", "zz") for i in (1, 2)}
    report = compare_models(arm, arm.to_modified(), samples=5, values=values)
    assert report.notes == () and report.passed
    kinematic = dh_arm().to_screw(kinematics_only=True)
    report = compare_models(dh_arm(), kinematic, samples=5)
    assert report.notes == (
        "M and τ not compared for model 2: it has no inertias (a kinematic model).",
    )
    assert len(compare_models(dh_arm(), book_arm(), dynamics=False).rows) == 2


def test_bundled_models_in_every_form_agree():
    for name in ("planar3r", "scara", "stanford"):
        models = [load_robot(name, form="dh", convention=c) for c in ("standard", "modified")]
        report = compare_models(*models, load_robot(name), samples=50)
        assert report.passed, f"{name}\n{report}"


def test_duplicate_labels_are_numbered():
    report = compare_models(dh_arm(), dh_arm(), samples=2, dynamics=False)
    assert report.labels == ("DH 2R (standard DH) #1", "DH 2R (standard DH) #2")


@pytest.mark.parametrize(
    ("models", "options", "error", "message"),
    [
        ((), {}, ValueError, r"compare_models needs at least two models, got 0"),
        (("robot",), {}, ValueError, r"needs at least two models, got 1"),
        ((None, None), {}, TypeError, r"model 1: expected a DHRobot or a ScrewRobot, got NoneType"),
        (
            ("dh", "three"),
            {},
            ValueError,
            r"model 2 \(3R \(standard DH\)\) has joints 'RRR' but model 1 "
            r"\(DH 2R \(standard DH\)\) has 'RR': they cannot be the same robot",
        ),
        (("dh", "slider"), {}, ValueError, r"has joints 'RP' but model 1"),
        (("dh", "dh"), {"samples": 0}, ValueError, r"samples: expected a positive integer, got 0"),
        (("dh", "dh"), {"tolerance": -1.0}, ValueError, r"tolerance: expected a finite number"),
        (
            ("dh", "dh"),
            {"values": {"l_1": "long"}},
            TypeError,
            r"values\['l_1'\] must be a real number, got the text 'long'",
        ),
    ],
)
def test_bad_input_is_named(models, options, error, message):
    made = {
        "dh": dh_arm,
        "three": lambda: DHRobot((1, 0, 0, q1), (1, 0, 0, q2), (1, 0, 0, q3), name="3R"),
        "slider": lambda: DHRobot((1, 0, 0, q1), (0, 0, q2, 0, "p"), name="RP"),
        "robot": dh_arm,
        None: lambda: None,
    }
    with pytest.raises(error, match=message):
        compare_models(*[made[m]() for m in models], **options)


def test_exported_from_robolab():
    assert rl.compare_models is compare_models
    assert rl.ComparedQuantity is rl.lessons.model_comparison.ComparedQuantity
