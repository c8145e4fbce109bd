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
import json
import os
import sys
import traceback
from pathlib import Path
from typing import cast

from machina_nb.rules.analysis import ask as analysis_ask
from machina_nb.rules.analysis import export as analysis_export
from machina_nb.rules.analysis import risk_answer as analysis_risk
from machina_nb.rules.analysis import sensitivity as analysis_sensitivity
from machina_nb.rules.analysis import share as analysis_share
from machina_nb.rules.analysis.answer_words import answer_words
from machina_nb.rules.analysis.own_cards import NO_CARDS, OwnCards, load_card_folder
from machina_nb.rules.analysis.phrases import (
    field_words,
    question_words,
    reader_names,
    reader_words,
    rules_words,
)
from machina_nb.rules.analysis.quiz import load_quiz_file
from machina_nb.rules.analysis.reference import load_reference_file
from machina_nb.rules.analysis.situation import load_situation
from machina_nb.rules.board import tiles
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.labels import plain_text
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.cards import catalog
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.numbers import chance_words, fraction_words, mean_words
from machina_nb.rules.odds import attacks, processes
from machina_nb.rules.odds.dice import parse_dice
from machina_nb.rules.odds.genfunc import generating_function
from machina_nb.rules.peers import arkham as peer_arkham
from machina_nb.rules.peers import mansions as peer_mansions
from machina_nb.rules.peers.hunters import load_locations
from machina_nb.rules.rulings import PRESETS, Rules
from machina_nb.rules.rulings_words import label, question

__all__ = ["main", "build_parser", "OK", "PROBLEMS", "INPUT_ERROR", "INTERNAL_ERROR",
           "MORE_KINDS"]

OK, PROBLEMS, INPUT_ERROR, INTERNAL_ERROR = 0, 1, 2, 3
"""Exit codes: done; ``validate`` found problems; a usage or input error; a bug."""


MORE_KINDS = {"situation": load_situation, "quiz": load_quiz_file,
              "reference": load_reference_file, "arkham_locations": load_locations}
"""Content kinds of the wings above the cards, which ``validate`` and ``show`` also read."""


CARDS_VARIABLE = "MACHINA_CARDS"
"""The environment variable naming the folder of a player's own card files (like ``--cards``)."""


def _library(args) -> OwnCards:
    """The player's own card files: ``--cards DIR``, else the folder ``MACHINA_CARDS`` names."""
    folder = getattr(args, "cards", None) or os.environ.get(CARDS_VARIABLE)
    return load_card_folder(folder) if folder else NO_CARDS


def _kinds(library: OwnCards) -> dict:
    """The kinds ``validate`` and ``show`` read, situations knowing the player's own cards."""
    return {**MORE_KINDS, "situation": lambda path: load_situation(path, library)}


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
        loaded = catalog.validate(path, _kinds(_library(args)))
        if hasattr(loaded, "sides"):
            for side in loaded.sides:
                print(f"{side.key}: {side.name}")
                print(side.layout.to_text())
            return 0
        # an example's board, a situation's map, or a bare map
        layout = getattr(loaded, "board", getattr(loaded, "layout", loaded))
        if not hasattr(layout, "to_text"):
            raise RulesError("what", f"{target} holds no map (a file of cards, rulings, quiz "
                             "questions or locations)")
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
    """Check the player's card files (``--cards``) and each file, situations against those
    cards; 1 if any has content problems, 2 if any cannot be read at all."""
    status, library = OK, NO_CARDS
    try:
        library = _library(args)
    except ContentError as exc:
        print(exc, file=sys.stderr)
        status = PROBLEMS
    for path in args.files:
        try:
            if not path.strip():
                raise IsADirectoryError(21, "an empty name is not a file")
            if Path(path).is_dir():
                raise IsADirectoryError(21, "is a folder, not a content file")
            catalog.validate(path, _kinds(library))
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


def _int_list(text: str, argument: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise RulesError(argument, f"expected comma-separated integers, got {text[:40]!r}") \
            from None


def _chosen_rules(args) -> Rules:
    """The preset with any ``--set switch=reading`` flips."""
    changes = {}
    for item in args.set or ():
        name, sep, reading = item.partition("=")
        if not sep:
            raise RulesError("set", f"expected SWITCH=READING, got {item!r}")
        changes[name.strip()] = reading.strip()
    return Rules.preset(args.rules).replace(changes)


def _check_odds_options(args, defense: int | None) -> None:
    """Refuse option combinations ``odds`` would ignore or could not mean anything by."""
    if args.blockers is not None and not args.blockers.strip():
        raise RulesError("blockers", "expected the blockers' defenses, e.g. --blockers 3,4")
    if defense is not None and args.blockers:
        raise RulesError("blockers", "give either 'vs DEFENSE' or --blockers, not both")
    if args.attacks is not None:
        if args.blockers:
            raise RulesError("attacks", "--attacks counts attacks on one target; it cannot be "
                             "given with --blockers")
        if defense is None:
            raise RulesError("attacks", "--attacks needs the target's defense, e.g. "
                             "'1H2L vs 4 --attacks 2'")
        if args.attacks < 1:
            raise RulesError("attacks", f"must be at least 1, got {args.attacks}")
    elif args.health != 1:
        raise RulesError("health", "--health is the target's health for --attacks; give "
                         "--attacks too")


def _odds(args) -> int:
    words = " ".join(args.expression).split()
    defense: int | None = None
    if "vs" in words:
        at = words.index("vs")
        if len(words) != at + 2:
            raise RulesError("defense", "expected one number after 'vs', e.g. '1H2L vs 4'")
        words, text = words[:at], words[at + 1]
        try:
            defense = int(text)
        except ValueError:
            raise RulesError("defense", f"expected a number 0-9, got {text[:20]!r}") from None
    _check_odds_options(args, defense)
    expression = parse_dice(" ".join(words))
    rules = _chosen_rules(args)
    arcane = expression.arcane or args.arcane
    modifier = expression.modifier + args.mod
    pool = expression.pool
    attribute = "will" if arcane else "armor"
    dist = pool.distribution()
    if args.derive:
        print(f"generating function G(z) = {generating_function(pool, factored=True)}")
        print(f"                          = {generating_function(pool)}")
    if defense is None and not args.blockers:
        print(f"{pool}: totals {dist.minimum} to {dist.maximum}, "
              f"on average {mean_words(dist.mean)}")
        for total, p in dist.pmf().items():
            print(f"  total {total:>2}: {chance_words(p):<22} {total} or more: "
                  f"{chance_words(dist.at_least(total))}")
        print("Rules: manual p24 (attack roll)")
        return 0
    said = ", ".join(part for part in (
        "an arcane attack" if arcane else "a physical attack",
        f"modifier {modifier:+d}" if modifier else "",
        f"up to {args.essence} essence after the roll" if args.essence else "no essence",
        f"rules: {rules_words(rules.name)}") if part)
    if args.blockers:
        defenses = _int_list(args.blockers, "blockers")
        outcome = attacks.blockers_outcome(pool, defenses, rules, modifier, args.essence)
        print(f"{pool}, one roll against {len(defenses)} blockers with {attribute} "
              f"{', '.join(map(str, defenses))} ({said})")
        for hit, p in outcome.items():
            names = ", ".join(f"blocker {i + 1} ({attribute} {defenses[i]})"
                              for i in sorted(hit)) or "no blocker"
            print(f"  hits {names}: {chance_words(p)}")
        print(f"  blockers hit, on average: {mean_words(attacks.expected_hits(outcome))}")
        print("Rules: manual p24 (several blockers, one roll); "
              f"{_ruling('essence.multi_blocker', rules)}")
        return 0
    heading = f"{pool} against {attribute} {defense} ({said})"
    if args.attacks:
        p = attacks.kill_chance(pool, cast(int, defense), args.health, args.attacks, rules, modifier,
                                args.essence)
        print(heading)
        print(f"  destroys a target of {args.health} health within {args.attacks} "
              f"attack{'s' if args.attacks != 1 else ''}"
              f"{', the essence shared among them' if args.essence else ''}: {chance_words(p)}")
        print("Rules: manual p24 (a hit costs 1 health), p18 (essence)")
        return 0
    odds = attacks.attack_odds(pool, cast(int, defense), rules, modifier, args.essence)
    print(heading)
    print(f"  hits: {chance_words(odds.hit)}")
    if args.essence:
        print(f"  essence spent, the least that makes it hit: {mean_words(odds.expected_spent)} on "
              "average")
        for e, p in odds.spent.items():
            print(f"    {e if e else 'none'}: {chance_words(p)}")
    barrel = attacks.barrel_hit_chance(pool, rules, modifier, args.essence)
    print(f"  hits an exploding barrel (a total of 1 or more): {chance_words(barrel)}")
    print(f"Rules: manual p24 (attack), p18 (essence after the roll); "
          f"{_ruling('roll.floor', rules)}")
    return 0


def _ruling(switch: str, rules: Rules) -> str:
    """The reading of ``switch`` in force, as its plain label."""
    return f"ruling: {label(switch, rules[switch])}"


#: The round summary's fields in words, for ``spawn``.
_FIELD_WORDS = {"spawned": "monsters spawned", "invoked": "horror events invoked",
                "threat_from_limit": "threat raised because no monster was left to spawn",
                "threat": "monster threat (its position)", "level": "monster level",
                "first_level_up": "the round the monster level first rises"}


def _spawn(args) -> int:
    rules = _chosen_rules(args)
    if not 0 <= args.full <= max(args.explorers, 0):
        raise RulesError("full", f"must be 0..{max(args.explorers, 0)} (at most the number of "
                         f"explorers), got {args.full}")
    full = tuple(i < args.full for i in range(args.explorers))
    setup = processes.Setup(
        (processes.ChapterRatings(args.rating, args.horror, not args.non_blocking),),
        processes.Party(args.explorers, full_tiles=full),
        threat_positions=args.threat_positions)

    def progress(done: int, total: int) -> None:
        print(f"\rround {done}/{total}", end="" if done < total else "\n", file=sys.stderr,
              flush=True)

    result = processes.play_rounds(setup, rules, args.rounds,   # a counter only for a person
                                   progress=progress if sys.stderr.isatty() else None)
    report = processes.round_report(setup, rules)
    plural = "s" if args.explorers != 1 else ""
    print(f"spawn rating {args.rating}, "
          + (f"horror rating {args.horror}" if args.horror else "no horror rating")
          + f", {args.explorers} explorer{plural}, {args.rounds} "
          f"round{'s' if args.rounds != 1 else ''}; rules: {rules_words(rules.name)} "
          f"({_ruling('spawn.procedure', rules)})")
    for field in report.fields:
        dist = processes.marginal(result, field)
        if field == "threat_from_limit" and set(dist) == {0}:
            continue
        mean = None if None in dist else sum(cast(int, k) * p for k, p in dist.items())
        print(f"{_FIELD_WORDS.get(field, field_words(field))}:"
              + (f" {mean_words(mean)} on average" if mean is not None else ""))
        for value, p in dist.items():
            print(f"  {'never' if value is None else value:>5}: {chance_words(p)}")
    if report.long_run_attempts is not None:
        print(f"spawn rolls per round in the long run: {mean_words(report.long_run_attempts)}")
    print("Rules: manual p13 (spawn), p14 (horror, threat); 3.5 update (spawn phase)")
    return 0


# --- peer games: machina arkham ..., machina mansions ... (self-contained) -------------------------


_LIST_OPTIONS = ("--bag", "--values", "--reveals-another", "--from", "--to")


class _OneLineParser(argparse.ArgumentParser):
    """A sub-command parser whose usage errors are one line on stderr, exit status 2."""

    def error(self, message):
        print(f"{self.prog}: {message}", file=sys.stderr)
        raise SystemExit(2)

    def parse_known_args(self, args=None, namespace=None):
        args = list(sys.argv[1:] if args is None else args)
        for i in range(len(args) - 1, -1, -1):  # "--bag -1,0" is a value, not an option
            if args[i] in _LIST_OPTIONS and i + 1 < len(args):
                args[i:i + 2] = [f"{args[i]}={args[i + 1]}"]
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


def _peer_rules(items) -> Rules:
    """The default rules with ``--set arkham.draw=best_of_two`` style flips (peer readings)."""
    changes = {}
    for item in items or ():
        name, sep, reading = item.partition("=")
        if not sep:
            raise RulesError("set", f"expected SWITCH=READING, got {item!r}")
        changes[name.strip()] = reading.strip()
    return Rules().replace(changes)


def _print_json(data: dict) -> None:
    import json
    print(json.dumps(data, ensure_ascii=False))


def _arkham_test(args) -> int:
    rules = _peer_rules(args.set)
    marked = [t for t in (args.reveals_another or "").split(",") if t.strip()]
    bag = peer_arkham.Bag.parse(args.bag, args.values, args.elder_sign, marked)
    odds = peer_arkham.skill_test(bag, args.skill, args.difficulty, rules, args.commit,
                                  args.modifier)
    gain = peer_arkham.icon_gain(bag, args.skill, args.difficulty, rules, args.commit,
                                 args.modifier)
    if args.json:
        _print_json({"p_success": str(odds.p_success), "p_auto_fail": str(odds.auto_fail),
                     "p_gain_one_icon": str(gain), "bag": bag.text(),
                     "margins": {str(m): str(p) for m, p in odds.margins},
                     "readings": odds.reading})
        return 0
    print(f"bag: {bag.text()}")
    print(odds.explain())
    print(f"  P(success) = {chance_words(odds.p_success)}   "
          f"P(auto-fail) = {chance_words(odds.auto_fail)}")
    print(f"  one more icon adds {chance_words(gain)}")
    for margin, p in odds.margins:
        word = "succeed by" if margin >= 0 else "fail by"
        print(f"  {word} {abs(margin)}: {chance_words(p)}")
    return 0


def _mansions_test(args) -> int:
    if args.skill_point and args.luck is None:
        raise RulesError("skill-point", "--skill-point needs --luck L")
    test = peer_mansions.attribute_test(args.attribute, args.modifier, args.luck,
                                        args.skill_point, args.stunned, args.tested or "")
    if args.json:
        _print_json({"p_pass": str(test.p_pass), "target": test.target})
        return 0
    print(test.explain())
    print(f"  P(pass) = {chance_words(test.p_pass)}")
    return 0


def _point(text: str, argument: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise RulesError(argument, f"expected X,Y (two whole numbers), got {text!r}")
    return int(parts[0]), int(parts[1])


def _mansions_sight(args) -> int:
    from_, to = _point(args.from_, "from"), _point(args.to, "to")
    rules = _peer_rules(args.set)
    try:
        text = Path(args.mapfile).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(args.mapfile, 1, 1, f"cannot read: {getattr(exc, 'strerror', exc)}"
                           ) from None
    figures = {chr(c): SpaceKind.FLOOR for c in range(ord("A"), ord("Z") + 1)}
    board = Board.from_layout(parse_map(text, path=args.mapfile, legend=figures))
    seen = peer_mansions.line_of_sight(board, from_, to, rules)
    if args.json:
        line = None if seen.line is None else [[str(c) for c in dot] for dot in seen.line]
        _print_json({"visible": seen.visible, "line": line, "explain": seen.explain(),
                     "range": peer_mansions.range_between(board, from_, to, rules)})
        return 0
    print(seen.explain())
    return 0


def _add_peer_commands(sub) -> None:
    """``machina arkham test`` and ``machina mansions test|sight`` (exact fractions in JSON; bad input one line, exit 2)."""
    peers = {}
    for game, text in (("arkham", "Arkham Horror LCG: exact chaos-bag skill tests"),
                       ("mansions", "Mansions of Madness 1st edition: d10 tests, corner-dot sight")):
        parser = sub.add_parser(game, help=text)
        parser.error = _OneLineParser.error.__get__(parser)
        peers[game] = parser.add_subparsers(dest=f"{game}_command", required=True,
                                            metavar="COMMAND", parser_class=_OneLineParser)
    test = peers["arkham"].add_parser("test", help="one skill test against a chaos bag")
    test.add_argument("--skill", type=int, required=True)
    test.add_argument("--difficulty", type=int, required=True)
    test.add_argument("--bag", required=True, metavar="TOKENS",
                      help="comma list: signed numbers, skull, cultist, tablet, elder_thing, "
                           "elder_sign, auto_fail")
    test.add_argument("--values", metavar="NAME=V,...", help="scenario tokens, e.g. skull=-1")
    test.add_argument("--elder-sign", type=int, metavar="V")
    test.add_argument("--commit", type=int, default=0, metavar="K", help="icons committed")
    test.add_argument("--modifier", type=int, default=0, help="any other fixed modifier")
    test.add_argument("--reveals-another", metavar="TOKENS",
                      help="tokens that reveal another (read under arkham.reveal_another)")
    test.add_argument("--set", action="append", metavar="SWITCH=READING",
                      help="a peer reading, e.g. --set arkham.draw=best_of_two")
    test.add_argument("--json", action="store_true")
    test.set_defaults(run=_arkham_test)
    test = peers["mansions"].add_parser("test", help="one d10 attribute test")
    test.add_argument("--attribute", type=int, required=True)
    test.add_argument("--modifier", type=int, default=0)
    test.add_argument("--luck", type=int, metavar="L")
    test.add_argument("--skill-point", action="store_true", help="add Luck before the roll")
    test.add_argument("--stunned", action="store_true", help="-2 while stunned")
    test.add_argument("--tested", metavar="NAME", help="the attribute's name (luck: no point)")
    test.add_argument("--json", action="store_true")
    test.set_defaults(run=_mansions_test)
    seen = peers["mansions"].add_parser("sight", help="corner-dot line of sight on a map file")
    seen.add_argument("mapfile", metavar="MAPFILE")
    seen.add_argument("--from", dest="from_", required=True, metavar="X,Y")
    seen.add_argument("--to", required=True, metavar="X,Y")
    seen.add_argument("--set", action="append", metavar="SWITCH=READING",
                      help="a peer reading, e.g. --set mansions.dot_inset=quarter")
    seen.add_argument("--json", action="store_true")
    seen.set_defaults(run=_mansions_sight)


def _situation(path: str, args):
    """A situation file, knowing the player's own card files, or a one-line error naming it
    (exit 2)."""
    library = _library(args)
    try:
        return load_situation(path, library)
    except OSError as exc:
        raise ContentError(path, 1, 1, f"cannot read: {exc.strerror}") from None


def _answers_json(answers) -> dict:
    return {a.name: a.value for a in answers}


def _ask(args) -> int:
    situation = _situation(args.situation, args)
    preset = args.rules or situation.preset
    rules = Rules.preset(preset).replace(dict(situation.rulings))
    rules = rules.replace(dict(_pairs(args.set)))
    answers = analysis_ask.ask(situation, rules)
    if args.json:
        print(json.dumps({"answers": _answers_json(answers)}, indent=2, ensure_ascii=False))
        return 0
    print(f"{situation.title} (rules: {rules_words(rules.name)})")
    names = reader_names(situation, (situation.state_at(rules),))
    asked = {q.name: q for q in situation.questions}
    for a in answers:
        heading = (question_words(situation, asked[a.name]) if a.name in asked
                   else field_words(a.name).capitalize())
        print(f"{heading}\n  {answer_words(situation, a, names)}")
        for why in a.why:
            print(f"    {why}")
    return 0


def _pairs(items) -> list[tuple[str, str]]:
    pairs = []
    for item in items or ():
        name, sep, reading = item.partition("=")
        if not sep:
            raise RulesError("set", f"expected SWITCH=READING, got {item!r}")
        pairs.append((name.strip(), reading.strip()))
    return pairs


def _sensitivity(args) -> int:
    situation = _situation(args.situation, args)
    rules = situation.rules()
    answers = analysis_ask.ask(situation, rules)
    found = analysis_sensitivity.sensitivity(situation, rules)
    if args.markdown:
        text = analysis_export.to_markdown(situation, rules, found)
        try:
            Path(args.markdown).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise RulesError("markdown", f"cannot write {args.markdown}: {exc.strerror}") from None
    if args.json:
        print(json.dumps({"answers": _answers_json(answers), "sensitive": [
            {"switch": f.switch, "answers": {reading: dict(values) for reading, values in f.answers}}
            for f in found]}, indent=2, ensure_ascii=False))
        return 0
    print(f"{situation.title} (rules: {rules_words(rules.name)})")
    if not found:
        print("No other reading of any switch changes these answers.")
    names = reader_names(situation, (situation.state_at(rules),))
    for f in found:
        print(f"{question(f.switch)} (in force: {label(f.switch, f.in_force)}) changes "
              f"{', '.join(f.changed)}:")
        for reading, values in f.answers:
            shown = "; ".join(
                f"{q}: {reader_words(situation, analysis_ask.show_value(v), names)}"
                for q, v in values if q in f.changed)
            print(f"    {label(f.switch, reading)}: {shown}")
    return 0


def _link(args) -> int:
    """Print the share link of a situation file (checked first: file:line:col on errors),
    carrying the cards of the player's card files."""
    situation = _situation(args.situation, args)
    try:
        text = Path(args.situation).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ContentError(args.situation, 1, 1, "cannot read: not UTF-8 text") from None
    try:
        print(analysis_share.situation_link(text, args.base, name=args.situation,
                                            cards=situation.cards))
    except RulesError as exc:
        if exc.argument != "base_url":
            raise
        raise RulesError("base", str(exc).partition(": ")[2]) from None
    return 0


def _risk(args) -> int:
    """The risk map of the explorer ``--unit``: the board in percent, then each space."""
    situation = _situation(args.situation, args)
    rules = situation.rules()
    if args.unit not in {u.letter for u in situation.units}:
        raise RulesError("unit", f"{args.unit!r} is not a unit letter of {args.situation}")
    grid, rows = analysis_risk.risk_board(situation, rules, args.unit)
    if args.json:
        print(json.dumps({"unit": args.unit, "spaces": {
            space: {"destroyed": fraction_words(d), "health_lost": fraction_words(lost)}
            for space, d, lost in rows}}, indent=2, ensure_ascii=False))
        return 0
    print(f"{situation.title} (rules: {rules_words(rules.name)})")
    print(f"chance in percent that {args.unit} is destroyed by the end of the monster phase, "
          "on each space it can end its move on:")
    print("\n".join(grid))
    for space, d, lost in rows:
        print(f"{plain_text(space)}: destroyed {chance_words(d)}, expected health "
              f"lost {fraction_words(lost)}")
    return 0


def _add_analysis(sub) -> None:
    ask = sub.add_parser("ask", help="answer a situation file's questions")
    ask.add_argument("situation")
    ask.add_argument("--rules", choices=list(PRESETS), help="a preset (default: the file's)")
    ask.add_argument("--set", action="append", metavar="SWITCH=READING",
                     help="flip a ruling, e.g. --set los.vertex=touch_ok")
    ask.add_argument("--json", action="store_true", help="print the answers as JSON")
    ask.set_defaults(run=_ask)
    risk = sub.add_parser("risk", help="where an explorer is safe: the exact monster phase "
                          "on every space it can end its move on")
    risk.add_argument("situation")
    risk.add_argument("--unit", required=True, metavar="LETTER",
                      help="the explorer whose turn it is")
    risk.add_argument("--json", action="store_true", help="print the spaces as JSON")
    risk.set_defaults(run=_risk)
    sens = sub.add_parser("sensitivity", help="the rulings that change a situation's answers")
    sens.add_argument("situation")
    sens.add_argument("--json", action="store_true", help="print answers and switches as JSON")
    sens.add_argument("--markdown", metavar="FILE",
                      help="also write the situation, answers and board as Markdown")
    sens.set_defaults(run=_sensitivity)
    link = sub.add_parser("link", help="a link that opens a situation file on the app's "
                          "Analysis board")
    link.add_argument("situation", metavar="FILE")
    link.add_argument("--base", default=analysis_share.DEFAULT_BASE, metavar="URL",
                      help=f"the app's address (default: {analysis_share.DEFAULT_BASE})")
    link.set_defaults(run=_link)


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
    validate = sub.add_parser("validate", help="check content files of any kind (situations, "
                              "quiz and location files too); file:line:col on errors")
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
    _add_peer_commands(sub)
    _add_analysis(sub)
    for name in ("show", "validate", "ask", "risk", "sensitivity", "link"):
        sub.choices[name].add_argument(
            "--cards", metavar="DIR", help="a folder of your own card files (kind units, items, "
            f"events or chapters), which situations may name; default: ${CARDS_VARIABLE}")
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
