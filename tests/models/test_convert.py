"""The URDF → robot file converter: ``python -m robolab.models.convert`` (main) and
model_from_chain, which gives a URDF chain its name and provenance."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from robolab.models.convert import main, model_from_chain
from robolab.models.file_format import RobotModelData
from robolab.models.library import read_robot_model, save_robot
from robolab.models.urdf import parse_urdf, serial_chain_from_urdf

DATA = Path(__file__).resolve().parents[1] / "data" / "urdf"


def test_command_line_writes_a_model_file(tmp_path, capsys):
    output = tmp_path / "branch.json"
    status = main([str(DATA / "branch.urdf"), "--ee-link", "tcp", "-o", str(output)])
    assert status == 0
    printed = capsys.readouterr().out
    assert "3 joints: j1, j2, j3" in printed
    assert "note: joint 'finger_left' (prismatic) is off the chain" in printed
    model = read_robot_model(output)
    chain = serial_chain_from_urdf(parse_urdf(DATA / "branch.urdf"), "tcp")
    assert np.allclose(model.spatial_inertias, chain.spatial_inertias, atol=1e-15)
    assert model.source["document"] == "URDF file branch.urdf"
    assert any("locked at q = 0" in change for change in model.source["changes"])


def test_command_line_reports_errors_with_status_2(tmp_path, capsys):
    output = tmp_path / "x.json"
    status = main([str(DATA / "branch.urdf"), "--ee-link", "nope", "-o", str(output)])
    assert status == 2
    assert "error: ee_link 'nope' is not a link" in capsys.readouterr().err
    assert not output.exists()
    with pytest.raises(SystemExit):  # argparse: --ee-link is required
        main([str(DATA / "branch.urdf"), "-o", str(output)])


def test_the_chain_is_the_one_checked_record_between_a_file_and_a_robot(tmp_path):
    chain = serial_chain_from_urdf(parse_urdf(DATA / "fixed_child_link.urdf"), "tcp")
    assert isinstance(chain, RobotModelData) and chain.checked
    assert chain.source["changes"][1:] == list(chain.notes)
    assert chain.to_screw().joint_names == ("shoulder", "elbow")
    model = model_from_chain(chain, name="arm", citation="a test")
    assert type(model) is RobotModelData and model.source["citation"] == "a test"
    assert model.source["changes"] == chain.source["changes"]
    again = read_robot_model(save_robot(model, tmp_path / "arm.json"))
    assert np.array_equal(again.spatial_inertias, chain.spatial_inertias)


# ------------------------------------------------------------------ bad input, run as a command


def _convert(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run(
        [sys.executable, "-m", "robolab.models.convert", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


_LINE = "expected one line of at most 1000 characters without control or invisible characters"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["", "--ee-link", "tcp", "-o", "x.json"], "the URDF file: expected a file's path, got ''"),
        (["robot.urdf", "--ee-link", "tcp", "-o", ""], "-o/--output: expected a file's path"),
        (
            ["robot.urdf", "--ee-link", "tcp", "-o", "robot.urdf"],
            "-o/--output robot.urdf is the URDF file being read",
        ),
        (
            ["robot.urdf", "--ee-link", "tcp", "-o", "same.urdf"],  # a link to the URDF
            "-o/--output same.urdf is the URDF file being read",
        ),
        (["latin1.urdf", "--ee-link", "tcp", "-o", "x.json"], "latin1.urdf: it is not UTF-8"),
        (["folder", "--ee-link", "tcp", "-o", "x.json"], "folder: it is a directory"),
        (["robot.urdf", "--ee-link", "tcp", "-o", "folder"], "folder: it is a directory"),
        (["robot.urdf", "--ee-link", "tc\u200bp", "-o", "x.json"], "ZERO WIDTH SPACE"),
        (["robot.urdf", "--ee-link", "", "-o", "x.json"], f"--ee-link: {_LINE}, got an empty"),
        (
            ["robot.urdf", "--ee-link", "tcp", "-o", "x.json", "--name", "arm\nrm -rf"],
            f"--name: {_LINE}, got 'arm\\nrm -rf' (it holds U+000A)",
        ),
        (
            ["robot.urdf", "--ee-link", "tcp", "-o", "x.json", "--name", "\x1b[2Jarm"],
            "(it holds U+001B)",
        ),
        (
            ["robot.urdf", "--ee-link", "tcp", "-o", "x.json", "--citation", "a\u202eb"],
            "--citation: expected one line",  # a right-to-left override
        ),
        (
            ["robot.urdf", "--ee-link", "tcp", "-o", "x.json", "--description", "x" * 1001],
            f"--description: {_LINE}, got 1001 characters",
        ),
        (["robot.urdf", "--ee-link", "tcp", "-o", "x.json", "--name", " "], "got an empty text"),
    ],
)
def test_bad_paths_and_options_end_in_one_line(tmp_path, args, message):
    (tmp_path / "robot.urdf").write_bytes((DATA / "branch.urdf").read_bytes())
    (tmp_path / "same.urdf").symlink_to(tmp_path / "robot.urdf")
    (tmp_path / "latin1.urdf").write_bytes(b"<robot name='caf\xe9'/>")
    (tmp_path / "folder").mkdir()
    done = _convert(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: ") and message in line, line
    assert not (tmp_path / "x.json").exists()
    assert (tmp_path / "robot.urdf").read_bytes() == (DATA / "branch.urdf").read_bytes()


def test_a_missing_option_ends_with_argparse_line(tmp_path):
    done = _convert(str(DATA / "branch.urdf"), "-o", "x.json", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].endswith(
        "error: the following arguments are required: --ee-link"
    )


def test_option_texts_are_stored_composed(tmp_path, capsys):
    output = tmp_path / "arm.json"
    decomposed = "Bras de Jose\u0301"  # e + combining acute, as some systems type it
    args = [str(DATA / "branch.urdf"), "--ee-link", "tcp", "-o", str(output)]
    assert main([*args, "--name", decomposed, "--citation", "Jose\u0301, 2020"]) == 0
    model = read_robot_model(output)
    assert model.name == "Bras de Jos\u00e9"
    assert model.source["citation"] == "Jos\u00e9, 2020"
    assert "wrote" in capsys.readouterr().out


#: An arm whose tool breaks the triangle inequality (issue 28: the converter wrote files that
#: load_robot then refused, naming robolab's link number and not the URDF link).
IDEALISED = """<robot name="r"><link name="base"/>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="tool"><inertial><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.5"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="arm"/><child link="tool"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def test_the_converter_runs_load_robots_plausibility_check_with_urdf_names(tmp_path, capsys):
    urdf = tmp_path / "idealised.urdf"
    urdf.write_text(IDEALISED, encoding="utf-8")
    output = tmp_path / "idealised.json"
    assert main([str(urdf), "--ee-link", "tool", "-o", str(output)]) == 2
    error = capsys.readouterr().err
    assert "body of joint 'j2' (links 'tool')" in error and "('tool', " in error
    assert not output.exists()
    reason = "a thin disc, as published"
    argv = [str(urdf), "--ee-link", "tool", "-o", str(output)]
    assert main([*argv, "--plausibility-exception", "tool", "inertia_triangle", reason]) == 0
    model = read_robot_model(output)
    assert [(e.link, e.check, e.reason) for e in model.plausibility_exceptions] == [
        (2, "inertia_triangle", reason)
    ]
    assert model.to_screw().n_joints == 2  # load_robot takes what the converter wrote
