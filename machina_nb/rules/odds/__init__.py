"""The odds wing: dice pools, generating functions, attack odds and the spawn, horror
and threat processes, all exact.

It knows nothing of the board, cards or the engine.
"""
