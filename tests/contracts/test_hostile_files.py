"""Robot files are data of bounded size: hostile files get a clear ValueError, never a hang.

Model files (JSON: ``load_robot``, ``read_robot_model``), URDF files (``parse_urdf``) and the
URDF → JSON command (``python -m robolab.models.convert``) read only regular files no larger than
``robolab.models.file_format.MAX_ROBOT_FILE_BYTES``; devices, FIFOs and directories are refused
before they are opened. Inside a file, duplicate keys, numbers no double holds, brackets
nested past the recursion limit, text that is not UTF-8 and (URDF) entity declarations are
refused with the file's name and what is wrong. A ModernRoboticsBook.jl file with a
non-unit revolute screw axis is refused with the joint, the norm and how to normalise.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.linalg

import robolab.models.file_format as robot_library
from robolab.models.convert import main as convert_main
from robolab.models.library import (
    MAX_ROBOT_FILE_BYTES,
    list_robots,
    load_robot,
    read_robot_model,
    save_robot,
)
from robolab.models.urdf import parse_urdf, serial_chain_from_urdf
from robolab.screw.kinematics.forward import forward_kinematics_space
from robolab.screw.robot import ScrewRobot

ROOT = Path(__file__).resolve().parents[2]
DEV_ZERO = Path("/dev/zero")
needs_dev_zero = pytest.mark.skipif(
    not DEV_ZERO.exists() or DEV_ZERO.is_file(), reason="no /dev/zero device on this system"
)
needs_symlink = pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")

PENDULUM_URDF = """<robot name="pendulum"><link name="base"/>
  <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
  <inertia ixx="0.08" ixy="0" ixz="0" iyy="0.08" iyz="0" izz="0.001"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="rod"/>
  <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


def bundled_text(name: str) -> str:
    return (ROOT / "robots" / f"{name}.json").read_text(encoding="utf-8")


def write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def finishes(call: Callable[..., Any], *args: Any, unblock: Path | None = None) -> Any:
    """``call(*args)`` in a thread: its result or exception, or a test failure after 10 s.

    A reader that regressed into waiting on the FIFO ``unblock`` is released by opening
    the FIFO's write end, so that the failing test does not leave a thread hanging.
    """
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call(*args)
        except BaseException as error:  # handed to the test's thread below
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(10.0)
    if thread.is_alive():
        if unblock is not None:
            with contextlib.suppress(OSError):  # no reader waiting: nothing to release
                os.close(os.open(unblock, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"{getattr(call, '__name__', call)}{args} still running after 10 s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("os.mkfifo is POSIX only")
    path = tmp_path / "robot.json"
    os.mkfifo(path)
    return path


def stat_saying_regular(monkeypatch: pytest.MonkeyPatch, target: Path, size: int = 10) -> None:
    """Make ``os.stat(target)`` report a small regular file (as if it changed after the check)."""
    real_stat = os.stat

    def fake_stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        info = real_stat(path, *args, **kwargs)
        if os.fspath(path) != os.fspath(target):
            return info
        fields = list(info[:10])
        fields[0] = 0o100644  # S_IFREG | rw-r--r--
        fields[6] = size
        return os.stat_result(fields)

    monkeypatch.setattr(os, "stat", fake_stat)


# ------------------------------------------------------------------ the limit


def test_the_limit_is_one_constant_of_a_few_megabytes():
    assert MAX_ROBOT_FILE_BYTES == 4 * 1024 * 1024
    largest = max(len(bundled_text(name).encode()) for name in list_robots())
    assert largest < MAX_ROBOT_FILE_BYTES / 100
    assert (ROOT / "robots" / "urdf" / "panda.urdf").stat().st_size < MAX_ROBOT_FILE_BYTES / 100


@pytest.mark.parametrize("name", sorted(list_robots()))
def test_every_bundled_model_still_loads_by_name_and_by_path(name, tmp_path):
    assert load_robot(name).n_joints >= 2
    copy = write(tmp_path / f"{name}.json", bundled_text(name))
    assert read_robot_model(copy).n_joints == read_robot_model(name).n_joints


def test_the_bundled_urdf_still_converts(tmp_path):
    chain = serial_chain_from_urdf(
        parse_urdf(ROOT / "robots" / "urdf" / "panda.urdf"), ee_link="panda_hand_tcp"
    )
    assert len(chain.joint_names) == 7


# ------------------------------------------------------------------ not a regular file


@needs_dev_zero
@pytest.mark.parametrize("reader", [load_robot, read_robot_model])
def test_a_device_is_refused_before_it_is_read(reader):
    with pytest.raises(
        ValueError,
        match=r"^cannot read robot model file /dev/zero: it is a character device, not a "
        r"regular file; expected a \.json model file or a \.urdf file$",
    ):
        finishes(reader, "/dev/zero")


@needs_dev_zero
@needs_symlink
def test_a_symbolic_link_to_a_device_is_refused(tmp_path):
    link = tmp_path / "robot.json"
    link.symlink_to(DEV_ZERO)
    with pytest.raises(
        ValueError,
        match=r"robot\.json: it is a character device \(through a symbolic link\), not a "
        "regular file",
    ):
        finishes(load_robot, link)
    urdf = tmp_path / "robot.urdf"
    urdf.symlink_to(DEV_ZERO)
    with pytest.raises(ValueError, match=r"cannot read URDF file .*robot\.urdf: it is a char"):
        finishes(parse_urdf, urdf)


def test_a_directory_is_refused(tmp_path):
    folder = tmp_path / "models.json"
    folder.mkdir()
    with pytest.raises(ValueError, match=r"models\.json: it is a directory, not a regular file"):
        load_robot(folder)
    with pytest.raises(ValueError, match=r"cannot read URDF file .*: it is a directory"):
        parse_urdf(tmp_path)


def test_a_fifo_is_refused_at_once(fifo):
    with pytest.raises(
        ValueError,
        match=r"robot\.json: it is a FIFO \(named pipe\), not a regular file; expected a "
        r"\.json model file",
    ):
        finishes(load_robot, fifo, unblock=fifo)
    with pytest.raises(ValueError, match=r"cannot read URDF file .*: it is a FIFO \(named pipe\)"):
        finishes(parse_urdf, fifo, unblock=fifo)


def test_a_fifo_swapped_in_after_the_check_cannot_block_the_open(fifo, monkeypatch):
    stat_saying_regular(monkeypatch, fifo)
    with pytest.raises(ValueError, match=r"robot\.json: it is a FIFO \(named pipe\), not a"):
        finishes(read_robot_model, fifo, unblock=fifo)
    with pytest.raises(ValueError, match=r"URDF file .*robot\.json: it is a FIFO"):
        finishes(parse_urdf, fifo, unblock=fifo)


def test_an_unreadable_path_is_named(tmp_path):
    with pytest.raises(ValueError, match=r"cannot read robot model file .*nothing\.json: No such"):
        load_robot(tmp_path / "nothing.json")
    with pytest.raises(ValueError, match=r"cannot read robot model file .*: embedded null"):
        load_robot(f"{tmp_path}/bad\0name.json")


# ------------------------------------------------------------------ too large


def test_an_oversized_model_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = write(tmp_path / "ur5.json", bundled_text("ur5"))
    size = path.stat().st_size
    monkeypatch.setattr(robot_library, "MAX_ROBOT_FILE_BYTES", size - 1)
    with pytest.raises(
        ValueError,
        match=rf"cannot read robot model file .*ur5\.json: it has {size} bytes, more than the "
        rf"{size - 1} bytes robolab reads \(robolab\.models\.file_format\.MAX_ROBOT_FILE_BYTES\)",
    ):
        load_robot(path)
    monkeypatch.setattr(robot_library, "MAX_ROBOT_FILE_BYTES", size)
    assert load_robot(path).n_joints == 6  # exactly the limit is allowed


def test_an_oversized_urdf_file_is_refused(tmp_path, monkeypatch):
    path = write(tmp_path / "pendulum.urdf", PENDULUM_URDF)
    monkeypatch.setattr(robot_library, "MAX_ROBOT_FILE_BYTES", 100)
    with pytest.raises(ValueError, match=r"pendulum\.urdf: it has \d+ bytes, more than the 100"):
        parse_urdf(path)


def test_a_file_that_grows_after_the_check_is_read_only_up_to_the_limit(tmp_path, monkeypatch):
    path = write(tmp_path / "ur5.json", bundled_text("ur5"))
    monkeypatch.setattr(robot_library, "MAX_ROBOT_FILE_BYTES", 1000)
    stat_saying_regular(monkeypatch, path, size=10)
    with pytest.raises(ValueError, match=r"ur5\.json: it grew while it was read, more than the"):
        read_robot_model(path)


# ------------------------------------------------------------------ JSON content


def test_a_duplicate_key_is_named_with_the_object_it_is_in(tmp_path):
    text = bundled_text("ur5")
    top = write(
        tmp_path / "robot.json", text.replace('"n_joints": 6', '"n_joints": 6, "n_joints": 5')
    )
    with pytest.raises(
        ValueError,
        match=r"^.*robot\.json: \$: expected each key of an object once, got the key "
        r"'n_joints' 2 times",
    ):
        read_robot_model(top)
    nested = write(
        tmp_path / "robot.json", text.replace('"citation":', '"document": "x", "citation":')
    )
    with pytest.raises(ValueError, match=r"robot\.json: \$\.source: .*got the key 'document' 2"):
        read_robot_model(nested)
    deep = json.loads(bundled_text("puma560"))
    rows = json.dumps(deep["dh"]["standard"]["masses"])
    masses = f'"masses": {rows}'
    deep_text = bundled_text("puma560").replace(masses, f"{masses}, {masses}", 1)
    assert deep_text != bundled_text("puma560")
    with pytest.raises(ValueError, match=r"\$\.dh\.standard: expected each key .* 'masses' 2"):
        read_robot_model(write(tmp_path / "robot.json", deep_text))


@pytest.mark.parametrize(
    ("number", "shown"),
    [
        ("1" + "0" * 5000, r"100000000000…000000000000 \(5001 digits\)"),  # int-string limit
        ("-1" + "0" * 400, r"-10000000000…000000000000 \(401 digits\)"),  # beyond any double
        ("-9.81e999", "-9.81e999"),  # a float that would overflow to inf
    ],
)
def test_a_number_no_double_holds_is_refused_with_its_json_path(number, shown, tmp_path):
    data = json.loads(bundled_text("ur5"))
    text = json.dumps(data).replace('"gravity": [0, 0, -9.81]', f'"gravity": [0, 0, {number}]')
    path = write(tmp_path / "robot.json", text)
    with pytest.raises(
        ValueError,
        match=rf"robot\.json: \$\.gravity\[2\]: expected a finite number, got the number "
        rf"{shown}, which is out of the range of a double-precision float",
    ):
        read_robot_model(path)
    data["n_joints"] = 0  # placeholder replaced by a huge integer
    text = json.dumps(data).replace('"n_joints": 0', '"n_joints": 1' + "0" * 5000)
    with pytest.raises(ValueError, match=r"\$\.n_joints: expected a positive integer, got the"):
        read_robot_model(write(tmp_path / "robot.json", text))


def test_deeply_nested_brackets_are_refused(tmp_path):
    path = write(tmp_path / "robot.json", '{"name": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(
        ValueError,
        match=r"robot\.json: brackets nested too deeply to read .*expected a model file, whose "
        r"deepest field .* is 6 brackets deep",
    ):
        read_robot_model(path)


def test_text_that_is_not_utf8_is_refused(tmp_path):
    latin1 = bundled_text("ur5").encode().replace(b'"name": "ur5"', b'"name": "ur5 \xe9"', 1)
    with pytest.raises(
        ValueError,
        match=r"cannot read robot model file .*robot\.json: it is not UTF-8 text \(byte 0xe9 at "
        r"offset \d+: invalid continuation byte\); expected a \.json model file or a \.urdf "
        r"file saved as UTF-8",
    ):
        read_robot_model(write(tmp_path / "robot.json", latin1))


def test_the_non_finite_constants_stay_refused(tmp_path):
    text = bundled_text("ur5").replace("-9.81", "-Infinity", 1)
    with pytest.raises(ValueError, match=r"robot\.json: -Infinity is not valid JSON; write finite"):
        read_robot_model(write(tmp_path / "robot.json", text))


# ------------------------------------------------------------------ URDF content


def test_a_billion_laughs_urdf_is_refused_before_parsing(tmp_path):
    entities = "".join(f'  <!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(1, 10))
    text = (
        '<?xml version="1.0"?>\n<!DOCTYPE robot [\n  <!ENTITY lol0 "lol">\n'
        f'{entities}]>\n<robot name="r"><link name="&lol9;"/></robot>\n'
    )
    with pytest.raises(
        ValueError,
        match=r"URDF file .*laughs\.urdf: a DOCTYPE or ENTITY declaration was found; robolab "
        "reads plain URDF only and never expands entities",
    ):
        finishes(parse_urdf, write(tmp_path / "laughs.urdf", text))


def test_a_urdf_that_is_not_utf8_is_refused(tmp_path):
    text = PENDULUM_URDF.replace('name="rod"', 'name="rod é"').encode("latin-1")
    with pytest.raises(ValueError, match=r"pendulum\.urdf: it is not UTF-8 text \(byte 0xe9"):
        parse_urdf(write(tmp_path / "pendulum.urdf", text))


def test_a_huge_number_in_a_urdf_names_the_file_and_the_element(tmp_path):
    text = PENDULUM_URDF.replace('<mass value="1"/>', '<mass value="1' + "0" * 5000 + '"/>')
    with pytest.raises(
        ValueError,
        match=r'URDF file .*pendulum\.urdf, <robot name="pendulum">: <link name="rod"> '
        r"<inertial> <mass>: value='100000000000…000000000000 \(5001 digits\)' must be a "
        "finite number",
    ):
        parse_urdf(write(tmp_path / "pendulum.urdf", text))


def test_deeply_nested_urdf_elements_give_a_value_error(tmp_path):
    text = '<robot name="r">' + "<a>" * 100_000 + "</a>" * 100_000 + "</robot>"
    with pytest.raises(
        ValueError,
        match=r"deep\.urdf: elements nested more than 64 deep \(line 1\), more than robolab "
        r"reads \(robolab\.models\.urdf_tree\.MAX_URDF_DEPTH\)",
    ):
        finishes(parse_urdf, write(tmp_path / "deep.urdf", text))


def test_duplicate_urdf_attributes_are_malformed_xml(tmp_path):
    text = PENDULUM_URDF.replace('<link name="base"/>', '<link name="base" name="b"/>')
    with pytest.raises(ValueError, match=r"pendulum\.urdf: not well-formed XML \(duplicate attr"):
        parse_urdf(write(tmp_path / "pendulum.urdf", text))


# ------------------------------------------------------------------ the convert command


def test_convert_refuses_a_fifo_as_input_and_as_output(fifo, tmp_path, capsys):
    urdf = write(tmp_path / "pendulum.urdf", PENDULUM_URDF)
    output = str(tmp_path / "out.json")
    status = finishes(convert_main, [str(fifo), "--ee-link", "rod", "-o", output], unblock=fifo)
    assert status == 2
    assert "error: cannot read URDF file" in capsys.readouterr().err
    status = finishes(convert_main, [str(urdf), "--ee-link", "rod", "-o", str(fifo)], unblock=fifo)
    assert status == 2
    assert "error: cannot write robot model file" in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"robot\.json: it is a FIFO \(named pipe\), not a reg"):
        finishes(save_robot, read_robot_model("planar2r"), fifo, unblock=fifo)
    assert not Path(output).exists()


def test_saving_onto_a_fifo_swapped_in_after_the_check_does_not_block(fifo, monkeypatch):
    stat_saying_regular(monkeypatch, fifo)
    model = read_robot_model("planar2r")
    with pytest.raises(ValueError, match=r"cannot write robot model file .*robot\.json: "):
        finishes(save_robot, model, fifo)


@needs_dev_zero
def test_convert_refuses_a_device_as_input(tmp_path, capsys):
    status = finishes(convert_main, ["/dev/zero", "--ee-link", "rod", "-o", str(tmp_path / "o")])
    assert status == 2
    assert "cannot read URDF file /dev/zero: it is a character device" in capsys.readouterr().err


# ------------------------------------------------------------------ non-unit screw axes


def modernroboticsbook_jl_file(first_axis: list[float]) -> dict[str, Any]:
    """A 2R arm in ModernRoboticsBook.jl's form: no schema_version, screw axes as n rows of 6.

    Joint 1 turns about (1, 0, 1) through (0, 0, 1); written as [1, 0, 1, 0, 1, 0] it is the
    axis of ModernRoboticsBook.jl's three-link textbook model (|ω| = √2).
    """
    frames = [np.eye(4) for _ in range(3)]
    for frame, height in zip(frames, (0.3, 0.4, 0.3), strict=True):
        frame[2, 3] = height
    home = frames[0] @ frames[1] @ frames[2]
    space = np.array([first_axis, [0.0, 1.0, 0.0, -0.5, 0.0, 0.0]])
    # B = [Ad_(M^-1)] S; M is a translation p, so ω_b = ω and v_b = v + ω × p.
    body = np.hstack([space[:, :3], space[:, 3:] + np.cross(space[:, :3], home[:3, 3])])
    inertia = np.diag([0.01, 0.01, 0.005, 2.0, 2.0, 2.0]).tolist()
    return {
        "name": "2r_textbook",
        "n_joints": 2,
        "screw_axes_body": body.tolist(),
        "joint_names": ["joint1", "joint2"],
        "joint_types": ["revolute", "revolute"],
        "link_frames": [frame.tolist() for frame in frames],
        "spatial_inertias": [inertia, inertia],
        "home_ee_pose": home.tolist(),
        "screw_axes_space": space.tolist(),
        "joint_limits": [[-6.283185307, 6.283185307]] * 2,
    }


EXPLANATION = (
    r": the joint variable would not be an angle in radians \(the joint would turn 1\.41421 rad "
    r"per unit of q\); normalise the axis by dividing it \(ω and v\) by the length of ω, "
    r"1\.41421: the joint variable then becomes 1\.41421·q$"
)


@pytest.mark.parametrize("form", ["screw", "dh"])
def test_a_modernroboticsbook_jl_file_with_a_non_unit_axis_is_refused(form, tmp_path):
    path = tmp_path / "3dof_textbook.json"
    path.write_text(json.dumps(modernroboticsbook_jl_file([1, 0, 1, 0, 1, 0]), indent=2))
    with pytest.raises(
        ValueError,
        match=r"3dof_textbook\.json: \$\.screw_axes_space\[0\]: expected a revolute screw axis "
        r"\[ω; v\] with \|ω\| = 1 \(joint 'joint1'\), got \|ω\| = 1\.41421" + EXPLANATION,
    ):
        load_robot(path, form=form)


def test_screw_robot_refuses_it_with_the_same_explanation():
    data = modernroboticsbook_jl_file([1, 0, 1, 0, 1, 0])
    with pytest.raises(
        ValueError,
        match=r"^screw_axes_space\[:, 0\] \(joint 'joint1'\): a screw axis needs ‖ω‖ = 1 "
        r"\(revolute\) or ω = 0 and ‖v‖ = 1 \(prismatic\), got ‖ω‖ = 1\.41421" + EXPLANATION,
    ):
        ScrewRobot(
            data["name"],
            data["home_ee_pose"],
            np.array(data["screw_axes_space"]).T,
            data["link_frames"],
            data["spatial_inertias"],
        )


def test_the_normalised_file_loads_and_its_joint_variable_is_the_scaled_one(tmp_path):
    raw = modernroboticsbook_jl_file([1, 0, 1, 0, 1, 0])
    norm = np.sqrt(2.0)
    fixed = modernroboticsbook_jl_file((np.array([1, 0, 1, 0, 1, 0]) / norm).tolist())
    path = tmp_path / "3dof_textbook.json"
    path.write_text(json.dumps(fixed, indent=2))
    robot = load_robot(path)
    assert "ModernRoboticsBook.jl" in read_robot_model(path).description
    # exp([S] q) of the file's axis is exp([S/|ω|] |ω| q) of the normalised one.
    q = np.array([0.3, -0.7])
    home = np.array(raw["home_ee_pose"])
    expected = home.copy()
    for axis, angle in reversed(list(zip(np.array(raw["screw_axes_space"]), q, strict=True))):
        omega, v = axis[:3], axis[3:]
        twist = np.zeros((4, 4))
        twist[:3, :3] = [
            [0, -omega[2], omega[1]],
            [omega[2], 0, -omega[0]],
            [-omega[1], omega[0], 0],
        ]
        twist[:3, 3] = v
        expected = scipy.linalg.expm(twist * angle) @ expected
    got = forward_kinematics_space(robot, [norm * q[0], q[1]])
    assert np.allclose(got, expected, atol=1e-12)


def test_a_zero_revolute_axis_is_refused_without_advice_to_divide_by_zero(tmp_path):
    path = tmp_path / "robot.json"
    path.write_text(json.dumps(modernroboticsbook_jl_file([0, 0, 0, 0, 0, 0])))
    with pytest.raises(ValueError, match=r"\(joint 'joint1'\), got a screw axis with \|ω\| = 0$"):
        load_robot(path)


# ------------------------------------------------------------------ a sweep of hostile model files
#
# Issue 29: each case is a file as a hostile (or careless) user might write it; each must give a
# ValueError that names the file, the JSON path and what was expected, or what is wrong.


def ur5_with(change: Callable[[dict[str, Any]], Any]) -> str:
    """The bundled UR5 file, as JSON text, after ``change`` of its parsed data."""
    data = json.loads(bundled_text("ur5"))
    change(data)
    return json.dumps(data)


def set_path(*path_and_value: Any) -> Callable[[dict[str, Any]], None]:
    """A change setting ``data[k1][k2]...`` to the last argument."""
    *path, value = path_and_value

    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def ur5_names(*names: str) -> Callable[[dict[str, Any]], None]:
    """A change giving the first joints of the UR5 file the names ``names``."""

    def change(data: dict[str, Any]) -> None:
        data["joint_names"][: len(names)] = names

    return change


ACCEPTED_AS_PUBLISHED = {"link": 1, "check": "inertia_triangle", "reason": "a\u202eb"}
HIDDEN = r"expected a name of at most 1000 characters without control or invisible characters"

HOSTILE_MODEL_FILES = [
    # broken JSON
    ("truncated", lambda: bundled_text("ur5")[:700], r"not valid JSON \(line \d+, column \d+: "),
    ("empty", lambda: "", r"not valid JSON \(line 1, column 1: Expecting value\)"),
    ("a list", lambda: "[1, 2]", r"\$: expected a JSON object, got a list of 2 items"),
    (
        "byte-order mark",
        lambda: "\ufeff" + bundled_text("ur5"),
        r"not valid JSON: it starts with a byte-order mark \(U\+FEFF\); expected JSON text "
        "without one",
    ),
    (
        "1_000",
        lambda: bundled_text("ur5").replace("-9.81", "-9_81", 1),
        r"not valid JSON \(line \d+, column \d+: Expecting ',' delimiter\)$",
    ),
    (
        "Arabic digit",
        lambda: bundled_text("ur5").replace("-9.81", "-\u0669.81", 1),
        r"not valid JSON \(line \d+, column \d+: Expecting value\)$",
    ),
    ("NaN", lambda: bundled_text("ur5").replace("-9.81", "NaN", 1), r"NaN is not valid JSON"),
    (
        "brackets in a name",
        lambda: ur5_with(set_path("name", [[[[["ur5"]]]]])),
        r"\$\.name: expected a non-empty string, got a list of 1 item$",
    ),
    # numbers no double holds, wrong kinds in every field
    (
        "1e999 in the home pose",
        lambda: ur5_with(set_path("home_ee_pose", 0, 3, 0.5)).replace("0.5", "1e999", 1),
        r"\$\.home_ee_pose\[0\]\[3\]: expected a finite number, got the number 1e999, which is "
        "out of the range",
    ),
    (
        "null in a screw axis",
        lambda: ur5_with(set_path("screw_axes_space", 0, 2, None)),
        r"\$\.screw_axes_space\[0\]\[2\]: expected a finite number, got null$",
    ),
    (
        "text in gravity",
        lambda: ur5_with(set_path("gravity", 2, "x" * 3_000_000)),
        r"\$\.gravity\[2\]: expected a finite number, got the text 'xxxxxxxxxxxx…xxxxxxxxxxxx "
        r"\(3000000 characters\)'$",
    ),
    (
        "a float n_joints",
        lambda: ur5_with(set_path("n_joints", 6.0)),
        r"\$\.n_joints: expected a positive integer, got the number 6\.0$",
    ),
    (
        "a boolean n_joints",
        lambda: ur5_with(set_path("n_joints", True)),
        r"\$\.n_joints: expected a positive integer, got the boolean true$",
    ),
    (
        "n_joints as text",
        lambda: ur5_with(set_path("n_joints", "6")),
        r"\$\.n_joints: expected a positive integer, got the text '6'$",
    ),
    (
        "n_joints 10**18",
        lambda: ur5_with(set_path("n_joints", 10**18)),
        r"\$\.n_joints: expected at most 1000 joints \(robolab\.screw\.robot\.MAX_ROBOT_JOINTS, "
        r"the most a robot may have\), got the number 1000000000000000000$",
    ),
    (
        "a list as a joint type",
        lambda: ur5_with(set_path("joint_types", 0, ["revolute"])),
        r"\$\.joint_types\[0\]: expected \"revolute\" or \"prismatic\", got a list of 1 item$",
    ),
    (
        "a spherical joint",
        lambda: ur5_with(set_path("joint_types", 0, "spherical")),
        r"\$\.joint_types\[0\]: expected \"revolute\" or \"prismatic\", got the text 'spherical'$",
    ),
    (
        "limits as text",
        lambda: ur5_with(set_path("joint_limits", 1, ["-pi", "pi"])),
        r"\$\.joint_limits\[1\]\[0\]: expected a finite number, got the text '-pi'$",
    ),
    (
        "a negative mass",
        lambda: ur5_with(
            lambda d: [d["spatial_inertias"][2][k].__setitem__(k, -1) for k in (3, 4, 5)]
        ),
        r"\$\.spatial_inertias\[2\]\[3\]\[3\]: expected a mass >= 0, got the number -1",
    ),
    (
        "a float link number",
        lambda: ur5_with(
            set_path("plausibility_exceptions", [{**ACCEPTED_AS_PUBLISHED, "link": 1.0}])
        ),
        r"\$\.plausibility_exceptions\[0\]\.link: expected a link number 1\.\.6, got the "
        r"number 1\.0$",
    ),
    (
        "a list as a check",
        lambda: ur5_with(
            set_path("plausibility_exceptions", [{**ACCEPTED_AS_PUBLISHED, "check": []}])
        ),
        r"\$\.plausibility_exceptions\[0\]\.check: expected one of \['mass', 'inertia_triangle'\], "
        "got a list of 0 items",
    ),
    (
        "negative friction",
        lambda: ur5_with(set_path("friction", {"viscous": -1})),
        r"\$\.friction\.viscous: expected coefficients from 0 \(friction takes energy\) to 1e\+06, "
        "got the number -1$",
    ),
    (
        "zero smoothing",
        lambda: ur5_with(set_path("friction", {"smoothing": 0})),
        r"\$\.friction\.smoothing: expected a number from 1e-06 to 1000 \(rad/s or m/s\), got the "
        "number 0$",
    ),
    (
        "100 000 unknown keys",
        lambda: ur5_with(set_path("friction", {f"k{i}": 0 for i in range(100_000)})),
        r"\$\.friction: expected an object with some of the keys \['viscous', 'coulomb', "
        r"'smoothing'\], got an object with keys \['k0', .* 'k9'\] and 99990 more$",
    ),
    (
        "schema_version as text",
        lambda: ur5_with(set_path("schema_version", "1")),
        r"\$\.schema_version: expected a positive integer, got the text '1'$",
    ),
    (
        "an unknown key that clears the terminal",
        lambda: ur5_with(set_path("\x1b[2J", 1)),
        r'\$\["\\u001b\[2J"\]: expected one of the keys \[.*\], got an unknown key$',
    ),
    # names and text
    (
        "NUL in the name",
        lambda: ur5_with(set_path("name", "ur5\x00")),
        rf"\$\.name: {HIDDEN} .*, got the text 'ur5\\x00', which holds U\+0000 \(a control "
        r"character\) at index 3$",
    ),
    (
        "an ANSI escape in a joint name",
        lambda: ur5_with(ur5_names("\x1b[31mshoulder")),
        r"\$\.joint_names\[0\]: .* which holds U\+001B \(a control character\) at index 0$",
    ),
    (
        "a newline in a joint name",
        lambda: ur5_with(ur5_names("a", "b\nc")),
        r"\$\.joint_names\[1\]: .* which holds U\+000A \(a control character\) at index 1$",
    ),
    (
        "a bidi override in a joint name",
        lambda: ur5_with(ur5_names("wrist\u202e1")),
        r"\$\.joint_names\[0\]: .* U\+202E RIGHT-TO-LEFT OVERRIDE \(an invisible format "
        r"character\) at index 5$",
    ),
    (
        "a zero-width space making two names differ",
        lambda: ur5_with(ur5_names("elbow", "elbow\u200b")),
        r"\$\.joint_names\[1\]: .* U\+200B ZERO WIDTH SPACE \(an invisible format character\)",
    ),
    (
        "two names equal in NFC",
        lambda: ur5_with(ur5_names("co\u0302te", "c\u00f4te")),
        r"\$\.joint_names: expected distinct names, got 'c\u00f4te' twice, at \[0\] and \[1\] "
        r"\(written 'co\u0302te' and 'c\u00f4te': the same in normal form NFC\)$",
    ),
    (
        "a line separator in a joint name",
        lambda: ur5_with(ur5_names("a\u2028b")),
        r"\$\.joint_names\[0\]: .* U\+2028 LINE SEPARATOR \(a line separator\) at index 1$",
    ),
    (
        "a byte-order mark in a joint name",
        lambda: ur5_with(ur5_names("\ufeffa")),
        r"\$\.joint_names\[0\]: .* U\+FEFF ZERO WIDTH NO-BREAK SPACE \(an invisible format "
        r"character\) at index 0$",
    ),
    (
        "a lone surrogate in a joint name",
        lambda: ur5_with(ur5_names("\ud800")),
        r"\$\.joint_names\[0\]: .* U\+D800 \(a lone surrogate, half of a character\) at index 0$",
    ),
    (
        "a name of 5000 characters",
        lambda: ur5_with(set_path("name", "r" * 5000)),
        rf"\$\.name: {HIDDEN} .*, got the text 'rrrrr.*'\.\.\. of 5000 characters$",
    ),
    (
        "an ANSI escape in the description",
        lambda: ur5_with(set_path("description", "UR5 \x1b[8m")),
        r"\$\.description: expected text without control or invisible characters, got the text "
        r"'UR5 \\x1b\[8m', which holds U\+001B",
    ),
    (
        "a bidi override in the citation",
        lambda: ur5_with(set_path("source", "citation", "Lynch \u202eand Park")),
        r"\$\.source\.citation: expected text without control or invisible characters, .*U\+202E",
    ),
    (
        "NUL in an accepted idealisation's reason",
        lambda: ur5_with(set_path("plausibility_exceptions", [ACCEPTED_AS_PUBLISHED])),
        r"\$\.plausibility_exceptions\[0\]\.reason: expected text without control .*U\+202E",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"),
    [pytest.param(text, message, id=case) for case, text, message in HOSTILE_MODEL_FILES],
)
def test_a_hostile_model_file_is_refused_naming_what_is_wrong(text, message, tmp_path):
    path = write(tmp_path / "robot.json", text().encode("utf-8", "surrogatepass"))
    with pytest.raises(ValueError, match=r"^.*robot\.json: " + message) as caught:
        finishes(load_robot, path)
    assert len(str(caught.value)) < 1000  # a message, not a copy of the file


def test_a_model_file_in_another_encoding_is_refused(tmp_path):
    path = write(tmp_path / "robot.json", bundled_text("ur5").encode("utf-16"))
    with pytest.raises(
        ValueError,
        match=r"robot\.json: it is not UTF-8 text \(byte 0xff at offset 0: invalid start byte\)",
    ):
        load_robot(path)


def many_joints_model(n: int) -> dict[str, Any]:
    """A planar chain of n revolute joints about z, 0.1 m apart, in ModernRoboticsBook.jl form."""
    step = np.eye(4)
    step[0, 3] = 0.1
    home = np.eye(4)
    home[0, 3] = 0.1 * (n + 1)
    return {
        "name": "snake",
        "n_joints": n,
        "joint_names": [f"j{i}" for i in range(n)],
        "joint_types": ["revolute"] * n,
        "joint_limits": [[-3.0, 3.0]] * n,
        "home_ee_pose": home.tolist(),
        "screw_axes_space": [[0, 0, 1, 0, -0.1 * (i + 1), 0] for i in range(n)],
        "link_frames": [step.tolist()] * (n + 1),
        "spatial_inertias": [np.diag([0.1, 0.1, 0.1, 1, 1, 1]).tolist()] * n,
    }


def test_a_robot_of_a_thousand_joints_loads_and_one_more_is_refused(tmp_path):
    # np.linalg.multi_dot chose its order in O(n³) steps: 1000 joints hung load_robot.
    path = tmp_path / "snake.json"
    path.write_text(json.dumps(many_joints_model(1000)), encoding="utf-8")
    robot = finishes(load_robot, path)
    assert robot.n_joints == 1000 and robot.joint_names[-1] == "j999"
    assert robot.home_ee_pose[0, 3] == pytest.approx(100.1, abs=1e-9)
    path.write_text(json.dumps(many_joints_model(1001)), encoding="utf-8")
    with pytest.raises(
        ValueError,
        match=r"snake\.json: \$\.n_joints: expected at most 1000 joints \(robolab\.screw\.robot\."
        r"MAX_ROBOT_JOINTS, the most a robot may have\), got the number 1001$",
    ):
        finishes(load_robot, path)


# ------------------------------------------------------------------ a sweep of hostile URDF


def urdf_chain(n: int, movable: str = "revolute") -> str:
    """A URDF chain of n joints, each link with an inertial, written out by hand."""
    inertial = (
        '<inertial><origin xyz="0 0 0.05"/><mass value="1"/>'
        '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>'
    )
    parts = ['<robot name="snake"><link name="l0"/>']
    for i in range(1, n + 1):
        parts.append(f'<link name="l{i}">{inertial}</link>')
        parts.append(
            f'<joint name="j{i}" type="{movable}"><parent link="l{i - 1}"/>'
            f'<child link="l{i}"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        )
    return "".join(parts) + "</robot>"


def pendulum_with(old: str, new: str) -> str:
    assert old in PENDULUM_URDF
    return PENDULUM_URDF.replace(old, new, 1)


HOSTILE_URDF = [
    (
        "larger than the file limit",
        lambda: PENDULUM_URDF + " " * MAX_ROBOT_FILE_BYTES,
        r"^URDF text: it has \d+ characters \(as many bytes or more\), more than the 4194304 bytes "
        r"robolab reads \(robolab\.models\.file_format\.MAX_ROBOT_FILE_BYTES\); expected URDF "
        "text no larger than that$",
    ),
    (
        "larger than the limit in UTF-8 only",
        lambda: pendulum_with(
            "</robot>", "<!--" + "é" * (MAX_ROBOT_FILE_BYTES // 2) + "--></robot>"
        ),
        r"^URDF text: it has \d+ bytes, more than the 4194304 bytes robolab reads",
    ),
    (
        "10 001 links",
        lambda: (
            '<robot name="r">' + "".join(f'<link name="l{i}"/>' for i in range(10_001)) + "</robot>"
        ),
        r'^URDF <robot name="r">: 10001 <link> elements, more than the 10000 robolab reads '
        r"\(robolab\.models\.urdf_tree\.MAX_URDF_LINKS\)$",
    ),
    (
        "100 001 elements",
        lambda: pendulum_with("</robot>", "<x/>" * 100_001 + "</robot>"),
        r"^URDF text: more than 100000 elements \(line \d+\), more than robolab reads "
        r"\(robolab\.models\.urdf_tree\.MAX_URDF_ELEMENTS\)$",
    ),
    (
        "nested 65 deep",
        lambda: pendulum_with("</robot>", "<a>" * 64 + "</a>" * 64 + "</robot>"),
        r"^URDF text: elements nested more than 64 deep \(line \d+\)",
    ),
    (
        "a DOCTYPE without entities",
        lambda: "<!DOCTYPE robot>" + PENDULUM_URDF,
        r"^URDF text: a DOCTYPE or ENTITY declaration was found; robolab reads plain URDF only",
    ),
    (
        "an external entity",
        lambda: (
            '<!DOCTYPE robot [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            + pendulum_with('name="rod"', 'name="&x;"')
        ),
        r"^URDF text: a DOCTYPE or ENTITY declaration was found",
    ),
    (
        "a parameter entity",
        lambda: (
            '<!DOCTYPE robot [<!ENTITY % p SYSTEM "http://example.com/p.dtd"> %p;]>' + PENDULUM_URDF
        ),
        r"^URDF text: a DOCTYPE or ENTITY declaration was found",
    ),
    (
        "billion laughs as text",
        lambda: (
            '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            '<robot name="r"><link name="&b;"/></robot>'
        ),
        r"^URDF text: a DOCTYPE or ENTITY declaration was found",
    ),
    (
        "an undefined entity",
        lambda: pendulum_with('name="rod"', 'name="&rod;"'),
        r"^URDF text: not well-formed XML \(undefined entity: line \d+, column \d+\)$",
    ),
    (
        "a raw escape character",
        lambda: pendulum_with('name="hinge"', 'name="\x1b[31mhinge"'),
        r"^URDF text: not well-formed XML \(not well-formed \(invalid token\)",
    ),
    (
        "a bidi override as a character reference",
        lambda: pendulum_with('<link name="rod">', '<link name="ro&#x202E;d">'),
        r'^URDF <robot name="pendulum">: <link> #2 name must be a name of at most 1000 '
        r"characters without control or invisible characters \(Unicode categories Cc, Cf, Cs, "
        r"Zl, Zp\), got the text 'ro\\u202ed', which holds U\+202E RIGHT-TO-LEFT OVERRIDE",
    ),
    (
        "a zero-width space in a joint name",
        lambda: pendulum_with('name="hinge"', 'name="hin\u200bge"'),
        r"<joint> #1 name must be a name .* U\+200B ZERO WIDTH SPACE",
    ),
    (
        "a line separator in the robot's name",
        lambda: pendulum_with('name="pendulum"', 'name="pendulum&#x2028;"'),
        r"^URDF text: <robot> name must be a name .* U\+2028 LINE SEPARATOR",
    ),
    (
        "two links equal in NFC",
        lambda: pendulum_with('<link name="base"/>', '<link name="base"/><link name="ro&#x64;"/>'),
        r"two links are named 'rod'$",
    ),
    (
        "two links equal in NFC only",
        lambda: pendulum_with(
            '<link name="base"/>',
            '<link name="base"/><link name="c\u00f4te"/><link name="co\u0302te"/>',
        ),
        r"two links are named 'c\u00f4te' \('c\u00f4te' and 'co\u0302te' in normal form NFC\)$",
    ),
    (
        "a mass of 1_000",
        lambda: pendulum_with('<mass value="1"/>', '<mass value="1_000"/>'),
        r"<link name=\"rod\"> <inertial> <mass>: value='1_000' is not a number; expected a "
        r"decimal number in ASCII digits such as 0\.25 or -1\.5e-3$",
    ),
    (
        "a mass in Arabic-Indic digits",
        lambda: pendulum_with('<mass value="1"/>', '<mass value="\u0661"/>'),
        r"<mass>: value='\u0661' is not a number; expected a decimal number in ASCII digits",
    ),
    (
        "a mass with a Unicode minus",
        lambda: pendulum_with('<mass value="1"/>', '<mass value="\u22121"/>'),
        r"<mass>: value='\u22121' is not a number",
    ),
    (
        "a hexadecimal mass",
        lambda: pendulum_with('<mass value="1"/>', '<mass value="0x10"/>'),
        r"<mass>: value='0x10' is not a number",
    ),
    (
        "a mass of INF",
        lambda: pendulum_with('<mass value="1"/>', '<mass value="INF"/>'),
        r"<mass>: value='INF' must be a finite number$",
    ),
    (
        "a mass of NaN",
        lambda: pendulum_with('<mass value="1"/>', '<mass value="NaN"/>'),
        r"<mass>: value='NaN' must be a finite number$",
    ),
    (
        "a mass of 1e999",
        lambda: pendulum_with('<mass value="1"/>', '<mass value="1e999"/>'),
        r"<mass>: value='1e999' must be a finite number$",
    ),
    (
        "a huge inertia attribute",
        lambda: pendulum_with('ixx="0.08"', 'ixx="' + "9" * 3_000_000 + '"'),
        r"<inertia>: ixx='999999999999…999999999999 \(3000000 digits\)' must be a finite number$",
    ),
    (
        "ideographic spaces between numbers",
        lambda: pendulum_with('xyz="0 0 -0.5"', 'xyz="0\u30000\u3000-0.5"'),
        r"<inertial> <origin xyz> must hold 3 numbers, each a decimal number in ASCII digits",
    ),
    (
        "two numbers for three",
        lambda: pendulum_with('xyz="0 0 -0.5"', 'xyz="0 0"'),
        r"<inertial> <origin xyz> must hold 3 numbers",
    ),
    (
        "an axis of nan",
        lambda: pendulum_with('<axis xyz="0 1 0"/>', '<axis xyz="nan 1 0"/>'),
        r'<joint name="hinge"> <axis xyz> must hold 3 numbers',
    ),
    (
        "a limit of 1e400",
        lambda: pendulum_with('lower="-1"', 'lower="-1e400"'),
        r"<limit>: lower='-1e400' must be a finite number$",
    ),
    (
        "a link name of 5000 characters",
        lambda: pendulum_with(
            '<link name="base"/>', '<link name="base"/><link name="' + "b" * 5000 + '"/>'
        ),
        r"<link> #2 name must be a name .*, got the text 'bbbb.*'\.\.\. of 5000 characters$",
    ),
    (
        "an unexpanded xacro",
        lambda: pendulum_with("</robot>", '<xacro:include filename="other.xacro"/></robot>'),
        r"^URDF text: found a xacro element <xacro:include>; expand the file with xacro first$",
    ),
    (
        "a lone surrogate",
        lambda: pendulum_with('name="rod"', 'name="r\ud800d"'),
        r"^URDF text: not text: U\+D800 at index \d+ is half of a character \(a lone surrogate\)",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"),
    [pytest.param(text, message, id=case) for case, text, message in HOSTILE_URDF],
)
def test_hostile_urdf_text_is_refused_naming_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message) as caught:
        finishes(parse_urdf, text())
    assert len(str(caught.value)) < 1000  # a message, not a copy of the text


def test_urdf_text_and_file_are_held_to_the_same_limit_in_the_same_words(tmp_path):
    text = PENDULUM_URDF + " " * MAX_ROBOT_FILE_BYTES
    size = len(text.encode())
    words = rf"it has {size} bytes, more than the {MAX_ROBOT_FILE_BYTES} bytes robolab reads"
    with pytest.raises(ValueError, match=rf"^cannot read URDF file .*big\.urdf: {words}"):
        parse_urdf(write(tmp_path / "big.urdf", text))
    with pytest.raises(ValueError, match=rf"^URDF text: it has {len(text)} characters"):
        parse_urdf(text)


@pytest.mark.parametrize(
    ("source", "error", "message"),
    [
        (b"<robot/>", TypeError, r"^source must be a path or URDF text \(a str\), got bytes$"),
        (None, TypeError, r"^source must be a path or URDF text \(a str\), got NoneType$"),
        ("", ValueError, r"^source must be a path or URDF text, got an empty str$"),
        (" \n", ValueError, r"^source must be a path or URDF text, got an empty str$"),
    ],
)
def test_a_urdf_source_that_is_neither_text_nor_a_path_is_refused(source, error, message):
    with pytest.raises(error, match=message):
        parse_urdf(source)


def test_a_urdf_file_with_a_byte_order_mark_is_read(tmp_path):
    path = write(tmp_path / "pendulum.urdf", "\ufeff" + PENDULUM_URDF)
    assert list(parse_urdf(path).joints) == ["hinge"]
    assert list(parse_urdf("\ufeff" + PENDULUM_URDF).joints) == ["hinge"]


def test_meshes_anywhere_are_never_opened(monkeypatch):
    text = pendulum_with(
        "<inertial>",
        '<visual><geometry><mesh filename="/dev/zero"/></geometry></visual>'
        '<collision><geometry><mesh filename="../../../etc/passwd"/></geometry></collision>'
        '<visual><geometry><mesh filename="package://robot/../../secret.stl"/></geometry>'
        "</visual><inertial>",
    )

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"parse_urdf opened {args[0]!r}")

    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr("builtins.open", refuse)
    chain = serial_chain_from_urdf(parse_urdf(text), ee_link="rod")
    assert chain.joint_names == ("hinge",)


def test_names_are_read_in_nfc_and_a_link_is_found_by_either_spelling():
    text = (
        PENDULUM_URDF.replace('"rod"', '"c\u00f4te"')  # the link, precomposed
        .replace('<child link="c\u00f4te"/>', '<child link="co\u0302te"/>')  # decomposed
        .replace('name="hinge"', 'name="e\u0301paule"')
    )
    assert 'link="co\u0302te"' in text
    robot = parse_urdf(text)
    assert robot.joints["\u00e9paule"].child == "c\u00f4te"
    chain = serial_chain_from_urdf(robot, ee_link="co\u0302te")
    assert chain.joint_names == ("\u00e9paule",) and chain.ee_link == "c\u00f4te"


def test_a_urdf_chain_of_a_thousand_joints_converts_and_one_more_is_refused():
    chain = serial_chain_from_urdf(finishes(parse_urdf, urdf_chain(1000)), ee_link="l1000")
    robot = chain.to_screw()
    assert robot.n_joints == 1000 and robot.joint_names[:2] == ("j1", "j2")
    with pytest.raises(
        ValueError,
        match=r"^the chain from 'l0' to 'l1001' of URDF robot 'snake': 1001 joints, more than the "
        r"1000 a robot may have \(robolab\.screw\.robot\.MAX_ROBOT_JOINTS\)$",
    ):
        serial_chain_from_urdf(finishes(parse_urdf, urdf_chain(1001)), ee_link="l1001")
