"""Fast trigonometric simplification for the expressions of serial-arm models.

The expressions of a DH model (link transforms, Jacobians, M, Christoffel
symbols, G) are polynomials in sines and cosines of the joint angles with
parameter coefficients. Two identities do nearly all the simplifying:

* Pythagoras: ``R sin²x + R cos²x = R`` and ``R - R sin²x = R cos²x``;
* angle sums: ``R cos x cos y - R sin x sin y = R cos(x + y)`` and the three
  other sum and difference formulas.

:func:`simplify_trig` expands an expression into a sum of monomials, stores
them in a dictionary keyed by their factors and applies these identities by
hashed look-up of the partner monomial, until none applies. This is linear
in the number of terms per pass, where SymPy's general ``trigsimp`` tries
many rewritings of the whole expression (Moro spends 99 % of its time
there). The result is expanded: a sum of products such as
``l_2 m_3 cos(q_2) cos(q_2 + q_3)``.

Floating-point coefficients (numeric robots) are compared with a relative
tolerance of 1e-12, and terms smaller than 1e-13 times the largest float
coefficient of the expression are dropped as round-off.

Examples
--------
>>> import sympy as sp
>>> x, y, a = sp.symbols("x y a")
>>> simplify_trig(a * sp.sin(x) ** 2 + a * sp.cos(x) ** 2)
a
>>> simplify_trig(sp.cos(x) * sp.cos(y) - sp.sin(x) * sp.sin(y))
cos(x + y)
>>> simplify_trig(2 * sp.sin(x) ** 2 + sp.cos(x) ** 2 - sp.cos(y) ** 2)
sin(x)**2 + sin(y)**2
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy as sp

__all__ = ["simplify_matrix", "simplify_trig"]

#: Relative tolerance under which two float coefficients count as equal.
FLOAT_MATCH = 1e-12
#: Float terms smaller than this times the largest float coefficient are round-off.
FLOAT_CHOP = 1e-13

_Key = frozenset  # frozenset of (base, exponent) pairs: one monomial without its number
_PARTNER = {sp.sin: sp.cos, sp.cos: sp.sin}


def simplify_trig(expr: sp.Expr) -> sp.Expr:
    """Return ``expr`` expanded and reduced with the Pythagorean and angle-sum identities.

    Parameters
    ----------
    expr : sympy.Expr
        A polynomial in sines, cosines and other symbols (other functions are
        kept as opaque factors).

    Returns
    -------
    sympy.Expr
        An equal expression, expanded into a sum of products, in which no
        pair of terms matches ``sin²x + cos²x``, ``1 - sin²x`` or an angle-sum
        formula.

    Examples
    --------
    >>> import sympy as sp
    >>> q2, q3, l2, l3 = sp.symbols("q2 q3 l2 l3")
    >>> x = l2 * sp.cos(q2) + l3 * sp.cos(q2 + q3)
    >>> y = l2 * sp.sin(q2) + l3 * sp.sin(q2 + q3)
    >>> v = sp.Matrix([x, y])
    >>> simplify_trig(v.dot(v))
    l2**2 + 2*l2*l3*cos(q3) + l3**2
    """
    expr = sp.sympify(expr)
    if not isinstance(expr, sp.Expr) or expr.is_Atom:
        return expr
    expanded = sp.expand(expr)
    if not expanded.has(sp.sin, sp.cos):
        return _chop_expression(expanded)
    terms = _collect(expanded)
    _reduce(terms)
    _chop(terms)
    return _assemble(terms)


def simplify_matrix(matrix: sp.MatrixBase) -> sp.Matrix:
    """Apply :func:`simplify_trig` to every entry of ``matrix`` (a new mutable matrix).

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> simplify_matrix(sp.Matrix([[sp.sin(x) ** 2 + sp.cos(x) ** 2, 0]]))
    Matrix([[1, 0]])
    """
    return sp.Matrix(matrix.rows, matrix.cols, [simplify_trig(entry) for entry in matrix])


# --- monomial dictionaries -------------------------------------------------------------


def _collect(expanded: sp.Expr) -> dict[_Key, sp.Number]:
    terms: dict[_Key, sp.Number] = {}
    for term in sp.Add.make_args(expanded):
        for key, coefficient in _split(term):
            _add(terms, key, coefficient)
    return terms


def _split(term: sp.Expr) -> Iterable[tuple[_Key, sp.Number]]:
    coefficient, rest = term.as_coeff_Mul()
    factors: dict[sp.Expr, sp.Expr] = {}
    for factor in sp.Mul.make_args(rest):
        base, exponent = factor.as_base_exp()
        factors[base] = factors.get(base, 0) + exponent
    yield frozenset(factors.items()), coefficient


def _assemble(terms: dict[_Key, sp.Number]) -> sp.Expr:
    return sp.Add(*[c * _monomial(key) for key, c in terms.items()])


def _monomial(key: _Key) -> sp.Expr:
    return sp.Mul(*[base**exponent for base, exponent in key])


def _shift(key: _Key, changes: dict[sp.Expr, int]) -> _Key:
    """``key`` with the exponents of some (trigonometric) factors changed."""
    factors = dict(key)
    for base, delta in changes.items():
        exponent = factors.get(base, 0) + delta
        if exponent == 0:
            factors.pop(base, None)
        else:
            factors[base] = exponent
    return frozenset(factors.items())


def _add(terms: dict[_Key, sp.Number], key: _Key, coefficient: sp.Number) -> None:
    value = terms.get(key, sp.S.Zero) + coefficient
    if value == 0:
        terms.pop(key, None)
    else:
        terms[key] = value


def _same(a: sp.Number, b: sp.Number) -> bool:
    if a == b:
        return True
    if isinstance(a, sp.Float) or isinstance(b, sp.Float):
        return abs(a - b) <= FLOAT_MATCH * max(abs(a), abs(b))
    return False


def _trig_arguments(key: _Key) -> list[sp.Expr]:
    arguments = {base.args[0] for base, exponent in key if isinstance(base, sp.sin | sp.cos)}
    return sorted(arguments, key=sp.default_sort_key)


# --- the identities --------------------------------------------------------------------


def _reduce(terms: dict[_Key, sp.Number]) -> None:
    changed = True
    while changed:
        changed = False
        for key in list(terms):
            if key in terms and (_pythagoras(terms, key) or _angle_sum(terms, key)):
                changed = True


def _pythagoras(terms: dict[_Key, sp.Number], key: _Key) -> bool:
    c = terms[key]
    exponents = dict(key)
    for x in _trig_arguments(key):
        s, co = sp.sin(x), sp.cos(x)
        # c R sin²x + c2 R cos²x  ->  common R + remainders
        if exponents.get(s, 0) >= 2:
            partner = _shift(key, {s: -2, co: 2})
            c2 = terms.get(partner)
            if c2 is not None and (c > 0) == (c2 > 0):
                common = c if abs(c) <= abs(c2) else c2
                del terms[key], terms[partner]
                if not _same(c, common):
                    _add(terms, key, c - common)
                if not _same(c2, common):
                    _add(terms, partner, c2 - common)
                _add(terms, _shift(key, {s: -2}), common)
                return True
        # c2 R + c R sin²x with c2 = -c  ->  c2 R cos²x   (and with sin and cos swapped)
        for f, other in ((s, co), (co, s)):
            if exponents.get(f, 0) >= 2:
                partner = _shift(key, {f: -2})
                c2 = terms.get(partner)
                if c2 is not None and _same(c2, -c):
                    del terms[key], terms[partner]
                    _add(terms, _shift(partner, {other: 2}), c2)
                    return True
    return False


def _angle_sum(terms: dict[_Key, sp.Number], key: _Key) -> bool:
    c = terms[key]
    exponents = dict(key)
    arguments = _trig_arguments(key)
    for index, x in enumerate(arguments):
        for y in arguments[index + 1 :]:
            for fx, fy in ((sp.cos, sp.cos), (sp.sin, sp.cos), (sp.cos, sp.sin)):
                if exponents.get(fx(x), 0) < 1 or exponents.get(fy(y), 0) < 1:
                    continue
                gx, gy = _PARTNER[fx], _PARTNER[fy]
                partner = _shift(key, {fx(x): -1, gx(x): 1, fy(y): -1, gy(y): 1})
                c2 = terms.get(partner)
                if c2 is None:
                    continue
                if fx is sp.cos and fy is sp.cos:  # c cx cy + c2 sx sy
                    combined = _pick(c, c2, sp.cos(x - y), sp.cos(x + y))
                elif fx is sp.sin:  # c sx cy + c2 cx sy
                    combined = _pick(c, c2, sp.sin(x + y), sp.sin(x - y))
                else:  # c cx sy + c2 sx cy
                    combined = _pick(c, c2, sp.sin(x + y), sp.sin(y - x))
                if combined is None:
                    continue
                del terms[key], terms[partner]
                rest = _monomial(_shift(key, {fx(x): -1, fy(y): -1}))
                for new_key, new_c in _collect(sp.expand(c * rest * combined)).items():
                    _add(terms, new_key, new_c)
                return True
    return False


def _pick(c: sp.Number, c2: sp.Number, if_equal: sp.Expr, if_opposite: sp.Expr) -> sp.Expr | None:
    if _same(c2, c):
        return if_equal
    if _same(c2, -c):
        return if_opposite
    return None


# --- round-off ---------------------------------------------------------------------------


def _chop(terms: dict[_Key, sp.Number]) -> None:
    floats = [abs(c) for c in terms.values() if isinstance(c, sp.Float)]
    if not floats:
        return
    limit = FLOAT_CHOP * max(floats)
    for key in [k for k, c in terms.items() if isinstance(c, sp.Float) and abs(c) < limit]:
        del terms[key]


def _chop_expression(expanded: sp.Expr) -> sp.Expr:
    if not expanded.has(sp.Float):
        return expanded
    terms = _collect(expanded)
    _chop(terms)
    return _assemble(terms)
