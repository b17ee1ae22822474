"""Denavit–Hartenberg tables: reading the rows, finding the joint variables, display.

A row is ``(a, alpha, d, theta[, joint_type])`` as in Moro; which link each
entry belongs to depends on the convention (``docs/conventions.md``):

==========  ===============================  ==================================
convention  row i holds                      link transform T_{i-1,i}
==========  ===============================  ==================================
standard    a_i, α_i, d_i, θ_i               Rz(θ_i) Tz(d_i) Tx(a_i) Rx(α_i)
modified    a_{i-1}, α_{i-1}, d_i, θ_i       Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)
==========  ===============================  ==================================

The joint variable of a revolute joint must be in θ and that of a prismatic
joint in d, as the variable plus a constant offset (``q2 + pi/2``). It is a
function of time ``q_i(t)`` (see :mod:`robolab.symbols`); a plain symbol is
accepted as well and becomes the function of time of the same name, with a
:class:`PlainSymbolWarning` (once per robot), since the results then hold
``q(t)``, not the symbol: ``robot.T.subs(q, 0)`` would change nothing.

One symbol, one meaning: a joint variable may appear nowhere else in the
table, not in another column of its row (``(l1, 0, 0, l1)``) nor in another
row, and no other symbol may carry its name; the error names both places.
Moro silently freezes a joint whose variable is in the wrong column; here
that is an error:

>>> from robolab.symbols import q1, l1
>>> read_rows([(l1, 0, q1, 0)], "standard")
Traceback (most recent call last):
...
ValueError: row 1: joint 1 is revolute ('r'), so its variable must be in theta (column 4),...
but d = q₁ contains q₁ (for a prismatic joint add 'p' to the row)

Angles are radians. A numeric α, or a numeric constant part of θ, larger than
a full turn (|value| > 2π) is almost always an angle in degrees, so it gives a
``UserWarning`` naming the row and the field and suggesting ``np.radians`` or
an exact multiple of ``sympy.pi`` (exact multiples of π, such as
``3 * sympy.pi``, are clearly radians and pass):

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     _ = read_rows([(l1, 90, 0, q1)], "standard")
>>> print(caught[0].message)
row 1, alpha: alpha = 90 is more than a full turn (2π); DH angles are in radians, so this looks
like degrees. For 90° write np.radians(90) or sympy.pi/2
"""

from __future__ import annotations

import html
import math
import warnings
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from ..support.arguments import short_traceback, with_short_tracebacks
from . import symbols as predefined
from .parameters import as_sympy_scalar, textbook_text

__all__ = ["CONVENTIONS", "DHRow", "DHTable", "PlainSymbolWarning", "read_rows"]

#: The two DH conventions: their name, who uses them and the link transform.
CONVENTIONS = {
    "standard": (
        "standard DH (Spong, Corke, Moro)",
        r"T_{i-1,i} = R_z(\theta_i)\,T_z(d_i)\,T_x(a_i)\,R_x(\alpha_i)",
        "T_{i-1,i} = Rz(θ_i) Tz(d_i) Tx(a_i) Rx(α_i)",
        (r"a_i", r"\alpha_i", r"d_i", r"\theta_i"),
        ("a_i", "α_i", "d_i", "θ_i"),
    ),
    "modified": (
        "modified DH (Craig)",
        r"T_{i-1,i} = R_x(\alpha_{i-1})\,T_x(a_{i-1})\,R_z(\theta_i)\,T_z(d_i)",
        "T_{i-1,i} = Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)",
        (r"a_{i-1}", r"\alpha_{i-1}", r"d_i", r"\theta_i"),
        ("a_{i-1}", "α_{i-1}", "d_i", "θ_i"),
    ),
}
_FIELDS = ("a", "alpha", "d", "theta")
_JOINT_TYPES = {"r": "revolute", "p": "prismatic"}


class PlainSymbolWarning(UserWarning):
    """A plain SymPy ``Symbol`` was given as a joint variable and made a function of time.

    The robot's results then contain ``q(t)``, not the symbol ``q``, so
    ``expr.subs(q, 0)`` silently changes nothing; substitute ``robot.q(i)``,
    or use the joint variables of :mod:`robolab.symbols` (``q1`` … ``q7``,
    functions of time already). Given once per robot, naming every such row.

    Examples
    --------
    >>> import sympy as sp, warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = read_rows([(1, 0, 0, sp.Symbol("q"))], "standard")
    >>> caught[0].category.__name__
    'PlainSymbolWarning'
    """


@dataclass(frozen=True)
class DHRow:
    """One row of a DH table, checked.

    Attributes
    ----------
    a, alpha, d, theta : sympy.Expr
        The four entries (in the convention of the table).
    joint_type : str
        ``"r"`` (revolute) or ``"p"`` (prismatic).
    variable : sympy.Expr
        The joint variable ``q_i(t)``, in ``theta`` (revolute) or ``d`` (prismatic).
    """

    a: sp.Expr
    alpha: sp.Expr
    d: sp.Expr
    theta: sp.Expr
    joint_type: str
    variable: sp.Expr

    @property
    def entries(self) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
        """``(a, alpha, d, theta)``."""
        return (self.a, self.alpha, self.d, self.theta)


def _time_functions(expr: sp.Expr) -> set[sp.Expr]:
    return {f for f in expr.atoms(AppliedUndef) if len(f.args) == 1 and f.args[0].is_Symbol}


def read_rows(rows: Sequence[Any], convention: str) -> tuple[list[DHRow], sp.Symbol]:
    """Check the DH rows and find each joint variable.

    Parameters
    ----------
    rows : sequence of tuples ``(a, alpha, d, theta[, joint_type])``
    convention : {"standard", "modified"}

    Returns
    -------
    rows : list of DHRow
    time : sympy.Symbol
        The time symbol of the joint variables (``robolab.symbols.t`` unless the
        rows use functions of another symbol).

    Examples
    --------
    >>> import sympy as sp
    >>> from robolab.symbols import q1, q2, l1
    >>> checked, time = read_rows([(l1, 0, 0, q1 + sp.pi / 2), (0, 0, q2, 0, "p")], "standard")
    >>> [(row.joint_type, row.variable) for row in checked]
    [('r', q_1(t)), ('p', q_2(t))]
    """
    if convention not in CONVENTIONS:
        raise short_traceback(
            ValueError(f"convention: expected 'standard' or 'modified', got {convention!r}")
        )
    if len(rows) == 1 and _is_list_of_rows(rows[0]):
        rows = list(rows[0])  # DHRobot([row1, row2, ...]) as well as DHRobot(row1, row2, ...)
    if len(rows) == 0:
        raise short_traceback(
            ValueError("a DH robot needs at least one row (a, alpha, d, theta[, joint_type])")
        )
    parsed = []
    for number, row in enumerate(rows, start=1):
        parsed.append(_read_row(number, row))
    times = {f.args[0] for entries, _ in parsed for e in entries for f in _time_functions(e)}
    if len(times) > 1:
        raise short_traceback(
            ValueError(
                "the joint variables must all be functions of the same time symbol, got "
                f"functions of {', '.join(sorted(str(t) for t in times))}"
            )
        )
    time = times.pop() if times else predefined.t
    _check_symbol_roles(parsed, time)
    checked: list[DHRow] = []
    owners: dict[sp.Expr, int] = {}
    made: list[str] = []
    for number, (entries, joint_type) in enumerate(parsed, start=1):
        row = _find_variable(number, entries, joint_type, time)
        if row.variable in owners:
            raise short_traceback(
                ValueError(
                    f"row {number}: the joint variable {textbook_text(row.variable)} is already "
                    f"the variable of joint {owners[row.variable]}; each joint needs its own "
                    "variable"
                )
            )
        owners[row.variable] = number
        if not _time_functions(entries[_variable_column(joint_type)]):
            name = row.variable.func.__name__
            made.append(
                f"row {number}, {_FIELDS[_variable_column(joint_type)]}: the plain symbol {name} "
                f"is now the joint variable {name}(t) (use robot.q({number}))"
            )
        _warn_degrees(number, row)
        checked.append(row)
    if made:
        warnings.warn(
            "; ".join(made) + ". Joint variables are functions of time (so that velocities are "
            "never lost), and this robot's results contain them, not the plain symbols: "
            "expr.subs(symbol, value) would change nothing; substitute robot.q(i) instead, or "
            "write the rows with robolab.symbols.q1, q2, … (functions of time already)",
            PlainSymbolWarning,
            stacklevel=5,  # the user's DHRobot(...): __init__, DHModel.new, DHChain.read, here
        )
    return checked, time


def _variable_column(joint_type: str) -> int:
    return 3 if joint_type == "r" else 2


@with_short_tracebacks  # a slip in a row: one line in IPython
def _check_symbol_roles(parsed: list[tuple[list[sp.Expr], str]], time: sp.Symbol) -> None:
    """One symbol, one meaning: a joint variable appears only in its own column.

    The joint variable of each row is the function of time in its θ (or d)
    column, or, if there is none, the only symbol there (a plain symbol, made a
    function of time later). It must not appear in another place of the table,
    and no other symbol may have its name (``Symbol("q_1")`` beside ``q_1(t)``).
    Rows whose column names several candidates are left to :func:`_find_variable`.
    """
    roles = []  # (row, column, variable, its name, plain symbol?)
    for number, (entries, joint_type) in enumerate(parsed, start=1):
        column = _variable_column(joint_type)
        functions = _time_functions(entries[column])
        if functions:
            roles += [(number, column, f, f.func.__name__, False) for f in functions]
        else:
            symbols = entries[column].free_symbols
            if len(symbols) == 1:
                symbol = next(iter(symbols))
                roles.append((number, column, symbol, symbol.name, True))
    counts: dict[int, int] = {}
    for number, *_ in roles:
        counts[number] = counts.get(number, 0) + 1
    # the variables of rows with exactly one: another row's variable is an error there
    variables = {(number, variable) for number, _, variable, _, _ in roles if counts[number] == 1}
    for number, column, variable, name, plain in roles:
        owner = f"row {number}, {_FIELDS[column]}"
        for other, (entries, joint_type) in enumerate(parsed, start=1):
            for index, value in enumerate(entries):
                if (other, index) == (number, column):
                    continue
                place = f"row {other}, {_FIELDS[index]} ({_FIELDS[index]} = {textbook_text(value)})"
                own_column = index == _variable_column(joint_type)
                found = value.free_symbols if plain else _time_functions(value)
                if variable in found and not (own_column and (other, variable) in variables):
                    # (the same variable for two joints is _find_variable's error)
                    raise ValueError(
                        f"{textbook_text(variable)} is the joint variable of joint {number} "
                        f"({owner}) and is also used in {place}: one symbol, one meaning. "
                        "Give the constant a symbol of its own (robolab.symbols.l1, d1, …) "
                        f"and the joint its variable (robolab.symbols.q{number})"
                    )
                for symbol in value.free_symbols - {variable, time}:
                    if isinstance(symbol, sp.Symbol) and symbol.name == name:
                        raise ValueError(
                            f"the symbol {symbol.name} in {place} has the name of the joint "
                            f"variable {textbook_text(variable)} of joint {number} ({owner}) "
                            "but is another SymPy object: one name, one meaning. Rename the "
                            "constant, or use the joint variable itself"
                        )


#: A numeric angle larger than this (in absolute value) is taken for degrees and warned about.
FULL_TURN = 2 * math.pi


def _warn_degrees(number: int, row: DHRow) -> None:
    """Warn about a numeric α or constant θ part above a full turn: almost always degrees.

    Exact multiples of π (``3 * sympy.pi``) are clearly radians and pass.
    """
    theta = row.theta - row.variable if row.joint_type == "r" else row.theta
    for field, value in (("alpha", row.alpha), ("theta", sp.expand(theta))):
        if not value.is_number or abs(float(value)) <= FULL_TURN + 1e-9:
            continue
        if (value / sp.pi).is_rational:
            continue
        number_text = _compact(value)
        try:
            exact = str(sp.pi * sp.Rational(number_text) / 180).replace("pi", "sympy.pi")
        except (TypeError, ValueError):
            exact = f"sympy.pi * {number_text} / 180"
        part = "the constant part of theta" if field == "theta" and row.joint_type == "r" else field
        warnings.warn(
            f"row {number}, {field}: {part} = {number_text} is more than a full turn (2π); "
            f"DH angles are in radians, so this looks like degrees. For {number_text}° write "
            f"np.radians({number_text}) or {exact}",
            UserWarning,
            stacklevel=6,  # the user's DHRobot(...): __init__, DHModel.new, DHChain.read, …
        )


def _is_list_of_rows(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) > 0
        and all(isinstance(row, list | tuple) for row in value)
    )


@with_short_tracebacks  # a slip in a row: one line in IPython
def _read_row(number: int, row: Any) -> tuple[list[sp.Expr], str]:
    if isinstance(row, str | bytes | Mapping | AbstractSet) or (
        not isinstance(row, Sequence | sp.MatrixBase) and not hasattr(row, "__len__")
    ):
        raise TypeError(
            f"row {number}: expected a tuple (a, alpha, d, theta[, joint_type]), got "
            f"{type(row).__name__} {row!r}"
        )
    row = list(row)
    if len(row) not in (4, 5):
        raise ValueError(
            f"row {number}: expected 4 or 5 entries (a, alpha, d, theta[, joint_type]), "
            f"got {len(row)}: {tuple(row)!r}"
        )
    joint_type = "r"
    if len(row) == 5:
        kind = row[4]
        joint_type = kind.strip().lower() if isinstance(kind, str) else kind
        if joint_type not in _JOINT_TYPES:
            raise ValueError(
                f"row {number}, joint type: expected 'r' (revolute) or 'p' (prismatic), "
                f"got {kind!r}"
            )
    entries = [
        as_sympy_scalar(value, f"row {number}, {field}", angle=field in ("alpha", "theta"))
        for value, field in zip(row[:4], _FIELDS, strict=True)
    ]
    return entries, joint_type


@with_short_tracebacks  # a slip in a row: one line in IPython
def _find_variable(number: int, entries: list[sp.Expr], joint_type: str, time: sp.Symbol) -> DHRow:
    column = 3 if joint_type == "r" else 2
    field = _FIELDS[column]
    kind = _JOINT_TYPES[joint_type]
    for index, value in enumerate(entries):
        functions = _time_functions(value) | value.atoms(sp.Derivative)
        if index != column and functions:
            found = ", ".join(sorted(textbook_text(f) for f in functions))
            shown = textbook_text(value)
            hint = {
                2: " (for a prismatic joint add 'p' to the row)",
                3: " (for a revolute joint give 'r' or no joint type)",
            }.get(index, "")
            raise ValueError(
                f"row {number}: joint {number} is {kind} ('{joint_type}'), so its variable must be "
                f"in {field} (column {column + 1}), but {_FIELDS[index]} = {shown} contains "
                f"{found}{hint}"
            )
    value = entries[column]
    functions = _time_functions(value)
    if value.atoms(sp.Derivative):
        raise ValueError(
            f"row {number}, {field}: expected a joint variable, got a derivative in "
            f"{textbook_text(value)}"
        )
    if not functions:
        candidates = value.free_symbols
        if len(candidates) != 1:
            problem = "has no joint variable" if not candidates else "has several symbols"
            raise ValueError(
                f"row {number}: joint {number} is {kind} ('{joint_type}'), so its variable must be "
                f"in {field} (column {column + 1}), but {field} = {textbook_text(value)} "
                f"{problem}; write the joint variable as a function of time, e.g. "
                f"robolab.symbols.q{number}"
            )
        symbol = candidates.pop()
        variable = sp.Function(symbol.name)(time)
        entries = [entry.xreplace({symbol: variable}) for entry in entries]
        value = entries[column]
    else:
        if len(functions) > 1:
            found = ", ".join(sorted(textbook_text(f) for f in functions))
            raise ValueError(
                f"row {number}, {field}: expected one joint variable, got {found} in "
                f"{textbook_text(value)}"
            )
        variable = functions.pop()
    offset = sp.expand(value - variable)
    if offset.has(variable):
        raise ValueError(
            f"row {number}, {field}: expected the joint variable plus a constant offset "
            f"(like {textbook_text(variable)} + pi/2), got {textbook_text(value)}"
        )
    return DHRow(*entries, joint_type=joint_type, variable=variable)


def _compact(value: Any) -> str:
    """Text of a SymPy value with short floats: ``0.67183``, not ``0.671830000000000``.

    Examples
    --------
    >>> from robolab.symbols import q1
    >>> _compact(sp.Float(0.67183) + q1)
    'q_1(t) + 0.67183'
    """
    return sp.sstr(value, full_prec=False)


class DHTable:
    """A DH table that displays itself, with its convention named.

    Parameters
    ----------
    rows : list of DHRow
    convention : {"standard", "modified"}
    tool : sympy.Matrix, optional
        The constant transform T_{n,ee} after the last frame, shown under the
        table when it is not the identity.

    Examples
    --------
    >>> from robolab.symbols import q1, q2, l1, l2
    >>> rows, _ = read_rows([(l1, 0, 0, q1), (l2, 0, 0, q2)], "standard")
    >>> print(DHTable(rows, "standard"))
    standard DH (Spong, Corke, Moro): T_{i-1,i} = Rz(θ_i) Tz(d_i) Tx(a_i) Rx(α_i)
    i | a_i | α_i | d_i | θ_i | joint
    1 | l_1 | 0   | 0   | q_1 | revolute
    2 | l_2 | 0   | 0   | q_2 | revolute
    """

    def __init__(self, rows: Sequence[DHRow], convention: str, tool: sp.MatrixBase | None = None):
        self.rows = list(rows)
        self.convention = convention
        self.tool = tool

    def to_matrix(self) -> sp.Matrix:
        """Return the n×4 matrix of the entries (a, alpha, d, theta), one row per joint."""
        return sp.Matrix([list(row.entries) for row in self.rows])

    def _display(self, expr: sp.Expr) -> sp.Expr:
        """Show q_i(t) as q_i: the table is about geometry, not time."""
        return expr.xreplace(
            {row.variable: sp.Symbol(row.variable.func.__name__) for row in self.rows}
        )

    def _has_tool(self) -> bool:
        return self.tool is not None and self.tool != sp.eye(4)

    def __str__(self) -> str:
        name, _, formula, _, headers = CONVENTIONS[self.convention]
        cells = [["i", *headers, "joint"]]
        for i, row in enumerate(self.rows, start=1):
            cells.append(
                [
                    str(i),
                    *[_compact(self._display(e)) for e in row.entries],
                    _JOINT_TYPES[row.joint_type],
                ]
            )
        widths = [max(len(line[c]) for line in cells) for c in range(len(cells[0]))]
        lines = [f"{name}: {formula}"]
        lines += [
            " | ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
            for line in cells
        ]
        if self._has_tool():
            lines.append(f"tool T_n,ee = {_compact(self.tool.tolist())}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _latex_body(self) -> str:
        name, formula, _, headers, _ = CONVENTIONS[self.convention]
        head = " & ".join(["i", *headers, r"\text{joint}"])
        lines = []
        for i, row in enumerate(self.rows, start=1):
            entries = [sp.latex(self._display(e)) for e in row.entries]
            lines.append(
                " & ".join([str(i), *entries, rf"\text{{{_JOINT_TYPES[row.joint_type]}}}"])
            )
        table = (
            r"\begin{array}{c|cccc|c}"
            + head
            + r" \\ \hline "
            + r" \\ ".join(lines)
            + r"\end{array}"
        )
        caption = rf"\text{{{name}}}:\ {formula}"
        tool = rf"\quad T_{{n,ee}} = {sp.latex(self.tool)}" if self._has_tool() else ""
        return rf"\begin{{array}}{{c}}{caption} \\ {table}{tool}\end{{array}}"

    def _repr_latex_(self) -> str:
        return f"$${self._latex_body()}$$"

    def _repr_html_(self) -> str:
        name, formula, _, headers, _ = CONVENTIONS[self.convention]
        head = "".join(f"<th>${h}$</th>" for h in ["i", *headers]) + "<th>joint</th>"
        body = []
        for i, row in enumerate(self.rows, start=1):
            cells = "".join(f"<td>${sp.latex(self._display(e))}$</td>" for e in row.entries)
            body.append(f"<tr><td>{i}</td>{cells}<td>{_JOINT_TYPES[row.joint_type]}</td></tr>")
        tool = ""
        if self._has_tool():
            tool = f"<p>tool $T_{{n,ee}} = {sp.latex(self.tool)}$</p>"
        return (
            f"<div><p><b>{html.escape(name)}</b>: ${formula}$</p>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{tool}</div>"
        )
