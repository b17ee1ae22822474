"""Long equations printed over several lines: :class:`GatheredEquation`.

An energy or a Lagrangian printed as one SymPy sum runs off the page; a
:class:`GatheredEquation` prints it with the terms gathered by products of joint
velocities, in lines that fit a notebook (LaTeX) or a console (text). The derivations of
:mod:`robolab.dh.worked_derivations` use it.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.printing.pretty.stringpict import prettyForm, stringPict

from .derivation import to_text

__all__ = ["LATEX_LINE_COLUMNS", "TEXT_LINE_COLUMNS", "GatheredEquation", "printed_columns"]


#: Width of one printed line of a :class:`GatheredEquation`, in columns of its text form: about
#: 750 pixels of MathJax in JupyterLab (6.8 px a column), so that it fits the 870 px of a
#: notebook's output at a 1300 px window with the file browser open.
LATEX_LINE_COLUMNS = 110


#: The same for its Unicode text form (``to_text``, consoles, ``text/plain``).
TEXT_LINE_COLUMNS = 76


class GatheredEquation(sp.Equality):
    r"""``symbol = expression``, printed with the terms gathered by products of joint velocities.

    An energy or a Lagrangian is a quadratic form in the joint velocities plus
    a part without them, ``½ Σ_j M_jj q̇_j² + Σ_{j<k} M_jk q̇_j q̇_k − P``; printed
    as one SymPy sum it runs off the page for two joints already. This
    equation prints the same sum as

    .. code-block:: text

        K = ½ (M_11) q̇₁² + (M_12) q̇₁ q̇₂
            + ½ (M_22) q̇₂²

    one bracket per product of velocities (in the order of M's entries,
    row by row), then the part without velocities with its common factor
    taken out (``− g (…)``), filling lines of :data:`LATEX_LINE_COLUMNS`
    (LaTeX, an ``aligned`` block) or :data:`TEXT_LINE_COLUMNS` (pretty text)
    and breaking a bracket that is longer than a line. Only the printing
    changes: ``.lhs`` and ``.rhs`` are the symbol and the expression as given
    (``rhs`` is the robot's own result), and it is an ordinary ``sympy.Eq``
    otherwise; ``velocities`` are the joint velocities to gather by.

    Examples
    --------
    >>> from robolab.symbols import q2, qd1, qd2, m2, l1, t
    >>> K = sp.Symbol("K")
    >>> energy = m2 * l1**2 * qd1**2 / 2 + m2 * l1**2 * sp.cos(q2) * qd1 * qd2 + qd2**2 / 3
    >>> equation = GatheredEquation(K, energy, (qd1, qd2))
    >>> equation.rhs == energy, isinstance(equation, sp.Eq)
    (True, True)
    >>> print(to_text(equation))
            2      2     2                          2
    K = ½ l₁ ⋅m₂ q̇₁  + l₁ ⋅m₂⋅cos(q₂) q̇₁⋅q̇₂ + 1/3 q̇₂
    """

    def __new__(cls, lhs: Any, rhs: Any, velocities: Any = (), **options: Any) -> GatheredEquation:
        return sp.Basic.__new__(cls, sp.sympify(lhs), sp.sympify(rhs), sp.Tuple(*velocities))

    @property
    def velocities(self) -> tuple[sp.Expr, ...]:
        """The joint velocities the terms are gathered by."""
        return tuple(self.args[2])

    # --- the groups of terms ---------------------------------------------------------------

    def groups(self) -> list[tuple[int, sp.Expr, list[tuple[int, sp.Expr]], sp.Expr]]:
        """The terms of ``rhs`` gathered: ``(sign, factor, terms, velocity product)`` per group.

        A group prints as ``sign · factor · (terms) · product``. The factor is
        the rational factor common to the terms of a product of velocities (½
        for a square q̇_j² of an energy, so that the bracket is M_jj; 1 for
        q̇_j q̇_k, M_jk), and the factor common to the terms without velocities
        (their product is 1), ``g`` in ``− g (…)``. The terms are
        ``(sign, term)`` pairs; ``Σ sign · factor · Σ(sign · term) · product``
        is ``rhs``.
        """
        velocities = self.velocities
        gathered: dict[sp.Expr, list[sp.Expr]] = {}
        rest: list[sp.Expr] = []
        pending = list(sp.Add.make_args(self.rhs))
        while pending:
            term = pending.pop()
            coefficient, product = term.as_independent(*velocities, as_Add=False)
            if product == 1:
                rest.append(term)
            elif _is_monomial(product, velocities):
                gathered.setdefault(product, []).append(coefficient)
            else:  # velocities inside a bracket: expand this term only
                expanded = sp.Add.make_args(sp.expand(term))
                if expanded == (term,):
                    rest.append(term)
                else:
                    pending.extend(expanded)

        def order(product: sp.Expr) -> tuple[int, ...]:
            powers = product.as_powers_dict()
            return tuple(-int(powers.get(v, 0)) for v in velocities)

        groups = []
        for product in sorted(gathered, key=order):
            content, inner = sp.Add(*gathered[product]).as_content_primitive()
            if inner.is_number:  # a number alone: no factor in front of it
                content, inner = sp.S.One, content * inner
            groups.append(_group(content, inner, product))
        if rest:
            total = sp.Add(*rest)
            factored = sp.factor_terms(total)
            sums = [f for f in sp.Mul.make_args(factored) if isinstance(f, sp.Add)]
            if isinstance(factored, sp.Mul) and len(sums) == 1:  # g (…): the common factor out
                inner = sums[0]
                common = sp.Mul(*[f for f in factored.args if f is not inner])
                if inner.could_extract_minus_sign():
                    common, inner = -common, -inner
                groups.append(_group(common, inner, sp.S.One))
            else:
                groups += [_group(sp.S.One, term, sp.S.One) for term in _ordered(total)]
        return groups

    # --- printing ------------------------------------------------------------------------

    def _lines(self, out: _Latex | _Text, budget: int) -> list[tuple[Any, bool]]:
        """The groups packed into lines of at most ``budget`` columns (where terms allow).

        Each line comes with True when it continues a bracket of the line above.
        """
        pieces: list[tuple[int, Any, int, bool]] = []  # sign, printed, columns, continuation
        for sign, factor, terms, product in self.groups():
            left = None if factor == 1 else out.half() if factor == sp.S.Half else out.expr(factor)
            right = None if product == 1 else out.expr(product)
            bracketed = len(terms) > 1
            extra = _columns(factor) + _columns(product) + (2 if bracketed else 0)
            parts = _split([_columns(term) + 3 for _, term in terms], budget - extra)
            for number, part in enumerate(parts):
                first, last = number == 0, number == len(parts) - 1
                body = []
                for index in part:
                    term_sign, term = terms[index]
                    body += [out.operator(term_sign, index == 0), out.expr(term)]
                printed = out.join(body)
                if bracketed:
                    printed = out.bracket(printed, first, last)
                items = [left] if first and left is not None else []
                items += [printed] + ([right] if last and right is not None else [])
                columns = sum(_columns(terms[i][1]) + 3 for i in part) + (extra if first else 2)
                pieces.append((sign, out.join(items, spaced=True), columns, not first))
        lines: list[list[Any]] = []
        inside: list[bool] = []
        width = 0
        for sign, printed, columns, continuation in pieces:
            if lines and not continuation and width + columns + 3 <= budget:
                lines[-1] += [out.operator(sign, False), printed]
                width += columns + 3
            elif continuation:
                lines.append([printed])
                inside.append(True)
                width = columns
            else:
                lines.append([out.operator(sign, not lines), printed])
                inside.append(False)
                width = columns
        return [(out.join(line), more) for line, more in zip(lines, inside, strict=True)]

    def _latex(self, printer: Any) -> str:
        budget = LATEX_LINE_COLUMNS - _columns(self.lhs) - 3  # the lines start after "lhs ="
        lines = self._lines(_Latex(printer), max(budget, LATEX_LINE_COLUMNS // 2))
        left = printer._print(self.lhs)
        if len(lines) == 1:
            return f"{left} = {lines[0][0]}"
        body = lines[0][0] + "".join(
            (r" \\ &\qquad " if more else r" \\ &\quad ") + line for line, more in lines[1:]
        )
        return rf"\begin{{aligned}} {left} = {{}} & {body} \end{{aligned}}"

    def _pretty(self, printer: Any) -> prettyForm:
        left = printer._print(self.lhs)
        budget = TEXT_LINE_COLUMNS - left.width() - 3  # the lines start after "lhs ="
        lines = self._lines(_Text(printer), max(budget, TEXT_LINE_COLUMNS // 2))
        first = prettyForm(*stringPict.next(left, " = ", lines[0][0]))
        indent = " " * (first.width() - lines[0][0].width() + 2)
        rows = [first] + [
            prettyForm(*stringPict.next(indent + ("  " if more else ""), line))
            for line, more in lines[1:]
        ]
        if len(rows) == 1:
            return first
        width = max(row.width() for row in rows)  # stack() centres: pad on the right
        rows = [prettyForm(*stringPict.next(row, " " * (width - row.width()))) for row in rows]
        return prettyForm(*stringPict.stack(*rows))


class _Latex:
    """Pieces of a :class:`GatheredEquation` as LaTeX text."""

    def __init__(self, printer: Any) -> None:
        self.printer = printer

    def expr(self, expr: sp.Expr) -> str:
        return self.printer._print(expr)

    @staticmethod
    def half() -> str:
        return r"\tfrac{1}{2}"

    @staticmethod
    def operator(sign: int, first: bool) -> str:
        return ("-" if sign < 0 else "") if first else ("-" if sign < 0 else "+")

    @staticmethod
    def join(items: list[str], spaced: bool = False) -> str:
        return " ".join(item for item in items if item)

    @staticmethod
    def bracket(body: str, opening: bool, closing: bool) -> str:
        left = r"\left(" if opening else r"\left."
        right = r"\right)" if closing else r"\right."
        return f"{left} {body} {right}"


class _Text:
    """Pieces of a :class:`GatheredEquation` as SymPy pretty forms (Unicode text)."""

    def __init__(self, printer: Any) -> None:
        self.printer = printer

    def expr(self, expr: sp.Expr) -> prettyForm:
        return self.printer._print(expr)

    @staticmethod
    def half() -> prettyForm:
        return prettyForm("½")

    @staticmethod
    def operator(sign: int, first: bool) -> str:
        return ("-" if sign < 0 else "") if first else (" - " if sign < 0 else " + ")

    @staticmethod
    def join(items: list[Any], spaced: bool = False) -> prettyForm:
        items = [item for item in items if item != ""]
        if spaced:
            items = [x for item in items for x in (" ", item)][1:]
        return prettyForm(*stringPict.next(*items))

    @staticmethod
    def bracket(body: prettyForm, opening: bool, closing: bool) -> prettyForm:
        return prettyForm(*body.parens("(" if opening else "", ")" if closing else ""))


def _is_monomial(product: sp.Expr, velocities: tuple[sp.Expr, ...]) -> bool:
    """True for a product of powers of the velocities (q̇₁², q̇₁ q̇₂)."""
    for factor in sp.Mul.make_args(product):
        base, exponent = factor.as_base_exp()
        if base not in velocities or not (exponent.is_Integer and exponent > 0):
            return False
    return True


def _group(
    factor: sp.Expr, inner: sp.Expr, product: sp.Expr
) -> tuple[int, sp.Expr, list[tuple[int, sp.Expr]], sp.Expr]:
    """``(sign, factor, [(sign, term), ...], product)`` with every printed part positive-looking."""
    sign = 1
    if factor.could_extract_minus_sign():
        sign, factor = -1, -factor
    terms = [(-1, -t) if t.could_extract_minus_sign() else (1, t) for t in _ordered(inner)]
    if len(terms) == 1 and terms[0][0] < 0:
        sign, terms = -sign, [(1, terms[0][1])]
    return sign, factor, terms, product


def _ordered(expr: sp.Expr) -> list[sp.Expr]:
    """The terms of a sum in the order SymPy prints them."""
    if not isinstance(expr, sp.Add):
        return [expr]
    return list(expr.as_ordered_terms())


def printed_columns(expr: Any) -> int:
    """Width of ``expr`` printed on one line, in columns of its Unicode text form.

    SymPy's text printer wraps at 80 columns, so a sum (and each side of an equation) is
    measured term by term: the widths of the terms plus 3 columns for each ``" + "``.

    Examples
    --------
    >>> x = sp.symbols("x1:30")
    >>> printed_columns(sp.Symbol("y")), printed_columns(sp.Eq(sp.Symbol("y"), x[0] + x[1]))
    (1, 11)
    >>> printed_columns(sum(v**2 for v in x)) > 80
    True
    """
    if isinstance(expr, sp.Equality):
        return printed_columns(expr.lhs) + 3 + printed_columns(expr.rhs)
    if isinstance(expr, sp.Add):
        return sum(_columns(term) + 3 for term in expr.args) - 3
    return _columns(expr) if expr != 1 else 1


def _columns(expr: sp.Expr) -> int:
    """Width of ``expr`` in its Unicode text form: a measure of its printed width."""
    if expr == 1:
        return 0
    return max(len(line) for line in to_text(expr).splitlines())


def _split(widths: list[int], budget: int) -> list[list[int]]:
    """Indices of the terms of a bracket in parts of at most ``budget`` columns (one if it fits)."""
    if sum(widths) <= budget:
        return [list(range(len(widths)))]
    parts: list[list[int]] = [[]]
    width = 0
    for index, columns in enumerate(widths):
        if parts[-1] and width + columns > budget:
            parts.append([])
            width = 0
        parts[-1].append(index)
        width += columns
    return parts
