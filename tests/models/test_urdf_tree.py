"""Parsing a URDF into its tree of links and joints (parse_urdf): what is read, and an error
naming the element for everything that is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from robolab.models.urdf_tree import (
    MAX_URDF_DEPTH,
    MAX_URDF_ELEMENTS,
    MAX_URDF_LINKS,
    decimal_number,
    parse_urdf,
    some_names,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "urdf"

ARM = """<robot name="arm">
  <link name="base"/>
  <link name="upper">
    <inertial>
      <origin xyz="0.5 0 0" rpy="0 0 1.5707963267948966"/>
      <mass value="2"/>
      <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.25"/>
    </inertial>
  </link>
  <link name="fore"/>
  <link name="tool"/>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/>
    <origin xyz="0 0 1" rpy="1.5707963267948966 0 0"/>
    <axis xyz="0 0 3"/>
    <limit lower="-1" upper="2" effort="10" velocity="1"/>
  </joint>
  <joint name="elbow" type="continuous">
    <parent link="upper"/><child link="fore"/>
    <mimic joint="shoulder"/>
  </joint>
  <joint name="flange" type="fixed"><parent link="fore"/><child link="tool"/></joint>
</robot>"""


def test_the_tree_links_and_joints_are_read_by_name():
    robot = parse_urdf(ARM)
    assert robot.name == "arm" and robot.root == "base"
    assert list(robot.links) == ["base", "upper", "fore", "tool"]
    assert [joint.name for joint in robot.path_to("tool")] == ["shoulder", "elbow", "flange"]
    assert [joint.name for joint in robot.child_joints("upper")] == ["elbow"]
    assert robot.parent_joint("base") is None and robot.parent_joint("fore").name == "elbow"
    assert robot.links["base"].inertial is None  # a link without <inertial> is massless


def test_a_joint_has_its_origin_unit_axis_limits_and_mimic():
    shoulder, elbow, flange = parse_urdf(ARM).joints.values()
    # rpy = (π/2, 0, 0) is Rx(π/2): y turns into z, z into -y.
    expected = [[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 1], [0, 0, 0, 1]]
    np.testing.assert_allclose(shoulder.origin, expected, atol=1e-15)
    assert shoulder.axis.tolist() == [0, 0, 1]  # normalised
    assert (shoulder.type, shoulder.lower, shoulder.upper) == ("revolute", -1.0, 2.0)
    assert elbow.axis.tolist() == [1, 0, 0]  # the URDF default
    assert (elbow.lower, elbow.upper, elbow.mimic) == (None, None, "shoulder")
    assert flange.type == "fixed" and flange.mimic is None
    np.testing.assert_array_equal(flange.origin, np.eye(4))


def test_an_inertial_has_its_mass_frame_and_symmetric_tensor():
    inertial = parse_urdf(ARM).links["upper"].inertial
    assert inertial.mass == 2.0
    np.testing.assert_array_equal(inertial.inertia, [[0.1, 0.01, 0], [0.01, 0.2, 0], [0, 0, 0.25]])
    # rpy = (0, 0, π/2) is Rz(π/2), the centre of mass 0.5 m along x.
    expected = [[0, -1, 0, 0.5], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    np.testing.assert_allclose(inertial.origin, expected, atol=1e-15)


@pytest.mark.parametrize(
    ("inertial", "message"),
    [
        (
            "<mass value='-1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/>",
            r'<link name="a"> <inertial> <mass>: value must be >= 0',
        ),
        (
            "<mass value='1'/><inertia ixx='1' ixy='2' ixz='0' iyy='1' iyz='0' izz='1'/>",
            "must be positive semi-definite",
        ),
    ],
)
def test_an_impossible_inertial_is_recorded_for_the_chain_to_judge(inertial, message):
    # Refused only where the link is used (serial_chain_from_urdf): a link off the chain
    # (TIAGo's 1 µg antenna on the base) must not refuse the whole file (issue 28).
    robot = parse_urdf(
        f"<robot name='r'><link name='a'><inertial>{inertial}</inertial></link></robot>"
    )
    link = robot.links["a"]
    assert link.inertial is None
    assert re.search(message, link.problem) and link.problem.startswith('URDF <robot name="r">')


def test_a_joint_has_its_dynamics_effort_velocity_and_mimic_factors():
    robot = parse_urdf(
        "<robot name='r'><link name='a'/><link name='b'/><link name='c'/>"
        "<joint name='j1' type='revolute'><parent link='a'/><child link='b'/>"
        "<dynamics damping='0.5' friction='0.25'/>"
        "<limit lower='-1' upper='1' effort='87' velocity='2.5'/></joint>"
        "<joint name='j2' type='revolute'><parent link='b'/><child link='c'/>"
        "<mimic joint='j1' multiplier='-2' offset='0.1'/></joint></robot>"
    )
    j1, j2 = robot.joints["j1"], robot.joints["j2"]
    assert (j1.damping, j1.friction, j1.effort, j1.velocity) == (0.5, 0.25, 87.0, 2.5)
    assert (j2.damping, j2.friction, j2.effort, j2.velocity) == (0.0, 0.0, None, None)
    assert (j2.mimic, j2.mimic_multiplier, j2.mimic_offset) == ("j1", -2.0, 0.1)


def test_a_file_is_read_like_its_text():
    from_file = parse_urdf(DATA / "branch.urdf")
    from_text = parse_urdf((DATA / "branch.urdf").read_text(encoding="utf-8"))
    assert list(from_file.joints) == list(from_text.joints)
    assert from_file.root == from_text.root


# ------------------------------------------------------------------ errors


BROKEN = [
    ("<robot name='r'><link name='a'>", "not well-formed XML"),
    ("<robo name='r'/>", r"root element must be <robot>, got <robo>"),
    ("<robot name='r'><link/></robot>", r"<link> #1 has no name attribute"),
    (
        "<robot name='r'><link name='a'/><link name='a'/></robot>",
        "two links are named 'a'",
    ),
    (
        "<robot name='r'><link name='a'/><link name='b'/>"
        "<joint name='j' type='hinge'><parent link='a'/><child link='b'/></joint></robot>",
        r'<joint name="j">: type must be one of .* got \'hinge\'',
    ),
    (
        "<robot name='r'><link name='a'/><link name='b'/>"
        "<joint name='j' type='fixed'><parent link='a'/><child link='c'/></joint></robot>",
        r'<joint name="j">: <child> names link \'c\', which does not exist',
    ),
    (
        "<robot name='r'><link name='a'/><link name='b'/>"
        "<joint name='j' type='fixed'><parent link='a'/></joint></robot>",
        r'<joint name="j"> needs a <child link="..."/> element',
    ),
    (
        "<robot name='r'><link name='a'/><link name='b'/><link name='c'/>"
        "<joint name='j1' type='fixed'><parent link='a'/><child link='c'/></joint>"
        "<joint name='j2' type='fixed'><parent link='b'/><child link='c'/></joint></robot>",
        "link 'c' is the child of two joints",
    ),
    (
        "<robot name='r'><link name='a'/><link name='b'/>"
        "<joint name='j' type='fixed'><parent link='a'/><child link='b'/>"
        "<origin xyz='0 0 x'/></joint></robot>",
        r'<joint name="j"> <origin xyz> must hold 3 numbers',
    ),
    (
        "<robot name='r'><link name='a'><inertial><mass value='1'/>"
        "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0'/></inertial></link></robot>",
        r"<inertia> has no izz attribute",
    ),
    (
        "<robot name='r'><link name='a'/><link name='b'/>"
        "<joint name='j' type='revolute'><parent link='a'/><child link='b'/>"
        "<axis xyz='0 0 0'/></joint></robot>",
        r"<axis xyz> must be a nonzero vector",
    ),
    (
        "<robot name='r'><link name='a'/><link name='b'/>"
        "<joint name='j' type='revolute'><parent link='a'/><child link='b'/>"
        "<limit lower='1' upper='-1'/></joint></robot>",
        r"<limit>: lower \(1.0\) is above upper \(-1.0\)",
    ),
    (
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><robot name="r"/>',
        "DOCTYPE or ENTITY declaration",
    ),
    (
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:property name="p" value="1"/></robot>',
        "expand the file with xacro first",
    ),
]


@pytest.mark.parametrize(("text", "message"), BROKEN)
def test_broken_urdf_gets_an_error_naming_the_element(text, message):
    with pytest.raises(ValueError, match=message):
        parse_urdf(text)


def test_unreadable_file_is_named():
    with pytest.raises(ValueError, match=r"cannot read URDF file .*missing\.urdf"):
        parse_urdf(DATA / "missing.urdf")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1.0),
        ("-0.5", -0.5),
        ("+.5", 0.5),
        ("5.", 5.0),
        ("1e-3", 1e-3),
        ("2.5E+2", 250.0),
        (" \t1.5\n", 1.5),  # XML white space around it
        ("1e999", float("inf")),  # for the caller to refuse as not finite
    ],
)
def test_a_decimal_number_as_xml_writes_it_is_read(text, value):
    assert decimal_number(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "1_000",  # float() takes it
        "\u0661",  # ARABIC-INDIC DIGIT ONE: float() takes it
        "\uff11",  # FULLWIDTH DIGIT ONE
        "\u22121",  # MINUS SIGN
        "\u00a01",  # NO-BREAK SPACE, which float() strips
        "0x10",
        "inf",
        "NaN",
        "INF",
        "1e",
        ".",
        "",
        "1 2",
    ],
)
def test_what_is_not_a_decimal_number_in_ascii_is_none(text):
    assert decimal_number(text) is None


def test_the_parse_limits_are_generous_for_real_urdf():
    panda = Path(__file__).resolve().parents[2] / "robots" / "urdf" / "panda.urdf"
    text = panda.read_text(encoding="utf-8")
    assert text.count("<link") * 100 < MAX_URDF_LINKS
    assert text.count("<") * 100 < MAX_URDF_ELEMENTS
    assert MAX_URDF_DEPTH >= 32


def test_at_most_max_urdf_links_links_and_joints():
    links = "".join(f"<link name='l{i}'/>" for i in range(MAX_URDF_LINKS + 1))
    with pytest.raises(ValueError, match=r"10001 <link> elements, more than the 10000 robolab"):
        parse_urdf(f"<robot name='r'>{links}</robot>")
    joints = "".join(
        f"<joint name='j{i}' type='fixed'><parent link='a'/><child link='b'/></joint>"
        for i in range(MAX_URDF_LINKS + 1)
    )
    with pytest.raises(ValueError, match=r"10001 <joint> elements, more than the 10000 robolab"):
        parse_urdf(f"<robot name='r'><link name='a'/><link name='b'/>{joints}</robot>")


def test_a_deep_or_large_document_stops_at_the_limit():
    deep = "<robot name='r'>" + "<a>" * MAX_URDF_DEPTH + "</a>" * MAX_URDF_DEPTH + "</robot>"
    with pytest.raises(
        ValueError, match=rf"^URDF text: elements nested more than {MAX_URDF_DEPTH}"
    ):
        parse_urdf(deep)
    fits = "<robot name='r'><link name='a'/>" + "<a>" * 63 + "</a>" * 63 + "</robot>"
    assert parse_urdf(fits).root == "a"  # <robot> and 63 <a>: exactly 64 deep
    many = "<robot name='r'><link name='a'/>" + "<x/>" * MAX_URDF_ELEMENTS + "</robot>"
    with pytest.raises(ValueError, match=rf"^URDF text: more than {MAX_URDF_ELEMENTS} elements"):
        parse_urdf(many)


def test_some_names_lists_a_few_and_counts_the_rest():
    assert some_names(["a", "b"]) == "['a', 'b']"
    assert some_names([f"l{i}" for i in range(25)], count=3) == "['l0', 'l1', 'l2'] and 22 more"
