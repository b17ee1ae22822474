"""Serial chains from a URDF tree (serial_chain_from_urdf), checked against Pinocchio.

Pinocchio (``pinocchio.buildModelFromXML``) reads each committed test URDF;
joints we lock (gripper fingers) are locked in Pinocchio too with
``buildReducedModel``, which merges their bodies into the parent as we do.
Our chain's dynamics are evaluated with the Modern Robotics book's own code
(the ``modern_robotics`` package) on the plain arrays. Pinocchio orders spatial
vectors [v; ω]; only joint torques, mass matrices and 4×4 poses are compared,
which need no reordering. A continuous joint is (cos θ, sin θ) in Pinocchio's q.
"""

from __future__ import annotations

from pathlib import Path

import modern_robotics as mr
import numpy as np
import pytest

from robolab.models.urdf import parse_urdf, serial_chain_from_urdf
from robolab.spatial.transforms import rpy_to_rotation

pin = pytest.importorskip("pinocchio")

DATA = Path(__file__).resolve().parents[1] / "data" / "urdf"
CASES = {
    "fixed_child_link": "tcp",
    "rotated_inertial": "flange",
    "branch": "tcp",
    "prismatic_continuous": "slider",
}


def pinocchio_text(name: str) -> str:
    text = (DATA / f"{name}.urdf").read_text()
    if name == "prismatic_continuous":
        # urdfdom refuses a prismatic joint without <limit>; limits do not change dynamics.
        text = text.replace(
            '<axis xyz="0 0 1"/>\n  </joint>\n  <joint name="swing"',
            '<axis xyz="0 0 1"/><limit lower="0" upper="1" effort="1" velocity="1"/>\n'
            '  </joint>\n  <joint name="swing"',
        )
    return text


def pinocchio_chain(name: str, keep: tuple[str, ...]):
    model = pin.buildModelFromXML(pinocchio_text(name))
    locked = [model.getJointId(joint) for joint in model.names[1:] if joint not in keep]
    if locked:
        model = pin.buildReducedModel(model, locked, pin.neutral(model))
    return model


def pinocchio_configuration(model, theta: np.ndarray) -> np.ndarray:
    q = []
    for joint in model.joints[1:]:
        angle = theta[joint.idx_v]
        q.extend([np.cos(angle), np.sin(angle)] if joint.nq == 2 else [angle])
    return np.array(q)


@pytest.mark.parametrize("name", sorted(CASES))
def test_chain_matches_pinocchio_loading_the_same_urdf(name):
    ee_link = CASES[name]
    chain = serial_chain_from_urdf(parse_urdf(DATA / f"{name}.urdf"), ee_link=ee_link)
    model = pinocchio_chain(name, chain.joint_names)
    assert list(model.names[1:]) == list(chain.joint_names)
    data = model.createData()
    frames, inertias = list(chain.link_frames), list(chain.spatial_inertias)
    rng = np.random.default_rng(7)
    n = len(chain.joint_names)
    for _ in range(5):
        theta, dtheta, ddtheta = rng.uniform(-1.5, 1.5, (3, n))
        q = pinocchio_configuration(model, theta)
        tau_p = pin.rnea(model, data, q, dtheta, ddtheta)
        mass_p = pin.crba(model, data, q)
        mass_p = np.triu(mass_p) + np.triu(mass_p, 1).T
        pin.framesForwardKinematics(model, data, q)
        pose_p = data.oMf[model.getFrameId(ee_link)].homogeneous
        tau = mr.InverseDynamics(
            theta,
            dtheta,
            ddtheta,
            [0, 0, -9.81],
            np.zeros(6),
            frames,
            inertias,
            chain.screw_axes_space,
        )
        mass = mr.MassMatrix(theta, frames, inertias, chain.screw_axes_space)
        pose = mr.FKinSpace(chain.home_ee_pose, chain.screw_axes_space, theta)
        assert np.abs(tau - tau_p).max() < 1e-9
        assert np.abs(mass - mass_p).max() < 1e-9
        assert np.abs(pose - pose_p).max() < 1e-9


def test_fixed_child_link_is_lumped_into_its_parent():
    chain = serial_chain_from_urdf(parse_urdf(DATA / "fixed_child_link.urdf"), "tcp")
    assert chain.joint_names == ("shoulder", "elbow")
    assert chain.spatial_inertias[1, 3, 3] == pytest.approx(1.2 + 0.5)  # forearm + tool
    assert any("'forearm', 'tool', 'tcp' lumped" in note for note in chain.notes)


def test_rotated_inertial_frame_is_rotated_into_the_link_frame():
    text = """<robot name="r"><link name="base"/>
      <link name="body"><inertial><origin xyz="0 0 0" rpy="0.3 -0.2 0.5"/><mass value="2"/>
        <inertia ixx="0.05" ixy="0.002" ixz="-0.001" iyy="0.04" iyz="0.003" izz="0.02"/>
      </inertial></link>
      <joint name="j" type="continuous"><parent link="base"/><child link="body"/>
        <axis xyz="0 0 1"/></joint></robot>"""
    chain = serial_chain_from_urdf(parse_urdf(text), "body")
    R = rpy_to_rotation(0.3, -0.2, 0.5)
    tensor = np.array([[0.05, 0.002, -0.001], [0.002, 0.04, 0.003], [-0.001, 0.003, 0.02]])
    assert np.allclose(chain.spatial_inertias[0, :3, :3], R @ tensor @ R.T, atol=1e-15)
    assert np.allclose(chain.link_frames[0][:3, :3], np.eye(3))  # CoM frame keeps link axes


def test_branching_tree_is_refused_unless_told_which_chain_to_keep():
    robot = parse_urdf(DATA / "branch.urdf")
    with pytest.raises(ValueError, match=r"branches at link 'hand'.*ee_link"):
        serial_chain_from_urdf(robot)
    chain = serial_chain_from_urdf(robot, ee_link="tcp")
    assert chain.joint_names == ("j1", "j2", "j3")
    locked = [note for note in chain.notes if "locked at q = 0" in note]
    assert len(locked) == 2
    # Wrist 0.6 + hand 0.73 + camera 0.1 + two 0.015 kg fingers.
    assert chain.spatial_inertias[2, 3, 3] == pytest.approx(0.6 + 0.73 + 0.1 + 0.03)


def test_unbranched_tree_needs_no_ee_link():
    chain = serial_chain_from_urdf(parse_urdf(DATA / "rotated_inertial.urdf"))
    assert chain.ee_link == "flange"


def test_continuous_prismatic_and_missing_limits_are_stated():
    chain = serial_chain_from_urdf(parse_urdf(DATA / "prismatic_continuous.urdf"), "slider")
    assert chain.joint_types == ("revolute", "prismatic", "revolute", "prismatic")
    assert chain.joint_limits.tolist() == [
        [-np.pi, np.pi],
        [0.0, 1000.0],
        [-np.pi, 1.5],
        [-0.1, 0.2],
    ]
    notes = "\n".join(chain.notes)
    assert "joint 'spin' is continuous" in notes
    assert "joint 'lift' has no limits in the URDF: used (0, 1000) m" in notes
    assert "joint 'swing' has no lower limit in the URDF" in notes
    # The tilted prismatic axis (0.8, 0, 0.6) in a link turned by Ry(0.2), Rx(π/2) frames.
    assert np.linalg.norm(chain.screw_axes_space[3:, 3]) == pytest.approx(1.0)
    assert np.all(chain.screw_axes_space[:3, 3] == 0)


def test_axis_is_normalised():
    def arm(axis: str) -> str:
        return f"""<robot name="r"><link name="a"/><link name="b">
          <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
          </inertial></link>
          <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
          <origin xyz="0.1 0.2 0.3"/><axis xyz="{axis}"/>
          <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"""

    scaled = serial_chain_from_urdf(parse_urdf(arm("0 0 2")), "b")
    unit = serial_chain_from_urdf(parse_urdf(arm("0 0 1")), "b")
    assert np.array_equal(scaled.screw_axes_space, unit.screw_axes_space)


def test_default_axis_is_x_as_in_the_urdf_specification():
    text = """<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint></robot>"""
    chain = serial_chain_from_urdf(parse_urdf(text), "b")
    assert chain.screw_axes_space[:, 0].tolist() == [1, 0, 0, 0, 0, 0]
    assert any("has no mass" in note for note in chain.notes)


def test_base_link_option_takes_the_links_above_as_the_world():
    robot = parse_urdf(DATA / "branch.urdf")
    chain = serial_chain_from_urdf(robot, ee_link="tcp", base_link="link1")
    assert chain.joint_names == ("j2", "j3")
    full = serial_chain_from_urdf(robot, ee_link="tcp")
    assert np.allclose(chain.spatial_inertias, full.spatial_inertias[1:])
    with pytest.raises(ValueError, match="ee_link 'link1' is not below base_link 'link2'"):
        serial_chain_from_urdf(robot, ee_link="link1", base_link="link2")


def test_chain_joints_that_cannot_be_serial_are_refused():
    floating = """<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="free" type="floating"><parent link="a"/><child link="b"/></joint>
      <joint name="j" type="continuous"><parent link="b"/><child link="c"/></joint></robot>"""
    with pytest.raises(ValueError, match="joint 'free' on the chain is floating"):
        serial_chain_from_urdf(parse_urdf(floating), "c")
    mimic = """<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="j1" type="continuous"><parent link="a"/><child link="b"/></joint>
      <joint name="j2" type="continuous"><parent link="b"/><child link="c"/>
        <mimic joint="j1"/></joint></robot>"""
    with pytest.raises(ValueError, match="joint 'j2' on the chain mimics joint 'j1'"):
        serial_chain_from_urdf(parse_urdf(mimic), "c")
    fixed_only = """<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>"""
    with pytest.raises(ValueError, match="no movable joint between 'a' and 'b'"):
        serial_chain_from_urdf(parse_urdf(fixed_only), "b")
    with pytest.raises(ValueError, match=r"ee_link 'z' is not a link .*links: \['a', 'b'\]"):
        serial_chain_from_urdf(parse_urdf(fixed_only), "z")


def test_the_chain_goes_through_the_screw_validation_of_every_door(monkeypatch):
    import robolab.models.urdf as urdf
    from robolab.screw.validation import ScrewDataProblem

    def refuse(G, index, *, triangle=False):
        return ScrewDataProblem("spatial_inertias", index, "", "x", "y", ": refused")

    monkeypatch.setattr(urdf, "spatial_inertia_problem", refuse)
    with pytest.raises(ValueError, match=r"^URDF robot '.*': body of joint 'shoulder': refused$"):
        serial_chain_from_urdf(parse_urdf(DATA / "fixed_child_link.urdf"), "tcp")


def test_the_links_asked_for_are_names_like_the_files():
    robot = parse_urdf(
        '<robot name="r"><link name="base"/><link name="c\u00f4te"/>'
        '<joint name="j" type="revolute"><parent link="base"/><child link="c\u00f4te"/>'
        '<axis xyz="0 0 1"/></joint></robot>'
    )
    assert serial_chain_from_urdf(robot, ee_link="co\u0302te").ee_link == "c\u00f4te"  # NFC
    with pytest.raises(ValueError, match=r"^ee_link must be a name .* U\+200B ZERO WIDTH SPACE"):
        serial_chain_from_urdf(robot, ee_link="c\u00f4te\u200b")
    with pytest.raises(TypeError, match=r"^base_link must be a str, got int 3$"):
        serial_chain_from_urdf(robot, base_link=3)
    with pytest.raises(TypeError, match=r"^robot must be a UrdfRobot \(from parse_urdf\), got str"):
        serial_chain_from_urdf("robot.urdf")
