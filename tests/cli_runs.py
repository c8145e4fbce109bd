"""The ``machina`` command in tests: in this process, or end to end in a fresh interpreter.

In this process is the same ``cli.main`` the console script and ``python -m machina_nb`` call,
with stdout, stderr and the working folder redirected: a tenth of a second a run where a
fresh interpreter takes most of one (the CLI imports every wing). A few tests run the real
entry points end to end (``tests/cli/test_cli.py``).
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

from machina_nb.cli import main

ROOT = Path(__file__).resolve().parents[1]
ENTRY_POINTS = {
    "python -m machina_nb": [sys.executable, "-m", "machina_nb"],
    "machina console script": [str(Path(sys.executable).with_name("machina"))],
}


def machina(*args: str) -> subprocess.CompletedProcess:
    """``machina ARGS`` run by ``cli.main`` in this process, from the repository's folder:
    its exit code and what it printed, as :func:`subprocess.run` gives them."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit_:        # argparse stops on a usage error or --help
            code = exit_.code
    return subprocess.CompletedProcess(["machina", *args], code, out.getvalue(),
                                       err.getvalue())


def machina_process(command: list[str], *args: str) -> subprocess.CompletedProcess:
    """``machina ARGS`` through a real entry point (:data:`ENTRY_POINTS`), in a fresh process."""
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
