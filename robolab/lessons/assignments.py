"""Chapters as nbgrader assignments: graded answer cells, hidden tests, numbers per student.

A chapter's exercises follow one pattern (``notebooks/README.md``): a collapsed set-up cell
defines ``exercise_N = Exercise(...)``; the student's cell holds ``answer = None`` and ends
with ``exercise_N.check(answer)``; the next cell, tagged ``solution``, is the worked
solution and ends with ``exercise_N.check_solution(value)``, its check of itself.
:func:`chapter_assignment` turns that into the *source* version of an nbgrader assignment
(nbgrader's cell metadata, schema version 3):

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

What enters the generated code is checked first: the chapter id is two digits, exercise and
answer names are ASCII identifiers, the points a finite number ≥ 0, and the chapter's label
goes into each set-up cell as a Python string literal. A chapter is read as data (a regular
UTF-8 file of at most :data:`robolab.models.file_format.MAX_ROBOT_FILE_BYTES` bytes, JSON
nested at most :data:`MAX_NOTEBOOK_DEPTH` deep, valid against nbformat 4's schema), and a
chapter that could not be graded as written (nbgrader's region markers in its cells, a check
sharing its line with other code, an exercise defined where it cannot be re-drawn) is refused
with the cell that is wrong. Its code is the teacher's and is copied as it is: the tool reads
the course's chapters, never a student's notebook.

Examples
--------
>>> import nbformat
>>> from nbformat.v4 import new_code_cell, new_notebook
>>> chapter = new_notebook(cells=[
...     new_code_cell("from robolab.exercises import Exercise\\n"
...                   "exercise_1 = Exercise('Half a turn', 'In radians?', solve=lambda: 3.14159)"),
...     new_code_cell("answer = None  # a number\\nexercise_1.check(answer)"),
...     new_code_cell("exercise_1.check_solution(3.14159)", metadata={"tags": ["solution"]}),
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
import contextlib
import getpass
import json
import math
import numbers
import os
import re
import secrets
import sys
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import nbformat
from jsonschema.exceptions import best_match  # type: ignore[import-untyped]
from nbformat.v4 import new_code_cell, new_markdown_cell
from nbformat.v4.rwbase import rejoin_lines
from nbformat.validator import get_validator

from ..models.file_format import MAX_ROBOT_FILE_BYTES, read_bounded_text, shorten

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

#: Deepest nesting of JSON arrays and objects read in a chapter notebook. The course's
#: chapters are 8 deep (a cell's output's data); nbformat and its schema validator recurse
#: into the nesting, and Python's recursion limit stops them near 500.
MAX_NOTEBOOK_DEPTH = 64

#: What nbgrader looks for in a cell's lines (``ClearSolutions``, ``ClearHiddenTests``):
#: in a chapter they would cut a cell where the chapter did not mean it.
NBGRADER_MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")

#: The names the generated cells define: a chapter that assigns them would change whose
#: numbers the exercises are drawn for, or what the hidden test reads.
GENERATED_NAMES = ("student", "seed_for", "student_name", "_graded")

_CHAPTER_ID = re.compile(r"[0-9]{2}")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_NOTEBOOK_EXPECTED = "a chapter notebook NN-title.ipynb (Jupyter's nbformat 4 JSON)"


def _nbgrader_username() -> str:
    """nbgrader's student id for this process: the OS user, or ``JUPYTERHUB_USER`` for jovyan.

    The rule of ``nbgrader.utils.get_username`` (nbgrader 0.9.6), which ``nbgrader submit``
    files a submission under, repeated here so that a kernel without nbgrader follows it too.
    """
    try:
        import pwd  # lazy, optional dependency: Windows has no pwd

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

    The name is returned in Unicode's composed form (NFC), so that ``José`` typed on one
    system and read back from a folder name in decomposed form on another (macOS stores
    names decomposed) draws the same numbers. It is only ever data (a seed, a printed
    ``repr``), never code.

    Examples
    --------
    >>> import os
    >>> os.environ["ROBOLAB_STUDENT"] = "ada"
    >>> student_name()
    'ada'
    >>> os.environ["ROBOLAB_STUDENT"] = "Jose\\u0301"  # an e and a combining acute accent
    >>> student_name() == "Jos\\u00e9"
    True
    >>> del os.environ["ROBOLAB_STUDENT"]
    """
    return unicodedata.normalize("NFC", _raw_student_name())


def _raw_student_name() -> str:
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        here = Path.cwd()
        if here.parent.parent.name == "autograded":
            return here.parent.name
    named = os.environ.get(STUDENT_VARIABLE, "").strip()
    if named:
        return named
    return _nbgrader_username()


# --- what enters the generated code ------------------------------------------------------


def _shown(value: object) -> str:
    """``repr(value)``, its middle left out when long (for error messages)."""
    return shorten(repr(value), keep=30)


def _check_points(points: object) -> float:
    """``points`` as a float: a finite number ≥ 0 (it is written into JSON and code)."""
    if isinstance(points, bool) or not isinstance(points, numbers.Real):
        raise TypeError(
            "points must be a number ≥ 0 such as 1 or 0.5 (each exercise's points), got "
            f"{type(points).__name__} {_shown(points)}"
        )
    try:
        value = float(points)
    except OverflowError:  # an int or Fraction beyond the largest float
        value = math.inf
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(
            f"points must be a number ≥ 0 and finite (nbgrader keeps it in JSON, which has no "
            f"infinity or NaN), got {_shown(points)}"
        )
    return value


def _check_chapter_id(chapter_id: object) -> str:
    if not isinstance(chapter_id, str):
        raise TypeError(
            f"chapter_id must be a chapter's two-digit number as text, such as '04', got "
            f"{type(chapter_id).__name__} {_shown(chapter_id)}"
        )
    if not _CHAPTER_ID.fullmatch(chapter_id):
        raise ValueError(
            "chapter_id must be a chapter's two-digit number such as '04' (two of 0-9: it "
            f"becomes part of each student's set-up code), got {_shown(chapter_id)}"
        )
    return chapter_id


def _check_identifier(name: str, what: str, where: str) -> str:
    if not _IDENTIFIER.fullmatch(name):
        raise ValueError(
            f"{where}: {what} {name!r} must be an ASCII name (letters A-Z, digits, '_'; "
            "nbgrader's cell ids are made of it)"
        )
    if name in GENERATED_NAMES:
        raise ValueError(
            f"{where}: {what} {name!r} is one of the names the graded version defines "
            f"({', '.join(GENERATED_NAMES)}); rename it"
        )
    return name


# --- reading a chapter ----------------------------------------------------------------------


def _size_problem(data: object) -> str | None:
    """What is too big in ``data``: nesting deeper than :data:`MAX_NOTEBOOK_DEPTH` (a cycle
    nests forever), or more values than a file robolab reads can hold (a list that holds
    itself twice, 60 times over, is a tree of 2**60 values)."""
    stack: list[tuple[object, int, str]] = [(data, 1, "$")]
    most = MAX_ROBOT_FILE_BYTES // 2 + 1  # each value but one takes two bytes: `1,`, `[]`
    budget = most
    while stack:
        value, depth, path = stack.pop()
        budget -= 1
        if budget < 0:
            return f"more than {most} values (a file robolab reads holds fewer)"
        if isinstance(value, Mapping):
            items: Iterable[tuple[object, object]] = value.items()
        elif isinstance(value, list | tuple):
            items = enumerate(value)
        else:
            continue
        if depth > MAX_NOTEBOOK_DEPTH:
            return f"nested more than {MAX_NOTEBOOK_DEPTH} levels deep (at {path})"
        for key, item in items:
            stack.append((item, depth + 1, f"{path}[{key!r}]" if depth < 4 else path))
    return None


def _schema_problem(error: Any) -> str:
    """One line for the schema error: the branch of the cell's (output's) own type."""
    while error.validator == "oneOf" and error.context:
        branches: dict[object, list[Any]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        types = [
            sub
            for sub in error.context
            if sub.validator == "enum" and sub.path and sub.path[-1] in ("cell_type", "output_type")
        ]
        kept = [subs for subs in branches.values() if not any(sub in types for sub in subs)]
        if not kept and types:
            field = types[0].path[-1]
            allowed = sorted({str(v) for sub in types for v in sub.validator_value})
            return (
                f"at {types[0].json_path}: expected one of {', '.join(allowed)} for {field}, "
                f"got {_shown(types[0].instance)}"
            )
        if len(kept) != 1:
            break
        error = best_match(kept[0])
    if error.validator == "oneOf":
        return f"at {error.json_path}: not one of the forms the schema allows"
    return f"at {error.json_path}: {shorten(error.message, keep=60)}"


def _checked_notebook(data: object, where: str) -> nbformat.NotebookNode:
    """A copy of ``data`` as a valid nbformat 4 notebook, each cell's source one string.

    Cell ids are not kept (the graded version numbers its cells), so a chapter written before
    nbformat 4.5 or with duplicate ids is read as well.
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: expected {_NOTEBOOK_EXPECTED}, got {type(data).__name__}")
    too_big = _size_problem(data)
    if too_big is not None:
        raise ValueError(
            f"{where}: {too_big}; expected {_NOTEBOOK_EXPECTED}, whose chapters nest 8 levels"
        )
    try:
        copy = json.loads(json.dumps(data, allow_nan=False))
    except (TypeError, ValueError) as error:  # a set, an object, NaN: not JSON
        raise ValueError(
            f"{where}: not JSON data ({error}); expected {_NOTEBOOK_EXPECTED}"
        ) from None
    major, minor = copy.get("nbformat"), copy.get("nbformat_minor")
    if major != 4 or not isinstance(minor, int) or isinstance(minor, bool) or minor < 0:
        raise ValueError(
            f"{where}: expected a Jupyter notebook of format 4 (nbformat 4, nbformat_minor a "
            f"whole number ≥ 0), got nbformat {_shown(major)}, nbformat_minor {_shown(minor)} "
            "(open and save it in JupyterLab to convert an older notebook)"
        )
    minor = min(minor, nbformat.v4.nbformat_minor)
    copy["nbformat_minor"] = minor
    if isinstance(copy.get("cells"), list):
        for index, cell in enumerate(copy["cells"]):
            if isinstance(cell, dict):
                cell.pop("id", None)
                if minor >= 5:
                    cell["id"] = f"cell-{index}"
    schema = get_validator(version=4, version_minor=minor, name="jsonschema")
    problem = best_match(schema.iter_errors(copy))
    if problem is not None:
        raise ValueError(
            f"{where}: not a valid Jupyter notebook (nbformat 4.{minor} schema) "
            f"{_schema_problem(problem)}; expected {_NOTEBOOK_EXPECTED}"
        )
    return rejoin_lines(nbformat.from_dict(copy))


def _read_chapter(path: Path) -> nbformat.NotebookNode:
    """A chapter notebook file, read as data with every bound of a robot file."""
    text = read_bounded_text(path, "chapter notebook", _NOTEBOOK_EXPECTED)
    where = f"chapter notebook {path}"

    def no_constant(name: str) -> object:
        raise ValueError(f"{where}: {name} is not valid JSON; expected {_NOTEBOOK_EXPECTED}")

    try:
        data = json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{where}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
            f"expected {_NOTEBOOK_EXPECTED}"
        ) from None
    except RecursionError:
        raise ValueError(
            f"{where}: nested too deeply to read (beyond Python's recursion limit); expected "
            f"{_NOTEBOOK_EXPECTED}, nested at most {MAX_NOTEBOOK_DEPTH} levels"
        ) from None
    return _checked_notebook(data, where)


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


def _lines(source: str) -> list[str]:
    """The lines of ``source`` as Python numbers them (``str.splitlines`` also splits at a
    form feed or a line separator inside a string, and would shift every line after it)."""
    return re.split(r"\r\n|\r|\n", source)


def _final_check(
    source: str, where: str, method: str = "check"
) -> tuple[str, ast.expr, ast.Module]:
    """The exercise name and argument of the ``exercise_N.<method>(x)`` a cell ends with.

    A student's cell ends with ``exercise_N.check(answer)``, a worked solution's with
    ``exercise_N.check_solution(value)``.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise ValueError(f"{where} is not valid Python: {error}") from None
    last = tree.body[-1] if tree.body else None
    call = last.value if isinstance(last, ast.Expr) else None
    if (
        not isinstance(call, ast.Call)
        or not isinstance(call.func, ast.Attribute)
        or call.func.attr != method
        or not isinstance(call.func.value, ast.Name)
        or len(call.args) != 1
        or call.keywords
    ):
        ending = source.strip().splitlines()[-1] if source.strip() else "nothing"
        raise ValueError(
            f"{where} must end with `exercise_N.{method}(...)` (notebooks/README.md), "
            f"it ends with {_shown(ending)}"
        )
    if len(tree.body) > 1 and (tree.body[-2].end_lineno or 0) >= tree.body[-1].lineno:
        raise ValueError(
            f"{where}: put `{call.func.value.id}.{method}(...)` on a line of its own (the "
            "graded version takes the lines before it, and would lose what shares its line)"
        )
    return _check_identifier(call.func.value.id, "the exercise", where), call.args[0], tree


def _without_last_statement(source: str, tree: ast.Module) -> list[str]:
    last = tree.body[-1]
    kept = _lines(source)[: last.lineno - 1]
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
    _check_identifier(answer.id, "the answer variable", f"the student's cell of {where}")
    solved, value, solution_tree = _final_check(
        solution, f"the solution cell of {where}", method="check_solution"
    )
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


def _drawn_where_defined(source: str, exercises: set[str], chapter_id: str, where: str) -> str:
    """``source`` with each exercise drawn for the student right after the line defining it.

    So whatever the cell (and the cells after it) shows of the exercise, its statement and
    its data are the student's own numbers, the ones the hidden test grades. The label is
    written as a Python string literal (``json.dumps`` of text is one, in the double quotes
    the chapters use), of a checked chapter id and exercise name.
    """
    lines = _lines(source)
    tree = ast.parse(source)
    for position in range(len(tree.body) - 1, -1, -1):
        node = tree.body[position]
        names = [
            target.id
            for target in (node.targets if isinstance(node, ast.Assign) else [])
            if isinstance(target, ast.Name) and target.id in exercises
        ]
        if not names:
            continue
        end = node.end_lineno or len(lines)
        if position + 1 < len(tree.body) and tree.body[position + 1].lineno <= end:
            raise ValueError(
                f"{where}: put the definition of {names[0]} on lines of its own (the line after "
                "it draws the exercise for the student, before anything uses it)"
            )
        for name in reversed(names):
            label = json.dumps(f"{chapter_id}/{name}")
            redraw = f"{name} = {name}.with_seed(seed_for(student, {label}), own=True)"
            lines.insert(end, " " * node.col_offset + redraw)
    return "\n".join(lines)


def _refuse_what_nbgrader_would_misread(cells: list[nbformat.NotebookNode], chapter: str) -> None:
    for index, cell in enumerate(cells):
        where = f"cell {index} of chapter {chapter}"
        if "nbgrader" in cell.metadata:
            raise ValueError(
                f"{where} already has nbgrader metadata: pass the course's chapter, not an "
                "nbgrader notebook"
            )
        marker = next((m for m in NBGRADER_MARKERS if m in cell.source), None)
        if marker is not None:
            raise ValueError(
                f"{where} contains {marker!r}, one of nbgrader's region markers; reword it "
                "(nbgrader would cut the cell there, and could hand out part of a solution)"
            )
        if cell.cell_type == "code":
            taken = _assigned_names(cell.source) & set(GENERATED_NAMES)
            if taken:
                raise ValueError(
                    f"{where} assigns {sorted(taken)[0]}, a name the graded version's set-up "
                    f"defines ({', '.join(GENERATED_NAMES)}); rename it"
                )


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
        The chapter's two-digit number, ``"04"``: part of the per-student seeds' labels.
    points : float
        Points of each exercise's hidden test (finite, ≥ 0).
    personal : bool
        Re-draw each exercise for :func:`student_name` (True), or keep the chapter's seeds.

    Returns
    -------
    nbformat.NotebookNode
        A new notebook, outputs cleared, cells carrying nbgrader metadata (schema 3).

    Raises
    ------
    TypeError
        ``chapter`` not a notebook (a mapping), ``chapter_id`` not text, ``points`` not a
        number.
    ValueError
        A chapter id other than two digits 0-9; points negative, infinite or NaN; a chapter
        that is not a valid nbformat 4 notebook or nests deeper than
        :data:`MAX_NOTEBOOK_DEPTH`; a chapter with no exercises, a solution cell without the
        student's cell before it, cells that do not end with ``exercise_N.check(...)`` on a
        line of its own, exercise or answer names that are not ASCII identifiers or are
        :data:`GENERATED_NAMES`, an exercise answered twice or not defined by a plain
        assignment, nbgrader's markers (:data:`NBGRADER_MARKERS`) or metadata in a cell (the
        message names the cell).
    """
    points = _check_points(points)
    chapter_id = _check_chapter_id(chapter_id)
    if not isinstance(chapter, Mapping):
        raise TypeError(
            f"chapter must be a notebook (nbformat.read(path, as_version=4)), got "
            f"{type(chapter).__name__}"
        )
    notebook_in = _checked_notebook(chapter, f"chapter {chapter_id}")
    cells = list(notebook_in.cells)
    _refuse_what_nbgrader_would_misread(cells, chapter_id)
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
    twice = sorted({name for name in exercises if exercises.count(name) > 1})
    if twice:
        raise ValueError(f"chapter {chapter_id} has more than one answer cell for {twice[0]}")
    setup = [
        i
        for i, cell in enumerate(cells)
        if cell.cell_type == "code" and _assigned_names(cell.source) & set(exercises)
    ]
    if not setup:
        raise ValueError(f"chapter {chapter_id} defines none of {exercises} in a code cell")
    defined = set().union(*(_assigned_names(cells[i].source) for i in setup))
    missing = [name for name in exercises if name not in defined]
    if personal and missing:
        raise ValueError(
            f"chapter {chapter_id} does not define {missing[0]} by a plain `{missing[0]} = ...` "
            "at the top level of a code cell, where it can be drawn for each student"
        )

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
                where = f"cell {index} of chapter {chapter_id}"
                cell.source = _drawn_where_defined(cell.source, set(exercises), chapter_id, where)
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
    minor = max(notebook_in.nbformat_minor, 5)  # cell ids came with nbformat 4.5
    notebook = nbformat.from_dict({**notebook_in, "nbformat_minor": minor, "cells": out})
    nbformat.validate(notebook)
    return notebook


# --- a course folder ------------------------------------------------------------------------

#: The chapters next to the package in a checkout of the repository (an editable install);
#: a wheel, as on Binder or a hub's image, has no notebooks.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
_CHAPTER_FILE = re.compile(r"([0-9]{2})-[a-z0-9-]+\.ipynb")


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
        p.name[:2] for p in notebooks.glob("[0-9][0-9]-*.ipynb") if _CHAPTER_FILE.fullmatch(p.name)
    )


def _folder(value: object, name: str) -> Path:
    if not isinstance(value, str | os.PathLike):
        raise TypeError(f"{name} must be a folder's path, got {type(value).__name__}")
    text = os.fspath(value)
    if not isinstance(text, str) or not text.strip() or "\0" in text:
        raise ValueError(f"{name} must be a folder's path, got {_shown(text)}")
    return Path(text)


def _chapter_path(chapter: object, notebooks: Path) -> Path:
    if not isinstance(chapter, str | os.PathLike):
        raise TypeError(
            f"each chapter must be a number such as '04' or a notebook's path, got "
            f"{type(chapter).__name__} {_shown(chapter)}"
        )
    text = os.fspath(chapter)
    if isinstance(chapter, str) and re.fullmatch(r"[0-9]{1,2}", text):
        hits = [
            p for p in notebooks.glob(f"{int(text):02d}-*.ipynb") if _CHAPTER_FILE.fullmatch(p.name)
        ]
        if len(hits) != 1:
            known = ", ".join(_chapters_in(notebooks))
            raise ValueError(f"no chapter {text} in {notebooks} (chapters: {known})")
        return hits[0]
    if isinstance(chapter, str) and chapter.strip().isdigit():
        raise ValueError(
            f"a chapter number is one or two digits 0-9 such as 4 or 04, got {_shown(chapter)}"
        )
    path = Path(text)
    if not _CHAPTER_FILE.fullmatch(path.name):
        raise ValueError(
            f"{_shown(text)} is neither a chapter number nor a chapter notebook NN-title.ipynb"
        )
    return path


def _write_file(path: Path, text: str) -> None:
    """Write ``text`` through a new file beside ``path``, then put it in ``path``'s place.

    Nothing is ever opened at ``path`` itself: a FIFO, device or link there is replaced, not
    written through, and a run that fails leaves no half-written notebook.
    """
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        with open(os.open(temporary, flags, 0o666), "wb") as file:
            file.write(text.encode("utf-8"))
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):  # no folder, or not a folder: nothing was made
            temporary.unlink(missing_ok=True)
        if isinstance(error, FileExistsError):  # mkdir: a file where a folder belongs
            problem = f"{error.filename} is in the way: it exists and is not a folder"
        elif error.filename not in (None, str(temporary)):
            problem = f"{error.strerror or error} ({error.filename})"
        else:
            problem = str(error.strerror or error)
        raise ValueError(
            f"cannot write {path}: {problem}; expected a course folder that can be written to"
        ) from None


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
    ``<course>/nbgrader_config.py`` (:data:`NBGRADER_CONFIG`) is written if missing. Every
    chapter is read and converted before anything is written; a chapter file is read as
    data (see the module's notes), and each notebook is written to a new file that then
    takes the target's place.

    Parameters
    ----------
    chapters : iterable of str or Path
        Chapter numbers (``"4"``, ``"04"``) or chapter notebook files, each at most once.
    course : str or Path
        The nbgrader course folder (its ``CourseDirectory.root``); created if needed.
    assignment : str, optional
        One assignment name for all the chapters (letters, digits, ``_`` and ``-``, starting
        with a letter or digit, at most 64 characters).
    points : float
        Points per exercise (finite, ≥ 0).
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
    TypeError
        ``chapters`` a single text rather than a list of them, or a chapter, folder or
        ``points`` of the wrong kind.
    ValueError
        An unknown or repeated chapter, a bad assignment name, no chapters, bad points, a
        chapter file that cannot be read as a chapter notebook or converted (see
        :func:`chapter_assignment`), a course folder that cannot be written to.
    FileExistsError
        A source notebook exists and ``overwrite`` is False.
    """
    points = _check_points(points)
    if isinstance(chapters, str | bytes | os.PathLike) or not isinstance(chapters, Iterable):
        raise TypeError(
            "chapters must be a list of chapter numbers or files such as ['01', '04'], got "
            f"{type(chapters).__name__} {_shown(chapters)}"
        )
    root = _folder(course, "course")
    folder = default_notebooks() if notebooks is None else _folder(notebooks, "notebooks")
    if assignment is not None and (
        not isinstance(assignment, str) or not _ASSIGNMENT.fullmatch(assignment)
    ):
        raise ValueError(
            "assignment must be letters, digits, '_' and '-' (an nbgrader id), starting with a "
            f"letter or digit, at most 64 characters, got {_shown(assignment)}"
        )
    paths = [_chapter_path(chapter, folder) for chapter in chapters]
    if not paths:
        raise ValueError("no chapters given: name at least one (e.g. 01 04)")
    names = [path.name for path in paths]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"chapter {twice[0]} is named more than once")
    targets = [root / "source" / (assignment or f"ch{p.name[:2]}") / p.name for p in paths]
    existing = [str(t) for t in targets if os.path.lexists(t)]
    if existing and not overwrite:
        raise FileExistsError(
            f"{', '.join(existing)} exist(s): replace them with --force (overwrite=True)"
        )
    graded = [
        chapter_assignment(_read_chapter(path), path.name[:2], points=points, personal=personal)
        for path in paths
    ]
    for notebook, target in zip(graded, targets, strict=True):
        _write_file(target, nbformat.writes(notebook) + "\n")
    config = root / "nbgrader_config.py"
    if not os.path.lexists(config):
        _write_file(config, NBGRADER_CONFIG)
    return targets


def _points_option(text: str) -> float:
    """``--points``: a finite number ≥ 0, or argparse's one-line error naming the option."""
    try:
        return _check_points(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a finite number ≥ 0 such as 1 or 0.5, got {_shown(text)}"
        ) from None


def _one_line(error: BaseException) -> str:
    """An error message on one line (a path or a quoted cell may hold line breaks)."""
    return " ".join(str(error).split())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m robolab.lessons.assignments [chapters] --course DIR``; all chapters if none.

    Returns 0, or 2 after one ``error:`` line on stderr naming what is wrong (a chapter file,
    an option, the course folder) and what was expected.
    """
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
    parser.add_argument(
        "--points", type=_points_option, default=1.0, help="points per exercise (≥ 0)"
    )
    parser.add_argument(
        "--same-numbers", action="store_true", help="everyone gets the chapter's numbers"
    )
    parser.add_argument("--force", action="store_true", help="replace existing source files")
    args = parser.parse_args(argv)
    try:
        if args.notebooks is not None:
            notebooks = _folder(args.notebooks, "--notebooks").expanduser()
            looked = "--notebooks"
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
        written = write_assignments(
            args.chapters or _chapters_in(notebooks),
            _folder(args.course, "--course"),
            assignment=args.assignment,
            points=args.points,
            personal=not args.same_numbers,
            overwrite=args.force,
            notebooks=notebooks,
        )
    except (ValueError, TypeError, OSError) as error:
        print(f"error: {_one_line(error)}", file=sys.stderr)
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
