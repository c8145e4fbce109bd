"""The rules object: every ruling the explorer makes where the sources disagree.

A ruling is a named *switch* (``los.vertex``, ``spawn.procedure`` ...) with a
fixed set of *readings*. The manual 1.0 reading (or, where the manual itself is
unclear, the suggested default written with the ruling) is the default. Presets bundle the
readings of one source: ``manual`` (1.0), ``v3_5`` (the 3.5 update applied) and
``player_aid`` (the aid's readings where it differs).

Code here says *which* readings exist and which each preset picks; the prose
(question, what each reading means, sources with pages, an example) lives in
``content/rulings/*.toml`` and is checked against these declarations by
:func:`machina_nb.rules.rulings.load_rulings`.

>>> rules = Rules()
>>> rules["los.vertex"]
'separating'
>>> rules.replace({"los.vertex": "touch_ok"})["los.vertex"]
'touch_ok'
>>> Rules.preset("v3_5")["spawn.procedure"]
'v3_5'
>>> rules.reads("los.vertex", "touch_ok")
False

Switch names and readings are checked wherever they are written: reading an
undeclared switch, or asking :meth:`Rules.reads` about an undeclared reading,
raises :class:`~machina_nb.rules.errors.RulesError`; ``tests/test_switch_names.py``
checks every literal name and reading in the code, notebooks and examples.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from machina_nb.rules.content import (
    TomlFile,
    check_keys,
    content_root,
    expect_kind,
    read_toml,
    require,
)
from machina_nb.rules.errors import ContentError, RulesError

__all__ = ["Switch", "SWITCHES", "PRESETS", "TOPICS", "Rules", "Ruling", "load_rulings",
           "rulings_in_file", "check_rules"]


@dataclass(frozen=True)
class Switch:
    """One ruling: its name, readings and the reading each preset takes.

    ``readings[0]`` is the default: the manual's literal reading, or where the manual reads
    both ways the suggestion recorded with the ruling's prose.
    """

    name: str
    readings: tuple[str, ...]
    spec: str  # the ruling IDs its prose carries (content/rulings), e.g. "D1" or "C-8"; "" if none
    presets: Mapping[str, str] = field(default_factory=dict)

    @property
    def default(self) -> str:
        """The manual 1.0 reading (the literal reading)."""
        return self.readings[0]


def _s(name: str, readings: str, spec: str, **presets: str) -> Switch:
    return Switch(name, tuple(readings.split()), spec, presets)


# The default reading comes first. Keyword arguments give other presets' readings.
_DECLARED = (
    # Board geometry (rulings D36, D44, D46).
    _s("los.vertex", "separating touch_ok any_two", "D1"),
    _s("los.space_squeeze", "blocked visible", "D2"),
    _s("ranged.obstacle_vertex", "separating corner_ok any_touch", "D3"),
    _s("move.diagonal", "follow_los no_corner_cut one_L_open", "D4"),
    _s("move.squeeze", "allowed blocked_if_both blocked_if_either", "D5"),
    _s("range.metric", "chebyshev path_around_barriers euclidean", "D6"),
    _s("range.count", "steps spaces_between", "D6"),
    _s("nearest.metric", "chebyshev euclidean manhattan", "D7"),
    _s("closest.pits", "count_through avoid", "D8"),
    _s("closest.immobile_units", "obstacle ignore rubble", "C-6 D9", player_aid="rubble"),
    _s("push.off_axis", "diagonal_otherwise strict_none dominant_axis", "D15"),
    _s("push.corners", "as_move destination_only block_on_any_corner", "D16"),
    _s("push.blocked", "stop slide", "D17"),
    _s("fallback.passable", "required not_required", "D18"),
    _s("fallback.pits", "excluded allowed", "D18"),
    _s("fallback.walls", "ignored same_side", "D18"),
    _s("fallback.tile", "any same_tile", "D18"),
    _s("explore.offset", "grid_snap orthogonal any_adjacent", "D19 C-25"),
    _s("scroll.destroy", "minimal_opposite players_choose all_explorer_free", "D20"),
    _s("join.other_edges", "auto_connect_if_aligned only_explored_edge_connects", "D21"),
    _s("adjacency.across_tiles", "joined_edges_only any_touching_spaces", "D21"),
    _s("ethereal.blocks_ranged", "yes no", "C-19"),
    _s("pit.voluntary_entry", "move_through_survives always_destroy", "C-18 D37"),
    _s("teleport.destroyed_kind", "excluded allowed", "C-21", player_aid="allowed"),
    # Dice and attacks (rulings D30, D31, D32, D36).
    _s("roll.floor", "none clamp0", "D31"),
    _s("essence.multi_blocker", "shared_total per_blocker", "D32"),
    _s("essence.kill_credit", "killer_on_own_turn turn_owner killer_any_time", "D33"),
    _s("essence.max", "9 card_value", "D47"),
    _s("barrel.chain", "yes_new_roll yes_same_roll no", "D36"),
    _s("barrel.adjacency", "with_los raw_8_neighbours", "D36"),
    _s("traps.secondary", "per_explorer_own_tile once_activating_tile once_all_tiles none",
       "C-10 D35", v3_5="once_activating_tile", player_aid="none"),
    _s("traps.secondary_levers", "other_nondestroyed any_including_activated", "D35"),
    _s("traps.push_activation", "mandatory optional", "C-10 D34", v3_5="optional"),
    _s("traps.push_activator", "pusher pushed_unit none", "D34"),
    _s("traps.chapter_activator", "none flipping_explorer", ""),
    # Spawn, horror, threat (rulings C-3, C-7, C-8, D22, D23, D24, D25, D26, D27, D28, D29, D48).
    _s("spawn.procedure", "v1_0 v3_5", "C-3", v3_5="v3_5"),
    _s("spawn.limit_scope", "all_spawns phase_only none", "C-7", player_aid="none"),
    _s("spawn10.roll_order", "players_choose turn_order seating", "D22"),
    _s("spawn10.reset_on_limit", "yes no", "D48"),
    _s("rating.floor", "none one", "D23"),
    _s("adjust35.when", "every_reset rating1_only every_phase_start", "D24"),
    _s("threat35.amount", "default_printed current_slider", "D25"),
    _s("threat35.no_horror_rating", "zero skip_rule", "D25"),
    _s("n35", "alive_explorers starting_explorers explorers_in_play", "D26"),
    _s("spawn35.reset_on_success", "no yes", "D27"),
    _s("timer35.exit_chapter", "remove_exit_token full_exit_procedure keep_token", "D28"),
    _s("threat.levelup", "on_reach on_increase_from_last", "C-8 D29",
       v3_5="on_increase_from_last"),
    _s("threat.floor", "clamp_one seal_only", "C-29"),
    _s("level.halve", "yes no", "C-8", player_aid="no"),
    _s("level5_rule", "yes no", "C-8"),
    _s("half.rounding", "floor ceil players_choose", "D30"),
    _s("spawn.card_origin", "nearest_to_activating_explorer players_choose_tile all_tiles_each",
       "D41"),
    _s("spawn.no_spawn_spaces", "skip roll_anyway", "D42"),
    _s("horror.invoke_order", "place_then_resolve resolve_then_place", "C-16",
       player_aid="resolve_then_place"),
    _s("setup.event_decks", "full_core balanced_3_5", "C-12", v3_5="balanced_3_5"),
    # Engine: costs, monsters, chapters, markers (rulings D10, D11, D12, D13, D14, D33, D34, D35, D36, D37, D38, D39, D40, D41, D42, D43, D44, D45).
    _s("cost.event_space", "2 1 3", "C-1", v3_5="1", player_aid="3"),
    _s("cost.chapter_lit", "1 0", "C-2", player_aid="0"),
    _s("stamina.reset", "modified printed", "C-15", player_aid="printed"),
    _s("consumables_in_play", "no yes", "C-17"),
    _s("recharge.stamina", "to_max plus_one", "E13"),
    _s("refresh.removes", "all_tokens destroyed_tokens", "C-20"),
    _s("chapter_space.when_blocked", "pay_and_consume illegal pay_no_consume", "C-22 D38",
       player_aid="pay_no_consume"),
    _s("light_chapter.choice", "nearest any_on_tile", "C-23", player_aid="any_on_tile"),
    _s("light_chapter.no_target", "nothing nearest_any_tile", "D39"),
    _s("monster.ability_sources", "event_and_card bound_event_and_card", "C-14",
       player_aid="bound_event_and_card"),
    _s("horror_bind.monster", "players_choose first_in_queue last_in_queue", "C-14"),
    _s("mindless.movement", "plan_full_budget greedy_step", "C-27", player_aid="greedy_step"),
    _s("mindless.reevaluate", "every_action after_moves_only", "C-24 D12"),
    _s("replan.budget", "remaining_stamina max_stamina", "D12"),
    _s("replan.when", "every_action on_target_change", "D12"),
    _s("path.door_cost", "free budgeted unaffordable_replan", "D10"),
    _s("retarget.on_tie", "keep_current apply_tiebreak", "D11"),
    _s("facing.orthogonal", "tiebreak_only prefer_if_reachable", "D13"),
    _s("path.units", "obstacles ignored", "D14"),
    _s("mindless.blocked", "strict replan_first", "D14"),
    _s("closer.metric", "closest_distance true_path_length", "D46"),
    _s("move_effect.mindless_doors", "avoid_doors stop_at_closed_door "
       "path_ignoring_doors_but_cannot_cross", "D44"),
    _s("targetable.for_monsters", "monster_tile explorer_tile", "D40"),
    _s("targetable.which_targeting", "any_targeting its_abilities", "D40"),
    _s("queue.mid_phase_spawn", "acts_this_phase next_round", "D43"),
    _s("markers.skipped_horror_phase", "return_anyway stay", "D45"),
    _s("mindless.door_adjacent", "stop break_door", ""),
    _s("barrel.credit", "hitter nobody", "D36"),
    _s("half.which", "top_after_shuffle players_choose", "D30"),
    _s("bound.released_horror", "becomes_current under_current", ""),
    _s("contribution.chain", "through_contributors any_explorer", ""),
    _s("gained_item.equip_at_once", "keeper_only receiver_too", ""),
    _s("workbench.return_order", "drawn_order players_choose", ""),
    _s("level5.exited", "reached not_reached", ""),
    _s("mindless.two_targets", "first_only players_choose", ""),
    _s("mindless.ability_target", "players_choose current_target", ""),
    _s("mindless.up_to", "players_choose full_amount", ""),
    _s("shuffle_events.current", "shuffled_in stays", ""),
    _s("bound.destroyed_explorer_event", "becomes_current under_current", ""),
    _s("take.found_card", "set_aside top_of_deck", ""),
    _s("item.printed_number", "level not_level", ""),
    _s("markers.item_unequipped", "effect_stays effect_ends", ""),
    # Peer games : readings of the Arkham LCG and Mansions of Madness summaries that
    # the peers wing models. No preset changes them: they are not Machina Arcana rulings.
    _s("arkham.reveal_another", "one_token chain_marked", "F"),
    _s("arkham.draw", "single best_of_two", "F"),
    _s("arkham.skill_floor", "none zero", "F"),
    _s("mansions.dot_inset", "eighth quarter corner", "F"),
    _s("mansions.wall_touch", "touch_ok touch_blocks", "F"),
    _s("mansions.diagonal", "corner_crossing no_wall_at_corner", "F"),
)

SWITCHES: Mapping[str, Switch] = {s.name: s for s in _DECLARED}
"""Every switch, by name, in declaration order."""

PRESETS: Mapping[str, str] = {
    "manual": "Machina Arcana manual 1.0 (the primary source; the default)",
    "v3_5": "manual 1.0 with the 3.5 rules update applied",
    "player_aid": "manual 1.0 with the player aid's readings where it differs",
}
"""Preset names and what each means."""

TOPICS: Mapping[str, str] = {
    "sight": "Sight",
    "movement": "Moving",
    "distance": "Distance and range",
    "placing": "Pushing and placing",
    "map": "The map and its tiles",
    "attacks": "Attacks and essence",
    "traps": "Traps and barrels",
    "actions": "Actions and items",
    "spawn": "Spawning",
    "horror": "Threat and horror",
    "monsters": "Monsters' turns",
    "events": "Events and chapters",
    "other games": "Other games",
}
"""Each topic a ruling may name (``topic`` in content/rulings), with its heading, in the order
the Rulings tab shows them."""


def _declared_problems() -> list[str]:
    """What is wrong with the declarations above: repeated names or readings, stray presets."""
    problems = []
    if len(SWITCHES) != len(_DECLARED):
        problems.append("a switch is declared twice")
    for s in _DECLARED:
        if len(set(s.readings)) != len(s.readings) or not s.readings:
            problems.append(f"{s.name}: readings must be distinct and at least one")
        for preset, reading in s.presets.items():
            if preset not in PRESETS:
                problems.append(f"{s.name}: unknown preset {preset!r}")
            elif reading not in s.readings:
                problems.append(f"{s.name}: preset {preset} takes undeclared reading {reading!r}")
    return problems


_PROBLEMS = _declared_problems()
if _PROBLEMS:  # a typo in the table above fails at import
    raise RulesError("SWITCHES", "; ".join(_PROBLEMS))


def _unknown_switch(name: object) -> RulesError:
    """The error for an undeclared switch name, suggesting the closest declared names."""
    close = difflib.get_close_matches(str(name), SWITCHES, n=3)
    hint = (f"; did you mean {' or '.join(map(repr, close))}?" if close
            else "; SWITCHES lists the declared names")
    return RulesError("switch", f"unknown switch {_short(name)}{hint}")


def _check(name: str, reading: str) -> None:
    if not isinstance(name, str) or name not in SWITCHES:
        raise _unknown_switch(name)
    readings = SWITCHES[name].readings
    if not isinstance(reading, str) or reading not in readings:
        raise RulesError(
            name, f"unknown reading {_short(reading)}; expected one of: {', '.join(readings)}"
        )


def _short(value: object) -> str:
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else "a huge int"
    return text if len(text) <= 60 else text[:57] + "..."


def check_rules(rules: object, argument: str = "rules") -> Rules:
    """``rules`` if it is a :class:`Rules`; else a RulesError naming ``argument``.

    A plain dict of switches is refused: only a ``Rules`` has every switch checked.
    """
    if not isinstance(rules, Rules):
        raise RulesError(argument, f"expected a Rules (e.g. Rules() or Rules.preset('v3_5')), "
                         f"got {type(rules).__name__}")
    return rules


class Rules(Mapping[str, str]):
    """A frozen choice of one reading per switch (manual 1.0 by default).

    Read a switch with ``rules["los.vertex"]`` (an undeclared name raises
    :class:`RulesError`); test one reading with :meth:`reads`, which also refuses
    an undeclared reading; derive a variant with :meth:`replace` (unknown names or
    readings raise); compare two with :meth:`differences`.
    """

    __slots__ = ("_choices", "_name", "_hash")
    _choices: dict[str, str]
    _name: str
    _hash: int

    def __init__(self, choices: Mapping[str, str] | None = None, name: str = "manual") -> None:
        if choices is not None and not isinstance(choices, Mapping):
            raise RulesError("choices", f"expected a mapping of switch to reading, got "
                             f"{type(choices).__name__}")
        if not isinstance(name, str) or len(name) > 64:
            raise RulesError("name", f"expected a preset name, got {_short(name)}")
        merged = {s.name: s.default for s in _DECLARED}
        for key, reading in (choices or {}).items():
            _check(key, reading)
            merged[key] = reading
        object.__setattr__(self, "_choices", merged)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_hash", hash(tuple(sorted(merged.items()))))

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("Rules is immutable; use rules.replace({...})")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The readings of one source: ``manual`` (1.0), ``v3_5`` or ``player_aid`` ."""
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError("preset", f"unknown preset {_short(name)}; expected one of: "
                             f"{', '.join(PRESETS)}")
        return cls({s.name: s.presets[name] for s in _DECLARED if name in s.presets}, name)

    @property
    def name(self) -> str:
        """The preset this came from, with ``+`` when switches were flipped after."""
        return self._name

    def replace(self, changes: Mapping[str, str] | None = None, **kw: str) -> Rules:
        """A copy with some switches flipped; unknown names or readings raise.

        Keyword form replaces dots with underscores: ``replace(los_vertex="any_two")``.
        """
        if changes is not None and not isinstance(changes, Mapping):
            raise RulesError("changes", f"expected a mapping of switch to reading, got "
                             f"{type(changes).__name__}")
        updates = dict(changes or {})
        for key, reading in kw.items():
            updates[_keyword_switch(key)] = reading
        choices = {**self._choices, **updates}
        changed = any(self._choices.get(k) != v for k, v in updates.items())
        name = self._name if not changed or self._name.endswith("+") else self._name + "+"
        return Rules(choices, name)

    def reads(self, switch: str, reading: str) -> bool:
        """Whether ``switch`` takes ``reading`` here; an unknown switch or reading raises.

        The checked form of ``rules[switch] == reading``: a misspelt reading is an
        error instead of a comparison that is always false.
        """
        _check(switch, reading)
        return self._choices[switch] == reading

    def differences(self, other: Rules) -> tuple[tuple[str, str, str], ...]:
        """``(switch, self's reading, other's reading)`` for every switch that differs."""
        check_rules(other, "other")
        return tuple(
            (s.name, self[s.name], other[s.name])
            for s in _DECLARED
            if self[s.name] != other[s.name]
        )

    def summary(self) -> str:
        """A readable table of every switch's reading, marking those off the default."""
        width = max(len(name) for name in SWITCHES)
        lines = [f"Rules preset: {self._name}"]
        for s in _DECLARED:
            mark = "" if self[s.name] == s.default else f"   (default {s.default})"
            lines.append(f"  {s.name:<{width}}  {self[s.name]}{mark}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """In a notebook: each reading that differs from the manual 1.0, as its plain question
        and label, or "the manual 1.0 readings" when none does."""
        changed = Rules().differences(self)
        if not changed:
            return "<p>The manual 1.0 readings.</p>"
        shipped = _shipped_rulings()
        items = "".join(f"<li>{html.escape(shipped[name].plain_question)} "
                        f"<b>{html.escape(shipped[name].labels[mine])}</b></li>"
                        for name, _, mine in changed)
        return f"<p>The manual 1.0 readings except:</p><ul>{items}</ul>"

    def __getitem__(self, key: str) -> str:
        try:
            return self._choices[key]
        except (KeyError, TypeError):
            raise _unknown_switch(key) from None

    def __contains__(self, key: object) -> bool:
        return key in self._choices

    def __iter__(self) -> Iterator[str]:
        return iter(self._choices)

    def __len__(self) -> int:
        return len(self._choices)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self._choices == other._choices

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        changed = {k: v for k, v in self._choices.items() if v != SWITCHES[k].default}
        return f"Rules(name={self._name!r}, changed={changed!r})"


def _keyword_switch(key: str) -> str:
    for name in SWITCHES:
        if name.replace(".", "_") == key:
            return name
    raise RulesError("switch", f"unknown switch keyword {key!r}")


@dataclass(frozen=True)
class Ruling:
    """The human-readable side of one switch: question, readings, sources, example."""

    name: str
    question: str
    readings: Mapping[str, str]
    sources: tuple[str, ...]
    example: str
    ids: tuple[str, ...] = ()
    """The ruling's IDs (``C-7``, ``D46``): where code or the app names a ruling by ID."""
    plain_question: str = ""
    """The question in a few plain words ("Does a corner where walls meet block sight?")."""
    topic: str = ""
    """What the question is about: a key of :data:`TOPICS`."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """Each reading's short plain label ("a corner never blocks sight"), unique in the ruling."""


@cache
def _shipped_rulings() -> dict[str, Ruling]:
    """The shipped rulings, read once (for the notebook display of :class:`Rules`)."""
    return load_rulings()


def load_rulings(folder: str | Path | None = None) -> dict[str, Ruling]:
    """Every ruling in ``content/rulings``, checked against the code's switch declarations.

    A switch declared in code but missing here, or present here but unknown to
    the code, or with readings that differ, is an error.
    """
    folder = Path(folder) if folder else content_root() / "rulings"
    rulings: dict[str, Ruling] = {}
    for path in sorted(folder.glob("*.toml")):
        rulings_in_file(read_toml(path), rulings)
    missing = [name for name in SWITCHES if name not in rulings]
    if missing:
        raise ContentError(str(folder), 1, 1, "switches declared in code but not written in "
                           f"content/rulings: {', '.join(missing)}")
    return rulings


def rulings_in_file(toml: TomlFile, rulings: dict[str, Ruling] | None = None) -> dict[str, Ruling]:
    """The rulings of one ``kind = "rulings"`` file, added to ``rulings``.

    ``rulings`` changes only when the whole file is good: nothing half-loads.
    """
    rulings = {} if rulings is None else rulings
    found: dict[str, Ruling] = {}
    expect_kind(toml, "rulings")
    for name, entry in toml.data.items():
        if name == "kind":
            continue
        table = _quoted_table(name)
        if not isinstance(entry, dict):
            raise toml.error(None, name, f"{name!r} must be a table [\"{name}\"]")
        if name not in SWITCHES:
            raise toml.error(table, None, f"ruling {name!r} is not a switch the code declares")
        if name in rulings or name in found:
            raise toml.error(table, None, f"ruling {name!r} is written twice")
        check_keys(toml, table, entry, _RULING_KEYS, f"ruling {name}")
        question = require(toml, entry, table, "question", str, "a one-line question")
        readings = require(toml, entry, table, "readings", dict, "a table of reading = explanation")
        _check_readings(toml, table, name, readings, "readings", "explanation")
        sources = require(toml, entry, table, "sources", list, "a list of citations")
        if not sources or not all(isinstance(source, str) and source.strip()
                                  for source in sources):
            raise toml.error(table, "sources", "sources is a list of citations in quotes, such "
                             "as \"manual p22\"")
        example = require(toml, entry, table, "example", str, "a situation where readings differ")
        default = entry.get("default")
        if default is not None and default != SWITCHES[name].default:
            raise toml.error(table, "default", f"default {default!r} differs from the code's "
                             f"default {SWITCHES[name].default!r}")
        ids = entry.get("ids", [])
        if not isinstance(ids, list) or not all(isinstance(i, str) and _RULING_ID.fullmatch(i)
                                                for i in ids):
            raise toml.error(table, "ids", "ids is a list of ruling IDs such as \"C-7\" or "
                             "\"D46\"")
        found[name] = Ruling(name, question, dict(readings), tuple(sources), example,
                             tuple(ids), *_plain_words(toml, table, name, entry))
    rulings.update(found)
    return rulings


_RULING_ID = re.compile(r"C-\d+|D\d+")
_RULING_KEYS = ("question", "plain_question", "topic", "sources", "ids", "default", "example",
                "readings", "labels")
_NOT_PLAIN = re.compile(r"[_=]|\b[a-z0-9]+\.[a-z]")  # an id, a name=value pair, a switch name


def _check_readings(toml: TomlFile, table: str, name: str, readings: dict[str, Any], key: str,
                    what: str) -> None:
    """Every declared reading of ``name`` and no other has a non-empty text in ``readings``."""
    declared = SWITCHES[name].readings
    for reading, text in readings.items():
        if reading not in declared:
            raise toml.error(f"{table}.{key}", reading,
                             f"unknown reading {reading!r} for {name}; the code declares "
                             f"{', '.join(declared)}")
        if not isinstance(text, str) or not text.strip():
            raise toml.error(f"{table}.{key}", reading,
                             f"reading {reading!r} of {name} needs an {what} (text)")
    for reading in declared:
        if reading not in readings:
            raise toml.error(f"{table}.{key}", None, f"reading {reading!r} of {name} is not "
                             + ("explained" if what == "explanation" else f"given a {what}"))


def _plain_words(toml: TomlFile, table: str, name: str,
                 entry: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
    """The ruling's question in plain words, its topic and each reading's label, checked:
    a known topic; labels unique within the ruling; no ids, underscores or ``=`` in any."""
    plain = require(toml, entry, table, "plain_question", str, "the question in plain words")
    if not plain.strip().endswith("?") or _NOT_PLAIN.search(plain) or len(plain) > 120:
        raise toml.error(table, "plain_question", "plain_question is a short question in plain "
                         "words (ends with '?', at most 120 characters, no ids, '_' or '=')")
    topic = require(toml, entry, table, "topic", str, "what the question is about",
                    choices=tuple(TOPICS))
    labels = require(toml, entry, table, "labels", dict, "a table of reading = short label")
    _check_readings(toml, table, name, labels, "labels", "label")
    seen: dict[str, str] = {}
    for reading, label in labels.items():
        if _NOT_PLAIN.search(label) or len(label) > 80 or label != label.strip():
            raise toml.error(f"{table}.labels", reading, f"the label of {reading!r} must be a "
                             "few plain words (at most 80 characters, no ids, '_' or '=')")
        if label.casefold() in seen:
            raise toml.error(f"{table}.labels", reading, f"readings {seen[label.casefold()]!r} "
                             f"and {reading!r} of {name} have the same label")
        seen[label.casefold()] = reading
    return plain.strip(), topic, dict(labels)


def _quoted_table(name: str) -> str:
    return f'"{name}"' if "." in name else name

