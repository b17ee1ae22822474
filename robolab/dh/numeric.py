"""Fast numbers from the symbolic DH model: generated straight-line Python code.

:meth:`robolab.DHRobot.numeric` returns a :class:`NumericDHRobot`. Its
functions are compiled on first use from the robot's symbolic results:

* ``frames(q)`` from the poses T_0i (common-subexpression elimination, CSE);
  ``forward_kinematics(q)`` and ``jacobian(q)`` follow from the frames;
* ``inertia_matrix(q)``, ``gravity_vector(q)`` and ``coriolis_matrix(q, qd)`` from
  the named pieces of :mod:`robolab.dh._fast.named_dynamics`, which
  :meth:`robolab.dh.lagrangian.DerivedDynamics.program` gives (M by composite rigid
  bodies, ∂M_ab/∂q_c by forward differentiation of that program),
  ``C_ij = Σ_k c_ijk q̇_k`` with the Christoffel symbols
  ``c_ijk = ½(∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i)``: no expanded expression and
  no common-subexpression search over one, so a 7-joint arm compiles in about a
  second. Textbook form: the symbolic M, C, G of the robot; the tests check that
  both agree;
* ``inverse_dynamics(q, qd, qdd)`` from a **symbolic recursive Newton–Euler**
  pass (:func:`newton_euler_program`) that names every intermediate vector
  component, so τ of a 6-joint arm is a few hundred scalar operations instead
  of the expanded M q̈ + C q̇ + G. Textbook form: ``M q̈ + C q̇ + G``; the tests
  check that both agree.

The generated code uses Python floats and ``math`` for one configuration
(``q`` of shape ``(n,)``) and NumPy for a batch (``q`` of shape ``(B, n)``);
both come from the same source text.

Kinematic functions work as soon as the DH table is numeric, even if the
masses are still symbolic; dynamic functions raise a ``ValueError`` that
names every parameter still symbolic.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike
from sympy.printing.pycode import PythonCodePrinter

from ..spatial.transforms import dh_modified, dh_standard
from ..support.arguments import as_float_array, scalar_problem
from ..support.codegen import compile_function
from ..support.progress import Progress
from ._fast.named_dynamics import DynamicsProgram
from .kinematics import DerivedKinematics
from .lagrangian import DerivedDynamics
from .model import DHModel
from .simplify import replace_shared

__all__ = [
    "NumericDHRobot",
    "compile_expressions",
    "missing_parameters",
    "newton_euler_program",
    "normalise_values",
]


# --------------------------------------------------------------------------------------
# code generation
# --------------------------------------------------------------------------------------


class _Printer(PythonCodePrinter):
    """Plain ``sin(x)``, ``x*x`` and full-precision floats: fast with floats and arrays."""

    def _print_Function(self, expr: sp.Function) -> str:
        return f"{type(expr).__name__}({', '.join(self._print(a) for a in expr.args)})"

    _print_sin = _print_cos = _print_tan = _print_Function

    def _print_Pow(self, expr: sp.Pow, rational: bool = False) -> str:
        base, exponent = expr.args
        if exponent == sp.S.Half:
            return f"sqrt({self._print(base)})"
        if exponent.is_Integer and 2 <= int(exponent) <= 4:
            text = self.parenthesize(base, sp.printing.precedence.PRECEDENCE["Mul"])
            return "*".join([text] * int(exponent))
        if exponent == -1:
            return f"(1/{self.parenthesize(base, sp.printing.precedence.PRECEDENCE['Pow'])})"
        return super()._print_Pow(expr, rational=rational)

    def _print_Float(self, expr: sp.Float) -> str:
        return repr(float(expr))

    def _print_Rational(self, expr: sp.Rational) -> str:
        return repr(float(expr))

    def _print_Pi(self, expr: sp.Expr) -> str:
        return repr(math.pi)


_SCALAR_NAMESPACE = {"sin": math.sin, "cos": math.cos, "tan": math.tan, "sqrt": math.sqrt}
_BATCH_NAMESPACE = {"sin": np.sin, "cos": np.cos, "tan": np.tan, "sqrt": np.sqrt}


def compile_expressions(
    name: str,
    arguments: Sequence[Sequence[sp.Symbol]],
    outputs: Sequence[sp.Expr],
    assignments: Sequence[tuple[sp.Symbol, sp.Expr]] = (),
    cse: bool = True,
) -> tuple[Callable[..., tuple[Any, ...]], Callable[..., tuple[Any, ...]], str]:
    """Generate a Python function that evaluates ``outputs`` from lists of arguments.

    Parameters
    ----------
    name : str
        Name of the generated function (for tracebacks and the source text).
    arguments : sequence of sequences of sympy.Symbol
        One list of symbols per positional argument, e.g. ``[q, qd]``.
    outputs : sequence of sympy.Expr
        The expressions to return, as a tuple in this order.
    assignments : sequence of (Symbol, Expr), optional
        Intermediate variables computed first, in order (a straight-line
        program such as :func:`newton_euler_program` makes).
    cse : bool
        Run SymPy's common-subexpression elimination on ``outputs`` first.

    Returns
    -------
    scalar : callable
        Takes lists of floats, computes with ``math``; returns a tuple of floats.
    batch : callable
        Takes lists of arrays (one per symbol), computes with NumPy.
    source : str
        The generated source text.

    Examples
    --------
    >>> u, v = sp.symbols("u v")
    >>> scalar, batch, source = compile_expressions("f", [[u, v]], [sp.sin(u) * v, u**2])
    >>> scalar([0.5, 2.0])
    (0.958851077208406, 0.25)
    >>> print(source)
    def f(a0):
        u, v = a0
        return (v*sin(u), u*u)
    """
    rename: dict[sp.Symbol, sp.Symbol] = {}
    used: set[str] = set()
    for group, symbols in enumerate(arguments):
        for index, symbol in enumerate(symbols):
            identifier = _identifier(symbol, f"v{group}_{index}", used)
            used.add(identifier)
            rename[symbol] = sp.Symbol(identifier)
    for k, (symbol, _) in enumerate(assignments):
        rename[symbol] = sp.Symbol(f"w{k}")
    printer = _Printer({"fully_qualified_modules": False, "standard": "python3"})
    with Progress("code", 2) as progress:
        if cse:
            progress.update(0, "common subexpressions")
            memo: dict = {}
            steps = [(rename[s], replace_shared(e, rename, memo)) for s, e in assignments]
            results = [replace_shared(sp.sympify(e), rename, memo) for e in outputs]
            replacements, results = sp.cse(results, symbols=sp.numbered_symbols("x"), order="none")
            steps += replacements
            text: Callable[[sp.Basic], str] = printer.doprint
        else:  # a program already: rename while printing, nothing is rebuilt
            steps, results = list(assignments), [sp.sympify(e) for e in outputs]
            text = _ProgramText({s: str(r) for s, r in rename.items()}, printer, rename)
        progress.update(1, "Python source")
        source = _source(name, arguments, rename, steps, results, text)
    scalar = compile_function(name, source, _SCALAR_NAMESPACE)
    batch = compile_function(name, source, _BATCH_NAMESPACE)
    return scalar, batch, source


class _ProgramText:
    """Python text of the few kinds of node a straight-line program has, names renamed.

    Sums, products, integer and half powers, numbers, sin, cos and tan are written
    here (SymPy's printer spends most of a 7-joint arm's compile time sorting and
    checking the terms of such small expressions); anything else goes to
    :class:`_Printer` after renaming its symbols.
    """

    _FUNCTIONS: ClassVar[dict[type, str]] = {sp.sin: "sin", sp.cos: "cos", sp.tan: "tan"}

    def __init__(
        self,
        names: Mapping[sp.Basic, str],
        printer: _Printer,
        rename: Mapping[sp.Symbol, sp.Symbol],
    ) -> None:
        self.names, self.printer, self.rename = names, printer, rename

    def __call__(self, node: sp.Basic) -> str:
        found = self.names.get(node)
        if found is not None:
            return found
        if node.is_Integer:
            return str(int(node))
        if node.is_Number or isinstance(node, sp.NumberSymbol):
            return repr(float(node))
        if node.is_Add:
            return " + ".join(self(arg) for arg in node.args)
        if node.is_Mul:
            return "*".join(self._factor(arg) for arg in node.args)
        if node.is_Pow and node.exp.is_Integer and 2 <= int(node.exp) <= 4:
            return "*".join([self._factor(node.base)] * int(node.exp))
        if node.is_Pow and node.exp == -1:
            return f"(1/{self._factor(node.base)})"
        if node.is_Pow and node.exp == sp.S.Half:
            return f"sqrt({self(node.base)})"
        function = self._FUNCTIONS.get(type(node))
        if function is not None:
            return f"{function}({self(node.args[0])})"
        return f"({self.printer.doprint(replace_shared(node, dict(self.rename)))})"

    def _factor(self, node: sp.Basic) -> str:
        text = self(node)
        simple = node in self.names or not (node.is_Add or (node.is_Number and node < 0))
        return text if simple else f"({text})"


def _source(
    name: str,
    arguments: Sequence[Sequence[sp.Symbol]],
    rename: Mapping[sp.Symbol, sp.Symbol],
    steps: Sequence[tuple[sp.Symbol, sp.Expr]],
    results: Sequence[sp.Expr],
    text: Callable[[sp.Basic], str],
) -> str:
    """The text of the function ``name``: unpack the arguments, assign the steps, return."""
    lines = [f"def {name}({', '.join(f'a{g}' for g in range(len(arguments)))}):"]
    for group, symbols in enumerate(arguments):
        if symbols:
            names = ", ".join(str(rename[s]) for s in symbols)
            lines.append(f"    {names}{',' if len(symbols) == 1 else ''} = a{group}")
    for symbol, expr in steps:
        lines.append(f"    {rename.get(symbol, symbol)} = {text(expr)}")
    returned = ", ".join(text(e) for e in results)
    lines.append(f"    return ({returned}{',' if len(results) == 1 else ''})")
    return "\n".join(lines)


def _identifier(symbol: sp.Symbol, fallback: str, used: set[str]) -> str:
    text = str(symbol.name) if isinstance(symbol, sp.Symbol) else ""
    reserved = text.startswith(("w", "x", "a")) or text in _SCALAR_NAMESPACE
    return text if text.isidentifier() and not reserved and text not in used else fallback


# --------------------------------------------------------------------------------------
# parameters
# --------------------------------------------------------------------------------------


def normalise_values(model: DHModel, values: Mapping[Any, Any] | None) -> dict[sp.Symbol, sp.Float]:
    """Return ``values`` keyed by the symbols of a robot's description, with float values.

    Keys may be symbols or their names (``"m_1"``); a key that is not a
    parameter of the robot is an error, so a typo never goes unnoticed.
    Values must be real numbers (``TypeError`` for text, booleans, complex
    numbers, None, SymPy expressions with symbols, ...).
    """
    if values is None or (isinstance(values, Mapping) and not values):
        return {}
    if not isinstance(values, Mapping):
        raise TypeError(
            f"values: expected a mapping {{symbol: number}}, got {type(values).__name__}"
        )
    known = model.symbolic_parameters()
    by_name = {str(symbol): symbol for symbol in known}
    result = {}
    for key, value in values.items():
        symbol = by_name.get(key) if isinstance(key, str) else key
        if symbol not in known:
            raise ValueError(
                f"values: {key!r} is not a parameter of this robot; its symbolic parameters are "
                f"{', '.join(sorted(by_name)) or 'none'}"
            )
        problem = scalar_problem(value)  # float("1.5") and float(True) would pass
        if problem is not None:
            raise TypeError(f"values[{key!r}]: expected a real number, got {problem[0]}")
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if not math.isfinite(number):
            raise ValueError(f"values[{key!r}]: expected a finite number, got {number}")
        result[symbol] = sp.Float(number)
    return result


def missing_parameters(
    model: DHModel, values: Mapping[sp.Symbol, Any], dynamics: bool
) -> list[str]:
    """Return the symbolic parameters without a value, each with where it appears.

    Examples
    --------
    >>> from robolab.symbols import q1, l1
    >>> missing_parameters(DHModel.new([(l1, 0, 0, q1)]), {}, dynamics=False)
    ['l_1 (row 1, a)']
    """
    where = model.symbolic_parameters(dynamics=dynamics)
    return [f"{s} ({'; '.join(places)})" for s, places in where.items() if s not in values]


# --------------------------------------------------------------------------------------
# symbolic recursive Newton–Euler
# --------------------------------------------------------------------------------------


class _Program:
    """A straight-line program: every non-trivial value gets its own name."""

    def __init__(self) -> None:
        self.assignments: list[tuple[sp.Symbol, sp.Expr]] = []

    def let(self, expr: sp.Expr) -> sp.Expr:
        if expr.is_Atom or (expr.is_Mul and len(expr.args) == 2 and expr.args[0] == -1):
            return expr
        symbol = sp.Dummy(f"w{len(self.assignments)}")
        self.assignments.append((symbol, expr))
        return symbol

    def vector(self, v: sp.MatrixBase) -> sp.Matrix:
        return sp.Matrix([self.let(x) for x in v])

    def prune(self, outputs: Sequence[sp.Expr]) -> list[tuple[sp.Symbol, sp.Expr]]:
        needed = set().union(*(sp.sympify(e).free_symbols for e in outputs))
        kept = []
        for symbol, expr in reversed(self.assignments):
            if symbol in needed:
                kept.append((symbol, expr))
                needed |= expr.free_symbols
        return kept[::-1]


def newton_euler_program(
    model: DHModel, values: Mapping[sp.Symbol, Any] | None = None
) -> tuple[list[tuple[sp.Symbol, sp.Expr]], list[sp.Expr]]:
    """Return the inverse dynamics τ(q, q̇, q̈) as a straight-line program.

    The recursive Newton–Euler algorithm in the form of Modern Robotics
    (section 8.3.2), in the DH link frames {i} with twists ``[ω; v]``:

    * forward, i = 1..n: ``V_i = Ad_{T_i,i-1} V_{i-1} + S_i q̇_i`` and
      ``V̇_i = Ad_{T_i,i-1} V̇_{i-1} + ad_{V_i} S_i q̇_i + S_i q̈_i``, starting
      from ``V̇_0 = [0; -g]`` (gravity as an upward acceleration of the base);
    * backward, i = n..1: ``F_i = Ad_{T_i+1,i}ᵀ F_{i+1} + G_i V̇_i − ad_{V_i}ᵀ G_i V_i``
      and ``τ_i = F_iᵀ S_i``,

    where S_i is joint i's screw axis in frame {i} and G_i the spatial inertia
    of link i about the origin of {i}. Every vector component that is not a
    number or a single symbol becomes a new intermediate symbol.

    Parameters
    ----------
    model : DHModel
        The robot's description (``robot.model``).
    values : mapping, optional
        Numbers for symbolic parameters.

    Returns
    -------
    assignments : list of (Symbol, Expr)
        Intermediates in evaluation order, in terms of the robot's internal
        joint symbols and earlier intermediates.
    torques : list of Expr
        τ_1 … τ_n in terms of the intermediates.
    """
    values = dict(values or {})
    chain, inertial = model.chain, model.inertial
    n = chain.dof
    program = _Program()
    standard = chain.convention == "standard"
    transform = dh_standard if standard else dh_modified
    gravity = sp.Matrix(inertial.gravity).xreplace(values)
    centres = inertial.centres_of_mass()
    omega, velocity = sp.zeros(3, 1), sp.zeros(3, 1)
    omega_dot, acceleration = sp.zeros(3, 1), -gravity
    links = []
    phi = sp.Dummy("phi")
    for i in range(1, n + 1):
        a, alpha, d, theta = (e.xreplace(values) for e in chain.entries[i - 1])
        revolute = chain.rows[i - 1].joint_type == "r"
        if revolute:
            cosine, sine = program.let(sp.cos(theta)), program.let(sp.sin(theta))
            A = cast(sp.Matrix, transform(a, alpha, d, phi)).xreplace(
                {sp.cos(phi): cosine, sp.sin(phi): sine}
            )
        else:
            A = transform(a, alpha, program.let(d), theta)
        R, p = A[:3, :3], A[:3, 3]
        if standard:  # joint i turns about z_{i-1}; written in frame {i}
            axis = sp.Matrix([0, sp.sin(alpha), sp.cos(alpha)])
            offset = sp.Matrix([0, a * sp.cos(alpha), -a * sp.sin(alpha)])
        else:
            axis, offset = sp.Matrix([0, 0, 1]), sp.zeros(3, 1)
        S_w, S_v = (axis, offset) if revolute else (sp.zeros(3, 1), axis)
        qd, qdd = chain.qd[i - 1], chain.qdd[i - 1]
        Rt = R.T
        new_omega = program.vector(Rt * omega + S_w * qd)
        new_velocity = program.vector(Rt * (velocity + omega.cross(p)) + S_v * qd)
        new_omega_dot = program.vector(Rt * omega_dot + new_omega.cross(S_w) * qd + S_w * qdd)
        new_acceleration = program.vector(
            Rt * (acceleration + omega_dot.cross(p))
            + (new_omega.cross(S_v) + new_velocity.cross(S_w)) * qd
            + S_v * qdd
        )
        omega, velocity, omega_dot, acceleration = (
            new_omega,
            new_velocity,
            new_omega_dot,
            new_acceleration,
        )
        links.append((R, p, S_w, S_v, omega, velocity, omega_dot, acceleration))
    moment, force = sp.zeros(3, 1), sp.zeros(3, 1)
    torques: list[sp.Expr] = [sp.S.Zero] * n
    child = None
    for i in range(n, 0, -1):
        _, _, S_w, S_v, omega, velocity, omega_dot, acceleration = links[i - 1]
        m = inertial.masses[i - 1].xreplace(values)
        c = sp.Matrix(centres[i - 1]).xreplace(values)
        I_c = sp.Matrix(inertial.inertias[i - 1]).xreplace(values)
        I_o = I_c + m * ((c.T * c)[0, 0] * sp.eye(3) - c * c.T)
        angular_momentum = program.vector(I_o * omega + m * c.cross(velocity))
        linear_momentum = program.vector(m * velocity - m * c.cross(omega))
        new_moment = (
            I_o * omega_dot
            + m * c.cross(acceleration)
            + omega.cross(angular_momentum)
            + velocity.cross(linear_momentum)
        )
        new_force = m * acceleration - m * c.cross(omega_dot) + omega.cross(linear_momentum)
        if child is not None:
            R_child, p_child = child
            transmitted = program.vector(R_child * force)
            new_moment += R_child * moment + p_child.cross(transmitted)
            new_force += transmitted
        moment, force = program.vector(new_moment), program.vector(new_force)
        torques[i - 1] = program.let((moment.T * S_w + force.T * S_v)[0, 0])
        child = links[i - 1][:2]
    return program.prune(torques), torques


# --------------------------------------------------------------------------------------
# the numeric robot
# --------------------------------------------------------------------------------------


class NumericDHRobot:
    """Compiled numeric functions of a :class:`robolab.DHRobot` (from ``robot.numeric()``).

    Every method takes plain arrays: one configuration ``q`` of shape ``(n,)``
    or a batch of shape ``(B, n)`` (then every result gains a leading axis B).
    Functions are generated on first use and kept. Conventions are the DH
    robot's: frames numbered 0..n, Jacobian rows ``[v; ω]`` in the base frame.

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import DHRobot
    >>> from robolab.symbols import q1, q2
    >>> arm = DHRobot((1.0, 0, 0, q1), (1.0, 0, 0, q2))
    >>> fast = arm.numeric()
    >>> fast.forward_kinematics([0.0, np.pi / 2])[:3, 3].round(12)
    array([1., 1., 0.])
    >>> fast.frames(np.zeros((5, 2))).shape
    (5, 3, 4, 4)
    """

    def __init__(self, robot: Any, values: Mapping[sp.Symbol, sp.Float]) -> None:
        # the robot, to notice a setter (a new description); its description, to compile
        self._robot = robot
        self._model = model = robot.model
        self._kinematics = DerivedKinematics.of(model.chain)
        self._values = dict(values)
        self._functions: dict[str, Any] = {}
        self.n_joints: int = model.chain.dof
        #: Moro's name for :attr:`n_joints`, as on :class:`~robolab.DHRobot`.
        self.dof: int = self.n_joints
        self.name: str = model.name
        self.joint_types: list[str] = list(model.chain.joint_types)
        self.convention: str = model.chain.convention
        self._symbols = (model.chain.q, model.chain.qd, model.chain.qdd)

    def __repr__(self) -> str:
        return f"NumericDHRobot({self.name!r}, dof={self.dof})"

    # --- plumbing ----------------------------------------------------------------------

    def _compiled(self, key: str, dynamics: bool, build: Callable[[], Any]) -> Any:
        current = self._robot.model  # a setter replaced the chain or the dynamic parameters?
        if current.chain is not self._model.chain or current.inertial is not self._model.inertial:
            raise RuntimeError(
                "the robot's parameters changed after numeric() was called; "
                "call robot.numeric() again for functions with the new values"
            )
        if key not in self._functions:
            missing = missing_parameters(self._model, self._values, dynamics)
            if missing:
                kind = "dynamic" if dynamics else "kinematic"
                raise ValueError(
                    f"{key}() needs numbers for every {kind} parameter; still symbolic: "
                    f"{', '.join(missing)}. Give them numbers (robot.masses = [...], etc.) or "
                    "pass them: robot.numeric({symbol_or_name: value, ...})"
                )
            self._functions[key] = build()
        return self._functions[key]

    def _state(self, value: Any, name: str) -> np.ndarray:
        # The fast path takes real numeric arrays only: np.asarray(..., float) would read
        # booleans as 0/1, drop imaginary parts and parse text; as_float_array refuses them.
        if type(value) is np.ndarray and value.dtype.kind in "fiu":
            array = np.asarray(value, dtype=float)
        else:
            array = None
        if (
            array is None
            or array.ndim == 0
            or array.shape[-1] != self.dof
            or not np.isfinite(array).all()
        ):
            return as_float_array(value, name, (self.dof,), batch=True)  # raises, naming it
        return array

    @staticmethod
    def _call(functions: tuple[Callable, Callable], *arrays: np.ndarray) -> np.ndarray:
        scalar, batch = functions
        if arrays[0].ndim == 1:
            return np.array(scalar(*[a.tolist() for a in arrays]), dtype=float)
        columns = [[a[..., i] for i in range(a.shape[-1])] for a in arrays]
        results = batch(*columns)
        return np.stack(np.broadcast_arrays(*results, arrays[0][..., 0]), axis=-1)[..., :-1]

    def _numeric(self, matrix: sp.MatrixBase) -> list[sp.Expr]:
        memo: dict = {}
        return [replace_shared(entry, self._values, memo) for entry in matrix]

    def _kinematic_function(self, key: str, outputs: Callable[[], sp.MatrixBase]) -> Any:
        def build() -> tuple[Callable, Callable]:
            with Progress(f"compiling {key}", 2) as progress:
                progress.update(0, "symbolic result")
                expressions = self._numeric(outputs())
                progress.update(1, "Python function")
                scalar, batch, _ = compile_expressions(key, [self._model.chain.q], expressions)
            return scalar, batch

        return self._compiled(key, False, build)

    # --- kinematics ----------------------------------------------------------------------

    def frames(self, q: ArrayLike) -> np.ndarray:
        """Return the poses of all frames, ``T_00 = I, T_01, …, T_0n``.

        Parameters
        ----------
        q : array_like, shape (n,) or (B, n)
            Joint positions (radians for revolute, metres for prismatic joints).

        Returns
        -------
        ndarray, shape (n+1, 4, 4) or (B, n+1, 4, 4)
        """

        def outputs() -> sp.Matrix:
            blocks = [R.row_join(p) for R, p in self._kinematics.frames(0)[1:]]
            return sp.Matrix.vstack(*blocks)

        q = self._state(q, "q")
        values = self._call(self._kinematic_function("frames", outputs), q)
        n = self.dof
        out = np.zeros((*q.shape[:-1], n + 1, 4, 4))
        out[..., 0, :, :] = np.eye(4)
        out[..., 1:, :3, :] = values.reshape((*q.shape[:-1], n, 3, 4))
        out[..., 1:, 3, 3] = 1.0
        return out

    def forward_kinematics(self, q: ArrayLike) -> np.ndarray:
        """Return the end-effector pose ``T_0n · tool``, shape (4, 4) or (B, 4, 4)."""

        def outputs() -> sp.Matrix:
            return (self._kinematics.pose(self.dof) * self._model.chain.tool)[:3, :]

        q = self._state(q, "q")
        values = self._call(self._kinematic_function("forward_kinematics", outputs), q)
        out = np.zeros((*q.shape[:-1], 4, 4))
        out[..., :3, :] = values.reshape((*q.shape[:-1], 3, 4))
        out[..., 3, 3] = 1.0
        return out

    def jacobian(self, q: ArrayLike) -> np.ndarray:
        """Return the geometric Jacobian of the end-effector origin, shape (6, n) or (B, 6, n).

        Rows ``[v; ω]`` in the base frame (Moro's and Spong's ``J``): column j
        is ``[z × (p − o); z]`` for a revolute joint and ``[z; 0]`` for a
        prismatic one, with z and o the axis and origin of joint j; compiled
        from the symbolic :attr:`DHRobot.J`.
        """

        def outputs() -> sp.Matrix:
            return self._kinematics.end_effector_jacobian()

        q = self._state(q, "q")
        values = self._call(self._kinematic_function("jacobian", outputs), q)
        return values.reshape((*q.shape[:-1], 6, self.dof))

    # --- dynamics ------------------------------------------------------------------------

    def _program(self) -> DynamicsProgram:
        """M, ∂M/∂q and G as named pieces, with the numbers of ``values`` (built once)."""
        if "program" not in self._functions:
            # without values, the robot's own (its symbolic M, C, G of a long arm come from it)
            program = DerivedDynamics.of(self._model).program(self._values)
            self._functions["program"] = program
        return cast(DynamicsProgram, self._functions["program"])

    def _program_function(
        self, key: str, outputs: Callable[[DynamicsProgram], list[sp.Expr]], arguments: int
    ) -> tuple[Callable, Callable]:
        def build() -> tuple[Callable, Callable]:
            with Progress(f"compiling {key}", 2) as progress:
                progress.update(0, "named pieces of M, ∂M/∂q and G")
                program = self._program()
                results = outputs(program)
                progress.update(1, "Python function")
                scalar, batch, _ = compile_expressions(
                    key, self._symbols[:arguments], results, program.needed(results), cse=False
                )
            return scalar, batch

        return self._compiled(key, True, build)

    def mass_matrix(self, q: ArrayLike) -> np.ndarray:
        """Return the mass matrix M(q), shape (n, n) or (B, n, n) (Moro: ``inertia_matrix``).

        Examples
        --------
        >>> import numpy as np
        >>> from robolab import DHRobot
        >>> from robolab.symbols import q1, q2
        >>> arm = DHRobot((1.0, 0, 0, q1), (1.0, 0, 0, q2))
        >>> arm.masses = [1.0, 1.0]
        >>> arm.cm_positions = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]  # point masses at the tips
        >>> arm.inertia_tensors = [np.zeros((3, 3))] * 2
        >>> fast = arm.numeric()
        >>> fast.mass_matrix([0.0, 0.0])  # m1 l1² + m2 (l1 + l2)², as in the screw form
        array([[5., 2.],
               [2., 1.]])
        >>> np.array_equal(fast.inertia_matrix([0.0, 0.0]), fast.mass_matrix([0.0, 0.0]))
        True
        """
        return self.inertia_matrix(q)

    def gravity_forces(self, q: ArrayLike) -> np.ndarray:
        """Return the gravity torques G(q), shape (n,) or (B, n) (Moro: ``gravity_vector``)."""
        return self.gravity_vector(q)

    def inertia_matrix(self, q: ArrayLike) -> np.ndarray:
        """Return the mass matrix M(q), shape (n, n) or (B, n, n): Moro's name of
        :meth:`mass_matrix`."""
        n = self.dof
        upper = [(a, b) for a in range(n) for b in range(a, n)]

        def entries(program: DynamicsProgram) -> list[sp.Expr]:
            return [program.mass_matrix[a, b] for a, b in upper]

        q = self._state(q, "q")
        values = self._call(self._program_function("inertia_matrix", entries, 1), q)
        out = np.empty((*q.shape[:-1], n, n))
        rows, cols = np.array(upper).T
        out[..., rows, cols] = values
        out[..., cols, rows] = values
        return out

    def gravity_vector(self, q: ArrayLike) -> np.ndarray:
        """Return the gravity torques G(q), shape (n,) or (B, n): Moro's name of
        :meth:`gravity_forces`."""
        q = self._state(q, "q")
        function = self._program_function("gravity_vector", lambda p: list(p.gravity), 1)
        return self._call(function, q)

    def _coriolis_function(self) -> tuple[Callable, Callable]:
        """C_ij = Σ_k c_ijk q̇_k with the Christoffel symbols of the named ∂M_ab/∂q_c."""
        n, qd = self.dof, self._model.chain.qd

        def entries(program: DynamicsProgram) -> list[sp.Expr]:
            return [
                sp.Add(*[program.christoffel(i, j, k) * qd[k] for k in range(n)])
                for i in range(n)
                for j in range(n)
            ]

        return self._program_function("coriolis_matrix", entries, 2)

    def coriolis_matrix(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """Return C(q, q̇) from the Christoffel symbols, shape (n, n) or (B, n, n).

        ``C_ij = Σ_k c_ijk q̇_k`` with ``c_ijk = ½(∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i)``,
        so ``Ṁ − 2C`` is skew-symmetric.
        """
        q, qd = self._state(q, "q"), self._state(qd, "qd")
        if q.shape != qd.shape:
            q, qd = np.broadcast_arrays(q, qd)
        values = self._call(self._coriolis_function(), q, qd)
        return values.reshape((*q.shape[:-1], self.dof, self.dof))

    def _newton_euler_function(self) -> tuple[Callable, Callable]:
        def build() -> tuple[Callable, Callable]:
            with Progress("compiling inverse_dynamics", 2) as progress:
                progress.update(0, "Newton–Euler program")
                assignments, torques = newton_euler_program(self._model, self._values)
                progress.update(1, "Python function")
                scalar, batch, _ = compile_expressions(
                    "inverse_dynamics", self._symbols, torques, assignments, cse=False
                )
            return scalar, batch

        return self._compiled("inverse_dynamics", True, build)

    def inverse_dynamics(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike) -> np.ndarray:
        """Return the joint torques ``τ = M(q) q̈ + C(q, q̇) q̇ + G(q)``, shape (n,) or (B, n).

        Computed by the symbolic recursive Newton–Euler program
        (:func:`newton_euler_program`), compiled; gravity is the robot's.
        """
        q, qd, qdd = self._state(q, "q"), self._state(qd, "qd"), self._state(qdd, "qdd")
        if not q.shape == qd.shape == qdd.shape:
            q, qd, qdd = np.broadcast_arrays(q, qd, qdd)
        return self._call(self._newton_euler_function(), q, qd, qdd)
