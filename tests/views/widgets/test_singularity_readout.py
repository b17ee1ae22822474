"""The singularity line in words: what is lost at or near a singularity, and the margin away
from one (read through the teach pendant, which gives the words a decomposition of J)."""

from __future__ import annotations

import html
import re

import numpy as np
import sympy as sp

import robolab
from robolab.symbols import q1, q2, q3
from robolab.views.widgets.teach_pendant import teach

pytestmark = __import__("pytest").mark.usefixtures("ipympl_imported_once")


@__import__("pytest").fixture(scope="module")
def puma():
    return robolab.load_robot("puma560", form="dh")


def test_at_the_wrist_singularity_the_sentence_says_what_is_lost_without_round_off(puma):
    pendant = teach(puma, [0.2, 0.7, -1.1, 0.4, 0.0, -0.3])
    margin, which = pendant.singularity_margin()
    assert margin < 1e-12 and which == "J"  # round-off: 3e-18 or so, machine-dependent digits
    sentence = pendant.readout_text().splitlines()[-1]
    assert sentence.startswith(
        "At a singularity: the arm cannot move or turn its end-effector in some direction; "
    )
    assert "(σ_r/σ_1 of J < 1e-12, zero up to round-off)" in sentence
    assert re.search(r"\de-1[3-9]", sentence) is None  # no round-off digits
    # Axes 4 and 6 on one line (Spong, ch. 4): turning them against each other moves nothing.
    assert "q̇ ∝ (0.00, 0.00, 0.00, 0.71, 0.00, -0.71) gives it no velocity" in sentence
    assert (
        html.escape(sentence).replace(
            "1e-12",
            '<span style="white-space:nowrap">1e-12</span>',  # never "1e-" and "12"
        )
        in pendant.warning.value
    )
    pendant.sliders[4].value = 1  # near, not at: a number, and "hardly"
    sentence = pendant.readout_text().splitlines()[-1]
    assert sentence.startswith("Near a singularity: the arm can hardly move or turn")
    assert re.search(r"\(σ_r/σ_1 of J = 0\.00\d+ < 0\.01\)\.$", sentence)


def test_a_stretched_elbow_arm_cannot_move_along_itself():
    # Stretched (q3 = 0), the tip of an elbow arm moves only across the arm: not along
    # (cos q1 cos q2, sin q1 cos q2, sin q2); q̇2 : q̇3 = l3 : -(l2 + l3) leaves it still.
    l2, l3 = 1.0, 0.5
    arm = robolab.DHRobot((0, sp.pi / 2, 0.5, q1), (l2, 0, 0, q2), (l3, 0, 0, q3), name="elbow arm")
    a, b = 0.3, 0.4
    pendant = teach(arm, [a, b, 0.0])
    assert pendant.singularity_margin()[1] == "the linear part of J"
    along = np.array([np.cos(a) * np.cos(b), np.sin(a) * np.cos(b), np.sin(b)])
    still = np.array([0.0, l3, -(l2 + l3)]) / np.hypot(l3, l2 + l3)
    sentence = pendant.readout_text().splitlines()[-1]
    assert sentence == (
        "At a singularity: the arm cannot move its end-effector origin along "
        f"±({along[0]:.2f}, {along[1]:.2f}, {along[2]:.2f}) in {{0}}; the joint velocity "
        f"q̇ ∝ ({still[0]:.2f}, {still[1]:.2f}, {still[2]:.2f}) gives it no velocity "
        "(σ_r/σ_1 of the linear part of J < 1e-12, zero up to round-off)."
    )


def test_a_planar_arm_names_no_direction_it_cannot_know():
    # The linear part of a planar arm's J has rank 2 in 3-space: the lost direction in the plane
    # is not told apart from the normal of the plane at the singularity, so none is printed.
    arm = robolab.DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2), name="2R")
    pendant = teach(arm, [0.4, 0.0])
    sentence = pendant.readout_text().splitlines()[-1]
    assert sentence.startswith(
        "At a singularity: the arm cannot move its end-effector origin in some direction; "
        "the joint velocity q̇ ∝ (0.32, -0.95) gives it no velocity"  # 1.5 q̇1 + 0.5 q̇2 = 0
    )


def test_away_from_singularities_the_ratio_is_a_plain_number(puma):
    pendant = teach(puma, [0.1, 0.2, -0.3, 0.4, 0.5, 0.6])
    # a short phrase that says what the number is and where the warning starts
    assert re.fullmatch(
        r'<div class="robolab-regular" style="[^"]*">Away from singularities: σ_r/σ_1 of J = '
        r"0\.\d+ \(smallest singular value over the largest; 0 at a singularity, a warning "
        r"below 0\.01\)\.</div>",
        pendant.warning.value,
    )
