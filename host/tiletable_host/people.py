"""Seats and scores as a person reads them on the PC.

Seats count from 1 (``P1`` is the first seat) and carry the player's name when the session
has one; the engine and the journal count seats and hands from 0 (``P0``, ``hand 0``), so
every engine sentence shown is passed through ``for_people``. Buki's scores are kept in
half-chips (``score_scale`` 2) and read as chips.

>>> for_people("hand 0, action 5, P1: must play", ["ann", "bob"])
'hand 1, action 5, bob: must play'
>>> players_text(["P1", "bob"])
'P1, P2 bob'
>>> score_text(-75, 2), score_text(12, signed=True)
('-37.5', '+12')
"""
import re

import tiletable_host  # noqa: F401  (puts firmware/ on sys.path)
from tiletable.engine.betting import chips_text

# a seat, and a hand's number (not a tile in a hand: Mexican Train's "left in hand 1-6 2-3")
_ENGINE_COUNT = re.compile(r"\bP(\d)\b|\bhand (\d+)\b(?![-\d])")


def seat_name(names, seat):
    """The name of ``seat`` (from 0): the session's name for it, else ``P<seat + 1>``."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return "P%d" % (seat + 1)


def seat_label(names, seat):
    """``P2 bob``: the seat from 1 and its player's name; ``P2`` alone when that is its name
    (a game started at the table names its seats ``P1``, ``P2`` ...)."""
    label = "P%d" % (seat + 1)
    name = seat_name(names, seat)
    return label if name == label else "%s %s" % (label, name)


def players_text(names):
    """``P1 ann, P2 bob``, or ``P1, P2`` for seats without names: each seat's default shown once."""
    return ", ".join(seat_label(names, seat) for seat in range(len(names)))


def chance_text(descriptions, names):
    """Chance actions (deals, draws, a widow) in a few words: the engine's sentences for them,
    those that differ only in the last word gathered (``ann receives 0-4 3-4; bob receives 5-5``)."""
    groups = []
    for text in descriptions:
        head, _, item = for_people(text, names).rpartition(" ")
        if groups and groups[-1][0] == head:
            groups[-1][1].append(item)
        else:
            groups.append((head, [item]))
    return "; ".join(" ".join(([head] if head else []) + items) for head, items in groups)


def for_people(text, names):
    """An engine sentence with each seat (``P0``, from 0) named and each hand counted from 1."""

    def recount(match):
        if match.group(1) is not None:
            return seat_name(names, int(match.group(1)))
        return "hand %d" % (int(match.group(2)) + 1)

    return _ENGINE_COUNT.sub(recount, text)


def score_scale(ruleset, players):
    """How many score units make one point or chip in this ruleset (Buki: 2 half-chips)."""
    return getattr(ruleset.new_state(players), "score_scale", 1)


def score_text(score, scale=1, signed=False):
    """A score for people: ``-37.5`` chips from half-chips, a sign in front when ``signed``."""
    text = chips_text(score) if scale == 2 else str(score)
    return "+" + text if signed and score >= 0 else text


def score_value(score, scale=1):
    """A score as a number in the unit people read, for programs (JSON): ``75`` half-chips
    are ``37.5`` chips, ``-84`` of them ``-42``."""
    return score // scale if score % scale == 0 else score / scale


def score_event_text(event, names, scale=1):
    """``ann +10 fives: ends 4 + 6 = 10``: a ScoreEvent with its rule and arithmetic."""
    points = score_text(event.points, scale, signed=True)
    return "%s %s %s: %s" % (seat_name(names, event.seat), points, event.rule, for_people(event.detail, names))


def scores_text(names, scores, scale=1):
    """``ann 13, bob -20``: every seat's score with its name."""
    return ", ".join("%s %s" % (seat_name(names, seat), score_text(score, scale)) for seat, score in enumerate(scores))
