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
        [-np.inf, np.inf],  # continuous: unbounded (issue 28: was bounded at ±π)
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


# ------------------------------------------------------------------ gravity is a world quantity

#: A leg hung from a hip mount tilted 150° (as ANYmal C's), on a rail above the base that
#: is frozen when the mount is the base. The world is the root link's frame.
TILTED = """<robot name="tilted_leg">
  <link name="world"/><link name="carriage">
    <inertial><mass value="3"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>
    </inertial></link>
  <link name="mount"/>
  <link name="hip"><inertial><origin xyz="0.05 0.01 -0.02" rpy="0.1 0.2 0.3"/><mass value="2"/>
    <inertia ixx="0.02" ixy="0.001" ixz="0" iyy="0.03" iyz="0.002" izz="0.025"/></inertial></link>
  <link name="thigh"><inertial><origin xyz="0 0.03 -0.15"/><mass value="1.5"/>
    <inertia ixx="0.012" ixy="0" ixz="0.001" iyy="0.011" iyz="0" izz="0.003"/></inertial></link>
  <link name="shank"><inertial><origin xyz="0.01 0 -0.12"/><mass value="0.6"/>
    <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.0005"/></inertial></link>
  <link name="foot"><inertial><mass value="0.1"/>
    <inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial></link>
  <joint name="rail" type="prismatic"><parent link="world"/><child link="carriage"/>
    <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="100" velocity="1"/></joint>
  <joint name="mount_joint" type="fixed"><parent link="carriage"/><child link="mount"/>
    <origin xyz="0.3 -0.1 0.5" rpy="2.6179938779914944 0.3 -0.4"/></joint>
  <joint name="haa" type="revolute"><parent link="mount"/><child link="hip"/>
    <axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="80" velocity="7.5"/></joint>
  <joint name="hfe" type="revolute"><parent link="hip"/><child link="thigh"/>
    <origin xyz="0.1 0.05 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="80" velocity="7.5"/></joint>
  <joint name="kfe" type="revolute"><parent link="thigh"/><child link="shank"/>
    <origin xyz="0 0.1 -0.3"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="80" velocity="7.5"/></joint>
  <joint name="foot_joint" type="fixed"><parent link="shank"/><child link="foot"/>
    <origin xyz="0 0 -0.3"/></joint>
</robot>"""


def test_a_tilted_base_gets_the_worlds_gravity_as_pinocchio_does():
    # Issue 28: gravity stayed (0, 0, -9.81) in the base link's own frame, so a leg hung
    # from a tilted hip mount got wrong gravity torques. Pinocchio's gravity is the world's.
    chain = serial_chain_from_urdf(parse_urdf(TILTED), "foot", base_link="mount")
    assert chain.joint_names == ("haa", "hfe", "kfe")
    model = pin.buildModelFromXML(TILTED)
    model = pin.buildReducedModel(model, [model.getJointId("rail")], pin.neutral(model))
    data = model.createData()
    R_wb = chain.base_pose[:3, :3]
    assert np.allclose(chain.gravity, R_wb.T @ [0, 0, -9.81], atol=1e-14)
    assert np.allclose(R_wb, data.oMi[0].rotation @ rpy_to_rotation(2.6179938779914944, 0.3, -0.4))
    rng = np.random.default_rng(28)
    frames, inertias = list(chain.link_frames), list(chain.spatial_inertias)
    for _ in range(5):
        theta, dtheta, ddtheta = rng.uniform(-1.5, 1.5, (3, 3))
        gravity_p = pin.computeGeneralizedGravity(model, data, theta)
        gravity = mr.GravityForces(theta, chain.gravity, frames, inertias, chain.screw_axes_space)
        assert np.abs(gravity - gravity_p).max() < 1e-12
        tau = mr.InverseDynamics(
            theta,
            dtheta,
            ddtheta,
            chain.gravity,
            np.zeros(6),
            frames,
            inertias,
            chain.screw_axes_space,
        )
        assert np.abs(tau - pin.rnea(model, data, theta, dtheta, ddtheta)).max() < 1e-12
        # The pose is the base frame's: Pinocchio's world pose seen from the mount.
        pin.framesForwardKinematics(model, data, theta)
        T_wb = chain.base_pose
        pose_p = np.linalg.inv(T_wb) @ data.oMf[model.getFrameId("foot")].homogeneous
        pose = mr.FKinSpace(chain.home_ee_pose, chain.screw_axes_space, theta)
        assert np.abs(pose - pose_p).max() < 1e-12
    notes = "\n".join(chain.notes)
    assert "base link 'mount' is tilted 150" in notes or "base link 'mount' is tilted" in notes
    assert "joints above the base link frozen (part of the fixed world): 'rail' at 0" in notes
    # The root as the base: the rail is the first joint, gravity the world's.
    whole = serial_chain_from_urdf(parse_urdf(TILTED), "foot")
    assert whole.joint_names == ("rail", "haa", "hfe", "kfe")
    assert whole.gravity.tolist() == [0.0, 0.0, -9.81]


def test_gravity_may_be_given_in_the_world():
    moon = serial_chain_from_urdf(parse_urdf(TILTED), "foot", "mount", gravity=[0, 0, -1.62])
    earth = serial_chain_from_urdf(parse_urdf(TILTED), "foot", "mount")
    assert np.allclose(moon.gravity, earth.gravity * 1.62 / 9.81, atol=1e-15)
    assert moon.world_gravity.tolist() == [0, 0, -1.62]


# ------------------------------------------------------------------ validation scoped to use

IMPLAUSIBLE = """<robot name="r"><link name="base"/>
  <link name="antenna"><inertial><mass value="1e-9"/>
    <inertia ixx="1" ixy="2" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="tool"><inertial><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.5"/></inertial></link>
  <joint name="antenna_joint" type="fixed"><parent link="base"/><child link="antenna"/></joint>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="arm"/><child link="tool"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def test_an_implausible_link_off_the_chain_is_noted_not_refused():
    chain = serial_chain_from_urdf(
        parse_urdf(IMPLAUSIBLE), "tool", plausibility_exceptions=[("tool", "inertia_triangle", "x")]
    )
    assert chain.joint_names == ("j1", "j2")
    assert any(
        "link 'antenna' is off the chain and its implausible inertial data is not used" in note
        and "positive semi-definite" in note
        for note in chain.notes
    )


def test_an_implausible_link_on_the_chain_is_refused_with_its_urdf_name():
    text = IMPLAUSIBLE.replace(
        '<parent link="base"/><child link="antenna"/>',
        '<parent link="arm"/><child link="antenna"/>',
    )
    with pytest.raises(ValueError, match=r"link 'antenna' is part of the body of chain joint 'j1'"):
        serial_chain_from_urdf(parse_urdf(text), "arm")


def test_the_triangle_inequality_is_checked_with_urdf_names_and_accepted_by_them():
    robot = parse_urdf(IMPLAUSIBLE)
    with pytest.raises(
        ValueError,
        match=r"body of joint 'j2' \(links 'tool'\).*plausibility_exceptions=\[\('tool', "
        r'"inertia_triangle", "why"\)\]',
    ):
        serial_chain_from_urdf(robot, "tool")
    chain = serial_chain_from_urdf(
        robot, "tool", plausibility_exceptions=[("tool", "inertia_triangle", "a test idealisation")]
    )
    assert [(e.link, e.check) for e in chain.plausibility_exceptions] == [(2, "inertia_triangle")]
    assert chain.to_screw().plausibility_exceptions == chain.plausibility_exceptions
    with pytest.raises(ValueError, match=r"link must name a URDF link of a chain body, got 'base'"):
        serial_chain_from_urdf(
            robot,
            "tool",
            plausibility_exceptions=[{"link": "base", "check": "mass", "reason": "x"}],
        )


def test_equal_limits_make_a_fixed_joint_at_that_position():
    text = """<robot name="r"><link name="a"/><link name="b"/><link name="c">
      <inertial><origin xyz="0.2 0 0"/><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
      <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
        <limit lower="0.5" upper="0.5" effort="1" velocity="1"/></joint>
      <joint name="j2" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 1 0"/>
        <origin xyz="0.1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    </robot>"""
    chain = serial_chain_from_urdf(parse_urdf(text), "c")
    assert chain.joint_names == ("j2",)
    assert any("joint 'j1' has equal limits lower = upper = 0.5" in note for note in chain.notes)
    # j1 turned by 0.5 rad: the axis of j2 and the centre of mass turn with it.
    R = rpy_to_rotation(0, 0, 0.5)
    assert np.allclose(chain.screw_axes_space[:3, 0], R @ [0, 1, 0])
    assert np.allclose(chain.home_ee_pose[:3, 3], R @ [0.1, 0, 0])
    robot = chain.to_screw()  # loads: no (0.5, 0.5) limits left for load_robot to refuse
    assert robot.joint_names == ("j2",)


def test_a_follower_of_a_chain_joint_is_refused_not_silently_locked():
    # The Panda's fingers: finger_joint2 mimics finger_joint1.
    text = """<robot name="r"><link name="hand"/><link name="left"/><link name="right">
      <inertial><mass value="0.015"/>
      <inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" iyz="0" izz="1e-6"/></inertial></link>
      <joint name="finger_joint1" type="prismatic"><parent link="hand"/><child link="left"/>
        <axis xyz="0 1 0"/><limit lower="0" upper="0.04" effort="20" velocity="0.2"/></joint>
      <joint name="finger_joint2" type="prismatic"><parent link="hand"/><child link="right"/>
        <axis xyz="0 -1 0"/><limit lower="0" upper="0.04" effort="20" velocity="0.2"/>
        <mimic joint="finger_joint1"/></joint></robot>"""
    robot = parse_urdf(text)
    with pytest.raises(
        ValueError, match=r"mimic joints off the chain .*'finger_joint2' follows 'finger_joint1'"
    ):
        serial_chain_from_urdf(robot, "left")
    with pytest.raises(ValueError, match="joint 'finger_joint2' on the chain mimics joint"):
        serial_chain_from_urdf(robot, "right")


def test_a_locked_follower_of_a_locked_leader_sits_where_the_mimic_puts_it():
    text = """<robot name="r"><link name="a"/><link name="b"/><link name="c"/><link name="d">
      <inertial><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <joint name="leader" type="prismatic"><parent link="b"/><child link="c"/>
        <axis xyz="1 0 0"/><limit lower="0.2" upper="0.2" effort="1" velocity="1"/></joint>
      <joint name="follower" type="prismatic"><parent link="b"/><child link="d"/>
        <axis xyz="0 1 0"/><limit lower="0" upper="1" effort="1" velocity="1"/>
        <mimic joint="leader" multiplier="2" offset="0.1"/></joint></robot>"""
    chain = serial_chain_from_urdf(parse_urdf(text), "b")
    assert np.allclose(chain.link_frames[0][:3, 3], [0, 0.5, 0])  # d at 2·0.2 + 0.1 along y
    assert any(
        "'follower' (prismatic) (mimic of 'leader')" in n and "q = 0.5" in n for n in chain.notes
    )


def test_the_robots_summary_says_which_way_gravity_points_in_its_base_frame():
    robot = serial_chain_from_urdf(parse_urdf(TILTED), "foot", base_link="mount").to_screw()
    summary = robot.summary()
    direction = robot.gravity / 9.81
    shown = ", ".join(f"{x + 0.0:.3g}" for x in np.round(direction, 12))
    assert f"gravity: 9.81 m/s² along ({shown}) of the base frame {{0}}" in summary
    assert "note: base link 'mount' is tilted" in summary
    assert "note: base link 'mount' is tilted" in summary.replace("\n  ", "\n  ")
    assert "along (" in robot._repr_html_()


def test_dynamics_effort_and_velocity_become_friction_and_limits():
    text = """<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
      <link name="c"><inertial><origin xyz="0.1 0 0"/><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
      <joint name="j1" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
        <dynamics damping="0.5" friction="1.5"/><limit effort="40" velocity="2"/></joint>
      <joint name="j2" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 1 0"/>
        <limit lower="-1" upper="1" effort="0" velocity="3"/></joint></robot>"""
    chain = serial_chain_from_urdf(parse_urdf(text), "c")
    assert chain.friction.viscous.tolist() == [0.5, 0.0]
    assert chain.friction.coulomb.tolist() == [1.5, 0.0]
    assert chain.torque_limits.tolist() == [40.0, np.inf]  # effort="0": no limit, noted
    assert chain.velocity_limits.tolist() == [2.0, 3.0]
    assert chain.joint_limits[0].tolist() == [-np.inf, np.inf]
    robot = chain.to_screw()
    assert robot.friction == chain.friction and robot.joint_limits[0] == (-np.inf, np.inf)
    assert any("<limit effort=0>: read as no limit" in note for note in chain.notes)
    with pytest.raises(ValueError, match=r"joint 'j1' <dynamics damping=-1>: expected a number"):
        serial_chain_from_urdf(parse_urdf(text.replace('damping="0.5"', 'damping="-1"')), "c")


def test_a_continuous_joint_is_written_as_null_limits_and_read_back(tmp_path):
    from robolab.models.convert import model_from_chain
    from robolab.models.library import read_robot_model, save_robot

    chain = serial_chain_from_urdf(parse_urdf(DATA / "prismatic_continuous.urdf"), "slider")
    path = save_robot(model_from_chain(chain), tmp_path / "arm.json")
    assert '"joint_limits": [\n    [null, null],' in path.read_text(encoding="utf-8")
    again = read_robot_model(path)
    assert np.array_equal(again.joint_limits, chain.joint_limits)
