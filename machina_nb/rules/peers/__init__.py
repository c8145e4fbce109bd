"""Peer games on the same core: Arkham Horror LCG and Mansions of Madness (1st edition).

Small rule packs built from the two summaries among the rule sources, to say
"unlike the game you know, here..." exactly: :mod:`.arkham` (chaos-bag skill
tests), :mod:`.hunters` (locations and hunter moves), :mod:`.mansions` (d10
attribute tests, corner-dot sight, monster steps) and :mod:`.compare` (the same
situation under Machina Arcana and a peer). This wing may import the base, the
board wing and the odds wing, never cards or the engine.

Rules: Arkham summary; Mansions summary.
"""
