"""Layers: the rules core imports no UI library and keeps sympy lazy; the
wings import one way, with no circle and no import of ours hidden inside a function.

Each check runs in a fresh interpreter so that modules other tests loaded do not hide an import.
"""

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import networkx as nx

BLOCKED = ("ipywidgets", "bokeh", "jupyter_bokeh", "IPython")


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


def test_every_rules_module_imports_and_loads_content_with_ui_libraries_blocked():
    result = run_python(f"""
        import importlib, pkgutil, sys

        BLOCKED = {BLOCKED!r}

        class Blocker:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in BLOCKED:
                    raise ImportError(f"{{name}} is blocked in the rules core")
                return None

        sys.meta_path.insert(0, Blocker())
        for name in BLOCKED:
            try:
                importlib.import_module(name)
            except ImportError:
                pass
            else:
                raise SystemExit(f"the blocker let {{name}} through")

        import machina_nb.rules
        names = [info.name for info in pkgutil.walk_packages(machina_nb.rules.__path__,
                                                             "machina_nb.rules.")]
        for name in names + ["machina_nb.cli"]:
            importlib.import_module(name)
        from machina_nb.rules import content
        from machina_nb.rules.cards import catalog
        from machina_nb.rules.board import tiles
        from machina_nb.rules.cards.units import load_all_units
        tiles.load_tiles(); load_all_units()
        catalog.validate(content.content_root() / "examples" / "p22_door_adjacency.toml")
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
        assert not loaded, loaded
        print(len(names), "modules")
    """)
    assert result.returncode == 0, result.stderr
    count = int(result.stdout.split()[0])
    assert count >= 6  # content, errors, examples, maptext, rulings, units at least


def test_the_front_door_imports_no_ui_library():
    """``import machina_nb`` (the facade) works with the notebook libraries blocked."""
    result = run_python(f"""
        import sys

        class Blocker:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {BLOCKED!r}:
                    raise ImportError(f"{{name}} is blocked behind the front door")
                return None

        sys.meta_path.insert(0, Blocker())
        import machina_nb
        from machina_nb import *
        print(pool("1H1L"), hit_chance("1H1L", 3))
        assert not [m for m in sys.modules if m.split(".")[0] in {BLOCKED!r}]
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1H+1L", "5/9"]


def test_the_map_text_module_does_not_import_sympy():
    result = run_python("""
        import sys
        import machina_nb.rules.board.maptext
        assert "sympy" not in sys.modules, "maptext pulled in sympy"
        print("ok")
    """)
    assert result.returncode == 0, result.stderr


# --- the wings: one direction of imports, no circle, no import hidden in a function ------------

ROOT = Path(__file__).resolve().parents[2] / "machina_nb"

WING_MAY_IMPORT = {
    "top": set(),                      # errors, rulings, content, checks: the shared base
    "board": {"top"},
    "odds": {"top"},
    "cards": {"top", "board"},
    "engine": {"top", "board", "odds", "cards"},
    "peers": {"top", "board", "odds"},
    "analysis": {"top", "board", "odds", "cards", "engine"},
    "views": {"top", "board", "odds", "cards", "engine", "peers", "analysis"},
    "cli": {"top", "board", "odds", "cards", "engine", "peers", "analysis"},
    "door": {"top", "board", "odds", "cards", "engine", "peers", "analysis"},
}
"""Which wing may import which (docs/ARCHITECTURE.md); a wing may always import itself."""


def _wing(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "door"
    if parts[1] == "rules":
        return parts[2] if len(parts) > 3 else "top"
    return "views" if parts[1] == "views" else "cli"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> tuple[set[str], list[tuple[int, str]]]:
    """The machina_nb modules a file imports at its top, and those imported inside a body."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top, inner = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("machina_nb"):
            found = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        elif isinstance(node, ast.Import):
            found = [a.name for a in node.names if a.name.startswith("machina_nb")]
        else:
            continue
        modules = {name for name in found if name in MODULES}
        if node in tree.body:
            top |= modules
        elif modules:
            inner.append((node.lineno, sorted(modules)[0]))
    return top, inner


MODULES = {_module_name(path): path for path in ROOT.rglob("*.py")}


def test_wings_import_one_way_only():
    wrong = []
    for name, path in sorted(MODULES.items()):
        for imported in sorted(_imports(path)[0]):
            here, there = _wing(name), _wing(imported)
            if imported != "machina_nb" and there != here and there not in WING_MAY_IMPORT[here]:
                wrong.append(f"{name} ({here}) imports {imported} ({there})")
    assert not wrong, "\n".join(wrong)


def test_no_import_circle_between_modules():
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        graph.add_edges_from((name, imported) for imported in _imports(path)[0]
                             if imported != name and imported != "machina_nb")
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not circles, circles


def test_no_module_of_ours_is_imported_inside_a_function():
    hidden = [f"{name}:{line} imports {imported}" for name, path in sorted(MODULES.items())
              for line, imported in _imports(path)[1]]
    assert not hidden, "\n".join(hidden)


def test_no_function_is_longer_than_80_lines():
    long = [f"{name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for name, path in sorted(MODULES.items())
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > 80]
    assert not long, "\n".join(long)


def test_no_module_is_longer_than_800_lines():
    """One subject per file: a module that grows past 800 lines holds more than one."""
    long = [f"{name} ({count} lines)" for name, path in sorted(MODULES.items())
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > 800]
    assert not long, "\n".join(long)


def test_one_name_per_concept_no_two_public_classes_share_a_name():
    """A class name means one thing across the package (private helpers excepted)."""
    where: dict[str, list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert {name: files for name, files in where.items() if len(files) > 1} == {}
