"""The analysis wing: situations from the table, the questions asked of them, the rulings
that change the answers, and the export of all that as Markdown with a picture.

It sits on top of every other rules wing (board, odds, cards, engine) and adds no
rule of its own: each answer comes from the wing that owns the rule.

Quiz questions whose answers the rules compute live in ``quiz``.
"""
