"""Docstring examples shared by several functions, written once.

A docstring names a shared example by a line holding only ``{name}`` in its
Examples section; the decorator :func:`shared_examples` replaces that line by
the example's lines, indented like the placeholder. ``help()`` and the
doctests therefore show the whole example in every function that uses it.

Examples
--------
>>> @shared_examples
... def f():
...     '''Examples
...     --------
...     {planar_2r_robot}
...     >>> arm.n_joints
...     2
...     '''
>>> "    >>> arm = ScrewRobot(" in f.__doc__
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

__all__ = ["EXAMPLES", "shared_examples"]

_F = TypeVar("_F", bound=Callable[..., object])

#: The shared examples, by name: doctest lines that define the data the examples use.
EXAMPLES = {
    # The book's three-link example (the first three links of its UR5) with the arrays of
    # its library: link frames M_{i-1,i}, spatial inertias G_i and space screw axes S_i.
    "book_three_link_arrays": """\
>>> import numpy as np
>>> def transform(R, p):
...     T = np.eye(4); T[:3, :3] = R; T[:3, 3] = p; return T
>>> Ry = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]
>>> link_frames = [transform(np.eye(3), [0, 0, 0.089159]),
...                transform(Ry, [0.28, 0.13585, 0]),
...                transform(np.eye(3), [0, -0.1197, 0.395]),
...                transform(np.eye(3), [0, 0, 0.14225])]
>>> spatial_inertias = [np.diag([0.010267, 0.010267, 0.00666, 3.7, 3.7, 3.7]),
...                     np.diag([0.22689, 0.22689, 0.0151074, 8.393, 8.393, 8.393]),
...                     np.diag([0.0494433, 0.0494433, 0.004095, 2.275, 2.275, 2.275])]
>>> screw_axes = np.array([[1, 0, 1, 0, 1, 0], [0, 1, 0, -0.089, 0, 0],
...                        [0, 1, 0, -0.089, 0, 0.425]]).T""",
    # A planar 2R arm with the arrays of the book's library: unit links along x, 1 kg point
    # masses at the link tips (their centre-of-mass frames), joint axes along z. The link
    # frames are [x, x, np.eye(4)], the spatial inertias G and the screw axes S.
    "planar_2r_arrays": """\
>>> import numpy as np
>>> x = np.eye(4); x[0, 3] = 1.0
>>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
>>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2""",
    # The same planar 2R arm as a ScrewRobot, with gravity along -y.
    "planar_2r_robot": """\
>>> import numpy as np
>>> from robolab import ScrewRobot
>>> x = np.eye(4); x[0, 3] = 1.0
>>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
...                  gravity=[0, -9.81, 0])""",
}

_PLACEHOLDER = re.compile(r"^([ \t]*)\{(\w+)\}[ \t]*$", re.MULTILINE)


def _expand(match: re.Match[str]) -> str:
    indent, name = match.groups()
    if name not in EXAMPLES:
        return match.group(0)
    return "\n".join(indent + line for line in EXAMPLES[name].splitlines())


def shared_examples(function: _F) -> _F:
    """Decorator: replace each ``{name}`` line of the docstring by the example ``name``.

    A docstring without placeholders (or none at all, under ``python -OO``)
    is left as it is.
    """
    if function.__doc__:
        function.__doc__ = _PLACEHOLDER.sub(_expand, function.__doc__)
    return function
