"""Where the tests find the rule sources' texts (the originality check, the manual's index).

The texts are not in the repository: ``shared/seeds`` beside the checkout holds them, or the
folder ``MACHINA_SEEDS`` names. This is the one place that knows their file names; everything
else cites a source by its key (docs/SOURCES.md).
"""

import os
from pathlib import Path

from machina_nb.rules.sources import SOURCES

SEEDS = Path(os.environ.get("MACHINA_SEEDS",
                            Path(__file__).resolve().parents[2] / "shared" / "seeds"))

SEED_FILES = {
    "manual": "000_9349d81ace88f961.txt",
    "update": "001_4e46933911c5c3c8.txt",
    "mansions": "002_fdb2e90db6cbc320.txt",
    "aid": "003_2ca2523d8b3d20c6.txt",
    "arkham": "004_160861af6abd31e8.txt",
}
"""Each source's text file in the seeds folder, by the key of docs/SOURCES.md."""
if set(SEED_FILES) != set(SOURCES):
    raise ValueError("SEED_FILES must name the text of every source in machina_nb.rules.sources")


def seed_text(key: str) -> Path:
    """The path of source ``key``'s text (it may be missing: callers skip or fail)."""
    return SEEDS / SEED_FILES[key]
