"""Self-paced progress: passes in this kernel, the local file they are saved in, the summary."""

from __future__ import annotations

import json
import os
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
    assert not fresh.exists()
    exercise.check(np.pi)
    assert passed_here() == {CHAPTER: ["Half a turn"]}
    # saved at once, so the index (another kernel) shows it
    assert json.loads(fresh.read_text(encoding="utf-8"))["passed"] == {CHAPTER: ["Half a turn"]}
    forget_kernel_record()  # the index's kernel
    assert progress_summary(NOTEBOOKS).rows[3][0] == CHAPTER


def test_a_pass_outside_a_named_notebook_is_saved_only_when_asked(fresh, monkeypatch):
    """A script, nbclient or a console has no notebook name: nothing written until asked."""
    monkeypatch.delenv("JPY_SESSION_NAME")
    half_turn().check(np.pi)
    assert passed_here() == {"(this notebook)": ["Half a turn"]} and not fresh.exists()
    save_progress()
    record_check("Reach", True)
    assert json.loads(fresh.read_text(encoding="utf-8"))["passed"] == {
        "(this notebook)": ["Half a turn", "Reach"]
    }


def test_save_progress_false_stops_saving_until_asked_again(fresh):
    record_check("Reach", True)
    assert fresh.exists()
    assert "deleted" in save_progress(False) and not fresh.exists()
    half_turn().check(np.pi)
    assert not fresh.exists()  # the choice is kept, also by a new kernel
    assert "save_progress(False) was run" in str(progress_summary(NOTEBOOKS))
    save_progress()
    assert json.loads(fresh.read_text(encoding="utf-8"))["passed"] == {
        CHAPTER: ["Half a turn", "Reach"]
    }
    record_check("Later", True)
    assert "Later" in fresh.read_text(encoding="utf-8")


def test_a_home_that_cannot_be_written_warns_once_and_the_check_still_answers(fresh, monkeypatch):
    """A read-only home: the student's check shows its verdict, with one warning per kernel."""
    blocker = fresh.parent
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    with pytest.warns(UserWarning, match="progress not saved"):
        assert half_turn().check(np.pi).correct
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        record_check("Another", True)
    assert passed_here() == {CHAPTER: ["Another", "Half a turn"]}


def test_two_kernels_passing_at_once_lose_no_pass(fresh):
    """Kernels in other processes save at the same time: every pass is in the file."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from robolab.lessons.exercises.exercise_record import record_check\n"
        "for i in range(15):\n"
        "    record_check(f'{sys.argv[1]} {i}', True, chapter=sys.argv[1])\n"
    )
    env = {**os.environ, "ROBOLAB_TEST_MODE": "0"}
    env.pop("PYTEST_CURRENT_TEST", None)
    kernels = [
        subprocess.Popen([sys.executable, "-c", script, name], env=env)
        for name in ("05-a", "06-b", "07-c")
    ]
    assert [k.wait(timeout=120) for k in kernels] == [0, 0, 0]
    passed = json.loads(fresh.read_text(encoding="utf-8"))["passed"]
    assert {c: len(t) for c, t in passed.items()} == {"05-a": 15, "06-b": 15, "07-c": 15}
    assert [p.name for p in fresh.parent.iterdir() if p.name.endswith(".partial")] == []


def test_saving_adds_later_passes(fresh):
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
    assert "<table>" in summary._repr_html_() and "No saved progress yet" in str(summary)


def test_bad_input():
    with pytest.raises(TypeError, match="on must be True or False"):
        save_progress("yes")  # type: ignore[arg-type]


def test_the_default_file_is_in_the_students_home(tmp_path, monkeypatch):
    """With a temporary HOME and no file named: a chapter's pass lands in ~/.robolab."""
    monkeypatch.setenv("HOME", str(tmp_path / "student"))
    monkeypatch.delenv("ROBOLAB_PROGRESS_FILE")
    monkeypatch.setattr(exercise_record, "in_test_mode", lambda: False)  # as in JupyterLab
    half_turn().check(np.pi)
    saved = tmp_path / "student" / ".robolab" / "progress.json"
    assert json.loads(saved.read_text(encoding="utf-8"))["passed"] == {CHAPTER: ["Half a turn"]}
    assert "~/.robolab/progress.json" in str(progress_summary(NOTEBOOKS))
    monkeypatch.setattr(exercise_record, "in_test_mode", lambda: True)  # pytest: not written
    saved.unlink()
    record_check("Reach", True)
    assert not saved.exists()
