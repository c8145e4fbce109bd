"""The engine wing: the frozen game state, dice sources, actions, effects, the four
phases, the mindless monster and the game history.

It builds on the board, odds and cards wings; nothing below it imports it.
"""
