"""Checks every bundled robot model against an independent engine and for plausibility.

Pinocchio is the independent engine. Its models are built here, in test code,
from the file's own data: once from the screw form (joint frames placed on the
screw axes) and once from each DH table (joint frames on the DH frames), and
for the Panda also straight from the URDF the model came from. Pinocchio
orders spatial vectors [v; ω] where robolab uses [ω; v]; only joint-space
quantities (torques, the mass matrix) and 4×4 poses are compared here, which
need no reordering.

The screw-form dynamics on our side come from the ``modern_robotics`` package
(the book's own Python code) on the file's plain arrays, and from robolab's
``ScrewRobot`` algorithms.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import modern_robotics as mr
import numpy as np
import pytest

from robolab.models.library import (
    ModelFileDHTable,
    RobotModelData,
    check_plausibility,
    list_robots,
    load_robot,
    read_robot_model,
)
from robolab.screw.dynamics import mass_matrix
from robolab.screw.dynamics import rnea as dynamics
from robolab.screw.kinematics import forward as kinematics

pin = pytest.importorskip("pinocchio")
from reference import pinocchio_screw  # noqa: E402
from reference.pinocchio_screw import add_joint, inertia, se3  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted(list_robots())
TOLERANCE = 1e-9


def random_states(model: RobotModelData, count: int, seed: int):
    """Seeded (q, q̇, q̈) inside the joint limits (limits wider than 2π are clipped)."""
    rng = np.random.default_rng(seed)
    lower = np.maximum(model.joint_limits[:, 0], -np.pi)
    upper = np.minimum(model.joint_limits[:, 1], np.pi)
    for _ in range(count):
        yield (
            rng.uniform(lower, upper),
            rng.uniform(-2.0, 2.0, model.n_joints),
            rng.uniform(-3.0, 3.0, model.n_joints),
        )


# ------------------------------------------------------------------ Pinocchio models


def pinocchio_from_screw(model: RobotModelData):
    """Pinocchio model from the screw form: joint i's frame has z on the screw axis S_i."""
    return pinocchio_screw.pinocchio_from_screw(model)[0]


def _dh_matrix(convention: str, a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """The fixed part of a DH row, written out here independently of robolab."""
    ca, sa, ct, st = np.cos(alpha), np.sin(alpha), np.cos(theta), np.sin(theta)
    Rz = np.array([[ct, -st, 0, 0], [st, ct, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])
    Rx = np.array([[1, 0, 0, 0], [0, ca, -sa, 0], [0, sa, ca, 0], [0, 0, 0, 1.0]])
    Tz, Tx = np.eye(4), np.eye(4)
    Tz[2, 3], Tx[0, 3] = d, a
    return Rz @ Tz @ Tx @ Rx if convention == "standard" else Rx @ Tx @ Rz @ Tz


def pinocchio_from_dh(model: RobotModelData, table: ModelFileDHTable):
    """Pinocchio model from a DH table: joint i moves about/along z of its DH frame."""
    pmodel = pin.Model()
    pmodel.gravity.linear = model.gravity
    parent, placement = 0, np.eye(4)
    for i, (a, alpha, d, theta, letter) in enumerate(table.rows):
        row = _dh_matrix(table.convention, a, alpha, d, theta)
        if table.convention == "standard":
            # Joint i turns frame {i-1} about its z; frame {i} follows by the fixed row.
            parent = add_joint(pmodel, parent, model.joint_names[i], placement, letter == "p")
            to_link = row
            placement = row
        else:
            # Frame {i} itself moves with joint i (Rz(q) or Tz(q) at the end of the row).
            parent = add_joint(pmodel, parent, model.joint_names[i], row, letter == "p")
            to_link = np.eye(4)
        com = to_link[:3, :3] @ table.cm_positions[i] + to_link[:3, 3]
        pmodel.appendBodyToJoint(
            parent,
            inertia(table.masses[i], com, to_link[:3, :3], table.inertia_tensors[i]),
            pin.SE3.Identity(),
        )
    tool = np.eye(4) if table.tool is None else table.tool
    ee = (placement if table.convention == "standard" else np.eye(4)) @ tool
    pmodel.addFrame(pin.Frame("ee", parent, se3(ee), pin.FrameType.OP_FRAME))
    return pmodel


def pinocchio_results(pmodel, q, qd, qdd):
    data = pmodel.createData()
    tau = pin.rnea(pmodel, data, q, qd, qdd)
    mass_matrix = pin.crba(pmodel, data, q)
    mass_matrix = np.triu(mass_matrix) + np.triu(mass_matrix, 1).T
    pin.framesForwardKinematics(pmodel, data, q)
    pose = data.oMf[pmodel.getFrameId("ee")].homogeneous
    return tau, mass_matrix, pose


def book_results(model: RobotModelData, q, qd, qdd):
    """The Modern Robotics book's own code (modern_robotics package) on the file's arrays."""
    frames, inertias = list(model.link_frames), list(model.spatial_inertias)
    tau = mr.InverseDynamics(
        q, qd, qdd, model.gravity, np.zeros(6), frames, inertias, model.screw_axes_space
    )
    mass_matrix = mr.MassMatrix(q, frames, inertias, model.screw_axes_space)
    pose = mr.FKinSpace(model.home_ee_pose, model.screw_axes_space, q)
    return tau, mass_matrix, pose


def inverse_dynamics_rnea(robot, q, qd, qdd):
    """robolab's RNEA (the book's InverseDynamics) on a ScrewRobot's arrays."""
    return dynamics.inverse_dynamics_rnea(
        q,
        qd,
        qdd,
        robot.gravity,
        np.zeros(6),
        robot.link_frames,
        robot.spatial_inertias,
        robot.screw_axes_space,
    )


def mass_matrix_crba(robot, q):
    return mass_matrix.mass_matrix_crba(
        q, robot.link_frames, robot.spatial_inertias, robot.screw_axes_space
    )


def forward_kinematics_space(robot, q):
    return kinematics.forward_kinematics_space(robot.home_ee_pose, robot.screw_axes_space, q)


def assert_close(ours, reference, what: str, scale: float = 1.0):
    error = float(np.abs(np.asarray(ours) - np.asarray(reference)).max())
    assert error <= TOLERANCE * scale, f"{what}: max difference {error:.3g}"


def assert_book_matches_pinocchio(model: RobotModelData, pmodel, seed: int) -> None:
    """The book's code on the file's screw form and Pinocchio agree at 5 seeded states."""
    for q, qd, qdd in random_states(model, 5, seed=seed):
        tau_p, mass_p, pose_p = pinocchio_results(pmodel, q, qd, qdd)
        tau_b, mass_b, pose_b = book_results(model, q, qd, qdd)
        assert_close(tau_b, tau_p, "RNEA torques", scale=max(1.0, np.abs(tau_p).max()))
        assert_close(mass_b, mass_p, "mass matrix", scale=max(1.0, np.abs(mass_p).max()))
        assert_close(pose_b, pose_p, "end-effector pose")


# ------------------------------------------------------------------ tests


def _generator():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import generate_models
    finally:
        sys.path.pop(0)
    return generate_models


def _numbers(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield value


@pytest.mark.parametrize("name", NAMES)
def test_file_is_tidy_and_regenerates_the_same_model(name):
    """The committed file is what tools/generate_models.py writes from the sources.

    Compared as the generator's ``--check`` compares (numbers to 1e-10 relative), so
    that a CPU whose BLAS kernel rounds the last bit differently sees the same file.
    """
    from robolab.models.library import format_robot_json, tidy_number

    generate_models = _generator()
    path = ROOT / "robots" / f"{name}.json"
    generated = format_robot_json(generate_models.MODELS[name](), tidy=True)
    assert generate_models.up_to_date(path, generated)
    committed = json.loads(path.read_text(encoding="utf-8"))
    untidy = [x for x in _numbers(committed) if tidy_number(x) != x]
    assert not untidy, f"numbers that are not tidy (12 significant digits): {untidy[:5]}"
    # The 12-digit rounding is far from the noise: two ulps either way give the same file.
    for x in _numbers(committed):
        for neighbour in (x * (1 + 4.5e-16), x * (1 - 4.5e-16)):
            assert tidy_number(neighbour) == x, (x, neighbour)


def test_generator_comparison_sees_real_changes_only():
    same_content = _generator().same_content
    model = json.loads((ROOT / "robots" / "ur5.json").read_text(encoding="utf-8"))
    noisy = json.loads(json.dumps(model))
    noisy["spatial_inertias"][0][0][0] *= 1 + 1e-14
    assert same_content(model, noisy)
    changed = json.loads(json.dumps(model))
    changed["spatial_inertias"][0][0][0] *= 1.001
    assert not same_content(model, changed)
    renamed = json.loads(json.dumps(model))
    renamed["joint_names"][0] = "shoulder"
    assert not same_content(model, renamed)
    shorter = json.loads(json.dumps(model))
    shorter["joint_limits"].pop()
    assert not same_content(model, shorter)


@pytest.mark.parametrize("name", NAMES)
def test_every_file_records_its_source(name):
    model = read_robot_model(name)
    assert len(model.source["citation"]) > 40
    assert model.source["document"]
    assert model.description and "\n" not in model.description


@pytest.mark.parametrize("name", NAMES)
def test_plausibility_failures_are_all_accepted_with_a_reason(name):
    findings = check_plausibility(read_robot_model(name))
    assert all(finding.accepted for finding in findings), [str(f) for f in findings]


def test_plausibility_findings_are_the_published_idealisations():
    found = {
        name: [(f.link, f.check) for f in check_plausibility(read_robot_model(name))]
        for name in NAMES
    }
    assert found == {
        "panda": [],
        "planar2r": [],
        "planar3r": [],
        "puma560": [(1, "mass"), (1, "inertia_triangle"), (3, "inertia_triangle")],
        "scara": [],
        "stanford": [(5, "inertia_triangle")],
        "ur5": [],
    }


@pytest.mark.parametrize("name", NAMES)
def test_mass_matrix_is_symmetric_positive_definite(name):
    model = read_robot_model(name)
    for q, _, _ in random_states(model, 20, seed=1):
        mass_matrix = mr.MassMatrix(
            q, list(model.link_frames), list(model.spatial_inertias), model.screw_axes_space
        )
        assert np.allclose(mass_matrix, mass_matrix.T, atol=1e-12)
        assert np.linalg.eigvalsh(mass_matrix)[0] > 1e-9


@pytest.mark.parametrize("name", NAMES)
def test_centres_of_mass_lie_near_the_arm(name):
    """A unit error (cm read as m) puts a centre of mass far outside the robot."""
    model = read_robot_model(name)
    frame, reach = np.eye(4), 0.0
    for k in range(model.n_joints + 1):
        frame = frame @ model.link_frames[k]
        reach = max(reach, float(np.linalg.norm(frame[:3, 3])))
    frame = np.eye(4)
    for k in range(model.n_joints):
        frame = frame @ model.link_frames[k]
        assert np.linalg.norm(frame[:3, 3]) <= 1.5 * reach + 0.5, f"link {k + 1}"


@pytest.mark.parametrize("name", NAMES)
def test_screw_form_matches_pinocchio(name):
    model = read_robot_model(name)
    assert_book_matches_pinocchio(model, pinocchio_from_screw(model), seed=2)


DH_CASES = [
    (name, convention)
    for name in NAMES
    for convention in ("standard", "modified")
    if convention in read_robot_model(name).dh
]


@pytest.mark.parametrize(("name", "convention"), DH_CASES)
def test_dh_table_matches_screw_form_through_pinocchio(name, convention):
    """Pinocchio built from the DH table gives the screw form's FK, torques and M(q)."""
    model = read_robot_model(name)
    assert_book_matches_pinocchio(model, pinocchio_from_dh(model, model.dh[convention]), seed=3)


def test_dh_models_have_both_conventions():
    for name in ("planar2r", "planar3r", "scara", "stanford", "puma560", "panda"):
        assert set(read_robot_model(name).dh) == {"standard", "modified"}, name


def test_panda_matches_pinocchio_loading_the_source_urdf():
    """The Panda file equals Pinocchio's model of the committed URDF, fingers locked."""
    model = read_robot_model("panda")
    urdf = ROOT / "robots" / "urdf" / "panda.urdf"
    full = pin.buildModelFromUrdf(str(urdf))
    fingers = [full.getJointId(n) for n in ("panda_finger_joint1", "panda_finger_joint2")]
    reduced = pin.buildReducedModel(full, fingers, pin.neutral(full))
    reduced.gravity.linear = model.gravity
    assert list(reduced.names[1:]) == list(model.joint_names)
    data = reduced.createData()
    for q, qd, qdd in random_states(model, 5, seed=4):
        tau_p = pin.rnea(reduced, data, q, qd, qdd)
        mass_p = pin.crba(reduced, data, q)
        mass_p = np.triu(mass_p) + np.triu(mass_p, 1).T
        pin.framesForwardKinematics(reduced, data, q)
        pose_p = data.oMf[reduced.getFrameId("panda_hand_tcp")].homogeneous
        tau_b, mass_b, pose_b = book_results(model, q, qd, qdd)
        assert_close(tau_b, tau_p, "RNEA torques", scale=max(1.0, np.abs(tau_p).max()))
        assert_close(mass_b, mass_p, "mass matrix")
        assert_close(pose_b, pose_p, "end-effector pose")


def test_panda_keeps_the_hand_and_both_fingers():
    """Link 7 carries 0.735522 kg (Gaz et al.) + 0.73 kg hand + 2 × 0.015 kg fingers."""
    model = read_robot_model("panda")
    assert model.masses[6] == pytest.approx(0.735522 + 0.73 + 2 * 0.015, abs=1e-12)
    assert model.masses[:6] == pytest.approx(
        [4.970684, 0.646926, 3.228604, 3.587895, 1.225946, 1.666555], abs=1e-12
    )


def test_ur5_is_the_modern_robotics_book_model():
    """Numbers as printed with the book's UR5 dynamics (M01, M67, G2, S5, home pose)."""
    model = read_robot_model("ur5")
    assert model.link_frames[0].tolist() == [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0.089159],
        [0, 0, 0, 1],
    ]
    assert model.link_frames[6].tolist() == [
        [1, 0, 0, 0],
        [0, 0, 1, 0.0823],
        [0, -1, 0, 0],
        [0, 0, 0, 1],
    ]
    assert np.diag(model.spatial_inertias[1]).tolist() == [
        0.22689067591,
        0.22689067591,
        0.0151074,
        8.393,
        8.393,
        8.393,
    ]
    assert model.screw_axes_space[:, 4].tolist() == [0, 0, -1, -0.10915, 0.81725, 0]
    assert model.home_ee_pose.tolist() == [
        [-1, 0, 0, 0.81725],
        [0, 0, 1, 0.19145],
        [0, 1, 0, -0.005491],
        [0, 0, 0, 1],
    ]


def test_puma560_keeps_corkes_numbers_with_the_pedestal():
    model = read_robot_model("puma560")
    standard = model.dh["standard"]
    assert standard.rows[0][2] == pytest.approx(26.45 * 0.0254, abs=1e-15)
    assert [row[0] for row in standard.rows] == [0, 0.4318, 0.0203, 0, 0, 0]
    assert [row[2] for row in standard.rows][1:] == [0, 0.15005, 0.4318, 0, 0]
    assert standard.masses.tolist() == [0, 17.4, 4.8, 0.82, 0.34, 0.09]
    assert standard.cm_positions[1].tolist() == [-0.3638, 0.006, 0.2275]
    # Link 1's only inertia is about joint 1's axis (y1); in the modified frame that is z1.
    assert model.dh["modified"].inertia_tensors[0][2, 2] == pytest.approx(0.35)


def test_generator_check_mode_reports_up_to_date_files():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "generate_models.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_files_have_one_matrix_row_per_line():
    text = (ROOT / "robots" / "ur5.json").read_text(encoding="utf-8")
    assert "\n    [0, 1, 0, -0.089159, 0, 0.425],\n" in text
    data = json.loads(text)
    assert data["schema_version"] == 1


# ------------------------------------------------------------------ DH form (robolab.DHRobot)

DH_NAMES = [name for name in NAMES if read_robot_model(name).dh]


@pytest.mark.parametrize("name", DH_NAMES)
def test_dh_forward_kinematics_equals_screw_forward_kinematics(name):
    """DHRobot's FK (both conventions) equals the screw form's product of exponentials."""
    model = read_robot_model(name)
    standard = load_robot(name, form="dh", convention="standard").numeric()
    modified = load_robot(name, form="dh", convention="modified").numeric()
    screw = load_robot(name)
    for q, _, _ in random_states(model, 5, seed=5):
        pose = forward_kinematics_space(screw, q)
        assert_close(np.asarray(standard.forward_kinematics(q), dtype=float), pose, "standard FK")
        assert_close(np.asarray(modified.forward_kinematics(q), dtype=float), pose, "modified FK")


@pytest.mark.parametrize(
    ("name", "convention"),
    [case for case in DH_CASES if case[0] != "panda"],  # 7-DOF symbolic M(q): see below
)
def test_dh_mass_matrix_equals_screw_mass_matrix(name, convention):
    model = read_robot_model(name)
    numeric = load_robot(name, form="dh", convention=convention).numeric()
    screw = load_robot(name)
    for q, _, _ in random_states(model, 3, seed=6):
        reference = mass_matrix_crba(screw, q)
        assert_close(
            np.asarray(numeric.inertia_matrix(q), dtype=float),
            reference,
            "M(q)",
            scale=max(1.0, np.abs(reference).max()),
        )


@pytest.mark.slow
@pytest.mark.parametrize("convention", ["standard", "modified"])
def test_panda_dh_mass_matrix_equals_screw_mass_matrix(convention):
    """As above for the Panda (about 20 s each: DHRobot builds M(q) symbolically)."""
    test_dh_mass_matrix_equals_screw_mass_matrix("panda", convention)


@pytest.mark.parametrize(("name", "convention"), DH_CASES)
def test_dh_robot_to_screw_has_the_files_dynamics(name, convention):
    """DHRobot.to_screw() (robolab's converter) agrees with the file's screw form."""
    model = read_robot_model(name)
    converted = load_robot(name, form="dh", convention=convention).to_screw()
    screw = load_robot(name)
    assert_close(converted.home_ee_pose, screw.home_ee_pose, "home pose")
    assert_close(converted.screw_axes_space, screw.screw_axes_space, "screw axes")
    for q, qd, qdd in random_states(model, 3, seed=7):
        reference = inverse_dynamics_rnea(screw, q, qd, qdd)
        assert_close(
            inverse_dynamics_rnea(converted, q, qd, qdd),
            reference,
            "RNEA torques",
            scale=max(1.0, np.abs(reference).max()),
        )


@pytest.mark.parametrize("name", NAMES)
def test_robolab_screw_dynamics_match_pinocchio(name):
    """robolab's own RNEA and CRBA on the loaded ScrewRobot equal Pinocchio's."""
    model = read_robot_model(name)
    robot = load_robot(name)
    pmodel = pinocchio_from_screw(model)
    for q, qd, qdd in random_states(model, 5, seed=8):
        tau_p, mass_p, pose_p = pinocchio_results(pmodel, q, qd, qdd)
        assert_close(
            inverse_dynamics_rnea(robot, q, qd, qdd),
            tau_p,
            "RNEA torques",
            scale=max(1.0, np.abs(tau_p).max()),
        )
        assert_close(mass_matrix_crba(robot, q), mass_p, "mass matrix")
        assert_close(forward_kinematics_space(robot, q), pose_p, "end-effector pose")
