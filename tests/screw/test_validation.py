"""The one validation of screw data (robolab.screw.validation): screw axes, transforms and
spatial inertias, each problem described in a robot's words and in a file's.

The doors that ask these functions are tested in tests/screw/test_robot.py (ScrewRobot),
tests/models/test_reading.py (robot files) and tests/models/test_urdf.py (URDF chains).
"""

from __future__ import annotations

import numpy as np
import pytest

from robolab.screw.validation import (
    ScrewDataProblem,
    non_unit_axis_advice,
    raise_problem,
    screw_axis_kind,
    screw_axis_problem,
    spatial_inertia_problem,
    transform_problem,
)

ABOUT_Z = np.array([0, 0, 1.0, 0, 0, 0])
ALONG_X = np.array([0, 0, 0, 1.0, 0, 0])


def spatial(inertia, mass: float) -> np.ndarray:
    G = np.zeros((6, 6))
    G[:3, :3] = inertia
    G[3:, 3:] = mass * np.eye(3)
    return G


# ------------------------------------------------------------------ screw axes


@pytest.mark.parametrize(
    ("screw", "kind"),
    [
        (ABOUT_Z, ("revolute", 1.0, 0.0)),
        (np.array([0, 0, 1.0, 0, -2.0, 0]), ("revolute", 1.0, 2.0)),  # a joint at x = 2
        (ALONG_X, ("prismatic", 0.0, 1.0)),
        (np.array([0, 0, 2.0, 0, 0, 0]), (None, 2.0, 0.0)),
        (np.array([0, 0, 0, 0, 0.5, 0]), (None, 0.0, 0.5)),
    ],
)
def test_the_kind_of_a_screw_axis_and_its_norms(screw, kind):
    assert screw_axis_kind(screw) == kind


def test_a_robot_takes_either_kind_of_unit_axis():
    assert screw_axis_problem(ABOUT_Z, 0, "j1") is None
    assert screw_axis_problem(ALONG_X, 0, "j1") is None
    problem = screw_axis_problem(np.array([0, 0, 0, 0, 0.5, 0]), 1, "j2")
    assert (problem.field, problem.index, problem.expected) == (
        "screw_axes_space",
        1,
        "a unit screw axis",
    )
    assert problem.found == "‖ω‖ = 0 and ‖v‖ = 0.5"


def test_a_file_names_the_kind_and_a_revolute_axis_needs_zero_pitch():
    assert screw_axis_problem(ABOUT_Z, 0, "j1", "revolute") is None
    wrong_kind = screw_axis_problem(ALONG_X, 0, "j1", "revolute")
    assert wrong_kind.expected == "a revolute screw axis [ω; v] with |ω| = 1 (joint 'j1')"
    assert wrong_kind.found == "a screw axis with |ω| = 0"
    pitched = screw_axis_problem(np.array([0, 0, 1.0, 0, 0, 0.5]), 0, "j1", "revolute")
    assert pitched.found == "a screw axis with ω·v = 0.5"
    assert pitched.sentence == (
        ": a revolute screw axis must have zero pitch (ω·v = 0), got ω·v = 0.5"
    )
    not_prismatic = screw_axis_problem(ABOUT_Z, 2, "j3", "prismatic")
    assert not_prismatic.expected == "a prismatic screw axis [0; v] with |v| = 1"
    assert not_prismatic.found == "a screw axis with |ω| = 1, |v| = 0"


def test_a_scaled_revolute_axis_comes_with_the_advice_to_normalise_it():
    advice = non_unit_axis_advice(2.0)
    assert "the joint would turn 2 rad per unit of q" in advice
    assert advice.endswith(
        "dividing it (ω and v) by the length of ω, 2: the joint variable then becomes 2·q"
    )
    problem = screw_axis_problem(np.array([0, 0, 2.0, 0, 0, 0]), 0, "j1", "revolute")
    assert problem.found == "|ω| = 2: " + advice


# ------------------------------------------------------------------ transforms


def test_a_transform_needs_the_bottom_row_and_a_rotation():
    T = np.eye(4)
    T[:3, 3] = [1.0, 2.0, 3.0]
    assert transform_problem(T, "home_ee_pose") is None
    T[3, 2] = 0.5
    bottom = transform_problem(T, "link_frames", 2)
    assert (bottom.field, bottom.index, bottom.part) == ("link_frames", 2, "[3]")
    assert bottom.found == "the row [0, 0, 0.5, 1]"
    assert (
        bottom.sentence
        == " must be a homogeneous transform with bottom row [0, 0, 0, 1], got [0, 0, 0.5, 1]"
    )
    stretched = transform_problem(np.diag([2.0, 2.0, 2.0, 1.0]), "home_ee_pose")
    assert stretched.index is None
    assert stretched.sentence.endswith("but max |RᵀR - I| = 3, det = 8")
    mirrored = transform_problem(np.diag([1.0, -1.0, 1.0, 1.0]), "home_ee_pose")
    assert mirrored.sentence.endswith("(orthonormal with det +1), but det(R) = -1")


# ------------------------------------------------------------------ spatial inertias


def test_a_physical_spatial_inertia_has_no_problem():
    assert spatial_inertia_problem(spatial(np.diag([0.1, 0.2, 0.25]), 3.0), 0) is None
    assert spatial_inertia_problem(spatial(np.zeros((3, 3)), 0.0), 0) is None  # massless


def test_the_blocks_of_a_spatial_inertia_are_checked_first():
    G = spatial(np.eye(3), 1.0)
    G[0, 4] = 0.1
    coupled = spatial_inertia_problem(G, 0)
    assert coupled.sentence.endswith("an off-diagonal 3×3 block is not zero (max |entry| = 0.1)")
    G = spatial(np.eye(3), 1.0)
    G[4, 4] = 2.0
    masses = spatial_inertia_problem(G, 3)
    assert (masses.index, masses.part) == (3, "[3..5]")
    assert masses.sentence == (
        ": the lower-right block must be m·1 (the mass times the 3×3 identity), "
        "got [1, 0, 0; 0, 2, 0; 0, 0, 1]"
    )


@pytest.mark.parametrize(
    ("inertia", "mass", "part", "sentence"),
    [
        (np.eye(3), -1.0, "[3][3]", ": the mass must be non-negative, got m = -1"),
        (
            [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]],
            1.0,
            " (I_c block)",
            ": the rotational inertia I_c (upper-left block) must be symmetric, "
            "but max |I_c - I_cᵀ| = 0.5",
        ),
        (
            np.diag([1.0, -0.5, 1.0]),
            1.0,
            " (I_c block)",
            ": the rotational inertia I_c must be positive semi-definite, "
            "got eigenvalues [-0.5, 1, 1] (indefinite)",
        ),
    ],
)
def test_the_rotational_inertia_is_judged_by_the_physical_rules(inertia, mass, part, sentence):
    problem = spatial_inertia_problem(spatial(inertia, mass), 0)
    assert (problem.field, problem.part, problem.sentence) == ("spatial_inertias", part, sentence)


def test_the_triangle_inequality_only_when_asked_and_its_advice_names_the_link():
    axis_only = spatial(np.diag([0.0, 0.0, 0.35]), 1.0)
    assert spatial_inertia_problem(axis_only, 2) is None
    problem = spatial_inertia_problem(axis_only, 2, triangle=True)
    assert problem.found.startswith("principal moments 0, 0, 0.35 kg·m²")
    assert problem.sentence.endswith('plausibility_exceptions=[(3, "inertia_triangle", "why")]')


# ------------------------------------------------------------------ a robot's message


def test_raise_problem_joins_the_door_s_name_of_the_field_and_the_sentence():
    problem = ScrewDataProblem("link_frames", 1, "[3]", "x", "y", " must be a transform")
    with pytest.raises(ValueError, match=r"^link_frames\[1\] must be a transform$"):
        raise_problem(problem, lambda field, index: f"{field}[{index}]")
