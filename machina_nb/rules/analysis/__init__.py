"""Analysis over the rules core: quiz questions whose answers the rules compute (``quiz``).

This wing may import every other rules wing; views import it.
"""
