"""The shape of the package, checked on its source: find every algorithm by its name.

docs/architecture.md states the rule; this test keeps it standing. Every module under
``robolab/`` is parsed with :mod:`ast` (nothing of it is run here, but for reading the name
table ``robolab/_api.py``), and the test fails on

(a) a public name that is not in the one table ``robolab/_api.py``, or an entry of the table
    that does not resolve to an object defined in the module it names; a module named like a
    public name; a chapter widget whose module is not named after its class;
(b) code that exists only for speed (a ``_fast/`` module) imported from outside its layer, or
    not listed in its layer's ``REPRODUCES`` with the readable function it must equal, or
    without a test under ``tests/<layer>/_fast/``;
(c) an underscore name imported from another file;
(d) a module of ``robolab/`` without ``tests/<same path>/test_<module>.py`` (unless listed in
    :data:`WITHOUT_OWN_TEST_FILE`, which may only get shorter);
(e) ``# fmt: skip`` outside ``_fast/`` (there is no size limit to squeeze under), a mixin;
(f) an import against the layer order, an import cycle, a function-level import without a
    comment saying why it is lazy;
(g) a look-up of the "where is" table of docs/architecture.md that does not lead to the file
    defining the algorithm, or an algorithm (a public function or class) defined twice.

The checkers take the package directory, so the last tests run them on small broken
packages to show that each one can fail.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from robolab import _api

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "robolab"
TESTS = ROOT / "tests"

LAYERS = _api.LAYERS
FACE = ""  # the subpackage name of robolab's top-level modules

#: Top-level modules that are a layer of their own (not the face): the defaults and
#: conventions, and the table of names, which every layer reads.
LEAF_MODULES = ("conventions", "_api")

#: The view layer draws: of the numeric back end it uses the robot, kinematics and
#: trajectories, never dynamics, simulation, control or their engines.
FORBIDDEN = {
    "views": ("screw.dynamics", "screw.simulation", "screw.control", "screw._fast"),
}

#: Modules without a test file of their own name, and why. May only get shorter.
WITHOUT_OWN_TEST_FILE: dict[str, str] = {
    "conventions.py": "constants only; every layer's tests use them",
    "exercises.py": "re-exports robolab.lessons.exercises (tests/contracts/test_lazy_import.py)",
    "symbols.py": "re-exports robolab.dh.symbols (tests/contracts/test_lazy_import.py)",
}

#: Underscore names that one file may import from another, each with the reason. Empty.
PRIVATE_IMPORTS: dict[str, str] = {}

#: The "where is" look-ups every newcomer makes (issue 24): what, the file a newcomer opens
#: first going by the folder and file names, and a name that file defines.
LOOKUPS = {
    "computed torque": ("screw/control/laws.py", "computed_torque"),
    "ABA (forward dynamics)": ("screw/dynamics/forward.py", "forward_dynamics_aba"),
    "body Jacobian": ("screw/kinematics/jacobian.py", "jacobian_body"),
    "LSPB (trapezoidal time scaling)": (
        "screw/trajectories/time_scaling.py",
        "trapezoidal_time_scaling",
    ),
    "Christoffel symbols": ("dh/lagrangian.py", "christoffel_symbol"),
    "DH → screw": ("dh/to_screw.py", "screw_parameters"),
    "teach pendant": ("views/widgets/teach_pendant.py", "TeachPendant"),
    "matrix answer checker": ("lessons/exercises/numeric_answers.py", "check_numeric"),
}


# --------------------------------------------------------------------------- reading the source


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


def definitions(path: Path) -> dict[str, int]:
    """Top-level names a module defines (def, class, assignment) → line."""
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found[node.name] = node.lineno
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.lineno
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found[node.target.id] = node.lineno
    return found


# --------------------------------------------------------------------------- the checkers


def privacy_problems(package: Path, allowed: dict[str, str] = PRIVATE_IMPORTS) -> list[str]:
    """(c) Underscore names imported from another file; private modules from another layer.

    A ``_fast`` module may be imported by the modules of its own layer (its readable
    functions), ``_api`` by every layer; nothing else private crosses a file.
    """
    subs = subpackages(package)
    problems = []
    for item in imports(package):
        dunder = item.name is not None and item.name.startswith("__")
        private_name = item.name is not None and item.name.startswith("_") and not dunder
        if private_name and f"{item.target}.{item.name}" not in allowed:
            problems.append(
                f"{_where(item, package)}: {item.module} imports {item.name} from "
                f"{item.target}: give it a public name where it is defined"
            )
        parts = item.target.split(".")
        for k, part in enumerate(parts):
            if not part.startswith("_") or part.startswith("__") or part == "_api":
                continue
            owner = ".".join(parts[:k])  # the folder holding the private module
            same_layer = subpackage(item.module, subs) == subpackage(owner, subs) != FACE
            if not (part == "_fast" and same_layer) and not item.module.startswith(owner + "."):
                problems.append(
                    f"{_where(item, package)}: {item.module} imports the private "
                    f"{'.'.join(parts[: k + 1])} from outside {owner}"
                )
    return problems


def layer_problems(
    package: Path,
    layers: tuple[tuple[str, ...], ...] = LAYERS,
    forbidden: dict[str, tuple[str, ...]] = FORBIDDEN,
) -> list[str]:
    """(f) Imports of a subpackage that is not below the importer's layer, or forbidden."""
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


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules whose import ``start`` needs, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def lazy_import_problems(package: Path) -> list[str]:
    """(f) Function-level imports must say why they are lazy (speed, optional dependency)."""
    return [
        f"{_where(item, package)}: {item.module} imports {item.target} inside a function "
        "without a '# lazy, ...' comment saying why (a function-level import must not hide "
        "an import cycle)"
        for item in imports(package)
        if item.in_function and not item.commented_lazy
    ]


def table_problems(
    package: Path, tables: tuple[dict[str, tuple[str, ...]], ...], renamed: dict[str, str]
) -> list[str]:
    """(a) Each entry of the name table is defined, at the top level, in the module it names;
    no name is listed twice; an old name of ``renamed`` is no longer listed, its new one is."""
    mods = modules(package)
    problems, seen = [], {}
    for table in tables:
        for module, names in table.items():
            path = mods.get(f"{package.name}.{module}")
            if path is None or _is_package(path):
                problems.append(f"_api: {module} is not a module of {package.name}")
                continue
            defined = definitions(path)
            for name in names:
                if name in seen:
                    problems.append(f"_api: {name} is listed under {seen[name]} and {module}")
                seen[name] = module
                if name not in defined:
                    problems.append(f"_api: {name} is not defined in {module} ({path.name})")
    for old, new in renamed.items():
        if old in seen or new not in seen:
            problems.append(f"_api.RENAMED: {old} → {new} needs {new} listed and {old} not")
    return problems


def naming_problems(package: Path, public: dict[str, set[str]]) -> list[str]:
    """(a) Modules named like a public name of the package that holds them, which the module
    would shadow (``public``: package path relative to the parent, ``robolab/screw`` → names)."""
    return [
        f"{path.relative_to(package.parent)}: the module is named like the public name "
        f"{path.stem!r} of its package"
        for path in sorted(package.rglob("*.py"))
        if path.stem in public.get(path.parent.relative_to(package.parent).as_posix(), set())
        and path.stem not in _api.FACE_MODULES
    ]


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def widget_name_problems(package: Path) -> list[str]:
    """(a) A chapter widget's module is the snake case of the class it defines."""
    problems = []
    for path in sorted((package / "views" / "chapters").glob("[!_]*.py")):
        classes = [
            node.name
            for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_")
        ]
        if path.stem not in {snake_case(name) for name in classes}:
            problems.append(f"{path.name}: no class named {path.stem} in CamelCase ({classes})")
    return problems


def fast_problems(package: Path, tests: Path) -> list[str]:
    """(b) Each ``_fast`` module is listed in its layer's REPRODUCES, with a readable function
    that exists, and is named by a test under ``tests/<layer>/_fast/``."""
    problems = []
    for fast in sorted(package.rglob("_fast/__init__.py")):
        folder = fast.parent
        layer = folder.parent.relative_to(package).as_posix()
        reproduces = {}
        for node in ast.parse(fast.read_text(encoding="utf-8")).body:
            if (
                isinstance(node, ast.AnnAssign | ast.Assign)
                and "REPRODUCES" in ast.unparse(node).split("=")[0]
            ):
                reproduces = ast.literal_eval(node.value)
        listed = {key.split(".")[0] for key in reproduces}
        for path in sorted(folder.glob("[!_]*.py")):
            if path.stem not in listed:
                problems.append(f"{layer}/_fast/{path.name}: not in {layer}/_fast REPRODUCES")
        test_dir = tests / layer / "_fast"
        test_text = "\n".join(
            p.read_text(encoding="utf-8") for p in sorted(test_dir.glob("test_*.py"))
        )
        for engine, readable in reproduces.items():
            module, _, name = engine.partition(".")
            path = folder / f"{module}.py"
            if not path.is_file() or name.split(".")[0] not in definitions(path):
                problems.append(f"{layer}/_fast REPRODUCES: {engine} does not exist")
            if name.split(".")[-1] not in test_text:
                problems.append(f"{layer}/_fast REPRODUCES: no test in {test_dir} names {engine}")
            if readable.startswith("matplotlib:"):
                continue
            target_module, _, target = readable.rpartition(".")
            target_path = package / (target_module.replace(".", "/") + ".py")
            if not target_path.is_file() or target not in definitions(target_path):
                problems.append(f"{layer}/_fast REPRODUCES: {readable} does not exist")
    return problems


def mirror_problems(
    package: Path, tests: Path, exempt: dict[str, str] = WITHOUT_OWN_TEST_FILE
) -> list[str]:
    """(d) tests/<same path>/test_<module>.py for every module of the package."""
    problems = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        if path.name == "__init__.py" or "__pycache__" in relative.parts:
            continue
        key = relative.as_posix()
        expected = tests / relative.parent / f"test_{path.stem.lstrip('_')}.py"
        if key in exempt:
            if expected.is_file():
                problems.append(f"{key}: has {expected.name} now: remove it from the exemptions")
        elif not expected.is_file():
            problems.append(f"{key}: no {expected.relative_to(tests.parent)}")
    return problems


def style_problems(package: Path) -> list[str]:
    """(e) ``# fmt: skip`` outside ``_fast/`` (no module is squeezed under a size) and mixins."""
    problems = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent)
        text = path.read_text(encoding="utf-8")
        if "_fast" not in relative.parts:
            for number, line in enumerate(text.splitlines(), 1):
                if re.search(r"#\s*fmt:\s*(skip|off)", line):
                    problems.append(f"{relative}:{number}: '# fmt: skip' (let ruff format it)")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and re.search(r"(Mixin|Methods)$", node.name):
                problems.append(f"{relative}:{node.lineno}: mixin {node.name}: one class, one file")
    return problems


def duplicate_definition_problems(package: Path) -> list[str]:
    """(g) A public function or class is defined in one module of its layer only (one body per
    algorithm); the engines of ``_fast/`` are twins by design, ``main`` is each command's
    entry, and the two back ends may share a word (``dh`` computes ``kinetic_energy`` in
    SymPy, ``screw`` in NumPy)."""
    where: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        if "_fast" in path.parts:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            public = not node.name.startswith("_") if hasattr(node, "name") else False
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and public and node.name != "main":
                relative = path.relative_to(package)
                where.setdefault(f"{relative.parts[0]}:{node.name}", []).append(relative.as_posix())
    return [
        f"{key.partition(':')[2]} is defined in {', '.join(paths)}"
        for key, paths in where.items()
        if len(paths) > 1
    ]


def lookup_problems(package: Path, lookups: dict[str, tuple[str, str]]) -> list[str]:
    """(g) Each look-up's file exists and defines the name."""
    problems = []
    for what, (file, name) in lookups.items():
        path = package / file
        if not path.is_file() or name not in definitions(path):
            problems.append(f"{what}: {file} does not define {name}")
    return problems


def doc_table(text: str) -> dict[str, tuple[str, str]]:
    """The "Where is …" table of docs/architecture.md: what → (file, name)."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"\|\s*([^|]+?)\s*\|\s*`robolab/([^`]+)`\s*\|\s*`(\w+)`", line)
        if match:
            found[match.group(1)] = (match.group(2), match.group(3))
    return found


def _public_names() -> dict[str, set[str]]:
    """Each package's public names (the face's and the layers'), by its folder."""
    folders = [PACKAGE, *(path.parent for path in PACKAGE.rglob("__init__.py"))]
    return {
        folder.relative_to(ROOT).as_posix(): set(
            _api.names_of(".".join(folder.relative_to(ROOT).parts))
        )
        for folder in folders
    }


# --------------------------------------------------------------------------- the package


def test_every_public_name_is_in_the_table_and_defined_where_it_says():
    assert table_problems(PACKAGE, (_api.FACE, _api.SUBPACKAGE), _api.RENAMED) == []


def test_no_module_is_named_like_a_public_name():
    assert naming_problems(PACKAGE, _public_names()) == []


def test_each_chapter_widget_is_in_the_file_named_after_its_class():
    assert widget_name_problems(PACKAGE) == []


def test_speed_code_is_listed_with_what_it_reproduces_and_tested():
    assert fast_problems(PACKAGE, TESTS) == []


def test_no_private_name_crosses_a_file():
    assert privacy_problems(PACKAGE) == []


def test_tests_mirror_the_package():
    assert mirror_problems(PACKAGE, TESTS) == []


def test_no_squeezing_and_no_mixins():
    assert style_problems(PACKAGE) == []


def test_imports_follow_the_layer_order():
    assert layer_problems(PACKAGE) == []


def test_every_subpackage_is_in_a_layer():
    assert subpackages(PACKAGE) == {sub for layer in LAYERS for sub in layer}


def test_no_import_cycle():
    assert cycles(import_graph(PACKAGE)) == []


def test_no_function_level_import_hides_a_cycle():
    assert cycles(import_graph(PACKAGE, with_functions=True)) == []
    assert lazy_import_problems(PACKAGE) == []


def test_the_views_do_not_sit_on_dynamics_simulation_and_control():
    graph = import_graph(PACKAGE, through_packages=False)
    banned = {f"robolab.{name}" for name in FORBIDDEN["views"]}
    for module in graph:
        if module.startswith("robolab.views"):
            needs = reachable(graph, module)
            assert {m for m in needs if any(m.startswith(b) for b in banned)} == set(), module


def test_each_public_algorithm_has_one_definition():
    assert duplicate_definition_problems(PACKAGE) == []


def test_a_newcomer_finds_each_look_up_in_one_guess():
    assert lookup_problems(PACKAGE, LOOKUPS) == []


def test_the_where_is_table_of_the_architecture_doc_is_true():
    table = doc_table((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    assert len(table) >= 20
    assert lookup_problems(PACKAGE, table) == []
    for what, (file, name) in LOOKUPS.items():
        assert (file, name) in table.values(), f"{what} is missing from the doc's table"


def test_architecture_doc_states_the_same_layer_order():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layers = [tuple(s for s in layer if s != "_api") for layer in LAYERS]
    order = " → ".join(", ".join(layer) for layer in layers) + " → robolab"
    assert order in text


def test_the_wheel_lists_every_package():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'^\s*"(robolab(?:\.\w+)*)",$', pyproject, flags=re.M))
    packages = {".".join(p.parent.relative_to(ROOT).parts) for p in PACKAGE.rglob("__init__.py")}
    assert packages <= listed


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


def test_a_private_import_is_caught(tmp_path):
    root = _package(
        tmp_path,
        {
            "spatial/motions.py": "def _kernel(): pass\n",
            "screw/dynamics.py": "from ..spatial.motions import _kernel\n",
            "screw/chain.py": "def _inner(): pass\n",
            "screw/robot.py": "from .chain import _inner\n",  # another file, same folder
            "screw/_fast/batched.py": "x = 1\n",
            "screw/rnea.py": "from ._fast import batched\n",  # own layer: fine
            "views/draw.py": "from ..screw._fast import batched\n",
            "support/_private.py": "x = 1\n",
            "spatial/frames.py": "from ..support import _private\n",
            "screw/names.py": "from .._api import exports\n",  # every layer reads it
        },
    )
    (root / "_api.py").write_text("def exports(): pass\n")
    problems = privacy_problems(root)
    assert len(problems) == 4, problems
    assert "imports _kernel from robolab.spatial.motions" in problems[0]
    assert "imports _inner" in problems[1]
    assert "the private robolab.support._private" in " ".join(problems)
    assert "the private robolab.screw._fast from outside robolab.screw" in " ".join(problems)
    assert privacy_problems(root, allowed={"robolab.spatial.motions._kernel": "why"}) != problems


@pytest.mark.parametrize(
    ("where", "source", "complaint"),
    [
        ("spatial/motions.py", "from ..screw.robot import ScrewRobot\n", "layer order"),
        ("views/view.py", "from ..lessons.step_reveal import reveal\n", "layer order"),
        ("screw/robot.py", "def f():\n    from ..dh.robot import DHRobot\n", "layer order"),
        ("views/view.py", "from ..screw.simulation.free import simulate\n", "must not use"),
        ("models/files.py", "from .. import load_robot\n", "layer order"),
    ],
)
def test_an_import_against_the_layers_is_caught(tmp_path, where, source, complaint):
    root = _package(
        tmp_path,
        {
            where: source,
            "screw/robot.py": "ScrewRobot = 1\n" if where != "screw/robot.py" else source,
            "screw/simulation/free.py": "simulate = 1\n",
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
        ["robolab.dh.conversion", "robolab.dh.robot", "robolab.dh.conversion"]
    ]
    (root / "dh" / "conversion.py").write_text("def f():\n    from .robot import DHRobot\n")
    assert cycles(import_graph(root)) == []
    assert cycles(import_graph(root, with_functions=True)) != []
    assert len(lazy_import_problems(root)) == 1
    (root / "support").mkdir()
    (root / "support" / "__init__.py").write_text("from ..dh import conversion\n")
    (root / "dh" / "__init__.py").write_text("from ..support import tools\n")
    (root / "support" / "tools.py").touch()
    assert cycles(import_graph(root)) != []  # support/__init__ ↔ dh/__init__


def test_a_wrong_table_entry_is_caught(tmp_path):
    root = _package(tmp_path, {"screw/dynamics/rnea.py": "def rnea(): pass\nLIMIT = 3\n"})
    good = {"screw.dynamics.rnea": ("rnea", "LIMIT")}
    assert table_problems(root, (good,), {}) == []
    assert len(table_problems(root, ({"screw.dynamics.rnea": ("aba",)},), {})) == 1
    assert len(table_problems(root, ({"screw.dynamics": ("rnea",)},), {})) == 1  # a package
    assert len(table_problems(root, (good, {"screw.dynamics.rnea": ("rnea",)}), {})) == 1
    assert table_problems(root, (good,), {"old_rnea": "rnea"}) == []
    assert len(table_problems(root, (good,), {"rnea": "x"})) == 1


def test_a_module_named_like_a_public_name_or_a_misnamed_widget_is_caught(tmp_path):
    root = _package(
        tmp_path,
        {
            "screw/forward_dynamics.py": "",
            "screw/kinematics.py": "",
            "views/chapters/drop_the_arm.py": "class DropTheArm: pass\n",
            "views/chapters/simulation_view.py": "class DropTheArm: pass\n",
        },
    )
    public = {"robolab/screw": {"forward_dynamics", "ScrewRobot"}}
    assert len(naming_problems(root, public)) == 1
    assert naming_problems(root, {"robolab/views": {"forward_dynamics"}}) == []
    assert widget_name_problems(root) == [
        "simulation_view.py: no class named simulation_view in CamelCase (['DropTheArm'])"
    ]


def test_unlisted_or_untested_speed_code_is_caught(tmp_path):
    root = _package(
        tmp_path,
        {
            "screw/dynamics/rnea.py": "def inverse_dynamics_rnea(): pass\n",
            "screw/_fast/__init__.py": (
                "REPRODUCES = {'batched.rnea': 'screw.dynamics.rnea.inverse_dynamics_rnea'}\n"
            ),
            "screw/_fast/batched.py": "def rnea(): pass\n",
            "screw/_fast/loops.py": "def loop(): pass\n",
        },
    )
    tests = tmp_path / "tests"
    (tests / "screw" / "_fast").mkdir(parents=True)
    problems = fast_problems(root, tests)
    assert problems == [
        "screw/_fast/loops.py: not in screw/_fast REPRODUCES",
        "screw/_fast REPRODUCES: no test in "
        + str(tests / "screw" / "_fast")
        + " names batched.rnea",
    ]
    (tests / "screw" / "_fast" / "test_batched.py").write_text("batched.rnea(...)\n")
    assert len(fast_problems(root, tests)) == 1


def test_a_module_without_its_test_file_is_caught(tmp_path):
    root = _package(tmp_path, {"screw/dynamics/rnea.py": "", "conventions.py": ""})
    tests = tmp_path / "tests"
    (tests / "screw" / "dynamics").mkdir(parents=True)
    assert mirror_problems(root, tests, exempt={"conventions.py": "constants"}) == [
        "screw/dynamics/rnea.py: no tests/screw/dynamics/test_rnea.py"
    ]
    (tests / "screw" / "dynamics" / "test_rnea.py").touch()
    (tests / "test_conventions.py").touch()
    assert mirror_problems(root, tests, exempt={"conventions.py": "constants"}) == [
        "conventions.py: has test_conventions.py now: remove it from the exemptions"
    ]


def test_squeezing_mixins_and_duplicates_are_caught(tmp_path):
    root = _package(
        tmp_path,
        {
            "screw/laws.py": "x = [1,\n  2]  # fmt: skip\ndef computed_torque(): pass\n",
            "screw/_fast/loops.py": "x = [1,\n  2]  # fmt: skip\n",
            "dh/robot.py": "class KinematicsMethods: pass\n",
            "screw/tracking.py": "def computed_torque(): pass\ndef _private(): pass\n",
        },
    )
    assert len(style_problems(root)) == 2
    assert duplicate_definition_problems(root) == [
        "computed_torque is defined in screw/laws.py, screw/tracking.py"
    ]


def test_a_wrong_look_up_is_caught(tmp_path):
    root = _package(tmp_path, {"screw/control/laws.py": "def computed_torque(): pass\n"})
    assert lookup_problems(root, {"ct": ("screw/control/laws.py", "computed_torque")}) == []
    assert len(lookup_problems(root, {"ct": ("screw/control/tracking.py", "computed_torque")})) == 1
    text = "| computed torque | `robolab/screw/control/laws.py` | `computed_torque` |\n"
    assert doc_table(text) == {"computed torque": ("screw/control/laws.py", "computed_torque")}
