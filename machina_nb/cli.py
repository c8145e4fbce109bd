"""The ``machina`` command line: tiles, boards, content validation, rulings and exact odds.

Every sub-command prints plain text. A bad input gets one line on stderr naming the file
position (content) or the argument, never a traceback (``--debug`` shows it). Exit codes,
the same in every command:

* 0: done;
* 1: ``validate`` found problems in the content files it read (each printed as file:line:col);
* 2: a usage or input error: a bad or out-of-range argument, a file that cannot be read, a
  content error in a file another command was given, an unknown tile or switch;
* 3: an internal error (a bug in machina_nb): one line, the traceback with ``--debug``.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path

from machina_nb.rules.odds import attacks, processes
from machina_nb.rules.cards import catalog
from machina_nb.rules.board import tiles
from machina_nb.rules.odds.dice import parse_dice
from machina_nb.rules.odds.genfunc import generating_function
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.rulings import PRESETS, Rules

__all__ = ["main", "build_parser", "OK", "PROBLEMS", "INPUT_ERROR", "INTERNAL_ERROR"]

OK, PROBLEMS, INPUT_ERROR, INTERNAL_ERROR = 0, 1, 2, 3
"""Exit codes: done; ``validate`` found problems; a usage or input error; a bug."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (exit 2), naming the command's help."""

    def error(self, message: str):
        print(f"machina: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(INPUT_ERROR)


def _existing(target: str) -> Path | None:
    """``target`` as a path if something is there; None if not; RulesError if it cannot be."""
    if not target.strip():
        raise RulesError("what", "expected a tile (t01, t01a) or a content file, got ''")
    try:
        path = Path(target)
        return path if path.exists() else None
    except (OSError, ValueError) as exc:
        raise RulesError("what", f"not a usable path ({_reason(exc)})") from None


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc).splitlines()[0][:120] or \
        type(exc).__name__


def _tiles(args) -> int:
    for tile in tiles.load_tiles().values():
        sides = ", ".join(f"{s.key} {s.name}" for s in tile.sides)
        print(f"{tile.id}  {tile.name}  ({sides})")
    return 0


def _show(args) -> int:
    target = args.what
    path = _existing(target)
    if path is not None:
        if path.is_dir():
            raise RulesError("what", f"{target} is a folder; give a content file or a tile id")
        loaded = catalog.validate(path)
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
    known = tiles.load_tiles()
    tile_id, side = (target[:-1], target[-1]) if target[-1:] in ("a", "b") else (target, None)
    if tile_id not in known:
        shown = target if len(target) <= 60 else target[:57] + "..."
        raise RulesError("tile", f"unknown tile or file {shown!r}; tiles: {', '.join(known)}")
    for s in known[tile_id].sides:
        if side in (None, s.side):
            print(f"{s.key}: {s.name}")
            print(s.layout.to_text())
    return 0


def _validate(args) -> int:
    """Check each file; 1 if any has content problems, 2 if any cannot be read at all."""
    status = OK
    for path in args.files:
        try:
            if not path.strip():
                raise IsADirectoryError(21, "an empty name is not a file")
            if Path(path).is_dir():
                raise IsADirectoryError(21, "is a folder, not a content file")
            catalog.validate(path)
            print(f"{path}: ok")
        except ContentError as exc:
            print(exc, file=sys.stderr)
            status = max(status, PROBLEMS)
        except (OSError, ValueError) as exc:
            name = path if 0 < len(path) <= 200 else repr(path[:197] + "..." if path else path)
            print(f"{name}:1:1: cannot read: {_reason(exc)}", file=sys.stderr)
            status = INPUT_ERROR
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


def _exact(p) -> str:
    """An exact chance and its decimal, e.g. ``5/6 ≈ 0.8333``."""
    return f"{p} ≈ {float(p):.4f}" if p.denominator != 1 else f"{p}"


def _int_list(text: str, argument: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise RulesError(argument, f"expected comma-separated integers, got {text[:40]!r}") \
            from None


def _chosen_rules(args) -> Rules:
    """The preset with any ``--set switch=reading`` flips (spec §C/§D readings)."""
    changes = {}
    for item in args.set or ():
        name, sep, reading = item.partition("=")
        if not sep:
            raise RulesError("set", f"expected SWITCH=READING, got {item!r}")
        changes[name.strip()] = reading.strip()
    return Rules.preset(args.rules).replace(changes)


def _odds(args) -> int:
    words = " ".join(args.expression).split()
    defense = None
    if "vs" in words:
        at = words.index("vs")
        if len(words) != at + 2:
            raise RulesError("defense", "expected one number after 'vs', e.g. '1H2L vs 4'")
        words, defense = words[:at], words[at + 1]
        try:
            defense = int(defense)
        except ValueError:
            raise RulesError("defense", f"expected a number 0-9, got {defense[:20]!r}") from None
    if defense is not None and args.blockers:
        raise RulesError("blockers", "give either 'vs DEFENSE' or --blockers, not both")
    expression = parse_dice(" ".join(words))
    rules = _chosen_rules(args)
    arcane = expression.arcane or args.arcane
    modifier = expression.modifier + args.mod
    pool = expression.pool
    attribute = "will" if arcane else "armor"
    dist = pool.distribution()
    if args.derive or defense is None and not args.blockers:
        print(f"G(z) = {generating_function(pool, factored=True)}")
        print(f"     = {generating_function(pool)}")
    if defense is None and not args.blockers:
        print(f"{pool}: total {dist.minimum}..{dist.maximum}, mean {dist.mean}")
        for total, p in dist.pmf().items():
            print(f"  P(S = {total}) = {_exact(p):<22} P(S >= {total}) = {_exact(dist.at_least(total))}")
        print("Rules: manual p24 (attack roll), spec E1")
        return 0
    heading = (f"{pool} ({'arcane' if arcane else 'physical'}), modifier {modifier:+d}, "
               f"essence up to {args.essence}, rules: {rules.name}")
    if args.blockers:
        defenses = _int_list(args.blockers, "blockers")
        outcome = attacks.blockers_outcome(pool, defenses, rules, modifier, args.essence)
        print(f"{heading}; one roll against {attribute} {', '.join(map(str, defenses))}")
        for hit, p in outcome.items():
            names = ", ".join(f"#{i + 1} ({defenses[i]})" for i in sorted(hit)) or "none"
            print(f"  hit {names}: {_exact(p)}")
        print(f"  expected blockers hit: {_exact(attacks.expected_hits(outcome))}")
        print("Rules: manual p24 (several blockers, one roll), spec E3, "
              f"D32 (essence.multi_blocker = {rules['essence.multi_blocker']})")
        return 0
    if args.attacks:
        p = attacks.kill_chance(pool, defense, args.health, args.attacks, rules, modifier,
                                args.essence)
        print(f"{heading}; vs {attribute} {defense}")
        print(f"  P(kill: {args.health} health within {args.attacks} attacks, essence shared) "
              f"= {_exact(p)}")
        print("Rules: manual p24 (a hit costs 1 health), manual p18 (essence), spec E4")
        return 0
    odds = attacks.attack_odds(pool, defense, rules, modifier, args.essence)
    print(f"{heading}; vs {attribute} {defense}")
    print(f"  P(hit) = {_exact(odds.hit)}")
    if args.essence:
        print(f"  expected essence spent (least needed) = {_exact(odds.expected_spent)}")
        for e, p in odds.spent.items():
            print(f"    spend {e}: {_exact(p)}")
    barrel = attacks.barrel_hit_chance(pool, rules, modifier, args.essence)
    print(f"  P(hit an exploding barrel, total >= 1) = {_exact(barrel)}")
    print(f"Rules: manual p24 (attack), manual p18 (essence after the roll), spec E2, "
          f"D31 (roll.floor = {rules['roll.floor']})")
    return 0


def _spawn(args) -> int:
    rules = _chosen_rules(args)
    full = tuple(i < args.full for i in range(args.explorers))
    setup = processes.Setup(
        (processes.Chapter(args.rating, args.horror, not args.non_blocking),),
        processes.Party(args.explorers, full_tiles=full),
        threat_positions=args.threat_positions)

    def progress(done: int, total: int) -> None:
        print(f"\rround {done}/{total}", end="" if done < total else "\n", file=sys.stderr,
              flush=True)

    result = processes.play_rounds(setup, rules, args.rounds, progress=progress)
    print(f"spawn rating {args.rating}, horror rating {args.horror or 'none'}, "
          f"{args.explorers} explorer(s), {args.rounds} round(s), rules: {rules.name} "
          f"(spawn.procedure = {rules['spawn.procedure']})")
    shown = ["spawned", "threat_from_limit", "threat", "level"]
    if args.horror:
        shown[1:1] = ["invoked"]
    shown.append("first_level_up")
    if rules["spawn.procedure"] == "v3_5":
        shown.append("chapter")
    for field in shown:
        dist = processes.marginal(result, field)
        if field == "threat_from_limit" and set(dist) == {0}:
            continue
        mean = None if None in dist else sum(k * p for k, p in dist.items())
        print(f"{field}:" + (f"  mean {_exact(mean)}" if mean is not None else ""))
        for value, p in dist.items():
            print(f"  {'never' if value is None else value:>5}: {_exact(p)}")
    rate = processes.long_run_spawn_attempts(args.rating, args.explorers, rules) \
        if not (rules["spawn.procedure"] == "v3_5" and
                processes.adjusted_spawn_rating(args.rating, args.explorers) == 1) else None
    if rate is not None:
        print(f"long-run spawn attempts per round: {_exact(rate)}")
    print("Rules: manual p13 (spawn), manual p14 (horror, threat), 3.5 §Spawn Phase, "
          "spec E8-E12")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="machina", description=__doc__.splitlines()[0],
                     epilog="exit codes: 0 done, 1 validate found problems, 2 usage or input "
                            "error, 3 internal error (rerun with --debug)")
    parser.add_argument("--debug", action="store_true",
                        help="show the traceback of an error (also MACHINA_DEBUG=1)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
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
    odds = sub.add_parser("odds", help="exact attack odds: machina odds 1H2L vs 4 --essence 2")
    odds.add_argument("expression", nargs="+", help="dice, optionally 'vs DEFENSE'")
    odds.add_argument("--essence", type=int, default=0, help="essence that may be spent")
    odds.add_argument("--arcane", action="store_true", help="compare with will, not armor")
    odds.add_argument("--mod", type=int, default=0, help="net present modifier")
    odds.add_argument("--blockers", metavar="A,B,...", help="one roll against several blockers")
    odds.add_argument("--attacks", type=int, help="kill chance within this many attacks")
    odds.add_argument("--health", type=int, default=1, help="the target's health (with --attacks)")
    odds.add_argument("--derive", action="store_true", help="show the generating function")
    odds.add_argument("--rules", default="manual", choices=list(PRESETS))
    odds.add_argument("--set", action="append", metavar="SWITCH=READING",
                      help="flip a ruling, e.g. --set roll.floor=clamp0")
    odds.set_defaults(run=_odds)
    spawn = sub.add_parser("spawn", help="exact spawn / horror / threat over rounds")
    spawn.add_argument("--rating", type=int, required=True, help="the chapter's spawn rating")
    spawn.add_argument("--horror", type=int, help="the chapter's horror rating (none if absent)")
    spawn.add_argument("--explorers", type=int, default=1)
    spawn.add_argument("--rounds", type=int, default=1)
    spawn.add_argument("--full", type=int, default=0, metavar="K",
                       help="the first K rollers' tiles hold 4+ monsters")
    spawn.add_argument("--non-blocking", action="store_true",
                       help="3.5: the timer advances the chapter (then nothing follows it here)")
    spawn.add_argument("--threat-positions", type=int, default=5)
    spawn.add_argument("--rules", default="manual", choices=list(PRESETS))
    spawn.add_argument("--set", action="append", metavar="SWITCH=READING",
                       help="flip a ruling, e.g. --set rating.floor=one")
    spawn.set_defaults(run=_spawn)
    for command in sub.choices.values():
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                             help="show the traceback of an error")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; print one line on stderr for any error and return its exit code
    (module docstring). ``--debug`` (or ``MACHINA_DEBUG=1``) adds the traceback."""
    args = build_parser().parse_args(argv)
    debug = getattr(args, "debug", False) or bool(os.environ.get("MACHINA_DEBUG"))
    try:
        return args.run(args)
    except (ContentError, RulesError) as exc:
        return _failed(debug, INPUT_ERROR, str(exc))
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return _failed(debug, INPUT_ERROR, f"{where}cannot read: {_reason(exc)}")
    except KeyboardInterrupt:
        return _failed(debug, 130, "interrupted")
    except Exception as exc:  # a bug: one line, the traceback only with --debug
        return _failed(debug, INTERNAL_ERROR, f"internal error ({type(exc).__name__}: "
                       f"{_reason(exc)}); this is a bug in machina_nb, rerun with --debug "
                       "for the traceback")


def _failed(debug: bool, code: int, message: str) -> int:
    if debug:
        traceback.print_exc()
    print(f"machina: {' '.join(message.split())}", file=sys.stderr)
    return code
