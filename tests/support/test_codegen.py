"""The one step that compiles generated Python (``robolab.support.codegen``)."""

import math
import traceback

import pytest

from robolab.support.codegen import compile_function, compiled_once

SOURCE = """
def scaled(x):
    return helper(x) * FACTOR


def helper(x):
    return sqrt(x)
"""


def test_the_function_is_compiled_in_its_own_namespace_with_its_source():
    namespace = {"sqrt": math.sqrt, "FACTOR": 2.0}
    scaled = compile_function("scaled", SOURCE, namespace)
    assert scaled(9.0) == 6.0
    assert scaled.source == SOURCE
    assert set(namespace) == {"sqrt", "FACTOR"}  # the code's own names stay in its copy
    assert scaled.__globals__ is not namespace
    assert "helper" in scaled.__globals__


def test_the_code_sees_only_the_names_it_is_given():
    function = compile_function("scaled", SOURCE, {"FACTOR": 1.0})
    with pytest.raises(NameError, match="sqrt"):
        function(4.0)


def test_a_traceback_names_the_generated_code():
    function = compile_function("scaled", SOURCE, {"sqrt": math.sqrt, "FACTOR": 1.0})
    with pytest.raises(ValueError) as caught:
        function(-1.0)
    files = [frame.filename for frame in traceback.extract_tb(caught.value.__traceback__)]
    assert files[-2:] == ["<robolab generated scaled>"] * 2  # scaled, then helper
    other = compile_function("scaled", SOURCE, {}, filename="<robolab test loop (2, 'pd')>")
    assert other.__code__.co_filename == "<robolab test loop (2, 'pd')>"


def test_a_cached_function_is_written_and_compiled_once_per_key():
    cache: dict = {}
    written = []

    def write(key):
        written.append(key)
        return f"def f():\n    return {key!r}"

    first = compiled_once(cache, 1, "f", lambda: write(1))
    assert compiled_once(cache, 1, "f", lambda: write(1)) is first
    second = compiled_once(cache, "two", "f", lambda: write("two"))
    assert (first(), second()) == (1, "two")
    assert written == [1, "two"]
    assert cache == {1: first, "two": second}


def test_a_syntax_error_in_generated_code_is_not_cached():
    cache: dict = {}
    with pytest.raises(SyntaxError):
        compiled_once(cache, "bad", "f", lambda: "def f(:\n    pass")
    assert cache == {}
