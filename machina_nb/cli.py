"""The ``machina`` command line: tiles, boards, content validation and rulings.

Every sub-command prints plain text and exits non-zero on bad input with a
message that names the file position (content) or the argument.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from machina_nb.rules import content
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.maptext import parse_map
from machina_nb.rules.rulings import PRESETS, Rules

__all__ = ["main"]


def _tiles(args) -> int:
    for tile in content.load_tiles().values():
        sides = ", ".join(f"{s.key} {s.name}" for s in tile.sides)
        print(f"{tile.id}  {tile.name}  ({sides})")
    return 0


def _show(args) -> int:
    target = args.what
    if Path(target).exists():
        loaded = content.validate(target)
        if hasattr(loaded, "sides"):
            for side in loaded.sides:
                print(f"{side.key}: {side.name}")
                print(side.layout.to_text())
            return 0
        layout = getattr(loaded, "board", loaded)  # an example's board, or a bare map
        if not hasattr(layout, "to_text"):
            raise RulesError("what", f"{target} holds no map (a units or rulings file)")
        print(layout.to_text(), end="")
        return 0
    tiles = content.load_tiles()
    tile_id, side = (target[:-1], target[-1]) if target[-1:] in ("a", "b") else (target, None)
    if tile_id not in tiles:
        raise RulesError("tile", f"unknown tile or file {target!r}; tiles: {', '.join(tiles)}")
    for s in tiles[tile_id].sides:
        if side in (None, s.side):
            print(f"{s.key}: {s.name}")
            print(s.layout.to_text())
    return 0


def _validate(args) -> int:
    status = 0
    for path in args.files:
        try:
            content.validate(path)
            print(f"{path}: ok")
        except ContentError as exc:
            print(exc, file=sys.stderr)
            status = 1
        except OSError as exc:
            print(f"{path}:1:1: cannot read: {exc.strerror}", file=sys.stderr)
            status = 1
    return status


def _rules(args) -> int:
    rules = Rules.preset(args.preset)
    if args.diff:
        other = Rules.preset(args.diff)
        differences = rules.differences(other)
        if not differences:
            print(f"{args.preset} and {args.diff} agree on every switch")
        width = max((len(n) for n, _, _ in differences), default=0)
        for name, mine, theirs in differences:
            print(f"{name:<{width}}  {args.preset}: {mine:<24} {args.diff}: {theirs}")
        return 0
    print(f"{args.preset}: {PRESETS[args.preset]}")
    print(rules.summary())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="machina", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("tiles", help="list the map tiles").set_defaults(run=_tiles)
    show = sub.add_parser("show", help="print a tile (t01, t01a) or a content file's map")
    show.add_argument("what")
    show.set_defaults(run=_show)
    validate = sub.add_parser("validate", help="check content files; file:line:col on errors")
    validate.add_argument("files", nargs="+")
    validate.set_defaults(run=_validate)
    rules = sub.add_parser("rules", help="print a rules preset, or the difference between two")
    rules.add_argument("preset", nargs="?", default="manual", choices=list(PRESETS))
    rules.add_argument("--diff", metavar="OTHER", choices=list(PRESETS))
    rules.set_defaults(run=_rules)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (ContentError, RulesError) as exc:
        print(f"machina: {exc}", file=sys.stderr)
        return 2
