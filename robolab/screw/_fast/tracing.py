"""Writing straight-line Python: scalars traced with their constants folded, and compiling.

The helpers of :mod:`robolab.screw._fast.compiled`. While an algorithm is traced, a
scalar is either a number known when the code is written (a float) or ``(coefficient,
name)``, a variable of the generated code times a constant. Sums of products are folded:
a product with a zero factor disappears, a factor ±1 costs no multiplication, equal
products are merged, and each sum left becomes one line ``tN = ...`` of the function.
Vectors and 3×3 matrices are lists of such scalars; :func:`cholesky_solve` writes out
the factorisation of a small symmetric positive definite matrix.

Examples
--------
>>> writer = Writer()
>>> x, y = (1.0, "x"), (1.0, "y")
>>> combine(writer, [[(2.0, (x, y)), (0.0, (x,))], [(1.0, (x,)), (-1.0, (3.0,))]])
[(1.0, 't1'), (1.0, 't2')]
>>> writer.lines
['    t1 = 2.0*x*y', '    t2 = x - 3.0']
>>> f = compile_source("f", ["x", "y"], writer, "t1 + t2")
>>> f(1.0, 2.0)
2.0
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...support.codegen import compile_function

__all__: list[str] = []

#: A scalar while tracing: a number known when the code is written, or (coefficient, name).
Scalar = float | tuple[float, str]
#: A sum of products: (coefficient, names multiplied).
Term = tuple[float, tuple[str, ...]]


#: A Cholesky pivot d with d² at most this fraction of the largest diagonal entry is zero.
_SINGULAR_PIVOT = 1e-12


# --------------------------------------------------------------------------- the code writer


class Writer:
    """Collects the lines of one generated function; folds constants as it goes."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._count = 0
        self._known: dict[str, str] = {}  # the text of a sum → the name already holding it

    def name(self, prefix: str = "t") -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def line(self, text: str) -> None:
        self.lines.append("    " + text)

    def emit(self, terms: list[Term], constant: float = 0.0) -> Scalar:
        """A scalar for Σ coefficient·Π names + constant: a number, a scaled name, or a new line."""
        merged: dict[tuple[str, ...], float] = {}
        for coefficient, names in terms:
            if coefficient != 0.0:
                key = tuple(sorted(names))
                merged[key] = merged.get(key, 0.0) + coefficient
        live = [(c, names) for names, c in merged.items() if c != 0.0]
        live.sort(key=lambda term: term[1])  # one order for equal sums (found again below)
        if not live:
            return constant
        if len(live) == 1 and constant == 0.0 and len(live[0][1]) == 1:
            return (live[0][0], live[0][1][0])
        parts = []
        for coefficient, names in live:
            product = "*".join(names)
            if coefficient == 1.0:
                parts.append(f"+ {product}")
            elif coefficient == -1.0:
                parts.append(f"- {product}")
            elif coefficient < 0.0:
                parts.append(f"- {-coefficient!r}*{product}")
            else:
                parts.append(f"+ {coefficient!r}*{product}")
        if constant != 0.0:
            parts.append(f"+ {constant!r}" if constant > 0 else f"- {-constant!r}")
        text = " ".join(parts)
        text = text[2:] if text.startswith("+ ") else "-" + text[2:]
        target = self._known.get(text)
        if target is None:  # a new sum (an equal one is reused: common subexpressions)
            target = self._known[text] = self.name()
            self.line(f"{target} = {text}")
        return (1.0, target)

    def value(self, scalar: Scalar) -> str:
        """Source text of a scalar (for returning it)."""
        if isinstance(scalar, tuple):
            coefficient, name = scalar
            return name if coefficient == 1.0 else f"{coefficient!r}*{name}"
        return repr(float(scalar))


def _product(*factors: Scalar) -> tuple[float, tuple[str, ...], float]:
    """(coefficient, names, constant part): a product of scalars as one term."""
    coefficient = 1.0
    names: list[str] = []
    for factor in factors:
        if isinstance(factor, tuple):
            coefficient *= factor[0]
            names.append(factor[1])
        else:
            coefficient *= float(factor)
    return coefficient, tuple(names), 0.0


class _Sum:
    """A sum being built: terms with names and a constant part."""

    __slots__ = ("constant", "terms")

    def __init__(self) -> None:
        self.terms: list[Term] = []
        self.constant = 0.0

    def add(self, *factors: Scalar, sign: float = 1.0) -> _Sum:
        coefficient, names, _ = _product(*factors)
        if coefficient == 0.0:
            return self
        if names:
            self.terms.append((sign * coefficient, names))
        else:
            self.constant += sign * coefficient
        return self


def combine(
    writer: Writer, pieces: Sequence[Sequence[tuple[float, Sequence[Scalar]]]]
) -> list[Scalar]:
    """Emit one scalar per component: each component is a list of (sign, factors) products."""
    out: list[Scalar] = []
    for component in pieces:
        total = _Sum()
        for sign, factors in component:
            total.add(*factors, sign=sign)
        out.append(writer.emit(total.terms, total.constant))
    return out


Vector = list[Scalar]
Matrix = list[list[Scalar]]
Products = list[list[tuple[float, Sequence[Scalar]]]]


def rotate(R: Matrix, x: Sequence[Scalar]) -> Products:
    """R x as products, component by component."""
    return [[(1.0, (R[i][j], x[j])) for j in range(3)] for i in range(3)]


def _rotate_transpose(R: Matrix, x: Sequence[Scalar]) -> Products:
    return [[(1.0, (R[j][i], x[j])) for j in range(3)] for i in range(3)]


def cross_product(a: Sequence[Scalar], b: Sequence[Scalar]) -> Products:
    return [
        [(1.0, (a[1], b[2])), (-1.0, (a[2], b[1]))],
        [(1.0, (a[2], b[0])), (-1.0, (a[0], b[2]))],
        [(1.0, (a[0], b[1])), (-1.0, (a[1], b[0]))],
    ]


def add_terms(*parts: Products) -> Products:
    return [[p for part in parts for p in part[i]] for i in range(3)]


def minus(part: Products) -> Products:
    return [[(-sign, factors) for sign, factors in component] for component in part]


def twist_by(writer: Writer, R: Matrix, p: Sequence[Scalar], V: Vector) -> Vector:
    """[Ad_T] V for T = (R, p): ω' = R ω, v' = p × ω' + R v."""
    omega = combine(writer, rotate(R, V[:3]))
    v = combine(writer, add_terms(cross_product(p, omega), rotate(R, V[3:])))
    return omega + v


def wrench_by_transpose(writer: Writer, R: Matrix, p: Sequence[Scalar], F: Vector) -> Vector:
    """[Ad_T]ᵀ F for T = (R, p): m' = Rᵀ (m - p × f), f' = Rᵀ f."""
    own: Products = [[(1.0, (F[i],))] for i in range(3)]
    moment = combine(writer, add_terms(own, minus(cross_product(p, F[3:]))))
    return combine(writer, _rotate_transpose(R, moment)) + combine(
        writer, _rotate_transpose(R, F[3:])
    )


def constant_matrix(R: np.ndarray) -> Matrix:
    return [[float(R[i, j]) for j in range(3)] for i in range(3)]


def constant_vector(p: np.ndarray) -> Vector:
    return [float(x) for x in p]


def neg(x: Scalar) -> Scalar:
    return (-x[0], x[1]) if isinstance(x, tuple) else -float(x)


def argument_names(n: int, names: Sequence[str]) -> list[str]:
    return [f"{name}{i}" for name in names for i in range(n)]


_ASSIGNMENT = re.compile(r"^\s+(\w+) = (.*)$")
_NAME = re.compile(r"[A-Za-z_]\w*")


def _live_lines(lines: list[str], result: str) -> list[str]:
    """The lines that the result depends on (dead-code elimination, from the end).

    An assignment whose target nothing later reads is dropped (e.g. the components of a
    wrench that no joint torque needs); other lines (the pivot checks) are kept.
    """
    live = set(_NAME.findall(result))
    kept: list[str] = []
    for line in reversed(lines):
        match = _ASSIGNMENT.match(line)
        if match is not None and match.group(1) not in live:
            continue
        live.update(_NAME.findall(line if match is None else match.group(2)))
        kept.append(line)
    return kept[::-1]


_TEMPORARY = re.compile(r"^    (t\d+) = (.*)$")


def _inlined(lines: list[str], result: str) -> tuple[list[str], str]:
    """Sums read exactly once written into the line that reads them, in parentheses.

    The same operations in the same order (so the same numbers), fewer stores and loads
    of local variables.
    """
    uses: dict[str, int] = {}
    for text in [*lines, result]:
        match = _ASSIGNMENT.match(text)
        for word in _NAME.findall(text if match is None else match.group(2)):
            uses[word] = uses.get(word, 0) + 1
    pending: dict[str, str] = {}

    def substitute(text: str) -> str:
        return _NAME.sub(
            lambda m: f"({pending.pop(m.group())})" if m.group() in pending else m.group(), text
        )

    kept: list[str] = []
    for line in lines:
        match = _TEMPORARY.match(line)
        if match is not None:
            target, expression = match.groups()
            expression = substitute(expression)
            if uses.get(target, 0) == 1:
                pending[target] = expression
                continue
            kept.append(f"    {target} = {expression}")
        else:
            kept.append(substitute(line))
    return kept, substitute(result)


#: What the generated functions may call.
MATH = {"cos": math.cos, "sin": math.sin, "sqrt": math.sqrt}


def function_source(name: str, header: list[str], writer: Writer, result: str) -> str:
    """The text of ``def name(header): <the writer's live lines>; return result``."""
    body, result = _inlined(_live_lines(writer.lines, result), result)
    return "\n".join([f"def {name}({', '.join(header)}):", *body, f"    return {result}"])


def compile_source(name: str, header: list[str], writer: Writer, result: str) -> Callable[..., Any]:
    """The function of :func:`function_source`, compiled; it calls ``cos``, ``sin`` and
    ``sqrt`` of :mod:`math` and keeps its source in ``.source``."""
    return compile_function(name, function_source(name, header, writer, result), MATH)


def cholesky_solve(writer: Writer, M: list[list[Scalar]], rhs: list[Scalar]) -> list[Scalar]:
    """Write L Lᵀ x = rhs out; a pivot that is too small makes the function return None."""
    n = len(rhs)
    diagonal = ", ".join(writer.value(M[i][i]) for i in range(n))
    largest = f"max({diagonal})" if n > 1 else f"({diagonal})"
    writer.line(f"tiny = {_SINGULAR_PIVOT!r} * {largest}")
    L: list[list[Scalar]] = [[0.0] * n for _ in range(n)]
    inverse: list[Scalar] = [0.0] * n
    for j in range(n):
        pivot = combine(
            writer, [[(1.0, (M[j][j],))] + [(-1.0, (L[j][k], L[j][k])) for k in range(j)]]
        )[0]
        text = writer.value(pivot)
        writer.line(f"if not {text} > tiny: return None")
        root = writer.name("r")
        writer.line(f"{root} = 1.0 / sqrt({text})")
        inverse[j] = (1.0, root)
        for i in range(j + 1, n):
            below = combine(
                writer, [[(1.0, (M[i][j],))] + [(-1.0, (L[i][k], L[j][k])) for k in range(j)]]
            )[0]
            L[i][j] = combine(writer, [[(1.0, (below, inverse[j]))]])[0]
    y: list[Scalar] = [0.0] * n
    for i in range(n):
        partial = combine(
            writer, [[(1.0, (rhs[i],))] + [(-1.0, (L[i][k], y[k])) for k in range(i)]]
        )[0]
        y[i] = combine(writer, [[(1.0, (partial, inverse[i]))]])[0]
    x: list[Scalar] = [0.0] * n
    for i in range(n - 1, -1, -1):
        partial = combine(
            writer, [[(1.0, (y[i],))] + [(-1.0, (L[k][i], x[k])) for k in range(i + 1, n)]]
        )[0]
        x[i] = combine(writer, [[(1.0, (partial, inverse[i]))]])[0]
    return x
