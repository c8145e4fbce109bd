"""Layers: the rules core imports no UI library and keeps sympy lazy (STYLE habit 1).

Each check runs in a fresh interpreter so that modules other tests loaded do not hide an import.
"""

import subprocess
import sys
import textwrap

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
        from machina_nb.rules.units import load_all_units
        content.load_tiles(); load_all_units()
        content.validate(content.content_root() / "examples" / "p22_door_adjacency.toml")
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
        assert not loaded, loaded
        print(len(names), "modules")
    """)
    assert result.returncode == 0, result.stderr
    count = int(result.stdout.split()[0])
    assert count >= 6  # content, errors, examples, maptext, rulings, units at least


def test_the_map_text_module_does_not_import_sympy():
    result = run_python("""
        import sys
        import machina_nb.rules.maptext
        assert "sympy" not in sys.modules, "maptext pulled in sympy"
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
