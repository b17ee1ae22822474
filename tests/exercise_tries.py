"""Trying a chapter's real exercise with a wrong answer in a test: the first try must name the
slip and must not show the expected answer (as ``tests/chapters/test_chapter01.py`` and
``tests/chapters/test_chapter02.py`` do with each chapter's usual slips)."""

from __future__ import annotations

import re

import numpy as np


def shows_expected(message: str, expected: object) -> bool:
    """Whether a message prints one of the expected answer's entries (to 3 decimals)."""
    printed = [abs(float(x)) for x in re.findall(r"-?\d+\.\d+", message)]
    entries = [abs(e) for e in np.ravel(np.asarray(expected, dtype=float)) if abs(e) > 1e-3]
    return any(abs(p - e) < 5e-4 for p in printed for e in entries)


def first_try(exercise, answer: object, expected: object, *words: str) -> str:
    """The first wrong try's message: it names the slip (``words``) and shows no expected entry."""
    result = exercise.check(answer)
    assert not result.correct
    message = str(result)
    for word in words:
        assert word in message, message
    assert not shows_expected(message, expected), message
    assert "show_expected" not in message
    return message


def declared_slips_are_named(exercise, expected=None) -> None:
    """Each declared slip, fed as the answer, is told its own message and not the expected value."""
    assert len(exercise._slips) >= 1 and len(exercise.hints) >= 2
    assert "Hint" not in str(exercise.check(None))
    for message, wrong in exercise._slips.items():
        tried = exercise.with_seed(exercise.seed)
        result = tried.check(wrong(**tried.parameters))
        assert not result.correct and message in result.message, (message, result.message)
        if expected is not None:
            assert not shows_expected(result.message.split(" Hint:")[0], expected), result.message
