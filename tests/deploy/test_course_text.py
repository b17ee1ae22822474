"""The course's prose: references that hold, and no typed numbers that can go stale.

**References.** Every "chapter N" in a notebook or in a string of robolab's code names one of
the course's chapters; every "chapter N, section K" (or "section K of chapter N") names a
numbered heading ``## K. Title`` (or ``## K · Title``) that chapter N has; a bare "section K"
names a heading of the notebook it is written in. A textbook's section or equation is written
with the book's short name in front ("MR §8.2", "SHV §4.9", "Siciliano eq. 3.59"): a bare
"section 8.2" or "§8.2" would send a student looking for a section of the course.

**Typed numbers.** A timing of the computer (µs, "takes 120 s") written in a markdown cell must
be printed by a code cell next to it; otherwise it goes stale with the next machine or the
next speed-up, so the text cites ``docs/benchmarks.md`` instead. A decimal number of three or
more significant digits in a markdown cell must appear in the notebook's code or outputs (so
the code produces it and a change shows), unless it is a textbook reference or a closed form
listed below with its reason.

Each checker has a test on a small planted course, showing that it can fail.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest
from course_notebooks import CHAPTER_NAME, NOTEBOOK_DIR, REPOSITORY, course_notebooks

#: The textbooks the course cites, by the short names it uses for them (docs/conventions.md).
BOOKS = (
    "MR",
    "Modern Robotics",
    "Lynch",
    "SHV",
    "Spong",
    "Siciliano",
    "Craig",
    "Corke",
    "Ogata",
    "Featherstone",
    "Murray",
    "Khalil",
    "Franklin",
    "Paul",
    "Yoshikawa",
    # the books' titles, as the chapters write them in full at a first citation
    "Robot Modeling and Control",
    "Modelling, Planning and Control",
    "Introduction to Robotics",
    "Robot Dynamics Algorithms",
    "Rigid Body Dynamics Algorithms",
    "Robotic Manipulation",
    "Modern Control Engineering",
    "Feedback Control of Dynamic Systems",
)
_BOOK = re.compile(
    r"\b(?:" + "|".join(r"\s+".join(map(re.escape, book.split())) for book in BOOKS) + r")\b"
)
#: How far before a "§" or "section 8.2" the book's name may stand ("MR (2017) §8.2").
BOOK_WINDOW = 80

_NUMBERS = r"\d+(?:\s*(?:[–-]|,|\band\b|\bor\b|\bto\b)\s*\d+)*"
_CHAPTERS = re.compile(r"\b[Cc]hapters?\s+(" + _NUMBERS + r")(?![\d.]*\d)")
_CHAPTER_SECTION = re.compile(
    r"\b[Cc]hapter\s+(\d+)(?:'s|,)?\s+[Ss]ections?\s+(" + _NUMBERS + r")(?![.\d]*\d)"
)
_SECTION_OF_CHAPTER = re.compile(
    r"\b[Ss]ections?\s+(" + _NUMBERS + r")\s+of\s+[Cc]hapter\s+(\d+)(?![.\d]*\d)"
)
_SECTIONS = re.compile(r"\b[Ss]ections?\s+(\d+(?:\.\d+)*(?:\s*(?:[–-]|,|\band\b|\bor\b)\s*\d+)*)")
_PARAGRAPH_SIGN = re.compile(r"§\s*\d")
_HEADING = re.compile(r"^#{2,3}\s+(\d+)\s*(?:\.|·)\s", re.MULTILINE)


def numbers_in(text: str) -> list[int]:
    """The integers of "3", "3 and 5", "10–12", "2, 4 or 6" (ranges expanded)."""
    found: list[int] = []
    for part in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", text):
        ends = [int(end) for end in re.split(r"\s*(?:[–-]|\bto\b)\s*", part) if end.isdigit()]
        if len(ends) == 2 and ends[0] < ends[1] <= ends[0] + 20:
            found.extend(range(ends[0], ends[1] + 1))
        else:
            found.extend(ends)
    return found


def headings_of(nb: nbformat.NotebookNode) -> set[int]:
    """The numbers of a notebook's numbered section headings."""
    return {
        int(match)
        for cell in nb.cells
        if cell.cell_type == "markdown"
        for match in _HEADING.findall(cell.source)
    }


def _book_named_before(text: str, start: int) -> bool:
    return bool(_BOOK.search(text[max(0, start - BOOK_WINDOW) : start]))


def reference_problems(
    text: str, where: str, sections: dict[int, set[int]], own: set[int] | None
) -> list[str]:
    """What is wrong with the chapter and section references in ``text``.

    ``sections`` maps each chapter number to its numbered headings; ``own`` is the headings of
    the notebook the text is in (``None`` for text outside a notebook, where a bare "section K"
    cannot be resolved and is reported).
    """
    problems = []
    chapter_sections = [
        (m.span(), int(m.group(1)), numbers_in(m.group(2))) for m in _CHAPTER_SECTION.finditer(text)
    ] + [
        (m.span(), int(m.group(2)), numbers_in(m.group(1)))
        for m in _SECTION_OF_CHAPTER.finditer(text)
    ]
    covered = [span for span, _, _ in chapter_sections]
    for match in _CHAPTERS.finditer(text):
        for chapter in numbers_in(match.group(1)):
            if chapter not in sections:
                problems.append(f"{where}: {match.group(0)!r} names no chapter of the course")
    for _, chapter, wanted in chapter_sections:
        for section in wanted:
            if chapter in sections and section not in sections[chapter]:
                problems.append(
                    f"{where}: chapter {chapter} has no section {section} "
                    f"(its sections: {sorted(sections[chapter])})"
                )
    for match in _SECTIONS.finditer(text):
        if any(start <= match.start() < end for start, end in covered):
            continue
        if _book_named_before(text, match.start()):
            continue
        if "." in match.group(1):
            problems.append(
                f"{where}: {match.group(0)!r} looks like a textbook section; name the book "
                f"in front of it (for example 'MR §8.2')"
            )
            continue
        if own is None:
            problems.append(f"{where}: {match.group(0)!r} does not say which chapter")
            continue
        for section in numbers_in(match.group(1)):
            if section not in own:
                problems.append(
                    f"{where}: {match.group(0)!r}: this notebook has no section {section} "
                    f"(its sections: {sorted(own)})"
                )
    named_until = -1  # the end of the last "§" that had its book named, in this sentence
    for match in _PARAGRAPH_SIGN.finditer(text):
        between = text[named_until : match.start()] if named_until >= 0 else ""
        if _book_named_before(text, match.start()) or (
            named_until >= 0 and ". " not in between and "\n\n" not in between
        ):
            named_until = match.end()
        else:
            context = text[max(0, match.start() - 30) : match.end() + 10]
            problems.append(f"{where}: '§' without a book's name before it: {context!r}")
    return problems


def chapter_number(path: Path) -> int | None:
    match = CHAPTER_NAME.match(path.name)
    return int(match.group("number")) if match else None


def course_sections(paths: list[Path]) -> dict[int, set[int]]:
    return {
        number: headings_of(nbformat.read(path, as_version=4))
        for path in paths
        if (number := chapter_number(path)) is not None
    }


def notebook_reference_problems(path: Path, sections: dict[int, set[int]]) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    own = headings_of(nb)
    problems = []
    for index, cell in enumerate(nb.cells):
        problems += reference_problems(cell.source, f"{path.name} cell {index}", sections, own)
    return problems


def code_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a Python file (docstrings and messages), with their lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


NOTEBOOKS = course_notebooks()
SECTIONS = course_sections(NOTEBOOKS)


def test_the_course_has_its_fourteen_chapters():
    assert sorted(SECTIONS) == list(range(1, 15))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.name for path in NOTEBOOKS])
def test_every_reference_in_a_notebook_names_a_chapter_and_section_that_exist(path):
    assert notebook_reference_problems(path, SECTIONS) == []


def test_every_reference_in_robolab_names_a_chapter_and_section_that_exist():
    problems = []
    for path in sorted((REPOSITORY / "robolab").rglob("*.py")):
        for line, text in code_strings(path):
            where = f"{path.relative_to(REPOSITORY)}:{line}"
            problems += [
                problem
                for problem in reference_problems(text, where, SECTIONS, own=None)
                # Docstrings say "section" of other things (a file's section, a doc's section);
                # only the course's chapters and their sections are checked here.
                if "does not say which chapter" not in problem
            ]
    assert problems == []


PLANTED_SECTIONS = {1: {1, 2, 3}, 2: {1, 2}}


@pytest.mark.parametrize(
    "text",
    [
        "as chapter 15 shows",
        "chapters 1 and 16",
        "chapter 2, section 3 derives it",
        "section 5 of chapter 1",
        "chapter 1's section 4",
        "see section 4 above",
        "section 8.2 of the book",
        "the formula of §8.2",
        "Siciliano §3.5 covers it. The next step, which the chapter takes after a long detour "
        "through the examples, is in §3.7",
    ],
)
def test_the_reference_check_finds_a_planted_wrong_reference(text):
    assert reference_problems(text, "planted", PLANTED_SECTIONS, own={1, 2}) != []


@pytest.mark.parametrize(
    "text",
    [
        "as chapter 2 shows",
        "chapters 1–2",
        "chapter 2, section 2 derives it",
        "section 3 of chapter 1",
        "see section 2 above, and sections 1 and 2",
        "MR section 8.2",
        "the formula of MR §8.2 and SHV (1st ed.) §4.9",
        "Siciliano §3.5 (inverse differential kinematics: redundancy, singularities, and a long "
        "list of other things besides) and §3.7",
    ],
)
def test_the_reference_check_passes_a_good_reference(text):
    assert reference_problems(text, "planted", PLANTED_SECTIONS, own={1, 2}) == []


# --- typed numbers -------------------------------------------------------------------------

_TIME = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)(?:\s*(µs|μs|ns|ms)|\s+(s|seconds?|milliseconds?|microseconds?|minutes?))"
    r"(?![\w⁻])"
)
#: Words that make a time a timing of the computer rather than a time of the robot's motion.
_COMPUTE = re.compile(
    r"\b(?:takes?|took|taking|per call|per state|finish(?:es|ed)?|faster|slower|"
    r"benchmarks?|wall|compil\w*|timing|timed|run time|runs? in)\b",
    re.IGNORECASE,
)
_DECIMAL = re.compile(r"(?<![\w.^{}])(-?\d+\.\d+)(?![\w.])")
#: Textbook equation and section numbers ("eq. 3.57", "§4.9") are not quantities.
_CITATION_BEFORE = re.compile(r"(?:§|\beqs?\.|\bequations?|\b[Ss]ections?|\bFig\.|\band)\s*$")
#: How many cells on either side of a markdown cell count as "next to it".
NEARBY = 3
#: Numbers a chapter states in prose as closed forms of the text itself, each with its reason.
STATED_BY_HAND: dict[str, dict[str, str]] = {
    "02-dh-conventions.ipynb": {"0.8660": "cos 30° + cos 90°, evaluated in the sentence"},
    "04-forward-kinematics-and-workspace.ipynb": {
        "0.2104": "the Panda file's flange 0.107 m plus hand 0.1034 m (robots/panda.json)"
    },
    "09-newton-euler-and-mass-matrix.ipynb": {
        "1.219": "a link mass of robots/ur5.json (the MR course software's)",
        "0.1879": "a link mass of robots/ur5.json (the MR course software's)",
    },
    "11-trajectory-generation.ipynb": {
        "1.875": "the quintic's peak speed 15/8 of the average, a closed form of the text"
    },
    "13-model-based-control.ipynb": {
        "24.5": "(0.5 + 2) kg × 9.81 m/s² × 1 m, evaluated in the sentence"
    },
    "index.ipynb": {"-9.81": "standard gravity, a convention"},
}


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(". ", 0, start), text.rfind("\n\n", 0, start))
    ends = (text.find(". ", end), text.find("\n\n", end), len(text))
    right = min(position for position in ends if position >= 0)
    return text[left + 1 : right]


def _output_text(cell: nbformat.NotebookNode) -> str:
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text", ""))
        data = output.get("data", {})
        parts.append(data.get("text/plain", ""))
        parts.append(data.get("text/markdown", ""))
        parts.append(data.get("text/html", ""))
    return "\n".join(parts).replace("μ", "µ")


def typed_number_problems(nb: nbformat.NotebookNode, name: str) -> list[str]:
    """Timings not printed next to where they are stated, and decimals the code never makes."""
    problems = []
    everything = "\n".join(
        cell.source + "\n" + _output_text(cell) for cell in nb.cells if cell.cell_type == "code"
    )
    allowed = STATED_BY_HAND.get(name, {})
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        text = cell.source.replace("μ", "µ")
        nearby = "\n".join(
            _output_text(other)
            for other in nb.cells[max(0, index - NEARBY) : index + NEARBY + 1]
            if other.cell_type == "code"
        )
        for match in _TIME.finditer(text):
            number, unit = match.group(1), match.group(2) or match.group(3)
            is_timing = unit in {"µs", "ns"} or unit.startswith("micro")
            if not is_timing:
                is_timing = bool(_COMPUTE.search(_sentence_around(text, *match.span())))
            if is_timing and number not in nearby:
                problems.append(
                    f"{name} cell {index}: the timing {match.group(0)!r} is typed in, not printed "
                    f"by a cell next to it; print it, or cite docs/benchmarks.md"
                )
        for match in _DECIMAL.finditer(text):
            number = match.group(1)
            if len(number.lstrip("-").replace(".", "").lstrip("0")) < 3:
                continue
            if number in allowed or number.lstrip("-") in everything:
                continue
            if _CITATION_BEFORE.search(text[max(0, match.start() - 12) : match.start()]):
                continue
            if _book_named_before(text, match.start()) and re.search(
                r"(?:§|eqs?\.)\s*[\d., and]*$", text[max(0, match.start() - 30) : match.start()]
            ):
                continue
            problems.append(
                f"{name} cell {index}: the number {number} is typed in and no cell computes "
                f"or prints it; format it from the computed value, or print it"
            )
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.name for path in NOTEBOOKS])
def test_no_markdown_cell_states_a_number_that_no_cell_prints(path):
    assert typed_number_problems(nbformat.read(path, as_version=4), path.name) == []


def planted(markdown: str, printed: str, source: str = "print(x)") -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(source)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
    nb.cells = [nbformat.v4.new_markdown_cell(markdown), cell]
    return nb


@pytest.mark.parametrize(
    ("markdown", "printed"),
    [
        ("One RNEA call takes 37 µs on the UR5.", "RNEA: 12.5 µs per call"),
        ("SymPy did not finish the Puma's M in 120 s.", "gave up after 60 s"),
        ("The settling time is 0.199 s.", "t_s = 0.215 s"),
        ("The peak torque is 24.53 N·m.", "peak 24.61 N·m"),
    ],
)
def test_the_number_check_finds_a_planted_stale_number(markdown, printed):
    assert typed_number_problems(planted(markdown, printed), "planted.ipynb") != []


@pytest.mark.parametrize(
    ("markdown", "printed", "source"),
    [
        ("One RNEA call takes 37 µs on the UR5.", "RNEA: 37 µs per call", "print(x)"),
        ("The settling time is 0.199 s.", "t_s = 0.199 s", "print(x)"),
        ("Simulate 2 s with steps of 5 ms.", "", "simulate(duration=2, dt=0.005)"),
        ("The link is 0.4318 m long (MR §8.2, eq. 8.42).", "", "a2 = 0.4318"),
    ],
)
def test_the_number_check_passes_printed_numbers(markdown, printed, source):
    assert typed_number_problems(planted(markdown, printed, source), "planted.ipynb") == []


def test_every_hand_stated_number_is_still_in_its_notebook():
    for name, numbers in STATED_BY_HAND.items():
        text = (NOTEBOOK_DIR / name).read_text(encoding="utf-8")
        for number in numbers:
            assert number in text, f"{name} no longer states {number}: remove it from the list"
