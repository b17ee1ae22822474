"""The physical checks of a link's inertia (link_inertia_problem, check_link_inertia) and the
accepted exceptions to them (PlausibilityException, as_plausibility_exceptions).

Every door through which inertial data enters asks these functions; the doors themselves
are tested in tests/contracts/test_physics_checks.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from robolab.spatial.inertia import (
    INERTIA_CHECKS,
    PLAUSIBILITY_CHECKS,
    PlausibilityException,
    as_plausibility_exceptions,
    check_link_inertia,
    inertia_tolerance,
    link_inertia_problem,
    principal_moments,
)

#: A thin rod along x: I_xx = 0, I_yy = I_zz (the triangle inequality with equality).
ROD = np.diag([0.0, 1.0 / 12.0, 1.0 / 12.0])
#: Only a moment about the joint axis (Corke's Puma link 1): no rigid body has it.
AXIS_ONLY = np.diag([0.0, 0.0, 0.35])


# ------------------------------------------------------------------ the one function


@pytest.mark.parametrize(
    ("mass", "inertia", "check"),
    [
        (-1.0, None, "mass"),
        (1.0, [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]], "symmetric"),
        (1.0, np.diag([1.0, -0.5, 1.0]), "positive_semidefinite"),
        (1.0, AXIS_ONLY, "inertia_triangle"),
        (1.0, np.diag([0.003, 0.0004, 0.0]), "inertia_triangle"),
    ],
)
def test_link_inertia_problem_names_the_check(mass, inertia, check):
    assert link_inertia_problem(mass, inertia).check == check


@pytest.mark.parametrize(
    ("mass", "inertia"),
    [
        (0.0, np.zeros((3, 3))),  # massless link
        (2.0, np.zeros((3, 3))),  # point mass
        (1.0, ROD),  # thin rod: I_yy + 0 = I_zz
        (1.0, np.diag([0.01, 0.02, 0.03])),  # flat plate: equality up to rounding
        (1.0, np.diag([0.0, 0.35, 0.35 + 1e-13])),  # rounding beyond equality
    ],
)
def test_zero_masses_singular_inertias_and_equality_are_allowed(mass, inertia):
    assert link_inertia_problem(mass, inertia) is None


def test_the_message_names_the_link_and_the_three_moments():
    with pytest.raises(
        ValueError,
        match=r"link 5: the rotational inertia must be a rigid body's inertia .* got principal "
        r"moments 0, 0\.0004, 0\.003 kg·m²: the largest exceeds the sum of the others by 0\.0026"
        r".*plausibility_exceptions=\[\(5, \"inertia_triangle\"",
    ):
        check_link_inertia(1.0, np.diag([0.003, 0.0004, 0.0]), "link 5", link=5)


def test_the_tolerance_is_rounding_of_the_largest_number():
    assert inertia_tolerance(None) == pytest.approx(1e-9)
    assert inertia_tolerance(np.diag([0.1, 0.2, 0.3])) == pytest.approx(1e-9)  # at least 1
    assert inertia_tolerance(np.diag([0.0, -400.0, 0.0]), 2.0) == pytest.approx(4e-7)
    assert inertia_tolerance(np.eye(3), -3000.0) == pytest.approx(3e-6)


def test_principal_moments_are_those_of_the_symmetric_part_ascending():
    c, s = np.cos(0.3), np.sin(0.3)
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    np.testing.assert_allclose(principal_moments(R @ np.diag([3, 1, 2]) @ R.T), [1, 2, 3])
    # [[2, 1], [-1, 2]] has the symmetric part 2·1: the skew part adds no moment.
    skewed = [[2, 1, 0], [-1, 2, 0], [0, 0, 3]]
    np.testing.assert_allclose(principal_moments(skewed), [2, 2, 3])


def test_a_problem_says_what_was_expected_and_what_was_found():
    mass = link_inertia_problem(-2.5, ROD)
    assert (mass.expected, mass.found, mass.moments) == ("non-negative", "m = -2.5", ())
    asymmetric = link_inertia_problem(1.0, [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]])
    assert (asymmetric.expected, asymmetric.found) == ("symmetric", "max |I - Iᵀ| = 0.5")
    indefinite = link_inertia_problem(1.0, np.diag([1.0, -0.5, 1.0]))
    assert indefinite.found == "principal moments -0.5, 1, 1 kg·m² (indefinite)"
    assert indefinite.moments == (-0.5, 1.0, 1.0)
    triangle = link_inertia_problem(1.0, AXIS_ONLY)
    assert triangle.moments == (0.0, 0.0, 0.35)
    assert triangle.found.endswith("the largest exceeds the sum of the others by 0.35")


def test_what_is_not_given_or_not_asked_is_not_checked():
    assert link_inertia_problem(None, AXIS_ONLY, triangle=False) is None
    assert link_inertia_problem(None, np.diag([1.0, -0.5, 1.0])).check == "positive_semidefinite"
    assert link_inertia_problem(3.0, None) is None
    # within the tolerance: rounding, not physics
    assert link_inertia_problem(1.0, [[1, 1e-10, 0], [0, 1, 0], [0, 0, 1]]) is None
    assert link_inertia_problem(1.0, np.diag([-1e-10, 1.0, 1.0])) is None


def test_check_link_inertia_names_the_place_and_the_subject():
    check_link_inertia(1.0, ROD, "link 1")  # no problem: nothing raised
    with pytest.raises(ValueError, match=r"^link 2: the mass must be non-negative, got m = -1$"):
        check_link_inertia(-1.0, ROD, "link 2")
    with pytest.raises(
        ValueError, match=r"^G: the rotational inertia must be positive semi-definite, got princ"
    ):
        check_link_inertia(1.0, np.diag([1.0, -0.5, 1.0]), "G")
    # without a link number the advice names the place to put it
    with pytest.raises(
        ValueError, match=r'plausibility_exceptions=\[\(link, "inertia_triangle", "why"\)\]$'
    ):
        check_link_inertia(1.0, AXIS_ONLY, "G")


# ------------------------------------------------------------------ accepted exceptions


def test_as_plausibility_exceptions_normalises_every_spelling():
    given = [
        PlausibilityException(1, "mass", "a"),
        {"link": 2, "check": "inertia_triangle", "reason": "b"},
        (3, "inertia_triangle", "c"),
    ]
    assert as_plausibility_exceptions(given, 3) == (
        PlausibilityException(1, "mass", "a"),
        PlausibilityException(2, "inertia_triangle", "b"),
        PlausibilityException(3, "inertia_triangle", "c"),
    )
    assert as_plausibility_exceptions(None, 3) == ()


def test_only_the_triangle_and_the_mass_can_be_accepted():
    assert set(PLAUSIBILITY_CHECKS) == {"mass", "inertia_triangle"}
    assert set(PLAUSIBILITY_CHECKS) <= set(INERTIA_CHECKS)


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("1, mass, x", TypeError, r"^accepted must be a sequence of \(link, check, reason\) "),
        ({"link": 1}, TypeError, r"^accepted must be a sequence .*, got dict"),
        (b"x", TypeError, r"^accepted must be a sequence .*, got bytes"),
        (
            [(0, "mass", "x")],
            ValueError,
            r"^accepted\[0\]: link must be a link number 1\.\.2, got 0",
        ),
        (
            [(1, "mass", "x"), (1, 2, "x")],
            TypeError,
            r"^accepted\[1\]: check must be a str, got int",
        ),
        ([(1, "mass")], TypeError, r"^accepted\[0\] must be a PlausibilityException or a tuple"),
        (
            [{"link": 1, "check": "mass", "reason": "x", "source": "y"}],
            ValueError,
            r"^accepted\[0\]: expected exactly the keys 'link', 'check', 'reason', got \['check', ",
        ),
    ],
)
def test_bad_exceptions_are_named_by_the_given_name(value, error, message):
    with pytest.raises(error, match=message):
        as_plausibility_exceptions(value, 2, name="accepted")


def test_a_reason_with_hidden_characters_is_refused():
    from robolab.spatial.inertia import as_plausibility_exceptions

    with pytest.raises(ValueError, match=r"reason must be text without control .* U\+001B"):
        as_plausibility_exceptions([(1, "inertia_triangle", "Paul 1981\x1b[2J")], 2)
    with pytest.raises(ValueError, match=r"U\+202E"):
        as_plausibility_exceptions([(1, "inertia_triangle", "as published\u202e")], 2)
