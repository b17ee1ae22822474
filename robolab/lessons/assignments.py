"""Chapters as nbgrader assignments: graded answer cells, hidden tests, numbers per student.

A chapter's exercises follow one pattern (``notebooks/README.md``): a collapsed set-up cell
defines ``exercise_N = Exercise(...)``; the student's cell holds ``answer = None`` and ends
with ``exercise_N.check(answer)``; the next cell, tagged ``solution``, is the worked
solution and ends with the same check of the solution's value. :func:`chapter_assignment`
turns that into the *source* version of an nbgrader assignment (nbgrader's cell metadata,
schema version 3):

* the set-up cells that define exercises become read-only cells (``locked``); a read-only
  cell before the first of them names the student (:func:`student_name`), and each exercise
  is drawn for that student with ``seed_for(name, "NN/exercise_N")`` on the line after the
  one defining it, so that everything the chapter shows of it is the student's own numbers
  (skipped with ``personal=False``, when everyone gets the chapter's numbers);
* the student's cell and the worked solution become one autograded answer cell: the
  student's lines, then the solution between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION`` (``nbgrader generate_assignment`` removes it from the release
  version), then the check;
* after each answer cell, a read-only graded cell (1 point by default) runs the same robolab
  check between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``, so students get an
  empty test cell and ``nbgrader autograde`` puts the test back.

:func:`write_assignments` writes ``<course>/source/<assignment>/<chapter>.ipynb`` and a
``nbgrader_config.py``; ``python -m robolab.lessons.assignments 01 04 --course DIR``
(``--notebooks DIR`` where the chapters are not in ``./notebooks``, as in a hub's image, whose
robolab is a wheel without them; or ``make assignments CHAPTERS="01 04"``) is its command
line. docs/teaching.md walks a teacher through the nbgrader commands.

Examples
--------
>>> import nbformat
>>> from nbformat.v4 import new_code_cell, new_notebook
>>> chapter = new_notebook(cells=[
...     new_code_cell("from robolab.exercises import Exercise\\n"
...                   "exercise_1 = Exercise('Half a turn', 'In radians?', solve=lambda: 3.14159)"),
...     new_code_cell("answer = None  # a number\\nexercise_1.check(answer)"),
...     new_code_cell("exercise_1.check(3.14159)", metadata={"tags": ["solution"]}),
... ])
>>> graded = chapter_assignment(chapter, "00")
>>> [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in graded.cells]
[None, 'student', 'setup_0', 'exercise_1_answer', 'exercise_1_test']
>>> print(graded.cells[2].source.splitlines()[-1])
exercise_1 = exercise_1.with_seed(seed_for(student, "00/exercise_1"), own=True)
>>> print(graded.cells[3].source)
answer = None  # a number
### BEGIN SOLUTION
answer = 3.14159
### END SOLUTION
exercise_1.check(answer)
"""

from __future__ import annotations

import argparse
import ast
import getpass
import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

__all__ = [
    "NBGRADER_CONFIG",
    "chapter_assignment",
    "default_notebooks",
    "student_name",
    "write_assignments",
]

#: The environment variable that names the student outright (a teacher re-creating one
#: student's numbers, or a student on a laptop whose login is not their course name).
STUDENT_VARIABLE = "ROBOLAB_STUDENT"

#: nbgrader's cell metadata schema written here (``nbgrader/nbgraderformat/v3.json``).
SCHEMA_VERSION = 3

#: Written next to ``source/`` when the course folder has no nbgrader_config.py yet.
NBGRADER_CONFIG = """\
# nbgrader's configuration of a robolab course (written by `make assignments`; edit freely).
c = get_config()  # noqa: F821 (nbgrader provides it)
c.CourseDirectory.course_id = "robolab"
# The release version keeps the student's `answer = None` line above the stub, and the
# check below it: a stub that raised would stop "Run All" before the checks.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE (replace None above)"}
# A chapter runs in well under a minute; a cell that hangs is cut off after two.
c.Execute.timeout = 120
"""


def _nbgrader_username() -> str:
    """nbgrader's student id for this process: the OS user, or ``JUPYTERHUB_USER`` for jovyan.

    The rule of ``nbgrader.utils.get_username`` (nbgrader 0.9.6), which ``nbgrader submit``
    files a submission under, repeated here so that a kernel without nbgrader follows it too.
    """
    try:
        import pwd

        osname = pwd.getpwuid(os.getuid())[0]
    except (ImportError, KeyError):  # Windows, or a uid without a passwd entry
        osname = getpass.getuser()
    if osname == "jovyan":
        return os.environ.get("JUPYTERHUB_USER", "jovyan")
    return osname


def student_name() -> str:
    """The name an assignment's exercises are drawn for: the same for the student and the grader.

    In order: while ``nbgrader autograde`` runs a submission (it sets
    ``NBGRADER_EXECUTION=autograde``), the student id in the folder it runs in
    (``autograded/<student_id>/<assignment>/``, nbgrader's default
    ``CourseDirectory.directory_structure``), whatever else is set; the environment
    variable ``ROBOLAB_STUDENT``; else nbgrader's own student id for this process
    (``nbgrader.utils.get_username``): the OS user name, except that the user ``jovyan``
    (the one user of Docker-based hubs such as Zero to JupyterHub) stands for
    ``JUPYTERHUB_USER``. That is the id ``nbgrader submit`` files the submission under, so
    the autograder draws the numbers the student saw: ``ada`` on Zero to JupyterHub,
    ``jupyter-ada`` on The Littlest JupyterHub (whose OS users are ``jupyter-<name>``).

    Examples
    --------
    >>> import os
    >>> os.environ["ROBOLAB_STUDENT"] = "ada"
    >>> student_name()
    'ada'
    >>> del os.environ["ROBOLAB_STUDENT"]
    """
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        here = Path.cwd()
        if here.parent.parent.name == "autograded":
            return here.parent.name
    named = os.environ.get(STUDENT_VARIABLE, "").strip()
    if named:
        return named
    return _nbgrader_username()


# --- one chapter ---------------------------------------------------------------------------


def _nbgrader(
    grade_id: str,
    *,
    grade: bool = False,
    solution: bool = False,
    locked: bool = False,
    points: float | None = None,
) -> dict[str, object]:
    meta: dict[str, object] = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": SCHEMA_VERSION,
        "solution": solution,
    }
    if grade:
        meta["points"] = points
    return meta


def _final_check(source: str, where: str) -> tuple[str, ast.expr, ast.Module]:
    """The exercise name and argument of the ``exercise_N.check(x)`` a cell ends with."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise ValueError(f"{where} is not valid Python: {error}") from None
    last = tree.body[-1] if tree.body else None
    call = last.value if isinstance(last, ast.Expr) else None
    if (
        not isinstance(call, ast.Call)
        or not isinstance(call.func, ast.Attribute)
        or call.func.attr != "check"
        or not isinstance(call.func.value, ast.Name)
        or len(call.args) != 1
        or call.keywords
    ):
        raise ValueError(
            f"{where} must end with `exercise_N.check(answer)` (notebooks/README.md), "
            f"it ends with {source.strip().splitlines()[-1] if source.strip() else 'nothing'!r}"
        )
    return call.func.value.id, call.args[0], tree


def _without_last_statement(source: str, tree: ast.Module) -> list[str]:
    last = tree.body[-1]
    lines = source.splitlines()
    kept = lines[: last.lineno - 1]
    while kept and not kept[-1].strip():
        kept.pop()
    return kept


def _answer_source(student: str, solution: str, where: str) -> tuple[str, str, str]:
    """(exercise name, answer variable, the answer cell's source with the solution region)."""
    exercise, answer, student_tree = _final_check(student, f"the student's cell of {where}")
    if not isinstance(answer, ast.Name):
        raise ValueError(
            f"the student's cell of {where} must check a variable (`{exercise}.check(answer)`)"
        )
    solved, value, solution_tree = _final_check(solution, f"the solution cell of {where}")
    if solved != exercise:
        raise ValueError(f"the solution cell of {where} checks {solved}, not {exercise}")
    body = _without_last_statement(solution, solution_tree)
    if not (isinstance(value, ast.Name) and value.id == answer.id):
        segment = ast.get_source_segment(solution, value)
        body.append(f"{answer.id} = {segment}")
    lines = [
        *_without_last_statement(student, student_tree),
        "### BEGIN SOLUTION",
        *body,
        "### END SOLUTION",
        f"{exercise}.check({answer.id})",
    ]
    return exercise, answer.id, "\n".join(lines)


def _assigned_names(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:  # an IPython magic: not a set-up cell
        return set()
    return {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


_NOTE = """\
**Graded assignment.** {numbers} Write each answer in its answer cell, in place of `None`
(or the function's `return None`); the check in that cell says at once whether it is right.
The cell after each answer cell is graded: it runs the same check when your teacher grades
the submission (with nbgrader). The chapter's worked solutions are not in this version.
{button}Before you submit, restart the kernel and run all cells, or press *Validate*."""

_BUTTON = """The exercises carry your own numbers, drawn for you: they have no *New numbers* button
here, since those are the numbers graded. """


def _personal_source() -> str:
    return "\n".join(
        [
            "# Your own numbers: each exercise is drawn anew for the student named below, with",
            "# seed_for(name, label), where it is defined; the autograder draws the same ones.",
            "from robolab.exercises import seed_for",
            "from robolab.lessons.assignments import student_name",
            "",
            "student = student_name()",
            'print(f"The exercises are drawn for {student!r}.")',
        ]
    )


def _drawn_where_defined(source: str, exercises: set[str], chapter_id: str) -> str:
    """``source`` with each exercise drawn for the student right after the line defining it.

    So whatever the cell (and the cells after it) shows of the exercise, its statement and
    its data are the student's own numbers, the ones the hidden test grades.
    """
    lines = source.splitlines()
    tree = ast.parse(source)
    for node in reversed(tree.body):
        names = [
            target.id
            for target in (node.targets if isinstance(node, ast.Assign) else [])
            if isinstance(target, ast.Name) and target.id in exercises
        ]
        for name in reversed(names):
            label = f"{chapter_id}/{name}"
            redraw = f'{name} = {name}.with_seed(seed_for(student, "{label}"), own=True)'
            lines.insert(node.end_lineno or len(lines), " " * node.col_offset + redraw)
    return "\n".join(lines)


def chapter_assignment(
    chapter: nbformat.NotebookNode,
    chapter_id: str,
    *,
    points: float = 1.0,
    personal: bool = True,
) -> nbformat.NotebookNode:
    """The nbgrader source version of a chapter: answer cells, hidden tests, read-only set-up.

    Parameters
    ----------
    chapter : nbformat.NotebookNode
        A course chapter (version 4), read with ``nbformat.read``; not modified.
    chapter_id : str
        The chapter's number, ``"04"``: part of the per-student seeds' labels.
    points : float
        Points of each exercise's hidden test (≥ 0).
    personal : bool
        Re-draw each exercise for :func:`student_name` (True), or keep the chapter's seeds.

    Returns
    -------
    nbformat.NotebookNode
        A new notebook, outputs cleared, cells carrying nbgrader metadata (schema 3).

    Raises
    ------
    ValueError
        A chapter with no exercises, a solution cell without the student's cell before it,
        or cells that do not end with ``exercise_N.check(...)`` (the names the cell).
    """
    if not isinstance(points, int | float) or not points >= 0:
        raise ValueError(f"points must be a number ≥ 0, got {points!r}")
    cells = [nbformat.from_dict(cell) for cell in chapter.cells]
    solutions = [i for i, c in enumerate(cells) if "solution" in c.metadata.get("tags", [])]
    if not solutions:
        raise ValueError(
            f"chapter {chapter_id} has no cells tagged 'solution': no exercises to grade"
        )
    answers: dict[int, tuple[str, str, str]] = {}
    for index in solutions:
        where = f"chapter {chapter_id}, cell {index - 1}"
        if index == 0 or cells[index - 1].cell_type != "code":
            raise ValueError(f"the solution cell {index} of chapter {chapter_id} follows no code")
        answers[index - 1] = _answer_source(cells[index - 1].source, cells[index].source, where)
    exercises = [exercise for exercise, _, _ in answers.values()]
    setup = [
        i
        for i, cell in enumerate(cells)
        if cell.cell_type == "code" and _assigned_names(cell.source) & set(exercises)
    ]
    if not setup:
        raise ValueError(f"chapter {chapter_id} defines none of {exercises} in a code cell")

    out: list[nbformat.NotebookNode] = []
    for index, cell in enumerate(cells):
        if index in solutions:
            continue
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        if index == setup[0]:
            numbers = (
                "Your exercises have numbers of your own, drawn for the name printed below "
                "(not the class's numbers the chapter's text speaks of)."
                if personal
                else "Everyone in the class gets the same numbers."
            )
            note = _NOTE.format(numbers=numbers, button=_BUTTON if personal else "")
            out.append(new_markdown_cell(note))
            if personal:
                personal_cell = new_code_cell(_personal_source())
                personal_cell.metadata["nbgrader"] = _nbgrader("student", locked=True)
                out.append(personal_cell)
        if index in setup:
            cell.metadata["nbgrader"] = _nbgrader(f"setup_{index}", locked=True)
            if personal:
                cell.source = _drawn_where_defined(cell.source, set(exercises), chapter_id)
        if index in answers:
            exercise, answer, source = answers[index]
            cell.source = source
            cell.metadata["nbgrader"] = _nbgrader(f"{exercise}_answer", solution=True)
            out.append(cell)
            test = "\n".join(
                [
                    f"# Graded ({points:g} point{'s' if points != 1 else ''}): the autograder "
                    f"checks {answer} of {exercise} here.",
                    "### BEGIN HIDDEN TESTS",
                    f"_graded = {exercise}.check({answer})",
                    "assert _graded.correct, _graded.message",
                    "### END HIDDEN TESTS",
                ]
            )
            meta = _nbgrader(f"{exercise}_test", grade=True, locked=True, points=points)
            out.append(new_code_cell(test, metadata={"nbgrader": meta}))
            continue
        out.append(cell)
    for position, cell in enumerate(out):
        cell["id"] = f"graded-{position:02d}"
    notebook = nbformat.from_dict({**chapter, "cells": out})
    nbformat.validate(notebook)
    return notebook


# --- a course folder ------------------------------------------------------------------------

#: The chapters next to the package in a checkout of the repository (an editable install);
#: a wheel, as on Binder or a hub's image, has no notebooks.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
_CHAPTER_FILE = re.compile(r"^(\d\d)-[a-z0-9-]+\.ipynb$")


def default_notebooks() -> Path:
    """Where chapter numbers are looked up: ``./notebooks`` if it exists, else :data:`NOTEBOOKS`.

    Examples
    --------
    >>> default_notebooks().name
    'notebooks'
    """
    here = Path.cwd() / "notebooks"
    return here if here.is_dir() else NOTEBOOKS


def _chapters_in(notebooks: Path) -> list[str]:
    return sorted(
        p.name[:2] for p in notebooks.glob("[0-9][0-9]-*.ipynb") if _CHAPTER_FILE.match(p.name)
    )


def _chapter_path(chapter: str | Path, notebooks: Path) -> Path:
    text = str(chapter)
    if text.isdigit():
        hits = sorted(notebooks.glob(f"{int(text):02d}-*.ipynb"))
        if len(hits) != 1:
            known = sorted(p.name[:2] for p in notebooks.glob("[0-9][0-9]-*.ipynb"))
            raise ValueError(f"no chapter {text} in {notebooks} (chapters: {', '.join(known)})")
        return hits[0]
    path = Path(chapter)
    if not path.is_file() or not _CHAPTER_FILE.match(path.name):
        raise ValueError(
            f"{chapter!r} is neither a chapter number nor a chapter notebook NN-title.ipynb"
        )
    return path


def write_assignments(
    chapters: Iterable[str | Path],
    course: str | Path,
    *,
    assignment: str | None = None,
    points: float = 1.0,
    personal: bool = True,
    overwrite: bool = False,
    notebooks: str | Path | None = None,
) -> list[Path]:
    """Write chapters as nbgrader source notebooks into a course folder.

    Each chapter goes to ``<course>/source/ch<NN>/<NN-title>.ipynb`` (one assignment per
    chapter), or every chapter into ``source/<assignment>/`` when ``assignment`` is given.
    ``<course>/nbgrader_config.py`` (:data:`NBGRADER_CONFIG`) is written if missing.

    Parameters
    ----------
    chapters : iterable of str or Path
        Chapter numbers (``"4"``, ``"04"``) or chapter notebook files.
    course : str or Path
        The nbgrader course folder (its ``CourseDirectory.root``); created if needed.
    assignment : str, optional
        One assignment name for all the chapters (letters, digits, ``_`` and ``-``).
    points : float
        Points per exercise.
    personal : bool
        Numbers per student (see :func:`chapter_assignment`).
    overwrite : bool
        Replace source notebooks that exist (a teacher's edits there are lost).
    notebooks : str or Path, optional
        Where chapter numbers are looked up (the course's ``notebooks/``); by default
        :func:`default_notebooks`.

    Returns
    -------
    list of Path
        The notebooks written.

    Raises
    ------
    ValueError
        An unknown chapter, a bad assignment name, no chapters.
    FileExistsError
        A source notebook exists and ``overwrite`` is False.
    """
    folder = default_notebooks() if notebooks is None else Path(notebooks)
    paths = [_chapter_path(chapter, folder) for chapter in chapters]
    if not paths:
        raise ValueError("no chapters given: name at least one (e.g. 01 04)")
    if assignment is not None and not re.fullmatch(r"[A-Za-z0-9_-]+", assignment):
        raise ValueError(
            f"assignment must be letters, digits, '_' and '-' (an nbgrader id), got {assignment!r}"
        )
    root = Path(course)
    targets = [root / "source" / (assignment or f"ch{p.name[:2]}") / p.name for p in paths]
    existing = [str(t) for t in targets if t.exists()]
    if existing and not overwrite:
        raise FileExistsError(
            f"{', '.join(existing)} exist(s): replace them with --force (overwrite=True)"
        )
    for path, target in zip(paths, targets, strict=True):
        chapter = nbformat.read(path, as_version=4)
        graded = chapter_assignment(chapter, path.name[:2], points=points, personal=personal)
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(graded, target)
    config = root / "nbgrader_config.py"
    if not config.exists():
        config.write_text(NBGRADER_CONFIG, encoding="utf-8")
    return targets


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m robolab.lessons.assignments [chapters] --course DIR``; all chapters if none."""
    parser = argparse.ArgumentParser(
        prog="python -m robolab.lessons.assignments",
        description="Write course chapters as nbgrader assignments (source versions).",
    )
    parser.add_argument("chapters", nargs="*", help="chapter numbers or files (default: all)")
    parser.add_argument("--course", default="build/nbgrader", help="nbgrader course folder")
    parser.add_argument(
        "--notebooks",
        help="the course's chapters, e.g. ~/robolab/notebooks "
        f"(default: ./notebooks if it exists, else {NOTEBOOKS})",
    )
    parser.add_argument("--assignment", help="one assignment for all the chapters")
    parser.add_argument("--points", type=float, default=1.0, help="points per exercise")
    parser.add_argument(
        "--same-numbers", action="store_true", help="everyone gets the chapter's numbers"
    )
    parser.add_argument("--force", action="store_true", help="replace existing source files")
    args = parser.parse_args(argv)
    if args.notebooks is not None:
        notebooks, looked = Path(args.notebooks).expanduser(), "--notebooks"
    else:
        notebooks, looked = default_notebooks(), f"./notebooks, then {NOTEBOOKS}"
    numbers = [str(c) for c in args.chapters if str(c).isdigit()]
    if (numbers or not args.chapters) and not _chapters_in(notebooks):
        print(
            f"error: no chapters NN-title.ipynb in {notebooks} (looked in {looked}): "
            "pass --notebooks DIR, the notebooks/ folder of a copy of the course "
            "(on a hub, e.g. ~/robolab/notebooks from the nbgitpuller link)",
            file=sys.stderr,
        )
        return 2
    chapters = args.chapters or _chapters_in(notebooks)
    try:
        written = write_assignments(
            chapters,
            args.course,
            assignment=args.assignment,
            points=args.points,
            personal=not args.same_numbers,
            overwrite=args.force,
            notebooks=notebooks,
        )
    except (ValueError, FileExistsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    print(
        f"Next, in {args.course}: nbgrader generate_assignment <assignment> "
        "(docs/teaching.md, Grading with nbgrader)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
