"""The cards wing: what is printed, read from ``content/``: unit, item, event and
chapter cards, the ability vocabulary, worked examples, and :func:`catalog.validate`
for any content file.

It may use the board wing (maps in content) and never the engine.
"""
