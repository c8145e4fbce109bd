"""The rules core: pure game logic on the standard library, networkx and sympy.

Nothing here imports a UI library; :mod:`machina_nb.views` imports this, never
the reverse. Import the modules you need (``from machina_nb.rules import
rulings``); this package keeps its own import light.
"""
