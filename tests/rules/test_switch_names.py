"""Every switch name and reading written in the code is one ``rulings.py`` declares.

Switches are read as ``rules["los.vertex"]`` and compared with literal readings
(``== "touch_ok"``, ``in ("a", "b")``, a dict keyed by readings). A typo in either
would silently pick the wrong branch, so this test reads every Python file under
``machina_nb/``, ``tests/`` and ``benchmarks/``, the code cells of the notebooks
and the rulings tables of the worked examples, and reports each offender as
``path:line: switch 'x' has no reading 'y'``.

What counts as a rules object: a name or attribute ending in ``rules`` (any
case), a name assigned from ``Rules(...)``, ``Rules.preset(...)``,
``<rules>.replace(...)`` or ``<x>.rules()``, and those calls themselves. A
local assigned once from ``rules["s"]`` (or ``self.x = rules["s"]`` in a class)
stands for switch ``s``; a name bound by a ``for`` over literal strings, or a
module constant that is a tuple of strings, stands for each of those strings.

A line that misspells a name deliberately (to test that it is refused) says so
with the comment ``# unknown on purpose``.
"""

from __future__ import annotations

import ast
import functools
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from machina_nb.rules.rulings import PRESETS, SWITCHES

ROOT = Path(__file__).resolve().parents[2]

# Offenders inside machina_nb/rules/engine/ left for the engine rewrite: exact
# "path:line: message" texts, each mapped to the fix it needs. None today; an
# entry whose line is fixed must go (test_every_pending_engine_offender_is_still_there).
ENGINE_PENDING: dict[str, str] = {}

# A line that misspells a switch to test the refusal carries this comment.
ON_PURPOSE = "# unknown on purpose"


@functools.cache
def _python_sources() -> tuple[tuple[str, str], ...]:
    """``(relative path, source)`` of every Python file and notebook code cell we scan."""
    sources = []
    for folder in ("machina_nb", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            sources.append((path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")))
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate(cells, 1):
            if cell["cell_type"] != "code":
                continue
            lines = "".join(cell["source"]).splitlines()
            # IPython magics and shell lines are not Python: keep line numbers, drop them.
            code = "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in lines)
            sources.append((f"{path.relative_to(ROOT).as_posix()}[cell {number}]", code))
    return tuple(sources)


def _strings(node: ast.AST | None) -> list[str] | None:
    """The literal strings of a string constant or a tuple/list/set of them, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]
    return None


def _dict_keys(node: ast.AST | None) -> list[tuple[str, int]] | None:
    """``(key, line)`` of a dict literal whose keys are all strings, else None."""
    if isinstance(node, ast.Dict) and node.keys and all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return [(k.value, k.lineno) for k in node.keys]
    return None


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


@dataclass
class _File:
    """What one source file binds: rules objects, switch aliases, literal names, tables."""

    path: str
    tree: ast.Module
    rules_names: set[str] = field(default_factory=set)
    constants: dict[str, list[str]] = field(default_factory=dict)
    tables: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    offenders: list[str] = field(default_factory=list)

    def report(self, node: ast.AST, message: str) -> None:
        self.offenders.append(f"{self.path}:{node.lineno}: {message}")

    def is_rules(self, node: ast.AST) -> bool:
        """Whether ``node`` is (by name or by construction) a ``Rules`` object."""
        if isinstance(node, ast.Name):
            return node.id.lower().endswith("rules") or node.id in self.rules_names
        if isinstance(node, ast.Attribute):
            return node.attr.lower().endswith("rules")
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "Rules":
                return True
            if isinstance(func, ast.Attribute):
                if func.attr == "preset" and _dotted(func.value) == "Rules":
                    return True
                if func.attr == "replace" and self.is_rules(func.value):
                    return True
                return func.attr == "rules" and not node.args
        return False

    def check_switch(self, node: ast.AST, name: str) -> bool:
        if name in SWITCHES:
            return True
        self.report(node, f"no switch {name!r}")
        return False

    def check_reading(self, node: ast.AST, switch: str, reading: str) -> None:
        if switch in SWITCHES and reading not in SWITCHES[switch].readings:
            self.report(node, f"switch {switch!r} has no reading {reading!r}")


def _bind_file(file: _File) -> None:
    """Module constants (string tuples, reading tables) and names assigned a Rules object."""
    for node in file.tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    if (strings := _strings(node.value)) is not None:
                        file.constants[target.id] = strings
                    if (keys := _dict_keys(node.value)) is not None:
                        file.tables[target.id] = keys
    pairs = [(target.id, value) for node in ast.walk(file.tree)
             for target, value in _pairs(node) if isinstance(target, ast.Name)]
    changed = True
    while changed:  # a name assigned from another rules name is a rules name too
        changed = False
        for name, value in pairs:
            if name not in file.rules_names and file.is_rules(value):
                file.rules_names.add(name)
                changed = True


def _pairs(node: ast.AST) -> list[tuple[ast.AST, ast.AST]]:
    """``(target, value)`` pairs of an assignment, unpacking ``a, b = x, y``."""
    if isinstance(node, ast.Assign):
        pairs = []
        for target in node.targets:
            if (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                    and len(target.elts) == len(node.value.elts)):
                pairs.extend(zip(target.elts, node.value.elts))
            else:
                pairs.append((target, node.value))
        return pairs
    if isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
        return [(node.target, node.value)]
    return []


class _Scope(ast.NodeVisitor):
    """Checks one function (or module, or class) body; nested functions get their own scope."""

    def __init__(self, file: _File, aliases: dict[str, str], values: dict[str, list[str]]):
        self.file = file
        self.aliases = dict(aliases)   # local name or self.attr -> switch it holds
        self.values = dict(values)     # loop variable -> the literal strings it runs over

    def run(self, body: list[ast.stmt]) -> None:
        self._collect(body)
        for stmt in body:
            self.visit(stmt)

    def _collect(self, body: list[ast.stmt], methods: bool = False) -> None:
        """Aliases assigned once from a switch read; loop names over literal strings.

        With ``methods``, also look inside the methods of a class body, where
        ``self.x = rules["s"]`` in one method is read in another.
        """
        seen: dict[str, set[str | None]] = {}
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not methods:
                continue
            for node in _walk_scope(stmt):
                for target, value in _pairs(node):
                    key = _dotted(target)
                    if key is not None and (not methods or key.startswith("self.")
                                            or stmt is node):
                        seen.setdefault(key, set()).add(self.switch_of(value))
                for name, switch in self._readings_passed(node):
                    seen.setdefault(name, set()).add(switch)
                if isinstance(node, (ast.For, ast.comprehension)) and isinstance(
                        node.target, ast.Name):
                    strings = self.strings(node.iter)
                    if strings is not None:
                        self.values[node.target.id] = strings
        for key, switches in seen.items():
            # A name also assigned something else (a player's choice) still holds readings.
            known = switches - {None}
            (switch,) = known if len(known) == 1 else (None,)
            if switch is not None:
                self.aliases[key] = switch
            else:
                self.aliases.pop(key, None)

    def _readings_passed(self, node: ast.AST) -> list[tuple[str, str]]:
        """``(name, switch)`` for ``replace({"s": name})`` or ``Rules({"s": name})``."""
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Dict)):
            return []
        func = node.func
        if not ((isinstance(func, ast.Name) and func.id == "Rules") or (
                isinstance(func, ast.Attribute) and func.attr == "replace"
                and self.file.is_rules(func.value))):
            return []
        return [(value.id, key.value) for key, value in zip(node.args[0].keys, node.args[0].values)
                if isinstance(key, ast.Constant) and isinstance(key.value, str)
                and isinstance(value, ast.Name)]

    def strings(self, node: ast.AST | None) -> list[str] | None:
        if isinstance(node, ast.Name):
            return self.values.get(node.id, self.file.constants.get(node.id))
        return _strings(node)

    def switch_of(self, node: ast.AST) -> str | None:
        """The switch whose reading ``node`` is: ``rules["s"]`` or an alias of one."""
        if isinstance(node, ast.Subscript) and self.file.is_rules(node.value):
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                return key.value
        if isinstance(node, ast.BoolOp):  # (units or rules["path.units"]) == "ignored"
            found = {self.switch_of(value) for value in node.values} - {None}
            return found.pop() if len(found) == 1 else None
        dotted = _dotted(node)
        return self.aliases.get(dotted) if dotted is not None else None

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for default in node.args.defaults + node.args.kw_defaults:
            if default is not None:
                self.visit(default)
        for decorator in node.decorator_list:
            self.visit(decorator)
        inner = _Scope(self.file, self.aliases, self.values)
        arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        for argument in arguments:
            inner.aliases.pop(argument.arg, None)
            inner.values.pop(argument.arg, None)
        inner.values.update(_parametrized(node))
        inner.run(node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        # self.x = rules["s"] in one method is read in another: collect over the class.
        inner = _Scope(self.file, self.aliases, self.values)
        inner._collect(node.body, methods=True)
        for stmt in node.body:
            inner.visit(stmt)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        declared = _dotted(node.value) in ("SWITCHES", "rulings.SWITCHES")
        if declared or self.file.is_rules(node.value):
            names = self.strings(node.slice)
            for name in names or ():
                self.file.check_switch(node, name)
        switch = self.switch_of(node.slice)
        if switch is not None:
            self._check_table(node.value, switch)
        self.generic_visit(node)

    def _check_table(self, table: ast.AST, switch: str) -> None:
        """A dict keyed by readings and looked up with a switch's reading."""
        keys = _dict_keys(table)
        if keys is None and isinstance(table, ast.Name):
            keys = self.file.tables.get(table.id)
        for reading, line in keys or ():
            if switch in SWITCHES and reading not in SWITCHES[switch].readings:
                self.file.offenders.append(
                    f"{self.file.path}:{line}: switch {switch!r} has no reading {reading!r}")

    def visit_Compare(self, node: ast.Compare) -> None:
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands, operands[1:]):
            if isinstance(op, (ast.Eq, ast.NotEq)):
                pairs = [(left, right), (right, left)]
            elif isinstance(op, (ast.In, ast.NotIn)):
                pairs = [(left, right)]
            else:
                continue
            for side, other in pairs:
                switch = self.switch_of(side)
                readings = self.strings(other)
                if switch is not None and readings is not None:
                    for reading in readings:
                        self.file.check_reading(node, switch, reading)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr == "reads" and self.file.is_rules(func.value):
                self._check_reads(node)
            elif func.attr == "replace" and self.file.is_rules(func.value):
                self._check_changes(node)
            elif func.attr == "preset" and _dotted(func.value) == "Rules":
                self._check_preset(node)
            elif func.attr == "get" and self.file.is_rules(func.value) and node.args:
                for name in self.strings(node.args[0]) or ():
                    self.file.check_switch(node, name)
            elif func.attr == "get" and node.args and (switch := self.switch_of(node.args[0])):
                self._check_table(func.value, switch)
        elif isinstance(func, ast.Name) and func.id == "Rules":
            self._check_changes(node)
        self.generic_visit(node)

    def _check_reads(self, node: ast.Call) -> None:
        args = list(node.args) + [k.value for k in node.keywords]
        if not args:
            return
        for name in self.strings(args[0]) or ():
            if self.file.check_switch(node, name) and len(args) > 1:
                for reading in self.strings(args[1]) or ():
                    self.file.check_reading(node, name, reading)

    def _check_changes(self, node: ast.Call) -> None:
        """``replace({switch: reading})``, ``replace(los_vertex=...)`` and ``Rules({...})``."""
        changes: list[tuple[str, ast.AST, ast.AST]] = []
        if node.args and isinstance(node.args[0], ast.Dict):
            for key, value in zip(node.args[0].keys, node.args[0].values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    changes.append((key.value, key, value))
        keywords = {name.replace(".", "_"): name for name in SWITCHES}
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg == "name":
                continue
            name = keywords.get(keyword.arg, keyword.arg.replace("_", ".", 1))
            changes.append((name, keyword, keyword.value))
        for name, where, value in changes:
            if self.file.check_switch(where, name):
                for reading in self.strings(value) or ():
                    self.file.check_reading(where, name, reading)

    def _check_preset(self, node: ast.Call) -> None:
        for name in (self.strings(node.args[0]) if node.args else None) or ():
            if name not in PRESETS:
                self.file.report(node, f"no preset {name!r}")


def _parametrized(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[str]]:
    """Argument name -> literal strings, from ``@pytest.mark.parametrize`` with literal lists."""
    values: dict[str, list[str]] = {}
    for decorator in node.decorator_list:
        if not (isinstance(decorator, ast.Call) and _dotted(decorator.func) is not None
                and _dotted(decorator.func).endswith("parametrize") and len(decorator.args) > 1):
            continue
        first, cases = decorator.args[0], decorator.args[1]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            names = [name.strip() for name in first.value.split(",")]
        else:
            names = _strings(first) or []
        if not isinstance(cases, (ast.List, ast.Tuple)) or not names:
            continue
        for index, name in enumerate(names):
            column = [c if len(names) == 1 else
                      (c.elts[index] if isinstance(c, ast.Tuple) and len(c.elts) == len(names)
                       else None) for c in cases.elts]
            strings = [_strings(c) for c in column]
            if all(s is not None and len(s) == 1 and isinstance(c, ast.Constant)
                   for s, c in zip(strings, column)):
                values[name] = [s[0] for s in strings]
    return values


def _walk_scope(node: ast.AST):
    """Every node under ``node`` except the insides of nested functions, lambdas and classes."""
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, nested))


def scan_source(path: str, source: str) -> list[str]:
    """Every offender in one Python source, as ``path:line: message``."""
    file = _File(path, ast.parse(source, filename=path))
    _bind_file(file)
    _Scope(file, {}, {}).run(file.tree.body)
    lines = source.splitlines()
    return [o for o in file.offenders
            if ON_PURPOSE not in lines[int(o[len(path) + 1:].split(":")[0]) - 1]]


def _toml_line(text: str, table: str, key: str) -> int:
    """The line of ``key = ...`` inside ``[table]`` (or ``table = ...``), 1 if not found."""
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            inside = stripped.strip("[] ") == table
        elif (inside or table == "") and stripped.split("=")[0].strip().strip('"') == key:
            return number
    return 1


def scan_examples() -> list[str]:
    """Offenders in the ``rules`` preset and ``[rulings]`` table of each worked example."""
    offenders = []
    for path in sorted((ROOT / "content" / "examples").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        where = path.relative_to(ROOT).as_posix()
        preset = data.get("rules", "manual")
        if preset not in PRESETS:
            offenders.append(f"{where}:{_toml_line(text, '', 'rules')}: no preset {preset!r}")
        for name, reading in dict(data.get("rulings", {})).items():
            line = _toml_line(text, "rulings", name)
            if name not in SWITCHES:
                offenders.append(f"{where}:{line}: no switch {name!r}")
            elif reading not in SWITCHES[name].readings:
                offenders.append(f"{where}:{line}: switch {name!r} has no reading {reading!r}")
    return offenders


@pytest.fixture(scope="module")
def offenders() -> list[str]:
    found = [o for path, source in _python_sources() for o in scan_source(path, source)]
    return found + scan_examples()


def test_every_switch_and_reading_written_in_the_code_is_declared(offenders):
    unexpected = [o for o in offenders if o not in ENGINE_PENDING]
    assert not unexpected, "undeclared switches or readings:\n" + "\n".join(unexpected)


def test_every_pending_engine_offender_is_still_there(offenders):
    """An entry of ENGINE_PENDING whose line was fixed must be removed from it."""
    fixed = [entry for entry in ENGINE_PENDING if entry not in offenders]
    assert not fixed, "fixed; remove from ENGINE_PENDING:\n" + "\n".join(fixed)


# The scan itself, on a small source with one typo of each kind it must catch.
_TYPOS = '''
import pytest
from machina_nb.rules.rulings import Rules
RULES = Rules()
MANUAL, V35 = Rules(), Rules.preset("v3_5x")
_BY_READING = {"separatin": 1, "touch_ok": 2}
def f(rules, r, state, units):
    reading = rules["los.vertex"]
    if reading == "touch_okk" or rules["los.vertexx"]:
        return _BY_READING[rules["los.vertex"]], {"a": 1}.get(reading)
    if r.rules["roll.floor"] in ("none", "clamp") or (units or rules["path.units"]) != "ign":
        MANUAL.replace({"los.vertex": "nah"}), V35.replace(los_vertex="nah2")
    state.rules.reads("roll.floor", "clampo")
    for metric in ("chebyshev", "euclid"):
        RULES.replace({"nearest.metric": metric})
    return [rules[name] for name in ("push.off_axis", "push.cornerz")]
class Planner:
    def __init__(self, rules):
        self.when = rules["adjust35.when"]
    def due(self):
        return self.when == "every_resett"
@pytest.mark.parametrize("reading", ["v1_0", "v3_6"])
def test_a(reading):
    Rules().replace({"spawn.procedure": reading})
    assert reading != "v1_1"
@pytest.mark.parametrize("metric, n", [("chebyshev", 1), ("manhatan", 2)])
def test_b(metric, n):
    Rules({"nearest.metric": metric})
def unrelated(reading, rules):
    return reading == "whatever", rules.name == "manual"
SWITCHES["los.vertx"]
'''


def test_the_scan_reports_each_kind_of_typo_with_its_line():
    assert scan_source("typos.py", _TYPOS) == [
        "typos.py:5: no preset 'v3_5x'",
        "typos.py:9: switch 'los.vertex' has no reading 'touch_okk'",
        "typos.py:9: no switch 'los.vertexx'",
        "typos.py:6: switch 'los.vertex' has no reading 'separatin'",
        "typos.py:10: switch 'los.vertex' has no reading 'a'",
        "typos.py:11: switch 'roll.floor' has no reading 'clamp'",
        "typos.py:11: switch 'path.units' has no reading 'ign'",
        "typos.py:12: switch 'los.vertex' has no reading 'nah'",
        "typos.py:12: switch 'los.vertex' has no reading 'nah2'",
        "typos.py:13: switch 'roll.floor' has no reading 'clampo'",
        "typos.py:15: switch 'nearest.metric' has no reading 'euclid'",
        "typos.py:16: no switch 'push.cornerz'",
        "typos.py:21: switch 'adjust35.when' has no reading 'every_resett'",
        "typos.py:24: switch 'spawn.procedure' has no reading 'v3_6'",
        "typos.py:25: switch 'spawn.procedure' has no reading 'v1_1'",
        "typos.py:28: switch 'nearest.metric' has no reading 'manhatan'",
        "typos.py:31: no switch 'los.vertx'",
    ]


def test_the_scan_reaches_the_switch_reads_of_the_package():
    """A guard on the guard: the package reads well over a hundred switches by literal name."""
    reads = 0
    for path, source in _python_sources():
        if path.startswith("machina_nb/"):
            file = _File(path, ast.parse(source))
            _bind_file(file)
            reads += sum(isinstance(node, ast.Subscript) and file.is_rules(node.value)
                         and isinstance(node.slice, ast.Constant) for node in ast.walk(file.tree))
    assert reads > 100
