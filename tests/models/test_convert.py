"""The URDF → robot file converter: ``python -m robolab.models.convert`` (main) and
model_from_chain, which gives a URDF chain its name and provenance."""

from __future__ import annotations

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
