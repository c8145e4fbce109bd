"""``python -m machina_nb``: the same command line as ``machina``."""

from machina_nb.cli import main

raise SystemExit(main())
