"""What differs between two answers to one question: which elements, which steps, which parts.

Two readings of a ruling may give answers that differ only a little: 35 spaces a monster can
reach instead of 31, a turn whose third step goes elsewhere. :func:`difference` says exactly
what differs, so a view can name it and mark it:

* a list of things (spaces, units) is compared as a set: the elements only in the first
  answer and those only in the second, each in its answer's order;
* a list of steps (a value's ``steps``) is compared in order: the numbers (from 1) of the
  steps that differ, including those only one answer has;
* a table (a dict) is compared part by part, and says which parts differ;
* anything else (a word, a number) is the same or it is not.

>>> d = difference(["C3", "C4", "D4"], ["C3", "D4", "E4", "F4"])
>>> d.only_first, d.only_second
(('C4',), ('E4', 'F4'))
>>> difference({"steps": ["a", "b", "c"], "end": "C3"}, {"steps": ["a", "x"], "end": "C3"}).steps
(2, 3)
>>> difference_words(difference(["C3", "E4"], ["C3", "C4"]))
'Only under this reading: E4; only under the reading in force: C4'
>>> difference("visible", "blocked").same, difference("visible", "visible").same
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Difference", "difference", "difference_words", "ORDERED_PARTS"]

#: The parts of an answer's table that are lists of steps, compared in order.
ORDERED_PARTS = frozenset({"steps"})


@dataclass(frozen=True)
class Difference:
    """What differs between a first and a second answer.

    ``only_first`` and ``only_second``: the elements of a list that only one answer has;
    ``steps``: the numbers (from 1) of the steps that differ; ``parts``: the parts of a table
    whose values differ; ``changed``: whether the answers differ at all.
    """

    changed: bool = False
    only_first: tuple[Any, ...] = ()
    only_second: tuple[Any, ...] = ()
    steps: tuple[int, ...] = ()
    parts: tuple[str, ...] = ()

    @property
    def same(self) -> bool:
        return not self.changed


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def difference(first: Any, second: Any, ordered: bool = False) -> Difference:
    """What differs between answer values ``first`` and ``second``; ``ordered`` compares two
    lists as steps (place by place) rather than as sets."""
    if first == second:
        return Difference()
    if isinstance(first, Mapping) and isinstance(second, Mapping):
        return _tables(first, second)
    if _is_list(first) and _is_list(second):
        if ordered:
            longest = max(len(first), len(second))
            return Difference(True, steps=tuple(
                n + 1 for n in range(longest)
                if n >= len(first) or n >= len(second) or first[n] != second[n]))
        return Difference(True, tuple(v for v in first if v not in second),
                          tuple(v for v in second if v not in first))
    return Difference(True)


def _tables(first: Mapping[str, Any], second: Mapping[str, Any]) -> Difference:
    keys = list(first) + [k for k in second if k not in first]
    parts, only_first, only_second, steps = [], [], [], []
    for key in keys:
        if first.get(key) == second.get(key):
            continue
        parts.append(str(key))
        inner = difference(first.get(key), second.get(key), ordered=key in ORDERED_PARTS)
        only_first += [v for v in inner.only_first if v not in only_first]
        only_second += [v for v in inner.only_second if v not in only_second]
        steps += [n for n in inner.steps if n not in steps]
    return Difference(True, tuple(only_first), tuple(only_second), tuple(sorted(steps)),
                      tuple(parts))


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def difference_words(d: Difference) -> str:
    """What differs, in a sentence without its full stop, a reading's answer being the first
    and the answer in force the second; '' when nothing in particular differs (the answers
    are a different word or number)."""
    said = []
    if d.only_first:
        said.append("only under this reading: " + ", ".join(map(str, d.only_first)))
    if d.only_second:
        said.append("only under the reading in force: " + ", ".join(map(str, d.only_second)))
    if d.steps:
        numbers = [str(n) for n in d.steps]
        said.append(f"step {numbers[0]} differs" if len(numbers) == 1 else
                    f"steps {_and(numbers)} differ")
    text = "; ".join(said)
    return text[:1].upper() + text[1:]
