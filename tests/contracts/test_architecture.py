"""The shape of the package, checked on its source: layers, privacy, no cycles, module size.

docs/architecture.md describes the house; this test keeps it standing. Every module under
``robolab/`` is parsed with :mod:`ast` (nothing is imported) and the test fails on

(a) an import of another subpackage's underscore name or underscore module,
(b) an import against the layer order :data:`LAYERS` (and the views importing the screw
    modules of dynamics, simulation or control),
(c) an import cycle among modules (module-level imports, with the package ``__init__``
    that each import runs), or a function-level import that would close one, or one
    without a comment saying why it is lazy,
(d) a module longer than :data:`MAX_LINES`, unless listed in
    :data:`TOO_LONG_TO_SPLIT_YET` and no longer than recorded there,
(e) a module named like a public function or class (``robolab.x`` must not be both).

The checkers take the package directory, so the last tests run them on small broken
packages to show that each one can fail.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "robolab"

#: The layers, lowest first. A module may import modules of its own subpackage and of the
#: layers before its own; views and lessons share a layer and do not import each other.
#: The package face (robolab/__init__.py, robolab/exercises.py, robolab/symbols.py) is on
#: top of everything.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("conventions",),
    ("support",),
    ("spatial",),
    ("screw",),
    ("dh",),
    ("models",),
    ("views", "lessons"),
)
FACE = ""  # the subpackage name of robolab's top-level modules

#: Top-level modules that are a layer of their own (not the face): robolab/conventions.py,
#: the defaults and conventions every layer imports.
LEAF_MODULES = ("conventions",)

#: The view layer draws: of the numeric back end it needs kinematics only, never the
#: dynamics-and-control side (nor the robot-first facade over it).
FORBIDDEN = {
    "views": (
        "screw.robot_first",
        "screw.dynamics",
        "screw.dynamics_kernel",
        "screw.batched",
        "screw.forward_dynamics",
        "screw.simulation",
        "screw.motion_simulation",
        "screw.integrators",
        "screw.rnea_steps",
        "screw.robot_control",
        "screw.model_based_control",
        "screw.joint_control",
        "screw.resolved_rate",
    ),
}

MAX_LINES = 700

#: Modules over MAX_LINES that are not split yet, with their line count when listed. The
#: counts may only go down: split a module by concept (as models/library.py was into
#: file_format, reading, writing and plausibility, models/urdf.py into urdf_tree and urdf,
#: dh/derivations.py into derivations and gathered_equation, and lessons/exercises.py into
#: answers, numeric_answers, symbolic_answers, function_answers and exercises) and remove it
#: from this list. Empty: every module is within MAX_LINES.
TOO_LONG_TO_SPLIT_YET: dict[str, int] = {}


# --------------------------------------------------------------------------- the checkers


@dataclass(frozen=True)
class Import:
    """One import statement's target as seen from a module."""

    module: str  # the importing module, dotted
    target: str  # the imported module, dotted
    name: str | None  # the name taken from it (None: the module itself)
    line: int
    in_function: bool
    commented_lazy: bool


def modules(package: Path) -> dict[str, Path]:
    """Dotted module name → file, for every module of the package (packages as __init__)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _lazy_comment(lines: list[str], lineno: int) -> bool:
    """A comment with "lazy" on the import's line or on one of the two lines above it."""
    window = lines[max(0, lineno - 3) : lineno]
    return any("#" in line and "lazy" in line.split("#", 1)[1].lower() for line in window)


def imports(package: Path) -> list[Import]:
    """Every import of the package's own modules, resolved to absolute names."""
    mods = modules(package)
    found: list[Import] = []
    for module, path in mods.items():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, filename=str(path))
        _collect(tree, False, module, path, source.splitlines(), mods, package.name, found)
    return found


def _collect(
    node: ast.AST,
    in_function: bool,
    module: str,
    path: Path,
    lines: list[str],
    mods: dict[str, Path],
    top: str,
    found: list[Import],
) -> None:
    base = module.split(".") if _is_package(path) else module.split(".")[:-1]
    for child in ast.iter_child_nodes(node):
        inner = in_function or isinstance(
            child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
        )
        if isinstance(child, ast.ImportFrom):
            if child.level:
                up = base[: len(base) - (child.level - 1)]
                target = ".".join(up + ([child.module] if child.module else []))
            else:
                target = child.module or ""
            if target == top or target.startswith(top + "."):
                lazy = _lazy_comment(lines, child.lineno)
                for alias in child.names:
                    full = f"{target}.{alias.name}"
                    if full in mods:  # from package import module
                        found.append(Import(module, full, None, child.lineno, in_function, lazy))
                    else:
                        found.append(
                            Import(module, target, alias.name, child.lineno, in_function, lazy)
                        )
        elif isinstance(child, ast.Import):
            for alias in child.names:
                if alias.name == top or alias.name.startswith(top + "."):
                    lazy = _lazy_comment(lines, child.lineno)
                    found.append(Import(module, alias.name, None, child.lineno, in_function, lazy))
        _collect(child, inner, module, path, lines, mods, top, found)


def subpackages(package: Path) -> set[str]:
    """The names of the package's subpackages (directories with an __init__.py), and of
    the top-level modules that are a layer of their own (:data:`LEAF_MODULES`)."""
    found = {path.parent.name for path in package.glob("*/__init__.py")}
    return found | {name for name in LEAF_MODULES if (package / f"{name}.py").is_file()}


def subpackage(module: str, subs: set[str]) -> str:
    """``robolab.screw.dynamics.rnea`` → ``screw``; ``robolab``, ``robolab.symbols`` → FACE."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in subs else FACE


def _rank(sub: str, layers: tuple[tuple[str, ...], ...]) -> int:
    for rank, layer in enumerate(layers):
        if sub in layer:
            return rank
    return len(layers)  # the face, or a subpackage missing from LAYERS: on top


def _where(item: Import, package: Path) -> str:
    path = modules(package)[item.module].relative_to(package.parent)
    return f"{path}:{item.line}"


def privacy_problems(package: Path) -> list[str]:
    """(a) Underscore names or modules imported from another subpackage."""
    subs = subpackages(package)
    problems = []
    for item in imports(package):
        if subpackage(item.module, subs) == subpackage(item.target, subs):
            continue
        private_module = any(
            part.startswith("_") and not part.startswith("__") for part in item.target.split(".")
        )
        private_name = item.name is not None and (
            item.name.startswith("_") and not item.name.startswith("__")
        )
        if private_module or private_name:
            what = item.target + (f".{item.name}" if item.name else "")
            problems.append(f"{_where(item, package)}: {item.module} imports private {what}")
    return problems


def layer_problems(
    package: Path,
    layers: tuple[tuple[str, ...], ...] = LAYERS,
    forbidden: dict[str, tuple[str, ...]] = FORBIDDEN,
) -> list[str]:
    """(b) Imports of a subpackage that is not below the importer's layer, or forbidden."""
    subs = subpackages(package)
    top = package.name
    problems = []
    for item in imports(package):
        sub, target_sub = subpackage(item.module, subs), subpackage(item.target, subs)
        if sub == target_sub:
            continue
        if sub != FACE and _rank(target_sub, layers) >= _rank(sub, layers):
            problems.append(
                f"{_where(item, package)}: {item.module} ({sub}) imports {item.target} "
                f"({target_sub or 'the face'}): against the layer order"
            )
        for banned in forbidden.get(sub, ()):
            full = f"{top}.{banned}"
            if item.target == full or item.target.startswith(full + "."):
                problems.append(
                    f"{_where(item, package)}: {item.module} imports {item.target}, "
                    f"which the {sub} layer must not use"
                )
    return problems


def import_graph(
    package: Path, with_functions: bool = False, through_packages: bool = True
) -> dict[str, set[str]]:
    """Module → modules whose code runs when it is imported (its imports and their packages).

    Importing ``a.b.c`` first runs ``a/b/__init__.py``: that edge is added too (unless
    ``through_packages`` is false), except for the importer's own ancestors (already being
    imported).
    """
    mods = modules(package)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for item in imports(package):
        if item.in_function and not with_functions:
            continue
        own = item.module.split(".")
        ancestors = {".".join(own[:k]) for k in range(1, len(own))}
        parts = item.target.split(".")
        for k in range(1, len(parts) + 1):
            step = ".".join(parts[:k])
            runs = step in mods and step not in ancestors and step != item.module
            if runs and (through_packages or step == item.target):
                graph[item.module].add(step)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle found by a depth-first search (one per back edge)."""
    found, state = [], {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                found.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    return found


def depth(graph: dict[str, set[str]]) -> dict[str, int]:
    """Import level of each module: 0 for a module that imports none of the package."""
    levels: dict[str, int] = {}

    def level(node: str) -> int:
        if node not in levels:
            levels[node] = 0  # (acyclic graph: only a guard)
            levels[node] = max((level(n) + 1 for n in graph[node]), default=0)
        return levels[node]

    for node in graph:
        level(node)
    return levels


def lazy_import_problems(package: Path) -> list[str]:
    """(c) Function-level imports must say why they are lazy (speed, optional dependency)."""
    return [
        f"{_where(item, package)}: {item.module} imports {item.target} inside a function "
        "without a '# lazy, ...' comment saying why (a function-level import must not hide "
        "an import cycle)"
        for item in imports(package)
        if item.in_function and not item.commented_lazy
    ]


def line_counts(package: Path) -> dict[str, int]:
    """Module path relative to the package → number of lines."""
    return {
        str(path.relative_to(package).as_posix()): len(
            path.read_text(encoding="utf-8").splitlines()
        )
        for path in sorted(package.rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def length_problems(
    package: Path, max_lines: int = MAX_LINES, allowed: dict[str, int] = TOO_LONG_TO_SPLIT_YET
) -> list[str]:
    """(d) Modules over max_lines that are not listed, or longer than listed."""
    problems = []
    for name, count in line_counts(package).items():
        if name in allowed:
            if count > allowed[name]:
                problems.append(
                    f"{name}: {count} lines, more than the {allowed[name]} recorded in "
                    "TOO_LONG_TO_SPLIT_YET (split it, don't grow it)"
                )
        elif count > max_lines:
            problems.append(f"{name}: {count} lines, more than {max_lines}: split it by concept")
    return problems


def naming_problems(package: Path, public: set[str]) -> list[str]:
    """(e) Modules named like one of the public names (a module shadows or is shadowed)."""
    return [
        f"{path.relative_to(package.parent)}: the module is named like the public name "
        f"{path.stem!r}"
        for path in sorted(package.rglob("*.py"))
        if path.stem in public and path.stem not in {"exercises", "symbols"}
    ]


def _public_names() -> set[str]:
    import robolab

    names = set(robolab.__all__)
    for sub in {s for layer in LAYERS for s in layer}:
        module = __import__(f"robolab.{sub}", fromlist=["__all__"])
        names.update(module.__all__)
    return names


# --------------------------------------------------------------------------- the package


def test_no_private_name_crosses_a_subpackage():
    assert privacy_problems(PACKAGE) == []


def test_imports_follow_the_layer_order():
    assert layer_problems(PACKAGE) == []


def test_every_subpackage_is_in_a_layer():
    assert subpackages(PACKAGE) == {sub for layer in LAYERS for sub in layer}


def test_no_import_cycle():
    assert cycles(import_graph(PACKAGE)) == []


def test_no_function_level_import_hides_a_cycle():
    assert cycles(import_graph(PACKAGE, with_functions=True)) == []
    assert lazy_import_problems(PACKAGE) == []


def test_modules_are_short_enough():
    assert length_problems(PACKAGE) == []


def test_too_long_list_names_only_long_modules():
    counts = line_counts(PACKAGE)
    stale = {name for name in TOO_LONG_TO_SPLIT_YET if counts.get(name, 0) <= MAX_LINES}
    assert stale == set(), "now short enough (or gone): remove from TOO_LONG_TO_SPLIT_YET"


def test_no_module_is_named_like_a_public_name():
    assert naming_problems(PACKAGE, _public_names()) == []


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules whose import ``start`` needs, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_the_views_do_not_sit_on_simulation_and_control():
    # Following the modules' own imports. (The subpackage __init__ files re-export eagerly,
    # so at run time importing robolab.views still runs robolab/screw/__init__.py.)
    graph = import_graph(PACKAGE, through_packages=False)
    banned = {f"robolab.{name}" for name in FORBIDDEN["views"]}
    for module in graph:
        if module.startswith("robolab.views"):
            assert reachable(graph, module) & banned == set(), module


def test_architecture_doc_states_the_same_layer_order():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    order = " → ".join(", ".join(layer) for layer in LAYERS) + " → robolab"
    assert order in text


# --------------------------------------------------------------------------- the checkers can fail


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "robolab"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for directory in {root, *(p.parent for p in root.rglob("*.py"))}:
        (directory / "__init__.py").touch()
    return root


def test_a_private_import_across_subpackages_is_caught(tmp_path):
    root = _package(
        tmp_path,
        {
            "spatial/motions.py": "def _kernel(): pass\n",
            "screw/dynamics.py": "from ..spatial.motions import _kernel\n",
            "screw/chain.py": "def _inner(): pass\n",
            "screw/robot.py": "from .chain import _inner\n",  # same subpackage: fine
            "support/_private.py": "x = 1\n",
            "views/draw.py": "from ..support import _private\n",
        },
    )
    problems = privacy_problems(root)
    assert len(problems) == 2
    assert "robolab.spatial.motions._kernel" in problems[0]
    assert "robolab.support._private" in problems[1]


@pytest.mark.parametrize(
    ("where", "source", "complaint"),
    [
        ("spatial/motions.py", "from ..screw.robot import ScrewRobot\n", "layer order"),
        ("views/view.py", "from ..lessons.step_reveal import reveal\n", "layer order"),
        ("screw/robot.py", "def f():\n    from ..dh.robot import DHRobot\n", "layer order"),
        ("views/view.py", "from ..screw.simulation import simulate\n", "must not use"),
        ("models/files.py", "from .. import load_robot\n", "layer order"),
    ],
)
def test_an_import_against_the_layers_is_caught(tmp_path, where, source, complaint):
    root = _package(
        tmp_path,
        {
            where: source,
            "screw/robot.py": "ScrewRobot = 1\n" if where != "screw/robot.py" else source,
            "screw/simulation.py": "simulate = 1\n",
            "dh/robot.py": "DHRobot = 1\n",
            "lessons/step_reveal.py": "reveal = 1\n",
        },
    )
    problems = layer_problems(root)
    assert len(problems) == 1 and complaint in problems[0]


def test_a_cycle_is_caught_also_through_a_package_init(tmp_path):
    root = _package(
        tmp_path,
        {
            "dh/robot.py": "from .conversion import convert\n",
            "dh/conversion.py": "from .robot import DHRobot\n",
            "screw/robot.py": "from ..screw import something\n",
        },
    )
    assert cycles(import_graph(root)) == [
        ["robolab.dh.standard_modified", "robolab.dh.robot", "robolab.dh.standard_modified"]
    ]
    (root / "dh" / "conversion.py").write_text("def f():\n    from .robot import DHRobot\n")
    assert cycles(import_graph(root)) == []
    assert cycles(import_graph(root, with_functions=True)) != []
    assert len(lazy_import_problems(root)) == 1
    (root / "views").mkdir()
    (root / "views" / "__init__.py").write_text("from .view import View\n")
    (root / "views" / "view.py").write_text("from ..views import other\n")
    assert ["robolab.views", "robolab.views.view", "robolab.views"] not in cycles(
        import_graph(root)
    )  # a module's own package is already being imported: no edge
    (root / "support").mkdir()
    (root / "support" / "__init__.py").write_text("from ..dh import conversion\n")
    (root / "dh" / "__init__.py").write_text("from ..support import tools\n")
    (root / "support" / "tools.py").touch()
    assert cycles(import_graph(root)) != []  # support/__init__ ↔ dh/__init__


def test_a_long_module_is_caught(tmp_path):
    root = _package(tmp_path, {"dh/robot.py": "x = 1\n" * 12, "dh/table.py": "x = 1\n" * 8})
    assert length_problems(root, max_lines=10, allowed={}) == [
        "dh/robot.py: 12 lines, more than 10: split it by concept"
    ]
    assert length_problems(root, max_lines=10, allowed={"dh/robot.py": 12}) == []
    assert "recorded" in length_problems(root, max_lines=10, allowed={"dh/robot.py": 11})[0]


def test_a_module_named_like_a_public_function_is_caught(tmp_path):
    root = _package(tmp_path, {"screw/forward_dynamics.py": "", "screw/kinematics.py": ""})
    assert len(naming_problems(root, {"forward_dynamics", "ScrewRobot"})) == 1
