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

from fractions import Fraction
from functools import lru_cache
from math import comb, prod

import sympy as sp

__all__ = [
    "PIECE_MAX_TERMS",
    "derivative",
    "expanded_size",
    "replace_shared",
    "simplify_matrix",
    "simplify_piece",
    "simplify_piece_matrix",
    "simplify_trig",
]

#: Relative tolerance under which two float coefficients count as equal.
FLOAT_MATCH = 1e-12
#: Float terms smaller than this times the largest float coefficient are round-off.
FLOAT_CHOP = 1e-13

#: The DH models simplify a piece only if its expansion has at most this many
#: terms; bigger pieces (6–7 joint arms with full inertia tensors) stay nested
#: products, exact all the same. Arms of up to four joints stay far below it.
PIECE_MAX_TERMS = 500

_Key = frozenset  # frozenset of (base, exponent) pairs: one monomial without its number
_PARTNER = {sp.sin: sp.cos, sp.cos: sp.sin}


def expanded_size(expr: sp.Expr, memo: dict[sp.Basic, int] | None = None) -> int:
    """Return the number of terms ``sympy.expand(expr)`` would have at most (no expansion done).

    Sums add, products multiply, a power ``x**k`` counts the monomials of
    degree k in the terms of x. Used to decide whether expanding is affordable.
    Pass the same ``memo`` for expressions that share subexpressions.

    Examples
    --------
    >>> import sympy as sp
    >>> a, b, c = sp.symbols("a b c")
    >>> expanded_size((a + b) * (a + c + 1)), expanded_size((a + b + c) ** 2)
    (6, 6)
    """
    memo = {} if memo is None else memo

    def walk(node: sp.Basic) -> int:
        if not node.args:
            return 1
        found = memo.get(node)
        if found is None:
            if node.is_Add:
                found = sum(walk(arg) for arg in node.args)
            elif node.is_Mul:
                found = prod(walk(arg) for arg in node.args)
            elif node.is_Pow and node.exp.is_Integer and node.exp > 0:
                terms, degree = walk(node.base), int(node.exp)
                found = comb(terms + degree - 1, degree)
            else:
                found = 1
            memo[node] = found
        return found

    return walk(sp.sympify(expr))


def simplify_trig(
    expr: sp.Expr,
    max_terms: int | None = None,
    memo: dict | None = None,
    sizes: dict[sp.Basic, int] | None = None,
) -> sp.Expr:
    """Return ``expr`` expanded and reduced with the Pythagorean and angle-sum identities.

    Parameters
    ----------
    expr : sympy.Expr
        A polynomial in sines, cosines and other symbols (other functions are
        kept as opaque factors).
    max_terms : int, optional
        If the expansion would have more terms than this
        (:func:`expanded_size`), return ``expr`` unchanged: a nested product
        is then shorter than its expansion and exact all the same.
    memo : dict, optional
        Expansions of subexpressions, shared between calls (the entries of a
        matrix have common factors).
    sizes : dict, optional
        The memo of :func:`expanded_size`, shared between calls in the same way.

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
    if max_terms is not None and expanded_size(expr, sizes) > max_terms:
        return expr
    terms = dict(_expand(expr, {} if memo is None else memo))
    _reduce(terms)
    _chop(terms)
    return _assemble(terms)


def simplify_matrix(matrix: sp.MatrixBase, max_terms: int | None = None) -> sp.Matrix:
    """Apply :func:`simplify_trig` to every entry of ``matrix`` (a new mutable matrix).

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> simplify_matrix(sp.Matrix([[sp.sin(x) ** 2 + sp.cos(x) ** 2, 0]]))
    Matrix([[1, 0]])
    """
    memo: dict = {}
    entries = [simplify_trig(entry, max_terms, memo) for entry in matrix]
    return sp.Matrix(matrix.rows, matrix.cols, entries)


def simplify_piece(expr: sp.Expr, memo: dict | None = None) -> sp.Expr:
    """:func:`simplify_trig` with the size guard ``PIECE_MAX_TERMS`` of the DH models.

    Examples
    --------
    >>> x = sp.Symbol("x")
    >>> simplify_piece(sp.sin(x) ** 2 + sp.cos(x) ** 2)
    1
    """
    return simplify_trig(expr, PIECE_MAX_TERMS, memo)


def simplify_piece_matrix(matrix: sp.MatrixBase) -> sp.Matrix:
    """:func:`simplify_matrix` with the size guard ``PIECE_MAX_TERMS`` of the DH models."""
    return simplify_matrix(matrix, PIECE_MAX_TERMS)


# --- monomial dictionaries -------------------------------------------------------------


# Monomials are dictionaries {key: coefficient}: the key is a frozenset of
# (factor, exponent) pairs, the coefficient a Python int, Fraction or float
# (fast arithmetic; SymPy numbers only when the result is assembled).

_Number = int | Fraction | float


def _number(value: sp.Number) -> _Number:
    if value.is_Integer:
        return int(value)
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    return float(value)


def _expand(node: sp.Expr, memo: dict) -> dict[_Key, _Number]:
    """The expansion of ``node`` as monomials, each distinct subexpression expanded once."""
    found = memo.get(node)
    if found is not None:
        return found
    if node.is_Number and not isinstance(node, sp.core.numbers.NaN):
        result = {frozenset(): _number(node)} if node != 0 else {}
    elif node.is_Add:
        result: dict[_Key, _Number] = {}
        for arg in node.args:
            for key, c in _expand(arg, memo).items():
                _add(result, key, c)
    elif node.is_Mul:
        result = {frozenset(): 1}
        for arg in node.args:
            result = _multiply(result, _expand(arg, memo))
    elif node.is_Pow and node.exp.is_Integer and node.exp > 0:
        base = _expand(node.base, memo)
        result = {frozenset(): 1}
        for _ in range(int(node.exp)):
            result = _multiply(result, base)
    else:
        result = {frozenset({(node, 1)}): 1}
    memo[node] = result
    return result


def _multiply(a: dict[_Key, _Number], b: dict[_Key, _Number]) -> dict[_Key, _Number]:
    result: dict[_Key, _Number] = {}
    for key_a, c_a in a.items():
        for key_b, c_b in b.items():
            if not key_a:
                key = key_b
            elif not key_b:
                key = key_a
            else:
                factors = dict(key_a)
                for base, exponent in key_b:
                    total = factors.get(base, 0) + exponent
                    if total:
                        factors[base] = total
                    else:
                        del factors[base]
                key = frozenset(factors.items())
            _add(result, key, c_a * c_b)
    return result


def _sympy_number(value: _Number) -> sp.Number:
    if isinstance(value, float):
        return sp.Float(value)
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    return sp.Integer(value)


def _assemble(terms: dict[_Key, _Number]) -> sp.Expr:
    return sp.Add(*[_sympy_number(c) * _monomial(key) for key, c in terms.items()])


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


def _add(terms: dict[_Key, _Number], key: _Key, coefficient: _Number) -> None:
    value = terms.get(key, 0) + coefficient
    if value == 0:
        terms.pop(key, None)
    else:
        terms[key] = value


def _same(a: _Number, b: _Number) -> bool:
    if a == b:
        return True
    if isinstance(a, float) or isinstance(b, float):
        return abs(a - b) <= FLOAT_MATCH * max(abs(a), abs(b))
    return False


@lru_cache(maxsize=4096)
def _order(argument: sp.Expr) -> str:
    return str(argument)


def _trig_arguments(key: _Key) -> list[sp.Expr]:
    arguments = {base.args[0] for base, exponent in key if isinstance(base, sp.sin | sp.cos)}
    return sorted(arguments, key=_order)


# --- the identities --------------------------------------------------------------------


def _reduce(terms: dict[_Key, _Number]) -> None:
    changed = True
    while changed:
        changed = False
        for key in list(terms):
            if key in terms and (_pythagoras(terms, key) or _angle_sum(terms, key)):
                changed = True


def _pythagoras(terms: dict[_Key, _Number], key: _Key) -> bool:
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


def _angle_sum(terms: dict[_Key, _Number], key: _Key) -> bool:
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
                rest = {_shift(key, {fx(x): -1, fy(y): -1}): c}
                for new_key, new_c in _multiply(rest, _expand(combined, {})).items():
                    _add(terms, new_key, new_c)
                return True
    return False


def _pick(c: _Number, c2: _Number, if_equal: sp.Expr, if_opposite: sp.Expr) -> sp.Expr | None:
    if _same(c2, c):
        return if_equal
    if _same(c2, -c):
        return if_opposite
    return None


# --- round-off ---------------------------------------------------------------------------


def _chop(terms: dict[_Key, _Number]) -> None:
    floats = [abs(c) for c in terms.values() if isinstance(c, float)]
    if not floats:
        return
    limit = FLOAT_CHOP * max(floats)
    for key in [k for k, c in terms.items() if isinstance(c, float) and abs(c) < limit]:
        del terms[key]


# --- big expressions: walk each shared subexpression once ---------------------------------


def replace_shared(expr: sp.Basic, mapping: dict, memo: dict | None = None) -> sp.Basic:
    """``expr.xreplace(mapping)``, visiting each distinct subexpression once.

    The expressions of a 6–7 joint arm are trees with many repeated branches
    (the same Jacobian entry in several entries of M); ``xreplace`` walks every
    copy, this walks every distinct one. Pass the same ``memo`` dict to share
    the work between the entries of a matrix.

    Examples
    --------
    >>> x, y = sp.symbols("x y")
    >>> replace_shared(sp.sin(x) * sp.cos(x) + x, {x: y})
    y + sin(y)*cos(y)
    """
    memo = {} if memo is None else memo

    def walk(node: sp.Basic) -> sp.Basic:
        if node in mapping:
            return mapping[node]
        if not node.args:
            return node
        found = memo.get(node)
        if found is None:
            args = [walk(arg) for arg in node.args]
            changed = any(new is not old for new, old in zip(args, node.args, strict=True))
            found = memo[node] = node.func(*args) if changed else node
        return found

    return walk(expr)


def derivative(expr: sp.Expr, x: sp.Symbol, memo: dict | None = None) -> sp.Expr:
    """∂expr/∂x for a symbol x, visiting each distinct subexpression once.

    Sums, products, integer and constant powers, sine and cosine are
    differentiated here (everything else by SymPy). Pass the same ``memo``
    for every expression differentiated with respect to the same x.

    Examples
    --------
    >>> x, a = sp.symbols("x a")
    >>> derivative(a * sp.sin(x) ** 2 + sp.cos(a * x), x)
    2*a*sin(x)*cos(x) - a*sin(a*x)
    """
    memo = {} if memo is None else memo
    depends: dict[sp.Basic, bool] = memo.setdefault("depends", {})  # type: ignore[assignment]
    derived: dict[sp.Basic, sp.Expr] = memo.setdefault("derived", {})  # type: ignore[assignment]

    def has(node: sp.Basic) -> bool:
        if node == x:
            return True
        if not node.args:
            return False
        found = depends.get(node)
        if found is None:
            found = depends[node] = any(has(arg) for arg in node.args)
        return found

    def walk(node: sp.Expr) -> sp.Expr:
        if not has(node):
            return sp.S.Zero
        if node == x:
            return sp.S.One
        found = derived.get(node)
        if found is not None:
            return found
        if node.is_Add:
            result = sp.Add(*[walk(arg) for arg in node.args])
        elif node.is_Mul:
            terms = []
            for index, arg in enumerate(node.args):
                if has(arg):
                    others = node.args[:index] + node.args[index + 1 :]
                    terms.append(sp.Mul(walk(arg), *others))
            result = sp.Add(*terms)
        elif node.is_Pow and not has(node.exp):
            base, exponent = node.args
            result = exponent * base ** (exponent - 1) * walk(base)
        elif isinstance(node, sp.sin):
            result = sp.cos(node.args[0]) * walk(node.args[0])
        elif isinstance(node, sp.cos):
            result = -sp.sin(node.args[0]) * walk(node.args[0])
        else:
            result = node.diff(x)
        derived[node] = result
        return result

    return walk(sp.sympify(expr))
