"""machina_nb: an interactive, exact, cited rules explorer for Machina Arcana.

The rules core lives in :mod:`machina_nb.rules` (standard library, networkx and
sympy only); the notebook views live in :mod:`machina_nb.views`.
"""

__version__ = "0.1.0"
