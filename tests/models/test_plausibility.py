"""check_plausibility: every link's mass and principal moments, with the reasons a robot file
records for the findings it accepts."""

from __future__ import annotations

import numpy as np
import pytest
from robot_files import bundled, write

from robolab import DHRobot, ScrewRobot
from robolab.models.plausibility import PlausibilityFinding, check_plausibility
from robolab.models.reading import read_robot_model
from robolab.symbols import l1, q1


def planar_2r(first_link: np.ndarray, **options) -> ScrewRobot:
    """A planar 2R arm of 1 m links; ``first_link`` is G_1, the second link a 1 kg point mass."""
    x = np.eye(4)
    x[0, 3] = 1.0
    return ScrewRobot(
        "2R",
        x @ x,
        [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
        [x, x, np.eye(4)],
        [first_link, np.diag([0, 0, 0, 1.0, 1.0, 1.0])],
        **options,
    )


def test_plausibility_flags_what_no_exception_accepts(tmp_path):
    data = bundled("puma560")
    data.pop("plausibility_exceptions")
    model = read_robot_model(write(tmp_path, data))
    findings = check_plausibility(model)
    assert [(f.link, f.check, f.accepted) for f in findings] == [
        (1, "mass", None),
        (1, "inertia_triangle", None),
        (3, "inertia_triangle", None),
    ]
    assert "NOT ACCEPTED" in str(findings[0])
    assert "largest exceeds the sum of the others by 0.0075" in findings[2].detail


def test_a_massless_link_is_a_finding_and_its_reason_goes_with_it():
    massless = planar_2r(np.zeros((6, 6)))
    assert check_plausibility(massless) == [
        PlausibilityFinding(1, "mass", "m = 0 kg", None),
    ]
    accepted = planar_2r(np.zeros((6, 6)), plausibility_exceptions=[(1, "mass", "a bare joint")])
    (finding,) = check_plausibility(accepted)
    assert finding.accepted == "a bare joint"
    assert str(finding) == "link 1, mass: m = 0 kg (accepted: a bare joint)"


def test_a_physical_arm_has_no_findings():
    rod = np.diag([0.0, 1 / 12, 1 / 12, 1.0, 1.0, 1.0])  # a thin rod: I_yy + I_xx = I_zz
    assert check_plausibility(planar_2r(rod)) == []


def test_only_numbers_can_be_checked():
    arm = DHRobot((l1, 0, 0, q1))  # mass m_1, inertia diag(I_xx1, I_yy1, I_zz1)
    with pytest.raises(ValueError, match=r"needs numeric masses and inertia tensors; .* symbolic"):
        check_plausibility(arm)
    with pytest.raises(
        TypeError, match=r"model must be a RobotModelData, a ScrewRobot or a DHRobot, got int"
    ):
        check_plausibility(3)
