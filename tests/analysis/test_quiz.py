"""The quiz: questions as content, answers computed by the rules core, the quiz view.

Each answer is checked against the rules core called directly or a brute-force count
(the quiz adds no rule of its own); bad quiz files fail at file:line:col.
"""

import itertools
from fractions import Fraction

import pytest

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.quiz import (
    TOPICS,
    answer,
    board_of,
    check,
    load_quiz,
    load_quiz_file,
    parse_space,
    pick,
    question_rules,
)
from machina_nb.rules.analysis.risk import monster_phase
from machina_nb.rules.analysis.risk_answer import reach_spaces, standing_at, whose_turn
from machina_nb.rules.analysis.situation import load_situation
from machina_nb.rules.board import distance, sight
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError
from machina_nb.rules.rulings import Rules
from machina_nb.views.quiz import QuizView

QUESTIONS = load_quiz()


def test_at_least_24_questions_across_every_topic():
    assert len(QUESTIONS) >= 24
    assert {q.topic for q in QUESTIONS} == set(TOPICS)
    for topic in TOPICS:
        assert sum(q.topic == topic for q in QUESTIONS) >= 4, topic


@pytest.mark.parametrize("question", [q for q in QUESTIONS if q.ask == "sight"],
                         ids=lambda q: q.id)
def test_manual_p22_sight_answers_are_the_rules_line_of_sight(question):
    board = board_of(question)
    units = board.units()
    seen = sight.line_of_sight(board, units[question.source], units[question.to],
                               question_rules(question, Rules()))
    assert answer(question, Rules()).correct == {"yes" if seen.visible else "no"}


# the dice's faces as the manual prints them (p24), written out here: an independent oracle
HIGH_FACES, LOW_FACES = (0, 1, 1, 2, 2, 3), (0, 1, 1, 1, 2, 2)


def _faces(pool: str) -> list[tuple[int, ...]]:
    """``1H1L`` -> one tuple of faces per die."""
    out, count = [], ""
    for char in pool:
        if char.isdigit():
            count += char
        else:
            out += [HIGH_FACES if char == "H" else LOW_FACES] * int(count or 1)
            count = ""
    return out


@pytest.mark.parametrize("question", [q for q in QUESTIONS if q.ask == "hit"],
                         ids=lambda q: q.id)
def test_manual_p24_hit_answers_match_a_brute_force_count(question):
    hits = total = 0
    for roll in itertools.product(*_faces(question.pool)):
        total += 1
        hits += sum(roll) + question.essence >= question.defense
    assert answer(question, Rules()).correct == {str(Fraction(hits, total))}


@pytest.mark.parametrize("question", [q for q in QUESTIONS if q.ask == "reach"],
                         ids=lambda q: q.id)
def test_manual_p34_reach_answers_follow_the_least_stamina(question):
    board = board_of(question)
    start = board.units()[question.source]
    cost = distance.shortest_paths(board, start, question.space, Rules(),
                                   distance.Mover(unit=board.unit_at(start))).cost
    reachable = cost is not None and cost <= question.stamina
    assert answer(question, Rules()).correct == {"yes" if reachable else "no"}


def test_manual_p16_every_tie_is_a_right_answer():
    tie = next(q for q in QUESTIONS if q.id == "target-tie")
    assert answer(tie, Rules()).correct == {(0, 0), (4, 0)}
    assert check(tie, Rules(), (0, 0)) and check(tie, Rules(), (4, 0))
    assert not check(tie, Rules(), (2, 0))


def test_answers_follow_the_rulings_in_force():
    nearest = next(q for q in QUESTIONS if q.id == "nearest-count")
    assert answer(nearest, Rules()).correct == {(2, 2)}                  # chebyshev: 2 vs 3
    manhattan = Rules().replace({"nearest.metric": "manhattan"})
    assert answer(nearest, manhattan).correct == {(3, 0)}                # 4 vs 3


def test_switch_los_vertex_a_question_may_fix_its_own_reading():
    plain, any_two = pick(QUESTIONS, "sight-corner", "sight-corner-any-two")
    assert answer(plain, Rules()).correct == {"yes"}                    # separating
    assert answer(any_two, Rules()).correct == {"no"}                   # its own reading
    touch = Rules().replace({"los.vertex": "touch_ok"})
    assert answer(any_two, touch).correct == {"no"}                     # whatever is in force
    assert question_rules(any_two, touch)["los.vertex"] == "any_two"


# The manual's own words on the inventory tree (p31 wrong combinations, p32): the oracle.
P31 = {"items-vest-on-boots": "yes", "items-torso-on-torso": "no",
       "items-revolver-on-teleportabulus": "yes", "items-weapon-on-apparel": "no",
       "items-wrong-augment": "no"}


@pytest.mark.parametrize("question", [q for q in QUESTIONS if q.ask == "attach"],
                         ids=lambda q: q.id)
def test_manual_p31_attach_answers_follow_the_inventory_tree(question):
    reply = answer(question, Rules())
    assert reply.correct == {P31[question.id]} and "manual p31" in reply.rule
    assert "None" not in reply.explanation


def _one_round_no_spawn(rating: int, players: int, moving: bool) -> Fraction:
    """P(no spawn in one Spawn phase), counted over every d10 face of each roll: a roll
    spawns on the rating or more; under 1.0 a failed roll lowers the rating for the next."""
    misses = 0
    for faces in itertools.product(range(10), repeat=players):
        current, spawned = rating, False
        for face in faces:
            spawned = spawned or face >= current
            current = current - 1 if moving and face < current else current
        misses += not spawned
    return Fraction(misses, 10 ** players)


@pytest.mark.parametrize("question", [q for q in QUESTIONS if q.ask == "spawn_rounds"],
                         ids=lambda q: q.id)
def test_manual_p13_and_3_5_spawn_round_answers_match_a_count_of_the_dice(question):
    assert question.rounds == 1
    if question.preset == "v3_5":     # 3.5: -1 per explorer beyond the first, never below 3
        rating = max(3, question.rating - (question.players - 1)) if question.rating > 3 \
            else question.rating
        none = _one_round_no_spawn(rating, question.players, moving=False)
    else:
        none = _one_round_no_spawn(question.rating, question.players, moving=True)
    reply = answer(question, Rules())
    assert reply.correct == {str(1 - none)} and str(1 - none) in reply.options


def test_parse_space_reads_board_labels():
    assert parse_space("C6") == (2, 5)
    with pytest.raises(Exception, match="space"):
        parse_space("6C")


@pytest.mark.parametrize("text, where, message", [
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "sight"\nask = "look"\nprompt = "?"\n',
     ":5:", "unknown ask 'look'"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "maths"\nask = "hit"\nprompt = "?"\n'
     'pool = "1H"\ndefense = 2\n', ":4:", "unknown topic"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "attacks"\nask = "hit"\nprompt = "?"\n'
     'pool = "1H"\ndefense = 2\ncolour = "red"\n', ":9:", "unknown key 'colour'"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "sight"\nask = "sight"\nprompt = "?"\n'
     'board = """\n+-+-+\n|A .|\n+-+-+\n"""\nunits = {A = "Kim"}\nfrom = "A"\nto = "M"\n',
     ":14:", "unit 'M' is not on the board"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "sight"\nask = "sight"\nprompt = "?"\n'
     'from = "A"\nto = "M"\n', ":2:", "missing key 'board'"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "sight"\nask = "sight"\nprompt = "?"\n'
     'board = """\n+-+-+\n|A M|\n+-+-+\n"""\nunits = {A = "Kim", M = "Mi-Go"}\nfrom = "A"\n',
     ":2:", "missing key 'to': ask = 'sight' needs from, to"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "sight"\nask = "sight"\nprompt = "?"\n'
     'board = """\n+-+-+\n|A M|\n+-+-+\n"""\nunits = {A = "Kim", M = "Mi-Go"}\nfrom = "A"\n'
     'to = ""\n', ":14:", "unit '' is not on the board"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "items"\nask = "attach"\nprompt = "?"\n'
     'host = "hobnailed_boots"\nitem = "displacer_vest"\nhow = "glue"\n', ":9:", "unknown how"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "items"\nask = "attach"\nprompt = "?"\n'
     'host = "hobnailed_boot"\nitem = "displacer_vest"\nhow = "upgrade"\n', ":2:",
     "unknown item 'hobnailed_boot'"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "spawn"\nask = "spawn_rounds"\n'
     'prompt = "?"\nrating = 6\nplayers = 2\nrounds = 1\npreset = "v35"\n', ":10:",
     "unknown preset 'v35'"),
    ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "attacks"\nask = "hit"\nprompt = "?"\n'
     'pool = "1H"\ndefense = 2\nrulings = {"los.vertx" = "any_two"}\n', ":2:", "los.vertx"),
])
def test_bad_quiz_files_fail_at_file_line_col(tmp_path, text, where, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ContentError) as error:
        load_quiz_file(path)
    assert str(path) + where in str(error.value) and message in str(error.value)


def test_quiz_view_right_and_wrong_with_the_answer_why_and_the_rule():
    view = QuizView(QUESTIONS)
    first = view.question
    right = answer(first, Rules())
    wrong = next(o for o in (right.options or ("yes", "no")) if o not in right.correct)
    assert not view.reply(wrong)
    assert "Not quite" in view.feedback.value and "Rule: manual p" in view.feedback.value
    view.go(0)
    assert view.reply(next(iter(right.correct)))
    assert "Right." in view.feedback.value
    view.go(next(i for i, q in enumerate(QUESTIONS) if q.ask == "monster_target"))
    target = next(iter(answer(view.question, Rules()).correct))
    assert view.reply(target)
    roles = view._views[view.pick.value].sources["overlay"].data["role"]
    assert "answer" in roles
    assert "the right answer" in view._views[view.pick.value].legend.value


def test_a_yes_or_no_question_on_a_board_is_answered_with_a_button_and_scored():
    """A sight question has a board but a yes/no answer: the button answers it, the score
    counts it and nothing is outlined (manual p22)."""
    view = QuizView(pick(QUESTIONS, "sight-behind-wall", "reach-around-wall"))
    assert "answer with the buttons" in view._views[0].title.value
    assert view.reply("no") and "Score: 1 of 1" in view.score.value
    assert view._views[0].sources["overlay"].data["role"] == []


# --- where is it safe to stand? ---------------------------------------------------------------

SAFEST = [q for q in QUESTIONS if q.ask == "safest_space"]


def test_safest_space_questions_come_from_three_situations_or_more():
    assert len({q.situation for q in SAFEST}) >= 3


@pytest.mark.parametrize("question", SAFEST, ids=lambda q: q.id)
def test_manual_p15_17_the_safest_space_is_the_monster_phase_played_on_each_space(question):
    """The oracle: the whole monster phase asked once per space with the explorer standing
    there; the right answers are every space with the least chance of destruction, then the
    least expected health lost. The situation's own risk map (``ask``) says the same."""
    situation = load_situation(content_root() / "situations" / f"{question.situation}.toml")
    rules = Rules()
    uid, state = whose_turn(situation, question.source, situation.state_at(rules), rules)
    risk = {}
    for space in reach_spaces(state, rules, uid):
        phase = monster_phase(standing_at(state, uid, space), rules)
        i = phase.explorers.index(uid)
        risk[space] = (phase.destroyed(phase.best, i), phase.health_lost(phase.best, i))
    least = min(risk.values())
    assert answer(question, rules).correct == {p for p, r in risk.items() if r == least}
    maps = [a.value["spaces"] for a, q in zip(ask(situation), situation.questions)
            if q.ask == "risk_map" and q.get("unit") == question.source]
    for spaces in maps:
        read = {p: (Fraction(spaces[f"({p[0]}, {p[1]})"]["destroyed"]),
                    Fraction(spaces[f"({p[0]}, {p[1]})"]["health_lost"])) for p in risk}
        assert read == risk


def test_a_safest_space_question_is_answered_on_its_situations_board():
    question = pick(QUESTIONS, "safe-between-two-monsters")[0]
    assert question.board == "" and dict(question.names)["M"] == "Mi-Go"
    assert set(board_of(question).units()) == {"S", "K", "P", "M"}
    reply = answer(question, Rules())
    assert reply.correct == {(3, 0), (3, 1)}
    assert "Safest: D1, D2" in reply.explanation and "None" not in reply.explanation
    view = QuizView((question,))
    assert not view.reply((5, 0)) and "D1" in view.feedback.value
    assert view.reply((3, 1))
    roles = view._views[0].sources["overlay"].data["role"]
    assert roles.count("answer") == 2


SAFE = ('kind = "quiz"\n[[question]]\nid = "x"\ntopic = "mindless turn"\n'
        'ask = "safest_space"\nprompt = "?"\n')


@pytest.mark.parametrize("text, where, message", [
    (SAFE + 'situation = "no_such"\nfrom = "K"\n', ":7:", "no situation 'no_such'"),
    (SAFE + 'situation = "risk_map"\nfrom = "K"\nboard = "+-+"\n', ":9:",
     "'board' comes from the situation"),
    (SAFE + 'situation = "risk_map"\nfrom = "P"\n', ":2:", "whose turn it is"),
    (SAFE + 'situation = "risk_map"\n', ":2:", "missing key 'from'"),
])
def test_bad_safest_space_questions_fail_at_file_line_col(tmp_path, text, where, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ContentError) as error:
        load_quiz_file(path)
    assert str(path) + where in str(error.value) and message in str(error.value)
    assert "\n" not in str(error.value)
