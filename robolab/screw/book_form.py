"""One function, two calling forms: a :class:`~robolab.ScrewRobot` first, or the book's arrays.

Each algorithm of the book is written once, robot first (``f(robot, q, ...)``), and
decorated with :func:`robot_or_arrays`, which also lets it be called with the argument
list of the book's library (``f(q, ..., link_frames, spatial_inertias, screw_axes)``),
dispatching on the first argument as ModernRoboticsBook.jl does by multiple dispatch.
A call in the book's form is rearranged into the robot form: the robot's arrays (home
pose, screw axes, link frames, spatial inertias and gravity) are gathered in a
:class:`BookArrays`, which stands in the robot's place; the algorithm's helpers check
them where they are used, with the messages of the book's form.

A call with a robot costs one ``isinstance`` check more than the algorithm itself; the
constants derived from the robot stay cached on the immutable robot.

Examples
--------
>>> import numpy as np
>>> @robot_or_arrays("joint_positions, screw_axes")
... def count(robot, joint_positions):
...     '''{forms}'''
...     return robot.screw_axes if isinstance(robot, BookArrays) else robot.screw_axes_space
>>> count([0.0], [[0], [0], [1], [0], [0], [0]])  # the book's form: a BookArrays
[[0], [0], [1], [0], [0], [0]]
>>> print(count.__doc__)
Call it with a robot, or with the book's arguments::
<BLANKLINE>
    count(robot, joint_positions)
    count(joint_positions, screw_axes)
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import textwrap
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


#: A docstring line holding only ``{forms}``: replaced by the two calls.
_FORMS = re.compile(r"^([ \t]*)\{forms\}[ \t]*$", re.MULTILINE)

#: What may stand first in the robot form.
_ROBOTS = (ScrewRobot, BookArrays)


def _book_signature(book: str) -> inspect.Signature:
    """``"a, b, *, c=20"`` as an :class:`inspect.Signature` (defaults are literals)."""
    arguments = ast.parse(f"def f({book}): pass").body[0].args  # type: ignore[attr-defined]
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    defaults = [inspect.Parameter.empty] * (len(arguments.args) - len(arguments.defaults))
    defaults += [ast.literal_eval(d) for d in arguments.defaults]
    parameters = [
        inspect.Parameter(a.arg, kind, default=d)
        for a, d in zip(arguments.args, defaults, strict=True)
    ]
    for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        default = inspect.Parameter.empty if d is None else ast.literal_eval(d)
        parameters.append(inspect.Parameter(a.arg, inspect.Parameter.KEYWORD_ONLY, default=default))
    return inspect.Signature(parameters)


def _routes(book: inspect.Signature, robot_form: inspect.Signature) -> dict[str, tuple[str, str]]:
    """Book parameter → (robot-form parameter, BookArrays field or "").

    ``link_frames`` goes to the field of ``robot``; ``estimated_link_frames`` to the
    field of ``estimated_robot`` (if the robot form has that parameter); any other
    name to the robot-form parameter of the same name.
    """
    routes = {}
    for name in book.parameters:
        prefix, field = "", name if name in FIELDS else ""
        for candidate in () if field else sorted(FIELDS, key=len, reverse=True):
            if name.endswith("_" + candidate):
                prefix, field = name[: -len(candidate)], candidate
                break
        target = prefix + "robot"
        if field and target in robot_form.parameters:
            routes[name] = (target, field)
        elif name in robot_form.parameters:
            routes[name] = (name, "")
        else:
            raise TypeError(f"the book's parameter {name!r} has no place in the robot form")
    return routes


def _forms(indent: str, name: str, robot_form: inspect.Signature, book: str) -> str:
    """The lines that replace ``{forms}``: both calls, each wrapped to the docstring's width."""
    robot_arguments = ", ".join(
        p.name for p in robot_form.parameters.values() if p.default is inspect.Parameter.empty
    )
    lines = [f"{indent}Call it with a robot, or with the book's arguments::", ""]
    for arguments in (robot_arguments, book):
        call = textwrap.wrap(
            f"{name}({arguments})", width=88 - len(indent) - 4, break_on_hyphens=False,
            break_long_words=False, subsequent_indent=" " * (len(name) + 1),
        )  # fmt: skip
        lines += [f"{indent}    {line}" for line in call]
    return "\n".join(lines)


def robot_or_arrays(book: str) -> Callable[[_F], _F]:
    """Decorator: let a robot-first function also take the book's argument list ``book``.

    ``book`` is the parameter list of the book's form (``"joint_positions, gravity,
    link_frames, spatial_inertias, screw_axes"``); its names of robot fields
    (:data:`FIELDS`) fill a :class:`BookArrays` passed as ``robot``, the others are
    passed by name. A first argument that is neither a robot nor a valid call of the
    book's form raises ``TypeError`` ("robot must be a ScrewRobot, got ..."). A
    ``{forms}`` line of the docstring becomes a literal block showing both calls.

    Examples
    --------
    See the module docstring.
    """
    book_arguments = _book_signature(book)

    def decorate(function: _F) -> _F:
        name = function.__name__
        robot_form = inspect.signature(function)
        # The robot form's keyword-only options (integrator, max_iterations) serve both forms.
        form = book_arguments.replace(
            parameters=[
                *book_arguments.parameters.values(),
                *(
                    p
                    for p in robot_form.parameters.values()
                    if p.kind is p.KEYWORD_ONLY and p.name not in book_arguments.parameters
                ),
            ]
        )
        routes = _routes(form, robot_form)
        names = list(form.parameters)
        positional = [p for p in form.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
        required = sum(p.default is p.empty for p in positional)
        defaults = {p.name: p.default for p in form.parameters.values() if p.default is not p.empty}

        # The common call, every positional argument given and nothing by name, for a
        # function with one robot: which argument goes where, worked out once.
        fields = [routes[p.name][1] for p in positional]
        in_robot = [(i, field) for i, field in enumerate(fields) if field]
        by_name = [(i, names[i]) for i, field in enumerate(fields) if not field]
        one_robot = all(target == "robot" for target, field in routes.values() if field)

        def robot_form_call(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            if one_robot and not kwargs and len(args) == len(positional):
                stand_in = BookArrays(**{field: args[i] for i, field in in_robot})
                return function(stand_in, **{key: args[i] for i, key in by_name})
            if not kwargs and required <= len(args) <= len(positional):
                values = defaults | dict(zip(names, args, strict=False))
            else:
                try:
                    bound = form.bind(*args, **kwargs)
                except TypeError as error:
                    got = type(args[0]).__name__ if args else "nothing"
                    raise TypeError(
                        f"robot must be a ScrewRobot, got {got} (or call {name}({book}) "
                        f"with the book's arguments: {error})"
                    ) from None
                values = defaults | bound.arguments
            stand_ins: dict[str, dict[str, Any]] = {"robot": {}}
            named: dict[str, Any] = {}
            for key, value in values.items():
                target, field = routes[key]
                if field:
                    stand_ins.setdefault(target, {})[field] = value
                else:
                    named[key] = value
            main = stand_ins.pop("robot")
            for target, fields in stand_ins.items():  # e.g. estimated_robot: the rest from robot
                named[target] = BookArrays(
                    **(main | {k: v for k, v in fields.items() if v is not None})
                )
            return function(BookArrays(**main), **named)

        @functools.wraps(function)
        def either_form(*args: Any, **kwargs: Any) -> Any:
            if args and isinstance(args[0], _ROBOTS):
                return function(*args, **kwargs)
            if "robot" in kwargs:
                if not isinstance(kwargs["robot"], _ROBOTS):
                    got = type(kwargs["robot"]).__name__
                    raise TypeError(f"robot must be a ScrewRobot, got {got}")
                return function(*args, **kwargs)
            return robot_form_call(args, kwargs)

        if either_form.__doc__:
            doc = either_form.__doc__

            def filled(match: re.Match[str]) -> str:
                above = doc[: match.start()].rstrip(" \t")  # a paragraph ends above?
                blank = "" if above.endswith("\n\n") or not above else "\n"
                return blank + _forms(match.group(1), name, robot_form, book)

            either_form.__doc__ = _FORMS.sub(filled, doc)
        either_form.book_form = form  # type: ignore[attr-defined]
        return either_form  # type: ignore[return-value]

    return decorate
