"""Generated Python: the one step that turns written source text into a function.

Some of robolab's speed comes from Python source written for one case and compiled:
the DH model's symbolic results as straight-line code (:mod:`robolab.dh.numeric`), the
dynamics of one screw robot with its constants folded in
(:mod:`robolab.screw._fast.tracing`), and the time loops of the simulations and
controllers (:mod:`robolab.screw._fast.loops`). Each writes the text of one ``def``;
:func:`compile_function` does the rest, the same way for all of them:

1. compile the text under a file name that says what it is (``<robolab generated rnea>``,
   shown in a traceback from the generated code);
2. run it in a fresh namespace that holds only what the code may call (``cos``,
   ``sqrt``, ... as the caller gives them);
3. return the function it defines, with its text kept as ``function.source``.

:func:`compiled_once` is that step for callers that keep their functions in a cache: the
text is written, and compiled, only for a key not seen before.

Examples
--------
>>> import math
>>> source = '''
... def hypotenuse(a, b):
...     return sqrt(a * a + b * b)
... '''
>>> hypotenuse = compile_function("hypotenuse", source, {"sqrt": math.sqrt})
>>> hypotenuse(3.0, 4.0)
5.0
>>> hypotenuse.__code__.co_filename
'<robolab generated hypotenuse>'
>>> print(hypotenuse.source.strip())
def hypotenuse(a, b):
    return sqrt(a * a + b * b)

With a cache, the source is written (here: the lambda called) once per key:

>>> cache = {}
>>> first = compiled_once(cache, "2d", "hypotenuse", lambda: source, {"sqrt": math.sqrt})
>>> compiled_once(cache, "2d", "hypotenuse", lambda: 1 / 0) is first
True
>>> list(cache)
['2d']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, MutableMapping
from typing import Any

__all__: list[str] = []


def compile_function(
    name: str,
    source: str,
    namespace: Mapping[str, Any] | None = None,
    filename: str | None = None,
) -> Callable[..., Any]:
    """The function ``name`` that ``source`` defines, compiled and run in its own namespace.

    Parameters
    ----------
    name : str
        The name of the function the source defines (``def name(...):``).
    source : str
        Python source text; it may define helpers too, only ``name`` is returned.
    namespace : mapping, optional
        The globals the code may use (``{"cos": math.cos}``); copied, so that the code's
        own definitions do not leak into the caller's mapping.
    filename : str, optional
        The file name of the code in tracebacks; by default ``<robolab generated name>``.

    Returns
    -------
    function
        With its source text as the attribute ``source``.
    """
    scope: dict[str, Any] = dict(namespace or {})
    code = compile(source, filename or f"<robolab generated {name}>", "exec")
    exec(code, scope)  # the code was written by robolab, from numbers and symbols it checked
    function = scope[name]
    function.source = source
    return function


def compiled_once(
    cache: MutableMapping[Any, Callable[..., Any]],
    key: Hashable,
    name: str,
    write: Callable[[], str],
    namespace: Mapping[str, Any] | None = None,
    filename: str | None = None,
) -> Callable[..., Any]:
    """``cache[key]``, or else the function of the source ``write()`` returns, kept there.

    ``write`` is called only when ``key`` is new; the other arguments are those of
    :func:`compile_function`.
    """
    function = cache.get(key)
    if function is None:
        function = cache[key] = compile_function(name, write(), namespace, filename)
    return function
