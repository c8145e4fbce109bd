"""What a click on the board shows: overlays from the picked spaces to the marks and the verdict.

An *overlay* is a function ``overlay(board, rules, pick) -> Highlights`` from the picked
spaces (under the rulings in force) to the spaces, lines and points to mark and the verdict
in words. Each overlay calls the rules core only (:data:`OVERLAYS`): line of sight, reach
within a stamina, nearest, closest, adjacent spaces.

Rules: manual p22 (sight, adjacency, nearest, closest), p34 (move).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from machina_nb.rules.board import distance, sight
from machina_nb.rules.board.drawing import border_segment
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.highlights import Highlights
from machina_nb.rules.board.labels import distance_words, plain_text, space_name
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.rulings import Rules

__all__ = ["Pick", "Overlay", "OVERLAYS", "sight_overlay", "sight_line_highlights",
           "reach_overlay", "nearest_overlay", "closest_overlay", "adjacent_overlay"]

_BORDER_WORDS = {
    BorderKind.WALL: "wall", BorderKind.BOUNDARY: "tile boundary (wall)",
    BorderKind.DOOR_OPEN: "open door", BorderKind.DOOR_CLOSED: "closed door",
    BorderKind.DOOR_DESTROYED: "destroyed door",
}




@dataclass(frozen=True)
class Pick:
    """What the user picked: the ``selected`` space, an optional ``target`` and a ``stamina``;
    ``names`` gives units' names by their letter on the board (``(("A", "Phillip"),)``)."""

    selected: Point
    target: Point | None = None
    stamina: int = 3
    names: tuple[tuple[str, str], ...] = ()




#: An overlay: from the board, the rulings and the picked spaces to what to mark.
Overlay = Callable[[Board, Rules, Pick], Highlights]


def _unit_words(board: Board, point: Point, names: Mapping[str, str]) -> str:
    unit = board.unit_at(point)
    return names.get(unit, f"unit {unit}") if unit else ""


def _space_words(board: Board, point: Point, names: Mapping[str, str] | None = None) -> str:
    unit = _unit_words(board, point, names or {})
    kind = board.space(point).name.lower()
    return f"{space_name(point)} ({kind}" + (f", {unit})" if unit else ")")


def _centre(p: Point) -> tuple[float, float]:
    return (p[0] + 0.5, p[1] + 0.5)



# --- overlays: each calls the rules core and formats its answer ------------------------------


def sight_overlay(board: Board, rules: Rules, pick: Pick) -> Highlights:
    """Line of sight from the selected space: every space visible or blocked; for a target, the line.

    The target's verdict is :func:`machina_nb.rules.board.sight.line_of_sight` with its
    ``explain()`` text (the blocker, the exact point, the citation and rulings).

    Rules: manual p22 (line of sight); switches los.vertex, los.space_squeeze.
    """
    a, names = pick.selected, dict(pick.names)
    seen = sight.visible_from(board, a, rules)
    spaces = [(p, "visible" if p in seen else "blocked") for p in sorted(board) if p != a]
    spaces.append((a, "selected"))
    verdict = [f"From {_space_words(board, a, names)}: {len(seen)} spaces in sight, "
               f"{len(spaces) - 1 - len(seen)} out of sight (manual p22, line of sight; "
               f"switches los.vertex: {rules['los.vertex']}, los.space_squeeze: "
               f"{rules['los.space_squeeze']})."]
    lines: tuple[tuple[tuple[tuple[float, float], tuple[float, float]], str], ...] = ()
    points: tuple[tuple[tuple[float, float], str], ...] = ()
    title = f"Line of sight from {space_name(a)}"
    if pick.target is not None and pick.target != a:
        verdict_of_target = sight.line_of_sight(board, a, pick.target, rules)
        line = sight_line_highlights(a, pick.target, verdict_of_target)
        spaces += [mark for mark in line.spaces if mark[1] != "selected"]
        lines, points = line.lines, line.points
        seen_words = "can see" if verdict_of_target.visible else "cannot see"
        verdict.append(f"{space_name(a)} {seen_words} {_space_words(board, pick.target, names)}. "
                       + plain_text(verdict_of_target.explain()))
        title += f" to {space_name(pick.target)}"
    else:
        verdict.append("Click another space: the line of sight to it, explained.")
    return Highlights(tuple(spaces), lines, points, (), title, tuple(verdict))


def sight_line_highlights(a: Point, b: Point, seen: sight.Sight | None, clear: bool | None = None,
                          ends: tuple[str, str] = ("selected", "target")) -> Highlights:
    """The line from ``a`` to ``b`` and what blocks it: ``a`` and ``b`` marked with the roles
    ``ends``, the line clear or blocked (``clear``, default ``seen.visible``), and ``seen``'s
    blocking borders, spaces and point.

    Rules: manual p22 (line of sight), p23 (ranged: units block the line).
    """
    if clear is None:
        clear = seen is not None and seen.visible
    spaces = [(a, ends[0]), (b, ends[1])]
    lines = [((_centre(a), _centre(b)), "line" if clear else "blocked line")]
    points = []
    if seen is not None:
        lines += [(border_segment(p, q), "blocker") for p, q in seen.borders]
        spaces += [(p, "blocker") for p in seen.spaces]
        if seen.point is not None:
            points.append(((float(seen.point[0]), float(seen.point[1])), "blocker"))
    return Highlights(tuple(spaces), tuple(lines), tuple(points))


def reach_overlay(board: Board, rules: Rules, pick: Pick) -> Highlights:
    """Every space a unit on the selected space can end on within the stamina, with its cost.

    Rules: manual p34 (move: 1 stamina per space), p35 (pits); switches move.diagonal,
    move.squeeze.
    """
    a = pick.selected
    mover = distance.Mover(unit=board.unit_at(a))
    costs = distance.reach(board, a, pick.stamina, rules, mover)
    spaces = tuple((p, "reach") for p in costs if p != a) + ((a, "selected"),)
    labels = tuple((p, str(cost)) for p, cost in costs.items() if p != a)
    verdict = (f"From {_space_words(board, a, dict(pick.names))}: {len(costs) - 1} spaces "
               f"within stamina {pick.stamina} (manual p34, move; switches move.diagonal: "
               f"{rules['move.diagonal']}, move.squeeze: {rules['move.squeeze']}).",)
    return Highlights(spaces, labels=labels,
                      title=f"Reach within stamina {pick.stamina} from {space_name(a)}",
                      verdict=verdict)


def _ranking_highlights(board: Board, pick: Pick, ranking: distance.Ranking, title: str
                        ) -> Highlights:
    a, names = pick.selected, dict(pick.names)
    tied = set(ranking.candidates)
    spaces = tuple((p, "tied" if p in tied else "candidate") for p, _ in ranking.distances)
    labels = tuple((p, distance_words(d, short=True)) for p, d in ranking.distances)

    def who(p: Point) -> str:
        return f"{_unit_words(board, p, names)} on {space_name(p)}"

    if ranking.candidates:
        found = " and ".join(who(p) for p in ranking.candidates)
        head = (f"{ranking.measure.capitalize()} to {space_name(a)}: {found}, "
                f"{distance_words(ranking.distance)} away" + (" (a tie: the explorers choose)." if len(tied) > 1
                                         else "."))
    else:
        head = f"{ranking.measure.capitalize()} to {space_name(a)}: no unit can be reached."
    every = "; ".join(f"{who(p)}: {distance_words(d)}" for p, d in ranking.distances)
    return Highlights(spaces + ((a, "selected"),), labels=labels, title=title, verdict=(
        f"From {_space_words(board, a, names)}.", head,
        f"Every unit's distance: {every}." if every else "No other unit on the board.",
        f"Rule: {plain_text(ranking.rule)}; {plain_text(ranking.reading)}."))


def _other_units(board: Board, a: Point) -> list[Point]:
    return [p for p in board.units().values() if p != a]


def nearest_overlay(board: Board, rules: Rules, pick: Pick) -> Highlights:
    """The nearest units to the selected space (a direct count), every tie and every distance.

    Rules: manual p22 (nearest); switch nearest.metric.
    """
    ranking = distance.nearest(board, pick.selected, _other_units(board, pick.selected), rules)
    return _ranking_highlights(board, pick, ranking,
                               f"Nearest units to {space_name(pick.selected)}")


def closest_overlay(board: Board, rules: Rules, pick: Pick) -> Highlights:
    """The closest units to the selected space (steps, closed doors open), every tie and distance.

    Rules: manual p22 (closest); manual p16 (the monster's path).
    """
    ranking = distance.closest(board, pick.selected, _other_units(board, pick.selected), rules)
    shown = _ranking_highlights(board, pick, ranking,
                                f"Closest units to {space_name(pick.selected)}")
    lines, count = [], 0
    for goal in ranking.candidates:
        paths = distance.closest_paths(board, pick.selected, goal, rules)
        count += paths.count()
        lines += [((_centre(a), _centre(b)), "path") for a, b in _path_steps(paths)]
    if not lines:
        return shown
    return replace(shown, lines=tuple(lines), verdict=shown.verdict[:2] + (
        f"Every shortest path drawn ({count}): the route a mindless monster here would plan "
        "toward its target (manual p16).",) + shown.verdict[2:])


def _path_steps(paths: distance.Paths) -> list[tuple[Point, Point]]:
    """Each step used by some tied path, once: the edges of the paths' DAG (never enumerated)."""
    return sorted((before, node) for node, preds in paths.predecessors for before in preds)


def adjacent_overlay(board: Board, rules: Rules, pick: Pick) -> Highlights:
    """The spaces adjacent to the selected space (melee reach) and the walls and doors on its borders.

    Rules: manual p22 (adjacent; walls and doors), p23 (melee); switch adjacency.across_tiles.
    """
    a, names = pick.selected, dict(pick.names)
    near = sight.adjacent_spaces(board, a, rules)
    borders = sight.adjacent_borders(board, a)
    spaces = tuple((p, "adjacent") for p in near if p != a) + ((a, "selected"),)
    lines = tuple((border_segment(p, q), "border") for (p, q), _ in borders)
    verdict = (f"From {_space_words(board, a, names)}.",
               "Adjacent (a melee attack reaches): " + (", ".join(
                   _space_words(board, p, names) for p in near if p != a) or "no space") + ".",
               "Walls and doors on its borders: " + (", ".join(
                   f"{_BORDER_WORDS.get(kind, kind.name.lower())} {_side_words(board, p, q)}"
                   for (p, q), kind in borders) or "none") + ".",
               f"Rule: manual p22 (adjacent); switch adjacency.across_tiles: "
               f"{rules['adjacency.across_tiles']}.")
    return Highlights(spaces, lines, title=f"Adjacent to {space_name(a)} (melee)",
                      verdict=verdict)


def _side_words(board: Board, p: Point, q: Point) -> str:
    """``between E1 and F1``, or ``on the north side of E1`` when one side is off the board."""
    if p in board and q in board:
        return f"between {space_name(p)} and {space_name(q)}"
    inside, outside = (p, q) if p in board else (q, p)
    side = {(0, -1): "north", (0, 1): "south", (-1, 0): "west", (1, 0): "east"}[
        (outside[0] - inside[0], outside[1] - inside[1])]
    return f"on the {side} side of {space_name(inside)}"


#: The overlays offered by :class:`BoardView`, by the name shown in its picker.
OVERLAYS: dict[str, Overlay] = {
    "sight": sight_overlay,
    "reach": reach_overlay,
    "nearest": nearest_overlay,
    "closest": closest_overlay,
    "adjacent": adjacent_overlay,
}

