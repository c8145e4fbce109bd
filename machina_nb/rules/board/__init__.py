"""The board wing: map text, the board graph, tiles and the play area, sight, distance
and placement.

It knows nothing of cards, odds or the engine: a question here takes a board, points
and the :class:`~machina_nb.rules.rulings.Rules` in force. Import the modules you
need (``from machina_nb.rules.board import sight, distance``).
"""
