"""Test-run settings shared by every test file.

``MACHINA_QUICK=1`` (set by ``make check``, the fast loop) runs each property test with a
tenth of its examples (at least 5) and the random-play machine with fewer programs;
``make test`` and CI leave it unset and keep every count as written in the test files.
"""

import os

from hypothesis import settings

QUICK = os.environ.get("MACHINA_QUICK") == "1"
SHARE = 10      # the quick run keeps one example in SHARE
FLOOR = 5       # and never fewer than this many

# No per-example deadline: on a busy 2-core machine a first example may take far longer than
# the later ones (caches warming), and speed is measured in benchmarks/, not in unit tests.
settings.register_profile("machina", deadline=None)
settings.register_profile("quick", max_examples=FLOOR * 2, deadline=None)
settings.load_profile("quick" if QUICK else "machina")


def _fewer(given: settings) -> settings:
    return settings(given, max_examples=max(FLOOR, given.max_examples // SHARE))


def pytest_collection_modifyitems(items):
    """In a quick run, scale down the examples of every property test collected."""
    if not QUICK:
        return
    for item in items:
        machine = getattr(item, "cls", None)
        if (isinstance(getattr(machine, "settings", None), settings)
                and not getattr(machine, "_machina_quick", False)):
            machine.settings = _fewer(machine.settings)    # a state machine's TestCase
            machine._machina_quick = True
        test = getattr(item, "obj", None)
        chosen = getattr(test, "_hypothesis_internal_use_settings", None)
        if isinstance(chosen, settings) and not getattr(test, "_machina_quick", False):
            test._hypothesis_internal_use_settings = _fewer(chosen)
            test._machina_quick = True     # parametrized items share one function
