"""Step-by-step reveals, kernel-side: Next, Previous, Show all, the counter, static renderings."""

from __future__ import annotations

import html

import pytest
import sympy as sp
from widget_support import WIDGET_VIEW

import robolab
from robolab import Derivation, Step, reveal
from robolab.lessons.step_reveal import step_html
from robolab.symbols import l1, l2, q1, q2


@pytest.fixture(scope="module")
def steps():
    arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    return arm.forward_kinematics_derivation()


def test_starts_with_one_step_and_next_adds_one(steps):
    shown = reveal(steps)
    assert shown.shown == 1 and len(shown.body.children) == 1
    assert shown.counter_text() == f"Step 1 of {len(steps)}"
    assert shown.previous_button.disabled and not shown.next_button.disabled
    shown.next_button.click()
    assert shown.shown == 2
    assert shown.body.children == tuple(shown.step_widgets[:2])
    assert f"Step 2 of {len(steps)}" in shown.counter.value


def test_previous_and_show_all(steps):
    shown = reveal(steps)
    shown.all_button.click()
    assert shown.shown == len(steps) == len(shown.body.children)
    assert shown.next_button.disabled and shown.all_button.disabled
    shown.previous_button.click()
    assert shown.shown == len(steps) - 1 and not shown.next_button.disabled
    for _ in range(10):
        shown.on_previous_click()
    assert shown.shown == 1  # the first step always stays
    for _ in range(10):
        shown.on_next_click()
    assert shown.shown == len(steps)  # and Next stops at the last one


def test_each_step_shows_title_explanation_and_latex(steps):
    shown = reveal(steps, start=len(steps))
    for number, (step, box) in enumerate(zip(steps, shown.step_widgets, strict=True), start=1):
        assert f"Step {number}/{len(steps)}. {step.title}." in box.value
        # & (matrix columns) and < are entities in HTML; the browser decodes them for MathJax.
        assert f"$$ {html.escape(step.latex(), quote=False)} $$" in box.value
        # The explanation comes first, then the expression.
        assert box.value.index("robolab-step-title") < box.value.index("robolab-step-expression")


def test_html_is_escaped_but_math_is_kept():
    y = sp.Symbol("y")
    step = Step("Compare", "If $a < b$ then <b>this</b> is text.", sp.Lt(y, 1), introduces=(y,))
    text = step_html(step, 1, 1)
    assert "$a &lt; b$" in text and "&lt;b&gt;this&lt;/b&gt;" in text
    assert "new symbol: $y$" in text
    assert "y &lt; 1" in text


def test_new_symbols_are_named_as_such_in_textbook_print():
    r_c1, m_1 = sp.symbols("r_c1 m_1")
    one = step_html(
        Step("Centre of mass", "Where it is.", sp.Eq(r_c1, 1), introduces=(r_c1,)), 1, 2
    )
    assert "<small>new symbol: $r_{c1}$</small>" in one
    assert "<small>introduces" not in one  # the old wording
    two = step_html(Step("Masses", "Two symbols.", sp.Eq(r_c1, m_1), introduces=(r_c1, m_1)), 2, 2)
    assert "<small>new symbols: $r_{c1}$, $m_{1}$</small>" in two
    nothing = step_html(Step("Plain", "Nothing introduced.", sp.Eq(r_c1, 2)), 1, 1)
    assert "new symbol" not in nothing and "robolab-step-introduces" not in nothing


def test_static_rendering_without_a_widget_front_end(steps):
    shown = reveal(steps)
    bundle = shown._repr_mimebundle_()
    # In test mode (and nbval, HTML export, a console) every step is rendered.
    assert WIDGET_VIEW not in bundle
    assert bundle["text/markdown"] == steps.to_markdown()
    assert bundle["text/plain"] == steps.to_text()
    assert bundle["text/plain"].count("Step ") == len(steps)
    assert str(shown) == steps.to_text()


def test_widget_view_in_a_kernel_keeps_the_fallbacks(steps, kernel_bundle):
    shown = reveal(steps)
    bundle = kernel_bundle(shown)
    assert bundle[WIDGET_VIEW]["model_id"] == shown.widget.model_id
    assert bundle["text/markdown"] == steps.to_markdown()


def test_a_plain_sequence_of_steps(steps):
    shown = reveal(list(steps), title="By hand")
    assert shown.derivation.title == "By hand"
    assert len(shown.derivation) == len(steps)
    assert reveal(steps, title="Renamed").derivation.title == "Renamed"


def test_bad_input_is_named(steps):
    with pytest.raises(ValueError, match="steps must hold at least one Step"):
        reveal([])
    with pytest.raises(
        TypeError, match="step 2 of derivation 'Derivation' must be a Step, got int"
    ):
        reveal([steps[0], 3])
    with pytest.raises(TypeError, match="got a single Step"):
        reveal(steps[0])
    with pytest.raises(
        TypeError, match="steps must be a Derivation or a sequence of Step, got int"
    ):
        reveal(5)
    with pytest.raises(ValueError, match=r"start must be a step number 1..5, got 0"):
        reveal(steps, start=0)
    shown = reveal(steps)
    with pytest.raises(ValueError, match=r"count must be 1..5, got 9"):
        shown.show(9)


def test_a_derivation_from_the_dynamics():
    # The planar 2R arm with symbolic masses: the Lagrangian derivation steps reveal fully.
    arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    arm.cm_positions = [(0, 0, 0), (0, 0, 0)]
    derivation = arm.lagrangian_derivation()
    shown = reveal(derivation)
    shown.show_all()
    assert len(shown.body.children) == len(derivation) > 5
    assert isinstance(derivation, Derivation)


def test_a_long_equation_is_shown_over_lines_that_fit():
    """A step's sp.Eq wider than a notebook line is printed as aligned lines; a short one as is."""
    from robolab.dh.gathered_equation import LATEX_LINE_COLUMNS, printed_columns

    x = sp.symbols("x1:40")
    wide = sp.Eq(sp.Symbol("y"), sum(sp.sin(v) ** 2 for v in x))
    assert printed_columns(wide) > LATEX_LINE_COLUMNS
    shown = reveal([Step("Wide", "Many terms.", wide), Step("Narrow", "Two.", sp.Eq(x[0], x[1]))])
    wide_html, narrow_html = (box.value for box in shown.step_widgets)
    body = wide_html.split("$$")[1]
    assert body.strip().startswith(r"\begin{aligned} y = {} &")
    lines = body.split(r"\\")
    assert len(lines) >= 3
    # every term is still there, once: the same sum, only printed over several lines
    assert body.count(r"\sin^{2}") == len(x)
    assert "aligned" not in narrow_html.split("$$")[1]
