"""Self-paced progress: passes in this kernel, the opt-in local file, and the summary."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import nbformat
import numpy as np
import pytest

from robolab.exercises import Exercise
from robolab.lessons.exercises import exercise_record
from robolab.lessons.exercises.exercise_record import (
    MAX_PROGRESS_BYTES,
    forget_kernel_record,
    passed_here,
    progress_summary,
    record_check,
    save_progress,
)

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
CHAPTER = "04-forward-kinematics-and-workspace"
UR5 = "The UR5's published DH table against its screw model"  # chapter 4, exercise 1


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    """A fresh kernel record, a progress file in tmp_path, a known notebook."""
    forget_kernel_record()
    monkeypatch.setattr(exercise_record, "_warned", False)
    monkeypatch.setenv("ROBOLAB_PROGRESS_FILE", str(tmp_path / "home" / "progress.json"))
    monkeypatch.setenv("JPY_SESSION_NAME", f"notebooks/{CHAPTER}.ipynb")
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    yield tmp_path / "home" / "progress.json"
    forget_kernel_record()


def half_turn() -> Exercise:
    return Exercise("Half a turn", "How many radians?", solve=lambda: np.pi)


def test_a_pass_is_recorded_in_the_kernel_not_a_wrong_answer_nor_the_worked_solution(fresh):
    exercise = half_turn()
    exercise.check(3.0)
    exercise.check_solution(np.pi)  # the hidden worked solution's own check
    assert passed_here() == {}
    exercise.check(np.pi)
    assert passed_here() == {CHAPTER: ["Half a turn"]}
    assert not fresh.exists()  # saving is opt-in


def test_saving_is_opt_in_and_adds_later_passes(fresh):
    record_check("Reach", True)
    message = save_progress()
    assert str(fresh) in message and "nothing is sent" in message
    half_turn().check(np.pi)
    record_check("Other", True, chapter="05-velocity-kinematics-and-jacobians")
    data = json.loads(fresh.read_text(encoding="utf-8"))
    assert data == {
        "format": "robolab-progress",
        "version": 1,
        "passed": {
            CHAPTER: ["Half a turn", "Reach"],
            "05-velocity-kinematics-and-jacobians": ["Other"],
        },
    }
    record_check(UR5, True)
    forget_kernel_record()  # a new kernel: the saved passes still show
    text = str(progress_summary(NOTEBOOKS))
    assert f"{CHAPTER}: 1 of 4 passed" in text  # the others are not chapter 4's titles
    assert progress_summary(NOTEBOOKS).rows[3] == (CHAPTER, (UR5,), 4)
    assert "Saved progress" in text
    assert "deleted" in save_progress(False) and not fresh.exists()


@pytest.mark.parametrize(
    "content, reason",
    [
        ("{not json", "is not JSON"),
        ("__import__('os').system('echo hacked')", "is not JSON"),
        ('["a", "list"]', "is not a robolab progress record"),
        ('{"format": "robolab-progress", "version": 1, "passed": {"04": "x"}}', "not a list"),
        (" " * (MAX_PROGRESS_BYTES + 1) + "{}", "more than a progress file's"),
    ],
)
def test_an_unusable_file_is_named_and_left_alone(fresh, content, reason):
    fresh.parent.mkdir(parents=True)
    fresh.write_text(content, encoding="utf-8")
    assert reason in str(progress_summary(NOTEBOOKS))
    with pytest.warns(UserWarning, match=reason):
        half_turn().check(np.pi)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once per kernel
        record_check("Another", True)
    assert fresh.read_text(encoding="utf-8") == content
    assert "could not be used" in save_progress()  # asked for: replaced
    assert json.loads(fresh.read_text(encoding="utf-8"))["passed"] == {
        CHAPTER: ["Another", "Half a turn"]
    }


def test_nothing_is_written_while_nbgrader_grades(fresh, monkeypatch):
    save_progress()
    before = fresh.read_text(encoding="utf-8")
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    half_turn().check(np.pi)
    assert fresh.read_text(encoding="utf-8") == before


def test_summary_counts_each_chapters_exercises():
    """Chapter by chapter, as many exercises as the chapter has solution cells."""
    summary = progress_summary(NOTEBOOKS)
    chapters = sorted(NOTEBOOKS.glob("[01]*.ipynb"))
    assert [row[0] for row in summary.rows] == [p.stem for p in chapters]
    for (_, passed, total), path in zip(summary.rows, chapters, strict=True):
        cells = nbformat.read(path, as_version=4).cells
        assert total == sum("solution" in c.metadata.get("tags", []) for c in cells), path.name
        assert passed == ()
    assert "<table>" in summary._repr_html_() and "Progress is not saved" in str(summary)


def test_bad_input():
    with pytest.raises(TypeError, match="on must be True or False"):
        save_progress("yes")  # type: ignore[arg-type]
