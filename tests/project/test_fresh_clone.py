"""A fresh clone passes: without the rule sources the originality check reports a clear
skip, and ``MACHINA_REQUIRE_SEEDS=1`` (set by ``.ci/run``) turns that skip into a failure."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow    # each test runs pytest again in a fresh process

ROOT = Path(__file__).resolve().parents[2]
TEST = "tests/rules/test_rulings_content.py::test_the_prose_is_our_own_words_not_the_sources"


def run_originality_check(tmp_path, **env):
    environment = {k: v for k, v in os.environ.items() if k != "MACHINA_REQUIRE_SEEDS"}
    environment.update(MACHINA_SEEDS=str(tmp_path / "no-seeds"), **env)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-o", "addopts=",
                           TEST], capture_output=True, text=True, cwd=ROOT, env=environment,
                          timeout=300)


@pytest.mark.parametrize("required", [False, True])
def test_without_the_sources_the_check_skips_clearly_unless_ci_requires_it(tmp_path, required):
    result = run_originality_check(tmp_path, **({"MACHINA_REQUIRE_SEEDS": "1"} if required
                                                else {}))
    assert "originality check not run: the rule source texts are not here" in result.stdout
    if required:
        assert result.returncode == 1 and "1 failed" in result.stdout
    else:
        assert result.returncode == 0 and "1 skipped" in result.stdout


def test_ci_makes_the_check_mandatory():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "MACHINA_REQUIRE_SEEDS=1" in script and "export" in script and "make test" in script
