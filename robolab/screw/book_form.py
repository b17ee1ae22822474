"""One function, two calling forms: a :class:`~robolab.ScrewRobot` first, or the book's arrays.

Each algorithm of the book is written once, robot first (``f(robot, q, ...)``). The book's
library (Modern Robotics, and ModernRoboticsBook.jl) passes the robot's arrays instead,
in its own order (``f(q, ..., link_frames, spatial_inertias, screw_axes)``); Julia picks
the method by the types of the arguments. Here the robot-first function is decorated
with :func:`robot_or_arrays`, given the book's form written out as a plain function
beside it: a call whose first argument is not a robot goes to that function, which puts
the arrays in a :class:`BookArrays` (standing in the robot's place) and calls the
algorithm robot first. The algorithm's helpers check the arrays where they use them,
with the names of the book's arguments in their messages.

A call with a robot costs one ``isinstance`` check more than the algorithm itself.

Examples
--------
>>> def _count_book(joint_positions, screw_axes):
...     return count(BookArrays(screw_axes=screw_axes), joint_positions)
>>> @robot_or_arrays(_count_book)
... def count(robot, joint_positions):
...     return robot.screw_axes if isinstance(robot, BookArrays) else robot.screw_axes_space
>>> count([0.0], [[0], [0], [1], [0], [0], [0]])  # the book's form: a BookArrays
[[0], [0], [1], [0], [0], [0]]
>>> count([0.0])
Traceback (most recent call last):
...
TypeError: robot must be a ScrewRobot, got list (or call count(joint_positions, screw_axes) \
with the book's arguments: missing a required argument: 'screw_axes')
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from .robot import ScrewRobot

__all__ = ["FIELDS", "BookArrays", "robot_or_arrays"]

_F = TypeVar("_F", bound=Callable[..., Any])

#: The book's arguments that describe the robot, as the book's library names them.
FIELDS = (
    "home_ee_pose",
    "screw_axes",
    "body_screw_axes",
    "link_frames",
    "spatial_inertias",
    "gravity",
)


class BookArrays:
    """The book's arrays of one call, standing in for a :class:`~robolab.ScrewRobot`.

    Holds the arguments as given (None for those the call has not got); the
    algorithms check them where they use them.

    Examples
    --------
    >>> arrays = BookArrays(screw_axes=[[0], [0], [1], [0], [0], [0]], gravity=[0, 0, -9.81])
    >>> arrays.gravity, arrays.link_frames
    ([0, 0, -9.81], None)
    """

    __slots__ = FIELDS

    def __init__(
        self,
        home_ee_pose: Any = None,
        screw_axes: Any = None,
        body_screw_axes: Any = None,
        link_frames: Any = None,
        spatial_inertias: Any = None,
        gravity: Any = None,
    ) -> None:
        self.home_ee_pose = home_ee_pose
        self.screw_axes = screw_axes
        self.body_screw_axes = body_screw_axes
        self.link_frames = link_frames
        self.spatial_inertias = spatial_inertias
        self.gravity = gravity


#: What may stand first in the robot form.
_ROBOTS = (ScrewRobot, BookArrays)


def robot_or_arrays(book: Callable[..., Any]) -> Callable[[_F], _F]:
    """Decorator: a call of the robot-first function without a robot goes to ``book``.

    ``book`` is the book's form of the same algorithm, written out: a function taking
    the book's arguments in the book's order, which calls the algorithm with a
    :class:`BookArrays` in the robot's place. The decorated function keeps its own
    name, signature and docstring, and gets the attribute ``book_form`` (``book``).
    A call that fits neither form raises ``TypeError`` saying what each expects.

    Examples
    --------
    See the module docstring.
    """
    signature = inspect.signature(book)
    positional = sum(
        p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty
        for p in signature.parameters.values()
    )
    book_call = ", ".join(
        p.name for p in signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD
    )

    def decorate(function: _F) -> _F:
        name = function.__name__

        @functools.wraps(function)
        def either_form(*args: Any, **kwargs: Any) -> Any:
            if args and isinstance(args[0], _ROBOTS):
                return function(*args, **kwargs)
            if "robot" in kwargs:
                if not isinstance(kwargs["robot"], _ROBOTS):
                    got = type(kwargs["robot"]).__name__
                    raise TypeError(f"robot must be a ScrewRobot, got {got}")
                return function(*args, **kwargs)
            if kwargs or len(args) != positional:  # the common call needs no check
                try:
                    signature.bind(*args, **kwargs)
                except TypeError as error:
                    got = type(args[0]).__name__ if args else "nothing"
                    raise TypeError(
                        f"robot must be a ScrewRobot, got {got} (or call {name}({book_call}) "
                        f"with the book's arguments: {error})"
                    ) from None
            return book(*args, **kwargs)

        either_form.book_form = book  # type: ignore[attr-defined]
        return either_form  # type: ignore[return-value]

    return decorate
